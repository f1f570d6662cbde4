/* Tests for archive_extract: every format extracts the same tree (contents
 * and modes checked against the generator's table, written out here), every
 * hostile archive of tests/gen_archives.py is refused with an error naming
 * the archive and the entry while nothing is written outside the
 * destination and no temporary directory is left, the limits and the
 * cancel flag stop an extraction, database roots are found, and the
 * corpus' HPCToolkit tarballs extract with the roots their listings
 * show. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/archive_extract.h"
#include "archive/archive_open.h"
#include "archive/archive_roots.h"
#include "core/file_tree.h"
#include "model/model.h"
#include "open.h"

/* A bidder for archive_find_roots by names alone, standing for the
 * registry: a directory holding meta.db, profile.db or experiment.xml is
 * sure (reader A); "parent" is a guess of A (a folder of A's databases;
 * A does not merge); "multi*" and a directory holding a .run file are
 * guesses of R, which merges, and a .run file is sure of R; "set*" is a
 * guess of S; a .pt file is sure of C, and "fold*" holding one a guess of
 * C (a Cube profile's folder). */
static const char reader_a, reader_r, reader_s, reader_c;

static bool has_file(const char *dir, const char *name)
{
	char p[1024];
	struct stat sb;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

static bool has_suffix_file(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool yes = false;
	while (d && !yes && (de = readdir(d))) {
		size_t n = strlen(de->d_name), k = strlen(suffix);
		yes = n > k && strcmp(de->d_name + n - k, suffix) == 0 &&
		      has_file(dir, de->d_name);
	}
	if (d)
		closedir(d);
	return yes;
}

static int names_bid(void *ctx, const char *path, const void **who,
		     bool *merges)
{
	(void)ctx;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);
	struct stat sb;
	*who = NULL;
	*merges = false;
	if (lstat(path, &sb) != 0)
		return 0;
	if (S_ISREG(sb.st_mode)) {
		if (n > 4 && strcmp(base + n - 4, ".run") == 0) {
			*who = &reader_r;
			*merges = true;
			return 90;
		}
		if (n > 3 && strcmp(base + n - 3, ".pt") == 0) {
			*who = &reader_c;
			return 90;
		}
		return 0;
	}
	if (has_file(path, "meta.db") || has_file(path, "profile.db") ||
	    has_file(path, "experiment.xml")) {
		*who = &reader_a;
		return 90;
	}
	if (strcmp(base, "parent") == 0) {
		*who = &reader_a;
		return 35;
	}
	if (strncmp(base, "multi", 5) == 0 || has_suffix_file(path, ".run")) {
		*who = &reader_r;
		*merges = true;
		return 30;
	}
	if (strncmp(base, "set", 3) == 0) {
		*who = &reader_s;
		return 30;
	}
	if (strncmp(base, "fold", 4) == 0 && has_suffix_file(path, ".pt")) {
		*who = &reader_c; /* a profile's folder: its one file */
		return 35;
	}
	return 0;
}

static char work[] = "/tmp/test-archive-XXXXXX";
static char fixtures[sizeof(work) + 16];
static char out_dir[sizeof(work) + 16];
static char dest[sizeof(work) + 32];

static int setup(void **state)
{
	(void)state;
	umask(022);
	if (!mkdtemp(work))
		return -1;
	snprintf(fixtures, sizeof(fixtures), "%s/fx", work);
	snprintf(out_dir, sizeof(out_dir), "%s/out", work);
	snprintf(dest, sizeof(dest), "%s/out/dest", work);
	if (mkdir(out_dir, 0755) != 0)
		return -1;
	const char *src = getenv("top_srcdir");
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "python3 %s/tests/gen_archives.py %s",
		 src ? src : ".", fixtures);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	file_tree_remove(work, NULL);
	return 0;
}

static char *fixture(const char *name)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	return path;
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return (size_t)-1;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* The destination's parent holds nothing else: no temp dir, no escapee. */
static void assert_clean(bool dest_expected)
{
	assert_int_equal(count_entries(out_dir), dest_expected ? 1 : 0);
	struct stat sb;
	assert_int_equal(lstat(dest, &sb) == 0, dest_expected);
	char outside[512];
	snprintf(outside, sizeof(outside), "%s/outside", fixtures);
	assert_int_equal(count_entries(outside), 0);
	snprintf(outside, sizeof(outside), "%s/abs-target", fixtures);
	assert_int_not_equal(lstat(outside, &sb), 0);
	snprintf(outside, sizeof(outside), "%s/evil", work);
	assert_int_not_equal(lstat(outside, &sb), 0);
	snprintf(outside, sizeof(outside), "%s/zipevil", work);
	assert_int_not_equal(lstat(outside, &sb), 0);
}

