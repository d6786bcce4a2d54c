/* x86-64 modular addition and subtraction for 4 and 6 limbs, used by
 * field_impl.h in place of the portable mont_add/mont_sub. They need only
 * baseline x86-64 (ADC/SBB/CMOV), so no run-time check is involved. The C
 * versions keep the sums in 128-bit temporaries that GCC does not turn into
 * carry chains; these are straight ADC/SBB chains with no branches, and they
 * return the same fully reduced values (tests/ec/test_field.c compares).
 * Both moduli have a spare top bit, so a + b never carries out of n limbs. */
#ifndef CUZK_EC_MONT_X86_H
#define CUZK_EC_MONT_X86_H
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CZ_MONT_X86 1

#define X86_L(x) "%[" #x "]"
#define X86_M(off) #off "(%[m])"

/* s = a + b; then d = s - m, and s takes d when that did not borrow. */
#define X86_ADD_FIRST(s) "movq 0(%[a]), " X86_L(s) "\n\taddq 0(%[b]), " X86_L(s) "\n\t"
#define X86_ADD_NEXT(off, s) \
  "movq " #off "(%[a]), " X86_L(s) "\n\tadcq " #off "(%[b]), " X86_L(s) "\n\t"
#define X86_SUBM_FIRST(s, d) \
  "movq " X86_L(s) ", " X86_L(d) "\n\tsubq " X86_M(0) ", " X86_L(d) "\n\t"
#define X86_SUBM_NEXT(off, s, d) \
  "movq " X86_L(s) ", " X86_L(d) "\n\tsbbq " X86_M(off) ", " X86_L(d) "\n\t"
#define X86_TAKE(s, d) "cmovncq " X86_L(d) ", " X86_L(s) "\n\t"

static inline void mont_add6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                 const uint64_t m[6]) {
  uint64_t s0, s1, s2, s3, s4, s5, d0, d1, d2, d3;
  const uint64_t *pa = a, *pb = b; /* reused as d4, d5 once a and b are read */
  __asm__(X86_ADD_FIRST(s0) X86_ADD_NEXT(8, s1) X86_ADD_NEXT(16, s2) X86_ADD_NEXT(24, s3)
              X86_ADD_NEXT(32, s4) X86_ADD_NEXT(40, s5) X86_SUBM_FIRST(s0, d0)
                  X86_SUBM_NEXT(8, s1, d1) X86_SUBM_NEXT(16, s2, d2) X86_SUBM_NEXT(24, s3, d3)
                      X86_SUBM_NEXT(32, s4, a) X86_SUBM_NEXT(40, s5, b) X86_TAKE(s0, d0)
                          X86_TAKE(s1, d1) X86_TAKE(s2, d2) X86_TAKE(s3, d3) X86_TAKE(s4, a)
                              X86_TAKE(s5, b)
          : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4),
            [s5] "=&r"(s5), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
            [a] "+r"(pa), [b] "+r"(pb)
          : [m] "r"(m)
          : "cc", "memory"); /* reads a[], b[] and m[] */
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
  r[4] = s4;
  r[5] = s5;
}

static inline void mont_add4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                 const uint64_t m[4]) {
  uint64_t s0, s1, s2, s3, d0, d1;
  const uint64_t *pa = a, *pb = b;
  __asm__(X86_ADD_FIRST(s0) X86_ADD_NEXT(8, s1) X86_ADD_NEXT(16, s2) X86_ADD_NEXT(24, s3)
              X86_SUBM_FIRST(s0, d0) X86_SUBM_NEXT(8, s1, d1) X86_SUBM_NEXT(16, s2, a)
                  X86_SUBM_NEXT(24, s3, b) X86_TAKE(s0, d0) X86_TAKE(s1, d1) X86_TAKE(s2, a)
                      X86_TAKE(s3, b)
          : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [d0] "=&r"(d0),
            [d1] "=&r"(d1), [a] "+r"(pa), [b] "+r"(pb)
          : [m] "r"(m)
          : "cc", "memory"); /* reads a[], b[] and m[] */
  r[0] = s0;
  r[1] = s1;
  r[2] = s2;
  r[3] = s3;
}

