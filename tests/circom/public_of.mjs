// Writes the public signals of a witness as `snarkjs groth16 prove` writes
// public.json: witness values 1 .. nOutputs + nPubInputs (counts from the
// .r1cs header), decimal strings, one-space indentation. For circuits whose
// key is not kept (gen.sh's big kind).
//
//   node public_of.mjs CIRCUIT.r1cs WITNESS.wtns OUT.json
import { readFileSync, writeFileSync } from "node:fs";

// The body of section id of an iden3 binary file.
function section(buf, id) {
  let o = 12;
  for (let i = 0; i < buf.readUInt32LE(8); i++) {
    const sid = buf.readUInt32LE(o), size = Number(buf.readBigUInt64LE(o + 4));
    if (sid === id) return buf.subarray(o + 12, o + 12 + size);
    o += 12 + size;
  }
  throw new Error(`no section ${id}`);
}

const [r1csPath, wtnsPath, out] = process.argv.slice(2);
const h = section(readFileSync(r1csPath), 1);
const n8 = h.readUInt32LE(0), nOut = h.readUInt32LE(4 + n8 + 4), nPub = h.readUInt32LE(4 + n8 + 8);
const w = section(readFileSync(wtnsPath), 2);
const values = [];
for (let i = 1; i <= nOut + nPub; i++) {
  let v = 0n;
  for (let k = n8 - 1; k >= 0; k--) v = (v << 8n) | BigInt(w[i * n8 + k]);
  values.push(v.toString());
}
writeFileSync(out, JSON.stringify(values, null, 1));
