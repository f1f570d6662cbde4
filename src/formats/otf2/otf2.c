/* otf2: the reader of OTF2 trace archives (Score-P, Scalasca, Vampir,
 * TAU): an anchor file (traces.otf2) beside its global definitions
 * (traces.def) and its folder of per-location files (traces/), opened by
 * the anchor or by the directory that holds it.  Read through the OTF2
 * library only: the global definitions (otf2_defs.c), then each location's
 * local definitions and events (otf2_events.c).  The model: the call tree
 * of the Enter/Leave events (regions, NODE_REGION), the columns time and
 * visits as Cube names them (exclusive stored, inclusive derived by the
 * engine), one profile per location labelled "GROUP: LOCATION" as Cube
 * labels them, its identifier tuple the group's system tree path (nodes
 * named and classed as the definitions name them), RANK and THREAD named
 * by the group's and the location's names, and one interval track per location with each call's
 * nesting depth and its MPI messages as attributes (otf2_provider.c),
 * read in blocks of calls when drawn: the OTF2 reader stays open.
 * The library's own error messages are taken, never printed: a failure is
 * one error naming the anchor.  Must not depend on curses or on ui/. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "core/path.h"
#include "core/lazylib.h"
#include "formats/otf2/otf2_internal.h"
#include "formats/reader.h"

extern const struct reader reader_otf2;

/* ---- bid ----------------------------------------------------------------- */

static bool head_is_anchor(const struct reader_probe *p)
{
	return p->head_len >= 6 && (p->head[1] == 'B' || p->head[1] == 'L') &&
	       memcmp(p->head + 2, "OTF2", 4) == 0;
}

static int otf2_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		return reader_probe_dir_has_suffix(p, ".otf2") ? 60 : 0;
	}
	if (!p->is_file || p->is_archive || p->is_sqlite)
		return 0;
	bool named = reader_name_ends_with(reader_probe_base(p), ".otf2");
	if (head_is_anchor(p))
		return named ? 95 : 85;
	/* ours but damaged (a truncated anchor): the message is ours */
	return named ? 50 : 0;
}

/* ---- the library's errors ------------------------------------------------ */

static _Thread_local char library_message[256];

static OTF2_ErrorCode on_library_error(void *ud, const char *file,
				       uint64_t line, const char *function,
				       OTF2_ErrorCode code, const char *fmt,
				       va_list va)
{
	(void)ud;
	(void)file;
	(void)line;
	(void)function;
	if (!library_message[0] && fmt)
		vsnprintf(library_message, sizeof(library_message), fmt, va);
	return code;
}

/* The anchor of directory `dir`: its traces.otf2, else its first *.otf2
 * file by name (heap string; NULL with `err` set when there is none). */
static char *anchor_in(const char *dir, struct error *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		error_set(err, STATUS_IO, dir, "cannot list the directory");
		return NULL;
	}
	char *best = NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!reader_name_ends_with(de->d_name, ".otf2"))
			continue;
		if (!best || strcmp(de->d_name, "traces.otf2") == 0 ||
		    (strcmp(best, "traces.otf2") != 0 &&
		     strcmp(de->d_name, best) < 0)) {
			free(best);
			best = strdup(de->d_name);
		}
	}
	closedir(d);
	char *path = best ? path_join(dir, best) : NULL;
	if (!path) {
		error_set(err, best ? STATUS_NOMEM : STATUS_NOT_DATABASE, dir,
			  best ? "out of memory" : "no OTF2 anchor (*.otf2)");
	}
	free(best);
	return path;
}

/* ---- the model ----------------------------------------------------------- */

static enum status oom(struct otf2_run *r)
{
	return error_set(r->err, STATUS_NOMEM, r->path, "out of memory");
}