static void reset_dest(void)
{
	file_tree_remove(dest, NULL);
	assert_int_equal(count_entries(out_dir), 0);
}

static void assert_file(const char *rel, const char *want, size_t want_len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dest, rel);
	struct stat sb;
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 07777, 0644);
	assert_int_equal((size_t)sb.st_size, want_len);
	char *buf = malloc(want_len + 1);
	assert_non_null(buf);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(buf, 1, want_len + 1, f), want_len);
	fclose(f);
	assert_memory_equal(buf, want, want_len);
	free(buf);
}

static void test_null_and_missing(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(archive_extract_file(NULL, dest, NULL, NULL, &err),
			 STATUS_USAGE);
	assert_int_equal(archive_extract_file("x", NULL, NULL, NULL, &err),
			 STATUS_USAGE);
	assert_int_equal(archive_extract_memory(NULL, 5, "m", dest, NULL,
						NULL, &err),
			 STATUS_USAGE);
	assert_int_equal(archive_extract_file(fixture("absent.tar"), dest,
					      NULL, NULL, &err),
			 STATUS_NOT_FOUND);
	assert_int_equal(archive_extract_file(fixtures, dest, NULL, NULL,
					      &err),
			 STATUS_NOT_DATABASE);
	assert_false(archive_is_archive(NULL));
	assert_false(archive_is_archive(fixtures));
	assert_false(archive_is_archive(fixture("absent.tar")));
	assert_int_equal(file_tree_remove(NULL, NULL), STATUS_USAGE);
	char **paths = (char **)&paths;
	size_t n = 9;
	assert_int_equal(archive_find_roots(NULL, names_bid, NULL, 39, &paths,
					    &n, &err),
			 STATUS_USAGE);
	assert_int_equal(archive_find_roots(fixtures, NULL, NULL, 39, &paths,
					    &n, &err),
			 STATUS_USAGE);
	assert_int_equal(archive_find_roots(fixture("absent"), names_bid, NULL,
					    39, &paths, &n, &err),
			 STATUS_NOT_FOUND);
	assert_null(paths);
	assert_int_equal(n, 0);
	archive_free_paths(NULL, 0);
	error_clear(&err);
	assert_clean(false);
}

static void test_not_an_archive(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(archive_extract_file(fixture("notarchive.bin"), dest,
					      NULL, NULL, &err),
			 STATUS_NOT_DATABASE);
	assert_non_null(strstr(err.file, "notarchive.bin"));
	assert_non_null(strstr(err.message, "not an archive"));
	error_clear(&err);
	assert_false(archive_is_archive(fixture("notarchive.bin")));
	assert_int_equal(archive_extract_memory("", 0, "empty", dest, NULL,
						NULL, &err),
			 STATUS_NOT_DATABASE);
	error_clear(&err);
	assert_clean(false);
}

static void check_ok_tree(void)
{
	assert_file("db/meta.db", "METAMETAMETA", 12);
	char prof[4001];
	for (int i = 0; i < 1000; i++)
		memcpy(prof + 4 * i, "PROF", 4);
	assert_file("db/profile.db", prof, 4000);
	assert_file("db/src/a.c", "int x;\n", 7);
	assert_file("notes.txt", "notes\n", 6);
	struct stat sb;
	char path[512];
	snprintf(path, sizeof(path), "%s/db", dest);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(sb.st_mode & 07777, 0755);
	assert_int_equal(count_entries(dest), 2);
	snprintf(path, sizeof(path), "%s/db", dest);
	assert_int_equal(count_entries(path), 3);
}

static void test_every_format(void **state)
{
	(void)state;
	static const char *const names[] = {
		"ok.tar", "ok.tar.gz", "ok.tgz", "ok.tar.xz",
		"ok.tar.zst", "ok.tar.bz2", "ok.zip",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct error err = {.status = STATUS_OK};
		print_message("%s\n", names[i]);
		assert_true(archive_is_archive(fixture(names[i])));
		enum status st = archive_extract_file(fixture(names[i]), dest,
						      NULL, NULL, &err);
		if (st != STATUS_OK)
			print_message("%s: %s\n", err.file, err.message);
		assert_int_equal(st, STATUS_OK);
		assert_clean(true);
		check_ok_tree();
		reset_dest();
	}
}

