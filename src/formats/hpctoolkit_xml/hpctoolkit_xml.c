/* hpctoolkit_xml: the reader of HPCToolkit databases described by an
 * experiment.xml (versions 2.0-2.2 with *.metric-db / experiment-1.mdb and
 * *.hpctrace / experiment.mt, and 4.0 with the 2020 profile.db, cct.db and
 * trace.db), or of a lone experiment .xml file.  It bids, finds the files,
 * lets xml_experiment build the tree, has xml_metrics turn the MetricTable
 * into statistics and columns (finalize / view formulas included) and
 * wires the values and traces through xml_provider.  Must not depend on curses or on ui/. */
#include "config.h"

#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/blob.h"
#include "formats/hpctoolkit_xml/legacy_trace.h"
#include "formats/hpctoolkit_xml/legacy_values.h"
#include "core/path.h"
#include "core/array.h"
#include "formats/reader.h"
#include "formats/hpctoolkit_xml/sparse2020.h"
#include "formats/hpctoolkit_xml/xml_experiment.h"
#include "formats/hpctoolkit_xml/xml_metrics.h"
#include "formats/hpctoolkit_xml/xml_provider.h"


static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* ---- bid ------------------------------------------------------------- */

/* A directory with experiment.xml, a file of that name (even broken, so
 * that the message about it is ours), or an XML file whose head holds
 * the <HPCToolkitExperiment> element. */
static int xml_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir)
		return reader_probe_has(p, "experiment.xml") ? 80 : 0;
	if (!p->is_file)
		return 0;
	if (strcmp(reader_probe_base(p), "experiment.xml") == 0)
		return 80;
	if (!reader_probe_head_is(p, "<?xml", 5))
		return 0;
	/* NUL bytes end the search early: a binary file is not ours */
	const char *head = (const char *)p->head;
	size_t n = strnlen(head, p->head_len);
	return memmem(head, n, "<HPCToolkitExperiment", 21) ? 80 : 0;
}

/* ---- files of the database ------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths in `dir` whose names end in `suffix`, sorted by name. */
static enum status list_suffix(const char *dir, const char *suffix,
			       char ***out, uint32_t *n, struct error *err)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return STATUS_OK;
	char **list = NULL;
	size_t len = 0, cap = 0, sl = strlen(suffix);
	enum status st = STATUS_OK;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		if (nl <= sl || strcmp(e->d_name + nl - sl, suffix) != 0)
			continue;
		if (len >= UINT32_MAX / 2 ||
		    !array_grow((void **)&list, &cap, len + 1, sizeof(*list)) ||
		    !(list[len] = path_join(dir, e->d_name))) {
			st = error_set(err, STATUS_NOMEM, dir, "out of memory");
			break;
		}
		len++;
	}
	closedir(d);
	if (st != STATUS_OK) {
		array_free_each(list, len);
		return st;
	}
	if (len)
		qsort(list, len, sizeof(*list), cmp_str);
	*out = list;
	*n = (uint32_t)len;
	return STATUS_OK;
}

/* ---- profiles and traces ------------------------------------------------ */

static uint32_t add_rank_thread(struct model_builder *b, uint32_t rank,
				uint32_t thread)
{
	struct model_id ids[2];
	uint32_t n = 0;
	if (rank != UINT32_MAX)
		ids[n++] = (struct model_id){
			.kind_name = model_builder_intern(b, "RANK", 4),
			.kind = 2,
			.logical_id = rank,
			.physical_id = rank,
		};
	if (thread != UINT32_MAX)
		ids[n++] = (struct model_id){
			.kind_name = model_builder_intern(b, "THREAD", 6),
			.kind = 3,
			.logical_id = thread,
			.physical_id = thread,
		};
	return model_builder_add_profile(b, false, ids, n,
					 n ? NULL : "unknown thread");
}

