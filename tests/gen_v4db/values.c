/* gen-v4db's cct.db and profile.db: the post-order values passes that
 * count and then write every context's per-thread values, streamed with
 * positional writers so memory follows the contexts, not the values. */

#include "config.h"

#include "gen.h"

struct cct_writer {
	int fd;
	struct bw ci;   /* {CI} array, written in ctx id order */
	struct bw data; /* value blocks */
	uint32_t next_id;
	uint16_t *idx_metric;
	uint64_t *idx_start;
};

static void cct_empty_until(struct cct_writer *c, uint32_t id)
{
	while (c->next_id < id) {
		uint64_t at = bw_pos(&c->data);
		bw_uint(&c->ci, 0, 8);
		bw_uint(&c->ci, at, 8);
		bw_uint(&c->ci, 0, 8);
		bw_uint(&c->ci, at, 8);
		c->next_id++;
	}
}

/* Writes one context's block; returns the {CI} bytes (written by caller). */
static void cct_block(const struct gen *g, struct cct_writer *c, double *const vals[GEN_N_SCOPES], unsigned char ci[32])
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	bw_align(&c->data, 4);
	uint64_t p_values = bw_pos(&c->data), n_values = 0;
	uint16_t n_metrics = 0;
	for (uint32_t m = 0; m < M; m++)
		for (int s = 0; s < GEN_N_SCOPES; s++) {
			uint64_t start = n_values;
			for (uint32_t t = 0; t < T; t++) {
				double v = vals[s][t * M + m];
				if (v == 0.0)
					continue;
				bw_uint(&c->data, t + 1, 4);
				bw_f64(&c->data, v);
				n_values++;
			}
			if (n_values > start) {
				c->idx_metric[n_metrics] = prop_id(m, (enum gen_scope)s);
				c->idx_start[n_metrics] = start;
				n_metrics++;
			}
		}
	uint64_t p_idx = bw_pos(&c->data);
	for (uint16_t k = 0; k < n_metrics; k++) {
		bw_uint(&c->data, c->idx_metric[k], 2);
		bw_uint(&c->data, c->idx_start[k], 8);
	}
	le_encode(ci, n_values, 8);
	le_encode(ci + 8, p_values, 8);
	le_encode(ci + 16, n_metrics, 2);
	memset(ci + 18, 0, 6);
	le_encode(ci + 24, p_idx, 8);
}

struct prof_writer {
	struct bw *vals; /* per profile */
	struct bw *idx;
	uint64_t *written; /* values written per profile */
};

/* One context's values into every profile that has any (pass 2). */
static void prof_context(const struct gen *g, struct prof_writer *p, uint32_t ctx_id, double *const vals[GEN_N_SCOPES],
			 const double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	bool any = false;
	for (uint32_t k = 0; k < M * GEN_N_STATS && !any; k++)
		any = stats[k] != 0.0;
	if (any) {
		bw_uint(&p->idx[0], ctx_id, 4);
		bw_uint(&p->idx[0], p->written[0], 8);
		for (uint32_t m = 0; m < M; m++)
			for (int k = 0; k < GEN_N_STATS; k++) {
				double v = stats[m * GEN_N_STATS + k];
				if (v == 0.0)
					continue;
				bw_uint(&p->vals[0], stat_id(g, m, (enum gen_stat)k), 2);
				bw_f64(&p->vals[0], v);
				p->written[0]++;
			}
	}
	for (uint32_t t = 0; t < T; t++) {
		bool started = false;
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++) {
				double v = vals[s][t * M + m];
				if (v == 0.0)
					continue;
				if (!started) {
					bw_uint(&p->idx[t + 1], ctx_id, 4);
					bw_uint(&p->idx[t + 1], p->written[t + 1], 8);
					started = true;
				}
				bw_uint(&p->vals[t + 1], prop_id(m, (enum gen_scope)s), 2);
				bw_f64(&p->vals[t + 1], v);
				p->written[t + 1]++;
			}
	}
}

