/* lazylib_curl: libcurl, loaded on first use (core/lazylib.h): the
 * trampolines of the functions of core/lazylib_curl.def, for URLs (net/):
 * transfers and URL parsing. Depends on core/lazylib and the library's
 * header only. */
#include "config.h"

/* the variadic functions are defined here: not curl's type-checking macros */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stdarg.h>

#define LAZYLIB_LIB   LAZYLIB_CURL
#define LAZYLIB_DEF   "core/lazylib_curl.def"
#define LAZYLIB_TABLE lazylib_table_curl
#include "core/lazylib_tramp.h"

/* The two variadic functions, by hand.  curl_easy_setopt's third argument
 * has the type that the option's number range gives (curl/curl.h:
 * CURLOPTTYPE_LONG, _OBJECTPOINT, _FUNCTIONPOINT, _OFF_T, _BLOB);
 * curl_easy_getinfo's is always a pointer to where the answer goes. */
CURLcode curl_easy_setopt(CURL *curl, CURLoption option, ...)
{
	CURLcode (*fn)(CURL *, CURLoption, ...) = (CURLcode(*)(
	    CURL *, CURLoption, ...))lazy_address(LAZY_IX_curl_easy_setopt);
	va_list ap;
	va_start(ap, option);
	CURLcode rc;
	if (option < CURLOPTTYPE_OBJECTPOINT) {
		long v = va_arg(ap, long);
		rc = fn(curl, option, v);
	} else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
		void *v = va_arg(ap, void *);
		rc = fn(curl, option, v);
	} else if (option < CURLOPTTYPE_OFF_T) {
		void (*v)(void) = va_arg(ap, void (*)(void));
		rc = fn(curl, option, v);
	} else if (option < CURLOPTTYPE_BLOB) {
		curl_off_t v = va_arg(ap, curl_off_t);
		rc = fn(curl, option, v);
	} else {
		void *v = va_arg(ap, void *);
		rc = fn(curl, option, v);
	}
	va_end(ap);
	return rc;
}

CURLcode curl_easy_getinfo(CURL *curl, CURLINFO info, ...)
{
	void *f = lazy_address(LAZY_IX_curl_easy_getinfo);
	va_list ap;
	va_start(ap, info);
	void *where = va_arg(ap, void *);
	va_end(ap);
	return ((CURLcode(*)(CURL *, CURLINFO, ...))f)(curl, info, where);
}
