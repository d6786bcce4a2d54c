/* CPU feature detection and the field-code dispatch flag. */
#include "cuzk/cpu.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ec/mont.h"
#include "ec/ifma_field.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool cz_mont_use_adx = false;
bool cz_ifma_use = false;
static bool forced_portable = false, ifma_off = false;
static bool env_portable = false, env_no_ifma = false; /* CUZK_CPU */

bool cz_cpu_has_adx(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & (1u << 8)) && (b & (1u << 19)); /* BMI2 (MULX) and ADX */
#else
  return false;
#endif
}

#if defined(__x86_64__)
/* XCR0 without the xgetbv intrinsic, which needs -mxsave. Only called once
 * cpuid has said OSXSAVE, so the instruction exists and is enabled. */
static uint64_t read_xcr0(void) {
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}
#endif

bool cz_cpu_has_ifma(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  if (!(c & (1u << 27))) return false; /* OSXSAVE: xgetbv usable */
  /* XCR0: SSE (1), AVX (2), opmask (5), ZMM_Hi256 (6), Hi16_ZMM (7). */
  const uint64_t need = (1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);
  if ((read_xcr0() & need) != need) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  /* AVX512F (16), AVX512IFMA (21), AVX512BW (30), AVX512VL (31). */
  const unsigned feats = (1u << 16) | (1u << 21) | (1u << 30) | (1u << 31);
  return (b & feats) == feats;
#else
  return false;
#endif
}

static void choose(void) {
  bool portable = forced_portable || env_portable;
#ifdef CZ_IFMA
  cz_ifma_use = !portable && !ifma_off && !env_no_ifma && cz_cpu_has_ifma();
#else
  cz_ifma_use = false; /* the vector code is not in this build */
  (void)ifma_off;
  (void)env_no_ifma;
#endif
#ifdef CZ_MONT_ADX
  cz_mont_use_adx = !portable && cz_cpu_has_adx();
#else
  cz_mont_use_adx = false;
#endif
}

/* Runs before main so every field operation sees the final choice. */
__attribute__((constructor)) static void cz_cpu_init(void) {
  const char *env = getenv("CUZK_CPU");
  if (env && strcmp(env, "portable") == 0) env_portable = true;
  if (env && strcmp(env, "no-avx512") == 0) env_no_ifma = true;
  choose();
}

bool cz_cpu_use_adx(void) { return cz_mont_use_adx; }

bool cz_cpu_use_ifma(void) { return cz_ifma_use; }

void cz_cpu_disable_ifma(bool off) {
  ifma_off = off;
  choose();
}

void cz_cpu_force_portable(bool force) {
  forced_portable = force;
  choose();
}
