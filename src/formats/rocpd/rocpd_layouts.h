/* rocpd_layouts: the two ROCm table layouts read into a gpu_run: rocprofv3
 * rocpd v3 databases (rocpd_v3.c) and rocmProfileData .rpd files
 * (rocpd_rpd.c).  Private to the rocpd reader. */
#ifndef CALLSCOPE_ROCPD_LAYOUTS_H
#define CALLSCOPE_ROCPD_LAYOUTS_H

#include "formats/gpu_run/gpu_run.h"

extern const struct gpu_run_layout rocpd_layout_v3;

/* gpu_run_set.opt of a v3 table set: optional columns */
#define V3_DISPATCH_STREAM 1u /* rocpd_kernel_dispatch.stream_id */
#define V3_COPY_STREAM 2u     /* rocpd_memory_copy.stream_id */
/* The event of a copy on a stream line (which holds kernels and copies,
 * whose row ids overlap): its row id with this bit. */
#define ROCPD_V3_COPY_EVENT (1ull << 61)

/* rocprofv3 table sets (rocpd_v3_sets.c): "base" + the set's suffix, quoted
 * for SQL ('"' doubled), and the same unquoted (pragma_table_info,
 * sqlite_master); NULL when out of memory. */
char *rocpd_v3_tname(const struct gpu_run_set *s, const char *base);
char *rocpd_v3_rawname(const struct gpu_run_set *s, const char *base);
/* The table sets of file `f` (f->sets), and the check of one
 * (rocpd_v3_sets.c). */
enum status rocpd_v3_find_sets(struct gpu_run_file *f, struct error *err);
enum status rocpd_v3_check_set(struct gpu_run_file *f, struct gpu_run_set *s,
			       struct error *err);
/* The attributes of an interval of a v3 line (rocpd_v3_detail.c). */
enum status rocpd_v3_detail(struct gpu_run *r, const struct gpu_run_line *l,
			    uint64_t event, struct model_kv **out, size_t *n,
			    struct error *err);
extern const struct gpu_run_layout rocpd_layout_rpd;
/* gpu_run_set.opt of an .rpd file: stream columns present */
#define RPD_KERNEL_STREAM 1u /* rocpd_kernelapi.stream, api_ptr_id */
#define RPD_COPY_STREAM 2u   /* rocpd_copyapi.stream */

#endif
