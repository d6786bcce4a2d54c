/* MSM tests for one group, included by test_msm.c with:
 *   AFF, JAC, GN(x) (cz_g1_##x), SEG, MSM(x) (cz_msm_g1##x), GEN (generator)
 * Every MSM is compared with the naive sum of cz_gN_mul products. */

/* n distinct subgroup points: P_0 = [seed] G, P_{i+1} = P_i + [3] G, with
 * the identity, repeats and negations planted so the batched additions meet
 * P + P, P + (-P) and the identity. */
static void GN(t_points)(AFF *out, size_t n, uint64_t seed) {
  if (!n) return;
  JAC *j = malloc(n * sizeof *j), g, step;
  cz_scalar k = {{seed, 0, 0, 0}}, three = {{3, 0, 0, 0}};
  GN(from_affine)(&g, &GEN);
  GN(mul)(&j[0], &g, &k);
  GN(mul)(&step, &g, &three);
  for (size_t i = 1; i < n; i++) GN(add)(&j[i], &j[i - 1], &step);
  GN(batch_to_affine)(out, j, n);
  free(j);
  for (size_t i = 7; i < n; i += 11) out[i] = out[i - 5];                  /* repeats */
  for (size_t i = 9; i < n; i += 13) GN(affine_neg)(&out[i], &out[i - 2]); /* negations */
  for (size_t i = 5; i < n; i += 17) memset(&out[i], 0, sizeof out[i]);    /* identity */
}

static void GN(t_naive)(JAC *r, const AFF *b, const cz_scalar *k, size_t n) {
  GN(set_identity)(r);
  for (size_t i = 0; i < n; i++) {
    JAC p, q;
    GN(from_affine)(&p, &b[i]);
    GN(mul)(&q, &p, &k[i]);
    GN(add)(r, r, &q);
  }
}

/* kind 0: uniform 256-bit (some >= r); 1: mostly 0 and 1 with a few
 * random; 2: small values (many equal digits, so bucket collisions). */
static void GN(t_scalars)(cz_scalar *k, size_t n, int kind) {
  for (size_t i = 0; i < n; i++) {
    for (int l = 0; l < 4; l++) k[i].l[l] = check_rand64();
    if (kind == 1) {
      unsigned r = (unsigned)(check_rand64() % 16);
      if (r < 9) memset(&k[i], 0, sizeof k[i]);
      else if (r < 15) k[i] = (cz_scalar){{1, 0, 0, 0}};
    } else if (kind == 2) {
      k[i] = (cz_scalar){{check_rand64() % 40, 0, 0, 0}};
    }
  }
}

/* Forced windows and bucket forms, including the batch-affine path with
 * small batches (c = 9: 256 buckets, batches of 32, many collisions) and
 * windows that do not divide 255. */
static const struct {
  unsigned c, chunks;
  cz_msm_accumulate acc;
} GN(t_forced)[] = {{1, 1, CZ_MSM_ACC_XYZZ},          {4, 3, CZ_MSM_ACC_XYZZ},
                    {7, 2, CZ_MSM_ACC_XYZZ},          {9, 1, CZ_MSM_ACC_BATCH_AFFINE},
                    {10, 3, CZ_MSM_ACC_BATCH_AFFINE}, {12, 2, CZ_MSM_ACC_BATCH_AFFINE},
                    {16, 1, CZ_MSM_ACC_BATCH_AFFINE}};

static bool GN(t_one)(const char *label, JAC *got, const SEG *s, unsigned threads, cz_msm_opts *o,
                      const JAC *want) {
  cz_err e = MSM(_segments)(got, s, 1, threads, o);
  CHECK_EQ_INT(e, CZ_OK);
  bool ok = GN(eq)(got, want);
  if (!ok)
    fprintf(stderr, "  %s n=%zu threads=%u c=%u chunks=%u affine=%d\n", label, s->n_scalars,
            threads, o->used_window_bits, o->used_point_chunks, o->used_batch_affine);
  CHECK(ok);
  return ok;
}

/* One naive sum per (n, kind), checked against the automatic choice with 1
 * and 2 threads, Montgomery-form scalars, and (when forced) every forced mode. */
