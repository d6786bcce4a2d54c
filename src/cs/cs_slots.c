/* Parallel synthesis of header + slots circuits (cuzk/cs_slots.h).
 *
 * One leader system runs the header. A COUNT system that starts where the
 * header ended runs slot 0, which gives one slot's inputs, aux and rows
 * (once per slot function and header: later runs take them from a memo).
 * Then every worker forks the leader: a system holding a copy of the
 * header's values, whose own rows are windows of the result's a/b/c. For
 * each of its slots it rewinds to the header, synthesizes the slot (its
 * variables numbered as if it were slot 0: the same order, so the same
 * sums and the same bits), and merges: values copied to the slot's offset,
 * density bits ORed in (the header's at their place, the slot's shifted).
 * The input constraints (input_i * 0 = 0) are written last from the
 * inputs, as cz_cs_finish would make them: a = the input, b = c = 0. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "cuzk/cs_slots.h"
#include "cuzk/parallel.h"
#include "util/bigbuf.h"
#include "util/msg.h"

/* Where the header ends and how much one slot adds. */
typedef struct {
  size_t in, aux, con;
} cs_counts;

/* A worker's aux values that are neither 0 nor 1, in slot order: a run of
 * the result's list, with room for every aux of the worker's slots. */
typedef struct {
  cz_fr *v;
  size_t n;
} others_list;

typedef struct {
  const cz_slotted_circuit *c;
  const cz_cs *leader;
  cz_cs_mode mode;
  cz_cs_config cfg;
  cs_counts hdr, per;
  bool guessed;    /* per came from the memo, not from a count of this run */
  bool shape_miss; /* a slot's shape was not per's */
  unsigned n_threads;
  /* The result: values, rows (PROVE), densities (PROVE; bits ORed in). */
  cz_assignment *out;
  others_list hdr_others, *others; /* the header's, and one per worker */
  /* First failure: its slot, error and the system's message. */
  cz_err err;
  size_t err_slot;
  char err_msg[160];
  pthread_mutex_t err_lock;
} slots_run;

cz_err cz_slots_run(cz_cs *cs, const cz_slotted_circuit *c, char *msg, size_t msg_len) {
  cz_err e = c->header(cs, c->ctx);
  if (e != CZ_OK)
    return cz_msg_err(msg, msg_len, e, "header: %s",
                      *cz_cs_errmsg(cs) ? cz_cs_errmsg(cs) : cz_err_str(e));
  for (size_t i = 0; i < c->n_slots; i++)
    if ((e = c->slot(cs, c->ctx, i)) != CZ_OK)
      return cz_msg_err(msg, msg_len, e, "slot %zu: %s", i,
                        *cz_cs_errmsg(cs) ? cz_cs_errmsg(cs) : cz_err_str(e));
  return CZ_OK;
}

static void fail(slots_run *r, size_t slot, cz_err e, const char *why) {
  pthread_mutex_lock(&r->err_lock);
  if (r->err == CZ_OK || slot < r->err_slot) {
    r->err = e;
    r->err_slot = slot;
    snprintf(r->err_msg, sizeof r->err_msg, "%s", why && *why ? why : cz_err_str(e));
  }
  pthread_mutex_unlock(&r->err_lock);
}

/* ---- sizes ------------------------------------------------------------ */

/* One slot's counts: slot 0 on a COUNT system that starts at the header's. */
static cz_err count_slot(slots_run *r) {
  cz_cs *cnt = cz_cs_new(CZ_CS_COUNT, NULL);
  if (!cnt) return CZ_ERR_NOMEM;
  cnt->n_inputs = r->hdr.in;
  cnt->n_aux = r->hdr.aux;
  cnt->n_constraints = r->hdr.con;
  cz_err e = r->c->slot(cnt, r->c->ctx, 0);
  if (e == CZ_OK) {
    r->per.in = cnt->n_inputs - r->hdr.in;
    r->per.aux = cnt->n_aux - r->hdr.aux;
    r->per.con = cnt->n_constraints - r->hdr.con;
  } else {
    fail(r, 0, e, cz_cs_errmsg(cnt));
  }
  cz_cs_free(cnt);
  return e;
}

