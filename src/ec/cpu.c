/* CPU feature detection and the field-code dispatch flag. */
#include "cuzk/cpu.h"
#include "ec/mont.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool cz_mont_use_adx = false;
static bool forced_portable = false;

bool cz_cpu_has_adx(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & (1u << 8)) && (b & (1u << 19)); /* BMI2 (MULX) and ADX */
#else
  return false;
#endif
}

static void choose(void) {
#ifdef CZ_MONT_ADX
  cz_mont_use_adx = !forced_portable && cz_cpu_has_adx();
#else
  cz_mont_use_adx = false;
#endif
}

/* Runs before main so every field operation sees the final choice. */
__attribute__((constructor)) static void cz_cpu_init(void) { choose(); }

bool cz_cpu_use_adx(void) { return cz_mont_use_adx; }

void cz_cpu_force_portable(bool force) {
  forced_portable = force;
  choose();
}
