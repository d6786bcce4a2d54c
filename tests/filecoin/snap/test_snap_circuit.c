/* The SnapDeals circuit (snap_circuit.c): its size against rust-fil-proofs'
 * own assertions (storage-proofs-update 87348a74):
 *   - tests/circuit.rs test_empty_sector_update_circuit_{1,2,4,8,16}kib:
 *     1,248,389 (1 KiB, 8-4-0), 1,705,039 (2 KiB, 8-0-0), 2,165,109
 *     (4 KiB, 8-2-0), 2,620,359 (8 KiB, 8-4-0), 6,300,021 (16 KiB, 8-8-0,
 *     2 partitions), counted by TestConstraintSystem, which (as our COUNT)
 *     appends no input constraints;
 *   - gadgets.rs test_gen_challenge_bits_gadget: 568 constraints for every
 *     size up to 16 MiB, 4,544 for 512 MiB, 5,680 for 32 and 64 GiB;
 *   - circuit.rs PublicInputs::to_vec: 4 public inputs, 5 with ONE. */
#include <string.h>

#include "check.h"
#include "cuzk/snap_circuit.h"

static void test_counts(void) {
  static const struct {
    uint64_t nodes;
    size_t constraints;
  } want[] = {
      {1 << 5, 1248389}, {1 << 6, 1705039}, {1 << 7, 2165109}, {1 << 8, 2620359}, {1 << 9, 6300021},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cz_snap_shape s;
    CHECK(cz_snap_shape_of(want[i].nodes, &s));
    cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
    CHECK(cz_snap_circuit(cs, &s, NULL, NULL) == CZ_OK);
    CHECK(cz_cs_finish(cs) == CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs), want[i].constraints);
    CHECK_EQ_INT(cz_cs_num_inputs(cs), CZ_SNAP_PUBLIC_INPUTS + 1);
    printf("snap %llu nodes: %zu constraints, %zu inputs, %zu aux\n",
           (unsigned long long)want[i].nodes, cz_cs_num_constraints(cs), cz_cs_num_inputs(cs),
           cz_cs_num_aux(cs));
    cz_cs_free(cs);
  }
}

static void test_gen_challenge_bits(void) {
  static const struct {
    uint64_t nodes;
    size_t constraints;
  } want[] = {
      {1 << 5, 568},   {1 << 6, 568},      {1 << 7, 568},      {1 << 8, 568},
      {1 << 9, 568},   {1 << 10, 568},     {1 << 18, 568},     {1 << 19, 568},
      {1 << 24, 4544}, {1ull << 30, 5680}, {1ull << 31, 5680},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    cz_snap_shape s;
    CHECK(cz_snap_shape_of(want[i].nodes, &s));
    unsigned bits = 0, pb = 0;
    while ((1ull << bits) < s.nodes) bits++;
    while ((1u << pb) < s.partitions) pb++;
    cz_cs *cs = cz_cs_new(CZ_CS_COUNT, NULL);
    cz_anum comm_r_new, k;
    CHECK(cz_anum_alloc(cs, &comm_r_new, NULL) == CZ_OK);
    CHECK(cz_anum_alloc(cs, &k, NULL) == CZ_OK);
    size_t before = cz_cs_num_constraints(cs);
    cz_abit out[86 * 31];
    CHECK(cz_snap_gen_challenge_bits(cs, &comm_r_new, &k, s.challenges, bits - pb, out) == CZ_OK);
    CHECK_EQ_INT(cz_cs_num_constraints(cs) - before, want[i].constraints);
    cz_cs_free(cs);
  }
}

int main(void) {
  test_counts();
  test_gen_challenge_bits();
  return check_report("test_snap_circuit");
}
