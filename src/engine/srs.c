/* The SRS manager: parameter files by circuit id, in three tiers.
 *   cold: known, on disk only;
 *   warm: mmap'd (the page cache may hold it; costs no budget);
 *   hot:  loaded (the loader's object, or the mapped pages touched in) and
 *         charged to the memory budget.
 * Hot entries nobody uses (ref_count 0) and idle for at least min_idle are
 * dropped to warm, least recently used first, when a reservation runs
 * short; EvictSRS drops an entry to cold. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuzk/clock.h"
#include "engine/engine_internal.h"
#include "util/msg.h"

struct cz_srs_entry {
  char id[64];
  char *path;
  cz_srs_loader loader;
  bool has_loader;
  bool computed;     /* made by the loader, no file: hot or cold */
  uint64_t estimate; /* computed: reserved before the loader runs */
  cz_srs_tier tier;
  bool loading;
  uint64_t size_bytes; /* file size */
  uint8_t *map;
  size_t map_len;
  int fd; /* the mapped file, open while map is (the loader may read it), or -1 */
  void *obj;
  uint64_t charged; /* bytes reserved in the budget while hot */
  uint32_t refs;
  uint64_t last_used_ms;
  cz_srs_entry *next;
};

struct cz_srs_manager {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a load finished */
  cz_membudget *budget;
  char *param_cache;
  uint64_t min_idle_ms;
  cz_srs_entry *entries;
};