/* A slot's counts depend on the circuit's shape alone, and every partition
 * of a mode has the same: the first one's count serves the later ones
 * instead of a serial COUNT run each time (one slot of 18 at 32 GiB; with
 * as many threads as slots, a third of the wall time). The key is the slot
 * function and where the header ends. Two shapes under one key are caught
 * by the first slot's shape check, and the run starts again from a count. */
#define MEMO_SIZE 32
typedef struct {
  cz_err (*slot)(cz_cs *, const void *, size_t);
  cs_counts hdr, per;
} memo_entry;
static memo_entry memo[MEMO_SIZE];
static size_t memo_used;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static bool same_counts(const cs_counts *a, const cs_counts *b) {
  return a->in == b->in && a->aux == b->aux && a->con == b->con;
}

/* The remembered entry of r's key (memo_lock held), or NULL. */
static memo_entry *memo_find(const slots_run *r) {
  for (size_t i = 0; i < memo_used; i++)
    if (memo[i].slot == r->c->slot && same_counts(&memo[i].hdr, &r->hdr)) return &memo[i];
  return NULL;
}

static bool memo_get(slots_run *r) {
  pthread_mutex_lock(&memo_lock);
  const memo_entry *m = memo_find(r);
  if (m) r->per = m->per;
  pthread_mutex_unlock(&memo_lock);
  return m != NULL;
}

/* Remember r's counts (replacing its key's; the oldest goes when full). */
static void memo_put(const slots_run *r) {
  pthread_mutex_lock(&memo_lock);
  memo_entry *m = memo_find(r);
  if (!m) {
    if (memo_used == MEMO_SIZE) { /* full: the oldest goes */
      memmove(memo, memo + 1, (MEMO_SIZE - 1) * sizeof *memo);
      memo_used--;
    }
    m = &memo[memo_used++];
  }
  *m = (memo_entry){r->c->slot, r->hdr, r->per};
  pthread_mutex_unlock(&memo_lock);
}

/* n * per + hdr without overflow. */
static bool total(size_t hdr, size_t per, size_t n, size_t *out) {
  if (per && n > (SIZE_MAX - hdr) / per) return false;
  *out = hdr + n * per;
  return true;
}

static bool dens_new(cz_density *d, size_t n) {
  d->n = n;
  d->count = 0;
  if (!(d->bits = cz_pool_take((n / 64 + 1) * sizeof *d->bits))) return false;
  memset(d->bits, 0, (n / 64 + 1) * sizeof *d->bits);
  return true;
}

/* The result's buffers, with the header's values and rows in place (its
 * aux values are packed by finish_result). */
static cz_err alloc_result(slots_run *r) {
  cz_assignment *o = r->out;
  const cz_cs *L = r->leader;
  size_t body;
  if (!total(r->hdr.in, r->per.in, r->c->n_slots, &o->n_inputs) ||
      !total(r->hdr.aux, r->per.aux, r->c->n_slots, &o->n_aux) ||
      !total(r->hdr.con, r->per.con, r->c->n_slots, &body) || o->n_inputs > UINT32_MAX ||
      o->n_aux > UINT32_MAX)
    return CZ_ERR_NOMEM;
  bool prove = r->mode == CZ_CS_PROVE;
  o->n_constraints = body + (prove ? o->n_inputs : 0);
  if (!(o->inputs = cz_pool_take(o->n_inputs * sizeof(cz_fr)))) return CZ_ERR_NOMEM;
  memcpy(o->inputs, L->inputs, r->hdr.in * sizeof(cz_fr));
  /* Room for every aux in the list: only what is written is faulted in. */
  cz_err e = cz_fr_packed_alloc(&o->aux, o->n_aux, o->n_aux);
  if (e != CZ_OK || !prove) return e;
  /* Room for the H domain, so that the prover transforms in place. */
  size_t room = cz_abc_room(o->n_constraints);
  if (room > SIZE_MAX / sizeof(cz_fr)) return CZ_ERR_NOMEM;
  cz_fr **ab[2] = {&o->a, &o->b};
  cz_fr *const src[2] = {L->a, L->b};
  for (int m = 0; m < 2; m++) {
    if (!(*ab[m] = cz_pool_take(room * sizeof(cz_fr)))) return CZ_ERR_NOMEM;
    if (r->hdr.con) memcpy(*ab[m], src[m], r->hdr.con * sizeof(cz_fr));
  }
  if (!dens_new(&o->a_aux, o->n_aux) || !dens_new(&o->b_aux, o->n_aux) ||
      !dens_new(&o->b_input, o->n_inputs))
    return CZ_ERR_NOMEM;
  return CZ_OK;
}

