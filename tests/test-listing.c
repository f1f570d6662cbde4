/* Tests for listing: child names from autoindex pages of nginx, Apache 2.4
 * (FancyIndexing table), Python's http.server (served for real on
 * 127.0.0.1 and fetched with urllib), and hostile links.  Expected names
 * are written out by hand from the page texts. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "net/listing.h"

struct want {
	const char *name;
	bool is_dir;
};

static void check_page(const char *html, size_t len, const char *base,
		       const struct want *want, size_t n_want)
{
	struct listing_entry *e = NULL;
	size_t n = 99;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(listing_parse(html, len, base, NULL, &e, &n, &err),
			 STATUS_OK);
	for (size_t i = 0; i < n && i < n_want; i++) {
		assert_string_equal(e[i].name, want[i].name);
		assert_int_equal(e[i].is_dir, want[i].is_dir);
	}
	assert_int_equal(n, n_want);
	if (n_want == 0)
		assert_null(e);
	listing_free(e, n);
	error_clear(&err);
}

#define CHECK(html, base, ...)                                              \
	do {                                                                \
		static const struct want w_[] = {__VA_ARGS__};              \
		check_page(html, strlen(html), base, w_,                    \
			   sizeof(w_) / sizeof(w_[0]));                     \
	} while (0)

static void test_null_arguments(void **state)
{
	(void)state;
	struct listing_entry *e = (struct listing_entry *)&e;
	size_t n = 7;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(listing_parse("x", 1, "u", NULL, NULL, &n, &err),
			 STATUS_USAGE);
	assert_int_equal(listing_parse("x", 1, "u", NULL, &e, NULL, &err),
			 STATUS_USAGE);
	assert_null(e);
	assert_int_equal(listing_parse(NULL, 5, "u", NULL, &e, &n, &err),
			 STATUS_USAGE);
	assert_int_equal(n, 0);
	assert_string_equal(err.file, "u");
	error_clear(&err);
	/* NULL with length 0 is an empty page */
	n = 7;
	assert_int_equal(listing_parse(NULL, 0, NULL, NULL, &e, &n, NULL),
			 STATUS_OK);
	assert_null(e);
	assert_int_equal(n, 0);
	listing_free(NULL, 0);
}

static void test_empty_and_linkless(void **state)
{
	(void)state;
	check_page("", 0, NULL, NULL, 0);
	check_page("<html><body>nothing</body></html>", 33, NULL, NULL, 0);
	check_page("<a>no href</a><a name=x>anchor</a>", 34, NULL, NULL, 0);
	/* a page cut inside a tag: libxml2 recovers the link as far as it
	 * goes (a cut transfer fails in http.c before a page is parsed) */
	check_page("<a href=\"meta.db", 16, NULL,
		   (const struct want[]){{.name = "meta.db", .is_dir = false}},
		   1);
	check_page("<a href=", 8, NULL, NULL, 0);
	check_page("<a ", 3, NULL, NULL, 0);
	check_page("<", 1, NULL, NULL, 0);
}

static const char nginx_page[] =
	"<html>\r\n"
	"<head><title>Index of /dbs/run 1/</title></head>\r\n"
	"<body>\r\n"
	"<h1>Index of /dbs/run 1/</h1><hr><pre>"
	"<a href=\"../\">../</a>\r\n"
	"<a href=\"hpctoolkit-lulesh-database/\">hpctoolkit-lulesh-database/"
	"</a>                        21-Nov-2026 10:00                   -\r\n"
	"<a href=\"cct.db\">cct.db</a>                                        "
	"     21-Nov-2026 10:00              123456\r\n"
	"<a href=\"meta.db\">meta.db</a>                                      "
	"      21-Nov-2026 10:00               12345\r\n"
	"<a href=\"with%20space.db\">with space.db</a>                        "
	"     21-Nov-2026 10:00                   7\r\n"
	"<a href=\"a%26b%3Fc%23d.db\">a&amp;b?c#d.db</a>                      "
	"     21-Nov-2026 10:00                   7\r\n"
	"<a href=\"caf%C3%A9/\">caf\xc3\xa9/</a>                              "
	"     21-Nov-2026 10:00                   -\r\n"
	"<a href=\"a-very-long-name-that-nginx-cuts-in-the-text.tar.gz\">"
	"a-very-long-name-that-nginx-cuts-in-the-te..&gt;</a> 21-Nov-2026 "
	"10:00 99\r\n"
	"</pre><hr></body>\r\n"
	"</html>\r\n";

