/* A prover's shape cache (cz_prover_shape_get) under kill -9 and a file
 * size limit: a process killed while saving the shape leaves no file; the
 * next one records and saves it and removes the temporary, the one after
 * loads it; a save cut by RLIMIT_FSIZE still returns the shape (UNSAVED),
 * and the warning it logs carries the reason, the path and the bytes. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fsize_child.h"
#include "cuzk/provers.h"
#include "util/atomic_file.h"
#include "cs/bits_circuit.h"

static char dir[64];

static cz_err record_bits(const void *ctx, cz_pce **out, char *msg, size_t msg_len) {
  (void)ctx, (void)msg, (void)msg_len;
  cz_cs *cs = run_bits(CZ_CS_RECORD, 1);
  cz_err e = cz_cs_take_pce(cs, out);
  cz_cs_free(cs);
  return e;
}

static const cz_shape_source src = {NULL, "bits", "v28-bits", "1", record_bits, NULL};

static int dir_entries(void) {
  DIR *h = opendir(dir);
  int n = 0;
  for (struct dirent *e; h && (e = readdir(h));) n += e->d_name[0] != '.';
  if (h) closedir(h);
  return n;
}

static cz_shape_origin get(void) {
  cz_shape_source s = src;
  s.dir = dir;
  cz_pce *p = NULL;
  cz_shape_origin o = CZ_SHAPE_LOADED;
  char msg[256];
  CHECK_EQ_INT(cz_prover_shape_get(&s, &p, &o, msg, sizeof msg), CZ_OK);
  CHECK(p != NULL);
  cz_pce_free(p);
  return o;
}

static void test_killed(uint64_t at) {
  pid_t pid = fork();
  if (pid == 0) {
    cz_atomic_test_kill_at(at);
    get();
    _exit(2); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  CHECK_EQ_INT(dir_entries(), 1); /* the temporary alone */
  CHECK_EQ_INT(get(), CZ_SHAPE_RECORDED);
  CHECK_EQ_INT(dir_entries(), 1); /* the file alone */
  CHECK_EQ_INT(get(), CZ_SHAPE_LOADED);
  uint8_t key[CZ_PCE_KEY_BYTES];
  char path[256];
  cz_prover_shape_key(src.param_name, src.revision, key);
  CHECK(cz_prover_shape_path(path, sizeof path, dir, src.circuit_id, key));
  unlink(path);
}

static bool get_unsaved(void *ctx) {
  (void)ctx;
  return get() == CZ_SHAPE_UNSAVED;
}

/* The file-size limit cuts the save short: the child's log line names the
 * path, the reason and the bytes, and nothing is left. */
static void test_file_too_large(void) {
  char got[4096];
  CHECK(fsize_child(1000, get_unsaved, NULL, got, sizeof got));
  CHECK(strstr(got, "shape bits not saved: could not cache the shape as ") != NULL);
  CHECK(cut_message_ok(got, dir, 1000));
  CHECK_EQ_INT(dir_entries(), 0); /* no file, no temporary */
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cz-shape-crash.XXXXXX");
  if (!mkdtemp(dir)) return 1;
  test_killed(0);
  test_killed(500);
  test_killed(CZ_ATOMIC_KILL_BEFORE_RENAME);
  test_file_too_large();
  rmdir(dir);
  return check_report("test_prover_shape_crash");
}
