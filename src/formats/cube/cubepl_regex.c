/* cubepl_regex: the /regex/ of CubePL's =~ operator.  CubeLib matches it
 * as a POSIX extended regular expression (Henry Spencer's regex library);
 * here PCRE2 converts it (pcre2_pattern_convert, POSIX extended: a
 * backslash makes the next character literal, no back-references) and
 * compiles and matches it, with every cost bounded: the pattern's length,
 * each allocation of the compiler, its nesting (PCRE2's default of 250
 * parentheses) and compiled size (64 K code units), and for each match
 * the backtracking steps, depth and heap.  A bound reached is an error of
 * the expression ("regular expression too costly"), never a hang, and a
 * match counts against the run's step budget by the work it took (one
 * step per CPL_REGEX_TIER_WORK backtracking steps, rounded up to a power
 * of ten), so a loop of costly matches ends at the step limit.  (glibc's
 * regcomp, used before, took minutes on `^(.*){1,1000}$`.)
 * Before conversion, a repetition operator that does not follow an atom
 * (at the start, after `(`, `|` or another repetition) is refused, as
 * Spencer's regcomp refuses it (REG_BADRPT): this also keeps out PCRE2's
 * own syntax, which would otherwise pass through the conversion ((?...),
 * (*VERB), lazy *? and possessive ++).  The subject is matched as bytes,
 * `.` matches a newline and `$` only the end (POSIX without REG_NEWLINE).
 * Depends on libc and PCRE2. */
#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cube/cubepl_internal.h"

struct cpl_regex {
	pcre2_code *code;
};

/* What the matches of a run reuse: the match data, and a match context
 * whose match limit each match raises tier by tier. */
struct cpl_regex_scratch {
	pcre2_match_data *md;
	pcre2_match_context *mctx;
};

/* The compiler may allocate at most this much at once. */
#define CPL_REGEX_MAX_ALLOC (1u << 20)

static void *alloc_bounded(size_t size, void *data)
{
	(void)data;
	return size > CPL_REGEX_MAX_ALLOC ? NULL : malloc(size);
}

static void free_bounded(void *p, void *data)
{
	(void)data;
	free(p);
}

/* The end of the bracket expression that starts at pat[i] ('['), or len
 * when it is not closed: a leading ^ and ] are literal, [:class:],
 * [.coll.] and [=equiv=] are skipped whole. */
static size_t bracket_end(const char *pat, size_t len, size_t i)
{
	size_t j = i + 1;
	if (j < len && pat[j] == '^')
		j++;
	if (j < len && pat[j] == ']')
		j++;
	for (; j < len && pat[j] != ']'; j++) {
		char k = j + 1 < len ? pat[j + 1] : 0;
		if (pat[j] == '[' && (k == ':' || k == '.' || k == '=')) {
			size_t e = j + 2;
			while (e + 1 < len && !(pat[e] == k && pat[e + 1] == ']'))
				e++;
			if (e + 1 >= len)
				return len;
			j = e + 1;
		}
	}
	return j;
}

/* `pat` checked and ready for pcre2_pattern_convert, in out (room for
 * 4 * len + 1 bytes), its length in *out_len; false when a repetition
 * operator (* + ? {digit) follows no atom.  A * after a bracket
 * expression is written {0,}: PCRE2 10.42's converter drops it when a *
 * came earlier (it does not forget that * at the bracket expression, so
 * takes this one for a second * of the same atom). */
static bool prepare(const char *pat, size_t len, char *out, size_t *out_len)
{
	bool atom = false, bracket = false; /* what precedes */
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		char c = pat[i];
		bool rep = c == '*' || c == '+' || c == '?' ||
			   (c == '{' && i + 1 < len && pat[i + 1] >= '0' &&
			    pat[i + 1] <= '9');
		if (rep && !atom)
			return false;
		size_t end = i;
		if (c == '\\' && i + 1 < len)
			end = i + 1;
		else if (c == '[')
			end = bracket_end(pat, len, i) < len
				      ? bracket_end(pat, len, i)
				      : len - 1;
		else if (c == '{' && rep)
			while (end + 1 < len && pat[end] != '}')
				end++;
		if (c == '*' && bracket) {
			memcpy(out + o, "{0,}", 4);
			o += 4;
		} else {
			memcpy(out + o, pat + i, end - i + 1);
			o += end - i + 1;
		}
		bracket = c == '[';
		atom = !rep && c != '(' && c != '|';
		i = end;
	}
	out[o] = '\0';
	*out_len = o;
	return true;
}

