/* input: where keys come from besides the terminal: the headless mode's
 * key script (literal characters, <Name> for named keys, <Sleep:MS>,
 * <Resize:COLSxROWS>, <Scan>: wait for the end of a partial model's
 * scan, <Fill>: for its next partial model), key labels and the clock for --timing, and the progress note
 * of a frame that waits on a server. */
#include "config.h"

#include "hub.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/session.h"
#include "present/present_write.h"
#include "core/clock.h"
#include "keys.h"

/* Next key of a headless script: a literal character, or <Name> for a
 * named key (<Enter>, <Down>, <C-l>, <Resize:80x20>).  False at the end. */
bool script_next(struct script *s, int *key, bool *is_char, wint_t *wc)
{
	while (s->p && *s->p) {
		if (*s->p == '<') {
			const char *end = strchr(s->p, '>');
			if (end && end - s->p > 1 && end - s->p < 32) {
				char name[32];
				memcpy(name, s->p + 1, (size_t)(end - s->p - 1));
				name[end - s->p - 1] = '\0';
				s->p = end + 1;
				int cols, rows, ms;
				if (strcmp(name, "Scan") == 0 ||
				    strcmp(name, "Fill") == 0) {
					s->wait_scan = name[0] == 'S';
					s->wait_fill = name[0] == 'F';
					*key = KEY_RESIZE;
					*is_char = false;
					return true;
				}
				if (sscanf(name, "Sleep:%d", &ms) == 1 && ms >= 0 &&
				    ms <= 60000) {
					struct timespec ts = {ms / 1000,
							      (long)(ms % 1000) * 1000000L};
					nanosleep(&ts, NULL);
					continue;
				}
				if (sscanf(name, "Resize:%dx%d", &cols, &rows) == 2) {
					resizeterm(rows, cols);
					*key = KEY_RESIZE;
					*is_char = false;
					return true;
				}
				int k = keys_parse(name);
				if (k < 0)
					continue;
				*is_char = k < KEY_MIN;
				*key = k;
				*wc = (wint_t)k;
				return true;
			}
		}
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		wchar_t w;
		size_t n = mbrtowc(&w, s->p, strlen(s->p), &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			s->p++;
			continue;
		}
		s->p += n;
		*is_char = true;
		*wc = (wint_t)w;
		*key = (int)w;
		return true;
	}
	return false;
}

double input_now_us(void)
{
	return clock_now() * 1e6;
}

void input_key_label(int key, bool is_char, wint_t wc, char *buf, size_t n)
{
	if (is_char && wc > 32 && wc < 127)
		snprintf(buf, n, "%c", (char)wc);
	else
		keys_name(is_char ? (int)wc : key, buf, n);
}

/* ---- frames that wait on the network ------------------------------- */

/* A file read in parts (a remote trace.db) makes a frame wait for its
 * blocks: after 0.3 s a note on the bottom line says what is read and
 * that Ctrl-C stops it.  Stopped reads stay stopped (they fail at once,
 * "cancelled"; the status line says C-l reads again) until C-l, so the
 * next key does not wait again on a server that hangs. */
static pthread_t ui_thread;
/* When the key being handled arrived (input_now_us()). */
static const double *frame_start_us;

static void on_read_progress(void *ctx, const struct open_progress *p)
{
	(void)ctx;
	if (!pthread_equal(pthread_self(), ui_thread))
		return; /* the background build: not ours to draw */
	if (p->done) {
		screen_note(0, NULL);
		return;
	}
	/* timed from the key, not the request: a frame may be made of many
	 * short reads */
	double seconds = (input_now_us() - *frame_start_us) / 1e6;
	if (seconds < 0.3)
		return;
	char now[32], total[32];
	present_format_bytes(now, sizeof(now), (double)p->now);
	present_format_bytes(total, sizeof(total), (double)p->total);
	screen_notef(theme_attr(THEME_ROLE_STATUS),
		     "Reading %s from the server: %s of %s, %.0f s   Ctrl-C "
		     "stops",
		     p->name ? p->name : "a file", now, total, seconds);
}

void input_watch_reads(struct session *s, bool on, const double *frame_start)
{
	ui_thread = pthread_self();
	frame_start_us = frame_start;
	session_set_background_progress(s, on ? on_read_progress : NULL, NULL);
	screen_set_interrupt_flag(on ? &s->cancel : NULL);
}

void input_first_frame(void)
{
	static bool written;
	const char *path = getenv("CALLSCOPE_FIRST_FRAME_FILE");
	if (written || !path || !*path)
		return;
	written = true;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
		fclose(f);
	}
}
