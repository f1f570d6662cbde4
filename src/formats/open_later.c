/* open_later: a model finished in a thread of its own (see open_later.h).
 * The job's state -- done, the progress last reported, the cancel flag,
 * the result -- is guarded by its mutex; the work sees the job only
 * through the progress and cancel hooks of the options it is given, and
 * may offer better partial models meanwhile (open_later_offer). */
#include "config.h"

#include "formats/open_later.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct open_later {
	open_later_work work;
	void *ctx;
	void (*free_ctx)(void *ctx);
	pthread_t thread;
	pthread_mutex_t lock;
	struct reader_options options; /* the hooks below, for the work */
	/* guarded by lock */
	bool done, cancel, taken;
	struct reader_progress progress;
	enum status st;
	struct error err;
	struct model *model;
	struct model *better; /* a partial model offered, not yet taken */
	unsigned better_exact;
};

/* The work's progress hook: the last report kept for open_later_poll
 * (its text pointers are the reader's static strings). */
static void on_progress(void *ctx, const struct reader_progress *p)
{
	struct open_later *j = ctx;
	pthread_mutex_lock(&j->lock);
	j->progress = *p;
	pthread_mutex_unlock(&j->lock);
}

bool open_later_cancelled(void *job)
{
	struct open_later *j = job;
	pthread_mutex_lock(&j->lock);
	bool c = j->cancel;
	pthread_mutex_unlock(&j->lock);
	return c;
}

static void *run(void *arg)
{
	struct open_later *j = arg;
	struct model *m = NULL;
	struct error err = {0};
	enum status st = j->work(j->ctx, &j->options, &m, &err);
	if (j->free_ctx)
		j->free_ctx(j->ctx);
	j->ctx = NULL;
	pthread_mutex_lock(&j->lock);
	j->st = st;
	j->err = err;
	j->model = st == STATUS_OK ? m : NULL;
	if (st != STATUS_OK)
		model_free(m);
	j->done = true;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

enum status open_later_start(open_later_work work, void *ctx,
			     void (*free_ctx)(void *ctx),
			     struct open_later **out, struct error *err)
{
	*out = NULL;
	struct open_later *j = calloc(1, sizeof(*j));
	if (!j)
		return error_set(err, STATUS_NOMEM, NULL, "out of memory");
	j->work = work;
	j->ctx = ctx;
	j->free_ctx = free_ctx;
	j->options.progress = on_progress;
	j->options.cancelled = open_later_cancelled;
	j->options.progress_ctx = j;
	pthread_mutex_init(&j->lock, NULL);
	if (pthread_create(&j->thread, NULL, run, j) != 0) {
		pthread_mutex_destroy(&j->lock);
		free(j);
		return error_set(err, STATUS_NOMEM, NULL,
				 "cannot start a thread");
	}
	*out = j;
	return STATUS_OK;
}

bool open_later_poll(struct open_later *j, struct reader_progress *p)
{
	pthread_mutex_lock(&j->lock);
	bool done = j->done;
	if (p)
		*p = j->progress;
	pthread_mutex_unlock(&j->lock);
	return done;
}

enum status open_later_take(struct open_later *j, struct model **out,
			    struct error *err)
{
	*out = NULL;
	if (j->taken)
		return error_set(err, STATUS_USAGE, NULL,
				 "the background open was already taken");
	pthread_join(j->thread, NULL);
	j->taken = true;
	*out = j->model;
	j->model = NULL;
	if (j->st != STATUS_OK) {
		*err = j->err;
		memset(&j->err, 0, sizeof(j->err));
	}
	return j->st;
}

void open_later_offer(void *job, struct model *m, unsigned exact)
{
	struct open_later *j = job;
	pthread_mutex_lock(&j->lock);
	struct model *old = j->better;
	j->better = m;
	j->better_exact = exact;
	pthread_mutex_unlock(&j->lock);
	model_free(old); /* never taken: a newer one replaces it */
}

struct model *open_later_take_better(struct open_later *j, unsigned *exact)
{
	pthread_mutex_lock(&j->lock);
	struct model *m = j->done ? NULL : j->better;
	if (m) {
		j->better = NULL;
		*exact = j->better_exact;
	}
	pthread_mutex_unlock(&j->lock);
	return m;
}

void open_later_free(struct open_later *j)
{
	if (!j)
		return;
	if (!j->taken) {
		pthread_mutex_lock(&j->lock);
		j->cancel = true;
		pthread_mutex_unlock(&j->lock);
		pthread_join(j->thread, NULL);
	}
	model_free(j->model);
	model_free(j->better);
	error_clear(&j->err);
	pthread_mutex_destroy(&j->lock);
	free(j);
}
