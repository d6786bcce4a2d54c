/* Proving one challenge from a sector view (porep_challenge.h). */
#include "filecoin/porep/porep_challenge.h"

static cz_err fill_column(const cz_porep_sector_view *v, uint32_t node, cz_porep_column *c) {
  c->index = node;
  cz_err e = CZ_OK; /* labels are < 2^254: a failure is a corrupt sector view */
  for (uint32_t l = 1; e == CZ_OK && l <= v->layers; l++)
    e = cz_fr_from_bytes_le(&c->rows[l - 1], v->label(v->ctx, l, node));
  if (e != CZ_OK) return e;
  return v->prove(v->ctx, CZ_POREP_TREE_C, node, &c->tree_c);
}

/* The 37 parent labels of `node` in `layer` as the label hash consumes them:
 * DRG parents from this layer, expander parents (layers > 1) from the one
 * below, repeated cyclically (prove_layers_generate's parents_data_full). */
static cz_err fill_labeling(const cz_porep_sector_view *v, uint32_t layer, uint32_t node,
                            const uint32_t *p, cz_porep_labeling *lp) {
  size_t n = layer == 1 ? CZ_SDR_BASE_DEGREE : CZ_SDR_DEGREE;
  cz_fr vals[CZ_SDR_DEGREE];
  cz_err e = CZ_OK;
  for (size_t i = 0; e == CZ_OK && i < n; i++)
    e = cz_fr_from_bytes_le(&vals[i],
                            v->label(v->ctx, i < CZ_SDR_BASE_DEGREE ? layer : layer - 1, p[i]));
  if (e != CZ_OK) return e;
  lp->layer = layer;
  lp->node = node;
  for (size_t j = 0; j < CZ_POREP_LABEL_PARENTS; j++) lp->parents[j] = vals[j % n];
  return CZ_OK;
}

cz_err cz_porep_prove_challenge(const cz_porep_sector_view *v, uint64_t challenge,
                                const uint32_t p[CZ_SDR_DEGREE], cz_porep_challenge_proof *pr) {
  uint32_t node = (uint32_t)challenge;
  pr->challenge = challenge;
  cz_err e = v->prove(v->ctx, CZ_POREP_TREE_D, node, &pr->tree_d);
  if (e == CZ_OK) e = v->prove(v->ctx, CZ_POREP_TREE_R, node, &pr->tree_r_last);
  if (e == CZ_OK) e = fill_column(v, node, &pr->c_x);
  for (int i = 0; e == CZ_OK && i < CZ_SDR_BASE_DEGREE; i++) e = fill_column(v, p[i], &pr->drg[i]);
  for (int i = 0; e == CZ_OK && i < CZ_SDR_EXP_DEGREE; i++)
    e = fill_column(v, p[CZ_SDR_BASE_DEGREE + i], &pr->exp[i]);
  if (e != CZ_OK) return e;
  for (uint32_t l = 1; e == CZ_OK && l <= v->layers; l++)
    e = fill_labeling(v, l, node, p, &pr->labeling[l - 1]);
  if (e != CZ_OK) return e;
  pr->encoding = pr->labeling[v->layers - 1]; /* the key is the last layer's label */
  return CZ_OK;
}
