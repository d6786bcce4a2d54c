/* The streaming setup (cuzk/params.h, cz_groth16_setup_stream): the same
 * parameters as cz_groth16_setup + cz_groth16_params_save, written vector
 * by vector in chunks of up to STREAM_CHUNK points (fixed-base multiplication of
 * the chunk's scalars into affine points, serialization, one write), so
 * that memory holds the evaluations (cz_qap_evals) and a few chunks, never
 * the key. */
#include <stdlib.h>
#include <string.h>
#include "cuzk/ntt.h"
#include "cuzk/parallel.h"
#include "cuzk/params.h"
#include "groth16/g16_internal.h"
#include "groth16/stream_file.h"

/* 2^18: fewer thread joins per vector (2^16 lost a fifth of the rate on a
 * loaded 2-core machine), 133 MB of buffers, small beside the evaluations. */
#define STREAM_CHUNK ((size_t)1 << 18)
#define G2_WEIGHT 3 /* as setup.c: a G2 multiplication counts as 3 G1 ones */

/* ---- evaluations ---------------------------------------------------------- */

typedef struct {
  cz_qap_evals *ev;
  const cz_fr *alpha, *beta, *gamma_inv, *delta_inv;
} ext_ctx;

/* w[i] = (beta u + alpha v + w) / (gamma or delta): the IC / L scalars. */
static void ext_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  ext_ctx *c = vctx;
  cz_qap_evals *ev = c->ev;
  for (size_t i = begin; i < end; i++) {
    cz_fr e, t;
    cz_fr_mul(&e, &ev->u[i], c->beta);
    cz_fr_mul(&t, &ev->v[i], c->alpha);
    cz_fr_add(&e, &e, &t);
    cz_fr_add(&e, &e, &ev->w[i]);
    cz_fr_mul(&ev->w[i], &e, i < ev->n_inputs ? c->gamma_inv : c->delta_inv);
  }
}

static bool bit(const cz_density *d, size_t i) { return (d->bits[i / 64] >> (i % 64)) & 1; }

/* setup.c's checks on the evaluations (same messages), and the a/b counts. */
static cz_err check_evals(const cz_qap_evals *ev, size_t *na, size_t *nb, char *msg,
                          size_t msg_len) {
  const size_t n_in = ev->n_inputs, nv = n_in + ev->n_aux;
  *na = *nb = 0;
  for (size_t i = 0; i < nv; i++) {
    bool az = cz_fr_is_zero(&ev->u[i]), bz = cz_fr_is_zero(&ev->v[i]);
    if ((i < n_in && az) || (bit(&ev->a_nz, i) && az) || (bit(&ev->b_nz, i) && bz))
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        "%s %zu: its %s column evaluates to zero at tau (degenerate toxic waste)",
                        i < n_in ? "input" : "aux", i < n_in ? i : i - n_in, az ? "A" : "B");
    *na += !az;
    *nb += !bz;
  }
  for (size_t i = 0; i < nv; i++)
    if (cz_fr_is_zero(&ev->w[i])) /* its IC / L point would be the identity */
      return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                        i < n_in ? "input %zu has an identity IC point"
                                 : "aux %zu is unconstrained (its L point is the identity)",
                        i < n_in ? i : i - n_in);
  return CZ_OK;
}

static cz_err toxic_fits(const cz_qap_evals *ev, const cz_fr *tau, char *msg, size_t msg_len) {
  cz_fr zt;
  uint64_t nn = ev->domain;
  cz_fr_pow(&zt, tau, &nn, 1);
  cz_fr_sub(&zt, &zt, &CZ_FR_ONE);
  if (cz_fr_is_zero(&zt))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "tau lies in the evaluation domain (Z(tau) = 0)");
  if (!ev->n_inputs || !ev->n_constraints || ev->domain < ev->n_constraints)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "QAP evaluations are malformed");
  return CZ_OK;
}

/* ---- streaming ------------------------------------------------------------ */

typedef struct {
  cz_atomic_file f;
  cz_g16_fixed_base_g1_tab t1;
  cz_g16_fixed_base_g2_tab t2;
  size_t chunk;     /* points per chunk, at most STREAM_CHUNK */
  cz_fr *k;         /* chunk scalars */
  cz_g1_affine *p1; /* chunk points */
  cz_g2_affine *p2;
  uint8_t *out; /* chunk encoded G2 points */
  unsigned n_threads;
  cz_progress_counter work;
  char *msg;
  size_t msg_len;
} streamer;

