/* Layer: cs */
/* The R1CS constraint-system API: circuits are written once against it and
 * run on every backend (src/cs/: cs.c, cs_results.c, pce.c, spmv.c).
 * Semantics are bellpepper-core's ConstraintSystem as driven by bellperson
 * 0.26/0.27 (Filecoin's prover):
 *
 *  - Every system starts with input 0 = ONE (value 1). alloc / alloc_input
 *    number aux / input variables in call order: allocation order is a
 *    compatibility contract with the Filecoin parameter files.
 *  - enforce(a, b, c) adds the constraint a * b = c.
 *  - cz_cs_finish ends synthesis. The PROVE, KEYGEN and RECORD backends then
 *    append one constraint  input_i * 0 = 0  per input (ONE included), as
 *    bellperson's prover and generator do, so that real parameters fit.
 *    TEST, WITNESS and COUNT do not (bellpepper's TestConstraintSystem does not).
 *
 * Backends:
 *  - CZ_CS_PROVE:   bellperson's ProvingAssignment: input/aux values, the
 *                   a/b evaluations of every constraint (c is a * b, and
 *                   left to the prover: see cz_assignment), and the density
 *                   bitmaps a_aux, b_input, b_aux. A term counts towards a
 *                   density only when its coefficient is nonzero (bellperson
 *                   >= 0.26, the "zero coefficient" fix, PR #307), and only
 *                   in A (aux) and B (input and aux); C has no density.
 *  - CZ_CS_KEYGEN:  bellperson's KeypairAssembly: for each variable its A, B
 *                   and C columns, (constraint, coefficient) entries in
 *                   constraint order, zero coefficients kept as bellperson
 *                   does. Values passed to alloc are ignored (may be NULL).
 *  - CZ_CS_TEST:    bellpepper's TestConstraintSystem: keeps values and
 *                   constraints with their full names "ns/ns/name", reports
 *                   the first unsatisfied one, counts constraints and inputs.
 *  - CZ_CS_WITNESS: only input/aux values; enforce does nothing.
 *  - CZ_CS_RECORD:  builds the A, B, C matrices (CSR, one row per
 *                   constraint, zero coefficients dropped) and the densities
 *                   once per circuit shape, so that later proofs get a/b/c =
 *                   M * w from a WITNESS run (cz_r1cs_eval), bit-identical to
 *                   PROVE. Values are ignored (may be NULL).
 *  - CZ_CS_COUNT:   bellperson's BenchCS: only the numbers of inputs, aux
 *                   and constraints. Values are ignored (may be NULL) and
 *                   never computed, LCs are neither built nor stored
 *                   (cz_cs_needs_constraints and cz_cs_needs_values are
 *                   both false, so gadgets take their WITNESS path, which
 *                   must count every constraint anyway for cz_r1cs_eval).
 *                   Memory is constant in the circuit's size. finish
 *                   appends no input constraints (as TEST and BenchCS):
 *                   the count a PROVE / KEYGEN / RECORD run reports after
 *                   finish is num_constraints + num_inputs. enforce does
 *                   not read its LCs (no range check).
 *
 * Errors never abort: a failed call sets a sticky error (the first one
 * wins) that cz_cs_error / cz_cs_finish return; calls after an error are
 * ignored but still hand out variables (all the same unused index), so
 * synthesis code may check once at the end. A constraint system is used by
 * one thread at a time; its results, once taken, are plain data. */
#ifndef CUZK_CS_H
#define CUZK_CS_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/err.h"
#include "cuzk/fr.h"
#include "cuzk/fr_packed.h"
#include "cuzk/lc.h"

typedef enum {
  CZ_CS_PROVE = 0,
  CZ_CS_KEYGEN,
  CZ_CS_TEST,
  CZ_CS_WITNESS,
  CZ_CS_RECORD,
  CZ_CS_COUNT,
  CZ_CS_MODE_COUNT
} cz_cs_mode;

typedef struct cz_cs cz_cs;

typedef struct {
  cz_lc_layout lc_layout;            /* layout of LCs made by cz_lc_init(lc, cs) */
  unsigned lc_inline_n;              /* 1, 2 or 4 for CZ_LC_INLINE */
  size_t hint_constraints, hint_aux; /* expected sizes, to reserve (0: none) */
} cz_cs_config;

/* A bitmap over n variables (bit i = word i/64, bit i%64) with count = the
 * number of set bits: bellperson's DensityTracker. */
typedef struct {
  uint64_t *bits;
  size_t n, count;
} cz_density;

