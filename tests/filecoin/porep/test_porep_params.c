/* Parameter names and the parameter store.
 *
 * Names: every registered seal proof's name against the official ones in
 * rust-fil-proofs' parameters.json (github.com/filecoin-project/
 * rust-fil-proofs, parameters.json at commit de000dd3732471e1cb79b1fdc842
 * d3f9267cea9b; filecoin-proofs/parameters.json links to it), which are
 * the file names Filecoin's parameter servers publish.
 *
 * Store: a small synthetic circuit through every path: generate + cache,
 * reuse, official file first, wrong IC counts, corrupt cache, no keygen. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/porep.h"
#include "cuzk/groth16_prove.h"
#include "cuzk/synthetic.h"

/* parameters.json, the "v28-stacked-...params" keys with their sector_size. */
static const struct {
  uint64_t sector_size;
  const char *name;
} official[] = {
    {2048,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
    {8388608,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
    {536870912,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
     "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
    {34359738368ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
     "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
    {68719476736ull,
     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
     "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"},
};

static void test_names(void) {
  for (uint32_t id = 0; id < 10; id++) {
    const cz_registered_porep *k = cz_registered_porep_by_id(id);
    const char *want = NULL;
    for (size_t i = 0; i < sizeof official / sizeof official[0]; i++)
      if (official[i].sector_size == k->sector_size) want = official[i].name;
    CHECK(want != NULL);
    char name[256];
    size_t n = cz_porep_param_name(k, name, sizeof name);
    CHECK_EQ_INT(n, strlen(want));
    CHECK(want && strcmp(name, want) == 0);
    if (want && strcmp(name, want)) fprintf(stderr, "registered proof %u: got %s\n", id, name);
    /* Too small a buffer: truncated, NUL-terminated, full length returned. */
    char small[16];
    CHECK_EQ_INT(cz_porep_param_name(k, small, sizeof small), n);
    CHECK_EQ_INT(strlen(small), sizeof small - 1);
  }
  /* The identifier of 32 GiB, spelled out (stacked/vanilla/params.rs,
   * graph.rs, drgraph.rs format strings); its SHA-256 is the name's tail. */
  char id[512];
  cz_porep_param_identifier(cz_registered_porep_by_id(8), id, sizeof id);
  CHECK(
      strcmp(id,
             "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: "
             "8 base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: "
             "poseidon_hasher} }, challenges: LayerChallenges { layers: 11, max_count: 18 }, "
             "tree: merkletree-poseidon_hasher-8-8-0 }") == 0);
}

static void test_paths(void) {
  char off[CZ_PARAMS_PATH_MAX], tst[CZ_PARAMS_PATH_MAX];
  unsetenv("FIL_PROOFS_PARAMETER_CACHE");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  CHECK(cz_params_store_paths("p", NULL, off, tst) == CZ_OK);
  CHECK(strcmp(off, "/var/tmp/filecoin-proof-parameters/p.params") == 0);
  CHECK(strcmp(tst, "/xdg/cuzk/cuzk-TEST-ONLY-p.params") == 0);
  setenv("FIL_PROOFS_PARAMETER_CACHE", "/fil/cache/", 1);
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/u", 1);
  cz_params_store_opts o = {0};
  o.test_tag = "c2";
  CHECK(cz_params_store_paths("p", &o, off, tst) == CZ_OK);
  CHECK(strcmp(off, "/fil/cache/p.params") == 0);
  CHECK(strcmp(tst, "/home/u/.cache/cuzk/cuzk-TEST-ONLY-c2-p.params") == 0);
  o.official_dir = "/o";
  o.test_dir = "/t";
  CHECK(cz_params_store_paths("p", &o, off, NULL) == CZ_OK);
  CHECK(strcmp(off, "/o/p.params") == 0);
  CHECK(cz_params_store_paths("a/b", &o, off, tst) == CZ_ERR_INVALID_ARG);
  CHECK(cz_params_store_paths("", &o, off, tst) == CZ_ERR_INVALID_ARG);
  char longname[CZ_PARAMS_PATH_MAX];
  memset(longname, 'x', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  CHECK(cz_params_store_paths(longname, &o, off, tst) == CZ_ERR_INVALID_ARG);
}

/* ---- The store over a synthetic circuit ---------------------------------- */

#define CHAIN_N 30 /* 32 constraints with the 2 input constraints */

typedef struct {
  int calls;
  size_t extra_inputs; /* > 0: a circuit with the wrong input count */
} keygen_ctx;

static cz_err chain_keygen(void *vctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  keygen_ctx *ctx = vctx;
  ctx->calls++;
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_synthetic_chain(cs, CHAIN_N, NULL);
  for (size_t i = 0; i < ctx->extra_inputs && e == CZ_OK; i++) {
    cz_var v;
    e = cz_cs_alloc_input(cs, &v, NULL);
    /* constrain it, or setup refuses it as an identity IC point */
    cz_lc a, b, c;
    cz_lc_init(&a, cs);
    cz_lc_init(&b, cs);
    cz_lc_init(&c, cs);
    cz_lc_add(&a, v);
    cz_lc_add(&b, CZ_VAR_ONE);
    cz_lc_add(&c, v);
    cz_cs_enforce(cs, &a, &b, &c);
    cz_lc_free(&a);
    cz_lc_free(&b);
    cz_lc_free(&c);
  }
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, out);
  if (e != CZ_OK) snprintf(msg, msg_len, "chain keygen: %s", cz_cs_errmsg(cs));
  cz_cs_free(cs);
  return e;
}

/* stderr into a file around one call, so the store's lines can be read. */
static int saved_stderr = -1;
static char err_path[256];
static void capture_begin(void) {
  fflush(stderr);
  saved_stderr = dup(2);
  int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(fd, 2);
  close(fd);
}
static char captured[4096];
static const char *capture_end(void) {
  fflush(stderr);
  dup2(saved_stderr, 2);
  close(saved_stderr);
  FILE *f = fopen(err_path, "r");
  size_t n = f ? fread(captured, 1, sizeof captured - 1, f) : 0;
  if (f) fclose(f);
  captured[n] = 0;
  return captured;
}
static int count_lines(const char *s) {
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

static bool same_vk(const cz_groth16_vk *a, const cz_groth16_vk *b) {
  size_t n = cz_groth16_vk_write(NULL, a, true);
  if (n != cz_groth16_vk_write(NULL, b, true)) return false;
  uint8_t *x = malloc(n), *y = malloc(n);
  cz_groth16_vk_write(x, a, true);
  cz_groth16_vk_write(y, b, true);
  bool same = memcmp(x, y, n) == 0;
  free(x);
  free(y);
  return same;
}

/* A proof of the chain circuit with these parameters verifies. */
static bool proves(const cz_groth16_params *p) {
  cz_fr x;
  cz_fr_from_u64(&x, 5);
  cz_cs *cs = cz_cs_new(CZ_CS_PROVE, NULL);
  cz_assignment as;
  cz_err e = cz_synthetic_chain(cs, CHAIN_N, &x);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_assignment(cs, &as);
  cz_cs_free(cs);
  if (e != CZ_OK) return false;
  cz_groth16_proof proof;
  static const cz_prove_timing quiet = {NULL, NULL, true};
  cz_prove_opts po = {0};
  po.n_threads = 2;
  po.timing = &quiet;
  e = cz_groth16_prove(NULL, p, &as, 1, &proof, &po);
  cz_assignment_free(&as);
  return e == CZ_OK && cz_groth16_verify(&p->vk, &x, 1, &proof) == CZ_OK;
}

static bool file_exists(const char *p) { return access(p, F_OK) == 0; }

/* What test_store's steps share: the store's options, the official and
 * test paths of `name`, the keygen's call count and the keys made so far.
 * Passed by pointer only (o points into it). */
typedef struct {
  char odir[512], tdir[512], off[CZ_PARAMS_PATH_MAX], tst[CZ_PARAMS_PATH_MAX], msg[512];
  keygen_ctx kc;
  cz_params_store_opts o;
  const char *name;
  cz_groth16_params p1, fresh;
} store_case;

/* 1. Nothing there: generated, cached under the TEST name, one line.
 * 2. Again: the cached file, same key, no keygen.
 * 3. A wrong IC count for the cached file: replaced, keygen refuses too. */
static void store_generate_then_cache(store_case *sc) {
  cz_groth16_params p2;
  cz_params_origin org;
  capture_begin();
  cz_err e = cz_params_store_get(&sc->p1, sc->name, 2, &sc->o, &org, sc->msg, sizeof sc->msg);
  const char *err = capture_end();
  CHECK(e == CZ_OK);
  CHECK_EQ_INT(sc->kc.calls, 1);
  CHECK_EQ_INT(org.source, CZ_PARAMS_TEST_GENERATED);
  CHECK(strcmp(org.path, sc->tst) == 0);
  CHECK(file_exists(sc->tst));
  CHECK(!file_exists(sc->off)); /* nothing ever written where official files live */
  CHECK_EQ_INT(count_lines(err), 1);
  CHECK(strstr(err, "test: generated TEST parameters") != NULL && strstr(err, sc->tst) != NULL);
  CHECK(e == CZ_OK && proves(&sc->p1));

  capture_begin();
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, sc->msg, sizeof sc->msg);
  err = capture_end();
  CHECK(e == CZ_OK);
  CHECK_EQ_INT(sc->kc.calls, 1);
  CHECK_EQ_INT(org.source, CZ_PARAMS_TEST_CACHED);
  CHECK_EQ_INT(count_lines(err), 1);
  CHECK(strstr(err, "using TEST parameters") != NULL);
  CHECK(e == CZ_OK && same_vk(&sc->p1.vk, &p2.vk));
  cz_groth16_params_free(&p2);

  capture_begin();
  e = cz_params_store_get(&p2, sc->name, 3, &sc->o, &org, sc->msg, sizeof sc->msg);
  err = capture_end();
  CHECK(e == CZ_ERR_INVALID_ARG);
  CHECK_EQ_INT(sc->kc.calls, 2);
  CHECK(strstr(err, "unusable") != NULL && strstr(err, "IC points") != NULL);
  CHECK(strstr(sc->msg, "inputs") != NULL);
}

/* 4. An official file wins over the test cache; no line printed. Fresh
 * parameters (sc->fresh, kept for step 9) make the two keys differ. */
static void store_official_wins(store_case *sc) {
  cz_groth16_params p2;
  cz_params_origin org;
  cz_params_store_opts gen = sc->o;
  gen.no_official = true;
  gen.no_test_cache = true;
  capture_begin();
  CHECK(cz_params_store_get(&sc->fresh, "x", 2, &gen, &org, sc->msg, sizeof sc->msg) == CZ_OK);
  capture_end();
  CHECK_EQ_INT(org.source, CZ_PARAMS_TEST_GENERATED);
  CHECK_EQ_INT(org.path[0], 0);
  CHECK(!same_vk(&sc->fresh.vk, &sc->p1.vk));
  CHECK(cz_groth16_params_save(&sc->fresh, sc->off) == CZ_OK);
  int before = sc->kc.calls;
  capture_begin();
  cz_err e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, sc->msg, sizeof sc->msg);
  const char *err = capture_end();
  CHECK(e == CZ_OK);
  CHECK_EQ_INT(org.source, CZ_PARAMS_OFFICIAL);
  CHECK(strcmp(org.path, sc->off) == 0);
  CHECK_EQ_INT(sc->kc.calls, before);
  CHECK_EQ_INT(count_lines(err), 0);
  CHECK(e == CZ_OK && same_vk(&p2.vk, &sc->fresh.vk) && proves(&p2));
  cz_groth16_params_free(&p2);
  sc->o.checked = true; /* the checked loader takes it too */
  CHECK(cz_params_store_get(&p2, sc->name, 0, &sc->o, &org, sc->msg, sizeof sc->msg) == CZ_OK);
  cz_groth16_params_free(&p2);
  sc->o.checked = false;
}

/* 5. An official file that does not fit is an error, not a fall-back. */
static void store_official_unfit(store_case *sc) {
  cz_groth16_params p2;
  cz_params_origin org;
  char *msg = sc->msg;
  int before = sc->kc.calls;
  cz_err e = cz_params_store_get(&p2, sc->name, 40, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "has 2 IC points, the circuit needs 40") != NULL);
  CHECK_EQ_INT(sc->kc.calls, before);
  CHECK(p2.h == NULL && p2.vk.ic == NULL);
  CHECK(truncate(sc->off, 5000) == 0); /* the header fits, the vectors do not */
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_TRUNCATED);
  CHECK(strstr(msg, sc->off) != NULL);
  CHECK(truncate(sc->off, 500) == 0); /* shorter than the header */
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_TRUNCATED);
  CHECK(strstr(msg, "header") != NULL);
  unlink(sc->off);
}