/* ---- merging ------------------------------------------------------------ */

/* A forked system's density (bits for the header's variables, then its
 * slot's) into the result: the header's in place, the slot's at base. */
static void merge_dens(cz_density *dst, const cz_dens_buf *src, size_t hdr, size_t per, size_t base,
                       uint64_t *tmp) {
  cz_bits_or_at(dst->bits, 0, src->d.bits, hdr);
  cz_bits_extract(tmp, src->d.bits, hdr, per);
  cz_bits_or_at(dst->bits, base, tmp, per);
}

/* Packs x[0 .. n) into the result's aux at bit base: its 0/1 bits built
 * in tmp (2 (n / 64 + 1) words) and ORed in, the other values appended to
 * list (room for n more). */
static void pack_into(cz_fr_packed *dst, size_t base, const cz_fr *x, size_t n, others_list *list,
                      uint64_t *tmp) {
  size_t words = n / 64 + 1;
  uint64_t *one = tmp, *other = tmp + words;
  memset(tmp, 0, 2 * words * sizeof *tmp);
  for (size_t i = 0; i < n; i++) {
    uint8_t k = cz_fr_class(&x[i]);
    if (k == CZ_CLS_OTHER) {
      list->v[list->n++] = x[i];
      other[i >> 6] |= (uint64_t)1 << (i & 63);
    } else {
      one[i >> 6] |= (uint64_t)k << (i & 63);
    }
  }
  cz_bits_or_at(dst->one, base, one, n);
  cz_bits_or_at(dst->other, base, other, n);
}

/* ---- workers -------------------------------------------------------------- */

typedef struct {
  cz_cs *cs;
  uint64_t *tmp; /* one slot's density bits, for merge_dens */
} fork_state;

/* *p (capacity *cap) replaced by a pool block of n elements. */
static bool take(void **p, size_t *cap, size_t n, size_t elem) {
  void *q = cz_pool_take((n ? n : 1) * elem);
  if (!q) return false;
  cz_pool_give(*p);
  *p = q;
  *cap = n ? n : 1;
  return true;
}

/* A system that holds the header as the leader left it, with room (pool
 * blocks, kept between partitions) for one slot's values and (PROVE)
 * density bits; rows are bound per slot. */