/* What a PROVE run produces (or a WITNESS run completed by cz_r1cs_eval).
 * Buffers are owned by the struct (pool blocks or malloc's, util/bigbuf.h:
 * release them with cz_assignment_free).
 *  - inputs: the input values, ONE first (Montgomery).
 *  - aux: the aux values, packed (cuzk/fr_packed.h): most are bits.
 *  - a, b: the evaluations of every constraint's A and B (NULL for
 *    WITNESS), with room for the prover's H domain (cz_abc_room).
 *  - c: NULL as synthesis leaves it. For a satisfying witness
 *    c_i = a_i * b_i (bellperson's input rows too: x * 0 = 0), so the
 *    prover computes c where it computes H instead of a queued partition
 *    holding it. A caller may set it (the C evaluations, n_constraints
 *    long, malloc's or a pool block); the prover then uses it as it is. */
typedef struct {
  size_t n_inputs, n_aux, n_constraints;
  cz_fr *inputs;
  cz_fr_packed aux;
  cz_fr *a, *b, *c;
  cz_density a_aux, b_input, b_aux;
} cz_assignment;

/* A compressed sparse matrix: major index (row for CSR, column for CSC)
 * m has entries ptr[m] .. ptr[m+1]-1, with minor index idx[] and value val[]. */
typedef struct {
  size_t n_major, n_minor;
  uint64_t *ptr; /* n_major + 1 */
  uint32_t *idx;
  cz_fr *val;
} cz_spmat;

/* RECORD output. Column j < n_inputs is input j, column n_inputs + j is
 * aux j. Rows include the trailing input constraints. */
typedef struct {
  size_t n_inputs, n_aux, n_constraints;
  cz_spmat a, b, c;                 /* CSR, n_constraints x (n_inputs + n_aux) */
  cz_density a_aux, b_input, b_aux; /* as PROVE would produce them */
} cz_r1cs;

/* KEYGEN output: CSC, one column per variable (inputs, then aux), rows =
 * constraint indices (trailing input constraints included), in order. */
typedef struct {
  size_t n_inputs, n_aux, n_constraints;
  cz_spmat at, bt, ct;
} cz_keygen_cols;

/* ---- KEYGEN evaluated at a point (src/cs/cs_qap.c) ---------------------
 * For a setup that never holds the KEYGEN columns: a KEYGEN system
 * (cz_cs_get_mode says CZ_CS_KEYGEN, so circuits take their KEYGEN paths)
 * whose enforce adds, for every term of constraint j, coeff * L_j(x) to
 * the term's variable in u (A), v (B) or w (C), L_j the Lagrange basis of
 * the domain of n = 2^k >= n_constraints points (the values bellperson's
 * inverse FFT of the powers of x gives). Memory: 3 x 32 bytes per
 * variable, nothing per constraint or term. The counts must be known first
 * (a COUNT run: its constraints plus its inputs, the input constraints that
 * finish appends). */
typedef struct {
  size_t n_inputs, n_aux, n_constraints; /* after finish, input rows included */
  cz_fr x;
} cz_qap_config;

/* The evaluations, inputs first, then aux (n_inputs + n_aux each), and
 * which columns of A and B hold a non-zero coefficient (count set). */
typedef struct {
  size_t n_inputs, n_aux, n_constraints, domain;
  cz_fr *u, *v, *w;
  cz_density a_nz, b_nz;
} cz_qap_evals;

/* *n = the domain size for m constraints (CZ_ERR_INVALID_ARG past 2^31). */
CZ_MUST_CHECK cz_err cz_qap_domain(size_t m, size_t *n);
/* A new system evaluating at cfg->x. CZ_ERR_INVALID_ARG (msg says which):
 * no input or constraint, over 2^32 variables or 2^31 constraints, x in the
 * domain (x^n = 1); CZ_ERR_NOMEM. Synthesis fails (sticky
 * CZ_ERR_INVALID_ARG) on a variable or constraint beyond the counts. Free
 * with cz_cs_free. */
CZ_MUST_CHECK cz_err cz_cs_new_qap(cz_cs **out, const cz_qap_config *cfg, char *msg,
                                   size_t msg_len);
/* After cz_cs_finish: move the evaluations out. CZ_ERR_INVALID_ARG when cs
 * is not such a system, unfinished, failed, taken, or its counts differ
 * from the configured ones (the domain would not be the circuit's; the
 * reason is then cz_cs_errmsg). Free with cz_qap_evals_free (NULL is fine). */
