/* The daemon's snarkjs keys: a registry of key ids (SHA-256 of the .zkey)
 * over engine SRS entries "circom-<16 hex>", whose loader reads the mapped
 * file with cz_zkey_read. Keys come and go while the engine runs (LoadKey,
 * UnloadKey, [[circom.keys]] at start). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/sha256.h"
#include "provers/circom_internal.h"
#include "util/msg.h"

bool cz_circom_key_id_parse(const char *hex, uint8_t out[32]) {
  if (!hex || strlen(hex) != 64) return false;
  for (int i = 0; i < 64; i++) {
    char c = hex[i];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) return false;
    if (i % 2 == 0) out[i / 2] = (uint8_t)(v << 4);
    else out[i / 2] |= (uint8_t)v;
  }
  return true;
}

circom_key *cz_circom_find_locked(cz_circom_keys *k, const uint8_t id[32]) {
  for (circom_key *c = k->keys; c; c = c->next)
    if (memcmp(c->id, id, 32) == 0) return c;
  return NULL;
}

static circom_key *find_circuit_locked(cz_circom_keys *k, const char *circuit_id) {
  for (circom_key *c = k->keys; c; c = c->next)
    if (strcmp(c->info.circuit_id, circuit_id) == 0) return c;
  return NULL;
}

/* What a hot key holds beyond the file: the A/B terms (index pair and a
 * Montgomery coefficient each), the H domain's tables (a few field
 * elements per point of the domain) and the IC. An estimate within a few
 * percent; the file's pages are the bulk. */
static uint64_t resident_bytes(const cz_zkey_info *zi) {
  return (uint64_t)zi->file_bytes + (uint64_t)zi->n_terms * (8 + 32) +
         (uint64_t)zi->domain_size * 3 * 32 + (uint64_t)(zi->n_public + 1) * 96;
}

/* ---- the SRS loader ----------------------------------------------------------- */

static cz_err load_key(void *self, const char *circuit_id, const uint8_t *file, size_t len, int fd,
                       void **obj, uint64_t *bytes, char *msg, size_t msg_len) {
  cz_circom_keys *k = self;
  (void)fd; /* a zkey is read into memory */
  pthread_mutex_lock(&k->mu);
  circom_key *c = find_circuit_locked(k, circuit_id);
  unsigned flags = c ? c->flags : 0;
  pthread_mutex_unlock(&k->mu);
  if (!c) return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "no circom key %s", circuit_id);
  cz_zkey *z = NULL;
  /* The key borrows the mapping, which the engine keeps until the entry
   * drops to cold, after unloading this object. */
  cz_err err = cz_zkey_read(&z, file, len, flags, 0, msg, msg_len);
  cz_zkey_info zi = {0};
  if (err == CZ_OK) cz_zkey_get_info(z, &zi);
  pthread_mutex_lock(&k->mu);
  if ((c = find_circuit_locked(k, circuit_id))) {
    c->load_err = err;
    snprintf(c->load_msg, sizeof c->load_msg, "%s", err == CZ_OK ? "" : msg);
    if (err == CZ_OK) {
      c->info.n_vars = zi.n_vars;
      c->info.n_public = zi.n_public;
      c->info.domain_size = zi.domain_size;
      c->info.file_bytes = zi.file_bytes;
      c->info.resident_bytes = resident_bytes(&zi);
      c->loaded_once = true;
    }
  }
  pthread_mutex_unlock(&k->mu);
  if (err != CZ_OK) return err;
  *obj = z;
  *bytes = resident_bytes(&zi);
  return CZ_OK;
}

static void unload_key(void *self, void *obj) {
  (void)self;
  cz_zkey_free(obj);
}

cz_srs_loader cz_circom_srs_loader(cz_circom_keys *k) {
  return (cz_srs_loader){.load = load_key, .unload = unload_key, .self = k};
}

/* ---- the registry ------------------------------------------------------------- */

