/* reader: the registry of format readers: the table, the choice of the
 * highest bidder on a probe, and the texts generated from the table (the
 * formats in --help and in the "not a database" message).  The probe
 * itself is read by probe.c.  Depends on core/ and model/ only. */
#include "config.h"

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
extern const struct reader reader_extrap_experiment;
extern const struct reader reader_extrap3;

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
	&reader_extrap_experiment,
	&reader_extrap3,
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
		char *dir = NULL;
		enum status st = STATUS_NOMEM;
		if (asprintf(&dir, "%s/%s", root, (*r)->cache_name) < 0)
			dir = NULL;
		else
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

char *reader_descriptions(const char *sep)
{
	size_t len = 1;
	for (const struct reader *const *r = readers; *r; r++)
		len += strlen((*r)->description) + strlen(sep);
	char *out = malloc(len), *w = out;
	if (!out)
		return NULL;
	*w = '\0';
	for (const struct reader *const *r = readers; *r; r++)
		w += sprintf(w, "%s%s", r == readers ? "" : sep,
			     (*r)->description);
	return out;
}
