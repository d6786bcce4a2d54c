/* KEYGEN evaluated at a point (cz_cs_new_qap, cuzk/cs.h): instead of the
 * A, B, C columns, each variable's u(x), v(x), w(x) are accumulated as the
 * constraints arrive, so a setup never holds the columns.
 *
 * Constraint j contributes coeff * L_j(x) to the variable of each of its
 * terms, L_j the Lagrange basis of the domain of n = 2^k points:
 *   L_j(x) = (x^n - 1) / n * omega^j / (x - omega^j),
 * which is exactly what the inverse FFT of the powers of x gives (the sum
 * (1/n) sum_i x^i omega^(-ij) is that geometric series), so the values are
 * bellperson's. They are made QAP_BLOCK rows at a time with one batched
 * inversion, in row order (rows arrive in order). */
#include <stdlib.h>
#include <string.h>
#include "cs/cs_internal.h"
#include "util/msg.h"

#define QAP_BLOCK 4096
#define AUX_KEY_BASE ((uint64_t)CZ_VAR_AUX << 32)

struct cz_qap_state {
  cz_qap_config cfg;
  size_t n;                 /* domain size */
  cz_fr c;                  /* (x^n - 1) / n */
  cz_fr omega, omega_block; /* omega, omega^QAP_BLOCK */
  cz_fr om_next;            /* omega^(start of the next block) */
  size_t block_end;         /* rows [block_end - QAP_BLOCK, block_end) are in lag */
  cz_fr lag[QAP_BLOCK], tmp[QAP_BLOCK];
  cz_fr *uvw[3];    /* n_inputs + n_aux each */
  cz_density nz[2]; /* A, B */
};

static unsigned log2_ceil(size_t m) {
  unsigned k = 0;
  while (((size_t)1 << k) < m) k++;
  return k;
}

cz_err cz_qap_domain(size_t n_constraints, size_t *n) {
  unsigned k = log2_ceil(n_constraints ? n_constraints : 1);
  if (k > 31) return CZ_ERR_INVALID_ARG;
  *n = (size_t)1 << k;
  return CZ_OK;
}

static cz_err qap_init(struct cz_qap_state *q, const cz_qap_config *cfg, char *msg,
                       size_t msg_len) {
  q->cfg = *cfg;
  size_t nv = cfg->n_inputs + cfg->n_aux;
  if (!cfg->n_inputs || !cfg->n_constraints || nv > UINT32_MAX)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "QAP counts out of range");
  if (cz_qap_domain(cfg->n_constraints, &q->n) != CZ_OK)
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "no evaluation domain for %zu constraints",
                      cfg->n_constraints);
  cz_fr_root_of_unity(&q->omega, log2_ceil(q->n));
  uint64_t e = q->n, eb = QAP_BLOCK;
  cz_fr zt, n_fr, n_inv;
  cz_fr_pow(&zt, &cfg->x, &e, 1);
  cz_fr_sub(&zt, &zt, &CZ_FR_ONE);
  if (cz_fr_is_zero(&zt))
    return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG,
                      "the point lies in the evaluation domain (Z(x) = 0)");
  cz_fr_from_u64(&n_fr, q->n);
  cz_fr_inv(&n_inv, &n_fr);
  cz_fr_mul(&q->c, &zt, &n_inv);
  cz_fr_pow(&q->omega_block, &q->omega, &eb, 1);
  q->om_next = CZ_FR_ONE;
  for (int i = 0; i < 3; i++)
    if (!(q->uvw[i] = calloc(nv ? nv : 1, sizeof(cz_fr))))
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory for %zu evaluations", nv);
  for (int i = 0; i < 2; i++) {
    q->nz[i].n = nv;
    if (!(q->nz[i].bits = calloc((nv + 63) / 64 + 1, sizeof(uint64_t))))
      return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  }
  return CZ_OK;
}

void cz_qap_state_free(struct cz_qap_state *q) {
  if (!q) return;
  for (int i = 0; i < 3; i++) free(q->uvw[i]);
  for (int i = 0; i < 2; i++) free(q->nz[i].bits);
  free(q);
}

cz_err cz_cs_new_qap(cz_cs **out, const cz_qap_config *cfg, char *msg, size_t msg_len) {
  *out = NULL;
  struct cz_qap_state *q = calloc(1, sizeof *q);
  if (!q) return cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  cz_err e = qap_init(q, cfg, msg, msg_len);
  cz_cs *cs = e == CZ_OK ? cz_cs_new(CZ_CS_KEYGEN, NULL) : NULL;
  if (e == CZ_OK && !cs) e = cz_msg_err(msg, msg_len, CZ_ERR_NOMEM, "out of memory");
  if (e != CZ_OK) {
    cz_qap_state_free(q);
    return e;
  }
  cs->qap = q;
  *out = cs;
  return CZ_OK;
}

