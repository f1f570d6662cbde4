/* listing: the child names of a web server's autoindex page.  libxml2's
 * HTML parser reads the page as a browser would (tags in any case, quoted
 * or bare attributes, character references, broken markup) and hands each
 * start tag to a SAX callback, so no tree is built and nesting depth costs
 * no stack; libcurl's URL API resolves each `<a href>` against the page's
 * URL and percent-decodes the last segment.  A link survives only when it
 * resolves to a direct child of the listed directory.  Duplicates are
 * removed afterwards by sorting, keeping page order.  Depends on libc,
 * libxml2, libcurl's URL API and the engine's status and array helpers;
 * never on the network (no transfer is made, external entities and DTDs
 * are not loaded). */
#include "config.h"

#include "net/listing.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include "core/array.h"
#include "core/lazylib.h"

#define LISTING_MAX_PAGE ((size_t)64 << 20)
#define LISTING_MAX_ENTRIES ((size_t)1000000)
#define LISTING_MAX_NAME ((size_t)4096)
/* The directory links are resolved against when the page's URL is not
 * known: a reserved host name (RFC 2606), a directory below the root so
 * that "../name" does not come back as a child. */
#define LISTING_NOWHERE "http://listing.invalid/unknown/"
/* libxml2 reads the page in pieces of this size; the cancel flag is
 * polled between them. */
#define LISTING_CHUNK ((size_t)64 << 10)
/* Bounds on what libxml2 2.9's HTML parser does in time quadratic in its
 * input: each attribute of a tag is compared with the earlier ones (a
 * 1 MB tag of bare attributes took 48 s), and each end tag scans the
 * stack of open elements.  A tag (or comment, or script) still unfinished
 * after this many bytes fails the page; so does nesting deeper than
 * LISTING_MAX_DEPTH elements (autoindex pages nest fewer than ten). */
#define LISTING_MAX_PENDING ((size_t)128 << 10)
#define LISTING_MAX_DEPTH 128

/* What the SAX callback needs: the listed directory and the names so far. */
struct collect {
	CURLU *base;      /* the directory's URL, path ending in '/' */
	char *scheme;     /* its parts, as libcurl spells them */
	char *host;
	char *port;       /* with the scheme's default filled in */
	char *dir_path;   /* percent-encoded, ending in '/' */
	bool base_known;  /* false: LISTING_NOWHERE */
	struct listing_entry *entries;
	size_t count, cap;
	size_t depth;     /* elements open, as the SAX callbacks tell */
	size_t href_max;  /* longer hrefs cannot name a child */
	htmlParserCtxtPtr ctxt;
	enum status st;   /* the first failure; the parser stops then */
	const char *base_name;
	struct error *err;
};

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

/* libxml2's error channel: errors in a hostile page are expected and
 * library code never prints.  (libxml2 2.12 made the error const.) */
