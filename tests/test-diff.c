/* test-diff: the merged tree of two runs (compare/diff.h).  The name
 * normalisation on degenerate and typical names; then random tree pairs
 * -- shared and private subtrees, renamed nodes, moved nodes, numbering
 * and module directories that differ between "builds" -- diffed by the
 * program and by a plain re-implementation here (each node's path of
 * keys as a string, the keys known from how the names were generated,
 * values summed per path in a table), compared node by node: every
 * new/gone/both mark, every base and new value, every delta; a run
 * diffed with itself gives status both and zero deltas everywhere; the
 * merged model (diff_model) shows the same values through its
 * columns. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "compare/diff.h"
#include "compare/diff_key.h"
#include "compare/diff_model.h"
#include "view_fixture.h"

static void check_name(const char *in, const char *want)
{
	char *got = diff_key_name(in);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_key_names(void **state)
{
	(void)state;
	check_name(NULL, "");
	check_name("", "");
	check_name("0x", "0x");
	check_name("#", "#");
	check_name(".", ".");
	check_name("main", "main");
	check_name("solver.cpp", "solver.cpp");
	check_name("v1.2", "v1.2");
	check_name("<unknown function> 0x4005D0", "<unknown function> 0x?");
	check_name("f@0x1f0", "f@0x?");
	check_name("a0x12", "a0x12"); /* inside a word: not an address */
	check_name("{lambda()#3}", "{lambda()#N}");
	check_name("Foo::{lambda(int)#12}::operator()",
		   "Foo::{lambda(int)#N}::operator()");
	check_name("main._omp_fn.7", "main._omp_fn.N");
	check_name("f.constprop.0.isra.12", "f.constprop.N.isra.N");
	check_name("g.part.3 (inlined)", "g.part.N (inlined)");
	check_name("$_42::operator()", "$_N::operator()");
	check_name("'lambda12'(int)", "'lambdaN'(int)");
	char *e = diff_key_entry("pid 1289127");
	assert_string_equal(e, "pid N");
	free(e);
	e = diff_key_entry("thread 1230493 (main) MPI Rank 0");
	assert_string_equal(e, "thread N (main) MPI Rank 0");
	free(e);
	e = diff_key_entry("spid 12");
	assert_string_equal(e, "spid 12");
	free(e);
	e = diff_key_entry("");
	assert_string_equal(e, "");
	free(e);
	assert_string_equal(diff_key_base("/opt/a/lib/libm.so"), "libm.so");
	assert_string_equal(diff_key_base("libm.so"), "libm.so");
	assert_string_equal(diff_key_base(NULL), "");
	assert_string_equal(diff_key_base("/"), "");
}

/* ---- random trees ------------------------------------------------------ */

/* Name templates: %d is numbering the normalisation drops; `key` is the
 * normalised name the test expects, `mod` the module's last component. */
static const struct {
	const char *pre, *suf; /* the name: pre, a number (when num), suf */
	int num;	       /* 0 none, 10 decimal, 16 hexadecimal */
	const char *key, *mod;
} tmpl[] = {
    {"main", "", 0, "main", "app"},
    {"solve", "", 0, "solve", "app"},
    {"{lambda()#", "}", 10, "{lambda()#N}", "app"},
    {"kernel._omp_fn.", "", 10, "kernel._omp_fn.N", "app"},
    {"spmv.constprop.", "", 10, "spmv.constprop.N", "libla.so"},
    {"MPI_Wait", "", 0, "MPI_Wait", "libmpi.so"},
    {"MPI_Send", "", 0, "MPI_Send", "libmpi.so"},
    {"<unknown> 0x", "", 16, "<unknown> 0x?", "libc.so"},
    {"exchange", "", 0, "exchange", "app"},
};
#define N_TMPL (sizeof(tmpl) / sizeof(tmpl[0]))

struct tnode {
	uint32_t parent;
	unsigned t;  /* template */
	double v[2]; /* inclusive, exclusive */
	bool has[2];
};

struct tree {
	struct tnode *n;
	uint32_t len, cap;
};

