/* screen: curses set-up and tear-down, fatal-signal safety, capability
 * detection, and the one safe text drawer of the UI. */
#include "config.h"

#include "screen.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "present/present_write.h"
#include "core/sanitize.h"

static bool started;
/* screen_hold: the next screen_stop leaves curses up */
static bool held;
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

/* The self-pipe that wakes screen_get_key() from a signal handler. */
static int wake_pipe[2] = {-1, -1};

/* Ctrl-C while busy (a frame waits on the network) sets this flag
 * instead of quitting, once; see screen_set_interrupt_flag(). */
static volatile sig_atomic_t *interrupt_flag;
static volatile sig_atomic_t busy;
static int tick_ms = -1; /* screen_set_tick */

void screen_set_interrupt_flag(volatile sig_atomic_t *flag)
{
	interrupt_flag = flag;
}

/* SIGTERM or SIGHUP while the viewer waits for a key: it quits through
 * its normal way out (temporary downloads removed), then dies of it. */
static volatile sig_atomic_t quit_signal;

int screen_quit_signal(void)
{
	return quit_signal;
}

static void wake_loop(void);

static void on_fatal_signal(int sig)
{
	if (sig == SIGINT && busy && interrupt_flag && !*interrupt_flag) {
		*interrupt_flag = 1;
		return;
	}
	if ((sig == SIGTERM || sig == SIGHUP) && !busy && started &&
	    !current.headless && wake_pipe[1] >= 0 && !quit_signal) {
		quit_signal = sig;
		wake_loop();
		return;
	}
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

/* Job control and resizes, handled in the input loop, never in a signal
 * handler.  curses' own SIGTSTP handler calls endwin() inside the handler
 * (not async-signal-safe) and curses ignores SIGTSTP while it updates the
 * screen, so a Ctrl-Z typed during a redraw was lost.  Here the handlers
 * only set a flag and write a byte to a self-pipe; screen_get_key() waits
 * on the terminal and the pipe together, so a signal arriving at any point
 * wakes it, and it suspends (endwin, SIGTSTP with the default action,
 * then back) or resizes in the main thread.  Our SIGTSTP handler is in
 * place before newterm(), which makes curses leave SIGTSTP alone. */
static volatile sig_atomic_t pending_tstp, pending_cont, pending_winch;
static struct sigaction curses_winch;
static bool own_tstp;

static void wake_loop(void)
{
	int saved = errno;
	if (wake_pipe[1] >= 0) {
		ssize_t w = write(wake_pipe[1], "!", 1);
		(void)w; /* a full pipe already wakes the loop */
	}
	errno = saved;
}

static void on_tstp(int sig)
{
	(void)sig;
	pending_tstp = 1;
	wake_loop();
}

static void on_cont(int sig)
{
	(void)sig;
	pending_cont = 1;
	wake_loop();
}

static bool handler_is_function(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler != SIG_DFL &&
	       sa->sa_handler != SIG_IGN && sa->sa_handler != NULL;
}

static void on_winch(int sig)
{
	if (handler_is_function(&curses_winch))
		curses_winch.sa_handler(sig); /* curses notes the new size */
	pending_winch = 1;
	wake_loop();
}

static void set_handler(int sig, void (*fn)(int), struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, old);
}

/* Before newterm(): the pipe, SIGTSTP (unless the shell ignores it: then
 * Ctrl-Z stays ignored) and SIGCONT. */
static void install_job_control(void)
{
	if (pipe(wake_pipe) != 0) {
		wake_pipe[0] = wake_pipe[1] = -1;
		return;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(wake_pipe[i], F_SETFL,
		      fcntl(wake_pipe[i], F_GETFL) | O_NONBLOCK);
		fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
	}
	struct sigaction cur;
	own_tstp = sigaction(SIGTSTP, NULL, &cur) == 0 &&
		   cur.sa_handler != SIG_IGN;
	if (own_tstp)
		set_handler(SIGTSTP, on_tstp, NULL);
	set_handler(SIGCONT, on_cont, NULL);
}

/* After newterm(): our SIGWINCH handler in front of curses' own. */
static void install_resize_handler(void)
{
	if (wake_pipe[0] >= 0)
		set_handler(SIGWINCH, on_winch, &curses_winch);
}

static void remove_job_control(void)
{
	if (wake_pipe[0] < 0)
		return;
	sigaction(SIGWINCH, &curses_winch, NULL);
	if (own_tstp)
		signal(SIGTSTP, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	wake_pipe[0] = wake_pipe[1] = -1;
}

static void drain_wake_pipe(void)
{
	char buf[64];
	while (wake_pipe[0] >= 0 && read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

/* Ctrl-Z: leave curses, stop with the default action, and come back on
 * SIGCONT (the shell's fg) with the whole screen to repaint. */
static void suspend_self(void)
{
	endwin();
	fflush(stdout);
	struct sigaction dfl, ours;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, &ours);
	sigset_t tstp;
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &tstp, NULL);
	raise(SIGTSTP); /* stopped here until fg */
	sigaction(SIGTSTP, &ours, NULL);
	pending_cont = 0;
	clearok(curscr, TRUE);
}

/* A size change curses did not see (its handler was not installed). */
static void resize_from_terminal(void)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
}

