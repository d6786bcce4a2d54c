/* Engine parts shared between its modules (not public). */
#ifndef CUZK_ENGINE_INTERNAL_H
#define CUZK_ENGINE_INTERNAL_H
#include <pthread.h>
#include <stdatomic.h>
#include "cuzk/engine.h"
#include "cuzk/engine_prover.h"

/* ---- Memory budget (membudget.c) ---------------------------------------- */

/* Called with the budget unlocked when a reservation cannot be met: frees
 * what it can (idle SRS) and returns the bytes it released. */
typedef uint64_t (*cz_mem_pressure_fn)(void *ctx, uint64_t wanted);

typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  uint64_t total, used;
  cz_mem_pressure_fn pressure;
  void *pressure_ctx;
} cz_membudget;

void cz_membudget_init(cz_membudget *b, uint64_t total);
void cz_membudget_destroy(cz_membudget *b);
/* Reserve bytes, waiting (backpressure) while the budget is short; asks the
 * pressure hook to free memory first. cancel (may be NULL) is polled while
 * waiting. CZ_ERR_NOMEM when bytes > total or *cancel became true. */
cz_err cz_membudget_reserve(cz_membudget *b, uint64_t bytes, const atomic_bool *cancel);
/* Reserve only if it fits now (no waiting, no pressure hook). */
bool cz_membudget_try_reserve(cz_membudget *b, uint64_t bytes);
void cz_membudget_release(cz_membudget *b, uint64_t bytes);
uint64_t cz_membudget_used(cz_membudget *b);

/* ---- SRS manager (srs.c) -------------------------------------------------- */

typedef struct cz_srs_entry cz_srs_entry;
typedef struct cz_srs_manager cz_srs_manager;

cz_srs_manager *cz_srs_manager_new(cz_membudget *budget, const char *param_cache,
                                   uint64_t min_idle_ms);
void cz_srs_manager_free(cz_srs_manager *m);
cz_err cz_srs_register(cz_srs_manager *m, const char *circuit_id, const char *path,
                       const cz_srs_loader *loader);
/* An entry made by loader->load(file NULL, len 0): see
 * cz_engine_register_computed_srs. */
cz_err cz_srs_register_computed(cz_srs_manager *m, const char *circuit_id,
                                uint64_t estimate_bytes, const cz_srs_loader *loader);
/* Make the circuit hot and take a reference (acquire) or just make it hot
 * (preload). Statuses as cz_engine_srs_preload. */
cz_engine_status cz_srs_acquire(cz_srs_manager *m, const char *circuit_id, bool take_ref,
                                cz_srs_entry **entry, bool *already, uint64_t *load_ms,
                                char *msg, size_t msg_len);
void cz_srs_release(cz_srs_manager *m, cz_srs_entry *entry);
const void *cz_srs_entry_object(const cz_srs_entry *entry, size_t *len);
cz_engine_status cz_srs_evict(cz_srs_manager *m, const char *circuit_id, bool *was_loaded,
                              uint64_t *freed, char *msg, size_t msg_len);
/* Evict idle (ref 0, idle >= min_idle) entries, least recently used first,
 * until at least wanted bytes are freed; returns the bytes freed. */
uint64_t cz_srs_evict_idle(cz_srs_manager *m, uint64_t wanted);
size_t cz_srs_snapshot(cz_srs_manager *m, cz_srs_status *out, size_t cap);

/* ---- Synthesis slots (synth_slots.c) -------------------------------------- */

/* A counting semaphore over pipeline items being synthesized, engine-wide:
 * cap slots (0 = no limit, take never waits). Thread-safe. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned cap, busy;
} cz_synth_slots;

void cz_synth_slots_init(cz_synth_slots *s, unsigned cap);
void cz_synth_slots_destroy(cz_synth_slots *s);
/* Take a slot, waiting while all are held; false (none taken) when *cancel
 * (may be NULL) became true while waiting. */
bool cz_synth_slots_take(cz_synth_slots *s, const atomic_bool *cancel);
void cz_synth_slots_give(cz_synth_slots *s);

/* The job's side, for pipeline.c (engine.c): a NORMAL or LOW job's item
 * takes one of the engine's slots before its synthesis; a HIGH or CRITICAL
 * job (PoSt) never waits for one, so that a WinningPoSt is not held behind
 * PoRep partitions. *held: whether a slot was taken (hand it to
 * cz_job_synth_end). false: the job was cancelled while waiting. */
bool cz_job_synth_begin(cz_job *job, bool *held);
void cz_job_synth_end(cz_job *job, bool held);

/* ---- Partition states (engine.c, fed by pipeline.c) ------------------------ */

/* The job's pipeline has n items, all queued. */
void cz_job_items_begin(cz_job *job, size_t n);
/* Item i entered state st; ms: the synthesis (SYNTHESIZED) or proving
 * (DONE) time. */
void cz_job_item_state(cz_job *job, size_t i, cz_partition_state st, uint64_t ms);


#endif
