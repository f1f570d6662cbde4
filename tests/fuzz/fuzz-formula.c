/* fuzz-formula: libFuzzer target for the formula text parser.  The input
 * (up to its first NUL) is parsed as a derived-column formula; a formula
 * that parses is evaluated with every leaf valued and printed, and the
 * printed text must parse again and print the same.  Links the engine
 * only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/formula.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool leaf_value(void *ctx, uint32_t leaf, double *out)
{
	(void)ctx;
	*out = (double)(leaf % 7) - 2.5;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {0};
	struct formula *f = NULL, *again = NULL;
	char *text = NULL, *printed = NULL, *reprinted = NULL;
	if (!(text = malloc(size + 1)))
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (formula_parse(text, &f, &err) != STATUS_OK)
		goto out;
	double v;
	(void)formula_eval(f, leaf_value, NULL, &v);
	if (!(printed = formula_to_string(f, NULL, NULL)))
		goto out;
	error_clear(&err);
	if (formula_parse(printed, &again, &err) != STATUS_OK)
		__builtin_trap();
	if (!(reprinted = formula_to_string(again, NULL, NULL)))
		goto out;
	if (strcmp(printed, reprinted) != 0)
		__builtin_trap();
out:
	free(reprinted);
	free(printed);
	formula_free(again);
	formula_free(f);
	free(text);
	error_clear(&err);
	return 0;
}
