/* system_focus: per-node values over a set of contexts (see
 * system_focus.h), kept in an open-addressing table keyed by (node,
 * statistic) that doubles when half full; a statistic the reader
 * combines its own way (a Cube metric's own aggr) is folded so. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "views/system_focus.h"

struct slot {
	uint64_t key; /* (node << 32 | stat) + 1; 0: empty */
	double value;
	bool present;
};

struct system_focus {
	const struct model *m;
	uint8_t *member; /* per profile */
	size_t count;
	char *label;
	struct slot *slots;
	size_t cap, used; /* cap a power of two */
};

struct system_focus *system_focus_new(const struct model *m,
				      const uint32_t *profiles, size_t n,
				      const char *label)
{
	struct system_focus *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->m = m;
	f->member = calloc(model_n_profiles(m) ? model_n_profiles(m) : 1, 1);
	f->label = strdup(label ? label : "");
	f->cap = 256;
	f->slots = calloc(f->cap, sizeof(*f->slots));
	if (!f->member || !f->label || !f->slots) {
		system_focus_free(f);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t p = profiles[i];
		if (p < model_n_profiles(m) && !model_profiles(m)[p].is_summary &&
		    !f->member[p]) {
			f->member[p] = 1;
			f->count++;
		}
	}
	return f;
}

void system_focus_free(struct system_focus *f)
{
	if (!f)
		return;
	free(f->member);
	free(f->label);
	free(f->slots);
	free(f);
}

const char *system_focus_label(const struct system_focus *f)
{
	return f->label;
}

size_t system_focus_count(const struct system_focus *f)
{
	return f->count;
}

bool system_focus_has(const struct system_focus *f, uint32_t p)
{
	return p < model_n_profiles(f->m) && f->member[p];
}

static struct slot *find(struct slot *slots, size_t cap, uint64_t key)
{
	size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
	while (slots[i].key && slots[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static bool grow(struct system_focus *f)
{
	size_t cap = f->cap * 2;
	struct slot *s = calloc(cap, sizeof(*s));
	if (!s)
		return false;
	for (size_t i = 0; i < f->cap; i++)
		if (f->slots[i].key)
			*find(s, cap, f->slots[i].key) = f->slots[i];
	free(f->slots);
	f->slots = s;
	f->cap = cap;
	return true;
}

/* The focus's values among `vals` combined as `c` combines contexts. */
static void combine(const struct system_focus *f, enum stat_combine c,
		    const struct profile_value *vals, size_t n, double *out,
		    bool *present)
{
	double v = 0;
	size_t seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (!system_focus_has(f, vals[i].profile))
			continue;
		double w = vals[i].value;
		if (seen == 0 && c != COMBINE_SUM)
			v = w;
		else if (c == COMBINE_MIN)
			v = w < v ? w : v;
		else if (c == COMBINE_MAX)
			v = w > v ? w : v;
		else
			v += w;
		seen++;
	}
	/* a context without a value counts 0 (as in the threads pane) */
	if (seen && seen < f->count) {
		if (c == COMBINE_MIN && v > 0)
			v = 0;
		if (c == COMBINE_MAX && v < 0)
			v = 0;
	}
	*out = v;
	*present = seen > 0;
}

/* Where the reader combines the statistic's profiles its own way (a
 * Cube metric's own aggr, model_combine_profiles): every context of the
 * focus in profile order, one without a value counting 0, folded so (as
 * a group of the threads pane is).  False: not such a statistic. */
static bool combine_own(const struct system_focus *f, uint32_t stat,
			const struct profile_value *vals, size_t n,
			double *out, bool *present)
{
	double probe;
	if (!model_combine_profiles(f->m, stat, NULL, 0, &probe))
		return false;
	double *x = malloc((f->count + 1) * sizeof(*x));
	size_t k = 0, seen = 0, i = 0; /* vals are sorted by profile */
	for (uint32_t p = 0; x && p < model_n_profiles(f->m); p++) {
		while (i < n && vals[i].profile < p)
			i++;
		if (!f->member[p])
			continue;
		bool has = i < n && vals[i].profile == p;
		x[k++] = has ? vals[i].value : 0;
		seen += has;
	}
	*present = x && seen > 0 &&
		   model_combine_profiles(f->m, stat, x, k, out);
	free(x);
	return true;
}

enum status system_focus_value(struct system_focus *f, uint32_t node,
			       uint32_t stat, double *out, bool *present,
			       struct error *err)
{
	const struct model *m = f->m;
	*out = 0;
	*present = false;
	if (node >= model_n_nodes(m) || stat >= model_n_stats(m))
		return error_set(err, STATUS_USAGE, model_path(m),
				 "no such node or statistic");
	uint64_t key = ((uint64_t)node << 32 | stat) + 1;
	struct slot *s = find(f->slots, f->cap, key);
	if (s->key) {
		*out = s->value;
		*present = s->present;
		return STATUS_OK;
	}
	struct profile_value *vals = NULL;
	size_t n = 0;
	enum status st = model_per_profile(m, node, stat, &vals, &n, err);
	if (st != STATUS_OK)
		return st;
	if (!combine_own(f, stat, vals, n, out, present))
		combine(f, model_stats(m)[stat].combine, vals, n, out, present);
	free(vals);
	if (2 * (f->used + 1) > f->cap && !grow(f))
		return STATUS_OK; /* not kept: read again next time */
	s = find(f->slots, f->cap, key);
	*s = (struct slot){key, *out, *present};
	f->used++;
	return STATUS_OK;
}
