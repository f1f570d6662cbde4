/* scaling_view: the performance models of a parametric model, one per
 * (node, measured metric), fitted when first asked for (scaling_view.h).
 * Each model has a slot whose state is an atomic (empty, being fitted,
 * ready, none, failed): whoever moves it from empty to busy fits it, with
 * its own fitter (the caller's under a mutex, the background thread's),
 * writes the model and publishes it with a release store; readers load
 * the state with acquire, so a ready model is never seen half written.
 * The background thread walks the slots in order and takes first what
 * scaling_view_peek asked for (a stack: the last peek first); a caller
 * that needs a model the thread is fitting waits on a condition variable.
 * A paused view's thread waits between two fits (a caller still fits what
 * it asks for); freeing wakes it to stop.
 * A series is given to the fitter in the order Extra-P's modeler sees it
 * (model_measure_in_order: a text or JSON file's order, else point
 * order), only the points it has.
 * A stored set's models are taken from the model, not fitted.  Must not
 * depend on curses, on ui/ or on any reader. */
#include "config.h"

#include "views/scaling_view.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scaling_fit.h"

enum slot_state {
	SLOT_EMPTY,
	SLOT_BUSY,
	SLOT_READY,
	SLOT_NONE,   /* no measurement for (node, measured) */
	SLOT_FAILED,
};

struct slot {
	_Atomic uint8_t state;
	struct scaling_model model;
};

#define URGENT_MAX 1024

struct scaling_view {
	const struct model *m;
	struct scaling_view_options opt;
	uint32_t n_measured;
	uint64_t n_slots;
	struct slot *slots; /* [node * n_measured + measured] */
	_Atomic uint64_t ready;
	uint64_t total;
	/* the callers' fitter */
	pthread_mutex_t caller_mu;
	struct scaling_fitter *fitter;
	/* the background thread */
	bool has_thread;
	pthread_t thread;
	pthread_mutex_t mu; /* guards urgent, cursor, stop; done_cv */
	pthread_cond_t done_cv;
	uint64_t urgent[URGENT_MAX];
	uint32_t n_urgent;
	uint64_t cursor;
	bool stop;
	bool paused;        /* the thread waits on wake_cv */
	pthread_cond_t wake_cv;
	struct scratch *scratch; /* the caller's */
};

/* A series' points and values, in the order the fitter takes them. */
struct scratch {
	double *values; /* [n_points] */
	double *coords; /* [n_points * n_params] */
};

static struct scratch *scratch_new(const struct model *m)
{
	struct scratch *x = calloc(1, sizeof *x);

	if (!x)
		return NULL;
	x->values = malloc((model_n_points(m) + 1) * sizeof *x->values);
	x->coords = malloc(((size_t)model_n_points(m) * model_n_params(m) + 1) *
			   sizeof *x->coords);
	if (!x->values || !x->coords) {
		free(x->values);
		free(x->coords);
		free(x);
		return NULL;
	}
	return x;
}

static void scratch_free(struct scratch *x)
{
	if (!x)
		return;
	free(x->values);
	free(x->coords);
	free(x);
}

/* Fit slot `idx` (which the caller moved to SLOT_BUSY) with `fitter`,
 * using `x` as scratch, and publish it. */
static enum status fit_slot(struct scaling_view *v,
			    struct scaling_fitter *fitter, struct scratch *x,
			    uint64_t idx, struct error *err)
{
	const struct model *m = v->m;
	uint32_t node = (uint32_t)(idx / v->n_measured);
	uint32_t measured = (uint32_t)(idx % v->n_measured);
	uint32_t np = model_n_params(m), n = 0;
	struct slot *s = &v->slots[idx];
	size_t first, count = model_measure_series(m, node, measured, &first);
	enum status st;

	/* a series has at most one measurement per point */
	for (size_t k = 0; k < count && n < model_n_points(m); k++) {
		uint32_t p;
		const struct model_measure *ms = model_measure_by_index(
			m, model_measure_in_order(m, first, k), NULL, NULL, &p);

		if (!ms || p >= model_n_points(m))
			continue;
		x->values[n] = model_measure_get(ms, v->opt.measure);
		memcpy(x->coords + (size_t)n * np,
		       model_point_coords(m, p),
		       np * sizeof *x->coords);
		n++;
	}
	st = scaling_fit(fitter, x->coords, x->values, n, &s->model, NULL,
			 err);
	atomic_store_explicit(&s->state,
			      st == STATUS_OK ? SLOT_READY : SLOT_FAILED,
			      memory_order_release);
	atomic_fetch_add_explicit(&v->ready, 1, memory_order_release);
	pthread_mutex_lock(&v->mu);
	pthread_cond_broadcast(&v->done_cv);
	pthread_mutex_unlock(&v->mu);
	return st;
}

