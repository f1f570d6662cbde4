/* cmd_listing: `callscope listing DB PROCEDURE [--format text|json]`:
 * dcpilist's procedure listing for a DCPI profile.  Every instruction of
 * the procedure, disassembled from the program's ELF image (Capstone),
 * with its samples per event (the exclusive columns: samples fall on
 * addresses; a sample inside an instruction counts for it) and their
 * percent of the procedure's total, source lines
 * interleaved where DWARF gives them, the hottest instruction of the first
 * event marked `>`.  PROCEDURE is a function name as the tree shows it;
 * the first such function of the first image that has it.  Must not
 * depend on curses or on ui/. */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/sanitize.h"
#include "formats/dcpi/dcpi_listing.h"

struct addr_counts {
	uint64_t addr;
	uint32_t node;
};

struct row {
	uint64_t addr;
	char *bytes, *text, *file;
	uint32_t line;
};

struct listing {
	const struct model *m;
	uint32_t *cols; /* the exclusive columns */
	size_t ncols;
	struct addr_counts *addrs; /* sorted by address */
	size_t naddrs;
	double *totals;
	size_t hottest; /* row */
	bool has_hottest;
	struct row *rows;
	double *vals; /* per row: ncols values (+1: never 0 bytes) */
	size_t nrows, caprows;
	bool failed;
};

