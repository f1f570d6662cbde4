/* nsight_read: the Nsight Systems export table layout read into a gpu_run
 * (nsight_read.c).  Private to the nsight reader. */
#ifndef CALLSCOPE_NSIGHT_READ_H
#define CALLSCOPE_NSIGHT_READ_H

#include "formats/gpu_run/gpu_run.h"

extern const struct gpu_run_layout nsight_layout;

#endif
