/* screen: curses set-up and tear-down, fatal-signal safety, capability
 * detection, and the one safe text drawer of the UI. */
#include "screen.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "cli.h"
#include "sanitize.h"

static bool started;
static SCREEN *headless_screen;
static FILE *headless_out, *headless_in;
static struct screen_caps current;

static const struct screen_glyphs utf8_glyphs = {
	.vertical = "\xe2\x94\x82 ",        /* │ */
	.branch = "\xe2\x94\x9c\xe2\x94\x80", /* ├─ */
	.last = "\xe2\x94\x94\xe2\x94\x80",   /* └─ */
	.expanded = "\xe2\x96\xbe",           /* ▾ */
	.collapsed = "\xe2\x96\xb8",          /* ▸ */
	.leaf = " ",
	.ellipsis = "\xe2\x80\xa6",           /* … */
	.bar_full = "\xe2\x96\x88",           /* █ */
	.bar_half = "\xe2\x96\x8c",           /* ▌ */
};

static const struct screen_glyphs ascii_glyphs = {
	.vertical = "| ",
	.branch = "|-",
	.last = "`-",
	.expanded = "-",
	.collapsed = "+",
	.leaf = " ",
	.ellipsis = "~",
	.bar_full = "#",
	.bar_half = "+",
};

const struct screen_glyphs *screen_glyphs(void)
{
	return current.utf8 ? &utf8_glyphs : &ascii_glyphs;
}

/* Fatal signals: restore the terminal, then die of the same signal.  The
 * handler must be async-signal-safe, so it cannot call endwin(): the
 * terminal modes saved before curses started are put back with tcsetattr()
 * and the escape sequences that undo curses' screen state (leave the
 * alternate screen, show the cursor, plain attributes, keypad and mouse
 * reporting off), computed once at start, are written with write(). */
static struct termios saved_modes;
static bool have_saved_modes;
static char restore_seq[256];
static size_t restore_len;

static void append_restore(const char *seq)
{
	if (!seq || seq == (char *)-1)
		return;
	size_t n = strlen(seq);
	if (restore_len + n >= sizeof(restore_seq))
		return;
	memcpy(restore_seq + restore_len, seq, n);
	restore_len += n;
}

static void prepare_restore(void)
{
	restore_len = 0;
	append_restore("\033[?1000l\033[?1002l\033[?1006l");
	append_restore(tigetstr("sgr0"));
	append_restore(tigetstr("cnorm"));
	append_restore(tigetstr("rmkx"));
	append_restore(tigetstr("rmcup"));
	append_restore("\r\n");
}

static void on_fatal_signal(int sig)
{
	if (started && !current.headless) {
		if (have_saved_modes)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
		size_t done = 0;
		while (done < restore_len) {
			ssize_t w = write(STDOUT_FILENO, restore_seq + done,
					  restore_len - done);
			if (w <= 0)
				break;
			done += (size_t)w;
		}
	}
	started = false;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
				    SIGILL, SIGPIPE};
	prepare_restore();
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
}

bool screen_start(bool headless, int cols, int rows, struct screen_caps *caps)
{
	setlocale(LC_ALL, "");
	const char *cs = nl_langinfo(CODESET);
	memset(&current, 0, sizeof(current));
	current.utf8 = cs && (strcmp(cs, "UTF-8") == 0 ||
			      strcmp(cs, "utf8") == 0);
	current.headless = headless;
	if (headless) {
		const char *term = getenv("TERM");
		if (!term || !*term || strcmp(term, "dumb") == 0)
			term = "xterm-256color";
		headless_out = fopen("/dev/null", "w");
		headless_in = fopen("/dev/null", "r");
		if (!headless_out || !headless_in) {
			fputs("callscope: cannot open /dev/null\n", stderr);
			return false;
		}
		headless_screen = newterm(term, headless_out, headless_in);
		if (!headless_screen) {
			fputs("callscope: no terminfo entry for ", stderr);
			cli_put_text(stderr, term);
			fputc('\n', stderr);
			return false;
		}
		set_term(headless_screen);
		resizeterm(rows, cols);
	} else {
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
			fputs("callscope: the viewer needs a terminal; use "
			      "`callscope report DB` for text output\n",
			      stderr);
			return false;
		}
		const char *term = getenv("TERM");
		if (!term || !*term || strcmp(term, "dumb") == 0) {
			fputs("callscope: TERM is not set to a terminal that "
			      "can show the viewer; use `callscope report DB`\n",
			      stderr);
			return false;
		}
		have_saved_modes =
			tcgetattr(STDIN_FILENO, &saved_modes) == 0;
		if (!newterm(NULL, stdout, stdin)) {
			fputs("callscope: cannot use terminal '", stderr);
			cli_put_text(stderr, term);
			fputs("'\n", stderr);
			return false;
		}
		install_signals();
	}
	started = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (!headless)
		mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED |
				  BUTTON4_PRESSED | BUTTON5_PRESSED,
			  NULL);
	const char *no_color = getenv("NO_COLOR");
	current.colors = has_colors() && !(no_color && *no_color);
	if (current.colors) {
		start_color();
		use_default_colors();
		current.n_colors = COLORS;
	}
	if (caps)
		*caps = current;
	return true;
}

