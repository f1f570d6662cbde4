/* test-v4-meta: meta.db decoding on a tiny meta.db built byte by byte in
 * the test from the FORMATS.md tables, whose tree is worked out by hand;
 * then corrupt variants of it (a child array pointing at an ancestor or at
 * itself, a ctx overrunning its array, too few flex words, a bad
 * pFunction, the pre-release layout, every truncation and every single
 * byte changed), each rejected with the right status and without a
 * crash. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "formats/hpctoolkit_v4/v4_file.h"
#include "formats/hpctoolkit_v4/v4_meta.h"
#include "v4_mk.h"

/* Offsets of the hand-made meta.db worth corrupting. */
struct tiny {
	struct mk m;
	size_t sec_metrics, sec_context;
	size_t arr_entry, arr_main, arr_line, arr_f, arr_loop;
	size_t ctx_main, ctx_line, ctx_loop, ctx_f, ctx_instr, ctx_odd;
	size_t fn_main;
};

/* Write one {Ctx} at `off` (FORMATS.md, Context Tree section). */
static void put_ctx(struct mk *m, size_t off, uint32_t id, uint8_t flags,
		    uint8_t relation, uint8_t lexical, uint8_t n_flex,
		    uint16_t propagation, const uint64_t *flex)
{
	mk_p32(m, off + 0x10, id);
	mk_p8(m, off + 0x14, flags);
	mk_p8(m, off + 0x15, relation);
	mk_p8(m, off + 0x16, lexical);
	mk_p8(m, off + 0x17, n_flex);
	mk_p16(m, off + 0x18, propagation);
	for (unsigned i = 0; i < n_flex; i++)
		mk_p64(m, off + 0x20 + 8 * i, flex[i]);
}

static void children(struct mk *m, size_t ctx, size_t arr, size_t size)
{
	mk_p64(m, ctx + 0x00, size);
	mk_p64(m, ctx + 0x08, arr);
}