static cz_err hash_file(const char *path, uint8_t id[32], char *msg, size_t msg_len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return cz_msg_err(msg, msg_len, errno == ENOENT ? CZ_ERR_NOT_FOUND : CZ_ERR_IO, "%s: %s", path,
                      strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    close(fd);
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: not a readable, non-empty file", path);
  }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return cz_msg_err(msg, msg_len, CZ_ERR_IO, "%s: mmap: %s", path, strerror(errno));
  cz_sha256_digest(id, p, (size_t)st.st_size);
  munmap(p, (size_t)st.st_size);
  return CZ_OK;
}

static bool valid_name(const char *name) {
  size_t n = name ? strlen(name) : 0;
  if (n == 0 || n >= CZ_CIRCOM_NAME_MAX) return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f) return false;
  return true;
}

static circom_key *new_key(const uint8_t id[32], const char *name, const char *path,
                           bool check_subgroup) {
  circom_key *c = calloc(1, sizeof *c);
  if (!c || !(c->path = strdup(path))) {
    free(c);
    return NULL;
  }
  memcpy(c->id, id, 32);
  for (int i = 0; i < 32; i++) snprintf(c->info.key_id + 2 * i, 3, "%02x", id[i]);
  snprintf(c->info.circuit_id, sizeof c->info.circuit_id, "circom-%.16s", c->info.key_id);
  snprintf(c->info.name, sizeof c->info.name, "%s", name);
  c->flags = check_subgroup ? CZ_ZKEY_CHECK_SUBGROUP : 0;
  return c;
}

static void free_key(circom_key *c) {
  if (!c) return;
  free(c->path);
  free(c);
}

/* Take the key of that id out of the registry and free it. */
static void forget(cz_circom_keys *k, const uint8_t id[32]) {
  pthread_mutex_lock(&k->mu);
  circom_key **at = &k->keys;
  while (*at && memcmp((*at)->id, id, 32) != 0) at = &(*at)->next;
  circom_key *c = *at;
  if (c) *at = c->next;
  pthread_mutex_unlock(&k->mu);
  free_key(c);
}

/* Add a new key and declare its SRS entry; *added false when a key of that
 * id was known already. */
static cz_err declare(cz_circom_keys *k, const uint8_t id[32], const char *name, const char *path,
                      bool check_subgroup, bool *added, char *circuit_id, char *msg,
                      size_t msg_len) {
  circom_key *c = new_key(id, name, path, check_subgroup);
  if (!c) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  pthread_mutex_lock(&k->mu);
  circom_key *old = cz_circom_find_locked(k, id);
  *added = !old;
  snprintf(circuit_id, 32, "%s", (old ? old : c)->info.circuit_id);
  if (!old) c->next = k->keys, k->keys = c;
  pthread_mutex_unlock(&k->mu);
  if (old) {
    free_key(c);
    return CZ_OK;
  }
  cz_srs_loader loader = cz_circom_srs_loader(k);
  cz_err err = cz_engine_register_srs(k->e, circuit_id, path, &loader);
  if (err != CZ_OK) {
    forget(k, id);
    return cz_msg_err(msg, msg_len, err, "cannot declare SRS entry %s", circuit_id);
  }
  return CZ_OK;
}

/* The reader's own refusal when the loader ran and refused (the engine
 * reports loader failures as I/O). */
static cz_err load_refusal(cz_circom_keys *k, const uint8_t id[32], cz_err err, char *msg,
                           size_t msg_len) {
  pthread_mutex_lock(&k->mu);
  circom_key *c = cz_circom_find_locked(k, id);
  if (c && c->load_err != CZ_OK && c->load_err != CZ_ERR_NOMEM) {
    err = c->load_err;
    cz_msg(msg, msg_len, "%s", c->load_msg);
  }
  pthread_mutex_unlock(&k->mu);
  return err;
}

