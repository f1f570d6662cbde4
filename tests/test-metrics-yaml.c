/* test-metrics-yaml: the METRICS.yaml reader (metrics_yaml.c) and the
 * choice between it and the default mapping (metrics.c).  Degenerate and
 * hostile files first, then small hand-written taxonomies whose columns are
 * checked field by field and evaluated on chosen statistic values, then
 * the corpus's files in test-metrics-yaml-corpus.c. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/hpctoolkit_v4/metrics.h"
#include "formats/hpctoolkit_v4/metrics_yaml.h"
#include "model/model.h"
#include "metrics_yaml_fixture.h"

/* ---- degenerate and hostile input ----------------------------------- */

static void test_degenerate(void **state)
{
	(void)state;
	assert_fails("", STATUS_CORRUPT, "empty file");
	assert_fails("# only a comment\n", STATUS_CORRUPT, "empty file");
	assert_fails("roots: [a, b\n", STATUS_CORRUPT, "not YAML");
	assert_fails("\x01\x02\x03", STATUS_CORRUPT, "not YAML");
	assert_fails("version: 1\n", STATUS_UNSUPPORTED,
		     "unsupported METRICS.yaml version 1");
	assert_fails("version: 0\n", STATUS_CORRUPT, "no 'roots' list");
	assert_fails("- a\n- b\n", STATUS_CORRUPT, "expected a mapping");
	assert_fails("just text\n", STATUS_CORRUPT, "expected a mapping");
	assert_fails("version: [0]\nroots: []\n", STATUS_CORRUPT,
		     "'version': expected a number");
}

static void test_wrong_types(void **state)
{
	(void)state;
	assert_fails("version: 0\nroots: {a: 1}\n", STATUS_CORRUPT,
		     "'roots': expected a sequence, found a mapping (line 2)");
	assert_fails("inputs: 3\nroots: []\n", STATUS_CORRUPT,
		     "'inputs': expected a sequence, found a scalar (line 1)");
	assert_fails("inputs: [5]\nroots: []\n", STATUS_CORRUPT,
		     "(line 1)");
	assert_fails("inputs:\n  - scope: execution\nroots: []\n",
		     STATUS_CORRUPT, "'metric': missing (line 2)");
	assert_fails("inputs:\n  - {metric: T, scope: execution, "
		     "combine: avg}\nroots: []\n",
		     STATUS_CORRUPT, "'combine': expected sum, min or max "
		     "(line 2)");
	assert_fails("roots:\n  - name: [x]\n", STATUS_CORRUPT,
		     "'name': expected a string, found a sequence (line 2)");
	assert_fails("roots:\n  - 42\n", STATUS_CORRUPT,
		     "'metric': expected a mapping, found a scalar (line 2)");
	assert_fails("roots:\n  - name: x\n    variants: [Sum]\n",
		     STATUS_CORRUPT, "'variants': expected a mapping, found a "
		     "sequence (line 3)");
	assert_fails("roots:\n  - name: x\n    variants:\n      Sum: 1\n",
		     STATUS_CORRUPT, "'Sum': expected a mapping");
	assert_fails("roots:\n  - name: x\n    variants:\n      Sum:\n"
		     "        formula: last\n", STATUS_CORRUPT,
		     "'formula': expected first, sum or a mapping (line 5)");
	assert_fails("roots:\n  - name: x\n    visible by default: maybe\n",
		     STATUS_CORRUPT, "expected true or false (line 3)");
	assert_fails("roots:\n  - name: x\n    children: {a: b}\n",
		     STATUS_CORRUPT, "'children': expected a sequence");
	assert_fails("roots:\n  - name: x\n    variants:\n      Sum:\n"
		     "        render: {a: b}\n", STATUS_CORRUPT,
		     "'render': expected a string");
}

static const char *const formula_head =
	"inputs:\n"
	"  - &t {metric: T, scope: execution}\n"
	"roots:\n"
	"  - name: x\n"
	"    variants:\n"
	"      Sum:\n"
	"        formula:\n";

