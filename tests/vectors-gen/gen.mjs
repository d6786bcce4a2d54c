// Generates tests/data/noble-bls12-381.json: BLS12-381 vectors computed by
// @noble/curves (an independent implementation), read by tests/ec/test_noble_*.c.
// Deterministic: all randomness comes from a SHA-256 counter stream over SEED,
// so rerunning with the same pinned noble version gives the same file.
//
// JSON schema (every field element / scalar is a big-endian hex string of the
// canonical value, no 0x prefix; Fp: 96 hex digits, Fr and scalars: 64):
// {
//   "source": "@noble/curves", "noble_version": "2.4.0", "seed": "...",
//   "fp": { "mul":  [{"a","b","r"}],            r = a*b
//           "inv":  [{"a","r"}],                r = 1/a, null when a = 0
//           "sqrt": [{"a","is_square","root"}]  root: noble's root (null when
//                    not a square); a root is defined only up to sign, so a
//                    test checks root'^2 = a and root' = +-root },
//   "fr":  same as "fp" with 32-byte elements,
//   "fp2": { "mul": [{"a","b","r"}], "inv": [{"a","r"}], "sqrt": [...] } where
//           each element is {"c0": hex, "c1": hex} meaning c0 + c1*u,
//   "g1" / "g2": {
//     "add": [{"p","q","r"}]  r = p + q
//     "dbl": [{"p","r"}]      r = 2p
//     "mul": [{"p","k","r"}]  r = [k]p, k a 256-bit big-endian scalar (may be >= r;
//                             then r = [k mod r]p since p has order r)
//     "encodings": [{"point"}]  valid points (and the identity) to decode and re-encode
//     "invalid": [{"encoding","form","reason","note"}]  encodings noble rejects;
//        form: "compressed" | "uncompressed";
//        reason: "bad_flags" | "noncanonical" | "not_on_curve" | "not_in_subgroup"
//        (each vector has exactly one defect; a not_in_subgroup point is on the curve)
//   } where a point is {"compressed": hex, "uncompressed": hex} in the zcash
//     encoding (G1: 48/96 bytes; G2: 96/192 bytes, each Fp2 coordinate c1 then c0);
//   "pairing": [{"a","b","p","q","e"}]  p = [a]G1, q = [b]G2 (points as above),
//     e = e(p, q) as 576 bytes: the 12 Fp coefficients of Fp12 = Fp6[w]/(w^2 - v),
//     Fp6 = Fp2[v]/(v^3 - (1+u)), Fp2 = Fp[u]/(u^2 + 1), lowest tower position
//     first, c0 before c1 at every level: c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1,
//     c0.c2.c0, c0.c2.c1, c1.c0.c0, ..., c1.c2.c1, each 48 bytes big-endian.
// }
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, '..', 'data', 'noble-bls12-381.json');
const NOBLE_VERSION = JSON.parse(
  readFileSync(join(HERE, 'node_modules', '@noble', 'curves', 'package.json'), 'utf8')
).version;
const SEED = 'cuzk noble-bls12-381 vectors v1';

const { Fp, Fr, Fp2, Fp6, Fp12 } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;

function assert(cond, msg) {
  if (!cond) throw new Error('assertion failed: ' + msg);
}

// ---- deterministic randomness: SHA-256(SEED || counter) blocks ----
let counter = 0n;
function randBytes(n) {
  const out = [];
  while (out.length < n) {
    const h = createHash('sha256').update(SEED).update(counter.toString()).digest();
    counter++;
    out.push(...h);
  }
  return Uint8Array.from(out.slice(0, n));
}
const bytesToBig = (b) => BigInt('0x' + (Buffer.from(b).toString('hex') || '0'));
const randBelow = (m) => bytesToBig(randBytes(64)) % m; // bias ~2^-128: irrelevant here
const randNonzero = (m) => 1n + randBelow(m - 1n);