static void build_tiny(struct tiny *t)
{
	struct mk *m = &t->m;
	memset(t, 0, sizeof(*t));
	mk_header(m, "meta", 4, 0, 8);

	/* General Properties */
	size_t s = mk_alloc(m, 0x10, 8);
	mk_p64(m, s, mk_str(m, "tiny"));
	mk_p64(m, s + 8, mk_str(m, "hand made"));
	mk_section(m, 0, s);

	/* Identifier Names: NODE, RANK, THREAD */
	s = mk_alloc(m, 0x10, 8);
	size_t names = mk_alloc(m, 3 * 8, 8);
	mk_p64(m, s, names);
	mk_p8(m, s + 8, 3);
	mk_p64(m, names, mk_str(m, "NODE"));
	mk_p64(m, names + 8, mk_str(m, "RANK"));
	mk_p64(m, names + 16, mk_str(m, "THREAD"));
	mk_section(m, 1, s);

	/* Performance Metrics: one metric, two scopes, four summaries (the
	 * last with an unknown combine, to be ignored) */
	s = t->sec_metrics = mk_alloc(m, 0x20, 8);
	size_t md = mk_alloc(m, 0x20, 8);
	size_t psi = mk_alloc(m, 2 * 0x10, 8);
	size_t ss = mk_alloc(m, 4 * 0x18, 8);
	size_t ps = mk_alloc(m, 2 * 0x10, 8);
	mk_p64(m, s + 0x00, md);
	mk_p32(m, s + 0x08, 1);
	mk_p8(m, s + 0x0c, 0x20);
	mk_p8(m, s + 0x0d, 0x10);
	mk_p8(m, s + 0x0e, 0x18);
	mk_p64(m, s + 0x10, ps);
	mk_p16(m, s + 0x18, 2);
	mk_p8(m, s + 0x1a, 0x10);
	mk_p64(m, ps, mk_str(m, "execution"));
	mk_p8(m, ps + 8, 2);
	mk_p64(m, ps + 0x10, mk_str(m, "function"));
	mk_p8(m, ps + 0x18, 3);
	mk_p64(m, md + 0x00, mk_str(m, "TIME (s)"));
	mk_p64(m, md + 0x08, psi);
	mk_p64(m, md + 0x10, ss);
	mk_p16(m, md + 0x18, 2);
	mk_p16(m, md + 0x1a, 4);
	mk_p64(m, psi, ps);
	mk_p16(m, psi + 8, 1);
	mk_p64(m, psi + 0x10, ps + 0x10);
	mk_p16(m, psi + 0x18, 2);
	size_t f_id = mk_str(m, "$$"), f_sq = mk_str(m, "($$^2)");
	const struct {
		size_t scope, formula;
		uint8_t combine;
		uint16_t id;
	} sums[4] = {{ps, f_id, 0, 3}, {ps + 0x10, f_id, 0, 4},
		     {ps, f_sq, 2, 5}, {ps, f_id, 7, 6}};
	for (size_t i = 0; i < 4; i++) {
		mk_p64(m, ss + 0x18 * i, sums[i].scope);
		mk_p64(m, ss + 0x18 * i + 8, sums[i].formula);
		mk_p8(m, ss + 0x18 * i + 0x10, sums[i].combine);
		mk_p16(m, ss + 0x18 * i + 0x12, sums[i].id);
	}
	mk_section(m, 2, s);

	/* Common String Table */
	s = m->len;
	size_t str_entry = mk_str(m, "main thread");
	size_t str_main = mk_str(m, "main"), str_f = mk_str(m, "f");
	size_t str_file = mk_str(m, "/src/a.c");
	size_t str_mod = mk_str(m, "/bin/app");
	mk_section(m, 4, s);

	/* Load Modules: /bin/app */
	s = mk_alloc(m, 0x10, 8);
	size_t lms = mk_alloc(m, 0x10, 8);
	mk_p64(m, s, lms);
	mk_p32(m, s + 8, 1);
	mk_p16(m, s + 0x0c, 0x10);
	mk_p64(m, lms + 8, str_mod);
	mk_section(m, 5, s);

	/* Source Files: /src/a.c */
	s = mk_alloc(m, 0x10, 8);
	size_t sfs = mk_alloc(m, 0x10, 8);
	mk_p64(m, s, sfs);
	mk_p32(m, s + 8, 1);
	mk_p16(m, s + 0x0c, 0x10);
	mk_p64(m, sfs + 8, str_file);
	mk_section(m, 6, s);

	/* Functions: main (/bin/app+0x100, a.c:10), f (name only) */
	s = mk_alloc(m, 0x10, 8);
	size_t fs = t->fn_main = mk_alloc(m, 2 * 0x28, 8);
	mk_p64(m, s, fs);
	mk_p32(m, s + 8, 2);
	mk_p16(m, s + 0x0c, 0x28);
	mk_p64(m, fs + 0x00, str_main);
	mk_p64(m, fs + 0x08, lms);
	mk_p64(m, fs + 0x10, 0x100);
	mk_p64(m, fs + 0x18, sfs);
	mk_p32(m, fs + 0x20, 10);
	mk_p64(m, fs + 0x28, str_f);
	mk_section(m, 7, s);

	/* Context Tree:
	 *   entry 1 "main thread"
	 *     2 function main (call)              [flex: fn]
	 *       3 line a.c:12 (lexical)           [flex: file, line]
	 *         5 function f (call) app@0x200   [flex: fn, module, offset]
	 *           6 instruction app@0x208       [flex: module, offset]
	 *       4 loop a.c:13 app@0x1f0           [flex: file, line, mod, off]
	 *         7 lexicalType 9, relation 7, a.c:14 -> line, call */
	s = t->sec_context = mk_alloc(m, 0x10, 8);
	size_t entry = mk_alloc(m, 0x20, 8);
	mk_p64(m, s, entry);
	mk_p16(m, s + 8, 1);
	mk_p8(m, s + 0x0a, 0x20);
	t->arr_entry = t->ctx_main = mk_alloc(m, 0x28, 8);
	t->arr_main = t->ctx_line = mk_alloc(m, 0x30 + 0x40, 8);
	t->ctx_loop = t->ctx_line + 0x30;
	t->arr_line = t->ctx_f = mk_alloc(m, 0x38, 8);
	t->arr_f = t->ctx_instr = mk_alloc(m, 0x30, 8);
	t->arr_loop = t->ctx_odd = mk_alloc(m, 0x30, 8);
	mk_p64(m, entry + 0x00, 0x28);
	mk_p64(m, entry + 0x08, t->arr_entry);
	mk_p32(m, entry + 0x10, 1);
	mk_p16(m, entry + 0x14, 1);
	mk_p64(m, entry + 0x18, str_entry);
	put_ctx(m, t->ctx_main, 2, 1, 1, 0, 1, 0x1, (uint64_t[]){fs});
	children(m, t->ctx_main, t->arr_main, 0x70);
	put_ctx(m, t->ctx_line, 3, 2, 0, 2, 2, 0, (uint64_t[]){sfs, 12});
	children(m, t->ctx_line, t->arr_line, 0x38);
	put_ctx(m, t->ctx_loop, 4, 2 | 4, 0, 1, 4, 0,
		(uint64_t[]){sfs, 13, lms, 0x1f0});
	children(m, t->ctx_loop, t->arr_loop, 0x30);
	put_ctx(m, t->ctx_f, 5, 1 | 4, 1, 0, 3, 0x1,
		(uint64_t[]){fs + 0x28, lms, 0x200});
	children(m, t->ctx_f, t->arr_f, 0x30);
	put_ctx(m, t->ctx_instr, 6, 4, 0, 3, 2, 0, (uint64_t[]){lms, 0x208});
	put_ctx(m, t->ctx_odd, 7, 2, 7, 9, 2, 0, (uint64_t[]){sfs, 14});
	mk_section(m, 3, s);
	mk_footer(m, "_meta.db");
}

