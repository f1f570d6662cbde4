/* fuzz-archive: libFuzzer target for safe extraction.  The input is an
 * archive in memory, extracted with small limits into a fresh directory
 * under one private temporary directory, searched for database roots and
 * removed; whatever the input, nothing may appear beside the destination
 * (the run traps otherwise) and no temporary directory may be left.  Links
 * the engine only. */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/archive_extract.h"
#include "archive/archive_roots.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A bidder by names for the walk over what was extracted: a ".db" sure
 * (one reader), every other path a guess of another, which merges. */
static const char sure_reader, guess_reader;
static int any_bid(void *ctx, const char *path, const void **who,
		   bool *merges)
{
	(void)ctx;
	size_t n = strlen(path);
	bool db = n > 3 && strcmp(path + n - 3, ".db") == 0;
	*who = db ? &sure_reader : &guess_reader;
	*merges = !db;
	return db ? 90 : 20;
}

static char dest[FUZZ_TMP_MAX + 8];

static size_t entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		__builtin_trap();
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 &&
		     strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *base = fuzz_tmp_dir("archive");
	if (!dest[0])
		snprintf(dest, sizeof(dest), "%s/d", base);
	struct archive_limits lim = archive_limits_default();
	lim.max_total_bytes = 16 << 20;
	lim.max_entry_bytes = 8 << 20;
	lim.max_entries = 2000;
	lim.ratio_floor = 1 << 20;
	lim.max_ratio = 200;
	struct error err = {.status = STATUS_OK};
	enum status st = archive_extract_memory(data, size, "fuzz", dest, &lim,
						NULL, &err);
	if (st == STATUS_OK) {
		char **roots = NULL;
		size_t n = 0;
		if (archive_find_roots(dest, any_bid, NULL, 39, &roots, &n,
				       &err) == STATUS_OK)
			archive_free_paths(roots, n);
		if (entries_in(base) != 1)
			__builtin_trap();
		if (file_tree_remove(dest, NULL) != STATUS_OK)
			__builtin_trap();
	}
	if (entries_in(base) != 0)
		__builtin_trap();
	error_clear(&err);
	return 0;
}