static cz_cs *fork_leader(const slots_run *r) {
  const cz_cs *L = r->leader;
  cz_cs_config cfg = r->cfg;
  cfg.hint_constraints = cfg.hint_aux = 0;
  cz_cs *f = cz_cs_new(r->mode, &cfg);
  if (!f) return NULL;
  size_t n_in = r->hdr.in + r->per.in, n_aux = r->hdr.aux + r->per.aux;
  bool ok = take((void **)&f->inputs, &f->cap_inputs, n_in, sizeof(cz_fr)) &&
            take((void **)&f->aux, &f->cap_aux, n_aux, sizeof(cz_fr));
  if (ok) {
    memcpy(f->inputs, L->inputs, r->hdr.in * sizeof(cz_fr));
    if (r->hdr.aux) memcpy(f->aux, L->aux, r->hdr.aux * sizeof(cz_fr)); /* no header: NULL */
  }
  if (ok && r->mode == CZ_CS_PROVE) {
    ok = take((void **)&f->cls_in, &f->cap_cls_in, n_in, 1) &&
         take((void **)&f->cls_aux, &f->cap_cls_aux, n_aux, 1) &&
         take((void **)&f->b_input.d.bits, &f->b_input.cap_words, n_in / 64 + 1, 8) &&
         take((void **)&f->a_aux.d.bits, &f->a_aux.cap_words, n_aux / 64 + 1, 8) &&
         take((void **)&f->b_aux.d.bits, &f->b_aux.cap_words, n_aux / 64 + 1, 8);
    if (ok) {
      memcpy(f->cls_in, L->cls_in, r->hdr.in);
      if (r->hdr.aux) memcpy(f->cls_aux, L->cls_aux, r->hdr.aux);
    }
    /* Its own a/b are dropped: rows go to the result (fork_bind). */
    cz_pool_give(f->a);
    cz_pool_give(f->b);
    f->a = f->b = NULL;
    f->cap_abc = 0;
  }
  if (!ok) {
    cz_cs_free(f);
    return NULL;
  }
  return f;
}

static void dens_rewind(cz_dens_buf *b, size_t n) {
  memset(b->d.bits, 0, b->cap_words * sizeof(uint64_t));
  b->d.n = n;
  b->d.count = 0;
}

/* Rewind f to the end of the header and point its rows at slot i's. */
static void fork_bind(const slots_run *r, cz_cs *f, size_t i) {
  f->n_inputs = r->hdr.in;
  f->n_aux = r->hdr.aux;
  f->n_constraints = r->hdr.con;
  if (r->mode != CZ_CS_PROVE) return;
  /* Row hdr.con + j of the fork is row hdr.con + i * per.con + j. */
  size_t shift = i * r->per.con;
  f->a = r->out->a + shift;
  f->b = r->out->b + shift;
  f->cap_abc = r->hdr.con + r->per.con;
  f->rows_fixed = true;
  dens_rewind(&f->b_input, r->hdr.in);
  dens_rewind(&f->a_aux, r->hdr.aux);
  dens_rewind(&f->b_aux, r->hdr.aux);
}

/* Slot i's values and density bits into the result. */
static void fork_merge(const slots_run *r, const cz_cs *f, size_t i, others_list *list,
                       uint64_t *tmp) {
  cz_assignment *o = r->out;
  size_t in_base = r->hdr.in + i * r->per.in, aux_base = r->hdr.aux + i * r->per.aux;
  memcpy(o->inputs + in_base, f->inputs + r->hdr.in, r->per.in * sizeof(cz_fr));
  pack_into(&o->aux, aux_base, f->aux + r->hdr.aux, r->per.aux, list, tmp);
  if (r->mode != CZ_CS_PROVE) return;
  merge_dens(&o->b_input, &f->b_input, r->hdr.in, r->per.in, in_base, tmp);
  merge_dens(&o->a_aux, &f->a_aux, r->hdr.aux, r->per.aux, aux_base, tmp);
  merge_dens(&o->b_aux, &f->b_aux, r->hdr.aux, r->per.aux, aux_base, tmp);
}