static void GN(t_case)(const char *label, size_t n, int kind, bool forced) {
  AFF *b = malloc((n ? n : 1) * sizeof *b);
  cz_scalar *k = malloc((n ? n : 1) * sizeof *k);
  cz_fr *f = malloc((n ? n : 1) * sizeof *f);
  GN(t_points)(b, n, 1000 + n);
  GN(t_scalars)(k, n, kind);
  for (size_t i = 0; i < n; i++) { /* the same scalars reduced mod r, Montgomery form */
    uint8_t wide[64] = {0};
    for (int l = 0; l < 4; l++)
      for (int j = 0; j < 8; j++) wide[8 * l + j] = (uint8_t)(k[i].l[l] >> (8 * j));
    cz_fr_from_wide_le(&f[i], wide);
  }
  JAC want, got;
  GN(t_naive)(&want, b, k, n);
  SEG s = {b, n, k, NULL, n, NULL, NULL}, sf = {b, n, NULL, f, n, NULL, NULL};
  for (unsigned threads = 1; threads <= 2; threads++) {
    cz_msm_opts o = {0};
    GN(t_one)(label, &got, &s, threads, &o, &want);
    cz_msm_opts of = {0};
    GN(t_one)(label, &got, &sf, threads, &of, &want);
  }
  for (size_t fi = 0; forced && fi < sizeof GN(t_forced) / sizeof *GN(t_forced); fi++) {
    /* c = 16 costs 2^16 bucket additions per window: G1 and one kind only. */
    if (GN(t_forced)[fi].c == 16 && (kind != 0 || sizeof(AFF) != sizeof(cz_g1_affine))) continue;
    cz_msm_opts o = {.window_bits = GN(t_forced)[fi].c,
                     .point_chunks = GN(t_forced)[fi].chunks,
                     .accumulate = GN(t_forced)[fi].acc};
    GN(t_one)(label, &got, &s, 2, &o, &want);
    CHECK_EQ_INT(o.used_window_bits, n ? GN(t_forced)[fi].c : 0);
  }
  free(f);
  free(b);
  free(k);
}

static void GN(t_modes)(const char *label) {
  static const size_t sizes[] = {0, 1, 2, 3, 17, 100, 700};
  const size_t ns = sizeof sizes / sizeof *sizes;
  for (size_t si = 0; si < ns; si++)
    for (int kind = 0; kind < 3; kind++) GN(t_case)(label, sizes[si], kind, si == ns - 1);
}

/* *want += the naive sum of segment s: walk its density bits. */
static void GN(t_density_naive)(JAC *want, const SEG *s) {
  JAC t;
  size_t j = 0;
  for (size_t i = 0; i < s->n_scalars; i++)
    if ((s->density[i / 64] >> (i % 64)) & 1) {
      GN(t_naive)(&t, &s->bases[j++], &s->scalars[i], 1);
      GN(add)(want, want, &t);
    }
}

/* The two segments of t_density with Montgomery-form scalars (the
 * prover's form), which take the 0/1 classification before the conversion
 * to canonical form, and then packed (a witness's aux): the same sum and
 * the same classes, with density, on 1 and 2 threads; a packed vector
 * shorter than the segment is refused. */
static void GN(t_density_fr)(const SEG segs[2], const JAC *want) {
  JAC got;
  cz_fr *f[2];
  SEG fsegs[2], psegs[2];
  cz_fr_packed p[2];
  for (int s = 0; s < 2; s++) {
    size_t n = segs[s].n_scalars;
    f[s] = malloc(n * sizeof *f[s]);
    for (size_t i = 0; i < n; i++) {
      uint8_t wide[64] = {0};
      for (int l = 0; l < 4; l++)
        for (int b = 0; b < 8; b++) wide[8 * l + b] = (uint8_t)(segs[s].scalars[i].l[l] >> (8 * b));
      cz_fr_from_wide_le(&f[s][i], wide);
    }
    fsegs[s] = segs[s];
    fsegs[s].scalars = NULL;
    fsegs[s].frs = f[s];
  }
  cz_msm_opts o = {0}, oc = {0};
  CHECK_EQ_INT(MSM(_segments)(&got, fsegs, 2, 2, &o), CZ_OK);
  CHECK(GN(eq)(&got, want));
  CHECK_EQ_INT(MSM(_segments)(&got, segs, 2, 1, &oc), CZ_OK);
  CHECK_EQ_INT(o.n_zero, oc.n_zero);
  CHECK_EQ_INT(o.n_one, oc.n_one);
  CHECK(o.n_one > 0 && o.n_zero > 0);
  for (int s = 0; s < 2; s++) {
    CHECK_EQ_INT(cz_fr_packed_from(&p[s], f[s], segs[s].n_scalars), CZ_OK);
    psegs[s] = fsegs[s];
    psegs[s].frs = NULL;
    psegs[s].packed = &p[s];
  }
  for (unsigned threads = 1; threads <= 2; threads++) {
    cz_msm_opts op = {0};
    CHECK_EQ_INT(MSM(_segments)(&got, psegs, 2, threads, &op), CZ_OK);
    CHECK(GN(eq)(&got, want));
    CHECK_EQ_INT(op.n_zero, oc.n_zero);
    CHECK_EQ_INT(op.n_one, oc.n_one);
  }
  psegs[0].n_scalars++;
  CHECK_EQ_INT(MSM(_segments)(&got, psegs, 2, 1, NULL), CZ_ERR_INVALID_ARG);
  for (int s = 0; s < 2; s++) {
    cz_fr_packed_free(&p[s]);
    free(f[s]);
  }
}