static cz_err put_count(streamer *s, size_t n) {
  uint8_t c[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
  return cz_atomic_write(&s->f, c, 4, s->msg, s->msg_len);
}

typedef struct {
  const streamer *s;
  bool g2;
} encode_ctx;

static void encode_worker(void *vctx, size_t begin, size_t end, unsigned worker) {
  (void)worker;
  const encode_ctx *c = vctx;
  for (size_t i = begin; i < end; i++) {
    if (c->g2) cz_g2_affine_serialize(c->s->out + i * CZ_G2_UNCOMPRESSED_BYTES, &c->s->p2[i]);
    else cz_g1_affine_serialize(c->s->out + i * CZ_G1_UNCOMPRESSED_BYTES, &c->s->p1[i]);
  }
}

/* k[0..m) times the generator of G1 (or G2), encoded (on the workers too)
 * and written. */
static cz_err put_points(streamer *s, const cz_fr *k, size_t m, bool g2) {
  cz_err e =
      g2 ? cz_g16_fixed_base_g2_tab_mul(&s->t2, s->p2, k, m, s->n_threads, &s->work, G2_WEIGHT)
         : cz_g16_fixed_base_g1_tab_mul(&s->t1, s->p1, k, m, s->n_threads, &s->work, 1);
  if (e != CZ_OK) {
    cz_atomic_abort(&s->f);
    return cz_msg_err(s->msg, s->msg_len, e, "out of memory for the fixed-base scratch");
  }
  encode_ctx ec = {s, g2};
  cz_parallel_for(m, s->n_threads, encode_worker, &ec);
  size_t sz = g2 ? CZ_G2_UNCOMPRESSED_BYTES : CZ_G1_UNCOMPRESSED_BYTES;
  return cz_atomic_write(&s->f, s->out, m * sz, s->msg, s->msg_len);
}

/* h: tau^i Z(tau) / delta, i < n - 1, made chunk by chunk. */
static cz_err put_h(streamer *s, size_t n_h, const cz_fr *tau, const cz_fr *coeff) {
  cz_err e = put_count(s, n_h);
  cz_fr cur = *coeff;
  for (size_t i = 0; e == CZ_OK && i < n_h; i += s->chunk) {
    size_t m = n_h - i < s->chunk ? n_h - i : s->chunk;
    for (size_t j = 0; j < m; j++) {
      s->k[j] = cur;
      cz_fr_mul(&cur, &cur, tau);
    }
    e = put_points(s, s->k, m, false);
  }
  return e;
}

/* The n entries of x, all of them (skip_zero false) or the non-zero ones
 * (count of them: cnt), as one vector. */
static cz_err put_vector(streamer *s, const cz_fr *x, size_t n, bool skip_zero, size_t cnt,
                         bool g2) {
  cz_err e = put_count(s, skip_zero ? cnt : n);
  if (!skip_zero) {
    for (size_t i = 0; e == CZ_OK && i < n; i += s->chunk)
      e = put_points(s, x + i, n - i < s->chunk ? n - i : s->chunk, g2);
    return e;
  }
  size_t m = 0;
  for (size_t i = 0; e == CZ_OK && i < n; i++) {
    if (cz_fr_is_zero(&x[i])) continue;
    s->k[m++] = x[i];
    if (m == s->chunk) e = put_points(s, s->k, m, g2), m = 0;
  }
  if (e == CZ_OK && m) e = put_points(s, s->k, m, g2);
  return e;
}

/* The vk with its IC points (ext scalars of the inputs), written. */
static cz_err put_vk(streamer *s, const cz_qap_evals *ev, const cz_groth16_toxic *t) {
  cz_groth16_vk vk;
  memset(&vk, 0, sizeof vk);
  cz_g16_setup_vk(&vk, t);
  vk.n_ic = ev->n_inputs;
  vk.ic = malloc(ev->n_inputs * sizeof *vk.ic);
  uint8_t *buf = NULL;
  cz_err e = vk.ic ? cz_g16_fixed_base_g1_tab_mul(&s->t1, vk.ic, ev->w, ev->n_inputs, s->n_threads,
                                                  &s->work, 1)
                   : CZ_ERR_NOMEM;
  size_t len = cz_groth16_vk_write(NULL, &vk, false);
  if (e == CZ_OK && !(buf = malloc(len))) e = CZ_ERR_NOMEM;
  if (e != CZ_OK) {
    cz_atomic_abort(&s->f);
    cz_msg(s->msg, s->msg_len, "out of memory for the verifying key");
  } else {
    cz_groth16_vk_write(buf, &vk, false);
    e = cz_atomic_write(&s->f, buf, len, s->msg, s->msg_len);
  }
  free(buf);
  cz_groth16_vk_free(&vk);
  return e;
}

/* The file's bytes for these counts (cuzk/params.h layout). */
static uint64_t file_bytes(size_t n_in, size_t n_h, size_t n_l, size_t na, size_t nb) {
  cz_groth16_vk vk;
  memset(&vk, 0, sizeof vk);
  vk.n_ic = n_in;
  uint64_t g1 = (uint64_t)n_h + n_l + na + nb;
  return cz_groth16_vk_write(NULL, &vk, false) + 5 * 4 + g1 * CZ_G1_UNCOMPRESSED_BYTES +
         (uint64_t)nb * CZ_G2_UNCOMPRESSED_BYTES;
}

static bool streamer_alloc(streamer *s, size_t n_g1, size_t nb, size_t chunk) {
  chunk = chunk ? chunk : STREAM_CHUNK;
  s->chunk = n_g1 < chunk ? (n_g1 ? n_g1 : 1) : chunk;
  s->k = malloc(s->chunk * sizeof *s->k);
  s->p1 = malloc(s->chunk * sizeof *s->p1);
  s->p2 = malloc(s->chunk * sizeof *s->p2);
  s->out = malloc(s->chunk * CZ_G2_UNCOMPRESSED_BYTES);
  if (!s->k || !s->p1 || !s->p2 || !s->out) return false;
  /* Windows for a chunk; one table serves every chunk of every vector. */
  unsigned w1 = cz_g16_fixed_base_pick_window(s->chunk);
  unsigned w2 = cz_g16_fixed_base_pick_window(nb < s->chunk ? (nb ? nb : 1) : s->chunk);
  return cz_g16_fixed_base_g1_tab_new(&s->t1, &CZ_G1_GENERATOR, w1) == CZ_OK &&
         cz_g16_fixed_base_g2_tab_new(&s->t2, &CZ_G2_GENERATOR, w2) == CZ_OK;
}

static void streamer_free(streamer *s) {
  free(s->k), free(s->p1), free(s->p2), free(s->out);
  cz_g16_fixed_base_g1_tab_free(&s->t1);
  cz_g16_fixed_base_g2_tab_free(&s->t2);
}

/* Every vector, in the file's order, then the rename. */
static cz_err stream_body(streamer *s, const cz_qap_evals *ev, const cz_groth16_toxic *t,
                          const cz_fr *coeff, size_t na, size_t nb) {
  const size_t n_in = ev->n_inputs;
  cz_err e = put_vk(s, ev, t);
  if (e == CZ_OK) e = put_h(s, ev->domain - 1, &t->tau, coeff);
  if (e == CZ_OK) e = put_vector(s, ev->w + n_in, ev->n_aux, false, 0, false);
  if (e == CZ_OK) e = put_vector(s, ev->u, n_in + ev->n_aux, true, na, false);
  if (e == CZ_OK) e = put_vector(s, ev->v, n_in + ev->n_aux, true, nb, false);
  if (e == CZ_OK) e = put_vector(s, ev->v, n_in + ev->n_aux, true, nb, true);
  if (e == CZ_OK) e = cz_atomic_commit(&s->f, s->msg, s->msg_len);
  return e;
}

cz_err cz_groth16_setup_stream(const char *path, cz_qap_evals *ev, const cz_groth16_toxic *t,
                               const cz_groth16_stream_opts *o, char *msg, size_t msg_len) {
  static const cz_groth16_stream_opts defaults;
  if (!o) o = &defaults;
  cz_msg(msg, msg_len, "%s", "");
  cz_fr gamma_inv, delta_inv, coeff;
  cz_err e = cz_g16_toxic_check(t, &gamma_inv, &delta_inv, msg, msg_len);
  if (e == CZ_OK) e = toxic_fits(ev, &t->tau, msg, msg_len);
  if (e != CZ_OK) return e;
  const size_t n_in = ev->n_inputs, nv = n_in + ev->n_aux;
  ext_ctx xc = {ev, &t->alpha, &t->beta, &gamma_inv, &delta_inv};
  cz_parallel_for(nv, o->n_threads, ext_worker, &xc);
  size_t na, nb;
  if ((e = check_evals(ev, &na, &nb, msg, msg_len)) != CZ_OK) return e;
  if (na > UINT32_MAX || nb > UINT32_MAX || ev->n_aux > UINT32_MAX || ev->domain > UINT32_MAX)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "a vector exceeds the u32 count field");
  /* coeff = Z(tau) / delta, the factor of every h point. */
  uint64_t nn = ev->domain;
  cz_fr_pow(&coeff, &t->tau, &nn, 1);
  cz_fr_sub(&coeff, &coeff, &CZ_FR_ONE);
  cz_fr_mul(&coeff, &coeff, &delta_inv);

  const size_t n_h = ev->domain - 1;
  const uint64_t total = file_bytes(n_in, n_h, ev->n_aux, na, nb);
  streamer s;
  memset(&s, 0, sizeof s);
  s.n_threads = o->n_threads, s.msg = msg, s.msg_len = msg_len;
  if ((e = cz_g16_stream_open(&s.f, path, total, o->keep_free, msg, msg_len)) != CZ_OK) return e;
  cz_progress_counter_init(&s.work, o->progress, "setup", "points",
                           (uint64_t)n_h + nv + na + (uint64_t)nb * (1 + G2_WEIGHT));
  if (!streamer_alloc(&s, n_h > nv ? n_h : nv, nb, o->chunk)) {
    cz_atomic_abort(&s.f);
    e = cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for the setup's chunks");
  } else {
    e = stream_body(&s, ev, t, &coeff, na, nb);
  }
  streamer_free(&s);
  return e;
}
