/* dcpi_file: the DCPI profile decoder (dcpi_file.h).  Each check cites
 * ../shared/specs/dcpiformat.txt ("spec: SECTION").  Depends on core/. */
#include "config.h"

#include "formats/dcpi/dcpi_file.h"

#include "core/array.h"

#include <stdlib.h>
#include <string.h>

/* Header keys of the spec (ASCII HEADER: <required>, <optional>) and of
 * the NT edition (version, tstart). */
enum key {
	K_IMAGE, K_EPOCH, K_PLATFORM, K_EVENT, K_PERIOD, K_TSIZE, K_CPUSPEED,
	K_CPUAMASK, K_CPUIMPLV, K_CPUCOUNT, K_PATH, K_VERSION, K_TSTART,
	K_UNKNOWN, K_COUNT = K_UNKNOWN
};
static const char *const key_names[K_COUNT] = {
	"image", "epoch", "platform", "event", "period", "tsize",
	"cpuspeed", "cpuamask", "cpuimplv", "cpucount", "path", "version",
	"tstart",
};
/* spec: "For each kind of line that falls under <required>, the profile
 * header should contain exactly one occurrence".  `period` is listed
 * under both <required> and <optional>: taken as optional, at most once
 * (doc/dcpi.md). */
static const bool key_required[K_COUNT] = {
	[K_IMAGE] = true, [K_EPOCH] = true, [K_PLATFORM] = true,
	[K_EVENT] = true, [K_TSIZE] = true, [K_CPUSPEED] = true,
};

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\t';
}

static bool is_hex(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static enum key key_of(const uint8_t *w, size_t n)
{
	for (int k = 0; k < K_COUNT; k++)
		if (strlen(key_names[k]) == n && memcmp(key_names[k], w, n) == 0)
			return (enum key)k;
	return K_UNKNOWN;
}

bool dcpi_head_looks_like(const uint8_t *head, size_t len)
{
	size_t i = 0;
	while (i < len && i < 16 && head[i] >= 'a' && head[i] <= 'z')
		i++;
	if (i == 0 || i >= len || !is_space(head[i]))
		return false;
	return key_of(head, i) != K_UNKNOWN;
}

/* digits+ into a u64; false when empty, not digits or too large */
static bool parse_dec(const uint8_t *v, size_t n, uint64_t *out)
{
	uint64_t x = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(v[i] - '0');
	}
	*out = x;
	return true;
}

static bool parse_hex(const uint8_t *v, size_t n, uint64_t *out)
{
	uint64_t x = 0;
	if (n == 0 || n > 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = v[i];
		if (!is_hex(c))
			return false;
		x = x << 4 | (uint64_t)(c <= '9' ? c - '0'
				       : c <= 'F' ? c - 'A' + 10
						  : c - 'a' + 10);
	}
	*out = x;
	return true;
}

static char *dup_n(const uint8_t *v, size_t n)
{
	char *s = malloc(n + 1);
	if (s) {
		memcpy(s, v, n);
		s[n] = '\0';
	}
	return s;
}

/* One header line's value (everything after the key's spaces, trailing
 * spaces and tabs cut: the spec pads the last line for alignment). */
