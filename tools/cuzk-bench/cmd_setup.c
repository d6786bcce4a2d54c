/* cuzk-bench setup: TEST parameters made by the streaming setup into the
 * file the parameter store looks for (cuzk/params_store.h:
 * <DIR>/cuzk-TEST-ONLY-<tag>-<name>.params), never holding the key in
 * memory; for the largest circuits (a 32 GiB PoRep partition: 130 M
 * constraints, a 47 GiB file), which the store would otherwise make on a
 * daemon's first job.
 *
 *   cuzk-bench setup (--circuit porep|window-post|winning-post --sector-size S
 *       | --synthetic chain|sparse --log-constraints K) [--out DIR] [--threads N]
 *       [--keep-free BYTES]
 *       [--eval-only] [--in-memory]
 * --eval-only: count and evaluate the circuit at tau (the memory and time
 * of that pass), no points, no file. --in-memory: also the in-memory setup
 * (KEYGEN columns, cz_groth16_setup, cz_groth16_params_save) of the same
 * circuit into <file>.in-memory, as the baseline of the points rate.
 * Output: `name value unit` lines; points are G1 multiplications, a G2 one
 * counted as 3 (the setup's progress unit). Progress on stderr. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "commands.h"
#include "common/args.h"
#include "common/progress_out.h"
#include "cuzk/clock.h"
#include "cuzk/params_store.h"
#include "cuzk/porep.h"
#include "cuzk/post.h"
#include "cuzk/registry.h"
#include "cuzk/synthetic.h"
#include "input.h"
#include "util/msg.h"

static const char SYNOPSIS[] =
    "(--circuit porep|window-post|winning-post --sector-size S | --synthetic chain|sparse "
    "--log-constraints K) "
    "[--out DIR] [--threads N] [--keep-free BYTES] [--eval-only] [--in-memory]";

typedef struct {
  const char *circuit, *size, *synthetic, *out;
  unsigned long log_k, threads, keep_free;
  bool eval_only, in_memory;
} setup_opts;

/* The circuit: a PoRep kind or a synthetic shape of n constraints. */
typedef struct {
  const cz_registered_porep *porep;
  const cz_registered_post *post;
  const char *shape;
  size_t n;
  char name[256];
  const char *tag;
} setup_circuit;

static cz_err shape_fn(void *ctx, cz_cs *cs) {
  const setup_circuit *c = ctx;
  if (c->porep) return cz_porep_keygen_shape((void *)c->porep, cs);
  if (c->post) return cz_post_keygen_shape((void *)c->post, cs);
  return cz_synthetic_by_name(c->shape, cs, c->n, NULL, 1);
}

static cz_err keygen_fn(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = shape_fn(ctx, cs);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, out);
  if (e != CZ_OK) cz_msg(msg, msg_len, "%s", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e;
}

/* The WindowPoSt (V1 and V1_1 share parameters) or WinningPoSt of sector
 * size o->size. */
static int pick_post(const setup_opts *o, bool window, setup_circuit *c) {
  uint64_t bytes = 0;
  if (cz_bench_parse_size(o->size, &bytes) == 0)
    for (uint32_t id = 0; id < CZ_REGISTERED_POST_COUNT && !c->post; id++) {
      const cz_registered_post *k = cz_registered_post_by_id(id);
      bool want = window ? k->type == CZ_POST_WINDOW : k->type == CZ_POST_WINNING;
      if (k->sector_size == bytes && want) c->post = k;
    }
  if (!c->post) {
    fprintf(stderr, "setup: no %s PoSt of sector size %s\n", window ? "Window" : "Winning",
            o->size);
    return 2;
  }
  cz_post_param_name(c->post, c->name, sizeof c->name);
  c->tag = CZ_POST_CIRCUIT_REVISION;
  return 0;
}

