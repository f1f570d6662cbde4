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
#include "core/sanitize.h"
#include "present/present_path.h"

enum check_format { CHECK_TEXT, CHECK_JSON, CHECK_MARKDOWN, CHECK_JUNIT };

struct check {
	struct cli_diff cd;
	double threshold, min_share;
	enum check_format format;
	char *metric[1];
};

struct hit {
	uint32_t node;
	double base, new_, delta, pct; /* pct NAN for a new node */
	bool has_base;
	bool regressed;
};

static int parse(int argc, char **argv, struct check *o)
{
	static const struct option longopts[] = {
	    {"metric", required_argument, NULL, 'm'},
	    {"match", required_argument, NULL, 'M'},
	    {"threshold", required_argument, NULL, 't'},
	    {"min-share", required_argument, NULL, 's'},
	    {"format", required_argument, NULL, 'f'},
	    {"no-normalize", no_argument, NULL, 'N'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:M:t:s:f:Nh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'm':
			o->metric[0] = optarg;
			o->cd.metrics = o->metric;
			o->cd.n_metrics = 1;
			break;
		case 'M':
			if (!cli_diff_parse_match("check", optarg,
						  &o->cd.opt.match))
				return CLI_EXIT_DATA;
			break;
		case 't':
		case 's': {
			char *pct = strdup(optarg);
			size_t len = pct ? strlen(pct) : 0;
			if (len && pct[len - 1] == '%')
				pct[len - 1] = '\0';
			bool ok =
			    pct &&
			    cli_parse_double(
				"check",
				c == 't' ? "--threshold" : "--min-share", pct,
				c == 't' ? &o->threshold : &o->min_share);
			free(pct);
			if (!ok)
				return CLI_EXIT_DATA;
			break;
		}
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o->format = CHECK_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = CHECK_JSON;
			else if (strcmp(optarg, "markdown") == 0)
				o->format = CHECK_MARKDOWN;
			else if (strcmp(optarg, "junit") == 0)
				o->format = CHECK_JUNIT;
			else {
				fputs("callscope check: unknown --format "
				      "(expected text, json, markdown or "
				      "junit)\n",
				      stderr);
				return CLI_EXIT_DATA;
			}
			break;
		case 'N':
			o->cd.opt.normalize = false;
			break;
		default:
			return cli_option_other(c, -1) == CLI_EXIT_USAGE
				   ? CLI_EXIT_DATA
				   : -1;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "callscope check: expected two databases "
				"(callscope check BASE NEW [options])\n");
		return CLI_EXIT_DATA;
	}
	o->cd.base_path = argv[optind];
	o->cd.new_path = argv[optind + 1];
	return CLI_EXIT_OK;
}

static int by_delta(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return x->node < y->node ? -1 : x->node > y->node;
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
		struct hit x = {i, b, nw, nw - b, NAN, hb, false};
		if (hb && b != 0)
			x.pct = (nw - b) / fabs(b) * 100;
		if (d->nodes[i].status == DIFF_NEW || !hb)
			x.regressed = nw > 0;
		else if (hb && hn)
			x.regressed =
			    x.delta > 0 && (b == 0 || x.pct > o->threshold);
		if (n == cap) {
			struct hit *p = realloc(h, (cap *= 2) * sizeof(*p));
			if (!p) {
				free(h);
				return NULL;
			}
			h = p;
		}
		h[n++] = x;
		bad += x.regressed;
	}
	if (!h)
		return NULL;
	/* regressions first, each group by delta */
	size_t j = 0;
	for (size_t i = 0; i < n; i++)
		if (h[i].regressed) {
			struct hit t = h[j];
			h[j++] = h[i];
			h[i] = t;
		}
	qsort(h, j, sizeof(*h), by_delta);
	*n_hits = n;
	*n_bad = bad;
	return h;
}

static void put_xml(FILE *out, const char *s)
{
	char *safe = sanitize_text(s, SANITIZE_TERMINAL);
	for (const char *p = safe ? safe : "?"; *p; p++) {
		switch (*p) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*p, out);
		}
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

