/* The fallback PoSt circuit with sector slots synthesized in parallel, as
 * bellperson's synthesize_extendable does for the prover (fallback/
 * circuit.rs: chunks of sectors into fresh systems, then
 * ConstraintSystem::extend). Every slot allocates the same numbers of
 * inputs and aux and enforces the same number of constraints, so slot s's
 * values sit at fixed offsets of the serial assignment: each chunk is a
 * run of its own whose values are copied into place (inputs after the
 * chunk's ONE), and the chunk freed before the next starts. A PROVE chunk
 * also gives its rows of a/b/c (its body rows, then its input constraints,
 * which land after all the bodies) and its density bits, ORed in at the
 * same offsets. Small chunks keep the working memory near the result's. */
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
  cz_cs_kind kind;
  size_t in_per, aux_per, con_per; /* one slot's inputs (ONE excluded), aux, constraints */
  cz_fr *inputs, *aux;
  cz_fr *abc[3];                   /* PROVE: a, b, c of the whole circuit */
  cz_density a_aux, b_input, b_aux; /* PROVE: bits ORed in, counted at the end */
  cz_err err[CZ_PARALLEL_MAX_THREADS];
} witness_ctx;

/* dst's bits [off, off + n) |= src's bits [from, from + n). Atomic: chunks
 * that meet inside a word write it from two threads. */
static void bits_or_at(uint64_t *dst, size_t off, const uint64_t *src, size_t from, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    size_t b = from + i, sw = b >> 6, ssh = b & 63;
    uint64_t v = src[sw] >> ssh;
    /* The next source word holds the rest only if bits remain past it. */
    if (ssh && n - i > 64 - ssh) v |= src[sw + 1] << (64 - ssh);
    if (n - i < 64) v &= ((uint64_t)1 << (n - i)) - 1;
    if (!v) continue;
    size_t d = off + i, w = d >> 6, sh = d & 63;
    __atomic_fetch_or(&dst[w], v << sh, __ATOMIC_RELAXED);
    if (sh && (v >> (64 - sh))) __atomic_fetch_or(&dst[w + 1], v >> (64 - sh), __ATOMIC_RELAXED);
  }
}

static void density_count(cz_density *d) {
  d->count = 0;
  for (size_t w = 0; w < (d->n + 63) / 64; w++) d->count += (size_t)__builtin_popcountll(d->bits[w]);
}

/* A PROVE chunk's rows and density bits into place. */
static void place_prove(witness_ctx *x, const cz_assignment *a, size_t s0, size_t ns) {
  const size_t body = ns * x->con_per, all_bodies = x->n_sectors * x->con_per;
  cz_fr *src[3] = {a->a, a->b, a->c};
  for (int m = 0; m < 3; m++) {
    memcpy(x->abc[m] + s0 * x->con_per, src[m], body * sizeof(cz_fr));
    /* Input constraints: ONE's (the first chunk writes it), then the
     * chunk's inputs'. */
    if (s0 == 0) x->abc[m][all_bodies] = src[m][body];
    memcpy(x->abc[m] + all_bodies + 1 + s0 * x->in_per, src[m] + body + 1,
           ns * x->in_per * sizeof(cz_fr));
  }
  bits_or_at(x->a_aux.bits, s0 * x->aux_per, a->a_aux.bits, 0, a->a_aux.n);
  bits_or_at(x->b_aux.bits, s0 * x->aux_per, a->b_aux.bits, 0, a->b_aux.n);
  bits_or_at(x->b_input.bits, 0, a->b_input.bits, 0, 1); /* ONE */
  bits_or_at(x->b_input.bits, 1 + s0 * x->in_per, a->b_input.bits, 1, a->b_input.n - 1);
}

