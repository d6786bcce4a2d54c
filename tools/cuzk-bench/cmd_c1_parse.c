/* cuzk-bench c1-parse: how fast a C1 JSON of a given sector size parses.
 *
 * Writes a structurally valid synthetic C1 (cz_porep_c1_synthetic: random
 * canonical values, the registered proof's exact counts and shapes; not a valid proof)
 * with cz_porep_c1_to_json, to a file, then times cz_porep_c1_parse over
 * the text in memory and cz_porep_c1_load from the file, each -i times.
 * With --curio the text is Curio's wrapper (base64 of the C1 JSON).
 *
 *   cuzk-bench c1-parse [--sector-size 2KiB|8MiB|512MiB|32GiB|64GiB|BYTES]
 *                       [--v1] [--curio] [-i|--iterations N] [--out FILE]
 *   cuzk-bench c1-parse --canonical FILE
 * Output: "name value unit" lines (medians; MB = 10^6 bytes). --canonical
 * instead reads FILE (a C1 or Curio's wrapper, any JSON layout) and writes
 * what was read back out as our writer lays it out, on stdout: so that a
 * test can hold equivalent texts to one reading. Exit 0, 1 when FILE does
 * not parse (the reason on stderr), 2 for bad options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "common/bench_clock.h"
#include "common/args.h"
#include "commands.h"
#include "cuzk/porep.h"
#include "base64.h"

/* The registered proof from a size name or byte count. */
static const cz_registered_porep *registered_from(const char *s, bool v1) {
  for (uint32_t id = 0; id < 5; id++) {
    const cz_registered_porep *k = cz_registered_porep_by_id(id);
    if (strcmp(k->size_name, s) == 0) return cz_registered_porep_by_id(v1 ? id : id + 5);
  }
  char *end;
  unsigned long long b = strtoull(s, &end, 10);
  return *s && !*end ? cz_registered_porep_by_sector_size(b, !v1) : NULL;
}

static int canonical(const char *path) {
  cz_porep_c1 c1;
  char msg[512], *json = NULL;
  size_t len = 0;
  if (cz_porep_c1_load(&c1, path, msg, sizeof msg) != CZ_OK) {
    fprintf(stderr, "c1-parse: %s\n", msg);
    return 1;
  }
  cz_err e = cz_porep_c1_to_json(&c1, &json, &len);
  cz_porep_c1_free(&c1);
  if (e != CZ_OK) {
    fprintf(stderr, "c1-parse: to_json: %s\n", cz_err_str(e));
    return 1;
  }
  bool ok = fwrite(json, 1, len, stdout) == len && fflush(stdout) == 0;
  free(json);
  return ok ? 0 : 1;
}

/* The text timed: a synthetic C1 of the registered proof, as our writer lays it out
 * (wrapped as Curio does when curio), and how long making it took. */
typedef struct {
  const cz_registered_porep *k;
  cz_porep_c1 c1;
  char *json;
  size_t len;
  double t_synth, t_write;
} c1_text;

static void text_free(c1_text *t) {
  free(t->json);
  cz_porep_c1_free(&t->c1);
}

/* 0, or 1 after a line on stderr (nothing left to free). */
static int make_text(c1_text *t, const cz_registered_porep *k, bool curio) {
  *t = (c1_text){.k = k};
  double t0 = cz_bench_wall_s();
  if (cz_porep_c1_synthetic(&t->c1, k, 0x5eed) != CZ_OK) {
    fprintf(stderr, "c1-parse: out of memory\n");
    return 1;
  }
  t->t_synth = cz_bench_wall_s() - t0;
  t0 = cz_bench_wall_s();
  cz_err e = cz_porep_c1_to_json(&t->c1, &t->json, &t->len);
  t->t_write = cz_bench_wall_s() - t0;
  if (e != CZ_OK) {
    fprintf(stderr, "c1-parse: to_json: %s\n", cz_err_str(e));
    text_free(t);
    return 1;
  }
  if (!curio) return 0;
  size_t w_len = 0;
  char *w = cz_bench_curio_wrap(t->json, t->len, 1, k->sector_size, &w_len);
  free(t->json);
  t->json = w;
  t->len = w_len;
  if (w) return 0;
  fprintf(stderr, "c1-parse: out of memory\n");
  text_free(t);
  return 1;
}

/* The text to out, else to a new temporary file named in tmpl (which the
 * caller unlinks). 0, or 1 after a line on stderr. */
static int write_text(const c1_text *t, const char *out, char *tmpl, const char **path) {
  *path = out;
  if (!out) {
    int fd = mkstemp(tmpl);
    if (fd < 0) {
      perror("c1-parse: mkstemp");
      return 1;
    }
    close(fd);
    *path = tmpl;
  }
  FILE *f = fopen(*path, "wb");
  bool wrote = f && fwrite(t->json, 1, t->len, f) == t->len;
  if (f && fclose(f) != 0) wrote = false;
  if (wrote) return 0;
  fprintf(stderr, "c1-parse: cannot write %s\n", *path);
  return 1;
}

/* Per iteration: the parse of the text in memory (CPU and wall, checked
 * once against the model) and the load of the file (wall). */
typedef struct {
  double *cpu, *wall, *load;
} c1_times;

