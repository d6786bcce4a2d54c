/* Grouping of equal scalars for the MSM (contract in msm_internal.h): an
 * open-addressing table from scalar to group, then the terms compacted to
 * one per group and the members of the groups with several listed for the
 * group's code to sum. Serial: it is a small fraction of the MSM it saves. */
#include <stdlib.h>
#include <string.h>
#include "msm/msm_internal.h"
#include "util/bigbuf.h"

#define NO_GROUP UINT32_MAX

static inline bool key_zero(const uint64_t k[4]) { return (k[0] | k[1] | k[2] | k[3]) == 0; }

/* Scalars are field elements, their words already well mixed; fold them and
 * spread the bits once. */
static inline size_t key_hash(const uint64_t k[4], size_t mask) {
  uint64_t h =
      (k[0] ^ (k[1] * 0x9e3779b97f4a7c15ULL) ^ k[2] ^ (k[3] << 17)) * 0xff51afd7ed558ccdULL;
  return (size_t)(h >> 29) & mask;
}

typedef struct {
  uint32_t *slot; /* group + 1, 0 = free */
  uint32_t *gid;  /* per term: its group, or NO_GROUP for an identity base */
  uint32_t *rep;  /* per group: its first term */
  uint32_t *cnt;  /* per group: its terms */
} group_table;

static void table_free(group_table *t) {
  free(t->slot);
  free(t->gid);
  free(t->rep);
  free(t->cnt);
}

static size_t table_size(size_t n) {
  size_t cap = 1;
  while (cap < 2 * n) cap <<= 1;
  return cap;
}

bool cz_msm_group_any_equal(uint64_t (*kv)[4], size_t n) {
  const size_t cap = table_size(n), mask = cap - 1;
  uint32_t *slot = calloc(cap, sizeof *slot); /* index + 1, 0 = free */
  bool found = false;
  for (size_t i = 0; slot && i < n && !found; i++) {
    size_t h = key_hash(kv[i], mask);
    while (slot[h] && memcmp(kv[slot[h] - 1], kv[i], 32) != 0) h = (h + 1) & mask;
    if (slot[h]) found = true;
    else slot[h] = (uint32_t)i + 1;
  }
  free(slot);
  return found;
}

/* Assigns every term its group; returns the number of groups, or 0 to give
 * up (too few folded away). */
static size_t assign_groups(group_table *t, uint64_t (*kv)[4], size_t n) {
  const size_t mask = table_size(n) - 1;
  size_t groups = 0, live = 0;
  for (size_t i = 0; i < n; i++) {
    if (key_zero(kv[i])) {
      t->gid[i] = NO_GROUP;
      continue;
    }
    live++;
    size_t h = key_hash(kv[i], mask);
    while (t->slot[h] && memcmp(kv[t->rep[t->slot[h] - 1]], kv[i], 32) != 0) h = (h + 1) & mask;
    if (!t->slot[h]) {
      t->rep[groups] = (uint32_t)i;
      t->cnt[groups] = 0;
      t->slot[h] = (uint32_t)++groups;
    }
    uint32_t g = t->slot[h] - 1;
    t->gid[i] = g;
    t->cnt[g]++;
  }
  return live - groups < n / 16 ? 0 : groups;
}

cz_err cz_msm_group(msm_plan *plan, uint64_t (*kv)[4]) {
  const size_t n = plan->n_terms;
  if (n < MSM_GROUP_MIN || n > MSM_GROUP_MAX) return CZ_OK;
  group_table t = {calloc(table_size(n), 4), malloc(n * 4), malloc(n * 4), malloc(n * 4)};
  size_t groups = 0;
  if (t.slot && t.gid && t.rep && t.cnt) groups = assign_groups(&t, kv, n);
  if (!groups) {
    table_free(&t);
    return CZ_OK;
  }
  /* The groups with several terms, their member lists (slot is reused for
   * each group's index among them, then as the fill cursor). */
  size_t multi = 0, members = 0;
  for (size_t g = 0; g < groups; g++)
    if (t.cnt[g] > 1) {
      t.slot[g] = (uint32_t)members; /* groups <= n < cap */
      multi++;
      members += t.cnt[g];
    }
  plan->multi_off = cz_pool_take((multi + 1) * sizeof *plan->multi_off);
  plan->multi_term = cz_pool_take((multi ? multi : 1) * sizeof *plan->multi_term);
  plan->multi_base = cz_pool_take((members ? members : 1) * sizeof *plan->multi_base);
  if (!plan->multi_off || !plan->multi_term || !plan->multi_base) {
    table_free(&t);
    return CZ_ERR_NOMEM;
  }
  plan->n_multi = multi;
  plan->n_members = members;
  size_t m = 0;
  for (size_t g = 0; g < groups; g++)
    if (t.cnt[g] > 1) {
      plan->multi_off[m] = t.slot[g];
      plan->multi_term[m++] = g;
    }
  plan->multi_off[multi] = members;
  for (size_t i = 0; i < n; i++) {
    uint32_t g = t.gid[i];
    if (g != NO_GROUP && t.cnt[g] > 1) plan->multi_base[t.slot[g]++] = plan->term_base[i];
  }
  /* Compact: group g's term is its first, rep[g] >= g, so in place. */
  for (size_t g = 0; g < groups; g++) {
    plan->term_base[g] = plan->term_base[t.rep[g]];
    memcpy(kv[g], kv[t.rep[g]], 32);
  }
  plan->n_terms = groups;
  table_free(&t);
  return CZ_OK;
}
