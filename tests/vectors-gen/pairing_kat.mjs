// Known answers for tests/ec/test_pairing.c, computed with @noble/curves
// 2.4.0 (an independent implementation). Node resolves the package next to
// the script, so run it where @noble/curves is installed, e.g.
//   mkdir /tmp/nb && cd /tmp/nb && npm init -y && npm i @noble/curves@2.4.0
//   cp <repo>/tests/vectors-gen/pairing_kat.mjs . && node pairing_kat.mjs
// (or `npm i --no-save @noble/curves@2.4.0` in tests/vectors-gen, whose
// node_modules is git-ignored).
// Prints e(G1, G2) as 576 bytes of hex in cuzk's Fp12 order (fp12.h):
// c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1, each 48 bytes big-endian,
// then the hard-part exponent (p^4 - p^2 + 1) / r and the generators.
import { bls12_381 as bls } from '@noble/curves/bls12-381.js';

const hex48 = (x) => x.toString(16).padStart(96, '0');
const fp12Hex = (f) => {
  let s = '';
  for (const h of [f.c0, f.c1])
    for (const q of [h.c0, h.c1, h.c2]) s += hex48(q.c0) + hex48(q.c1);
  return s;
};

const G1 = bls.G1.Point.BASE, G2 = bls.G2.Point.BASE;
const gt = bls.pairing(G1, G2);
const p = bls.fields.Fp.ORDER, r = bls.fields.Fr.ORDER;
console.log('e(G1,G2) =', fp12Hex(gt));
console.log('hard exponent (p^4-p^2+1)/r =', ((p ** 4n - p ** 2n + 1n) / r).toString(16));
const g1 = G1.toAffine(), g2 = G2.toAffine();
console.log('G1.x =', hex48(g1.x), '\nG1.y =', hex48(g1.y));
console.log('G2.x.c0 =', hex48(g2.x.c0), '\nG2.x.c1 =', hex48(g2.x.c1));
console.log('G2.y.c0 =', hex48(g2.y.c0), '\nG2.y.c1 =', hex48(g2.y.c1));
