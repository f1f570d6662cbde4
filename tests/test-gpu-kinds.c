/* Tests of what the GPU readers say a run's parts are and how they name
 * them: gpu_run_kernel_base on degenerate and real demangled names; a
 * hand-made .rpd file (a HIP call with empty arguments and one with
 * arguments, a roctx range, two instantiations of one template kernel, a
 * copy and a fill) read with each --kernel-names choice: the kinds (module
 * GPU/host, file kernels, memory copies, memory sets, API calls, roctx
 * ranges), the kernels' names, no empty `args` detail; and the per-kind
 * summary (kind_summary) of the same file: no intervals, counts, medians
 * of an even and an odd number of durations, kind_summary_find. */
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

#include "formats/gpu_run/gpu_run.h"
#include "formats/reader.h"
#include "model/model.h"
#include "present/present_value.h"
#include "views/kind_summary.h"
#include "sqlite_fixture.h"
#include "build_fixture.h"
#include "case_tables.h"

extern const struct reader reader_rocpd;

static char path[] = "/tmp/callscope-gpu-kinds-XXXXXX.rpd";

/* Strings: 1 hipLaunchKernel, 2 "" (no args), 3 "dst=0x1", 4 UserMarker,
 * 5 "phase", 6/7 the two instantiations, 8 KernelExecution,
 * 9 CopyHostToDevice, 10 FillBuffer, 11 hipMemcpy.  API 1 (no args)
 * launches op 1, API 2 (args) op 2, API 3 op 3 (a copy), API 4 op 4 (a
 * fill), API 5 a roctx range around them all, API 6 op 5 (the first
 * instantiation again). */
static const char *const sql =
    "CREATE TABLE rocpd_string(id INTEGER PRIMARY KEY, string TEXT);"
    "INSERT INTO rocpd_string VALUES (1, 'hipLaunchKernel'), (2, ''),"
    " (3, 'dst=0x1'), (4, 'UserMarker'), (5, 'phase'),"
    " (6, 'void ns::gemm<float>(float*, int)'),"
    " (7, 'void ns::gemm<double>(double*, int)'), (8, 'KernelExecution'),"
    " (9, 'CopyHostToDevice'), (10, 'FillBuffer'), (11, 'hipMemcpy');"
    "CREATE TABLE rocpd_api(id INTEGER PRIMARY KEY, pid, tid, start, end,"
    " apiName_id, args_id);"
    "INSERT INTO rocpd_api VALUES (1, 7, 7, 100, 110, 1, 2),"
    " (2, 7, 7, 200, 210, 1, 3), (3, 7, 7, 300, 320, 11, 2),"
    " (4, 7, 7, 400, 420, 11, 2), (5, 7, 7, 50, 1000, 4, 5),"
    " (6, 7, 7, 500, 510, 1, 2);"
    "CREATE TABLE rocpd_op(id INTEGER PRIMARY KEY, gpuId, queueId, start,"
    " end, description_id, opType_id);"
    "INSERT INTO rocpd_op VALUES (1, 0, 0, 120, 160, 6, 8),"
    " (2, 0, 0, 220, 300, 7, 8), (3, 0, 0, 330, 350, 2, 9),"
    " (4, 0, 0, 430, 431, 2, 10), (5, 0, 0, 520, 540, 6, 8);"
    "CREATE TABLE rocpd_api_ops(id INTEGER PRIMARY KEY, api_id, op_id);"
    "INSERT INTO rocpd_api_ops VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3),"
    " (4, 4, 4), (5, 6, 5);";

SQLITE_FIXTURE_GROUP(path, 4, sql)

static void test_kernel_base(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
	    {"", ""},
	    {"(", "("},
	    {">", ">"},
	    {"saxpy", "saxpy"},
	    {"saxpy(double *, double *, double, int)", "saxpy"},
	    {"_Z5saxpyPdS_S_di", "_Z5saxpyPdS_S_di"},
	    {"void ns::gemm<float>(float*, int)", "gemm"},
	    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<"
	     "double, at::native::f<double> > >(at::native::ReduceOp<double, "
	     "at::native::f<double> >)",
	     "reduce_kernel"},
	    {"void k<(rocprim::m)0, true>(int)", "k"},
	    {"ns::A<int>::run() const", "run"},
	    {"Cijk_Ailk_Bljk_SB_MT128x64x16", "Cijk_Ailk_Bljk_SB_MT128x64x16"},
	};
	char out[64];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gpu_run_kernel_base(cases[i][0], out, sizeof(out));
		assert_string_equal(out, cases[i][1]);
	}
	/* cut to the buffer */
	gpu_run_kernel_base("abcdefgh(int)", out, 4);
	assert_string_equal(out, "abc");
}

