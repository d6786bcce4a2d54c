/* The provers' planning figures (cuzk/provers.h): how many constraints a
 * kind's circuit has, from its shape alone, for the memory budget and the
 * recorded-shape charge. Each is fitted to the circuits' real counts
 * (cuzk-bench circuit-info) and kept at or just above them, so that a job
 * is never charged less than it uses; test_planned_constraints holds them
 * to that at every registered size. */
#include "cuzk/merkle.h"
#include "cuzk/provers.h"

static unsigned log2_ceil(uint64_t n) {
  unsigned b = 0;
  while ((1ull << b) < n) b++;
  return b;
}

/* Per challenge: an SDR labelling per layer (about 526k), a SHA-256 tree-D
 * level and its tree-C/R Poseidon share per bit of the node index (48k),
 * and the column and encoding checks. Real: 2 KiB 2.69 M, 8 MiB 3.84 M,
 * 32 GiB 130.28 M; these are 0.02% to 0.12% above. */
uint64_t cz_porep_partition_constraints(const cz_registered_porep *k) {
  const cz_porep_shape *s = &k->shape;
  return (uint64_t)s->challenges *
         ((uint64_t)s->layers * 526400u + 48300u * log2_ceil(s->nodes) + 2200u);
}

/* Per sector slot the comm_r check (313 real, 320 planned), per challenge
 * a PoR: per path level about 530 for an arity-8 (or, by the same bound,
 * arity-4) Poseidon level and 314 for an arity-2 one. Real: 2 KiB Winning
 * 90,750 (this: +0.5%), 32 GiB Window 125.28 M, 64 GiB Window 129.89 M
 * (+0.01%). */
static uint64_t level_cost(unsigned arity) { return arity == 2 ? 314u : 530u; }

static uint64_t por_constraints(const cz_merkle_shape *t, uint64_t leaves) {
  uint64_t sub = t->sub_arity ? 1 : 0, top = t->top_arity ? 1 : 0;
  uint64_t base = cz_merkle_proof_levels(t, (size_t)leaves) - sub - top;
  return base * level_cost(t->base_arity) + sub * level_cost(t->sub_arity) +
         top * level_cost(t->top_arity) + 2u;
}

uint64_t cz_post_circuit_constraints(const cz_registered_post *k) {
  return (uint64_t)k->sector_count *
         (320u + k->challenge_count * por_constraints(&k->tree_r, k->sector_size / 32));
}

/* A SHA-256 tree-D hash (about 46k) per level from the challenged node up
 * to its apex leaf and per inner node of the apex tree, plus two Poseidon
 * tree-R paths (about 400 a level) per challenge. Real: 2 KiB 1.71 M,
 * 32 GiB 81.05 M; these are 0.2% to 0.9% above. */
uint64_t cz_snap_partition_constraints(const cz_snap_shape *s) {
  unsigned node_bits = log2_ceil(s->nodes), part_bits = log2_ceil(s->partitions),
           apex_bits = log2_ceil(s->apex_leaves);
  uint64_t sha = (uint64_t)s->challenges * (node_bits - part_bits - apex_bits) + s->apex_leaves - 1;
  uint64_t r_levels = cz_merkle_proof_levels(&s->tree_r, (size_t)s->nodes);
  return sha * 46000u + (uint64_t)s->challenges * 2u * r_levels * 400u;
}

/* The power of two at or above n: the H domain, which a and b get room for. */
static uint64_t domain(uint64_t n) {
  uint64_t d = 1;
  while (d < n) d <<= 1;
  return d;
}

/* A synthesized partition holds a and b to its m rows (32 bytes each per
 * row; their room up to the H domain is not touched yet), its packed
 * witness (2 bits per aux, 32 bytes for the few that are not bits: about
 * 3 bytes per constraint in PoRep, where aux ~ constraints), density bits
 * and inputs: 68 bytes per constraint in all (synth-only's peak at 32 GiB
 * is 66.5). The one being proved pads a and b to the domain and adds c for
 * H: 96 bytes per domain row in place of its 64 per constraint. That is its
 * peak: the NTT domain's twiddles are two small tables above 2^24, and
 * after H c is unmapped where it is large against the machine (a 32 GiB
 * PoRep partition on 24 GB: VmHWM 13.26 M KiB = 13.58 GB in H against
 * 13.41 GB here), so the MSMs hold a, b and the mapped key's slices, less.
 * A full witness value adds 32 bytes per partition in flight: 32 GiB
 * WindowPoSt measured 17.03 GB against 17.68 GB charged (with its paths). */
uint64_t cz_partition_mem_bytes(uint64_t constraints, uint64_t full_aux, uint64_t in_flight) {
  uint64_t d = domain(constraints);
  return in_flight * (68u * constraints + 32u * full_aux) + 96u * d - 64u * constraints;
}

/* A tiled shape keeps the header and one slot (about 29 bytes per
 * constraint of the slot: 32 GiB PoRep 206 MB for 130.28 M / 18, 2 KiB
 * 38.5 MB for 2.69 M / 2); a whole one A and B of every row (about 31
 * bytes a constraint; 46 charged). 1 MiB for the table and densities. */
uint64_t cz_shape_charge_bytes(uint64_t constraints, uint64_t tiles) {
  if (tiles > 1) return constraints / tiles * 32u + ((uint64_t)1 << 20);
  return constraints * 46u;
}
