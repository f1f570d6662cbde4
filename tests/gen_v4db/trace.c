/* gen-v4db's trace.db: the sample pools, one line per thread (plus empty
 * lines), and the probes the answers file lists for the trace tests. */

#include "config.h"

#include "gen.h"

struct pool {
	uint32_t *ids;
	uint32_t n;
};

static int build_pools(const struct gen *g, struct pool pools[2])
{
	for (int e = 0; e < 2; e++) {
		pools[e].ids = calloc(g->n_nodes, sizeof(uint32_t));
		if (pools[e].ids == NULL)
			return -1;
	}
	for (uint32_t i = 0; i < g->n_nodes; i++) {
		const struct node *n = &g->nodes[i];
		if (n->kind != GEN_KIND_ENTRY && n->n_children == 0)
			pools[n->entry].ids[pools[n->entry].n++] = n->ctx_id;
	}
	for (int e = 0; e < 2; e++)
		if (pools[e].n == 0 && pools[1 - e].n == 0 && e < (int)g->n_entries)
			pools[e].ids[pools[e].n++] = g->nodes[e].ctx_id;
	return 0;
}

static void add_probe(struct gen *g, uint32_t line, uint32_t prof, uint64_t t, int64_t index, uint32_t ctx,
		      const char *kase)
{
	if (g->probes == NULL)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "line", json_integer(line));
	json_object_set_new(o, "prof_index", json_integer(prof));
	json_object_set_new(o, "t", json_integer((json_int_t)t));
	json_object_set_new(o, "ctx", json_integer(ctx));
	json_object_set_new(o, "index", json_integer(index));
	json_object_set_new(o, "case", json_string(kase));
	json_array_append_new(g->probes, o);
}