#if LIBXML_VERSION >= 21200
static void quiet(void *ctx, const xmlError *error)
#else
static void quiet(void *ctx, xmlErrorPtr error)
#endif
{
	(void)ctx;
	(void)error;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* The page's directory: `base_name` as a URL (an absolute path is taken
 * on an unknown host; sftp:// even when the linked libcurl lacks it),
 * without query and fragment, its path ending in '/' (a listing names a
 * directory even when its URL lacks the slash). */
static CURLU *base_url(const char *base_name, bool *known)
{
	CURLU *u = curl_url();
	char *path = NULL, *dir = NULL;
	*known = false;
	if (!u)
		return NULL;
	if (base_name && base_name[0] == '/' && base_name[1] != '/') {
		if (curl_url_set(u, CURLUPART_URL, "http://listing.invalid",
				 0) == CURLUE_OK &&
		    curl_url_set(u, CURLUPART_PATH, base_name, 0) == CURLUE_OK)
			*known = true;
	} else if (base_name &&
		   curl_url_set(u, CURLUPART_URL, base_name,
				CURLU_NON_SUPPORT_SCHEME | CURLU_ALLOW_SPACE) ==
			   CURLUE_OK) {
		*known = true;
	}
	if (!*known && curl_url_set(u, CURLUPART_URL, LISTING_NOWHERE, 0) !=
			       CURLUE_OK)
		goto fail;
	/* "/dir?x" set as a path keeps the query in the path: cut both */
	if (curl_url_set(u, CURLUPART_QUERY, NULL, 0) != CURLUE_OK ||
	    curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK)
		goto fail;
	size_t len = strcspn(path, "?#");
	dir = malloc(len + 2);
	if (!dir)
		goto fail;
	memcpy(dir, path, len);
	if (len == 0 || dir[len - 1] != '/')
		dir[len++] = '/';
	dir[len] = '\0';
	if (curl_url_set(u, CURLUPART_PATH, dir, 0) != CURLUE_OK)
		goto fail;
	free(dir);
	curl_free(path);
	return u;
fail:
	free(dir);
	curl_free(path);
	curl_url_cleanup(u);
	return NULL;
}

static bool same_ci(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* The child name `href` (an attribute value, entities already decoded)
 * denotes, as a new string, or NULL when the link is to be dropped (or
 * on allocation failure, told apart by *nomem). */
static char *href_child(struct collect *c, const char *href, bool *is_dir,
			bool *nomem)
{
	CURLU *u = NULL;
	char *text = NULL, *name = NULL, *scheme = NULL, *host = NULL;
	char *port = NULL, *path = NULL, *query = NULL, *fragment = NULL;
	/* a browser strips spaces around a URL */
	size_t b = 0, e = strlen(href);
	while (b < e && is_space((unsigned char)href[b]))
		b++;
	while (e > b && is_space((unsigned char)href[e - 1]))
		e--;
	/* longer than the directory's URL and a fully percent-encoded name
	 * (libcurl also refuses URLs of 8 MB as "out of memory") */
	if (e - b > c->href_max)
		goto out;
	text = strndup(href + b, e - b);
	if (!text) {
		*nomem = true;
		goto out;
	}
	/* a browser reads '\' as '/' (a server escapes a real one as %5C);
	 * without the page's URL an absolute path leads nowhere known */
	if (strchr(text, '\\') || (!c->base_known && text[0] == '/'))
		goto out;
	u = curl_url_dup(c->base);
	if (!u) {
		*nomem = true;
		goto out;
	}
	CURLUcode rc = curl_url_set(u, CURLUPART_URL, text,
				    CURLU_ALLOW_SPACE |
					    CURLU_NON_SUPPORT_SCHEME);
	if (rc == CURLUE_OUT_OF_MEMORY)
		*nomem = true;
	if (rc != CURLUE_OK)
		goto out;
	/* another scheme or host, a query (Apache's sort links "?C=N;O=D"),
	 * a fragment */
	if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK ||
	    !same_ci(scheme, c->scheme) || !same_ci(host, c->host))
		goto out;
	if (curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) ==
		    CURLUE_OK
		    ? !c->port || strcmp(port, c->port) != 0
		    : c->port != NULL)
		goto out;
	if (curl_url_get(u, CURLUPART_QUERY, &query, 0) != CURLUE_NO_QUERY ||
	    curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) !=
		    CURLUE_NO_FRAGMENT)
		goto out;
	/* a direct child: the directory's path, one segment, maybe a '/' */
	size_t dl = strlen(c->dir_path);
	if (strncmp(path, c->dir_path, dl) != 0)
		goto out;
	const char *seg = path + dl;
	size_t len = strlen(seg);
	*is_dir = len > 0 && seg[len - 1] == '/';
	if (*is_dir)
		len--;
	if (len == 0 || memchr(seg, '/', len))
		goto out;
	int dec_len = 0;
	char *dec = len <= INT32_MAX / 2
			    ? curl_easy_unescape(NULL, seg, (int)len, &dec_len)
			    : NULL;
	if (!dec) {
		*nomem = len <= INT32_MAX / 2;
		goto out;
	}
	size_t n = (size_t)dec_len;
	bool bad = n == 0 || n > LISTING_MAX_NAME ||
		   strcmp(dec, ".") == 0 || strcmp(dec, "..") == 0;
	for (size_t i = 0; i < n && !bad; i++) {
		unsigned char ch = (unsigned char)dec[i];
		bad = ch < 0x20 || ch == 0x7f || ch == '/';
	}
	if (!bad) {
		name = strdup(dec);
		if (!name)
			*nomem = true;
	}
	curl_free(dec);
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(path);
	curl_free(query);
	curl_free(fragment);
	curl_url_cleanup(u);
	free(text);
	return name;
}