static enum status take_value(struct dcpi_profile *p, enum key k,
			      const uint8_t *v, size_t n, const char *path,
			      uint64_t at, struct error *err)
{
	uint64_t x = 0;
	switch (k) {
	case K_IMAGE: /* spec: "image" <space>+ <hex_digit>+ */
		if (n == 0)
			goto bad;
		for (size_t i = 0; i < n; i++)
			if (!is_hex(v[i]))
				goto bad;
		return (p->image = dup_n(v, n)) ? STATUS_OK : STATUS_NOMEM;
	case K_EPOCH: /* spec: <time> : YYMMDDHHMM | YYYYMMDDHHMMSS */
		if ((n != 10 && n != 12 && n != 14) || !parse_dec(v, n, &x))
			goto bad;
		return (p->epoch = dup_n(v, n)) ? STATUS_OK : STATUS_NOMEM;
	case K_PLATFORM: /* <rest_of_line> */
		return (p->platform = dup_n(v, n)) ? STATUS_OK : STATUS_NOMEM;
	case K_EVENT:
		return (p->event = dup_n(v, n)) ? STATUS_OK : STATUS_NOMEM;
	case K_PATH:
		return (p->path = dup_n(v, n)) ? STATUS_OK : STATUS_NOMEM;
	case K_PERIOD: /* <digit>+ */
		p->has_period = true;
		return parse_dec(v, n, &p->period) ? STATUS_OK : STATUS_CORRUPT;
	case K_TSIZE:
		return parse_dec(v, n, &p->tsize) ? STATUS_OK : STATUS_CORRUPT;
	case K_CPUSPEED:
		return parse_dec(v, n, &p->cpuspeed) ? STATUS_OK
						    : STATUS_CORRUPT;
	case K_CPUIMPLV:
	case K_CPUCOUNT:
		return parse_dec(v, n, &x) ? STATUS_OK : STATUS_CORRUPT;
	case K_CPUAMASK: /* <hex_digit>+, any length */
		for (size_t i = 0; i < n; i++)
			if (!is_hex(v[i]))
				goto bad;
		return n ? STATUS_OK : STATUS_CORRUPT;
	case K_TSTART: /* NT edition: "tstart" <hex_digit>+ */
		p->has_tstart = true;
		return parse_hex(v, n, &p->tstart) ? STATUS_OK : STATUS_CORRUPT;
	case K_VERSION: { /* NT edition: "version" pdb-<major>.<minor> */
		size_t dot = 4;
		uint64_t ma = 0, mi = 0;
		if (n < 7 || memcmp(v, "pdb-", 4) != 0)
			goto bad;
		while (dot < n && v[dot] != '.')
			dot++;
		if (dot == n || !parse_dec(v + 4, dot - 4, &ma) ||
		    !parse_dec(v + dot + 1, n - dot - 1, &mi) ||
		    ma > UINT32_MAX || mi > UINT32_MAX)
			goto bad;
		p->has_version = true;
		p->major = (uint32_t)ma;
		p->minor = (uint32_t)mi;
		/* spec: "The format of the binary data is dependent on the
		 * major version number"; only major version 0 is documented */
		if (ma != 0)
			return error_set_at(err, STATUS_UNSUPPORTED, path, at,
					    "DCPI profile version %.*s: only "
					    "major version 0 is documented "
					    "(spec: BINARY DATA FOR "
					    "MAJOR-VERSION 0)",
					    (int)n, (const char *)v);
		return STATUS_OK;
	}
	case K_UNKNOWN:
		return STATUS_OK;
	}
bad:
	return error_set_at(err, STATUS_CORRUPT, path, at,
			    "DCPI header: bad value for \"%s\" (spec: ASCII "
			    "HEADER)",
			    k < K_COUNT ? key_names[k] : "?");
}