static enum status add_value_profiles(struct model_builder *b,
				      struct xml_provider *pv,
				      struct error *err)
{
	uint32_t n = legacy_values_n_profiles(pv->values);
	for (uint32_t p = 0; p < n; p++) {
		uint32_t rank, thread;
		legacy_values_profile_id(pv->values, p, &rank, &thread);
		if (add_rank_thread(b, rank, thread) == MODEL_NONE)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	return STATUS_OK;
}

static enum status add_sparse_profiles(struct model_builder *b,
				       const struct xml_experiment *x,
				       struct xml_provider *pv,
				       struct error *err)
{
	uint32_t n = sparse2020_n_profiles(pv->sparse);
	for (uint32_t p = 0; p < n; p++) {
		const struct model_id *ids = NULL;
		uint32_t n_ids = 0;
		bool summary = false;
		sparse2020_profile_ids(pv->sparse, p, &ids, &n_ids, &summary);
		struct model_id *copy = NULL;
		if (n_ids) {
			copy = malloc((size_t)n_ids * sizeof(*copy));
			if (!copy)
				return error_set(err, STATUS_NOMEM, NULL,
						 "out of memory");
			memcpy(copy, ids, (size_t)n_ids * sizeof(*copy));
		}
		for (uint32_t k = 0; k < n_ids; k++) {
			const char *kn = copy[k].kind < x->n_id_names &&
						 x->id_names[copy[k].kind]
					 ? x->id_names[copy[k].kind]
					 : "ID";
			copy[k].kind_name = model_builder_intern(b, kn,
								 strlen(kn));
		}
		uint32_t idx = model_builder_add_profile(
			b, summary, copy, n_ids, summary ? "summary" : NULL);
		free(copy);
		if (idx == MODEL_NONE)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	return STATUS_OK;
}

/* The profile of (rank, thread) among the first `n` profiles, else a new
 * one. */
static uint32_t profile_for(struct model_builder *b, struct xml_provider *pv,
			    uint32_t rank, uint32_t thread)
{
	uint32_t n = pv->values ? legacy_values_n_profiles(pv->values) : 0;
	for (uint32_t p = 0; p < n; p++) {
		uint32_t r, t;
		legacy_values_profile_id(pv->values, p, &r, &t);
		if (r == rank && t == thread)
			return p;
	}
	return add_rank_thread(b, rank, thread);
}

static enum status add_timelines(struct model_builder *b,
				 struct xml_provider *pv, struct error *err)
{
	uint64_t t_min = UINT64_MAX, t_max = 0;
	uint32_t n = pv->trace ? legacy_trace_n_lines(pv->trace)
			       : sparse2020_n_trace_lines(pv->sparse);
	if (!pv->trace && n) {
		pv->line_map = calloc(n, sizeof(*pv->line_map));
		if (!pv->line_map)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct legacy_trace_line *l =
			pv->trace ? legacy_trace_line(pv->trace, i)
				  : sparse2020_trace_line(pv->sparse, i);
		if (!l)
			continue;
		uint32_t prof = pv->trace
					? profile_for(b, pv, l->rank, l->thread)
					: sparse2020_trace_line_profile(
						  pv->sparse, i);
		const struct model *m = model_builder_peek(b);
		/* a hpctrace/mt line is addressed by its own index: none may
		 * be skipped */
		if (pv->trace && prof == MODEL_NONE)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		if (prof >= model_n_profiles(m))
			continue;
		struct model_timeline tl = {
			.profile = prof,
			.label = model_profiles(m)[prof].label,
			.kind = TIMELINE_SAMPLES,
			.count = l->n_samples,
		};
		uint32_t line = model_builder_add_timeline(b, &tl);
		if (line == MODEL_NONE)
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		if (pv->line_map)
			pv->line_map[line] = i;
		if (pv->line_map)
			pv->n_lines = line + 1;
		if (l->n_samples) {
			if (l->t_min < t_min)
				t_min = l->t_min;
			if (l->t_max > t_max)
				t_max = l->t_max;
		}
	}
	model_builder_set_time_range(b, t_min, t_max);
	return STATUS_OK;
}

/* ---- open -------------------------------------------------------------- */

/* A 2.x database's files of one kind in `dir`: the merged file `merged`
 * when there is one, else those whose names end in `suffix` (sorted; none
 * at all: `from` names nothing, n == 0). */
struct found {
	struct legacy_source from;
	char *path;
	char **list;
};

static enum status find_legacy(const char *dir, const char *merged,
			       const char *suffix, struct found *f,
			       struct error *err)
{
	uint32_t n = 0;
	*f = (struct found){0};
	f->path = path_join(dir, merged);
	if (!f->path)
		return error_set(err, STATUS_NOMEM, dir, "out of memory");
	if (path_is_file(f->path)) {
		f->from = (struct legacy_source){.merged = true, .path = f->path};
		return STATUS_OK;
	}
	enum status st = list_suffix(dir, suffix, &f->list, &n, err);
	f->from = (struct legacy_source){
		.paths = (const char *const *)f->list, .n = n};
	return st;
}

static void found_free(struct found *f)
{
	free(f->path);
	array_free_each(f->list, f->from.n);
}

/* The per-thread files of a 2.x database and its trace files. */
static enum status open_binaries(const char *dir,
				 const struct xml_experiment *x,
				 struct xml_provider *pv, struct error *err)
{
	struct found f;
	enum status st = STATUS_OK;
	if (x->major >= 4) {
		if (path_dir_has_file(dir, "profile.db"))
			st = sparse2020_open(dir, &pv->sparse, err);
		else if (path_dir_has_file(dir, "cct.db") ||
			 path_dir_has_file(dir, "trace.db"))
			st = error_set(err, STATUS_NOT_FOUND, dir,
				       "experiment.xml 4.0 without profile.db: "
				       "the database has no metric values");
		return st;
	}
	st = find_legacy(dir, "experiment-1.mdb", ".metric-db", &f, err);
	if (st == STATUS_OK && (f.from.merged || f.from.n))
		st = legacy_values_open(&f.from, &pv->values, err);
	found_free(&f);
	if (st != STATUS_OK)
		return st;
	st = find_legacy(dir, "experiment.mt", ".hpctrace", &f, err);
	if (st == STATUS_OK && (f.from.merged || f.from.n))
		st = legacy_trace_open(&f.from, &pv->trace, err);
	found_free(&f);
	/* <TraceDB u="units per second"> is authoritative; files without it
	 * store microseconds (doc/hpctoolkit-legacy-binaries.md) */
	if (st == STATUS_OK && pv->trace)
		st = legacy_trace_set_time_unit(
			pv->trace, x->trace_unit ? x->trace_unit : 1000000,
			err);
	return st;
}

static enum status top_contexts(const struct model *m,
				struct xml_provider *pv, struct error *err)
{
	uint32_t n = 0;
	for (uint32_t c = model_n_nodes(m) ? model_nodes(m)[0].first_child : MODEL_NONE;
	     c != MODEL_NONE; c = model_nodes(m)[c].next_sibling)
		n++;
	if (!n)
		return STATUS_OK;
	pv->top_ctx = malloc((size_t)n * sizeof(*pv->top_ctx));
	if (!pv->top_ctx)
		return error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
	for (uint32_t c = model_nodes(m)[0].first_child; c != MODEL_NONE;
	     c = model_nodes(m)[c].next_sibling)
		pv->top_ctx[pv->n_top++] = model_nodes(m)[c].ctx_id;
	return STATUS_OK;
}

/* Where the experiment.xml (*xml) and its directory (*dir) are, for a
 * database directory or a file `path` (*copy: dirname's scratch copy);
 * *whole_db: whether binaries may stand beside it. */
static enum status find_xml(const char *path, char **dir, char **xml,
			    char **copy, bool *whole_db, struct error *err)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		*dir = strdup(path);
		if (!*dir || asprintf(xml, "%s/experiment.xml", path) < 0) {
			*xml = NULL;
			return error_set(err, STATUS_NOMEM, path,
					 "out of memory");
		}
		return STATUS_OK;
	}
	*copy = strdup(path);
	*xml = strdup(path);
	*dir = *copy ? strdup(dirname(*copy)) : NULL;
	if (!*dir || !*xml)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	/* a lone file under another name has no binaries beside it */
	*whole_db = strcmp(base_name(path), "experiment.xml") == 0;
	return STATUS_OK;
}