// ---- hex helpers ----
const hexN = (v, n) => {
  assert(v >= 0n && v < 1n << BigInt(8 * n), 'hexN range');
  return v.toString(16).padStart(2 * n, '0');
};
const hexFp = (v) => hexN(v, 48);
const hexFr = (v) => hexN(v, 32);
const hexBytes = (b) => Buffer.from(b).toString('hex');
const fp2Json = (a) => ({ c0: hexFp(a.c0), c1: hexFp(a.c1) });
const tryOr = (f, dflt) => {
  try {
    return f();
  } catch {
    return dflt;
  }
};

// ---- check that noble's tower is the one cuzk uses ----
function checkTower() {
  const u = Fp2.create({ c0: 0n, c1: 1n });
  assert(Fp2.eql(Fp2.mul(u, u), Fp2.neg(Fp2.ONE)), 'u^2 = -1');
  const z2 = Fp2.ZERO;
  const v = { c0: z2, c1: Fp2.ONE, c2: z2 };
  const v2 = Fp6.mul(v, v);
  assert(Fp6.eql(v2, { c0: z2, c1: z2, c2: Fp2.ONE }), 'v^2 sits in c2');
  const onePlusU = Fp2.create({ c0: 1n, c1: 1n });
  assert(Fp6.eql(Fp6.mul(v2, v), { c0: onePlusU, c1: z2, c2: z2 }), 'v^3 = 1+u');
  const w = { c0: Fp6.ZERO, c1: Fp6.ONE };
  assert(Fp12.eql(Fp12.mul(w, w), { c0: v, c1: Fp6.ZERO }), 'w^2 = v');
  // v*w lands in c1.c1: the basis is (1, v, v^2) x (1, w)
  assert(Fp12.eql(Fp12.mul(w, { c0: v, c1: Fp6.ZERO }), { c0: Fp6.ZERO, c1: v }), 'v*w');
}

function fp12Bytes(e) {
  const parts = [];
  for (const c6 of [e.c0, e.c1])
    for (const c2 of [c6.c0, c6.c1, c6.c2]) for (const c of [c2.c0, c2.c1]) parts.push(hexFp(c));
  const s = parts.join('');
  assert(s.length === 1152, 'fp12 576 bytes');
  return s;
}

// ---- prime-field vectors ----
function primeFieldVectors(F, bytes, extra) {
  const m = F.ORDER;
  const hex = (v) => hexN(v, bytes);
  const edge = [0n, 1n, 2n, m - 1n, m - 2n, (m - 1n) / 2n, (m + 1n) / 2n, ...extra];
  const vals = (n) => [...edge, ...Array.from({ length: n }, () => randBelow(m))];
  const mul = [];
  const a1 = vals(24);
  for (let i = 0; i < a1.length; i++) {
    const a = a1[i];
    const b = i < edge.length ? a1[(i + 3) % edge.length] : randBelow(m);
    const r = F.mul(a, b);
    assert(r === (a * b) % m, 'mul vs bigint');
    mul.push({ a: hex(a), b: hex(b), r: hex(r) });
  }
  const inv = vals(24).map((a) => {
    const r = a === 0n ? null : F.inv(a);
    if (r !== null) assert(F.mul(a, r) === 1n, 'inverse');
    return { a: hex(a), r: r === null ? null : hex(r) };
  });
  const sqrtIn = [...edge, 4n, 9n];
  for (let i = 0; i < 24; i++) {
    const x = randBelow(m);
    sqrtIn.push(x, F.sqr(x)); // a random element and a certain square
  }
  const sqrt = sqrtIn.map((a) => {
    const root = tryOr(() => F.sqrt(a), null);
    const euler = F.pow(a, (m - 1n) / 2n);
    const isSquare = a === 0n || euler === 1n;
    assert(isSquare === (root !== null), 'sqrt agrees with Euler criterion');
    if (root !== null) assert(F.sqr(root) === a, 'root^2 = a');
    return { a: hex(a), is_square: isSquare, root: root === null ? null : hex(root) };
  });
  assert(sqrt.some((v) => !v.is_square) && sqrt.some((v) => v.is_square), 'sqrt mix');
  return { mul, inv, sqrt };
}

