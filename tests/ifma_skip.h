/* The reason a test whose point is the AVX-512 IFMA path reports SKIPPED
 * (check_report_unless, check.h) on a host that does not run that path. */
#ifndef CUZK_TESTS_IFMA_SKIP_H
#define CUZK_TESTS_IFMA_SKIP_H
#include <stddef.h>
#include "cuzk/cpu.h"

/* NULL when the IFMA path is selected, else why not. Call it before the test
 * switches paths itself (cz_cpu_force_portable, cz_cpu_disable_ifma).
 * CUZK_CPU=no-avx512 takes this path on an IFMA machine: that is how the
 * skip is exercised where the CPU has IFMA. */
static inline const char *ifma_missing(void) {
  if (cz_cpu_use_ifma()) return NULL;
  if (cz_cpu_has_ifma())
    return "AVX-512 IFMA switched off (CUZK_CPU, or a build without the vector code): "
           "the vector path did not run";
  return "this CPU lacks AVX-512 IFMA (or the OS has not enabled it): the vector path did not run";
}

#endif