static uint32_t tree_add(struct tree *t, uint32_t parent, unsigned tm)
{
	if (t->len == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->n = realloc(t->n, t->cap * sizeof(*t->n));
		assert_non_null(t->n);
	}
	t->n[t->len] = (struct tnode){parent, tm, {0, 0}, {false, false}};
	return t->len++;
}

static void tree_values(struct tree *t, uint64_t *s)
{
	for (uint32_t i = 1; i < t->len; i++)
		for (int k = 0; k < 2; k++) {
			t->n[i].has[k] = fx_below(s, 10) != 0;
			t->n[i].v[k] = (double)(fx_below(s, 1000) + 1) / 8;
		}
}

/* A model of `t` (node i is model node i, context id i); names numbered
 * and modules placed in a directory by `build`. */
static struct model *tree_model(const struct tree *t, unsigned build,
				uint64_t *s)
{
	struct model_builder *b = model_builder_new("test", "test");
	struct fx_values *fv = fx_values_new(t->len);
	fx_add_columns(b);
	for (uint32_t i = 1; i < t->len; i++) {
		char name[64], mod[64];
		unsigned num = fx_below(s, 50) + build * 100, tm = t->n[i].t;
		if (tmpl[tm].num == 10)
			snprintf(name, sizeof(name), "%s%u%s", tmpl[tm].pre,
				 num, tmpl[tm].suf);
		else if (tmpl[tm].num == 16)
			snprintf(name, sizeof(name), "%s%x%s", tmpl[tm].pre,
				 num, tmpl[tm].suf);
		else
			snprintf(name, sizeof(name), "%s", tmpl[tm].pre);
		snprintf(mod, sizeof(mod), "/build%u/lib/%s", build,
			 tmpl[t->n[i].t].mod);
		struct model_node nd = {
		    .kind = NODE_FUNCTION,
		    .relation = RELATION_CALL,
		    .ctx_id = i,
		    .function = MODEL_NONE,
		    .name = model_builder_intern(b, name, strlen(name)),
		    .module = model_builder_intern(b, mod, strlen(mod)),
		};
		assert_int_equal(model_builder_add_node(b, t->n[i].parent, &nd),
				 i);
		for (int k = 0; k < 2; k++)
			if (t->n[i].has[k])
				fx_set(fv, i, (uint32_t)k, t->n[i].v[k]);
	}
	fx_set(fv, 0, 0, 1000); /* the base total */
	model_builder_set_values(b, &fx_value_ops, fv);
	struct error err = {0};
	return fx_need(model_builder_finish(b, &err));
}

/* The path of keys of node i of `t`. */
static char *tree_path(const struct tree *t, uint32_t i)
{
	if (i == 0)
		return strdup("");
	char *up = tree_path(t, t->n[i].parent), *s = NULL;
	assert_true(asprintf(&s, "%s/%s@%s", up, tmpl[t->n[i].t].key,
			     tmpl[t->n[i].t].mod) > 0);
	free(up);
	return s;
}

/* The plain re-implementation: one entry per path. */
struct ref {
	char *path;
	double v[2][2]; /* [run][scope] */
	bool has[2][2];
	bool in[2];
};

struct refs {
	struct ref *r;
	size_t n;
};

static struct ref *ref_of(struct refs *rs, const char *path, bool add)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].path, path) == 0)
			return &rs->r[i];
	if (!add)
		return NULL;
	rs->r = realloc(rs->r, (rs->n + 1) * sizeof(*rs->r));
	assert_non_null(rs->r);
	memset(&rs->r[rs->n], 0, sizeof(rs->r[0]));
	rs->r[rs->n].path = strdup(path);
	return &rs->r[rs->n++];
}

static void ref_add(struct refs *rs, const struct tree *t, int run)
{
	for (uint32_t i = 1; i < t->len; i++) {
		char *p = tree_path(t, i);
		struct ref *r = ref_of(rs, p, true);
		free(p);
		r->in[run] = true;
		for (int k = 0; k < 2; k++)
			if (t->n[i].has[k]) {
				r->v[run][k] += t->n[i].v[k];
				r->has[run][k] = true;
			}
	}
}

