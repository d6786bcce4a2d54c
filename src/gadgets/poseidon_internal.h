/* Test hook of the Poseidon gadget. */
#ifndef CUZK_GADGETS_POSEIDON_INTERNAL_H
#define CUZK_GADGETS_POSEIDON_INTERNAL_H
#include <stdbool.h>

/* PROVE, KEYGEN and RECORD replay a per-arity constraint template (on by
 * default); off forces the generic code on every backend, so that tests can
 * compare the two. Not thread-safe: set it before synthesis starts. */
void cz_poseidon_gadget_set_templates(bool on);

#endif
