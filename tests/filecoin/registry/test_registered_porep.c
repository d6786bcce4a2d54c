/* The registered seal proofs: numbers, names and configurations as
 * filecoin-proofs-api and filecoin-proofs' constants define them. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cuzk/porep.h"

int main(void) {
  static const char *sizes[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  for (uint32_t id = 0; id < 10; id++) {
    const cz_registered_porep *k = cz_registered_porep_by_id(id);
    CHECK(k != NULL);
    if (!k) continue;
    CHECK_EQ_INT(k->id, id);
    CHECK(cz_registered_porep_by_name(k->name) == k);
    CHECK(strcmp(k->size_name, sizes[id % 5]) == 0);
    CHECK(cz_registered_porep_by_sector_size(k->sector_size, id >= 5) == k);
    CHECK_EQ_INT(k->api, id >= 5 ? CZ_API_1_1_0 : CZ_API_1_0_0);
    CHECK(k->shape.nodes * 32 == k->sector_size);
    /* Every tree R shape must fit its node count. */
    CHECK(cz_merkle_shape_ok(&k->shape.tree_r, (size_t)k->shape.nodes));
    bool big = id % 5 >= 3;
    CHECK_EQ_INT(k->shape.layers, big ? 11 : 2);
    /* filecoin-proofs constants.rs: 176 interactive challenges for 32/64 GiB,
     * split over 10 partitions by parameters.rs select_challenges (div_ceil). */
    CHECK_EQ_INT(k->shape.challenges, big ? 18 : 2);
    CHECK_EQ_INT(k->partitions, big ? 10 : 1);
    cz_porep_config cfg;
    cz_registered_porep_config(k, &cfg);
    CHECK_EQ_INT(cfg.porep_id[0], id);
    CHECK_EQ_INT(cz_porep_public_input_count(&cfg), 3 + 18 * k->shape.challenges);
  }
  /* The feature registered proofs (filecoin-proofs-api registry.rs): porep_id = the
   * id, nonce 0; API 1.2.0; synthetic keeps V1_1's partitions and
   * challenges, NI-PoRep proves 13 x 2 = 26 or 126 x 18 = 2,268 >= 2,253
   * challenges; all share the V1 vanilla tag and the interactive circuit. */
  for (uint32_t id = 10; id < 20; id++) {
    const cz_registered_porep *k = cz_registered_porep_by_id(id),
                              *base = cz_registered_porep_by_id(5 + id % 5);
    bool ni = id >= 15, big = id % 5 >= 3;
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%s%s", sizes[id % 5],
             ni ? "V1_2_Feat_NonInteractivePoRep" : "V1_1_Feat_SyntheticPoRep");
    CHECK(k != NULL && k->id == id && !strcmp(k->name, name));
    if (!k) continue;
    CHECK(cz_registered_porep_by_name(name) == k);
    CHECK_EQ_INT(k->api, CZ_API_1_2_0);
    CHECK_EQ_INT(k->rule, ni ? CZ_POREP_NI : CZ_POREP_SYNTHETIC);
    CHECK_EQ_INT(k->sector_size, base->sector_size);
    CHECK_EQ_INT(k->shape.challenges, big ? 18 : 2);
    CHECK_EQ_INT(k->partitions, ni ? (big ? 126 : 13) : base->partitions);
    CHECK(!strcmp(k->vanilla_tag, base->vanilla_tag));
    char pn[256], bn[256];
    cz_porep_param_name(k, pn, sizeof pn);
    cz_porep_param_name(base, bn, sizeof bn);
    CHECK(!strcmp(pn, bn)); /* the same parameter file */
    cz_porep_config cfg;
    cz_registered_porep_config(k, &cfg);
    uint8_t want[32] = {(uint8_t)id};
    CHECK_MEM(cfg.porep_id, want, 32);
    CHECK_EQ_INT(cfg.rule, k->rule);
    CHECK_EQ_INT(cfg.partitions, k->partitions);
  }
  CHECK(cz_registered_porep_by_id(20) == NULL);
  CHECK(cz_registered_porep_by_sector_size(2048, true) == cz_registered_porep_by_id(5));
  CHECK(cz_registered_porep_by_name("StackedDrg2KiBV2") == NULL);
  CHECK(cz_registered_porep_by_sector_size(4096, true) == NULL);
  CHECK(strcmp(cz_registered_porep_by_id(8)->vanilla_tag, "StackedDrg32GiBV1") == 0);

  cz_porep_c1 c1;
  CHECK(cz_porep_c1_alloc(&c1, cz_registered_porep_by_id(3)) == CZ_OK);
  CHECK_EQ_INT(c1.n_partitions, 10);
  CHECK_EQ_INT(c1.n_challenges, 18);
  cz_porep_c1_free(&c1);
  CHECK(c1.proofs == NULL);
  cz_porep_c1_free(&c1);
  return check_report("registered_porep");
}
