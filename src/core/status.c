/* status: messages for status codes and the error detail record.
 * Depends only on libc. */
#include "config.h"

#include "core/status.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *status_message(enum status status)
{
	switch (status) {
#define STATUS_CASE(code, text)                                         \
	case code:                                                      \
		return text;
		STATUS_LIST(STATUS_CASE)
#undef STATUS_CASE
	}
	return "unknown error";
}

enum status error_vset(struct error *err, enum status status, const char *file,
		       bool has_offset, uint64_t offset, const char *fmt,
		       va_list ap)
{
	if (!err)
		return status;
	error_clear(err);
	err->status = status;
	err->has_offset = has_offset;
	err->offset = offset;
	if (file)
		err->file = strdup(file);
	if (fmt) {
		va_list copy;
		va_copy(copy, ap);
		int n = vsnprintf(NULL, 0, fmt, copy);
		va_end(copy);
		if (n >= 0) {
			err->message = malloc((size_t)n + 1);
			if (err->message)
				vsnprintf(err->message, (size_t)n + 1, fmt, ap);
		}
	}
	return status;
}

enum status error_set(struct error *err, enum status status, const char *file,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, file, false, 0, fmt, ap);
	va_end(ap);
	return status;
}

enum status error_set_at(struct error *err, enum status status,
			 const char *file, uint64_t offset, const char *fmt,
			 ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vset(err, status, file, true, offset, fmt, ap);
	va_end(ap);
	return status;
}

enum status error_wrap_message(struct error *err, enum status status,
			       const char *file, const char *fmt, ...)
{
	if (!err)
		return status;
	/* made aside first: the arguments may be err's own strings */
	struct error made = {0};
	va_list ap;
	va_start(ap, fmt);
	error_vset(&made, status, file, false, 0, fmt, ap);
	va_end(ap);
	error_clear(err);
	*err = made;
	return status;
}

enum status error_copy(struct error *dst, const struct error *src)
{
	if (!dst)
		return src->status;
	error_clear(dst);
	dst->status = src->status;
	dst->has_offset = src->has_offset;
	dst->offset = src->offset;
	if (src->file)
		dst->file = strdup(src->file);
	if (src->message)
		dst->message = strdup(src->message);
	return src->status;
}

bool error_take(struct error *kept, struct error *out)
{
	if (kept->status == STATUS_OK)
		return false;
	if (out) {
		error_clear(out);
		*out = *kept;
		memset(kept, 0, sizeof(*kept));
	} else {
		error_clear(kept);
	}
	return true;
}

char *error_format(const struct error *err)
{
	const char *file = err && err->file ? err->file : NULL;
	const char *msg = err && err->message
				  ? err->message
				  : status_message(err ? err->status : STATUS_OK);
	char where[48] = "";
	if (err && err->has_offset)
		snprintf(where, sizeof(where), " (at offset 0x%" PRIx64 ")",
			 err->offset);
	size_t len = (file ? strlen(file) + 2 : 0) + strlen(msg) +
		     strlen(where) + 1;
	char *out = malloc(len);
	if (!out)
		return NULL;
	snprintf(out, len, "%s%s%s%s", file ? file : "", file ? ": " : "", msg,
		 where);
	return out;
}

void error_clear(struct error *err)
{
	if (!err)
		return;
	free(err->file);
	free(err->message);
	memset(err, 0, sizeof(*err));
}
