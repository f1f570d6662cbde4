/* natural: labels in natural order ("RANK 2" before "RANK 10"), as the
 * threads pane sorts execution contexts by label.  libc only. */
#include "config.h"

#include "core/natural.h"

#include <ctype.h>
#include <string.h>

/* Labels in natural order: runs of digits compare as numbers ("Rank 2"
 * before "Rank 10"), the rest byte by byte. */
static int natural_cmp_from(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t na = 0, nb = 0;
			while (isdigit((unsigned char)a[na]))
				na++;
			while (isdigit((unsigned char)b[nb]))
				nb++;
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = strncmp(a, b, na);
			if (c)
				return c;
			a += na;
			b += nb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* From where A and B first differ, backed up to the start of the digit run
 * there: every token before it is the same on both sides (its digit runs
 * too, leading zeros and all), so natural_cmp_from from there answers the
 * same.  100,000 labels "NODE 7 RANK 14 THREAD 657" share long prefixes:
 * sorting them took 470 M instructions in natural_cmp_from alone. */
int natural_cmp(const char *a, const char *b)
{
	size_t i = 0;
	while (a[i] && a[i] == b[i])
		i++;
	if (!a[i] && !b[i])
		return 0;
	while (i > 0 && isdigit((unsigned char)a[i - 1]))
		i--;
	return natural_cmp_from(a + i, b + i);
}
