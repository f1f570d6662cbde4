/* otf2_records: the OTF2 event records kept as attributes of the call they
 * happen in: MPI point-to-point messages (blocking and immediate).  Each is
 * kept by the index pass when the replay of its call's block will not
 * reach it (a late record), else by that replay.  Must not depend on
 * curses or on ui/. */
#include "config.h"

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_pass.h"

/* An MPI message in the innermost call: kept by the index pass when that
 * call's block's replay will not reach it (a late message), else by the
 * replay of that block. */
static OTF2_CallbackCode message(struct pass *p, uint64_t time,
				 uint8_t kind, uint32_t partner,
				 uint32_t comm, uint32_t tag, uint64_t length)
{
	struct otf2_location *l = p->l;
	uint64_t t = otf2_event_time(p, time);
	if (!p->depth)
		return OTF2_CALLBACK_SUCCESS; /* in no call: not shown */
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
	return message(ud, time, OTF2_MSG_SEND, receiver, comm, tag, length);
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
	return message(ud, time, OTF2_MSG_RECV, sender, comm, tag, length);
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
	return message(ud, time, OTF2_MSG_ISEND, receiver, comm, tag, length);
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
	return message(ud, time, OTF2_MSG_IRECV, sender, comm, tag, length);
}

void otf2_records_callbacks(OTF2_EvtReaderCallbacks *cb)
{
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
}
