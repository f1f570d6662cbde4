/* rocpd: the reader of ROCm profiles: rocprofv3 / rocprof-sys "rocpd"
 * SQLite databases (one per process, or merged) and rocmProfileData
 * ".rpd" files, one or several files (or a directory of them) as one run.
 * Bids on the probe's table names: rocpd_kernel_dispatch* / rocpd_event*
 * tables are rocprofv3's layout, rocpd_api with rocpd_op is .rpd
 * (notes/rocpd.md 0.1: schema_version says 3 in both families); a
 * run's index YAML file (rocpd_index_yaml.c) by its name; a directory by
 * the names of its files (.db, .rpd, here or one level down), a guess
 * that a reader knowing the files outbids.  The
 * layouts are read by rocpd_v3.c and rocpd_rpd.c into the run of
 * ../gpu_run/gpu_run.c.  Must not depend on curses or on ui/. */
#include "config.h"

#include <string.h>

#include "formats/reader.h"
#include "formats/rocpd/rocpd_index_yaml.h"
#include "formats/rocpd/rocpd_layouts.h"

static bool is_profile_name(const char *name)
{
	return reader_name_ends_with(name, ".rpd") ||
	       reader_name_ends_with(name, ".db");
}

/* Whether the probe's head has `word` at the start of a line (an index
 * YAML file's top-level `files:` or `rocprofiler-sdk:` key). */
static bool head_has_key(const struct reader_probe *p, const char *word)
{
	size_t l = strlen(word);
	for (size_t i = 0; i + l <= p->head_len; i++)
		if ((i == 0 || p->head[i - 1] == '\n') &&
		    memcmp(p->head + i, word, l) == 0)
			return true;
	return false;
}

static int rocpd_bid(const struct reader_probe *p, int best)
{
	(void)best;
	if (p->is_dir) {
		/* a directory of databases (a guess from names: a reader
		 * that knows the directory's files bids higher) */
		if (reader_probe_dir_has_suffix(p, ".rpd") ||
		    reader_probe_dir_has_suffix(p, ".db"))
			return 40;
		/* rocprofv3's HOST/PID_results.db, beside stray files (a
		 * log, an index YAML): databases one level down, a lesser
		 * guess (a reader knowing those files bids more) */
		if (reader_probe_subdirs_have_suffix(p, ".rpd") ||
		    reader_probe_subdirs_have_suffix(p, ".db"))
			return 30;
		/* databases beyond the probe's first subdirectories */
		return p->n_subdirs > 0 ? 10 : 0;
	}
	/* a run's index YAML file (rocpd_index_yaml.c): no other reader
	 * takes YAML, so refusals of one are ours */
	if (p->is_file && !p->is_sqlite &&
	    rocpd_index_yaml_name(reader_probe_base(p)))
		return head_has_key(p, "files:") ||
				       head_has_key(p, "rocprofiler-sdk:")
			       ? 60
			       : 20;
	if (!p->is_sqlite)
		return 0;
	if (reader_probe_has_table_prefix(p, "rocpd_kernel_dispatch") ||
	    reader_probe_has_table_prefix(p, "rocpd_event"))
		return 80;
	if (reader_probe_has_table(p, "rocpd_api") &&
	    reader_probe_has_table(p, "rocpd_op"))
		return 80;
	/* ours but incomplete: the message about what is missing is ours */
	if (reader_probe_has_table_prefix(p, "rocpd_"))
		return 50;
	return 0;
}

static const struct gpu_run_layout *rocpd_layout_of(struct gpu_run_file *f)
{
	if (gpu_run_has_table(f, "rocpd_api") &&
	    gpu_run_has_table(f, "rocpd_op"))
		return &rocpd_layout_rpd;
	return &rocpd_layout_v3;
}

extern const struct reader reader_rocpd;

/* options are addressed to "rocpd" or to "gpu", every GPU run */
static const char *const rocpd_option_names[] = {"rocpd", "gpu", NULL};

static const struct gpu_run_family rocpd_family = {
	.format = "rocpd",
	.reader = &reader_rocpd,
	.noun = "ROCm profile",
	.unlinked_where = "placed by time on their thread",
	.layout_of = rocpd_layout_of,
	.accept_name = is_profile_name,
	.dir_depth = 1, /* rocprofv3: HOST/PID_results.db */
	.files_noun = ".db or .rpd file",
	.list_name = rocpd_index_yaml_name,
	.list_files = rocpd_index_yaml_read,
	.group_names = {[GPU_RUN_GROUP_API] = "API calls",
			[GPU_RUN_GROUP_RANGE] = "roctx ranges"},
};

static enum status rocpd_open(const struct reader_input *in,
			      struct model **out, struct error *err)
{
	return gpu_run_open_input(&rocpd_family, in, out, err);
}

/* A copy of a run's directory (a directory URL): its databases, here and
 * one level down (rocprofv3's HOST/PID_results.db), and index YAML
 * files; SQLite files are fetched whole (no range-reading VFS), the
 * rest (a README, logs) is left on the server. */
static const struct reader_file_rule rocpd_files[] = {
	{"*.rpd", 0},
	{"*.db", 0},
	{"*/*.rpd", 0},
	{"*/*.db", 0},
	{"*.yaml", 0},
	{"*.yml", 0},
	{NULL, 0},
};

READER(reader_rocpd, "rocpd",
       READER_CAP_TREE | READER_CAP_PER_PROFILE | READER_CAP_INTERVALS |
	   READER_CAP_COUNTERS | READER_CAP_MERGE,
       rocpd_bid, rocpd_open,
       "ROCm profiles: rocprofv3 rocpd databases and rocmProfileData .rpd "
       "files (several, a directory or a run's index YAML as one run)",
       .cache_name = "runs", .cache_list = gpu_run_index_list,
       .option_names = rocpd_option_names, .option = gpu_run_option,
       .files = rocpd_files);
