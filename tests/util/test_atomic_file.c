/* Cache files that survive kill -9 and a full disk (util/atomic_file.h): a
 * writer killed at any point leaves the old file whole and a temporary
 * that the next write (or sweep) removes; a sweep never touches a live
 * process's temporary nor a name outside <file>.tmp.<digits>; a write that
 * cannot complete (RLIMIT_FSIZE; a 1 MiB tmpfs when root) names strerror,
 * the path and the bytes, and leaves nothing behind. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "check.h"
#include "util/atomic_file.h"

#define BIG 10000

static char dir[64];
static uint8_t data[BIG];

static int dir_entries(const char *d) {
  DIR *h = opendir(d);
  int n = 0;
  if (!h) return -1;
  for (struct dirent *e; (e = readdir(h)) != NULL;) n += e->d_name[0] != '.';
  closedir(h);
  return n;
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static bool holds(const char *path, const void *want, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  uint8_t buf[BIG + 1];
  size_t got = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return got == n && memcmp(buf, want, n) == 0;
}

/* A child writes data in 3000-byte pieces and is killed at `at`; the old
 * file stays whole, the child's temporary holds what it wrote, and the
 * next write succeeds and leaves no temporary. */
static void kill_at(uint64_t at, long want_tmp) {
  char path[128], tmp[160];
  snprintf(path, sizeof path, "%s/cache.bin", dir);
  CHECK_EQ_INT(cz_atomic_write_file(path, "old", 3, NULL, 0), CZ_OK);
  pid_t pid = fork();
  if (pid == 0) {
    cz_atomic_test_kill_at(at);
    cz_atomic_file f;
    if (cz_atomic_open(&f, path, BIG, NULL, 0) != CZ_OK) _exit(2);
    for (size_t i = 0; i < BIG; i += 3000)
      if (cz_atomic_write(&f, data + i, BIG - i < 3000 ? BIG - i : 3000, NULL, 0) != CZ_OK)
        _exit(3);
    cz_atomic_commit(&f, NULL, 0);
    _exit(4); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)pid);
  CHECK_EQ_INT(file_size(tmp), want_tmp); /* cut where it was told */
  CHECK(holds(path, "old", 3));           /* never a partial file */
  char msg[512] = "";
  CHECK_EQ_INT(cz_atomic_write_file(path, data, BIG, msg, sizeof msg), CZ_OK);
  CHECK(holds(path, data, BIG));
  CHECK_EQ_INT(dir_entries(dir), 1); /* the dead child's temporary is gone */
  unlink(path);
}

static pid_t dead_pid(void) {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, NULL, 0);
  return pid;
}

static void touch(const char *name) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  CHECK(f != NULL);
  if (f) fputs("partial", f), fclose(f);
}

/* Only <file>.tmp.<digits> of a dead pid (or of this pid, not open) goes. */
static void test_sweep(void) {
  long dead = (long)dead_pid(), me = (long)getpid();
  char n[16][96], path[128];
  snprintf(path, sizeof path, "%s/x.params", dir);
  const char *fmt[] = {"x.params.tmp.%ld",       "x.params.tmp.%ldx", "x.params.tmp.0%ld",
                       "y.params.tmp.%ld",       "x.params.tmp.+%ld", "x.paramsx.tmp.%ld",
                       "x.params.tmp.%ld.tmp.1", "x.params.tmp.%ld.", "x.params.tmp-%ld"};
  int k = (int)(sizeof fmt / sizeof *fmt);
  for (int i = 0; i < k; i++) {
    snprintf(n[i], sizeof n[i], fmt[i], dead);
    touch(n[i]);
  }
  snprintf(n[k], sizeof n[k], "x.params.tmp.%ld", (long)getppid()); /* live */
  touch(n[k]);
  snprintf(n[k + 1], sizeof n[k + 1], "x.params.tmp.%ld", me); /* ours, not open: stale */
  touch(n[k + 1]);
  CHECK_EQ_INT(dir_entries(dir), k + 2);
  CHECK_EQ_INT(cz_atomic_sweep(path), 2);
  CHECK_EQ_INT(dir_entries(dir), k); /* n[0] and ours gone; the rest kept */
  char p[256];
  snprintf(p, sizeof p, "%s/%s", dir, n[0]);
  CHECK(access(p, F_OK) != 0);
  for (int i = 1; i <= k; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, n[i]);
    CHECK(access(p, F_OK) == 0);
    unlink(p);
  }
  /* the temporary this process writes now is kept, and written after */
  cz_atomic_file f;
  CHECK_EQ_INT(cz_atomic_open(&f, path, 3, NULL, 0), CZ_OK);
  CHECK_EQ_INT(cz_atomic_sweep(path), 0);
  CHECK_EQ_INT(cz_atomic_write(&f, "new", 3, NULL, 0), CZ_OK);
  CHECK_EQ_INT(cz_atomic_commit(&f, NULL, 0), CZ_OK);
  CHECK(holds(path, "new", 3));
  CHECK_EQ_INT(dir_entries(dir), 1);
  unlink(path);
}

