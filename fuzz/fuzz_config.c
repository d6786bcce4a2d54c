/* The daemon's TOML parser never crashes, reads only the bytes it is given
 * (an exact-size heap copy, no NUL after it) and answers OK or PARSE. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cuzk/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size ? size : 1);
  if (!text) return 0;
  memcpy(text, data, size);
  cz_daemon_config c;
  cz_daemon_config_default(&c);
  char msg[256];
  cz_err err = cz_daemon_config_parse(&c, text, size, msg, sizeof msg);
  if (err != CZ_OK && err != CZ_ERR_PARSE) abort();
  free(text);
  return 0;
}