static void test_nginx(void **state)
{
	(void)state;
	CHECK(nginx_page, "http://example.org/dbs/run%201/",
	      {.name = "hpctoolkit-lulesh-database", .is_dir = true},
	      {.name = "cct.db", .is_dir = false},
	      {.name = "meta.db", .is_dir = false},
	      {.name = "with space.db", .is_dir = false},
	      {.name = "a&b?c#d.db", .is_dir = false},
	      {.name = "caf\xc3\xa9", .is_dir = true},
	      {.name = "a-very-long-name-that-nginx-cuts-in-the-text.tar.gz",
	       .is_dir = false}, );
}

/* Apache 2.4 with IndexOptions FancyIndexing HTMLTable IconsAreLinks:
 * sort links in the header, an absolute parent link, each name linked
 * twice (icon and text). */
static const char apache_page[] =
	"<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">\n"
	"<html>\n <head>\n  <title>Index of /pub/hpc</title>\n </head>\n"
	" <body>\n<h1>Index of /pub/hpc</h1>\n  <table>\n"
	"   <tr><th valign=\"top\"><img src=\"/icons/blank.gif\" "
	"alt=\"[ICO]\"></th><th><a href=\"?C=N;O=D\">Name</a></th>"
	"<th><a href=\"?C=M;O=A\">Last modified</a></th><th><a "
	"href=\"?C=S;O=A\">Size</a></th><th><a href=\"?C=D;O=A\">"
	"Description</a></th></tr>\n"
	"   <tr><th colspan=\"5\"><hr></th></tr>\n"
	"<tr><td valign=\"top\"><a href=\"/pub/\"><img "
	"src=\"/icons/back.gif\" alt=\"[PARENTDIR]\"></a></td><td><a "
	"href=\"/pub/\">Parent Directory</a></td><td>&nbsp;</td><td "
	"align=\"right\">  - </td><td>&nbsp;</td></tr>\n"
	"<tr><td valign=\"top\"><a href=\"NPB-UPC/\"><img "
	"src=\"/icons/folder.gif\" alt=\"[DIR]\"></a></td><td><a "
	"href=\"NPB-UPC/\">NPB-UPC/</a></td><td align=\"right\">2026-11-21 "
	"10:00  </td><td align=\"right\">  - </td><td>&nbsp;</td></tr>\n"
	"<tr><td valign=\"top\"><a href=\"db.tar.gz\"><img "
	"src=\"/icons/compressed.gif\" alt=\"[   ]\"></a></td><td><a "
	"href=\"db.tar.gz\">db.tar.gz</a></td><td align=\"right\">"
	"2026-11-21 10:00  </td><td align=\"right\">1.2M</td><td>&nbsp;"
	"</td></tr>\n"
	"<tr><td valign=\"top\"><a href=\"It%27s%20%5Bv2%5D.db\"><img "
	"src=\"/icons/unknown.gif\" alt=\"[   ]\"></a></td><td><a "
	"href=\"It%27s%20%5Bv2%5D.db\">It's [v2].db</a></td><td "
	"align=\"right\">2026-11-21 10:00  </td><td align=\"right\"> 12K"
	"</td><td>&nbsp;</td></tr>\n"
	"   <tr><th colspan=\"5\"><hr></th></tr>\n</table>\n"
	"<address>Apache/2.4.57 (Debian) Server at example.org Port "
	"80</address>\n</body></html>\n";

static void test_apache(void **state)
{
	(void)state;
	CHECK(apache_page, "http://example.org/pub/hpc/",
	      {.name = "NPB-UPC", .is_dir = true},
	      {.name = "db.tar.gz", .is_dir = false},
	      {.name = "It's [v2].db", .is_dir = false}, );
	/* the same without knowing the page's URL */
	CHECK(apache_page, NULL, {.name = "NPB-UPC", .is_dir = true},
	      {.name = "db.tar.gz", .is_dir = false},
	      {.name = "It's [v2].db", .is_dir = false}, );
}

