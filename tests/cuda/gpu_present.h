/* Whether this host has an NVIDIA GPU, asked of the kernel driver rather than
 * of the code under test, so that a test of the backend choice can require
 * one outcome: a device node /dev/nvidia0 or an entry in
 * /proc/driver/nvidia/gpus. CUZK_EXPECT_GPU=0 or 1 overrides (a container
 * that hides the driver's files, or a GPU the test must not count). */
#ifndef CUZK_TESTS_GPU_PRESENT_H
#define CUZK_TESTS_GPU_PRESENT_H
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

static inline bool gpu_present(void) {
  const char *env = getenv("CUZK_EXPECT_GPU");
  if (env && (env[0] == '0' || env[0] == '1')) return env[0] == '1';
  if (access("/dev/nvidia0", F_OK) == 0) return true;
  DIR *d = opendir("/proc/driver/nvidia/gpus");
  if (!d) return false;
  bool any = false;
  for (struct dirent *e; !any && (e = readdir(d)) != NULL;) any = e->d_name[0] != '.';
  closedir(d);
  return any;
}

#endif