/* Record a failure (`st`, its detail already in c->err) and stop the
 * parser: its callbacks are not called again. */
static void stop(struct collect *c, enum status st)
{
	c->st = st;
	if (c->ctxt)
		xmlStopParser(c->ctxt);
}

/* SAX end tag (libxml2 also sends one for void and implicitly closed
 * elements). */
static void on_end(void *ctx, const xmlChar *tag)
{
	struct collect *c = ctx;
	(void)tag;
	if (c->depth > 0)
		c->depth--;
}

/* SAX start tag: the href of an <a> (the first one: libxml2 drops a
 * repeated attribute). */
static void on_start(void *ctx, const xmlChar *tag, const xmlChar **atts)
{
	struct collect *c = ctx;
	if (c->st == STATUS_OK && ++c->depth > LISTING_MAX_DEPTH)
		stop(c, error_set(c->err, STATUS_LIMIT, c->base_name,
				  "directory listing nests more than %d "
				  "elements",
				  LISTING_MAX_DEPTH));
	if (c->st != STATUS_OK || !atts ||
	    strcasecmp((const char *)tag, "a") != 0)
		return;
	const char *href = NULL;
	for (size_t i = 0; atts[i]; i += 2) {
		if (strcasecmp((const char *)atts[i], "href") == 0) {
			href = atts[i + 1] ? (const char *)atts[i + 1] : "";
			break;
		}
	}
	if (!href)
		return;
	bool is_dir = false, nomem = false;
	char *name = href_child(c, href, &is_dir, &nomem);
	if (nomem) {
		stop(c, error_set(c->err, STATUS_NOMEM, c->base_name,
				  "directory listing: out of memory"));
		return;
	}
	if (!name)
		return;
	if (c->count >= LISTING_MAX_ENTRIES) {
		free(name);
		stop(c, error_set(c->err, STATUS_LIMIT, c->base_name,
				  "directory listing has more than %zu names",
				  LISTING_MAX_ENTRIES));
		return;
	}
	if (!array_grow((void **)&c->entries, &c->cap, c->count + 1,
			sizeof(*c->entries))) {
		free(name);
		stop(c, error_set(c->err, STATUS_NOMEM, c->base_name,
				  "directory listing: out of memory"));
		return;
	}
	c->entries[c->count++] =
		(struct listing_entry){.name = name, .is_dir = is_dir};
}

/* Take the listed directory's parts from c->base. */
static bool collect_base(struct collect *c)
{
	if (curl_url_get(c->base, CURLUPART_SCHEME, &c->scheme, 0) !=
		    CURLUE_OK ||
	    curl_url_get(c->base, CURLUPART_PATH, &c->dir_path, 0) !=
		    CURLUE_OK)
		return false;
	CURLUcode rc = curl_url_get(c->base, CURLUPART_HOST, &c->host, 0);
	if (rc != CURLUE_OK && rc != CURLUE_NO_HOST)
		return false;
	rc = curl_url_get(c->base, CURLUPART_PORT, &c->port,
			  CURLU_DEFAULT_PORT);
	return rc == CURLUE_OK || rc == CURLUE_NO_PORT;
}