struct cpl_regex *cpl_regex_compile(const char *pat, size_t len,
				    const char **why)
{
	struct cpl_regex *re = NULL;
	pcre2_general_context *gctx = NULL;
	pcre2_compile_context *cctx = NULL;
	PCRE2_UCHAR *conv = NULL;
	PCRE2_SIZE conv_len = 0, erroff = 0;
	int rc = 0;
	*why = "a regular expression too costly to compile";
	if (len > CPL_REGEX_MAX_LEN)
		return NULL;
	*why = "out of memory";
	size_t plen = 0;
	char *prep = malloc(4 * len + 1);
	if (!prep)
		return NULL;
	if (!prepare(pat, len, prep, &plen)) {
		free(prep);
		*why = "bad regular expression";
		return NULL;
	}
	gctx = pcre2_general_context_create(alloc_bounded, free_bounded, NULL);
	cctx = gctx ? pcre2_compile_context_create(gctx) : NULL;
	re = calloc(1, sizeof(*re));
	if (!cctx || !re ||
	    pcre2_set_max_pattern_length(cctx, 8 * CPL_REGEX_MAX_LEN + 64) != 0)
		goto fail;
	rc = pcre2_pattern_convert((PCRE2_SPTR)prep, plen,
				   PCRE2_CONVERT_POSIX_EXTENDED, &conv,
				   &conv_len, NULL);
	if (rc != 0) {
		*why = rc == PCRE2_ERROR_NOMEMORY ? "out of memory"
						  : "bad regular expression";
		goto fail;
	}
	re->code = pcre2_compile(conv, conv_len,
				 PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY |
					 PCRE2_NEVER_UTF | PCRE2_NEVER_UCP |
					 PCRE2_NO_AUTO_CAPTURE,
				 &rc, &erroff, cctx);
	if (!re->code) {
		switch (rc) {
		case PCRE2_ERROR_PARENTHESES_NEST_TOO_DEEP:
		case PCRE2_ERROR_PATTERN_TOO_LARGE:
		case PCRE2_ERROR_HEAP_FAILED:
		case PCRE2_ERROR_INTERNAL_CODE_OVERFLOW:
		case PCRE2_ERROR_PATTERN_TOO_COMPLICATED:
		case PCRE2_ERROR_PATTERN_STRING_TOO_LONG:
		case PCRE2_ERROR_TOO_MANY_CAPTURES:
			*why = "a regular expression too costly to compile";
			break;
		default:
			*why = "bad regular expression";
		}
		goto fail;
	}
	free(prep);
	pcre2_converted_pattern_free(conv);
	pcre2_compile_context_free(cctx);
	pcre2_general_context_free(gctx);
	*why = NULL;
	return re;
fail:
	free(prep);
	if (conv)
		pcre2_converted_pattern_free(conv);
	pcre2_compile_context_free(cctx);
	pcre2_general_context_free(gctx);
	cpl_regex_free(re);
	return NULL;
}

void cpl_regex_free(struct cpl_regex *re)
{
	if (!re)
		return;
	pcre2_code_free(re->code);
	free(re);
}

static struct cpl_regex_scratch *scratch_new(void)
{
	struct cpl_regex_scratch *sc = calloc(1, sizeof(*sc));
	if (!sc)
		return NULL;
	sc->md = pcre2_match_data_create(1, NULL);
	sc->mctx = pcre2_match_context_create(NULL);
	if (!sc->md || !sc->mctx ||
	    pcre2_set_depth_limit(sc->mctx, CPL_REGEX_DEPTH_LIMIT) != 0 ||
	    pcre2_set_heap_limit(sc->mctx, CPL_REGEX_HEAP_KIB) != 0) {
		cpl_regex_scratch_free(sc);
		return NULL;
	}
	return sc;
}

/* Tiers: a match limit of CPL_REGEX_TIER_WORK, costing one step, then
 * ten times more for ten times the steps, up to CPL_REGEX_MATCH_LIMIT;
 * a match stopped by one tier's limit is run again at the next (the
 * work repeated is at most a ninth of the last tier's). */
int cpl_regex_match(const struct cpl_regex *re, const char *s,
		    struct cpl_regex_scratch **scratch, uint64_t *steps,
		    const char **why)
{
	*steps = 1;
	if (!*scratch && !(*scratch = scratch_new())) {
		*why = "out of memory";
		return -1;
	}
	struct cpl_regex_scratch *sc = *scratch;
	uint32_t limit = CPL_REGEX_TIER_WORK;
	int rc;
	for (;;) {
		pcre2_set_match_limit(sc->mctx, limit);
		rc = pcre2_match(re->code, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED,
				 0, 0, sc->md, sc->mctx);
		if (rc != PCRE2_ERROR_MATCHLIMIT ||
		    limit >= CPL_REGEX_MATCH_LIMIT)
			break;
		limit *= 10;
		*steps *= 10;
	}
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	*why = rc == PCRE2_ERROR_NOMEMORY
		       ? "out of memory"
		       : "regular expression too costly (a match limit reached)";
	return -1;
}

void cpl_regex_scratch_free(struct cpl_regex_scratch *sc)
{
	if (!sc)
		return;
	pcre2_match_data_free(sc->md);
	pcre2_match_context_free(sc->mctx);
	free(sc);
}
