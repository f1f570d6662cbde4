/* main: the callscope program.  A batch command (info, report, hotpath,
 * trace) runs the engine's CLI; otherwise the viewer opens the database
 * given, or the demo database when none is. */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "app.h"
#include "partial.h"
#include "pane.h"
#include "screen.h"
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "compare/diff_view.h"
#include "net/http.h"
#include "core/path.h"
#include "core/temp_dirs.h"
#include "core/sanitize.h"
#include "demo.h"
#include "uninstalled.h"

static void usage(FILE *out)
{
	cli_usage(out);
	fputs("\nViewer options (callscope [OPTIONS] [DB]):\n"
	      "  --config FILE     read FILE instead of "
	      "$XDG_CONFIG_HOME/callscope/config\n"
	      "  --no-config       read no configuration file\n"
	      "  --headless        no terminal: replay --keys and print the "
	      "screen\n"
	      "  --size WxH        headless screen size (default 120x40)\n"
	      "  --keys SCRIPT     keys to replay: characters, <Enter>, "
	      "<Down>, <C-l>, <Resize:80x20>,\n"
	      "                    <Sleep:MS> (a pause, as a user reading),\n"
	      "                    <Scan> (wait for a partial GPU run's scan),\n"
	      "                    <Fill> (for its next partial model)\n"
	      "  --keys-file FILE  the same, from a file\n"
	      "  --dump FILE       where the screen goes (default stdout)\n"
	      "  --dump-each       print the screen after every key\n"
	      "  --timing FILE     write each key's frame time in "
	      "microseconds\n"
	      "  --no-prebuild     build the bottom-up and flat views only when "
	      "shown\n"
	      "  --compare         callscope BASE NEW --compare: the merged tree "
	      "of two runs\n"
	      "                    (base, new, delta, delta%% of the base total; "
	      "[+] new, [-] gone;\n"
	      "                    sorted by |delta|; ^ the biggest regression, "
	      "H along the delta);\n"
	      "                    callscope RUN RUN RUN... --compare: the runs as "
	      "one set\n"
	      "                    (a column per run, statistics across runs; "
	      "models when\n"
	      "                    their directory names give parameters)\n"
	      "  --list-actions    print the action table (for bind lines)\n"
	      "  --list-keymaps    print the keymaps bind accepts (from the pane "
	      "registry)\n",
	      out);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	(void)file_read_all(f, 16u << 20, &buf, &len);
	fclose(f);
	return buf;
}

/* What the command line gave the viewer. */
struct viewer_args {
	struct ui_options opt;
	char *keys_owned;
	const char *dump_path, *timing_path;
	bool compare;
};

/* The viewer's options into `va`; -1 to go on, else the exit status. */
static int parse_viewer_options(int argc, char **argv, struct viewer_args *va)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"config", required_argument, NULL, 'c'},
		{"no-config", no_argument, NULL, 'n'},
		{"headless", no_argument, NULL, 'H'},
		{"size", required_argument, NULL, 's'},
		{"keys", required_argument, NULL, 'k'},
		{"keys-file", required_argument, NULL, 'K'},
		{"dump", required_argument, NULL, 'd'},
		{"dump-each", no_argument, NULL, 'e'},
		{"timing", required_argument, NULL, 't'},
		{"list-actions", no_argument, NULL, 'l'},
		{"list-keymaps", no_argument, NULL, 'M'},
		{"no-prebuild", no_argument, NULL, 'P'},
		{"compare", no_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	struct ui_options *opt = &va->opt;
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return CLI_EXIT_OK;
		case 'V':
			puts(PACKAGE_STRING);
			return CLI_EXIT_OK;
		case 'c':
			opt->config_path = optarg;
			break;
		case 'n':
			opt->no_config = true;
			break;
		case 'H':
			opt->headless = true;
			break;
		case 's':
			if (sscanf(optarg, "%dx%d", &opt->cols, &opt->rows) != 2 ||
			    opt->cols < 10 || opt->rows < 4 || opt->cols > 1000 ||
			    opt->rows > 1000) {
				fputs("callscope: --size expects WxH, e.g. "
				      "120x40\n",
				      stderr);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'k':
			opt->keys = optarg;
			break;
		case 'K':
			free(va->keys_owned);
			va->keys_owned = read_file(optarg);
			if (!va->keys_owned) {
				fputs("callscope: cannot read ", stderr);
				present_put_text(stderr, optarg);
				fputc('\n', stderr);
				return CLI_EXIT_USAGE;
			}
			opt->keys = va->keys_owned;
			break;
		case 'd':
			va->dump_path = optarg;
			break;
		case 'e':
			opt->dump_each = true;
			break;
		case 't':
			va->timing_path = optarg;
			break;
		case 'l':
			actions_list();
			return CLI_EXIT_OK;
		case 'M': /* the keymaps bind accepts: generic, then the panes' */
			puts("generic");
			for (const struct pane_ops *const *p = pane_registry; *p;
			     p++)
				puts((*p)->name);
			return CLI_EXIT_OK;
		case 'P':
			opt->no_prebuild = true;
			break;
		case 'C':
			va->compare = true;
			break;
		default:
			fputs("Try 'callscope --help'.\n", stderr);
			return CLI_EXIT_USAGE;
		}
	}
	return -1;
}

