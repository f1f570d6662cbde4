/* cli_diff: opening two runs as one merged tree for `diff` and `check`,
 * and the options of every comparing command (cli_diff.h).  Must not depend on curses or on ui/. */
#include "config.h"

#include "cli/cli_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/array.h"
#include "core/sanitize.h"

bool cli_diff_parse_match(const char *cmd, const char *arg,
			  enum diff_match *out)
{
	if (strcmp(arg, "path") == 0)
		*out = DIFF_MATCH_PATH;
	else if (strcmp(arg, "function") == 0)
		*out = DIFF_MATCH_FUNCTION;
	else {
		fprintf(stderr, "callscope %s: unknown --match '", cmd);
		present_put_text(stderr, arg);
		fputs("' (expected path or function)\n", stderr);
		return false;
	}
	return true;
}

int cli_diff_getopt(const struct cli_diff_args *a, int argc, char **argv,
		    struct cli_diff *cd)
{
	static const struct option common[] = {
	    {"metric", required_argument, NULL, 'm'},
	    {"match", required_argument, NULL, 'M'},
	    {"no-normalize", no_argument, NULL, 'N'},
	    {"help", no_argument, NULL, 'h'},
	    {"depth", required_argument, NULL, 'd'},
	    {"format", required_argument, NULL, 'f'},
	};
	/* the tree writers' --depth and --format only when asked */
	size_t n_common = sizeof(common) / sizeof(common[0]) -
			  (a->depth ? 0 : 2);
	size_t n_own = 0;
	while (a->longs && a->longs[n_own].name)
		n_own++;
	struct option *longs = calloc(n_common + n_own + 1, sizeof(*longs));
	char *shorts = NULL;
	int rc = CLI_EXIT_OK, c;
	if (!longs || asprintf(&shorts, "-m:M:Nh%s%s", a->depth ? "d:f:" : "",
			       a->shorts) < 0) {
		free(longs);
		return a->usage_rc;
	}
	memcpy(longs, common, n_common * sizeof(*longs));
	if (n_own)
		memcpy(longs + n_common, a->longs, n_own * sizeof(*longs));
	optind = 1;
	while (rc == CLI_EXIT_OK &&
	       (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == 'm') {
			char **p = realloc(cd->metrics, (cd->n_metrics + 1) *
							    sizeof(*p));
			if (!p) {
				rc = a->usage_rc;
				break;
			}
			cd->metrics = p;
			if (a->one_metric)
				cd->n_metrics = 0;
			cd->metrics[cd->n_metrics++] = optarg;
		} else if (c == 'M') {
			if (!cli_diff_parse_match(a->cmd, optarg,
						  &cd->opt.match))
				rc = a->usage_rc;
		} else if (c == 'N') {
			cd->opt.normalize = false;
		} else if (c == 'd' && a->depth) {
			if (!cli_parse_u32(a->cmd, "--depth", optarg, a->depth))
				rc = a->usage_rc;
		} else if (c == 'f' && a->depth) {
			if (!cli_parse_format(a->cmd, optarg, 7, a->format))
				rc = a->usage_rc;
		} else if (c == 1 || (c > 1 && c != ':' && strchr(a->shorts, c))) {
			rc = a->own(a->ctx, c, optarg);
		} else {
			rc = cli_option_other(c, -1) == CLI_EXIT_USAGE
				 ? a->usage_rc
				 : -1;
		}
	}
	for (int i = optind; rc == CLI_EXIT_OK && i < argc; i++)
		rc = a->own(a->ctx, 2, argv[i]);
	free(longs);
	free(shorts);
	return rc;
}