/* 0, or 1 after a line on stderr. */
static int time_parses(const c1_text *t, const char *path, unsigned long iters, c1_times *tm) {
  char msg[512] = "";
  for (unsigned long i = 0; i < iters; i++) {
    cz_porep_c1 p;
    double w0 = cz_bench_wall_s(), c0 = cz_bench_cpu_s();
    cz_err e = cz_porep_c1_parse(&p, t->json, t->len, msg, sizeof msg);
    tm->cpu[i] = cz_bench_cpu_s() - c0;
    tm->wall[i] = cz_bench_wall_s() - w0;
    /* Check that the model came back whole. */
    const cz_porep_c1 *c1 = &t->c1;
    bool same = e == CZ_OK && p.registered == c1->registered &&
                memcmp(p.proofs, c1->proofs,
                       (size_t)c1->n_partitions * c1->n_challenges * sizeof *c1->proofs) == 0;
    cz_porep_c1_free(&p);
    if (!same) {
      fprintf(stderr, "c1-parse: parse failed or differs: %s %s\n", cz_err_str(e), msg);
      return 1;
    }
    w0 = cz_bench_wall_s();
    e = cz_porep_c1_load(&p, path, msg, sizeof msg);
    tm->load[i] = cz_bench_wall_s() - w0;
    cz_porep_c1_free(&p);
    if (e != CZ_OK) {
      fprintf(stderr, "c1-parse: load: %s\n", msg);
      return 1;
    }
  }
  return 0;
}

static void report(const c1_text *t, bool curio, unsigned long iters, const c1_times *tm) {
  double mc = cz_bench_median(tm->cpu, iters), mw = cz_bench_median(tm->wall, iters),
         ml = cz_bench_median(tm->load, iters);
  const char *n = curio ? "c1_parse.curio" : "c1_parse", *sz = t->k->size_name;
  printf("%s.%s.bytes %zu bytes\n", n, sz, t->len);
  printf("%s.%s.challenges %u challenges\n", n, sz, t->c1.n_partitions * t->c1.n_challenges);
  printf("%s.%s.synthetic_ms %.1f ms\n", n, sz, 1e3 * t->t_synth);
  printf("%s.%s.to_json_ms %.1f ms\n", n, sz, 1e3 * t->t_write);
  printf("%s.%s.parse_cpu_ms %.2f ms\n", n, sz, 1e3 * mc);
  printf("%s.%s.parse_wall_ms %.2f ms\n", n, sz, 1e3 * mw);
  printf("%s.%s.parse_rate %.1f MB/s\n", n, sz, (double)t->len / mc / 1e6);
  printf("%s.%s.load_wall_ms %.2f ms\n", n, sz, 1e3 * ml);
}

/* Make, write, time and report; 0, or 1 after a line on stderr. */
static int bench_registered(const cz_registered_porep *k, bool curio, const char *out,
                            unsigned long iters) {
  c1_text t;
  if (make_text(&t, k, curio)) return 1;
  char tmpl[] = "/tmp/cuzk-c1-XXXXXX";
  const char *path = NULL;
  int status = write_text(&t, out, tmpl, &path);
  c1_times tm = {malloc(iters * sizeof(double)), malloc(iters * sizeof(double)),
                 malloc(iters * sizeof(double))};
  if (status == 0 && (!tm.cpu || !tm.wall || !tm.load)) {
    fprintf(stderr, "c1-parse: out of memory\n");
    status = 1;
  }
  if (status == 0) status = time_parses(&t, path, iters, &tm);
  if (status == 0) report(&t, curio, iters, &tm);
  free(tm.cpu);
  free(tm.wall);
  free(tm.load);
  if (!out && path) unlink(tmpl);
  text_free(&t);
  return status;
}

int cmd_c1_parse(int argc, char **argv) {
  const char *size = "32GiB", *out = NULL, *canon = NULL;
  unsigned long iters = 5;
  bool v1 = false, curio = false;
  const cz_opt opts[] = {
      {"sector-size", CZ_OPT_STRING, &size, "S",
       "2KiB|8MiB|512MiB|32GiB|64GiB or bytes (default 32GiB)"},
      {"v1", CZ_OPT_FLAG, &v1, NULL, "the V1 registered proof (default V1_1)"},
      {"curio", CZ_OPT_FLAG, &curio, NULL,
       "wrap the C1 in Curio's {SectorNum, Phase1Out base64, SectorSize}"},
      {"iterations", CZ_OPT_UINT, &iters, "N", "timed parses (default 5)", 'i'},
      {"out", CZ_OPT_STRING, &out, "FILE", "keep the C1 file here (default: a temporary file)"},
      {"canonical", CZ_OPT_STRING, &canon, "FILE",
       "read FILE and write it back in our layout on stdout"},
      {0},
  };
  const char *synopsis = "[--sector-size S] [--v1] [--curio] [-i|--iterations N] [--out FILE]";
  int rc = cz_opts_parse_or_help(argc, argv, opts, "c1-parse", synopsis);
  if (rc >= 0) return rc;
  if (canon) return canonical(canon);
  const cz_registered_porep *k = registered_from(size, v1);
  if (!k || iters == 0) {
    fprintf(stderr, "c1-parse: need a known --sector-size and -i >= 1 (got '%s', %lu)\n", size,
            iters);
    return 2;
  }
  return bench_registered(k, curio, out, iters);
}
