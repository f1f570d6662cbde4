/* open_options: how a database given by URL is opened -- the cache policy,
 * transfer limits, TLS and credential choices, the cancel flag and the
 * progress hook -- gathered in one struct that the program fills from its
 * global options (--no-cache --offline --download --insecure --netrc
 * --max-size N) and passes down to database_open_with(), the fetcher and
 * the remote blob.  Plain data: must not depend on curl, curses or ui/. */
#ifndef CALLSCOPE_OPEN_OPTIONS_H
#define CALLSCOPE_OPEN_OPTIONS_H

#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* Defaults (open_options_init). */
#define OPEN_OPTIONS_CONNECT_TIMEOUT_S 10
#define OPEN_OPTIONS_STALL_TIME_S 30
#define OPEN_OPTIONS_STALL_LIMIT 1
#define OPEN_OPTIONS_MAX_REDIRECTS 5
#define OPEN_OPTIONS_LAZY_MIN_SIZE ((uint64_t)64 << 20)

/* Called from inside a transfer, at most a few times a second and once at
 * the end (`done` set).  `total` is 0 when the size is unknown.  `resumed`
 * is the number of bytes that were already on disk before this transfer
 * (part of `now`).  Must not print when the curses screen is up. */
struct open_progress {
	const char *url;   /* redacted: no user:password */
	const char *name;  /* the file's name within a directory URL */
	uint64_t now;      /* bytes of the file present so far */
	uint64_t total;    /* expected size, 0 when unknown */
	uint64_t resumed;  /* bytes that came from an earlier .part */
	double seconds;    /* elapsed in this transfer */
	bool done;
};

struct open_options {
	/* Cache policy. */
	bool no_cache;       /* download to a temporary directory removed at exit */
	bool offline;        /* never touch the network: cache hits only */
	bool download;       /* download every file, never read remotely */
	/* Transfer choices. */
	bool insecure;       /* skip TLS verification (--insecure) */
	bool netrc;          /* credentials from ~/.netrc (--netrc) */
	uint64_t max_size;   /* refuse files larger than this; 0: no limit */
	/* Limits, in seconds / bytes per second; open_options_init sets the
	 * defaults above, overridden by $CALLSCOPE_CONNECT_TIMEOUT,
	 * $CALLSCOPE_STALL_TIME and $CALLSCOPE_LAZY_MIN_SIZE (for tests). */
	long connect_timeout_s;
	long stall_time_s;   /* abort when slower than stall_limit for this */
	long stall_limit;    /* bytes per second */
	uint64_t lazy_min_size; /* read files at least this big remotely */
	/* The cache root; NULL: $XDG_CACHE_HOME/callscope, else
	 * ~/.cache/callscope. */
	const char *cache_dir;
	/* When non-NULL and non-zero, every transfer stops with "cancelled"
	 * (a SIGINT handler sets it).  Never written by the engine. */
	volatile sig_atomic_t *cancel;
	/* Progress reports; NULL: none. */
	void (*progress)(void *ctx, const struct open_progress *p);
	void *progress_ctx;
};

/* Fill `o` with the defaults: everything off, the limits above, the
 * environment overrides applied. */
void open_options_init(struct open_options *o);

/* True when the cancel flag is set. */
bool open_options_cancelled(const struct open_options *o);

#endif
