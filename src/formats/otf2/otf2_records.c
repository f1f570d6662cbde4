/* otf2_records: the OTF2 event records kept as attributes of the call they
 * happen in (the trace pane's interval details): MPI point-to-point
 * messages (blocking and immediate) and collectives, RMA puts, gets and
 * atomics, threading (fork, join, team begin and end, thread create,
 * begin, wait and end, task create and complete, lock acquire and
 * release: OpenMP, Pthreads) and I/O operations (handles created and
 * destroyed, operations begun and completed).  Each is kept by the index
 * pass when the replay of its call's block will not reach it (a late
 * record), else by that replay; the index pass also counts the events it
 * shows (the rest are reported: parameters, requests tested, ...).  The
 * text of each kind (otf2_record_text).  Must not depend on curses or on
 * ui/. */
#include "config.h"

#include <stdio.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_pass.h"

/* A record in the innermost call: kept by the index pass when that
 * call's block's replay will not reach it (a late record), else by the
 * replay of that block; an MPI point-to-point message also by the index
 * pass for the links (otf2_links.c). */
static OTF2_CallbackCode record(struct pass *p, uint64_t time, uint8_t kind,
				uint32_t partner, uint32_t comm, uint32_t tag,
				uint64_t length, uint64_t extra)
{
	struct otf2_location *l = p->l;
	if (p->counting)
		return OTF2_CALLBACK_SUCCESS;
	uint64_t t = otf2_event_time(p, time);
	if (p->indexing)
		p->shown++;
	if (!p->depth)
		return OTF2_CALLBACK_SUCCESS; /* in no call: not shown */
	uint64_t call = p->stack[p->depth - 1].iv;
	if (p->indexing && kind <= OTF2_MSG_IRECV &&
	    !otf2_links_note(p, call, kind, partner, comm, tag))
		return OTF2_CALLBACK_INTERRUPT;
	uint64_t iv = p->stack[p->depth - 1].iv, block = p->r->block;
	bool late = p->n_iv > (iv / block + 1) * block;
	if (p->indexing != late || (!p->indexing && iv < p->w0))
		return OTF2_CALLBACK_SUCCESS;
	struct otf2_msg **v = p->indexing ? &l->msg : &p->msg;
	size_t *n = p->indexing ? &l->n_msg : &p->n_msg;
	if (!array_grow((void **)v, &p->cap_msg, *n + 1, sizeof(**v))) {
		otf2_fail(p->r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	(*v)[(*n)++] = (struct otf2_msg){
		.interval = iv,
		.time = otf2_ns(p->r, t),
		.length = length,
		.partner = partner,
		.comm = comm,
		.tag = tag,
		.kind = kind,
		.extra = extra,
	};
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, uint32_t receiver,
				 OTF2_CommRef comm, uint32_t tag,
				 uint64_t length)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	return record(ud, time, OTF2_MSG_SEND, receiver, comm, tag, length, 0);
}

static OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, uint32_t sender,
				 OTF2_CommRef comm, uint32_t tag,
				 uint64_t length)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	return record(ud, time, OTF2_MSG_RECV, sender, comm, tag, length, 0);
}

static OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, uint32_t receiver,
				  OTF2_CommRef comm, uint32_t tag,
				  uint64_t length, uint64_t request)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)request;
	return record(ud, time, OTF2_MSG_ISEND, receiver, comm, tag, length,
		      0);
}

static OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time,
				  uint64_t pos, void *ud,
				  OTF2_AttributeList *attrs, uint32_t sender,
				  OTF2_CommRef comm, uint32_t tag,
				  uint64_t length, uint64_t request)
{
	(void)loc;
	(void)pos;
	(void)attrs;
	(void)request;
	return record(ud, time, OTF2_MSG_IRECV, sender, comm, tag, length,
		      0);
}

/* The callbacks below pass the common leading arguments here. */
#define UNUSED_HEAD                                                            \
	(void)loc;                                                             \
	(void)pos;                                                             \
	(void)attrs

static OTF2_CallbackCode on_coll(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs,
				 OTF2_CollectiveOp op, OTF2_CommRef comm,
				 uint32_t root, uint64_t sent, uint64_t got)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_COLLECTIVE, root, comm, op, sent,
		      got);
}

static OTF2_CallbackCode on_put(OTF2_LocationRef loc, OTF2_TimeStamp time,
				uint64_t pos, void *ud,
				OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
				uint32_t remote, uint64_t bytes, uint64_t id)
{
	UNUSED_HEAD;
	(void)id;
	return record(ud, time, OTF2_REC_RMA_PUT, remote, win, 0, bytes, 0);
}