/* Density: bases hold only the entries whose bit is set; two segments (as
 * for b: inputs then aux) with separate base vectors. */
static void GN(t_density)(void) {
  const size_t n1 = 70, n2 = 900;
  uint64_t d1[2], d2[15];
  for (int i = 0; i < 2; i++) d1[i] = check_rand64();
  for (int i = 0; i < 15; i++) d2[i] = check_rand64() & check_rand64();
  d1[1] |= ~(uint64_t)0 << (n1 - 64); /* bits past n1: must be ignored */
  size_t c1 = 0, c2 = 0;
  for (size_t i = 0; i < n1; i++) c1 += (d1[i / 64] >> (i % 64)) & 1;
  for (size_t i = 0; i < n2; i++) c2 += (d2[i / 64] >> (i % 64)) & 1;
  AFF *b1 = malloc(c1 * sizeof *b1), *b2 = malloc(c2 * sizeof *b2);
  GN(t_points)(b1, c1, 77);
  GN(t_points)(b2, c2, 99);
  cz_scalar *k1 = malloc(n1 * sizeof *k1), *k2 = malloc(n2 * sizeof *k2);
  GN(t_scalars)(k1, n1, 0);
  GN(t_scalars)(k2, n2, 1);
  SEG segs[2] = {{b1, c1, k1, NULL, n1, d1, NULL}, {b2, c2, k2, NULL, n2, d2, NULL}};
  JAC want, got;
  GN(set_identity)(&want);
  GN(t_density_naive)(&want, &segs[0]);
  GN(t_density_naive)(&want, &segs[1]);
  for (unsigned threads = 1; threads <= 2; threads++) {
    cz_msm_opts o = {0};
    CHECK_EQ_INT(MSM(_segments)(&got, segs, 2, threads, &o), CZ_OK);
    CHECK(GN(eq)(&got, &want));
    CHECK_EQ_INT(o.n_zero + o.n_one + o.n_other, c1 + c2);
  }
  GN(t_density_fr)(segs, &want);
  /* A base count that does not match the density is rejected. */
  SEG bad = {b1, c1 + 1, k1, NULL, n1, d1, NULL};
  CHECK_EQ_INT(MSM(_segments)(&got, &bad, 1, 1, NULL), CZ_ERR_INVALID_ARG);
  CHECK(GN(is_identity)(&got));
  SEG both = {b1, n1, k1, (const cz_fr *)k1, n1, NULL, NULL};
  CHECK_EQ_INT(MSM(_segments)(&got, &both, 1, 1, NULL), CZ_ERR_INVALID_ARG);
  cz_msm_opts wide = {.window_bits = 17};
  CHECK_EQ_INT(MSM(_segments)(&got, segs, 2, 1, &wide), CZ_ERR_INVALID_ARG);
  free(b1);
  free(b2);
  free(k1);
  free(k2);
}

/* The 8-lane (AVX-512 IFMA) batched additions against the scalar field code
 * (no_ifma) and the portable C path (cz_cpu_force_portable): the same bits,
 * and the naive sum. Inputs made to reach every lane case: random scalars,
 * sparse 0/1 (the batched sum of the ones), small scalars (bucket
 * collisions), a few repeated points (doublings inside the batches), P and -P
 * with equal scalars (buckets emptied) and identity bases; windows forced so
 * that batches are small (c = 9, 32 per batch), mid-sized and large. */
