/* extrap_demangle: the Itanium C++ names of the kernels an Extra-Prof
 * profile records mangled (`_Z5test0Pdmm`), demangled as Extra-P's reader
 * demangles them (itanium_demangler, printed as c++filt prints:
 * `test0(double*, unsigned long, unsigned long)`).  A subset: a function
 * whose name is a source name or a nested name (N...E) and whose
 * parameters are built-in types, class names (source or nested names),
 * pointers, references and const (P, R, K) and substitutions (S_, Sn_).
 * Anything else (templates, operators, std:: abbreviations...) leaves
 * the name as it is, as Extra-P leaves a name its demangler does not
 * take.  Must not depend on curses, on ui/ or on another format. */
#include "config.h"

#include "formats/extrap/extrap_prof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM_MAX_SUBS 64
#define DM_MAX_TEXT 4096

struct dm {
	const char *p, *end;
	char subs[DM_MAX_SUBS][256];
	int n_subs;
	bool bad;
};

static const char *builtin(char c)
{
	switch (c) {
	case 'v': return "void";
	case 'b': return "bool";
	case 'c': return "char";
	case 'a': return "signed char";
	case 'h': return "unsigned char";
	case 's': return "short";
	case 't': return "unsigned short";
	case 'i': return "int";
	case 'j': return "unsigned int";
	case 'l': return "long";
	case 'm': return "unsigned long";
	case 'x': return "long long";
	case 'y': return "unsigned long long";
	case 'n': return "__int128";
	case 'o': return "unsigned __int128";
	case 'f': return "float";
	case 'd': return "double";
	case 'e': return "long double";
	case 'w': return "wchar_t";
	case 'z': return "...";
	default: return NULL;
	}
}

static void add_sub(struct dm *d, const char *s)
{
	if (d->n_subs >= DM_MAX_SUBS || strlen(s) >= sizeof(d->subs[0])) {
		d->bad = true;
		return;
	}
	strcpy(d->subs[d->n_subs++], s);
}

/* <number> <identifier> into out (size 256). */
static void source_name(struct dm *d, char *out)
{
	size_t n = 0;
	if (d->p >= d->end || *d->p < '1' || *d->p > '9') {
		d->bad = true;
		return;
	}
	while (d->p < d->end && *d->p >= '0' && *d->p <= '9' && n < 256)
		n = n * 10 + (size_t)(*d->p++ - '0');
	if (n >= 256 || (size_t)(d->end - d->p) < n) {
		d->bad = true;
		return;
	}
	memcpy(out, d->p, n);
	out[n] = '\0';
	d->p += n;
}

/* N <source-name>+ E: "a::b"; each prefix a substitution candidate. */
static void nested_name(struct dm *d, char *out, bool function)
{
	out[0] = '\0';
	d->p++; /* N */
	char part[256];
	while (!d->bad && d->p < d->end && *d->p != 'E') {
		source_name(d, part);
		if (d->bad || strlen(out) + strlen(part) + 3 > 255) {
			d->bad = true;
			return;
		}
		if (out[0])
			strcat(out, "::");
		strcat(out, part);
		/* the function's own full name is no candidate */
		if (!function || (d->p < d->end && *d->p != 'E'))
			add_sub(d, out);
	}
	if (d->p >= d->end)
		d->bad = true;
	else
		d->p++; /* E */
}

static void type(struct dm *d, char *out)
{
	out[0] = '\0';
	if (d->p >= d->end) {
		d->bad = true;
		return;
	}
	char c = *d->p, inner[256];
	const char *b = builtin(c);
	if (b) {
		d->p++;
		strcpy(out, b);
		return;
	}
	if (c == 'P' || c == 'R' || c == 'K') {
		d->p++;
		type(d, inner);
		if (d->bad || strlen(inner) + 7 > 255) {
			d->bad = true;
			return;
		}
		snprintf(out, 256, "%s%s", inner,
			 c == 'P' ? "*" : c == 'R' ? "&" : " const");
		add_sub(d, out);
		return;
	}
	if (c == 'S') {
		/* S_ is 0, S<base 36>_ is that + 1 */
		d->p++;
		int k = 0;
		if (d->p < d->end && *d->p != '_') {
			int v = 0;
			while (d->p < d->end && *d->p != '_' && v < 1000) {
				char x = *d->p++;
				if (x >= '0' && x <= '9')
					v = v * 36 + (x - '0');
				else if (x >= 'A' && x <= 'Z')
					v = v * 36 + (x - 'A' + 10);
				else {
					d->bad = true;
					return;
				}
			}
			k = v + 1;
		}
		if (d->p >= d->end || k >= d->n_subs) {
			d->bad = true;
			return;
		}
		d->p++; /* _ */
		strcpy(out, d->subs[k]);
		return;
	}
	if (c == 'N') {
		nested_name(d, out, false);
		return;
	}
	if (c >= '1' && c <= '9') {
		source_name(d, out);
		if (!d->bad)
			add_sub(d, out);
		return;
	}
	d->bad = true;
}

char *extrap_demangle(const char *name)
{
	size_t len = strlen(name);
	if (len < 3 || len > DM_MAX_TEXT || strncmp(name, "_Z", 2) != 0)
		return NULL;
	struct dm *d = calloc(1, sizeof(*d));
	char *res = malloc(DM_MAX_TEXT + 512);
	if (!d || !res) {
		free(d);
		free(res);
		return NULL;
	}
	d->p = name + 2;
	d->end = name + len;
	char fn[256], t[256];
	if (*d->p == 'N')
		nested_name(d, fn, true);
	else
		source_name(d, fn);
	if (!d->bad && d->p == d->end) { /* a name without a signature */
		free(d);
		strcpy(res, fn);
		return res;
	}
	size_t n = (size_t)snprintf(res, 512, "%s(", d->bad ? "" : fn);
	int args = 0;
	while (!d->bad && d->p < d->end) {
		type(d, t);
		if (d->bad)
			break;
		if (args == 0 && strcmp(t, "void") == 0 && d->p == d->end)
			break; /* f(void) is f() */
		if (n + strlen(t) + 3 > DM_MAX_TEXT) {
			d->bad = true;
			break;
		}
		n += (size_t)sprintf(res + n, "%s%s", args ? ", " : "", t);
		args++;
	}
	if (args == 0 && !d->bad && d->p != d->end)
		d->bad = true;
	bool ok = !d->bad && n < DM_MAX_TEXT;
	free(d);
	if (!ok) {
		free(res);
		return NULL;
	}
	strcpy(res + n, ")");
	return res;
}
