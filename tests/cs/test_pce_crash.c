/* A recorded shape's cache file under kill -9 and a full disk (cz_pce_save
 * through util/atomic_file.h): a save killed at any point leaves the old
 * file whole (or none), never a partial one; the next save succeeds and
 * leaves no temporary; a save that cannot complete (RLIMIT_FSIZE) names
 * the path, strerror and the bytes, and leaves nothing behind. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fsize_child.h"
#include "cuzk/cs.h"
#include "util/atomic_file.h"
#include "bits_circuit.h"

static char dir[64], path[128];
static cz_pce *shape;
static uint8_t key_old[CZ_PCE_KEY_BYTES] = {1}, key_new[CZ_PCE_KEY_BYTES] = {2};

static int dir_entries(void) {
  DIR *h = opendir(dir);
  int n = 0;
  for (struct dirent *e; h && (e = readdir(h));) n += e->d_name[0] != '.';
  if (h) closedir(h);
  return n;
}

static long file_size(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static cz_pce_file_status load(const uint8_t *key) {
  char msg[256];
  cz_pce *q = NULL;
  cz_pce_file_status st = cz_pce_load(path, key, &q, msg, sizeof msg);
  cz_pce_free(q);
  return st;
}

/* A child saving under key_new is killed at `at`; with an old file (saved
 * under key_old) it still loads whole, else there is none. */
static void killed_save(uint64_t at, long want_tmp, bool old) {
  char msg[512] = "", tmp[160];
  if (old) CHECK_EQ_INT(cz_pce_save(shape, path, key_old, msg, sizeof msg), CZ_OK);
  pid_t pid = fork();
  if (pid == 0) {
    cz_atomic_test_kill_at(at);
    cz_err e = cz_pce_save(shape, path, key_new, msg, sizeof msg);
    _exit(e == CZ_OK ? 2 : 3); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
  CHECK_EQ_INT(file_size(tmp), want_tmp);
  if (old) {
    CHECK_EQ_INT(load(key_old), CZ_PCE_FILE_OK); /* the old file, whole */
    CHECK_EQ_INT(load(key_new), CZ_PCE_FILE_STALE);
  } else {
    CHECK_EQ_INT(load(key_new), CZ_PCE_FILE_MISSING); /* never the partial one */
  }
  CHECK_EQ_INT(cz_pce_save(shape, path, key_new, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(load(key_new), CZ_PCE_FILE_OK);
  CHECK_EQ_INT(dir_entries(), 1); /* the child's temporary is gone */
  unlink(path);
}

static void test_kill_points(void) {
  char msg[256];
  CHECK_EQ_INT(cz_pce_save(shape, path, key_new, msg, sizeof msg), CZ_OK);
  long len = file_size(path);
  unlink(path);
  CHECK(len > 1000);
  const uint64_t at[] = {0, 100, (uint64_t)len / 2, (uint64_t)len};
  for (int old = 0; old < 2; old++) {
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) killed_save(at[i], (long)at[i], old);
    killed_save(CZ_ATOMIC_KILL_BEFORE_RENAME, len, old);
  }
}

static bool save_cut_short(void *ctx) {
  (void)ctx;
  char msg[1024] = "";
  cz_err e = cz_pce_save(shape, path, key_new, msg, sizeof msg);
  fprintf(stderr, "%s", msg);
  return e == CZ_ERR_IO;
}

/* RLIMIT_FSIZE cuts the save at 1000 bytes: the message names the path, the
 * reason and the bytes, and nothing is left. */
static void test_file_too_large(void) {
  char got[1024];
  CHECK(fsize_child(1000, save_cut_short, NULL, got, sizeof got));
  CHECK(strstr(got, "could not cache the shape as ") != NULL);
  CHECK(cut_message_ok(got, path, 1000));
  CHECK_EQ_INT(dir_entries(), 0); /* no file, no temporary */
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cz-pce-crash.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  snprintf(path, sizeof path, "%s/pce-bits.bin", dir);
  cz_cs *cs = run_bits(CZ_CS_RECORD, 1);
  CHECK_EQ_INT(cz_cs_take_pce(cs, &shape), CZ_OK);
  cz_cs_free(cs);
  test_kill_points();
  test_file_too_large();
  cz_pce_free(shape);
  rmdir(dir);
  return check_report("test_pce_crash");
}
