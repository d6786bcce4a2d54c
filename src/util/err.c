#include "cuzk/err.h"

const char *cz_err_str(cz_err e) {
  static const char *const names[CZ_ERR_COUNT] = {
      [CZ_OK] = "ok",
      [CZ_ERR_INVALID_ARG] = "invalid argument",
      [CZ_ERR_TRUNCATED] = "input is truncated",
      [CZ_ERR_TRAILING] = "unexpected trailing bytes",
      [CZ_ERR_NONCANONICAL] = "field element is not below the modulus",
      [CZ_ERR_BAD_FLAGS] = "invalid point encoding flags",
      [CZ_ERR_NOT_ON_CURVE] = "point is not on the curve",
      [CZ_ERR_NOT_IN_SUBGROUP] = "point is not in the prime-order subgroup",
      [CZ_ERR_PARSE] = "malformed input",
      [CZ_ERR_IO] = "I/O error",
      [CZ_ERR_NOMEM] = "out of memory",
      [CZ_ERR_PROOF_INVALID] = "proof is invalid",
      [CZ_ERR_NOT_FOUND] = "not found",
      [CZ_ERR_UNIMPLEMENTED] = "not implemented in this build",
      [CZ_ERR_UNAVAILABLE] = "shutting down",
      [CZ_ERR_EXHAUSTED] = "the memory budget cannot hold it now",
      [CZ_ERR_BUSY] = "in use",
      [CZ_ERR_DEVICE] = "the device failed",
  };
  return (unsigned)e < CZ_ERR_COUNT ? names[e] : "unknown error";
}
