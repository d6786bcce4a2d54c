/* Layer: util */
/* The monotonic clock every layer times itself with (src/util/clock.c;
 * CLOCK_MONOTONIC: never jumps with wall-clock changes). Any thread. */
#ifndef CUZK_CLOCK_H
#define CUZK_CLOCK_H
#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point. */
uint64_t cz_now_ns(void);
/* Milliseconds since the same point. */
uint64_t cz_now_ms(void);

#endif