/* Counts what prof_context would write (pass 1). */
static void count_context(struct gen *g, double *const vals[GEN_N_SCOPES], const double *stats)
{
	uint32_t T = g->n_threads, M = g->n_metrics;
	uint64_t n = 0;
	for (uint32_t k = 0; k < M * GEN_N_STATS; k++)
		n += stats[k] != 0.0;
	if (n > 0) {
		g->prof_nvals[0] += n;
		g->prof_nctxs[0]++;
	}
	for (uint32_t t = 0; t < T; t++) {
		n = 0;
		for (uint32_t m = 0; m < M; m++)
			for (int s = 0; s < GEN_N_SCOPES; s++)
				n += vals[s][t * M + m] != 0.0;
		if (n > 0) {
			g->prof_nvals[t + 1] += n;
			g->prof_nctxs[t + 1]++;
		}
	}
}

/* Post-order pass over the tree.  pass 1: cct.db, counts, answers; pass 2:
 * profile.db.  Values at each level: point = raw, function = raw + lexical
 * children's function values, execution = raw + all children's execution. */
static int values_pass(struct gen *g, int pass, struct cct_writer *cct, struct prof_writer *prof)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M;
	struct walk w = { 0 };
	double *stats = calloc((size_t)M * GEN_N_STATS, sizeof(double));
	unsigned char ci[32];
	if (stats == NULL || walk_init(g, &w) < 0) {
		free(stats);
		return -1;
	}
	for (int s = 0; s < GEN_N_SCOPES; s++)
		memset(g->slot[s], 0, sizeof(double) * TM);
	uint32_t node, level;
	enum walk_event ev;
	while ((ev = walk_step(g, &w, &node, &level)) != WALK_DONE) {
		double *vals[GEN_N_SCOPES];
		for (int s = 0; s < GEN_N_SCOPES; s++)
			vals[s] = g->slot[s] + (size_t)level * TM;
		if (ev == WALK_ENTER) {
			node_raw(g, node, vals[GEN_SCOPE_POINT]);
			memcpy(vals[GEN_SCOPE_FUNCTION], vals[GEN_SCOPE_POINT], sizeof(double) * TM);
			memcpy(vals[GEN_SCOPE_EXECUTION], vals[GEN_SCOPE_POINT], sizeof(double) * TM);
			continue;
		}
		if (node == GEN_ROOT)
			break;
		const struct node *n = &g->nodes[node];
		compute_stats(g, vals, stats);
		if (g->opt.short_summary)
			short_summary(g, stats);
		if (pass == 1) {
			count_context(g, vals, stats);
			if (cct != NULL) {
				cct_empty_until(cct, n->ctx_id);
				cct_block(g, cct, vals, ci);
				bw_put(&cct->ci, ci, sizeof ci);
				cct->next_id++;
			}
			if (g->answers != NULL) {
				g->hot[node] = stats[GEN_STAT_EXECUTION_SUM];
				if (n->kind == GEN_KIND_FUNCTION)
					g->func_excl[n->func] += stats[GEN_STAT_FUNCTION_SUM];
				answer_context(g, node, stats);
			}
		} else {
			prof_context(g, prof, n->ctx_id, vals, stats);
		}
		/* propagate into the parent's level */
		double *pe = g->slot[GEN_SCOPE_EXECUTION] + (size_t)(level - 1) * TM;
		double *pf = g->slot[GEN_SCOPE_FUNCTION] + (size_t)(level - 1) * TM;
		for (uint32_t k = 0; k < TM; k++)
			pe[k] += vals[GEN_SCOPE_EXECUTION][k];
		if (n->kind != GEN_KIND_ENTRY && n->relation == GEN_RELATION_LEXICAL)
			for (uint32_t k = 0; k < TM; k++)
				pf[k] += vals[GEN_SCOPE_FUNCTION][k];
	}
	free(stats);
	free(w.stack);
	return 0;
}

/* The global context: execution values only (entry points carry no
 * propagation bits, and nothing is measured at the global context). */
static void global_values(struct gen *g, double *vals[GEN_N_SCOPES], double *zeros)
{
	vals[GEN_SCOPE_POINT] = zeros;
	vals[GEN_SCOPE_FUNCTION] = zeros;
	vals[GEN_SCOPE_EXECUTION] = g->global_exec;
}

