/* reader: the interface every format reader implements, the probe they
 * bid on, and the registry of the readers compiled in.
 *
 * libarchive's shape, taken further: the registry reads the input once
 * into a `struct reader_probe` (a file's first bytes, a directory's entry
 * names, an SQLite file's table names, an archive's member names) and
 * hands every bidder the same probe and the best bid so far; bidders do no
 * I/O of their own.  The highest bid opens the input: one or more paths
 * plus options.  A reader fills a model through the builder in
 * model/model.h and never prints or exits.  A reader also says which
 * files of its directory it reads, and how (`files`: a directory URL is
 * fetched by them, formats/registry_remote.h), and may disassemble its
 * programs' procedures (`listing`).  Opening by URL, archive extraction
 * and several paths as one run are src/open.c's job; this layer does no
 * transfer.  Depends on core/, model/, io/, archive/. */
#ifndef CALLSCOPE_READER_H
#define CALLSCOPE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model_build.h"

/* How many bytes of a file the probe holds. */
#define READER_PROBE_HEAD (64 * 1024)
/* How many subdirectories, and names in them, the probe of a directory
 * lists one level down. */
#define READER_PROBE_SUBDIRS 16
#define READER_PROBE_SUBNAMES 4096

/* What the registry read of one input path, once, for every bidder. */
struct reader_probe {
	const char *path; /* as given */
	bool is_dir;
	bool is_file; /* a regular file, or a file registered as remote */
	/* a file: its first bytes (up to READER_PROBE_HEAD) */
	const uint8_t *head;
	size_t head_len;
	/* a directory: the names of its files (regular or registered as
	 * remote, symbolic links followed) and of its subdirectories, each
	 * sorted by name */
	const char *const *names;
	size_t n_names;
	const char *const *subdirs;
	size_t n_subdirs;
	/* a directory: the names of the files one level down, in its first
	 * READER_PROBE_SUBDIRS subdirectories (by name; at most
	 * READER_PROBE_SUBNAMES names, sorted, a name once), for the sets
	 * of point directories whose files tell the format */
	const char *const *subnames;
	size_t n_subnames;
	/* an SQLite file (head says so): its tables and views, sorted */
	bool is_sqlite;
	const char *const *tables;
	size_t n_tables;
	/* a tar or zip archive: member names in archive order; a prefix
	 * when the archive is long or compressed (members_complete false) */
	bool is_archive;
	bool members_complete;
	const char *const *members;
	size_t n_members;
};

/* Whether the probe's directory holds file `name`; the last component
 * of the probe's path (what follows its last '/'). */
bool reader_probe_has(const struct reader_probe *p, const char *name);
const char *reader_probe_base(const struct reader_probe *p);
/* Whether the probe's head starts with `magic` (`len` bytes). */
bool reader_probe_head_is(const struct reader_probe *p, const void *magic,
			  size_t len);
/* Whether the SQLite file has table (or view) `name`. */
bool reader_probe_has_table(const struct reader_probe *p, const char *name);
/* Whether the SQLite file has a table (or view) whose name starts with
 * `prefix` ("CUPTI_ACTIVITY_KIND_", "rocpd_event"). */
bool reader_probe_has_table_prefix(const struct reader_probe *p,
				   const char *prefix);
/* Whether file name `name` ends with `suffix` (".sqlite"). */
bool reader_name_ends_with(const char *name, const char *suffix);
/* Whether the probe's directory holds a file whose name ends with
 * `suffix`: a directory reader's guess from names (a reader that knows
 * the directory's files bids higher). */
bool reader_probe_dir_has_suffix(const struct reader_probe *p,
				 const char *suffix);
/* The same one level down (the probe's subnames), names starting with
 * '.' left out. */
bool reader_probe_subdirs_have_suffix(const struct reader_probe *p,
				      const char *suffix);

/* Read the probe of `path`.  STATUS_NOT_FOUND when it does not exist;
 * the listing and table errors of a directory or SQLite file otherwise
 * (the probe stays usable: what could not be read is empty).  Free with
 * reader_probe_free(). */
enum status reader_probe_read(const char *path, struct reader_probe **out,
			      struct error *err);
void reader_probe_free(struct reader_probe *p);

/* Options a reader may take (all optional; zero means the default). */
/* How far a long scan is (a GPU run opened for the first time): reported
 * at most a few times a second and once at the end (`done`). */