static void test_hostile_links(void **state)
{
	(void)state;
	CHECK("<a href=\"../\">up</a><a href=\"..\">up</a>"
	      "<a href=\"./..\">up</a><a href=\"%2e%2e\">up</a>"
	      "<a href=\"/etc/passwd\">abs</a><a href=\"http://evil/x\">h</a>"
	      "<a href=\"//evil/x\">h</a><a href=\"mailto:a@b\">m</a>"
	      "<a href=\"javascript:alert(1)\">j</a>"
	      "<a href=\"?C=N;O=D\">sort</a><a href=\"#top\">top</a>"
	      "<a href=\"x.db?download=1\">q</a><a href=\"a/b\">deep</a>"
	      "<a href=\"a%2fb\">slash</a><a href=\"a%00b\">nul</a>"
	      "<a href=\"a%0ab\">nl</a><a href=\"a%1b[31m\">esc</a>"
	      "<a href=\"a%7f\">del</a><a href=\"a&#10;b\">nl</a>"
	      "<a href=\"\\\\evil\\x\">unc</a>"
	      "<a href=\".\">self</a><a href=\"./\">self</a>"
	      "<a href=\"\">self</a><a href=\"%2E/\">self</a>"
	      "<a href=\"ok//\">double slash</a>"
	      "<a href=\"ok.db\">the only one</a>",
	      NULL, {.name = "ok.db", .is_dir = false}, );
}

/* &#0; is no character: whatever libxml2 makes of it, no name holds a
 * NUL or a control character. */
static void test_nul_reference(void **state)
{
	(void)state;
	static const char page[] = "<a href=\"a&#0;b\">nul entity</a>";
	struct listing_entry *e = NULL;
	size_t n = 0;
	assert_int_equal(listing_parse(page, strlen(page), NULL, NULL, &e, &n,
				       NULL),
			 STATUS_OK);
	assert_true(n <= 1);
	for (size_t i = 0; i < n; i++) {
		assert_true(strlen(e[i].name) > 0);
		for (const char *c = e[i].name; *c; c++)
			assert_true((unsigned char)*c >= 0x20);
	}
	listing_free(e, n);
}

static void test_tag_syntax(void **state)
{
	(void)state;
	CHECK("<A HREF='single.db'>s</A>"
	      "<a\nclass=\"x\" data-href=\"not-this\"\thref=unquoted.db>u</a>"
	      "<a title='a > b' href = \"spaced/\" >s</a>"
	      "<abbr href=\"not-a-link\">x</abbr>"
	      "<!-- <a href=\"commented\">c</a> -->"
	      "<a href=\"first.db\" href=\"second.db\">twice</a>"
	      "<a href=\"./dot.db\">d</a>"
	      "<a href=\"  padded.db \">p</a>"
	      "<a href=\"&#x41;&#66;&amp;&lt;&gt;&quot;&apos;&bogus;\">e"
	      "</a>"
	      "<a href=\"pct%zz%4\">bad escapes stay</a>"
	      "<a href=\"x&#35;y\">an entity for # is a fragment</a>"
	      "<a href=\"single.db/\">again, as a directory</a>",
	      NULL, {.name = "single.db", .is_dir = false},
	      {.name = "unquoted.db", .is_dir = false},
	      {.name = "spaced", .is_dir = true},
	      {.name = "first.db", .is_dir = false},
	      {.name = "dot.db", .is_dir = false},
	      {.name = "padded.db", .is_dir = false},
	      {.name = "AB&<>\"'&bogus;", .is_dir = false},
	      {.name = "pct%zz%4", .is_dir = false}, );
	/* an unterminated comment hides the rest */
	CHECK("<a href=\"a\">a</a><!-- <a href=\"b\">", NULL,
	      {.name = "a", .is_dir = false}, );
}

/* What an HTML parser gives beyond a tag scanner: every named character
 * reference of HTML, tags and attributes in any case, markup a browser
 * repairs, and text that only looks like a tag (script, style, comments
 * with "--" inside). */
