/* remote_list: what a directory URL holds, as its server lists it: the
 * autoindex page of the directory and of its subdirectories (down to
 * REMOTE_LIST_DEPTH, at most REMOTE_LIST_DIRS pages), each name checked
 * with url_cache_name_ok before it becomes a path; and the plan a
 * directory was fetched by, recorded in its cache entry (BASE/plan: one
 * "FLAGS NAME" line per file) so that the next open can revalidate
 * without listing and --offline knows which files were read by range.
 * Must not print, exit, or depend on curses or ui/. */
#include "config.h"

#include "core/path.h"
#include "core/strbuf.h"
#include "net/remote_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "net/listing.h"
#include "net/url_cache.h"

void remote_files_free(struct remote_file *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}

static void names_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void remote_listing_clear(struct remote_listing *l)
{
	names_free(l->files, l->n_files);
	names_free(l->dirs, l->n_dirs);
	names_free(l->listed, l->n_listed);
	*l = (struct remote_listing){0};
}

/* Append `name` (taken) to v; false when out of memory. */
static bool take(char ***v, size_t *n, size_t *cap, char *name)
{
	if (!name || !array_grow((void **)v, cap, *n + 1, sizeof(**v))) {
		free(name);
		return false;
	}
	(*v)[(*n)++] = name;
	return true;
}

struct tree {
	struct remote_listing *l;
	size_t cap_files, cap_dirs, cap_listed;
};

static enum status nomem(struct error *err)
{
	return error_set(err, STATUS_NOMEM, NULL, "out of memory");
}

/* An sftp:// directory as libcurl lists it, one "ls -l" line per entry
 * ("drwxr-xr-x 2 me me 4096 Nov 28 00:10 metrics"): the name after the
 * eighth field, a directory when the line starts with 'd', a file with
 * '-'; links and the rest left out. */
static enum status parse_ls(const char *text, size_t len,
			    struct listing_entry **out, size_t *n,
			    struct error *err)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (size_t at = 0; at < len;) {
		const char *line = text + at;
		const char *nl = memchr(line, '\n', len - at);
		size_t ll = nl ? (size_t)(nl - line) : len - at;
		at += ll + 1;
		if (ll && line[ll - 1] == '\r')
			ll--;
		if (!ll || (line[0] != 'd' && line[0] != '-'))
			continue;
		size_t i = 0;
		for (int field = 0; field < 8 && i < ll; field++) {
			while (i < ll && line[i] != ' ')
				i++;
			while (i < ll && line[i] == ' ')
				i++;
		}
		if (i >= ll)
			continue;
		char *name = strndup(line + i, ll - i);
		if (name && (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)) {
			free(name);
			continue;
		}
		if (!name || !array_grow((void **)out, &cap, *n + 1,
					 sizeof(**out))) {
			free(name);
			listing_free(*out, *n);
			*out = NULL;
			*n = 0;
			return nomem(err);
		}
		(*out)[(*n)++] = (struct listing_entry){name, line[0] == 'd'};
	}
	return STATUS_OK;
}

/* The page of directory `sub` ("" or "a/b/"): its names into the tree
 * (files and subdirectories as "sub" + name), `sub` into listed.  A page
 * the server does not have (404) is no listing, and no error. */
