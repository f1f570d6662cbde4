/* open_options: the defaults of struct open_options and the environment
 * overrides that let tests shorten timeouts.  Depends only on libc. */
#include "config.h"

#include "net/open_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A positive decimal from the environment, or `fallback`. */
static uint64_t env_number(const char *name, uint64_t fallback)
{
	const char *v = getenv(name);
	if (!v || *v < '0' || *v > '9')
		return fallback;
	errno = 0;
	char *end = NULL;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0' || n == 0)
		return fallback;
	return n;
}

void open_options_init(struct open_options *o)
{
	*o = (struct open_options){
		.connect_timeout_s = (long)env_number(
			"CALLSCOPE_CONNECT_TIMEOUT",
			OPEN_OPTIONS_CONNECT_TIMEOUT_S),
		.stall_time_s = (long)env_number("CALLSCOPE_STALL_TIME",
						 OPEN_OPTIONS_STALL_TIME_S),
		.stall_limit = OPEN_OPTIONS_STALL_LIMIT,
		.lazy_min_size = env_number("CALLSCOPE_LAZY_MIN_SIZE",
					    OPEN_OPTIONS_LAZY_MIN_SIZE),
	};
	if (o->connect_timeout_s > 3600)
		o->connect_timeout_s = 3600;
	if (o->stall_time_s > 3600)
		o->stall_time_s = 3600;
}

bool open_options_cancelled(const struct open_options *o)
{
	return o && o->cancel && *o->cancel != 0;
}
