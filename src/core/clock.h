/* clock: the one monotonic clock of the program, in seconds (progress
 * lines, rates, timeouts, key timing).  libc only. */
#ifndef CALLSCOPE_CORE_CLOCK_H
#define CALLSCOPE_CORE_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin: only differences mean
 * anything). */
double clock_now(void);

#endif