/* A variant whose inclusive formula is `formula`. */
static char *with_formula(const char *formula)
{
	char *s = NULL;
	assert_true(asprintf(&s, "%s          inclusive: %s\n", formula_head,
			     formula) > 0);
	return s;
}

static void assert_formula_fails(const char *formula, enum status st,
				 const char *what)
{
	char *y = with_formula(formula);
	assert_fails(y, st, what);
	free(y);
}

static void test_bad_formulas(void **state)
{
	(void)state;
	assert_formula_fails("[*t, +]", STATUS_CORRUPT,
			     "expected an operand at the end (line 8)");
	assert_formula_fails("[*t, *t]", STATUS_CORRUPT,
			     "expected an operator between operands");
	assert_formula_fails("[]", STATUS_CORRUPT, "empty expression");
	assert_formula_fails("\"2 # 3\"", STATUS_CORRUPT,
			     "unexpected '# 3'");
	assert_formula_fails("{foo: [1]}", STATUS_CORRUPT,
			     "unknown function 'foo' (line 8)");
	assert_formula_fails("{sqrt: [1, 2]}", STATUS_CORRUPT,
			     "'sqrt' takes 1 to 1 arguments, found 2");
	assert_formula_fails("{pow: [1]}", STATUS_CORRUPT, "'pow' takes");
	/* the formulas' function table, words joined by ' ' in YAML */
	assert_formula_fails("{strict floor: [1, 2]}", STATUS_CORRUPT,
			     "'strict floor' takes 1 to 1 arguments, found 2");
	assert_formula_fails("{strict_floor: [1]}", STATUS_CORRUPT,
			     "unknown function 'strict_floor'");
	assert_formula_fails("{^: []}", STATUS_CORRUPT,
			     "'^' takes 1 to 999 arguments, found 0");
	assert_formula_fails("{a: 1, b: 2}", STATUS_CORRUPT,
			     "a mapping with one key");
	assert_formula_fails("[1e999, +, *t]", STATUS_CORRUPT, "bad number");
	/* an alias to an anchor that does not exist */
	assert_formula_fails("*nope", STATUS_CORRUPT, "not YAML");
	/* a format that is not one double conversion */
	const char *fmts[] = {"'%s'", "'%d'", "'%n'", "'%.2e %.2e'", "'%*e'",
			      "'%lle'", "'abc'", "'%1000e'", "'%.99e'", "'%'"};
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *y = NULL;
		assert_true(asprintf(&y, "roots:\n  - name: x\n    format: "
				     "%s\n", fmts[i]) > 0);
		assert_fails(y, STATUS_CORRUPT, "'format': expected one "
			     "printf conversion");
		free(y);
	}
}

/* Text of `head` followed by `n` copies of `body` with %d as the index. */
static char *lol(int n)
{
	/* a: [*t,+,*t]; b: [*a,+,*a]; ... : 2^n leaves */
	size_t cap = 4096 + (size_t)n * 64;
	char *s = malloc(cap);
	size_t len = (size_t)snprintf(s, cap, "inputs:\n  - &t {metric: T, "
				      "scope: execution}\nbomb:\n  - &l0 "
				      "[*t, +, *t]\n");
	for (int i = 1; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "  - &l%d [*l%d, +,"
					" *l%d]\n", i, i - 1, i - 1);
	snprintf(s + len, cap - len, "roots:\n  - name: x\n    variants:\n"
		 "      Sum:\n        formula:\n          inclusive: *l%d\n",
		 n - 1);
	return s;
}