static void test_from_memory(void **state)
{
	(void)state;
	FILE *f = fopen(fixture("ok.tar.xz"), "rb");
	assert_non_null(f);
	char buf[4096];
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(len > 0 && len < sizeof(buf));
	struct error err = {.status = STATUS_OK};
	assert_int_equal(archive_extract_memory(buf, len, "mem.tar.xz", dest,
						NULL, NULL, &err),
			 STATUS_OK);
	check_ok_tree();
	reset_dest();
}

static void test_hostile(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		enum status status;
		const char *entry; /* in the message */
	} cases[] = {
		{"evil-dotdot.tar", STATUS_CORRUPT, "../evil"},
		{"evil-dotdot-mid.tar", STATUS_CORRUPT, "a/../../evil"},
		{"evil-abs.tar", STATUS_CORRUPT, "abs-target"},
		{"evil-abs-etc.tar", STATUS_CORRUPT, "/etc/x"},
		{"evil-symlink-root.tar", STATUS_UNSUPPORTED, "root"},
		{"evil-symlink-then-file.tar", STATUS_UNSUPPORTED, "\"s\""},
		{"evil-symlink-rel.tar", STATUS_UNSUPPORTED, "up"},
		{"evil-hardlink-out.tar", STATUS_UNSUPPORTED, "\"h\""},
		{"evil-hardlink-dotdot.tar", STATUS_UNSUPPORTED, "\"h\""},
		{"evil-device.tar", STATUS_UNSUPPORTED, "null"},
		{"evil-blockdev.tar", STATUS_UNSUPPORTED, "disk"},
		{"evil-fifo.tar", STATUS_UNSUPPORTED, "pipe"},
		{"evil-file-then-dir.tar", STATUS_CORRUPT, "x/y"},
		{"evil-dir-then-file.tar", STATUS_CORRUPT, "directory is in"},
		{"evil-dotdot.zip", STATUS_CORRUPT, "../zipevil"},
		{"evil-symlink.zip", STATUS_UNSUPPORTED, "link"},
		{"long-path.tar", STATUS_LIMIT, "dddd"},
		{"declared.tar", STATUS_LIMIT, "huge"},
		{"truncated.tar", STATUS_CORRUPT, NULL},
		{"truncated.tar.gz", STATUS_CORRUPT, NULL},
	};
	struct stat sb;
	bool etc_x = lstat("/etc/x", &sb) == 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct error err = {.status = STATUS_OK};
		print_message("%s\n", cases[i].file);
		enum status st = archive_extract_file(fixture(cases[i].file),
						      dest, NULL, NULL, &err);
		print_message("  -> %s\n", err.message ? err.message : "");
		assert_int_equal(st, cases[i].status);
		assert_non_null(strstr(err.file, cases[i].file));
		if (cases[i].entry)
			assert_non_null(strstr(err.message, cases[i].entry));
		error_clear(&err);
		assert_clean(false);
	}
	assert_int_equal(lstat("/etc/x", &sb) == 0, etc_x);
}

static void test_duplicate_entry_replaced(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(archive_extract_file(fixture("dup.tar"), dest, NULL,
					      NULL, &err),
			 STATUS_OK);
	assert_file("f", "second copy", 11);
	reset_dest();
}

