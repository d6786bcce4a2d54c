/* Run-time CPU feature detection and the dispatch switch for the field code.
 * The x86-64 MULX/ADCX/ADOX path is used when the CPU has BMI2 and ADX and
 * the portable path has not been forced; both give identical results. */
#ifndef CUZK_CPU_H
#define CUZK_CPU_H
#include <stdbool.h>

/* True when the CPU offers BMI2 and ADX (cpuid leaf 7). */
bool cz_cpu_has_adx(void);

/* True when the fast x86-64 field path is currently selected. */
bool cz_cpu_use_adx(void);

/* Force the portable C path (true) or return to automatic choice (false).
 * For tests and benchmarks; not thread-safe against concurrent field use. */
void cz_cpu_force_portable(bool force);

#endif