static void GN(t_paths_case)(const char *label, AFF *b, const cz_scalar *k, size_t n) {
  JAC want, got[3];
  GN(t_naive)(&want, b, k, n);
  SEG s = {b, n, k, NULL, n, NULL, NULL};
  /* (window, threads): automatic on 1 and 2 threads, c = 9 with 2 point
   * chunks on 2 threads, c = 12 on 1. */
  static const unsigned conf[][2] = {{0, 1}, {0, 2}, {9, 2}, {12, 1}};
  for (size_t ci = 0; ci < sizeof conf / sizeof *conf; ci++) {
    const unsigned window = conf[ci][0], threads = conf[ci][1];
    cz_msm_opts o[3] = {{.window_bits = window},
                        {.window_bits = window, .no_ifma = true},
                        {.window_bits = window}};
    if (window) {
      for (int p = 0; p < 3; p++) {
        o[p].accumulate = CZ_MSM_ACC_BATCH_AFFINE;
        o[p].point_chunks = threads;
      }
    }
    for (int p = 0; p < 3; p++) {
      if (p == 2) cz_cpu_force_portable(true);
      CHECK_EQ_INT(MSM(_segments)(&got[p], &s, 1, threads, &o[p]), CZ_OK);
      if (p == 2) cz_cpu_force_portable(false);
    }
    CHECK_EQ_INT(o[0].used_ifma, cz_cpu_use_ifma());
    CHECK(!o[1].used_ifma && !o[2].used_ifma);
    bool same =
        !memcmp(&got[0], &got[1], sizeof got[0]) && !memcmp(&got[0], &got[2], sizeof got[0]);
    bool right = GN(eq)(&got[0], &want);
    if (!same || !right)
      fprintf(stderr, "  %s n=%zu c=%u threads=%u: same=%d right=%d\n", label, n,
              o[0].used_window_bits, threads, same, right);
    CHECK(same);
    CHECK(right);
  }
}

static void GN(t_paths)(void) {
  const size_t n = sizeof(AFF) == sizeof(cz_g1_affine) ? 3000 : 1500;
  AFF *b = malloc(n * sizeof *b), *few = malloc(5 * sizeof *few);
  cz_scalar *k = malloc(n * sizeof *k);
  GN(t_points)(b, n, 4242); /* with planted repeats, negations, identities */
  GN(t_scalars)(k, n, 0);
  GN(t_paths_case)("random", b, k, n);
  GN(t_scalars)(k, n, 1);
  GN(t_paths_case)("sparse01", b, k, n);
  GN(t_scalars)(k, n, 2);
  GN(t_paths_case)("small", b, k, n);
  /* Five distinct points repeated, one of them as -P, and the identity:
   * scalars equal to 1 and random. */
  GN(t_points)(few, 5, 31);
  for (size_t i = 0; i < n; i++) {
    b[i] = few[i % 5];
    if (i % 7 == 3) GN(affine_neg)(&b[i], &b[i]);
    if (i % 97 == 0) memset(&b[i], 0, sizeof b[i]);
  }
  for (size_t i = 0; i < n; i++) k[i] = (cz_scalar){{1, 0, 0, 0}};
  GN(t_paths_case)("repeats, ones", b, k, n);
  GN(t_scalars)(k, n, 2);
  GN(t_paths_case)("repeats, small", b, k, n);
  /* P_i and -P_i with one scalar each: every window's buckets cancel. */
  GN(t_points)(b, n / 2, 555);
  GN(t_scalars)(k, n / 2, 0);
  for (size_t i = 0; i < n / 2; i++) {
    GN(affine_neg)(&b[n / 2 + i], &b[i]);
    k[n / 2 + i] = k[i];
  }
  GN(t_paths_case)("P, -P", b, k, n);
  free(b);
  free(few);
  free(k);
}

/* Copies of a small window's buckets: with c = 10 the top window has 32
 * buckets, and 4096 terms give it 8 copies (256 buckets, batched affine),
 * folded before the XYZZ reduction of the 32. Checked against the XYZZ form
 * (itself checked against the naive sum above), on every field path. */
static void GN(t_copies)(void) {
  const size_t n = 4096;
  AFF *b = malloc(n * sizeof *b);
  cz_scalar *k = malloc(n * sizeof *k);
  GN(t_points)(b, n, 777);
  GN(t_scalars)(k, n, 0);
  SEG s = {b, n, k, NULL, n, NULL, NULL};
  JAC want, got;
  cz_msm_opts ox = {.window_bits = 10, .accumulate = CZ_MSM_ACC_XYZZ};
  CHECK_EQ_INT(MSM(_segments)(&want, &s, 1, 1, &ox), CZ_OK);
  for (unsigned threads = 1; threads <= 2; threads++)
    for (int p = 0; p < 3; p++) {
      cz_msm_opts o = {.window_bits = 10,
                       .point_chunks = 1,
                       .accumulate = CZ_MSM_ACC_BATCH_AFFINE,
                       .no_ifma = p == 1};
      if (p == 2) cz_cpu_force_portable(true);
      CHECK_EQ_INT(MSM(_segments)(&got, &s, 1, threads, &o), CZ_OK);
      if (p == 2) cz_cpu_force_portable(false);
      CHECK(o.used_batch_affine);
      CHECK(GN(eq)(&got, &want));
    }
  free(b);
  free(k);
}

