/* cubepl_names: the names of CubePL's reserved variables (CubeLib's
 * CubePL1MemoryManager.cpp) and the enum each stands for.  Depends on
 * libc only. */
#include "config.h"

#include <string.h>

#include "formats/cube/cubepl_internal.h"

static const struct {
	const char *name;
	uint8_t r;
} reserved[] = {
	{"cube::#metrics", CUBEPL_R_NUM_METRICS},
	{"cube::#root::metrics", CUBEPL_R_NUM_ROOT_METRICS},
	{"cube::#regions", CUBEPL_R_NUM_REGIONS},
	{"cube::#callpaths", CUBEPL_R_NUM_CALLPATHS},
	{"cube::#root::callpaths", CUBEPL_R_NUM_ROOT_CALLPATHS},
	{"cube::#locations", CUBEPL_R_NUM_LOCATIONS},
	{"cube::#locationgroups", CUBEPL_R_NUM_LOCATION_GROUPS},
	{"cube::#stns", CUBEPL_R_NUM_STNS},
	{"cube::#rootstns", CUBEPL_R_NUM_ROOT_STNS},
	{"cube::#mirrors", CUBEPL_R_NUM_MIRRORS},
	{"cube::filename", CUBEPL_R_FILENAME},
	{"cube::metric::uniq::name", CUBEPL_R_METRIC_UNIQ},
	{"cube::metric::disp::name", CUBEPL_R_METRIC_DISP},
	{"cube::metric::url", CUBEPL_R_METRIC_URL},
	{"cube::metric::description", CUBEPL_R_METRIC_DESCR},
	{"cube::metric::dtype", CUBEPL_R_METRIC_DTYPE},
	{"cube::metric::uom", CUBEPL_R_METRIC_UOM},
	{"cube::metric::expression", CUBEPL_R_METRIC_EXPR},
	{"cube::metric::initexpression", CUBEPL_R_METRIC_INIT},
	{"cube::metric::#children", CUBEPL_R_METRIC_NCHILD},
	{"cube::metric::parent::id", CUBEPL_R_METRIC_PARENT},
	{"cube::region::name", CUBEPL_R_REGION_NAME},
	{"cube::region::mangled_name", CUBEPL_R_REGION_MANGLED},
	{"cube::region::paradigm", CUBEPL_R_REGION_PARADIGM},
	{"cube::region::role", CUBEPL_R_REGION_ROLE},
	{"cube::region::url", CUBEPL_R_REGION_URL},
	{"cube::region::description", CUBEPL_R_REGION_DESCR},
	{"cube::region::mod", CUBEPL_R_REGION_MOD},
	{"cube::region::begin::line", CUBEPL_R_REGION_BEGIN},
	{"cube::region::end::line", CUBEPL_R_REGION_END},
	{"cube::callpath::mod", CUBEPL_R_CALL_MOD},
	{"cube::callpath::line", CUBEPL_R_CALL_LINE},
	{"cube::callpath::#children", CUBEPL_R_CALL_NCHILD},
	{"cube::callpath::parent::id", CUBEPL_R_CALL_PARENT},
	{"cube::callpath::calleeid", CUBEPL_R_CALL_CALLEE},
	{"cube::location::name", CUBEPL_R_LOC_NAME},
	{"cube::location::type", CUBEPL_R_LOC_TYPE},
	{"cube::location::rank", CUBEPL_R_LOC_RANK},
	{"cube::location::parent::id", CUBEPL_R_LOC_PARENT},
	{"cube::location::void", CUBEPL_R_LOC_VOID},
	{"cube::locationgroup::name", CUBEPL_R_LG_NAME},
	{"cube::locationgroup::type", CUBEPL_R_LG_TYPE},
	{"cube::locationgroup::rank", CUBEPL_R_LG_RANK},
	{"cube::locationgroup::parent::id", CUBEPL_R_LG_PARENT},
	{"cube::locationgroup::void", CUBEPL_R_LG_VOID},
	{"cube::locationgroup::#locations", CUBEPL_R_LG_NLOC},
	{"cube::stn::name", CUBEPL_R_STN_NAME},
	{"cube::stn::class", CUBEPL_R_STN_CLASS},
	{"cube::stn::parent::id", CUBEPL_R_STN_PARENT},
	{"cube::stn::#children", CUBEPL_R_STN_NCHILD},
	{"cube::stn::#locationgroups", CUBEPL_R_STN_NGROUPS},
	{"calculation::metric::id", CUBEPL_R_CALC_METRIC},
	{"calculation::callpath::id", CUBEPL_R_CALC_CALLPATH},
	{"calculation::region::id", CUBEPL_R_CALC_REGION},
	{"calculation::sysres::id", CUBEPL_R_CALC_SYSRES},
	{"calculation::sysres::kind", CUBEPL_R_CALC_SYSRES_KIND},
};

uint32_t cpl_reserved_of(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strlen(reserved[i].name) == len &&
		    memcmp(reserved[i].name, name, len) == 0)
			return reserved[i].r;
	return UINT32_MAX;
}
