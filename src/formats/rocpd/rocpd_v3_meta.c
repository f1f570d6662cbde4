/* rocpd_v3_meta: what a rocprofv3 table set says of itself, read before
 * its intervals: its processes (labelled by host, pid and the rank of
 * their MPI environment, notes/rocpd.md 1.1), its kernel symbols named as
 * the run chose, its agents' GPU indexes.  Private to the rocpd reader;
 * must not depend on curses or on ui/. */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rocpd/rocpd_v3_internal.h"
#include "core/array.h"

/* Rank from a process environment (JSON object). */
static bool env_rank(const char *env, long long *rank)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
		"PALS_RANKID", "MV2_COMM_WORLD_RANK", NULL};
	json_t *j = json_loads(env, JSON_REJECT_DUPLICATES, NULL);
	bool found = false;
	for (size_t i = 0; j && json_is_object(j) && vars[i] && !found; i++) {
		json_t *v = json_object_get(j, vars[i]);
		char *end;
		if (json_is_string(v)) {
			*rank = strtoll(json_string_value(v), &end, 10);
			found = end != json_string_value(v) && !*end;
		} else if (json_is_integer(v)) {
			*rank = json_integer_value(v);
			found = true;
		}
	}
	json_decref(j);
	return found;
}

/* One kernel symbol while the names are chosen. */
struct symbol {
	int64_t id;
	char *display, *mangled;
	bool shared; /* its display name names another mangled name too */
};

static int symbol_cmp(const void *pa, const void *pb)
{
	const struct symbol *a = pa, *b = pb;
	int d = strcmp(a->display, b->display);
	return d ? d : strcmp(a->mangled, b->mangled);
}

/* The kernel symbols of statement `st` (id, display_name, kernel_name)
 * named as the run chose: the demangled name is display_name (rocprofv3
 * writes the demangled name there, or a truncated one with
 * --truncate-kernels), else kernel_name; symbols whose display names are
 * equal but whose kernel_names differ (instantiations truncated to one
 * name) are named by kernel_name, so that they stay apart; "mangled" is
 * kernel_name, else display_name; "base" the base of display_name
 * (gpu_run_kernel_base).  Into c->s->kernels. */
static enum status kernel_names(struct v3_ctx *c, sqlite3_stmt *st,
				struct error *err)
{
	struct symbol *v = NULL;
	size_t n = 0, cap = 0;
	enum status s = STATUS_OK;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id;
		if (!gpu_run_col_int(st, 0, &id))
			continue;
		if (!array_grow((void **)&v, &cap, n + 1, sizeof(*v)))
			goto nomem;
		const char *d = gpu_run_col_text(st, 1),
			   *m = gpu_run_col_text(st, 2);
		v[n] = (struct symbol){.id = id,
				       .display = strdup(*d ? d : m),
				       .mangled = strdup(*m ? m : d)};
		n++;
		if (!v[n - 1].display || !v[n - 1].mangled)
			goto nomem;
	}
	if (rc != SQLITE_DONE) {
		s = gpu_run_step_error(c->f, rc, err);
		goto done;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), symbol_cmp);
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i].display, v[i - 1].display) == 0 &&
		    strcmp(v[i].mangled, v[i - 1].mangled) != 0)
			v[i].shared = v[i - 1].shared = true;
	for (size_t i = 0; i < n; i++) {
		const char *name = v[i].display;
		char base[512];
		switch (gpu_run_kernel_choice(c->r)) {
		case GPU_RUN_KERNEL_BASE:
			gpu_run_kernel_base(v[i].display, base, sizeof(base));
			name = base;
			break;
		case GPU_RUN_KERNEL_MANGLED:
			name = v[i].mangled;
			break;
		case GPU_RUN_KERNEL_DEMANGLED:
			if (v[i].shared)
				name = v[i].mangled;
			break;
		}
		uint32_t h = gpu_run_intern(c->r, name);
		if (h == MODEL_NONE ||
		    !gpu_run_map_put(&c->s->kernels, (uint64_t)v[i].id, h))
			goto nomem;
	}
	goto done;
nomem:
	s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
done:
	for (size_t i = 0; i < n; i++) {
		free(v[i].display);
		free(v[i].mangled);
	}
	free(v);
	return s;
}

