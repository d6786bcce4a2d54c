/* The parameter store's test cache under concurrency: processes that want
 * the same missing test file make it once (the others wait on its lock and
 * load it), so all of them end up with one verifying key, the file's. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/groth16.h"
#include "cuzk/params_store.h"
#include "cuzk/synthetic.h"

#define N_CONSTRAINTS 4000

static cz_err keygen_chain(void *ctx, cz_keygen_cols *out, char *msg, size_t msg_len) {
  (void)ctx, (void)msg, (void)msg_len;
  cz_cs *cs = cz_cs_new(CZ_CS_KEYGEN, NULL);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_synthetic_chain(cs, N_CONSTRAINTS, NULL);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  if (e == CZ_OK) e = cz_cs_take_keygen(cs, out);
  cz_cs_free(cs);
  return e;
}

/* Get the parameters and write their vk to vk_path; exit status 0 or 1. */
static int one(const char *dir, const char *vk_path) {
  cz_params_store_opts o = {.test_dir = dir, .no_official = true, .keygen = keygen_chain,
                            .n_threads = 1, .who = "test_params_store"};
  cz_groth16_params p;
  char msg[256];
  if (cz_params_store_get(&p, "concurrent", CZ_SYNTHETIC_INPUTS, &o, NULL, msg, sizeof msg) !=
      CZ_OK)
    return 1;
  size_t n = cz_groth16_vk_write(NULL, &p.vk, false);
  uint8_t *b = malloc(n);
  cz_groth16_vk_write(b, &p.vk, false);
  FILE *f = fopen(vk_path, "wb");
  int rc = f && fwrite(b, 1, n, f) == n ? 0 : 1;
  if (f) fclose(f);
  free(b);
  cz_groth16_params_free(&p);
  return rc;
}

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static uint8_t buf[1 << 16];
  *n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  uint8_t *out = malloc(*n ? *n : 1);
  memcpy(out, buf, *n);
  return out;
}

int main(void) {
  char dir[] = "/tmp/cuzk-params-store.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  enum { N = 4 };
  pid_t kids[N];
  char vk[N][300];
  for (int i = 0; i < N; i++) {
    snprintf(vk[i], sizeof vk[i], "%s/vk-%d", dir, i);
    if ((kids[i] = fork()) == 0) _exit(one(dir, vk[i]));
  }
  for (int i = 0; i < N; i++) {
    int st = 0;
    CHECK(waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  size_t n0 = 0, n = 0;
  uint8_t *first = slurp(vk[0], &n0);
  CHECK(first && n0 > 0);
  for (int i = 1; i < N; i++) {
    uint8_t *b = slurp(vk[i], &n);
    CHECK(b && n == n0 && !memcmp(b, first, n0)); /* one setup, one key */
    free(b);
  }
  /* ...and it is the cached file's. */
  CHECK_EQ_INT(one(dir, vk[0]), 0);
  uint8_t *again = slurp(vk[0], &n);
  CHECK(again && n == n0 && !memcmp(again, first, n0));
  free(again);
  free(first);
  char cmd[400];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK_EQ_INT(system(cmd), 0);
  return check_report("test_params_store");
}
