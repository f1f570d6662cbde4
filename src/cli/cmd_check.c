/* cmd_check: `callscope check BASE NEW [--metric M|BASE=NEW] [--match
 * path|function] [--threshold PCT] [--min-share PCT] [--format
 * text|json|markdown|junit]`: a regression gate for CI over the merged
 * tree of two runs (compare/diff.h).  A call path regressed when both
 * runs have it and its value grew by more than PCT percent of its base
 * value, or when only the new run has it; either way only when it holds
 * at least --min-share percent of the base run's total in one of the
 * runs (noise below that is ignored).  Values are the metric's
 * inclusive ones where both runs have them, else the exclusive ones.
 * Exit status: 0 nothing regressed, 1 something did, 2 an unreadable
 * run, a metric that cannot be compared or a usage error (1 is kept for
 * a regression).  Must not depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "compare/runset.h"
#include "core/array.h"
#include "core/sanitize.h"
#include "present/present_path.h"

enum check_format { CHECK_TEXT, CHECK_JSON, CHECK_MARKDOWN, CHECK_JUNIT };

struct hit {
	uint32_t node;
	double base, new_, delta, pct; /* pct NAN for a new node */
	bool has_base;
	bool regressed;
	uint8_t status;
	double lo[2], hi[2]; /* several runs: each side's range */
};

/* What the report reads: the tree of the paths, the metric, the base
 * total, and with several runs per side their numbers. */
struct check_source {
	struct model *m;
	char *title;
	const char *metric;
	const char *scope;
	double total;
	bool has_total;
	uint32_t n_base, n_new;
	struct runset *rs; /* several runs: the set (the model's) */
};

struct check {
	struct cli_diff cd;
	double threshold, min_share;
	enum check_format format;
	/* several runs per side (check_runs.c) */
	const char **side[2];
	size_t n_side[2];
	int at; /* the side operands go to: 0 base, 1 new */
	bool sided; /* "--", --base or --new given */
	struct check_source src;
};

static int own_option(void *ctx, int c, const char *arg)
{
	struct check *o = ctx;
	switch (c) {
	case 2:
		o->at = 1;
		o->sided = true;
		/* fall through */
	case 1: {
		const char **p = realloc(o->side[o->at],
					 (o->n_side[o->at] + 1) * sizeof(*p));
		if (!p)
			return CLI_EXIT_DATA;
		o->side[o->at] = p;
		p[o->n_side[o->at]++] = arg;
		break;
	}
	case 'B':
	case 'W':
		o->at = c == 'W';
		o->sided = true;
		break;
	case 't':
	case 's': {
		char *pct = strdup(arg);
		size_t len = pct ? strlen(pct) : 0;
		if (len && pct[len - 1] == '%')
			pct[len - 1] = '\0';
		bool ok = pct && cli_parse_double(
				     "check", c == 't' ? "--threshold" : "--min-share",
				     pct, c == 't' ? &o->threshold : &o->min_share);
		free(pct);
		if (!ok)
			return CLI_EXIT_DATA;
		break;
	}
	case 'f':
		if (strcmp(arg, "text") == 0)
			o->format = CHECK_TEXT;
		else if (strcmp(arg, "json") == 0)
			o->format = CHECK_JSON;
		else if (strcmp(arg, "markdown") == 0)
			o->format = CHECK_MARKDOWN;
		else if (strcmp(arg, "junit") == 0)
			o->format = CHECK_JUNIT;
		else {
			fputs("callscope check: unknown --format (expected "
			      "text, json, markdown or junit)\n",
			      stderr);
			return CLI_EXIT_DATA;
		}
		break;
	}
	return CLI_EXIT_OK;
}