struct reader_progress {
	uint32_t files_done, n_files;
	uint64_t bytes_done, bytes_total; /* of the files done, of all */
	uint64_t rows;                    /* rows read so far */
	double seconds;                   /* since the scan began */
	bool indexing; /* what the scan finds is kept: later opens skip it */
	bool done;
	const char *noun;  /* what is read, "trace"; NULL: "run" */
	const char *items; /* what `rows` counts, "events"; NULL: "rows" */
};

/* One reader option, READER:KEY=VALUE (libarchive's set_option shape):
 * `reader` names a reader or a group of readers that take the same
 * options ("gpu": the GPU runs, rocpd and nsight), `key` the option
 * ("align-clocks"), `value` its text ("yes").  The strings are the
 * caller's and must outlive the open. */
struct reader_option {
	const char *reader;
	const char *key;
	const char *value;
};

struct reader_options {
	/* The options given (--option, and the flags mapped to options by
	 * reader_flag_option); each reader takes those addressed to it
	 * (reader_options_apply) and ignores the others. */
	const struct reader_option *list;
	size_t n;
	/* DCPI: directories where the profiled programs' ELF images are,
	 * the dcpi:image-path options (filled by reader_options_image_path
	 * until the DCPI reader parses its own options; review 7.2 item 4) */
	const char *const *image_path;
	size_t n_image_path;
	/* The reader's own cache directory, ROOT/CACHE_NAME (struct reader's
	 * cache_name), made by src/open.c: a reader that must scan a whole
	 * database before showing it (the GPU runs) keeps an index of what
	 * the scan found there, so that later opens skip it; NULL: nothing
	 * is cached (--no-cache, no cache root). */
	const char *cache_dir;
	/* Called during a long scan (NULL: not); must not print when the
	 * curses screen is up. */
	void (*progress)(void *ctx, const struct reader_progress *p);
	void *progress_ctx;
	/* Asked now and then during a long scan (NULL: never): true stops
	 * it (the open fails, STATUS_IO "cancelled"); given progress_ctx.
	 * Called from the scan's threads. */
	bool (*cancelled)(void *ctx);
	/* Not NULL: the caller can show a partial model.  A reader whose
	 * full open is slow may then return a partial model built from
	 * small queries and set *later to the job that builds the complete
	 * one (formats/open_later.h; the caller's to free); otherwise it
	 * leaves *later NULL and opens as usual. */
	struct open_later **later;
};

/* One input: one or more paths (several rocpd databases of one run) and
 * the options. */
struct reader_input {
	const char *const *paths;
	size_t n_paths;
	const struct reader_options *options;
};

/* What a reader's models can hold, for --help, the man page and the
 * panes that depend on them. */
#define READER_CAP_LIST(X)                                                  \
	X(READER_CAP_TREE, "tree", "calling-context tree with metric values") \
	X(READER_CAP_PER_PROFILE, "profiles",                                \
	  "values per thread, rank or GPU stream")                          \
	X(READER_CAP_SAMPLES, "samples", "sampled timelines")                \
	X(READER_CAP_INTERVALS, "intervals", "interval timelines")           \
	X(READER_CAP_COUNTERS, "counters", "counter tracks")                 \
	X(READER_CAP_PARAMS, "parameters", "parameter space (modeling)")     \
	X(READER_CAP_MERGE, "merge", "several files as one run")

enum reader_cap_bit {
#define READER_CAP_BIT(code, name, text) code##_BIT,
	READER_CAP_LIST(READER_CAP_BIT)
#undef READER_CAP_BIT
	READER_CAP_COUNT
};
enum reader_cap {
#define READER_CAP_FLAG(code, name, text) code = 1u << code##_BIT,
	READER_CAP_LIST(READER_CAP_FLAG)
#undef READER_CAP_FLAG
};

/* The short name ("tree") and description of capability bit `bit`. */
const char *reader_cap_name(unsigned bit);
const char *reader_cap_text(unsigned bit);

/* One thing a reader keeps in its cache directory (`callscope cache
 * list`): the index of a GPU run, say.  Strings malloc'd except `kind`
 * and `label`, which are the reader's static texts. */
struct reader_cache_entry {
	char *path;        /* where it is (its files are PATH.*) */
	char *first;       /* what it caches: the first file it stands for */
	uint32_t n_files;  /* of the input it stands for */
	uint64_t bytes;    /* of every file of the entry */
	int64_t date;      /* the newest of their modification times */
	const char *kind;  /* one word or two for JSON: "run index" */
	const char *label; /* a few words for text: "index of a GPU run" */
};

