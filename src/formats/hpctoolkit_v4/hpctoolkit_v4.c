/* hpctoolkit_v4: the reader of HPCToolkit v4 database directories
 * (meta.db, profile.db, cct.db, trace.db, metrics/default.yaml): bidding,
 * and opening the files in order into one model with lazily read values
 * and trace samples.  The file formats themselves are read by v4_meta,
 * v4_profile, v4_cct and v4_trace.  Must not depend on curses or on ui/. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/path.h"
#include "io/blob.h"
#include "formats/hpctoolkit_v4/metrics.h"
#include "formats/reader.h"
#include "formats/hpctoolkit_v4/v4_cct.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "formats/hpctoolkit_v4/v4_meta.h"
#include "formats/hpctoolkit_v4/v4_profile.h"
#include "formats/hpctoolkit_v4/v4_trace.h"

struct v4_values {
	struct v4_profile *profile;
	struct v4_cct *cct; /* NULL when the database has no cct.db */
};

static bool values_summary(void *impl, uint32_t ctx_id, uint32_t stat_id,
			   double *out)
{
	const struct v4_values *v = impl;
	return v4_profile_summary(v->profile, ctx_id, stat_id, out);
}

static enum status values_summary_all(void *impl, uint32_t stat_id,
				      void (*emit)(void *ctx, uint32_t ctx_id,
						   double value),
				      void *ctx, struct error *err)
{
	const struct v4_values *v = impl;
	return v4_profile_summary_all(v->profile, stat_id, emit, ctx, err);
}

static enum status values_per_profile(void *impl, uint32_t ctx_id,
				      uint32_t prop_id,
				      struct profile_value **out, size_t *n,
				      struct error *err)
{
	struct v4_values *v = impl;
	*out = NULL;
	*n = 0;
	if (!v->cct)
		return error_set(err, STATUS_UNSUPPORTED, NULL,
				 "the database has no cct.db: per-thread "
				 "values are not available");
	return v4_cct_values(v->cct, ctx_id, prop_id, out, n, err);
}

static void values_close(void *impl)
{
	struct v4_values *v = impl;
	if (!v)
		return;
	v4_profile_close(v->profile);
	v4_cct_close(v->cct);
	free(v);
}

/* No summary read can fail after open: v4_profile maps the summary
 * profile's value block at open (blob_map_range fetches a remote range
 * then), so a lookup only reads memory; per-profile reads return their
 * errors.  Present so that the model's value error channel is wired for
 * every format. */
static bool values_take_error(void *impl, struct error *err)
{
	(void)impl, (void)err;
	return false;
}

static const struct value_ops v4_value_ops = {
	.summary = values_summary,
	.per_profile = values_per_profile,
	.close = values_close,
	.summary_all = values_summary_all,
	.take_error = values_take_error,
};

static bool trace_sample(void *impl, uint32_t line, uint64_t index,
			 struct trace_sample *out)
{
	return v4_trace_sample(impl, line, index, out);
}

static void trace_close(void *impl)
{
	v4_trace_close(impl);
}

static bool trace_take_error(void *impl, struct error *err)
{
	return v4_trace_take_error(impl, err);
}

static const struct trace_ops v4_trace_ops = {
	.sample = trace_sample,
	.close = trace_close,
	.take_error = trace_take_error,
};

/* A regular file, or a file registered as remote (blob.h): a database
 * directory whose trace.db is read remotely opens like a local one. */
static bool is_file(const char *path)
{
	return blob_path_exists(path);
}

static bool dir_has(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	bool ok = p && is_file(p);
	free(p);
	return ok;
}

/* The files of a database directory (FORMATS.md). */
static const char *const database_names[] = {"meta.db", "profile.db",
					      "cct.db", "trace.db"};

static bool is_database_name(const char *name)
{
	for (size_t i = 0; i < 4; i++)
		if (strcmp(name, database_names[i]) == 0)
			return true;
	return false;
}

/* The first subdirectory of `dir` by name holding a file of a database,
 * malloc'd; NULL when none. */
