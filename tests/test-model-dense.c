/* Tests of the bulk value path: model_stat_dense and model_column_dense
 * against the fixture's own value table and against per-node model_value /
 * model_value_standard, with the provider's summary_all (in order, in
 * reverse order, giving up part-way, failing) and without it; contexts
 * shared by several nodes and sparse context ids; then every HPCToolkit v4
 * database of the shared corpus (v4_profile_summary_all against the binary
 * searches of v4_profile_summary), and one whose summary context index was
 * unsorted on purpose.  Also: the bottom-up and flat views show the same
 * when the bulk read fails and they fall back to per-node lookups. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/formula.h"
#include "model/model.h"
#include "model/model_internal.h" /* white-box: the private part */
#include "formats/reader.h"
#include "views/view.h"
#include "view_fixture.h"
#include "v4_corpus.h"

extern const struct reader reader_hpctoolkit_v4;

static char *shared_dir;

/* ---- providers over the fixture's value table ------------------------ */

static const struct value_ops lookup_only_ops = {
	.summary = fx_summary,
	.close = fx_close,
};

static enum status reverse_all(void *impl, uint32_t stat,
			       void (*emit)(void *ctx, uint32_t ctx_id,
					    double value),
			       void *ctx, struct error *err)
{
	const struct fx_values *fv = impl;
	(void)err;
	for (uint32_t c = fv->n_ctx; stat < FX_STATS && c-- > 0;)
		if (fv->present[(size_t)c * FX_STATS + stat])
			emit(ctx, c, fv->value[(size_t)c * FX_STATS + stat]);
	return STATUS_OK;
}

static const struct value_ops reverse_ops = {
	.summary = fx_summary,
	.close = fx_close,
	.summary_all = reverse_all,
};

/* Emits wrong values for half the contexts, then gives up: the model must
 * forget them and ask summary() per node. */
static enum status unsupported_all(void *impl, uint32_t stat,
				   void (*emit)(void *ctx, uint32_t ctx_id,
						double value),
				   void *ctx, struct error *err)
{
	const struct fx_values *fv = impl;
	(void)stat;
	for (uint32_t c = 0; c < fv->n_ctx / 2; c++)
		emit(ctx, c, -1000.0);
	return error_set(err, STATUS_UNSUPPORTED, "fixture.db",
			 "cannot walk this one");
}

static const struct value_ops unsupported_ops = {
	.summary = fx_summary,
	.close = fx_close,
	.summary_all = unsupported_all,
};

static enum status failing_all(void *impl, uint32_t stat,
			       void (*emit)(void *ctx, uint32_t ctx_id,
					    double value),
			       void *ctx, struct error *err)
{
	(void)impl;
	(void)stat;
	emit(ctx, 0, 5.0);
	return error_set_at(err, STATUS_CORRUPT, "fixture.db", 0x40,
			    "broken on purpose");
}

static const struct value_ops failing_ops = {
	.summary = fx_summary,
	.close = fx_close,
	.summary_all = failing_all,
};

/* ---- helpers ---------------------------------------------------------- */

struct dense {
	double *value;
	uint8_t *present;
};

static struct dense dense_new(const struct model *m)
{
	struct dense d = {
		.value = malloc((size_t)m->n_nodes * sizeof(double) + 8),
		.present = malloc((size_t)m->n_nodes + 1),
	};
	assert_non_null(d.value);
	assert_non_null(d.present);
	/* garbage, so that "cleared" is checked */
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		d.value[i] = 777;
		d.present[i] = 9;
	}
	return d;
}

static void dense_free(struct dense *d)
{
	free(d->value);
	free(d->present);
}

/* Every node: dense stat == the fixture's table, read directly. */
static void check_stat_against_table(const struct model *m, uint32_t stat)
{
	struct dense d = dense_new(m);
	struct error err = {0};
	assert_int_equal(model_stat_dense(m, stat, d.value, d.present, &err),
			 STATUS_OK);
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		const double *want = fx_value_ptr(m, i, stat);
		assert_int_equal(d.present[i], want != NULL);
		assert_true(d.value[i] == (want ? *want : 0));
	}
	/* without presence flags: the same values */
	assert_int_equal(model_stat_dense(m, stat, d.value, NULL, &err),
			 STATUS_OK);
	for (uint32_t i = 0; i < m->n_nodes; i++) {
		const double *want = fx_value_ptr(m, i, stat);
		assert_true(d.value[i] == (want ? *want : 0));
	}
	dense_free(&d);
}

