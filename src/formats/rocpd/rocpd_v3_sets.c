/* rocpd_v3_sets: the table sets of a rocprofv3 database -- which
 * per-process suffixes a file has (a merged file several, the unsuffixed
 * views when none), their quoted and raw table names, and the check that
 * each has the tables and columns the reader needs (a layout it does not
 * know is refused with one line naming what is missing), with the
 * optional ones noted in gpu_run_set.opt.  Part of the rocpd reader. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_layouts.h"

char *rocpd_v3_tname(const struct gpu_run_set *s, const char *base)
{
	size_t n = strlen(base) + 2 * strlen(s->suffix) + 3;
	char *q = malloc(n), *w = q;
	if (!q)
		return NULL;
	*w++ = '"';
	for (const char *p = base; *p; p++)
		*w++ = *p;
	for (const char *p = s->suffix; *p; p++) {
		if (*p == '"')
			*w++ = '"';
		*w++ = *p;
	}
	*w++ = '"';
	*w = 0;
	return q;
}

char *rocpd_v3_rawname(const struct gpu_run_set *s, const char *base)
{
	char *r = NULL;
	return asprintf(&r, "%s%s", base, s->suffix) < 0 ? NULL : r;
}

/* The table sets of a file: the suffixes of its rocpd_kernel_dispatch*
 * tables (a merged file has several); the unsuffixed views when there is
 * no suffixed table. */
enum status rocpd_v3_find_sets(struct gpu_run_file *f, struct error *err)
{
	sqlite3_stmt *st = NULL;
	enum status s = gpu_run_prepare(
		f,
		"SELECT substr(name, 22) FROM sqlite_master WHERE type = "
		"'table' AND name LIKE 'rocpd\\_kernel\\_dispatch%' ESCAPE "
		"'\\' AND length(name) > 21 ORDER BY name",
		&st, err);
	if (s != STATUS_OK)
		return s;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gpu_run_set *sets =
			realloc(f->sets, (f->n_sets + 1) * sizeof(*sets));
		if (!sets) {
			sqlite3_finalize(st);
			return error_set(err, STATUS_NOMEM, f->path,
					 "out of memory");
		}
		f->sets = sets;
		memset(&sets[f->n_sets], 0, sizeof(*sets));
		sets[f->n_sets].suffix = strdup(gpu_run_col_text(st, 0));
		if (!sets[f->n_sets].suffix) {
			sqlite3_finalize(st);
			return error_set(err, STATUS_NOMEM, f->path,
					 "out of memory");
		}
		f->n_sets++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return gpu_run_step_error(f, rc, err);
	if (f->n_sets == 0) {
		if (!gpu_run_has_table(f, "rocpd_kernel_dispatch"))
			return error_set(err, STATUS_UNSUPPORTED, f->path,
					 "unknown ROCm profile layout: no "
					 "rocpd_kernel_dispatch table (and no "
					 "rocpd_api and rocpd_op of an .rpd "
					 "file)");
		f->sets = calloc(1, sizeof(*f->sets));
		if (!f->sets || !(f->sets[0].suffix = strdup("")))
			return error_set(err, STATUS_NOMEM, f->path,
					 "out of memory");
		f->n_sets = 1;
	}
	return STATUS_OK;
}

enum status rocpd_v3_check_set(struct gpu_run_file *f, struct gpu_run_set *s,
			      struct error *err)
{
	static const char *const region[] = {"id", "pid", "tid", "start",
					     "end", "name_id", "event_id",
					     NULL};
	static const char *const dispatch[] = {
		"id", "pid", "tid", "agent_id", "kernel_id", "queue_id",
		"start", "end", "event_id", NULL};
	static const char *const event[] = {"id", "stack_id",
					    "parent_stack_id", "extdata", NULL};
	static const char *const string[] = {"id", "string", NULL};
	static const char *const symbol[] = {"id", "kernel_name",
					     "display_name", NULL};
	static const struct {
		const char *table;
		const char *const *cols;
	} need[] = {
		{"rocpd_region", region},     {"rocpd_kernel_dispatch", dispatch},
		{"rocpd_event", event},       {"rocpd_string", string},
		{"rocpd_info_kernel_symbol", symbol},
	};
	enum status st = STATUS_OK;
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		char *t = rocpd_v3_rawname(s, need[i].table);
		if (!t)
			return error_set(err, STATUS_NOMEM, f->path,
					 "out of memory");
		const char *hint = NULL;
		if (gpu_run_has_column(f, t, "track_id") ||
		    gpu_run_has_column(f, t, "start_id"))
			hint = " (a rocpd 4.x layout with tracks, which "
			       "callscope does not read yet)";
		st = gpu_run_need_columns(f, t, need[i].cols, hint, err);
		free(t);
		if (st != STATUS_OK)
			return st;
	}
	/* compression (LZ4 extdata, notes/rocpd.md 0.2) */
	char *meta = rocpd_v3_tname(s, "rocpd_metadata"), *raw = rocpd_v3_rawname(s, "rocpd_metadata");
	if (!meta || !raw) {
		free(meta);
		free(raw);
		return error_set(err, STATUS_NOMEM, f->path, "out of memory");
	}
	if (gpu_run_has_table(f, raw)) {
		char *sql = NULL;
		sqlite3_stmt *q = NULL;
		if (asprintf(&sql,
			     "SELECT value FROM %s WHERE tag = 'compression'",
			     meta) >= 0 &&
		    sqlite3_prepare_v2(f->db, sql, -1, &q, NULL) == SQLITE_OK &&
		    sqlite3_step(q) == SQLITE_ROW) {
			const char *v = gpu_run_col_text(q, 0);
			if (*v && strcmp(v, "none") != 0)
				st = error_set(err, STATUS_UNSUPPORTED, f->path,
					       "rocpd data compressed with "
					       "'%.40s' cannot be read yet",
					       v);
		}
		sqlite3_finalize(q);
		free(sql);
	}
	free(meta);
	free(raw);
	if (st != STATUS_OK)
		return st;
	char *t;
	if ((t = rocpd_v3_rawname(s, "rocpd_memory_copy"))) {
		static const char *const copy[] = {"id", "pid", "tid", "start",
						   "end", "name_id", "size",
						   "event_id", NULL};
		s->has_copy = gpu_run_has_table(f, t);
		for (size_t i = 0; s->has_copy && copy[i]; i++)
			s->has_copy = gpu_run_has_column(f, t, copy[i]);
		free(t);
	}
	/* stream ids (optional columns): the lines by stream */
	if ((t = rocpd_v3_rawname(s, "rocpd_kernel_dispatch"))) {
		if (gpu_run_has_column(f, t, "stream_id"))
			s->opt |= V3_DISPATCH_STREAM;
		free(t);
	}
	if (s->has_copy && (t = rocpd_v3_rawname(s, "rocpd_memory_copy"))) {
		if (gpu_run_has_column(f, t, "stream_id"))
			s->opt |= V3_COPY_STREAM;
		free(t);
	}
	if ((t = rocpd_v3_rawname(s, "rocpd_arg"))) {
		s->has_arg = gpu_run_has_table(f, t);
		free(t);
	}
	if ((t = rocpd_v3_rawname(s, "rocpd_pmc_event"))) {
		s->has_pmc = gpu_run_has_table(f, t);
		free(t);
	}
	return STATUS_OK;
}
