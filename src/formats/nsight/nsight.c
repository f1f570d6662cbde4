/* nsight: the reader of NVIDIA Nsight Systems SQLite exports (`nsys export
 * --type sqlite`), one or several files (or a directory of them, one per
 * rank) as one run.  Bids on the probe's table names: NVIDIA's `StringIds`
 * with any of the activity tables (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS,
 * OSRT_API); tables that other tools add (Extra-P's EXTRAP_*, pipit's
 * columns) are ignored.  The tables are read by nsight_read.c into the run
 * of ../gpu_run.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/nsight/nsight_read.h"
#include "formats/reader.h"

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

static bool is_export_name(const char *name)
{
	return ends_with(name, ".sqlite");
}

static int nsight_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		if (reader_probe_has(p, "meta.db") ||
		    reader_probe_has(p, "experiment.xml"))
			return 0;
		for (size_t i = 0; i < p->n_names; i++)
			if (is_export_name(p->names[i]))
				return 40;
		return 0;
	}
	if (!p->is_sqlite)
		return 0;
	bool activity = has_prefix(p, "CUPTI_ACTIVITY_KIND_") ||
			reader_probe_has_table(p, "NVTX_EVENTS") ||
			reader_probe_has_table(p, "OSRT_API");
	if (activity && reader_probe_has_table(p, "StringIds"))
		return 80;
	/* ours but incomplete: the message about what is missing is ours */
	if (activity || reader_probe_has_table(p, "EXPORT_META_DATA") ||
	    reader_probe_has_table(p, "META_DATA_EXPORT"))
		return 50;
	return 0;
}

struct paths {
	char **v;
	size_t n, cap;
};

static bool paths_add(struct paths *ps, char *p)
{
	if (!p)
		return false;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		char **g = realloc(ps->v, cap * sizeof(*g));
		if (!g) {
			free(p);
			return false;
		}
		ps->v = g;
		ps->cap = cap;
	}
	ps->v[ps->n++] = p;
	return true;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .sqlite files of directory `dir`, sorted. */
static enum status expand_dir(const char *dir, struct paths *ps,
			      struct error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return error_set(err, STATUS_IO, dir,
				 "cannot list the directory");
	struct dirent *e;
	enum status st = STATUS_OK;
	size_t first = ps->n;
	while ((e = readdir(d)) && st == STATUS_OK) {
		if (e->d_name[0] == '.' || !is_export_name(e->d_name))
			continue;
		char *p = NULL;
		struct stat sb;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (!paths_add(ps, p))
				st = error_set(err, STATUS_NOMEM, dir,
					       "out of memory");
		} else {
			free(p);
		}
	}
	closedir(d);
	if (ps->n - first > 1)
		qsort(ps->v + first, ps->n - first, sizeof(*ps->v), name_cmp);
	return st;
}

static const struct gpu_run_layout *nsight_layout_of(struct gpu_run_file *f)
{
	(void)f;
	return &nsight_layout;
}

static const struct gpu_run_family nsight_family = {
    .format = "nsight",
    .noun = "Nsight Systems export",
    .unlinked_where = "placed under their process",
    .layout_of = nsight_layout_of,
};

static enum status nsight_open(const struct reader_input *in,
			       struct model **out, struct error *err)
{
	struct paths ps = {0};
	enum status st = STATUS_OK;
	*out = NULL;
	for (size_t i = 0; i < in->n_paths && st == STATUS_OK; i++) {
		struct stat sb;
		if (stat(in->paths[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
			size_t before = ps.n;
			st = expand_dir(in->paths[i], &ps, err);
			if (st == STATUS_OK && ps.n == before)
				st = error_set(err, STATUS_NOT_DATABASE,
					       in->paths[i],
					       "the directory holds no .sqlite "
					       "file");
		} else if (!paths_add(&ps, strdup(in->paths[i]))) {
			st = error_set(err, STATUS_NOMEM, in->paths[i],
				       "out of memory");
		}
	}
	if (st == STATUS_OK)
		st = gpu_run_open(&nsight_family, in->paths[0], ps.v, ps.n, out,
				  err);
	for (size_t i = 0; i < ps.n; i++)
		free(ps.v[i]);
	free(ps.v);
	return st;
}

const struct reader reader_nsight = {
    .name = "nsight",
    .description = "NVIDIA Nsight Systems SQLite exports (nsys export "
		   "--type sqlite; several as one run)",
    .caps = READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_INTERVALS |
	    READER_CAP_MERGE,
    .bid = nsight_bid,
    .open = nsight_open,
};