static enum status build_nodes(struct otf2_run *r)
{
	for (uint32_t i = 0; i < r->tree.n; i++) {
		struct otf2_region *g = &r->regions[r->tree.region[i]];
		if (g->function == MODEL_NONE) {
			struct model_function f = {
				.name = g->name, .file = g->file, .line = g->line};
			g->function = model_builder_add_function(r->b, &f);
			if (g->function == MODEL_NONE)
				return oom(r);
		}
		uint32_t parent = r->tree.parent[i];
		struct model_node nd = {
			.ctx_id = i + 1u,
			.name = g->name,
			.function = g->function,
			.file = g->file,
			.line = g->line,
			.kind = NODE_REGION,
			.relation = parent == UINT32_MAX ? RELATION_NONE
							 : RELATION_CALL,
		};
		if (model_builder_add_node(r->b,
					   parent == UINT32_MAX ? 0 : parent + 1,
					   &nd) != i + 1u)
			return oom(r);
	}
	return STATUS_OK;
}

enum status otf2_build_metric(struct otf2_run *r, uint32_t id,
			      uint32_t incl_prop, const char *name,
			      const char *descr, const char *format,
			      uint8_t unit)
{
	struct model_stat s = {
		.metric = model_builder_intern(r->b, name, strlen(name)),
		.scope = model_builder_intern(r->b, "exclusive", 9),
		.formula = model_builder_intern(r->b, "$$", 2),
		.combine = COMBINE_SUM,
		.stat_id = id,
		.prop_id = id,
		.flags = STAT_EXCLUSIVE_ONLY,
	};
	uint32_t stat[2];
	stat[1] = model_builder_add_stat(r->b, &s);
	stat[0] = stat[1] == MODEL_NONE
			  ? MODEL_NONE
			  : model_builder_add_inclusive_stat(r->b, stat[1]);
	if (stat[0] == MODEL_NONE ||
	    !model_builder_set_stat_prop_id(r->b, stat[0], incl_prop))
		return oom(r);
	for (int k = 0; k < 2; k++) {
		struct model_leaf_column c = {
			.name = name,
			.variant = "",
			.description = descr,
			.format = format,
			.stat = stat[k],
			.unit = unit,
			.kind = k ? COLUMN_EXCLUSIVE : COLUMN_INCLUSIVE,
			.render = RENDER_NUMBER | RENDER_PERCENT,
			.visible = true,
		};
		if (model_builder_add_leaf_column(r->b, &c) == MODEL_NONE)
			return oom(r);
	}
	return STATUS_OK;
}

/* System tree node k's tuple element: its class in capitals (letters and
 * digits kept, the rest '_', at most 31; NODE when blank) as Cube names
 * the kind, its id the node's, its name the node's name. */
static struct model_id stn_element(struct otf2_run *r, uint32_t k)
{
	const char *cls = model_str(model_builder_peek(r->b),
				    r->stns[k].class_name);
	char kind[32];
	size_t len = 0;
	for (; cls[len] && len < sizeof(kind) - 1; len++) {
		unsigned char c = (unsigned char)cls[len];
		kind[len] = c < 128 && isalnum(c) ? (char)toupper(c) : '_';
	}
	if (!len)
		memcpy(kind, "NODE", len = 4);
	return (struct model_id){.kind_name = model_builder_intern(r->b, kind,
								   len),
				 .kind = 3, .logical_id = k, .physical_id = k,
				 .name = r->stns[k].name};
}

/* Location i's tuple in `ids` (room for n_stns + 2), as Score-P's system
 * tree shows it: its group's system tree path from the top node down,
 * then RANK (the group, named by its name) and THREAD (its number in the
 * group, named by the location's name); the tuple's length. */