static int report(const struct check *o, enum diff_scope scope,
		  const struct hit *h, size_t n, size_t bad)
{
	const struct model *m = o->cd.model;
	const struct diff *d = o->cd.diff;
	uint32_t col = diff_model_column(d, 0, scope, DIFF_ROLE_BASE);
	char *title = present_column_title(m, col);
	const char *metric = m->columns[col].name;
	const char *kind = scope == DIFF_INCLUSIVE ? "inclusive" : "exclusive";
	FILE *out = stdout;
	if (o->format == CHECK_JSON) {
		json_t *arr = json_array();
		for (size_t i = 0; i < bad && arr; i++) {
			char *path = present_node_path(m, h[i].node, " > ",
						       PRESENT_PATH_LABELS);
			json_array_append_new(
			    arr,
			    json_pack(
				"{s:o, s:s, s:o, s:o, s:o, s:o}", "path",
				present_json_text(path), "status",
				diff_status_name(d->nodes[h[i].node].status),
				"base",
				h[i].has_base ? json_real(h[i].base)
					      : json_null(),
				"new", json_real(h[i].new_), "delta",
				json_real(h[i].delta), "delta_percent",
				isnan(h[i].pct) ? json_null()
						: json_real(h[i].pct)));
			free(path);
		}
		json_t *doc = json_pack(
		    "{s:s, s:o, s:s, s:f, s:f, s:o, s:I, s:o}", "result",
		    bad ? "regressed" : "ok", "metric",
		    present_json_text(metric), "scope", kind,
		    "threshold_percent", o->threshold, "min_share_percent",
		    o->min_share, "base_total",
		    d->has_total[0] ? json_real(d->base_total[0]) : json_null(),
		    "checked", (json_int_t)n, "regressions",
		    arr ? arr : json_array());
		if (!doc ||
		    !present_put_json(out, doc,
				      JSON_INDENT(2) | JSON_PRESERVE_ORDER |
					  JSON_REAL_PRECISION(17)))
			fputs("{}", out);
		fputc('\n', out);
		json_decref(doc);
	} else if (o->format == CHECK_JUNIT) {
		fprintf(out,
			"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"callscope check\" tests=\"%zu\" "
			"failures=\"%zu\">\n",
			n, bad);
		for (size_t i = 0; i < n; i++) {
			char *path = present_node_path(m, h[i].node, " > ",
						       PRESENT_PATH_LABELS);
			fputs(
			    "  <testcase classname=\"callscope.check\" name=\"",
			    out);
			put_xml(out, path && *path ? path : "<total>");
			fputs("\"", out);
			if (!h[i].regressed) {
				fputs("/>\n", out);
			} else {
				fputs(">\n    <failure message=\"", out);
				put_pct(out, &h[i]);
				fprintf(
				    out,
				    " (base %.6g, new %.6g, delta %.6g)\"/>\n"
				    "  </testcase>\n",
				    h[i].base, h[i].new_, h[i].delta);
			}
			free(path);
		}
		fputs("</testsuite>\n", out);
	} else {
		bool md = o->format == CHECK_MARKDOWN;
		fprintf(out,
			md ? "**%s**: " : "%s: ", bad ? "REGRESSED" : "OK");
		fprintf(out,
			"%zu of %zu call paths above %g%% of the base "
			"total grew by more than %g%% (",
			bad, n, o->min_share, o->threshold);
		if (md)
			put_md(out, title ? title : metric);
		else
			present_put_text(out, title ? title : metric);
		fputs(")\n", out);
		if (bad && md)
			fputs("\n| change | base | new | delta | call path |\n"
			      "|---:|---:|---:|---:|---|\n",
			      out);
		for (size_t i = 0; i < bad; i++) {
			char *path = present_node_path(m, h[i].node, " > ",
						       PRESENT_PATH_LABELS);
			const char *p = path && *path ? path : "<total>";
			if (md) {
				fputs("| ", out);
				put_pct(out, &h[i]);
				fprintf(out, " | %.6g | %.6g | %+.6g | ",
					h[i].base, h[i].new_, h[i].delta);
				put_md(out, p);
				fputs(" |\n", out);
			} else {
				fputs("  ", out);
				put_pct(out, &h[i]);
				fprintf(out,
					"  base %.6g  new %.6g  delta %+.6g  ",
					h[i].base, h[i].new_, h[i].delta);
				present_put_text(out, p);
				fputc('\n', out);
			}
			free(path);
		}
	}
	free(title);
	return bad ? 1 : CLI_EXIT_OK;
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
	rc = cli_diff_open(s, "check", &o.cd);
	if (rc != CLI_EXIT_OK)
		return CLI_EXIT_DATA;
	enum diff_scope scope = diff_has_scope(o.cd.diff, 0, DIFF_INCLUSIVE)
				    ? DIFF_INCLUSIVE
				    : DIFF_EXCLUSIVE;
	size_t n = 0, bad = 0;
	struct hit *h = find(&o, scope, &n, &bad);
	if (!h) {
		fputs("callscope check: out of memory\n", stderr);
		rc = CLI_EXIT_DATA;
	} else {
		rc = report(&o, scope, h, n, bad);
	}
	free(h);
	cli_diff_close(&o.cd);
	return rc;
}