static struct model *open_with(const char *kernel_names)
{
	struct model *m = NULL;
	struct error err = {0};
	struct reader_option opt = {"gpu", "kernel-names", kernel_names};
	struct reader_options o = {.list = &opt, .n = kernel_names ? 1 : 0};
	struct reader_input in = {
	    .paths = (const char *[]){path}, .n_paths = 1, .options = &o};
	assert_int_equal(reader_rocpd.open(&in, &m, &err), STATUS_OK);
	return m;
}

/* The file and module of the function of the node named `name` of kind
 * `kind` ("" when none). */
static void kind_of(const struct model *m, uint8_t kind, const char *name,
		    const char **module, const char **file)
{
	*module = *file = NULL;
	for (uint32_t i = 0; i < model_n_nodes(m); i++) {
		const struct model_node *nd = &model_nodes(m)[i];
		if (nd->kind != kind || strcmp(model_str(m, nd->name), name) ||
		    nd->function >= model_n_functions(m))
			continue;
		*module = model_str(m, model_functions(m)[nd->function].module);
		*file = model_str(m, model_functions(m)[nd->function].file);
		return;
	}
}

static size_t count_kind(const struct model *m, uint8_t kind)
{
	size_t n = 0;
	for (uint32_t i = 0; i < model_n_nodes(m); i++)
		n += model_nodes(m)[i].kind == kind;
	return n;
}

static void test_rpd_kinds_and_names(void **state)
{
	(void)state;
	const char *mod, *file;
	struct model *m = open_with(NULL);
	/* the two instantiations apart: two kernels */
	assert_int_equal(count_kind(m, NODE_KERNEL), 2);
	kind_of(m, NODE_KERNEL, "void ns::gemm<float>(float*, int)", &mod,
		&file);
	assert_non_null(mod);
	assert_string_equal(mod, "GPU");
	assert_string_equal(file, "kernels");
	kind_of(m, NODE_KERNEL, "void ns::gemm<double>(double*, int)", &mod,
		&file);
	assert_non_null(mod);
	kind_of(m, NODE_FUNCTION, "CopyHostToDevice", &mod, &file);
	assert_non_null(mod);
	assert_string_equal(file, "memory copies");
	kind_of(m, NODE_FUNCTION, "FillBuffer", &mod, &file);
	assert_non_null(mod);
	assert_string_equal(file, "memory sets");
	kind_of(m, NODE_FUNCTION, "hipLaunchKernel", &mod, &file);
	assert_non_null(mod);
	assert_string_equal(mod, "host");
	assert_string_equal(file, "API calls");
	kind_of(m, NODE_REGION, "phase", &mod, &file);
	assert_non_null(mod);
	assert_string_equal(file, "roctx ranges");
	/* the API calls' details: no empty args (critique b8), the
	 * arguments where there are some */
	uint32_t host = MODEL_NONE;
	for (uint32_t l = 0; l < model_n_timelines(m); l++)
		if (strstr(model_str(m, model_timelines(m)[l].label), "tid 7"))
			host = l;
	assert_int_not_equal(host, MODEL_NONE);
	size_t with_args = 0, seen = 0;
	for (uint64_t i = 0; i < model_timelines(m)[host].count; i++) {
		struct trace_interval iv;
		struct model_kv *kv = NULL;
		size_t n = 0;
		struct error err = {0};
		assert_true(model_interval(m, host, i, &iv));
		assert_int_equal(
		    model_event_detail(m, host, iv.event, &kv, &n, &err),
		    STATUS_OK);
		for (size_t k = 0; k < n; k++)
			if (strcmp(kv[k].key, "args") == 0) {
				assert_true(kv[k].text[0] != '\0');
				with_args++;
			}
		free(kv);
		seen++;
	}
	assert_int_equal(seen, 6);
	assert_int_equal(with_args, 2); /* "dst=0x1" and the range's "phase" */
	model_free(m);
	/* base: the two instantiations are one kernel "gemm" */
	m = open_with("base");
	/* (the three launches are one hipLaunchKernel node) */
	assert_int_equal(count_kind(m, NODE_KERNEL), 1);
	kind_of(m, NODE_KERNEL, "gemm", &mod, &file);
	assert_non_null(mod);
	assert_string_equal(file, "kernels");
	kind_of(m, NODE_KERNEL, "void ns::gemm<float>(float*, int)", &mod,
		&file);
	assert_null(mod);
	model_free(m);
	/* mangled: .rpd stores none, the full names stay */
	m = open_with("mangled");
	kind_of(m, NODE_KERNEL, "void ns::gemm<double>(double*, int)", &mod,
		&file);
	assert_non_null(mod);
	model_free(m);
}

