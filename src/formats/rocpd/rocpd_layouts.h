/* rocpd_layouts: the two ROCm table layouts read into a gpu_run: rocprofv3
 * rocpd v3 databases (rocpd_v3.c) and rocmProfileData .rpd files
 * (rocpd_rpd.c).  Private to the rocpd reader. */
#ifndef CALLSCOPE_ROCPD_LAYOUTS_H
#define CALLSCOPE_ROCPD_LAYOUTS_H

#include "formats/gpu_run.h"

extern const struct gpu_run_layout rocpd_layout_v3;

/* rocprofv3 table sets (rocpd_v3.c): "base" + the set's suffix, quoted
 * for SQL ('"' doubled), and the same unquoted (pragma_table_info,
 * sqlite_master); NULL when out of memory. */
char *rocpd_v3_tname(const struct gpu_run_set *s, const char *base);
char *rocpd_v3_rawname(const struct gpu_run_set *s, const char *base);
/* The attributes of an interval of a v3 line (rocpd_v3_detail.c). */
enum status rocpd_v3_detail(struct gpu_run *r, const struct gpu_run_line *l,
			    uint64_t event, struct model_kv **out, size_t *n,
			    struct error *err);
extern const struct gpu_run_layout rocpd_layout_rpd;

#endif