// ---- Fp2 vectors ----
function fp2Vectors() {
  const rnd = () => Fp2.create({ c0: randBelow(P), c1: randBelow(P) });
  const mk = (c0, c1) => Fp2.create({ c0, c1 });
  const edge = [
    mk(0n, 0n), mk(1n, 0n), mk(0n, 1n), mk(1n, 1n), mk(P - 1n, 0n), mk(0n, P - 1n),
    mk(P - 1n, P - 1n), mk(P - 1n, 1n),
  ];
  const list = (n) => [...edge, ...Array.from({ length: n }, rnd)];
  const mul = list(24).map((a, i) => {
    const b = i < edge.length ? edge[(i + 2) % edge.length] : rnd();
    return { a: fp2Json(a), b: fp2Json(b), r: fp2Json(Fp2.mul(a, b)) };
  });
  const inv = list(24).map((a) => {
    const r = Fp2.is0(a) ? null : Fp2.inv(a);
    if (r) assert(Fp2.eql(Fp2.mul(a, r), Fp2.ONE), 'fp2 inverse');
    return { a: fp2Json(a), r: r ? fp2Json(r) : null };
  });
  const sqrtIn = [...edge, mk(1n, 1n)]; // 1+u is the sextic non-residue: not a square
  for (let i = 0; i < 12; i++) {
    const x = rnd();
    sqrtIn.push(x, Fp2.sqr(x));
  }
  const sqrt = sqrtIn.map((a) => {
    const root = tryOr(() => Fp2.sqrt(a), null);
    if (root) assert(Fp2.eql(Fp2.sqr(root), a), 'fp2 root^2 = a');
    return { a: fp2Json(a), is_square: root !== null, root: root ? fp2Json(root) : null };
  });
  assert(sqrt.some((v) => !v.is_square), 'fp2 sqrt has non-squares');
  return { mul, inv, sqrt };
}

// ---- my own zcash encoder (independent of noble's), cross-checked against noble ----
const FLAG_C = 0x80, FLAG_I = 0x40, FLAG_S = 0x20;
const fits381 = (v) => assert(v < 1n << 381n, 'coordinate leaves the flag bits clean');
function g1Encode(x, y, { compressed, infinity = false, sort = false }) {
  fits381(x);
  const b = Buffer.from(compressed ? hexFp(x) : hexFp(x) + hexFp(y), 'hex');
  b[0] |= (compressed ? FLAG_C : 0) | (infinity ? FLAG_I : 0) | (sort ? FLAG_S : 0);
  return b.toString('hex');
}
function g2Encode(x, y, { compressed, infinity = false, sort = false }) {
  fits381(x.c1);
  const fx = hexFp(x.c1) + hexFp(x.c0);
  const b = Buffer.from(compressed ? fx : fx + hexFp(y.c1) + hexFp(y.c0), 'hex');
  b[0] |= (compressed ? FLAG_C : 0) | (infinity ? FLAG_I : 0) | (sort ? FLAG_S : 0);
  return b.toString('hex');
}
const fpLargest = (y) => y > (P - 1n) / 2n;
const fp2Largest = (y) => (y.c1 !== 0n ? fpLargest(y.c1) : fpLargest(y.c0));

const curves = {
  g1: {
    Point: G1,
    F: Fp,
    b: 4n,
    rnd: () => randBelow(P),
    encode: g1Encode,
    largest: fpLargest,
    zero: 0n,
  },
  g2: {
    Point: G2,
    F: Fp2,
    b: Fp2.create({ c0: 4n, c1: 4n }),
    rnd: () => Fp2.create({ c0: randBelow(P), c1: randBelow(P) }),
    encode: g2Encode,
    largest: fp2Largest,
    zero: Fp2.ZERO,
  },
};