static uint32_t location_tuple(struct otf2_run *r, size_t i, uint32_t g,
			       uint32_t thread_no, struct model_id *ids)
{
	const struct otf2_location *l = &r->locs[i];
	uint32_t top = g < r->n_groups ? r->groups[g].stn
				       : OTF2_UNDEFINED_SYSTEM_TREE_NODE,
		 depth = 0;
	for (uint32_t k = top; k != OTF2_UNDEFINED_SYSTEM_TREE_NODE;
	     k = r->stns[k].parent)
		depth++;
	uint32_t n = depth;
	for (uint32_t k = top; k != OTF2_UNDEFINED_SYSTEM_TREE_NODE;
	     k = r->stns[k].parent)
		ids[--n] = stn_element(r, k);
	ids[depth] = (struct model_id){
		.kind_name = model_builder_intern(r->b, "RANK", 4), .kind = 1,
		.logical_id = g, .physical_id = g,
		.name = g < r->n_groups ? r->groups[g].name : 0};
	ids[depth + 1] = (struct model_id){
		.kind_name = model_builder_intern(r->b, "THREAD", 6),
		.kind = 2, .logical_id = thread_no, .physical_id = l->ref,
		.name = l->name};
	return depth + 2;
}

/* One profile and one interval track per location. */
static enum status build_locations(struct otf2_run *r)
{
	uint32_t *rank_in_group = calloc(r->n_groups + 1u, sizeof(uint32_t));
	struct model_id *ids = calloc(r->n_stns + 2u, sizeof(*ids));
	if (!rank_in_group || !ids) {
		free(rank_in_group);
		free(ids);
		return oom(r);
	}
	enum status st = STATUS_OK;
	for (size_t i = 0; i < r->n_locs && st == STATUS_OK; i++) {
		const struct otf2_location *l = &r->locs[i];
		bool grouped = l->group < r->n_groups;
		uint32_t g = grouped ? l->group : r->n_groups;
		uint32_t n_ids = location_tuple(r, i, g, rank_in_group[g]++,
						ids);
		const struct model *m = model_builder_peek(r->b);
		const char *gname = grouped ? model_str(m, r->groups[g].name)
					    : "";
		char *label = NULL;
		if (asprintf(&label, "%s%s%s", gname, *gname ? ": " : "",
			     model_str(m, l->name)) < 0) {
			st = oom(r);
			break;
		}
		uint32_t prof = model_builder_add_profile(r->b, false, ids,
							  n_ids, label);
		struct model_timeline tl = {
			.profile = prof,
			.label = model_builder_intern(r->b, label,
						      strlen(label)),
			.kind = TIMELINE_INTERVALS,
			.count = l->n_iv,
			.n_instants = r->mark_first ? r->mark_first[i + 1] -
							      r->mark_first[i]
						    : 0,
		};
		free(label);
		if (prof == MODEL_NONE || tl.label == MODEL_NONE ||
		    model_builder_add_timeline(r->b, &tl) == MODEL_NONE)
			st = oom(r);
	}
	free(rank_in_group);
	free(ids);
	if (st == STATUS_OK)
		model_builder_set_time_range(r->b, r->time_min, r->time_max);
	return st;
}

static void warn(struct otf2_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct otf2_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	model_builder_vwarnf(r->b, r->path, fmt, ap);
	va_end(ap);
}

/* What the pass counted but could not use, one warning each. */
static void build_warnings(struct otf2_run *r)
{
	uint64_t events = 0, claimed = 0;
	for (size_t i = 0; i < r->n_locs; i++) {
		events += r->locs[i].events;
		claimed += r->locs[i].claimed;
	}
	char marks[400];
	if (otf2_marks_note(r, marks, sizeof(marks)))
		warn(r, "%s", marks);
	/* the counts, each with what it counted */
	const struct {
		uint64_t n;
		const char *what;
	} counted[] = {
	    {r->unknown_events, "events of kinds this OTF2 library does not "
				"know were skipped"},
	    {r->unshown, "events of kinds callscope does not show (such as "
			 "parameters, request tests, metric events of no "
			 "metric shown) were skipped"},
	    {r->unknown_defs, "global definitions of kinds this OTF2 library "
			      "does not know were skipped"},
	    {r->unmatched_leaves, "Leave events without a matching Enter "
				  "were ignored"},
	    {r->open_at_end, "regions were never left; each ends at its "
			     "location's last event or its caller's Leave"},
	    {r->backward_times, "events are earlier than the event before "
				"them in their location; taken at that "
				"event's time"},
	};
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		if (counted[i].n)
			warn(r, "%llu %s", (unsigned long long)counted[i].n,
			     counted[i].what);
	if (claimed && claimed != events)
		warn(r, "the definitions announce %llu events, the locations "
		     "hold %llu", (unsigned long long)claimed,
		     (unsigned long long)events);
}