static int wait_for_key(wint_t *wc);

bool screen_poll_escape(void)
{
	if (!started || current.headless)
		return false;
	bool esc = false;
	wint_t wc;
	nodelay(stdscr, TRUE);
	for (int i = 0; i < 64; i++) {
		int r = get_wch(&wc);
		if (r == ERR)
			break;
		esc |= r == OK && wc == 27;
	}
	return esc;
}

void screen_set_tick(int ms)
{
	tick_ms = ms;
}

int screen_get_key(wint_t *wc)
{
	busy = 0;
	int r = wait_for_key(wc);
	busy = 1;
	return r;
}

static int wait_for_key(wint_t *wc)
{
	if (wake_pipe[0] < 0) { /* no pipe: plain blocking curses input */
		nodelay(stdscr, FALSE);
		return get_wch(wc);
	}
	nodelay(stdscr, TRUE);
	for (;;) {
		drain_wake_pipe();
		if (quit_signal)
			return ERR;
		if (pending_tstp) {
			pending_tstp = 0;
			suspend_self();
			*wc = KEY_RESIZE;
			return KEY_CODE_YES;
		}
		if (pending_cont) { /* continued after a stop we did not ask for */
			pending_cont = 0;
			reset_prog_mode();
			clearok(curscr, TRUE);
			*wc = KEY_RESIZE;
			return KEY_CODE_YES;
		}
		if (pending_winch) {
			pending_winch = 0;
			if (!handler_is_function(&curses_winch)) {
				resize_from_terminal();
				*wc = KEY_RESIZE;
				return KEY_CODE_YES;
			}
		}
		int r = get_wch(wc);
		if (r != ERR)
			return r;
		struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0},
					{wake_pipe[0], POLLIN, 0}};
		int ready = poll(fds, 2, tick_ms);
		if (ready < 0 && errno != EINTR)
			return ERR;
		if (ready == 0) { /* the tick: redraw what finished meanwhile */
			*wc = KEY_RESIZE;
			return KEY_CODE_YES;
		}
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return ERR; /* the terminal is gone */
	}
}

bool screen_start(bool headless, int cols, int rows, struct screen_caps *caps)
{
	if (started) { /* held over from the run before */
		held = false;
		busy = 1;
		if (caps)
			*caps = current;
		return true;
	}
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
			present_put_text(stderr, term);
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
		install_job_control();
		if (!newterm(NULL, stdout, stdin)) {
			remove_job_control();
			fputs("callscope: cannot use terminal '", stderr);
			present_put_text(stderr, term);
			fputs("'\n", stderr);
			return false;
		}
		install_signals();
		install_resize_handler();
	}
	started = true;
	busy = 1; /* until the first frame is drawn */
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

void screen_hold(void)
{
	held = started;
}

void screen_stop(void)
{
	if (held) {
		held = false;
		return;
	}
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
	remove_job_control();
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

/* screen_text in window `win`; a colour pair `pair` above 0 is set
 * beside `attr` (pairs past 255, which attr_t cannot hold). */
static int window_text(WINDOW *win, int y, int x, int width, attr_t attr,
		       short pair, const char *text, bool pad)
{
	if (width <= 0)
		return 0;
	size_t n;
	wchar_t *w = to_wide(text ? text : "", &n);
	int used = 0;
	attr_t old_attr;
	short old_pair;
	wattr_get(win, &old_attr, &old_pair, NULL);
	if (pair > 0)
		wattr_set(win, attr, pair, NULL);
	else
		wattrset(win, attr);
	wmove(win, y, x);
	if (w) {
		int total = wide_width(w, n);
		int room = total > width ? width - 1 : width;
		for (size_t i = 0; i < n; i++) {
			int cw = wcwidth(w[i]);
			if (cw < 0)
				cw = 0;
			if (used + cw > room)
				break;
			waddnwstr(win, &w[i], 1);
			used += cw;
		}
		if (total > width) {
			waddstr(win, screen_glyphs()->ellipsis);
			used++;
		}
		free(w);
	}
	if (pad)
		for (; used < width; used++)
			waddch(win, ' ');
	wattrset(win, old_attr);
	return used;
}

int screen_text(int y, int x, int width, attr_t attr, const char *text,
		bool pad)
{
	return window_text(stdscr, y, x, width, attr, 0, text, pad);
}

int screen_text_pair(int y, int x, int width, attr_t attr, short pair,
		     const char *text, bool pad)
{
	return window_text(stdscr, y, x, width, attr, pair, text, pad);
}

/* The note line: a window of its own over the bottom line, refreshed
 * alone, so a frame half drawn on stdscr is not shown with it. */
static WINDOW *note_win;

void screen_note(attr_t attr, const char *text)
{
	if (!started || current.headless)
		return;
	if (!text) {
		if (note_win) {
			delwin(note_win);
			note_win = NULL;
			touchline(stdscr, LINES - 1, 1);
		}
		return;
	}
	if (!note_win)
		note_win = newwin(1, COLS, LINES - 1, 0);
	if (!note_win)
		return;
	window_text(note_win, 0, 0, COLS, attr, 0, text, true);
	wnoutrefresh(note_win);
	doupdate();
}

void screen_notef(attr_t attr, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	screen_note(attr, text);
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
