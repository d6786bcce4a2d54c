/* The fallback PoSt witness with sector slots synthesized in parallel, as
 * bellperson's synthesize_extendable does for the prover (fallback/
 * circuit.rs: chunks of sectors into fresh systems, then
 * ConstraintSystem::extend). Every slot allocates the same numbers of
 * inputs and aux and enforces the same number of constraints, so slot s's
 * values sit at fixed offsets of the serial assignment: each chunk is a
 * WITNESS run of its own whose values are copied into place (inputs after
 * the chunk's ONE), and the chunk freed before the next starts. Small
 * chunks keep the working memory near the result's. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/parallel.h"
#include "cuzk/post_circuit.h"
#include "util/bigbuf.h"
#include "util/msg.h"

/* Slots per chunk: at most 16, and no more than keep a chunk's values
 * under 3 MiB, so that a worker's scratch stays small beside the result. */
#define CHUNK_MAX 16
#define CHUNK_BYTES ((size_t)3 << 20)

typedef struct {
  const cz_merkle_shape *tree;
  size_t leaves, n_sectors, n_challenges, per_chunk;
  const cz_post_slot *sectors;
  size_t in_per, aux_per, con_per; /* one slot's inputs (ONE excluded), aux, constraints */
  cz_fr *inputs, *aux;
  cz_err err[CZ_PARALLEL_MAX_THREADS];
} witness_ctx;

static cz_err chunk(witness_ctx *x, size_t s0, size_t ns) {
  cz_cs_config cfg = {CZ_LC_INLINE, 4, 0, ns * x->aux_per};
  cz_cs *cs = cz_cs_new(CZ_CS_WITNESS, &cfg);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_post_circuit(cs, x->tree, x->leaves, ns, x->n_challenges, x->sectors + s0);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  cz_assignment a;
  if (e == CZ_OK) e = cz_cs_take_assignment(cs, &a);
  cz_cs_free(cs);
  if (e != CZ_OK) return e;
  /* The same circuit per slot is what makes the offsets right; a chunk
   * that disagrees is a bug, refused rather than copied. */
  if (a.n_inputs != 1 + ns * x->in_per || a.n_aux != ns * x->aux_per ||
      a.n_constraints != ns * x->con_per) {
    e = CZ_ERR_INVALID_ARG;
  } else {
    memcpy(x->inputs + 1 + s0 * x->in_per, a.inputs + 1, ns * x->in_per * sizeof(cz_fr));
    memcpy(x->aux + s0 * x->aux_per, a.aux, ns * x->aux_per * sizeof(cz_fr));
  }
  cz_assignment_free(&a);
  return e;
}

static void work(void *p, size_t begin, size_t end, unsigned worker) {
  witness_ctx *x = p;
  for (size_t k = begin; k < end && x->err[worker] == CZ_OK; k++) {
    size_t s0 = k * x->per_chunk, ns = x->n_sectors - s0;
    x->err[worker] = chunk(x, s0, ns < x->per_chunk ? ns : x->per_chunk);
  }
}

cz_err cz_post_witness(const cz_merkle_shape *tree, size_t sector_leaves, size_t n_sectors,
                       size_t n_challenges, const cz_post_slot *sectors, unsigned n_threads,
                       cz_assignment *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  cz_err e =
      cz_post_check_sectors(tree, sector_leaves, n_sectors, n_challenges, sectors, msg, msg_len);
  if (e != CZ_OK) return e;
  witness_ctx *x = calloc(1, sizeof *x);
  if (!x) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  *x = (witness_ctx){.tree = tree, .leaves = sector_leaves, .n_sectors = n_sectors,
                     .n_challenges = n_challenges, .sectors = sectors};
  /* One slot's sizes, from a COUNT run (microseconds). */
  cz_cs *cnt = cz_cs_new(CZ_CS_COUNT, NULL);
  e = cnt ? cz_post_circuit(cnt, tree, sector_leaves, 1, n_challenges, NULL) : CZ_ERR_NOMEM;
  if (e == CZ_OK) {
    x->in_per = cz_cs_num_inputs(cnt) - 1;
    x->aux_per = cz_cs_num_aux(cnt);
    x->con_per = cz_cs_num_constraints(cnt);
  }
  cz_cs_free(cnt);
  size_t n_in = 1 + n_sectors * x->in_per, n_aux = n_sectors * x->aux_per;
  if (e == CZ_OK && (n_aux / n_sectors != x->aux_per || n_aux > SIZE_MAX / sizeof(cz_fr)))
    e = CZ_ERR_NOMEM;
  if (e == CZ_OK) {
    /* First touch dominates the system time: 12.6 s of 29.6 s CPU for the
     * 32 GiB partition, a third of it zeroing fresh huge pages (perf); 4 KiB
     * pages (malloc) measured no better (14.5 s). */
    x->inputs = cz_huge_alloc(n_in * sizeof(cz_fr));
    x->aux = cz_huge_alloc((n_aux ? n_aux : 1) * sizeof(cz_fr));
    if (!x->inputs || !x->aux) e = CZ_ERR_NOMEM;
  }
  if (e == CZ_OK) {
    x->inputs[0] = CZ_FR_ONE;
    unsigned t = cz_parallel_threads(n_threads);
    size_t per = (n_sectors + t - 1) / t;
    size_t cap = CHUNK_BYTES / ((x->aux_per + x->in_per + 1) * sizeof(cz_fr));
    cap = cap < 1 ? 1 : cap > CHUNK_MAX ? CHUNK_MAX : cap;
    x->per_chunk = per < cap ? per : cap;
    size_t n_chunks = (n_sectors + x->per_chunk - 1) / x->per_chunk;
    cz_parallel_for(n_chunks, t, work, x);
    for (unsigned w = 0; w < CZ_PARALLEL_MAX_THREADS && e == CZ_OK; w++) e = x->err[w];
  }
  if (e == CZ_OK) {
    out->n_inputs = n_in;
    out->n_aux = n_aux;
    out->n_constraints = n_sectors * x->con_per;
    out->inputs = x->inputs;
    out->aux = x->aux;
  } else {
    free(x->inputs);
    free(x->aux);
    cz_msg(msg, msg_len, "%s", e == CZ_ERR_NOMEM ? "out of memory" : "synthesis failed");
  }
  free(x);
  return e;
}