/* Read `len` bytes of `data` as meta.db; the model on success. */
static enum status read_meta(const uint8_t *data, size_t len,
			     struct model **out, struct v4_meta *meta,
			     struct error *err)
{
	struct blob *blob = NULL;
	struct v4_file f;
	*out = NULL;
	assert_int_equal(blob_open_memory(data, len, "meta.db", &blob, err),
			 STATUS_OK);
	enum status st = v4_file_open_blob(blob, V4_FORMAT_META, &f, err);
	if (st != STATUS_OK)
		return st;
	struct model_builder *b = model_builder_new("hpctoolkit-v4", "tiny");
	assert_non_null(b);
	st = v4_meta_read(&f, b, meta, err);
	v4_file_close(&f);
	if (st != STATUS_OK) {
		model_builder_free(b);
		return st;
	}
	*out = model_builder_finish(b, err);
	assert_non_null(*out);
	return STATUS_OK;
}

static void expect_node(const struct model *m, uint32_t i, uint32_t ctx,
			uint32_t parent, enum node_kind kind,
			enum node_relation rel, const char *name,
			const char *file, uint32_t line, const char *module,
			uint64_t offset)
{
	const struct model_node *n = &model_nodes(m)[i];
	assert_int_equal(n->ctx_id, ctx);
	assert_int_equal(n->parent, parent);
	assert_int_equal(n->kind, kind);
	assert_int_equal(n->relation, rel);
	assert_string_equal(model_str(m, n->name), name);
	assert_string_equal(model_str(m, n->file), file);
	assert_int_equal(n->line, line);
	assert_string_equal(model_str(m, n->module), module);
	assert_int_equal(n->offset, offset);
}