/* present_duration_ns as a formatter (its length not asked). */
static void duration_text(double ns, char *buf, size_t size)
{
	present_duration_ns(ns, buf, size);
}

static void test_summary(void **state)
{
	(void)state;
	struct model *m = open_with(NULL);
	struct kind_summary *s = NULL;
	struct error err = {0};
	assert_int_equal(kind_summary_build(m, &s, &err), STATUS_OK);
	/* GPU kinds first */
	assert_true(s->n_kinds >= 5);
	assert_string_equal(s->kinds[0].group, "GPU");
	const struct kind_summary_kind *k = kind_summary_find(s, "kernel");
	assert_non_null(k);
	assert_string_equal(k->kind, "kernels");
	assert_int_equal(k->count, 3);
	assert_true(k->total == 40 + 80 + 20);
	/* by total: gemm<double> 80, then gemm<float> 40 + 20 */
	assert_int_equal(k->n_rows, 2);
	assert_string_equal(k->rows[0].name,
			    "void ns::gemm<double>(double*, int)");
	assert_true(k->rows[0].stddev == 0 && k->rows[0].median == 80);
	assert_int_equal(k->rows[1].count, 2);
	assert_true(k->rows[1].median == 30); /* (20 + 40) / 2 */
	assert_true(k->rows[1].min == 20 && k->rows[1].max == 40);
	/* sample deviation of {20, 40}: sqrt(200) */
	assert_true(k->rows[1].stddev > 14.142 && k->rows[1].stddev < 14.143);
	assert_true(k->rows[1].percent > 42.85 && k->rows[1].percent < 42.86);
	k = kind_summary_find(s, "api");
	assert_non_null(k);
	assert_string_equal(k->kind, "API calls");
	assert_int_equal(k->count, 5);
	/* hipLaunchKernel: 10, 10, 10; odd count */
	assert_string_equal(k->rows[0].name, "hipMemcpy");
	assert_true(k->rows[1].median == 10 && k->rows[1].count == 3);
	assert_non_null(kind_summary_find(s, "copy"));
	assert_non_null(kind_summary_find(s, "range"));
	assert_non_null(kind_summary_find(s, "Memory Sets"));
	assert_null(kind_summary_find(s, "kern"));
	assert_null(kind_summary_find(s, ""));
	assert_null(kind_summary_find(NULL, "kernel"));
	kind_summary_free(s);
	kind_summary_free(NULL);
	model_free(m);
	/* units: the presentation layer's durations (present_duration_ns) */
	static const struct format_case texts[] = {
		{0, "0"},
		{812.5, "812.5 ns"},
		{18360, "18.36 us"},
		{373.3e6, "373.3 ms"},
		{999999.9, "1.000 ms"},
	};
	assert_formats("present_duration_ns", duration_text, texts,
		       sizeof(texts) / sizeof(texts[0]));
}

/* A model without interval tracks: refused. */
static void test_summary_no_intervals(void **state)
{
	(void)state;
	struct model_builder *b = model_builder_new("test", "none");
	assert_non_null(b);
	struct model *m = fixture_finish(b);
	struct error err = {0};
	struct kind_summary *s = (struct kind_summary *)1;
	assert_int_equal(kind_summary_build(m, &s, &err), STATUS_UNSUPPORTED);
	assert_null(s);
	error_clear(&err);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kernel_base),
	    cmocka_unit_test(test_rpd_kinds_and_names),
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_summary_no_intervals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
