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

/* Median wall time (ms) of reps calls for each of the configurations,
 * interleaved so that machine noise hits all of them alike. */
static int GN(bench_run)(const bench_args *a) {
  size_t n = (size_t)1 << a->log_n;
  AFF *bases = GN(bench_points)(n);
  cz_fr *dense = bench_scalars(n, false, 0), *sparse = a->sparse ? bench_scalars(n, true, 0) : NULL;
  cz_fr *equal = a->equal ? bench_scalars(n, false, a->equal) : NULL;
  if (!bases || !dense || (a->sparse && !sparse) || (a->equal && !equal)) {
    fprintf(stderr, "cuzk-bench msm: out of memory\n");
    return 1;
  }
  /* Configurations: [0] dense at T threads, [1] sparse at T, [2] dense at 1,
   * [3] dense at T on the scalar field code (no IFMA), [4] and [5] the
   * --equal scalars at T grouped and not, [PIN + i] dense at 1 pinned to the
   * i-th CPU this process may use (--scaling). */
  int cpus[BENCH_MAX_CPUS];
  int n_cpus = a->scaling && a->threads > 1 ? bench_cpus(cpus, (int)a->threads) : 0;
  enum { PIN = 6, NC = PIN + BENCH_MAX_CPUS };
  bool on[NC] = {true, a->sparse, a->scaling && a->threads != 1, a->vs_scalar, a->equal, a->equal};
  for (int i = 0; i < n_cpus; i++) on[PIN + i] = true;
  double ms[NC][BENCH_MAX_REPS], cpu[NC][BENCH_MAX_REPS], crit[NC][BENCH_MAX_REPS];
  cz_msm_opts used[NC];
  for (int r = 0; r < a->reps; r++)
    for (int c = 0; c < NC; c++) {
      if (!on[c]) continue;
      SEG s = {bases, n, NULL, c == 1 ? sparse : c == 4 || c == 5 ? equal : dense, n, NULL};
      cz_msm_opts o = {.window_bits = a->window, .accumulate = a->acc, .no_ifma = c == 3,
                       .no_grouping = c == 5};
      JAC out;
      if (c >= PIN && bench_pin(cpus[c - PIN])) return 1;
      double t0 = bench_now_ms(), c0 = bench_cpu_ms();
      cz_err e = MSM(_segments)(&out, &s, 1, c == 2 || c >= PIN ? 1 : a->threads, &o);
      ms[c][r] = bench_now_ms() - t0;
      cpu[c][r] = bench_cpu_ms() - c0;
      crit[c][r] = o.cpu_critical_ms;
      if (c >= PIN && bench_pin(-1)) return 1;
      if (e) {
        fprintf(stderr, "cuzk-bench msm: %s\n", cz_err_str(e));
        return 1;
      }
      uint64_t w0;
      memcpy(&w0, &out, sizeof w0);
      bench_sink ^= w0;
      used[c] = o;
    }
  char name[96];
  snprintf(name, sizeof name, "msm.%s.2^%u.t%u", a->group, a->log_n, a->threads);
  double med[NC];
  static const char *label[PIN] = {"dense",        "sparse01",    "dense_t1",
                                   "dense_scalar", "equal",       "equal_plain"};
  for (int c = 0; c < NC; c++) {
    if (!on[c]) continue;
    med[c] = bench_median(ms[c], a->reps);
    char lb[32];
    if (c < PIN) snprintf(lb, sizeof lb, "%s", label[c]);
    else snprintf(lb, sizeof lb, "dense_t1_cpu%d", cpus[c - PIN]);
    printf("%s.%s.total %.3f ms\n", name, lb, med[c]);
    printf("%s.%s.per_point %.4f us/point\n", name, lb, 1e3 * med[c] / (double)n);
    printf("%s.%s.cpu_per_point %.4f us/point\n", name, lb,
           1e3 * bench_median(cpu[c], a->reps) / (double)n);
    if (used[c].n_other)
      printf("%s.%s.window %u bits\n", name, lb, used[c].used_window_bits);
    printf("%s.%s.batch_affine %d bool\n", name, lb, used[c].used_batch_affine ? 1 : 0);
    printf("%s.%s.ifma %d bool\n", name, lb, used[c].used_ifma ? 1 : 0);
    if (c == 4 || c == 5) printf("%s.%s.distinct %zu scalars\n", name, lb, used[c].n_distinct);
  }
  if (on[4]) printf("%s.grouped_vs_plain %.4f ratio\n", name, med[4] / med[5]);
  if (on[3]) {
    /* Same run, alternating: wall and the load-independent critical path. */
    printf("%s.ifma_vs_scalar %.4f ratio\n", name, med[0] / med[3]);
    printf("%s.ifma_vs_scalar_cpu %.4f ratio\n", name,
           bench_median(crit[0], a->reps) / bench_median(crit[3], a->reps));
  }
  if (on[1]) printf("%s.sparse01_vs_dense %.4f ratio\n", name, med[1] / med[0]);
  if (on[2]) {
    printf("%s.speedup_vs_t1 %.3f ratio\n", name, med[2] / med[0]);
    /* Load-independent: one thread's CPU time over the T-thread run's
     * critical path (cz_msm_opts.cpu_critical_ms). */
    printf("%s.speedup_cpu_bound %.3f ratio\n", name,
           bench_median(cpu[2], a->reps) / bench_median(crit[0], a->reps));
  }
  if (on[2] && n_cpus == (int)a->threads) {
    /* What the same CPUs give at best, each at the speed it ran one thread
     * pinned in this run: on a VM whose vCPUs are not equally fast (the
     * host's other load), 2 threads cannot reach twice the faster one. */
    double capacity = 0;
    for (int i = 0; i < n_cpus; i++) capacity += 1.0 / med[PIN + i];
    printf("%s.speedup_ideal %.3f ratio\n", name, med[2] * capacity);
    printf("%s.parallel_efficiency %.3f ratio\n", name, 1.0 / (med[0] * capacity));
  }
  free(bases);
  free(dense);
  free(sparse);
  free(equal);
  return 0;
}