static cz_err fork_slot(slots_run *r, cz_cs *f, size_t i, others_list *list, uint64_t *tmp) {
  fork_bind(r, f, i);
  cz_err e = r->c->slot(f, r->c->ctx, i);
  if (e == CZ_OK) e = cz_cs_error(f);
  if (e != CZ_OK) {
    if (r->mode == CZ_CS_PROVE && f->n_constraints == f->cap_abc) /* more rows than per */
      __atomic_store_n(&r->shape_miss, true, __ATOMIC_RELAXED);
    fail(r, i, e, cz_cs_errmsg(f));
    return e;
  }
  if (f->n_inputs != r->hdr.in + r->per.in || f->n_aux != r->hdr.aux + r->per.aux ||
      f->n_constraints != r->hdr.con + r->per.con) {
    __atomic_store_n(&r->shape_miss, true, __ATOMIC_RELAXED);
    fail(r, i, CZ_ERR_INVALID_ARG, "its shape differs from slot 0's");
    return CZ_ERR_INVALID_ARG;
  }
  fork_merge(r, f, i, list, tmp);
  return CZ_OK;
}

static void work(void *p, size_t begin, size_t end, unsigned worker) {
  slots_run *r = p;
  cz_cs *f = fork_leader(r);
  size_t words = (r->per.aux > r->per.in ? r->per.aux : r->per.in) / 64 + 1;
  uint64_t *tmp = cz_pool_take(2 * words * sizeof *tmp);
  r->others[worker] = (others_list){r->out->aux.others + r->hdr.aux + begin * r->per.aux, 0};
  if (!f || !tmp) {
    fail(r, begin, CZ_ERR_NOMEM, "out of memory");
  } else {
    for (size_t i = begin; i < end && __atomic_load_n(&r->err, __ATOMIC_RELAXED) == CZ_OK; i++)
      if (fork_slot(r, f, i, &r->others[worker], tmp) != CZ_OK) break;
  }
  if (f) f->a = f->b = NULL; /* the result's, not f's */
  cz_cs_free(f);
  cz_pool_give(tmp);
}

/* ---- the whole run ---------------------------------------------------------- */

static void density_count(cz_density *d) {
  d->count = 0;
  for (size_t w = 0; w < (d->n + 63) / 64; w++)
    d->count += (size_t)__builtin_popcountll(d->bits[w]);
}

/* The workers' runs of others moved down behind the header's, in order
 * (each starts at or past where it goes: memmove), and the ranks. */
static bool finish_aux(slots_run *r, unsigned workers) {
  cz_fr_packed *v = &r->out->aux;
  size_t at = r->hdr_others.n;
  for (unsigned w = 0; w < workers; w++) {
    if (r->others[w].n) memmove(v->others + at, r->others[w].v, r->others[w].n * sizeof(cz_fr));
    at += r->others[w].n;
  }
  cz_fr_packed_rank_build(v);
  return v->n_other == at;
}

/* The input constraints, the header's density bits, and the counts. */
static void finish_rows(slots_run *r) {
  cz_assignment *o = r->out;
  const cz_cs *L = r->leader;
  size_t body = o->n_constraints - o->n_inputs;
  for (size_t k = 0; k < o->n_inputs; k++) {
    o->a[body + k] = o->inputs[k];
    o->b[body + k] = CZ_FR_ZERO;
  }
  cz_bits_or_at(o->b_input.bits, 0, L->b_input.d.bits, r->hdr.in);
  cz_bits_or_at(o->a_aux.bits, 0, L->a_aux.d.bits, r->hdr.aux);
  cz_bits_or_at(o->b_aux.bits, 0, L->b_aux.d.bits, r->hdr.aux);
  density_count(&o->b_input);
  density_count(&o->a_aux);
  density_count(&o->b_aux);
}

static cz_err run_slots(slots_run *r, unsigned n_threads, bool use_memo) {
  r->guessed = use_memo && memo_get(r);
  cz_err e = r->guessed ? CZ_OK : count_slot(r);
  if (e == CZ_OK && !r->guessed) memo_put(r);
  if (e == CZ_OK) e = alloc_result(r);
  if (e != CZ_OK) return e;
  unsigned workers = cz_parallel_workers(r->c->n_slots, n_threads);
  r->others = calloc(workers ? workers : 1, sizeof *r->others);
  uint64_t *tmp = cz_pool_take(2 * (r->hdr.aux / 64 + 1) * sizeof *tmp);
  r->hdr_others = (others_list){r->out->aux.others, 0};
  if (r->others && tmp) pack_into(&r->out->aux, 0, r->leader->aux, r->hdr.aux, &r->hdr_others, tmp);
  cz_pool_give(tmp);
  if (!r->others || !tmp) return CZ_ERR_NOMEM;
  cz_parallel_for(r->c->n_slots, n_threads, work, r);
  if (r->err != CZ_OK) return r->err;
  if (!finish_aux(r, workers)) return CZ_ERR_NOMEM;
  if (r->mode == CZ_CS_PROVE) finish_rows(r);
  return CZ_OK;
}

