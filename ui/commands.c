/* commands: the ":" command line and the configuration language.  The
 * prompt accepts exactly the lines of a configuration file (`set`, `bind`,
 * `color`, `theme`, `source`), read by the one parser (config_file.c) into
 * the one configuration and applied by the one function that applies the
 * file at start (app_apply_config), with options from the one table below;
 * besides those, a few commands of the viewer (quit, depth, metric/sort,
 * view, derive, export, compare (compare.c), help; `threshold N` is `set
 * threshold = N`). */
#include "config.h"

#include "hub.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "present/present_derived.h"
#include "present/present_rows.h"
#include "core/array.h"
#include "core/sanitize.h"
#include "core/strbuf.h"
#include "formats/reader.h"
#include "extrap.h"
#include "uninstalled.h"

/* ---- options ---------------------------------------------------------- */

enum option_type {
	OPTION_PERCENT,
	OPTION_BOOL,
	OPTION_SEVERITY,
	OPTION_MEASURE,
};

static const struct {
	const char *name;
	enum option_type type;
	size_t offset; /* in struct column_set */
} options[] = {
	{"threshold", OPTION_PERCENT, offsetof(struct column_set, threshold)},
	{"show-bars", OPTION_BOOL, offsetof(struct column_set, show_bars)},
	/* the models' severity (extrap.h), not in the column set */
	{"severity", OPTION_SEVERITY, 0},
	/* the statistic the models are fitted on (extrap.h) */
	{"measure", OPTION_MEASURE, 0},
};

/* Set option `name` to `value`; NULL, or what is wrong. */
static const char *option_set(struct app *app, const char *name,
			      const char *value)
{
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		if (strcmp(options[i].name, name) != 0)
			continue;
		char *field = (char *)&app->cols + options[i].offset;
		if (options[i].type == OPTION_SEVERITY) {
			if (strcmp(value, "value") != 0 &&
			    strcmp(value, "growth") != 0)
				return "takes value or growth";
			if (app->extrap)
				extrap_set_severity(app->extrap, value);
			return NULL;
		}
		if (options[i].type == OPTION_MEASURE) {
			enum measure_kind k;
			struct error err = {0};
			if (!model_measure_parse(value, &k))
				return "takes mean, median, minimum or maximum";
			if (app->extrap &&
			    !extrap_set_measure(app->extrap, k, &err))
				app_error(app, &err);
			return NULL;
		}
		if (options[i].type == OPTION_PERCENT) {
			char *end;
			double v = strtod(value, &end);
			if (end == value || *end || !(v >= 0 && v <= 100))
				return "takes a percentage 0-100";
			memcpy(field, &v, sizeof(v));
			return NULL;
		}
		bool yes = strcmp(value, "yes") == 0 ||
			   strcmp(value, "true") == 0 ||
			   strcmp(value, "on") == 0 || strcmp(value, "1") == 0;
		bool no = strcmp(value, "no") == 0 ||
			  strcmp(value, "false") == 0 ||
			  strcmp(value, "off") == 0 || strcmp(value, "0") == 0;
		if (!yes && !no)
			return "takes yes or no";
		memcpy(field, &yes, sizeof(yes));
		return NULL;
	}
	return "unknown option (threshold, show-bars, severity, measure)";
}

/* Apply the options, bindings and derived columns of `c`; post its first
 * warning. */