static enum status parse_header(struct span s, const char *path,
				struct dcpi_profile *p, struct error *err)
{
	unsigned seen[K_COUNT] = {0};
	uint64_t off = 0;
	for (;;) {
		if (off >= s.len)
			return error_set_at(err, STATUS_CORRUPT, path, off,
					    "DCPI header: no \"samples\" line "
					    "(spec: <terminator>)");
		const uint8_t *line = s.data + off;
		const uint8_t *nl = memchr(line, '\n', (size_t)(s.len - off));
		if (!nl)
			return error_set_at(err, STATUS_CORRUPT, path, off,
					    "DCPI header: line without newline "
					    "before the end of the file (spec: "
					    "<line>)");
		size_t n = (size_t)(nl - line);
		size_t w = 0;
		while (w < n && !is_space(line[w]))
			w++;
		size_t v = w;
		while (v < n && is_space(line[v]))
			v++;
		/* spec: <terminator> : "samples" <space>* "\n" */
		if (w == 7 && memcmp(line, "samples", 7) == 0 && v == n) {
			p->data_off = off + n + 1;
			break;
		}
		/* spec: <word> <space>+ <rest_of_line>, rest non-empty */
		if (w == 0 || v == w || v == n)
			return error_set_at(err, STATUS_CORRUPT, path, off,
					    "DCPI header: line is not \"KEY "
					    "VALUE\" (spec: <line>)");
		size_t e = n;
		while (e > v && is_space(line[e - 1]))
			e--;
		enum key k = key_of(line, w);
		if (k != K_UNKNOWN && seen[k]++)
			return error_set_at(err, STATUS_CORRUPT, path, off,
					    "DCPI header: \"%s\" given twice "
					    "(spec: exactly one occurrence)",
					    key_names[k]);
		enum status st = take_value(p, k, line + v, e - v, path, off,
					    err);
		if (st == STATUS_NOMEM)
			return error_set(err, st, path, "out of memory");
		if (st != STATUS_OK) {
			if (err && err->status == STATUS_OK)
				st = error_set_at(err, st, path, off,
						  "DCPI header: bad value for "
						  "\"%s\" (spec: ASCII HEADER)",
						  k < K_COUNT ? key_names[k]
							      : "?");
			return st;
		}
		off += n + 1;
	}
	for (int k = 0; k < K_COUNT; k++)
		if (key_required[k] && !seen[k])
			return error_set(err, STATUS_CORRUPT, path,
					 "DCPI header: required line \"%s\" "
					 "missing (spec: <required>)",
					 key_names[k]);
	return STATUS_OK;
}

/* The sums the footer is checked against while the chunks are read. */
struct chunk_sums {
	size_t cap; /* of p->samples */
	uint32_t nonzero, sum; /* the footer's sum is 32 bits: mod 2^32 */
};

/* The checks of the chunk at `off` of `body` (its first address `coff`,
 * `num` counts), `prev_end` the end of the one before (none: `first`);
 * `base` is where the body starts in the file. */
static enum status check_chunk(struct span body, uint64_t off, uint64_t base,
			       uint32_t coff, uint32_t num, bool first,
			       uint64_t prev_end, const struct dcpi_profile *p,
			       const char *path, struct error *err)
{
	/* spec: <count>+ : at least one count per chunk */
	if (num == 0)
		return error_set_at(err, STATUS_CORRUPT, path, base + off,
				    "DCPI samples: chunk of 0 addresses "
				    "(spec: <offset> <number> <count>+)");
	if (!span_count_fits(num, 4, body.len - off - 8))
		return error_set_at(err, STATUS_CORRUPT, path, base + off,
				    "DCPI samples: chunk of %u counts "
				    "does not fit in the %llu bytes "
				    "before the footer (spec: <chunk>)",
				    (unsigned)num,
				    (unsigned long long)(body.len - off - 8));
	/* spec: chunks cannot overlap, and offsets increase */
	if (!first && coff < prev_end)
		return error_set_at(err, STATUS_CORRUPT, path, base + off,
				    "DCPI samples: chunk at offset 0x%x "
				    "overlaps or precedes the previous "
				    "one (spec: chunks cannot overlap)",
				    (unsigned)coff);
	/* the range lies in the image's text (tsize) */
	if ((uint64_t)coff + num > p->tsize)
		return error_set_at(err, STATUS_CORRUPT, path, base + off,
				    "DCPI samples: chunk 0x%x+%u runs "
				    "past tsize %llu (outside the "
				    "image's text)",
				    (unsigned)coff, (unsigned)num,
				    (unsigned long long)p->tsize);
	return STATUS_OK;
}

/* The counts of a checked chunk: summed, and kept as samples (nonzero
 * ones) when `keep`. */