int write_cct_and_count(struct gen *g)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M;
	struct cct_writer c = { .fd = -1, .next_id = 1 };
	char *path = NULL;
	double *zeros = calloc(TM, sizeof(double));
	int rc = -1, e = 0;
	c.idx_metric = calloc((size_t)M * GEN_N_SCOPES, sizeof *c.idx_metric);
	c.idx_start = calloc((size_t)M * GEN_N_SCOPES, sizeof *c.idx_start);
	if (zeros == NULL || c.idx_metric == NULL || c.idx_start == NULL)
		goto out;
	uint64_t n_ci = (uint64_t)g->max_id + 1;
	uint64_t ci_base = 0x30, data_base = ci_base + 32 * n_ci;
	if (g->opt.cct) {
		c.fd = open_out(g, "cct.db", &path);
		if (c.fd < 0)
			goto out;
		bw_init(&c.ci, c.fd, ci_base + 32, 1 << 18);
		bw_init(&c.data, c.fd, data_base, 1 << 20);
	}
	if (g->answers != NULL)
		fputs("{\n\"contexts\": {", g->answers);
	g->answers_first = true;
	if (values_pass(g, 1, g->opt.cct ? &c : NULL, NULL) < 0)
		goto out;
	memcpy(g->global_exec, g->slot[GEN_SCOPE_EXECUTION], sizeof(double) * TM);
	double *vals[GEN_N_SCOPES];
	global_values(g, vals, zeros);
	compute_stats(g, vals, g->global_stats);
	count_context(g, vals, g->global_stats);
	if (g->opt.cct) {
		unsigned char ci[32];
		cct_empty_until(&c, g->max_id + 1);
		cct_block(g, &c, vals, ci);
		uint64_t end = bw_pos(&c.data);
		e = bw_finish(&c.ci);
		int e2 = bw_finish(&c.data);
		if (e == 0)
			e = e2;
		unsigned char header[0x40] = { 0 };
		uint64_t sec[2] = { 16 + 32 * n_ci, 0x20 };
		file_header(header, "ctxt", sec, 1);
		le_encode(header + 0x20, ci_base, 8);
		le_encode(header + 0x28, n_ci, 4);
		header[0x2c] = 32;
		if (e == 0)
			e = write_at(c.fd, 0, header, 0x30);
		if (e == 0)
			e = write_at(c.fd, ci_base, ci, sizeof ci);
		if (e == 0)
			e = write_footer(c.fd, end, "__ctx.db");
		if (write_failed(path, e))
			goto out;
	}
	rc = 0;
out:
	if (c.ci.data != NULL)
		bw_finish(&c.ci);
	if (c.data.data != NULL)
		bw_finish(&c.data);
	if (c.fd >= 0 && close(c.fd) != 0)
		rc = -1;
	free(path);
	free(zeros);
	free(c.idx_metric);
	free(c.idx_start);
	return rc;
}

