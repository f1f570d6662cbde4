/* rocpd: the reader of ROCm profiles: rocprofv3 / rocprof-sys "rocpd"
 * SQLite databases (one per process, or merged) and rocmProfileData
 * ".rpd" files, one or several files (or a directory of them) as one run.
 * Bids on the probe's table names: rocpd_kernel_dispatch* / rocpd_event*
 * tables are rocprofv3's layout, rocpd_api with rocpd_op is .rpd
 * (notes/rocpd.md 0.1: schema_version says 3 in both families).  The
 * layouts are read by rocpd_v3.c and rocpd_rpd.c into the run of
 * ../gpu_run.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/reader.h"
#include "formats/rocpd/rocpd_layouts.h"

static bool has_prefix(const struct reader_probe *p, const char *prefix)
{
	size_t n = strlen(prefix);
	for (size_t i = 0; i < p->n_tables; i++)
		if (strncmp(p->tables[i], prefix, n) == 0)
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool is_profile_name(const char *name)
{
	return ends_with(name, ".rpd") || ends_with(name, ".db");
}

static int rocpd_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		/* a directory of databases, not an HPCToolkit database */
		if (reader_probe_has(p, "meta.db") ||
		    reader_probe_has(p, "experiment.xml"))
			return 0;
		for (size_t i = 0; i < p->n_names; i++)
			if (is_profile_name(p->names[i]))
				return 40;
		/* rocprofv3's HOST/PID_results.db: only subdirectories */
		return p->n_names == 0 && p->n_subdirs > 0 ? 10 : 0;
	}
	if (!p->is_sqlite)
		return 0;
	if (has_prefix(p, "rocpd_kernel_dispatch") ||
	    has_prefix(p, "rocpd_event"))
		return 80;
	if (reader_probe_has_table(p, "rocpd_api") &&
	    reader_probe_has_table(p, "rocpd_op"))
		return 80;
	/* ours but incomplete: the message about what is missing is ours */
	if (has_prefix(p, "rocpd_"))
		return 50;
	return 0;
}

struct paths {
	char **v;
	size_t n, cap;
};

static bool paths_add(struct paths *ps, const char *dir, const char *name)
{
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		char **g = realloc(ps->v, cap * sizeof(*g));
		if (!g)
			return false;
		ps->v = g;
		ps->cap = cap;
	}
	char *p = NULL;
	if (dir ? asprintf(&p, "%s/%s", dir, name) < 0
		: !(p = strdup(name)))
		return false;
	ps->v[ps->n++] = p;
	return true;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .db and .rpd files of directory `dir` and of its subdirectories
 * (rocprofv3 writes HOST/PID_results.db), sorted. */
static enum status expand_dir(const char *dir, int level, struct paths *ps,
			      struct error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return error_set(err, STATUS_IO, dir, "cannot list the directory");
	struct dirent *e;
	enum status st = STATUS_OK;
	size_t first = ps->n;
	char **subdirs = NULL;
	size_t n_sub = 0;
	while ((e = readdir(d)) && st == STATUS_OK) {
		if (e->d_name[0] == '.')
			continue;
		char *p = NULL;
		struct stat sb;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    is_profile_name(e->d_name)) {
			if (!paths_add(ps, NULL, p))
				st = error_set(err, STATUS_NOMEM, dir,
					       "out of memory");
		} else if (level == 0 && stat(p, &sb) == 0 &&
			   S_ISDIR(sb.st_mode)) {
			char **g = realloc(subdirs, (n_sub + 1) * sizeof(*g));
			if (g) {
				subdirs = g;
				subdirs[n_sub++] = p;
				p = NULL;
			}
		}
		free(p);
	}
	closedir(d);
	if (ps->n > first)
		qsort(ps->v + first, ps->n - first, sizeof(*ps->v), name_cmp);
	if (n_sub > 1)
		qsort(subdirs, n_sub, sizeof(*subdirs), name_cmp);
	for (size_t i = 0; i < n_sub; i++) {
		if (st == STATUS_OK)
			st = expand_dir(subdirs[i], level + 1, ps, err);
		free(subdirs[i]);
	}
	free(subdirs);
	return st;
}

static const struct gpu_run_layout *rocpd_layout_of(struct gpu_run_file *f)
{
	if (gpu_run_has_table(f, "rocpd_api") &&
	    gpu_run_has_table(f, "rocpd_op"))
		return &rocpd_layout_rpd;
	return &rocpd_layout_v3;
}

static const struct gpu_run_family rocpd_family = {
	.format = "rocpd",
	.noun = "ROCm profile",
	.unlinked_where = "placed by time on their thread",
	.layout_of = rocpd_layout_of,
};

static enum status rocpd_open(const struct reader_input *in,
			      struct model **out, struct error *err)
{
	struct paths ps = {0};
	enum status st = STATUS_OK;
	*out = NULL;
	for (size_t i = 0; i < in->n_paths && st == STATUS_OK; i++) {
		struct stat sb;
		if (stat(in->paths[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			size_t before = ps.n;
			st = expand_dir(in->paths[i], 0, &ps, err);
			if (st == STATUS_OK && ps.n == before)
				st = error_set(err, STATUS_NOT_DATABASE,
					       in->paths[i],
					       "the directory holds no .db or "
					       ".rpd file");
		} else if (!paths_add(&ps, NULL, in->paths[i])) {
			st = error_set(err, STATUS_NOMEM, in->paths[i],
				       "out of memory");
		}
	}
	if (st == STATUS_OK)
		st = gpu_run_open(&rocpd_family, in->paths[0], ps.v, ps.n, out,
				  err);
	for (size_t i = 0; i < ps.n; i++)
		free(ps.v[i]);
	free(ps.v);
	return st;
}

const struct reader reader_rocpd = {
	.name = "rocpd",
	.description = "ROCm profiles: rocprofv3 rocpd databases and "
		       "rocmProfileData .rpd files (several as one run)",
	.caps = READER_CAP_TREE | READER_CAP_PER_PROFILE |
		READER_CAP_INTERVALS | READER_CAP_COUNTERS | READER_CAP_MERGE,
	.bid = rocpd_bid,
	.open = rocpd_open,
};
