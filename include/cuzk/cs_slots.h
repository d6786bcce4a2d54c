/* Layer: cs */
/* Parallel synthesis of circuits made of a header and slots of one shape
 * (src/cs/cs_slots.c): bellperson's synthesize_extendable, for PROVE and
 * WITNESS runs.
 *
 * Filecoin's circuits are a short header (replica id and commitments; a
 * PoSt has none but ONE) followed by n slots that each allocate the same
 * numbers of inputs and aux and enforce the same number of constraints: a
 * PoRep partition's challenges, a SnapDeals partition's challenges, a
 * PoSt's sector slots. So slot i's variables and rows sit at fixed offsets
 * of the serial assignment, and slots can be synthesized on all threads at
 * once, each into its own constraint system that starts from the header,
 * and merged at those offsets: input and aux values, a/b/c rows (written in
 * place), and density bits (ORed in). The result equals the serial run
 * (cz_slots_run, cz_cs_finish, cz_cs_take_assignment) bit for bit, for any
 * thread budget. */
#ifndef CUZK_CS_SLOTS_H
#define CUZK_CS_SLOTS_H
#include <stddef.h>
#include "cuzk/cs.h"

/* A circuit as a header and n_slots slots. ctx is the circuit's own: what
 * it synthesizes from, and where header() leaves the handles (variables
 * with their values, never linear combinations) that the slots use.
 *  - header(cs, ctx): everything before slot 0 (cs has only ONE). Runs
 *    once, on one system. Returns cz_cs_error(cs) or its own error.
 *  - slot(cs, ctx, i): slot i, on a system that holds the header (and, in
 *    a serial run, slots 0..i-1). It may read ctx but not write it: slots
 *    run on many threads at once. It may use the header's variables and its
 *    own, never another slot's. Every slot must allocate and enforce as
 *    many as every other; the parallel run checks that and refuses a
 *    circuit that does not (CZ_ERR_INVALID_ARG: a circuit bug).
 * Errors in msg name the slot ("slot 3: ..."), with the system's message. */
typedef struct {
  size_t n_slots;
  cz_err (*header)(cz_cs *cs, void *ctx);
  cz_err (*slot)(cz_cs *cs, const void *ctx, size_t i);
  void *ctx;
} cz_slotted_circuit;

/* The serial run on cs (any mode): header, then slots 0 .. n_slots - 1 in
 * order, stopping at the first error. Does not finish cs. */
CZ_MUST_CHECK cz_err cz_slots_run(cz_cs *cs, const cz_slotted_circuit *c, char *msg,
                                  size_t msg_len);

/* Synthesize c as a finished PROVE or WITNESS run would, its slots spread
 * over n_threads (0 = all online cores; the budget is also capped at the
 * number of slots). cfg: the LC layout of every system (NULL = default;
 * hints are ignored: the sizes are counted first, from the header and one
 * slot). *out then equals what cz_slots_run + cz_cs_finish +
 * cz_cs_take_assignment give, bit for bit, and owns its buffers (free with
 * cz_assignment_free). Errors: CZ_ERR_INVALID_ARG (another mode, slots of
 * different shapes, a slot using another slot's variable, or the circuit's
 * own), CZ_ERR_NOMEM; *out is zeroed and msg says which slot. */
CZ_MUST_CHECK cz_err cz_slots_synthesize(cz_cs_mode mode, const cz_cs_config *cfg,
                                         const cz_slotted_circuit *c, unsigned n_threads,
                                         cz_assignment *out, char *msg, size_t msg_len);

/* The recorded shape of c (cz_pce), tiled when its slots repeat: the header
 * and slots 0, 1 and n_slots - 1 are recorded, and when the later two are
 * slot 0 again (the same rows and coefficients, their own variables
 * shifted, the header's the same) the shape keeps the header and slot 0
 * only, which cz_pce_eval repeats for every slot (a 32 GiB PoRep partition:
 * 1/18 of the rows). Otherwise (one slot, or slots that read different
 * header variables, as SnapDeals' challenges do) the whole circuit is
 * recorded. Either way cz_pce_eval of a WITNESS run equals the PROVE
 * assignment. Errors: the circuit's, CZ_ERR_NOMEM; msg says why; *out is
 * NULL then. */
CZ_MUST_CHECK cz_err cz_slots_record(const cz_slotted_circuit *c, cz_pce **out, char *msg,
                                     size_t msg_len);

#endif