static void test_tiny_tree(void **state)
{
	(void)state;
	struct tiny *t = malloc(sizeof(*t));
	assert_non_null(t);
	build_tiny(t);
	struct model *m = NULL;
	struct v4_meta meta;
	struct error err = {.status = STATUS_OK};
	assert_int_equal(read_meta(t->m.buf, t->m.len, &m, &meta, &err),
			 STATUS_OK);
	assert_string_equal(model_title(m), "tiny");
	assert_string_equal(model_description(m), "hand made");
	assert_int_equal(meta.n_kinds, 3);
	assert_string_equal(model_str(m, meta.kind_names[2]), "THREAD");

	/* pre-order, children in file order */
	assert_int_equal(model_n_nodes(m), 8);
	expect_node(m, 1, 1, 0, NODE_ENTRY, RELATION_NONE, "main thread", "",
		    0, "", 0);
	expect_node(m, 2, 2, 1, NODE_FUNCTION, RELATION_CALL, "main", "", 0,
		    "", 0);
	expect_node(m, 3, 3, 2, NODE_LINE, RELATION_LEXICAL, "", "/src/a.c",
		    12, "", 0);
	expect_node(m, 4, 5, 3, NODE_FUNCTION, RELATION_CALL, "f", "", 0,
		    "/bin/app", 0x200);
	expect_node(m, 5, 6, 4, NODE_INSTRUCTION, RELATION_LEXICAL, "", "", 0,
		    "/bin/app", 0x208);
	expect_node(m, 6, 4, 2, NODE_LOOP, RELATION_LEXICAL, "", "/src/a.c",
		    13, "/bin/app", 0x1f0);
	expect_node(m, 7, 7, 6, NODE_LINE, RELATION_CALL, "", "/src/a.c", 14,
		    "", 0);
	assert_int_equal(model_nodes(m)[2].flags, 1);
	assert_int_equal(model_nodes(m)[3].flags, 0);
	assert_int_equal(model_max_depth(m), 5);

	/* functions: added once each, on first use */
	assert_int_equal(model_n_functions(m), 2);
	assert_int_equal(model_nodes(m)[2].function, 0);
	assert_int_equal(model_nodes(m)[4].function, 1);
	assert_int_equal(model_nodes(m)[3].function, MODEL_NONE);
	assert_string_equal(model_str(m, model_functions(m)[0].name), "main");
	assert_string_equal(model_str(m, model_functions(m)[0].module), "/bin/app");
	assert_string_equal(model_str(m, model_functions(m)[0].file), "/src/a.c");
	assert_int_equal(model_functions(m)[0].line, 10);
	assert_int_equal(model_functions(m)[0].offset, 0x100);
	assert_int_equal(model_functions(m)[1].module, 0);

	/* stats: the unknown combine is ignored */
	assert_int_equal(model_n_stats(m), 3);
	const struct {
		const char *scope, *formula;
		uint8_t combine;
		uint32_t stat, prop;
	} want[3] = {{"execution", "$$", COMBINE_SUM, 3, 1},
		     {"function", "$$", COMBINE_SUM, 4, 2},
		     {"execution", "($$^2)", COMBINE_MAX, 5, 1}};
	for (uint32_t i = 0; i < 3; i++) {
		const struct model_stat *s = &model_stats(m)[i];
		assert_string_equal(model_str(m, s->metric), "TIME (s)");
		assert_string_equal(model_str(m, s->scope), want[i].scope);
		assert_string_equal(model_str(m, s->formula), want[i].formula);
		assert_int_equal(s->combine, want[i].combine);
		assert_int_equal(s->stat_id, want[i].stat);
		assert_int_equal(s->prop_id, want[i].prop);
	}
	v4_meta_free(&meta);
	model_free(m);
	free(t);
}

static void expect_corrupt(struct tiny *t, enum status want,
			   const char *needle)
{
	struct model *m = NULL;
	struct v4_meta meta;
	struct error err = {.status = STATUS_OK};
	enum status st = read_meta(t->m.buf, t->m.len, &m, &meta, &err);
	if (st != want || !err.message || !strstr(err.message, needle))
		fail_msg("status %d, message '%s'; expected %d with '%s'",
			 (int)st, err.message ? err.message : "", (int)want,
			 needle);
	assert_null(m);
	error_clear(&err);
}

