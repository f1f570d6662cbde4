/* test-reader-options: reader options as READER:KEY=VALUE, routed by the
 * registry to the readers that answer the name (formats/reader.c):
 * degenerate texts first (empty, no colon, no key, no '='), then the
 * flags that stand for an option, the check of a list against the
 * readers (a name no reader answers, a key the reader does not know, a
 * bad value, a good one), what a reader is handed (only its own, in
 * order), and the DCPI image directories taken out of a list. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/reader.h"

extern const struct reader reader_rocpd;
extern const struct reader reader_nsight;
extern const struct reader reader_hpctoolkit_v4;

static void test_parse_degenerate(void **state)
{
	(void)state;
	static const char *const bad[] = {"", "gpu", ":k=v", "gpu:=v",
					  "gpu:key", "gpukey=v"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[32];
		snprintf(text, sizeof(text), "%s", bad[i]);
		struct reader_option o = {0};
		struct error err = {0};
		assert_int_equal(reader_option_parse(text, &o, &err),
				 STATUS_USAGE);
		assert_non_null(strstr(err.message, "READER:KEY=VALUE"));
		error_clear(&err);
	}
}

static void test_parse(void **state)
{
	(void)state;
	char text[] = "gpu:kernel-names=base";
	struct reader_option o = {0};
	struct error err = {0};
	assert_int_equal(reader_option_parse(text, &o, &err), STATUS_OK);
	assert_string_equal(o.reader, "gpu");
	assert_string_equal(o.key, "kernel-names");
	assert_string_equal(o.value, "base");
	/* a value may hold ':' and '=' */
	char path[] = "dcpi:image-path=/a=b:c";
	assert_int_equal(reader_option_parse(path, &o, &err), STATUS_OK);
	assert_string_equal(o.key, "image-path");
	assert_string_equal(o.value, "/a=b:c");
	/* an empty value is the reader's to judge */
	char empty[] = "gpu:align-clocks=";
	assert_int_equal(reader_option_parse(empty, &o, &err), STATUS_OK);
	assert_string_equal(o.value, "");
}

static void test_flags(void **state)
{
	(void)state;
	struct reader_option o;
	assert_int_equal(reader_flag_arity("no-cache"), -1);
	assert_false(reader_flag_option("no-cache", NULL, &o));
	assert_int_equal(reader_flag_arity("align-clocks"), 0);
	assert_true(reader_flag_option("align-clocks", NULL, &o));
	assert_string_equal(o.key, "align-clocks");
	assert_string_equal(o.value, "yes");
	assert_int_equal(reader_flag_arity("kernel-names"), 1);
	assert_true(reader_flag_option("kernel-names", "base", &o));
	assert_string_equal(o.value, "base");
	assert_int_equal(reader_flag_arity("image-path"), 1);
	assert_true(reader_flag_option("image-path", "/x", &o));
	assert_string_equal(o.key, "image-path");
	/* every flag's option is one some reader takes */
	struct error err = {0};
	assert_int_equal(reader_options_check(&o, 1, &err), STATUS_OK);
	assert_true(reader_flag_option("kernel-names", "mangled", &o));
	assert_int_equal(reader_options_check(&o, 1, &err), STATUS_OK);
	assert_true(reader_flag_option("align-clocks", NULL, &o));
	assert_int_equal(reader_options_check(&o, 1, &err), STATUS_OK);
}

