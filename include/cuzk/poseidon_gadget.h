/* Layer: gadgets */
/* The Poseidon circuit (neptune v11), over the native parameters of
 * cuzk/poseidon.h (src/gadgets/poseidon_gadget.c). PROVE, KEYGEN and RECORD
 * replay a per-arity template of the circuit, built once, thread-safely, on
 * first use (for the parameters of cz_poseidon_params_get); TEST and WITNESS
 * run the circuit code itself. Same constraints either way. Any number of
 * threads may synthesize at once, each on its own cs. */
#ifndef CUZK_POSEIDON_GADGET_H
#define CUZK_POSEIDON_GADGET_H
#include "cuzk/cs.h"
#include "cuzk/err.h"
#include "cuzk/gadgets.h"
#include "cuzk/poseidon.h"

/* The circuit: neptune v11 `circuit::poseidon_hash` (the "legacy" circuit,
 * which filecoin-hashers' PoseidonFunction::hash2_circuit and
 * hash_multi_leaf_circuit call), constraint for constraint and allocation
 * for allocation: 311, 377, 505 and 598 constraints for arities 2, 4, 8, 11.
 *
 * inputs are p->arity already-allocated variables (input or aux); their
 * values are read from cs when cz_cs_needs_values(cs). *out is the
 * allocated hash (its value is cz_cs_value(cs, *out)). Constraint names
 * follow neptune's namespaces under the caller's current namespace.
 * Returns the sticky error of cs, or CZ_ERR_INVALID_ARG (not sticky, nothing
 * done) when cs, p, inputs or out is NULL. */
CZ_MUST_CHECK cz_err cz_poseidon_gadget(cz_cs *cs, const cz_poseidon_params *p,
                                        const cz_var *inputs, cz_var *out);

/* The same circuit on AllocatedNums, as filecoin-hashers calls it
 * (neptune::circuit::poseidon_hash(cs, preimage, constants)): inputs are
 * p->arity AllocatedNums (values used only when cz_cs_needs_values), *out
 * the allocated hash with its value. Constraints, allocations and errors
 * are cz_poseidon_gadget's. */
CZ_MUST_CHECK cz_err cz_poseidon_hash_circuit(cz_cs *cs, const cz_poseidon_params *p,
                                              const cz_anum *inputs, cz_anum *out);

#endif
