/* Tests of the nsight reader's interval lines and event details on a
 * hand-made export: a thread with an NVTX range holding a kernel launch,
 * a cudaMemcpy and its eventClass-67 duplicate; on the GPU the kernel and
 * the copy.  Checks the lines, the nesting depth, the kernel's grid, block,
 * registers and shared memory, the copy's bytes, kind and bandwidth, and
 * the degenerate events (none, a row that is not there); the links between
 * GPU work and the calls that launched it (trace_ops.linked). */
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
#include <sqlite3.h>

#include "formats/reader.h"
#include "model/model.h"
#include "views/trace_view.h"
#include "sqlite_fixture.h"

extern const struct reader reader_nsight;

static char path[] = "/tmp/callscope-nsight-XXXXXX";

static const char *const sql =
    "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'),"
    " (2, 'cudaMemcpy_v3020'), (3, 'saxpy'), (4, 'saxpy(float*)'),"
    " (5, 'cudaMemcpy');"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass,"
    " globalTid, correlationId, nameId, returnValue, callchainId);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
    " (110, 150, 0, 16777316, 7, 1, 0, NULL),"
    " (200, 900, 0, 16777316, 8, 2, 0, NULL),"
    " (200, 900, 67, 16777316, 8, 5, 0, 1);"
    "CREATE TABLE NVTX_EVENTS(start, end, eventType, rangeId, category,"
    " text, globalTid, textId, domainId);"
    "INSERT INTO NVTX_EVENTS VALUES (100, 1000, 59, NULL, 3, 'step',"
    " 16777316, NULL, 0), (5, NULL, 75, NULL, NULL, 'dom', 16777316,"
    " NULL, NULL);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId,"
    " contextId, streamId, correlationId, globalPid, demangledName,"
    " shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY,"
    " blockZ, staticSharedMemory, dynamicSharedMemory);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (160, 400, 0, 1, 7, 7,"
    " 16777216, 4, 3, 32, 128, 2, 1, 256, 1, 1, 48, 1024);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId,"
    " contextId, streamId, correlationId, globalPid, bytes, copyKind,"
    " srcKind, dstKind);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (500, 1000, 0, 1, 7, 8,"
    " 16777216, 2000, 1, 0, 1);";

SQLITE_FIXTURE_GROUP(path, 0, sql)

static const char *kv_text(const struct model_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, key) == 0)
			return kv[i].text;
	return NULL;
}

/* The model of the fixture file, which must open. */
static struct model *open_fixture(void)
{
	struct model *m = NULL;
	struct error err = {0};
	assert_int_equal(reader_open_path(&reader_nsight, path, &m, &err),
			 STATUS_OK);
	assert_non_null(m);
	return m;
}

static uint32_t line_labelled(const struct model *m, const char *label)
{
	for (uint32_t i = 0; i < model_n_timelines(m); i++)
		if (strcmp(model_str(m, model_timelines(m)[i].label), label) == 0)
			return i;
	return MODEL_NONE;
}

/* The details of interval `index` of `line`, which must be there. */
static struct model_kv *detail_of(const struct model *m, uint32_t line,
				  uint64_t index, size_t *n)
{
	struct trace_interval iv;
	struct model_kv *kv = NULL;
	struct error err = {0};
	assert_true(model_interval(m, line, index, &iv));
	assert_int_equal(model_event_detail(m, line, iv.event, &kv, n, &err),
			 STATUS_OK);
	assert_non_null(kv);
	return kv;
}

