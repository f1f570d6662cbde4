/* Tests for file_tree (safe tree removal) and temp_dirs (temporary
 * directories of the process): degenerate inputs, a tree with a symbolic
 * link to a directory outside it (the outside stays), $TMPDIR honoured
 * (a relative one ignored), release and remove_all. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/file_tree.h"
#include "core/temp_dirs.h"

static char base[64];

static bool exists(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0;
}

static void write_file(const char *dir, const char *name)
{
	char *p = NULL;
	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("x\n", f);
	fclose(f);
	free(p);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/test-temp-dirs-XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return file_tree_remove(base, NULL) == STATUS_OK ? 0 : -1;
}

static void test_degenerate(void **state)
{
	(void)state;
	struct error err = {0};
	assert_int_equal(file_tree_remove(NULL, &err), STATUS_USAGE);
	error_clear(&err);
	assert_int_equal(file_tree_remove("/nonexistent/callscope/x", &err),
			 STATUS_OK);
	temp_dirs_release(NULL);
	temp_dirs_release("/nonexistent/callscope/never-created");
	temp_dirs_remove_all(); /* nothing registered */
}

static void test_links_not_followed(void **state)
{
	(void)state;
	char *tree = NULL, *outside = NULL, *link = NULL, *sub = NULL,
	     *kept = NULL;
	assert_true(asprintf(&tree, "%s/tree", base) > 0);
	assert_true(asprintf(&sub, "%s/tree/a/b", base) > 0);
	assert_true(asprintf(&outside, "%s/outside", base) > 0);
	assert_true(asprintf(&link, "%s/tree/a/to-outside", base) > 0);
	assert_true(asprintf(&kept, "%s/outside/precious", base) > 0);
	assert_int_equal(mkdir(tree, 0700), 0);
	char *a = NULL;
	assert_true(asprintf(&a, "%s/tree/a", base) > 0);
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(outside, 0700), 0);
	write_file(sub, "f1");
	write_file(a, "f2");
	write_file(outside, "precious");
	assert_int_equal(symlink(outside, link), 0);
	struct error err = {0};
	assert_int_equal(file_tree_remove(tree, &err), STATUS_OK);
	assert_false(exists(tree));
	assert_true(exists(kept)); /* the link went, not what it points at */
	/* a lone file and a lone link are removed as themselves */
	write_file(base, "lone");
	char *lone = NULL, *lone_link = NULL;
	assert_true(asprintf(&lone, "%s/lone", base) > 0);
	assert_true(asprintf(&lone_link, "%s/lone-link", base) > 0);
	assert_int_equal(symlink(outside, lone_link), 0);
	assert_int_equal(file_tree_remove(lone, &err), STATUS_OK);
	assert_int_equal(file_tree_remove(lone_link, &err), STATUS_OK);
	assert_false(exists(lone));
	assert_false(exists(lone_link));
	assert_true(exists(kept));
	free(lone);
	free(lone_link);
	free(a);
	free(tree);
	free(sub);
	free(outside);
	free(link);
	free(kept);
}

static void test_temp_dirs(void **state)
{
	(void)state;
	struct error err = {0};
	assert_int_equal(setenv("TMPDIR", base, 1), 0);
	char *one = NULL, *two = NULL;
	assert_int_equal(temp_dirs_create("download", &one, &err), STATUS_OK);
	assert_int_equal(temp_dirs_create("extract", &two, &err), STATUS_OK);
	size_t bl = strlen(base);
	assert_int_equal(strncmp(one, base, bl), 0);
	assert_int_equal(strncmp(one + bl, "/callscope-download-", 20), 0);
	assert_int_equal(strncmp(two + bl, "/callscope-extract-", 19), 0);
	struct stat sb;
	assert_int_equal(stat(one, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	write_file(one, "part");
	write_file(two, "part");
	temp_dirs_release(one);
	assert_false(exists(one));
	assert_true(exists(two));
	temp_dirs_remove_all();
	assert_false(exists(two));
	free(one);
	free(two);
	/* a relative TMPDIR is not trusted: /tmp */
	assert_int_equal(setenv("TMPDIR", "relative/dir", 1), 0);
	assert_int_equal(temp_dirs_create("x", &one, &err), STATUS_OK);
	assert_int_equal(strncmp(one, "/tmp/callscope-x-", 17), 0);
	temp_dirs_remove_all();
	assert_false(exists(one));
	free(one);
	/* a TMPDIR that cannot hold a directory: an error naming it */
	assert_int_equal(setenv("TMPDIR", "/nonexistent/callscope", 1), 0);
	assert_int_equal(temp_dirs_create("x", &one, &err), STATUS_IO);
	assert_null(one);
	assert_non_null(strstr(err.message, "cannot create a temporary "
					    "directory"));
	error_clear(&err);
	unsetenv("TMPDIR");
}

/* Poll (up to 10 s) until `path` is gone. */
static bool vanishes(const char *path)
{
	for (int i = 0; i < 1000; i++) {
		if (!exists(path))
			return true;
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	return false;
}

/* A process killed with SIGKILL (no exit handler, no signal handler) has
 * its directory removed by the janitor; a released directory leaves no
 * janitor behind (no child of this process remains). */
static void test_janitor(void **state)
{
	(void)state;
	assert_int_equal(setenv("TMPDIR", base, 1), 0);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *dir = NULL;
		if (temp_dirs_create("download", &dir, NULL) != STATUS_OK)
			_exit(1);
		write_file(dir, "part");
		if (write(p[1], dir, strlen(dir) + 1) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	char dir[4096];
	ssize_t n = read(p[0], dir, sizeof(dir) - 1);
	close(p[0]);
	assert_true(n > 1);
	dir[n] = '\0';
	assert_true(exists(dir));
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_true(vanishes(dir));
	/* released and swept: the janitors are gone (no children left) */
	char *one = NULL, *two = NULL;
	assert_int_equal(temp_dirs_create("x", &one, NULL), STATUS_OK);
	assert_int_equal(temp_dirs_create("y", &two, NULL), STATUS_OK);
	temp_dirs_release(one);
	temp_dirs_remove_all();
	assert_false(exists(one));
	assert_false(exists(two));
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	free(one);
	free(two);
	unsetenv("TMPDIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_links_not_followed),
		cmocka_unit_test(test_temp_dirs),
		cmocka_unit_test(test_janitor),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
