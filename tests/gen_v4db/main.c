/* gen-v4db's command line: usage, options, the output directory's setup
 * and cleanup, and main, which runs the writers in order. */

#include "config.h"

#include "gen.h"

static void usage(FILE *f)
{
	fputs("usage: gen-v4db -o DIR [--seed N] [--contexts N] [--fanout N] [--depth N] [--metrics N]\n"
	      "                [--threads N] [--ranks N] [--trace-lines N] [--empty-lines N] [--samples N]\n"
	      "                [--no-trace] [--no-cct] [--yaml] [--sources] [--demo] [--title TEXT]\n"
	      "                [--answers FILE] [--hostile] [--depth-chain N] [--cycle] [--names FILE]\n"
	      "                [--short-summary] [--scale X]\n"
	      "Writes a synthetic HPCToolkit v4 database into DIR; --answers writes the expected\n"
	      "values (JSON) computed by the generator itself; --sources writes copies of the\n"
	      "application's source files under DIR/src (as hpcprof does).\n"
	      "Hostile inputs: --hostile gives every function, file, module, identifier kind,\n"
	      "entry point and metric name and the title terminal escape sequences (OSC, CSI,\n"
	      "C1 CSI), C0 controls, DEL or invalid UTF-8, or makes it 10,000 characters long;\n"
	      "--names FILE lists every name written as \"KIND HEX\" lines.  --depth-chain N\n"
	      "makes the tree one chain of N nested contexts; --cycle makes the last context's\n"
	      "children point back at the first context (a cyclic tree readers must refuse).\n"
	      "--scale X multiplies every value by X (runs whose values follow a known law).\n"
	      "--short-summary writes the summary's execution Sum as 3/4 of the sum over threads\n"
	      "below the root (hpcprof's lex_aware values at outer loops are smaller than it).\n",
	      f);
}

enum {
	OPT_SEED = 256,
	OPT_CONTEXTS,
	OPT_FANOUT,
	OPT_DEPTH,
	OPT_METRICS,
	OPT_THREADS,
	OPT_RANKS,
	OPT_TRACE_LINES,
	OPT_EMPTY_LINES,
	OPT_SAMPLES,
	OPT_NO_TRACE,
	OPT_NO_CCT,
	OPT_YAML,
	OPT_DEMO,
	OPT_TITLE,
	OPT_SOURCES,
	OPT_ANSWERS,
	OPT_HOSTILE,
	OPT_CHAIN,
	OPT_CYCLE,
	OPT_NAMES,
	OPT_SHORT_SUMMARY,
	OPT_SCALE,
	OPT_HELP,
};

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "contexts", required_argument, NULL, OPT_CONTEXTS },
	{ "fanout", required_argument, NULL, OPT_FANOUT },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "ranks", required_argument, NULL, OPT_RANKS },
	{ "trace-lines", required_argument, NULL, OPT_TRACE_LINES },
	{ "empty-lines", required_argument, NULL, OPT_EMPTY_LINES },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "no-cct", no_argument, NULL, OPT_NO_CCT },
	{ "yaml", no_argument, NULL, OPT_YAML },
	{ "demo", no_argument, NULL, OPT_DEMO },
	{ "sources", no_argument, NULL, OPT_SOURCES },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "answers", required_argument, NULL, OPT_ANSWERS },
	{ "hostile", no_argument, NULL, OPT_HOSTILE },
	{ "depth-chain", required_argument, NULL, OPT_CHAIN },
	{ "cycle", no_argument, NULL, OPT_CYCLE },
	{ "names", required_argument, NULL, OPT_NAMES },
	{ "short-summary", no_argument, NULL, OPT_SHORT_SUMMARY },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end = NULL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	if (!parse_u64(s, max, &v) || v < min)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* The options that only set a field: counts within their bounds,
 * switches, texts.  false when C is none of them; *ok false for a count
 * that does not parse. */