int write_profile(struct gen *g)
{
	uint32_t T = g->n_threads, M = g->n_metrics, TM = T * M, P = T + 1;
	struct prof_writer p = { 0 };
	char *path = NULL;
	int fd = -1, rc = -1, e = 0;
	uint64_t *p_vals = calloc(P, sizeof(uint64_t)), *p_idx = calloc(P, sizeof(uint64_t));
	double *zeros = calloc(TM, sizeof(double));
	p.vals = calloc(P, sizeof *p.vals);
	p.idx = calloc(P, sizeof *p.idx);
	p.written = calloc(P, sizeof *p.written);
	struct buf head = { 0 };
	if (p_vals == NULL || p_idx == NULL || zeros == NULL || p.vals == NULL || p.idx == NULL || p.written == NULL)
		goto out;
	fd = open_out(g, "profile.db", &path);
	if (fd < 0)
		goto out;

	/* Layout: header, Profile Info section, Id Tuple section, value blocks. */
	uint64_t pi_base = 0x30, pi_size = 16 + 48ULL * P;
	uint64_t tu_base = align_up(pi_base + pi_size, 8), tu_size = (8 + 16 * 3) * (uint64_t)T;
	uint64_t cursor = align_up(tu_base + tu_size, 8);
	for (uint32_t k = 0; k < P; k++) {
		cursor = align_up(cursor, 8);
		p_vals[k] = cursor;
		p_idx[k] = align_up(cursor + 10 * g->prof_nvals[k], 4);
		cursor = p_idx[k] + 12 * g->prof_nctxs[k];
	}
	uint64_t end = cursor;
	uint64_t sec[4] = { pi_size, pi_base, tu_size, tu_base };
	buf_zero(&head, 0x30);
	if (head.failed)
		goto out;
	file_header(head.data, "prof", sec, 2);
	buf_uint(&head, pi_base + 16, 8);
	buf_uint(&head, P, 4);
	buf_uint(&head, 48, 1);
	buf_zero(&head, 3);
	for (uint32_t k = 0; k < P; k++) {
		buf_uint(&head, g->prof_nvals[k], 8);
		buf_uint(&head, p_vals[k], 8);
		buf_uint(&head, g->prof_nctxs[k], 4);
		buf_zero(&head, 4);
		buf_uint(&head, p_idx[k], 8);
		buf_uint(&head, k == 0 ? 0 : tu_base + (8 + 16 * 3) * (uint64_t)(k - 1), 8);
		buf_uint(&head, k == 0 ? 1 : 0, 4);
		buf_zero(&head, 4);
	}
	buf_align(&head, 8);
	for (uint32_t t = 0; t < T; t++) {
		uint32_t rank = t / g->opt.threads, thread = t % g->opt.threads;
		buf_uint(&head, 3, 2);
		buf_zero(&head, 6);
		buf_uint(&head, GEN_ID_NODE, 1);
		buf_zero(&head, 1);
		buf_uint(&head, 1, 2); /* isPhysical */
		buf_uint(&head, rank / 2, 4);
		buf_uint(&head, 0x11ac0000ULL + rank / 2, 8);
		buf_uint(&head, GEN_ID_RANK, 1);
		buf_zero(&head, 3);
		buf_uint(&head, rank, 4);
		buf_uint(&head, rank, 8);
		buf_uint(&head, GEN_ID_THREAD, 1);
		buf_zero(&head, 3);
		buf_uint(&head, thread, 4);
		buf_uint(&head, thread, 8);
	}
	if (head.failed)
		goto out;
	e = write_at(fd, 0, head.data, head.len);

	size_t cap = P > 64 ? 1 << 13 : 1 << 16;
	for (uint32_t k = 0; k < P; k++) {
		bw_init(&p.vals[k], fd, p_vals[k], cap);
		bw_init(&p.idx[k], fd, p_idx[k], cap / 2);
	}
	/* the global context (id 0) sorts first in every profile */
	double *vals[GEN_N_SCOPES];
	global_values(g, vals, zeros);
	prof_context(g, &p, 0, vals, g->global_stats);
	if (values_pass(g, 2, NULL, &p) < 0)
		goto out;
	for (uint32_t k = 0; k < P; k++) {
		if (p.written[k] != g->prof_nvals[k] || bw_pos(&p.idx[k]) != p_idx[k] + 12 * g->prof_nctxs[k])
			fprintf(stderr, "gen-v4db: internal error: profile %u size mismatch\n", k);
		int e1 = bw_finish(&p.vals[k]), e2 = bw_finish(&p.idx[k]);
		if (e == 0)
			e = e1 ? e1 : e2;
	}
	if (e == 0)
		e = write_footer(fd, end, "_prof.db");
	if (write_failed(path, e))
		goto out;
	rc = 0;
out:
	for (uint32_t k = 0; p.vals != NULL && k < P; k++) {
		if (p.vals[k].data != NULL)
			bw_finish(&p.vals[k]);
		if (p.idx[k].data != NULL)
			bw_finish(&p.idx[k]);
	}
	rc = close_out(fd, NULL, rc);
	free(path);
	free(head.data);
	free(p_vals);
	free(p_idx);
	free(zeros);
	free(p.vals);
	free(p.idx);
	free(p.written);
	return rc;
}