static enum status list_page(struct job *j, struct tree *t, const char *sub,
			     struct error *err)
{
	char *url = NULL, *page = NULL;
	size_t len = 0, n = 0;
	struct listing_entry *ents = NULL;
	struct remote_listing *l = t->l;
	enum status st = http_url_child(j->url, sub, &url, err);
	if (st == STATUS_OK)
		st = http_get_memory(j->s, url, REMOTE_PAGE_MAX, &page, &len,
				     err);
	if (st == STATUS_NOT_FOUND) {
		error_clear(err);
		st = STATUS_OK;
		goto out;
	}
	if (st != STATUS_OK)
		goto out;
	/* the redacted URL: resolves links as well, and names the page in
	 * messages without a password */
	char *shown = http_url_redact(url);
	if (http_url_scheme(url) == HTTP_SCHEME_SFTP)
		st = parse_ls(page, len, &ents, &n, err);
	else
		st = shown ? listing_parse(page, len, shown, j->o->cancel,
					   &ents, &n, err)
			   : nomem(err);
	free(shown);
	size_t sl = strlen(sub);
	char *dir = st == STATUS_OK ? strndup(sub, sl ? sl - 1 : 0) : NULL;
	if (st == STATUS_OK &&
	    !take(&l->listed, &l->n_listed, &t->cap_listed, dir))
		st = nomem(err);
	for (size_t i = 0; st == STATUS_OK && i < n; i++) {
		char *name = remote_join(sub, ents[i].name);
		if (name && !url_cache_name_ok(name)) {
			free(name);
			continue;
		}
		if (l->n_files + l->n_dirs >= REMOTE_MAX_FILES) {
			free(name);
			char *r = http_url_redact(url);
			st = error_set(err, STATUS_LIMIT, r ? r : "URL",
				       "the listing names more than %d files",
				       REMOTE_MAX_FILES);
			free(r);
		} else if (ents[i].is_dir
				   ? !take(&l->dirs, &l->n_dirs, &t->cap_dirs,
					   name)
				   : !take(&l->files, &l->n_files,
					   &t->cap_files, name)) {
			st = nomem(err);
		}
	}
out:
	listing_free(ents, n);
	free(page);
	free(url);
	return st;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t depth_of(const char *rel)
{
	size_t d = 1;
	for (; *rel; rel++)
		d += *rel == '/';
	return d;
}

enum status remote_list_tree(struct job *j, struct remote_listing *out,
			     struct error *err)
{
	*out = (struct remote_listing){0};
	struct tree t = {.l = out};
	enum status st = list_page(j, &t, "", err);
	/* breadth first: out->dirs grows as pages are read */
	for (size_t i = 0; st == STATUS_OK && i < out->n_dirs &&
			   i < REMOTE_LIST_DIRS;
	     i++) {
		if (depth_of(out->dirs[i]) > REMOTE_LIST_DEPTH)
			continue;
		char *sub = remote_join(out->dirs[i], "/");
		st = sub ? list_page(j, &t, sub, err) : nomem(err);
		free(sub);
	}
	if (st != STATUS_OK) {
		remote_listing_clear(out);
		return st;
	}
	if (out->n_files > 1)
		qsort(out->files, out->n_files, sizeof(*out->files), by_string);
	return STATUS_OK;
}

/* ---- the recorded plan ---------------------------------------------- */

bool remote_plan_read(const struct job *j, struct remote_file **out,
		      size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!j->base)
		return false;
	char *path = path_join(j->base, "plan");
	FILE *f = path ? fopen(path, "re") : NULL;
	free(path);
	if (!f)
		return false;
	char line[4200];
	size_t cap = 0;
	bool ok = true;
	while (ok && fgets(line, sizeof(line), f)) {
		char *end = NULL;
		unsigned long flags = strtoul(line, &end, 10);
		size_t len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		ok = end && *end == ' ' && flags <= 0xffff &&
		     url_cache_name_ok(end + 1) &&
		     array_grow((void **)out, &cap, *n + 1, sizeof(**out));
		char *name = ok ? strdup(end + 1) : NULL;
		ok = ok && name;
		if (ok)
			(*out)[(*n)++] = (struct remote_file){name,
							      (unsigned)flags};
	}
	fclose(f);
	if (!ok || *n == 0) {
		remote_files_free(*out, *n);
		*out = NULL;
		*n = 0;
		return false;
	}
	return true;
}

enum status remote_plan_write(const struct job *j,
			      const struct remote_file *v, size_t n,
			      struct error *err)
{
	if (!j->base)
		return STATUS_OK;
	struct strbuf b = {0};
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&b, "%u %s\n", v[i].flags, v[i].name);
	size_t len = b.len;
	char *text = strbuf_take(&b);
	char *path = path_join(j->base, "plan");
	enum status st = STATUS_OK;
	if (!text || !path) {
		st = nomem(err);
		goto out;
	}
	st = url_cache_write_atomic(path, text, len, err);
out:
	free(text);
	free(path);
	return st;
}
