/* A small program whose ELF image the DCPI tests profile: several
 * functions of known names, one inlined into another (built by
 * tests/test-dcpi.sh with gcc -g -O0 -no-pie; never run).  The symbols and lines the tests expect come from
 * binutils (nm, readelf) on the built image, not from callscope. */
#include <stdio.h>

static volatile unsigned long sink;

unsigned long dcpi_alpha(unsigned long n)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i;
	return s;
}

/* inlined even at -O0: DWARF then has an inlined-call scope */
static inline __attribute__((always_inline)) unsigned long
dcpi_mix(unsigned long s, unsigned long i)
{
	return s * 31 + i;
}

unsigned long dcpi_beta(unsigned long n)
{
	unsigned long s = 1;
	for (unsigned long i = 1; i < n; i++)
		s = dcpi_mix(s, i);
	return s;
}

static unsigned long dcpi_gamma(unsigned long a, unsigned long b)
{
	return a ^ (b << 3) ^ (b >> 5);
}

int main(int argc, char **argv)
{
	(void)argv;
	sink = dcpi_gamma(dcpi_alpha((unsigned long)argc * 1000),
			  dcpi_beta((unsigned long)argc * 2000));
	printf("%lu\n", sink);
	return 0;
}