static void free_lists(slots_run *r) {
  free(r->others);
  r->others = NULL;
}

/* run_slots, and once more from a count when remembered counts were not
 * this circuit's (the first slot's shape check failed). */
static cz_err run_slots_checked(slots_run *r, unsigned n_threads) {
  cz_err e = run_slots(r, n_threads, true);
  if (e == CZ_OK || !r->guessed || !r->shape_miss) return e;
  cz_assignment_free(r->out); /* and zeroed */
  free_lists(r);
  r->err = CZ_OK, r->err_slot = 0, r->err_msg[0] = 0, r->shape_miss = false;
  return run_slots(r, n_threads, false);
}

/* ---- the recorded shape ---------------------------------------------------- */

/* Whether the rows recorded for the slot at position pos (after slot 0 at
 * position 0) are slot 0's with the slot's own variables pos slots on:
 * the same coefficients, the header's columns unchanged. */
static bool slot_repeats(const cz_recorder *rec, const cz_pce_tiling *t, size_t pos) {
  for (int mi = 0; mi < 2; mi++) {
    const cz_rec_mat *m = &rec->m[mi];
    size_t r0 = t->hdr_rows, rk = t->hdr_rows + pos * t->per_rows;
    if (m->ptr[r0 + t->per_rows] - m->ptr[r0] != m->ptr[rk + t->per_rows] - m->ptr[rk])
      return false;
    for (size_t k = 0; k < m->ptr[r0 + t->per_rows] - m->ptr[r0]; k++) {
      uint32_t c0 = m->col[m->ptr[r0] + k], ck = m->col[m->ptr[rk] + k];
      uint32_t idx = c0 & ~REC_INPUT_BIT;
      bool input = c0 & REC_INPUT_BIT;
      size_t own = input ? t->hdr_in : t->hdr_aux, step = input ? t->per_in : t->per_aux;
      uint64_t want = idx >= own ? idx + pos * step : idx;
      if (m->code[m->ptr[r0] + k] != m->code[m->ptr[rk] + k] || want != (ck & ~REC_INPUT_BIT) ||
          (ck & REC_INPUT_BIT) != (c0 & REC_INPUT_BIT))
        return false;
    }
  }
  return true;
}

/* The header, then slots 0, 1 and n - 1 (those that exist) on a RECORD
 * system, their counts and rows checked to repeat: *t is the tiling, or
 * has n_slots 0 when they do not. */
static cz_err record_probe(cz_cs *rec, const cz_slotted_circuit *c, cz_pce_tiling *t) {
  memset(t, 0, sizeof *t);
  cz_err e = c->header(rec, c->ctx);
  cs_counts hdr = {rec->n_inputs, rec->n_aux, rec->n_constraints};
  size_t probe[3] = {0, 1, c->n_slots - 1}, n_probe = c->n_slots > 2 ? 3 : 2;
  cs_counts at[4] = {hdr};
  for (size_t k = 0; k < n_probe && e == CZ_OK; k++) {
    e = c->slot(rec, c->ctx, probe[k]);
    if (e == CZ_OK) e = cz_cs_error(rec);
    at[k + 1] = (cs_counts){rec->n_inputs, rec->n_aux, rec->n_constraints};
  }
  if (e != CZ_OK) return e;
  *t = (cz_pce_tiling){
      c->n_slots,         hdr.con, hdr.in, hdr.aux, at[1].con - hdr.con, at[1].in - hdr.in,
      at[1].aux - hdr.aux};
  bool same = true;
  for (size_t k = 1; k < n_probe; k++)
    same &= at[k + 1].con - at[k].con == t->per_rows && at[k + 1].in - at[k].in == t->per_in &&
            at[k + 1].aux - at[k].aux == t->per_aux && slot_repeats(&rec->rec, t, k);
  if (!same) t->n_slots = 0;
  return cz_cs_finish(rec);
}