static bool valid_id(const char *id) {
  size_t n = id ? strlen(id) : 0;
  if (n == 0 || n >= 64 || id[0] == '.') return false;
  for (size_t i = 0; i < n; i++) {
    char c = id[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_' || c == '.'))
      return false;
  }
  return true;
}

cz_srs_manager *cz_srs_manager_new(cz_membudget *budget, const char *param_cache,
                                   uint64_t min_idle_ms) {
  cz_srs_manager *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->param_cache = strdup(param_cache ? param_cache : "/data/zk/params");
  if (!m->param_cache) {
    free(m);
    return NULL;
  }
  pthread_mutex_init(&m->mu, NULL);
  pthread_cond_init(&m->cv, NULL);
  m->budget = budget;
  m->min_idle_ms = min_idle_ms;
  return m;
}

/* Hot -> warm: the loaded object goes (or, without a loader, the resident
 * pages are let go), the mapping stays. Caller holds m->mu. Returns the
 * bytes it had charged. */
static uint64_t drop_to_warm(cz_srs_manager *m, cz_srs_entry *e) {
  uint64_t freed = e->charged;
  if (e->obj && e->has_loader) e->loader.unload(e->loader.self, e->obj);
  e->obj = NULL;
  if (e->map && !e->has_loader) madvise(e->map, e->map_len, MADV_DONTNEED);
  if (e->charged) cz_membudget_release(m->budget, e->charged);
  e->charged = 0;
  if (e->tier == CZ_SRS_HOT) e->tier = e->map ? CZ_SRS_WARM : CZ_SRS_COLD;
  return freed;
}

/* Any tier -> cold (unloaded, unmapped); caller holds m->mu. */
static uint64_t drop_to_cold(cz_srs_manager *m, cz_srs_entry *e) {
  uint64_t freed = drop_to_warm(m, e);
  if (e->map) munmap(e->map, e->map_len);
  if (e->fd >= 0) close(e->fd);
  e->map = NULL;
  e->map_len = 0;
  e->fd = -1;
  e->tier = CZ_SRS_COLD;
  return freed;
}

void cz_srs_manager_free(cz_srs_manager *m) {
  if (!m) return;
  cz_srs_entry *e = m->entries;
  while (e) {
    cz_srs_entry *next = e->next;
    drop_to_cold(m, e);
    free(e->path);
    free(e);
    e = next;
  }
  pthread_mutex_destroy(&m->mu);
  pthread_cond_destroy(&m->cv);
  free(m->param_cache);
  free(m);
}

static cz_srs_entry *find(cz_srs_manager *m, const char *id) {
  for (cz_srs_entry *e = m->entries; e; e = e->next)
    if (strcmp(e->id, id) == 0) return e;
  return NULL;
}

static cz_srs_entry *add(cz_srs_manager *m, const char *id, const char *path) {
  cz_srs_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->path = strdup(path);
  if (!e->path) {
    free(e);
    return NULL;
  }
  snprintf(e->id, sizeof e->id, "%s", id);
  e->tier = CZ_SRS_COLD;
  e->fd = -1;
  e->next = m->entries;
  m->entries = e;
  return e;
}

cz_err cz_srs_register(cz_srs_manager *m, const char *circuit_id, const char *path,
                       const cz_srs_loader *loader) {
  if (!valid_id(circuit_id) || !path || (loader && (!loader->load || !loader->unload)))
    return CZ_ERR_INVALID_ARG;
  pthread_mutex_lock(&m->mu);
  cz_srs_entry *e = find(m, circuit_id);
  cz_err err = CZ_OK;
  if (e) err = CZ_ERR_INVALID_ARG; /* registered twice */
  else if (!(e = add(m, circuit_id, path))) err = CZ_ERR_NOMEM;
  else if (loader) e->loader = *loader, e->has_loader = true;
  pthread_mutex_unlock(&m->mu);
  return err;
}

cz_err cz_srs_register_computed(cz_srs_manager *m, const char *circuit_id, uint64_t estimate_bytes,
                                const cz_srs_loader *loader) {
  if (!loader || !loader->load || !loader->unload) return CZ_ERR_INVALID_ARG;
  cz_err err = cz_srs_register(m, circuit_id, "", loader);
  if (err != CZ_OK) return err;
  pthread_mutex_lock(&m->mu);
  cz_srs_entry *e = find(m, circuit_id);
  e->computed = true;
  e->estimate = estimate_bytes;
  e->size_bytes = estimate_bytes;
  pthread_mutex_unlock(&m->mu);
  return CZ_OK;
}

/* A loader's failure as the manager reports it: out of memory, or the file
 * (or the computation) does not load (msg says why). */
static cz_err load_failed(const cz_srs_entry *e, cz_err err, char *msg, size_t msg_len) {
  if (!msg[0]) cz_msg(msg, msg_len, "SRS %s: %s", e->id, cz_err_str(err));
  return err == CZ_ERR_NOMEM ? err : CZ_ERR_IO;
}

/* Make a computed entry's object; called as load_entry. */
static cz_err compute_entry(cz_srs_manager *m, cz_srs_entry *e, char *msg, size_t msg_len) {
  /* No waiting here: the caller has a fallback (plain synthesis), and a
   * job that waited for the budget while holding its own reservation could
   * wait for itself. Idle entries are evicted first. */
  bool fits = cz_membudget_try_reserve(m->budget, e->estimate);
  if (!fits && m->budget->pressure) {
    m->budget->pressure(m->budget->pressure_ctx, e->estimate);
    fits = cz_membudget_try_reserve(m->budget, e->estimate);
  }
  if (!fits)
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM,
                      "SRS %s: %llu bytes do not fit the memory budget (%llu of %llu used)", e->id,
                      (unsigned long long)e->estimate,
                      (unsigned long long)cz_membudget_used(m->budget),
                      (unsigned long long)m->budget->total);
  void *obj = NULL;
  uint64_t bytes = 0, charged = e->estimate;
  cz_err err = e->loader.load(e->loader.self, e->id, NULL, 0, -1, &obj, &bytes, msg, msg_len);
  if (err != CZ_OK) {
    cz_membudget_release(m->budget, e->estimate);
    return load_failed(e, err, msg, msg_len);
  }
  if (bytes < charged) cz_membudget_release(m->budget, charged - bytes), charged = bytes;
  else if (bytes > charged && cz_membudget_try_reserve(m->budget, bytes - charged)) charged = bytes;
  pthread_mutex_lock(&m->mu);
  e->obj = obj;
  e->charged = charged;
  e->size_bytes = bytes;
  e->tier = CZ_SRS_HOT;
  pthread_mutex_unlock(&m->mu);
  return CZ_OK;
}

