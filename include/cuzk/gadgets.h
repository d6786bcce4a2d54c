/* Layer: gadgets */
/* Basic gadgets and the SHA-256 gadget, constraint for constraint as
 * bellpepper (bellpepper-core 0.2 boolean.rs / num.rs, bellpepper 0.2
 * uint32.rs / multieq.rs / multipack.rs / sha256.rs), which Filecoin's
 * circuits are built from. Allocation order, constraint order, LC contents
 * (zero coefficients included) and constant folding follow bellpepper, so
 * that circuits built on them fit the real parameter files. Sources:
 * src/gadgets/boolean.c, num.c, uint32.c, multipack.c, sha256.c.
 *
 * Conventions:
 *  - Every function that touches the constraint system returns its sticky
 *    error (cz_cs_error), CZ_OK when none. The argument errors a gadget
 *    checks itself (CZ_ERR_INVALID_ARG, "nothing done" below) are returned
 *    without touching cs: they are not sticky, so check those returns.
 *  - Witness values (the `value` fields and arguments) are meaningful only
 *    when cz_cs_needs_values(cs); KEYGEN and RECORD runs carry arbitrary
 *    values through, which never change the circuit's shape.
 *  - Names: each function pushes the namespaces bellpepper's does inside
 *    itself and names its constraints as bellpepper does; the namespace
 *    bellpepper's callers give a gadget (cs.namespace(|| ...)) is pushed by
 *    our callers (CZ_PUSH_NS / CZ_POP_NS). Names only matter on TEST. */
#ifndef CUZK_GADGETS_H
#define CUZK_GADGETS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuzk/cs.h"

/* ---- Boolean (bellpepper-core gadgets/boolean.rs) ---------------------- */

/* An allocated variable constrained to 0/1 (AllocatedBit). */
typedef struct {
  cz_var var;
  bool value;
} cz_abit;

typedef enum { CZ_BOOL_CONST = 0, CZ_BOOL_IS = 1, CZ_BOOL_NOT = 2 } cz_bool_form;

/* Boolean: a constant, an allocated bit, or the negation of one. value is
 * the Boolean's own value (negation applied); var is unused for constants. */
typedef struct {
  cz_var var;
  uint8_t form; /* cz_bool_form */
  bool value;
} cz_bool;

static inline cz_bool cz_bool_const(bool b) { return (cz_bool){CZ_VAR_ONE, CZ_BOOL_CONST, b}; }
static inline cz_bool cz_bool_from_bit(cz_abit b) { return (cz_bool){b.var, CZ_BOOL_IS, b.value}; }
static inline bool cz_bool_is_const(cz_bool b) { return b.form == CZ_BOOL_CONST; }
/* Boolean::not: no constraint. */
static inline cz_bool cz_bool_not(cz_bool b) {
  cz_bool r = b;
  r.value = !b.value;
  if (b.form == CZ_BOOL_IS) r.form = CZ_BOOL_NOT;
  else if (b.form == CZ_BOOL_NOT) r.form = CZ_BOOL_IS;
  return r;
}

/* lc += b.lc(ONE, coeff): coeff*ONE for true, nothing for false, coeff*v
 * for Is(v), coeff*ONE - coeff*v for Not(v). */
void cz_bool_add_to_lc(cz_lc *lc, cz_bool b, const cz_fr *coeff);

/* AllocatedBit::alloc: one variable, "boolean constraint" (1 - a) * a = 0. */
CZ_MUST_CHECK cz_err cz_abit_alloc(cz_cs *cs, cz_abit *out, bool value);
/* AllocatedBit::alloc_conditionally: (1 - must_be_false - a) * a = 0. */
CZ_MUST_CHECK cz_err cz_abit_alloc_conditionally(cz_cs *cs, cz_abit *out, bool value,
                                                 const cz_abit *must_be_false);
/* AllocatedBit::{xor, and, and_not, nor}: one variable, one constraint
 * each ((a + a) * b = a + b - c;  a * b = c;  a * (1 - b) = c;
 * (1 - a) * (1 - b) = c). */