/* The operands left make sense; -1 to go on, else the exit status. */
static int check_operands(int argc, char **argv, const struct viewer_args *va)
{
	/* several operands: databases opened as one run, when the first
	 * is one (a path or a URL); else a mistyped command */
	if (argc - optind > 1 && access(argv[optind], F_OK) != 0 &&
	    !http_is_url(argv[optind])) {
		fputs("callscope: unknown command '", stderr);
		present_put_text(stderr, argv[optind]);
		fputs("'\nTry 'callscope --help'.\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (va->compare && argc - optind < 2) {
		fputs("callscope: --compare expects two databases or more "
		      "(callscope BASE NEW --compare, callscope RUN... "
		      "--compare)\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* Headless: where the screen and the timings go; false when they
 * cannot be written. */
static bool open_dumps(struct viewer_args *va)
{
	if (!va->opt.headless)
		return true;
	va->opt.dump = va->dump_path ? fopen(va->dump_path, "w") : stdout;
	if (va->timing_path)
		va->opt.timing = fopen(va->timing_path, "w");
	if (!va->opt.dump || (va->timing_path && !va->opt.timing)) {
		fputs("callscope: cannot write the dump or timing file\n",
		      stderr);
		return false;
	}
	return true;
}

/* Not on a terminal (a pipe, a script): what the viewer would open on,
 * as text; the exit status. */
static int print_instead(struct session *session, int argc, char **argv,
			 const struct viewer_args *va, const char *db,
			 bool demo)
{
	if (demo) {
		fputs("callscope: showing the demo database ", stderr);
		present_put_text(stderr, db);
		fputc('\n', stderr);
	}
	if (va->compare && argc - optind > 2) { /* the set, as text */
		static char compare_cmd[] = "compare", depth_opt[] = "--depth",
			    depth[] = "6";
		char **cargv = calloc((size_t)(argc - optind) + 4,
				      sizeof(*cargv));
		if (!cargv)
			return CLI_EXIT_DATA;
		int n = 0;
		cargv[n++] = compare_cmd;
		for (int i = optind; i < argc; i++)
			cargv[n++] = argv[i];
		cargv[n++] = depth_opt;
		cargv[n++] = depth;
		int rc = cli_run(session, n, cargv);
		free(cargv);
		return rc;
	}
	if (va->compare) { /* the batch diff, as text */
		static char diff_cmd[] = "diff", depth_opt[] = "--depth",
			    depth[] = "6";
		char *dargv[] = {diff_cmd, argv[optind], argv[optind + 1],
				 depth_opt, depth, NULL};
		return cli_run(session, 5, dargv);
	}
	struct cli_report_options report = {
		.dbs = demo ? &db : (const char *const *)argv + optind,
		.n_dbs = demo ? 1 : (size_t)(argc - optind),
		.view = VIEW_TOP_DOWN,
		.depth = 6,
		.min_percent = 1,
		.format = PRESENT_FORMAT_TEXT,
	};
	return cli_report(session, &report);
}

/* The compare view of `diff` (its runs at `base` and `new`) in `opt`:
 * sorted by |delta|, the column the hot path follows. */
static void compare_options(struct ui_options *opt, const struct diff *diff,
			    const char *base, const char *nw)
{
	opt->diff = diff;
	opt->base_path = base;
	opt->new_path = nw;
	opt->sort_column = diff_view_delta_column(diff);
	opt->has_sort_column = true;
	opt->sort_magnitude = true;
}

/* `callscope BASE NEW --compare`: the merged tree (its view set in
 * `opt`), or NULL after saying why. */
static struct model *open_compare(struct session *session, char **argv,
				  struct ui_options *opt)
{
	struct model *m = NULL;
	struct cli_diff cd = {
		.base_path = argv[optind],
		.new_path = argv[optind + 1],
		.opt = {.match = DIFF_MATCH_PATH, .normalize = true},
		.mark = true,
	};
	if (cli_diff_open(session, "compare", &cd) == CLI_EXIT_OK) {
		m = cd.model; /* app_run takes it */
		cd.model = NULL;
		compare_options(opt, cd.diff, cd.base_path, cd.new_path);
	}
	cli_diff_close(&cd);
	return m;
}

/* The run the operands name (the demo database when none); a run that
 * takes long to open whole may come back partial, with in *later the
 * background open of the complete model (`later` NULL: complete only). */
static struct model *open_run(struct session *session, int argc, char **argv,
			      const char *db, bool demo,
			      struct open_later **later)
{
	return demo ? cli_open(session, db)
		    : cli_open_partial(session,
				       (const char *const *)argv + optind,
				       (size_t)(argc - optind), later);
}

/* The viewer on `m`, then again as long as it asks: `:set kernel-names
 * NAME` (the run opened again, the viewer run on it with the rest of the
 * key script), `:compare PATH` (on the merged tree it built); the exit
 * status. */
static int run_viewer(struct session *session, int argc, char **argv,
		      struct model *m, struct open_later *later,
		      const char *db, bool demo, struct ui_options *opt)
{
	opt->session = session;
	opt->several = !opt->diff && argc - optind > 1;
	struct ui_reopen again = {0};
	snprintf(again.current, sizeof(again.current), "%s",
		 cli_reader_flag_value("kernel-names")
			 ? cli_reader_flag_value("kernel-names")
			 : "demangled");
	opt->reader_opts = cli_reader_options(&opt->n_reader_opts);
	again.later = later;
	int rc = app_run(m, db, demo, opt, &again);
	static char names[sizeof(again.names)];
	/* the runs of a `:compare`, the new run it replaced */
	char *base = NULL, *nw = NULL, *replaced = NULL;
	while ((again.names[0] || again.compare || again.complete) &&
	       !screen_quit_signal()) {
		if (again.complete) { /* the partial model's complete one */
			m = again.complete;
		} else if (again.compare) {
			free(replaced);
			replaced = opt->diff ? strdup(opt->new_path) : NULL;
			opt->replaced = replaced;
			free(base);
			free(nw);
			base = again.base_path;
			nw = again.new_path;
			compare_options(opt, again.diff, base, nw);
			opt->several = false;
			m = again.compare;
			db = base;
			demo = false;
		} else {
			memcpy(names, again.names, sizeof(names));
			memcpy(again.current, names, sizeof(names));
			again.reopened = true;
			cli_set_reader_flag("kernel-names", names);
			m = open_run(session, argc, argv, db, demo, NULL);
		}
		if (!m) {
			rc = CLI_EXIT_DATA;
			break;
		}
		opt->keys = again.keys ? again.keys : "";
		opt->reader_opts = cli_reader_options(&opt->n_reader_opts);
		rc = app_run(m, db, demo, opt, &again);
	}
	screen_stop(); /* held for a run that did not come */
	model_free(again.compare); /* built, not shown: the quit signal */
	model_free(again.complete);
	partial_carry_free(again.carry);
	free(again.base_path == base ? NULL : again.base_path);
	free(again.new_path == nw ? NULL : again.new_path);
	free(base);
	free(nw);
	free(replaced);
	return rc;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_DFL);
	/* the URL options are global: taken out before dispatch, into the
	 * session every open and transfer of this run uses */
	struct open_options open_opts;
	open_options_init(&open_opts);
	if (!cli_take_open_options(&argc, argv, &open_opts))
		return CLI_EXIT_USAGE;
	static struct session session;
	session_init(&session, &open_opts);
	/* batch commands first: their options are their own */
	if (argc >= 2) {
		int rc = cli_run(&session, argc - 1, argv + 1);
		if (rc >= 0)
			return rc;
	}
	struct viewer_args va = {.opt = {.cols = 120, .rows = 40}};
	int rc = parse_viewer_options(argc, argv, &va);
	if (rc < 0)
		rc = check_operands(argc, argv, &va);
	bool demo = optind == argc;
	const char *db = demo ? demo_database() : argv[optind];
	if (rc < 0 && !db) {
		fputs("callscope: no database given and no demo database "
		      "found; run `make demo` or give a database path\n",
		      stderr);
		rc = CLI_EXIT_USAGE;
	}
	if (rc < 0 && !open_dumps(&va))
		rc = CLI_EXIT_USAGE;
	if (rc < 0 && !va.opt.headless &&
	    (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		rc = print_instead(&session, argc, argv, &va, db, demo);
	if (rc < 0) {
		struct open_later *later = NULL;
		struct model *m =
			va.compare && argc - optind > 2
				? cli_compare_open(&session, argv + optind,
						   (size_t)(argc - optind))
			: va.compare ? open_compare(&session, argv, &va.opt)
				     : open_run(&session, argc, argv, db, demo,
						&later);
		rc = m ? run_viewer(&session, argc, argv, m, later, db, demo,
				    &va.opt)
		       : CLI_EXIT_DATA;
		int quit_signal = screen_quit_signal();
		if (quit_signal) { /* the terminal is restored: clean up, die */
			temp_dirs_remove_all();
			signal(quit_signal, SIG_DFL);
			raise(quit_signal);
		}
	}
	if (va.opt.dump && va.opt.dump != stdout)
		fclose(va.opt.dump);
	if (va.opt.timing)
		fclose(va.opt.timing);
	free(va.keys_owned);
	return rc;
}
