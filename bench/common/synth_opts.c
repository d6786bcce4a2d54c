#include "common/synth_opts.h"
#include <string.h>

const cz_bench_layout cz_bench_layouts[CZ_BENCH_N_LAYOUTS] = {
    {"vec", {CZ_LC_VEC, 0, 0, 0}},        {"inline1", {CZ_LC_INLINE, 1, 0, 0}},
    {"inline2", {CZ_LC_INLINE, 2, 0, 0}}, {"inline4", {CZ_LC_INLINE, 4, 0, 0}},
    {"arena", {CZ_LC_ARENA, 0, 0, 0}},
};

bool cz_bench_select_layouts(const char *lc, bool on[CZ_BENCH_N_LAYOUTS]) {
  static const char *const names[CZ_BENCH_N_LAYOUTS] = {"vec", "inline:1", "inline:2", "inline:4",
                                                        "arena"};
  bool all = !strcmp(lc, "all"), known = all;
  for (int i = 0; i < CZ_BENCH_N_LAYOUTS; i++) {
    on[i] = i == 0 || all || !strcmp(lc, names[i]);
    known |= !strcmp(lc, names[i]);
  }
  return known;
}

bool cz_bench_parse_backend(const char *name, cz_cs_mode *mode) {
  if (!strcmp(name, "prove")) *mode = CZ_CS_PROVE;
  else if (!strcmp(name, "witness")) *mode = CZ_CS_WITNESS;
  else if (!strcmp(name, "record")) *mode = CZ_CS_RECORD;
  else return false;
  return true;
}