static void test_alias_bombs(void **state)
{
	(void)state;
	/* 2^40 formula nodes if unfolded */
	char *s = lol(40);
	assert_fails(s, STATUS_LIMIT, "formulas too large");
	free(s);
	/* a modest one is fine: 2^6 leaves, value 64 * 100 */
	s = lol(6);
	struct model_builder *b = new_builder();
	add_stat(b, "T", "execution", "$$", COMBINE_SUM);
	struct error err = {0};
	uint32_t n = 0;
	assert_int_equal(load(b, s, &n, &err), STATUS_OK);
	assert_int_equal(n, 1);
	assert_true(eval(model_columns(model_builder_peek(b))[0].expr) == 6400);
	model_builder_free(b);
	free(s);
	/* a self-referencing formula: cyclic after loading */
	assert_fails("inputs:\n  - &t {metric: T, scope: execution}\n"
		     "roots:\n  - name: x\n    variants:\n      Sum:\n"
		     "        formula:\n          inclusive: &c [*t, +, *c]\n",
		     STATUS_LIMIT, "nested deeper than 256");
	/* a metric that is its own child */
	assert_fails("roots:\n  - &m\n    name: x\n    children: [*m]\n",
		     STATUS_LIMIT, "taxonomy deeper than 64");
	/* children fanning out through aliases: 10^6 metrics */
	char *fan = NULL;
	assert_true(asprintf(&fan, "bomb:\n - &a {name: a}\n"
			     " - &b {name: b, children: [*a,*a,*a,*a,*a,*a,"
			     "*a,*a,*a,*a]}\n"
			     " - &c {name: c, children: [*b,*b,*b,*b,*b,*b,"
			     "*b,*b,*b,*b]}\n"
			     " - &d {name: d, children: [*c,*c,*c,*c,*c,*c,"
			     "*c,*c,*c,*c]}\n"
			     " - &e {name: e, children: [*d,*d,*d,*d,*d,*d,"
			     "*d,*d,*d,*d]}\n"
			     " - &f {name: f, children: [*e,*e,*e,*e,*e,*e,"
			     "*e,*e,*e,*e]}\n"
			     " - &g {name: g, children: [*f,*f,*f,*f,*f,*f,"
			     "*f,*f,*f,*f]}\n"
			     "roots: [*g, *g, *g]\n") > 0);
	assert_fails(fan, STATUS_LIMIT, "more than 200000 metrics");
	free(fan);
	/* a merge key that merges itself */
	assert_fails("inputs:\n  - &t {metric: T, <<: *t}\nroots: []\n",
		     STATUS_CORRUPT, "'scope': missing (line 2)");
	assert_fails("inputs:\n  - &t {metric: T, scope: execution}\n"
		     "  - &u\n    metric: T\n    <<: [*u, *u]\n"
		     "roots: []\n", STATUS_CORRUPT, "'scope': missing (line 3)");
	/* deep YAML nesting */
	size_t depth = 100000;
	char *deep = malloc(depth * 2 + 64);
	size_t len = (size_t)sprintf(deep, "roots: ");
	for (size_t i = 0; i < depth; i++)
		deep[len++] = '[';
	for (size_t i = 0; i < depth; i++)
		deep[len++] = ']';
	deep[len] = '\0';
	struct model_builder *b2 = new_builder();
	err = (struct error){0};
	n = 0;
	assert_int_not_equal(load(b2, deep, &n, &err), STATUS_OK);
	assert_int_equal(model_n_columns(model_builder_peek(b2)), 0);
	error_clear(&err);
	model_builder_free(b2);
	free(deep);
}

/* ---- hand-written taxonomies ----------------------------------------- */