CZ_MUST_CHECK cz_err cz_abit_xor(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b);
CZ_MUST_CHECK cz_err cz_abit_and(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b);
CZ_MUST_CHECK cz_err cz_abit_and_not(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b);
CZ_MUST_CHECK cz_err cz_abit_nor(cz_cs *cs, cz_abit *out, const cz_abit *a, const cz_abit *b);

/* Boolean::{xor, and, or} with bellpepper's constant folding and negation
 * rules (0 or 1 constraint). or pushes "not and (not a) (not b)". */
CZ_MUST_CHECK cz_err cz_bool_xor(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b);
CZ_MUST_CHECK cz_err cz_bool_and(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b);
CZ_MUST_CHECK cz_err cz_bool_or(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b);
/* Boolean::sha256_ch = (a and b) xor ((not a) and c) and
 * Boolean::sha256_maj = (a and b) xor (a and c) xor (b and c), with
 * bellpepper's special cases when operands are constants (0, 1 or 2
 * constraints). */
CZ_MUST_CHECK cz_err cz_bool_sha256_ch(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b,
                                       const cz_bool *c);
CZ_MUST_CHECK cz_err cz_bool_sha256_maj(cz_cs *cs, cz_bool *out, const cz_bool *a, const cz_bool *b,
                                        const cz_bool *c);
/* Boolean::enforce_equal: one constraint 0 * 0 = a - b (or 1 - a, or a when
 * one side is constant). Two unequal constants: CZ_ERR_INVALID_ARG is
 * returned (bellpepper's Unsatisfiable) and the system is left untouched. */
CZ_MUST_CHECK cz_err cz_bool_enforce_equal(cz_cs *cs, const cz_bool *a, const cz_bool *b);

/* u64_into_boolean_vec_le: 64 bits, LSB first, namespaces "bit i". */
CZ_MUST_CHECK cz_err cz_u64_into_bits_le(cz_cs *cs, cz_bool out[64], uint64_t value);
/* field_into_allocated_bits_le: the 255 bits of value (canonical), LSB
 * first, each an AllocatedBit in namespace "bit i"; no range check. value
 * may be NULL when the system needs no values. */
#define CZ_FR_NUM_BITS 255
#define CZ_FR_CAPACITY 254
CZ_MUST_CHECK cz_err cz_field_into_allocated_bits_le(cz_cs *cs, cz_abit out[CZ_FR_NUM_BITS],
                                                     const cz_fr *value);

/* ---- AllocatedNum and Num (bellpepper-core gadgets/num.rs) -------------- */

typedef struct {
  cz_var var;
  cz_fr value; /* Montgomery */
} cz_anum;

/* alloc / alloc_input: one variable, no constraint. value may be NULL when
 * the system needs no values. */
CZ_MUST_CHECK cz_err cz_anum_alloc(cz_cs *cs, cz_anum *out, const cz_fr *value);
CZ_MUST_CHECK cz_err cz_anum_alloc_input(cz_cs *cs, cz_anum *out, const cz_fr *value);
/* inputize: a new input x and "enforce input is correct" x * 1 = a. */
CZ_MUST_CHECK cz_err cz_anum_inputize(cz_cs *cs, const cz_anum *a);
/* add / mul / square: one variable and one constraint each. */
CZ_MUST_CHECK cz_err cz_anum_add(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b);
CZ_MUST_CHECK cz_err cz_anum_mul(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b);
CZ_MUST_CHECK cz_err cz_anum_square(cz_cs *cs, cz_anum *out, const cz_anum *a);
/* to_bits_le: field_into_allocated_bits_le + "unpacking constraint"
 * (256 constraints). Not canonical: a + r also fits in 255 bits. */
CZ_MUST_CHECK cz_err cz_anum_to_bits_le(cz_cs *cs, cz_bool out[CZ_FR_NUM_BITS], const cz_anum *a);
/* to_bits_le_strict: the canonical decomposition (bits <= r - 1), with
 * bellpepper's runs-of-ones comparison (255 bits, the k-ary ANDs of the
 * runs of ones of r - 1, one unpacking constraint). */