static void test_degenerate_tree(void **state)
{
	(void)state;
	struct tiny *t = malloc(sizeof(*t));
	assert_non_null(t);

	/* the instruction's children are its grandparent's array: a cycle */
	build_tiny(t);
	children(&t->m, t->ctx_instr, t->arr_main, 0x70);
	expect_corrupt(t, STATUS_CORRUPT, "overlaps");

	/* the line's children are its own array */
	build_tiny(t);
	children(&t->m, t->ctx_line, t->arr_main, 0x70);
	expect_corrupt(t, STATUS_CORRUPT, "overlaps");

	/* a child array starting in the middle of an earlier one */
	build_tiny(t);
	children(&t->m, t->ctx_odd, t->ctx_loop + 8, 0x30);
	expect_corrupt(t, STATUS_CORRUPT, "overlaps");

	/* szChildren cutting a {Ctx} */
	build_tiny(t);
	children(&t->m, t->ctx_main, t->arr_main, 0x68);
	expect_corrupt(t, STATUS_CORRUPT, "overruns");

	/* szChildren past the section */
	build_tiny(t);
	children(&t->m, t->ctx_f, t->arr_f, 0x1000000);
	expect_corrupt(t, STATUS_CORRUPT, "outside the section");

	/* misaligned pChildren */
	build_tiny(t);
	children(&t->m, t->ctx_f, t->arr_f + 4, 0x30);
	expect_corrupt(t, STATUS_CORRUPT, "misaligned");

	/* hasPoint without the flex words for it */
	build_tiny(t);
	mk_p8(&t->m, t->ctx_instr + 0x14, 4 | 2);
	expect_corrupt(t, STATUS_CORRUPT, "flex words");

	/* pFunction between two [FS] */
	build_tiny(t);
	mk_p64(&t->m, t->ctx_main + 0x20, t->fn_main + 8);
	expect_corrupt(t, STATUS_CORRUPT, "pFunction");

	/* ctxId 0 is the global context */
	build_tiny(t);
	mk_p32(&t->m, t->ctx_loop + 0x10, 0);
	expect_corrupt(t, STATUS_CORRUPT, "ctxId 0");

	/* the pre-release layout: a 24-byte {MD} */
	build_tiny(t);
	mk_p8(&t->m, t->sec_metrics + 0x0c, 24);
	expect_corrupt(t, STATUS_UNSUPPORTED, "pre-release");

	/* the pre-release layout: Context Tree header {szRoots, pRoots} */
	build_tiny(t);
	mk_p64(&t->m, t->sec_context, 0x28);
	mk_p64(&t->m, t->sec_context + 8, t->arr_entry);
	expect_corrupt(t, STATUS_UNSUPPORTED, "layout");
	free(t);
}

/* Every truncation and every single-byte change: an ordinary outcome (a
 * status), never a crash, a leak or a hang (run under ASan). */
static void test_mutations(void **state)
{
	(void)state;
	struct tiny *t = malloc(sizeof(*t));
	assert_non_null(t);
	build_tiny(t);
	size_t len = t->m.len;
	uint8_t *copy = malloc(len);
	assert_non_null(copy);
	size_t ok = 0, failed = 0;
	for (size_t cut = 0; cut < len; cut++) {
		struct model *m = NULL;
		struct v4_meta meta;
		struct error err = {.status = STATUS_OK};
		enum status st = read_meta(t->m.buf, cut, &m, &meta, &err);
		assert_int_not_equal(st, STATUS_OK);
		assert_non_null(err.message);
		error_clear(&err);
	}
	static const uint8_t values[] = {0x00, 0x01, 0x7f, 0xff};
	for (size_t off = 0; off < len; off++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			memcpy(copy, t->m.buf, len);
			copy[off] = values[v];
			struct model *m = NULL;
			struct v4_meta meta;
			struct error err = {.status = STATUS_OK};
			enum status st = read_meta(copy, len, &m, &meta, &err);
			if (st == STATUS_OK) {
				ok++;
				v4_meta_free(&meta);
				model_free(m);
			} else {
				failed++;
				assert_non_null(err.message);
			}
			error_clear(&err);
		}
	}
	assert_true(ok > 0 && failed > 0);
	free(copy);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny_tree),
		cmocka_unit_test(test_degenerate_tree),
		cmocka_unit_test(test_mutations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
