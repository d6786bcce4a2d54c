/* Layer: util */
/* Error values shared by every cuzk module (src/util/err.c).
 * Every function that reads outside data returns a cz_err; none aborts. */
#ifndef CUZK_ERR_H
#define CUZK_ERR_H

typedef enum {
  CZ_OK = 0,
  CZ_ERR_INVALID_ARG,     /* an argument is outside the function's contract */
  CZ_ERR_TRUNCATED,       /* input shorter than its format requires */
  CZ_ERR_TRAILING,        /* input longer than its format allows */
  CZ_ERR_NONCANONICAL,    /* a field element's bytes encode a value >= modulus */
  CZ_ERR_BAD_FLAGS,       /* zcash point flag bits are inconsistent */
  CZ_ERR_NOT_ON_CURVE,    /* coordinates do not satisfy the curve equation */
  CZ_ERR_NOT_IN_SUBGROUP, /* point is on the curve but outside the r-torsion */
  CZ_ERR_PARSE,           /* malformed text input (JSON, hex, numbers) */
  CZ_ERR_IO,              /* a file could not be opened, read or written */
  CZ_ERR_NOMEM,           /* an allocation failed */
  CZ_ERR_PROOF_INVALID,   /* a well-formed proof does not verify */
  /* The engine's answers (cuzk/engine.h), which the daemon maps to gRPC
   * statuses (docs/interface.md): */
  CZ_ERR_NOT_FOUND,     /* no such job, circuit or file */
  CZ_ERR_UNIMPLEMENTED, /* this build cannot do it (a kind without a prover) */
  CZ_ERR_UNAVAILABLE,   /* not any more: the engine is shutting down */
  CZ_ERR_EXHAUSTED,     /* the memory budget cannot hold it now: retry later */
  CZ_ERR_BUSY,          /* in use: it cannot be done while something holds it */
  CZ_ERR_DEVICE,        /* a GPU failed (a kernel launch, a copy, a runtime
                           error): the same work may succeed on another one */
  CZ_ERR_COUNT
} cz_err;

/* Marks a function whose cz_err must be looked at: a dropped error is a silent
 * wrong result, so the compiler warns (and -Werror fails) where one is ignored. */
#if defined(__GNUC__) || defined(__clang__)
#define CZ_MUST_CHECK __attribute__((warn_unused_result))
#else
#define CZ_MUST_CHECK
#endif

/* A short, static, human-readable description of e (never NULL; "unknown
 * error" out of range). Any thread. */
const char *cz_err_str(cz_err e);

#endif
