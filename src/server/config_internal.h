/* The daemon config's parsed TOML value and the function that applies one
 * key (internal: shared by the reader, config.c, and the settings,
 * config_keys.c). */
#ifndef CUZK_SERVER_CONFIG_INTERNAL_H
#define CUZK_SERVER_CONFIG_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>

#include "cuzk/server.h"

enum { V_STR, V_INT, V_BOOL, V_ARRAY };
#define MAX_ARRAY 64
typedef struct {
  int type;
  char str[1024];
  long long i;
  bool b;
  size_t n; /* array: integers only are kept (gpus.devices) */
  long long items[MAX_ARRAY];
  int item_type;
} value;

/* Apply one key; false with *why on a bad value; *unknown when not ours. */
bool cz_config_apply(cz_daemon_config *c, const char *key, const value *v, bool *unknown,
                     const char **why);

#endif
