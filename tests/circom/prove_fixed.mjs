// A snarkjs proof with fixed r and s, for tests that compare cuzk's proof
// with snarkjs's byte for byte (tests/groth16/test_zkey.c):
// groth16_prove.js draws r, then s, from curve.Fr.random(); the curve is
// built once per process and shared, so replacing that method on it makes
// snarkjs's own prover use these values.
//
//   node prove_fixed.mjs ZKEY WTNS OUT.json
// OUT.json is written as `snarkjs groth16 prove` writes proof.json.
import { writeFileSync } from "node:fs";
import * as snarkjs from "snarkjs";
import { buildBls12381 } from "ffjavascript";

export const FIXED_R = "12345678901234567890";
export const FIXED_S = "98765432109876543210";

const [zkey, wtns, out] = process.argv.slice(2);
const curve = await buildBls12381();
const draws = [curve.Fr.e(FIXED_R), curve.Fr.e(FIXED_S)];
curve.Fr.random = () => {
  if (!draws.length) throw new Error("more than two random draws");
  return draws.shift();
};
const { proof } = await snarkjs.groth16.prove(zkey, wtns);
if (draws.length) throw new Error("snarkjs drew fewer than two random values");
writeFileSync(out, JSON.stringify(proof, null, 1));
process.exit(0);
