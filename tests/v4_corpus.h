/* v4_corpus: the HPCToolkit v4 databases of a folder of the shared corpus
 * (test-v4-corpus.c, test-model-dense.c read them all): every directory
 * holding a meta.db, found by a walk of the folder (cmocka). */
#ifndef CALLSCOPE_TESTS_V4_CORPUS_H
#define CALLSCOPE_TESTS_V4_CORPUS_H

#include <ftw.h>
#include <stdlib.h>
#include <string.h>

/* the walk's result so far (nftw's callback takes no context) */
static char **v4_found;
static size_t v4_n_found;

static int v4_collect(const char *path, const struct stat *sb, int type,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	size_t len = strlen(path);
	if (type == FTW_F && len >= 8 &&
	    strcmp(path + len - 8, "/meta.db") == 0) {
		char **n = realloc(v4_found, (v4_n_found + 1) * sizeof(*n));
		assert_non_null(n);
		v4_found = n;
		v4_found[v4_n_found] = strndup(path, len - 8);
		assert_non_null(v4_found[v4_n_found]);
		v4_n_found++;
	}
	return 0;
}

static int v4_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The database directories under `root` sorted by name: a heap array of
 * heap strings, *n of them, freed by v4_corpus_free. */
static inline char **v4_corpus_dbs(const char *root, size_t *n)
{
	v4_found = NULL;
	v4_n_found = 0;
	assert_int_equal(nftw(root, v4_collect, 16, FTW_PHYS), 0);
	qsort(v4_found, v4_n_found, sizeof(*v4_found), v4_cmp_str);
	*n = v4_n_found;
	return v4_found;
}

static inline void v4_corpus_free(char **dbs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(dbs[i]);
	free(dbs);
}

#endif
