/* Tests of the invariant checks (core/check.h) in both kinds of build.
 * With CALLSCOPE_CHECKS (configure --enable-checks, on with --enable-debug,
 * --enable-sanitizers and --enable-fuzzing): a violated check aborts, with
 * the condition and its place on stderr; each violation runs in a child
 * process (fork) that the test expects to die of SIGABRT: a read from a
 * span with a length but no data, a strbuf whose length lies outside its allocation,
 * and a model whose tree links were broken after finish.  Without it (a
 * release build): the same violations do not abort (but the span's,
 * which would read through NULL, and is skipped), CHECK does not even
 * evaluate its condition (a side effect in it does not happen), and
 * ALWAYS and NEVER are their condition.  Degenerate uses first: checks
 * that hold never abort, in either build. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/check.h"
#include "core/span.h"
#include "core/strbuf.h"
#include "model/model.h"
#include "model/model_internal.h" /* white-box: model_check_links */

#ifdef CALLSCOPE_CHECKS
static const bool checked = true;
#else
static const bool checked = false;
#endif

/* Run `fn` in a child with stderr into a pipe: whether it died of
 * SIGABRT (else it exited 0), and what it wrote on stderr in `text`. */
static bool aborts(void (*fn)(void), char *text, size_t size)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		fn();
		_exit(0);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t r;
	while (n + 1 < size && (r = read(fd[0], text + n, size - 1 - n)) > 0)
		n += (size_t)r;
	text[n] = '\0';
	close(fd[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status)) {
		assert_int_equal(WTERMSIG(status), SIGABRT);
		return true;
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	return false;
}

/* ---- the violations, each run in a child ---------------------------- */

static void span_read_without_data(void)
{
	struct span s = {NULL, 5}; /* a length but no bytes */
	uint8_t v;
	if (!span_has(s, 0, 1)) /* bounds alone: fine */
		_exit(3);
	(void)span_u8(s, 0, &v); /* a read: the check */
}

static void strbuf_len_outside(void)
{
	char *mem = malloc(8);
	if (!mem)
		_exit(4);
	memcpy(mem, "abc", 4);
	/* the length beyond the allocation (a release build appends after
	 * it, into a larger one) */
	struct strbuf b = {.s = mem, .len = 9, .cap = 8};
	strbuf_addn(&b, "d", 1);
	free(strbuf_take(&b));
}

static void broken_links(void)
{
	struct error err = {0};
	struct model_builder *b = model_builder_new("test", "mem");
	struct model_node nd = {.function = MODEL_NONE, .kind = NODE_FUNCTION};
	uint32_t a = model_builder_add_node(b, 0, &nd);
	uint32_t c = model_builder_add_node(b, a, &nd);
	struct model *m = model_builder_finish(b, &err);
	if (!m || a != 1 || c != 2)
		_exit(5);
	/* a child that its parent lists but that names another parent */
	m->nodes[c].parent = 0;
	m->nodes[c].depth = 1;
	model_check_links(m, 0);
	model_free(m);
}

/* ---- the tests ------------------------------------------------------ */

static void test_holding_checks(void **state)
{
	(void)state;
	int k = 0;
	CHECK(1 + 1 == 2);
	assert_int_equal(ALWAYS(7 > 3), 1);
	assert_int_equal(NEVER(7 < 3), 0);
	/* release: the condition itself, not a constant */
	if (!checked) {
		assert_int_equal(ALWAYS(k == 1), 0);
		assert_int_equal(NEVER(k == 0), 1);
	}
	struct span empty = {NULL, 0};
	assert_false(span_has(empty, 0, 1));
	assert_true(span_has(empty, 0, 0));
	struct strbuf sb = {0};
	strbuf_addn(&sb, NULL, 0);
	strbuf_add(&sb, "xy");
	char *t = strbuf_take(&sb);
	assert_string_equal(t, "xy");
	free(t);
}

static void test_condition_evaluated_only_when_checked(void **state)
{
	(void)state;
	int k = 0;
	CHECK(++k == 1);
	assert_int_equal(k, checked ? 1 : 0);
}

static void expect_violation(void (*fn)(void), const char *condition)
{
	char text[512];
	bool died = aborts(fn, text, sizeof(text));
	if (checked) {
		assert_true(died);
		assert_non_null(strstr(text, "callscope: check failed: "));
		assert_non_null(strstr(text, condition));
	} else {
		assert_false(died);
		assert_string_equal(text, "");
	}
}

static void test_span_violation(void **state)
{
	(void)state;
	/* without the check the read dereferences NULL: checked builds only */
	if (!checked)
		skip();
	expect_violation(span_read_without_data, "s.data != NULL");
}

static void test_strbuf_violation(void **state)
{
	(void)state;
	expect_violation(strbuf_len_outside, "b->len < b->cap");
}

static void test_model_links_violation(void **state)
{
	(void)state;
	expect_violation(broken_links, "nd[c].parent == i");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holding_checks),
		cmocka_unit_test(test_condition_evaluated_only_when_checked),
		cmocka_unit_test(test_span_violation),
		cmocka_unit_test(test_strbuf_violation),
		cmocka_unit_test(test_model_links_violation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
