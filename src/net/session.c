/* session: the program's transfer state (options, cancel flag, the
 * progress of reads after the open) as one value.  Depends only on
 * net/open_options. */
#include "config.h"

#include "net/session.h"

#include <string.h>

void session_init(struct session *s, const struct open_options *o)
{
	memset(s, 0, sizeof(*s));
	if (o)
		s->options = *o;
	else
		open_options_init(&s->options);
	s->options.cancel = &s->cancel;
}

void session_set_background_progress(
	struct session *s, void (*fn)(void *ctx, const struct open_progress *p),
	void *ctx)
{
	s->background = fn;
	s->background_ctx = ctx;
}
