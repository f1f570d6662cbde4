/* listing: the child names of a web server's autoindex page.  The page is
 * scanned once for `<a` tags (comments skipped); each tag's href is
 * entity-decoded, filtered (scheme, other host, absolute path, query,
 * fragment, parent), percent-decoded and checked; duplicates are removed
 * afterwards by sorting, keeping page order.  Depends on libc and the
 * engine's status and array helpers only; no HTML library. */
#include "listing.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

#define LISTING_MAX_PAGE ((size_t)64 << 20)
#define LISTING_MAX_ENTRIES ((size_t)1000000)
#define LISTING_MAX_NAME ((size_t)4096)

struct scan {
	const char *p;
	size_t len;
	size_t pos;
};

struct prefix {
	const char *url; /* "http://host/dir" without the trailing '/' */
	size_t url_len;
	const char *path; /* "/dir" without the trailing '/' */
	size_t path_len;
	bool has_url, has_path;
};

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static bool starts_with_ci(const char *s, size_t len, const char *word)
{
	size_t wl = strlen(word);
	if (len < wl)
		return false;
	for (size_t i = 0; i < wl; i++)
		if (lower((unsigned char)s[i]) != (unsigned char)word[i])
			return false;
	return true;
}

/* Position of `needle` at or after `from`, or `len` when absent. */
static size_t find(const char *p, size_t len, size_t from, const char *needle)
{
	size_t nl = strlen(needle);
	for (size_t i = from; i < len && nl <= len - i; i++)
		if (memcmp(p + i, needle, nl) == 0)
			return i;
	return len;
}

/* Encode code point `cp` as UTF-8 into `out`; returns the byte count, 0
 * for a value that is not a scalar value or is NUL. */
static size_t utf8_put(uint32_t cp, char *out)
{
	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Decode one character reference at s[0] == '&' (s holds len bytes) into
 * `out`.  Returns the bytes consumed (0 when it is not a reference we know:
 * the '&' is then literal) and sets *out_len. */
static size_t entity_decode(const char *s, size_t len, char *out,
			    size_t *out_len)
{
	static const struct {
		const char *name;
		char c;
	} named[] = {
		{.name = "&amp;", .c = '&'},   {.name = "&lt;", .c = '<'},
		{.name = "&gt;", .c = '>'},    {.name = "&quot;", .c = '"'},
		{.name = "&apos;", .c = '\''},
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		size_t nl = strlen(named[i].name);
		if (len >= nl && memcmp(s, named[i].name, nl) == 0) {
			out[0] = named[i].c;
			*out_len = 1;
			return nl;
		}
	}
	if (len < 4 || s[1] != '#')
		return 0;
	size_t i = 2;
	bool hex = s[i] == 'x' || s[i] == 'X';
	if (hex)
		i++;
	uint32_t cp = 0;
	size_t digits = 0;
	while (i < len && digits < 8) {
		int v = hex_value((unsigned char)s[i]);
		if (v < 0 || (!hex && v > 9))
			break;
		cp = cp * (hex ? 16u : 10u) + (uint32_t)v;
		digits++;
		i++;
	}
	if (digits == 0 || i >= len || s[i] != ';')
		return 0;
	size_t n = utf8_put(cp, out);
	if (n == 0)
		return 0;
	*out_len = n;
	return i + 1;
}

/* Entity-decode s[0..len) into a new NUL-terminated string (never longer:
 * every reference is at least as long as its UTF-8 encoding). */
static char *html_unescape(const char *s, size_t len)
{
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		size_t dl = 0;
		size_t used = s[i] == '&'
				      ? entity_decode(s + i, len - i, out + o, &dl)
				      : 0;
		if (used > 0) {
			o += dl;
			i += used;
		} else {
			out[o++] = s[i++];
		}
	}
	out[o] = '\0';
	return out;
}

/* Percent-decode in place; a '%' not followed by two hex digits stays.
 * Returns the new length (the string may now contain NUL bytes). */
static size_t percent_decode(char *s, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] == '%' && len - i >= 3) {
			int hi = hex_value((unsigned char)s[i + 1]);
			int lo = hex_value((unsigned char)s[i + 2]);
			if (hi >= 0 && lo >= 0) {
				s[o++] = (char)(hi << 4 | lo);
				i += 3;
				continue;
			}
		}
		s[o++] = s[i++];
	}
	s[o] = '\0';
	return o;
}

/* True when `s` begins with a URL scheme ("http:", "mailto:"). */
static bool has_scheme(const char *s, size_t len)
{
	if (len == 0 || !is_alpha((unsigned char)s[0]))
		return false;
	for (size_t i = 1; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ':')
			return true;
		if (!is_alpha(c) && !(c >= '0' && c <= '9') && c != '+' &&
		    c != '-' && c != '.')
			return false;
	}
	return false;
}

