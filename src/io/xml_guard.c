/* xml_guard: see xml_guard.h.  Depends on expat only. */
#include "config.h"

#include "io/xml_guard.h"

/* The billion-laughs limits are declared only with XML_DTD, which every
 * distribution's libexpat is built with. */
#ifndef XML_DTD
#define XML_DTD
#endif
#include <expat.h>

void xml_guard(struct XML_ParserStruct *xp)
{
	XML_SetParamEntityParsing(xp, XML_PARAM_ENTITY_PARSING_NEVER);
#if XML_MAJOR_VERSION > 2 || (XML_MAJOR_VERSION == 2 && XML_MINOR_VERSION >= 4)
	XML_SetBillionLaughsAttackProtectionMaximumAmplification(xp, 10.0F);
	XML_SetBillionLaughsAttackProtectionActivationThreshold(xp, 1u << 20);
#endif
}