/* Map and load e's file; called with e->loading set and m->mu NOT held. */
static cz_err load_entry(cz_srs_manager *m, cz_srs_entry *e, char *msg, size_t msg_len) {
  if (e->computed) return compute_entry(m, e, msg, msg_len);
  int fd = open(e->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cz_msg_err(msg, msg_len, errno == ENOENT ? CZ_ERR_NOT_FOUND : CZ_ERR_IO,
                      "SRS %s: %s: %s", e->id, e->path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_size <= 0) {
    close(fd);
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "SRS %s: %s is empty or unreadable", e->id, e->path);
  }
  size_t len = (size_t)st.st_size;
  uint8_t *map = e->map;
  if (!map) {
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      close(fd);
      return cz_msg_err(msg, msg_len, CZ_ERR_IO, "SRS %s: mmap: %s", e->id, strerror(errno));
    }
    map = p;
  } else {
    close(fd); /* the mapping's own descriptor and length stay: its file */
    fd = e->fd;
    len = e->map_len;
  }
  /* Warm now, whatever happens next. */
  pthread_mutex_lock(&m->mu);
  e->map = map;
  e->fd = fd;
  e->map_len = len;
  e->size_bytes = len;
  e->tier = CZ_SRS_WARM;
  pthread_mutex_unlock(&m->mu);

  /* A decoded object is about the size of the file (uncompressed points);
   * one read in place holds what its loader reports. */
  uint64_t charged = e->has_loader && e->loader.in_place ? 0 : len;
  if (charged && cz_membudget_reserve(m->budget, charged, NULL) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM,
                      "SRS %s: %zu bytes do not fit the memory budget of %llu", e->id, len,
                      (unsigned long long)m->budget->total);
  void *obj = NULL;
  if (e->has_loader) {
    uint64_t bytes = 0;
    cz_err err = e->loader.load(e->loader.self, e->id, map, len, fd, &obj, &bytes, msg, msg_len);
    if (err != CZ_OK) {
      if (charged) cz_membudget_release(m->budget, charged);
      return load_failed(e, err, msg, msg_len);
    }
    /* Drop the mapping's resident pages (it stays mapped, warm, and
     * refaults from the page cache when read again), so the budget's
     * charge below is what the process really holds. */
    madvise(map, len, MADV_DONTNEED);
    /* Charge what the object really holds. */
    if (bytes < charged) cz_membudget_release(m->budget, charged - bytes), charged = bytes;
    else if (bytes > charged && cz_membudget_reserve(m->budget, bytes - charged, NULL) == CZ_OK)
      charged = bytes;
  } else {
    /* No loader: hot means the pages are resident. */
    madvise(map, len, MADV_WILLNEED);
    long page = sysconf(_SC_PAGESIZE);
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < len; i += (size_t)page) sink ^= map[i];
    (void)sink;
  }
  pthread_mutex_lock(&m->mu);
  e->obj = obj;
  e->charged = charged;
  e->tier = CZ_SRS_HOT;
  pthread_mutex_unlock(&m->mu);
  return CZ_OK;
}

cz_err cz_srs_acquire(cz_srs_manager *m, const char *circuit_id, bool take_ref,
                      cz_srs_entry **entry, bool *already, uint64_t *load_ms, char *msg,
                      size_t msg_len) {
  if (already) *already = false;
  if (load_ms) *load_ms = 0;
  if (!valid_id(circuit_id))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "malformed circuit id (1-63 of [A-Za-z0-9._-])");
  pthread_mutex_lock(&m->mu);
  cz_srs_entry *e = find(m, circuit_id);
  if (!e) {
    /* Undeclared: <param_cache>/<id>.params, known only if it exists. */
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.params", m->param_cache, circuit_id);
    if (access(path, R_OK) != 0) {
      pthread_mutex_unlock(&m->mu);
      return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "no parameter file for circuit %s (%s)",
                        circuit_id, path);
    }
    if (!(e = add(m, circuit_id, path))) {
      pthread_mutex_unlock(&m->mu);
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
    }
  }
  while (e->loading) pthread_cond_wait(&m->cv, &m->mu);
  cz_err st = CZ_OK;
  if (e->tier == CZ_SRS_HOT) {
    if (already) *already = true;
  } else {
    e->loading = true;
    pthread_mutex_unlock(&m->mu);
    uint64_t t0 = cz_now_ms();
    st = load_entry(m, e, msg, msg_len);
    if (load_ms) *load_ms = cz_now_ms() - t0;
    pthread_mutex_lock(&m->mu);
    e->loading = false;
    pthread_cond_broadcast(&m->cv);
  }
  if (st == CZ_OK) {
    if (take_ref) e->refs++;
    e->last_used_ms = cz_now_ms();
    if (entry) *entry = e;
  }
  pthread_mutex_unlock(&m->mu);
  return st;
}

