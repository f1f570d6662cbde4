/* extrap_msgpack: the first MessagePack object of a buffer, decoded by
 * msgpack-c's unpacker template (msgpack/unpack_template.h, the engine of
 * the library's own msgpack_unpack_next) with a stack of
 * EXTRAP_MSGPACK_MAX_DEPTH containers instead of the library's 32, and
 * callbacks that build msgpack_object values in a msgpack_zone as the
 * library's do.  A checked walk (precheck) runs first: every header's
 * count and length must fit in the bytes left and the nesting in the
 * stack, so that a hostile count never reaches an allocation.  See
 * extrap_msgpack.h. */
#include "config.h"

#include "formats/extrap/extrap_msgpack.h"

#include <stdint.h>
#include <string.h>

/* ---- the checked walk ---- */

static uint64_t be(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The header at p (left bytes): *skip the bytes of the header and its
 * payload, *items the objects that follow it (containers); false when the
 * header or its payload does not fit or the byte is never used. */
static bool header(const unsigned char *p, size_t left, size_t *skip,
		   uint64_t *items)
{
	unsigned b = p[0];
	size_t hl = 1, ln = 0; /* length field's bytes */
	uint64_t pay = 0;
	*items = 0;
	if (b <= 0x7f || b >= 0xe0 || (b >= 0xc0 && b <= 0xc3 && b != 0xc1)) {
		pay = 0;
	} else if (b >= 0x80 && b <= 0x8f) {
		*items = 2ULL * (b & 0x0f);
	} else if (b >= 0x90 && b <= 0x9f) {
		*items = b & 0x0f;
	} else if (b >= 0xa0 && b <= 0xbf) {
		pay = b & 0x1f;
	} else if (b >= 0xc4 && b <= 0xc6) { /* bin 8/16/32 */
		ln = (size_t)1 << (b - 0xc4);
	} else if (b >= 0xc7 && b <= 0xc9) { /* ext 8/16/32: + type */
		ln = (size_t)1 << (b - 0xc7);
		hl++;
	} else if (b == 0xca || b == 0xcb) {
		pay = b == 0xca ? 4 : 8;
	} else if (b >= 0xcc && b <= 0xd3) { /* uint, int 8..64 */
		pay = (uint64_t)1 << ((b - 0xcc) & 3);
	} else if (b >= 0xd4 && b <= 0xd8) { /* fixext: type + data */
		pay = 1 + ((uint64_t)1 << (b - 0xd4));
	} else if (b >= 0xd9 && b <= 0xdb) { /* str 8/16/32 */
		ln = (size_t)1 << (b - 0xd9);
	} else if (b >= 0xdc && b <= 0xdf) { /* array, map 16/32 */
		if (left < 1 + ((size_t)2 << (b & 1)))
			return false;
		uint64_t n = be(p + 1, (size_t)2 << (b & 1));
		*items = b >= 0xde ? 2 * n : n;
		hl = 1 + ((size_t)2 << (b & 1));
	} else {
		return false; /* 0xc1 */
	}
	if (ln) {
		if (left < 1 + ln)
			return false;
		pay = be(p + 1, ln);
		hl += ln;
	}
	if (hl > left || pay > left - hl)
		return false;
	/* every item takes a byte at least */
	if (*items > left - hl)
		return false;
	*skip = hl + (size_t)pay;
	return true;
}

/* Whether the first object fits in the bytes and in the stack. */
static enum status precheck(const unsigned char *p, size_t len,
			    const char *path, struct error *err)
{
	uint64_t need[EXTRAP_MSGPACK_MAX_DEPTH + 1]; /* items left per level */
	size_t top = 0, off = 0;
	need[0] = 1;
	while (top > 0 || need[0] > 0) {
		if (need[top] == 0) {
			top--;
			continue;
		}
		if (off >= len)
			return error_set(err, STATUS_CORRUPT, path,
					 "MessagePack data ends early "
					 "(truncated at byte %zu)", off);
		size_t skip;
		uint64_t items;
		if (!header(p + off, len - off, &skip, &items))
			return error_set(
			    err, STATUS_CORRUPT, path,
			    "bad MessagePack at byte %zu (0x%02x: a count or "
			    "length beyond the %zu bytes left, or an unused "
			    "byte)", off, p[off], len - off);
		need[top]--;
		off += skip;
		if (items > 0) {
			if (top == EXTRAP_MSGPACK_MAX_DEPTH)
				return error_set(err, STATUS_CORRUPT, path,
						 "MessagePack nested deeper "
						 "than %d containers at byte "
						 "%zu",
						 EXTRAP_MSGPACK_MAX_DEPTH, off);
			need[++top] = items;
		}
	}
	return STATUS_OK;
}

/* ---- the library's unpacker with a deeper stack ---- */

struct unpack_user {
	msgpack_zone *z;
};

#define MSGPACK_EMBED_STACK_SIZE (EXTRAP_MSGPACK_MAX_DEPTH + 1)
#define msgpack_unpack_struct(name) struct xmp##name
#define msgpack_unpack_func(ret, name) static ret xmp##name
#define msgpack_unpack_callback(name) xmp_cb##name
#define msgpack_unpack_object msgpack_object
#define msgpack_unpack_user struct unpack_user

static msgpack_object xmp_cb_root(struct unpack_user *u)
{
	(void)u;
	msgpack_object o;
	memset(&o, 0, sizeof(o));
	o.type = MSGPACK_OBJECT_NIL;
	return o;
}

#define XMP_UINT(name, T)                                                      \
	static int xmp_cb_##name(struct unpack_user *u, T d, msgpack_object *o) \
	{                                                                      \
		(void)u;                                                       \
		o->type = MSGPACK_OBJECT_POSITIVE_INTEGER;                     \
		o->via.u64 = d;                                                \
		return 0;                                                      \
	}
#define XMP_INT(name, T)                                                       \
	static int xmp_cb_##name(struct unpack_user *u, T d, msgpack_object *o) \
	{                                                                      \
		(void)u;                                                       \
		if (d >= 0) {                                                  \
			o->type = MSGPACK_OBJECT_POSITIVE_INTEGER;             \
			o->via.u64 = (uint64_t)d;                              \
		} else {                                                       \
			o->type = MSGPACK_OBJECT_NEGATIVE_INTEGER;             \
			o->via.i64 = d;                                        \
		}                                                              \
		return 0;                                                      \
	}
XMP_UINT(uint8, uint8_t)
XMP_UINT(uint16, uint16_t)
XMP_UINT(uint32, uint32_t)
XMP_UINT(uint64, uint64_t)
XMP_INT(int8, int8_t)
XMP_INT(int16, int16_t)
XMP_INT(int32, int32_t)
XMP_INT(int64, int64_t)

static int xmp_cb_float(struct unpack_user *u, float d, msgpack_object *o)
{
	(void)u;
	o->type = MSGPACK_OBJECT_FLOAT32;
	o->via.f64 = d;
	return 0;
}

static int xmp_cb_double(struct unpack_user *u, double d, msgpack_object *o)
{
	(void)u;
	o->type = MSGPACK_OBJECT_FLOAT64;
	o->via.f64 = d;
	return 0;
}

static int xmp_cb_nil(struct unpack_user *u, msgpack_object *o)
{
	(void)u;
	o->type = MSGPACK_OBJECT_NIL;
	return 0;
}

static int xmp_cb_true(struct unpack_user *u, msgpack_object *o)
{
	(void)u;
	o->type = MSGPACK_OBJECT_BOOLEAN;
	o->via.boolean = true;
	return 0;
}

static int xmp_cb_false(struct unpack_user *u, msgpack_object *o)
{
	(void)u;
	o->type = MSGPACK_OBJECT_BOOLEAN;
	o->via.boolean = false;
	return 0;
}

static int xmp_cb_array(struct unpack_user *u, unsigned int n,
			msgpack_object *o)
{
	o->type = MSGPACK_OBJECT_ARRAY;
	o->via.array.size = 0;
	o->via.array.ptr = NULL;
	if (n == 0)
		return 0;
	o->via.array.ptr = msgpack_zone_malloc(u->z, (size_t)n * sizeof(*o));
	return o->via.array.ptr ? 0 : MSGPACK_UNPACK_NOMEM_ERROR;
}

static int xmp_cb_array_item(struct unpack_user *u, msgpack_object *c,
			     msgpack_object o)
{
	(void)u;
	c->via.array.ptr[c->via.array.size++] = o;
	return 0;
}

static int xmp_cb_map(struct unpack_user *u, unsigned int n, msgpack_object *o)
{
	o->type = MSGPACK_OBJECT_MAP;
	o->via.map.size = 0;
	o->via.map.ptr = NULL;
	if (n == 0)
		return 0;
	o->via.map.ptr = msgpack_zone_malloc(
	    u->z, (size_t)n * sizeof(msgpack_object_kv));
	return o->via.map.ptr ? 0 : MSGPACK_UNPACK_NOMEM_ERROR;
}

static int xmp_cb_map_item(struct unpack_user *u, msgpack_object *c,
			   msgpack_object k, msgpack_object v)
{
	(void)u;
	c->via.map.ptr[c->via.map.size].key = k;
	c->via.map.ptr[c->via.map.size].val = v;
	c->via.map.size++;
	return 0;
}

/* strings, bin and ext point into the caller's buffer, which outlives
 * the objects (extrap_msgpack_read's contract) */
static int xmp_cb_str(struct unpack_user *u, const char *b, const char *p,
		      unsigned int l, msgpack_object *o)
{
	(void)u;
	(void)b;
	o->type = MSGPACK_OBJECT_STR;
	o->via.str.ptr = p;
	o->via.str.size = l;
	return 0;
}

static int xmp_cb_bin(struct unpack_user *u, const char *b, const char *p,
		      unsigned int l, msgpack_object *o)
{
	(void)u;
	(void)b;
	o->type = MSGPACK_OBJECT_BIN;
	o->via.bin.ptr = p;
	o->via.bin.size = l;
	return 0;
}

static int xmp_cb_ext(struct unpack_user *u, const char *b, const char *p,
		      unsigned int l, msgpack_object *o)
{
	(void)u;
	(void)b;
	if (l == 0)
		return MSGPACK_UNPACK_PARSE_ERROR;
	o->type = MSGPACK_OBJECT_EXT;
	o->via.ext.type = (int8_t)*p;
	o->via.ext.ptr = p + 1;
	o->via.ext.size = l - 1;
	return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wswitch-default"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <msgpack/unpack_define.h>
#include <msgpack/unpack_template.h>
#pragma GCC diagnostic pop

enum status extrap_msgpack_read(const char *data, size_t len,
				msgpack_zone *zone, msgpack_object *out,
				const char *path, struct error *err)
{
	enum status st = precheck((const unsigned char *)data, len, path, err);
	if (st != STATUS_OK)
		return st;
	struct xmp_context *ctx = malloc(sizeof(*ctx));
	if (!ctx)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	xmp_init(ctx);
	ctx->user.z = zone;
	size_t off = 0;
	int rc = xmp_execute(ctx, data, len, &off);
	if (rc == 1)
		*out = xmp_data(ctx);
	free(ctx);
	if (rc == 1)
		return STATUS_OK;
	if (rc == MSGPACK_UNPACK_NOMEM_ERROR)
		return error_set(err, STATUS_NOMEM, path, "out of memory");
	return error_set(err, STATUS_CORRUPT, path,
			 "bad MessagePack at byte %zu", off);
}