/* d = a - b; k = borrow ? ~0 : 0; then d += m & k. The masked limbs are
 * all formed before the ADC chain because AND clobbers the carry flag. */
#define X86_SUB_FIRST(d) "movq 0(%[a]), " X86_L(d) "\n\tsubq 0(%[b]), " X86_L(d) "\n\t"
#define X86_SUB_NEXT(off, d) \
  "movq " #off "(%[a]), " X86_L(d) "\n\tsbbq " #off "(%[b]), " X86_L(d) "\n\t"
#define X86_MASK "sbbq %[k], %[k]\n\t"
#define X86_AND(off, e) "movq " X86_M(off) ", " X86_L(e) "\n\tandq %[k], " X86_L(e) "\n\t"
#define X86_AND_LAST(off) "andq " X86_M(off) ", %[k]\n\t"
#define X86_ADD_E_FIRST(e, d) "addq " X86_L(e) ", " X86_L(d) "\n\t"
#define X86_ADD_E_NEXT(e, d) "adcq " X86_L(e) ", " X86_L(d) "\n\t"

static inline void mont_sub6_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                 const uint64_t m[6]) {
  uint64_t d0, d1, d2, d3, d4, d5, e0, e1, e2, k;
  const uint64_t *pa = a, *pb = b; /* reused as masked limbs once read */
  __asm__(X86_SUB_FIRST(d0) X86_SUB_NEXT(8, d1) X86_SUB_NEXT(16, d2) X86_SUB_NEXT(24, d3)
              X86_SUB_NEXT(32, d4) X86_SUB_NEXT(40, d5) X86_MASK X86_AND(0, e0) X86_AND(8, e1)
                  X86_AND(16, e2) X86_AND(24, a) X86_AND(32, b) X86_AND_LAST(40)
                      X86_ADD_E_FIRST(e0, d0) X86_ADD_E_NEXT(e1, d1) X86_ADD_E_NEXT(e2, d2)
                          X86_ADD_E_NEXT(a, d3) X86_ADD_E_NEXT(b, d4) X86_ADD_E_NEXT(k, d5)
          : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [d4] "=&r"(d4),
            [d5] "=&r"(d5), [e0] "=&r"(e0), [e1] "=&r"(e1), [e2] "=&r"(e2), [k] "=&r"(k),
            [a] "+r"(pa), [b] "+r"(pb)
          : [m] "r"(m)
          : "cc", "memory"); /* reads a[], b[] and m[] */
  r[0] = d0;
  r[1] = d1;
  r[2] = d2;
  r[3] = d3;
  r[4] = d4;
  r[5] = d5;
}

static inline void mont_sub4_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                 const uint64_t m[4]) {
  uint64_t d0, d1, d2, d3, e0, k;
  const uint64_t *pa = a, *pb = b;
  __asm__(X86_SUB_FIRST(d0) X86_SUB_NEXT(8, d1) X86_SUB_NEXT(16, d2) X86_SUB_NEXT(24, d3)
              X86_MASK X86_AND(0, e0) X86_AND(8, a) X86_AND(16, b) X86_AND_LAST(24)
                  X86_ADD_E_FIRST(e0, d0) X86_ADD_E_NEXT(a, d1) X86_ADD_E_NEXT(b, d2)
                      X86_ADD_E_NEXT(k, d3)
          : [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3), [e0] "=&r"(e0),
            [k] "=&r"(k), [a] "+r"(pa), [b] "+r"(pb)
          : [m] "r"(m)
          : "cc", "memory"); /* reads a[], b[] and m[] */
  r[0] = d0;
  r[1] = d1;
  r[2] = d2;
  r[3] = d3;
}

#endif /* x86-64 */
#endif
