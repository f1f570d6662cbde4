/* test-reader-probe: the probe the reader registry reads once for every
 * bidder (formats/probe.c) and the choice of a reader: degenerate inputs
 * first (a missing path, an empty directory, an empty file), then a
 * directory's names with a file registered as remote, the file names
 * one level down (point directories), ROCm run directories and index
 * YAML files, an SQLite file's tables (and that
 * probing writes nothing), an archive's members, and which reader each
 * probe picks. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_tree.h"
#include "formats/reader.h"
#include "io/blob.h"

static char dir[] = "/tmp/test-reader-probe-XXXXXX";

static char *at(const char *name)
{
	static char buf[4][512];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static struct reader_probe *probe(const char *path, enum status want)
{
	struct reader_probe *p = NULL;
	struct error err = {0};
	assert_int_equal(reader_probe_read(path, &p, &err), want);
	error_clear(&err);
	return p;
}

static void test_degenerate(void **state)
{
	(void)state;
	assert_null(probe(at("missing"), STATUS_NOT_FOUND));
	assert_int_equal(mkdir(at("empty"), 0700), 0);
	struct reader_probe *p = probe(at("empty"), STATUS_OK);
	assert_true(p->is_dir);
	assert_int_equal(p->n_names + p->n_subdirs, 0);
	assert_false(reader_probe_has(p, "meta.db"));
	assert_null(reader_choose(p));
	reader_probe_free(p);
	write_file(at("zero"), "", 0);
	p = probe(at("zero"), STATUS_OK);
	assert_true(p->is_file);
	assert_int_equal(p->head_len, 0);
	assert_false(p->is_sqlite || p->is_archive);
	assert_null(reader_choose(p));
	reader_probe_free(p);
	reader_probe_free(NULL);
}

static enum status no_fetch(void *ctx, uint64_t off, uint64_t len, void *buf,
			    struct error *err)
{
	(void)ctx;
	(void)off;
	(void)len;
	(void)buf;
	return error_set(err, STATUS_IO, NULL, "not fetched in this test");
}

/* The name of the reader chosen for `path` ("" for none). */
static const char *chosen(const char *path)
{
	struct reader_probe *p = probe(path, STATUS_OK);
	const struct reader *r = reader_choose(p);
	reader_probe_free(p);
	return r ? r->name : "";
}

/* A directory's files and subdirectories, sorted, plus a file that
 * exists only as a registered remote file. */
static void test_directory(void **state)
{
	(void)state;
	assert_int_equal(mkdir(at("db"), 0700), 0);
	assert_int_equal(mkdir(at("db/metrics"), 0700), 0);
	write_file(at("db/meta.db"), "HPCTOOLKITmeta", 14);
	write_file(at("db/profile.db"), "x", 1);
	struct reader_probe *p = probe(at("db"), STATUS_OK);
	assert_int_equal(p->n_names, 2);
	assert_string_equal(p->names[0], "meta.db");
	assert_string_equal(p->names[1], "profile.db");
	assert_int_equal(p->n_subdirs, 1);
	assert_string_equal(p->subdirs[0], "metrics");
	assert_false(reader_probe_has(p, "trace.db"));
	const struct reader *r = reader_choose(p);
	assert_non_null(r);
	assert_string_equal(r->name, "hpctoolkit-v4");
	reader_probe_free(p);
	struct error err = {0};
	struct blob_fetcher f = {.fetch = no_fetch};
	assert_int_equal(blob_register_fetcher(at("db/trace.db"),
					       "http://127.0.0.1:9/trace.db", &f,
					       100, NULL, NULL, &err),
			 STATUS_OK);
	p = probe(at("db"), STATUS_OK);
	assert_true(reader_probe_has(p, "trace.db"));
	assert_int_equal(p->n_names, 3);
	reader_probe_free(p);
	blob_unregister_all();
	/* a file: its head, and the file's own name */
	p = probe(at("db/meta.db"), STATUS_OK);
	assert_int_equal(p->head_len, 14);
	assert_true(reader_probe_head_is(p, "HPCTOOLKIT", 10));
	assert_string_equal(reader_probe_base(p), "meta.db");
	reader_probe_free(p);
	/* experiment.xml wins over a partial v4 directory (the 2020 layout) */
	assert_int_equal(unlink(at("db/meta.db")), 0);
	write_file(at("db/experiment.xml"), "<?xml", 5);
	assert_string_equal(chosen(at("db")), "hpctoolkit-xml");
	/* the GPU-run readers guess a directory from its file names (an
	 * Nsight export, a ROCm profile) and lose to the reader that knows
	 * the directory's files: they name no other format's files */
	write_file(at("db/run.sqlite"), "x", 1);
	write_file(at("db/run.rpd"), "x", 1);
	assert_string_equal(chosen(at("db")), "hpctoolkit-xml");
	assert_int_equal(unlink(at("db/experiment.xml")), 0);
	write_file(at("db/meta.db"), "HPCTOOLKITmeta", 14);
	assert_string_equal(chosen(at("db")), "hpctoolkit-v4");
}