/* 6. official_only without the official file; no keygen, no cache.
 * 7. A corrupt cached test file is reported and replaced.
 * 8. A keygen whose circuit has the wrong input count. */
static void store_missing_or_corrupt(store_case *sc) {
  cz_groth16_params p2;
  cz_params_origin org;
  char *msg = sc->msg;
  sc->o.official_only = true;
  cz_err e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_IO);
  CHECK(strstr(msg, sc->off) != NULL);
  sc->o.official_only = false;
  unlink(sc->tst);
  sc->o.keygen = NULL;
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_IO);
  CHECK(strstr(msg, "not found") != NULL);
  sc->o.keygen = chain_keygen;

  capture_begin();
  CHECK(cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg) == CZ_OK);
  capture_end();
  cz_groth16_params_free(&p2);
  CHECK(truncate(sc->tst, 3000) == 0);
  int before = sc->kc.calls;
  capture_begin();
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  const char *err = capture_end();
  CHECK(e == CZ_OK);
  CHECK_EQ_INT(sc->kc.calls, before + 1);
  CHECK_EQ_INT(org.source, CZ_PARAMS_TEST_GENERATED);
  CHECK_EQ_INT(count_lines(err), 2);
  CHECK(strstr(err, "unusable") != NULL && strstr(err, "generated TEST") != NULL);
  CHECK(e == CZ_OK && proves(&p2));
  cz_groth16_params_free(&p2);

  sc->kc.extra_inputs = 1;
  sc->o.no_test_cache = true;
  e = cz_params_store_get(&p2, sc->name, 2, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, "3 inputs") != NULL);
  sc->kc.extra_inputs = 0;
  sc->o.no_test_cache = false;
}

