/* The GPU prover's host-side logic, no GPU needed: prep_msm's 0 / 1 / other
 * split over density bitmaps reproduces the CPU MSM when each part is
 * computed on the CPU; batch sizing from free memory; the pinned staging
 * pool's reuse, growth and blocking. */
#include <pthread.h>
#include <unistd.h>
#include "check.h"
#include "cuda/czg_host.h"
#include "cuzk/msm.h"
#include "rand_field.h"

/* sum of one[] plus the MSM of other[] with k[], all on the CPU */
static void recombine(cz_g1 *out, const czg_split *s) {
  cz_g1 t;
  cz_g1_set_identity(out);
  for (size_t i = 0; i < s->n_one; i++) cz_g1_add_affine(out, out, s->one[i]);
  cz_g1_affine *pts = malloc((s->n_other + 1) * sizeof *pts);
  for (size_t i = 0; i < s->n_other; i++) pts[i] = *s->other[i];
  CHECK_EQ_INT(cz_msm_g1(&t, pts, s->k, s->n_other, 1), CZ_OK);
  cz_g1_add(out, out, &t);
  free(pts);
}

static void test_split(void) {
  for (int it = 0; it < 12; it++) {
    /* two segments as the prover's a/b_g1 queries: inputs dense, aux by density */
    size_t n_in = 1 + check_rand64() % 5, n_aux = check_rand64() % 300;
    size_t words = n_aux / 64 + 1;
    uint64_t *dens = calloc(words, sizeof *dens);
    size_t set = 0;
    unsigned pct = (unsigned)(check_rand64() % 101); /* density 0..100% */
    for (size_t i = 0; i < n_aux; i++)
      if (check_rand64() % 100 < pct) {
        dens[i / 64] |= 1ULL << (i % 64);
        set++;
      }
    /* bits past n_scalars are ignored */
    if (n_aux % 64) dens[words - 1] |= ~0ULL << (n_aux % 64);
    else dens[words - 1] = ~0ULL; /* a whole word past the end */
    cz_fr *frs = malloc((n_in + n_aux) * sizeof *frs);
    for (size_t i = 0; i < n_in + n_aux; i++) {
      unsigned r = (unsigned)(check_rand64() % 3); /* sparse: many 0 and 1 */
      frs[i] = r == 0 ? CZ_FR_ZERO : r == 1 ? CZ_FR_ONE : check_rand_fr();
    }
    cz_g1_affine *bases = malloc((n_in + set + 1) * sizeof *bases);
    for (size_t i = 0; i < n_in + set; i++) bases[i] = check_rand_g1_affine();
    cz_msm_g1_segment seg[2] = {
        {bases, n_in, NULL, frs, n_in, NULL, NULL},
        {bases + n_in, set, NULL, frs + n_in, n_aux, dens, NULL},
    };
    cz_g1 want, got;
    CHECK_EQ_INT(cz_msm_g1_segments(&want, seg, 2, 1, NULL), CZ_OK);
    czg_split s;
    CHECK_EQ_INT(cz_gpu_split_g1(&s, seg, 2), CZ_OK);
    CHECK_EQ_INT(s.n_zero + s.n_one + s.n_other, n_in + set);
    for (size_t i = 0; i < s.n_other; i++) /* "other" holds neither 0 nor 1 */
      CHECK(s.k[i].l[1] | s.k[i].l[2] | s.k[i].l[3] | (s.k[i].l[0] > 1));
    recombine(&got, &s);
    CHECK(cz_g1_eq(&got, &want));
    cz_gpu_split_free(&s);
    /* the aux as a witness packs it: the same split and the same sums */
    cz_fr_packed pk;
    CHECK_EQ_INT(cz_fr_packed_from(&pk, frs + n_in, n_aux), CZ_OK);
    cz_msm_g1_segment sp[2] = {seg[0], {bases + n_in, set, NULL, NULL, n_aux, dens, &pk}};
    CHECK_EQ_INT(cz_gpu_split_g1(&s, sp, 2), CZ_OK);
    CHECK_EQ_INT(s.n_zero + s.n_one + s.n_other, n_in + set);
    recombine(&got, &s);
    CHECK(cz_g1_eq(&got, &want));
    cz_gpu_split_free(&s);
    CHECK_EQ_INT(cz_msm_g1_segments(&got, sp, 2, 2, NULL), CZ_OK);
    CHECK(cz_g1_eq(&got, &want));
    cz_fr_packed_free(&pk);
    /* a base count that does not match the density is refused */
    seg[1].n_bases = set + 1;
    CHECK_EQ_INT(cz_gpu_split_g1(&s, seg, 2), CZ_ERR_INVALID_ARG);
    free(dens);
    free(frs);
    free(bases);
  }
  /* canonical scalars are reduced mod r first: r + 1 is a 1, r a 0 */
  cz_g1_affine b[3] = {check_rand_g1_affine(), check_rand_g1_affine(), check_rand_g1_affine()};
  cz_scalar k[3];
  memcpy(k[0].l, CZ_FR_MODULUS, sizeof k[0].l);
  k[1] = k[0];
  k[1].l[0] += 1;
  k[2] = (cz_scalar){{5, 0, 0, 0}};
  cz_msm_g1_segment seg = {b, 3, k, NULL, 3, NULL, NULL};
  czg_split s;
  CHECK_EQ_INT(cz_gpu_split_g1(&s, &seg, 1), CZ_OK);
  CHECK_EQ_INT(s.n_zero, 1);
  CHECK_EQ_INT(s.n_one, 1);
  CHECK(s.one[0] == &b[1]);
  CHECK_EQ_INT(s.n_other, 1);
  CHECK(s.other[0] == &b[2]);
  cz_gpu_split_free(&s);
}

