/* lazylib_xml2: libxml2, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_xml2.def, for the HTML
 * parser of HTTP directory listings (net/listing.c). Depends on
 * core/lazylib and the library's header only. */
#include "config.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#define LAZYLIB_LIB   LAZYLIB_XML2
#define LAZYLIB_DEF   "core/lazylib_xml2.def"
#define LAZYLIB_TABLE lazylib_table_xml2
#include "core/lazylib_tramp.h"