/* The merged node's path, from the runs' trees by its representatives. */
static char *merged_path(const struct diff *d, const struct tree *t[2],
			 uint32_t i)
{
	if (i == 0)
		return strdup("");
	const struct diff_node *n = &d->nodes[i];
	int run = n->rep[0] != MODEL_NONE ? 0 : 1;
	const struct tnode *tn = &t[run]->n[n->rep[run]];
	char *up = merged_path(d, t, n->parent), *s = NULL;
	assert_true(
	    asprintf(&s, "%s/%s@%s", up, tmpl[tn->t].key, tmpl[tn->t].mod) > 0);
	free(up);
	return s;
}

static void compare_pair(const struct tree *ta, const struct tree *tb,
			 uint64_t *s)
{
	struct model *a = tree_model(ta, 1, s), *b = tree_model(tb, 2, s);
	struct diff_metric dm;
	char *why = NULL;
	assert_true(diff_pair_metric(a, "0", b, "0", &dm, &why));
	assert_int_equal(dm.col[0][DIFF_EXCLUSIVE], 1);
	struct diff_options opt = {DIFF_MATCH_PATH, true};
	struct diff *d = NULL;
	struct error err = {0};
	assert_int_equal(diff_build(a, b, &dm, 1, &opt, &d, &err), STATUS_OK);

	struct refs rs = {NULL, 0};
	ref_add(&rs, ta, 0);
	ref_add(&rs, tb, 1);
	const struct tree *t[2] = {ta, tb};
	assert_int_equal(d->n_nodes - 1, rs.n);
	for (uint32_t i = 1; i < d->n_nodes; i++) {
		char *p = merged_path(d, t, i);
		struct ref *r = ref_of(&rs, p, false);
		assert_non_null(r);
		free(p);
		uint8_t want = r->in[0] && r->in[1] ? DIFF_BOTH
			       : r->in[0]	    ? DIFF_GONE
						    : DIFF_NEW;
		assert_int_equal(d->nodes[i].status, want);
		for (int k = 0; k < 2; k++) {
			double x[2] = {0, 0};
			for (int run = 0; run < 2; run++) {
				bool h =
				    diff_value(d, i, 0, (enum diff_scope)k,
					       (enum diff_run)run, &x[run]);
				assert_int_equal(h, r->has[run][k]);
				if (h)
					assert_true(
					    fabs(x[run] - r->v[run][k]) < 1e-9);
			}
			double delta;
			bool hd = diff_role_value(d, i, 0, (enum diff_scope)k,
						  DIFF_ROLE_DELTA, &delta);
			assert_int_equal(hd, r->has[0][k] || r->has[1][k]);
			if (hd)
				assert_true(fabs(delta - (r->v[1][k] -
							  r->v[0][k])) < 1e-9);
			double ratio;
			if (diff_role_value(d, i, 0, (enum diff_scope)k,
					    DIFF_ROLE_RATIO, &ratio))
				assert_true(r->has[0][k] && r->has[1][k]);
		}
		r->in[0] = r->in[1] = false; /* each path once */
		r->in[0] = want != DIFF_NEW;
	}
	/* the merged model shows the same values */
	uint32_t dcol =
	    diff_model_column(d, 0, DIFF_INCLUSIVE, DIFF_ROLE_DELTA);
	uint32_t n_nodes = d->n_nodes;
	double *deltas = calloc(n_nodes, sizeof(double));
	uint8_t *has = calloc(n_nodes, 1);
	for (uint32_t i = 0; i < n_nodes; i++)
		has[i] = diff_role_value(d, i, 0, DIFF_INCLUSIVE,
					 DIFF_ROLE_DELTA, &deltas[i]);
	uint8_t *status = malloc(n_nodes);
	for (uint32_t i = 0; i < n_nodes; i++)
		status[i] = d->nodes[i].status;
	bool mark = n_nodes % 2 == 0; /* marked names in half the rounds */
	struct model *mm = fx_need(diff_model_new(d, "a -> b", mark, &err));
	/* the viewer's marker: "[+] " for new, "[-] " for gone */
	for (uint32_t i = 1; i < n_nodes; i++) {
		const char *name = model_str(mm, mm->nodes[i].name);
		bool plus = strncmp(name, DIFF_MARK_NEW, 4) == 0;
		bool minus = strncmp(name, DIFF_MARK_GONE, 4) == 0;
		assert_int_equal(plus, mark && status[i] == DIFF_NEW);
		assert_int_equal(minus, mark && status[i] == DIFF_GONE);
	}
	free(status);
	assert_int_equal(mm->n_nodes, n_nodes);
	for (uint32_t i = 0; i < n_nodes; i++) {
		double x;
		assert_int_equal(model_value(mm, i, dcol, &x), has[i]);
		if (has[i])
			assert_true(x == deltas[i]);
	}
	free(deltas);
	free(has);
	model_free(mm);
	for (size_t i = 0; i < rs.n; i++)
		free(rs.r[i].path);
	free(rs.r);
	model_free(a);
	model_free(b);
}

