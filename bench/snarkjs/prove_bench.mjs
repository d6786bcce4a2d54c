// Times snarkjs.groth16.prove(zkey, wtns) in one node process, the way a
// service embedding snarkjs would call it: the first call builds the curve
// (wasm + worker threads) and is a warm-up, not counted; each timed call
// still reads the zkey and witness files (from the page cache) and does the
// whole proof: QAP evaluation, 3 iFFT + 3 coset FFT, the five MSMs.
// After the runs, the last proof is checked with snarkjs.groth16.verify
// (outside the timing).
//
//   node prove_bench.mjs ZKEY WTNS VKEY_JSON RUNS
// Output on stdout: "snarkjs_api_run_ms <ms>" per run, then
// "snarkjs_api_verify ok" (exit status 1 if the proof does not verify).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import * as snarkjs from "snarkjs";

const [zkey, wtns, vkeyPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
if (!zkey || !wtns || !vkeyPath || !(runs >= 1)) {
  console.error("usage: node prove_bench.mjs ZKEY WTNS VKEY_JSON RUNS");
  process.exit(2);
}
const vkey = JSON.parse(readFileSync(vkeyPath, "utf8"));

let t = performance.now();
let res = await snarkjs.groth16.prove(zkey, wtns);
console.error(`snarkjs warm-up prove (includes curve build): ${(performance.now() - t).toFixed(0)} ms`);
for (let i = 0; i < runs; i++) {
  t = performance.now();
  res = await snarkjs.groth16.prove(zkey, wtns);
  console.log(`snarkjs_api_run_ms ${(performance.now() - t).toFixed(1)}`);
}
const ok = await snarkjs.groth16.verify(vkey, res.publicSignals, res.proof);
console.log(`snarkjs_api_verify ${ok ? "ok" : "FAILED"}`);
process.exit(ok ? 0 : 1);