static void test_plan(void) {
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 10000, 0, 100, 0), 100);   /* memory bound */
  CHECK_EQ_INT(cz_gpu_plan_batch(50, 10000, 0, 100, 0), 50);      /* all at once */
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 10000, 5000, 100, 0), 50); /* reserve first */
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 10000, 0, 100, 30), 30);   /* capped */
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 10000, 10000, 100, 0), 0); /* nothing fits */
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 99, 0, 100, 0), 0);
  CHECK_EQ_INT(cz_gpu_plan_batch(1000, 10000, 0, 0, 0), 0);
  /* every n is covered by ceil(n / batch) batches, none over the budget */
  for (int it = 0; it < 1000; it++) {
    size_t n = check_rand64() % 100000, per = 1 + check_rand64() % 500;
    size_t free_b = check_rand64() % 10000000, res = check_rand64() % 100000;
    size_t bs = cz_gpu_plan_batch(n, free_b, res, per, 0);
    if (bs) {
      CHECK(bs <= n);
      CHECK(res + bs * per <= free_b);
      CHECK(bs == n || res + (bs + 1) * per > free_b);
    } else {
      CHECK(n == 0 || free_b <= res || free_b - res < per);
    }
  }
}

static size_t live_allocs;
static void *t_alloc(void *ctx, size_t n) {
  (void)ctx;
  live_allocs++;
  return malloc(n);
}
static void t_free(void *ctx, void *p) {
  (void)ctx;
  live_allocs--;
  free(p);
}

static void *release_later(void *v) {
  czg_pool *p = v;
  usleep(20000);
  cz_gpu_pool_release(p, 0);
  return NULL;
}

static void test_pool(void) {
  czg_pool p;
  cz_gpu_pool_init(&p, 2, t_alloc, t_free, NULL);
  unsigned s0, s1, s2;
  void *a = cz_gpu_pool_acquire(&p, 1000, &s0);
  CHECK(a != NULL);
  cz_gpu_pool_release(&p, s0);
  void *b = cz_gpu_pool_acquire(&p, 800, &s1); /* reused, no new pinning */
  CHECK(b == a);
  CHECK_EQ_INT(p.n_allocs, 1);
  void *c = cz_gpu_pool_acquire(&p, 500, &s2); /* the second buffer */
  CHECK(c != NULL && c != a && s2 != s1);
  CHECK_EQ_INT(p.n_allocs, 2);
  cz_gpu_pool_release(&p, s1);
  cz_gpu_pool_release(&p, s2);
  void *d = cz_gpu_pool_acquire(&p, 600, &s0); /* the 1000-byte one fits: reused */
  CHECK(d == a);
  cz_gpu_pool_release(&p, s0);
  (void)cz_gpu_pool_acquire(&p, 5000, &s0); /* grows one buffer */
  CHECK_EQ_INT(p.n_allocs, 3);
  CHECK_EQ_INT(live_allocs, 2); /* the smaller one was freed, never more than 2 */
  cz_gpu_pool_release(&p, s0);
  /* all taken: acquire waits for a release from another thread */
  (void)cz_gpu_pool_acquire(&p, 10, &s0);
  (void)cz_gpu_pool_acquire(&p, 10, &s1);
  CHECK(s0 != s1);
  pthread_t th;
  pthread_create(&th, NULL, release_later, &p);
  unsigned s3;
  void *e = cz_gpu_pool_acquire(&p, 10, &s3);
  CHECK(e != NULL && s3 == 0 && s0 == 0);
  pthread_join(th, NULL);
  cz_gpu_pool_destroy(&p);
  CHECK_EQ_INT(live_allocs, 0);
}

int main(void) {
  test_split();
  test_plan();
  test_pool();
  return check_report("test_czg_split");
}
