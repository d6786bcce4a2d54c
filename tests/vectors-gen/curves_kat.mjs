// Independent known answers for tests/ec/test_encoding.c, from noble-curves
// (@noble/curves 2.4.0, pure JavaScript, no shared code with cuzk).
// Run: cd /tmp/x && npm i @noble/curves && node /path/to/curves_kat.mjs
import { bls12_381 } from '@noble/curves/bls12-381.js';
const { Fp, Fp2 } = bls12_381.fields;
const G1 = bls12_381.G1.Point, G2 = bls12_381.G2.Point;
const r = bls12_381.fields.Fr.ORDER;
const lambda = 0xd201000000010000n ** 2n - 1n;

const hex = (b) => Buffer.from(b).toString('hex');
const scalars = [1n, 2n, 3n, 0x1234567890abcdefn, lambda, r - 1n,
                 0x5d0a5e8b2f1c3a7e9b4d6f8a1c3e5b7d9f0a2c4e6b8d0f1a3c5e7b9d1f3a5c7en];

console.log('/* [k]G for k in order (hex scalar, G1 compressed, G1 uncompressed,');
console.log(' * G2 compressed, G2 uncompressed) */');
for (const k of scalars) {
  const p1 = G1.BASE.multiply(k), p2 = G2.BASE.multiply(k);
  console.log(`{"${k.toString(16)}",\n "${hex(p1.toBytes(true))}",\n "${hex(p1.toBytes(false))}",\n` +
              ` "${hex(p2.toBytes(true))}",\n "${hex(p2.toBytes(false))}"},`);
}

// Points on the curve but outside the subgroup, and x with no point: the
// smallest x = 1, 2, ... (G1) and x = n + u (G2) of each kind.
const be48 = (v) => Buffer.from(v.toString(16).padStart(96, '0'), 'hex');
const fp2bytes = (v) => Buffer.concat([be48(v.c1), be48(v.c0)]);
function search(F, b, mk, wantPoint) {
  for (let n = 1n; ; n++) {
    const x = mk(n);
    const rhs = F.add(F.mul(F.sqr(x), x), b);
    let y;
    try { y = F.sqrt(rhs); } catch (e) { y = undefined; }
    if (wantPoint && y !== undefined) return { x, y };
    if (!wantPoint && y === undefined) return { x };
  }
}
const b1 = Fp.create(4n), b2 = Fp2.fromBigTuple([4n, 4n]);
const q1 = search(Fp, b1, (n) => Fp.create(n), true);
const n1 = search(Fp, b1, (n) => Fp.create(n), false);
const q2 = search(Fp2, b2, (n) => Fp2.fromBigTuple([n, 1n]), true);
const n2 = search(Fp2, b2, (n) => Fp2.fromBigTuple([n, 1n]), false);
const P1 = G1.fromAffine({ x: q1.x, y: q1.y }), P2 = G2.fromAffine({ x: q2.x, y: q2.y });
console.log(`/* G1 point off the subgroup (torsion-free: ${P1.isTorsionFree()}), uncompressed: */`);
console.log(`"${hex(Buffer.concat([be48(q1.x), be48(q1.y)]))}"`);
console.log(`/* G1 x with no point: ${n1.x} */`);
console.log(`/* G2 point off the subgroup (torsion-free: ${P2.isTorsionFree()}), uncompressed: */`);
console.log(`"${hex(Buffer.concat([fp2bytes(q2.x), fp2bytes(q2.y)]))}"`);
console.log(`/* G2 x with no point: ${n2.x.c0} + ${n2.x.c1} u */`);
