/* bench_model: a generated model for the engine benchmarks, and their
 * clock. */
#ifndef CALLSCOPE_BENCH_MODEL_H
#define CALLSCOPE_BENCH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* Process CPU time in seconds (the machine may be shared). */
double bench_cpu_seconds(void);

/* A model of `n_nodes` nodes (root included).  With `preorder` the nodes
 * are numbered depth-first, as a reader of a real database adds them;
 * otherwise parents are scattered over the node array (the worst case for
 * memory access).  NULL when out of memory. */
struct model *bench_model_generate(uint32_t n_nodes, bool preorder);

#endif