/* A directory of point directories: the file names one level down,
 * sorted, once each, dot files left out; .sqlite (or .ncu-rep) files
 * make it an Nsight set (extrap-nsight, 40), .cubex files a Cube set
 * (extrap-cubeset, 30), .extra-prof.msgpack files an Extra-Prof set
 * (extrap-prof, 40). */
static void test_point_dirs(void **state)
{
	(void)state;
	assert_int_equal(mkdir(at("set"), 0700), 0);
	assert_int_equal(mkdir(at("set/app.s1"), 0700), 0);
	assert_int_equal(mkdir(at("set/app.s2"), 0700), 0);
	write_file(at("set/app.s1/a.sqlite"), "x", 1);
	write_file(at("set/app.s1/b.ncu-rep"), "x", 1);
	write_file(at("set/app.s1/.hidden.sqlite"), "x", 1);
	write_file(at("set/app.s2/a.sqlite"), "x", 1);
	struct reader_probe *p = probe(at("set"), STATUS_OK);
	assert_int_equal(p->n_subdirs, 2);
	assert_int_equal(p->n_subnames, 2);
	assert_string_equal(p->subnames[0], "a.sqlite");
	assert_string_equal(p->subnames[1], "b.ncu-rep");
	assert_string_equal(reader_choose(p)->name, "extrap-nsight");
	reader_probe_free(p);
	assert_int_equal(unlink(at("set/app.s1/a.sqlite")), 0);
	assert_int_equal(unlink(at("set/app.s2/a.sqlite")), 0);
	/* .ncu-rep reports alone: the Nsight reader's refusal */
	assert_string_equal(chosen(at("set")), "extrap-nsight");
	assert_int_equal(unlink(at("set/app.s1/b.ncu-rep")), 0);
	write_file(at("set/app.s1/profile.cubex"), "x", 1);
	assert_string_equal(chosen(at("set")), "extrap-cubeset");
	/* Extra-Prof profiles (40) over the Cube files; a .bak copy is not
	 * one */
	write_file(at("set/app.s2/profile.extra-prof.msgpack.bak"), "x", 1);
	assert_string_equal(chosen(at("set")), "extrap-cubeset");
	write_file(at("set/app.s2/profile.extra-prof.msgpack"), "x", 1);
	assert_string_equal(chosen(at("set")), "extrap-prof");
}

/* ROCm runs: rocprofv3's HOST/PID_results.db beside stray files (the
 * databases one level down), not a set of HPCToolkit databases; a run's
 * index YAML file. */
static void test_rocpd_layouts(void **state)
{
	(void)state;
	assert_int_equal(mkdir(at("run"), 0700), 0);
	assert_int_equal(mkdir(at("run/node0"), 0700), 0);
	write_file(at("run/README.txt"), "x", 1);
	write_file(at("run/node0/1_results.db"), "x", 1);
	write_file(at("run/node0/rocprofv3.log"), "x", 1);
	struct reader_probe *p = probe(at("run"), STATUS_OK);
	assert_non_null(reader_choose(p));
	assert_string_equal(reader_choose(p)->name, "rocpd");
	reader_probe_free(p);
	/* subdirectories of HPCToolkit databases */
	assert_int_equal(mkdir(at("dbs"), 0700), 0);
	assert_int_equal(mkdir(at("dbs/a"), 0700), 0);
	write_file(at("dbs/a/meta.db"), "x", 1);
	write_file(at("dbs/a/profile.db"), "x", 1);
	/* the reader of their files takes them (and says they are a set) */
	assert_string_equal(chosen(at("dbs")), "hpctoolkit-v4");
	/* more of them than the probe lists: still not a run */
	for (int i = 0; i < READER_PROBE_SUBDIRS + 1; i++) {
		char sub[64];
		snprintf(sub, sizeof(sub), "dbs/b%02d", i);
		assert_int_equal(mkdir(at(sub), 0700), 0);
		snprintf(sub, sizeof(sub), "dbs/b%02d/meta.db", i);
		write_file(at(sub), "x", 1);
	}
	assert_string_equal(chosen(at("dbs")), "hpctoolkit-v4");
	/* stray files alone */
	assert_int_equal(mkdir(at("stray"), 0700), 0);
	write_file(at("stray/notes.txt"), "x", 1);
	p = probe(at("stray"), STATUS_OK);
	assert_null(reader_choose(p));
	reader_probe_free(p);
	/* index YAML files: with a files: list, and any other (refused by
	 * the rocpd reader, whose message names the problem) */
	static const char yaml[] = "# index\nfiles:\n  - node0/1_results.db\n";
	static const char optiq[] = "rocprofiler-sdk:\n  rocpd:\n    files: []\n";
	write_file(at("run/index.yaml"), yaml, sizeof(yaml) - 1);
	write_file(at("run/optiq.yml"), optiq, sizeof(optiq) - 1);
	write_file(at("run/other.yaml"), "a: 1\n", 5);
	const char *const names[] = {"run/index.yaml", "run/optiq.yml",
				     "run/other.yaml"};
	for (int i = 0; i < 3; i++) {
		p = probe(at(names[i]), STATUS_OK);
		assert_non_null(reader_choose(p));
		assert_string_equal(reader_choose(p)->name, "rocpd");
		reader_probe_free(p);
	}
	p = probe(at("run/README.txt"), STATUS_OK);
	assert_null(reader_choose(p));
	reader_probe_free(p);
}