static void test_lines_and_details(void **state)
{
	(void)state;
	struct model *m = open_fixture();
	struct error err = {0};
	uint32_t host = line_labelled(m, "pid 1 tid 100");
	uint32_t gpu = line_labelled(m, "pid 1 GPU 0 stream 7");
	assert_int_not_equal(host, MODEL_NONE);
	assert_int_not_equal(gpu, MODEL_NONE);
	/* the range and two calls: the class-67 duplicate is not one */
	assert_int_equal(model_timelines(m)[host].count, 3);
	assert_int_equal(model_timelines(m)[gpu].count, 2);
	struct trace_interval iv;
	assert_true(model_interval(m, host, 0, &iv));
	assert_int_equal(iv.begin, 100);
	assert_int_equal(iv.depth, 0);
	assert_true(model_interval(m, host, 1, &iv));
	assert_int_equal(iv.begin, 110);
	assert_int_equal(iv.depth, 1);
	size_t n = 0;
	/* the kernel */
	assert_true(model_interval(m, gpu, 0, &iv));
	assert_int_equal(iv.begin, 160);
	struct model_kv *kv = detail_of(m, gpu, 0, &n);
	assert_string_equal(kv_text(kv, n, "grid"), "128x2x1");
	assert_string_equal(kv_text(kv, n, "block"), "256x1x1");
	assert_string_equal(kv_text(kv, n, "registers per thread"), "32");
	assert_string_equal(kv_text(kv, n, "static shared memory"), "48");
	assert_string_equal(kv_text(kv, n, "dynamic shared memory"), "1024");
	assert_string_equal(kv_text(kv, n, "name"), "saxpy(float*)");
	assert_string_equal(kv_text(kv, n, "correlation id"), "7");
	free(kv);
	/* the copy: 2000 bytes in 500 ns */
	kv = detail_of(m, gpu, 1, &n);
	assert_string_equal(kv_text(kv, n, "bytes"), "2000");
	assert_string_equal(kv_text(kv, n, "copy kind"), "HtoD");
	/* CUPTI memory kinds by name, the number kept */
	assert_string_equal(kv_text(kv, n, "source kind"), "unknown (0)");
	assert_string_equal(kv_text(kv, n, "destination kind"),
			    "pageable (1)");
	assert_string_equal(kv_text(kv, n, "bandwidth"), "4.000 GB/s");
	free(kv);
	/* the API call */
	kv = detail_of(m, host, 2, &n);
	assert_string_equal(kv_text(kv, n, "correlation id"), "8");
	assert_string_equal(kv_text(kv, n, "event class"), "CUDA runtime (0)");
	free(kv);
	/* the NVTX range: its event type and domain named, not raw enums
	 * (critique b8: "event type=59 domain=1") */
	kv = detail_of(m, host, 0, &n);
	assert_string_equal(kv_text(kv, n, "event type"),
			    "NvtxPushPopRange (59)");
	assert_string_equal(kv_text(kv, n, "domain"), "default (0)");
	for (size_t i = 0; i < n; i++)
		if (strcmp(kv[i].key, "event type") == 0) {
			assert_true(kv[i].is_number);
			assert_true(kv[i].number == 59);
		}
	free(kv);
	kv = NULL;
	/* degenerate events: none, and a row that is not there */
	assert_int_equal(
	    model_event_detail(m, gpu, MODEL_EVENT_NONE, &kv, &n, &err),
	    STATUS_OK);
	assert_null(kv);
	n = 0;
	assert_int_equal(
	    model_event_detail(m, gpu, (uint64_t)999 << 3, &kv, &n, &err),
	    STATUS_OK);
	assert_null(kv);
	assert_int_equal(n, 0);
	model_free(m);
}

/* Kinds and names: the kernel is named by its demangled name by default
 * (nsys stats), its function is GPU / kernels, the calls' host / CUDA
 * API, the range's host / NVTX ranges; --kernel-names base names it by
 * shortName and mangled falls back to the demangled name (no column). */
static void test_kinds_and_names(void **state)
{
	(void)state;
	static const char *const choice[] = {NULL, "base", "mangled"};
	static const char *const want[] = {"saxpy(float*)", "saxpy",
					   "saxpy(float*)"};
	for (size_t c = 0; c < 3; c++) {
		struct model *m = NULL;
		struct error err = {0};
		/* addressed to the reader by its own name */
		struct reader_option opt = {"nsight", "kernel-names",
					    choice[c]};
		struct reader_options o = {.list = &opt, .n = choice[c] ? 1 : 0};
		struct reader_input in = {.paths = (const char *[]){path},
					  .n_paths = 1,
					  .options = &o};
		assert_int_equal(reader_nsight.open(&in, &m, &err),
				 STATUS_OK);
		size_t kernels = 0;
		for (uint32_t i = 0; i < model_n_nodes(m); i++) {
			const struct model_node *nd = &model_nodes(m)[i];
			if (nd->function >= model_n_functions(m))
				continue;
			const struct model_function *f =
				&model_functions(m)[nd->function];
			const char *mod = model_str(m, f->module),
				   *file = model_str(m, f->file),
				   *name = model_str(m, nd->name);
			if (nd->kind == NODE_KERNEL) {
				assert_string_equal(name, want[c]);
				assert_string_equal(mod, "GPU");
				assert_string_equal(file, "kernels");
				kernels++;
			} else if (nd->kind == NODE_REGION) {
				assert_string_equal(mod, "host");
				assert_string_equal(file, "NVTX ranges");
			} else if (strncmp(name, "cuda", 4) == 0) {
				assert_string_equal(mod, "host");
				assert_string_equal(file, "CUDA API");
			} else if (strncmp(name, "[memcpy", 7) == 0) {
				assert_string_equal(mod, "GPU");
				assert_string_equal(file, "memory copies");
			}
		}
		assert_int_equal(kernels, 1);
		model_free(m);
	}
	/* an unknown choice, an unknown key are refused, naming them */
	static const struct reader_option bad[] = {
		{"gpu", "kernel-names", "short"},
		{"nsight", "colour", "red"},
		{"gpu", "align-clocks", "maybe"},
	};
	static const char *const said[] = {"'short'", "'colour'", "'maybe'"};
	for (size_t b = 0; b < 3; b++) {
		struct model *m = NULL;
		struct error err = {0};
		struct reader_options o = {.list = &bad[b], .n = 1};
		struct reader_input in = {.paths = (const char *[]){path},
					  .n_paths = 1,
					  .options = &o};
		assert_int_equal(reader_nsight.open(&in, &m, &err),
				 STATUS_USAGE);
		assert_null(m);
		assert_non_null(strstr(err.message, said[b]));
		error_clear(&err);
	}
	/* options addressed to another reader are not this reader's */
	struct reader_option other[] = {{"rocpd", "colour", "red"},
					{"dcpi", "image-path", "/nowhere"}};
	struct reader_options o = {.list = other, .n = 2};
	struct reader_input in = {.paths = (const char *[]){path},
				  .n_paths = 1,
				  .options = &o};
	struct model *m = NULL;
	struct error err = {0};
	assert_int_equal(reader_nsight.open(&in, &m, &err), STATUS_OK);
	model_free(m);
}