enum status rocpd_v3_read_meta(struct v3_ctx *c, struct error *err)
{
	char *proc = rocpd_v3_tname(c->s, "rocpd_info_process");
	char *node = rocpd_v3_tname(c->s, "rocpd_info_node");
	char *rproc = rocpd_v3_rawname(c->s, "rocpd_info_process");
	char *rnode = rocpd_v3_rawname(c->s, "rocpd_info_node");
	char *agent = rocpd_v3_tname(c->s, "rocpd_info_agent");
	char *ragent = rocpd_v3_rawname(c->s, "rocpd_info_agent");
	char *sym = rocpd_v3_tname(c->s, "rocpd_info_kernel_symbol");
	char *sql = NULL;
	sqlite3_stmt *st = NULL;
	enum status s = STATUS_OK;
	int rc;
	if (!proc || !node || !rproc || !rnode || !agent || !ragent || !sym) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	if (gpu_run_has_table(c->f, rproc) &&
	    gpu_run_has_column(c->f, rproc, "pid")) {
		bool nodes = gpu_run_has_table(c->f, rnode) &&
			     gpu_run_has_column(c->f, rnode, "hostname") &&
			     gpu_run_has_column(c->f, rproc, "nid");
		bool env = gpu_run_has_column(c->f, rproc, "environment");
		if (asprintf(&sql,
			     "SELECT p.pid, %s, %s FROM %s p %s%s%s",
			     nodes ? "n.hostname" : "NULL",
			     env ? "p.environment" : "NULL", proc,
			     nodes ? "LEFT JOIN " : "", nodes ? node : "",
			     nodes ? " n ON n.id = p.nid" : "") < 0) {
			s = error_set(err, STATUS_NOMEM, c->f->path,
				      "out of memory");
			goto out;
		}
		if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
			goto out;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t pid;
			long long rank = 0;
			if (!gpu_run_col_int(st, 0, &pid))
				continue;
			const char *host = gpu_run_col_text(st, 1);
			gpu_run_file_host(c->r, c->fi, host);
			char label[160];
			int k = snprintf(label, sizeof(label), "%.80s%spid %" PRId64,
					 host, *host ? " " : "", pid);
			if (env_rank(gpu_run_col_text(st, 2), &rank) && k > 0 &&
			    (size_t)k < sizeof(label))
				snprintf(label + k, sizeof(label) - (size_t)k,
					 " rank %lld", rank);
			uint32_t n = gpu_run_child(c->r, 0, NODE_ENTRY,
						 gpu_run_intern(c->r, label));
			if (n == MODEL_NONE ||
			    !gpu_run_map_put(&c->s->procs, (uint64_t)pid, n)) {
				s = error_set(err, STATUS_NOMEM, c->f->path,
					      "out of memory");
				goto out;
			}
		}
		if (rc != SQLITE_DONE) {
			s = gpu_run_step_error(c->f, rc, err);
			goto out;
		}
		sqlite3_finalize(st);
		st = NULL;
		FREE_AND_NULL(sql);
	}
	/* kernel names (reader_options.kernel_names, kernel_names()) */
	if (asprintf(&sql,
		     "SELECT id, display_name, kernel_name FROM %s", sym) < 0) {
		s = error_set(err, STATUS_NOMEM, c->f->path, "out of memory");
		goto out;
	}
	if ((s = gpu_run_prepare(c->f, sql, &st, err)) != STATUS_OK)
		goto out;
	s = kernel_names(c, st, err);
out:
	sqlite3_finalize(st);
	free(sql);
	free(proc);
	free(node);
	free(rproc);
	free(rnode);
	free(agent);
	free(ragent);
	free(sym);
	return s;
}

/* GPU indexes of agents (for line labels); absent table: none. */
void rocpd_v3_read_agents(struct v3_ctx *c)
{
	char *t = rocpd_v3_tname(c->s, "rocpd_info_agent"),
	     *raw = rocpd_v3_rawname(c->s, "rocpd_info_agent"), *sql = NULL;
	sqlite3_stmt *st = NULL;
	if (t && raw && gpu_run_has_table(c->f, raw) &&
	    gpu_run_has_column(c->f, raw, "type_index") &&
	    asprintf(&sql, "SELECT id, type_index FROM %s WHERE type = 'GPU'",
		     t) >= 0 &&
	    sqlite3_prepare_v2(c->f->db, sql, -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t id, idx;
			if (gpu_run_col_int(st, 0, &id) &&
			    gpu_run_col_int(st, 1, &idx) && idx >= 0)
				gpu_run_map_put(&c->agents, (uint64_t)id,
					      (uint32_t)idx + 1);
		}
	}
	sqlite3_finalize(st);
	free(sql);
	free(t);
	free(raw);
}