static void apply_entries(struct app *app, const struct config *c)
{
	for (size_t i = 0; i < c->n_options; i++) {
		const struct config_option *o = &c->options[i];
		const char *problem = option_set(app, o->name, o->value);
		if (problem)
			app_message(app, true, "%s:%u: %s: %s", o->file,
				    o->line, o->name, problem);
	}
	for (size_t i = 0; i < c->n_bindings; i++) {
		const struct config_binding *b = &c->bindings[i];
		const char *problem = keymap_bind(app->keymap, b->keymap, b->key,
						  b->action);
		if (problem)
			app_message(app, true, "%s:%u: bind: %s", b->file,
				    b->line, problem);
	}
	/* a formula naming columns this database lacks (made on another
	 * one) is not shown: said once */
	size_t hidden = 0;
	char *first = NULL, *first_missing = NULL;
	for (size_t i = 0; i < c->n_derived; i++) {
		char *missing = NULL;
		if (app_add_derived(app, c->derived[i].name,
				    c->derived[i].formula, false, &missing) ||
		    !missing)
			continue;
		if (hidden++ == 0) {
			first = c->derived[i].name;
			first_missing = missing;
		} else {
			free(missing);
		}
	}
	if (hidden)
		app_message(app, false,
			    "derived column %s not shown: this database has "
			    "no column '%s'%s",
			    first, first_missing,
			    hidden > 1 ? " (and more like it)" : "");
	free(first_missing);
	if (c->n_warnings)
		app_message(app, true, "%s%s", c->warnings[0],
			    c->n_warnings > 1 ? " (and more)" : "");
}

/* What the theme left to others, for the message after `theme NAME`: the
 * roles the configuration's own `color` lines keep, and a terminal without
 * colours (a theme's colours need them). */
static void say_theme(struct app *app, const char *name)
{
	const struct config *c = &app->config;
	char kept[160] = "";
	size_t n_kept = 0, used = 0;
	for (size_t i = 0; i < c->n_colors; i++) {
		if (c->colors[i].from_theme)
			continue;
		const char *role = theme_role_name(c->colors[i].role);
		if (n_kept++ < 4 && role) {
			int w = snprintf(kept + used, sizeof(kept) - used,
					 "%s%s", used ? ", " : "", role);
			if (w > 0 && (size_t)w < sizeof(kept) - used)
				used += (size_t)w;
		}
	}
	if (n_kept)
		app_message(app, false, "theme %s; your color lines keep %s%s",
			    name, kept, n_kept > 4 ? ", ..." : "");
	else if (app->screen_on && !app->caps.colors)
		app_message(app, false, "theme %s: attributes only, this "
					"terminal shows no colours (NO_COLOR "
					"or TERM)", name);
	else
		app_message(app, false, "theme %s", name);
}

/* The theme app->config names (loaded when it changed) and its colours. */
static void apply_look(struct app *app)
{
	struct config *c = &app->config;
	struct error err = {0};
	if (c->theme && (!app->theme_loaded ||
			 strcmp(app->theme_loaded, c->theme) != 0)) {
		/* installed themes first, then those of a build tree */
		const char *theme_dirs[] = {CALLSCOPE_THEME_DIR,
					    uninstalled_themes(), NULL};
		char *name = strdup(c->theme);
		if (name &&
		    config_load_theme(c, name, theme_dirs, &err) != STATUS_OK)
			app_error(app, &err);
		else if (name && app->theme_loaded)
			say_theme(app, name);
		free(app->theme_loaded);
		app->theme_loaded = name;
	}
	if (app->screen_on)
		theme_apply(c, &app->caps);
}

void app_apply_config(struct app *app)
{
	apply_entries(app, &app->config);
	apply_look(app);
}

void app_load_config(struct app *app, bool no_config, const char *path)
{
	struct error err = {0};
	config_init(&app->config);
	/* the default colours as a theme's (a `theme` line replaces them; a
	 * `color` line of the file wins over any theme) */
	config_load_theme(&app->config, "default", NULL, &err);
	error_clear(&err);
	if (!no_config) {
		char *p = path ? strdup(path) : config_default_path();
		if (p && config_load_file(&app->config, p, &err) != STATUS_OK)
			app_error(app, &err);
		app->config_path_owned = p;
		app->config_path = p;
	}
	app_apply_config(app);
}

/* A line of the configuration language typed at the prompt: read by the
 * configuration parser, applied as the file's lines are; colours and
 * themes join the configuration (they are applied as a whole). */
