/* runset_label: the runs' short labels from their paths
 * (runset_label.h). */
#include "config.h"

#include "compare/runset_label.h"
#include "core/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool separator(char c)
{
	unsigned char u = (unsigned char)c;
	return u < 0x80 && !((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') ||
			     (u >= 'A' && u <= 'Z'));
}

/* Path p without its trailing slashes (but a lone "/"): its length. */
static size_t trimmed(const char *p)
{
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	return n;
}

/* How many components of [p, p+n) there are ("/a/b": "", "a", "b"). */
static size_t n_parts(const char *p, size_t n)
{
	size_t k = 1;
	for (size_t i = 0; i < n; i++)
		k += p[i] == '/';
	return k;
}

/* The offset of component `k` of [p, p+n), or of its end (k == n_parts:
 * n + 1, as if a '/' followed). */
static size_t part_at(const char *p, size_t n, size_t k)
{
	size_t i = 0;
	for (; k > 0 && i < n; i++)
		k -= p[i] == '/';
	return k > 0 ? n + 1 : i;
}

/* Whether component k (counted from the start, or from the end when
 * `back`) is the same text in every path. */
static bool same_part(const char *const *p, const size_t *len,
		      const size_t *parts, uint32_t n, size_t k, bool back)
{
	const char *s0 = NULL;
	size_t l0 = 0;
	for (uint32_t r = 0; r < n; r++) {
		size_t j = back ? parts[r] - 1 - k : k;
		size_t a = part_at(p[r], len[r], j);
		size_t b = part_at(p[r], len[r], j + 1) - 1;
		if (r == 0) {
			s0 = p[r] + a;
			l0 = b - a;
		} else if (b - a != l0 || memcmp(p[r] + a, s0, l0) != 0) {
			return false;
		}
	}
	return true;
}

/* The characters every text [t[r], t[r]+l[r]) shares at its start, backed
 * off to just after a separator (0 without one), less than every length. */
static size_t common_head(const char *const *t, const size_t *l, uint32_t n)
{
	size_t h = l[0];
	for (uint32_t r = 1; r < n; r++) {
		size_t i = 0;
		while (i < h && i < l[r] && t[r][i] == t[0][i])
			i++;
		h = i;
	}
	for (uint32_t r = 0; r < n; r++)
		if (h >= l[r])
			h = l[r] ? l[r] - 1 : 0;
	while (h > 0 && !separator(t[0][h - 1]))
		h--;
	return h;
}

/* The same at the end, from a separator on (0 without one). */
static size_t common_tail(const char *const *t, const size_t *l, uint32_t n)
{
	size_t s = l[0];
	for (uint32_t r = 1; r < n; r++) {
		size_t i = 0;
		while (i < s && i < l[r] &&
		       t[r][l[r] - 1 - i] == t[0][l[0] - 1 - i])
			i++;
		s = i;
	}
	for (uint32_t r = 0; r < n; r++)
		if (s >= l[r])
			s = l[r] ? l[r] - 1 : 0;
	while (s > 0 && !separator(t[0][l[0] - s]))
		s--;
	return s;
}

static bool numbered(uint32_t n, char **out)
{
	for (uint32_t r = 0; r < n; r++) {
		free(out[r]);
		if (asprintf(&out[r], "run %u", r + 1) < 0) {
			out[r] = NULL;
			for (uint32_t q = 0; q < n; q++) {
				FREE_AND_NULL(out[q]);
			}
			return false;
		}
	}
	return true;
}

/* Drop the components all share at both ends: text r is [t[r], +l[r]). */
static void middles(const char *const *paths, uint32_t n, size_t *len,
		    size_t *parts, const char **t, size_t *l)
{
	size_t least = SIZE_MAX;
	for (uint32_t r = 0; r < n; r++) {
		len[r] = trimmed(paths[r]);
		parts[r] = n_parts(paths[r], len[r]);
		if (parts[r] < least)
			least = parts[r];
	}
	size_t lead = 0, trail = 0;
	while (lead + 1 < least && same_part(paths, len, parts, n, lead, false))
		lead++;
	while (lead + trail + 1 < least &&
	       same_part(paths, len, parts, n, trail, true))
		trail++;
	for (uint32_t r = 0; r < n; r++) {
		size_t a = part_at(paths[r], len[r], lead);
		size_t b = part_at(paths[r], len[r], parts[r] - trail) - 1;
		t[r] = paths[r] + a;
		l[r] = b - a;
	}
}

bool runset_labels(const char *const *paths, uint32_t n, char **out)
{
	for (uint32_t r = 0; r < n; r++)
		out[r] = NULL;
	if (n < 2)
		return numbered(n, out);
	size_t *len = malloc(3 * (size_t)n * sizeof(*len));
	const char **t = malloc((size_t)n * sizeof(*t));
	bool ok = len && t;
	if (ok) {
		size_t *parts = len + n, *l = len + 2 * (size_t)n;
		middles(paths, n, len, parts, t, l);
		size_t head = common_head(t, l, n);
		for (uint32_t r = 0; r < n; r++) {
			t[r] += head;
			l[r] -= head;
		}
		size_t tail = common_tail(t, l, n);
		bool unique = true;
		for (uint32_t r = 0; ok && r < n; r++) {
			size_t k = l[r] - tail;
			unique = unique && k > 0;
			for (uint32_t q = 0; unique && q < r; q++)
				unique = !(l[q] - tail == k &&
					   memcmp(t[q], t[r], k) == 0);
			out[r] = strndup(t[r], k);
			ok = out[r] != NULL;
		}
		if (ok && !unique)
			ok = numbered(n, out);
	}
	free(len);
	free(t);
	if (!ok)
		for (uint32_t r = 0; r < n; r++) {
			FREE_AND_NULL(out[r]);
		}
	return ok;
}