/* 9. The PoRep wrapper: the official name and count of the registered proof. A file
 * under the 2 KiB name with our 2-input key is not the published file:
 * the wrapper refuses it by its digest before reading it, and the store
 * alone by its count (2 KiB needs 40). */
static void store_porep_wrapper(store_case *sc) {
  cz_groth16_params p2;
  cz_params_origin org;
  char *msg = sc->msg;
  const cz_registered_porep *k = cz_registered_porep_by_id(5);
  char pname[256], ppath[CZ_PARAMS_PATH_MAX], stamp[CZ_PARAMS_PATH_MAX + 16];
  cz_porep_param_name(k, pname, sizeof pname);
  snprintf(ppath, sizeof ppath, "%s/%s.params", sc->odir, pname);
  CHECK(cz_groth16_params_save(&sc->fresh, ppath) == CZ_OK);
  cz_err e = cz_porep_params_get(&p2, k, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_IO);
  CHECK(strstr(msg, pname) != NULL && strstr(msg, "parameters.json") != NULL);
  e = cz_params_store_get(&p2, pname, 40, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_INVALID_ARG);
  CHECK(strstr(msg, pname) != NULL && strstr(msg, "needs 40") != NULL);
  unlink(ppath);
  snprintf(stamp, sizeof stamp, "%s.cuzk-digest", ppath);
  unlink(stamp);
  sc->o.keygen = NULL;
  e = cz_porep_params_get(&p2, k, &sc->o, &org, msg, sizeof sc->msg);
  CHECK(e == CZ_ERR_IO);
  CHECK(strstr(msg, pname) != NULL);
  CHECK(cz_porep_params_get(&p2, NULL, &sc->o, &org, msg, sizeof sc->msg) == CZ_ERR_INVALID_ARG);
}

