/* 8-lane Montgomery arithmetic for Fr and Fp on AVX-512 IFMA (internal).
 *
 * Representation (SoA): a cz_frv / cz_fpv holds 8 field elements, lane j of
 * every __m512i belonging to element j. Limb k (l[k]) holds bits
 * [52k, 52k + 52) of the element's Montgomery form, so Fr uses 5 limbs (260
 * bits) and Fp 8 (416 bits).
 *
 * Montgomery factor: the SAME as the scalar code's, R = 2^256 for Fr and
 * 2^384 for Fp. A lane therefore holds exactly the integer the scalar cz_fr /
 * cz_fp holds, and _load/_store/_from_mont/_to_mont/_set1 only change the radix
 * (64-bit words <-> 52-bit limbs) and transpose; they never multiply.
 * Because 52 * limbs exceeds the scalar width (260 vs 256, 416 vs 384), the
 * product uses this scheme: the second operand is first shifted left by
 * SH = 4 (Fr) or 32 (Fp) bits (_mul_prepare: b * 2^SH still fits the limbs
 * because b < p), then a full 52-bit Montgomery reduction per limb (5 or 8
 * steps) divides by 2^(52 limbs), so the result is
 *   a * b * 2^SH / 2^(52 limbs) = a * b / R  (mod p),
 * the scalar cz_fr_mul / cz_fp_mul value. (It equals the "four 52-bit steps
 * plus one 48-bit step" scheme; the shift moves the odd bits to the input.)
 *
 * Invariants: every cz_frv / cz_fpv passed to or returned by these functions
 * is FULLY REDUCED in every lane: each limb < 2^52 and the value < p. So
 * equal elements have equal limbs, _is_zero/_eq are plain comparisons, and
 * results are bit-identical to the scalar functions. The one exception is
 * the output of _mul_prepare (a prepared multiplier, for constants used
 * many times such as NTT twiddles): it may only be passed as the third
 * argument of _mul_prepared.
 *
 * Aliasing: r may alias any input in every function.
 *
 * API, for P in {cz_frv, cz_fpv} with scalar S (cz_fr, cz_fp):
 *   P_zero(r), P_one(r)            the constants 0 and R mod p in all lanes
 *   P_set1(r, const S *x)          all lanes = *x
 *   P_load(r, const S x[8])        lanes 0..7 = x[0..7] (contiguous)
 *   P_store(S out[8], a)           out[0..7] = lanes 0..7
 *   P_from_mont(r, const S *x[8])  gather through 8 pointers
 *   P_to_mont(S *out[8], a)        scatter through 8 pointers
 *   P_add, P_sub, P_neg, P_dbl, P_mul, P_sqr (r, a[, b])
 *   P_mul_prepare(bs, b), P_mul_prepared(r, a, bs)   = P_mul(r, a, b)
 *   P_is_zero(a), P_eq(a, b) -> __mmask8, bit j for lane j
 *   P_select(r, mask, a, b)        lane j = mask bit j ? a : b
 * Costs measured here (Zen 5, `cuzk-bench ec --filter mul`): per element,
 * Fr ~3.5 ns vs ~15-18 ns for scalar ADX cz_fr_mul on independent
 * operands; Fp ~7.5 ns vs ~26-28 ns. _load/_store are a transpose for Fr
 * and gathers/scatters for Fp (6-word elements).
 *
 * Target: every function here is compiled for AVX-512 F/VL/BW/IFMA through
 * CZ_IFMA_TARGET, and EVERY CALLER must carry CZ_IFMA_TARGET too (so that
 * they inline; GCC refuses to inline across target mismatches) and must only
 * run when cz_cpu_use_ifma() (or cz_cpu_has_ifma()) is true. (They are also
 * always_inline: one product is ~150 instructions on registers that a call
 * would spill.) The rest of a
 * translation unit can stay baseline x86-64. CZ_IFMA is defined when this
 * code is compiled at all (x86-64 with GCC or clang); elsewhere the header
 * declares nothing and callers keep their scalar path. */
#ifndef CUZK_EC_IFMA_FIELD_H
#define CUZK_EC_IFMA_FIELD_H
#include <stdbool.h>
#include <stdint.h>
#include "cuzk/cpu.h"
#include "cuzk/fp.h"
#include "cuzk/fr.h"

/* Set by cpu.c: cz_cpu_use_ifma(), readable inline in hot loops. */
extern bool cz_ifma_use;

/* CZ_NO_IFMA compiles the vector code out (the fuzz build: clang's
 * sanitizers take tens of minutes over these always-inline kernels). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(CZ_NO_IFMA)
#define CZ_IFMA 1
#include <immintrin.h>

#define CZ_IFMA_TARGET __attribute__((target("avx512f,avx512vl,avx512bw,avx512ifma")))
/* Forced inlining for the hot small functions: GCC otherwise keeps some
 * (e.g. a butterfly's product) out of line and spills the limbs at the call. */
#define CZ_IFMA_INLINE __attribute__((always_inline))
#define CZ_IFMA_MASK52 0xfffffffffffffULL
/* The limb loops must unroll so the limbs stay in registers (also at -O2). */
#if defined(__clang__)
#define CZ_IFMA_UNROLL _Pragma("unroll")
#else
#define CZ_IFMA_UNROLL _Pragma("GCC unroll 16")
#endif

typedef struct {
  __m512i l[5];
} cz_frv;
typedef struct {
  __m512i l[8];
} cz_fpv;

/* Fr: r = 0x73eda753...00000001, 5 limbs, R = 2^256 (shift 4). */
#define IV cz_frv
#define IVN(x) cz_frv_##x
#define IS cz_fr
#define IL 5
#define IW 4
#define ISH 4
#define IPINV 0xffffeffffffffULL
#define IP_LIST \
  0xfffff00000001ULL, 0x02fffe5bfefffULL, 0x9a1d80553bda4ULL, 0x7d483339d8080ULL, 0x073eda753299dULL
#define IONE_LIST \
  0x00001fffffffeULL, 0xfa00034802000ULL, 0xcbc4ff55884b7ULL, 0x056f998c4fefeULL, 0x01824b159acc5ULL
#include "ec/ifma_field_impl.h"
#undef IV
#undef IVN
#undef IS
#undef IL
#undef IW
#undef ISH
#undef IPINV
#undef IP_LIST
#undef IONE_LIST

/* Fp: p = 0x1a0111ea...ffffaaab, 8 limbs, R = 2^384 (shift 32). */
#define IV cz_fpv
#define IVN(x) cz_fpv_##x
#define IS cz_fp
#define IL 8
#define IW 6
#define ISH 32
#define IPINV 0x3fffcfffcfffdULL
#define IP_LIST \
  0xeffffffffaaabULL, 0xfeb153ffffb9fULL, 0x6b0f6241eabffULL, 0x12bf6730d2a0fULL, \
      0x764774b84f385ULL, 0x1ba7b6434bacdULL, 0x1ea397fe69a4bULL, 0x000000001a011ULL
#define IONE_LIST \
  0x900000002fffdULL, 0x0bc40c0002760ULL, 0x3c758baebf400ULL, 0x57455f4898575ULL, \
      0xd77ce58537052ULL, 0x071a97a256ec6ULL, 0xec3fa80e4935cULL, 0x0000000015f65ULL
#include "ec/ifma_field_impl.h"
#undef IV
#undef IVN
#undef IS
#undef IL
#undef IW
#undef ISH
#undef IPINV
#undef IP_LIST
#undef IONE_LIST

#endif /* x86-64 */
#endif
