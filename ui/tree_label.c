/* tree_label: a tree row's label cut to its room (tree_label.h). */
#include "config.h"

#include "tree_label.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sanitize.h"
#include "screen.h"

/* TEXT (sanitized here) in at most WIDTH display columns: whole when it
 * fits, else its start and its end around an ellipsis, so that names
 * that share a start ("loop at SteadyStateSolver.cpp:93", ":126") stay
 * told apart by their end, and a number cut at the head kept whole
 * ("thread 1230493…MPI Rank 0"); a signature ("f(int, long)") is left whole
 * for screen_text to cut at its end.  NULL when out of memory. */
char *middle_cut(const char *text, int width)
{
	char *safe = sanitize_text(text, SANITIZE_TERMINAL);
	size_t n_safe = safe ? strlen(safe) : 0;
	/* a signature's end is its parameters: its start tells more */
	if (!safe || width < 8 || (n_safe > 0 && safe[n_safe - 1] == ')') ||
	    screen_text_width(safe) <= width)
		return safe;
	const char *ell = screen_glyphs()->ellipsis;
	int tail_w = (width - 1) / 2 < 16 ? (width - 1) / 2 : 16;
	int head_w = width - 1 - tail_w;
	size_t len = strlen(safe), head = 0, tail = len;
	char *probe = malloc(len + 1);
	char *out = malloc(len + strlen(ell) + 1);
	if (!probe || !out) {
		free(probe);
		free(out);
		return safe;
	}
	/* the longest start of at most head_w columns */
	for (;;) {
		size_t n = sanitize_utf8_len((const unsigned char *)safe + head,
					     len - head);
		if (head >= len || n == 0)
			break;
		memcpy(probe, safe, head + n);
		probe[head + n] = '\0';
		if (screen_text_width(probe) > head_w)
			break;
		head += n;
	}
	/* a number is not cut ("thread 1230…" of two threads read alike):
	 * the head takes its rest from the tail's room */
	while (head > 0 && head < len && isdigit((unsigned char)safe[head - 1]) &&
	       isdigit((unsigned char)safe[head]) && tail_w > 1) {
		head++;
		tail_w--;
	}
	/* the longest end of at most tail_w columns */
	while (tail > head) {
		size_t start = tail - 1;
		while (start > head && ((unsigned char)safe[start] & 0xc0) == 0x80)
			start--;
		memcpy(probe, safe + start, len - start);
		probe[len - start] = '\0';
		if (screen_text_width(probe) > tail_w)
			break;
		tail = start;
	}
	free(probe);
	sprintf(out, "%.*s%s%s", (int)head, safe, ell, safe + tail);
	free(safe);
	return out;
}

/* A metric's name in a header: HPCToolkit's "GKER:STMEM", "GKER:DYMEM"
 * share their start, their ends tell them apart. */
char *metric_name_fit(const char *name, int room)
{
	char *out = NULL;
	if (screen_text_width(name) <= room || room <= 1)
		return strdup(name);
	const char *ell = screen_glyphs()->ellipsis;
	if (strchr(name, ':')) {
		const char *p = name;
		while (*p && screen_text_width(p) > room - 1)
			for (p++; (*p & 0xc0) == 0x80; p++)
				;
		return asprintf(&out, "%s%s", ell, p) < 0 ? NULL : out;
	}
	size_t len = strlen(name);
	char *head = strdup(name);
	while (head && len > 0 && screen_text_width(head) > room - 1) {
		do
			len--;
		while (len > 0 && (head[len] & 0xc0) == 0x80);
		head[len] = '\0';
	}
	if (head && asprintf(&out, "%s%s", head, ell) < 0)
		out = NULL;
	free(head);
	return out;
}