static void config_line(struct app *app, const char *line)
{
	struct config tmp;
	struct error err = {0};
	config_init(&tmp);
	if (config_parse_text(&tmp, line, strlen(line), "(prompt)", &err) !=
	    STATUS_OK) {
		app_error(app, &err);
		config_free(&tmp);
		return;
	}
	free(app->message);
	app->message = NULL;
	apply_entries(app, &tmp);
	if (tmp.n_colors || tmp.theme) {
		if (config_parse_text(&app->config, line, strlen(line),
				      "(prompt)", &err) != STATUS_OK)
			app_error(app, &err);
		apply_look(app);
	}
	if (!app->message)
		app_message(app, false, "%s", line);
	config_free(&tmp);
}

/* ---- commands --------------------------------------------------------- */

static void expand_to_depth(struct app *app, uint32_t depth)
{
	struct outline *o = app_outline(app);
	struct error err = {0};
	for (size_t i = 0; i < outline_count(o); i++) {
		struct outline_row row;
		if (!outline_row_get(o, i, &row))
			break;
		if (row.depth < depth && row.has_children && !row.expanded &&
		    outline_expand(o, row.node, &err) != STATUS_OK) {
			app_error(app, &err);
			return;
		}
		if (row.depth >= depth && row.expanded)
			outline_collapse(o, row.node);
	}
	app_message(app, false, "expanded to depth %u", depth);
}

bool app_add_derived(struct app *app, const char *name, const char *text,
		     bool save, char **missing)
{
	struct error err = {0};
	struct formula *f = NULL;
	char *lacks = NULL;
	char *numbered = present_derived_numbered(app->model, text, &lacks);
	char *named = numbered ? present_derived_named(app->model, text) : NULL;
	if (!numbered || !named) {
		if (lacks && save)
			app_message(app, true,
				    "derive %s: this database has no column "
				    "'%s'",
				    name, lacks);
		if (missing && !save)
			*missing = lacks;
		else
			free(lacks);
		free(numbered);
		free(named);
		return false;
	}
	enum status st = formula_parse(numbered, &f, &err);
	free(numbered);
	if (st != STATUS_OK) {
		free(named);
		app_error(app, &err);
		return false;
	}
	/* a name defined again replaces its column */
	size_t at = 0;
	while (at < app->cols.n_derived && strcmp(app->derived[at].name, name) != 0)
		at++;
	if (at == app->cols.n_derived) {
		if (!array_grow((void **)&app->derived, &app->derived_cap,
				at + 1, sizeof(*app->derived))) {
			formula_free(f);
			free(named);
			return false;
		}
		app->derived[at] = (struct derived_column){strdup(name), NULL,
							   NULL};
		app->cols.n_derived++;
	}
	free(app->derived[at].text);
	formula_free(app->derived[at].expr);
	app->derived[at].text = named; /* by title: $N means another column
					  in another database */
	app->derived[at].expr = f;
	if (save && !app->config_path) {
		app_message(app, false, "derived column %s added (not saved: "
					"no configuration file is in use)",
			    name);
	} else if (save) {
		char *line = NULL;
		if (asprintf(&line, "derive \"%s\" = %s", name, named) >= 0 &&
		    config_append_line(app->config_path, line, &err) ==
			    STATUS_OK)
			app_message(app, false, "derived column %s added and "
						"saved to %s",
				    name, app->config_path);
		else
			app_error(app, &err);
		free(line);
	}
	return true;
}

/* `:export csv|json FILE`: the visible rows of the tree with the shown
 * columns, derived ones included, through the row writer of `callscope
 * report --format csv|json` (present_rows): the same columns, the same
 * JSON document. */