/* Every node and column: dense == model_value / model_value_standard. */
static size_t check_columns_per_node(const struct model *m)
{
	struct dense d = dense_new(m);
	struct error err = {0};
	size_t present = 0;
	for (uint32_t c = 0; c < m->n_columns; c++) {
		for (int standard = 0; standard < 2; standard++) {
			assert_int_equal(model_column_dense(m, c, standard,
							    d.value, d.present,
							    &err),
					 STATUS_OK);
			for (uint32_t i = 0; i < m->n_nodes; i++) {
				double want = 0;
				bool has = standard
						   ? model_value_standard(m, i, c,
									  &want)
						   : model_value(m, i, c, &want);
				assert_int_equal(d.present[i], has);
				assert_true(d.value[i] == (has ? want : 0));
				present += has;
			}
		}
	}
	dense_free(&d);
	return present;
}

/* ---- degenerate inputs ------------------------------------------------ */

static void test_degenerate(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("fixture", "empty.db");
	struct error err = {0};
	assert_non_null(b);
	struct model *m = fx_need(model_builder_finish(b, &err));
	struct dense d = dense_new(m);
	/* no statistics, no columns, no provider */
	assert_int_equal(model_stat_dense(m, 0, d.value, d.present, &err),
			 STATUS_USAGE);
	assert_true(d.value[0] == 0 && d.present[0] == 0);
	error_clear(&err);
	d.value[0] = 3;
	assert_int_equal(model_column_dense(m, 0, true, d.value, d.present,
					    &err),
			 STATUS_USAGE);
	assert_true(d.value[0] == 0 && d.present[0] == 0);
	error_clear(&err);
	/* NULL err is allowed */
	assert_int_equal(model_stat_dense(m, 5, d.value, NULL, NULL),
			 STATUS_USAGE);
	dense_free(&d);
	model_free(m);

	/* statistics and columns but no provider: everything absent */
	b = model_builder_new("fixture", "novalues.db");
	assert_non_null(b);
	fx_add_columns(b);
	struct model_node nd = {.ctx_id = 1, .function = MODEL_NONE,
				.kind = NODE_FUNCTION};
	assert_int_equal(model_builder_add_node(b, 0, &nd), 1);
	m = fx_need(model_builder_finish(b, &err));
	d = dense_new(m);
	for (uint32_t s = 0; s < FX_STATS; s++) {
		assert_int_equal(model_stat_dense(m, s, d.value, d.present,
						  &err),
				 STATUS_OK);
		for (uint32_t i = 0; i < m->n_nodes; i++)
			assert_true(d.value[i] == 0 && d.present[i] == 0);
	}
	assert_int_equal(check_columns_per_node(m), 0);
	dense_free(&d);
	model_free(m);
}

/* ---- random fixtures -------------------------------------------------- */

static void check_random(const struct value_ops *ops)
{
	static const uint32_t sizes[] = {1, 2, 5, 40, 700, 5000};
	size_t present = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct model *m = fx_need(fx_random_model(
				sizes[k], 1 + sizes[k] / 20, seed, false));
			if (ops)
				m->priv->value_ops = ops;
			for (uint32_t s = 0; s < FX_STATS; s++)
				check_stat_against_table(m, s);
			present += check_columns_per_node(m);
			model_free(m);
		}
	}
	/* the fixture leaves about one value in ten absent */
	assert_true(present > 10000);
}

static void test_random_summary_all(void **state)
{
	(void)state;
	assert_non_null(fx_value_ops.summary_all);
	check_random(NULL);
}

static void test_random_lookup_only(void **state)
{
	(void)state;
	check_random(&lookup_only_ops);
}

static void test_random_reverse_order(void **state)
{
	(void)state;
	check_random(&reverse_ops);
}

