/* bincode 1 reader and writer for filecoin-proofs' FallbackPoStSectorProof,
 * the bytes filecoin-ffi's generate_single_vanilla_proof returns and
 * generate_*_post_with_vanilla takes.
 *
 * bincode::serialize with the default options (filecoin/bincode/bincode.h).
 * The layout (field order from filecoin-proofs
 * types/mod.rs, storage-proofs-post fallback/vanilla.rs and
 * storage-proofs-core merkle/proof.rs):
 *
 *   FallbackPoStSectorProof { sector_id: u64, comm_r: [u8;32],
 *                             vanilla_proof: Proof }
 *   Proof        { sectors: Vec<SectorProof> }
 *   SectorProof  { inclusion_proofs: Vec<MerkleProof>, comm_c, comm_r_last }
 *   MerkleProof  (filecoin/bincode/bincode.h, shared with SnapDeals)
 *
 * The 32 GiB vector is 24,960
 * bytes: 48 + 8 + 10 x (4 + (8 + 9 x 240) + (8 + 240) + 64) + 64. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/post.h"
#include "filecoin/bincode/bincode.h"
#include "filecoin/post/post_internal.h"
#include "util/msg.h"

/* The fewest bytes a SectorProof can take, to bound a length before any
 * allocation: empty Vec + comm_c + comm_r_last. */
#define MIN_SECTOR_PROOF (8 + 32 + 32)

/* ---- Reader --------------------------------------------------------------- */

static cz_err get_sector_proof(cz_bc_reader *r, cz_post_sector_proof *s) {
  size_t old = cz_bc_push(r, ".inclusion_proofs");
  uint64_t n;
  cz_err e = cz_bc_len(r, CZ_BC_MIN_MERKLE, &n);
  if (e == CZ_OK && n) {
    s->inclusions = calloc((size_t)n, sizeof *s->inclusions);
    if (!s->inclusions)
      e = cz_bc_fail(r, CZ_ERR_NOMEM, "out of memory for %llu proofs", (unsigned long long)n);
  }
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = cz_bc_push(r, "[%llu]", (unsigned long long)i);
    e = cz_bc_merkle(r, CZ_MERKLE_POSEIDON, &s->inclusions[i]);
    if (e == CZ_OK) s->n_inclusions++;
    cz_bc_pop(r, o2);
  }
  cz_bc_pop(r, old);
  if (e == CZ_OK) e = cz_bc_fr(r, ".comm_c", &s->comm_c);
  if (e == CZ_OK) e = cz_bc_fr(r, ".comm_r_last", &s->comm_r_last);
  return e;
}

static cz_err get_vanilla(cz_bc_reader *r, void *out) {
  cz_post_vanilla *v = out;
  cz_err e;
  if ((e = cz_bc_u64(r, ".sector_id", &v->sector_id)) != CZ_OK) return e;
  if ((e = cz_bc_fr(r, ".comm_r", &v->comm_r)) != CZ_OK) return e;
  size_t old = cz_bc_push(r, ".sectors");
  uint64_t n;
  e = cz_bc_len(r, MIN_SECTOR_PROOF, &n);
  if (e == CZ_OK && n) {
    v->sectors = calloc((size_t)n, sizeof *v->sectors);
    if (!v->sectors)
      e = cz_bc_fail(r, CZ_ERR_NOMEM, "out of memory for %llu sectors", (unsigned long long)n);
  }
  /* n_sectors counts the entries begun, so that free releases a partly
   * read one too. */
  for (uint64_t i = 0; e == CZ_OK && i < n; i++) {
    size_t o2 = cz_bc_push(r, "[%llu]", (unsigned long long)i);
    v->n_sectors++;
    e = get_sector_proof(r, &v->sectors[i]);
    cz_bc_pop(r, o2);
  }
  cz_bc_pop(r, old);
  return e;
}

cz_err cz_post_vanilla_parse(cz_post_vanilla *out, const uint8_t *in, size_t len, size_t index,
                             char *msg, size_t msg_len) {
  if (msg && msg_len) msg[0] = 0;
  if (!out) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL output");
  memset(out, 0, sizeof *out);
  if (!in && len) return cz_msg_err(msg, msg_len, CZ_ERR_INVALID_ARG, "vanilla proof: NULL input");
  cz_err e = cz_bc_read_all(in, len, index, get_vanilla, out, msg, msg_len);
  if (e != CZ_OK) cz_post_vanilla_free(out);
  return e;
}

void cz_post_vanilla_free(cz_post_vanilla *v) {
  if (!v) return;
  for (size_t i = 0; v->sectors && i < v->n_sectors; i++) free(v->sectors[i].inclusions);
  free(v->sectors);
  memset(v, 0, sizeof *v);
}

/* ---- Writer --------------------------------------------------------------- */

size_t cz_post_vanilla_write(uint8_t *out, const cz_post_vanilla *v) {
  if (!v || (v->n_sectors && !v->sectors)) return 0;
  size_t total = 8 + 32 + 8;
  for (size_t s = 0; s < v->n_sectors; s++) {
    const cz_post_sector_proof *sp = &v->sectors[s];
    if (sp->n_inclusions && !sp->inclusions) return 0;
    total += 8 + 2 * 32;
    for (size_t i = 0; i < sp->n_inclusions; i++) {
      if (!cz_bc_merkle_ok(&sp->inclusions[i])) return 0;
      total += cz_bc_merkle_bytes(&sp->inclusions[i]);
    }
  }
  if (!out) return total;
  uint8_t *o = cz_bc_put_u64(out, v->sector_id);
  o = cz_bc_put_fr(o, &v->comm_r);
  o = cz_bc_put_u64(o, v->n_sectors);
  for (size_t s = 0; s < v->n_sectors; s++) {
    const cz_post_sector_proof *sp = &v->sectors[s];
    o = cz_bc_put_u64(o, sp->n_inclusions);
    for (size_t i = 0; i < sp->n_inclusions; i++) o = cz_bc_put_merkle(o, &sp->inclusions[i]);
    o = cz_bc_put_fr(o, &sp->comm_c);
    o = cz_bc_put_fr(o, &sp->comm_r_last);
  }
  return (size_t)(o - out);
}