/* A random tree of n nodes. */
static void random_tree(struct tree *t, uint32_t n, uint64_t *s)
{
	tree_add(t, MODEL_NONE, 0);
	for (uint32_t i = 1; i < n; i++)
		tree_add(t, fx_below(s, i), fx_below(s, N_TMPL));
	tree_values(t, s);
}

/* The second run: `a` with subtrees dropped, nodes renamed and moved,
 * private subtrees added, new values. */
static void mutate(const struct tree *a, struct tree *b, uint64_t *s)
{
	uint32_t *map = malloc(a->len * sizeof(*map));
	tree_add(b, MODEL_NONE, 0);
	map[0] = 0;
	for (uint32_t i = 1; i < a->len; i++) {
		uint32_t p = map[a->n[i].parent];
		unsigned r = fx_below(s, 20);
		if (p == MODEL_NONE || r == 0) { /* gone with its subtree */
			map[i] = MODEL_NONE;
			continue;
		}
		unsigned tm = a->n[i].t;
		if (r == 1) /* renamed */
			tm = (tm + 1 + fx_below(s, N_TMPL - 1)) % N_TMPL;
		if (r == 2) /* moved under another node */
			p = fx_below(s, b->len);
		map[i] = tree_add(b, p, tm);
		if (fx_below(s, 15) == 0) /* a private subtree */
			for (uint32_t k = fx_below(s, 4) + 1, q = map[i]; k > 0;
			     k--)
				q = tree_add(b, q, fx_below(s, N_TMPL));
	}
	free(map);
	tree_values(b, s);
}

static void test_random_pairs(void **state)
{
	(void)state;
	uint64_t s = 0x5eed;
	for (int round = 0; round < 40; round++) {
		struct tree a = {0}, b = {0};
		random_tree(&a, 2 + fx_below(&s, round < 10 ? 8 : 300), &s);
		mutate(&a, &b, &s);
		compare_pair(&a, &b, &s);
		compare_pair(&b, &a, &s);
		free(a.n);
		free(b.n);
	}
}

static void test_self(void **state)
{
	(void)state;
	uint64_t s = 7;
	struct tree a = {0};
	random_tree(&a, 500, &s);
	struct model *m = tree_model(&a, 1, &s);
	struct diff_metric dm;
	char *why = NULL;
	assert_true(diff_pair_default(m, m, &dm, &why));
	struct diff_options opt = {DIFF_MATCH_PATH, true};
	struct diff *d = NULL;
	struct error err = {0};
	assert_int_equal(diff_build(m, m, &dm, 1, &opt, &d, &err), STATUS_OK);
	for (uint32_t i = 0; i < d->n_nodes; i++) {
		assert_int_equal(d->nodes[i].status, DIFF_BOTH);
		for (int k = 0; k < 2; k++) {
			double x;
			if (diff_role_value(d, i, 0, (enum diff_scope)k,
					    DIFF_ROLE_DELTA, &x))
				assert_true(x == 0);
		}
	}
	/* function mode: every function of the run once, status both */
	diff_free(d);
	opt.match = DIFF_MATCH_FUNCTION;
	assert_int_equal(diff_build(m, m, &dm, 1, &opt, &d, &err), STATUS_OK);
	assert_true(d->n_nodes > 1);
	for (uint32_t i = 0; i < d->n_nodes; i++) {
		assert_int_equal(d->nodes[i].status, DIFF_BOTH);
		double x;
		if (diff_role_value(d, i, 0, DIFF_EXCLUSIVE, DIFF_ROLE_DELTA,
				    &x))
			assert_true(x == 0);
	}
	diff_free(d);
	model_free(m);
	free(a.n);
}