static void test_random_unsupported(void **state)
{
	(void)state;
	check_random(&unsupported_ops);
}

static void test_provider_error(void **state)
{
	(void)state;
	struct model *m = fx_need(fx_random_model(50, 4, 9, false));
	struct error err = {0};
	m->priv->value_ops = &failing_ops;
	struct dense d = dense_new(m);
	assert_int_equal(model_stat_dense(m, 0, d.value, d.present, &err),
			 STATUS_CORRUPT);
	assert_int_equal(err.status, STATUS_CORRUPT);
	assert_true(err.has_offset && err.offset == 0x40);
	for (uint32_t i = 0; i < m->n_nodes; i++)
		assert_true(d.value[i] == 0 && d.present[i] == 0);
	error_clear(&err);
	assert_int_equal(model_column_dense(m, 1, true, d.value, d.present,
					    &err),
			 STATUS_CORRUPT);
	error_clear(&err);
	dense_free(&d);
	model_free(m);
}

/* ---- the views' fallback --------------------------------------------- */

/* Rows of `a` and `b` to depth 3, in the order view_children gives, with
 * every column's value: equal. */
static void compare_views(struct view *a, struct view *b, uint32_t n_columns)
{
	uint32_t queue[4096];
	uint32_t depth[4096];
	size_t head = 0, tail = 0, rows = 0;
	queue[tail] = 0;
	depth[tail++] = 0;
	while (head < tail) {
		uint32_t row = queue[head], d = depth[head++];
		for (uint32_t c = 0; c < n_columns; c++) {
			double x = -1, y = -2;
			bool hx = view_value(a, row, c, &x);
			bool hy = view_value(b, row, c, &y);
			assert_int_equal(hx, hy);
			if (hx)
				assert_true(x == y);
		}
		rows++;
		if (d == 3)
			continue;
		uint32_t *ka = NULL, *kb = NULL;
		size_t na = 0, nb = 0;
		struct error err = {0};
		assert_int_equal(view_children(a, row, 0, false, &ka, &na, &err),
				 STATUS_OK);
		assert_int_equal(view_children(b, row, 0, false, &kb, &nb, &err),
				 STATUS_OK);
		assert_int_equal(na, nb);
		for (size_t i = 0; i < na; i++) {
			assert_int_equal(ka[i], kb[i]);
			if (tail < 4096) {
				queue[tail] = ka[i];
				depth[tail++] = d + 1;
			}
		}
		free(ka);
		free(kb);
	}
	assert_true(rows > 50);
}

/* A provider whose bulk read fails: the aggregated views fall back to
 * per-node lookups and show exactly what they show with it. */
static void test_views_fall_back(void **state)
{
	(void)state;
	static const enum view_kind kinds[] = {VIEW_BOTTOM_UP, VIEW_FLAT};
	for (size_t k = 0; k < 2; k++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct model *good =
				fx_need(fx_random_model(3000, 60, seed, false));
			struct model *bad =
				fx_need(fx_random_model(3000, 60, seed, false));
			bad->priv->value_ops = &failing_ops;
			struct view *a = NULL, *b = NULL;
			struct error err = {0};
			assert_int_equal(view_new(good, kinds[k], &a, &err),
					 STATUS_OK);
			assert_int_equal(view_new(bad, kinds[k], &b, &err),
					 STATUS_OK);
			compare_views(a, b, good->n_columns);
			view_free(a);
			view_free(b);
			model_free(good);
			model_free(bad);
		}
	}
}

/* ---- hand-built: formulas, shared and sparse context ids --------------- */

static struct formula *node2(enum formula_op op, struct formula *a,
			     struct formula *b)
{
	struct formula **args = malloc(2 * sizeof(*args));
	assert_non_null(args);
	args[0] = a;
	args[1] = b;
	struct formula *f = formula_node(op, args, 2);
	assert_non_null(f);
	return f;
}

/* Nodes 1..n_nodes-1 with dense or sparse context ids (the model's table
 * or its sorted index); nodes i-1 and i share one when `shared` and
 * i % 7 == 4; one node has context id 0 (the root's).  The fixture's three
 * columns, then FC + 0 = $0 + $1, FC + 1 = $2 * 2 with standard $0 - $2,
 * FC + 2 = $1 + $9 (no statistic 9), FC + 3 = 7 (no leaf), FC + 4 = $9.
 */
