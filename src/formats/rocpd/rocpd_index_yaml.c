/* rocpd_index_yaml: the databases of a run's index YAML file.  rocprofv3's
 * `rocpd package` writes an index.yaml whose top-level `files:` list names
 * the run's databases (rocm-systems PR #2288); roc-optiq opens a
 * multi-node run from `rocprofiler-sdk: rocpd: files:` (notes/rocpd.md 3).
 * Entries are paths relative to the YAML's directory.  libyaml's event
 * parser is used, never its document loader: anchors and aliases are
 * refused at the first event that has one, so an alias bomb costs
 * nothing, and the nesting, the entries and the file's size are bounded.
 * Depends on core/ and libyaml only; never prints. */
#include "config.h"

#include "formats/rocpd/rocpd_index_yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "core/array.h"

bool rocpd_index_yaml_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

void rocpd_index_yaml_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

struct frame {
	bool is_map;
	bool want_key; /* a map: the next scalar is a key */
	bool target;   /* a sequence: the files: list */
	char *key;     /* a map: the key of the value being read */
};

struct parse {
	struct frame stack[ROCPD_YAML_MAX_DEPTH];
	unsigned depth;
	char **v;
	size_t n, cap;
	bool found;
	char *why;
	size_t why_size;
};

static enum status why(struct parse *p, enum status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum status why(struct parse *p, enum status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->why, p->why_size, fmt, ap);
	va_end(ap);
	return st;
}

static bool key_is(const struct frame *f, const char *k)
{
	return f->is_map && !f->want_key && f->key && strcmp(f->key, k) == 0;
}

/* Whether the value about to be read is the files: list's: `files` of
 * the top-level mapping, or of `rocprofiler-sdk: rocpd:`. */
static bool at_files(const struct parse *p)
{
	const struct frame *s = p->stack;
	if (p->depth == 1)
		return key_is(&s[0], "files");
	return p->depth == 3 && key_is(&s[0], "rocprofiler-sdk") &&
	       key_is(&s[1], "rocpd") && key_is(&s[2], "files");
}

/* A path relative to the YAML's directory, inside it. */
static const char *entry_problem(const char *s, size_t len)
{
	if (len == 0)
		return "is empty";
	if (strlen(s) != len)
		return "holds a NUL character";
	if (s[0] == '/')
		return "is an absolute path";
	for (const char *c = s; *c;) {
		size_t l = strcspn(c, "/");
		if ((l == 1 && c[0] == '.') || (l == 2 && c[0] == '.' && c[1] == '.'))
			return "has a '.' or '..' component";
		c += l;
		if (*c == '/')
			c++;
	}
	return NULL;
}

static enum status add_entry(struct parse *p, const char *s, size_t len)
{
	const char *bad = entry_problem(s, len);
	if (bad)
		return why(p, STATUS_CORRUPT, "entry %zu of the files: list %s",
			   p->n + 1, bad);
	if (p->n >= ROCPD_YAML_MAX_FILES)
		return why(p, STATUS_LIMIT,
			   "the files: list has more than %u entries",
			   ROCPD_YAML_MAX_FILES);
	if (!array_grow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v)))
		return why(p, STATUS_NOMEM, "out of memory");
	if (!(p->v[p->n] = strdup(s)))
		return why(p, STATUS_NOMEM, "out of memory");
	p->n++;
	return STATUS_OK;
}