static enum status chunk_counts(struct span body, uint64_t off, uint32_t coff,
				uint32_t num, bool keep,
				struct dcpi_profile *p, struct chunk_sums *cs,
				const char *path, struct error *err)
{
	for (uint32_t i = 0; i < num; i++) {
		uint32_t c = span_get_u32le(body, off + 8 + 4ull * i);
		if (!keep) {
			/* counted only: the chunk was checked to fit */
			cs->nonzero += c != 0;
			cs->sum += c;
			p->n_samples += c != 0;
			p->sum_counts += c;
			continue;
		}
		if (c == 0)
			continue;
		if (!array_grow((void **)&p->samples, &cs->cap,
				p->n_samples + 1, sizeof(*p->samples)))
			return error_set(err, STATUS_NOMEM, path,
					 "out of memory");
		p->samples[p->n_samples++] =
			(struct dcpi_sample){.offset = coff + i, .count = c};
		cs->nonzero++;
		cs->sum += c;
		p->sum_counts += c;
	}
	return STATUS_OK;
}

/* spec: BINARY DATA FOR MAJOR-VERSION 0 */
static enum status parse_samples(struct span s, const char *path,
				 struct dcpi_profile *p, bool keep,
				 struct error *err)
{
	struct span bin;
	uint64_t base = p->data_off;
	if (!span_sub(s, base, s.len - base, &bin) || bin.len < 8)
		return error_set_at(err, STATUS_CORRUPT, path, s.len,
				    "DCPI samples: %llu bytes after the header, "
				    "the footer alone needs 8 (spec: <footer>)",
				    (unsigned long long)(s.len - base));
	uint64_t body_len = bin.len - 8;
	p->total_offsets = span_get_u32le(bin, body_len);
	p->total_samples = span_get_u32le(bin, body_len + 4);
	struct span body;
	(void)span_sub(bin, 0, body_len, &body);
	/* every nonzero count takes at least 4 bytes of the body */
	struct chunk_sums cs = {0};
	uint64_t off = 0, prev_end = 0;
	for (bool first = true; off < body.len; first = false) {
		uint32_t coff, num;
		if (!span_u32le(body, off, &coff) ||
		    !span_u32le(body, off + 4, &num))
			return error_set_at(err, STATUS_CORRUPT, path,
					    base + off,
					    "DCPI samples: chunk header runs "
					    "into the footer (spec: <chunk>)");
		enum status st = check_chunk(body, off, base, coff, num, first,
					     prev_end, p, path, err);
		if (st == STATUS_OK)
			st = chunk_counts(body, off, coff, num, keep, p, &cs,
					  path, err);
		if (st != STATUS_OK)
			return st;
		prev_end = (uint64_t)coff + num;
		off += 8 + 4ull * num;
	}
	/* spec: <total_offsets>: addresses with at least one sample;
	 * <total_samples>: the sum of the counts */
	if (cs.nonzero != p->total_offsets || cs.sum != p->total_samples)
		return error_set_at(err, STATUS_CORRUPT, path, base + body_len,
				    "DCPI samples: footer says %u addresses, "
				    "%u samples; the chunks hold %u, %u (spec: "
				    "<footer>)",
				    (unsigned)p->total_offsets,
				    (unsigned)p->total_samples,
				    (unsigned)cs.nonzero, (unsigned)cs.sum);
	return STATUS_OK;
}

static enum status parse(struct span s, const char *path, bool keep,
			 struct dcpi_profile *out, struct error *err)
{
	memset(out, 0, sizeof(*out));
	enum status st = parse_header(s, path, out, err);
	if (st == STATUS_OK)
		st = parse_samples(s, path, out, keep, err);
	if (st != STATUS_OK)
		dcpi_profile_clear(out);
	return st;
}

enum status dcpi_profile_parse(struct span s, const char *path,
			       struct dcpi_profile *out, struct error *err)
{
	return parse(s, path, true, out, err);
}

enum status dcpi_profile_scan(struct span s, const char *path,
			      struct dcpi_profile *out, struct error *err)
{
	return parse(s, path, false, out, err);
}

void dcpi_profile_clear(struct dcpi_profile *p)
{
	free(p->image);
	free(p->epoch);
	free(p->platform);
	free(p->event);
	free(p->path);
	free(p->samples);
	memset(p, 0, sizeof(*p));
}