static const char *const small_yaml =
	"version: 0\n"
	"inputs:\n"
	"  - &t-I\n"                     /* stat 0: T execution = 100 */
	"    metric: T\n"
	"    scope: execution\n"
	"    formula: $$\n"
	"    combine: sum\n"
	"  - &t-E\n"                     /* stat 1: T function = 40 */
	"    <<: *t-I\n"
	"    scope: function\n"
	"  - &t-L {<<: *t-E, scope: lex_aware}\n" /* stat 2 = 60 */
	"  - &n-I {<<: *t-I, formula: 1}\n"      /* stat 3 = 4 */
	"  - &n-E {<<: *t-E, formula: '1'}\n"    /* stat 4 = 9 */
	"  - &sq-I {<<: *t-I, formula: $$ ^ 2}\n" /* stat 5 = 25 */
	"  - &m-I {metric: T, scope: execution, combine: max}\n" /* 6 = 2 */
	"roots:\n"
	"  - name: Time\n"
	"    description: >\n"
	"      All of the time.\n"
	"    format: '%6.1f %%'\n"
	"    variants:\n"
	"      Sum:\n"
	"        render: [number, percentage]\n"
	"        formula:\n"
	"          inclusive: *t-I\n"
	"          exclusive:\n"
	"            custom: *t-L\n"
	"            standard: *t-E\n"
	"      Mean:\n"
	"        render: number\n"
	"        format: '%.3g'\n"
	"        formula:\n"
	"          inclusive: [*t-I, /, *n-I]\n"
	"          exclusive: {/: [*t-E, *n-E]}\n"
	"    children:\n"
	"      - name: Fancy\n"
	"        short description: Formula shapes.\n"
	"        visible by default: false\n"
	"        variants:\n"
	"          \"\":\n"
	"            render: [colorbar, hidden]\n"
	"            formula:\n"
	"              inclusive: [4*, [*t-I, -, *n-I], +, {sqrt: [*sq-I]}, "
	"-, 2 ^ 3 ^ 0.5 ^ 2]\n"
	"              exclusive:\n"
	"                standard: {+: [{/: [*t-E, *n-E]}, {\"*\": [2, 3, "
	"*m-I]}, {max: [1, {min: [*n-I, 8]}]}]}\n"
	"      - name: Empty\n"
	"        variants:\n"
	"          Sum:\n"
	"            formula:\n"
	"              inclusive: [\"-\", *t-I, \"*2-1\"]\n"
	"              exclusive: {log: [*sq-I, 5]}\n"
	"  - name: Group\n"
	"    variants:\n"
	"      Sum:\n"
	"        render: [number, percent, colorbar]\n"
	"        formula: sum\n"
	"    children:\n"
	"      - name: A\n"
	"        variants:\n"
	"          Sum:\n"
	"            formula:\n"
	"              inclusive: *t-I\n"
	"              exclusive: {floor: [[*n-E, /, 2]]}\n"
	"      - name: B\n"
	"        variants:\n"
	"          Sum:\n"
	"            formula:\n"
	"              inclusive: {strict ceil: [*n-I]}\n"
	"              exclusive:\n"
	"                custom: *t-L\n"
	"                standard: *t-E\n"
	"  - name: First\n"
	"    variants:\n"
	"      Sum:\n"
	"        formula: first\n"
	"        child variant: [Mean]\n"
	"    children:\n"
	"      - name: C\n"
	"        variants:\n"
	"          Mean:\n"
	"            formula:\n"
	"              inclusive: {pow: [*n-I, 2]}\n"
	"              exclusive: {strict floor: [*n-E]}\n"
	"  - name: Header\n"
	"    variants:\n"
	"      Sum:\n"
	"        render: hidden\n"
	"    children:\n"
	"      - name: D\n"
	"        variants:\n"
	"          Sum:\n"
	"            formula:\n"
	"              inclusive: 12.5\n";

static struct model_builder *small_builder(void)
{
	struct model_builder *b = new_builder();
	add_stat(b, "T", "execution", "$$", COMBINE_SUM);
	add_stat(b, "T", "function", "$$", COMBINE_SUM);
	add_stat(b, "T", "lex_aware", "($$)", COMBINE_SUM);
	add_stat(b, "T", "execution", "1", COMBINE_SUM);
	add_stat(b, "T", "function", "1", COMBINE_SUM);
	add_stat(b, "T", "execution", "($$^2)", COMBINE_SUM);
	add_stat(b, "T", "execution", "$$", COMBINE_MAX);
	return b;
}

static void assert_column(const struct model *m, uint32_t i,
			  const char *name, const char *variant,
			  enum column_kind kind, unsigned render,
			  const char *format, bool visible, uint32_t parent)
{
	assert_true(i < model_n_columns(m));
	const struct model_column *c = &model_columns(m)[i];
	assert_string_equal(c->name, name);
	assert_string_equal(c->variant, variant);
	assert_int_equal(c->kind, kind);
	assert_int_equal(c->render, render);
	assert_string_equal(c->format, format);
	assert_int_equal(c->visible, visible);
	assert_int_equal(c->parent, parent);
}