function pointJson(c, pt) {
  // noble only serialises the canonical projective identity (0, 1, 0), not
  // an equivalent (X, Y, 0) that arithmetic produced
  if (pt.is0()) pt = c.Point.ZERO;
  const comp = hexBytes(pt.toBytes(true));
  const unc = hexBytes(pt.toBytes(false));
  // cross-check noble's encoder with the one above
  if (pt.is0()) {
    assert(comp === c.encode(c.zero, c.zero, { compressed: true, infinity: true }), 'inf c');
    assert(unc === c.encode(c.zero, c.zero, { compressed: false, infinity: true }), 'inf u');
  } else {
    const { x, y } = pt.toAffine();
    assert(comp === c.encode(x, y, { compressed: true, sort: c.largest(y) }), 'enc c');
    assert(unc === c.encode(x, y, { compressed: false }), 'enc u');
  }
  // and noble decodes both back to the same point
  assert(c.Point.fromHex(comp).equals(pt) && c.Point.fromHex(unc).equals(pt), 'roundtrip');
  return { compressed: comp, uncompressed: unc };
}

function curveVectors(name) {
  const c = curves[name];
  const G = c.Point.BASE;
  const O = c.Point.ZERO;
  const rndPoint = () => G.multiply(randNonzero(R));
  const add = [];
  const addPairs = [[G, G], [O, O], [G, O], [O, G]];
  for (let i = 0; i < 4; i++) {
    const p = rndPoint();
    addPairs.push([p, p], [p, p.negate()], [p, O], [p, G]);
  }
  while (addPairs.length < 32) addPairs.push([rndPoint(), rndPoint()]);
  for (const [p, q] of addPairs)
    add.push({ p: pointJson(c, p), q: pointJson(c, q), r: pointJson(c, p.add(q)) });
  const dblIn = [O, G, G.negate()];
  while (dblIn.length < 16) dblIn.push(rndPoint());
  const dbl = dblIn.map((p) => ({ p: pointJson(c, p), r: pointJson(c, p.double()) }));
  const mul = [];
  const ks = [0n, 1n, 2n, 3n, R - 1n, R - 2n, R, R + 1n, (1n << 256n) - 1n, (1n << 255n) - 19n];
  for (let i = 0; i < 18; i++) ks.push(randBelow(1n << 256n) % (i < 12 ? R : 1n << 256n));
  ks.forEach((k, i) => {
    const p = i % 3 === 0 ? G : rndPoint();
    const r = p.multiplyUnsafe(k % R);
    mul.push({ p: pointJson(c, p), k: hexN(k, 32), r: pointJson(c, r) });
  });
  const encIn = [O, G, G.negate()];
  while (encIn.length < 24) encIn.push(rndPoint());
  const encodings = encIn.map((p) => ({ point: pointJson(c, p) }));
  return { add, dbl, mul, encodings, invalid: invalidEncodings(name) };
}