static bool parse_field(int c, struct options *o, bool *ok)
{
	const struct {
		int opt;
		uint32_t *field, min, max;
	} counts[] = {
		{OPT_CONTEXTS, &o->contexts, 1, 50000000},
		{OPT_FANOUT, &o->fanout, 1, 1000},
		{OPT_DEPTH, &o->depth, 1, 10000},
		{OPT_METRICS, &o->metrics, 1, GEN_MAX_METRICS},
		{OPT_THREADS, &o->threads, 1, GEN_MAX_THREADS},
		{OPT_RANKS, &o->ranks, 1, GEN_MAX_THREADS},
		{OPT_TRACE_LINES, &o->trace_lines, 0, UINT32_MAX},
		{OPT_EMPTY_LINES, &o->empty_lines, 0, UINT32_MAX},
		{OPT_CHAIN, &o->chain, 1, 50000000},
	};
	const struct {
		int opt;
		bool *field, value;
	} switches[] = {
		{OPT_NO_TRACE, &o->trace, false},
		{OPT_NO_CCT, &o->cct, false},
		{OPT_SOURCES, &o->sources, true},
		{OPT_YAML, &o->yaml, true},
		{OPT_HOSTILE, &o->hostile, true},
		{OPT_CYCLE, &o->cycle, true},
		{OPT_SHORT_SUMMARY, &o->short_summary, true},
	};
	const struct {
		int opt;
		const char **field;
	} texts[] = {
		{'o', &o->out_dir},
		{OPT_TITLE, &o->title},
		{OPT_ANSWERS, &o->answers},
		{OPT_NAMES, &o->names},
	};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i].opt == c) {
			*ok = parse_u32(optarg, counts[i].min, counts[i].max, counts[i].field);
			return true;
		}
	for (size_t i = 0; i < sizeof(switches) / sizeof(switches[0]); i++)
		if (switches[i].opt == c) {
			*switches[i].field = switches[i].value;
			return true;
		}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].opt == c) {
			*texts[i].field = optarg;
			return true;
		}
	return false;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){
		.seed = 1,
		.samples = 1000,
		.contexts = 200,
		.fanout = 4,
		.depth = 40,
		.metrics = 2,
		.threads = 2,
		.ranks = 2,
		.trace = true,
		.cct = true,
		.title = NULL,
		.scale = 1.0,
	};
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--demo") == 0) {
			o->demo = true;
			o->contexts = 2500;
			o->metrics = 3;
			o->threads = 4;
			o->ranks = 2;
			o->samples = 40000;
			o->yaml = true;
			o->sources = true;
			o->title = "callscope demo";
			o->empty_lines = 0;
		}
	int c, which = -1;
	bool ok = true;
	while ((c = getopt_long(argc, argv, "o:h", long_options, &which)) != -1) {
		switch (c) {
		case OPT_SEED:
			ok = parse_u64(optarg, UINT64_MAX >> 1, &o->seed);
			break;
		case OPT_SAMPLES:
			ok = parse_u64(optarg, 1ULL << 40, &o->samples);
			break;
		case OPT_DEMO:
			break;
		case OPT_SCALE: {
			char *end = NULL;
			o->scale = strtod(optarg, &end);
			ok = end != optarg && *end == '\0' && o->scale > 0;
		}
			break;
		case 'h':
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			if (parse_field(c, o, &ok))
				break;
			usage(stderr);
			return -1;
		}
		if (!ok) {
			fprintf(stderr, "gen-v4db: bad value for --%s: %s\n", which >= 0 ? long_options[which].name : "?",
				optarg);
			return -1;
		}
	}
	if (o->out_dir == NULL || optind != argc) {
		usage(stderr);
		return -1;
	}
	/* answers are JSON (valid UTF-8 only) with context depths, and
	 * METRICS.yaml cannot carry invalid UTF-8 */
	if (o->hostile && (o->answers != NULL || o->yaml)) {
		fprintf(stderr, "gen-v4db: --hostile names cannot go into --answers or --yaml\n");
		return -1;
	}
	if (o->chain > UINT16_MAX && o->answers != NULL) {
		fprintf(stderr, "gen-v4db: --answers needs a --depth-chain of at most %u\n", UINT16_MAX);
		return -1;
	}
	if ((uint64_t)o->threads * o->ranks > GEN_MAX_THREADS) {
		fprintf(stderr, "gen-v4db: at most %d threads in total\n", GEN_MAX_THREADS);
		return -1;
	}
	return 0;
}

static uint64_t file_size(const struct gen *g, const char *name)
{
	char *path = NULL;
	struct stat st;
	uint64_t size = 0;
	if (asprintf(&path, "%s/%s", g->opt.out_dir, name) >= 0 && stat(path, &st) == 0)
		size = (uint64_t)st.st_size;
	free(path);
	return size;
}

/* A disabled output must not survive from an earlier run into DIR. */
static void remove_stale(const struct gen *g, const char *name, bool wanted)
{
	char *path = NULL;
	if (!wanted && asprintf(&path, "%s/%s", g->opt.out_dir, name) >= 0)
		unlink(path);
	free(path);
}