static struct prefix prefix_of(const char *base_name)
{
	struct prefix pre = {.has_url = false, .has_path = false};
	if (!base_name)
		return pre;
	size_t len = strcspn(base_name, "?#");
	const char *path = NULL;
	const char *sep = strstr(base_name, "://");
	if (has_scheme(base_name, len) && sep && (size_t)(sep - base_name) < len) {
		const char *slash = memchr(sep + 3, '/',
					   len - (size_t)(sep + 3 - base_name));
		pre.url = base_name;
		pre.has_url = true;
		path = slash ? slash : base_name + len;
	} else if (base_name[0] == '/' && base_name[1] != '/') {
		path = base_name;
	} else {
		return pre;
	}
	/* "/dir/" and "/dir" both list "/dir/": drop trailing slashes */
	size_t end = len;
	while (end > (size_t)(path - base_name) && base_name[end - 1] == '/')
		end--;
	pre.path = path;
	pre.path_len = end - (size_t)(path - base_name);
	pre.has_path = true;
	pre.url_len = end;
	return pre;
}

/* When `s` starts with the page's own URL or path followed by '/', the
 * rest (after that '/'), else `s`. */
static const char *strip_prefix(const struct prefix *pre, const char *s)
{
	size_t len = strlen(s);
	if (pre->has_url && len > pre->url_len &&
	    strncmp(s, pre->url, pre->url_len) == 0 && s[pre->url_len] == '/')
		return s + pre->url_len + 1;
	if (pre->has_path && s[0] == '/' && s[1] != '/' &&
	    len > pre->path_len && strncmp(s, pre->path, pre->path_len) == 0 &&
	    s[pre->path_len] == '/')
		return s + pre->path_len + 1;
	return s;
}

/* The child name an href denotes, as a new string, or NULL when the link
 * is to be dropped (or on allocation failure, told apart by *nomem). */
static char *href_child(const char *raw, size_t raw_len,
			const struct prefix *pre, bool *is_dir, bool *nomem)
{
	char *name = NULL;
	char *text = html_unescape(raw, raw_len);
	if (!text) {
		*nomem = true;
		goto out;
	}
	size_t b = 0, e = strlen(text);
	while (b < e && is_space((unsigned char)text[b]))
		b++;
	while (e > b && is_space((unsigned char)text[e - 1]))
		e--;
	text[e] = '\0';
	const char *s = strip_prefix(pre, text + b);
	if (strpbrk(s, "?#") || s[0] == '/' || s[0] == '\\' ||
	    has_scheme(s, strlen(s)))
		goto out;
	while (s[0] == '.' && s[1] == '/')
		s += 2;
	size_t len = strlen(s);
	*is_dir = len > 0 && s[len - 1] == '/';
	if (*is_dir)
		len--;
	if (len == 0 || memchr(s, '/', len))
		goto out;
	name = malloc(len + 1);
	if (!name) {
		*nomem = true;
		goto out;
	}
	memcpy(name, s, len);
	name[len] = '\0';
	len = percent_decode(name, len);
	bool bad = len == 0 || len > LISTING_MAX_NAME ||
		   strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
	for (size_t i = 0; i < len && !bad; i++) {
		unsigned char c = (unsigned char)name[i];
		bad = c < 0x20 || c == 0x7f || c == '/';
	}
	if (bad) {
		free(name);
		name = NULL;
	}
out:
	free(text);
	return name;
}

/* Scan one tag starting after "<a" at sc->pos: find the href value.
 * Leaves sc->pos after the tag's '>'.  False when the page ends inside the
 * tag. */
static bool tag_href(struct scan *sc, const char **value, size_t *value_len)
{
	const char *p = sc->p;
	size_t len = sc->len, i = sc->pos;
	*value = NULL;
	*value_len = 0;
	while (i < len) {
		while (i < len && (is_space((unsigned char)p[i]) || p[i] == '/'))
			i++;
		if (i >= len)
			break;
		if (p[i] == '>') {
			sc->pos = i + 1;
			return true;
		}
		size_t name = i;
		while (i < len && !is_space((unsigned char)p[i]) && p[i] != '=' &&
		       p[i] != '>' && p[i] != '/')
			i++;
		size_t name_len = i - name;
		while (i < len && is_space((unsigned char)p[i]))
			i++;
		if (i >= len || p[i] != '=')
			continue;
		i++;
		while (i < len && is_space((unsigned char)p[i]))
			i++;
		if (i >= len)
			break;
		size_t vb, ve;
		if (p[i] == '"' || p[i] == '\'') {
			const char *close = memchr(p + i + 1, p[i], len - i - 1);
			if (!close)
				break;
			vb = i + 1;
			ve = (size_t)(close - p);
			i = ve + 1;
		} else {
			vb = i;
			while (i < len && !is_space((unsigned char)p[i]) &&
			       p[i] != '>')
				i++;
			ve = i;
		}
		if (!*value && name_len == 4 &&
		    starts_with_ci(p + name, name_len, "href")) {
			*value = p + vb;
			*value_len = ve - vb;
		}
	}
	sc->pos = len;
	return false;
}