static void test_small(void **state)
{
	(void)state;
	struct model_builder *b = small_builder();
	struct error err = {0};
	uint32_t n = 0;
	enum status st = load(b, small_yaml, &n, &err);
	if (st != STATUS_OK)
		fail_msg("%s", err.message);
	const struct model *m = model_builder_peek(b);
	assert_int_equal(n, 21);
	assert_int_equal(model_n_columns(m), 21);
	const unsigned NP = RENDER_NUMBER | RENDER_PERCENT;

	/* Time: Sum (I, E), Mean (I, E) */
	assert_column(m, 0, "Time", "Sum", COLUMN_INCLUSIVE, NP, "%6.1f %%",
		      true, MODEL_NONE);
	assert_string_equal(model_columns(m)[0].description, "All of the time.\n");
	assert_leaf(model_columns(m)[0].expr, 0);
	assert_null(model_columns(m)[0].expr_standard);
	assert_column(m, 1, "Time", "Sum", COLUMN_EXCLUSIVE, NP, "%6.1f %%",
		      true, MODEL_NONE);
	assert_leaf(model_columns(m)[1].expr, 2);          /* custom: lex_aware */
	assert_leaf(model_columns(m)[1].expr_standard, 1); /* standard: function */
	assert_column(m, 2, "Time", "Mean", COLUMN_INCLUSIVE, RENDER_NUMBER,
		      "%.3g", true, MODEL_NONE);
	assert_true(eval(model_columns(m)[2].expr) == 100.0 / 4);
	assert_column(m, 3, "Time", "Mean", COLUMN_EXCLUSIVE, RENDER_NUMBER,
		      "%.3g", true, MODEL_NONE);
	assert_true(eval(model_columns(m)[3].expr) == 40.0 / 9);

	/* Fancy: variant "" under Time; parent falls back to Time's first
	 * variant of the same kind */
	assert_column(m, 4, "Fancy", "", COLUMN_INCLUSIVE,
		      RENDER_COLORBAR | RENDER_HIDDEN, "%.2e", false, 0);
	assert_string_equal(model_columns(m)[4].description, "Formula shapes.");
	/* 4*(100-4) + sqrt(25) - 2^(3^(0.5^2)) */
	double expect = 4 * (100 - 4) + 5 - pow(2, pow(3, pow(0.5, 2)));
	assert_true(fabs(eval(model_columns(m)[4].expr) - expect) < 1e-9);
	assert_column(m, 5, "Fancy", "", COLUMN_EXCLUSIVE,
		      RENDER_COLORBAR | RENDER_HIDDEN, "%.2e", false, 1);
	/* 40/9 + 2*3*2 + max(1, min(4, 8)) */
	assert_true(fabs(eval(model_columns(m)[5].expr) - (40.0 / 9 + 12 + 4)) <
		    1e-9);
	assert_null(model_columns(m)[5].expr_standard);

	/* Empty: render defaults to number+percent */
	assert_column(m, 6, "Empty", "Sum", COLUMN_INCLUSIVE, NP, "%.2e",
		      true, 0);
	assert_null(model_columns(m)[6].description);
	assert_true(eval(model_columns(m)[6].expr) == -100 * 2 - 1);
	assert_column(m, 7, "Empty", "Sum", COLUMN_EXCLUSIVE, NP, "%.2e",
		      true, 1);
	assert_true(fabs(eval(model_columns(m)[7].expr) - 2) < 1e-12); /* log5 25 */

	/* Group = sum of A and B, inclusive and exclusive */
	const unsigned NPC = NP | RENDER_COLORBAR;
	assert_column(m, 8, "Group", "Sum", COLUMN_INCLUSIVE, NPC, "%.2e",
		      true, MODEL_NONE);
	assert_true(eval(model_columns(m)[8].expr) == 100 + 5);
	assert_null(model_columns(m)[8].expr_standard);
	assert_column(m, 9, "Group", "Sum", COLUMN_EXCLUSIVE, NPC, "%.2e",
		      true, MODEL_NONE);
	/* custom: floor(9/2) + lex_aware; standard: floor(9/2) + function */
	assert_true(eval(model_columns(m)[9].expr) == 4 + 60);
	assert_true(eval(model_columns(m)[9].expr_standard) == 4 + 40);
	assert_column(m, 10, "A", "Sum", COLUMN_INCLUSIVE, NP, "%.2e", true,
		      8);
	assert_column(m, 11, "A", "Sum", COLUMN_EXCLUSIVE, NP, "%.2e", true,
		      9);
	assert_column(m, 12, "B", "Sum", COLUMN_INCLUSIVE, NP, "%.2e", true,
		      8);
	assert_true(eval(model_columns(m)[12].expr) == 5); /* strict ceil(4) */
	assert_column(m, 13, "B", "Sum", COLUMN_EXCLUSIVE, NP, "%.2e", true,
		      9);

	/* First: Sum copies C's Mean; C's parent falls back to First Sum */
	assert_column(m, 14, "First", "Sum", COLUMN_INCLUSIVE, NP, "%.2e",
		      true, MODEL_NONE);
	assert_true(eval(model_columns(m)[14].expr) == 16);
	assert_column(m, 15, "First", "Sum", COLUMN_EXCLUSIVE, NP, "%.2e",
		      true, MODEL_NONE);
	assert_true(eval(model_columns(m)[15].expr) == 8); /* strict floor(9) */
	assert_column(m, 16, "C", "Mean", COLUMN_INCLUSIVE, NP, "%.2e", true,
		      14);
	assert_column(m, 17, "C", "Mean", COLUMN_EXCLUSIVE, NP, "%.2e", true,
		      15);

	/* Header: no formula, a grouping column without values */
	assert_column(m, 18, "Header", "Sum", COLUMN_INCLUSIVE, RENDER_HIDDEN,
		      "%.2e", true, MODEL_NONE);
	assert_null(model_columns(m)[18].expr);
	assert_column(m, 19, "Header", "Sum", COLUMN_EXCLUSIVE, RENDER_HIDDEN,
		      "%.2e", true, MODEL_NONE);
	assert_null(model_columns(m)[19].expr);
	/* D: inclusive only, a constant */
	assert_column(m, 20, "D", "Sum", COLUMN_INCLUSIVE, NP, "%.2e", true,
		      18);
	assert_true(eval(model_columns(m)[20].expr) == 12.5);
	error_clear(&err);
	model_builder_free(b);
}