/* The warnings of a database with no values, only zeros, an empty trace
 * or a declared trace without its files. */
static void add_warnings(struct model_builder *b,
			 const struct xml_experiment *x,
			 struct xml_provider *pv, bool whole_db,
			 bool has_trace)
{
	if (x->n_metrics == 0)
		model_builder_add_warning(b, "the experiment.xml declares no "
					     "metrics: the tree has no values");
	else if (!xml_values_count(pv->inline_values) && !pv->values &&
		 !pv->sparse)
		model_builder_add_warning(b, "the database has no metric "
					     "values (no inline <M> values, "
					     "no per-thread files)");
	else if (!xml_values_count(pv->inline_values) &&
		 xml_provider_values_all_zero(pv))
		model_builder_add_warning(b, "the per-thread files (*.metric-db "
					     "or experiment-1.mdb) hold only "
					     "zeros: the tree has no values");
	if (has_trace) {
		const struct model *pm = model_builder_peek(b);
		uint64_t samples = 0;
		for (uint32_t i = 0; i < model_n_timelines(pm); i++)
			samples += model_timelines(pm)[i].count;
		if (samples == 0)
			model_builder_add_warning(b, "the trace has no samples "
						     "(every trace line is "
						     "empty)");
	}
	if (whole_db && x->has_trace_db && !has_trace && !pv->sparse)
		model_builder_add_warning(b, "the experiment.xml declares a "
					     "trace (<TraceDB>) but the "
					     "directory has no trace files "
					     "(*.hpctrace or experiment.mt)");
}