static int parse(int argc, char **argv, struct check *o)
{
	static const struct option longopts[] = {
	    {"threshold", required_argument, NULL, 't'},
	    {"min-share", required_argument, NULL, 's'},
	    {"format", required_argument, NULL, 'f'},
	    {"base", no_argument, NULL, 'B'},
	    {"new", no_argument, NULL, 'W'},
	    {NULL, 0, NULL, 0},
	};
	const struct cli_diff_args a = {.cmd = "check",
					.shorts = "t:s:f:BW",
					.longs = longopts,
					.own = own_option,
					.ctx = o,
					.usage_rc = CLI_EXIT_DATA,
					.one_metric = true};
	int rc = cli_diff_getopt(&a, argc, argv, &o->cd);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (!o->sided && o->n_side[0] == 2) {
		o->side[1] = o->side[0] + 1;
		o->n_side[0] = o->n_side[1] = 1;
		o->cd.base_path = o->side[0][0];
		o->cd.new_path = o->side[0][1];
		return CLI_EXIT_OK;
	}
	if (!o->sided || !o->n_side[0] || !o->n_side[1]) {
		fprintf(stderr, "callscope check: expected two databases, or "
				"runs on each side (callscope check BASE NEW, "
				"BASE... -- NEW... or --base BASE... --new "
				"NEW...)\n");
		return CLI_EXIT_DATA;
	}
	return CLI_EXIT_OK;
}

static int by_delta(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Regressions first, each group by delta. */
static struct hit *order(struct hit *h, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n; i++)
		if (h[i].regressed) {
			struct hit t = h[j];
			h[j++] = h[i];
			h[i] = t;
		}
	qsort(h, j, sizeof(*h), by_delta);
	return h;
}

/* Append `x` to the hits; false when out of memory (h freed). */
static bool push_hit(struct hit **h, size_t *n, size_t *cap,
		     const struct hit *x)
{
	if (!array_grow((void **)h, cap, *n + 1, sizeof(**h))) {
		FREE_AND_NULL(*h);
		return false;
	}
	(*h)[(*n)++] = *x;
	return true;
}

/* The nodes checked (above the minimum share), regressions first by
 * delta.  NULL when out of memory. */
static struct hit *find(const struct check *o, enum diff_scope scope,
			size_t *n_hits, size_t *n_bad)
{
	const struct diff *d = o->cd.diff;
	double total = d->has_total[0] ? fabs(d->base_total[0]) : 0;
	size_t n = 0, cap = 64, bad = 0;
	struct hit *h = malloc(cap * sizeof(*h));
	for (uint32_t i = 0; h && i < d->n_nodes; i++) {
		double b = 0, nw = 0;
		bool hb = diff_value(d, i, 0, scope, DIFF_BASE, &b);
		bool hn = diff_value(d, i, 0, scope, DIFF_NEW_RUN, &nw);
		if (!hb && !hn)
			continue;
		double share =
		    total > 0 ? fmax(fabs(b), fabs(nw)) / total * 100 : 100;
		if (share < o->min_share)
			continue;
		struct hit x = {i, b, nw, nw - b, NAN, hb, false,
				d->nodes[i].status, {b, nw}, {b, nw}};
		if (hb && b != 0)
			x.pct = (nw - b) / fabs(b) * 100;
		if (d->nodes[i].status == DIFF_NEW || !hb)
			x.regressed = nw > 0;
		else if (hb && hn)
			x.regressed =
			    x.delta > 0 && (b == 0 || x.pct > o->threshold);
		if (!push_hit(&h, &n, &cap, &x))
			return NULL;
		bad += x.regressed;
	}
	if (!h)
		return NULL;
	*n_hits = n;
	*n_bad = bad;
	return order(h, n);
}

static void put_xml(FILE *out, const char *s)
{
	static const char *const entity[] = {
		['<'] = "&lt;", ['>'] = "&gt;", ['&'] = "&amp;", ['"'] = "&quot;",
	};
	char *safe = sanitize_text(s, SANITIZE_TERMINAL);
	for (const char *p = safe ? safe : "?"; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < sizeof(entity) / sizeof(entity[0]) && entity[c])
			fputs(entity[c], out);
		else
			fputc(*p, out);
	}
	free(safe);
}

/* Markdown table cell: '|' escaped. */
static void put_md(FILE *out, const char *s)
{
	char *safe = sanitize_text(s, SANITIZE_TERMINAL);
	for (const char *p = safe ? safe : "?"; *p; p++) {
		if (*p == '|' || *p == '`' || *p == '*' || *p == '_')
			fputc('\\', out);
		fputc(*p, out);
	}
	free(safe);
}

static void put_pct(FILE *out, const struct hit *h)
{
	if (!h->has_base)
		fputs("+inf%", out); /* no base value: new, or 0 before */
	else if (isnan(h->pct))
		fputs("-", out);
	else
		fprintf(out, "%+.1f%%", h->pct);
}