cz_err cz_circom_key_load(cz_circom_keys *k, const cz_circom_key_spec *spec,
                          cz_circom_key_info *info, bool *already, uint64_t *load_ms, char *msg,
                          size_t msg_len) {
  const char *name = spec->name, *path = spec->path;
  if (already) *already = false;
  if (load_ms) *load_ms = 0;
  if (!valid_name(name))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "name: 1-63 printable characters expected");
  if (!path || !path[0]) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "zkey_path is empty");
  uint8_t id[32];
  cz_err err = hash_file(path, id, msg, msg_len);
  char circuit_id[32];
  bool added = false;
  if (err == CZ_OK)
    err = declare(k, id, name, path, spec->check_subgroup, &added, circuit_id, msg, msg_len);
  if (err != CZ_OK) return err;
  if (already) *already = !added;
  err = cz_engine_srs_preload(k->e, circuit_id, NULL, load_ms, msg, msg_len);
  if (err != CZ_OK) {
    err = load_refusal(k, id, err, msg, msg_len);
    if (added) {
      uint64_t freed;
      char why[64];
      /* best-effort undo after the load failed: err already says why */
      cz_err undo = cz_engine_srs_remove(k->e, circuit_id, &freed, why, sizeof why);
      (void)undo;
      forget(k, id);
    }
    return err;
  }
  char hex[CZ_CIRCOM_KEY_HEX];
  for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", id[i]);
  if (info && !cz_circom_key_find(k, hex, info))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "key %s was unloaded meanwhile", hex);
  return CZ_OK;
}

cz_err cz_circom_key_unload(cz_circom_keys *k, const char *key_id, bool *was_loaded,
                            uint64_t *freed, char *msg, size_t msg_len) {
  *was_loaded = false;
  *freed = 0;
  cz_circom_key_info info;
  uint8_t id[32];
  if (!cz_circom_key_id_parse(key_id, id) || !cz_circom_key_find(k, key_id, &info))
    return cz_msg_err(msg, msg_len, CZ_ERR_NOT_FOUND, "no key %.80s", key_id ? key_id : "");
  cz_err err = cz_engine_srs_evict(k->e, info.circuit_id, was_loaded, freed, msg, msg_len);
  uint64_t more = 0;
  if (err == CZ_OK) err = cz_engine_srs_remove(k->e, info.circuit_id, &more, msg, msg_len);
  if (err != CZ_OK && err != CZ_ERR_NOT_FOUND) return err;
  *freed += more;
  forget(k, id);
  return CZ_OK;
}

bool cz_circom_key_find(cz_circom_keys *k, const char *key_id, cz_circom_key_info *info) {
  uint8_t id[32];
  if (!cz_circom_key_id_parse(key_id, id)) return false;
  pthread_mutex_lock(&k->mu);
  circom_key *c = cz_circom_find_locked(k, id);
  if (c && info) *info = c->info;
  pthread_mutex_unlock(&k->mu);
  return c != NULL;
}

size_t cz_circom_key_list(cz_circom_keys *k, cz_circom_key_info *out, size_t cap) {
  size_t n = 0;
  pthread_mutex_lock(&k->mu);
  for (circom_key *c = k->keys; c && n < cap; c = c->next) out[n++] = c->info;
  pthread_mutex_unlock(&k->mu);
  return n;
}

void cz_circom_key_count_proof(cz_circom_keys *k, const uint8_t id[32]) {
  pthread_mutex_lock(&k->mu);
  circom_key *c = cz_circom_find_locked(k, id);
  if (c) c->info.proofs++;
  pthread_mutex_unlock(&k->mu);
}

void cz_circom_keys_free(cz_circom_keys *k) {
  if (!k) return;
  while (k->keys) {
    circom_key *c = k->keys;
    k->keys = c->next;
    free_key(c);
  }
  pthread_mutex_destroy(&k->mu);
  free(k);
}