/* How a reader reads a file of its directory, for a copy of the
 * directory made elsewhere (a directory URL fetched into the cache). */
enum reader_file_flag {
	/* read in parts (blob_open_file): may stay on the server and be
	 * read by range */
	READER_FILE_LAZY = 1u << 0,
	/* rewritten whenever the database is: unchanged, the directory's
	 * file set is as before (no listing is read again) */
	READER_FILE_KEY = 1u << 1,
	/* the same, and every other file is unchanged too (no request) */
	READER_FILE_KEY_ALL = 1u << 2,
	/* tried by its name when its directory has no listing */
	READER_FILE_GUESS = 1u << 3,
};

/* One kind of file a reader reads in its directory: a pattern of the
 * path relative to the directory (fnmatch with FNM_PATHNAME: "meta.db",
 * "*.hpctrace", or "*.yaml" below "metrics/", written with the folder)
 * and its reader_file_flag bits. */
struct reader_file_rule {
	const char *pattern;
	unsigned flags;
};

/* One instruction of a procedure listing (struct reader's `listing`);
 * strings valid during the emit call only. */
struct reader_insn {
	uint64_t addr;
	uint32_t size;
	const char *bytes; /* "55 48 89 e5" */
	const char *text;  /* "mov rbp, rsp" */
	const char *file;  /* source file, NULL when unknown */
	uint32_t line;     /* 0 when unknown */
};
typedef void (*reader_insn_emit)(void *ctx, const struct reader_insn *insn);

struct reader {
	const char *name;        /* "hpctoolkit-v4": --help, the man page */
	const char *description; /* one line: what files it reads */
	unsigned caps;           /* enum reader_cap flags */
	/* 0..100: how sure the reader is that it can read the probed path.
	 * `best` is the highest bid so far (a reader may return 0 at once
	 * when it cannot beat it).  No I/O: the probe holds what there is. */
	int (*bid)(const struct reader_probe *p, int best);
	/* Open `in` into a new model.  in->n_paths is 1 unless `caps` has
	 * READER_CAP_MERGE.  On failure returns the status with a message
	 * naming the file and the problem in `err`. */
	enum status (*open)(const struct reader_input *in, struct model **out,
			    struct error *err);
	/* Optional (NULL when the reader caches nothing): the name of the
	 * directory under the cache root where the reader keeps what it
	 * caches (readers that share one name share the directory), handed
	 * to open() as reader_options.cache_dir, and the listing of that
	 * directory for `callscope cache list`.  `dir` need not exist. */
	const char *cache_name;
	enum status (*cache_list)(const char *dir,
				  struct reader_cache_entry **out, size_t *n,
				  struct error *err);
	/* Optional (NULL: the reader takes no options): the names options
	 * are addressed to that this reader answers (its own name, a group
	 * name), NULL-terminated, and the parse of one option: `state` is
	 * the reader's (NULL: only check), an unknown key or a bad value is
	 * STATUS_USAGE with a message that names the option and what is
	 * known. */
	const char *const *option_names;
	enum status (*option)(void *state, const char *key, const char *value,
			      struct error *err);
	/* Optional (NULL: every file of the directory, read whole): the
	 * files of a directory this reader reads, first match wins, ended
	 * by a rule with a NULL pattern; a file no rule matches is not
	 * read.  src/open.c fetches a directory URL by these. */
	const struct reader_file_rule *files;
	/* Optional (NULL: the rules alone): a further test every file a
	 * rule matched must pass, given its path relative to the directory,
	 * for names no pattern can tell (DCPI's IMAGEHEX.EVENT). */
	bool (*files_accept)(const char *path);
	/* Optional (NULL: its models have no instruction listings): the
	 * procedure of program image `image` (a model's module name) that
	 * holds `addr`: its name (heap), entry and size, and each of its
	 * instructions in address order through `emit`. */
	enum status (*listing)(const char *image, uint64_t addr, char **name,
			       uint64_t *entry, uint64_t *size,
			       reader_insn_emit emit, void *ctx,
			       struct error *err);
	/* Optional (NULL: run names mean nothing to it): the parameters in
	 * a run's name, for reader_point_params (below), by the reader whose
	 * format names its points so (Extra-P's directory sets). */
	bool (*point_params)(const char *name, char ***names, double **values,
			     uint32_t *n);
};

/* The listing of the reader named `format` (a model's format), as its
 * `listing`; STATUS_UNSUPPORTED, with a message naming the formats that
 * have listings, when it has none. */