static void *worker(void *arg)
{
	struct scaling_view *v = arg;
	struct scaling_fitter *fitter = scaling_fitter_new(model_n_params(v->m), NULL);
	struct scratch *x = scratch_new(v->m);

	for (; fitter && x;) {
		uint64_t idx;
		uint8_t empty = SLOT_EMPTY;

		pthread_mutex_lock(&v->mu);
		while (v->paused && !v->stop)
			pthread_cond_wait(&v->wake_cv, &v->mu);
		if (v->stop || (v->n_urgent == 0 && v->cursor >= v->n_slots)) {
			pthread_mutex_unlock(&v->mu);
			break;
		}
		idx = v->n_urgent ? v->urgent[--v->n_urgent] : v->cursor++;
		pthread_mutex_unlock(&v->mu);
		if (atomic_compare_exchange_strong(&v->slots[idx].state, &empty,
						   SLOT_BUSY)) {
			struct error err = {0};

			fit_slot(v, fitter, x, idx, &err);
			error_clear(&err);
		}
	}
	scaling_fitter_free(fitter);
	scratch_free(x);
	return NULL;
}

/* Slot (node, measured) has a model: `state`, counted once. */
static void mark_slot(struct scaling_view *v, uint32_t node,
		      uint32_t measured, enum slot_state state)
{
	uint64_t idx;

	if (node >= model_n_nodes(v->m) || measured >= v->n_measured)
		return;
	idx = (uint64_t)node * v->n_measured + measured;
	if (atomic_load_explicit(&v->slots[idx].state, memory_order_relaxed) !=
	    SLOT_NONE)
		return;
	atomic_store_explicit(&v->slots[idx].state, (uint8_t)state,
			      memory_order_relaxed);
	v->total++;
}

struct scaling_view *scaling_view_new(const struct model *m,
				      const struct scaling_view_options *opt,
				      struct error *err)
{
	struct scaling_view *v;
	uint32_t n_measured = model_n_measured(m);

	if (model_n_params(m) == 0 || n_measured == 0 || model_n_points(m) == 0) {
		error_set(err, STATUS_UNSUPPORTED, model_path(m),
			  "not a parametric measurement set");
		return NULL;
	}
	if (model_n_params(m) > SCALING_MAX_PARAMS) {
		error_set(err, STATUS_UNSUPPORTED, model_path(m),
			  "%u parameters (at most %d can be modeled)",
			  model_n_params(m), SCALING_MAX_PARAMS);
		return NULL;
	}
	if (opt->stored_set != MODEL_NONE &&
	    opt->stored_set >= model_n_stored_sets(m)) {
		error_set(err, STATUS_USAGE, model_path(m),
			  "no stored model set %u (the set has %u)",
			  opt->stored_set, model_n_stored_sets(m));
		return NULL;
	}
	v = calloc(1, sizeof *v);
	if (!v)
		goto nomem;
	v->m = m;
	v->opt = *opt;
	v->n_measured = n_measured;
	v->n_slots = (uint64_t)model_n_nodes(m) * n_measured;
	pthread_mutex_init(&v->caller_mu, NULL);
	pthread_mutex_init(&v->mu, NULL);
	pthread_cond_init(&v->done_cv, NULL);
	pthread_cond_init(&v->wake_cv, NULL);
	v->slots = calloc(v->n_slots ? v->n_slots : 1, sizeof *v->slots);
	v->scratch = scratch_new(m);
	if (!v->slots || !v->scratch)
		goto nomem_v;
	/* which slots have a model to fit or show: one walk over the
	 * measurements (or the stored models), O(measurements), not a
	 * search per (node, measured, point) */
	for (uint64_t i = 0; i < v->n_slots; i++)
		atomic_init(&v->slots[i].state, SLOT_NONE);
	if (opt->stored_set != MODEL_NONE) {
		for (size_t i = 0, n = model_n_stored_models(m); i < n; i++) {
			uint32_t set, node, measured;

			if (model_stored_model_by_index(m, i, &set, &node,
							&measured) &&
			    set == opt->stored_set)
				mark_slot(v, node, measured, SLOT_READY);
		}
	} else {
		for (size_t i = 0, n = model_n_measures(m); i < n; i++) {
			uint32_t node, measured;

			if (model_measure_by_index(m, i, &node, &measured,
						   NULL))
				mark_slot(v, node, measured, SLOT_EMPTY);
		}
	}
	if (opt->stored_set != MODEL_NONE) {
		atomic_init(&v->ready, v->total);
		return v;
	}
	v->fitter = scaling_fitter_new(model_n_params(m), err);
	if (!v->fitter) {
		scaling_view_free(v);
		return NULL;
	}
	if (opt->background && v->total) {
		if (pthread_create(&v->thread, NULL, worker, v) == 0)
			v->has_thread = true;
	}
	return v;
nomem_v:
	scaling_view_free(v);
nomem:
	error_set(err, STATUS_NOMEM, model_path(m), "out of memory");
	return NULL;
}