static void test_html_parser(void **state)
{
	(void)state;
	CHECK("<a href=caf&eacute;.db>x</a><a HrEf=MiXeD.db>m</a>"
	      "<a href=\"&#x1F600;.db\">e</a>",
	      NULL, {.name = "caf\xc3\xa9.db", .is_dir = false},
	      {.name = "MiXeD.db", .is_dir = false},
	      {.name = "\xf0\x9f\x98\x80.db", .is_dir = false}, );
	/* a missing '>', a '/' ending a bare value (it belongs to the
	 * value), unclosed and stray tags, a valueless attribute first */
	CHECK("<a href=\"x.db\"<b>y</b><a href=y.db/><p><a href=z.db>z</p>"
	      "</a></a><a name href=\"q/\">",
	      NULL, {.name = "x.db", .is_dir = false},
	      {.name = "y.db", .is_dir = true}, {.name = "z.db", .is_dir = false},
	      {.name = "q", .is_dir = true}, );
	CHECK("<script>document.write(\"<a href=\\\"fake.db\\\">\")</script>"
	      "<style>a[href=\"s.db\"]{}</style>"
	      "<!-- a -- b <a href=c> --><a href=real.db>r</a>",
	      NULL, {.name = "real.db", .is_dir = false}, );
	/* a reference for '/' makes a separator, one for a newline a
	 * control character */
	CHECK("<a href=\"a&#x2F;b\">s</a><a href=\"x&#10;y.db\">n</a>"
	      "<a href=\"ok.db\">o</a>",
	      NULL, {.name = "ok.db", .is_dir = false}, );
}

/* `depth` nested elements around a link, closed (`closed`) or not, then
 * a second link; *len the page's length. */
static char *nested_page(size_t depth, bool closed, size_t *len)
{
	static const char open_tag[] = "<div>", close_tag[] = "</div>";
	static const char link[] = "<a href=\"deep.db\">d</a>";
	static const char after[] = "<a href=\"after/\">a</a>";
	size_t cap = depth * (sizeof(open_tag) + sizeof(close_tag)) +
		     sizeof(link) + sizeof(after) + 1;
	char *page = malloc(cap);
	assert_non_null(page);
	size_t o = 0;
	for (size_t i = 0; i < depth; i++) {
		memcpy(page + o, open_tag, sizeof(open_tag) - 1);
		o += sizeof(open_tag) - 1;
	}
	memcpy(page + o, link, sizeof(link) - 1);
	o += sizeof(link) - 1;
	for (size_t i = 0; closed && i < depth; i++) {
		memcpy(page + o, close_tag, sizeof(close_tag) - 1);
		o += sizeof(close_tag) - 1;
	}
	memcpy(page + o, after, sizeof(after) - 1);
	o += sizeof(after) - 1;
	page[o] = '\0';
	*len = o;
	return page;
}

/* 100 nested elements around a link are read, closed or not; 100,000
 * fail at once with a limit (libxml2 scans the open elements for every
 * end tag: a deep page with many end tags would take hours). */
static void test_deep_nesting(void **state)
{
	(void)state;
	size_t len = 0;
	char *page = nested_page(100, true, &len);
	check_page(page, len, "http://h/d/",
		   (const struct want[]){{.name = "deep.db", .is_dir = false},
					 {.name = "after", .is_dir = true}},
		   2);
	free(page);
	page = nested_page(100, false, &len);
	check_page(page, len, NULL,
		   (const struct want[]){{.name = "deep.db", .is_dir = false},
					 {.name = "after", .is_dir = true}},
		   2);
	free(page);
	page = nested_page(100000, true, &len);
	struct listing_entry *e = NULL;
	size_t n = 0;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(listing_parse(page, len, "http://h/d/", NULL, &e, &n,
				       &err),
			 STATUS_LIMIT);
	assert_string_equal(err.message,
			    "directory listing nests more than 128 elements");
	assert_string_equal(err.file, "http://h/d/");
	assert_null(e);
	error_clear(&err);
	free(page);
}

static void test_base_prefix(void **state)
{
	(void)state;
	static const char page[] =
		"<a href=\"/dir/abs.db\">a</a>"
		"<a href=\"http://host/dir/full/\">f</a>"
		"<a href=\"http://other/dir/no\">o</a>"
		"<a href=\"/dir/\">self</a><a href=\"/dir\">self</a>"
		"<a href=\"/dir/sub/deep\">deep</a>"
		"<a href=\"/dirx/no\">sibling</a><a href=\"/other/no\">o</a>"
		"<a href=\"rel\">r</a>";
	CHECK(page, "http://host/dir/", {.name = "abs.db", .is_dir = false},
	      {.name = "full", .is_dir = true}, {.name = "rel", .is_dir = false}, );
	CHECK(page, "http://host/dir?C=N;O=D",
	      {.name = "abs.db", .is_dir = false},
	      {.name = "full", .is_dir = true}, {.name = "rel", .is_dir = false}, );
	CHECK(page, "/dir/", {.name = "abs.db", .is_dir = false},
	      {.name = "rel", .is_dir = false}, );
	CHECK(page, "dir", {.name = "rel", .is_dir = false}, );
	/* the server root */
	CHECK("<a href=\"/top.db\">t</a><a href=\"/a/b\">x</a>", "http://host",
	      {.name = "top.db", .is_dir = false}, );
	CHECK("<a href=\"/top.db\">t</a>", "http://host/",
	      {.name = "top.db", .is_dir = false}, );
}