CZ_MUST_CHECK cz_err cz_cs_take_qap(cz_cs *cs, cz_qap_evals *out);
void cz_qap_evals_free(cz_qap_evals *e);

/* A new system of the given mode with ONE allocated; cfg NULL = defaults
 * (CZ_LC_INLINE with N = 4, the fastest safe layout measured by cuzk-bench
 * cs). Returns NULL when out of memory, mode is out of range or cfg is
 * invalid. Free with cz_cs_free (NULL is allowed), which also frees
 * whatever results were not taken. */
cz_cs *cz_cs_new(cz_cs_mode mode, const cz_cs_config *cfg);
void cz_cs_free(cz_cs *cs);
cz_cs_mode cz_cs_get_mode(const cz_cs *cs);

/* Allocate an aux / input variable with the given value. PROVE, TEST and
 * WITNESS need value != NULL (else sticky CZ_ERR_INVALID_ARG, "assignment
 * missing"); KEYGEN, RECORD and COUNT ignore it. *out is always set. Returns the
 * sticky error (CZ_OK when none). */
CZ_MUST_CHECK cz_err cz_cs_alloc(cz_cs *cs, cz_var *out, const cz_fr *value);
CZ_MUST_CHECK cz_err cz_cs_alloc_input(cz_cs *cs, cz_var *out, const cz_fr *value);

/* Add the constraint a * b = c. LCs stay owned by the caller (free them or
 * reuse them after clearing). Variables not yet allocated, or a failed LC,
 * set the sticky error. */
void cz_cs_enforce(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c);
/* The same, where the caller knows the values of a and b (a gadget that
 * computed them natively: Poseidon's linear layers): PROVE stores them as
 * the row's a and b instead of evaluating the LCs, whose terms it still
 * scans for densities and range. They must be exactly the LCs' values
 * (canonical Montgomery form), or the proof will not verify; other modes
 * ignore them. */
void cz_cs_enforce_known(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c,
                         const cz_fr *a_value, const cz_fr *b_value);

/* Same, named by printf-style fmt; only TEST formats the name, others pay
 * one branch. */
void cz_cs_enforce_named(cz_cs *cs, const cz_lc *a, const cz_lc *b, const cz_lc *c, const char *fmt,
                         ...) __attribute__((format(printf, 5, 6)));

/* Namespaces: names of constraints enforced between push and pop are
 * prefixed by "name/". Names must not contain '/' (sticky error, as
 * bellpepper asserts). pop without push sets the sticky error. TEST also
 * rejects a constraint or namespace path used twice (bellpepper panics). */