static int addr_cmp(const void *a, const void *b)
{
	const struct addr_counts *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The first sampled address at or after `addr`. */
static size_t first_at(const struct listing *l, uint64_t addr)
{
	size_t lo = 0, hi = l->naddrs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->addrs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double value_at(const struct listing *l, uint32_t node, size_t c)
{
	double v = 0;
	if (node == MODEL_NONE || !model_value(l->m, node, l->cols[c], &v))
		return 0;
	return v;
}

/* Keep each instruction (copied) and its samples: those of every sampled
 * address inside it (a sample inside an instruction is not dropped). */
static void emit(void *ctx, const struct dcpi_insn *in)
{
	struct listing *l = ctx;
	if (l->failed)
		return;
	if (l->nrows == l->caprows) {
		size_t nc = l->caprows ? l->caprows * 2 : 64;
		struct row *nr = realloc(l->rows, nc * sizeof(*nr));
		double *nv = realloc(l->vals, nc * (l->ncols + 1) * sizeof(*nv));
		if (nr)
			l->rows = nr;
		if (nv)
			l->vals = nv;
		if (!nr || !nv) {
			l->failed = true;
			return;
		}
		l->caprows = nc;
	}
	struct row *r = &l->rows[l->nrows];
	*r = (struct row){.addr = in->addr, .line = in->line};
	r->bytes = strdup(in->bytes);
	r->text = strdup(in->text);
	r->file = in->file ? strdup(in->file) : NULL;
	double *v = l->vals + l->nrows * (l->ncols + 1);
	l->nrows++;
	if (!r->bytes || !r->text || (in->file && !r->file)) {
		l->failed = true;
		return;
	}
	for (size_t c = 0; c < l->ncols; c++)
		v[c] = 0;
	for (size_t i = first_at(l, in->addr);
	     i < l->naddrs && l->addrs[i].addr - in->addr < in->size; i++)
		for (size_t c = 0; c < l->ncols; c++)
			v[c] += value_at(l, l->addrs[i].node, c);
}

static void put_text_rows(const struct listing *l)
{
	const char *last_file = NULL;
	uint32_t last_line = 0;
	for (size_t i = 0; i < l->nrows; i++) {
		const struct row *r = &l->rows[i];
		const double *v = l->vals + i * (l->ncols + 1);
		if (r->file && r->line &&
		    (r->line != last_line || !last_file ||
		     strcmp(r->file, last_file) != 0)) {
			fputs("  ", stdout);
			cli_put_text(stdout, r->file);
			printf(":%" PRIu32 "\n", r->line);
			last_line = r->line;
			last_file = r->file;
		}
		for (size_t c = 0; c < l->ncols; c++) {
			double pct = l->totals[c] > 0
					     ? 100.0 * v[c] / l->totals[c]
					     : 0;
			printf("%12.0f %6.1f%% ", v[c], pct);
		}
		putchar(l->has_hottest && i == l->hottest ? '>' : ' ');
		printf(" %" PRIx64 ":  %-24s ", r->addr, r->bytes);
		cli_put_text(stdout, r->text);
		putchar('\n');
	}
}

static json_t *json_rows(const struct listing *l)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < l->nrows; i++) {
		const struct row *r = &l->rows[i];
		const double *v = l->vals + i * (l->ncols + 1);
		json_t *o = json_object(), *vals = json_array();
		char addr[32];
		snprintf(addr, sizeof(addr), "0x%" PRIx64, r->addr);
		for (size_t c = 0; vals && c < l->ncols; c++)
			json_array_append_new(vals, json_real(v[c]));
		if (!o || !vals ||
		    json_object_set_new(o, "address", json_string(addr)) ||
		    json_object_set_new(o, "bytes", json_string(r->bytes)) ||
		    json_object_set_new(o, "text", cli_json_text(r->text)) ||
		    json_object_set_new(o, "file", cli_json_text(r->file)) ||
		    json_object_set_new(o, "line",
					r->line ? json_integer(r->line)
						: json_null()) ||
		    json_object_set_new(o, "values", vals) ||
		    json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int cmd_listing(int argc, char **argv);
int cmd_listing(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	enum cli_format format = CLI_FORMAT_TEXT;
	struct model *m = NULL;
	struct listing l = {0};
	struct error err = {0};
	char *name = NULL;
	json_t *root = NULL;
	int rc = CLI_EXIT_OK, c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!cli_parse_format("listing", optarg, 5, &format))
				return CLI_EXIT_USAGE;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		default:
			fprintf(stderr, "Try 'callscope --help'.\n");
			return CLI_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "callscope listing: expected a database and a "
				"procedure\n");
		return CLI_EXIT_USAGE;
	}
	const char *proc = argv[optind + 1];
	m = cli_open_all((const char *const *)argv + optind, 1);
	if (!m)
		return CLI_EXIT_DATA;
	if (strcmp(m->format, "dcpi") != 0) {
		fprintf(stderr, "callscope listing: %s is a %s database; "
				"listings are for DCPI profiles\n",
			argv[optind], m->format);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	uint32_t fn = MODEL_NONE;
	for (uint32_t i = 1; i < m->n_nodes && fn == MODEL_NONE; i++)
		if (m->nodes[i].kind == NODE_FUNCTION &&
		    strcmp(model_str(m, m->nodes[i].name), proc) == 0)
			fn = i;
	if (fn == MODEL_NONE) {
		fputs("callscope listing: no procedure ", stderr);
		cli_put_text(stderr, proc);
		fputs(" in the profile\n", stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	l.m = m;
	l.cols = calloc(m->n_columns + 1, sizeof(*l.cols));
	l.totals = calloc(m->n_columns + 1, sizeof(*l.totals));
	/* the function's addresses: every address node below it (under
	 * lines and inlined calls); nodes below a node have larger indices
	 * and the model's depths, so one forward scan finds them */
	size_t cap = 64;
	l.addrs = malloc(cap * sizeof(*l.addrs));
	if (!l.cols || !l.totals || !l.addrs)
		goto nomem;
	for (uint32_t k = 0; k < m->n_columns; k++)
		if (m->columns[k].kind == COLUMN_EXCLUSIVE)
			l.cols[l.ncols++] = k;
	for (uint32_t n = fn + 1;
	     n < m->n_nodes && m->nodes[n].depth > m->nodes[fn].depth; n++) {
		const struct model_node *nd = &m->nodes[n];
		uint32_t up = n;
		while (up != MODEL_NONE && m->nodes[up].depth > m->nodes[fn].depth)
			up = m->nodes[up].parent;
		if (up != fn || nd->kind != NODE_ADDRESS)
			continue;
		if (l.naddrs == cap) {
			struct addr_counts *na =
				realloc(l.addrs, 2 * cap * sizeof(*na));
			if (!na)
				goto nomem;
			l.addrs = na;
			cap *= 2;
		}
		l.addrs[l.naddrs++] = (struct addr_counts){nd->offset, n};
	}
	if (l.naddrs)
		qsort(l.addrs, l.naddrs, sizeof(*l.addrs), addr_cmp);
	for (size_t i = 0; i < l.naddrs; i++)
		for (size_t k = 0; k < l.ncols; k++)
			l.totals[k] += value_at(&l, l.addrs[i].node, k);
	const char *image = model_str(m, m->nodes[fn].module);
	uint64_t entry = 0, size = 0;
	enum status st = dcpi_listing(image, m->nodes[fn].offset, &name,
				      &entry, &size, emit, &l, &err);
	if (st != STATUS_OK) {
		char *line = error_format(&err);
		fputs("callscope: ", stderr);
		cli_put_text(stderr, line ? line : status_message(st));
		fputc('\n', stderr);
		free(line);
		rc = CLI_EXIT_DATA;
		goto out;
	}
	if (l.failed)
		goto nomem;
	/* the hottest instruction of the first event */
	double best = 0;
	for (size_t i = 0; l.ncols && i < l.nrows; i++)
		if (l.vals[i * (l.ncols + 1)] > best) {
			best = l.vals[i * (l.ncols + 1)];
			l.hottest = i;
			l.has_hottest = true;
		}
	if (format != CLI_FORMAT_JSON) {
		fputs("Procedure ", stdout);
		cli_put_text(stdout, proc);
		fputs(" in ", stdout);
		cli_put_text(stdout, image);
		putchar('\n');
		for (size_t k = 0; k < l.ncols; k++) {
			char *t = cli_column_title(m, l.cols[k]);
			printf("%12.12s %7s ", t ? t : "?", "%");
			free(t);
		}
		printf("  address   bytes                     instruction\n");
		put_text_rows(&l);
	} else {
		char buf[32];
		root = json_object();
		json_t *cols = json_array(), *tot = json_array();
		if (!root || !cols || !tot) {
			json_decref(cols);
			json_decref(tot);
			goto nomem;
		}
		for (size_t k = 0; k < l.ncols; k++) {
			char *t = cli_column_title(m, l.cols[k]);
			json_array_append_new(cols, cli_json_text(t));
			json_array_append_new(tot, json_real(l.totals[k]));
			free(t);
		}
		json_object_set_new(root, "procedure", cli_json_text(name));
		json_object_set_new(root, "image", cli_json_text(image));
		snprintf(buf, sizeof(buf), "0x%" PRIx64, entry);
		json_object_set_new(root, "entry", json_string(buf));
		json_object_set_new(root, "size", json_integer((json_int_t)size));
		json_object_set_new(root, "columns", cols);
		json_object_set_new(root, "totals", tot);
		if (l.has_hottest) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64,
				 l.rows[l.hottest].addr);
			json_object_set_new(root, "hottest", json_string(buf));
		} else {
			json_object_set_new(root, "hottest", json_null());
		}
		json_t *rows = json_rows(&l);
		if (!rows)
			goto nomem;
		json_object_set_new(root, "instructions", rows);
		if (!cli_put_json(stdout, root, JSON_INDENT(1)))
			goto nomem;
		putchar('\n');
	}
	if (cli_value_error(m))
		rc = CLI_EXIT_DATA;
	goto out;
nomem:
	fputs("callscope listing: out of memory\n", stderr);
	rc = CLI_EXIT_DATA;
out:
	json_decref(root);
	for (size_t i = 0; i < l.nrows; i++) {
		free(l.rows[i].bytes);
		free(l.rows[i].text);
		free(l.rows[i].file);
	}
	free(l.rows);
	free(l.vals);
	free(name);
	free(l.cols);
	free(l.totals);
	free(l.addrs);
	model_free(m);
	return rc;
}