/* Run libxml2's HTML parser over the page with the tag callbacks only: no
 * tree, no network, errors recovered from and not shown; bounded as
 * LISTING_MAX_PENDING and LISTING_MAX_DEPTH say, stopped by `cancel`. */
static enum status parse_page(struct collect *c, const char *html, size_t len,
			      volatile sig_atomic_t *cancel)
{
	htmlSAXHandler sax = {
		.startElement = on_start,
		.endElement = on_end,
		.serror = quiet,
		.initialized = XML_SAX2_MAGIC,
	};
	enum status need = lazylib_require(LAZYLIB_XML2, c->err);
	if (need != STATUS_OK)
		return need;
	pthread_once(&xml_once, xml_init);
	htmlParserCtxtPtr ctxt = htmlCreatePushParserCtxt(
		&sax, c, NULL, 0, NULL, XML_CHAR_ENCODING_NONE);
	if (!ctxt)
		return error_set(c->err, STATUS_NOMEM, c->base_name,
				 "directory listing: out of memory");
	htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR |
					 HTML_PARSE_NOWARNING |
					 HTML_PARSE_NONET | HTML_PARSE_NOBLANKS |
					 HTML_PARSE_COMPACT);
	c->ctxt = ctxt;
	size_t pos = 0;
	do {
		if (cancel && *cancel) {
			stop(c, error_set(c->err, STATUS_IO, c->base_name,
					  "cancelled"));
			break;
		}
		size_t n = len - pos < LISTING_CHUNK ? len - pos
						     : LISTING_CHUNK;
		/* libxml2 2.9 keeps where a lookahead for the end of a token
		 * stopped as an offset into its buffer, which moves when the
		 * buffer is compacted: the lookahead then never succeeds and
		 * nothing more is parsed until the last piece.  0 has it look
		 * again from the token's start (at most LISTING_MAX_PENDING
		 * bytes). */
		ctxt->checkIndex = 0;
		htmlParseChunk(ctxt, html ? html + pos : "", (int)n,
			       pos + n == len);
		pos += n;
		/* what libxml2 holds back until a tag, comment or script
		 * ends */
		xmlParserInputPtr in = ctxt->input;
		if (c->st == STATUS_OK && in && in->cur && in->end &&
		    (size_t)(in->end - in->cur) > LISTING_MAX_PENDING)
			stop(c, error_set(c->err, STATUS_LIMIT, c->base_name,
					  "directory listing: a tag, comment "
					  "or script longer than %zu KiB "
					  "before byte %zu",
					  LISTING_MAX_PENDING >> 10, pos));
	} while (pos < len && c->st == STATUS_OK);
	c->ctxt = NULL;
	htmlFreeParserCtxt(ctxt);
	return c->st;
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
			  volatile sig_atomic_t *cancel,
			  struct listing_entry **out, size_t *n,
			  struct error *err)
{
	struct collect c = {
		.st = STATUS_OK,
		.base_name = base_name,
		.err = err,
	};
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
	if (len == 0)
		goto out;
	c.base = base_url(base_name, &c.base_known);
	if (!c.base || !collect_base(&c)) {
		st = error_set(err, STATUS_NOMEM, base_name,
			       "directory listing: out of memory");
		goto out;
	}
	c.href_max = strlen(c.scheme) + (c.host ? strlen(c.host) : 0) +
		     (c.port ? strlen(c.port) : 0) + strlen(c.dir_path) +
		     3 * LISTING_MAX_NAME + 64;
	st = parse_page(&c, html, len, cancel);
	if (st == STATUS_OK)
		st = dedup(c.entries, &c.count, base_name, err);
out:
	curl_free(c.scheme);
	curl_free(c.host);
	curl_free(c.port);
	curl_free(c.dir_path);
	curl_url_cleanup(c.base);
	if (st != STATUS_OK) {
		listing_free(c.entries, c.count);
		return st;
	}
	if (c.count == 0) {
		FREE_AND_NULL(c.entries);
	}
	*out = c.entries;
	*n = c.count;
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
