/* rocpd_layouts: the two ROCm table layouts read into a gpu_run: rocprofv3
 * rocpd v3 databases (rocpd_v3.c) and rocmProfileData .rpd files
 * (rocpd_rpd.c).  Private to the rocpd reader. */
#ifndef CALLSCOPE_ROCPD_LAYOUTS_H
#define CALLSCOPE_ROCPD_LAYOUTS_H

#include "formats/gpu_run.h"

extern const struct gpu_run_layout rocpd_layout_v3;
extern const struct gpu_run_layout rocpd_layout_rpd;

#endif