int write_trace(struct gen *g)
{
	uint32_t L = g->opt.trace_lines ? g->opt.trace_lines : g->n_threads;
	uint64_t S = g->opt.samples;
	struct pool pools[2] = { { 0 } };
	struct bw w = { .fd = -1 };
	char *path = NULL;
	int fd = -1, rc = -1, e = 0;
	if (L > g->n_threads)
		L = g->n_threads;
	uint32_t empty = g->opt.empty_lines < L ? g->opt.empty_lines : L;
	g->trace_lines = L;
	if (build_pools(g, pools) < 0)
		goto out;
	fd = open_out(g, "trace.db", &path);
	if (fd < 0)
		goto out;
	uint64_t cth_base = 0x40, data_base = cth_base + 24ULL * L;
	uint64_t period = S > 2000000 ? 100000 : 1000000;
	uint64_t base_ts = 1700000000000000000ULL + g->opt.seed % 100000 * 1000000000ULL;
	uint64_t min_ts = UINT64_MAX, max_ts = 0, pos = data_base;
	bw_init(&w, fd, data_base, 1 << 20);
	struct buf cth = { 0 };
	for (uint32_t l = 0; l < L; l++) {
		uint32_t prof = l + 1;
		uint64_t n = l >= L - empty ? 0 : S;
		buf_uint(&cth, prof, 4);
		buf_zero(&cth, 4);
		buf_uint(&cth, pos, 8);
		buf_uint(&cth, pos + 12 * n, 8);
		pos += 12 * n;
		if (n == 0)
			continue;
		const struct pool *pl = &pools[thread_in_entry(g, l, 0) ? 0 : 1];
		if (pl->n == 0)
			pl = &pools[pl == &pools[0] ? 1 : 0];
		struct rng r = { .state = hash3(g->opt.seed, l, GEN_SALT_TRACE) };
		uint64_t ts = base_ts + rng_below(&r, 2 * period), prev_ts = 0;
		uint32_t ctx = 0, prev_ctx = 0;
		uint64_t k_a = n / 3, k_b = 2 * n / 3;
		bool equal_seen = false;
		struct probe pending[8];
		unsigned n_pending = 0;
		pending[n_pending++] = (struct probe){ .t = ts - 1, .kase = "before_first" };
		for (uint64_t k = 0; k < n; k++) {
			if (k > 0) {
				uint64_t x = rng_below(&r, 1000);
				if (x < 10 && k != k_a + 1)
					ts += 0;
				else if (x < 13)
					ts += period * (20 + rng_below(&r, 80));
				else
					ts += period / 2 + rng_below(&r, period);
			}
			uint64_t y = rng_below(&r, 1000);
			if (k > 0 && prev_ctx == 0)
				ctx = pl->n ? pl->ids[rng_below(&r, pl->n)] : 1;
			else if (y < 20)
				ctx = 0;
			else if (k == 0 || y >= 700 || pl->n == 0) {
				double u = unit_of(rng_next(&r));
				ctx = pl->n ? pl->ids[(uint32_t)(u * u * pl->n)] : 1;
			}
			/* resolve probes that lie before this sample */
			for (unsigned q = 0; q < n_pending;) {
				if (pending[q].t < ts) {
					add_probe(g, l, prof, pending[q].t, (int64_t)k - 1, k == 0 ? 0 : prev_ctx, pending[q].kase);
					pending[q] = pending[--n_pending];
				} else {
					q++;
				}
			}
			bw_uint(&w, ts, 8);
			bw_uint(&w, ctx, 4);
			if (k == 0 && n_pending < 8)
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_first" };
			if ((k == k_a || k == k_b) && n_pending < 7) {
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_sample" };
				if (k == k_a)
					pending[n_pending++] = (struct probe){ .t = ts + 1, .kase = "between" };
			}
			if (k > 0 && ts == prev_ts && !equal_seen && n_pending < 8) {
				equal_seen = true;
				pending[n_pending++] = (struct probe){ .t = ts, .kase = "on_equal" };
			}
			if (ts < min_ts)
				min_ts = ts;
			if (ts > max_ts)
				max_ts = ts;
			prev_ts = ts;
			prev_ctx = ctx;
		}
		for (unsigned q = 0; q < n_pending; q++)
			add_probe(g, l, prof, pending[q].t, (int64_t)n - 1, prev_ctx, pending[q].kase);
		add_probe(g, l, prof, prev_ts, (int64_t)n - 1, prev_ctx, "on_last");
		add_probe(g, l, prof, prev_ts + 1000000, (int64_t)n - 1, prev_ctx, "after_last");
		g->trace_elements += n;
	}
	g->trace_min = min_ts;
	g->trace_max = max_ts;
	if (g->trace_elements == 0) {
		/* no samples: what hpcprof writes (its int64 minimum and
		 * maximum start values, INT64_MAX .. INT64_MIN; corpus
		 * metadb/d.x); the answers say there is no range */
		g->trace_min = g->trace_max = 0;
		min_ts = (uint64_t)INT64_MAX;
		max_ts = (uint64_t)INT64_MAX + 1;
	}
	e = bw_finish(&w);
	unsigned char header[0x40] = { 0 };
	uint64_t sec[2] = { 0x20 + 24ULL * L, 0x20 };
	file_header(header, "trce", sec, 1);
	le_encode(header + 0x20, cth_base, 8);
	le_encode(header + 0x28, L, 4);
	header[0x2c] = 24;
	le_encode(header + 0x30, min_ts, 8);
	le_encode(header + 0x38, max_ts, 8);
	if (e == 0)
		e = cth.failed ? ENOMEM : write_at(fd, 0, header, sizeof header);
	if (e == 0)
		e = write_at(fd, cth_base, cth.data, cth.len);
	if (e == 0)
		e = write_footer(fd, pos, "trace.db");
	free(cth.data);
	if (write_failed(path, e))
		goto out;
	rc = 0;
out:
	rc = close_out(fd, &w, rc);
	free(path);
	free(pools[0].ids);
	free(pools[1].ids);
	return rc;
}
