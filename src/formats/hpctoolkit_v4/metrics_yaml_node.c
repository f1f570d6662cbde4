/* metrics_yaml_node: the METRICS.yaml reader's dealings with libyaml
 * nodes that carry state: the first error (with its line), the step
 * budget every walk draws on, and mapping look-ups that follow merge keys
 * (`<<: *x`) to a bounded depth.  Must not depend on curses or on another
 * format. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/hpctoolkit_v4/metrics_yaml_internal.h"

bool my_fail(struct ctx *c, enum status st, const yaml_node_t *at,
	     const char *fmt, ...)
{
	if (c->status != STATUS_OK)
		return false;
	va_list ap;
	va_start(ap, fmt);
	c->status = error_vset(c->err, st, c->name, false, 0, fmt, ap);
	va_end(ap);
	if (at && c->err && c->err->message)
		error_wrap_message(c->err, st, c->name, "%s (line %zu)",
				   c->err->message, line_of(at));
	return false;
}

bool my_nomem(struct ctx *c)
{
	return my_fail(c, STATUS_NOMEM, NULL, "out of memory");
}

bool my_step(struct ctx *c, const yaml_node_t *at)
{
	if (c->status != STATUS_OK)
		return false;
	if (++c->steps > STEP_BUDGET)
		return my_fail(c, STATUS_LIMIT, at, "too much alias expansion");
	return true;
}

static const char *type_name(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a sequence";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

/* The text of scalar `n`, the value of `key` in mapping `map` (cut at an
 * embedded NUL), or NULL with an error. */
char *my_scalar_dup(struct ctx *c, const yaml_node_t *n, const char *key,
		    const yaml_node_t *map)
{
	if (!n) {
		my_fail(c, STATUS_CORRUPT, map, "'%s': missing", key);
		return NULL;
	}
	if (!is_scalar(n)) {
		my_fail(c, STATUS_CORRUPT, n,
			"'%s': expected a string, found %s", key, type_name(n));
		return NULL;
	}
	char *s = strndup((const char *)n->data.scalar.value,
			  n->data.scalar.length);
	if (!s)
		my_nomem(c);
	return s;
}

/* The value of `key` in mapping `map`, following merge keys (`<<: *x`,
 * `<<: [*x, *y]`); explicit keys win over merged ones.  NULL when absent. */
static yaml_node_t *map_get_depth(struct ctx *c, yaml_node_t *map,
				  const char *key, unsigned depth)
{
	if (!map || map->type != YAML_MAPPING_NODE || depth > MERGE_MAX_DEPTH)
		return NULL;
	yaml_node_t *merge = NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		if (!my_step(c, map))
			return NULL;
		yaml_node_t *k = node_at(c, p->key);
		if (scalar_is(k, key))
			return node_at(c, p->value);
		if (scalar_is(k, "<<"))
			merge = node_at(c, p->value);
	}
	if (!merge)
		return NULL;
	if (merge->type == YAML_MAPPING_NODE)
		return map_get_depth(c, merge, key, depth + 1);
	if (merge->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *i = merge->data.sequence.items.start;
		     i < merge->data.sequence.items.top; i++) {
			yaml_node_t *v = map_get_depth(c, node_at(c, *i), key,
						       depth + 1);
			if (v || c->status != STATUS_OK)
				return v;
		}
	}
	return NULL;
}

yaml_node_t *my_map_get(struct ctx *c, yaml_node_t *map, const char *key)
{
	return map_get_depth(c, map, key, 0);
}

bool my_expect_type(struct ctx *c, const yaml_node_t *n,
		    yaml_node_type_t type, const char *what)
{
	if (n && n->type == type)
		return true;
	return my_fail(c, STATUS_CORRUPT, n, "'%s': expected %s, found %s",
		       what,
		       type == YAML_MAPPING_NODE    ? "a mapping"
		       : type == YAML_SEQUENCE_NODE ? "a sequence"
						    : "a string",
		       type_name(n));
}