/* Grouped equal scalars against the naive sum and the ungrouped call, on 1
 * and 2 threads. `pool` > 0 draws the non-trivial scalars from that many
 * values (some 0 and 1 mixed in); `distinct_head` makes the first scalars
 * all different first. want_grouped says whether grouping must happen. */
static void GN(t_group_case)(const char *label, AFF *b, cz_scalar *k, size_t n, bool want_grouped) {
  JAC want, got, plain;
  GN(t_naive)(&want, b, k, n);
  SEG s = {b, n, k, NULL, n, NULL, NULL};
  cz_msm_opts op = {.no_grouping = true};
  CHECK_EQ_INT(MSM(_segments)(&plain, &s, 1, 2, &op), CZ_OK);
  CHECK(GN(eq)(&plain, &want));
  CHECK_EQ_INT(op.n_distinct, op.n_other);
  for (unsigned threads = 1; threads <= 2; threads++) {
    cz_msm_opts o = {0};
    CHECK_EQ_INT(MSM(_segments)(&got, &s, 1, threads, &o), CZ_OK);
    bool right = GN(eq)(&got, &want);
    if (!right || (o.n_distinct < o.n_other) != want_grouped)
      fprintf(stderr, "  %s threads=%u: right=%d other=%zu distinct=%zu multi=%zu\n", label,
              threads, right, o.n_other, o.n_distinct, o.n_multi);
    CHECK(right);
    CHECK_EQ_INT(o.n_other, op.n_other);
    CHECK_EQ_INT(o.n_distinct < o.n_other, want_grouped);
    CHECK_EQ_INT(o.n_multi > 0, want_grouped);
  }
}

static void GN(t_pool_scalars)(cz_scalar *k, size_t n, size_t pool, size_t distinct_head) {
  cz_scalar vals[64];
  GN(t_scalars)(vals, 64, 0);
  GN(t_scalars)(k, n, 0);
  for (size_t i = distinct_head; i < n; i++) {
    unsigned r = (unsigned)(check_rand64() % 32);
    if (r == 0) memset(&k[i], 0, sizeof k[i]);
    else if (r == 1) k[i] = (cz_scalar){{1, 0, 0, 0}};
    else k[i] = vals[check_rand64() % pool];
  }
}

static void GN(t_groups)(void) {
  const bool g1 = sizeof(AFF) == sizeof(cz_g1_affine);
  const size_t n = g1 ? 6000 : 2500;
  AFF *b = malloc(n * sizeof *b);
  cz_scalar *k = malloc(n * sizeof *k);
  /* Bases with planted repeats (doublings inside a group), negations and
   * identities; scalars from 40 values: big groups, many rounds. */
  GN(t_points)(b, n, 2024);
  GN(t_pool_scalars)(k, n, 40, 0);
  GN(t_group_case)("pool of 40", b, k, n, true);
  /* Every group is pairs P, -P: each sum cancels to the identity. */
  GN(t_points)(b, n / 2, 909);
  for (size_t i = 0; i < n / 2; i++) {
    GN(affine_neg)(&b[n / 2 + i], &b[i]);
    k[i] = k[n / 2 + i];
  }
  GN(t_group_case)("P, -P in each group", b, k, n, true);
  /* Mostly singletons with some pairs: groups of 2 among many of 1. */
  GN(t_points)(b, n, 31337);
  GN(t_scalars)(k, n, 0);
  for (size_t i = 1; i < n; i += 5) k[i] = k[i - 1];
  GN(t_group_case)("pairs", b, k, n, true);
  /* Under 1/16 folded away: no grouping. */
  GN(t_scalars)(k, n, 0);
  for (size_t i = 1; i < n; i += 40) k[i] = k[i - 1];
  GN(t_group_case)("few equal", b, k, n, false);
  /* Fewer than 2^10 non-trivial scalars: not tried. */
  GN(t_pool_scalars)(k, 900, 3, 0);
  GN(t_group_case)("small", b, k, 900, false);
  if (g1) { /* the probe: the first 4096 all different, then a pool */
    GN(t_pool_scalars)(k, n, 5, 4200);
    GN(t_group_case)("distinct head", b, k, n, false);
  }
  free(b);
  free(k);
}