void cz_cs_push_ns(cz_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cz_cs_pop_ns(cz_cs *cs);
/* A namespace that adds nothing to names (what CZ_PUSH_NS becomes without
 * names); pop it with cz_cs_pop_ns. */
void cz_cs_push_ns_anon(cz_cs *cs);

/* Zero-cost naming for release builds: with CUZK_CS_NO_NAMES defined the
 * name arguments are not even evaluated. */
#ifdef CUZK_CS_NO_NAMES
#define CZ_ENFORCE(cs, a, b, c, ...) cz_cs_enforce((cs), (a), (b), (c))
#define CZ_PUSH_NS(cs, ...) cz_cs_push_ns_anon(cs)
#else
#define CZ_ENFORCE(cs, a, b, c, ...) cz_cs_enforce_named((cs), (a), (b), (c), __VA_ARGS__)
#define CZ_PUSH_NS(cs, ...) cz_cs_push_ns((cs), __VA_ARGS__)
#endif
#define CZ_POP_NS(cs) cz_cs_pop_ns(cs)

/* True when enforce does something with its LCs (all but WITNESS and
 * COUNT): gadgets may skip building LCs when it is false, but must still
 * call enforce once per constraint. */
bool cz_cs_needs_constraints(const cz_cs *cs);
/* True when alloc uses values (PROVE, TEST, WITNESS): gadgets may skip
 * computing witnesses when it is false. */
bool cz_cs_needs_values(const cz_cs *cs);

size_t cz_cs_num_inputs(const cz_cs *cs); /* ONE included */
size_t cz_cs_num_aux(const cz_cs *cs);
size_t cz_cs_num_constraints(const cz_cs *cs); /* input constraints included after finish */

/* The sticky error and its message ("" when none; the string lives in cs
 * until cz_cs_free). */
CZ_MUST_CHECK cz_err cz_cs_error(const cz_cs *cs);
const char *cz_cs_errmsg(const cz_cs *cs);

/* Wraps a call whose cz_err is only cs's sticky error (cz_cs_alloc, the
 * gadgets of gadgets.h): it needs no check where it is made, since the
 * caller reads it back from cz_cs_error or cz_cs_finish. Errors that are
 * not sticky (argument checks) must be checked, not wrapped. */
static inline void cz_cs_sticky(cz_err sticky) { (void)sticky; }

/* End synthesis: checks namespaces are balanced, appends the input
 * constraints where the backend wants them. Returns the sticky error.
 * Calling it twice is an error. */
CZ_MUST_CHECK cz_err cz_cs_finish(cz_cs *cs);

/* Value of a variable (PROVE, TEST, WITNESS); false when out of range, for
 * KEYGEN and RECORD, and after the values were taken. */
bool cz_cs_value(const cz_cs *cs, cz_var v, cz_fr *out);

/* Move the results out of a finished system (the system keeps counts but
 * no buffers). PROVE and WITNESS: cz_cs_take_assignment. RECORD:
 * cz_cs_take_r1cs. KEYGEN: cz_cs_take_keygen. Wrong mode, unfinished, a
 * sticky error, or already taken: CZ_ERR_INVALID_ARG. CZ_ERR_NOMEM when a
 * result cannot be assembled; the system's buffers may be gone then too
 * (do not retry). On error *out is zeroed and owns nothing. The caller owns
 * *out and frees it with the matching _free below. */
CZ_MUST_CHECK cz_err cz_cs_take_assignment(cz_cs *cs, cz_assignment *out);
CZ_MUST_CHECK cz_err cz_cs_take_r1cs(cz_cs *cs, cz_r1cs *out);
CZ_MUST_CHECK cz_err cz_cs_take_keygen(cz_cs *cs, cz_keygen_cols *out);

/* Free the buffers and zero the struct (a zeroed struct is fine). */
void cz_assignment_free(cz_assignment *as);
void cz_r1cs_free(cz_r1cs *m);
void cz_keygen_cols_free(cz_keygen_cols *k);
void cz_density_free(cz_density *d);
static inline bool cz_density_get(const cz_density *d, size_t i) {
  return (d->bits[i >> 6] >> (i & 63)) & 1;
}

/* Complete a WITNESS assignment with a/b/c = M * w and the recorded
 * densities, so that it equals a PROVE run's in all but c, which PROVE
 * leaves out and this computes from C (so that tests can check that a
 * witness satisfies the circuit). The assignment's counts
 * must match the shape (inputs, aux; n_constraints of the witness run, or
 * that plus the input constraints) and it must not hold a/b/c or densities
 * yet, else CZ_ERR_INVALID_ARG; CZ_ERR_NOMEM. On error w is as it was. m is
 * only read: threads may evaluate one shape at the same time. */
CZ_MUST_CHECK cz_err cz_r1cs_eval(const cz_r1cs *m, cz_assignment *w);

/* cz_r1cs_eval on a thread budget (0 = all online cores; 1 is what
 * cz_r1cs_eval uses). Same result bit for bit for every budget. */
CZ_MUST_CHECK cz_err cz_r1cs_eval_threads(const cz_r1cs *m, cz_assignment *w, unsigned n_threads);

/* ---- Pre-compiled circuits (cuzk's PCE) ----------------------------------
 * A recorded shape in compact form, for proofs made as a WITNESS run plus
 * cz_pce_eval: the RECORD matrices A and B as CSR with 32-bit row offsets
 * and columns, and per entry a code into one table of the distinct
 * coefficients (ONE is code 0, -ONE code 1; 16-bit codes while the table
 * has at most 65536 entries, else 32-bit). C is not kept: c = a * b for a
 * satisfying witness (cz_assignment). Zero coefficients are dropped, as in
 * cz_r1cs. About 6 bytes per entry where cz_r1cs holds 36. A shape
 * recorded from a circuit of slots (cz_slots_record, cuzk/cs_slots.h) may
 * be tiled: it holds the header and one slot, which every slot repeats
 * with its own variables shifted (a 32 GiB PoRep partition: one of its 18
 * challenges). A cz_pce is immutable: threads may evaluate one at the same
 * time. */
typedef struct cz_pce cz_pce;

typedef struct {
  size_t n_inputs, n_aux, n_constraints; /* the whole circuit's, as cz_r1cs */
  size_t nnz[3];                         /* entries of A, B (C: 0, not kept) held */
  size_t n_coeffs;                       /* distinct coefficients, ONE and -ONE included */
  unsigned code_bytes;                   /* 2 or 4 */
  size_t n_slots;                        /* tiled: the slots the rows repeat for; else 0 */
  size_t bytes;                          /* memory held (matrices, table, densities) */
} cz_pce_info;

/* RECORD: move the recorded shape out in compact form (in place of
 * cz_cs_take_r1cs: one or the other, once). Errors as cz_cs_take_r1cs,
 * and CZ_ERR_NOMEM. *out is NULL on error. RECORD itself fails (sticky
 * CZ_ERR_INVALID_ARG) on circuits with 2^31 or more inputs or aux, or with
 * 2^32 or more entries in one matrix. */
CZ_MUST_CHECK cz_err cz_cs_take_pce(cz_cs *cs, cz_pce **out);
/* The compact form of m. CZ_ERR_INVALID_ARG when m is malformed (offsets
 * not ascending, a column out of range, 2^32 or more entries). */
CZ_MUST_CHECK cz_err cz_pce_from_r1cs(const cz_r1cs *m, cz_pce **out);
void cz_pce_free(cz_pce *p); /* NULL is fine */
void cz_pce_get_info(const cz_pce *p, cz_pce_info *out);

/* The recorded shape on disk (src/cs/pce_file.c): one file holding the
 * compact form, a caller's 32-byte key naming the circuit it was recorded
 * from, and a CRC-32C of the whole. cz_pce_save writes it atomically
 * (a temporary file in the same directory, fsync, rename): a reader sees
 * the old file or the whole new one. CZ_ERR_IO with strerror in msg.
 *
 * cz_pce_load maps a file and checks, in this order: the magic, the format
 * version and the key (else STALE), the size the header's counts imply, the
 * checksum, and what evaluation relies on (ascending row offsets, columns
 * and codes in range, a reduced coefficient table, densities that match
 * their counts); any failure is CORRUPT, so a flipped byte or a truncated
 * file never becomes a shape. OK: *out is a shape whose arrays live in the
 * read-only mapping (cz_pce_free unmaps it), equal to the one saved.
 * Anything else leaves *out NULL with the reason in msg. Loading costs one
 * pass over the file. */
#define CZ_PCE_KEY_BYTES 32
#define CZ_PCE_FORMAT_VERSION 2
typedef enum {
  CZ_PCE_FILE_OK = 0,
  CZ_PCE_FILE_MISSING,    /* no such file */
  CZ_PCE_FILE_UNREADABLE, /* cannot open or map it, or out of memory */
  CZ_PCE_FILE_STALE,      /* another key or format version */
  CZ_PCE_FILE_CORRUPT,    /* truncated, checksum mismatch or malformed */
} cz_pce_file_status;
CZ_MUST_CHECK cz_err cz_pce_save(const cz_pce *p, const char *path,
                                 const uint8_t key[CZ_PCE_KEY_BYTES], char *msg, size_t msg_len);
cz_pce_file_status cz_pce_load(const char *path, const uint8_t key[CZ_PCE_KEY_BYTES], cz_pce **out,
                               char *msg, size_t msg_len);

/* cz_r1cs_eval for the compact form, on a thread budget (0 = all online
 * cores): completes a WITNESS assignment of the recorded shape with a/b
 * and the densities, equal bit for bit to a PROVE run's (c stays NULL, as
 * PROVE leaves it). Same checks and errors as cz_r1cs_eval. */
CZ_MUST_CHECK cz_err cz_pce_eval(const cz_pce *p, cz_assignment *w, unsigned n_threads);

/* TEST backend. The first unsatisfied constraint's full name (NULL when all
 * hold, and for other modes) and, when index != NULL, its index; unnamed
 * constraints are called "<ns path>/#<index>". The string lives in cs. */
const char *cz_cs_which_is_unsatisfied(const cz_cs *cs, size_t *index);
/* True when every constraint holds and no sticky error is set (TEST only;
 * false for other modes). */
bool cz_cs_is_satisfied(const cz_cs *cs);
/* Name of constraint i (TEST only; NULL otherwise or out of range). */
const char *cz_cs_constraint_name(const cz_cs *cs, size_t i);
/* Overwrite a variable's value (TEST and WITNESS only: e.g. to break a
 * witness in tests). False when out of range or another mode. */
bool cz_cs_set_value(cz_cs *cs, cz_var v, const cz_fr *value);

#endif
