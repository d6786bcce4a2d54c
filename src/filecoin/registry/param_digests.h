/* The generated table of official parameter digests (param_digests.c, made
 * by tools/param_digests.py), sorted by name. */
#ifndef CUZK_FILECOIN_PARAM_DIGESTS_H
#define CUZK_FILECOIN_PARAM_DIGESTS_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *file;     /* "v28-....params" or ".vk" */
  const char *digest;   /* 32 lower-case hex digits */
  uint64_t sector_size; /* bytes */
} cz_param_digest_row;

extern const cz_param_digest_row cz_param_digest_rows[];
extern const size_t cz_param_digest_n_rows;

#endif