static const unsigned char *event_anchor(const yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return e->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return e->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return e->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

/* One event; *done when the first document ended. */
static enum status on_event(struct parse *p, const yaml_event_t *e,
			    bool *done)
{
	struct frame *top = p->depth ? &p->stack[p->depth - 1] : NULL;
	if (e->type == YAML_ALIAS_EVENT || event_anchor(e))
		return why(p, STATUS_CORRUPT,
			   "anchors and aliases are not accepted (line %zu)",
			   (size_t)e->start_mark.line + 1);
	switch (e->type) {
	case YAML_SCALAR_EVENT: {
		const char *s = (const char *)e->data.scalar.value;
		size_t len = e->data.scalar.length;
		if (!top)
			return why(p, STATUS_CORRUPT,
				   "not a mapping with a files: list");
		if (top->is_map && top->want_key) {
			free(top->key);
			top->key = strndup(s, len);
			if (!top->key)
				return why(p, STATUS_NOMEM, "out of memory");
			top->want_key = false;
			return STATUS_OK;
		}
		if (top->is_map) {
			if (at_files(p))
				return why(p, STATUS_CORRUPT,
					   "files: is not a list (line %zu)",
					   (size_t)e->start_mark.line + 1);
			top->want_key = true;
			return STATUS_OK;
		}
		return top->target ? add_entry(p, s, len) : STATUS_OK;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		bool map = e->type == YAML_MAPPING_START_EVENT;
		bool target = false;
		if (!top && !map)
			return why(p, STATUS_CORRUPT,
				   "a list, not a mapping with a files: list");
		if (top && top->is_map && top->want_key)
			return why(p, STATUS_CORRUPT,
				   "a mapping key is not a string (line %zu)",
				   (size_t)e->start_mark.line + 1);
		if (top && top->target)
			return why(p, STATUS_CORRUPT,
				   "entry %zu of the files: list is not a "
				   "string",
				   p->n + 1);
		if (top && top->is_map && at_files(p)) {
			if (map)
				return why(p, STATUS_CORRUPT,
					   "files: is not a list (line %zu)",
					   (size_t)e->start_mark.line + 1);
			if (p->found)
				return why(p, STATUS_CORRUPT,
					   "two files: lists");
			target = p->found = true;
		}
		if (p->depth == ROCPD_YAML_MAX_DEPTH)
			return why(p, STATUS_LIMIT,
				   "nested deeper than %u levels",
				   ROCPD_YAML_MAX_DEPTH);
		p->stack[p->depth++] = (struct frame){
			.is_map = map, .want_key = map, .target = target};
		return STATUS_OK;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (!top)
			return STATUS_OK;
		free(top->key);
		p->depth--;
		if (p->depth)
			p->stack[p->depth - 1].want_key =
				p->stack[p->depth - 1].is_map;
		return STATUS_OK;
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_END_EVENT:
		*done = true;
		return STATUS_OK;
	default:
		return STATUS_OK;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

enum status rocpd_index_yaml_parse(const char *buf, size_t len, char ***out,
				   size_t *n, char *why_buf, size_t why_size)
{
	struct parse p = {.why = why_buf, .why_size = why_size};
	yaml_parser_t parser;
	enum status st = STATUS_OK;
	bool done = false;
	*out = NULL;
	*n = 0;
	if (why_size)
		why_buf[0] = '\0';
	if (!yaml_parser_initialize(&parser))
		return why(&p, STATUS_NOMEM, "out of memory");
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && st == STATUS_OK) {
		yaml_event_t e;
		if (!yaml_parser_parse(&parser, &e)) {
			st = why(&p, STATUS_CORRUPT, "YAML error at line %zu: %s",
				 (size_t)parser.problem_mark.line + 1,
				 parser.problem ? parser.problem : "unknown");
			break;
		}
		st = on_event(&p, &e, &done);
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&parser);
	for (unsigned i = 0; i < p.depth; i++)
		free(p.stack[i].key);
	if (st == STATUS_OK && !p.found)
		st = why(&p, STATUS_CORRUPT,
			 "no files: list (neither files: nor "
			 "rocprofiler-sdk: rocpd: files:)");
	if (st == STATUS_OK && p.n == 0)
		st = why(&p, STATUS_CORRUPT, "the files: list is empty");
	if (st == STATUS_OK) {
		/* a repeated entry: sorted copies side by side */
		char **s = malloc(p.n * sizeof(*s));
		if (!s) {
			st = why(&p, STATUS_NOMEM, "out of memory");
		} else {
			memcpy(s, p.v, p.n * sizeof(*s));
			qsort(s, p.n, sizeof(*s), cmp_str);
			for (size_t i = 1; i < p.n && st == STATUS_OK; i++)
				if (strcmp(s[i - 1], s[i]) == 0)
					st = why(&p, STATUS_CORRUPT,
						 "the files: list names '%.80s' "
						 "twice",
						 s[i]);
			free(s);
		}
	}
	if (st != STATUS_OK) {
		rocpd_index_yaml_free(p.v, p.n);
		return st;
	}
	*out = p.v;
	*n = p.n;
	return STATUS_OK;
}

/* The whole file, at most ROCPD_YAML_MAX_BYTES, NUL-terminated. */
static enum status read_all(const char *path, char **out, size_t *len,
			    struct error *err)
{
	struct stat sb;
	enum status st = STATUS_OK;
	char *buf = NULL;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return error_set(err, errno == ENOENT ? STATUS_NOT_FOUND
						      : STATUS_IO,
				 path, "cannot open: %s", strerror(errno));
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		st = error_set(err, STATUS_IO, path, "not a regular file");
		goto out;
	}
	if ((uint64_t)sb.st_size > ROCPD_YAML_MAX_BYTES) {
		st = error_set(err, STATUS_LIMIT, path,
			       "run index file larger than %u bytes",
			       ROCPD_YAML_MAX_BYTES);
		goto out;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	while (got < (size_t)sb.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			st = error_set(err, STATUS_IO, path, "read error");
			goto out;
		}
		got += (size_t)r;
	}
	buf[got] = '\0';
out:
	close(fd);
	if (st != STATUS_OK) {
		free(buf);
		return st;
	}
	*out = buf;
	*len = got;
	return STATUS_OK;
}

enum status rocpd_index_yaml_read(const char *path, char ***out, size_t *n,
				  struct error *err)
{
	char *buf = NULL, **names = NULL, **v = NULL;
	size_t len = 0, k = 0;
	char problem[160];
	*out = NULL;
	*n = 0;
	enum status st = read_all(path, &buf, &len, err);
	if (st != STATUS_OK)
		return st;
	st = rocpd_index_yaml_parse(buf, len, &names, &k, problem,
				    sizeof(problem));
	free(buf);
	if (st != STATUS_OK)
		return error_set(err, st, path, "run index file: %s", problem);
	const char *slash = strrchr(path, '/');
	int dir_len = slash ? (int)(slash - path) : 1;
	const char *dir = slash ? path : ".";
	if (slash == path)
		dir_len = 0; /* "/index.yaml" */
	v = calloc(k, sizeof(*v));
	if (!v) {
		st = error_set(err, STATUS_NOMEM, path, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < k; i++) {
		struct stat sb;
		if (asprintf(&v[i], "%.*s/%s", dir_len, dir, names[i]) < 0) {
			v[i] = NULL;
			st = error_set(err, STATUS_NOMEM, path,
				       "out of memory");
			goto out;
		}
		if (stat(v[i], &sb) != 0) {
			st = error_set(err, STATUS_NOT_FOUND, path,
				       "run index file lists '%.200s', which "
				       "does not exist",
				       names[i]);
			goto out;
		}
		if (!S_ISREG(sb.st_mode)) {
			st = error_set(err, STATUS_NOT_DATABASE, path,
				       "run index file lists '%.200s', which "
				       "is not a file",
				       names[i]);
			goto out;
		}
	}
out:
	rocpd_index_yaml_free(names, k);
	if (st != STATUS_OK) {
		rocpd_index_yaml_free(v, k);
		return st;
	}
	*out = v;
	*n = k;
	return STATUS_OK;
}