/* An export with ENUM_ tables: the details take the names from them. */
static void test_enum_tables(void **state)
{
	(void)state;
	sqlite3 *db = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
	    sqlite3_exec(db,
			 "CREATE TABLE ENUM_NSYS_EVENT_TYPE(id INTEGER PRIMARY "
			 "KEY, name TEXT, label TEXT);"
			 "INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (59, "
			 "'NvtxPushPopRangeFromTable', 'NVTX push/pop');",
			 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	struct model *m = open_fixture();
	struct error err = {0};
	uint32_t host = line_labelled(m, "pid 1 tid 100");
	struct trace_interval iv;
	struct model_kv *kv = NULL;
	size_t n = 0;
	assert_true(model_interval(m, host, 0, &iv));
	assert_int_equal(model_event_detail(m, host, iv.event, &kv, &n, &err),
			 STATUS_OK);
	assert_string_equal(kv_text(kv, n, "event type"),
			    "NvtxPushPopRangeFromTable (59)");
	free(kv);
	model_free(m);
}

static char *corr_of(const struct model *m, uint32_t line, uint64_t index)
{
	struct trace_interval iv;
	struct model_kv *kv = NULL;
	size_t n = 0;
	struct error err = {0};
	char *out = NULL;
	if (model_interval(m, line, index, &iv) &&
	    model_event_detail(m, line, iv.event, &kv, &n, &err) ==
		    STATUS_OK &&
	    kv_text(kv, n, "correlation id"))
		out = strdup(kv_text(kv, n, "correlation id"));
	free(kv);
	error_clear(&err);
	return out;
}

/* trace_ops.linked: the kernel and the copy to their calls and back, the
 * range and the class-67 duplicate without links, degenerate arguments;
 * then, by brute force over every interval, each link agrees with the
 * correlation ids of event_detail and each launch of a stream line is
 * in its call's chain (a context line's twin is not). */
static void test_links(void **state)
{
	(void)state;
	struct model *m = open_fixture();
	uint32_t host = line_labelled(m, "pid 1 tid 100");
	uint32_t gpu = line_labelled(m, "pid 1 GPU 0 stream 7");
	uint32_t l;
	uint64_t i;
	assert_true(model_interval_linked(m, gpu, 0, MODEL_LINK_CALL, &l, &i));
	assert_int_equal(l, host);
	assert_int_equal(i, 1); /* cudaLaunchKernel at 110 */
	assert_true(model_interval_linked(m, gpu, 1, MODEL_LINK_CALL, &l, &i));
	assert_int_equal(l, host);
	assert_int_equal(i, 2); /* cudaMemcpy at 200 */
	assert_true(model_interval_linked(m, host, 1, 0, &l, &i));
	assert_int_equal(l, gpu);
	assert_int_equal(i, 0);
	assert_false(model_interval_linked(m, host, 1, 1, &l, &i));
	assert_false(model_interval_linked(m, host, 0, 0, &l, &i));
	assert_false(model_interval_linked(m, host, 0, MODEL_LINK_CALL, &l,
					   &i));
	assert_false(model_interval_linked(m, host, 1, MODEL_LINK_CALL, &l,
					   &i));
	assert_false(model_interval_linked(m, gpu, 0, 0, &l, &i));
	assert_false(model_interval_linked(m, gpu, 2, MODEL_LINK_CALL, &l,
					   &i));
	assert_false(model_interval_linked(m, model_n_timelines(m), 0, 0, &l, &i));
	assert_false(model_interval_linked(NULL, 0, 0, 0, &l, &i));
	unsigned links = 0;
	for (uint32_t a = 0; a < model_n_timelines(m); a++)
		for (uint64_t k = 0; k < model_timelines(m)[a].count; k++) {
			if (!model_interval_linked(m, a, k, MODEL_LINK_CALL,
						   &l, &i))
				continue;
			char *c1 = corr_of(m, a, k), *c2 = corr_of(m, l, i);
			assert_non_null(c1);
			assert_non_null(c2);
			assert_string_equal(c1, c2);
			free(c1);
			free(c2);
			bool found = false;
			uint32_t xl;
			uint64_t xi;
			for (uint32_t nth = 0;
			     !found && model_interval_linked(m, l, i, nth, &xl,
							     &xi);
			     nth++)
				found = xl == a && xi == k;
			/* the same work on a context line (the grouping not
			 * shown first) links to its call but is not in the
			 * call's chain, which holds the stream lines' */
			assert_int_equal(found, model_timelines(m)[a].group ==
							TIMELINE_GROUP_STREAM);
			links++;
		}
	assert_int_equal(links, 4);
	model_free(m);
}

static uint32_t filtered_index(const struct trace_view *v, uint32_t line)
{
	for (uint32_t i = 0; i < trace_view_line_count(v); i++)
		if (trace_view_line(v, i) == line)
			return i;
	return MODEL_NONE;
}

/* trace_view_follow_link: kernel -> call -> kernel, X on the only launch,
 * idle, a range without links, the call's line filtered out. */
static void test_follow_link(void **state)
{
	(void)state;
	struct model *m = open_fixture();
	struct trace_view *v = NULL;
	struct error err = {0};
	assert_int_equal(trace_view_new(m, &v, &err), STATUS_OK);
	uint32_t host = filtered_index(
		v, line_labelled(m, "pid 1 tid 100"));
	uint32_t gpu = filtered_index(
		v, line_labelled(m, "pid 1 GPU 0 stream 7"));
	assert_int_not_equal(host, MODEL_NONE);
	assert_int_not_equal(gpu, MODEL_NONE);
	trace_view_set_cursor(v, 170, gpu);
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_MOVED);
	assert_int_equal(trace_view_cursor_line(v), host);
	assert_int_equal(trace_view_cursor_time(v), 110);
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_MOVED);
	assert_int_equal(trace_view_cursor_line(v), gpu);
	assert_int_equal(trace_view_cursor_time(v), 160);
	assert_int_equal(trace_view_follow_link(v, true), TRACE_LINK_ONLY);
	trace_view_set_cursor(v, 450, gpu); /* between kernel and copy */
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_IDLE);
	trace_view_set_cursor(v, 105, host); /* the NVTX range */
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_NONE);
	assert_int_equal(trace_view_set_filter(v, "STREAM 7", false, &err),
			 STATUS_OK);
	trace_view_set_cursor(v, 600, 0); /* the copy */
	assert_int_equal(trace_view_follow_link(v, false), TRACE_LINK_HIDDEN);
	trace_view_free(v);
	model_free(m);
}

