// Writes the R1CS of a squaring chain and its witness in the iden3 binary
// formats that snarkjs reads (.r1cs v1, .wtns v2), without circom.
//
//   node gen_chain.mjs --n N --curve bls12381 --out DIR [--private-x0] [--x0 3]
//
// Prints the base path of the two files (DIR/chain_n<N>_<curve>[_prv]).
// Shape, the same as cz_synthetic_chain (include/cuzk/synthetic.h):
//   wire 0      = ONE (the constant, as in every iden3 R1CS)
//   wire 1      = x_0 (public input; private with --private-x0)
//   wire i+1    = x_i = x_{i-1}^2            for i = 1..N
//   constraint i (0-based): (x_i) * (x_i) = (x_{i+1}), every LC a single
//   term with coefficient 1.
// So nVars = N + 2, nConstraints = N, nOutputs = 0, nPubInputs = 1 (0 with
// --private-x0). Like bellperson, snarkjs adds one "input" constraint per
// public input and ONE, so the QAP domain is the next power of two >= N + 2.
// The witness is dense: x_0 = 3 squares past the field size after 8 steps,
// so every later x_i is a full-width field element.
//
// Formats (read from r1csfile/src/r1csfile.js, snarkjs/src/wtns_utils.js and
// @iden3/binfileutils): magic (4 ASCII), u32 version, u32 section count, then
// sections of (u32 id, u64 byte size, body). All integers little endian;
// field elements are n8 bytes, canonical (not Montgomery) little endian.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const PRIMES = {
  // BLS12-381 scalar field r (the curve cuzk proves on).
  bls12381: 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n,
  // BN254 scalar field, only as a fallback.
  bn128: 21888242871839275222246405745257275088548364400416034343698204186575808495617n,
};

function parseArgs(argv) {
  const o = { n: 2 ** 16, curve: "bls12381", out: ".", publicX0: true, x0: 3n };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--n") o.n = Number(argv[++i]);
    else if (a === "--curve") o.curve = argv[++i];
    else if (a === "--out") o.out = argv[++i];
    else if (a === "--private-x0") o.publicX0 = false;
    else if (a === "--x0") o.x0 = BigInt(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (!(o.curve in PRIMES)) throw new Error(`unknown curve ${o.curve}`);
  if (!(Number.isInteger(o.n) && o.n >= 1 && o.n <= 2 ** 26)) throw new Error("--n must be 1..2^26");
  return o;
}

// Growable little-endian byte writer; sections patch their size afterwards.
class Writer {
  constructor(cap) { this.buf = Buffer.alloc(cap); this.pos = 0; }
  need(n) {
    if (this.pos + n <= this.buf.length) return;
    const b = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(b, 0, 0, this.pos);
    this.buf = b;
  }
  u32(v) { this.need(4); this.buf.writeUInt32LE(v, this.pos); this.pos += 4; }
  u64(v) { this.need(8); this.buf.writeBigUInt64LE(BigInt(v), this.pos); this.pos += 8; }
  ascii(s) { this.need(s.length); this.buf.write(s, this.pos, "ascii"); this.pos += s.length; }
  field(v, n8) {
    this.need(n8);
    for (let i = 0; i < n8; i++) { this.buf[this.pos + i] = Number(v & 0xffn); v >>= 8n; }
    if (v !== 0n) throw new Error("field element does not fit n8 bytes");
    this.pos += n8;
  }
  beginSection(id) { this.u32(id); this.sizeAt = this.pos; this.u64(0); }
  endSection() { this.buf.writeBigUInt64LE(BigInt(this.pos - this.sizeAt - 8), this.sizeAt); }
  bytes() { return this.buf.subarray(0, this.pos); }
}

// n8 as snarkjs computes it: whole 64-bit words holding the prime.
function n8Of(p) { return Math.floor((p.toString(2).length - 1) / 64 + 1) * 8; }

function writeR1cs(path, p, n, nPub) {
  const n8 = n8Of(p);
  const nVars = n + 2;
  const w = new Writer(64 + n * 3 * (8 + n8) + nVars * 8);
  w.ascii("r1cs"); w.u32(1); w.u32(3);

  w.beginSection(1); // header
  w.u32(n8); w.field(p, n8);
  w.u32(nVars);
  w.u32(0);          // nOutputs
  w.u32(nPub);       // nPubInputs
  w.u32(1 - nPub);   // nPrvInputs (x_0 is the only input)
  w.u64(nVars);      // nLabels
  w.u32(n);          // nConstraints
  w.endSection();

  w.beginSection(2); // constraints: A, B, C each as (u32 count, (u32 wire, coeff)*)
  for (let i = 0; i < n; i++) {
    for (const wire of [i + 1, i + 1, i + 2]) { w.u32(1); w.u32(wire); w.field(1n, n8); }
  }
  w.endSection();

  w.beginSection(3); // wire -> label id: identity
  for (let i = 0; i < nVars; i++) w.u64(i);
  w.endSection();

  writeFileSync(path, w.bytes());
}

function writeWtns(path, p, n, x0) {
  const n8 = n8Of(p);
  const nVars = n + 2;
  const w = new Writer(64 + nVars * n8);
  w.ascii("wtns"); w.u32(2); w.u32(2);
  w.beginSection(1);
  w.u32(n8); w.field(p, n8); w.u32(nVars);
  w.endSection();
  w.beginSection(2);
  w.field(1n, n8);
  let x = x0 % p;
  w.field(x, n8);
  for (let i = 0; i < n; i++) { x = (x * x) % p; w.field(x, n8); }
  w.endSection();
  writeFileSync(path, w.bytes());
  return x;
}

const o = parseArgs(process.argv.slice(2));
const p = PRIMES[o.curve];
const n = o.n;
const nPub = o.publicX0 ? 1 : 0;
mkdirSync(o.out, { recursive: true });
const base = join(o.out, `chain_n${n}_${o.curve}${o.publicX0 ? "" : "_prv"}`);
writeR1cs(`${base}.r1cs`, p, n, nPub);
const last = writeWtns(`${base}.wtns`, p, n, o.x0);
console.error(`wrote ${base}.r1cs and ${base}.wtns: ${n} constraints, ${n + 2} wires, ` +
  `${nPub} public inputs, x_N = 0x${last.toString(16)}`);
console.log(base);
