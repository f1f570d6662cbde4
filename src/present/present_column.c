/* present_column: titles and names of columns, statistics and node kinds,
 * as every output shows them, and which column shows a metric of Cube's
 * metric tree opened or closed.  No curses here. */
#include "config.h"

#include "present/present_column.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/model_column.h"
#include "model/model_params.h"
#include "model/model_data.h"
#include "present/present_write.h"
#include "views/view.h"

uint32_t present_metric_form(const struct model *m, uint32_t column,
			     bool expanded)
{
	if (!expanded || column >= model_n_columns(m))
		return column;
	/* always after `column`: a model made by hand, whose `own` is 0,
	 * has none */
	uint32_t own = model_columns(m)[column].own;
	return own > column && own < model_n_columns(m) ? own : column;
}

char *present_column_title(const struct model *m, uint32_t column)
{
	const struct model_column *c = &model_columns(m)[column];
	const char *variant = c->variant ? c->variant : "";
	bool show_variant = *variant && strcmp(variant, "Sum") != 0;
	char *out = NULL;
	if (asprintf(&out, "%s%s%s (%s)", c->name, show_variant ? ":" : "",
		     show_variant ? variant : "",
		     c->kind == COLUMN_INCLUSIVE ? "I" : "E") < 0)
		return NULL;
	return out;
}

/* Characters (not bytes) of UTF-8 text `s`. */
static size_t text_chars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

char *present_metric_name_shown(const struct model *m, uint32_t column)
{
	static const char *const tags[] = {"sec", "s",	  "seconds", "ms",
					   "msec", "us",  "usec",    "ns",
					   "nsec", "bytes", "b"};
	const char *name = column < model_n_columns(m) && model_columns(m)[column].name
				   ? model_columns(m)[column].name
				   : "";
	enum column_unit u = model_column_unit(m, column);
	size_t n = strlen(name);
	const char *open = n > 0 && name[n - 1] == ')' ? strrchr(name, '(')
						      : NULL;
	if ((model_unit_is_time(u) || u == UNIT_BYTES) && open &&
	    open > name && open[-1] == ' ') {
		size_t len = (size_t)(name + n - 1 - (open + 1));
		for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
			if (strlen(tags[i]) == len &&
			    strncasecmp(open + 1, tags[i], len) == 0)
				return strndup(name, (size_t)(open - 1 - name));
	}
	return strdup(name);
}

char *present_column_title_fit(const struct model *m, uint32_t column,
			       size_t width)
{
	char *full = present_column_title(m, column);
	if (!full || text_chars(full) <= width)
		return full;
	const struct model_column *c = &model_columns(m)[column];
	const char *variant = c->variant ? c->variant : "";
	const char *kind = c->kind == COLUMN_INCLUSIVE ? "I" : "E";
	if (!*variant || strcmp(variant, "Sum") == 0)
		return full; /* cut at the end by the caller */
	/* "NAME~:VARIANT (I)" with the name cut, or "VARIANT (I)" */
	size_t tail = text_chars(variant) + 5; /* ":" " (I)" */
	size_t name_room = width > tail + 1 ? width - tail - 1 : 0;
	char *out = NULL;
	if (name_room >= 3) {
		size_t bytes = 0, chars = 0;
		while (c->name[bytes] && chars < name_room) {
			bytes++;
			while (((unsigned char)c->name[bytes] & 0xc0) == 0x80)
				bytes++;
			chars++;
		}
		if (asprintf(&out, "%.*s~:%s (%s)", (int)bytes, c->name,
			     variant, kind) < 0)
			out = NULL;
	} else if (asprintf(&out, "%s (%s)", variant, kind) < 0) {
		out = NULL;
	}
	if (!out)
		return full;
	free(full);
	return out;
}

const char *present_combine_name(uint8_t combine)
{
	return combine == COMBINE_MIN   ? "min"
	       : combine == COMBINE_MAX ? "max"
					: "sum";
}

json_t *present_stat_json(const struct model *m, uint32_t stat)
{
	if (stat >= model_n_stats(m))
		return json_null();
	const struct model_stat *s = &model_stats(m)[stat];
	json_t *j = json_pack("{s:o, s:o, s:o, s:s}", "metric",
			      present_json_text(model_str(m, s->metric)),
			      "scope", present_json_text(model_str(m, s->scope)),
			      "formula",
			      present_json_text(model_str(m, s->formula)),
			      "combine", present_combine_name(s->combine));
	return j ? j : json_null();
}

const char *present_kind_name(uint8_t kind)
{
	switch ((enum node_kind)kind) {
	case NODE_ROOT:
		return "root";
	case NODE_ENTRY:
		return "entry";
	case NODE_FUNCTION:
		return "function";
	case NODE_LOOP:
		return "loop";
	case NODE_LINE:
		return "line";
	case NODE_INSTRUCTION:
		return "instruction";
	case NODE_KERNEL:
		return "kernel";
	case NODE_REGION:
		return "region";
	case NODE_ADDRESS:
		return "address";
	}
	if (kind == VIEW_ROW_MODULE)
		return "module";
	if (kind == VIEW_ROW_FILE)
		return "file";
	return "unknown";
}

const char *present_measured_name(const struct model *m, uint32_t measured)
{
	uint32_t col = model_measured_column(m, measured);
	uint32_t stat = col == MODEL_NONE ? MODEL_NONE
					  : model_column_stat(m, col);
	if (stat == MODEL_NONE)
		return col == MODEL_NONE ? "" : model_columns(m)[col].name;
	return model_str(m, model_stats(m)[stat].metric);
}