static int pick_circuit(const setup_opts *o, setup_circuit *c) {
  memset(c, 0, sizeof *c);
  if (o->circuit && !strcmp(o->circuit, "porep") && o->size && !o->synthetic) {
    uint64_t bytes = 0;
    if (cz_bench_parse_size(o->size, &bytes) != 0 ||
        !(c->porep = cz_registered_porep_by_sector_size(bytes, true))) {
      fprintf(stderr, "setup: no PoRep of sector size %s\n", o->size);
      return 2;
    }
    cz_porep_param_name(c->porep, c->name, sizeof c->name);
    c->tag = CZ_POREP_CIRCUIT_REVISION;
    return 0;
  }
  bool window = o->circuit && !strcmp(o->circuit, "window-post");
  if ((window || (o->circuit && !strcmp(o->circuit, "winning-post"))) && o->size && !o->synthetic)
    return pick_post(o, window, c);
  if (o->synthetic && !o->circuit && o->log_k >= 2 && o->log_k <= 28) {
    c->shape = o->synthetic;
    c->n = ((size_t)1 << o->log_k) - CZ_SYNTHETIC_INPUTS;
    snprintf(c->name, sizeof c->name, "synthetic-%s-%lu", o->synthetic, o->log_k);
    return 0;
  }
  fprintf(stderr, "setup: usage: cuzk-bench setup %s\n", SYNOPSIS);
  return 2;
}

/* The setup's progress: its last total, then the tool's meter. */
static uint64_t points_total;
static void on_progress(void *ctx, const char *phase, const char *unit, uint64_t done,
                        uint64_t total) {
  (void)ctx;
  if (!strcmp(phase, "setup")) points_total = total;
  const cz_progress *p = cz_bench_progress();
  if (p && p->update) p->update(p->ctx, phase, unit, done, total);
}

static double peak_rss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

/* The baseline: KEYGEN columns, in-memory setup, save, into path. */
static int run_in_memory(const setup_opts *o, setup_circuit *c, const char *path) {
  cz_progress pr = {on_progress, NULL};
  cz_groth16_toxic t;
  cz_keygen_cols cols;
  cz_groth16_params p;
  char msg[512] = "";
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_groth16_toxic_random(&t);
  if (e == CZ_OK) e = keygen_fn(c, &cols, msg, sizeof msg);
  uint64_t t1 = cz_now_ns();
  if (e == CZ_OK) {
    e = cz_groth16_setup_progress(&p, &cols, &t, (unsigned)o->threads, &pr, msg, sizeof msg);
    cz_keygen_cols_free(&cols);
  }
  uint64_t t2 = cz_now_ns();
  if (e == CZ_OK) {
    e = cz_groth16_params_save(&p, path);
    cz_groth16_params_free(&p);
  }
  if (e != CZ_OK) {
    fprintf(stderr, "setup: in-memory: %s: %s\n", cz_err_str(e), msg);
    return 1;
  }
  double pts_s = (double)(t2 - t1) / 1e9;
  printf("inmem.keygen %.3f s\ninmem.points %llu points\ninmem.points_time %.3f s\n",
         (double)(t1 - t0) / 1e9, (unsigned long long)points_total, pts_s);
  printf("inmem.points_per_s %.0f points/s\ninmem.total %.3f s\ninmem.peak_rss %.1f MiB\n",
         (double)points_total / pts_s, (double)(cz_now_ns() - t0) / 1e9, peak_rss_mib());
  return 0;
}

/* mkdir -p of path's directory; false (and a line) when it cannot be made. */
static bool make_dirs(const char *path) {
  char dir[CZ_PARAMS_PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) return true;
  *slash = 0;
  for (char *p = dir + 1;; p++) {
    bool end = !*p;
    if (*p && *p != '/') continue;
    *p = 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
      fprintf(stderr, "setup: cannot make %s: %s\n", dir, strerror(errno));
      return false;
    }
    if (end) return true;
    *p = '/';
  }
}