void screen_stop(void)
{
	if (!started)
		return;
	started = false;
	if (current.headless) {
		endwin();
		delscreen(headless_screen);
		headless_screen = NULL;
		fclose(headless_out);
		fclose(headless_in);
		return;
	}
	endwin();
}

/* Sanitized wide text of `text`; caller frees. */
static wchar_t *to_wide(const char *text, size_t *len)
{
	char *safe = sanitize_text(text, SANITIZE_TERMINAL);
	if (!safe)
		return NULL;
	size_t n = strlen(safe);
	wchar_t *w = malloc((n + 1) * sizeof(*w));
	if (!w) {
		free(safe);
		return NULL;
	}
	size_t k = 0;
	if (current.utf8) {
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		const char *p = safe;
		while (*p) {
			wchar_t wc;
			size_t r = mbrtowc(&wc, p, (size_t)(safe + n - p), &st);
			if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
				w[k++] = L'?';
				p++;
				memset(&st, 0, sizeof(st));
				continue;
			}
			w[k++] = (wcwidth(wc) < 0) ? L'?' : wc;
			p += r;
		}
	} else {
		for (const unsigned char *p = (const unsigned char *)safe; *p;
		     p++) {
			/* one '?' per non-ASCII character */
			if (*p >= 0x80 && (*p & 0xc0) == 0x80)
				continue;
			w[k++] = *p < 0x80 ? (wchar_t)*p : L'?';
		}
	}
	w[k] = L'\0';
	free(safe);
	*len = k;
	return w;
}

static int wide_width(const wchar_t *w, size_t n)
{
	int total = 0;
	for (size_t i = 0; i < n; i++) {
		int cw = wcwidth(w[i]);
		total += cw > 0 ? cw : 0;
	}
	return total;
}

int screen_text_width(const char *text)
{
	size_t n;
	wchar_t *w = to_wide(text, &n);
	if (!w)
		return 0;
	int width = wide_width(w, n);
	free(w);
	return width;
}

int screen_text(int y, int x, int width, attr_t attr, const char *text,
		bool pad)
{
	if (width <= 0)
		return 0;
	size_t n;
	wchar_t *w = to_wide(text ? text : "", &n);
	int used = 0;
	attr_t old_attr;
	short old_pair;
	attr_get(&old_attr, &old_pair, NULL);
	attrset(attr);
	move(y, x);
	if (w) {
		int total = wide_width(w, n);
		int room = total > width ? width - 1 : width;
		for (size_t i = 0; i < n; i++) {
			int cw = wcwidth(w[i]);
			if (cw < 0)
				cw = 0;
			if (used + cw > room)
				break;
			addnwstr(&w[i], 1);
			used += cw;
		}
		if (total > width) {
			addstr(screen_glyphs()->ellipsis);
			used++;
		}
		free(w);
	}
	if (pad)
		for (; used < width; used++)
			addch(' ');
	attrset(old_attr);
	return used;
}

int screen_text_tail(int y, int x, int width, attr_t attr, const char *text)
{
	if (width <= 0)
		return 0;
	size_t n;
	wchar_t *w = to_wide(text ? text : "", &n);
	if (!w)
		return 0;
	int total = wide_width(w, n);
	int room = total > width ? width - 1 : width;
	/* from the end: the characters that fit in `room` columns */
	size_t first = n;
	int used = 0;
	while (first > 0) {
		int cw = wcwidth(w[first - 1]);
		if (cw < 0)
			cw = 0;
		if (used + cw > room)
			break;
		used += cw;
		first--;
	}
	attr_t old_attr;
	short old_pair;
	attr_get(&old_attr, &old_pair, NULL);
	attrset(attr);
	move(y, x);
	if (total > width) {
		addstr(screen_glyphs()->ellipsis);
		used++;
	}
	for (size_t i = first; i < n; i++)
		addnwstr(&w[i], 1);
	attrset(old_attr);
	free(w);
	return used;
}

int screen_text_right(int y, int x, int width, attr_t attr, const char *text)
{
	int w = screen_text_width(text);
	if (w >= width)
		return screen_text(y, x, width, attr, text, false);
	return screen_text(y, x + width - w, w, attr, text, false);
}

void screen_dump(FILE *out)
{
	int rows = LINES, cols = COLS;
	wchar_t *line = malloc(((size_t)cols + 1) * sizeof(*line));
	char *mb = malloc((size_t)cols * MB_CUR_MAX + 1);
	if (!line || !mb) {
		free(line);
		free(mb);
		return;
	}
	for (int y = 0; y < rows; y++) {
		int n = mvinnwstr(y, 0, line, cols);
		if (n < 0)
			n = 0;
		line[n] = L'\0';
		size_t len = wcstombs(mb, line, (size_t)cols * MB_CUR_MAX);
		if (len == (size_t)-1)
			len = 0;
		while (len > 0 && mb[len - 1] == ' ')
			len--;
		mb[len] = '\0';
		fprintf(out, "%s\n", mb);
	}
	free(line);
	free(mb);
}