// ---- invalid encodings: each with one defect, each rejected by noble ----
function invalidEncodings(name) {
  const c = curves[name];
  const F = c.F;
  const rhs = (x) => F.add(F.mul(F.sqr(x), x), c.b);
  const sqrtOrNull = (v) => tryOr(() => F.sqrt(v), null);
  const out = [];
  const push = (encoding, form, reason, note) => {
    let rejected = false;
    try {
      c.Point.fromHex(encoding);
    } catch {
      rejected = true;
    }
    assert(rejected, `noble must reject ${name} ${note}`);
    out.push({ encoding, form, reason, note });
  };
  const bytesLen = name === 'g1' ? 48 : 96;
  const zeros = (n) => '00'.repeat(n);
  const withTop = (hex, byte) => hexN(byte, 1) + hex.slice(2);

  // on-curve points outside the subgroup (random x until the rhs is a square)
  const offSubgroup = [];
  while (offSubgroup.length < 3) {
    const x = c.rnd();
    const y = sqrtOrNull(rhs(x));
    if (y === null) continue;
    const pt = c.Point.fromAffine({ x, y });
    if (!pt.isTorsionFree()) offSubgroup.push({ x, y });
  }
  for (const { x, y } of offSubgroup) {
    push(c.encode(x, y, { compressed: true, sort: c.largest(y) }), 'compressed', 'not_in_subgroup', 'on curve, not in subgroup');
    push(c.encode(x, y, { compressed: false }), 'uncompressed', 'not_in_subgroup', 'on curve, not in subgroup');
  }
  if (name === 'g1') {
    // (0, +-2) is on y^2 = x^3 + 4 but has order 3
    push(c.encode(0n, 2n, { compressed: true, sort: false }), 'compressed', 'not_in_subgroup', 'x = 0, order-3 point');
    push(c.encode(0n, 2n, { compressed: false }), 'uncompressed', 'not_in_subgroup', '(0, 2), order-3 point');
  }
  // x with a non-square rhs: no point at all
  let nx = 0;
  while (nx < 3) {
    const x = c.rnd();
    if (sqrtOrNull(rhs(x)) !== null) continue;
    nx++;
    push(c.encode(x, c.zero, { compressed: true, sort: nx === 2 }), 'compressed', 'not_on_curve', 'x^3 + b is not a square');
  }
  // valid x, wrong y
  for (let i = 0; i < 3; i++) {
    const { x, y } = c.Point.BASE.multiply(randNonzero(R)).toAffine();
    push(c.encode(x, F.add(y, F.ONE), { compressed: false }), 'uncompressed', 'not_on_curve', 'y + 1');
  }
  // the all-zero payload with no flags: (0, 0) is cuzk's internal identity but not a point
  push(zeros(2 * bytesLen), 'uncompressed', 'not_on_curve', '(0, 0) without the infinity flag');

  // coordinates >= p (kept below 2^381 so that the flag bits stay clean)
  const room = (1n << 381n) - P; // v + p fits in 381 bits when v < room
  const findPoint = (pred) => {
    for (;;) {
      const a = c.Point.BASE.multiply(randNonzero(R)).toAffine();
      if (pred(a)) return a;
    }
  };
  const bigs = [P, P + 1n, (1n << 381n) - 1n];
  if (name === 'g1') {
    for (const v of bigs) push(c.encode(v, 0n, { compressed: true }), 'compressed', 'noncanonical', 'x >= p');
    const a = findPoint((q) => q.x < room);
    push(c.encode(a.x + P, a.y, { compressed: true, sort: c.largest(a.y) }), 'compressed', 'noncanonical', 'valid point with x + p');
    push(c.encode(a.x + P, a.y, { compressed: false }), 'uncompressed', 'noncanonical', 'valid point with x + p');
    const b = findPoint((q) => q.y < room);
    push(c.encode(b.x, b.y + P, { compressed: false }), 'uncompressed', 'noncanonical', 'valid point with y + p');
  } else {
    for (const v of bigs) {
      push(c.encode({ c0: 0n, c1: v }, c.zero, { compressed: true }), 'compressed', 'noncanonical', 'x.c1 >= p');
      push(c.encode({ c0: v, c1: 0n }, c.zero, { compressed: true }), 'compressed', 'noncanonical', 'x.c0 >= p');
    }
    const a = findPoint((q) => q.x.c1 < room);
    const a1 = { c0: a.x.c0 + P, c1: a.x.c1 };
    const a2 = { c0: a.x.c0, c1: a.x.c1 + P };
    push(c.encode(a1, a.y, { compressed: true, sort: c.largest(a.y) }), 'compressed', 'noncanonical', 'valid point with x.c0 + p');
    push(c.encode(a2, a.y, { compressed: true, sort: c.largest(a.y) }), 'compressed', 'noncanonical', 'valid point with x.c1 + p');
    push(c.encode(a2, a.y, { compressed: false }), 'uncompressed', 'noncanonical', 'valid point with x.c1 + p');
    const b = findPoint((q) => q.y.c1 < room);
    push(c.encode(a.x, { c0: a.y.c0 + P, c1: a.y.c1 }, { compressed: false }), 'uncompressed', 'noncanonical', 'valid point with y.c0 + p');
    push(c.encode(b.x, { c0: b.y.c0, c1: b.y.c1 + P }, { compressed: false }), 'uncompressed', 'noncanonical', 'valid point with y.c1 + p');
  }

  // flag errors, each on an otherwise valid payload
  const gc = hexBytes(c.Point.BASE.toBytes(true));
  const gu = hexBytes(c.Point.BASE.toBytes(false));
  const gcTop = parseInt(gc.slice(0, 2), 16);
  const guTop = parseInt(gu.slice(0, 2), 16);
  push(withTop(gc, gcTop & ~FLAG_C), 'compressed', 'bad_flags', 'compressed length without the compression flag');
  push(withTop(gu, guTop | FLAG_C), 'uncompressed', 'bad_flags', 'uncompressed length with the compression flag');
  push(withTop(gu, guTop | FLAG_S), 'uncompressed', 'bad_flags', 'sort flag on an uncompressed point');
  push(hexN(FLAG_C | FLAG_I | FLAG_S, 1) + zeros(bytesLen - 1), 'compressed', 'bad_flags', 'infinity with the sort flag');
  push(hexN(FLAG_I | FLAG_S, 1) + zeros(2 * bytesLen - 1), 'uncompressed', 'bad_flags', 'uncompressed infinity with the sort flag');
  push(hexN(FLAG_C | FLAG_I, 1) + zeros(bytesLen - 2) + '01', 'compressed', 'bad_flags', 'infinity with a nonzero payload');
  push(withTop(gc, gcTop | FLAG_I), 'compressed', 'bad_flags', 'infinity flag on the generator');
  push(hexN(FLAG_I, 1) + zeros(2 * bytesLen - 2) + '01', 'uncompressed', 'bad_flags', 'uncompressed infinity with a nonzero payload');
  push(withTop(gu, guTop | FLAG_I), 'uncompressed', 'bad_flags', 'infinity flag on the uncompressed generator');
  return out;
}