static OTF2_CallbackCode on_get(OTF2_LocationRef loc, OTF2_TimeStamp time,
				uint64_t pos, void *ud,
				OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
				uint32_t remote, uint64_t bytes, uint64_t id)
{
	UNUSED_HEAD;
	(void)id;
	return record(ud, time, OTF2_REC_RMA_GET, remote, win, 0, bytes, 0);
}

static OTF2_CallbackCode on_atomic(OTF2_LocationRef loc, OTF2_TimeStamp time,
				   uint64_t pos, void *ud,
				   OTF2_AttributeList *attrs,
				   OTF2_RmaWinRef win, uint32_t remote,
				   OTF2_RmaAtomicType type, uint64_t sent,
				   uint64_t got, uint64_t id)
{
	UNUSED_HEAD;
	(void)id;
	return record(ud, time, OTF2_REC_RMA_ATOMIC, remote, win, type, sent,
		      got);
}

static OTF2_CallbackCode on_fork(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model,
				 uint32_t threads)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_FORK, threads, 0, model, 0, 0);
}

static OTF2_CallbackCode on_join(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_JOIN, 0, 0, model, 0, 0);
}

/* Team begin and end, thread create, begin, wait and end: a thread team
 * or contingent (a communicator) and a sequence number. */
#define TEAM_RECORD(NAME, KIND)                                               \
	static OTF2_CallbackCode NAME(OTF2_LocationRef loc,                   \
				      OTF2_TimeStamp time, uint64_t pos,      \
				      void *ud, OTF2_AttributeList *attrs,    \
				      OTF2_CommRef team)                      \
	{                                                                      \
		UNUSED_HEAD;                                                   \
		return record(ud, time, KIND, 0, team, 0, 0, 0);               \
	}
#define THREAD_RECORD(NAME, KIND)                                             \
	static OTF2_CallbackCode NAME(OTF2_LocationRef loc,                   \
				      OTF2_TimeStamp time, uint64_t pos,      \
				      void *ud, OTF2_AttributeList *attrs,    \
				      OTF2_CommRef team, uint64_t seq)        \
	{                                                                      \
		UNUSED_HEAD;                                                   \
		return record(ud, time, KIND, 0, team, 0, seq, 0);             \
	}
TEAM_RECORD(on_team_begin, OTF2_REC_TEAM_BEGIN)
TEAM_RECORD(on_team_end, OTF2_REC_TEAM_END)
THREAD_RECORD(on_thread_create, OTF2_REC_THREAD_CREATE)
THREAD_RECORD(on_thread_begin, OTF2_REC_THREAD_BEGIN)
THREAD_RECORD(on_thread_wait, OTF2_REC_THREAD_WAIT)
THREAD_RECORD(on_thread_end, OTF2_REC_THREAD_END)

static OTF2_CallbackCode on_lock(OTF2_LocationRef loc, OTF2_TimeStamp time,
				 uint64_t pos, void *ud,
				 OTF2_AttributeList *attrs, OTF2_Paradigm model,
				 uint32_t lock, uint32_t order)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_LOCK_ACQUIRE, lock, 0, model, order,
		      0);
}

static OTF2_CallbackCode on_unlock(OTF2_LocationRef loc, OTF2_TimeStamp time,
				   uint64_t pos, void *ud,
				   OTF2_AttributeList *attrs,
				   OTF2_Paradigm model, uint32_t lock,
				   uint32_t order)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_LOCK_RELEASE, lock, 0, model, order,
		      0);
}

static OTF2_CallbackCode on_task_create(OTF2_LocationRef loc,
					OTF2_TimeStamp time, uint64_t pos,
					void *ud, OTF2_AttributeList *attrs,
					OTF2_CommRef team, uint32_t thread,
					uint32_t generation)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_TASK_CREATE, thread, team, 0,
		      generation, 0);
}

static OTF2_CallbackCode on_task_complete(OTF2_LocationRef loc,
					  OTF2_TimeStamp time, uint64_t pos,
					  void *ud, OTF2_AttributeList *attrs,
					  OTF2_CommRef team, uint32_t thread,
					  uint32_t generation)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_TASK_COMPLETE, thread, team, 0,
		      generation, 0);
}

static OTF2_CallbackCode on_io_begin(OTF2_LocationRef loc, OTF2_TimeStamp time,
				     uint64_t pos, void *ud,
				     OTF2_AttributeList *attrs,
				     OTF2_IoHandleRef handle,
				     OTF2_IoOperationMode mode,
				     OTF2_IoOperationFlag flags,
				     uint64_t bytes, uint64_t id)
{
	UNUSED_HEAD;
	(void)flags;
	return record(ud, time, OTF2_REC_IO_BEGIN, handle, 0, mode, bytes,
		      id);
}

