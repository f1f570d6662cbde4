/* reader: the registry of format readers: the table, the choice of the
 * highest bidder on a probe, and the texts generated from the table (the
 * formats in --help and in the "not a database" message).  The probe
 * itself is read by probe.c; and the parameters in a run's name, as
 * Extra-P's directory sets name their points (asked of the reader that
 * reads such names).  Depends on core/ and model/ only. */
#include "config.h"

#include "core/path.h"
#include "core/array.h"
#include "formats/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct reader reader_hpctoolkit_v4;
extern const struct reader reader_hpctoolkit_xml;
extern const struct reader reader_cube;
extern const struct reader reader_rocpd;
extern const struct reader reader_dcpi;
extern const struct reader reader_nsight;
extern const struct reader reader_extrap_text;
extern const struct reader reader_extrap_talpas;
extern const struct reader reader_extrap_json;
extern const struct reader reader_extrap_jsonl;
extern const struct reader reader_extrap_cubeset;
extern const struct reader reader_extrap_nsight;
extern const struct reader reader_extrap_prof;
extern const struct reader reader_extrap_experiment;
extern const struct reader reader_extrap3;
extern const struct reader reader_otf2;

static const struct reader *const readers[] = {
	&reader_hpctoolkit_v4,
	&reader_hpctoolkit_xml,
	&reader_cube,
	&reader_rocpd,
	&reader_dcpi,
	&reader_nsight,
	&reader_extrap_text,
	&reader_extrap_talpas,
	&reader_extrap_json,
	&reader_extrap_jsonl,
	&reader_extrap_cubeset,
	&reader_extrap_nsight,
	&reader_extrap_prof,
	&reader_extrap_experiment,
	&reader_extrap3,
	&reader_otf2,
	NULL,
};

const struct reader *const *reader_all(void)
{
	return readers;
}

static const char *const cap_names[] = {
#define READER_CAP_NAME(code, name, text) name,
	READER_CAP_LIST(READER_CAP_NAME)
#undef READER_CAP_NAME
};
static const char *const cap_texts[] = {
#define READER_CAP_TEXT(code, name, text) text,
	READER_CAP_LIST(READER_CAP_TEXT)
#undef READER_CAP_TEXT
};

const char *reader_cap_name(unsigned bit)
{
	return bit < READER_CAP_COUNT ? cap_names[bit] : NULL;
}

const char *reader_cap_text(unsigned bit)
{
	return bit < READER_CAP_COUNT ? cap_texts[bit] : NULL;
}

const struct reader *reader_choose(const struct reader_probe *p)
{
	const struct reader *best = NULL;
	int best_bid = 0;
	for (const struct reader *const *r = readers; *r; r++) {
		int bid = (*r)->bid(p, best_bid);
		if (bid > best_bid) {
			best_bid = bid;
			best = *r;
		}
	}
	return best;
}

int reader_bid_path(const struct reader *r, const char *path)
{
	struct reader_probe *p = NULL;
	struct error err = {0};
	int bid = 0;
	if (reader_probe_read(path, &p, &err) == STATUS_OK)
		bid = r->bid(p, 0);
	reader_probe_free(p);
	error_clear(&err);
	return bid;
}

enum status reader_open_path(const struct reader *r, const char *path,
			     struct model **out, struct error *err)
{
	struct reader_input in = {.paths = &path, .n_paths = 1};
	return r->open(&in, out, err);
}

void reader_cache_list_free(struct reader_cache_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].path);
		free(e[i].first);
	}
	free(e);
}

/* True when a reader before `r` in the table lists the same directory. */
static bool cache_listed(const struct reader *const *r)
{
	for (const struct reader *const *q = readers; q != r; q++)
		if ((*q)->cache_list && (*q)->cache_name &&
		    strcmp((*q)->cache_name, (*r)->cache_name) == 0)
			return true;
	return false;
}

