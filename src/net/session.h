/* session: the program's transfer state as one value instead of process
 * globals: the options every open by URL uses, the cancel flag every
 * transfer checks (set by Ctrl-C, Esc or the viewer's interrupt key, kept
 * by files read in parts after the open) and where progress of those
 * later reads goes.  ui/main.c makes one and passes it down to the batch
 * commands (cli_run) and the viewer (app_run).  Plain data: must not
 * depend on curl, curses or ui/. */
#ifndef CALLSCOPE_NET_SESSION_H
#define CALLSCOPE_NET_SESSION_H

#include <signal.h>

#include "net/open_options.h"

struct session {
	/* every open's options; options.cancel points at `cancel` */
	struct open_options options;
	volatile sig_atomic_t cancel;
	/* progress of transfers after the open (files read in parts),
	 * called from the thread that reads; NULL: none */
	void (*background)(void *ctx, const struct open_progress *p);
	void *background_ctx;
};

/* Start `s` with options `o` (NULL: the defaults, open_options_init). */
void session_init(struct session *s, const struct open_options *o);

/* Where progress of the reads after the open goes (NULL: nowhere). */
void session_set_background_progress(
	struct session *s, void (*fn)(void *ctx, const struct open_progress *p),
	void *ctx);

#endif