static void test_limits(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	struct archive_limits lim = archive_limits_default();
	assert_int_equal(lim.max_total_bytes, (uint64_t)64 << 30);
	assert_int_equal(lim.max_entries, 1000000);
	/* 10,000 entries pass the default and not a limit of 5,000 */
	assert_int_equal(archive_extract_file(fixture("many.tar"), dest, NULL,
					      NULL, &err),
			 STATUS_OK);
	char path[512];
	snprintf(path, sizeof(path), "%s/many", dest);
	assert_int_equal(count_entries(path), 10000);
	assert_file("many/f09999", "9999\n", 5);
	reset_dest();
	lim.max_entries = 5000;
	assert_int_equal(archive_extract_file(fixture("many.tar"), dest, &lim,
					      NULL, &err),
			 STATUS_LIMIT);
	assert_non_null(strstr(err.message, "more than 5000 entries"));
	assert_clean(false);
	/* the bomb: 64 MiB from 64 KiB */
	lim = archive_limits_default();
	lim.ratio_floor = 1 << 20;
	lim.max_ratio = 100;
	assert_int_equal(archive_extract_file(fixture("bomb.tar.gz"), dest,
					      &lim, NULL, &err),
			 STATUS_LIMIT);
	assert_non_null(strstr(err.message, "ratio"));
	assert_clean(false);
	lim = archive_limits_default();
	lim.max_total_bytes = 8 << 20;
	assert_int_equal(archive_extract_file(fixture("bomb.tar.gz"), dest,
					      &lim, NULL, &err),
			 STATUS_LIMIT);
	assert_non_null(strstr(err.message, "zeros"));
	assert_clean(false);
	lim = archive_limits_default();
	lim.max_entry_bytes = 1 << 20;
	assert_int_equal(archive_extract_file(fixture("bomb.tar.gz"), dest,
					      &lim, NULL, &err),
			 STATUS_LIMIT);
	assert_clean(false);
	/* a path of 30 bytes with a limit of 20 */
	lim = archive_limits_default();
	lim.max_path = 10;
	assert_int_equal(archive_extract_file(fixture("ok.tar"), dest, &lim,
					      NULL, &err),
			 STATUS_LIMIT);
	assert_non_null(strstr(err.message, "db/profile.db"));
	assert_clean(false);
	error_clear(&err);
}

static void test_cancel(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	volatile sig_atomic_t stop = 1;
	assert_int_equal(archive_extract_file(fixture("many.tar"), dest, NULL,
					      &stop, &err),
			 STATUS_IO);
	assert_non_null(strstr(err.message, "interrupted"));
	error_clear(&err);
	assert_clean(false);
	stop = 0;
	assert_int_equal(archive_extract_file(fixture("ok.tar"), dest, NULL,
					      &stop, &err),
			 STATUS_OK);
	reset_dest();
}

static void test_destination_is_a_link(void **state)
{
	(void)state;
	char outside[512];
	snprintf(outside, sizeof(outside), "%s/outside", fixtures);
	assert_int_equal(symlink(outside, dest), 0);
	struct error err = {.status = STATUS_OK};
	assert_int_equal(archive_extract_file(fixture("ok.tar"), dest, NULL,
					      NULL, &err),
			 STATUS_IO);
	error_clear(&err);
	assert_int_equal(count_entries(outside), 0);
	assert_int_equal(unlink(dest), 0);
	assert_clean(false);
}

static void make(const char *rel, bool dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dest, rel);
	if (dir) {
		assert_int_equal(mkdir(path, 0755), 0);
	} else {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
}

/* Finds the roots below dest with names_bid (sure above 39); the roots
 * as one "a b c" string in `out`. */
static void roots_of(char *out, size_t len)
{
	struct error err = {.status = STATUS_OK};
	char **paths = NULL;
	size_t n = 9;
	assert_int_equal(archive_find_roots(dest, names_bid, NULL, 39, &paths,
					    &n, &err),
			 STATUS_OK);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 i ? " " : "", paths[i]);
	archive_free_paths(paths, n);
}