/* model_trace_prepare: the file's intervals read up front, progress
 * before and after it, a stop before it leaves it for later. */
struct steps {
	uint32_t calls, done[4], total[4], stop_before;
};

static bool record_step(void *ctx, uint32_t done, uint32_t total)
{
	struct steps *s = ctx;
	if (s->calls < 4) {
		s->done[s->calls] = done;
		s->total[s->calls] = total;
	}
	s->calls++;
	return done >= s->stop_before;
}

static void test_prepare(void **state)
{
	(void)state;
	assert_int_equal(model_trace_prepare(NULL, record_step, NULL), 0);
	struct model *m = open_fixture();
	struct steps stop = {.stop_before = 1};
	assert_int_equal(model_trace_prepare(m, record_step, &stop), 1);
	assert_int_equal(stop.calls, 1);
	assert_int_equal(stop.done[0], 0);
	assert_int_equal(stop.total[0], 1);
	struct steps go = {0};
	assert_int_equal(model_trace_prepare(m, record_step, &go), 1);
	assert_int_equal(go.calls, 2);
	assert_int_equal(go.done[1], 1);
	assert_int_equal(go.total[1], 1);
	struct steps again = {0};
	assert_int_equal(model_trace_prepare(m, record_step, &again), 0);
	assert_int_equal(again.calls, 0);
	assert_int_equal(model_trace_prepare(m, NULL, NULL), 0);
	/* read: the range of the host line is there */
	struct trace_interval iv;
	uint32_t host = line_labelled(m, "pid 1 tid 100");
	assert_int_not_equal(host, MODEL_NONE);
	assert_true(model_interval(m, host, 0, &iv));
	assert_int_equal(iv.begin, 100);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines_and_details),
	    cmocka_unit_test(test_links),
	    cmocka_unit_test(test_follow_link),
	    cmocka_unit_test(test_prepare),
	    cmocka_unit_test(test_kinds_and_names),
	    cmocka_unit_test(test_enum_tables), /* last: it adds a table */
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
