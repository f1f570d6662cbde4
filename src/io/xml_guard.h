/* xml_guard: the guards every expat parser of callscope sets, in one
 * place: parameter entities and external DTDs never parsed, and expat's
 * billion-laughs limits (from expat 2.4: output at most 10 times the
 * input once past 1 MiB).  The refusal of entity declarations and of
 * external entities stays with each reader (its handlers name the file
 * and what it never declares).  The header does not include expat.h. */
#ifndef CALLSCOPE_IO_XML_GUARD_H
#define CALLSCOPE_IO_XML_GUARD_H

struct XML_ParserStruct;

/* Set the guards on parser `xp` (an XML_Parser). */
void xml_guard(struct XML_ParserStruct *xp);

#endif