static void test_check(void **state)
{
	(void)state;
	struct error err = {0};
	assert_int_equal(reader_options_check(NULL, 0, &err), STATUS_OK);
	static const struct {
		struct reader_option o;
		const char *said; /* in the message; NULL: accepted */
	} cases[] = {
		{{"nosuch", "k", "v"}, "'nosuch'"},
		{{"gpu", "colour", "red"}, "'colour'"},
		{{"rocpd", "kernel-names", "short"}, "'short'"},
		{{"gpu", "align-clocks", "perhaps"}, "'perhaps'"},
		{{"dcpi", "depth", "3"}, "'depth'"},
		{{"dcpi", "image-path", ""}, "directory"},
		{{"gpu", "align-clocks", "no"}, NULL},
		{{"nsight", "kernel-names", "base"}, NULL},
		{{"dcpi", "image-path", "/x"}, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum status st = reader_options_check(&cases[i].o, 1, &err);
		if (!cases[i].said) {
			assert_int_equal(st, STATUS_OK);
			continue;
		}
		assert_int_equal(st, STATUS_USAGE);
		assert_non_null(strstr(err.message, cases[i].said));
		error_clear(&err);
	}
	/* a name no reader answers lists the names there are */
	struct reader_option o = {"nosuch", "k", "v"};
	assert_int_equal(reader_options_check(&o, 1, &err), STATUS_USAGE);
	assert_non_null(strstr(err.message, "gpu"));
	assert_non_null(strstr(err.message, "dcpi"));
	error_clear(&err);
}

/* A reader's option() that records what it is handed. */
static char handed[256];
static enum status record(void *state, const char *key, const char *value,
			  struct error *err)
{
	(void)state;
	(void)err;
	size_t n = strlen(handed);
	snprintf(handed + n, sizeof(handed) - n, "%s=%s;", key, value);
	return STATUS_OK;
}

static void test_apply(void **state)
{
	(void)state;
	static const char *const names[] = {"mine", "group", NULL};
	struct reader r = {.name = "mine", .option_names = names,
			   .option = record};
	struct reader_option list[] = {{"mine", "a", "1"},
				       {"other", "b", "2"},
				       {"group", "c", "3"},
				       {"mine", "a", "4"}};
	struct reader_options o = {.list = list, .n = 4};
	struct error err = {0};
	handed[0] = '\0';
	assert_int_equal(reader_options_apply(&r, &o, NULL, &err), STATUS_OK);
	assert_string_equal(handed, "a=1;c=3;a=4;");
	/* none given, or a reader that takes none */
	handed[0] = '\0';
	assert_int_equal(reader_options_apply(&r, NULL, NULL, &err), STATUS_OK);
	assert_int_equal(reader_options_apply(&reader_hpctoolkit_v4, &o, NULL,
					      &err),
			 STATUS_OK);
	assert_string_equal(handed, "");
	/* the GPU readers answer "gpu" and their own names, not each
	 * other's */
	struct reader_option g[] = {{"gpu", "kernel-names", "nonsense"}};
	struct reader_options go = {.list = g, .n = 1};
	for (size_t k = 0; k < 3; k++) {
		static const char *const to[] = {"gpu", "rocpd", "nsight"};
		g[0].reader = to[k];
		assert_int_equal(reader_options_apply(&reader_rocpd, &go, NULL,
						      &err),
				 k == 2 ? STATUS_OK : STATUS_USAGE);
		error_clear(&err);
		assert_int_equal(reader_options_apply(&reader_nsight, &go, NULL,
						      &err),
				 k == 1 ? STATUS_OK : STATUS_USAGE);
		error_clear(&err);
	}
}

static void test_image_path(void **state)
{
	(void)state;
	struct reader_option list[] = {{"dcpi", "image-path", "/a"},
				       {"gpu", "align-clocks", "yes"},
				       {"dcpi", "image-path", "/b"}};
	const char **dirs = NULL;
	size_t n = 9;
	struct error err = {0};
	assert_int_equal(reader_options_image_path(list, 0, &dirs, &n, &err),
			 STATUS_OK);
	assert_null(dirs);
	assert_int_equal(n, 0);
	assert_int_equal(reader_options_image_path(list, 3, &dirs, &n, &err),
			 STATUS_OK);
	assert_int_equal(n, 2);
	assert_string_equal(dirs[0], "/a");
	assert_string_equal(dirs[1], "/b");
	free(dirs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_degenerate),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_image_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