/* Statistics the database lacks: the variants that need them are skipped,
 * a custom formula falls back to the standard one. */
static void test_missing_inputs(void **state)
{
	(void)state;
	struct model_builder *b = new_builder();
	add_stat(b, "T", "execution", "$$", COMBINE_SUM); /* 0 */
	add_stat(b, "T", "function", "$$", COMBINE_SUM);  /* 1 */
	/* no lex_aware, no counts, no ^2, no max */
	struct error err = {0};
	uint32_t n = 0;
	assert_int_equal(load(b, small_yaml, &n, &err), STATUS_OK);
	const struct model *m = model_builder_peek(b);
	/* every variant needing a count, the lex_aware scope or ^2 goes;
	 * Time Sum's exclusive custom falls back to its standard */
	const char *names[] = {"Time", "Time", "Header", "Header", "D"};
	assert_int_equal(n, 5);
	for (uint32_t i = 0; i < n; i++)
		assert_string_equal(model_columns(m)[i].name, names[i]);
	assert_leaf(model_columns(m)[0].expr, 0);
	assert_leaf(model_columns(m)[1].expr, 1);
	assert_null(model_columns(m)[1].expr_standard);
	assert_int_equal(model_columns(m)[4].parent, 2);
	error_clear(&err);
	model_builder_free(b);

	/* with the exclusive count: child A is complete, B is not, so the
	 * Group sum has A alone */
	b = new_builder();
	add_stat(b, "T", "execution", "$$", COMBINE_SUM); /* 0 = 100 */
	add_stat(b, "T", "function", "$$", COMBINE_SUM);  /* 1 = 40 */
	add_stat(b, "T", "function", "1", COMBINE_SUM);   /* 2 = 60 */
	assert_int_equal(load(b, small_yaml, &n, &err), STATUS_OK);
	m = model_builder_peek(b);
	const char *names2[] = {"Time", "Time", "Group", "Group", "A", "A",
				"Header", "Header", "D"};
	assert_int_equal(n, 9);
	for (uint32_t i = 0; i < n; i++)
		assert_string_equal(model_columns(m)[i].name, names2[i]);
	assert_leaf(model_columns(m)[2].expr, 0);
	assert_true(eval(model_columns(m)[3].expr) == 30); /* floor(60 / 2) */
	assert_null(model_columns(m)[3].expr_standard);
	assert_int_equal(model_columns(m)[4].parent, 2);
	assert_int_equal(model_columns(m)[5].parent, 3);
	error_clear(&err);
	model_builder_free(b);

	/* no statistic present: only the header and the constant column */
	b = new_builder();
	add_stat(b, "U", "execution", "$$", COMBINE_SUM);
	n = 9;
	assert_int_equal(load(b, small_yaml, &n, &err), STATUS_OK);
	assert_int_equal(n, 3);
	model_builder_free(b);

	/* and without constants: nothing added, no error */
	b = new_builder();
	add_stat(b, "U", "execution", "$$", COMBINE_SUM);
	n = 9;
	assert_int_equal(load(b, "inputs:\n  - &t {metric: T, scope: x}\n"
			      "roots:\n  - name: T\n    variants:\n"
			      "      Sum: {formula: {inclusive: *t}}\n"
			      "    children: [{name: H, variants: {Sum: {}}},"
			      " {name: G, variants: {Sum: {formula: sum}}}]\n",
			      &n, &err), STATUS_OK);
	assert_int_equal(n, 0);
	assert_int_equal(model_n_columns(model_builder_peek(b)), 0);
	model_builder_free(b);
}

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/test-metrics-yaml-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	size_t len = strlen(text);
	assert_true(write(fd, text, len) == (ssize_t)len);
	close(fd);
	return path;
}