enum status reader_cache_list(const char *root,
			      struct reader_cache_entry **out, size_t *n,
			      struct error *err)
{
	*out = NULL;
	*n = 0;
	for (const struct reader *const *r = readers; *r; r++) {
		if (!(*r)->cache_list || !(*r)->cache_name || cache_listed(r))
			continue;
		struct reader_cache_entry *e = NULL, *all;
		size_t k = 0;
		char *dir = path_join(root, (*r)->cache_name);
		enum status st = STATUS_NOMEM;
		if (dir)
			st = (*r)->cache_list(dir, &e, &k, err);
		free(dir);
		if (st == STATUS_NOMEM && err->status == STATUS_OK)
			error_set(err, STATUS_NOMEM, root, "out of memory");
		if (st == STATUS_OK && k &&
		    !(all = realloc(*out, (*n + k) * sizeof(*all))))
			st = error_set(err, STATUS_NOMEM, root,
				       "out of memory");
		if (st != STATUS_OK) {
			reader_cache_list_free(e, k);
			reader_cache_list_free(*out, *n);
			*out = NULL;
			*n = 0;
			return st;
		}
		if (k) {
			memcpy(all + *n, e, k * sizeof(*e));
			*out = all;
			*n += k;
		}
		free(e);
	}
	return STATUS_OK;
}

/* ---- reader options ------------------------------------------------ */

/* The command-line flags that stand for a reader option. */
static const struct {
	const char *flag, *reader, *key;
	bool value; /* the flag takes a value; else the option is "yes" */
} flag_options[] = {
	{"align-clocks", "gpu", "align-clocks", false},
	{"kernel-names", "gpu", "kernel-names", true},
	{"image-path", "dcpi", "image-path", true},
};

/* Options the registry takes for a reader that does not parse its own
 * yet (the DCPI reader's folder is being reworked: review 7.2 item 4). */
static enum status dcpi_option(void *state, const char *key,
			       const char *value, struct error *err)
{
	(void)state;
	if (strcmp(key, "image-path") != 0)
		return error_set(err, STATUS_USAGE, NULL,
				 "dcpi: no option '%s' (dcpi takes "
				 "image-path=DIR)",
				 key);
	if (!*value)
		return error_set(err, STATUS_USAGE, NULL,
				 "dcpi:image-path expects a directory");
	return STATUS_OK;
}
static const char *const dcpi_names[] = {"dcpi", NULL};
static const struct reader bridged[] = {
	{.name = "dcpi", .option_names = dcpi_names, .option = dcpi_option},
};
#define N_BRIDGED (sizeof(bridged) / sizeof(bridged[0]))

static bool answers(const struct reader *r, const char *name)
{
	for (const char *const *n = r->option_names; n && *n; n++)
		if (strcmp(*n, name) == 0)
			return true;
	return false;
}

enum status reader_option_parse(char *text, struct reader_option *out,
				struct error *err)
{
	char *colon = strchr(text, ':');
	char *eq = colon ? strchr(colon + 1, '=') : NULL;
	if (!colon || !eq || colon == text || eq == colon + 1)
		return error_set(err, STATUS_USAGE, NULL,
				 "option '%s': expected READER:KEY=VALUE",
				 text);
	*colon = '\0';
	*eq = '\0';
	*out = (struct reader_option){text, colon + 1, eq + 1};
	return STATUS_OK;
}

bool reader_flag_option(const char *flag, const char *value,
			struct reader_option *out)
{
	for (size_t i = 0; i < sizeof(flag_options) / sizeof(flag_options[0]);
	     i++)
		if (strcmp(flag, flag_options[i].flag) == 0) {
			*out = (struct reader_option){
				flag_options[i].reader, flag_options[i].key,
				flag_options[i].value ? value : "yes"};
			return true;
		}
	return false;
}

int reader_flag_arity(const char *flag)
{
	for (size_t i = 0; i < sizeof(flag_options) / sizeof(flag_options[0]);
	     i++)
		if (strcmp(flag, flag_options[i].flag) == 0)
			return flag_options[i].value ? 1 : 0;
	return -1;
}

