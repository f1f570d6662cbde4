/* fuzz_main: a stand-in for libFuzzer's main, so that fuzz targets also
 * build as plain programs and `make check` replays their corpora.  Each
 * argument is a file, or a directory whose files are all run (not
 * recursively); each file's bytes go once to LLVMFuzzerTestOneInput.  Exit
 * status 1 when an input cannot be read.  Depends on POSIX only. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs larger than this are refused (libFuzzer's corpora are small). */
#define FUZZ_INPUT_MAX ((size_t)64 << 20)

static int run_file(const char *path)
{
	int rc = 1;
	uint8_t *buf = NULL;
	FILE *f = fopen(path, "rb");
	struct stat sb;
	if (!f || fstat(fileno(f), &sb) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > FUZZ_INPUT_MAX) {
		fprintf(stderr, "%s: not a regular file of at most %zu bytes\n",
			path, FUZZ_INPUT_MAX);
		goto out;
	}
	size_t size = (size_t)sb.st_size;
	/* An exact-size heap copy, so that ASan sees reads past the end. */
	buf = malloc(size ? size : 1);
	if (!buf || fread(buf, 1, size, f) != size) {
		fprintf(stderr, "%s: cannot read\n", path);
		goto out;
	}
	LLVMFuzzerTestOneInput(buf, size);
	rc = 0;
out:
	free(buf);
	if (f)
		fclose(f);
	return rc;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of `dir`, in name order. */
static int run_dir(const char *dir)
{
	int rc = 0;
	char **names = NULL;
	size_t n = 0, cap = 0;
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return 1;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **p = realloc(names, ncap * sizeof(*names));
			if (!p) {
				rc = 1;
				goto out;
			}
			names = p;
			cap = ncap;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len))) {
			rc = 1;
			goto out;
		}
		snprintf(names[n], len, "%s/%s", dir, e->d_name);
		n++;
	}
	qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n; i++)
		rc |= run_file(names[i]);
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	size_t runs = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			rc |= run_dir(argv[i]);
		else
			rc |= run_file(argv[i]);
		runs++;
	}
	printf("%s: %zu argument(s) run, %s\n", argv[0], runs,
	       rc ? "some unreadable" : "all read");
	return rc;
}