static bool export_rows(struct app *app, bool json, const char *path)
{
	size_t total = app->cols.n_columns + app->cols.n_derived;
	uint32_t *cols = malloc((total ? total : 1) * sizeof(*cols));
	struct present_rows rows = {0};
	for (size_t i = 0; cols && i < total; i++)
		cols[i] = i < app->cols.n_columns
				  ? app->columns[i]
				  : model_n_columns(app->model) +
					    (uint32_t)(i - app->cols.n_columns);
	if (!cols || !present_rows_init(&rows, app_view(app), cols, total,
					app->derived, app->cols.n_derived,
					json ? PRESENT_FORMAT_JSON
					     : PRESENT_FORMAT_CSV,
					NULL)) {
		present_rows_fini(&rows);
		free(cols);
		app_message(app, true, "export: out of memory");
		return false;
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		app_message(app, true, "%s: %s", path, strerror(errno));
		present_rows_fini(&rows);
		free(cols);
		return false;
	}
	rows.out = f;
	struct outline *o = app_outline(app);
	if (json)
		present_rows_json_open(&rows, model_format(app->model));
	else
		present_rows_header(&rows);
	size_t n = outline_count(o);
	for (size_t r = 0; r < n; r++) {
		struct outline_row row;
		if (!outline_row_get(o, r, &row))
			break;
		present_rows_put(&rows, row.node, r == 0);
	}
	if (json)
		present_rows_json_close(&rows);
	present_rows_fini(&rows);
	free(cols);
	bool ok = fclose(f) == 0;
	if (ok)
		app_message(app, false, "exported %zu rows to %s", n, path);
	else
		app_message(app, true, "%s: %s", path, strerror(errno));
	return ok;
}


/* `:metric NAME` / `:sort NAME`: show the column (first) and sort by it;
 * `:sort severity` (a column of that name first) sorts a parametric
 * database's top-down tree by the models' severity. */
static void cmd_metric(struct app *app, char *arg)
{
	uint32_t c = model_find_column(app->model, arg);
	if (c == MODEL_NONE && strcmp(arg, "severity") == 0) {
		if (!app->extrap) {
			app_message(app, true,
				    "severity: no performance models (the "
				    "database is not parametric)");
			return;
		}
		app_set_sort(app, COLUMN_SEVERITY, false, false);
		app_message(app, false, "sorted by severity (%s)%s",
			    extrap_severity_name(app->extrap),
			    app->current == VIEW_TOP_DOWN
				    ? ""
				    : "; in this view by the models' metric");
		return;
	}
	if (c == MODEL_NONE) {
		app_message(app, true, "no column '%s' (c lists them)", arg);
		return;
	}
	bool shown = false;
	for (size_t i = 0; i < app->cols.n_columns; i++)
		shown |= app->columns[i] == c;
	if (!shown)
		(void)app_insert_column(app, 0, c);
	app_set_sort(app, c, false, false);
}

static void cmd_depth(struct app *app, char *arg)
{
	char *end;
	unsigned long d = strtoul(arg, &end, 10);
	if (end == arg || *end || d > 1000)
		app_message(app, true, ":depth takes a depth 0-1000");
	else
		expand_to_depth(app, (uint32_t)d);
}

static void cmd_view(struct app *app, char *arg)
{
	enum view_kind k;
	if (view_kind_parse(arg, &k))
		app_switch_view(app, k);
	else
		app_message(app, true, "views: top-down, bottom-up, flat");
}

static void cmd_derive(struct app *app, char *arg)
{
	char *eq = strchr(arg, '=');
	if (!eq) {
		app_message(app, true,
			    ":derive NAME = FORMULA ($1 is column 1, see c)");
		return;
	}
	*eq = '\0';
	char *name = arg, *formula = eq + 1;
	size_t nl = strlen(name);
	while (nl && name[nl - 1] == ' ')
		name[--nl] = '\0';
	while (*formula == ' ')
		formula++;
	if (!*name || !*formula)
		app_message(app, true, ":derive NAME = FORMULA");
	else
		app_add_derived(app, name, formula, true, NULL);
}

static void cmd_export(struct app *app, char *arg)
{
	char *kind = strsep(&arg, " ");
	while (arg && *arg == ' ')
		arg++;
	if (!arg || !*arg ||
	    (strcmp(kind, "csv") != 0 && strcmp(kind, "json") != 0))
		app_message(app, true, ":export csv|json FILE");
	else
		export_rows(app, strcmp(kind, "json") == 0, arg);
}

static void cmd_compare(struct app *app, char *arg)
{
	app_compare(app, arg);
}

static void cmd_quit(struct app *app, char *arg)
{
	(void)arg;
	app->quit = true;
}