static json_t *hit_json(const struct check_source *src, const struct hit *h)
{
	char *path = present_node_path(src->m, h->node, " > ",
				       PRESENT_PATH_LABELS);
	json_t *j = json_pack(
	    "{s:o, s:s, s:o, s:o, s:o, s:o}", "path", present_json_text(path),
	    "status", diff_status_name(h->status), "base",
	    h->has_base ? present_json_number(h->base) : json_null(), "new",
	    present_json_number(h->new_), "delta", present_json_number(h->delta), "delta_percent",
	    isnan(h->pct) ? json_null() : present_json_number(h->pct));
	free(path);
	if (j && src->rs) {
		for (int side = 0; side < 2; side++) {
			const char *names[2][2] = {{"base_min", "base_max"},
						   {"new_min", "new_max"}};
			bool has = side ? true : h->has_base;
			json_object_set_new(j, names[side][0],
					    has ? present_json_number(h->lo[side])
						: json_null());
			json_object_set_new(j, names[side][1],
					    has ? present_json_number(h->hi[side])
						: json_null());
		}
	}
	return j;
}

static void report_json(const struct check *o, const struct check_source *src,
			const struct hit *h, size_t n, size_t bad)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < bad && arr; i++)
		json_array_append_new(arr, hit_json(src, &h[i]));
	json_t *doc = json_pack(
	    "{s:s, s:o, s:s, s:f, s:f, s:o, s:I, s:o}", "result",
	    bad ? "regressed" : "ok", "metric", present_json_text(src->metric),
	    "scope", src->scope, "threshold_percent", o->threshold,
	    "min_share_percent", o->min_share, "base_total",
	    src->has_total ? present_json_number(src->total) : json_null(), "checked",
	    (json_int_t)n, "regressions", arr ? arr : json_array());
	if (doc && src->rs) {
		json_object_set_new(doc, "base_runs",
				    json_integer((json_int_t)src->n_base));
		json_object_set_new(doc, "new_runs",
				    json_integer((json_int_t)src->n_new));
		json_object_set_new(
		    doc, "rule",
		    json_string("medians compared; a change counts only when "
				"the runs' ranges [min, max] do not overlap"));
	}
	if (!doc || !present_put_json(stdout, doc,
				      JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					  JSON_REAL_PRECISION(17)))
		fputs("{}", stdout);
	fputc('\n', stdout);
	json_decref(doc);
}

static void report_junit(const struct check_source *src, const struct hit *h,
			 size_t n, size_t bad)
{
	FILE *out = stdout;
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"callscope check\" tests=\"%zu\" "
		"failures=\"%zu\">\n",
		n, bad);
	for (size_t i = 0; i < n; i++) {
		char *path = present_node_path(src->m, h[i].node, " > ",
					       PRESENT_PATH_LABELS);
		fputs("  <testcase classname=\"callscope.check\" name=\"", out);
		put_xml(out, path && *path ? path : "<total>");
		fputs("\"", out);
		if (!h[i].regressed) {
			fputs("/>\n", out);
		} else {
			fputs(">\n    <failure message=\"", out);
			put_pct(out, &h[i]);
			fprintf(out,
				" (base %.6g, new %.6g, delta %.6g)\"/>\n"
				"  </testcase>\n",
				h[i].base, h[i].new_, h[i].delta);
		}
		free(path);
	}
	fputs("</testsuite>\n", out);
}