static cz_err chunk(witness_ctx *x, size_t s0, size_t ns) {
  cz_cs_config cfg = {CZ_LC_INLINE, 4, x->kind == CZ_CS_PROVE ? ns * x->con_per : 0,
                      ns * x->aux_per};
  cz_cs *cs = cz_cs_new(x->kind, &cfg);
  if (!cs) return CZ_ERR_NOMEM;
  cz_err e = cz_post_circuit(cs, x->tree, x->leaves, ns, x->n_challenges, x->sectors + s0);
  if (e == CZ_OK) e = cz_cs_finish(cs);
  cz_assignment a;
  if (e == CZ_OK) e = cz_cs_take_assignment(cs, &a);
  cz_cs_free(cs);
  if (e != CZ_OK) return e;
  /* The same circuit per slot is what makes the offsets right; a chunk
   * that disagrees is a bug, refused rather than copied. */
  bool prove = x->kind == CZ_CS_PROVE;
  size_t rows = ns * x->con_per + (prove ? a.n_inputs : 0);
  if (a.n_inputs != 1 + ns * x->in_per || a.n_aux != ns * x->aux_per || a.n_constraints != rows ||
      (prove && (a.a_aux.n != a.n_aux || a.b_aux.n != a.n_aux || a.b_input.n != a.n_inputs))) {
    e = CZ_ERR_INVALID_ARG;
  } else {
    memcpy(x->inputs + 1 + s0 * x->in_per, a.inputs + 1, ns * x->in_per * sizeof(cz_fr));
    memcpy(x->aux + s0 * x->aux_per, a.aux, ns * x->aux_per * sizeof(cz_fr));
    if (prove) place_prove(x, &a, s0, ns);
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

static bool density_new(cz_density *d, size_t n) {
  d->n = n;
  d->count = 0;
  d->bits = calloc((n + 63) / 64 + 1, sizeof *d->bits);
  return d->bits != NULL;
}

/* What a PROVE merge owns: a/b/c (n_con rows each) and the densities. */
static bool prove_alloc(witness_ctx *x, size_t n_in, size_t n_aux, size_t n_con) {
  for (int m = 0; m < 3; m++)
    if (!(x->abc[m] = cz_huge_alloc(n_con * sizeof(cz_fr)))) return false;
  return density_new(&x->a_aux, n_aux) && density_new(&x->b_aux, n_aux) &&
         density_new(&x->b_input, n_in);
}

static void prove_free(witness_ctx *x) {
  for (int m = 0; m < 3; m++) free(x->abc[m]);
  cz_density_free(&x->a_aux);
  cz_density_free(&x->b_aux);
  cz_density_free(&x->b_input);
}

cz_err cz_post_witness(const cz_merkle_shape *tree, size_t sector_leaves, size_t n_sectors,
                       size_t n_challenges, const cz_post_slot *sectors, cz_cs_kind kind,
                       unsigned n_threads, cz_assignment *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  if (kind != CZ_CS_WITNESS && kind != CZ_CS_PROVE)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "kind: WITNESS or PROVE");
  cz_err e =
      cz_post_check_sectors(tree, sector_leaves, n_sectors, n_challenges, sectors, msg, msg_len);
  if (e != CZ_OK) return e;
  witness_ctx *x = calloc(1, sizeof *x);
  if (!x) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  *x = (witness_ctx){.tree = tree, .leaves = sector_leaves, .n_sectors = n_sectors,
                     .n_challenges = n_challenges, .sectors = sectors, .kind = kind};
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
  size_t n_con = n_sectors * x->con_per + (kind == CZ_CS_PROVE ? n_in : 0);
  if (e == CZ_OK && (n_aux / n_sectors != x->aux_per || n_aux > SIZE_MAX / sizeof(cz_fr) ||
                     n_con / n_sectors < x->con_per || n_con > SIZE_MAX / sizeof(cz_fr)))
    e = CZ_ERR_NOMEM;
  if (e == CZ_OK) {
    /* First touch dominates the system time: 12.6 s of 29.6 s CPU for the
     * 32 GiB partition, a third of it zeroing fresh huge pages (perf); 4 KiB
     * pages (malloc) measured no better (14.5 s). */
    x->inputs = cz_huge_alloc(n_in * sizeof(cz_fr));
    x->aux = cz_huge_alloc((n_aux ? n_aux : 1) * sizeof(cz_fr));
    if (!x->inputs || !x->aux) e = CZ_ERR_NOMEM;
    if (e == CZ_OK && kind == CZ_CS_PROVE && !prove_alloc(x, n_in, n_aux, n_con)) e = CZ_ERR_NOMEM;
  }
  if (e == CZ_OK) {
    x->inputs[0] = CZ_FR_ONE;
    unsigned t = cz_parallel_threads(n_threads);
    size_t per = (n_sectors + t - 1) / t;
    /* A PROVE chunk also holds its LCs and a/b/c rows: count 4 rows'
     * worth of field elements per constraint. */
    size_t per_slot = x->aux_per + x->in_per + 1 + (kind == CZ_CS_PROVE ? 4 * x->con_per : 0);
    size_t cap = CHUNK_BYTES / (per_slot * sizeof(cz_fr));
    cap = cap < 1 ? 1 : cap > CHUNK_MAX ? CHUNK_MAX : cap;
    x->per_chunk = per < cap ? per : cap;
    size_t n_chunks = (n_sectors + x->per_chunk - 1) / x->per_chunk;
    cz_parallel_for(n_chunks, t, work, x);
    for (unsigned w = 0; w < CZ_PARALLEL_MAX_THREADS && e == CZ_OK; w++) e = x->err[w];
  }
  if (e == CZ_OK) {
    out->n_inputs = n_in;
    out->n_aux = n_aux;
    out->n_constraints = n_con;
    out->inputs = x->inputs;
    out->aux = x->aux;
    if (kind == CZ_CS_PROVE) {
      out->a = x->abc[0];
      out->b = x->abc[1];
      out->c = x->abc[2];
      density_count(&x->a_aux);
      density_count(&x->b_aux);
      density_count(&x->b_input);
      out->a_aux = x->a_aux;
      out->b_aux = x->b_aux;
      out->b_input = x->b_input;
    }
  } else {
    free(x->inputs);
    free(x->aux);
    prove_free(x);
    cz_msg(msg, msg_len, "%s", e == CZ_ERR_NOMEM ? "out of memory" : "synthesis failed");
  }
  free(x);
  return e;
}