static OTF2_CallbackCode on_io_complete(OTF2_LocationRef loc,
					OTF2_TimeStamp time, uint64_t pos,
					void *ud, OTF2_AttributeList *attrs,
					OTF2_IoHandleRef handle, uint64_t bytes,
					uint64_t id)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_IO_COMPLETE, handle, 0, 0, bytes,
		      id);
}

static OTF2_CallbackCode on_io_create(OTF2_LocationRef loc, OTF2_TimeStamp time,
				      uint64_t pos, void *ud,
				      OTF2_AttributeList *attrs,
				      OTF2_IoHandleRef handle,
				      OTF2_IoAccessMode mode,
				      OTF2_IoCreationFlag creation,
				      OTF2_IoStatusFlag status)
{
	UNUSED_HEAD;
	(void)creation;
	(void)status;
	return record(ud, time, OTF2_REC_IO_CREATE, handle, 0, mode, 0, 0);
}

static OTF2_CallbackCode on_io_destroy(OTF2_LocationRef loc,
				       OTF2_TimeStamp time, uint64_t pos,
				       void *ud, OTF2_AttributeList *attrs,
				       OTF2_IoHandleRef handle)
{
	UNUSED_HEAD;
	return record(ud, time, OTF2_REC_IO_DESTROY, handle, 0, 0, 0, 0);
}

/* Program begin and end: the span of the run, shown by its calls. */
static OTF2_CallbackCode on_program_begin(OTF2_LocationRef loc,
					  OTF2_TimeStamp time, uint64_t pos,
					  void *ud, OTF2_AttributeList *attrs,
					  OTF2_StringRef name, uint32_t n,
					  const OTF2_StringRef *args)
{
	struct pass *p = ud;
	UNUSED_HEAD;
	(void)name;
	(void)n;
	(void)args;
	(void)time; /* not shown: the trace's span is its calls' */
	p->shown += p->indexing && !p->counting;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_program_end(OTF2_LocationRef loc,
					OTF2_TimeStamp time, uint64_t pos,
					void *ud, OTF2_AttributeList *attrs,
					int64_t status)
{
	struct pass *p = ud;
	UNUSED_HEAD;
	(void)status;
	(void)time; /* not shown: the trace's span is its calls' */
	p->shown += p->indexing && !p->counting;
	return OTF2_CALLBACK_SUCCESS;
}

void otf2_records_callbacks(OTF2_EvtReaderCallbacks *cb)
{
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll);
	OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_put);
	OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_get);
	OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_atomic);
	OTF2_EvtReaderCallbacks_SetThreadForkCallback(cb, on_fork);
	OTF2_EvtReaderCallbacks_SetThreadJoinCallback(cb, on_join);
	OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
	OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(cb, on_team_end);
	OTF2_EvtReaderCallbacks_SetThreadCreateCallback(cb, on_thread_create);
	OTF2_EvtReaderCallbacks_SetThreadBeginCallback(cb, on_thread_begin);
	OTF2_EvtReaderCallbacks_SetThreadWaitCallback(cb, on_thread_wait);
	OTF2_EvtReaderCallbacks_SetThreadEndCallback(cb, on_thread_end);
	OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_lock);
	OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_unlock);
	OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_task_create);
	OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(cb,
							      on_task_complete);
	OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, on_io_begin);
	OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb,
							       on_io_complete);
	OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(cb, on_io_create);
	OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(cb, on_io_destroy);
	OTF2_EvtReaderCallbacks_SetProgramBeginCallback(cb, on_program_begin);
	OTF2_EvtReaderCallbacks_SetProgramEndCallback(cb, on_program_end);
}

/* ---- the text of a record ------------------------------------------------ */

static const char *const collective_name[] = {
	"barrier", "broadcast", "gather", "gatherv", "scatter", "scatterv",
	"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
	"allreduce", "reduce", "reduce-scatter", "scan", "exscan",
	"reduce-scatter-block", "create handle", "destroy handle", "allocate",
	"deallocate", "create handle and allocate",
	"destroy handle and deallocate"};

