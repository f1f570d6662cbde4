/* Tests of the directory-URL planner's choice of files
 * (src/formats/registry_remote.c, reader_plan_listing) for the formats
 * whose readers carry file rules: degenerate listings first (nothing, only
 * unrelated files), then per format a listing of its own files with
 * unrelated ones beside them (near-miss names, hidden files, files in the
 * point or epoch directories), whose plan must be the reader's own files,
 * written out here from each format's layout, and nothing else. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats/registry_remote.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Plan the listing of `files` (NULL-terminated; sorted here) and `dirs`
 * (NULL-terminated), every folder listed; the chosen reader must be
 * `reader` and the plan `want` (NULL-terminated), in any order. */
static void check_plan(const char *const *files, const char *const *dirs,
		       const char *reader, const char *const *want)
{
	size_t nf = 0, nd = 0, nw = 0;
	while (files[nf])
		nf++;
	while (dirs[nd])
		nd++;
	while (want[nw])
		nw++;
	const char **f = malloc((nf + 1) * sizeof(*f));
	const char **listed = malloc((nd + 1) * sizeof(*listed));
	assert_non_null(f);
	assert_non_null(listed);
	memcpy(f, files, nf * sizeof(*f));
	qsort(f, nf, sizeof(*f), cmp_str);
	listed[0] = "";
	memcpy(listed + 1, dirs, nd * sizeof(*listed));
	struct reader_listing l = {f, nf, dirs, nd, listed, nd + 1};
	struct reader_planned *p = NULL;
	size_t n = 0;
	const struct reader *r = NULL;
	struct error err = {0};
	assert_int_equal(reader_plan_listing("http://h/d/", &l, &p, &n, &r,
					     &err),
			 STATUS_OK);
	assert_non_null(r);
	assert_string_equal(r->name, reader);
	const char **got = malloc((n + 1) * sizeof(*got));
	const char **w = malloc((nw + 1) * sizeof(*w));
	assert_non_null(got);
	assert_non_null(w);
	for (size_t i = 0; i < n; i++)
		got[i] = p[i].name;
	memcpy(w, want, nw * sizeof(*w));
	qsort(got, n, sizeof(*got), cmp_str);
	qsort(w, nw, sizeof(*w), cmp_str);
	for (size_t i = 0; i < n && i < nw; i++)
		assert_string_equal(got[i], w[i]);
	assert_int_equal(n, nw);
	free(got);
	free(w);
	reader_planned_free(p, n);
	free(f);
	free(listed);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct reader_listing empty = {0};
	struct reader_planned *p = NULL;
	size_t n = 1;
	struct error err = {0};
	assert_int_equal(reader_plan_listing("http://h/d/", &empty, &p, &n,
					     NULL, &err),
			 STATUS_NOT_DATABASE);
	assert_null(p);
	assert_int_equal(n, 0);
	/* nothing any reader bids on */
	const char *files[] = {"README.txt", "notes.pdf"};
	const char *listed[] = {""};
	struct reader_listing l = {files, 2, NULL, 0, listed, 1};
	error_clear(&err);
	assert_int_equal(reader_plan_listing("http://h/d/", &l, &p, &n, NULL,
					     &err),
			 STATUS_NOT_DATABASE);
	assert_int_equal(n, 0);
	error_clear(&err);
}

/* One format's listing: files, subdirectories, the reader that must be
 * chosen and its plan (each list NULL-terminated). */
struct plan_case {
	const char *files[12];
	const char *dirs[4];
	const char *reader;
	const char *want[8];
};

static const struct plan_case cases[] = {
	/* an extracted .cubex */
	{{"anchor.xml", "0.index", "0.data", "1.index", "1.data", "notes.txt",
	  "profile.cubex.tar", NULL},
	 {NULL},
	 "cube",
	 {"anchor.xml", "0.index", "0.data", "1.index", "1.data", NULL}},
	/* a profile's folder: its .cubex, not pycubexr's CSVs beside it */
	{{"profile.cubex", "incl.csv", "excl.csv", ".old.cubex", NULL},
	 {NULL},
	 "cube",
	 {"profile.cubex", NULL}},
	/* a DCPI database: DB/EPOCH/IMAGEHEX.EVENT */
	{{"2611241530/1f3a9c.cycles", "2611241530/1f3a9c.imiss",
	  "2611241530/scratch.tmp", "261124160000/1f3a9c.cycles",
	  ".hidden/1f3a9c.cycles", "README.txt", NULL},
	 {"2611241530", "261124160000", ".hidden", NULL},
	 "dcpi",
	 {"2611241530/1f3a9c.cycles", "2611241530/1f3a9c.imiss",
	  "261124160000/1f3a9c.cycles", NULL}},
	/* Nsight exports of two ranks */
	{{"rank0.sqlite", "rank1.sqlite", ".old.sqlite", "report.nsys-rep",
	  "notes.txt", NULL},
	 {NULL},
	 "nsight",
	 {"rank0.sqlite", "rank1.sqlite", NULL}},
	/* a Score-P experiment directory: the trace and what is beside it */
	{{"traces.otf2", "traces.def", "traces/0.def", "traces/0.evt",
	  "traces/1.def", "traces/1.evt", "traces/0.evt.orig",
	  "profile.cubex", "scorep.cfg", "MANIFEST.md", NULL},
	 {"traces", NULL},
	 "otf2",
	 {"traces.otf2", "traces.def", "traces/0.def", "traces/0.evt",
	  "traces/1.def", "traces/1.evt", NULL}},
	/* Extra-P sets: Cube, Nsight (with Compute reports), Extra-Prof */
	{{"mm.x1y1.r1/profile.cubex", "mm.x2y1.r1/profile.cubex",
	  "mm.x1y1.r1/scorep.log", "mm.x1y1.r1/profile.cubex.orig",
	  "mm.x2y1.r1/.profile.cubex", "test_file.txt", NULL},
	 {"mm.x1y1.r1", "mm.x2y1.r1", NULL},
	 "extrap-cubeset",
	 {"mm.x1y1.r1/profile.cubex", "mm.x2y1.r1/profile.cubex", NULL}},
	{{"ex.s10/ex.s10.sqlite", "ex.s10/ex.s10.ncu-rep",
	  "ex.s10/ex.s10.nsys-rep", "ex.s100/ex.s100.sqlite",
	  "ex.s100/ex.s100.nsight-cuprof-report", "ex.s100/.ex.s100.sqlite",
	  "README.pdf", NULL},
	 {"ex.s10", "ex.s100", NULL},
	 "extrap-nsight",
	 {"ex.s10/ex.s10.sqlite", "ex.s10/ex.s10.ncu-rep",
	  "ex.s100/ex.s100.sqlite", "ex.s100/ex.s100.nsight-cuprof-report",
	  NULL}},
	{{"t.s1/profile.extra-prof.msgpack",
	  "t.s1/profile-hwc.extra-prof.msgpack",
	  "t.s1/profile.extra-prof.msgpack.bak",
	  "t.s2/profile.extra-prof.msgpack", "t.s2/run.log", "notes.txt", NULL},
	 {"t.s1", "t.s2", NULL},
	 "extrap-prof",
	 {"t.s1/profile.extra-prof.msgpack",
	  "t.s1/profile-hwc.extra-prof.msgpack",
	  "t.s2/profile.extra-prof.msgpack", NULL}},
};

static void test_formats(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_plan(cases[i].files, cases[i].dirs, cases[i].reader,
			   cases[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