static void build_title(struct otf2_run *r, OTF2_Reader *rd)
{
	char *creator = NULL, *title = NULL;
	uint8_t major = 0, minor = 0, bugfix = 0;
	OTF2_Reader_GetVersion(rd, &major, &minor, &bugfix);
	if (OTF2_Reader_GetCreator(rd, &creator) != OTF2_SUCCESS)
		creator = NULL;
	uint64_t events = 0;
	uint32_t regions = 0;
	for (size_t i = 0; i < r->n_locs; i++)
		events += r->locs[i].events;
	for (uint32_t i = 0; i < r->n_regions; i++)
		regions += r->regions[i].defined;
	if (asprintf(&title,
		     "OTF2 %u.%u trace%s%s: %zu locations, %u regions, %llu "
		     "events", major, minor, creator && *creator ? " by " : "",
		     creator ? creator : "", r->n_locs, regions,
		     (unsigned long long)events) >= 0)
		model_builder_set_title(r->b, title, NULL);
	free(title);
	free(creator);
}

static enum status build(struct otf2_run *r, OTF2_Reader *rd)
{
	enum status st = build_nodes(r);
	if (st == STATUS_OK)
		st = otf2_build_metric(r, 0, 2, "time", "time spent in the call path "
				  "(seconds, from Enter/Leave)", "%.4g",
				  UNIT_SECONDS);
	if (st == STATUS_OK)
		st = otf2_build_metric(r, 1, 3, "visits", "times the call path was "
				  "entered", "%.0f", UNIT_COUNT);
	if (st == STATUS_OK)
		st = build_locations(r);
	if (st == STATUS_OK)
		st = otf2_metrics_build(r);
	if (st == STATUS_OK && r->marks)
		st = otf2_build_metric(r, OTF2_MARKS_STAT(r),
				       OTF2_MARKS_STAT(r) + 1, "Marks",
				       "markers of the marker file in the call "
				       "path: on their location, in the call "
				       "running at their time", "%.0f",
				       UNIT_COUNT);
	if (st == STATUS_OK) {
		build_warnings(r);
		build_title(r, rd);
		model_builder_set_ctx_id_base(r->b, 1);
	}
	return st;
}

/* ---- open ---------------------------------------------------------------- */

static enum status read_archive(struct otf2_run *r, const char *anchor)
{
	enum status need = lazylib_require(LAZYLIB_OTF2, r->err);
	if (need != STATUS_OK)
		return need;
	library_message[0] = '\0';
	OTF2_Error_RegisterCallback(on_library_error, NULL);
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	if (!rd)
		return error_set(r->err, STATUS_NOT_DATABASE, anchor,
				 "not a readable OTF2 anchor file%s%s",
				 library_message[0] ? ": " : "",
				 library_message);
	enum status st = STATUS_OK;
	uint8_t major = 0, minor = 0, bugfix = 0;
	if (OTF2_Reader_GetVersion(rd, &major, &minor, &bugfix) != OTF2_SUCCESS ||
	    major == 0 || major > OTF2_VERSION_MAJOR)
		st = error_set(r->err, STATUS_UNSUPPORTED, anchor,
			       "OTF2 version %u.%u.%u: this OTF2 library reads "
			       "versions 1.0 to %u.%u", major, minor, bugfix,
			       OTF2_VERSION_MAJOR, OTF2_VERSION_MINOR);
	if (st == STATUS_OK &&
	    OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS)
		st = error_set(r->err, STATUS_CORRUPT, anchor,
			       "cannot set up the OTF2 reader%s%s",
			       library_message[0] ? ": " : "", library_message);
	if (st == STATUS_OK)
		st = otf2_read_defs(r, rd);
	if (st == STATUS_OK)
		st = otf2_read_events(r, rd);
	r->reader = rd; /* kept for the trace's replays; closed with the run */
	otf2_slots_reset(r);
	if (st == STATUS_OK)
		st = otf2_read_marks(r, rd);
	if (st == STATUS_OK)
		st = build(r, rd);
	if (st != STATUS_OK)
		otf2_close_reader(r);
	return st;
}

