/* fuzz-cubepl: libFuzzer target for the CubePL interpreter of the Cube
 * reader (src/formats/cube/cubepl*.c).  The input is parsed as a derived
 * metric's expression with a host that knows two metrics and a few
 * reserved variables; a program that parses is run twice in the same
 * environment (as an init block and an expression share theirs), the
 * second time with operands for arg1 and arg2 (an own aggregation,
 * <cubeplaggr>), with a small step budget.  Links the engine only. */
#include "config.h"

#include <string.h>

#include "formats/cube/cubepl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int32_t resolve(void *ud, const char *name, size_t len)
{
	(void)ud;
	if (len == 1 && (name[0] == 'a' || name[0] == 'b'))
		return name[0] - 'a';
	return -1;
}

static bool metric(void *ud, int32_t m, enum cubepl_ref_kind kind,
		   enum cubepl_flavour call, enum cubepl_flavour sys, double id,
		   double *out, const char **msg)
{
	(void)ud, (void)sys;
	if (m == 1 && kind == CUBEPL_REF_CALL && id > 1000) {
		*msg = "no such call path";
		return false;
	}
	*out = m * 3.5 + call - (double)kind;
	return true;
}

static const char *const names[] = {"main", "MPI_Send", ""};

static bool reserved(void *ud, enum cubepl_reserved r, double idx,
		     struct cubepl_value *out)
{
	(void)ud;
	if (r == CUBEPL_R_NUM_CALLPATHS) {
		out->num = 3;
		return true;
	}
	if (r == CUBEPL_R_REGION_NAME && idx >= 0 && idx < 3) {
		out->str = names[(int)idx];
		return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cubepl_host h = {.resolve = resolve,
				.metric = metric,
				.reserved = reserved};
	struct cubepl_env *env = cubepl_env_new(4096);
	struct cubepl_program *p = NULL;
	char msg[256] = "";
	if (env && cubepl_parse((const char *)data, size, &h, env, &p, msg,
				sizeof(msg))) {
		double v;
		size_t n;
		(void)cubepl_program_metrics(p, &n);
		(void)cubepl_run(p, env, &h, 20000, &v, msg, sizeof(msg));
		/* as a <cubeplaggr> expression: arg1 and arg2 given */
		(void)cubepl_run_args(p, env, &h, 20000, 2.5, -1, &v, msg,
				      sizeof(msg));
	}
	if (env && !p && msg[0] == '\0')
		__builtin_trap(); /* a refused program says why */
	cubepl_program_free(p);
	cubepl_env_free(env);
	return 0;
}
