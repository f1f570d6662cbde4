/* clock: see clock.h. */
#include "config.h"

#include "core/clock.h"

#include <time.h>

double clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