static const char *const record_key[] = {
	[OTF2_MSG_SEND] = "MPI send", [OTF2_MSG_RECV] = "MPI receive",
	[OTF2_MSG_ISEND] = "MPI isend", [OTF2_MSG_IRECV] = "MPI ireceive",
	[OTF2_REC_COLLECTIVE] = "MPI collective",
	[OTF2_REC_RMA_PUT] = "RMA put", [OTF2_REC_RMA_GET] = "RMA get",
	[OTF2_REC_RMA_ATOMIC] = "RMA atomic",
	[OTF2_REC_FORK] = "thread fork", [OTF2_REC_JOIN] = "thread join",
	[OTF2_REC_TEAM_BEGIN] = "thread team begin",
	[OTF2_REC_TEAM_END] = "thread team end",
	[OTF2_REC_THREAD_CREATE] = "thread create",
	[OTF2_REC_THREAD_BEGIN] = "thread begin",
	[OTF2_REC_THREAD_WAIT] = "thread wait",
	[OTF2_REC_THREAD_END] = "thread end",
	[OTF2_REC_LOCK_ACQUIRE] = "lock acquire",
	[OTF2_REC_LOCK_RELEASE] = "lock release",
	[OTF2_REC_TASK_CREATE] = "task create",
	[OTF2_REC_TASK_COMPLETE] = "task complete",
	[OTF2_REC_IO_BEGIN] = "I/O begin", [OTF2_REC_IO_COMPLETE] = "I/O complete",
	[OTF2_REC_IO_CREATE] = "I/O open", [OTF2_REC_IO_DESTROY] = "I/O close"};

static const char *paradigm(uint32_t p)
{
	return p == OTF2_PARADIGM_OPENMP    ? "OpenMP"
	       : p == OTF2_PARADIGM_PTHREAD ? "Pthreads"
					    : "threads";
}

const char *otf2_record_key(uint32_t kind)
{
	return kind < sizeof(record_key) / sizeof(*record_key) &&
			       record_key[kind]
		       ? record_key[kind]
		       : "record";
}

int otf2_record_text(const struct otf2_msg *m, const char *comm, char **out)
{
	const char *sep = *comm ? ", " : "";
	unsigned long long n = m->length, x = m->extra;
	switch (m->kind) {
	case OTF2_MSG_SEND:
	case OTF2_MSG_ISEND:
	case OTF2_MSG_RECV:
	case OTF2_MSG_IRECV:
		return asprintf(out, "%llu bytes %s rank %u, tag %u%s%s", n,
				m->kind == OTF2_MSG_SEND ||
						m->kind == OTF2_MSG_ISEND
					? "to"
					: "from",
				m->partner, m->tag, sep, comm);
	case OTF2_REC_COLLECTIVE:
		return asprintf(out, "%s, root %u, %llu bytes sent, %llu "
				"received%s%s",
				m->tag < sizeof(collective_name) /
						 sizeof(*collective_name)
					? collective_name[m->tag]
					: "operation",
				m->partner, n, x, sep, comm);
	case OTF2_REC_RMA_PUT:
	case OTF2_REC_RMA_GET:
		return asprintf(out, "%llu bytes %s rank %u, window %u", n,
				m->kind == OTF2_REC_RMA_PUT ? "to" : "from",
				m->partner, m->comm);
	case OTF2_REC_RMA_ATOMIC:
		return asprintf(out, "rank %u, window %u, %llu bytes sent, "
				"%llu received", m->partner, m->comm, n, x);
	case OTF2_REC_FORK:
		return asprintf(out, "%s, %u threads requested",
				paradigm(m->tag), m->partner);
	case OTF2_REC_JOIN:
		return asprintf(out, "%s", paradigm(m->tag));
	case OTF2_REC_TEAM_BEGIN:
	case OTF2_REC_TEAM_END:
		return asprintf(out, "team %s", *comm ? comm : "?");
	case OTF2_REC_LOCK_ACQUIRE:
	case OTF2_REC_LOCK_RELEASE:
		return asprintf(out, "%s lock %u, acquisition %llu",
				paradigm(m->tag), m->partner, n);
	case OTF2_REC_TASK_CREATE:
	case OTF2_REC_TASK_COMPLETE:
		return asprintf(out, "team %s, thread %u, generation %llu",
				*comm ? comm : "?", m->partner, n);
	case OTF2_REC_IO_BEGIN:
		return asprintf(out, "%s %llu bytes, handle %u",
				m->tag == 0   ? "read"
				: m->tag == 1 ? "write"
					      : "flush",
				n, m->partner);
	case OTF2_REC_IO_COMPLETE:
		return asprintf(out, "%llu bytes, handle %u", n, m->partner);
	case OTF2_REC_IO_CREATE:
	case OTF2_REC_IO_DESTROY:
		return asprintf(out, "handle %u", m->partner);
	default: /* thread create, begin, wait, end */
		return asprintf(out, "%s%ssequence %llu", comm,
				*comm ? ", " : "", n);
	}
}
