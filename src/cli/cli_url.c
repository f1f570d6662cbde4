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

/* The reader options given (argv strings and static texts, which outlive
 * the run). */
static struct reader_option *reader_opts;
static size_t n_reader_opts;

const struct reader_option *cli_reader_options(size_t *n)
{
	*n = n_reader_opts;
	return reader_opts;
}

/* Check one reader option and add it; prints the problem (`given`: how
 * it was written, "--kernel-names") and returns false. */
static bool add_reader_option(const char *given, struct reader_option o)
{
	struct error err = {0};
	if (reader_options_check(&o, 1, &err) != STATUS_OK) {
		char *line = error_format(&err);
		fprintf(stderr, "callscope: %s: ", given);
		present_put_text(stderr, line ? line : "out of memory");
		fputc('\n', stderr);
		free(line);
		error_clear(&err);
		return false;
	}
	struct reader_option *v =
		realloc(reader_opts, (n_reader_opts + 1) * sizeof(*v));
	if (!v) {
		fputs("callscope: out of memory\n", stderr);
		return false;
	}
	reader_opts = v;
	reader_opts[n_reader_opts++] = o;
	return true;
}

bool cli_set_reader_flag(const char *flag, const char *value)
{
	struct reader_option o;
	if (!reader_flag_option(flag, value, &o))
		return false;
	for (size_t i = n_reader_opts; i-- > 0;)
		if (strcmp(reader_opts[i].reader, o.reader) == 0 &&
		    strcmp(reader_opts[i].key, o.key) == 0) {
			struct error err = {0};
			bool ok = reader_options_check(&o, 1, &err) == STATUS_OK;
			error_clear(&err);
			if (ok)
				reader_opts[i] = o;
			return ok;
		}
	return add_reader_option(flag, o);
}

const char *cli_reader_flag_value(const char *flag)
{
	struct reader_option o;
	if (!reader_flag_option(flag, "", &o))
		return NULL;
	for (size_t i = n_reader_opts; i-- > 0;)
		if (strcmp(reader_opts[i].reader, o.reader) == 0 &&
		    strcmp(reader_opts[i].key, o.key) == 0)
			return reader_opts[i].value;
	return NULL;
}

/* A flag of argv[*i] that stands for a reader option (--kernel-names V,
 * --kernel-names=V, --align-clocks), or --option R:K=V: taken into the
 * list (*i past its value); false with *ok untouched when `a` is not one. */
static bool take_reader_flag(int argc, char **argv, int *i, bool *ok)
{
	char *a = argv[*i];
	if (strncmp(a, "--", 2) != 0)
		return false;
	char flag[64];
	char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	if (len == 0 || len >= sizeof(flag))
		return false;
	memcpy(flag, a + 2, len);
	flag[len] = '\0';
	struct reader_option o;
	bool generic = strcmp(flag, "option") == 0;
	int arity = generic ? 1 : reader_flag_arity(flag);
	if (arity < 0 || (arity == 0 && eq))
		return false;
	char *v = NULL;
	if (arity == 1)
		v = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
	if (arity == 1 && !v) {
		fprintf(stderr, "callscope: --%s expects a value\n", flag);
		*ok = false;
		return true;
	}
	if (generic) {
		struct error err = {0};
		/* the option points into argv's string, cut at ':' and '=' */
		if (reader_option_parse(v, &o, &err) != STATUS_OK) {
			char *line = error_format(&err);
			fputs("callscope: --option: ", stderr);
			present_put_text(stderr, line ? line : "out of memory");
			fputc('\n', stderr);
			free(line);
			error_clear(&err);
			*ok = false;
			return true;
		}
	} else {
		reader_flag_option(flag, v, &o);
	}
	if (!add_reader_option(generic ? "--option" : a, o))
		*ok = false;
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
		if (take_reader_flag(*argc, argv, &i, &ok)) {
			continue;
		} else if (strcmp(a, "--no-cache") == 0) {
			o->no_cache = true;
		} else if (strcmp(a, "--offline") == 0) {
			o->offline = true;
		} else if (strcmp(a, "--download") == 0) {
			o->download = true;
		} else if (strcmp(a, "--insecure") == 0) {
			o->insecure = true;
		} else if (strcmp(a, "--netrc") == 0) {
			o->netrc = true;
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