void cz_srs_release(cz_srs_manager *m, cz_srs_entry *e) {
  if (!e) return;
  pthread_mutex_lock(&m->mu);
  if (e->refs) e->refs--;
  e->last_used_ms = cz_now_ms();
  pthread_mutex_unlock(&m->mu);
}

const void *cz_srs_entry_object(const cz_srs_entry *e, size_t *len) {
  if (!e) return NULL;
  if (len) *len = e->has_loader ? 0 : e->map_len;
  return e->has_loader ? e->obj : (const void *)e->map;
}

/* Drop an idle entry to cold (evict), and take it out of the list too
 * when forget (remove). */
static cz_err drop_idle(cz_srs_manager *m, const char *circuit_id, bool forget, bool *was_loaded,
                        uint64_t *freed, char *msg, size_t msg_len) {
  *was_loaded = false;
  *freed = 0;
  pthread_mutex_lock(&m->mu);
  cz_srs_entry **at = &m->entries;
  while (*at && (!valid_id(circuit_id) || strcmp((*at)->id, circuit_id) != 0)) at = &(*at)->next;
  cz_srs_entry *e = *at;
  cz_err st = CZ_OK;
  if (!e) {
    st = cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "circuit %s has no SRS entry",
                    circuit_id ? circuit_id : "");
  } else if (e->refs || e->loading) {
    st = cz_msg_err(msg, msg_len, CZ_ERR_BUSY, "SRS %s is in use by %u proof(s)", e->id, e->refs);
  } else {
    *was_loaded = e->tier != CZ_SRS_COLD;
    *freed = drop_to_cold(m, e);
    if (forget) {
      *at = e->next;
      free(e->path);
      free(e);
    }
  }
  pthread_mutex_unlock(&m->mu);
  return st;
}

cz_err cz_srs_evict(cz_srs_manager *m, const char *circuit_id, bool *was_loaded, uint64_t *freed,
                    char *msg, size_t msg_len) {
  return drop_idle(m, circuit_id, false, was_loaded, freed, msg, msg_len);
}

cz_err cz_srs_remove(cz_srs_manager *m, const char *circuit_id, uint64_t *freed, char *msg,
                     size_t msg_len) {
  bool was_loaded;
  return drop_idle(m, circuit_id, true, &was_loaded, freed, msg, msg_len);
}

uint64_t cz_srs_evict_idle(cz_srs_manager *m, uint64_t wanted) {
  uint64_t freed = 0, now = cz_now_ms();
  pthread_mutex_lock(&m->mu);
  while (freed < wanted) {
    cz_srs_entry *lru = NULL;
    for (cz_srs_entry *e = m->entries; e; e = e->next)
      if (e->tier == CZ_SRS_HOT && !e->refs && !e->loading &&
          now - e->last_used_ms >= m->min_idle_ms && (!lru || e->last_used_ms < lru->last_used_ms))
        lru = e;
    if (!lru) break;
    uint64_t f = drop_to_warm(m, lru); /* the mapping costs no budget */
    freed += f ? f : 1;                /* an entry charging nothing still counts as progress */
  }
  pthread_mutex_unlock(&m->mu);
  return freed;
}

size_t cz_srs_snapshot(cz_srs_manager *m, cz_srs_status *out, size_t cap) {
  size_t n = 0;
  uint64_t now = cz_now_ms();
  pthread_mutex_lock(&m->mu);
  for (cz_srs_entry *e = m->entries; e && n < cap; e = e->next, n++) {
    snprintf(out[n].circuit_id, sizeof out[n].circuit_id, "%s", e->id);
    out[n].tier = e->tier;
    out[n].size_bytes = e->size_bytes;
    out[n].ref_count = e->refs;
    out[n].idle_ms = e->last_used_ms ? now - e->last_used_ms : 0;
  }
  pthread_mutex_unlock(&m->mu);
  return n;
}