/* metrics_add_columns: the taxonomy, or the default mapping with a
 * warning naming the file and the problem. */
static void test_add_columns(void **state)
{
	(void)state;
	struct error err = {0};
	char *warning = NULL;
	/* a usable file */
	char *path = write_tmp(small_yaml);
	struct model_builder *b = small_builder();
	assert_int_equal(metrics_add_columns(b, path, &warning, &err),
			 STATUS_OK);
	assert_null(warning);
	assert_int_equal(model_n_columns(model_builder_peek(b)), 21);
	model_builder_free(b);
	unlink(path);
	free(path);

	/* NULL: the default mapping, no warning */
	b = small_builder();
	assert_int_equal(metrics_add_columns(b, NULL, &warning, &err),
			 STATUS_OK);
	assert_null(warning);
	const struct model *m = model_builder_peek(b);
	assert_int_equal(model_n_columns(m), 2);
	assert_leaf(model_columns(m)[0].expr, 0);
	assert_leaf(model_columns(m)[1].expr, 1);
	model_builder_free(b);

	/* broken, missing, empty and useless files: default + warning */
	const char *bad[] = {"roots:\n  - name: x\n    variants: [1]\n",
			     NULL, "", "roots: []\n"};
	const char *why[] = {
		"'variants': expected a mapping, found a sequence (line 3)",
		"", "empty file", "no usable metric column"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		path = bad[i] ? write_tmp(bad[i])
			      : strdup("/nonexistent/default.yaml");
		b = small_builder();
		assert_int_equal(metrics_add_columns(b, path, &warning, &err),
				 STATUS_OK);
		assert_non_null(warning);
		assert_true(strncmp(warning, path, strlen(path)) == 0);
		if (!strstr(warning, why[i]))
			fail_msg("warning \"%s\" lacks \"%s\"", warning,
				 why[i]);
		m = model_builder_peek(b);
		assert_int_equal(model_n_columns(m), 2);
		assert_string_equal(model_columns(m)[0].name, "T");
		assert_string_equal(model_columns(m)[0].variant, "Sum");
		free(warning);
		warning = NULL;
		model_builder_free(b);
		if (bad[i])
			unlink(path);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_bad_formulas),
		cmocka_unit_test(test_alias_bombs),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_missing_inputs),
		cmocka_unit_test(test_add_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
