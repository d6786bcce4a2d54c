/* Per-group part of cuzk-bench msm (bench_msm.c), included once per group with
 * AFF, JAC, GN(x), SEG, MSM(x), GEN defined. */

/* n points P_{i+1} = P_i + [5] G from P_0 = [7] G, converted to affine in
 * blocks so the Jacobian scratch stays small. On huge pages, as the prover's
 * parameters are. */
static AFF *GN(bench_points)(size_t n) {
  AFF *out = cz_huge_alloc(n * sizeof *out);
  enum { BLK = 4096 };
  JAC *blk = malloc(BLK * sizeof *blk);
  if (!out || !blk) {
    free(out);
    free(blk);
    return NULL;
  }
  JAC g, step, cur;
  cz_scalar five = {{5, 0, 0, 0}}, seven = {{7, 0, 0, 0}};
  GN(from_affine)(&g, &GEN);
  GN(mul)(&step, &g, &five);
  GN(mul)(&cur, &g, &seven);
  for (size_t b = 0; b < n; b += BLK) {
    size_t m = n - b < BLK ? n - b : BLK;
    for (size_t i = 0; i < m; i++) {
      blk[i] = cur;
      GN(add)(&cur, &cur, &step);
    }
    GN(batch_to_affine)(out + b, blk, m);
  }
  free(blk);
  return out;
}

/* One timed call of configuration c (msm_runs) in repetition rep. */
static int GN(bench_once)(const bench_args *a, msm_runs *r, int c, int rep, const AFF *bases,
                          const cz_fr *scalars, size_t n) {
  SEG s = {bases, n, NULL, scalars, n, NULL};
  cz_msm_opts o = {.window_bits = a->window,
                   .accumulate = a->acc,
                   .no_ifma = c == 3,
                   .no_grouping = c == 5};
  JAC out;
  if (c >= MSM_PIN && bench_pin(r->cpus[c - MSM_PIN])) return 1;
  double t0 = bench_now_ms(), c0 = bench_cpu_ms();
  cz_err e = MSM(_segments)(&out, &s, 1, c == 2 || c >= MSM_PIN ? 1 : a->threads, &o);
  r->ms[c][rep] = bench_now_ms() - t0;
  r->cpu[c][rep] = bench_cpu_ms() - c0;
  r->crit[c][rep] = o.cpu_critical_ms;
  if (c >= MSM_PIN && bench_pin(-1)) return 1;
  if (e) {
    fprintf(stderr, "cuzk-bench msm: %s\n", cz_err_str(e));
    return 1;
  }
  uint64_t w0;
  memcpy(&w0, &out, sizeof w0);
  bench_sink ^= w0;
  r->used[c] = o;
  return 0;
}

/* Median wall time (ms) of reps calls for each of the configurations,
 * interleaved so that machine noise hits all of them alike. */
static int GN(bench_run)(const bench_args *a) {
  size_t n = (size_t)1 << a->log_n;
  AFF *bases = GN(bench_points)(n);
  cz_fr *dense = bench_scalars(n, false, 0), *sparse = a->sparse ? bench_scalars(n, true, 0) : NULL;
  cz_fr *equal = a->equal ? bench_scalars(n, false, a->equal) : NULL;
  int rc = 0;
  if (!bases || !dense || (a->sparse && !sparse) || (a->equal && !equal)) {
    fprintf(stderr, "cuzk-bench msm: out of memory\n");
    rc = 1;
  }
  msm_runs r = {
      .on = {true, a->sparse, a->scaling && a->threads != 1, a->vs_scalar, a->equal, a->equal}};
  r.n_cpus = a->scaling && a->threads > 1 ? bench_cpus(r.cpus, (int)a->threads) : 0;
  for (int i = 0; i < r.n_cpus; i++) r.on[MSM_PIN + i] = true;
  for (int rep = 0; rep < a->reps && !rc; rep++)
    for (int c = 0; c < MSM_NC && !rc; c++)
      if (r.on[c])
        rc = GN(bench_once)(a, &r, c, rep, bases,
                            c == 1             ? sparse
                            : c == 4 || c == 5 ? equal
                                               : dense,
                            n);
  if (!rc) msm_report(a, &r, n);
  free(bases);
  free(dense);
  free(sparse);
  free(equal);
  return rc;
}