static enum status xml_open(const struct reader_input *in,
			   struct model **out, struct error *err)
{
	const char *path = in->paths[0];
	enum status st = STATUS_OK;
	char *dir = NULL, *xml = NULL, *copy = NULL;
	struct model_builder *b = NULL;
	struct blob *blob = NULL;
	struct xml_experiment x = {.metrics = NULL};
	struct xml_provider *pv = NULL;
	bool whole_db = true;
	*out = NULL;
	st = find_xml(path, &dir, &xml, &copy, &whole_db, err);
	if (st != STATUS_OK)
		goto out;
	b = model_builder_new("hpctoolkit-xml", path);
	pv = calloc(1, sizeof(*pv));
	if (!b || !pv) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	st = blob_open_file(xml, &blob, err);
	if (st != STATUS_OK)
		goto out;
	st = xml_experiment_parse(blob, b, &x, err);
	blob_close(blob);
	blob = NULL;
	if (st != STATUS_OK)
		goto out;
	if (x.flat_only) {
		st = error_set(err, STATUS_UNSUPPORTED, xml,
			       "the file has a flat profile only (no "
			       "SecCallPathProfileData), which this reader "
			       "does not show");
		goto out;
	}
	if (whole_db) {
		st = open_binaries(dir, &x, pv, err);
		if (st != STATUS_OK)
			goto out;
	}
	pv->inline_values = x.values;
	x.values = NULL;
	pv->trace_ids = x.trace_ids;
	pv->n_trace_ids = x.n_trace_ids;
	x.trace_ids = NULL;
	x.n_trace_ids = 0;
	st = top_contexts(model_builder_peek(b), pv, err);
	if (st == STATUS_OK)
		st = xml_add_metrics(b, &x, pv, err);
	if (st == STATUS_OK && pv->values)
		st = add_value_profiles(b, pv, err);
	if (st == STATUS_OK && pv->sparse)
		st = add_sparse_profiles(b, &x, pv, err);
	if (st == STATUS_OK && (pv->trace || (pv->sparse &&
					      sparse2020_n_trace_lines(
						      pv->sparse))))
		st = add_timelines(b, pv, err);
	if (st != STATUS_OK)
		goto out;
	bool has_trace = pv->trace || (pv->sparse &&
				       sparse2020_n_trace_lines(pv->sparse));
	add_warnings(b, &x, pv, whole_db, has_trace);
	model_builder_set_values(b, &xml_provider_value_ops, pv);
	if (has_trace)
		model_builder_set_trace(b, &xml_provider_trace_ops, pv);
	pv = NULL;
	*out = model_builder_finish(b, err);
	b = NULL;
	if (!*out)
		st = STATUS_NOMEM;
out:
	xml_provider_free(pv);
	model_builder_free(b);
	xml_experiment_free(&x);
	blob_close(blob);
	free(copy);
	free(xml);
	free(dir);
	return st;
}

/* A copy of the directory (a directory URL): hpcprof rewrites
 * experiment.xml whenever it writes a database, so an unchanged one means
 * unchanged files beside it; the 2020 format's binaries are mapped whole. */
static const struct reader_file_rule xml_files[] = {
	{"experiment.xml", READER_FILE_KEY_ALL | READER_FILE_GUESS},
	{"*.metric-db", 0},
	{"*.hpctrace", 0},
	{"experiment-1.mdb", READER_FILE_GUESS},
	{"experiment.mt", READER_FILE_GUESS},
	{"profile.db", READER_FILE_GUESS},
	{"cct.db", READER_FILE_GUESS},
	{"trace.db", READER_FILE_GUESS},
	{NULL, 0},
};

READER(reader_hpctoolkit_xml, "hpctoolkit-xml",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_SAMPLES, xml_bid,
       xml_open,
       "HPCToolkit experiment.xml database (2.0-2.2 with metric-db/mdb and "
       "hpctrace/mt; 4.0 with the 2020 profile.db, cct.db, trace.db)",
       .files = xml_files);
