/* With CUZK_CS_NO_NAMES the naming macros cost nothing: their name
 * arguments are not evaluated, and even the TEST backend sees unnamed
 * constraints ("#<index>"). */
#define CUZK_CS_NO_NAMES
#include "check.h"
#include "cuzk/cs.h"

int main(void) {
  int evaluated = 0;
  cz_cs *cs = cz_cs_new(CZ_CS_TEST, NULL);
  cz_var x;
  cz_fr two;
  cz_fr_from_u64(&two, 2);
  CHECK(cz_cs_alloc(cs, &x, &two) == CZ_OK);
  cz_lc a, c;
  cz_lc_init(&a, cs);
  cz_lc_init(&c, cs);
  cz_lc_add(&a, x);
  cz_lc_add_term(&c, x, &two);
  CZ_PUSH_NS(cs, "ns %d", ++evaluated);
  CZ_ENFORCE(cs, &a, &a, &c, "sq %d", ++evaluated); /* 2 * 2 = 2 * 2 */
  CZ_POP_NS(cs);
  CZ_PUSH_NS(cs, "ns %d", ++evaluated);
  CZ_ENFORCE(cs, &a, &a, &a, "bad %d", ++evaluated); /* 2 * 2 != 2 */
  CZ_POP_NS(cs);
  CHECK_EQ_INT(evaluated, 0);
  CHECK_EQ_INT(cz_cs_finish(cs), CZ_OK);
  size_t i = 9;
  const char *n = cz_cs_which_is_unsatisfied(cs, &i);
  CHECK(n && !strcmp(n, "#1"));
  CHECK_EQ_INT(i, 1);
  cz_lc_free(&a);
  cz_lc_free(&c);
  cz_cs_free(cs);
  return check_report("test_cs_nonames");
}
