/* cli_url: the program side of opening by URL -- the global options
 * (--no-cache --offline --download --insecure --netrc --max-size N) taken
 * out of argv before dispatch, and around every transfer a progress line
 * on stderr when it is a terminal, a SIGINT handler and an Esc watcher
 * that set the cancel flag.  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "core/sanitize.h"
#include "core/temp_dirs.h"
#include "present/present_write.h"

/* The transfer in progress: a signal handler and the Esc watcher reach
 * its session's cancel flag only through here. */
static volatile sig_atomic_t term_signal; /* SIGTERM/SIGHUP in a transfer */
static struct {
	struct session *session;
	bool active;
	bool tty;            /* stderr is a terminal: draw progress */
	bool line_drawn;     /* a progress line is on screen */
	struct sigaction old_int, old_term, old_hup;
	bool esc_thread;
	pthread_t thread;
	volatile bool stop;
	struct termios saved;
} xfer;

static bool parse_size(const char *arg, uint64_t *out)
{
	char *end = NULL;
	errno = 0;
	if (!arg || *arg < '0' || *arg > '9')
		return false;
	unsigned long long v = strtoull(arg, &end, 10);
	if (errno != 0)
		return false;
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	else if (*end == 'T' || *end == 't')
		shift = 40;
	if (shift) {
		end++;
		if (*end == 'i' && end[1] == 'B')
			end += 2;
		else if (*end == 'B')
			end++;
	}
	if (*end != '\0' || v == 0 || v > (UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

/* The --image-path directories (argv strings, which outlive the run). */
static const char **image_dirs;

static bool add_image_path(struct open_options *o, const char *dir)
{
	const char **nd = realloc(image_dirs,
				  (o->n_image_path + 1) * sizeof(*nd));
	if (!nd)
		return false;
	image_dirs = nd;
	image_dirs[o->n_image_path++] = dir;
	o->image_path = image_dirs;
	return true;
}

bool cli_take_open_options(int *argc, char **argv, struct open_options *o)
{
	int out = 1;
	bool ok = true;
	int i = 1;
	for (; i < *argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			break;
		if (strcmp(a, "--no-cache") == 0) {
			o->no_cache = true;
		} else if (strcmp(a, "--align-clocks") == 0) {
			o->align_clocks = true;
		} else if (strcmp(a, "--kernel-names") == 0 ||
			   strncmp(a, "--kernel-names=", 15) == 0) {
			const char *v = a[14] == '=' ? a + 15
				       : i + 1 < *argc ? argv[++i]
						       : NULL;
			if (!v || (strcmp(v, "base") != 0 &&
				   strcmp(v, "demangled") != 0 &&
				   strcmp(v, "mangled") != 0)) {
				fputs("callscope: --kernel-names expects base, "
				      "demangled or mangled\n",
				      stderr);
				ok = false;
			} else {
				o->kernel_names = v;
			}
		} else if (strcmp(a, "--offline") == 0) {
			o->offline = true;
		} else if (strcmp(a, "--download") == 0) {
			o->download = true;
		} else if (strcmp(a, "--insecure") == 0) {
			o->insecure = true;
		} else if (strcmp(a, "--netrc") == 0) {
			o->netrc = true;
		} else if (strcmp(a, "--image-path") == 0 ||
			   strncmp(a, "--image-path=", 13) == 0) {
			const char *v = a[12] == '=' ? a + 13
				       : i + 1 < *argc ? argv[++i]
						       : NULL;
			if (!v || !*v) {
				fputs("callscope: --image-path expects a "
				      "directory\n",
				      stderr);
				ok = false;
			} else if (!add_image_path(o, v)) {
				fputs("callscope: out of memory\n", stderr);
				ok = false;
			}
		} else if (strcmp(a, "--max-size") == 0 ||
			   strncmp(a, "--max-size=", 11) == 0) {
			const char *v = a[10] == '=' ? a + 11
				       : i + 1 < *argc ? argv[++i]
						       : NULL;
			if (!parse_size(v, &o->max_size)) {
				fputs("callscope: --max-size expects a number "
				      "of bytes (suffix K, M, G allowed)\n",
				      stderr);
				ok = false;
			}
		} else {
			argv[out++] = argv[i];
		}
	}
	for (; i < *argc; i++)
		argv[out++] = argv[i];
	argv[out] = NULL;
	*argc = out;
	if (ok && o->offline && o->no_cache) {
		fputs("callscope: --offline and --no-cache exclude each "
		      "other\n",
		      stderr);
		ok = false;
	}
	return ok;
}

static void on_sigint(int sig)
{
	if (sig != SIGINT)
		term_signal = sig;
	if (xfer.session)
		xfer.session->cancel = 1;
}

/* Reads the terminal without echo; Esc cancels. */
static void *watch_esc(void *arg)
{
	(void)arg;
	while (!xfer.stop) {
		unsigned char c;
		ssize_t n = read(STDIN_FILENO, &c, 1);
		if (n == 1 && c == 0x1b)
			xfer.session->cancel = 1;
		else if (n < 0 && errno != EINTR && errno != EAGAIN)
			break;
	}
	return NULL;
}

static void clear_line(void)
{
	if (xfer.line_drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		xfer.line_drawn = false;
	}
}

static void on_progress(void *ctx, const struct open_progress *p)
{
	struct session *ses = ctx;
	if (!xfer.active) { /* a file read in parts after the open */
		if (ses->background)
			ses->background(ses->background_ctx, p);
		return;
	}
	if (!xfer.tty)
		return;
	if (p->done) {
		clear_line();
		return;
	}
	char now[32], total[32], rate[32], left[32] = "";
	present_format_bytes(now, sizeof(now), (double)p->now);
	present_format_bytes(total, sizeof(total), (double)p->total);
	double got = (double)(p->now - p->resumed);
	double speed = p->seconds > 0 ? got / p->seconds : 0;
	present_format_bytes(rate, sizeof(rate), speed);
	if (p->total > p->now && speed > 0) {
		double s = (double)(p->total - p->now) / speed;
		if (s < 360000)
			snprintf(left, sizeof(left), ", %d:%02d left",
				 (int)s / 60, (int)s % 60);
	}
	char *name = sanitize_text(p->name ? p->name : "", SANITIZE_TERMINAL);
	if (name) { /* at most 30 characters, never cut inside one */
		size_t bytes = 0, chars = 0;
		while (name[bytes] && chars < 30) {
			bytes++;
			while (((unsigned char)name[bytes] & 0xc0) == 0x80)
				bytes++;
			chars++;
		}
		name[bytes] = '\0';
	}
	if (p->total > 0) {
		int pct = (int)(100.0 * (double)p->now / (double)p->total);
		int filled = pct / 5;
		char bar[21];
		for (int i = 0; i < 20; i++)
			bar[i] = i < filled ? '#' : '-';
		bar[20] = '\0';
		fprintf(stderr, "\r\033[K%s [%s] %3d%% %s of %s, %s/s%s",
			name ? name : "", bar, pct, now, total, rate, left);
	} else {
		fprintf(stderr, "\r\033[K%s %s, %s/s", name ? name : "",
			now, rate);
	}
	fflush(stderr);
	free(name);
	xfer.line_drawn = true;
}

const struct open_options *cli_transfer_begin(struct session *s)
{
	const struct open_options *o = &s->options;
	if (xfer.active)
		return o;
	xfer.session = s;
	xfer.active = true;
	s->cancel = 0;
	xfer.tty = isatty(STDERR_FILENO);
	/* also kept by files read in parts */
	s->options.progress = on_progress;
	s->options.progress_ctx = s;
	struct sigaction sa = { .sa_handler = on_sigint };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &xfer.old_int);
	/* SIGTERM and SIGHUP stop the transfer too, so the partial files and
	 * --no-cache directories are cleaned up before the process dies */
	term_signal = 0;
	sigaction(SIGTERM, &sa, &xfer.old_term);
	sigaction(SIGHUP, &sa, &xfer.old_hup);
	xfer.esc_thread = false;
	xfer.stop = false;
	if (xfer.tty && isatty(STDIN_FILENO) &&
	    tcgetattr(STDIN_FILENO, &xfer.saved) == 0) {
		struct termios raw = xfer.saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 1; /* reads return every 0.1 s */
		if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0) {
			if (pthread_create(&xfer.thread, NULL, watch_esc,
					   NULL) == 0)
				xfer.esc_thread = true;
			else
				tcsetattr(STDIN_FILENO, TCSANOW, &xfer.saved);
		}
	}
	return o;
}

void cli_transfer_end(void)
{
	if (!xfer.active)
		return;
	xfer.active = false;
	if (xfer.esc_thread) {
		xfer.stop = true;
		pthread_join(xfer.thread, NULL);
		tcsetattr(STDIN_FILENO, TCSANOW, &xfer.saved);
		xfer.esc_thread = false;
	}
	sigaction(SIGINT, &xfer.old_int, NULL);
	sigaction(SIGTERM, &xfer.old_term, NULL);
	sigaction(SIGHUP, &xfer.old_hup, NULL);
	clear_line();
	if (term_signal) { /* clean up, then die of it as asked */
		int sig = term_signal;
		term_signal = 0;
		temp_dirs_remove_all();
		signal(sig, SIG_DFL);
		raise(sig);
	}
}