static enum status otf2_open(const struct reader_input *in, struct model **out,
			     struct error *err)
{
	*out = NULL;
	const char *path = in->paths[0];
	struct stat sb;
	if (stat(path, &sb) != 0)
		return error_set(err, STATUS_NOT_FOUND, path, "no such file");
	char *anchor = S_ISDIR(sb.st_mode) ? anchor_in(path, err) : strdup(path);
	if (!anchor)
		return err->status ? err->status
				   : error_set(err, STATUS_NOMEM, path,
					       "out of memory");
	struct otf2_run *r = calloc(1, sizeof(*r));
	struct model_builder *b = r ? model_builder_new("otf2", path) : NULL;
	if (!b) {
		free(r);
		free(anchor);
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	}
	r->path = anchor;
	r->b = b;
	r->err = err;
	r->block = OTF2_BLOCK_CALLS;
	r->cache_dir = in->options ? in->options->cache_dir : NULL;
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->index_lock, NULL);
	r->options = in->options;
	enum status st = reader_options_apply(&reader_otf2,
					      in->options, &r->block, err);
	if (st == STATUS_OK)
		st = read_archive(r, anchor);
	if (st != STATUS_OK) {
		model_builder_free(b);
		otf2_run_free(r);
		return st;
	}
	r->cache_dir = NULL; /* the caller's: only during the open */
	r->options = NULL;
	otf2_set_providers(r);
	*out = model_builder_finish(b, err);
	return *out ? STATUS_OK : err->status;
}

/* otf2:calls-per-block=N: how many calls of a location one replay reads
 * (the trace's window; small values exercise the replay in tests). */
static enum status otf2_option(void *state, const char *key,
			       const char *value, struct error *err)
{
	char *end = NULL;
	unsigned long n = strtoul(value, &end, 10);
	if (strcmp(key, "calls-per-block") != 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "otf2 has no option '%s' (it takes "
				 "calls-per-block=N)", key);
	if (!*value || *end || n == 0 || n > (1ul << 24))
		return error_set(err, STATUS_USAGE, NULL,
				 "calls-per-block: 1 to %lu, not '%s'",
				 1ul << 24, value);
	if (state)
		*(uint32_t *)state = (uint32_t)n;
	return STATUS_OK;
}

static const char *const otf2_option_names[] = {"otf2", NULL};

/* A copy of an archive's directory (a directory URL): the anchors, their
 * global definitions (ANCHOR.def) and their folders' per-location
 * definitions and events (ANCHOR/N.def, ANCHOR/N.evt), what the OTF2
 * library opens; not a Score-P experiment's profile.cubex, scorep.cfg or
 * MANIFEST.md beside them.  Fetched whole. */
static const struct reader_file_rule otf2_files[] = {
	{"*.otf2", 0},
	{"*.def", 0},
	{"*/*.def", 0},
	{"*/*.evt", 0},
	{NULL, 0},
};

READER(reader_otf2, "otf2",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_INTERVALS,
       otf2_bid, otf2_open,
       "OTF2 trace archives (Score-P, Scalasca, TAU: traces.otf2 or its "
       "directory)",
       .option_names = otf2_option_names, .option = otf2_option,
       .cache_name = "otf2", .cache_list = otf2_cache_list,
       .files = otf2_files);