static void cmd_help(struct app *app, char *arg)
{
	(void)arg;
	struct pane_env env = app_env(app, true);
	const struct pane_ops *ops = pane_find_by_action(pane_registry,
							 ACTION_HELP);
	if (ops)
		app_push_pane(app, ops->new(&env));
}

/* `:threshold N`: the option, through the configuration language. */
static void cmd_threshold(struct app *app, char *arg)
{
	char *line = NULL;
	if (asprintf(&line, "set threshold = %s", arg) < 0)
		return;
	config_line(app, line);
	free(line);
}

/* Whether `arg` starts with option `name` followed by a space or '=';
 * then *rest is its value (after the spaces and '='). */
static bool option_is(const char *arg, const char *name, const char **rest)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0 || (arg[n] != ' ' && arg[n] != '='))
		return false;
	arg += n;
	while (*arg == ' ' || *arg == '=')
		arg++;
	*rest = arg;
	return true;
}

/* `:set kernel-names base|demangled|mangled` (also `= NAME`): a GPU run
 * opened again with its kernels named so (the viewer starts over on it:
 * app_run's reopen); false when `arg` is not about it. */
static bool set_kernel_names(struct app *app, const char *arg)
{
	const char *v = NULL;
	if (!option_is(arg, "kernel-names", &v))
		return false;
	const char *f = model_format(app->model);
	if (strcmp(v, "base") != 0 && strcmp(v, "demangled") != 0 &&
	    strcmp(v, "mangled") != 0)
		app_message(app, true,
			    "set kernel-names: base, demangled or mangled");
	else if (!reader_takes_option(f, "kernel-names", v))
		app_message(app, true, "set kernel-names: %s databases take "
				       "no kernel-names option (GPU runs do)", f);
	else if (!app->reopen)
		app_message(app, true, "set kernel-names: the database cannot "
				       "be opened again here; start callscope "
				       "--kernel-names %s", v);
	else if (strcmp(app->reopen->current, v) == 0)
		app_message(app, false, "kernels are named by their %s names "
				       "already", v);
	else {
		snprintf(app->reopen->names, sizeof(app->reopen->names), "%s",
			 v);
		app->quit = true;
	}
	return true;
}

/* `:set models stored N|NAME`, `:set models fitted`. */
static void set_models(struct app *app, const char *arg)
{
	const struct model *m = app->model;
	struct error err = {0};
	uint32_t set = MODEL_NONE;
	const char *which = NULL;
	if (strcmp(arg, "fitted") == 0) {
		;
	} else if (option_is(arg, "stored", &which) ||
		   strcmp(arg, "stored") == 0) {
		uint32_t n = model_n_stored_sets(m);
		if (n == 0) {
			app_message(app, true,
				    "set models: the file stores no models "
				    "(only .extra-p and Extra-P 3 files do); "
				    "the models shown are fitted");
			return;
		}
		set = extrap_find_stored(app->extrap,
					 which && *which ? which : "0");
		if (set == MODEL_NONE) {
			/* the sets, as `callscope model --stored` lists
			 * them (the status line cuts what does not fit) */
			struct strbuf sets = {0};
			for (uint32_t k = 0; k < n; k++) {
				char *name = sanitize_text(
				    model_stored_set_name(m, k),
				    SANITIZE_TERMINAL);
				strbuf_addf(&sets, "%s%u %s", k ? ", " : "", k,
					    name ? name : "");
				free(name);
			}
			char *list = strbuf_take(&sets);
			app_message(app, true,
				    "set models: no stored set '%s' (%u "
				    "stored: %s)",
				    which ? which : "", n, list ? list : "");
			free(list);
			return;
		}
	} else {
		app_message(app, true,
			    "set models: fitted, or stored N|NAME");
		return;
	}
	if (!extrap_show_stored(app->extrap, set, &err)) {
		app_error(app, &err);
		return;
	}
	char *what = extrap_models_text(app->extrap);
	if (set == MODEL_NONE)
		app_message(app, false, "models fitted on the %s",
			    what ? what : "?");
	else
		app_message(app, false, "models: %s (from the file, not fitted)",
			    what ? what : "?");
	free(what);
}

