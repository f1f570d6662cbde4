/* status: the one error vocabulary of the engine.
 *
 * Every fallible engine function returns an enum status and, when it fails,
 * records the detail (file, offset, what was expected) in a struct error the
 * caller passed in.  Nothing here prints or exits; the CLI and the UI decide
 * how to show an error.  Must not depend on anything but libc. */
#ifndef CALLSCOPE_STATUS_H
#define CALLSCOPE_STATUS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#define STATUS_LIST(X)                                                  \
	X(STATUS_OK, "success")                                         \
	X(STATUS_NOMEM, "out of memory")                                \
	X(STATUS_NOT_FOUND, "not found")                                \
	X(STATUS_IO, "read error")                                      \
	X(STATUS_NOT_DATABASE, "not a database callscope can read")     \
	X(STATUS_UNSUPPORTED, "unsupported format version")             \
	X(STATUS_CORRUPT, "corrupt file")                               \
	X(STATUS_LIMIT, "exceeds a limit")                              \
	X(STATUS_USAGE, "invalid argument")                             \
	X(STATUS_NO_LIBRARY, "a shared library is missing")

enum status {
#define STATUS_ENUM(code, text) code,
	STATUS_LIST(STATUS_ENUM)
#undef STATUS_ENUM
};

/* Detail of the last failure.  `file` and `message` are heap strings owned
 * by the struct (freed by error_clear).  `offset` is meaningful only when
 * `has_offset` is set. */
struct error {
	enum status status;
	char *file;
	char *message;
	uint64_t offset;
	bool has_offset;
};

/* The fixed text for a status code. */
const char *status_message(enum status status);

/* Record a failure and return `status`.  `file` may be NULL; `fmt` is a
 * printf format describing the problem ("bad magic", "nCtxs 4294967295
 * exceeds section size 96").  `err` may be NULL (the detail is dropped). */
enum status error_set(struct error *err, enum status status, const char *file,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Same, with a byte offset into `file` where the problem was found. */
enum status error_set_at(struct error *err, enum status status,
			 const char *file, uint64_t offset, const char *fmt,
			 ...) __attribute__((format(printf, 5, 6)));

/* The two above from a va_list: for a function of its own that records
 * errors its way ("CONTEXT: what" around a caller's format). */
enum status error_vset(struct error *err, enum status status, const char *file,
		       bool has_offset, uint64_t offset, const char *fmt,
		       va_list ap) __attribute__((format(printf, 6, 0)));

/* Record a failure told around another one: error_set, except that the
 * arguments (`file` included) may be `err`'s own file and message, as in
 * error_wrap_message(err, st, path, "cannot read it: %s", err->message);
 * the old strings are freed after the new message is made.  No offset. */
enum status error_wrap_message(struct error *err, enum status status,
			       const char *file, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A copy of `src` (status, file, offset, message) in `dst`, which is
 * cleared first; src's status.  `dst` may be NULL (nothing copied). */
enum status error_copy(struct error *dst, const struct error *src);

/* Hand over the error `kept` holds (a reader's first failure, reported
 * once): moved to `out` (cleared first; NULL: dropped) and `kept` reset to
 * STATUS_OK.  Whether there was one.  The caller holds the lock that
 * guards `kept`, if any. */
bool error_take(struct error *kept, struct error *out);

/* One line for a human: "FILE: MESSAGE (at offset 0x1234)".  Returns a heap
 * string the caller frees, or NULL when out of memory. */
char *error_format(const struct error *err);

/* Free the detail strings and reset to STATUS_OK. */
void error_clear(struct error *err);

#endif
