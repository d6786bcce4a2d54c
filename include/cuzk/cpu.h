/* Layer: ec */
/* Run-time CPU feature detection and the dispatch switch for the field code
 * (src/ec/cpu.c). The x86-64 MULX/ADCX/ADOX path is used when the CPU has
 * BMI2 and ADX, the 8-lane AVX-512 IFMA path where the CPU and OS offer it,
 * unless the portable path is forced; all give identical results. The
 * environment variable CUZK_CPU, read once at start-up, narrows the choice
 * for a whole process (to compare paths, or to rule one out): "portable" =
 * neither, "no-avx512" = ADX but not IFMA; anything else (or unset) =
 * automatic. A build without
 * the ADX or IFMA code (CZ_MONT_ADX / CZ_IFMA unset) never selects that path,
 * whatever the CPU has. The has_ and use_ queries may be called from any
 * thread. */
#ifndef CUZK_CPU_H
#define CUZK_CPU_H
#include <stdbool.h>

/* True when the CPU offers BMI2 and ADX (cpuid leaf 7). */
bool cz_cpu_has_adx(void);

/* True when the fast x86-64 field path is currently selected. */
bool cz_cpu_use_adx(void);

/* True when the CPU offers AVX-512 F, VL, BW and IFMA (cpuid leaf 7) AND the
 * OS has enabled the opmask and ZMM register state (OSXSAVE set and XCR0
 * bits 1, 2, 5, 6, 7): what the 8-lane field code (src/ec/ifma_field.h) needs. */
bool cz_cpu_has_ifma(void);

/* True when the 8-lane IFMA path is currently selected: cz_cpu_has_ifma(),
 * the portable path not forced and IFMA not disabled (cz_cpu_disable_ifma,
 * CUZK_CPU=no-avx512). Callers dispatch on this per call (not
 * cached), so cz_cpu_force_portable switches them too. */
bool cz_cpu_use_ifma(void);

/* Switch off (true) or back on (false) only the IFMA path, keeping ADX: to
 * compare the 8-lane code with the scalar fast path in tests and benchmarks.
 * Not thread-safe against concurrent field use. */
void cz_cpu_disable_ifma(bool off);

/* Force the portable C path (true) or return to automatic choice (false).
 * It switches off both the ADX and the IFMA paths; results are identical.
 * For tests and benchmarks; not thread-safe against concurrent field use. */
void cz_cpu_force_portable(bool force);

#endif