static char *database_below(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;
	while (d && (e = readdir(d))) {
		bool has = false;
		for (size_t i = 0; e->d_name[0] != '.' && !has && i < 4; i++) {
			char *sub = path_join(e->d_name, database_names[i]);
			has = sub && dir_has(dir, sub);
			free(sub);
		}
		if (has && (!found || strcmp(e->d_name, found) < 0)) {
			free(found);
			found = strdup(e->d_name);
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* A directory with meta.db, a file named meta.db or starting with the
 * meta.db magic (FORMATS.md "Common file header": "HPCTOOLKIT" then the
 * format's four letters); 50 for a directory with only the other files
 * or another v4 file, so that the message about what is missing is
 * ours. */
static int v4_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		if (reader_probe_has(p, "meta.db"))
			return 90;
		if (reader_probe_has(p, "profile.db") ||
		    reader_probe_has(p, "trace.db") ||
		    reader_probe_has(p, "cct.db"))
			return 50;
		/* databases one level down: a set of them, not one (a guess
		 * that open() names; other readers guessing at .db files
		 * bid less) */
		for (size_t i = 0; i < p->n_subnames; i++)
			if (is_database_name(p->subnames[i]))
				return 35;
		return 0;
	}
	if (!p->is_file)
		return 0;
	if (strcmp(reader_probe_base(p), "meta.db") == 0)
		return 90;
	if (p->head_len >= 14 && reader_probe_head_is(p, "HPCTOOLKIT", 10))
		return memcmp(p->head + 10, "meta", 4) == 0 ? 90 : 50;
	return 0;
}

/* The database directory of `path`: itself, or the directory of the
 * file. */
static char *database_dir(const char *path)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return strdup(path);
	char *copy = strdup(path);
	if (!copy)
		return NULL;
	char *dir = strdup(dirname(copy));
	free(copy);
	return dir;
}

/* Open the optional file `name` of `dir`: *present false (and STATUS_OK)
 * when it does not exist. */
static enum status open_optional(const char *dir, const char *name,
				 enum v4_format format, struct v4_file *f,
				 bool *present, struct error *err)
{
	char *path = path_join(dir, name);
	*present = false;
	memset(f, 0, sizeof(*f));
	if (!path)
		return error_set(err, STATUS_NOMEM, dir, "out of memory");
	enum status st = STATUS_OK;
	if (is_file(path)) {
		st = v4_file_open_path(path, format, f, err);
		*present = st == STATUS_OK;
	}
	free(path);
	return st;
}

/* The error of a directory without meta.db, naming what it has. */
static enum status no_meta(const char *path, const char *dir,
			   const char *meta_path, struct error *err)
{
	char *sub = database_below(dir);
	if (sub) { /* a set of databases, one level down */
		enum status st = error_set(
			err, STATUS_NOT_DATABASE, path,
			"the directory holds HPCToolkit databases one level "
			"down (%s/), not one: open one of them",
			sub);
		free(sub);
		return st;
	}
	bool t = dir_has(dir, "trace.db"), p = dir_has(dir, "profile.db");
	return error_set(err, STATUS_NOT_FOUND, meta_path,
			 "meta.db is missing: an HPCToolkit v4 "
			 "database cannot be opened without it%s",
			 t && p ? " (the directory has only trace.db "
				  "and profile.db)"
			 : t    ? " (the directory has only trace.db)"
			 : p    ? " (the directory has only profile.db)"
				: "");
}

/* metrics/default.yaml: the columns (the default mapping without). */
static enum status add_columns(struct model_builder *b, const char *path,
			       const char *dir, struct error *err)
{
	char *yaml = NULL, *warning = NULL;
	if (asprintf(&yaml, "%s/metrics/default.yaml", dir) < 0)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	enum status st = metrics_add_columns(b, is_file(yaml) ? yaml : NULL,
					     &warning, err);
	if (st == STATUS_OK && warning)
		model_builder_add_warning(b, warning);
	free(warning);
	free(yaml);
	return st;
}

static enum status v4_open(const struct reader_input *in,
			   struct model **out, struct error *err)
{
	const char *path = in->paths[0];
	enum status st = STATUS_OK;
	char *dir = NULL, *meta_path = NULL, *prof_path = NULL;
	struct model_builder *b = NULL;
	struct v4_meta meta = {.kind_names = NULL, .n_kinds = 0};
	struct v4_file f = {.blob = NULL};
	struct v4_values *values = NULL;
	struct v4_trace *trace = NULL;
	bool present;
	*out = NULL;
	dir = database_dir(path);
	if (!dir || asprintf(&meta_path, "%s/meta.db", dir) < 0 ||
	    asprintf(&prof_path, "%s/profile.db", dir) < 0) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	if (!is_file(meta_path)) {
		st = no_meta(path, dir, meta_path, err);
		goto out;
	}
	b = model_builder_new("hpctoolkit-v4", path);
	if (!b) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	/* meta.db: the tree, the statistics, the identifier names */
	st = v4_file_open_path(meta_path, V4_FORMAT_META, &f, err);
	if (st != STATUS_OK)
		goto out;
	st = v4_meta_read(&f, b, &meta, err);
	v4_file_close(&f);
	if (st != STATUS_OK)
		goto out;
	/* profile.db: the profiles and the summary values (required) */
	if (!is_file(prof_path)) {
		st = error_set(err, STATUS_NOT_FOUND, prof_path,
			       "profile.db is missing: the database has no "
			       "metric values");
		goto out;
	}
	values = calloc(1, sizeof(*values));
	if (!values) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	st = v4_file_open_path(prof_path, V4_FORMAT_PROFILE, &f, err);
	if (st == STATUS_OK)
		st = v4_profile_open(&f, &meta, b, &values->profile, err);
	if (st != STATUS_OK)
		goto out;
	uint32_t n_profiles = v4_profile_count(values->profile);
	/* cct.db: per-profile values (optional) */
	st = open_optional(dir, "cct.db", V4_FORMAT_CCT, &f, &present, err);
	if (st == STATUS_OK && present)
		st = v4_cct_open(&f, n_profiles, &values->cct, err);
	if (st != STATUS_OK)
		goto out;
	model_builder_set_values(b, &v4_value_ops, values);
	values = NULL;
	/* trace.db: one sample line per traced profile (optional) */
	st = open_optional(dir, "trace.db", V4_FORMAT_TRACE, &f, &present,
			   err);
	if (st == STATUS_OK && present)
		st = v4_trace_open(&f, n_profiles, b, &trace, err);
	if (st != STATUS_OK)
		goto out;
	if (trace)
		model_builder_set_trace(b, &v4_trace_ops, trace);
	trace = NULL;
	st = add_columns(b, path, dir, err);
	if (st != STATUS_OK)
		goto out;
	*out = model_builder_finish(b, err);
	b = NULL;
	if (!*out)
		st = STATUS_NOMEM;
out:
	values_close(values);
	v4_trace_close(trace);
	v4_file_close(&f);
	model_builder_free(b);
	v4_meta_free(&meta);
	free(prof_path);
	free(meta_path);
	free(dir);
	return st;
}

/* A copy of the directory (a directory URL): meta.db is rewritten with
 * every database; the large files are read in parts (blob_open_file), so
 * they may stay on the server; metrics/ as listed, else its default. */
static const struct reader_file_rule v4_files[] = {
	{"meta.db", READER_FILE_KEY | READER_FILE_GUESS},
	{"profile.db", READER_FILE_LAZY | READER_FILE_GUESS},
	{"cct.db", READER_FILE_LAZY | READER_FILE_GUESS},
	{"trace.db", READER_FILE_LAZY | READER_FILE_GUESS},
	{"metrics/default.yaml", READER_FILE_GUESS},
	{"metrics/*.yaml", 0},
	{"metrics/*.yml", 0},
	{NULL, 0},
};

READER(reader_hpctoolkit_v4, "hpctoolkit-v4",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_SAMPLES, v4_bid,
       v4_open,
       "HPCToolkit v4 database (meta.db, profile.db, cct.db, trace.db)",
       .files = v4_files);
