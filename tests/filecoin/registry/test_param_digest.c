/* Official parameter files against parameters.json's digests
 * (cuzk/param_digest.h, tests/vectors/fil-parameters/).
 *
 * - Every v28 name the registry computes (20 PoRep, 15 PoSt, 5 SnapDeals
 *   kinds, .params and .vk) has a published digest: our names are
 *   rust-fil-proofs' names.
 * - The real official WinningPoSt 2 KiB key (tests/vectors/winningpost-2kib)
 *   hashes to its published digest; a bit flip or a truncation is refused
 *   with a message naming the file and both digests.
 * - The stamp: the first check hashes and stamps, the next one does not
 *   hash, a changed file is hashed again; when no stamp fits beside the
 *   file it goes to the fallback folder.
 * - A check killed (SIGKILL) while writing its stamp leaves no stamp; the
 *   next check hashes, stamps and removes the temporary.
 * - paramfetch's digest of a file longer than one read (8 MiB + 1000
 *   bytes) equals Python's hashlib.blake2b.
 * - A corrupt official .params file is refused by the store's Filecoin
 *   wrapper (cz_post_params_get) before it is loaded. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cuzk/param_digest.h"
#include "cuzk/post.h"
#include "cuzk/registry.h"
#include "util/atomic_file.h"

#define WINNING_VK "tests/vectors/winningpost-2kib/winning-post-2kib.vk"

static char root[] = "/tmp/cuzk-test-param-digest-XXXXXX";

static void check_named(const char *base) {
  char file[320];
  snprintf(file, sizeof file, "%s.params", base);
  bool p = cz_param_digest_v28(file) != NULL;
  snprintf(file, sizeof file, "%s.vk", base);
  bool v = cz_param_digest_v28(file) != NULL;
  CHECK(p && v);
  if (!p || !v) fprintf(stderr, "no published digest for %s\n", base);
}

static void test_every_kind_is_published(void) {
  char name[256];
  for (uint32_t id = 0; id < CZ_REGISTERED_POREP_COUNT; id++) {
    cz_porep_param_name(cz_registered_porep_by_id(id), name, sizeof name);
    check_named(name);
  }
  for (uint32_t id = 0; id < CZ_REGISTERED_POST_COUNT; id++) {
    cz_post_param_name(cz_registered_post_by_id(id), name, sizeof name);
    check_named(name);
  }
  for (uint32_t id = 0; id < CZ_REGISTERED_SNAP_COUNT; id++) {
    cz_snap_param_name(&cz_registered_snap_by_id(id)->shape, name, sizeof name);
    check_named(name);
  }
  CHECK(cz_param_digest_v28("v28-no-such-file.params") == NULL);
  CHECK(cz_param_digest_v28(NULL) == NULL);
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  CHECK(in && out);
  char buf[4096];
  size_t n;
  while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) CHECK(fwrite(buf, 1, n, out) == n);
  if (in) fclose(in);
  if (out) fclose(out);
}

/* Flip one byte of path in place and move its mtime on by a second, so the
 * stamp cannot stand whatever the clock's grain. */
static void flip_byte(const char *path, long at) {
  int fd = open(path, O_RDWR);
  CHECK(fd >= 0);
  uint8_t b = 0;
  CHECK(pread(fd, &b, 1, at) == 1);
  b ^= 0x10;
  CHECK(pwrite(fd, &b, 1, at) == 1);
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  struct timespec t[2] = {st.st_atim, st.st_mtim};
  t[1].tv_sec += 1;
  CHECK(futimens(fd, t) == 0);
  close(fd);
}

static void test_official_key(void) {
  char base[256], file[320], path[512], stamp[600];
  cz_post_param_name(cz_registered_post_by_name("StackedDrgWinning2KiBV1"), base, sizeof base);
  snprintf(file, sizeof file, "%s.vk", base);
  const char *want = cz_param_digest_v28(file);
  CHECK(want && !strcmp(want, "ffd79788d614d27919ae5bd2d94eacb6"));
  if (!want) return;
  snprintf(path, sizeof path, "%s/%s", root, file);
  copy_file(WINNING_VK, path);

  cz_param_check_info info;
  char msg[768] = "";
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  snprintf(stamp, sizeof stamp, "%s" CZ_PARAM_STAMP_SUFFIX, path);
  CHECK(info.hashed && !strcmp(info.stamp, stamp) && access(stamp, R_OK) == 0);
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  CHECK(!info.hashed && !strcmp(info.stamp, stamp)); /* the stamp stood */

  flip_byte(path, 1000);
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_ERR_IO);
  CHECK(info.hashed); /* a changed mtime: hashed again */
  CHECK(strstr(msg, path) && strstr(msg, want) && strstr(msg, "corrupt"));
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_ERR_IO);
  CHECK(!info.hashed); /* the stamp remembers the bad digest too */

  flip_byte(path, 1000); /* restored, then one byte short */
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  CHECK_EQ_INT(truncate(path, 13635), 0);
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_ERR_IO);
  CHECK(strstr(msg, "13635 bytes") != NULL);

  /* No stamp fits beside the file (a folder has its name): the fallback. */
  copy_file(WINNING_VK, path);
  CHECK_EQ_INT(unlink(stamp), 0);
  CHECK_EQ_INT(mkdir(stamp, 0755), 0);
  char other[512], other_stamp[900];
  snprintf(other, sizeof other, "%s/stamps", root);
  CHECK_EQ_INT(cz_param_file_check(path, want, other, &info, msg, sizeof msg), CZ_OK);
  snprintf(other_stamp, sizeof other_stamp, "%s/%s" CZ_PARAM_STAMP_SUFFIX, other, file);
  CHECK(info.hashed && !strcmp(info.stamp, other_stamp));
  CHECK_EQ_INT(cz_param_file_check(path, want, other, &info, msg, sizeof msg), CZ_OK);
  CHECK(!info.hashed && !strcmp(info.stamp, other_stamp));
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  CHECK(info.hashed && !*info.stamp); /* nowhere to keep one: hashed each time */
  rmdir(stamp);
  unlink(other_stamp);
  rmdir(other);
  unlink(path);
}