cz_err cz_slots_record(const cz_slotted_circuit *c, cz_pce **out, char *msg, size_t msg_len) {
  *out = NULL;
  cz_cs *rec = cz_cs_new(CZ_CS_RECORD, NULL);
  if (!rec) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_pce_tiling t = {0};
  cz_err e = c->n_slots >= 2 ? record_probe(rec, c, &t) : CZ_OK;
  if (e == CZ_OK && t.n_slots) {
    e = cz_pce_take_tiled(rec, &t, out);
  } else if (e == CZ_OK) { /* one slot, or slots that do not repeat: all of it */
    cz_cs_free(rec);
    rec = cz_cs_new(CZ_CS_RECORD, NULL);
    e = !rec ? CZ_ERR_NOMEM : cz_slots_run(rec, c, msg, msg_len);
    if (e == CZ_OK) e = cz_cs_finish(rec);
    if (e == CZ_OK) e = cz_cs_take_pce(rec, out);
  }
  if (e != CZ_OK && rec && *cz_cs_errmsg(rec)) cz_msg(msg, msg_len, "%s", cz_cs_errmsg(rec));
  else if (e != CZ_OK && (!msg || !*msg)) cz_msg(msg, msg_len, "%s", cz_err_str(e));
  cz_cs_free(rec);
  return e;
}

cz_err cz_slots_synthesize(cz_cs_mode mode, const cz_cs_config *cfg, const cz_slotted_circuit *c,
                           unsigned n_threads, cz_assignment *out, char *msg, size_t msg_len) {
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "out: missing");
  memset(out, 0, sizeof *out);
  if (!c || !c->header || !c->slot || (mode != CZ_CS_PROVE && mode != CZ_CS_WITNESS))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "mode: PROVE or WITNESS, with a circuit");
  slots_run r = {.c = c, .mode = mode, .out = out, .n_threads = n_threads};
  r.cfg = cfg ? *cfg : (cz_cs_config){CZ_LC_INLINE, 4, 0, 0};
  pthread_mutex_init(&r.err_lock, NULL);
  cz_cs *L = cz_cs_new(mode, &r.cfg);
  cz_err e = L ? c->header(L, c->ctx) : CZ_ERR_NOMEM;
  if (L && e == CZ_OK) e = cz_cs_error(L);
  if (e != CZ_OK) {
    cz_msg(msg, msg_len, "header: %s", L && *cz_cs_errmsg(L) ? cz_cs_errmsg(L) : cz_err_str(e));
  } else {
    r.leader = L;
    r.hdr = (cs_counts){L->n_inputs, L->n_aux, L->n_constraints};
    if (c->n_slots) e = run_slots_checked(&r, n_threads);
    else e = cz_cs_finish(L) == CZ_OK ? cz_cs_take_assignment(L, out) : cz_cs_error(L);
    if (e != CZ_OK && r.err != CZ_OK) cz_msg(msg, msg_len, "slot %zu: %s", r.err_slot, r.err_msg);
    else if (e != CZ_OK)
      cz_msg(msg, msg_len, "%s", e == CZ_ERR_NOMEM ? "out of memory" : cz_err_str(e));
  }
  if (e != CZ_OK) cz_assignment_free(out);
  free_lists(&r);
  cz_cs_free(L);
  pthread_mutex_destroy(&r.err_lock);
  return e;
}
