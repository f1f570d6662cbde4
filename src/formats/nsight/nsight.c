/* nsight: the reader of NVIDIA Nsight Systems SQLite exports (`nsys export
 * --type sqlite`), one or several files (or a directory of them, one per
 * rank) as one run.  Bids on the probe's table names: NVIDIA's `StringIds`
 * with any of the activity tables (CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS,
 * OSRT_API); tables that other tools add (Extra-P's EXTRAP_*, pipit's
 * columns) are ignored.  The tables are read by nsight_read.c into the run
 * of ../gpu_run/gpu_run.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include "formats/nsight/nsight_read.h"
#include "formats/reader.h"

static bool is_export_name(const char *name)
{
	return reader_name_ends_with(name, ".sqlite");
}

static int nsight_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		/* a guess from names: a reader that knows the directory's
		 * files bids higher */
		return reader_probe_dir_has_suffix(p, ".sqlite") ? 40 : 0;
	}
	if (!p->is_sqlite)
		return 0;
	bool activity =
		reader_probe_has_table_prefix(p, "CUPTI_ACTIVITY_KIND_") ||
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

static const struct gpu_run_layout *nsight_layout_of(struct gpu_run_file *f)
{
	(void)f;
	return &nsight_layout;
}

extern const struct reader reader_nsight;

/* A copy of a directory of exports (a directory URL): its .sqlite files
 * (not one level down: gpu_run's dir_depth 0), fetched whole as rocpd's
 * are (no range-reading SQLite VFS). */
static const struct reader_file_rule nsight_files[] = {
	{"[!.]*.sqlite", 0},
	{NULL, 0},
};

/* options are addressed to "nsight" or to "gpu", every GPU run */
static const char *const nsight_option_names[] = {"nsight", "gpu", NULL};

static const struct gpu_run_family nsight_family = {
    .format = "nsight",
    .reader = &reader_nsight,
    .noun = "Nsight Systems export",
    .unlinked_where = "placed under their process",
    .layout_of = nsight_layout_of,
    .accept_name = is_export_name,
    .dir_depth = 0,
    .files_noun = ".sqlite file",
    .group_names = {[GPU_RUN_GROUP_API] = "CUDA API",
		    [GPU_RUN_GROUP_RANGE] = "NVTX ranges",
		    [GPU_RUN_GROUP_OS] = "OS runtime"},
};

static enum status nsight_open(const struct reader_input *in,
			       struct model **out, struct error *err)
{
	return gpu_run_open_input(&nsight_family, in, out, err);
}

READER(reader_nsight, "nsight",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_INTERVALS |
	   READER_CAP_MERGE,
       nsight_bid, nsight_open,
       "NVIDIA Nsight Systems SQLite exports (nsys export --type sqlite; "
       "several as one run)",
       .cache_name = "runs", .cache_list = gpu_run_index_list,
       .option_names = nsight_option_names, .option = gpu_run_option,
       .files = nsight_files);
