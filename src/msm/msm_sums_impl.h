/* The MSM template's plain point sums, included by msm_impl.h after
 * msm_batch_impl.h: the terms whose scalar is 1, and the groups of bases
 * that share one scalar, each summed by trees of batched affine additions.
 * They stand apart from the windows (msm_bucket_impl.h): no buckets, and
 * they run beside the windows (scalars 1) or before them (equal scalars). */

/* ---- scalars equal to 1 ------------------------------------------------- */

/* Lays out msm_sum_points' working arrays. */
static void GN(msm_sum_carve)(AFF **s, AFF ***acc, const AFF ***pt, GN(msm_batch_scratch) * sc,
                              size_t half, bool vec, msm_carve *c) {
  *s = msm_carve_take(c, (half + 1) * sizeof **s);
  *acc = msm_carve_take(c, half * sizeof **acc);
  *pt = msm_carve_take(c, half * sizeof **pt);
  GN(msm_scratch_carve)(sc, half, vec, c);
}

/* out = sum of the points, by pairwise batched affine additions (a tree per
 * block of MSM_ONES_BLOCK), the last few of each block added in XYZZ. */
static bool GN(msm_sum_points)(JAC *out, const AFF *const *pts, size_t n, bool vec) {
  enum { HALF = MSM_ONES_BLOCK / 2 };
  AFF *s, **acc;
  const AFF **pt;
  GN(msm_batch_scratch) sc;
  GN(msm_block) mem;
  MSM_BLOCK_INIT(&mem, GN(msm_sum_carve)(&s, &acc, &pt, &sc, HALF, vec, &c_));
  bool ok = mem.p != NULL;
  XYZZ total;
  GN(xyzz_set_identity)(&total);
  for (size_t b = 0; ok && b < n; b += MSM_ONES_BLOCK) {
    size_t m = n - b < MSM_ONES_BLOCK ? n - b : MSM_ONES_BLOCK;
    const AFF *const *p = pts + b;
    size_t h = m / 2, cnt;
    for (size_t i = 0; i < h; i++) {
      s[i] = *p[2 * i];
      acc[i] = &s[i];
      pt[i] = p[2 * i + 1];
    }
    GN(msm_batch_add)(acc, pt, NULL, h, &sc, false);
    cnt = h;
    if (m & 1) s[cnt++] = *p[m - 1];
    while (cnt > 32) {
      h = cnt / 2;
      for (size_t i = 0; i < h; i++) {
        acc[i] = &s[2 * i];
        pt[i] = &s[2 * i + 1];
      }
      GN(msm_batch_add)(acc, pt, NULL, h, &sc, false);
      for (size_t i = 1; i < h; i++) s[i] = s[2 * i];
      if (cnt & 1) s[h++] = s[cnt - 1];
      cnt = h;
    }
    for (size_t i = 0; i < cnt; i++) GN(xyzz_add_affine)(&total, &total, &s[i]);
  }
  GN(xyzz_to_jacobian)(out, &total);
  GN(msm_block_free)(&mem);
  return ok;
}

/* ---- equal scalars ------------------------------------------------------ */

/* Pairs per batched addition when summing the groups. */
#define MSM_GROUP_BATCH 1024

typedef struct {
  const msm_plan *plan;
  AFF *w; /* the members' points, group by group; each sum ends at its first */
  size_t parts;
  atomic_int failed;
} GN(msm_gsum_ctx);

static void GN(msm_gsum_carve)(AFF ***acc, const AFF ***pt, GN(msm_batch_scratch) * sc, bool vec,
                               msm_carve *c) {
  *acc = msm_carve_take(c, MSM_GROUP_BATCH * sizeof **acc);
  *pt = msm_carve_take(c, MSM_GROUP_BATCH * sizeof **pt);
  GN(msm_scratch_carve)(sc, MSM_GROUP_BATCH, vec, c);
}

/* The first multi group whose members start at or after member m. */
static size_t GN(msm_group_at)(const msm_plan *plan, size_t m) {
  size_t lo = 0, hi = plan->n_multi;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (plan->multi_off[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Sums part `task` of the multi groups (split by members) in place: round r
 * adds each element 2^r past a multiple of 2^(r+1) into that one, for all
 * the part's groups in shared batches. Sums may cancel to the identity and
 * bases may repeat, so the additions are not regular. */
static void GN(msm_gsum_task)(void *vctx, size_t task, unsigned worker) {
  (void)worker;
  GN(msm_gsum_ctx) *ctx = vctx;
  const msm_plan *plan = ctx->plan;
  const size_t *off = plan->multi_off;
  size_t g0 = GN(msm_group_at)(plan, plan->n_members * task / ctx->parts);
  size_t g1 = GN(msm_group_at)(plan, plan->n_members * (task + 1) / ctx->parts);
  if (g0 == g1) return;
  for (size_t i = off[g0]; i < off[g1]; i++) ctx->w[i] = *(const AFF *)plan->multi_base[i];
  AFF **acc;
  const AFF **pt;
  GN(msm_batch_scratch) sc;
  GN(msm_block) mem;
  MSM_BLOCK_INIT(&mem, GN(msm_gsum_carve)(&acc, &pt, &sc, plan->vec, &c_));
  if (!mem.p) {
    atomic_store(&ctx->failed, 1);
    return;
  }
  for (size_t step = 1, more = 1; more; step *= 2) {
    size_t m = 0;
    more = 0;
    for (size_t g = g0; g < g1; g++) {
      size_t o = off[g], len = off[g + 1] - o;
      for (size_t j = 0; j + step < len; j += 2 * step) {
        acc[m] = &ctx->w[o + j];
        pt[m] = &ctx->w[o + j + step];
        if (++m == MSM_GROUP_BATCH) {
          GN(msm_batch_add)(acc, pt, NULL, m, &sc, false);
          m = 0;
        }
      }
      more |= 2 * step < len;
    }
    if (m) GN(msm_batch_add)(acc, pt, NULL, m, &sc, false);
  }
  GN(msm_block_free)(&mem);
}

/* Replaces each multi group's base by the sum of its members (in *w, to be
 * given back with n_members points); a sum that is the identity gets zero
 * digits, as identity bases do. */
static bool GN(msm_group_sums)(msm_plan *plan, AFF **w) {
  *w = NULL;
  if (!plan->n_multi) return true;
  *w = cz_pool_take(plan->n_members * sizeof(AFF));
  if (!*w) return false;
  size_t parts = plan->n_members / 4096 + 1;
  if (parts > 4 * (size_t)plan->threads) parts = 4 * (size_t)plan->threads;
  GN(msm_gsum_ctx) ctx = {plan, *w, parts, 0};
  plan->extra_critical_ms += cz_msm_run_tasks(parts, plan->threads, GN(msm_gsum_task), &ctx);
  if (atomic_load(&ctx.failed)) return false;
  for (size_t g = 0; g < plan->n_multi; g++) {
    const AFF *sum = &(*w)[plan->multi_off[g]];
    size_t t = plan->multi_term[g];
    plan->term_base[t] = (const uint8_t *)sum;
    if (GN(msm_aff_is_id)(sum))
      for (unsigned k = 0; k < plan->n_windows; k++)
        plan->digits[(size_t)k * plan->n_terms + t] = MSM_DIGIT_ZERO;
  }
  return true;
}