#define FC 3
static struct model *formula_model(uint32_t n_nodes, bool sparse,
				   bool shared, struct fx_values **values)
{
	struct model_builder *b = model_builder_new("fixture", "formula.db");
	struct error err = {0};
	uint64_t s = 77;
	assert_non_null(b);
	fx_add_columns(b); /* 3 stats; its 3 columns are replaced below */
	struct formula *exprs[5] = {
		node2(FORMULA_ADD, formula_leaf(0), formula_leaf(1)),
		node2(FORMULA_MUL, formula_leaf(2), formula_number(2)),
		node2(FORMULA_ADD, formula_leaf(1), formula_leaf(9)),
		formula_number(7),
		formula_leaf(9),
	};
	for (uint32_t c = 0; c < 5; c++) {
		struct model_column col = {
			.name = strdup("F"),
			.variant = strdup("Sum"),
			.format = strdup("%g"),
			.kind = COLUMN_EXCLUSIVE,
			.pair = MODEL_NONE,
			.parent = MODEL_NONE,
			.expr = exprs[c],
			.expr_standard =
				c == 1 ? node2(FORMULA_SUB, formula_leaf(0),
					       formula_leaf(2))
				       : NULL,
		};
		assert_int_not_equal(model_builder_add_column(b, &col),
				     MODEL_NONE);
	}
	uint32_t max_ctx = 0;
	uint32_t *ctx = calloc(n_nodes, sizeof(*ctx));
	assert_non_null(ctx);
	for (uint32_t i = 1; i < n_nodes; i++) {
		ctx[i] = sparse ? i * 10 + 3 : i + 1;
		if (shared && i % 7 == 4)
			ctx[i] = ctx[i - 1];
		if (i == n_nodes / 2)
			ctx[i] = 0;
		if (ctx[i] > max_ctx)
			max_ctx = ctx[i];
		struct model_node nd = {
			.ctx_id = ctx[i],
			.function = MODEL_NONE,
			.kind = NODE_FUNCTION,
		};
		uint32_t parent = i > 1 ? fx_below(&s, i - 1) + 1 : 0;
		assert_int_equal(model_builder_add_node(b, parent, &nd), i);
	}
	struct fx_values *fv = fx_values_new(max_ctx + 1);
	for (uint32_t c = 0; c <= max_ctx; c++)
		for (uint32_t st = 0; st < FX_STATS; st++)
			if (fx_below(&s, 4) != 0)
				fx_set(fv, c, st,
				       (double)fx_below(&s, 1000) / 8);
	model_builder_set_values(b, &fx_value_ops, fv);
	free(ctx);
	struct model *m = fx_need(model_builder_finish(b, &err));
	*values = fv;
	return m;
}

