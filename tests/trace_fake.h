/* The fake trace provider of the trace_view tests (tests/trace_fake.c):
 * ten lines of samples over eight contexts, optionally an interval track,
 * its model, the brute-force answers the tests check against (the
 * context of a line at a time, its frame at a depth), and the cmocka
 * fixture (the provider, the model and a view) with its setups. */
#ifndef CALLSCOPE_TESTS_TRACE_FAKE_H
#define CALLSCOPE_TESTS_TRACE_FAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "views/trace_view.h"

#define N_LINES 10
#define N_SAMPLES 200

/* Contexts: root -> main(1, entry) -> solve(2, fn) -> loop(3) -> line(4);
 * main -> io(5, fn) -> write(6, fn); root -> other(7, entry, named
 * "solve" too: same name, same colour). */
struct fake {
	struct trace_sample samples[N_LINES][N_SAMPLES];
	uint64_t counts[N_LINES];
	struct trace_interval intervals[8];
	uint64_t n_intervals;
	uint32_t interval_line; /* which line is an interval track */
	uint64_t reads;
};


/* frames of each ctx from the outermost: (ctx -> chain of frame ctxs) */
extern const uint32_t chains[8][3];
extern const uint32_t chain_len[8];

/* the frame of context ctx at depth d (0: idle) */
uint32_t brute_depth(uint32_t ctx, uint32_t d);
/* brute force: the context of line l at time t (raw) */
uint32_t brute_ctx(const struct fake *f, uint32_t l, uint64_t t);

/* the start of cell k of `cols` over [from, to) */
static inline uint64_t cell_t(uint64_t from, uint64_t to, uint32_t cols,
			      uint32_t k)
{
	return from + (to - from) * k / cols;
}

/* The fixture of most tests: the fake provider filled, its model and a
 * view over it, made by a setup and freed by the teardown. */
struct fixture {
	struct fake *f;
	struct model *m;
	struct trace_view *v;
};

int setup_samples(void **state);
int setup_intervals(void **state);
/* the model's order the reverse of the lines' identifier tuples */
int setup_reversed(void **state);
int teardown(void **state);

/* A builder holding entry "main" (ctx 1) and below it `child`, a node of
 * kind `kind` (ctx 5): the tree of the hand-built counter and GPU models. */
struct model_builder *main_child_builder(const char *what,
					 enum node_kind kind,
					 const char *child);

/* a test over the fake fixture: its samples, or with line 9 an interval
 * track */
#define FIXTURE(test, setup) \
	cmocka_unit_test_setup_teardown(test, setup, teardown)

#endif