CZ_MUST_CHECK cz_err cz_anum_to_bits_le_strict(cz_cs *cs, cz_bool out[CZ_FR_NUM_BITS],
                                               const cz_anum *a);
/* conditionally_reverse: (c, d) = cond ? (b, a) : (a, b); 2 variables,
 * 2 constraints, namespaces "conditional reversal result 1/2". */
CZ_MUST_CHECK cz_err cz_anum_conditionally_reverse(cz_cs *cs, cz_anum *c, cz_anum *d,
                                                   const cz_anum *a, const cz_anum *b,
                                                   const cz_bool *cond);
/* storage-proofs-core gadgets::constraint::equal: "a * 1 = b", one
 * constraint named `name` (in the current namespace). */
CZ_MUST_CHECK cz_err cz_anum_enforce_equal(cz_cs *cs, const cz_anum *a, const cz_anum *b,
                                           const char *name);
/* storage-proofs-core gadgets::constraint::add (the SDR encode): out = a + b
 * allocated in namespace "add_num", then "sum constraint" (a + b) * 1 = out.
 * constraint::sub (decode): out = a - b in "sub_num", then "subtraction
 * constraint" (out + b) * 1 = a. */
CZ_MUST_CHECK cz_err cz_constraint_add(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b);
CZ_MUST_CHECK cz_err cz_constraint_sub(cz_cs *cs, cz_anum *out, const cz_anum *a, const cz_anum *b);

/* Num: an LC with its value. The LC is a heap vector (CZ_LC_VEC), as a Num
 * lives across constraints. Release with cz_num_free. */
typedef struct {
  cz_lc lc;
  cz_fr value;
} cz_num;

void cz_num_init_zero(cz_num *n);
void cz_num_from_anum(cz_num *n, const cz_anum *a);
void cz_num_free(cz_num *n);
/* n += coeff * bit (value and LC). */
void cz_num_add_bool_with_coeff(cz_num *n, const cz_bool *bit, const cz_fr *coeff);
/* n += other. */
void cz_num_add(cz_num *n, const cz_num *other);
/* n *= s (every coefficient and the value). */
void cz_num_scale(cz_num *n, const cz_fr *s);

/* ---- UInt32 and MultiEq (bellpepper gadgets/uint32.rs, multieq.rs) ----- */

/* 32 Booleans, least significant first, and the value. */
typedef struct {
  cz_bool bits[32];
  uint32_t value;
} cz_u32;

/* MultiEq: packs the equalities of several addmany calls into one
 * "multieq N" constraint lhs * 1 = rhs while they fit in 254 bits. Its LCs
 * are heap vectors (they live across constraints). finish is bellpepper's
 * Drop: it emits the pending constraint in the current namespace. */
typedef struct {
  cz_cs *cs;
  size_t ops, bits_used;
  cz_lc lhs, rhs;
} cz_multieq;

void cz_multieq_init(cz_multieq *m, cz_cs *cs);
/* Emit the pending constraint (if any) and release the LCs. */
CZ_MUST_CHECK cz_err cz_multieq_finish(cz_multieq *m);

void cz_u32_const(cz_u32 *out, uint32_t value);
/* alloc: 32 AllocatedBits in namespaces "allocated bit i". */
CZ_MUST_CHECK cz_err cz_u32_alloc(cz_cs *cs, cz_u32 *out, uint32_t value);
/* storage-proofs-core gadgets/uint64.rs UInt64::alloc: 64 AllocatedBits,
 * least significant first, in namespaces "allocated bit i" (as UInt32's).
 * UInt64::pack_into_input is cz_pack_into_inputs over these 64 bits. */