/* In a child: write BIG bytes to path under a file size limit (0: none);
 * returns the message the write failed with ("" if it did not fail). */
static void failing_write(const char *path, rlim_t limit, char *got, size_t cap) {
  int fds[2];
  got[0] = 0;
  if (pipe(fds) != 0) return;
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {limit, limit};
    if (limit) setrlimit(RLIMIT_FSIZE, &rl);
    char msg[1024] = "";
    static uint8_t big[2 << 20];
    size_t n = strstr(path, "tmpfs") ? sizeof big : BIG;
    cz_err e = cz_atomic_write_file(path, big, n, msg, sizeof msg);
    if (write(fds[1], msg, strlen(msg) + 1) < 0) _exit(4);
    _exit(e == CZ_ERR_IO ? 0 : 2);
  }
  close(fds[1]);
  ssize_t n = read(fds[0], got, cap - 1);
  got[n > 0 ? n : 0] = 0;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_file_too_large(void) {
  char path[128], got[1024];
  snprintf(path, sizeof path, "%s/limited.bin", dir);
  failing_write(path, 4096, got, sizeof got);
  fprintf(stderr, "RLIMIT_FSIZE: %s\n", got);
  CHECK(strstr(got, path) != NULL);
  CHECK(strstr(got, strerror(EFBIG)) != NULL);
  CHECK(strstr(got, "10.0 kB (10000 bytes)") != NULL);
  CHECK(strstr(got, "at offset 4096") != NULL);
  CHECK_EQ_INT(dir_entries(dir), 0); /* no file, no temporary */
}

static void test_full_tmpfs(void) {
  char mnt[128], path[160], got[1024];
  snprintf(mnt, sizeof mnt, "%s/tmpfs", dir);
  mkdir(mnt, 0755);
  if (geteuid() != 0 || mount("tmpfs", mnt, "tmpfs", 0, "size=1m") != 0) {
    fprintf(stderr, "full disk: skipped (%s)\n",
            geteuid() != 0 ? "not root: cannot mount a 1 MiB tmpfs" : strerror(errno));
    rmdir(mnt);
    return;
  }
  snprintf(path, sizeof path, "%s/full.bin", mnt);
  failing_write(path, 0, got, sizeof got);
  fprintf(stderr, "full disk: %s\n", got);
  CHECK(strstr(got, path) != NULL);
  CHECK(strstr(got, strerror(ENOSPC)) != NULL);
  CHECK(strstr(got, "2.1 MB (2097152 bytes)") != NULL);
  CHECK(strstr(got, "at offset ") != NULL);
  CHECK_EQ_INT(dir_entries(mnt), 0);
  umount2(mnt, MNT_DETACH);
  rmdir(mnt);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cuzk-atomic-XXXXXX");
  if (!mkdtemp(dir)) return 1;
  for (size_t i = 0; i < BIG; i++) data[i] = (uint8_t)(i * 31 + 7);
  kill_at(0, 0);                              /* created, nothing written */
  kill_at(1, 1);                              /* one byte */
  kill_at(4500, 4500);                        /* inside a write */
  kill_at(6000, 6000);                        /* between two writes */
  kill_at(BIG, BIG);                          /* all written, not yet renamed */
  kill_at(CZ_ATOMIC_KILL_BEFORE_RENAME, BIG); /* fsynced, not renamed */
  test_sweep();
  test_file_too_large();
  test_full_tmpfs();
  rmdir(dir);
  return check_report("test_atomic_file");
}