/* L_j(x) for the next QAP_BLOCK rows. */
static void qap_next_block(struct cz_qap_state *q) {
  cz_fr om = q->om_next;
  for (size_t i = 0; i < QAP_BLOCK; i++) {
    q->lag[i] = om; /* omega^j */
    cz_fr_sub(&q->tmp[i], &q->cfg.x, &om);
    cz_fr_mul(&om, &om, &q->omega);
  }
  /* x - omega^j is never zero: Z(x) != 0. Past the domain (a row
   * beyond the count is refused before it is used) the values repeat. */
  cz_fr_batch_inv(q->tmp, q->tmp, QAP_BLOCK);
  for (size_t i = 0; i < QAP_BLOCK; i++) {
    cz_fr_mul(&q->lag[i], &q->lag[i], &q->tmp[i]);
    cz_fr_mul(&q->lag[i], &q->lag[i], &q->c);
  }
  cz_fr_mul(&q->om_next, &q->om_next, &q->omega_block);
  q->block_end += QAP_BLOCK;
}

static bool qap_add_lc(cz_cs *cs, int m, const cz_lc *lc, const cz_fr *l) {
  struct cz_qap_state *q = cs->qap;
  cz_fr *acc = q->uvw[m];
  for (uint32_t i = 0; i < lc->len; i++) {
    uint64_t key = lc->t[i].key;
    size_t col;
    if (key < AUX_KEY_BASE) {
      if (key >= q->cfg.n_inputs) goto beyond;
      col = (size_t)key;
    } else {
      if (key - AUX_KEY_BASE >= q->cfg.n_aux) goto beyond;
      col = q->cfg.n_inputs + (size_t)(key - AUX_KEY_BASE);
    }
    const cz_fr *k = &lc->t[i].coeff;
    if (fr_is_zero_inl(k)) continue; /* contributes nothing; no density */
    if (fr_is_one_inl(k)) {
      fr_add_inl(&acc[col], &acc[col], l);
    } else {
      cz_fr t;
      cz_fr_mul(&t, k, l);
      fr_add_inl(&acc[col], &acc[col], &t);
    }
    if (m < 2) q->nz[m].bits[col / 64] |= 1ull << (col % 64);
  }
  return true;
beyond:
  cz_cs_fail(cs, CZ_ERR_INVALID_ARG,
             "constraint %zu uses more variables than counted (%zu inputs, %zu aux)",
             cs->n_constraints, q->cfg.n_inputs, q->cfg.n_aux);
  return false;
}

bool cz_qap_push(cz_cs *cs, size_t row, const cz_lc *a, const cz_lc *b, const cz_lc *c) {
  struct cz_qap_state *q = cs->qap;
  if (row >= q->cfg.n_constraints) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG, "constraint %zu: more constraints than counted (%zu)", row,
               q->cfg.n_constraints);
    return false;
  }
  while (row >= q->block_end) qap_next_block(q);
  const cz_fr *l = &q->lag[row - (q->block_end - QAP_BLOCK)];
  return qap_add_lc(cs, 0, a, l) && qap_add_lc(cs, 1, b, l) && qap_add_lc(cs, 2, c, l);
}

static size_t popcount_bits(const cz_density *d) {
  size_t n = 0;
  for (size_t i = 0; i < (d->n + 63) / 64; i++) n += (size_t)__builtin_popcountll(d->bits[i]);
  return n;
}

cz_err cz_cs_take_qap(cz_cs *cs, cz_qap_evals *out) {
  memset(out, 0, sizeof *out);
  struct cz_qap_state *q = cs->qap;
  if (!q || !cs->finished || cs->taken || cs->err) return CZ_ERR_INVALID_ARG;
  if (cs->n_inputs != q->cfg.n_inputs || cs->n_aux != q->cfg.n_aux ||
      cs->n_constraints != q->cfg.n_constraints) {
    cz_cs_fail(cs, CZ_ERR_INVALID_ARG,
               "the circuit has %zu inputs, %zu aux, %zu constraints; %zu, %zu, %zu were counted",
               cs->n_inputs, cs->n_aux, cs->n_constraints, q->cfg.n_inputs, q->cfg.n_aux,
               q->cfg.n_constraints);
    return CZ_ERR_INVALID_ARG;
  }
  out->n_inputs = q->cfg.n_inputs;
  out->n_aux = q->cfg.n_aux;
  out->n_constraints = q->cfg.n_constraints;
  out->domain = q->n;
  out->u = q->uvw[0], out->v = q->uvw[1], out->w = q->uvw[2];
  out->a_nz = q->nz[0], out->b_nz = q->nz[1];
  out->a_nz.count = popcount_bits(&out->a_nz);
  out->b_nz.count = popcount_bits(&out->b_nz);
  memset(q->uvw, 0, sizeof q->uvw);
  memset(q->nz, 0, sizeof q->nz);
  cs->taken = true;
  return CZ_OK;
}

void cz_qap_evals_free(cz_qap_evals *e) {
  if (!e) return;
  free(e->u), free(e->v), free(e->w);
  free(e->a_nz.bits), free(e->b_nz.bits);
  memset(e, 0, sizeof *e);
}