static void report_text(const struct check *o, const struct check_source *src,
			const struct hit *h, size_t n, size_t bad)
{
	FILE *out = stdout;
	bool md = o->format == CHECK_MARKDOWN;
	fprintf(out, md ? "**%s**: " : "%s: ", bad ? "REGRESSED" : "OK");
	fprintf(out,
		"%zu of %zu call paths above %g%% of the base "
		"total grew by more than %g%% (",
		bad, n, o->min_share, o->threshold);
	if (md)
		put_md(out, src->title ? src->title : src->metric);
	else
		present_put_text(out, src->title ? src->title : src->metric);
	fputs(")\n", out);
	if (src->rs)
		fprintf(out,
			"%s%u base runs, %u new runs: medians compared, a "
			"change counted only when the ranges do not overlap\n",
			md ? "\n" : "", src->n_base, src->n_new);
	if (bad && md)
		fputs("\n| change | base | new | delta | call path |\n"
		      "|---:|---:|---:|---:|---|\n",
		      out);
	for (size_t i = 0; i < bad; i++) {
		char *path = present_node_path(src->m, h[i].node, " > ",
					       PRESENT_PATH_LABELS);
		const char *p = path && *path ? path : "<total>";
		if (md) {
			fputs("| ", out);
			put_pct(out, &h[i]);
			fprintf(out, " | %.6g | %.6g | %+.6g | ", h[i].base,
				h[i].new_, h[i].delta);
			put_md(out, p);
			fputs(" |\n", out);
		} else {
			fputs("  ", out);
			put_pct(out, &h[i]);
			fprintf(out, "  base %.6g  new %.6g  delta %+.6g  ",
				h[i].base, h[i].new_, h[i].delta);
			present_put_text(out, p);
			fputc('\n', out);
		}
		free(path);
	}
}

static int report(const struct check *o, const struct check_source *src,
		  const struct hit *h, size_t n, size_t bad)
{
	if (o->format == CHECK_JSON)
		report_json(o, src, h, n, bad);
	else if (o->format == CHECK_JUNIT)
		report_junit(src, h, n, bad);
	else
		report_text(o, src, h, n, bad);
	return bad ? 1 : CLI_EXIT_OK;
}

/* ---- several runs per side ------------------------------------------- */

/* The set of every run, base runs first, as a model (o->src). */
static int open_runs(struct session *s, struct check *o)
{
	struct runset_options ro = {
	    .match = o->cd.opt.match,
	    .normalize = o->cd.opt.normalize,
	    .metrics = (const char *const *)o->cd.metrics,
	    .n_metrics = o->cd.n_metrics,
	    .scope = -1,
	};
	struct error err = {0};
	uint32_t n = (uint32_t)(o->n_side[0] + o->n_side[1]);
	struct runset *rs = runset_new(n, &ro, &err);
	for (int side = 0; rs && side < 2; side++)
		for (size_t r = 0; r < o->n_side[side]; r++) {
			const char *path = o->side[side][r];
			struct model *m = cli_open(s, path);
			if (!m || !cli_load_all(m)) {
				model_free(m);
				runset_free(rs);
				return CLI_EXIT_DATA;
			}
			if (runset_add(rs, m, path, NULL, &err) != STATUS_OK) {
				runset_free(rs);
				rs = NULL;
				break;
			}
		}
	o->src.rs = rs;
	o->src.m = rs ? runset_model_new(rs, "check", &err) : NULL;
	if (!o->src.m) {
		o->src.rs = NULL;
		cli_put_error(&err, "cannot compare");
		return CLI_EXIT_DATA;
	}
	const struct model_column *c = &model_columns(rs->first)[rs->pairs[0].col[0][rs->scope[0]]];
	o->src.metric = c->name;
	o->src.title = strdup(rs->metric_specs[0]);
	o->src.scope =
	    rs->scope[0] == DIFF_INCLUSIVE ? "inclusive" : "exclusive";
	o->src.n_base = (uint32_t)o->n_side[0];
	o->src.n_new = (uint32_t)o->n_side[1];
	return CLI_EXIT_OK;
}

/* One side's statistics of the first metric at `node`. */
static bool side_stats(const struct runset *rs, uint32_t node, uint32_t from,
		       uint32_t count, double *scratch,
		       double st[RUNSET_N_STATS])
{
	struct error err = {0};
	const double *v = &rs->values[(size_t)node * rs->n_metrics * rs->n_runs];
	bool ok = runset_stats_of(v + from, count, scratch, st, &err) ==
		  STATUS_OK;
	error_clear(&err);
	return ok && st[RUNSET_COUNT] > 0;
}

/* As find, over the medians of each side; a change counts only when the
 * ranges do not overlap. */