/* `:set at p=65536 n=100` (also `set at = ...`): the evaluation point of
 * a parametric database's models (extrap.h); `:set severity growth`
 * (also `set severity = growth`, as the configuration file may say it):
 * their severity's definition; `:set measure median`: the statistic of
 * the repetitions they are fitted on; `:set models stored N|NAME` or
 * `fitted`: a stored model set instead.  False when `arg` is about none
 * of them. */
static bool set_at(struct app *app, const char *arg)
{
	static const char *const names[] = {"severity", "at", "measure",
					    "models"};
	size_t which = 0, n = sizeof(names) / sizeof(names[0]);
	const char *value = NULL;
	while (which < n && !option_is(arg, names[which], &value))
		which++;
	if (which == n)
		return false;
	arg = value;
	if (!app->extrap) {
		app_message(app, true, "set %s: the database has no "
				       "performance models (not parametric)",
			    names[which]);
		return true;
	}
	if (which == 0) {
		if (extrap_set_severity(app->extrap, arg))
			app_message(app, false, "severity by %s", arg);
		else
			app_message(app, true, "set severity: value or growth");
		return true;
	}
	if (which == 2) {
		enum measure_kind k;
		struct error err = {0};
		if (!model_measure_parse(arg, &k))
			app_message(app, true,
				    "set measure: mean, median, minimum or "
				    "maximum (min, max)");
		else if (!extrap_set_measure(app->extrap, k, &err))
			app_error(app, &err);
		else
			app_message(app, false,
				    "models fitted on the %s of the "
				    "repetitions",
				    model_measure_name(k));
		return true;
	}
	if (which == 3) {
		set_models(app, arg);
		return true;
	}
	const char *problem = extrap_set_at(app->extrap, arg);
	char *at = problem ? NULL : extrap_at_text(app->extrap);
	if (problem)
		app_message(app, true, "set at: %s", problem);
	else
		app_message(app, false, "models evaluated at %s", at ? at : "");
	free(at);
	return true;
}

static const struct {
	const char *name;
	bool config; /* a line of the configuration language */
	bool needs_arg;
	void (*run)(struct app *app, char *arg);
} commands[] = {
	{"set", true, true, NULL},
	{"bind", true, true, NULL},
	{"color", true, true, NULL},
	{"source", true, true, NULL},
	{"theme", true, true, NULL},
	{"threshold", false, true, cmd_threshold},
	{"depth", false, true, cmd_depth},
	{"metric", false, true, cmd_metric},
	{"sort", false, true, cmd_metric},
	{"view", false, true, cmd_view},
	{"derive", false, true, cmd_derive},
	{"export", false, true, cmd_export},
	{"compare", false, false, cmd_compare},
	{"help", false, false, cmd_help},
	{"quit", false, false, cmd_quit},
	{"q", false, false, cmd_quit},
};

void app_command(struct app *app, const char *line)
{
	while (*line == ' ')
		line++;
	char *copy = strdup(line);
	if (!copy)
		return;
	char *arg = copy;
	char *cmd = strsep(&arg, " ");
	while (arg && *arg == ' ')
		arg++;
	if (arg && !*arg)
		arg = NULL;
	size_t i = 0, n = sizeof(commands) / sizeof(commands[0]);
	while (i < n && strcmp(commands[i].name, cmd) != 0)
		i++;
	if (!*cmd) {
		;
	} else if (i == n || (commands[i].needs_arg && !arg)) {
		app_message(app, true,
			    "%s command :%s (set, bind, color, source, theme, "
			    "metric, sort, threshold, depth, derive, export, "
			    "view, compare, help, quit)",
			    i == n ? "unknown" : "incomplete", cmd);
	} else if (strcmp(cmd, "set") == 0 &&
		   (set_kernel_names(app, arg) || set_at(app, arg))) {
		;
	} else if (commands[i].config) {
		config_line(app, line);
	} else {
		commands[i].run(app, arg);
	}
	free(copy);
}