/* root -> [entry "main thread" ->] main -> solve, main's inclusive
 * value `v` and solve's v / 2, the entry's v (kind: function or region). */
static struct model *chain(bool entry, uint8_t kind, double v)
{
	struct model_builder *b = model_builder_new("test", "chain");
	struct fx_values *fv = fx_values_new(4);
	fx_add_columns(b);
	uint32_t parent = 0, ctx = 1;
	static const char *const names[] = {"main thread", "main", "solve"};
	for (int i = entry ? 0 : 1; i < 3; i++) {
		struct model_node nd = {
		    .kind = i == 0 ? NODE_ENTRY : kind,
		    .ctx_id = ctx,
		    .function = MODEL_NONE,
		    .name = model_builder_intern(b, names[i], strlen(names[i])),
		};
		parent = model_builder_add_node(b, parent, &nd);
		fx_set(fv, ctx++, 0, i == 2 ? v / 2 : v);
	}
	fx_set(fv, 0, 0, v);
	model_builder_set_values(b, &fx_value_ops, fv);
	struct error err = {0};
	return fx_need(model_builder_finish(b, &err));
}

/* An HPCToolkit-like run (entry points) against a Cube-like one
 * (regions, no entries): the entries are left out of the paths and their
 * values not counted, main and solve match. */
static void test_entries_transparent(void **state)
{
	(void)state;
	struct model *a = chain(true, NODE_FUNCTION, 8);
	struct model *b = chain(false, NODE_REGION, 12);
	struct diff_metric dm;
	char *why = NULL;
	assert_true(diff_pair_metric(a, "0", b, "0", &dm, &why));
	struct diff_options opt = {DIFF_MATCH_PATH, true};
	struct diff *d = NULL;
	struct error err = {0};
	assert_int_equal(diff_build(a, b, &dm, 1, &opt, &d, &err), STATUS_OK);
	assert_int_equal(d->n_nodes, 3); /* root, main, solve */
	static const double want[3][2] = {{8, 12}, {8, 12}, {4, 6}};
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(d->nodes[i].status, DIFF_BOTH);
		for (int r = 0; r < 2; r++) {
			double x;
			assert_true(diff_value(d, i, 0, DIFF_INCLUSIVE,
					       (enum diff_run)r, &x));
			assert_true(x == want[i][r]);
		}
	}
	diff_free(d);
	/* both with entries: the entry is a node of the path */
	struct model *c = chain(true, NODE_FUNCTION, 2);
	assert_int_equal(diff_build(a, c, &dm, 1, &opt, &d, &err), STATUS_OK);
	assert_int_equal(d->n_nodes, 4);
	diff_free(d);
	model_free(a);
	model_free(b);
	model_free(c);
}

/* root -> main with value `v` of one inclusive column `name` of unit
 * `unit`. */