/* Links resolved as a browser does, then kept when they land in the
 * listed directory: scheme-relative and round-about links to a child
 * count, another port or scheme does not. */
static void test_resolution(void **state)
{
	(void)state;
	static const char page[] =
		"<a href=\"//host/dir/sr.db\">scheme-relative</a>"
		"<a href=\"HTTP://HOST/dir/case.db\">case</a>"
		"<a href=\"http://host:80/dir/port80.db\">default port</a>"
		"<a href=\"../dir/round.db\">round about</a>"
		"<a href=\"sub/../back.db\">back</a>"
		"<a href=\"http://host:8080/dir/p\">other port</a>"
		"<a href=\"https://host/dir/s\">other scheme</a>"
		"<a href=\"//evil/dir/e\">other host</a>"
		"<a href=\"../up.db\">parent</a>"
		"<a href=\"/dir/sub/../../top.db\">top</a>";
	CHECK(page, "http://host/dir/", {.name = "sr.db", .is_dir = false},
	      {.name = "case.db", .is_dir = false},
	      {.name = "port80.db", .is_dir = false},
	      {.name = "round.db", .is_dir = false},
	      {.name = "back.db", .is_dir = false}, );
	/* without the page's URL only relative links name children */
	CHECK(page, NULL, {.name = "back.db", .is_dir = false}, );
	/* a directory with an escaped name */
	CHECK("<a href=\"/a%20b/x.db\">x</a><a href=\"/a%20b/y/\">y</a>",
	      "sftp://me@host/a%20b/", {.name = "x.db", .is_dir = false},
	      {.name = "y", .is_dir = true}, );
	/* a scheme this libcurl may lack: relative links still resolve */
	CHECK("<a href=\"r.db\">r</a><a href=\"/d/s/\">s</a>"
	      "<a href=\"foo://other/d/o.db\">o</a>",
	      "foo://host/d/", {.name = "r.db", .is_dir = false},
	      {.name = "s", .is_dir = true}, );
}

static void test_duplicates_keep_first(void **state)
{
	(void)state;
	CHECK("<a href=\"b\">1</a><a href=\"a/\">2</a><a href=\"b/\">3</a>"
	      "<a href=\"a\">4</a><a href=\"c\">5</a><a href=\"b\">6</a>"
	      "<a href=\"%61/\">7</a>",
	      NULL, {.name = "b", .is_dir = false}, {.name = "a", .is_dir = true},
	      {.name = "c", .is_dir = false}, );
}

