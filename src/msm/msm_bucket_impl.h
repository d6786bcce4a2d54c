/* The MSM template's windows, included by msm_impl.h after
 * msm_batch_impl.h: one window task's whole work, accumulating its terms
 * into buckets (batched affine additions, or XYZZ for a small window) and
 * reducing the buckets to the window's sum. It stands apart from the driver
 * (msm_impl.h), which only splits the MSM into such tasks and combines
 * their sums. */

/* ---- bucket tasks ------------------------------------------------------- */

typedef struct {
  uint32_t bucket, neg;
  const AFF *p;
} GN(msm_entry);

/* Bucket states, kept apart from the buckets so that deciding between a
 * copy, a batched addition and a deferral touches one byte. A bucket that
 * became the identity (P + (-P)) is marked empty again, so a filled bucket
 * is never the identity and the batched addition may skip that check. */
enum { BK_EMPTY, BK_FILLED, BK_IN_BATCH };

/* Working state of one affine-bucket accumulation. */
typedef struct {
  AFF *bk;
  uint8_t *state;
  size_t cap; /* room in the batch arrays and the scratch */
  size_t batch, n, qcap, qn;
  AFF **acc;
  const AFF **pt;
  uint8_t *neg;
  uint32_t *bidx;
  GN(msm_entry) * q;
  GN(msm_batch_scratch) s;
  GN(msm_block) mem; /* all of the above but bk */
} GN(msm_acc);

static void GN(msm_flush)(GN(msm_acc) * A) {
  if (!A->n) return;
  GN(msm_batch_add)(A->acc, A->pt, A->neg, A->n, &A->s, true);
  /* P + (-P) empties a bucket: mark it so, the next point is then a copy. */
  for (size_t i = 0; i < A->n; i++)
    A->state[A->bidx[i]] = A->s.kind[i] == BA_ZERO ? BK_EMPTY : BK_FILLED;
  A->n = 0;
}

/* Bucket b is not in the current batch: an empty bucket takes the point as
 * it is, otherwise the addition joins the batch. */
static inline void GN(msm_place)(GN(msm_acc) * A, uint32_t b, uint32_t ng, const AFF *p) {
  AFF *bk = &A->bk[b];
  if (A->state[b] == BK_EMPTY) {
    bk->x = p->x;
    if (ng) GN(msm_f_neg)(&bk->y, &p->y);
    else bk->y = p->y;
    A->state[b] = BK_FILLED;
    return;
  }
  A->acc[A->n] = bk;
  A->pt[A->n] = p;
  A->neg[A->n] = (uint8_t)ng;
  A->bidx[A->n] = b;
  A->state[b] = BK_IN_BATCH;
  if (++A->n == A->batch) GN(msm_flush)(A);
}

/* Retry the deferred additions whose bucket has left the batch. */
static void GN(msm_drain)(GN(msm_acc) * A) {
  size_t keep = 0;
  for (size_t r = 0; r < A->qn; r++) {
    GN(msm_entry) e = A->q[r];
    if (A->state[e.bucket] == BK_IN_BATCH) A->q[keep++] = e;
    else GN(msm_place)(A, e.bucket, e.neg, e.p);
  }
  A->qn = keep;
}

static inline void GN(msm_insert)(GN(msm_acc) * A, uint32_t b, uint32_t ng, const AFF *p) {
  if (A->state[b] == BK_IN_BATCH) {
    if (A->qn == A->qcap) {
      GN(msm_flush)(A);
      GN(msm_drain)(A);
    }
    if (A->state[b] == BK_IN_BATCH) {
      A->q[A->qn++] = (GN(msm_entry)){b, ng, p};
      return;
    }
  }
  GN(msm_place)(A, b, ng, p);
}

/* sum_b (b + 1) bk[b] for affine buckets, with the running sums themselves
 * done by batched affine additions: the buckets are cut into L lanes of S
 * consecutive buckets, and each step adds one bucket into every lane's running
 * sum (one batch), then every running sum into its lane's total (another).
 * That leaves run_l = sum of lane l's buckets and sum_l = sum of
 * (b - lo_l + 1) bk[b] over it, with lo_l = l S; the answer is
 * sum_l sum_l + S * sum_l l run_l, the last by one more running sum over the
 * lanes and log2 S doublings. ~2 x 6.5M per bucket instead of 24M in XYZZ. */
static void GN(msm_reduce_affine)(JAC *out, const AFF *bk, size_t nb, GN(msm_acc) * A) {
  size_t L = nb / 32;
  L = L < 16 ? 16 : L > 128 ? 128 : L;
  const size_t S = nb / L;
  AFF run[128], sum[128];
  memset(run, 0, sizeof run);
  memset(sum, 0, sizeof sum);
  for (size_t step = S; step-- > 0;) {
    for (size_t l = 0; l < L; l++) {
      A->acc[l] = &run[l];
      A->pt[l] = &bk[l * S + step];
    }
    GN(msm_batch_add)(A->acc, A->pt, NULL, L, &A->s, false);
    for (size_t l = 0; l < L; l++) {
      A->acc[l] = &sum[l];
      A->pt[l] = &run[l];
    }
    GN(msm_batch_add)(A->acc, A->pt, NULL, L, &A->s, false);
  }
  XYZZ total, r, t;
  GN(xyzz_set_identity)(&total);
  GN(xyzz_set_identity)(&r);
  GN(xyzz_set_identity)(&t);
  for (size_t l = L; l-- > 1;) { /* t = sum_l l run_l */
    GN(xyzz_add_affine)(&r, &r, &run[l]);
    GN(xyzz_add)(&t, &t, &r);
  }
  for (size_t s = S; s > 1; s >>= 1) GN(xyzz_dbl)(&t, &t);
  for (size_t l = 0; l < L; l++) GN(xyzz_add_affine)(&total, &total, &sum[l]);
  GN(xyzz_add)(&total, &total, &t);
  GN(xyzz_to_jacobian)(out, &total);
}