CZ_MUST_CHECK cz_err cz_u64_alloc(cz_cs *cs, cz_bool out[64], uint64_t value);
/* from_bits_be: bits[0] is the most significant; from_bits: LSB first. */
void cz_u32_from_bits_be(cz_u32 *out, const cz_bool bits[32]);
void cz_u32_from_bits_le(cz_u32 *out, const cz_bool bits[32]);
void cz_u32_into_bits_be(const cz_u32 *a, cz_bool out[32]);
void cz_u32_into_bits_le(const cz_u32 *a, cz_bool out[32]);
/* rotr / shr: rewiring only, no constraint (shr fills constant false).
 * by is taken mod 32, as bellpepper does (shr by 32 is the identity). */
void cz_u32_rotr(cz_u32 *out, const cz_u32 *a, unsigned by);
void cz_u32_shr(cz_u32 *out, const cz_u32 *a, unsigned by);
/* xor: Boolean::xor per bit in namespaces "xor of bit i". */
CZ_MUST_CHECK cz_err cz_u32_xor(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b);
/* sha256_maj / sha256_ch: Boolean::sha256_* per bit in namespaces
 * "maj i" / "ch i" (bellpepper's triop). */
CZ_MUST_CHECK cz_err cz_u32_sha256_maj(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b,
                                       const cz_u32 *c);
CZ_MUST_CHECK cz_err cz_u32_sha256_ch(cz_cs *cs, cz_u32 *out, const cz_u32 *a, const cz_u32 *b,
                                      const cz_u32 *c);
/* addmany: the sum mod 2^32 of 2..10 operands. All-constant operands fold
 * to a constant; otherwise the result's bits (as many as the largest
 * possible sum needs) are allocated in namespaces "result bit i" and the
 * equality goes into m. n outside 2..10: CZ_ERR_INVALID_ARG, nothing done. */
CZ_MUST_CHECK cz_err cz_u32_addmany(cz_multieq *m, cz_u32 *out, const cz_u32 *ops, size_t n);

/* ---- multipack (bellpepper gadgets/multipack.rs) ----------------------- */

/* bytes_to_bits: each byte most significant bit first; _le: LSB first.
 * out has 8 * n entries. */
void cz_bytes_to_bits(bool *out, const uint8_t *bytes, size_t n);
void cz_bytes_to_bits_le(bool *out, const uint8_t *bytes, size_t n);
/* compute_multipacking: chunks of 254 bits, each little-endian into one
 * field element. Writes ceil(n / 254) elements and returns that count. No
 * constraint system: pure. */
size_t cz_compute_multipacking(cz_fr *out, const bool *bits, size_t n);
/* pack_into_inputs: per chunk of 254 bits one input "input i" and
 * "packing constraint i"  sum * 1 = input. */
CZ_MUST_CHECK cz_err cz_pack_into_inputs(cz_cs *cs, const cz_bool *bits, size_t n);
/* pack_bits: the first min(n, 254) bits into one AllocatedNum (namespace
 * "input") and "packing constraint". */
CZ_MUST_CHECK cz_err cz_pack_bits(cz_cs *cs, cz_anum *out, const cz_bool *bits, size_t n);

/* ---- SHA-256 (bellpepper gadgets/sha256.rs) ---------------------------- */

void cz_sha256_iv(cz_u32 out[8]);
/* sha256_compression_function: one 512-bit block (bits big-endian per
 * 32-bit word, i.e. message order) on state cur; a MultiEq of its own. */
CZ_MUST_CHECK cz_err cz_sha256_compression(cz_cs *cs, cz_u32 out[8], const cz_bool in[512],
                                           const cz_u32 cur[8]);
/* sha256_block_no_padding: compression of one block from the IV; 256
 * output bits, big-endian (digest byte order, MSB first per byte). */
CZ_MUST_CHECK cz_err cz_sha256_block_no_padding(cz_cs *cs, cz_bool out[256], const cz_bool in[512]);
/* sha256: padding (constant bits) and one compression per block in
 * namespaces "block i". nbits must be a multiple of 8 (else
 * CZ_ERR_INVALID_ARG, nothing done); bits are message bytes MSB first. */
CZ_MUST_CHECK cz_err cz_sha256(cz_cs *cs, cz_bool out[256], const cz_bool *in, size_t nbits);

#endif