static void test_limits(void **state)
{
	(void)state;
	struct listing_entry *e = NULL;
	size_t n = 0;
	struct error err = {.status = STATUS_OK};
	/* the size is refused before a byte is read */
	const char one = '<';
	assert_int_equal(listing_parse(&one, ((size_t)64 << 20) + 1,
				       "http://h/", NULL, &e, &n, &err),
			 STATUS_LIMIT);
	assert_null(e);
	assert_string_equal(err.file, "http://h/");
	error_clear(&err);
	/* a 4097-byte name is dropped, 4096 kept */
	size_t cap = 2 * 4097 + 64;
	char *page = malloc(cap);
	assert_non_null(page);
	for (size_t len = 4096; len <= 4097; len++) {
		int k = snprintf(page, cap, "<a href=\"");
		memset(page + k, 'n', len);
		snprintf(page + k + len, cap - k - len, "\">x</a>");
		assert_int_equal(listing_parse(page, strlen(page), NULL, NULL, &e,
					       &n, &err),
				 STATUS_OK);
		assert_int_equal(n, len == 4096 ? 1 : 0);
		if (n)
			assert_int_equal(strlen(e[0].name), 4096);
		listing_free(e, n);
	}
	free(page);
	/* many distinct names, all kept in order */
	size_t many = 20000;
	char *big = malloc(many * 32);
	assert_non_null(big);
	size_t o = 0;
	for (size_t i = 0; i < many; i++)
		o += (size_t)sprintf(big + o, "<a href=\"f%zu\">x</a>\n",
				     many - i);
	assert_int_equal(listing_parse(big, o, NULL, NULL, &e, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, many);
	assert_string_equal(e[0].name, "f20000");
	assert_string_equal(e[many - 1].name, "f1");
	listing_free(e, n);
	free(big);
}

/* `n` bytes of `unit` repeated between `head` and `tail`, NUL-terminated;
 * *len its length. */
static char *repeat(const char *head, const char *unit, size_t n,
		    const char *tail, size_t *len)
{
	size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
	char *p = malloc(hl + n * ul + tl + 1);
	assert_non_null(p);
	memcpy(p, head, hl);
	for (size_t i = 0; i < n; i++)
		memcpy(p + hl + i * ul, unit, ul);
	memcpy(p + hl + n * ul, tail, tl + 1);
	*len = hl + n * ul + tl;
	return p;
}

/* Parse `page` (freed here) as the listing of http://h/: `want`, and
 * either the one name `text` (STATUS_OK) or a message holding `text`. */
static void expect(char *page, size_t len, enum status want, const char *text)
{
	struct listing_entry *e = NULL;
	size_t n = 0;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(listing_parse(page, len, "http://h/", NULL, &e, &n,
				       &err),
			 want);
	if (want == STATUS_OK) {
		assert_int_equal(n, 1);
		assert_string_equal(e[0].name, text);
	} else {
		assert_null(e);
		assert_non_null(strstr(err.message, text));
	}
	listing_free(e, n);
	error_clear(&err);
	free(page);
}

/* The inputs on which libxml2's HTML parser takes quadratic time fail
 * with a limit instead (each took minutes before the bounds); below the
 * bounds they parse. */
static void test_quadratic_inputs_refused(void **state)
{
	(void)state;
	size_t len = 0;
	/* one tag of 2.4 MB of distinct bare attributes ("aaaaa", "aaaab",
	 * ...): refused after 128 KiB */
	const char *head = "<a href=\"f\"";
	char *page = repeat(head, " xyzzy", 400000, ">f</a>", &len);
	for (size_t i = 0; i < 400000; i++) {
		char *at = page + strlen(head) + i * 6 + 1;
		size_t v = i;
		for (int k = 4; k >= 0; k--, v /= 26)
			at[k] = (char)('a' + v % 26);
	}
	expect(page, len, STATUS_LIMIT, "longer than 128 KiB");
	/* a 100 KiB tag is still read */
	page = repeat("<a href=\"g\"", " x=\"1\"", 100 * 1024 / 6, ">g</a>",
		      &len);
	expect(page, len, STATUS_OK, "g");
	/* an unterminated comment */
	page = repeat("<a href=\"h\">h</a><!--", "-", 300 * 1024, "", &len);
	expect(page, len, STATUS_LIMIT, "longer than 128 KiB");
	/* 200 nested elements, then unmatched end tags */
	page = repeat("", "<b>", 200, "</i></i><a href=\"i\">i</a>", &len);
	expect(page, len, STATUS_LIMIT, "nests more than 128");
	/* 100 nested are fine, and so are 100,000 closed ones in a row */
	page = repeat("", "<b>", 100, "<a href=\"j\">j</a>", &len);
	expect(page, len, STATUS_OK, "j");
	page = repeat("", "<p><b>x</b></p><br><hr>", 100000,
		      "<a href=\"k\">k</a>", &len);
	expect(page, len, STATUS_OK, "k");
}

/* A set cancel flag stops the parse before the first piece. */
static void test_cancel(void **state)
{
	(void)state;
	struct listing_entry *e = NULL;
	size_t n = 0;
	struct error err = {.status = STATUS_OK};
	volatile sig_atomic_t cancel = 1;
	const char *page = "<a href=\"x\">x</a>";
	assert_int_equal(listing_parse(page, strlen(page), "http://h/", &cancel,
				       &e, &n, &err),
			 STATUS_IO);
	assert_string_equal(err.message, "cancelled");
	assert_null(e);
	assert_int_equal(n, 0);
	error_clear(&err);
	cancel = 0;
	assert_int_equal(listing_parse(page, strlen(page), "http://h/", &cancel,
				       &e, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 1);
	listing_free(e, n);
}

/* An href too long to name a child is dropped without asking libcurl
 * (which fails 8 MB URLs as out of memory); the other links stay.  One
 * over 128 KiB fails the page (see above). */
static void test_huge_href_dropped(void **state)
{
	(void)state;
	struct listing_entry *e = NULL;
	size_t n = 0, len = 0;
	struct error err = {.status = STATUS_OK};
	char *page = repeat("<a href=\"a\">a</a><a href=\"", "n", 100000,
			    "\">x</a><a href=\"b\">b</a>", &len);
	assert_int_equal(
	    listing_parse(page, len, "http://h/", NULL, &e, &n, &err),
	    STATUS_OK);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].name, "a");
	assert_string_equal(e[1].name, "b");
	listing_free(e, n);
	free(page);
	page = repeat("<a href=\"a\">a</a><a href=\"", "n", 9000000, "\">x</a>",
		      &len);
	assert_int_equal(
	    listing_parse(page, len, "http://h/", NULL, &e, &n, &err),
	    STATUS_LIMIT);
	error_clear(&err);
	free(page);
}

