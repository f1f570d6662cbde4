/* screen: the terminal.  Sets curses up and restores the terminal exactly
 * on every way out (quit, error, fatal signals); knows whether the terminal
 * does UTF-8 and colours; draws text from the database safely (sanitized,
 * cut to a width by display columns, elided with "…" or "~").  Also the
 * headless mode's virtual terminal (output to /dev/null, screen dumps). */
#ifndef CALLSCOPE_UI_SCREEN_H
#define CALLSCOPE_UI_SCREEN_H

#include <curses.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <wchar.h>

struct screen_caps {
	bool utf8;   /* the locale's charset is UTF-8: line drawing, "…" */
	bool colors; /* colours available and wanted (NO_COLOR unset) */
	int n_colors;
	bool headless;
};

/* Start curses on the terminal, or headless (a virtual `cols` x `rows`
 * screen writing to /dev/null) when `headless`.  Returns false with a
 * message on stderr when the terminal cannot be used. */
bool screen_start(bool headless, int cols, int rows, struct screen_caps *caps);

/* The viewer is run again at once on another model (a partial model's
 * better or complete one): the next screen_stop() leaves the terminal as
 * it is, and screen_start() then only gives the caps, so that the swap
 * does not flash the shell's screen.  A screen_stop() after that one
 * stops. */
void screen_hold(void);

/* The next key, as get_wch() returns it (OK with a character,
 * KEY_CODE_YES with a key code), waiting as long as it takes.  Ctrl-Z
 * suspends here and the return, like a resize, is KEY_RESIZE: redraw.
 * ERR when the terminal is gone. */
int screen_get_key(wint_t *wc);

/* While `ms` >= 0, screen_get_key() returns KEY_RESIZE (a redraw) after
 * `ms` milliseconds without a key: work finishing in the background (the
 * performance models fitted ahead) shows without a key press.  -1: wait
 * for keys only (the default). */
void screen_set_tick(int ms);

/* Keys typed while the viewer is busy, read and dropped: true when Esc was
 * one of them (a long load stops).  False when headless. */
bool screen_poll_escape(void);

/* While the viewer is busy (from a key until it waits for the next),
 * Ctrl-C sets *flag, when it is still clear, instead of quitting: the
 * transfer a frame waits on stops.  Idle, or with *flag set, Ctrl-C
 * quits.  NULL: Ctrl-C always quits. */
void screen_set_interrupt_flag(volatile sig_atomic_t *flag);

/* The signal (SIGTERM, SIGHUP) that made screen_get_key() return ERR
 * while the viewer waited for a key, or 0: the caller cleans up and then
 * dies of it. */
int screen_quit_signal(void);

/* Show `text` (sanitized here) on the bottom line at once, in the middle
 * of a frame, without showing the rest of the frame: a progress note
 * while a frame waits.  NULL removes it; the next frame repaints the
 * line. */
void screen_note(attr_t attr, const char *text);

/* screen_note of a printf-formatted text (cut at 511 bytes): the
 * progress notes of long reads ("... %u of %u, %.0f s   Esc stops"). */
void screen_notef(attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Restore the terminal.  Safe to call twice. */
void screen_stop(void);

/* Glyphs for tree guides and markers, UTF-8 or ASCII. */
struct screen_glyphs {
	const char *vertical, *branch, *last, *expanded, *collapsed, *leaf,
		*ellipsis, *bar_full, *bar_half;
};
const struct screen_glyphs *screen_glyphs(void);

/* Draw `text` (UTF-8 from input: sanitized here) at (y, x) in at most
 * `width` display columns with `attr`, elided when too long; returns the
 * columns used.  `pad` fills the rest of the width with spaces. */
int screen_text(int y, int x, int width, attr_t attr, const char *text,
		bool pad);

/* The same in colour pair `pair` (any pair the terminal has, past the
 * 255 that `attr` can carry). */
int screen_text_pair(int y, int x, int width, attr_t attr, short pair,
		     const char *text, bool pad);

/* Same, right-aligned in `width`. */
int screen_text_right(int y, int x, int width, attr_t attr, const char *text);

/* The end of `text` (sanitized) that fits in `width` display columns,
 * after an ellipsis when the start is cut; returns the columns used.  Time
 * linear in the length of `text`. */
int screen_text_tail(int y, int x, int width, attr_t attr, const char *text);

/* Display width of `text` after sanitizing. */
int screen_text_width(const char *text);

/* Write the current screen as text lines to `out` (headless dumps). */
void screen_dump(FILE *out);

#endif