// ---- pairings ----
function pairingVectors() {
  const ab = [[1n, 1n], [2n, 1n], [1n, 2n], [R - 1n, 1n], [1n, R - 1n], [R - 1n, R - 1n]];
  while (ab.length < 16) ab.push([randNonzero(R), randNonzero(R)]);
  const base = bls.pairing(G1.BASE, G2.BASE);
  return ab.map(([a, b]) => {
    const p = G1.BASE.multiply(a);
    const q = G2.BASE.multiply(b);
    const e = bls.pairing(p, q);
    // bilinearity, as a sanity check of what we are about to publish
    assert(Fp12.eql(e, Fp12.pow(base, (a * b) % R)), 'bilinear');
    return { a: hexFr(a), b: hexFr(b), p: pointJson(curves.g1, p), q: pointJson(curves.g2, q), e: fp12Bytes(e) };
  });
}

checkTower();
const RMOD_P = (1n << 384n) % P; // Montgomery R: a classic edge case
const RMOD_R = (1n << 256n) % R;
const data = {
  source: '@noble/curves',
  noble_version: NOBLE_VERSION,
  seed: SEED,
  fp: primeFieldVectors(Fp, 48, [RMOD_P, (RMOD_P * RMOD_P) % P, (1n << 380n) + 1n]),
  fr: primeFieldVectors(Fr, 32, [RMOD_R, (RMOD_R * RMOD_R) % R, 7n, (1n << 254n) + 1n]),
  fp2: fp2Vectors(),
  g1: curveVectors('g1'),
  g2: curveVectors('g2'),
  pairing: pairingVectors(),
};
const text = JSON.stringify(data, null, 1) + '\n';
writeFileSync(OUT, text);
const counts = {};
for (const k of ['fp', 'fr', 'fp2', 'g1', 'g2'])
  for (const [kind, v] of Object.entries(data[k])) counts[`${k}.${kind}`] = v.length;
counts.pairing = data.pairing.length;
console.log(`wrote ${OUT} (${text.length} bytes) with noble ${NOBLE_VERSION}`);
console.log(JSON.stringify(counts));
