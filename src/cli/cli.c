/* cli: dispatch of the batch commands and the usage text.  Must not depend
 * on curses or on ui/. */
#include "config.h"

#include "cli/cli.h"

#include <string.h>

#include "formats/reader.h"

int cmd_info(struct session *s, int argc, char **argv);
int cmd_report(struct session *s, int argc, char **argv);
int cmd_hotpath(struct session *s, int argc, char **argv);
int cmd_trace(struct session *s, int argc, char **argv);
int cmd_fetch(struct session *s, int argc, char **argv);
int cmd_cache(struct session *s, int argc, char **argv);
int cmd_formats(struct session *s, int argc, char **argv);
int cmd_listing(struct session *s, int argc, char **argv);
int cmd_points(struct session *s, int argc, char **argv);
int cmd_model(struct session *s, int argc, char **argv);
int cmd_stats(struct session *s, int argc, char **argv);
int cmd_diff(struct session *s, int argc, char **argv);
int cmd_check(struct session *s, int argc, char **argv);
int cmd_compare(struct session *s, int argc, char **argv);
int cmd_export(struct session *s, int argc, char **argv);

static const struct {
	const char *name;
	int (*run)(struct session *s, int argc, char **argv);
	const char *usage;
} commands[] = {
	{"info", cmd_info, "info    DB... [--format text|json]"},
	{"report", cmd_report,
	 "report  DB... [--view top-down|bottom-up|flat] [--metric NAME]... "
	 "[--depth N]\n"
	 "                     [--min-percent P] [--format text|csv|json] "
	 "[--at P=V,...]"},
	{"hotpath", cmd_hotpath,
	 "hotpath DB... [--metric NAME] [--threshold PCT] [--format text|json]"},
	{"trace", cmd_trace,
	 "trace   DB... [--lines LIST] (--at T [--span D] | --from T --to T "
	 "(--columns W | --stats))\n"
	 "                     [--depth D] [--gpu-lines queue|stream|all] "
	 "[--format text|json]"},
	{"listing", cmd_listing, "listing DB PROCEDURE [--format text|json]"},
	{"points", cmd_points,
	 "points  SET... [--metric NAME] [--format text|json]"},
	{"model", cmd_model,
	 "model   SET... [--metric NAME] [--measure mean|median|minimum|maximum]\n"
	 "                     [--stored N|NAME] [--format text|json]"},
	{"stats", cmd_stats,
	 "stats   DB... [--kind kernel|api|copy|range|...] "
	 "[--format text|csv|json]"},
	{"diff", cmd_diff,
	 "diff    BASE NEW [--match path|function] [--metric M|BASE=NEW]...\n"
	 "                     [--view top-down|flat] [--depth N] "
	 "[--format text|csv|json]"},
	{"check", cmd_check,
	 "check   BASE NEW | BASE... -- NEW... [--metric M] [--threshold PCT]\n"
	 "                     [--min-share PCT] [--format "
	 "text|json|markdown|junit]"},
	{"compare", cmd_compare,
	 "compare RUN... [--param NAME=VALUE[,...]]... [--metric M]...\n"
	 "                     [--match path|function] [--scope "
	 "inclusive|exclusive] [--depth N]\n"
	 "                     [--format text|csv|json]"
	 "\n"
	 "                     [--model [--measure "
	 "mean|median|minimum|maximum]]"},
	{"export", cmd_export,
	 "export  DB... --to folded|speedscope|pprof|chrome-trace [-o FILE]\n"
	 "                     "
	 "[--metric NAME]..."},
	{"fetch", cmd_fetch, "fetch   URL [-o DIR]"},
	{"cache", cmd_cache, "cache   list [--format text|json] | clear | dir"},
	{"formats", cmd_formats, "formats [--format text|json]"},
};

void cli_put_item(FILE *out, const char *name, const char *text)
{
	enum { INDENT = 18, WIDTH = 79 };
	int col = fprintf(out, "  %-*s", INDENT - 3, name);
	if (col >= INDENT)
		col += fprintf(out, " ");
	else
		col += fprintf(out, "%*s", INDENT - col, "");
	const char *p = text;
	while (*p) {
		size_t word = strcspn(p, " ");
		if (col > INDENT && col + 1 + (int)word > WIDTH) {
			col = fprintf(out, "\n%*s", INDENT, "") - 1;
		} else if (col > INDENT) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", (int)word, p);
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void cli_usage(FILE *out)
{
	fputs("Usage: callscope [DB...]\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "       callscope %s\n", commands[i].usage);
	fputs("\nDB is a database (a directory or a file of one) in one of "
	      "these formats:\n", out);
	for (const struct reader *const *r = reader_all(); *r; r++)
		cli_put_item(out, (*r)->name, (*r)->description);
	fputs("Several DB paths open as one run where the format merges them\n"
	      "(`callscope formats` lists what each format holds).  DB may be "
	      "an archive\nof a database (.tar, .tar.gz, .tar.xz, .tar.zst, "
	      ".zip; ARCHIVE/INNER picks one\nof several) or a URL: http://, "
	      "https://, file://, sftp://, scp:// (a\ndirectory URL ends in "
	      "'/').  Options for "
	      "URLs, accepted everywhere:\n"
	      "  --no-cache      download to a temporary directory removed "
	      "at exit; keep no\n                  index of a GPU run\n"
	      "  --align-clocks  GPU runs of several hosts: start each host "
	      "at the run's\n                  first event (clocks are "
	      "independent)\n"
	      "  --kernel-names base|demangled|mangled\n"
	      "                  GPU runs: name kernels by their demangled "
	      "name (default,\n                  as nsys stats), base name "
	      "or mangled name\n"
	      "  --offline       use the cache only, never the network\n"
	      "  --download      download every file (never read large files "
	      "remotely)\n"
	      "  --insecure      do not verify TLS certificates\n"
	      "  --netrc         take credentials from ~/.netrc\n"
	      "  --max-size N    refuse files larger than N bytes (K, M, G "
	      "suffixes)\n"
	      "  --image-path DIR  where profiled programs' ELF images are "
	      "(DCPI; repeatable)\n"
	      "  --option READER:KEY=VALUE\n"
	      "                  an option of the readers READER names (the "
	      "three above are\n                  gpu:align-clocks=yes, "
	      "gpu:kernel-names=NAME, dcpi:image-path=DIR)\n"
	      "fetch downloads only and prints where; cache list|clear|dir "
	      "manages\n$XDG_CACHE_HOME/callscope.  Ctrl-C or Esc cancels a "
	      "transfer.\n"
	      "Without DB, callscope opens the demo database.\n"
	      "--metric takes a metric name (all its columns), \"NAME (I)\" or "
	      "\"NAME (E)\",\n\"NAME:VARIANT\", a column index, or \"all\"; "
	      "see `callscope info DB`.\n"
	      "Times are nanoseconds as stored, or +N[ns|us|ms|s] from the "
	      "trace start.\n"
	      "Exit status: 0 success, 1 usage error, 2 unreadable "
	      "database.\n",
	      out);
}

int cli_run(struct session *s, int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			return commands[i].run(s, argc, argv);
	return -1;
}