static void test_formulas_and_context_ids(void **state)
{
	(void)state;
	for (int sparse = 0; sparse < 2; sparse++) {
		for (int shared = 0; shared < 2; shared++) {
			struct fx_values *fv = NULL;
			struct model *m =
				formula_model(3000, sparse, shared, &fv);
			assert_int_equal(m->priv->ctx_unique, false); /* ctx 0 */
			assert_true(sparse ? m->priv->ctx_sorted != NULL
					   : m->priv->ctx_index != NULL);
			for (uint32_t s = 0; s < FX_STATS; s++)
				check_stat_against_table(m, s);
			assert_true(check_columns_per_node(m) > 3000);
			/* $0 + $1, checked from the table */
			struct dense d = dense_new(m);
			struct error err = {0};
			assert_int_equal(model_column_dense(m, FC, true,
							    d.value, d.present,
							    &err),
					 STATUS_OK);
			for (uint32_t i = 0; i < m->n_nodes; i++) {
				const double *a = fx_value_ptr(m, i, 0);
				const double *b = fx_value_ptr(m, i, 1);
				assert_int_equal(d.present[i], a || b);
				assert_true(d.value[i] ==
					    (a ? *a : 0) + (b ? *b : 0));
			}
			/* custom $2 * 2 (its standard is $0 - $2) */
			assert_int_equal(model_column_dense(m, FC + 1, false,
							    d.value, d.present,
							    &err),
					 STATUS_OK);
			for (uint32_t i = 0; i < m->n_nodes; i++) {
				const double *c = fx_value_ptr(m, i, 2);
				assert_int_equal(d.present[i], c != NULL);
				assert_true(d.value[i] == (c ? *c * 2 : 0));
			}
			/* a bare constant is present everywhere (formula_eval);
			 * $9 (no such statistic) is absent everywhere */
			for (uint32_t c = FC + 3; c < FC + 5; c++) {
				assert_int_equal(model_column_dense(m, c, true,
								    d.value,
								    d.present,
								    &err),
						 STATUS_OK);
				bool constant = c == FC + 3;
				for (uint32_t i = 0; i < m->n_nodes; i++)
					assert_true(d.present[i] == constant &&
						    d.value[i] ==
							    (constant ? 7 : 0));
			}
			/* shared ids read the same value at both nodes */
			for (uint32_t i = 2; shared && i < m->n_nodes; i++) {
				if (m->nodes[i].ctx_id != m->nodes[i - 1].ctx_id)
					continue;
				assert_int_equal(model_stat_dense(m, 0, d.value,
								  d.present,
								  &err),
						 STATUS_OK);
				assert_int_equal(d.present[i],
						 d.present[i - 1]);
				assert_true(d.value[i] == d.value[i - 1]);
				break;
			}
			dense_free(&d);
			model_free(m);
		}
	}
	/* unique ids are noticed */
	struct model *m = fx_need(fx_random_model(100, 5, 3, false));
	assert_true(m->priv->ctx_unique);
	model_free(m);
}

/* ---- HPCToolkit v4 corpus --------------------------------------------- */

static void count_emit(void *ctx, uint32_t ctx_id, double value)
{
	(void)ctx_id;
	(void)value;
	(*(size_t *)ctx)++;
}

/* What the v4 provider's walk itself answers for the first statistic. */
static enum status v4_walk(const struct model *m, size_t *emitted)
{
	struct error err = {0};
	*emitted = 0;
	assert_true(m->n_stats > 0);
	enum status st = m->priv->value_ops->summary_all(
		m->priv->value_impl, m->stats[0].stat_id, count_emit, emitted, &err);
	error_clear(&err);
	return st;
}

/* Dense statistics and columns equal per-node lookups at every node. */
static size_t check_v4_model(const struct model *m)
{
	struct dense d = dense_new(m);
	struct error err = {0};
	size_t present = 0;
	for (uint32_t s = 0; s < m->n_stats; s++) {
		assert_int_equal(model_stat_dense(m, s, d.value, d.present,
						  &err),
				 STATUS_OK);
		for (uint32_t i = 0; i < m->n_nodes; i++) {
			double want = 0;
			bool has = model_stat_value(m, i, s, &want);
			assert_int_equal(d.present[i], has);
			assert_true(d.value[i] == (has ? want : 0));
			present += has;
		}
	}
	dense_free(&d);
	check_columns_per_node(m);
	return present;
}

static void test_v4_corpus(void **state)
{
	(void)state;
	char *root = NULL;
	size_t opened = 0, present = 0;
	assert_true(asprintf(&root, "%s/corpus/hpctoolkit-v4", shared_dir) >
		    0);
	size_t n_dbs = 0;
	char **dbs = v4_corpus_dbs(root, &n_dbs);
	assert_true(n_dbs > 0);
	for (size_t i = 0; i < n_dbs; i++) {
		struct model *m = NULL;
		struct error err = {0};
		/* databases the reader rejects are test-v4-corpus's business */
		if (reader_open_path(&reader_hpctoolkit_v4, dbs[i], &m, &err) != STATUS_OK) {
			error_clear(&err);
			continue;
		}
		size_t emitted;
		assert_non_null(m->priv->value_ops->summary_all);
		if (m->n_stats)
			assert_int_equal(v4_walk(m, &emitted), STATUS_OK);
		present += check_v4_model(m);
		opened++;
		model_free(m);
	}
	assert_true(opened >= 10);
	assert_true(present > 1000);
	v4_corpus_free(dbs, n_dbs);
	free(root);
}