static int by_name_then_index(const void *a, const void *b)
{
	const struct listing_entry *const *x = a;
	const struct listing_entry *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);
	if (c != 0)
		return c;
	return *x < *y ? -1 : *x > *y;
}

/* Remove later duplicates of a name, keeping page order. */
static enum status dedup(struct listing_entry *e, size_t *n,
			 const char *base_name, struct error *err)
{
	if (*n < 2)
		return STATUS_OK;
	struct listing_entry **order = malloc(*n * sizeof(*order));
	bool *dup = calloc(*n, sizeof(*dup));
	if (!order || !dup) {
		free(order);
		free(dup);
		return error_set(err, STATUS_NOMEM, base_name,
				 "directory listing: out of memory");
	}
	for (size_t i = 0; i < *n; i++)
		order[i] = &e[i];
	qsort(order, *n, sizeof(*order), by_name_then_index);
	const char *kept = order[0]->name;
	for (size_t i = 1; i < *n; i++) {
		if (strcmp(order[i]->name, kept) == 0)
			dup[order[i] - e] = true;
		else
			kept = order[i]->name;
	}
	free(order);
	size_t o = 0;
	for (size_t i = 0; i < *n; i++) {
		if (dup[i])
			free(e[i].name);
		else
			e[o++] = e[i];
	}
	free(dup);
	*n = o;
	return STATUS_OK;
}

enum status listing_parse(const char *html, size_t len, const char *base_name,
			  struct listing_entry **out, size_t *n,
			  struct error *err)
{
	struct listing_entry *entries = NULL;
	size_t count = 0, cap = 0;
	enum status st = STATUS_OK;
	if (out)
		*out = NULL;
	if (n)
		*n = 0;
	if (!out || !n || (!html && len > 0))
		return error_set(err, STATUS_USAGE, base_name,
				 "directory listing: NULL argument");
	if (len > LISTING_MAX_PAGE) {
		st = error_set(err, STATUS_LIMIT, base_name,
			       "directory listing of %zu bytes exceeds the "
			       "limit of %zu",
			       len, LISTING_MAX_PAGE);
		goto out;
	}
	struct prefix pre = prefix_of(base_name);
	struct scan sc = {.p = html, .len = len, .pos = 0};
	while (sc.pos < len) {
		const char *lt = memchr(html + sc.pos, '<', len - sc.pos);
		if (!lt)
			break;
		sc.pos = (size_t)(lt - html);
		if (starts_with_ci(html + sc.pos, len - sc.pos, "<!--")) {
			size_t end = find(html, len, sc.pos + 4, "-->");
			sc.pos = end < len ? end + 3 : len;
			continue;
		}
		if (!starts_with_ci(html + sc.pos, len - sc.pos, "<a") ||
		    len - sc.pos < 3 ||
		    !is_space((unsigned char)html[sc.pos + 2])) {
			sc.pos++;
			continue;
		}
		sc.pos += 3;
		const char *href = NULL;
		size_t href_len = 0;
		if (!tag_href(&sc, &href, &href_len) || !href)
			continue;
		bool is_dir = false, nomem = false;
		char *name = href_child(href, href_len, &pre, &is_dir, &nomem);
		if (nomem) {
			st = error_set(err, STATUS_NOMEM, base_name,
				       "directory listing: out of memory");
			goto out;
		}
		if (!name)
			continue;
		if (count >= LISTING_MAX_ENTRIES) {
			free(name);
			st = error_set(err, STATUS_LIMIT, base_name,
				       "directory listing has more than %zu "
				       "names",
				       LISTING_MAX_ENTRIES);
			goto out;
		}
		if (!array_grow((void **)&entries, &cap, count + 1,
				sizeof(*entries))) {
			free(name);
			st = error_set(err, STATUS_NOMEM, base_name,
				       "directory listing: out of memory");
			goto out;
		}
		entries[count++] = (struct listing_entry){.name = name,
							  .is_dir = is_dir};
	}
	st = dedup(entries, &count, base_name, err);
out:
	if (st != STATUS_OK) {
		listing_free(entries, count);
		return st;
	}
	if (count == 0) {
		free(entries);
		entries = NULL;
	}
	*out = entries;
	*n = count;
	return STATUS_OK;
}

void listing_free(struct listing_entry *entries, size_t n)
{
	if (!entries)
		return;
	for (size_t i = 0; i < n; i++)
		free(entries[i].name);
	free(entries);
}
