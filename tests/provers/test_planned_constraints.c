/* ctest-label: slow */
/* The provers' planning figures (cz_porep_partition_constraints, ...)
 * against the circuits' real constraint counts, counted here as
 * circuit-info counts them (CZ_CS_COUNT, no values), at every registered
 * sector size of PoRep, WinningPoSt, WindowPoSt and SnapDeals: each must
 * be at least the real count, so a job is never charged less memory than
 * its partitions use, and at most 2% above it (the memory estimates
 * would otherwise drift from what a job really takes). Slow label: the 32 and
 * 64 GiB circuits take about a minute to count in all. */
#include <stdio.h>

#include "check.h"
#include "cuzk/cs.h"
#include "cuzk/porep.h"
#include "cuzk/post_circuit.h"
#include "cuzk/provers.h"
#include "cuzk/snap_circuit.h"

typedef enum { POREP, POST, SNAP } family;

static size_t real_count(family f, const void *registered) {
  cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
  CHECK(cs != NULL);
  if (!cs) return 0;
  cz_err e;
  if (f == POREP) {
    e = cz_porep_circuit(cs, &((const cz_registered_porep *)registered)->shape, NULL, 0);
  } else if (f == SNAP) {
    e = cz_snap_circuit(cs, &((const cz_registered_snap *)registered)->shape, NULL, NULL);
  } else {
    const cz_registered_post *k = registered;
    e = cz_post_circuit(cs, &k->tree_r, (size_t)(k->sector_size / 32), k->sector_count,
                        k->challenge_count, NULL);
  }
  if (e == CZ_OK) e = cz_cs_finish(cs);
  CHECK_EQ_INT(e, CZ_OK);
  size_t n = e == CZ_OK ? cz_cs_num_constraints(cs) : 0;
  cz_cs_free(cs);
  return n;
}

static void check_plan(const char *name, uint64_t planned, size_t real) {
  double ratio = real ? (double)planned / (double)real : 0;
  printf("%-28s real %11zu planned %11llu ratio %.4f\n", name, real, (unsigned long long)planned,
         ratio);
  CHECK(real > 0);
  CHECK(planned >= real);
  CHECK(planned <= real + real / 50);
}

int main(void) {
  static const uint64_t sizes[] = {2048, 8u << 20, 512u << 20, 32ull << 30, 64ull << 30};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const cz_registered_porep *k = cz_registered_porep_by_sector_size(sizes[i], true);
    CHECK(k != NULL);
    if (k) check_plan(k->name, cz_porep_partition_constraints(k), real_count(POREP, k));
    const cz_registered_snap *u = cz_registered_snap_by_sector_size(sizes[i]);
    CHECK(u != NULL);
    if (u) check_plan(u->name, cz_snap_partition_constraints(&u->shape), real_count(SNAP, u));
  }
  for (uint32_t id = 0; id < CZ_REGISTERED_POST_COUNT; id++) {
    const cz_registered_post *k = cz_registered_post_by_id(id);
    if (k->type == CZ_POST_WINNING || id >= 10) /* 5-9: the V1 window kinds, 10-14's circuits */
      check_plan(k->name, cz_post_circuit_constraints(k), real_count(POST, k));
  }
  return check_report("test_planned_constraints");
}