/* "a, b, c": every name options may be addressed to, each once. */
static void known_names(char *buf, size_t len)
{
	size_t w = 0;
	buf[0] = '\0';
	const char *seen[64];
	size_t n_seen = 0;
	for (size_t k = 0; k < 2; k++) {
		size_t n = k ? N_BRIDGED : sizeof(readers) / sizeof(readers[0]) - 1;
		for (size_t i = 0; i < n; i++) {
			const struct reader *r = k ? &bridged[i] : readers[i];
			for (const char *const *nm = r->option_names; nm && *nm;
			     nm++) {
				bool dup = false;
				for (size_t j = 0; j < n_seen && !dup; j++)
					dup = strcmp(seen[j], *nm) == 0;
				if (dup || n_seen == 64)
					continue;
				seen[n_seen++] = *nm;
				int m = snprintf(buf + w, len - w, "%s%s",
						 w ? ", " : "", *nm);
				if (m < 0 || (size_t)m >= len - w)
					return;
				w += (size_t)m;
			}
		}
	}
}

enum status reader_options_check(const struct reader_option *list, size_t n,
				 struct error *err)
{
	for (size_t i = 0; i < n; i++) {
		const struct reader_option *o = &list[i];
		bool taken = false;
		for (size_t k = 0; k < 2; k++) {
			size_t m = k ? N_BRIDGED
				     : sizeof(readers) / sizeof(readers[0]) - 1;
			for (size_t j = 0; j < m; j++) {
				const struct reader *r =
					k ? &bridged[j] : readers[j];
				if (!r->option || !answers(r, o->reader))
					continue;
				taken = true;
				enum status st =
					r->option(NULL, o->key, o->value, err);
				if (st != STATUS_OK)
					return st;
			}
		}
		if (!taken) {
			char names[256];
			known_names(names, sizeof(names));
			return error_set(err, STATUS_USAGE, NULL,
					 "option %s:%s=%s: no reader takes "
					 "options named '%s' (options are "
					 "for %s)",
					 o->reader, o->key, o->value, o->reader,
					 names);
		}
	}
	return STATUS_OK;
}

enum status reader_options_apply(const struct reader *r,
				 const struct reader_options *o, void *state,
				 struct error *err)
{
	if (!o || !r->option)
		return STATUS_OK;
	for (size_t i = 0; i < o->n; i++) {
		if (!answers(r, o->list[i].reader))
			continue;
		enum status st = r->option(state, o->list[i].key,
					   o->list[i].value, err);
		if (st != STATUS_OK)
			return st;
	}
	return STATUS_OK;
}

bool reader_takes_option(const char *name, const char *key,
			 const char *value)
{
	for (const struct reader *const *r = readers; *r; r++) {
		if (strcmp((*r)->name, name) != 0 || !(*r)->option)
			continue;
		struct error err = {0};
		enum status st = (*r)->option(NULL, key, value, &err);
		error_clear(&err);
		return st == STATUS_OK;
	}
	return false;
}

enum status reader_options_image_path(const struct reader_option *list,
				      size_t n, const char ***out,
				      size_t *n_out, struct error *err)
{
	*out = NULL;
	*n_out = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(list[i].reader, "dcpi") != 0 ||
		    strcmp(list[i].key, "image-path") != 0)
			continue;
		const char **v = realloc(*out, (*n_out + 1) * sizeof(*v));
		if (!v) {
			free(*out);
			*out = NULL;
			*n_out = 0;
			return error_set(err, STATUS_NOMEM, NULL,
					 "out of memory");
		}
		v[(*n_out)++] = list[i].value;
		*out = v;
	}
	return STATUS_OK;
}

bool reader_point_params(const char *name, char ***names, double **values,
			 uint32_t *n)
{
	for (const struct reader *const *r = reader_all(); *r; r++)
		if ((*r)->point_params)
			return (*r)->point_params(name, names, values, n);
	return false;
}

void reader_point_params_free(char **names, double *values, uint32_t n)
{
	array_free_each(names, n);
	free(values);
}
