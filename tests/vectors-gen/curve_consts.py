# Derives the curve constants hard-coded in src/ec/g1.c and src/ec/g2.c
# (Montgomery-form limbs), and checks the endomorphism eigenvalues they rely
# on, with plain Python integers. Run: python3 tests/vectors-gen/curve_consts.py
p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
z = -0xd201000000010000
R = 2**384 % p

def limbs(x, n=6):
    return ", ".join("0x%016xULL" % ((x >> (64 * i)) & (2**64 - 1)) for i in range(n))
def mont(x): return limbs(x * R % p)

# Fp2 = Fp[u]/(u^2+1) as pairs.
def f2mul(a, b): return ((a[0]*b[0] - a[1]*b[1]) % p, (a[0]*b[1] + a[1]*b[0]) % p)
def f2add(a, b): return ((a[0]+b[0]) % p, (a[1]+b[1]) % p)
def f2sub(a, b): return ((a[0]-b[0]) % p, (a[1]-b[1]) % p)
def f2pow(a, e):
    acc = (1, 0)
    while e:
        if e & 1: acc = f2mul(acc, a)
        a = f2mul(a, a); e >>= 1
    return acc
def f2inv(a):
    n = pow(a[0]*a[0] + a[1]*a[1], p - 2, p)
    return (a[0]*n % p, -a[1]*n % p)
def conj(a): return (a[0], -a[1] % p)

# Affine group law over a field given by (mul, add, sub, inv, zero).
def make_curve(mul, add, sub, inv, zero):
    def dbl(P): return addp(P, P)
    def addp(P, Q):
        if P is None: return Q
        if Q is None: return P
        if P[0] == Q[0]:
            if P[1] != Q[1] or P[1] == zero: return None
            x2 = mul(P[0], P[0]); num = add(add(x2, x2), x2); den = add(P[1], P[1])
        else:
            num = sub(Q[1], P[1]); den = sub(Q[0], P[0])
        l = mul(num, inv(den))
        x3 = sub(sub(mul(l, l), P[0]), Q[0])
        return (x3, sub(mul(l, sub(P[0], x3)), P[1]))
    def smul(k, P):
        acc = None
        for bit in bin(k)[2:]:
            acc = dbl(acc) if acc else None
            if bit == '1': acc = addp(acc, P)
        return acc
    return addp, smul

g1add, g1mul = make_curve(lambda a, b: a*b % p, lambda a, b: (a+b) % p, lambda a, b: (a-b) % p,
                          lambda a: pow(a, p-2, p), 0)
g2add, g2mul = make_curve(f2mul, f2add, f2sub, f2inv, (0, 0))

G1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
      0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
G2 = ((0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
       0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
      (0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
       0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))
assert (G1[1]**2 - G1[0]**3 - 4) % p == 0
assert f2sub(f2mul(G2[1], G2[1]), f2add(f2mul(G2[0], f2mul(G2[0], G2[0])), (4, 4))) == (0, 0)

print("G1 gen x:", mont(G1[0])); print("G1 gen y:", mont(G1[1]))
for name, c in (("x.c0", G2[0][0]), ("x.c1", G2[0][1]), ("y.c0", G2[1][0]), ("y.c1", G2[1][1])):
    print("G2 gen", name + ":", mont(c))
print("b=4:", mont(4))

# GLV on G1: lambda = z^2 - 1 is a cube root of unity mod r with
# lambda^2 + lambda + 1 = r exactly; find the beta with phi(G1) = [lambda] G1.
lam = z * z - 1
assert lam * lam + lam + 1 == r
g = 2
while True:
    beta = pow(g, (p - 1) // 3, p)
    if beta != 1: break
    g += 1
for b in (beta, beta * beta % p):
    if (b * G1[0] % p, G1[1]) == g1mul(lam, G1):
        print("beta (eigenvalue lambda = z^2-1):", mont(b))
    if (b * G1[0] % p, G1[1]) == g1mul((-z * z) % r, G1):
        print("beta (eigenvalue -z^2):", mont(b))
print("lambda:", limbs(lam, 2))

# psi = untwist-Frobenius-twist on G2: psi(x, y) = (cx conj(x), cy conj(y)).
xi = (1, 1)
cx = f2inv(f2pow(xi, (p - 1) // 3))
cy = f2inv(f2pow(xi, (p - 1) // 2))
psiG = (f2mul(cx, conj(G2[0])), f2mul(cy, conj(G2[1])))
assert psiG == g2mul(z % r, G2), "psi must act as [z] on G2"
print("psi cx.c0:", mont(cx[0])); print("psi cx.c1:", mont(cx[1]))
print("psi cy.c0:", mont(cy[0])); print("psi cy.c1:", mont(cy[1]))
assert g1mul(r, G1) is None and g2mul(r, G2) is None
