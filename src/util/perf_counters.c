/* perf_event_open counters: see include/cuzk/perf_counters.h.
 *
 * Counts are read as (value, time_enabled, time_running) and measured from
 * a baseline taken at cz_perf_start instead of by PERF_EVENT_IOC_RESET:
 * with inherit, counts of threads that have exited are folded into the
 * parent event, and a reset does not clear them, so a second measurement
 * would include the first one's workers. */
#define _GNU_SOURCE
#include "cuzk/perf_counters.h"
#include "util/msg.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
  const char *name;
  uint32_t type;
  uint64_t config;
} events[CZ_PERF_N_EVENTS] = {
    [CZ_PERF_CYCLES] = {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    [CZ_PERF_INSTRUCTIONS] = {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    [CZ_PERF_L1D_READ_MISSES] = {"l1d_read_misses", PERF_TYPE_HW_CACHE,
                                 PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
                                     (PERF_COUNT_HW_CACHE_RESULT_MISS << 16)},
    /* The generic "cache-misses" event: last-level cache misses on x86. */
    [CZ_PERF_LLC_MISSES] = {"llc_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    [CZ_PERF_BRANCH_MISSES] = {"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

const char *cz_perf_event_name(cz_perf_event e) {
  return (unsigned)e < CZ_PERF_N_EVENTS ? events[e].name : "?";
}

static int paranoid_level(void) {
  FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
  int v = -99;
  if (f) {
    if (fscanf(f, "%d", &v) != 1) v = -99;
    fclose(f);
  }
  return v;
}

/* One line naming why event e could not be opened, from errno err. */
static void explain(char *out, size_t cap, cz_perf_event e, int err) {
  const char *hint = "";
  char buf[96] = "";
  switch (err) {
    case ENOENT:
    case EOPNOTSUPP:
    case EINVAL: hint = " (no hardware PMU for this kernel or VM)"; break;
    case EACCES:
    case EPERM: {
      int lvl = paranoid_level();
      if (lvl != -99)
        snprintf(buf, sizeof buf, " (kernel.perf_event_paranoid=%d, or seccomp)", lvl);
      else snprintf(buf, sizeof buf, " (perf events refused to this process)");
      hint = buf;
      break;
    }
    case ENOSYS: hint = " (the kernel has no perf_event_open)"; break;
    default: break;
  }
  snprintf(out, cap, "perf_event_open(%s): %s%s", events[e].name, strerror(err), hint);
}

cz_err cz_perf_open(cz_perf *p, char *why, size_t why_len) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) p->fd[i] = -1;
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = events[i].type;
    a.config = events[i].config;
    a.disabled = 1;
    a.inherit = 1;        /* threads created from now on count too */
    a.exclude_kernel = 1; /* what perf_event_paranoid 2 allows */
    a.exclude_hv = 1;
    a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    long fd = syscall(SYS_perf_event_open, &a, 0 /* this thread */, -1 /* any cpu */, -1,
                      PERF_FLAG_FD_CLOEXEC);
    if (fd >= 0) {
      p->fd[i] = (int)fd;
      p->n_open++;
    } else if (!p->reason[0]) {
      explain(p->reason, sizeof p->reason, (cz_perf_event)i, errno);
    }
  }
  if (p->n_open) return CZ_OK;
  if (why && why_len) cz_msg(why, why_len, "%s", p->reason);
  return CZ_ERR_IO;
}

bool cz_perf_available(const cz_perf *p) { return p->n_open > 0; }

static bool read_raw(int fd, uint64_t out[3]) {
  return read(fd, out, 3 * sizeof(uint64_t)) == (ssize_t)(3 * sizeof(uint64_t));
}

void cz_perf_start(cz_perf *p) {
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    if (p->fd[i] < 0) continue;
    ioctl(p->fd[i], PERF_EVENT_IOC_DISABLE, 0);
    if (!read_raw(p->fd[i], p->base[i])) memset(p->base[i], 0, sizeof p->base[i]);
  }
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++)
    if (p->fd[i] >= 0) ioctl(p->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void cz_perf_stop(cz_perf *p) {
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++)
    if (p->fd[i] >= 0) ioctl(p->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

void cz_perf_read(const cz_perf *p, cz_perf_counts *out) {
  memset(out, 0, sizeof *out);
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    uint64_t now[3];
    if (p->fd[i] < 0 || !read_raw(p->fd[i], now)) continue;
    uint64_t v = now[0] - p->base[i][0], en = now[1] - p->base[i][1], run = now[2] - p->base[i][2];
    if (run == 0) continue; /* never on a PMU since start: no count */
    /* Multiplexed: extrapolate to the whole enabled time, as perf stat does. */
    if (run < en) v = (uint64_t)((unsigned __int128)v * en / run);
    out->value[i] = v;
    out->valid[i] = true;
  }
}

double cz_perf_ipc(const cz_perf_counts *c) {
  if (!c->valid[CZ_PERF_CYCLES] || !c->valid[CZ_PERF_INSTRUCTIONS] || !c->value[CZ_PERF_CYCLES])
    return -1.0;
  return (double)c->value[CZ_PERF_INSTRUCTIONS] / (double)c->value[CZ_PERF_CYCLES];
}

size_t cz_perf_format(const cz_perf_counts *c, char *out, size_t cap) {
  char val[CZ_PERF_N_EVENTS][24], ipc[24];
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    if (c->valid[i]) snprintf(val[i], sizeof val[i], "%llu", (unsigned long long)c->value[i]);
    else snprintf(val[i], sizeof val[i], "n/a");
  }
  double r = cz_perf_ipc(c);
  if (r >= 0) snprintf(ipc, sizeof ipc, "%.2f", r);
  else snprintf(ipc, sizeof ipc, "n/a");
  int n =
      snprintf(out, cap,
               "cycles=%s instructions=%s ipc=%s l1d_read_misses=%s llc_misses=%s "
               "branch_misses=%s",
               val[CZ_PERF_CYCLES], val[CZ_PERF_INSTRUCTIONS], ipc, val[CZ_PERF_L1D_READ_MISSES],
               val[CZ_PERF_LLC_MISSES], val[CZ_PERF_BRANCH_MISSES]);
  return n < 0 ? 0 : (size_t)n;
}

void cz_perf_close(cz_perf *p) {
  if (p->n_open == 0) return; /* also keeps a zeroed struct off fd 0 */
  for (int i = 0; i < CZ_PERF_N_EVENTS; i++) {
    if (p->fd[i] >= 0) close(p->fd[i]);
    p->fd[i] = -1;
  }
  p->n_open = 0;
}
