/* cube_quote: quotes CubeLib's unquoted attribute values of derived
 * metrics in anchor.xml before expat reads it (see cube_quote.h).  Must
 * not depend on curses or on another format. */
#include "config.h"

#include "formats/cube/cube_quote.h"
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

/* as Metric::writeXML writes them */
static const char *const forms[] = {
	"<cubepl rowwise=false>",
	"<cubepl rowwise=true>",
	"<cubeplaggr cubeplaggrtype=plus>",
	"<cubeplaggr cubeplaggrtype=minus>",
	"<cubeplaggr cubeplaggrtype=aggr>",
};

#define N_FORMS (sizeof(forms) / sizeof(forms[0]))
#define HOLD 40 /* > the longest form */

/* The form starting at s (n bytes there), or NULL. */
static const char *form_at(const char *s, size_t n)
{
	for (size_t f = 0; f < N_FORMS; f++) {
		size_t fl = strlen(forms[f]);
		if (fl <= n && memcmp(s, forms[f], fl) == 0)
			return forms[f];
	}
	return NULL;
}

bool cube_quote_feed(struct cube_quote *q, const void *data, size_t len,
		     bool last, const char **out, size_t *n)
{
	size_t n_in = q->n_held + len;
	char *src = malloc(n_in + 1);
	/* each form adds 2 bytes to at least 22 */
	size_t need = n_in + n_in / 8 + 16;
	if (!src)
		return false;
	if (!array_grow((void **)&q->buf, &q->cap, need, 1)) {
		free(src);
		return false;
	}
	if (q->n_held)
		memcpy(src, q->held, q->n_held);
	if (len)
		memcpy(src + q->n_held, data, len);
	size_t upto = last ? n_in : n_in > HOLD ? n_in - HOLD : 0;
	size_t i = 0, o = 0;
	while (i < upto) {
		const char *f = src[i] == '<' ? form_at(src + i, n_in - i)
					      : NULL;
		if (!f) {
			q->buf[o++] = src[i++];
			continue;
		}
		size_t fl = strlen(f);
		size_t pre = (size_t)(strchr(f, '=') - f) + 1;
		memcpy(q->buf + o, f, pre);
		o += pre;
		q->buf[o++] = '"';
		memcpy(q->buf + o, f + pre, fl - pre - 1);
		o += fl - pre - 1;
		q->buf[o++] = '"';
		q->buf[o++] = '>';
		i += fl;
	}
	free(q->held);
	q->n_held = n_in - i;
	q->held = src;
	memmove(src, src + i, q->n_held);
	*out = q->buf;
	*n = o;
	return true;
}

void cube_quote_free(struct cube_quote *q)
{
	free(q->held);
	free(q->buf);
	memset(q, 0, sizeof(*q));
}
