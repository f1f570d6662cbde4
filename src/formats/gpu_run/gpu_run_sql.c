/* gpu_run_sql: the SQLite helpers the GPU-trace layouts share (see
 * gpu_run.h): a table set's strings through a cache of prepared
 * statements, typed column reads that refuse text in integer columns,
 * statement preparation and step errors as one-line messages naming the
 * file, a query's rows handed to a layout's row function, the probes of
 * tables and columns a layout is told by, and the one table set of a file
 * whose layout has one.  Opens nothing itself
 * (connections are gpu_run_open.c's, read-only). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"
#include "io/sqlite_ro.h"

/* ---- SQLite helpers ------------------------------------------------------ */

/* "SELECT column FROM "table+suffix" WHERE id = ?1", the table name quoted
 * ('"' doubled); NULL when out of memory. */
static char *string_sql(const char *table, const char *suffix,
			const char *column)
{
	size_t n = strlen(table) + 2 * strlen(suffix) + 1;
	char *q = malloc(n), *w = q, *sql = NULL;
	if (!q)
		return NULL;
	for (const char *p = table; *p; p++)
		*w++ = *p;
	for (const char *p = suffix; *p; p++) {
		if (*p == '"')
			*w++ = '"';
		*w++ = *p;
	}
	*w = 0;
	if (asprintf(&sql, "SELECT %s FROM \"%s\" WHERE id = ?1", column,
		     q) < 0)
		sql = NULL;
	free(q);
	return sql;
}

uint32_t gpu_run_string(struct gpu_run *r, struct gpu_run_file *f,
			struct gpu_run_set *s, const char *table,
			const char *column, int64_t id)
{
	uint32_t h;
	if (gpu_run_map_get(&s->strings, (uint64_t)id, &h))
		return h;
	if (r->second_pass)
		return MODEL_NONE;
	if (!s->string_stmt) {
		char *sql = string_sql(table, s->suffix ? s->suffix : "",
				       column);
		int rc = sql ? sqlite3_prepare_v2(f->db, sql, -1,
						  &s->string_stmt, NULL)
			     : SQLITE_NOMEM;
		free(sql);
		if (rc != SQLITE_OK)
			return MODEL_NONE;
	}
	sqlite3_reset(s->string_stmt);
	sqlite3_bind_int64(s->string_stmt, 1, id);
	char buf[48];
	const char *text = buf;
	if (sqlite3_step(s->string_stmt) == SQLITE_ROW)
		text = gpu_run_col_text(s->string_stmt, 0);
	else
		snprintf(buf, sizeof(buf), "<string %" PRId64 ">", id);
	h = gpu_run_intern(r, text);
	if (h != MODEL_NONE)
		gpu_run_map_put(&s->strings, (uint64_t)id, h);
	return h;
}

const char *gpu_run_col_text(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? (const char *)t : "";
}

bool gpu_run_col_int(sqlite3_stmt *st, int col, int64_t *out)
{
	if (sqlite3_column_type(st, col) != SQLITE_INTEGER)
		return false;
	*out = sqlite3_column_int64(st, col);
	return true;
}

enum status gpu_run_prepare(struct gpu_run_file *f, const char *sql,
			  sqlite3_stmt **out, struct error *err)
{
	*out = NULL;
	int rc = sqlite3_prepare_v2(f->db, sql, -1, out, NULL);
	if (rc == SQLITE_OK)
		return STATUS_OK;
	return gpu_run_step_error(f, rc, err);
}

enum status gpu_run_step_error(struct gpu_run_file *f, int rc, struct error *err)
{
	enum status st = rc == SQLITE_NOMEM		    ? STATUS_NOMEM
			 : rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? STATUS_CORRUPT
			 : rc == SQLITE_ERROR			    ? STATUS_UNSUPPORTED
								    : STATUS_IO;
	return error_set(err, st, f->path, "SQLite: %s", sqlite3_errmsg(f->db));
}

bool gpu_run_has_table(struct gpu_run_file *f, const char *name)
{
	return sqlite_ro_has_table(f->db, name, true);
}

bool gpu_run_has_column(struct gpu_run_file *f, const char *table,
		      const char *col)
{
	return sqlite_ro_has_column(f->db, table, col);
}

enum status gpu_run_need_columns(struct gpu_run_file *f, const char *table,
			       const char *const *cols, const char *hint,
			       struct error *err)
{
	if (!gpu_run_has_table(f, table))
		return error_set(err, STATUS_UNSUPPORTED, f->path,
				 "unknown %s layout: table %s is "
				 "missing%s",
				 f->noun, table, hint ? hint : "");
	for (size_t i = 0; cols[i]; i++)
		if (!gpu_run_has_column(f, table, cols[i]))
			return error_set(err, STATUS_UNSUPPORTED, f->path,
					 "unknown %s layout: table "
					 "%s has no column %s%s",
					 f->noun, table, cols[i], hint ? hint : "");
	return STATUS_OK;
}

enum status gpu_run_single_set(struct gpu_run *r, struct gpu_run_file *f,
			       enum status (*check)(struct gpu_run_file *f,
						    struct gpu_run_set *s,
						    struct error *err),
			       struct error *err)
{
	if (gpu_run_second_pass(r))
		return STATUS_OK;
	f->sets = calloc(1, sizeof(*f->sets));
	if (!f->sets || !(f->sets[0].suffix = strdup("")))
		return error_set(err, STATUS_NOMEM, f->path, "out of memory");
	f->n_sets = 1;
	return check(f, &f->sets[0], err);
}

enum status gpu_run_each_row(struct gpu_run_file *f, const char *sql,
			     bool (*row)(void *ctx, sqlite3_stmt *st),
			     void *ctx, struct error *err)
{
	sqlite3_stmt *st = NULL;
	enum status e = gpu_run_prepare(f, sql, &st, err);
	if (e != STATUS_OK)
		return e;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!row(ctx, st)) {
			e = error_set(err, STATUS_NOMEM, f->path,
				      "out of memory");
			break;
		}
	if (e == STATUS_OK && rc != SQLITE_DONE)
		e = gpu_run_step_error(f, rc, err);
	sqlite3_finalize(st);
	return e;
}