static void test_long_file(void) {
  char path[512], hex[CZ_PARAM_DIGEST_HEX + 1], msg[512];
  snprintf(path, sizeof path, "%s/long", root);
  size_t n = (8u << 20) + 1000;
  uint8_t *m = malloc(n);
  for (size_t i = 0; i < n; i++) m[i] = (uint8_t)(i * 37 + 5);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(m, 1, n, f) == n);
  if (f) fclose(f);
  free(m);
  CHECK_EQ_INT(cz_param_file_digest(path, hex, msg, sizeof msg), CZ_OK);
  /* Python: hashlib.blake2b(bytes((i*37+5)&0xff for i in range(8*2**20+1000))).hexdigest()[:32] */
  CHECK(!strcmp(hex, "209a3f674c909458ab3ab78bb5c63a86"));
  unlink(path);
  CHECK_EQ_INT(cz_param_file_digest(path, hex, msg, sizeof msg), CZ_ERR_IO);
  CHECK(strstr(msg, path) != NULL);
}

/* A file under the official WinningPoSt 2 KiB .params name that is not the
 * published one: refused before it is read as parameters. */
static void test_store_refuses(void) {
  const cz_registered_post *k = cz_registered_post_by_name("StackedDrgWinning2KiBV1");
  char base[256], path[600], msg[768] = "";
  cz_post_param_name(k, base, sizeof base);
  snprintf(path, sizeof path, "%s/%s.params", root, base);
  copy_file(WINNING_VK, path);
  cz_params_store_opts o = {0};
  o.official_dir = root;
  o.test_dir = root;
  o.official_only = true;
  cz_groth16_params p;
  cz_err e = cz_post_params_get(&p, k, &o, NULL, msg, sizeof msg);
  CHECK_EQ_INT(e, CZ_ERR_IO);
  CHECK(strstr(msg, "parameters.json") && strstr(msg, path));
  CHECK_EQ_INT(cz_official_params_check(base, &o, msg, sizeof msg), CZ_ERR_IO);
  o.no_official = true; /* not looked at */
  CHECK_EQ_INT(cz_official_params_check(base, &o, msg, sizeof msg), CZ_OK);
  o.no_official = false;
  CHECK_EQ_INT(cz_official_params_check("v28-not-published", &o, msg, sizeof msg), CZ_OK);
  char stamp[700];
  snprintf(stamp, sizeof stamp, "%s" CZ_PARAM_STAMP_SUFFIX, path);
  unlink(stamp);
  unlink(path);
}

/* A child killed at `at` bytes of the stamp (or before its rename). */
static void test_stamp_killed(uint64_t at) {
  const char *want = "ffd79788d614d27919ae5bd2d94eacb6"; /* WINNING_VK's */
  char path[512], stamp[600], tmp[640], msg[768] = "";
  snprintf(path, sizeof path, "%s/killed.vk", root);
  snprintf(stamp, sizeof stamp, "%s" CZ_PARAM_STAMP_SUFFIX, path);
  copy_file(WINNING_VK, path);
  pid_t pid = fork();
  if (pid == 0) {
    cz_atomic_test_kill_at(at);
    cz_err e = cz_param_file_check(path, want, NULL, NULL, msg, sizeof msg);
    _exit(e == CZ_OK ? 2 : 3); /* not reached: killed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", stamp, (long)pid);
  CHECK(access(stamp, F_OK) != 0 && access(tmp, F_OK) == 0);
  cz_param_check_info info;
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  CHECK(info.hashed && !strcmp(info.stamp, stamp));
  CHECK(access(tmp, F_OK) != 0); /* swept */
  CHECK_EQ_INT(cz_param_file_check(path, want, NULL, &info, msg, sizeof msg), CZ_OK);
  CHECK(!info.hashed); /* the new stamp stands */
  unlink(stamp);
  unlink(path);
}

int main(void) {
  CHECK(mkdtemp(root) != NULL);
  test_every_kind_is_published();
  test_official_key();
  test_stamp_killed(0);
  test_stamp_killed(10);
  test_stamp_killed(CZ_ATOMIC_KILL_BEFORE_RENAME);
  test_long_file();
  test_store_refuses();
  rmdir(root);
  return check_report("test_param_digest");
}