/* sum_b (b + 1) B_b by running sums in XYZZ, over nb buckets held in XYZZ
 * (xz) or, when there are few of them, affine (af). */
static void GN(msm_reduce_running)(JAC *out, const XYZZ *xz, const AFF *af, size_t nb) {
  XYZZ run, sum;
  GN(xyzz_set_identity)(&run);
  GN(xyzz_set_identity)(&sum);
  for (size_t b = nb; b-- > 0;) {
    if (af) GN(xyzz_add_affine)(&run, &run, &af[b]);
    else GN(xyzz_add)(&run, &run, &xz[b]);
    GN(xyzz_add)(&sum, &sum, &run);
  }
  GN(xyzz_to_jacobian)(out, &sum);
}

static void GN(msm_acc_free)(GN(msm_acc) * A) {
  GN(msm_block_free)(&A->mem);
  memset(A, 0, sizeof *A);
}

/* Lays out the working state for windows of up to nb buckets. */
static void GN(msm_acc_carve)(GN(msm_acc) * A, size_t nb, bool vec, msm_carve *c) {
  A->cap = A->batch = msm_batch_size(nb);
  A->qcap = A->batch;
  A->state = msm_carve_take(c, nb);
  A->acc = msm_carve_take(c, A->batch * sizeof *A->acc);
  A->pt = msm_carve_take(c, A->batch * sizeof *A->pt);
  A->neg = msm_carve_take(c, A->batch);
  A->bidx = msm_carve_take(c, A->batch * sizeof *A->bidx);
  A->q = msm_carve_take(c, A->qcap * sizeof *A->q);
  GN(msm_scratch_carve)(&A->s, A->batch, vec, c);
}

/* Working state for windows of up to nb buckets, kept by one worker for all
 * its windows; bk is that worker's share of the MSM's bucket block. */
static bool GN(msm_acc_init)(GN(msm_acc) * A, AFF *bk, size_t nb, bool vec) {
  memset(A, 0, sizeof *A);
  MSM_BLOCK_INIT(&A->mem, GN(msm_acc_carve)(A, nb, vec, &c_));
  A->bk = bk;
  return A->mem.p != NULL;
}

/* The window's sum over nb buckets, accumulated in rep copies of them (rep a
 * power of two; term k goes to copy k mod rep). A window with few buckets,
 * such as the top one, would otherwise need batches so small that their
 * inversions and collisions cost more than the additions: it took 12 ms
 * where the others took 7.5 (G1, 2^16 points, c = 13). */
static void GN(msm_window_affine)(JAC *out, const msm_plan *plan, const uint16_t *dig, size_t k0,
                                  size_t k1, size_t nb, size_t rep, GN(msm_acc) * A) {
  const size_t nbr = nb * rep, rmask = rep - 1;
  memset(A->bk, 0, nbr * sizeof *A->bk); /* all (0, 0): empty */
  memset(A->state, BK_EMPTY, nbr);
  A->batch = msm_batch_size(nbr);
  A->qcap = A->batch;
  A->n = A->qn = 0;
  /* Buckets are hit at random: fetch the one a few points ahead. */
  enum { PF = 8 };
  for (size_t k = k0; k < k1; k++) {
    if (k + PF < k1 && dig[k + PF] != MSM_DIGIT_ZERO)
      GN(msm_prefetch)(&A->bk[(dig[k + PF] & 0x7fffu) + nb * ((k + PF) & rmask)], 1);
    uint32_t code = dig[k];
    if (code == MSM_DIGIT_ZERO) continue; /* identity bases have only zero digits */
    uint32_t b = (code & 0x7fffu) + (uint32_t)(nb * (k & rmask));
    GN(msm_insert)(A, b, code >> 15, (const AFF *)plan->term_base[k]);
  }
  while (A->n || A->qn) {
    GN(msm_flush)(A);
    GN(msm_drain)(A);
  }
  /* Fold the copies: bk[i] += bk[i + h], halving h down to nb. Copies may
   * be empty (the identity), so the additions are not regular. */
  for (size_t h = nbr / 2; h >= nb && rep > 1; h /= 2)
    for (size_t i = 0; i < h; i += A->cap) {
      size_t m = h - i < A->cap ? h - i : A->cap;
      for (size_t j = 0; j < m; j++) {
        A->acc[j] = &A->bk[i + j];
        A->pt[j] = &A->bk[i + j + h];
      }
      GN(msm_batch_add)(A->acc, A->pt, NULL, m, &A->s, false);
    }
  if (nb >= MSM_MIN_AFFINE_BUCKETS) GN(msm_reduce_affine)(out, A->bk, nb, A);
  else GN(msm_reduce_running)(out, NULL, A->bk, nb);
}

static bool GN(msm_window_xyzz)(JAC *out, const msm_plan *plan, const uint16_t *dig, size_t k0,
                                size_t k1, size_t nb) {
  XYZZ *bk = calloc(nb, sizeof *bk); /* ZZ = 0: identity */
  if (!bk) return false;
  for (size_t k = k0; k < k1; k++) {
    uint32_t code = dig[k];
    if (code == MSM_DIGIT_ZERO) continue;
    const AFF *p = (const AFF *)plan->term_base[k];
    XYZZ *b = &bk[code & 0x7fffu];
    if (code >> 15) GN(xyzz_sub_affine)(b, b, p);
    else GN(xyzz_add_affine)(b, b, p);
  }
  GN(msm_reduce_running)(out, bk, NULL, nb);
  free(bk);
  return true;
}