static struct model *one_metric(const char *name, uint8_t unit, double v)
{
	struct model_builder *b = model_builder_new("test", "unit");
	struct fx_values *fv = fx_values_new(2);
	struct model_stat st = {
	    .metric = model_builder_intern(b, name, strlen(name)),
	    .scope = model_builder_intern(b, "execution", 9),
	    .formula = model_builder_intern(b, "$$", 2),
	    .combine = COMBINE_SUM,
	    .stat_id = 0,
	    .prop_id = MODEL_NONE,
	};
	model_builder_add_stat(b, &st);
	struct model_column col = {
	    .name = strdup(name),
	    .variant = strdup(""),
	    .format = strdup("%g"),
	    .kind = COLUMN_INCLUSIVE,
	    .render = RENDER_NUMBER,
	    .unit = unit,
	    .visible = true,
	    .pair = MODEL_NONE,
	    .parent = MODEL_NONE,
	    .expr = formula_leaf(0),
	};
	model_builder_add_column(b, &col);
	struct model_node nd = {.kind = NODE_FUNCTION,
				.ctx_id = 1,
				.function = MODEL_NONE,
				.name = model_builder_intern(b, "main", 4)};
	model_builder_add_node(b, 0, &nd);
	fx_set(fv, 0, 0, v);
	fx_set(fv, 1, 0, v);
	model_builder_set_values(b, &fx_value_ops, fv);
	struct error err = {0};
	return fx_need(model_builder_finish(b, &err));
}

/* Times in other units are converted to the base's; a time and a byte
 * count do not pair, and say why. */
static void test_unit_pairs(void **state)
{
	(void)state;
	struct model *s = one_metric("CPUTIME (sec)", UNIT_UNKNOWN, 2);
	struct model *ns = one_metric("time", UNIT_NANOSECONDS, 3e9);
	struct model *by = one_metric("Bytes", UNIT_BYTES, 5);
	struct diff_metric dm;
	char *why = NULL;
	assert_true(
	    diff_pair_metric(s, "CPUTIME (sec)", ns, "time", &dm, &why));
	assert_true(fabs(dm.scale_new - 1e-9) < 1e-21);
	struct diff_options opt = {DIFF_MATCH_PATH, true};
	struct diff *d = NULL;
	struct error err = {0};
	assert_int_equal(diff_build(s, ns, &dm, 1, &opt, &d, &err), STATUS_OK);
	double x;
	assert_true(
	    diff_role_value(d, 1, 0, DIFF_INCLUSIVE, DIFF_ROLE_NEW, &x));
	assert_true(fabs(x - 3) < 1e-12);
	assert_true(
	    diff_role_value(d, 1, 0, DIFF_INCLUSIVE, DIFF_ROLE_DELTA, &x));
	assert_true(fabs(x - 1) < 1e-12);
	assert_true(
	    diff_role_value(d, 1, 0, DIFF_INCLUSIVE, DIFF_ROLE_PERCENT, &x));
	assert_true(fabs(x - 50) < 1e-9); /* of the base total, 2 s */
	assert_true(
	    diff_role_value(d, 1, 0, DIFF_INCLUSIVE, DIFF_ROLE_RATIO, &x));
	assert_true(fabs(x - 1.5) < 1e-12);
	diff_free(d);
	assert_false(
	    diff_pair_metric(s, "CPUTIME (sec)", by, "Bytes", &dm, &why));
	assert_non_null(strstr(why, "is a time"));
	assert_non_null(strstr(why, "is a byte count"));
	free(why);
	model_free(s);
	model_free(ns);
	model_free(by);
}

static void test_units(void **state)
{
	(void)state;
	uint64_t s = 3;
	struct tree a = {0};
	random_tree(&a, 5, &s);
	struct model *m = tree_model(&a, 1, &s);
	struct diff_metric dm;
	char *why = NULL;
	assert_false(diff_pair_metric(m, "NOPE", m, "0", &dm, &why));
	assert_non_null(strstr(why, "base run has no metric 'NOPE'"));
	free(why);
	assert_false(diff_pair_metric(m, "0", m, "NOPE", &dm, &why));
	assert_non_null(strstr(why, "new run has no metric"));
	free(why);
	model_free(m);
	free(a.n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_key_names),
	    cmocka_unit_test(test_units),
	    cmocka_unit_test(test_self),
	    cmocka_unit_test(test_entries_transparent),
	    cmocka_unit_test(test_unit_pairs),
	    cmocka_unit_test(test_random_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