static int setup(struct gen *g)
{
	uint32_t M = g->opt.metrics;
	g->n_metrics = M;
	g->n_threads = g->opt.threads * g->opt.ranks;
	g->metric_names = calloc(M, sizeof(char *));
	if (g->metric_names == NULL)
		return -1;
	size_t n_base = sizeof base_metric_names / sizeof base_metric_names[0];
	for (uint32_t m = 0; m < M; m++) {
		char *base = NULL;
		int r = m < n_base ? asprintf(&base, "%s", base_metric_names[m])
				   : asprintf(&base, "PAPI_NATIVE_%u", m);
		if (r < 0)
			return -1;
		g->metric_names[m] = name_variant(g, base, m);
		free(base);
		if (g->metric_names[m] == NULL)
			return -1;
	}
	if (build_funcs(g) < 0 || build_names(g) < 0 || build_tree(g) < 0 || assign_ids(g) < 0)
		return -1;
	size_t TM = (size_t)g->n_threads * M;
	for (int s = 0; s < GEN_N_SCOPES; s++) {
		g->slot[s] = calloc(TM * g->max_stack, sizeof(double));
		if (g->slot[s] == NULL)
			return -1;
	}
	g->prof_nvals = calloc(g->n_threads + 1, sizeof(uint64_t));
	g->prof_nctxs = calloc(g->n_threads + 1, sizeof(uint64_t));
	g->global_exec = calloc(TM, sizeof(double));
	g->global_stats = calloc((size_t)M * GEN_N_STATS, sizeof(double));
	if (g->prof_nvals == NULL || g->prof_nctxs == NULL || g->global_exec == NULL || g->global_stats == NULL)
		return -1;
	if (g->opt.answers != NULL) {
		g->hot = calloc(g->n_nodes, sizeof(double));
		g->func_excl = calloc(g->n_funcs, sizeof(double));
		g->probes = json_array();
		if (g->hot == NULL || g->func_excl == NULL || g->probes == NULL)
			return -1;
		g->answers = fopen(g->opt.answers, "w");
		if (g->answers == NULL) {
			fprintf(stderr, "gen-v4db: %s: %s\n", g->opt.answers, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void teardown(struct gen *g)
{
	for (uint32_t i = 0; g->funcs != NULL && i < g->n_funcs; i++)
		free(g->funcs[i].name);
	free(g->funcs);
	for (int t = 0; t < GEN_TIERS; t++)
		free(g->tier_funcs[t]);
	for (uint32_t m = 0; g->metric_names != NULL && m < g->n_metrics; m++)
		free(g->metric_names[m]);
	free(g->metric_names);
	for (uint32_t i = 0; i < GEN_N_MODULES; i++)
		free(g->module_paths[i]);
	for (uint32_t i = 0; g->file_names != NULL && i < g->n_files; i++)
		free(g->file_names[i]);
	free(g->file_names);
	for (size_t i = 0; i < sizeof id_names / sizeof id_names[0]; i++)
		free(g->kind_names[i]);
	free(g->entry_names[0]);
	free(g->entry_names[1]);
	free(g->title);
	free(g->nodes);
	for (int s = 0; s < GEN_N_SCOPES; s++)
		free(g->slot[s]);
	free(g->prof_nvals);
	free(g->prof_nctxs);
	free(g->global_exec);
	free(g->global_stats);
	free(g->hot);
	free(g->func_excl);
	json_decref(g->probes);
	if (g->answers != NULL)
		fclose(g->answers);
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	int rc = 1;
	if (parse_options(argc, argv, &g.opt) < 0)
		return 2;
	char *default_title = NULL;
	if (g.opt.title == NULL) {
		if (asprintf(&default_title, "gen-v4db seed %" PRIu64, g.opt.seed) < 0)
			return 1;
		g.opt.title = default_title;
	}
	if (mkdir(g.opt.out_dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen-v4db: %s: %s\n", g.opt.out_dir, strerror(errno));
		goto out;
	}
	if (setup(&g) < 0) {
		fprintf(stderr, "gen-v4db: out of memory or cannot set up\n");
		goto out;
	}
	remove_stale(&g, "cct.db", g.opt.cct);
	remove_stale(&g, "trace.db", g.opt.trace);
	if (write_meta(&g) < 0 || write_cct_and_count(&g) < 0 || write_profile(&g) < 0)
		goto out;
	if (g.opt.trace && write_trace(&g) < 0)
		goto out;
	if (g.opt.yaml && write_yaml(&g) < 0)
		goto out;
	if (g.opt.sources && write_sources(&g) < 0) {
		fprintf(stderr, "gen-v4db: cannot write the source copies under %s/src\n",
			g.opt.out_dir);
		goto out;
	}
	if (g.opt.names != NULL && write_names(&g) < 0)
		goto out;
	if (g.answers != NULL) {
		if (finish_answers(&g) < 0 || ferror(g.answers)) {
			fprintf(stderr, "gen-v4db: cannot write %s\n", g.opt.answers);
			goto out;
		}
		int e = fclose(g.answers);
		g.answers = NULL;
		if (e != 0)
			goto out;
	}
	printf("gen-v4db: %s: %u contexts (max id %u), %u metrics, %u profiles; meta.db %" PRIu64
	       " bytes, profile.db %" PRIu64 ", cct.db %" PRIu64 ", trace.db %" PRIu64 "\n",
	       g.opt.out_dir, g.n_nodes, g.max_id, g.n_metrics, g.n_threads + 1, file_size(&g, "meta.db"),
	       file_size(&g, "profile.db"), file_size(&g, "cct.db"), file_size(&g, "trace.db"));
	rc = 0;
out:
	teardown(&g);
	free(default_title);
	return rc;
}