/* An SQLite file: its tables, sorted, and nothing written by probing. */
static void test_sqlite(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open(at("run.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "CREATE TABLE rocpd_op(id);"
				      "CREATE TABLE rocpd_api(id);"
				      "CREATE VIEW top AS SELECT 1;",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	struct stat before, after;
	assert_int_equal(stat(at("run.db"), &before), 0);
	struct reader_probe *p = probe(at("run.db"), STATUS_OK);
	assert_true(p->is_sqlite);
	assert_int_equal(p->n_tables, 3);
	assert_string_equal(p->tables[0], "rocpd_api");
	assert_string_equal(p->tables[1], "rocpd_op");
	assert_string_equal(p->tables[2], "top");
	assert_true(reader_probe_has_table(p, "rocpd_op"));
	assert_false(reader_probe_has_table(p, "rocpd_kernel_dispatch"));
	/* the rocpd reader takes an .rpd layout (rocpd_api and rocpd_op) */
	assert_non_null(reader_choose(p));
	assert_string_equal(reader_choose(p)->name, "rocpd");
	assert_false(p->is_archive);
	reader_probe_free(p);
	assert_int_equal(stat(at("run.db"), &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	assert_int_equal(access(at("run.db-journal"), F_OK), -1);
	assert_int_equal(access(at("run.db-wal"), F_OK), -1);
	/* an Nsight Systems export: StringIds and an activity table; Extra-P's
	 * added tables change nothing */
	assert_int_equal(sqlite3_open(at("run.sqlite"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "CREATE TABLE StringIds(id, value);"
				      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL"
				      "(start);"
				      "CREATE TABLE EXTRAP_FORMAT(x);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	p = probe(at("run.sqlite"), STATUS_OK);
	assert_non_null(reader_choose(p));
	assert_string_equal(reader_choose(p)->name, "nsight");
	reader_probe_free(p);
	/* a file with the SQLite magic and nothing after it */
	write_file(at("bad.db"), "SQLite format 3\0garbage", 23);
	struct error err = {0};
	assert_int_not_equal(reader_probe_read(at("bad.db"), &p, &err),
			     STATUS_OK);
	assert_non_null(err.file);
	error_clear(&err);
	reader_probe_free(p);
}

/* A tar: member names in archive order; the prefix when capped. */
static void test_archive(void **state)
{
	(void)state;
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	assert_int_equal(archive_write_open_filename(a, at("set.tar")),
			 ARCHIVE_OK);
	const char *names[] = {"anchor.xml", "0.index", "0.data"};
	for (int i = 0; i < 3; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_set_pathname(e, names[i]);
		archive_entry_set_size(e, 4);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		assert_int_equal(archive_write_data(a, "abcd", 4), 4);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
	struct reader_probe *p = probe(at("set.tar"), STATUS_OK);
	assert_true(p->is_archive);
	assert_true(p->members_complete);
	assert_int_equal(p->n_members, 3);
	for (int i = 0; i < 3; i++)
		assert_string_equal(p->members[i], names[i]);
	/* a Cube file's members: the cube reader's */
	const struct reader *r = reader_choose(p);
	assert_non_null(r);
	assert_string_equal(r->name, "cube");
	reader_probe_free(p);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	struct error err = {0};
	file_tree_remove(dir, &err);
	error_clear(&err);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_point_dirs),
		cmocka_unit_test(test_rocpd_layouts),
		cmocka_unit_test(test_sqlite),
		cmocka_unit_test(test_archive),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
