/* gen-v4db's deterministic random streams (splitmix64, salted hashes) and
 * output helpers: growable byte buffers for small sections, buffered
 * positional writers for large ones, output files, file headers and
 * footers (the little-endian layout of the v4 format). */

#include "config.h"

#include "gen.h"

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint64_t hash3(uint64_t a, uint64_t b, uint64_t c)
{
	return mix64(a ^ mix64(b ^ mix64(c)));
}

uint64_t rng_next(struct rng *r)
{
	r->state += 0x9e3779b97f4a7c15ULL;
	uint64_t z = r->state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n == 0 ? 0 : rng_next(r) % n;
}

double unit_of(uint64_t h)
{
	return (double)(h >> 11) * 0x1.0p-53;
}

/* ---------------------------------------------------------------- output */

uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		unsigned char *d = realloc(b->data, cap);
		if (d == NULL) {
			b->failed = true;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void le_encode(unsigned char *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (unsigned char)(v >> (8 * i));
}

void buf_uint(struct buf *b, uint64_t v, unsigned n)
{
	unsigned char tmp[8];
	le_encode(tmp, v, n);
	buf_put(b, tmp, n);
}

void buf_zero(struct buf *b, size_t n)
{
	static const unsigned char zeros[64];
	while (n > 0) {
		size_t k = n < sizeof zeros ? n : sizeof zeros;
		buf_put(b, zeros, k);
		n -= k;
	}
}

void buf_align(struct buf *b, size_t a)
{
	buf_zero(b, (size_t)(align_up(b->len, a) - b->len));
}

void buf_str(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s) + 1);
}

int write_at(int fd, uint64_t off, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t done = 0;
	while (done < n) {
		ssize_t k = pwrite(fd, c + done, n - done, (off_t)(off + done));
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		done += (size_t)k;
	}
	return 0;
}

void bw_init(struct bw *w, int fd, uint64_t off, size_t cap)
{
	*w = (struct bw){ .fd = fd, .off = off, .cap = cap };
	w->data = malloc(cap);
	if (w->data == NULL)
		w->err = ENOMEM;
}

static void bw_flush(struct bw *w)
{
	size_t done = 0;
	while (w->err == 0 && done < w->len) {
		ssize_t k = pwrite(w->fd, w->data + done, w->len - done, (off_t)(w->off + done));
		if (k < 0) {
			if (errno != EINTR)
				w->err = errno;
			continue;
		}
		done += (size_t)k;
	}
	w->off += w->len;
	w->len = 0;
}

void bw_put(struct bw *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (w->len + n > w->cap)
		bw_flush(w);
	if (n > w->cap) {
		w->err = write_at(w->fd, w->off, p, n);
		w->off += n;
		return;
	}
	memcpy(w->data + w->len, p, n);
	w->len += n;
}

void bw_uint(struct bw *w, uint64_t v, unsigned n)
{
	unsigned char tmp[8];
	le_encode(tmp, v, n);
	bw_put(w, tmp, n);
}

void bw_f64(struct bw *w, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	bw_uint(w, bits, 8);
}

uint64_t bw_pos(const struct bw *w)
{
	return w->off + w->len;
}

void bw_align(struct bw *w, uint64_t a)
{
	static const unsigned char zeros[8];
	uint64_t pos = bw_pos(w);
	bw_put(w, zeros, (size_t)(align_up(pos, a) - pos));
}

/* Flushes and frees; returns the first error (0 when all went well). */
int bw_finish(struct bw *w)
{
	bw_flush(w);
	free(w->data);
	w->data = NULL;
	return w->err;
}

/* The end of writing a file, failed or not: a positional writer still
 * open (w may be NULL) is flushed and freed, the file closed (fd < 0: none
 * was opened); rc, or -1 when closing fails. */
int close_out(int fd, struct bw *w, int rc)
{
	if (w != NULL && w->data != NULL)
		bw_finish(w);
	if (fd >= 0 && close(fd) != 0)
		return -1;
	return rc;
}

int open_out(const struct gen *g, const char *name, char **path_out)
{
	char *path = NULL;
	if (asprintf(&path, "%s/%s", g->opt.out_dir, name) < 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(errno));
	*path_out = path;
	return fd;
}

/* Writes the common file header: magic, format, version, section table. */
void file_header(unsigned char *out, const char *format, const uint64_t *sections, unsigned n)
{
	memcpy(out, "HPCTOOLKIT", 10);
	memcpy(out + 10, format, 4);
	out[14] = 4;
	out[15] = 0;
	for (unsigned i = 0; i < n; i++) {
		le_encode(out + 16 + 16 * i, sections[2 * i], 8);
		le_encode(out + 24 + 16 * i, sections[2 * i + 1], 8);
	}
}

/* Pads to 8 from `end`, writes the footer and returns 0 or an errno. */
/* Whether writing `path` failed (e is an errno value, 0 when it did not);
 * a failure is said on stderr. */
bool write_failed(const char *path, int e)
{
	if (e == 0)
		return false;
	fprintf(stderr, "gen-v4db: %s: %s\n", path, strerror(e));
	return true;
}

int write_footer(int fd, uint64_t end, const char *footer)
{
	static const unsigned char zeros[8];
	uint64_t at = align_up(end, 8);
	int e = write_at(fd, end, zeros, (size_t)(at - end));
	if (e == 0)
		e = write_at(fd, at, footer, 8);
	return e;
}
