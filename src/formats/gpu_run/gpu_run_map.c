/* gpu_run_map: the integer maps of a GPU run's first pass -- a u64 ->
 * u32 open-addressing hash map (strings, kernels, threads, lines, nodes),
 * and the map of row ids (region and API call ids, correlation ids: tens
 * of millions in a big run), which keeps ids that come nearly in order in
 * a plain array (one sequential write per put, a read near the last one
 * per get) and only the others in a hash map, so that its size stays
 * within four slots per id and no id pattern makes it quadratic.  Depends
 * on gpu_run.h only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/hash.h"
#include "formats/gpu_run/gpu_run.h"
#include "formats/gpu_run/gpu_run_internal.h"

/* ---- u64 -> u32 map ---------------------------------------------------- */

static bool map_grow(struct gpu_run_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct gpu_run_map n = {
		.slot = malloc(cap * sizeof(struct gpu_run_slot)),
		.cap = cap,
	};
	if (!n.slot)
		return false;
	/* zeroed by writing, not calloc's untouched pages: a probe reads a
	 * slot before the put writes it, and a page first read is the shared
	 * zero page, whose first write then costs a fault and a TLB flush on
	 * every core the run's threads use (a third of the second pass's
	 * system time on the 10 M run) */
	memset(n.slot, 0, cap * sizeof(struct gpu_run_slot));
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].used) {
			size_t j = hash_mix64(m->slot[i].key) & (cap - 1);
			while (n.slot[j].used)
				j = (j + 1) & (cap - 1);
			n.slot[j] = m->slot[i];
			n.n++;
		}
	gpu_run_map_free(m);
	*m = n;
	return true;
}

bool gpu_run_map_put(struct gpu_run_map *m, uint64_t key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap && !map_grow(m))
		return false;
	size_t j = hash_mix64(key) & (m->cap - 1);
	while (m->slot[j].used) {
		if (m->slot[j].key == key) {
			m->slot[j].val = val;
			return true;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->slot[j] = (struct gpu_run_slot){key, val, 1};
	m->n++;
	return true;
}

bool gpu_run_map_get(const struct gpu_run_map *m, uint64_t key, uint32_t *val)
{
	if (!m->cap)
		return false;
	size_t j = hash_mix64(key) & (m->cap - 1);
	while (m->slot[j].used) {
		if (m->slot[j].key == key) {
			*val = m->slot[j].val;
			return true;
		}
		j = (j + 1) & (m->cap - 1);
	}
	return false;
}

void gpu_run_map_free(struct gpu_run_map *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* ---- row ids -> u32 ------------------------------------------------------ */

/* The window opens this far below the first id (rows a little out of
 * order), and grows up to this many slots at least, or four per id. */
enum { IDMAP_BELOW = 4096, IDMAP_MIN_SPAN = 1u << 20 };

static bool idmap_window(struct gpu_run_idmap *m, uint64_t key)
{
	if (!m->v) {
		m->base = key > IDMAP_BELOW ? key - IDMAP_BELOW : 0;
		m->cap = 0;
	}
	if (key < m->base)
		return false;
	uint64_t at = key - m->base;
	if (at < m->cap)
		return true;
	uint64_t limit = 4 * (uint64_t)(m->n + 1);
	if (limit < IDMAP_MIN_SPAN)
		limit = IDMAP_MIN_SPAN;
	if (at >= limit)
		return false;
	size_t cap = m->cap ? m->cap : 4096;
	while (cap <= at)
		cap *= 2;
	uint32_t *g = realloc(m->v, cap * sizeof(*g));
	if (!g)
		return false; /* the hash map takes it */
	memset(g + m->cap, 0, (cap - m->cap) * sizeof(*g));
	m->v = g;
	m->cap = cap;
	return true;
}

bool gpu_run_idmap_put(struct gpu_run_idmap *m, uint64_t key, uint32_t val)
{
	if (val != UINT32_MAX && idmap_window(m, key)) {
		uint32_t *slot = &m->v[key - m->base];
		m->n += *slot == 0;
		*slot = val + 1;
		return true;
	}
	return gpu_run_map_put(&m->rest, key, val);
}

bool gpu_run_idmap_get(const struct gpu_run_idmap *m, uint64_t key,
		       uint32_t *val)
{
	if (m->v && key >= m->base && key - m->base < m->cap &&
	    m->v[key - m->base]) {
		*val = m->v[key - m->base] - 1;
		return true;
	}
	return gpu_run_map_get(&m->rest, key, val);
}

void gpu_run_idmap_free(struct gpu_run_idmap *m)
{
	free(m->v);
	gpu_run_map_free(&m->rest);
	memset(m, 0, sizeof(*m));
}