static void test_find_databases(void **state)
{
	(void)state;
	struct error err = {.status = STATUS_OK};
	char **paths = NULL;
	size_t n = 9;
	char got[512];
	assert_int_equal(mkdir(dest, 0755), 0);
	assert_int_equal(archive_find_roots(dest, names_bid, NULL, 39, &paths,
					    &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 0);
	assert_null(paths);
	make("z", true);
	make("z/meta.db", false);
	make("z/inner", true);
	make("z/inner/meta.db", false);
	make("b", true);
	make("b/c", true);
	make("b/c/experiment.xml", false);
	make("a", true);
	make("a/profile.db", false);
	make("e", true);
	make("f", true);
	make("f/meta.db", true); /* a directory is not a marker */
	char path[512], target[512];
	snprintf(path, sizeof(path), "%s/link", dest);
	snprintf(target, sizeof(target), "%s/z", dest);
	assert_int_equal(symlink(target, path), 0);
	roots_of(got, sizeof(got));
	assert_string_equal(got, "a b/c z");
	make("meta.db", false);
	roots_of(got, sizeof(got));
	assert_string_equal(got, ".");
	reset_dest();
}

/* The guesses: a directory only guessed at is the database when what is
 * below it is of its reader and that reader merges (a run's files or
 * per-host directories), or files of other readers in its
 * subdirectories (a set), folders standing for the files directly in
 * them counting as those files; else what is below it is. */
static void test_find_roots_guesses(void **state)
{
	(void)state;
	char got[512];
	assert_int_equal(mkdir(dest, 0755), 0);
	make("run1", true); /* a run's files */
	make("run1/x.run", false);
	make("run1/y.run", false);
	make("multi", true); /* a run's per-host directories */
	make("multi/h1", true);
	make("multi/h1/x.run", false);
	make("multi/h2", true);
	make("multi/h2/y.run", false);
	make("set", true); /* a set of measurements */
	make("set/p1", true);
	make("set/p1/a.pt", false);
	make("set/p2", true);
	make("set/p2/b.pt", false);
	make("parent", true); /* a folder of databases that do not merge */
	make("parent/d1", true);
	make("parent/d1/meta.db", false);
	make("parent/d2", true);
	make("parent/d2/meta.db", false);
	make("setx", true); /* a set's guess over a file directly in it */
	make("setx/x.pt", false);
	make("set2", true); /* a set of profile folders: they stand for */
	make("set2/fold1", true); /* their files */
	make("set2/fold1/a.pt", false);
	make("set2/fold2", true);
	make("set2/fold2/b.pt", false);
	make("fold3", true); /* a folder alone: the folder */
	make("fold3/c.pt", false);
	make("plain", true); /* no bid at all */
	make("plain/notes", false);
	roots_of(got, sizeof(got));
	assert_string_equal(got, "fold3 multi parent/d1 parent/d2 run1 set "
				 "set2 setx/x.pt");
	reset_dest();
}

static void test_corpus_tarballs(void **state)
{
	(void)state;
	const char *src = getenv("top_srcdir");
	char dir[512];
	snprintf(dir, sizeof(dir),
		 "%s/../shared/corpus/hpctoolkit-xml/hpctoolkit/doc/www/"
		 "examples",
		 src ? src : ".");
	struct stat sb;
	if (stat(dir, &sb) != 0) {
		print_message("no shared corpus at %s: skipped\n", dir);
		skip();
	}
	/* the roots as `tar tzf` lists them */
	static const struct {
		const char *file;
		size_t n;
		const char *roots[4];
	} cases[] = {
		{"lu.C.256.nosrc.tar.gz", 1,
		 {"hpctoolkit-lu.C.256-database-466923"}},
		{"milc-su3_rmd.nosrc.tar.gz", 1, {"su3_rmd-wall5001-small.db"}},
		{"npb-upc-ibv-berkeley.nosrc.tar.gz", 4,
		 {"cg.C.O3.64.bupc.infiniband", "ft.B.O1.64.bupc.infiniband",
		  "is.C.O1.32.bupc.infiniband",
		  "mg.B.O3.32.bupc.infiniband"}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].file);
		struct error err = {.status = STATUS_OK};
		assert_true(archive_is_archive(path));
		assert_int_equal(archive_extract_file(path, dest, NULL, NULL,
						      &err),
				 STATUS_OK);
		char **roots = NULL;
		size_t n = 0;
		assert_int_equal(archive_find_roots(dest, names_bid, NULL, 39,
						    &roots, &n, &err),
				 STATUS_OK);
		assert_int_equal(n, cases[i].n);
		for (size_t k = 0; k < n; k++)
			assert_string_equal(roots[k], cases[i].roots[k]);
		archive_free_paths(roots, n);
		reset_dest();
	}
}

/* A generated v4 database packed as a tar.gz, opened without the cache:
 * the extraction lives in TMPDIR while the model is open and is gone after
 * model_free. */
