#include "cuzk/clock.h"

#include <time.h>

uint64_t cz_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cz_now_ms(void) { return cz_now_ns() / 1000000u; }