struct keyed {
	uint32_t row;
	double key;
	size_t order;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void put_row(struct cli_walk *w, uint32_t row, bool first)
{
	struct present_rows *r = w->rows;
	if (w->measure) {
		present_rows_measure(r, row);
		return;
	}
	if (r->format == PRESENT_FORMAT_JSON) {
		json_t *j = present_rows_node_json(r, row);
		if (json_is_object(j))
			w->row(w->ctx, row, j, r->out, r->format);
		present_rows_json_node(r, j, first);
		json_decref(j);
		return;
	}
	w->row(w->ctx, row, NULL, r->out, r->format);
	present_rows_print(r, row);
}

/* Row `row`'s children sorted onto the stack (the first on top). */
static enum status push_children(struct cli_walk *w, uint32_t row,
				 uint32_t **stack, size_t *n, size_t *cap,
				 struct error *err)
{
	uint32_t *kids = NULL;
	size_t nk = 0;
	enum status st =
	    view_children(w->v, row, w->sort_col, false, &kids, &nk, err);
	if (st != STATUS_OK)
		return st;
	struct keyed *ks = malloc((nk ? nk : 1) * sizeof(*ks));
	bool pushed = ks != NULL;
	for (size_t i = 0; pushed && i < nk; i++) {
		double x = 0;
		ks[i].row = kids[i];
		ks[i].order = i;
		ks[i].key = view_value(w->v, kids[i], w->sort_col, &x) ? fabs(x)
									: -1;
	}
	if (pushed) {
		qsort(ks, nk, sizeof(*ks), by_key);
		for (size_t i = 0; i < nk; i++)
			kids[i] = ks[i].row;
		pushed = array_push_reversed_u32(stack, n, cap, kids, nk);
	}
	free(ks);
	free(kids);
	return pushed ? STATUS_OK
		      : error_set(err, STATUS_NOMEM, NULL, "out of memory");
}

enum status cli_walk_rows(struct cli_walk *w, struct error *err)
{
	size_t n = 0, cap = 16;
	uint32_t *stack = malloc(cap * sizeof(*stack));
	enum status st = STATUS_OK;
	bool first = true;
	if (!stack)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	stack[n++] = view_root(w->v);
	while (n > 0 && st == STATUS_OK) {
		uint32_t row = stack[--n];
		struct view_node vn;
		if (!view_node_get(w->v, row, &vn))
			continue;
		put_row(w, row, first);
		first = false;
		if (w->depth == UINT32_MAX || vn.depth < w->depth)
			st = push_children(w, row, &stack, &n, &cap, err);
	}
	free(stack);
	return st;
}

bool cli_walk_tree(struct cli_walk *w, const struct cli_tree_head *h)
{
	struct error err = {0};
	enum present_format format = w->rows->format;
	if (format == PRESENT_FORMAT_TEXT) {
		w->measure = true;
		if (cli_walk_rows(w, &err) != STATUS_OK)
			goto fail;
		w->measure = false;
		h->preamble(h->ctx);
		fputs(h->text_head, stdout);
		present_rows_header(w->rows);
	} else if (format == PRESENT_FORMAT_CSV) {
		fputs(h->csv_head, stdout);
		present_rows_header(w->rows);
	} else {
		h->json_open(h->ctx, w->rows);
	}
	if (cli_walk_rows(w, &err) != STATUS_OK)
		goto fail;
	if (format == PRESENT_FORMAT_JSON)
		present_rows_json_close(w->rows);
	return true;
fail:
	cli_put_error(&err, "error");
	error_clear(&err);
	return false;
}

void cli_json_open_tree(json_t *head, json_t *cols, const char *format,
			FILE *out)
{
	char *doc = NULL, *safe = NULL;
	if (head) {
		json_object_set_new(head, "columns", cols ? cols : json_array());
		cols = NULL;
		json_object_set_new(head, "nodes", json_array());
		/* written whole but for the empty nodes' "]}" */
		doc = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER);
		safe = doc ? sanitize_json(doc) : NULL;
	}
	if (safe && strlen(safe) >= 3) {
		safe[strlen(safe) - 2] = '\0';
		fputs(safe, out);
	} else {
		fprintf(out, "{\"format\":\"%s\",\"columns\":[],\"nodes\":[",
			format);
	}
	free(safe);
	free(doc);
	json_decref(cols);
	json_decref(head);
}

bool cli_tree_rows(struct present_rows *rows, const struct model *m,
		   enum view_kind kind, enum present_format format,
		   struct view **v, uint32_t **cols)
{
	struct error err = {0};
	*v = NULL;
	*cols = malloc((model_n_columns(m) ? model_n_columns(m) : 1) * sizeof(**cols));
	if (!*cols || view_new(m, kind, v, &err) != STATUS_OK) {
		cli_put_error(&err, "out of memory");
		error_clear(&err);
		return false;
	}
	for (uint32_t c = 0; c < model_n_columns(m); c++)
		(*cols)[c] = c;
	if (!present_rows_init(rows, *v, *cols, model_n_columns(m), NULL, 0, format,
			       stdout))
		return false;
	for (uint32_t c = 0; c < model_n_columns(m); c++) {
		int w = (int)strlen(model_columns(m)[c].variant) + 4;
		if (w > rows->value_width[c])
			rows->value_width[c] = w;
	}
	return true;
}

int cli_diff_open(struct session *s, const char *cmd, struct cli_diff *cd)
{
	struct model *b = cli_open(s, cd->base_path);
	struct model *n = b ? cli_open(s, cd->new_path) : NULL;
	struct error err = {0};
	int rc = CLI_EXIT_DATA;
	char *title = NULL;
	if (!b || !n || !cli_load_all(b) || !cli_load_all(n))
		goto out;
	if (asprintf(&title, "%s -> %s", cd->base_path, cd->new_path) < 0)
		title = NULL;
	struct diff_request rq = {
		.metrics = (const char *const *)cd->metrics,
		.n_metrics = cd->n_metrics,
		.opt = cd->opt,
		.mark = cd->mark,
		.title = title,
	};
	enum status st = diff_open_models(b, n, &rq, &cd->model, &cd->diff,
					  &err);
	if (st == STATUS_USAGE) { /* a pair that cannot be compared */
		fprintf(stderr, "callscope %s: ", cmd);
		present_put_text(stderr, err.message ? err.message : "?");
		fputc('\n', stderr);
		error_clear(&err);
		goto out;
	}
	if (st != STATUS_OK) {
		cli_put_error(&err, "cannot compare");
		goto out;
	}
	cd->base_format = strdup(model_format(b) ? model_format(b) : "");
	cd->new_format = strdup(model_format(n) ? model_format(n) : "");
	rc = CLI_EXIT_OK;
out:
	free(title);
	model_free(b);
	model_free(n);
	error_clear(&err);
	return rc;
}

void cli_diff_close(struct cli_diff *cd)
{
	model_free(cd->model);
	cd->model = NULL;
	cd->diff = NULL;
	free(cd->base_format);
	free(cd->new_format);
	cd->base_format = cd->new_format = NULL;
}