static struct hit *find_runs(struct check *o, size_t *n_hits, size_t *n_bad)
{
	const struct runset *rs = o->src.rs;
	uint32_t nb = o->src.n_base, nn = o->src.n_new;
	double st[2][RUNSET_N_STATS];
	size_t n = 0, cap = 64, bad = 0;
	double *scratch = malloc((2 * (size_t)rs->n_runs + 1) * sizeof(double));
	struct hit *h = malloc(cap * sizeof(*h));
	o->src.has_total = scratch &&
			   side_stats(rs, 0, 0, nb, scratch, st[0]) &&
			   st[0][RUNSET_MEDIAN] != 0;
	o->src.total = o->src.has_total ? fabs(st[0][RUNSET_MEDIAN]) : 0;
	for (uint32_t i = 0; h && scratch && i < rs->n_nodes; i++) {
		bool hb = side_stats(rs, i, 0, nb, scratch, st[0]);
		bool hn = side_stats(rs, i, nb, nn, scratch, st[1]);
		if (!hb && !hn)
			continue;
		double b = hb ? st[0][RUNSET_MEDIAN] : 0;
		double nw = hn ? st[1][RUNSET_MEDIAN] : 0;
		double share = o->src.total > 0 ? fmax(fabs(b), fabs(nw)) /
						      o->src.total * 100
						: 100;
		if (share < o->min_share)
			continue;
		struct hit x = {i, b, nw, nw - b, NAN, hb, false,
				!hb ? DIFF_NEW : !hn ? DIFF_GONE : DIFF_BOTH,
				{st[0][RUNSET_MIN], st[1][RUNSET_MIN]},
				{st[0][RUNSET_MAX], st[1][RUNSET_MAX]}};
		if (hb && b != 0)
			x.pct = (nw - b) / fabs(b) * 100;
		if (!hb)
			x.regressed = nw > 0;
		else if (hn)
			x.regressed = x.delta > 0 &&
				      (b == 0 || x.pct > o->threshold) &&
				      x.lo[1] > x.hi[0];
		if (!push_hit(&h, &n, &cap, &x))
			break;
		bad += x.regressed;
	}
	free(scratch);
	if (!h || !scratch) {
		free(h);
		return NULL;
	}
	*n_hits = n;
	*n_bad = bad;
	return order(h, n);
}

/* One run per side: the merged tree of the two (o->src). */
static int open_pair(struct session *s, struct check *o)
{
	if (cli_diff_open(s, "check", &o->cd) != CLI_EXIT_OK)
		return CLI_EXIT_DATA;
	const struct diff *d = o->cd.diff;
	enum diff_scope scope = diff_has_scope(d, 0, DIFF_INCLUSIVE)
				    ? DIFF_INCLUSIVE
				    : DIFF_EXCLUSIVE;
	uint32_t col = diff_model_column(d, 0, scope, DIFF_ROLE_BASE);
	o->src.m = o->cd.model;
	o->src.title = present_column_title(o->cd.model, col);
	o->src.metric = model_columns(o->cd.model)[col].name;
	o->src.scope = scope == DIFF_INCLUSIVE ? "inclusive" : "exclusive";
	o->src.has_total = d->has_total[0];
	o->src.total = d->base_total[0];
	o->src.n_base = o->src.n_new = 1;
	return CLI_EXIT_OK;
}

int cmd_check(struct session *s, int argc, char **argv);
int cmd_check(struct session *s, int argc, char **argv)
{
	struct check o = {
	    .cd = {.opt = {.match = DIFF_MATCH_PATH, .normalize = true}},
	    .threshold = 5,
	    .min_share = 1,
	    .format = CHECK_TEXT,
	};
	int rc = parse(argc, argv, &o);
	if (rc < 0)
		return CLI_EXIT_OK;
	if (rc != CLI_EXIT_OK)
		return rc;
	bool runs = o.sided;
	rc = runs ? open_runs(s, &o) : open_pair(s, &o);
	size_t n = 0, bad = 0;
	struct hit *h = NULL;
	if (rc == CLI_EXIT_OK) {
		h = runs ? find_runs(&o, &n, &bad)
			 : find(&o, o.src.scope[0] == 'i' ? DIFF_INCLUSIVE
							  : DIFF_EXCLUSIVE,
				&n, &bad);
		if (!h) {
			fputs("callscope check: out of memory\n", stderr);
			rc = CLI_EXIT_DATA;
		} else {
			rc = report(&o, &o.src, h, n, bad);
		}
	}
	free(h);
	free(o.src.title);
	if (runs)
		model_free(o.src.m);
	else
		cli_diff_close(&o.cd);
	free(o.side[0]);
	if (o.sided)
		free(o.side[1]);
	free(o.cd.metrics);
	return rc;
}