static void test_open_without_cache(void **state)
{
	(void)state;
	const char *bld = getenv("top_builddir");
	char cmd[1024], tmpdir[512], archive[512];
	snprintf(tmpdir, sizeof(tmpdir), "%s/tmpdir", work);
	snprintf(archive, sizeof(archive), "%s/v4.tar.gz", work);
	assert_int_equal(mkdir(tmpdir, 0700), 0);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/v4 && "
		 "%s/tests/gen-v4db -o %s/v4/one --seed 5 >/dev/null && "
		 "cp -r %s/v4/one %s/v4/two && "
		 "tar czf %s -C %s v4",
		 work, bld ? bld : ".", work, work, work, archive, work);
	if (system(cmd) != 0) {
		print_message("gen-v4db or tar failed: skipped\n");
		skip();
	}
	setenv("TMPDIR", tmpdir, 1);
	struct error err = {.status = STATUS_OK};
	struct model *m = NULL;
	assert_int_equal(archive_open_database(archive, NULL, false, database_archive_ops(), &m, &err),
			 STATUS_OK);
	assert_non_null(m);
	assert_string_equal(model_path(m), archive);
	assert_int_equal(model_n_warnings(m), 1);
	assert_non_null(strstr(model_warnings(m)[0], "holds 2 databases; opened "
					       "v4/one.  Others: v4/two"));
	assert_int_equal(count_entries(tmpdir), 1);
	/* a second model, by ARCHIVE/INNER through database_open */
	archive_open_set_cache(false);
	assert_false(archive_open_cache());
	char inner[600];
	snprintf(inner, sizeof(inner), "%s/v4/two/", archive);
	struct model *m2 = NULL;
	assert_int_equal(database_open(inner, &m2, &err), STATUS_OK);
	assert_string_equal(model_path(m2), inner);
	assert_int_equal(model_n_warnings(m2), 0);
	assert_int_equal(model_n_nodes(m2), model_n_nodes(m));
	assert_int_equal(count_entries(tmpdir), 2);
	double v1 = 0, v2 = 0;
	assert_true(model_value(m, 0, 0, &v1));
	assert_true(model_value(m2, 0, 0, &v2));
	assert_true(v1 == v2 && v1 > 0);
	model_free(m);
	assert_int_equal(count_entries(tmpdir), 1);
	model_free(m2);
	assert_int_equal(count_entries(tmpdir), 0);
	/* refused inner paths and failures leave nothing behind */
	assert_int_equal(archive_open_database(archive, "../v4/one", false, database_archive_ops(), &m,
					       &err),
			 STATUS_USAGE);
	assert_null(m);
	assert_int_equal(archive_open_database(archive, "v4/three", false, database_archive_ops(), &m,
					       &err),
			 STATUS_NOT_DATABASE);
	assert_string_equal(err.file, archive);
	assert_int_equal(count_entries(tmpdir), 0);
	/* a database file inside: the v4 reader takes a meta.db path */
	assert_int_equal(archive_open_database(archive, "v4/one/meta.db", false, database_archive_ops(),
					       &m, &err),
			 STATUS_OK);
	snprintf(inner, sizeof(inner), "%s/v4/one/meta.db", archive);
	assert_string_equal(model_path(m), inner);
	model_free(m);
	m = NULL;
	assert_int_equal(count_entries(tmpdir), 0);
	/* a meta.db no reader takes: the error names the archive */
	assert_int_equal(archive_open_database(fixture("ok.tar.gz"), NULL,
					       false, database_archive_ops(), &m, &err),
			 STATUS_NOT_DATABASE);
	assert_null(strstr(err.file, tmpdir));
	assert_non_null(err.file);
	assert_int_equal(strncmp(err.file, fixture("ok.tar.gz"),
				 strlen(fixture("ok.tar.gz"))),
			 0);
	assert_int_equal(archive_open_database(fixture("many.tar"), NULL,
					       false, database_archive_ops(), &m, &err),
			 STATUS_NOT_DATABASE);
	assert_non_null(strstr(err.message, "no database"));
	assert_int_equal(count_entries(tmpdir), 0);
	/* ARCHIVE/INNER splitting */
	char *a = NULL, *in = NULL;
	assert_true(archive_split_path(inner, &a, &in));
	assert_string_equal(a, archive);
	assert_string_equal(in, "v4/one/meta.db");
	free(a);
	free(in);
	snprintf(inner, sizeof(inner), "%s/nothing/here", fixtures);
	assert_false(archive_split_path(inner, &a, &in));
	assert_null(a);
	archive_open_set_cache(true);
	unsetenv("TMPDIR");
	error_clear(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_and_missing),
		cmocka_unit_test(test_not_an_archive),
		cmocka_unit_test(test_every_format),
		cmocka_unit_test(test_from_memory),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_duplicate_entry_replaced),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_destination_is_a_link),
		cmocka_unit_test(test_find_databases),
		cmocka_unit_test(test_find_roots_guesses),
		cmocka_unit_test(test_corpus_tarballs),
		cmocka_unit_test(test_open_without_cache),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
