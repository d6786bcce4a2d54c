/* Options shared by the synthesis benchmarks (cs, sha256-synth, poseidon):
 * which constraint-system backend to run and which LC layouts to compare. */
#ifndef CUZK_BENCH_SYNTH_OPTS_H
#define CUZK_BENCH_SYNTH_OPTS_H
#include <stdbool.h>
#include "cuzk/cs.h"

typedef struct {
  const char *name; /* as printed: vec, inline1, inline2, inline4, arena */
  cz_cs_config cfg;
} cz_bench_layout;

#define CZ_BENCH_N_LAYOUTS 5
/* vec first: it is the baseline of every ratio. */
extern const cz_bench_layout cz_bench_layouts[CZ_BENCH_N_LAYOUTS];

/* Sets on[i] for each layout `--lc` names (vec|inline:1|inline:2|inline:4|
 * arena|all); vec is always on. Returns false for an unknown value. */
bool cz_bench_select_layouts(const char *lc, bool on[CZ_BENCH_N_LAYOUTS]);

/* prove|witness|record -> the backend kind; false for anything else. */
bool cz_bench_parse_backend(const char *name, cz_cs_mode *mode);

#endif