static const struct scaling_model *slot_model(const struct scaling_view *v,
					      uint64_t idx)
{
	if (v->opt.stored_set != MODEL_NONE)
		return model_stored_model(v->m, v->opt.stored_set,
					  (uint32_t)(idx / v->n_measured),
					  (uint32_t)(idx % v->n_measured));
	return &v->slots[idx].model;
}

const struct scaling_model *scaling_view_model(struct scaling_view *v,
					       uint32_t node,
					       uint32_t measured,
					       struct error *err)
{
	uint64_t idx;

	if (node >= model_n_nodes(v->m) || measured >= v->n_measured)
		return NULL;
	idx = (uint64_t)node * v->n_measured + measured;
	for (;;) {
		struct slot *s = &v->slots[idx];
		uint8_t st = atomic_load_explicit(&s->state,
						  memory_order_acquire);
		uint8_t empty = SLOT_EMPTY;

		switch (st) {
		case SLOT_READY:
			return slot_model(v, idx);
		case SLOT_NONE:
			return NULL;
		case SLOT_FAILED:
			error_set(err, STATUS_CORRUPT, model_path(v->m),
				  "the model of node %u could not be fitted",
				  node);
			return NULL;
		case SLOT_EMPTY:
			if (!atomic_compare_exchange_strong(&s->state, &empty,
							    SLOT_BUSY))
				continue;
			pthread_mutex_lock(&v->caller_mu);
			enum status fst = fit_slot(v, v->fitter, v->scratch,
						   idx, err);
			pthread_mutex_unlock(&v->caller_mu);
			return fst == STATUS_OK ? &s->model : NULL;
		default: /* being fitted by the thread */
			pthread_mutex_lock(&v->mu);
			while (atomic_load_explicit(&s->state,
						    memory_order_acquire) ==
			       SLOT_BUSY)
				pthread_cond_wait(&v->done_cv, &v->mu);
			pthread_mutex_unlock(&v->mu);
			break;
		}
	}
}

const struct scaling_model *scaling_view_peek(struct scaling_view *v,
					      uint32_t node,
					      uint32_t measured)
{
	uint64_t idx;
	uint8_t st;

	if (node >= model_n_nodes(v->m) || measured >= v->n_measured)
		return NULL;
	idx = (uint64_t)node * v->n_measured + measured;
	st = atomic_load_explicit(&v->slots[idx].state, memory_order_acquire);
	if (st == SLOT_READY)
		return slot_model(v, idx);
	if (st == SLOT_EMPTY && v->has_thread) {
		pthread_mutex_lock(&v->mu);
		if (v->n_urgent == URGENT_MAX) { /* drop the oldest half */
			memmove(v->urgent, v->urgent + URGENT_MAX / 2,
				URGENT_MAX / 2 * sizeof *v->urgent);
			v->n_urgent = URGENT_MAX / 2;
		}
		v->urgent[v->n_urgent++] = idx;
		pthread_mutex_unlock(&v->mu);
	}
	return NULL;
}

void scaling_view_progress(const struct scaling_view *v, uint64_t *ready,
			   uint64_t *total)
{
	*ready = atomic_load_explicit(&v->ready,
				      memory_order_acquire);
	*total = v->total;
}

void scaling_view_pause(struct scaling_view *v, bool paused)
{
	if (!v || !v->has_thread)
		return;
	pthread_mutex_lock(&v->mu);
	v->paused = paused;
	pthread_cond_broadcast(&v->wake_cv);
	pthread_mutex_unlock(&v->mu);
}

void scaling_view_free(struct scaling_view *v)
{
	if (!v)
		return;
	if (v->has_thread) {
		pthread_mutex_lock(&v->mu);
		v->stop = true;
		pthread_cond_broadcast(&v->wake_cv);
		pthread_mutex_unlock(&v->mu);
		pthread_join(v->thread, NULL);
	}
	if (v->slots && v->opt.stored_set == MODEL_NONE)
		for (uint64_t i = 0; i < v->n_slots; i++)
			scaling_model_clear(&v->slots[i].model);
	scaling_fitter_free(v->fitter);
	pthread_mutex_destroy(&v->caller_mu);
	pthread_mutex_destroy(&v->mu);
	pthread_cond_destroy(&v->done_cv);
	pthread_cond_destroy(&v->wake_cv);
	free(v->slots);
	scratch_free(v->scratch);
	free(v);
}
