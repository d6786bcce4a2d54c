// A BENCHMARK-ONLY powers-of-tau file with KNOWN toxic waste, written
// directly in snarkjs's prepared .ptau layout, for `snarkjs groth16 setup`.
//
// Why: snarkjs's own route (powersoftau new, contribute, prepare phase2)
// turns tau powers into Lagrange bases with group FFTs, n/2 log n scalar
// multiplications per power; on this 2-core machine under load it did not
// finish in the time we had (README.md). Knowing tau, alpha and beta, each
// Lagrange point is one scalar multiplication of the generator:
//   L_i(tau) = (tau^n - 1)/n * w^i / (tau - w^i),  w = Fr.w[log2 n].
// The proving time of a Groth16 proof does not depend on the toxic waste, so
// such a setup is fine for timing and useless for anything else: the secrets
// are random per run but live in this process's memory.
//
//   node fast_ptau.mjs --power P --out FILE [--curve bls12381|bn128] [--full]
//
// Default (minimal): only what `snarkjs groth16 setup` (zkey_new.js) reads
// for a circuit whose domain is exactly 2^P is filled: alpha*G1, beta*G1,
// beta*G2, the Lagrange sections 12-15 at power P, and the odd points of
// section 12 at power P+1 (the H query). Every other point is the point at
// infinity (all-zero bytes), so `powersoftau verify` rejects the file and
// setups for smaller domains would be wrong.
// --full: every section holds its true values (tau powers and the Lagrange
// bases of every power), for cross-checking against `snarkjs powersoftau
// prepare phase2` at small P (see README.md).
//
// Layout (powersoftau_new.js, powersoftau_utils.js, preparephase2.js):
// "ptau", u32 version 1, u32 11 sections; section 1: u32 n8q, q, u32 power,
// u32 ceremonyPower; 2: tauG1 (2^(P+1) - 1 points); 3: tauG2 (2^P);
// 4: alphaTauG1 (2^P); 5: betaTauG1 (2^P); 6: betaG2 (1); 7: u32 number of
// contributions (0); 12..15: the Lagrange forms of 2..5, for p = 0..P one
// after the other (and p = P+1 for 12). Points are affine, x then y, each
// coordinate little endian in Montgomery form ("LEM"); infinity is zeros.
import { fork } from "node:child_process";
import { openSync, writeSync, closeSync, renameSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { buildBls12381, buildBn128 } from "ffjavascript";

const build = (name) => (name === "bn128" ? buildBn128(true) : buildBls12381(true));

// Workers are child processes: ffjavascript's web-worker shim claims every
// worker_threads thread as one of its own.
const WORKER_FLAG = "--fast-ptau-worker";
if (process.argv[2] === WORKER_FLAG) {
  // Worker: scalar multiples of the generator, as affine LEM points.
  const curve = await build(process.argv[3]);
  process.on("message", ({ id, group, scalars }) => {
    const G = curve[group];
    const n8r = curve.Fr.n8, sG = G.F.n8 * 2, k = scalars.length / n8r;
    const out = new Uint8Array(k * sG);
    for (let i = 0; i < k; i++) {
      const e = scalars.subarray(i * n8r, (i + 1) * n8r);
      out.set(G.toAffine(G.timesFr(G.g, e)), i * sG);
    }
    process.send({ id, out });
  });
  process.on("disconnect", () => process.exit(0));
} else {
  await main();
}

function parseArgs(argv) {
  const o = { power: 0, out: "", curve: "bls12381", full: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--power") o.power = Number(argv[++i]);
    else if (a === "--out") o.out = argv[++i];
    else if (a === "--curve") o.curve = argv[++i];
    else if (a === "--full") o.full = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!(o.power >= 1 && o.power <= 26) || !o.out) {
    throw new Error("usage: node fast_ptau.mjs --power P --out FILE [--curve C] [--full]");
  }
  return o;
}

// A pool of workers, one per core; each job is a batch of scalars.
function makePool(curveName) {
  const n = Math.max(1, cpus().length);
  const workers = [], idle = [], waiting = [], pending = new Map();
  let nextId = 0;
  for (let i = 0; i < n; i++) {
    const w = fork(fileURLToPath(import.meta.url), [WORKER_FLAG, curveName],
                   { serialization: "advanced" });
    w.on("message", ({ id, out }) => {
      pending.get(id)(new Uint8Array(out));
      pending.delete(id);
      if (waiting.length) waiting.shift()(w); else idle.push(w);
    });
    w.on("error", (e) => { console.error(e); process.exit(1); });
    workers.push(w);
    idle.push(w);
  }
  const getWorker = () => (idle.length ? Promise.resolve(idle.pop()) : new Promise((r) => waiting.push(r)));
  return {
    async run(group, scalars) {
      const w = await getWorker();
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        w.send({ id, group, scalars });
      });
    },
    close() { for (const w of workers) w.disconnect(); },
  };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const curve = await build(o.curve);
  const Fr = curve.Fr, P = o.power;
  const n8r = Fr.n8, sG1 = curve.G1.F.n8 * 2, sG2 = curve.G2.F.n8 * 2;
  const pool = makePool(o.curve);

  const randFr = () => Fr.random();
  const tau = randFr(), alpha = randFr(), beta = randFr();

  // k * G for every scalar in list (Fr elements), in batches over the pool.
  async function mults(group, list) {
    const sG = group === "G1" ? sG1 : sG2;
    const out = new Uint8Array(list.length * sG);
    const B = 2048, jobs = [];
    for (let s = 0; s < list.length; s += B) {
      const part = list.slice(s, s + B);
      const sc = new Uint8Array(part.length * n8r);
      part.forEach((e, i) => sc.set(e, i * n8r));
      jobs.push(pool.run(group, sc).then((r) => out.set(r, s * sG)));
    }
    await Promise.all(jobs);
    return out;
  }

  // L_i(tau), i = 0..2^p - 1, for the domain of the 2^p-th roots of unity.
  // At p = P + 1 snarkjs interpolates the 2^(P+1) - 1 tau powers it has with
  // a zero in place of tau^(n-1) (preparephase2.js), which removes
  // tau^(n-1) w^(-i(n-1)) / n = tau^(n-1) w^i / n from each L_i: so do we.
  function lagrange(p) {
    const n = 2 ** p, w = Fr.w[p];
    const c = Fr.div(Fr.sub(Fr.exp(tau, n), Fr.one), Fr.e(n));
    const drop = p === P + 1 ? Fr.div(Fr.exp(tau, n - 1), Fr.e(n)) : Fr.zero;
    const res = new Array(n);
    let wi = Fr.one;
    for (let i = 0; i < n; i++) {
      res[i] = Fr.sub(Fr.mul(c, Fr.div(wi, Fr.sub(tau, wi))), Fr.mul(drop, wi));
      wi = Fr.mul(wi, w);
    }
    return res;
  }
  function powers(x, n, times) {
    const res = new Array(n);
    let acc = times;
    for (let i = 0; i < n; i++) { res[i] = acc; acc = Fr.mul(acc, x); }
    return res;
  }
  const scale = (list, k) => list.map((e) => Fr.mul(e, k));

  const tmp = o.out + ".tmp";
  const fd = openSync(tmp, "w");
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); writeSync(fd, b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); writeSync(fd, b); };
  const section = (id, size) => { u32(id); u64(size); };
  const put = (buf) => writeSync(fd, buf);

  const t0 = performance.now();
  writeSync(fd, Buffer.from("ptau", "ascii"));
  u32(1); u32(11);
  const n8q = curve.F1.n64 * 8, qb = Buffer.alloc(n8q);
  let q = curve.q;
  for (let i = 0; i < n8q; i++) { qb[i] = Number(q & 0xffn); q >>= 8n; }
  section(1, 4 + n8q + 8); u32(n8q); put(qb); u32(P); u32(P);

  const N = 2 ** P;
  // Sections 2..5: tau powers (full), else only the first points.
  const firstOnly = (group, list, len, size) => {
    const out = new Uint8Array(len * size);
    return mults(group, list).then((r) => { out.set(r, 0); return out; });
  };
  const sec2 = o.full ? await mults("G1", powers(tau, 2 * N - 1, Fr.one))
                      : await firstOnly("G1", [Fr.one], 2 * N - 1, sG1);
  section(2, sec2.length); put(sec2);
  const sec3 = o.full ? await mults("G2", powers(tau, N, Fr.one))
                      : await firstOnly("G2", [Fr.one, tau], N, sG2);
  section(3, sec3.length); put(sec3);
  const sec4 = o.full ? await mults("G1", powers(tau, N, alpha))
                      : await firstOnly("G1", [alpha], N, sG1);
  section(4, sec4.length); put(sec4);
  const sec5 = o.full ? await mults("G1", powers(tau, N, beta))
                      : await firstOnly("G1", [beta], N, sG1);
  section(5, sec5.length); put(sec5);
  const sec6 = await mults("G2", [beta]);
  section(6, sec6.length); put(sec6);
  section(7, 4); u32(0);

  // Sections 12..15: Lagrange bases for p = 0..P (12 also P + 1).
  const specs = [
    [12, "G1", sG1, Fr.one, P + 1],
    [13, "G2", sG2, Fr.one, P],
    [14, "G1", sG1, alpha, P],
    [15, "G1", sG1, beta, P],
  ];
  for (const [id, group, sG, k, top] of specs) {
    section(id, (2 ** (top + 1) - 1) * sG);
    for (let p = 0; p <= top; p++) {
      const n = 2 ** p;
      if (o.full || p === P) {
        put(await mults(group, scale(lagrange(p), k)));
      } else if (p === P + 1) {
        // The H query reads only the odd points of power P + 1.
        const l = lagrange(p), odd = [];
        for (let i = 1; i < n; i += 2) odd.push(l[i]);
        const r = await mults(group, odd), out = new Uint8Array(n * sG);
        for (let j = 0; j < odd.length; j++) {
          out.set(r.subarray(j * sG, (j + 1) * sG), (2 * j + 1) * sG);
        }
        put(out);
      } else {
        put(new Uint8Array(n * sG));
      }
    }
    console.error(`fast_ptau: section ${id} done at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  closeSync(fd);
  renameSync(tmp, o.out);
  pool.close();
  console.error(`fast_ptau: wrote ${o.out} (power ${P}, ${o.full ? "full" : "minimal"}) ` +
    `in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
}