static void *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	void *buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_all(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A copy of a corpus database whose summary context index has its first
 * two ctxIds swapped: the walk gives up (the {Idx} are not sorted) and the
 * model falls back to per-node lookups, which must still agree. */
static void test_v4_unsorted_index(void **state)
{
	(void)state;
	static const char *const dbname =
		"hpctoolkit-v4/hpctoolkit/tests/data/dbase/loops-cputime-t.d";
	char *src = NULL, *dir = NULL, *path = NULL;
	size_t len = 0;
	assert_true(asprintf(&src, "%s/corpus/%s", shared_dir, dbname) > 0);
	struct stat sb;
	if (stat(src, &sb) != 0) {
		/* the corpus layout changed: nothing to corrupt */
		free(src);
		skip();
	}
	char tmpl[] = "/tmp/test-model-dense-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	dir = tmpl;
	const char *const files[] = {"meta.db", "profile.db"};
	unsigned char *buf = NULL;
	for (size_t k = 0; k < 2; k++) {
		free(path);
		assert_true(asprintf(&path, "%s/%s", src, files[k]) > 0);
		free(buf);
		buf = read_all(path, &len);
		if (k == 1) {
			/* FORMATS.md profile.db: section table at 0x10,
			 * Profile Info first: {PI}[0] pCtxIndices at 0x18,
			 * nCtxs at 0x10; {Idx} 12 bytes, ctxId first */
			assert_true(len > 0x20);
			uint64_t p_info = le(buf + 0x18, 8);
			assert_true(p_info + 8 <= len);
			uint64_t p_pi = le(buf + p_info, 8);
			assert_true(p_pi + 0x20 <= len);
			uint32_t n_ctxs = (uint32_t)le(buf + p_pi + 0x10, 4);
			uint64_t p_idx = le(buf + p_pi + 0x18, 8);
			assert_true(n_ctxs >= 2 && p_idx + 24 <= len);
			unsigned char tmp[4];
			memcpy(tmp, buf + p_idx, 4);
			memcpy(buf + p_idx, buf + p_idx + 12, 4);
			memcpy(buf + p_idx + 12, tmp, 4);
		}
		free(path);
		assert_true(asprintf(&path, "%s/%s", dir, files[k]) > 0);
		write_all(path, buf, len);
	}
	free(buf);
	struct model *m = NULL;
	struct error err = {0};
	size_t emitted;
	assert_int_equal(reader_open_path(&reader_hpctoolkit_v4, dir, &m, &err), STATUS_OK);
	assert_int_equal(v4_walk(m, &emitted), STATUS_UNSUPPORTED);
	assert_true(check_v4_model(m) > 0);
	model_free(m);
	for (size_t k = 0; k < 2; k++) {
		free(path);
		assert_true(asprintf(&path, "%s/%s", dir, files[k]) > 0);
		unlink(path);
	}
	rmdir(dir);
	free(path);
	free(src);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	struct stat sb;
	bool have_shared;
	if (asprintf(&shared_dir, "%s/../shared", top ? top : "..") < 0)
		return 1;
	have_shared = stat(shared_dir, &sb) == 0;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_random_summary_all),
		cmocka_unit_test(test_random_lookup_only),
		cmocka_unit_test(test_random_reverse_order),
		cmocka_unit_test(test_random_unsupported),
		cmocka_unit_test(test_provider_error),
		cmocka_unit_test(test_views_fall_back),
		cmocka_unit_test(test_formulas_and_context_ids),
	};
	const struct CMUnitTest corpus_tests[] = {
		cmocka_unit_test(test_v4_corpus),
		cmocka_unit_test(test_v4_unsorted_index),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (have_shared)
		rc |= cmocka_run_group_tests(corpus_tests, NULL, NULL);
	else
		fprintf(stderr, "%s absent: corpus tests skipped\n",
			shared_dir);
	free(shared_dir);
	return rc;
}