/* Serve a directory with python3's http.server on 127.0.0.1 (an ephemeral
 * port) and fetch its listing with urllib: the page on stdout. */
static const char python_script[] =
	"import http.server, os, socketserver, sys, tempfile, threading, "
	"urllib.request, functools\n"
	"d = tempfile.mkdtemp()\n"
	"for n in ['meta.db', 'with space.db', 'a&b<c>.db', 'caf\\u00e9.db',"
	" 'pct%41.db', \"q'uote.db\"]:\n"
	"    open(os.path.join(d, n), 'w').close()\n"
	"for n in ['sub dir', 'database']:\n"
	"    os.mkdir(os.path.join(d, n))\n"
	"h = functools.partial(http.server.SimpleHTTPRequestHandler, "
	"directory=d)\n"
	"h.func.log_message = lambda *a: None\n"
	"s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), h)\n"
	"threading.Thread(target=s.serve_forever, daemon=True).start()\n"
	"u = 'http://127.0.0.1:%d/' % s.server_address[1]\n"
	"sys.stdout.buffer.write(urllib.request.urlopen(u, timeout=20)"
	".read())\n"
	"s.shutdown()\n"
	"import shutil; shutil.rmtree(d)\n";

static void test_python_http_server(void **state)
{
	(void)state;
	char path[] = "/tmp/test-listing-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(python_script, f);
	fclose(f);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "python3 %s 2>/dev/null", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 20, len = 0;
	char *page = malloc(cap);
	assert_non_null(page);
	size_t got;
	while ((got = fread(page + len, 1, cap - len, p)) > 0)
		len += got;
	int rc = pclose(p);
	unlink(path);
	if (rc != 0 || len == 0) {
		free(page);
		print_message("python3 http.server not available: skipped\n");
		skip();
	}
	/* http.server sorts names case-insensitively, directories marked
	 * with '/' */
	check_page(page, len, NULL,
		   (const struct want[]){
			   {.name = "a&b<c>.db", .is_dir = false},
			   {.name = "caf\xc3\xa9.db", .is_dir = false},
			   {.name = "database", .is_dir = true},
			   {.name = "meta.db", .is_dir = false},
			   {.name = "pct%41.db", .is_dir = false},
			   {.name = "q'uote.db", .is_dir = false},
			   {.name = "sub dir", .is_dir = true},
			   {.name = "with space.db", .is_dir = false},
		   },
		   8);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_arguments),
		cmocka_unit_test(test_empty_and_linkless),
		cmocka_unit_test(test_nginx),
		cmocka_unit_test(test_apache),
		cmocka_unit_test(test_hostile_links),
		cmocka_unit_test(test_tag_syntax),
		cmocka_unit_test(test_nul_reference),
		cmocka_unit_test(test_html_parser),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_base_prefix),
		cmocka_unit_test(test_resolution),
		cmocka_unit_test(test_duplicates_keep_first),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_quadratic_inputs_refused),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_huge_href_dropped),
		cmocka_unit_test(test_python_http_server),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