enum status reader_listing(const char *format, const char *image,
			   uint64_t addr, char **name, uint64_t *entry,
			   uint64_t *size, reader_insn_emit emit, void *ctx,
			   struct error *err);

/* Whether the reader named `format` has listings; in `names` (when not
 * NULL, `len` bytes) the readers that have them, "a, b". */
bool reader_has_listing(const char *format, char *names, size_t len);

/* A reader's table in one shape: the symbol, the name, the capabilities,
 * the bid and open functions, then the description, which may be followed
 * by the optional members as designated initializers:
 *     READER(reader_cube, "cube", READER_CAP_TREE, cube_bid, cube_open,
 *            "Score-P / Scalasca Cube4 profile");
 *     READER(reader_otf2, "otf2", caps, otf2_bid, otf2_open, "OTF2 ...",
 *            .cache_name = "otf2", .cache_list = otf2_cache_list);
 * The registry (reader.c) names the symbol. */
#define READER(sym, name_, caps_, bid_, open_, ...)                          \
	const struct reader sym = {.name = (name_),                          \
				   .caps = (caps_),                          \
				   .bid = (bid_),                            \
				   .open = (open_),                          \
				   .description = __VA_ARGS__}

/* The readers compiled in, NULL-terminated. */
const struct reader *const *reader_all(void);

/* The reader with the highest nonzero bid on `p` (the first of equal
 * bids), or NULL. */
const struct reader *reader_choose(const struct reader_probe *p);

/* One reader's bid on one path (probed here; 0 when it cannot be probed)
 * and one reader's open of one path: for tests and tools that name the
 * reader. */
int reader_bid_path(const struct reader *r, const char *path);
enum status reader_open_path(const struct reader *r, const char *path,
			     struct model **out, struct error *err);

/* What every reader keeps under the cache root `root` (ROOT/CACHE_NAME,
 * each directory listed once, in the registry's order): *out malloc'd,
 * freed with reader_cache_list_free. */
enum status reader_cache_list(const char *root,
			      struct reader_cache_entry **out, size_t *n,
			      struct error *err);
void reader_cache_list_free(struct reader_cache_entry *e, size_t n);

/* Split "READER:KEY=VALUE" (`text` is kept: the option points into it,
 * with the ':' and '=' overwritten); STATUS_USAGE when it has not that
 * shape. */
enum status reader_option_parse(char *text, struct reader_option *out,
				struct error *err);

/* The option a command-line flag stands for (the flag without its
 * dashes, "align-clocks"), with `value` (NULL for a flag that takes none:
 * "yes"); false when the flag stands for no reader option. */
bool reader_flag_option(const char *flag, const char *value,
			struct reader_option *out);

/* How many values flag `flag` takes when it stands for a reader option:
 * 0 ("align-clocks") or 1 ("kernel-names"); -1 when it stands for none. */
int reader_flag_arity(const char *flag);

/* Check options before any open: each must be addressed to a name some
 * reader answers and be taken by that reader (its option(), state NULL);
 * else STATUS_USAGE naming the option and what is known. */
enum status reader_options_check(const struct reader_option *list, size_t n,
				 struct error *err);

/* Hand reader `r` the options of `o` addressed to it (r->option_names),
 * in order, to parse into `state` (a later one wins); NULL `o`: none. */
enum status reader_options_apply(const struct reader *r,
				 const struct reader_options *o, void *state,
				 struct error *err);

/* Whether the reader named `name` (a model's format) takes option `key`
 * with `value` (its option(), only checking). */
bool reader_takes_option(const char *name, const char *key,
			 const char *value);

/* The dcpi:image-path options of `list` as an array of directories (the
 * strings are the options'; *out malloc'd, NULL when none): the bridge to
 * reader_options.image_path until the DCPI reader parses its own. */
enum status reader_options_image_path(const struct reader_option *list,
				      size_t n, const char ***out,
				      size_t *n_out, struct error *err);

/* The parameters in a run's name (the last component of its path), as
 * Extra-P names the points of a directory set ("app.p16.n64.r1": p = 16,
 * n = 64), read by the `point_params` of the reader that has one
 * (Extra-P's directory sets), so that runs of any format
 * named so make a measurement set (`callscope compare`).  *names (heap
 * strings) and *values hold *n > 0 parameters; free them with
 * reader_point_params_free.  False when the name has none (or out of
 * memory). */
bool reader_point_params(const char *name, char ***names, double **values,
			 uint32_t *n);
void reader_point_params_free(char **names, double *values, uint32_t n);

#endif