/* The free space where path goes (the setup checks it again). */
static void print_free(const char *path) {
  char dir[CZ_PARAMS_PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  struct statvfs sv;
  if (slash && statvfs(dir, &sv) == 0)
    printf("disk.free %llu B\n", (unsigned long long)sv.f_bavail * sv.f_frsize);
}

/* The streaming setup into path (or only the evaluation pass). */
static int run_stream(const setup_opts *o, setup_circuit *c, const char *path) {
  cz_progress pr = {on_progress, NULL};
  cz_groth16_toxic t;
  cz_qap_evals ev;
  char msg[1024] = "";
  uint64_t t0 = cz_now_ns();
  cz_err e = cz_groth16_toxic_random(&t);
  if (e == CZ_OK) e = cz_params_shape_evals(&ev, shape_fn, c, &t.tau, msg, sizeof msg);
  if (e != CZ_OK) {
    fprintf(stderr, "setup: evaluating the circuit: %s: %s\n", cz_err_str(e), msg);
    return 1;
  }
  uint64_t t1 = cz_now_ns();
  printf("circuit.constraints %zu count\ncircuit.inputs %zu count\ncircuit.aux %zu count\n",
         ev.n_constraints, ev.n_inputs, ev.n_aux);
  printf("eval.time %.3f s\neval.peak_rss %.1f MiB\n", (double)(t1 - t0) / 1e9, peak_rss_mib());
  /* The a and b_g1/b_g2 vectors' lengths (columns with a non-zero A or B
   * coefficient, inputs always in a), h's and the file's bytes. */
  size_t na = ev.a_nz.count, nb = ev.b_nz.count;
  for (size_t i = 0; i < ev.n_inputs; i++) na += !((ev.a_nz.bits[i / 64] >> (i % 64)) & 1);
  double g1 = (double)(ev.domain - 1) + (double)ev.n_aux + (double)na + (double)nb;
  printf("vector.h %zu points\nvector.l %zu points\nvector.a %zu points\nvector.b %zu points\n",
         ev.domain - 1, ev.n_aux, na, nb);
  printf("file.bytes_approx %.0f B\nwork.points %.0f points\n", g1 * 96 + (double)nb * 192,
         g1 + (double)ev.n_inputs + 3.0 * (double)nb);
  print_free(path);
  if (!o->eval_only) {
    cz_groth16_stream_opts so = {.n_threads = (unsigned)o->threads,
                                 .progress = &pr,
                                 .keep_free = o->keep_free};
    points_total = 0;
    e = cz_groth16_setup_stream(path, &ev, &t, &so, msg, sizeof msg);
  }
  memset(&t, 0, sizeof t);
  cz_qap_evals_free(&ev);
  if (e != CZ_OK) {
    fprintf(stderr, "setup: %s: %s\n", cz_err_str(e), msg);
    return 1;
  }
  if (o->eval_only) return 0;
  double s = (double)(cz_now_ns() - t1) / 1e9;
  printf(
      "stream.points %llu points\nstream.points_time %.3f s\nstream.points_per_s %.0f points/s\n",
      (unsigned long long)points_total, s, (double)points_total / s);
  printf("stream.total %.3f s\nstream.peak_rss %.1f MiB\n", (double)(cz_now_ns() - t0) / 1e9,
         peak_rss_mib());
  return 0;
}

int cmd_setup(int argc, char **argv) {
  setup_opts o = {0};
  const cz_opt opts[] = {
      {"circuit", CZ_OPT_STRING, &o.circuit, "KIND", "porep (needs --sector-size)"},
      {"sector-size", CZ_OPT_STRING, &o.size, "S",
       "--circuit porep: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB"},
      {"synthetic", CZ_OPT_STRING, &o.synthetic, "SHAPE",
       "chain or sparse (needs --log-constraints)"},
      {"log-constraints", CZ_OPT_UINT, &o.log_k, "K",
       "2^K constraints, input constraints included"},
      {"out", CZ_OPT_STRING, &o.out, "DIR",
       "the parameter store's test directory (default: its default)"},
      {"threads", CZ_OPT_UINT, &o.threads, "N", "thread budget (0 = all cores)"},
      {"keep-free", CZ_OPT_UINT, &o.keep_free, "BYTES",
       "disk space that must stay free besides the file"},
      {"eval-only", CZ_OPT_FLAG, &o.eval_only, NULL, "only count and evaluate the circuit at tau"},
      {"in-memory", CZ_OPT_FLAG, &o.in_memory, NULL,
       "also the in-memory setup into <file>.in-memory (baseline)"},
      {NULL, 0, NULL, NULL, NULL},
  };
  int rc = cz_opts_parse_or_help(argc, argv, opts, "setup", SYNOPSIS);
  if (rc >= 0) return rc;
  setup_circuit c;
  if ((rc = pick_circuit(&o, &c)) != 0) return rc;
  cz_params_store_opts so = {0};
  so.test_dir = o.out;
  so.test_tag = c.tag;
  char path[CZ_PARAMS_PATH_MAX], base[CZ_PARAMS_PATH_MAX + 16];
  if (cz_params_store_paths(c.name, &so, NULL, path) != CZ_OK) {
    fprintf(stderr, "setup: the test file's path does not fit\n");
    return 2;
  }
  printf("setup.file %s path\n", path);
  if (!make_dirs(path)) return 1;
  if (o.in_memory) {
    snprintf(base, sizeof base, "%s.in-memory", path);
    if ((rc = run_in_memory(&o, &c, base)) != 0) return rc;
  }
  return run_stream(&o, &c, path);
}