static void test_store(const char *root) {
  store_case sc = {0};
  snprintf(sc.odir, sizeof sc.odir, "%s/official", root);
  snprintf(sc.tdir, sizeof sc.tdir, "%s/test/nested", root); /* created on demand */
  mkdir(sc.odir, 0755);
  sc.o.official_dir = sc.odir;
  sc.o.test_dir = sc.tdir;
  sc.o.n_threads = 2;
  sc.o.keygen = chain_keygen;
  sc.o.keygen_ctx = &sc.kc;
  sc.o.who = "test";
  sc.name = "v28-some-circuit-0123";
  CHECK(cz_params_store_paths(sc.name, &sc.o, sc.off, sc.tst) == CZ_OK);
  CHECK(strstr(sc.tst, "/" CZ_PARAMS_TEST_PREFIX "v28-some-circuit-0123.params") != NULL);
  store_generate_then_cache(&sc);
  store_official_wins(&sc);
  store_official_unfit(&sc);
  store_missing_or_corrupt(&sc);
  store_porep_wrapper(&sc);
  cz_groth16_params_free(&sc.fresh);
  cz_groth16_params_free(&sc.p1);
}

int main(void) {
  test_names();
  test_paths();
  char root[] = "/tmp/cuzk-test-params-XXXXXX";
  CHECK(mkdtemp(root) != NULL);
  snprintf(err_path, sizeof err_path, "%s/stderr", root);
  test_store(root);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  CHECK(system(cmd) == 0);
  return check_report("porep_params");
}
