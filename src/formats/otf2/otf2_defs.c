/* otf2_defs: the global definitions of an OTF2 archive, read through the
 * OTF2 library's global definition reader and callbacks: strings (interned
 * into the model), the clock, the system tree, location groups,
 * locations, regions, groups and communicators.  Each table is indexed by the
 * archive's ids, bounded by OTF2_MAX_DEF_ID; a definition that names an
 * undefined string or a system tree whose parents form a cycle ends the
 * read with one error.  Definitions this reader does not use are counted
 * by the library's "unknown" callback only when the library itself does
 * not know them.  Must not depend on curses or on ui/. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "core/array.h"
#include "formats/otf2/otf2_internal.h"

uint32_t otf2_string(const struct otf2_run *r, uint32_t id)
{
	return id < r->n_strings ? r->strings[id] : 0;
}

void otf2_fail(struct otf2_run *r, enum status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* the index pass's threads may fail at once */
	pthread_mutex_lock(&r->index_lock);
	if (r->failed == STATUS_OK)
		__atomic_store_n(&r->failed,
				 error_vset(r->err, st, r->path, false, 0, fmt,
					    ap),
				 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&r->index_lock);
	va_end(ap);
}

/* Make table *t (of `size`-byte entries, *n of them) hold id `id`, the new
 * entries zeroed; false (and the run failed) for an id too large. */
bool otf2_table_hold(struct otf2_run *r, void **t, uint32_t *n, uint32_t id,
		     size_t size, const char *what)
{
	if (id >= OTF2_MAX_DEF_ID) {
		otf2_fail(r, STATUS_LIMIT,
			  "global definitions: %s id %u exceeds the limit of %u",
			  what, id, OTF2_MAX_DEF_ID);
		return false;
	}
	if (id < *n)
		return true;
	uint32_t want = id + 1;
	void *p = realloc(*t, (size_t)want * size);
	if (!p) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return false;
	}
	memset((char *)p + (size_t)*n * size, 0, (size_t)(want - *n) * size);
	*t = p;
	*n = want;
	return true;
}

/* The model handle of a string reference that must be defined (or
 * undefined: "none"); false (failed) for a dangling reference. */
static bool string_ref(struct otf2_run *r, uint32_t id, const char *what,
		       uint32_t *out)
{
	*out = 0;
	if (id == OTF2_UNDEFINED_STRING)
		return true;
	if (id >= r->n_strings || r->strings[id] == 0) {
		otf2_fail(r, STATUS_CORRUPT,
			  "global definitions: %s names string %u, which is "
			  "not defined", what, id);
		return false;
	}
	*out = r->strings[id] == UINT32_MAX ? 0 : r->strings[id];
	return true;
}

static OTF2_CallbackCode on_string(void *ud, OTF2_StringRef self,
				   const char *s)
{
	struct otf2_run *r = ud;
	if (!otf2_table_hold(r, (void **)&r->strings, &r->n_strings, self,
			sizeof(*r->strings), "string"))
		return OTF2_CALLBACK_INTERRUPT;
	uint32_t h = model_builder_intern(r->b, s, strlen(s));
	if (h == MODEL_NONE) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	/* handle 0 is "": an empty string is kept as defined */
	r->strings[self] = h ? h : UINT32_MAX;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_clock(void *ud, uint64_t resolution,
				  uint64_t offset, uint64_t length,
				  uint64_t realtime)
{
	struct otf2_run *r = ud;
	(void)realtime;
	if (resolution == 0) {
		otf2_fail(r, STATUS_CORRUPT,
			  "global definitions: the clock has 0 ticks per second");
		return OTF2_CALLBACK_INTERRUPT;
	}
	r->resolution = resolution;
	r->offset = offset;
	r->length = length;
	r->has_clock = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_stn(void *ud, OTF2_SystemTreeNodeRef self,
				OTF2_StringRef name, OTF2_StringRef cls,
				OTF2_SystemTreeNodeRef parent)
{
	struct otf2_run *r = ud;
	if (!otf2_table_hold(r, (void **)&r->stns, &r->n_stns, self,
			sizeof(*r->stns), "system tree node"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_stn *s = &r->stns[self];
	if (!string_ref(r, name, "a system tree node", &s->name) ||
	    !string_ref(r, cls, "a system tree node", &s->class_name))
		return OTF2_CALLBACK_INTERRUPT;
	s->parent = parent;
	s->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_group(void *ud, OTF2_LocationGroupRef self,
				  OTF2_StringRef name,
				  OTF2_LocationGroupType type,
				  OTF2_SystemTreeNodeRef stn,
				  OTF2_LocationGroupRef creator)
{
	struct otf2_run *r = ud;
	(void)type;
	(void)creator;
	if (!otf2_table_hold(r, (void **)&r->groups, &r->n_groups, self,
			sizeof(*r->groups), "location group"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_group *g = &r->groups[self];
	if (!string_ref(r, name, "a location group", &g->name))
		return OTF2_CALLBACK_INTERRUPT;
	g->stn = stn;
	g->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *ud, OTF2_LocationRef self,
				     OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t events,
				     OTF2_LocationGroupRef group)
{
	struct otf2_run *r = ud;
	(void)type;
	if (r->n_locs >= OTF2_MAX_DEF_ID) {
		otf2_fail(r, STATUS_LIMIT,
			  "global definitions: more than %u locations",
			  OTF2_MAX_DEF_ID);
		return OTF2_CALLBACK_INTERRUPT;
	}
	for (size_t i = 0; i < r->n_locs; i++)
		if (r->locs[i].ref == self) {
			otf2_fail(r, STATUS_CORRUPT,
				  "global definitions: location %llu is "
				  "defined twice", (unsigned long long)self);
			return OTF2_CALLBACK_INTERRUPT;
		}
	if (!array_grow((void **)&r->locs, &r->cap_locs, r->n_locs + 1,
			sizeof(*r->locs))) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	struct otf2_location *l = &r->locs[r->n_locs];
	memset(l, 0, sizeof(*l));
	l->ref = self;
	l->group = group;
	l->claimed = events;
	if (!string_ref(r, name, "a location", &l->name))
		return OTF2_CALLBACK_INTERRUPT;
	r->n_locs++;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_region(void *ud, OTF2_RegionRef self,
				   OTF2_StringRef name, OTF2_StringRef canonical,
				   OTF2_StringRef descr, OTF2_RegionRole role,
				   OTF2_Paradigm paradigm,
				   OTF2_RegionFlag flags, OTF2_StringRef file,
				   uint32_t begin, uint32_t end)
{
	struct otf2_run *r = ud;
	(void)canonical;
	(void)descr;
	(void)role;
	(void)paradigm;
	(void)flags;
	(void)end;
	if (!otf2_table_hold(r, (void **)&r->regions, &r->n_regions, self,
			sizeof(*r->regions), "region"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_region *g = &r->regions[self];
	if (!string_ref(r, name, "a region", &g->name) ||
	    !string_ref(r, file, "a region", &g->file))
		return OTF2_CALLBACK_INTERRUPT;
	g->line = begin == OTF2_UNDEFINED_UINT32 ? 0 : begin;
	g->function = MODEL_NONE;
	g->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_comm(void *ud, OTF2_CommRef self,
				 OTF2_StringRef name, OTF2_GroupRef group,
				 OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct otf2_run *r = ud;
	(void)parent;
	(void)flags;
	if (!otf2_table_hold(r, (void **)&r->comms, &r->n_comms, self,
			sizeof(*r->comms), "communicator") ||
	    !otf2_table_hold(r, (void **)&r->comm_group, &r->n_comm_group, self,
			sizeof(*r->comm_group), "communicator"))
		return OTF2_CALLBACK_INTERRUPT;
	r->comm_group[self] = group;
	return string_ref(r, name, "a communicator", &r->comms[self])
		       ? OTF2_CALLBACK_SUCCESS
		       : OTF2_CALLBACK_INTERRUPT;
}

/* A group: a communicator's members (ranks to locations, otf2_links.c). */
static OTF2_CallbackCode on_ogroup(void *ud, OTF2_GroupRef self,
				   OTF2_StringRef name, OTF2_GroupType type,
				   OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
				   uint32_t n, const uint64_t *members)
{
	struct otf2_run *r = ud;
	(void)name;
	(void)flags;
	if (!otf2_table_hold(r, (void **)&r->ogroups, &r->n_ogroups, self,
			sizeof(*r->ogroups), "group"))
		return OTF2_CALLBACK_INTERRUPT;
	struct otf2_ogroup *g = &r->ogroups[self];
	if (g->defined) {
		otf2_fail(r, STATUS_CORRUPT, "global definitions: group %u is "
			  "defined twice", self);
		return OTF2_CALLBACK_INTERRUPT;
	}
	g->members = n ? malloc(n * sizeof(*g->members)) : NULL;
	if (n && !g->members) {
		otf2_fail(r, STATUS_NOMEM, "out of memory");
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (n)
		memcpy(g->members, members, n * sizeof(*g->members));
	g->n_members = n;
	g->type = (uint8_t)type;
	g->paradigm = (uint8_t)paradigm;
	g->defined = true;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_unknown(void *ud)
{
	((struct otf2_run *)ud)->unknown_defs++;
	return OTF2_CALLBACK_SUCCESS;
}

/* The empty strings were kept as UINT32_MAX (defined); make them "" (0). */
static void settle_strings(struct otf2_run *r)
{
	for (uint32_t i = 0; i < r->n_strings; i++)
		if (r->strings[i] == UINT32_MAX)
			r->strings[i] = 0;
}

/* Every system tree node's parents end at a root, every group's node and
 * every location's group is defined. */
static enum status check_tree(struct otf2_run *r)
{
	for (uint32_t i = 0; i < r->n_stns; i++) {
		if (!r->stns[i].defined)
			continue;
		uint32_t p = r->stns[i].parent, steps = 0;
		while (p != OTF2_UNDEFINED_SYSTEM_TREE_NODE) {
			if (p >= r->n_stns || !r->stns[p].defined)
				return error_set(r->err, STATUS_CORRUPT, r->path,
						 "global definitions: system "
						 "tree node %u has undefined "
						 "parent %u", i, p);
			if (++steps > r->n_stns)
				return error_set(r->err, STATUS_CORRUPT, r->path,
						 "global definitions: the "
						 "parents of system tree node "
						 "%u form a cycle", i);
			p = r->stns[p].parent;
		}
	}
	for (uint32_t i = 0; i < r->n_groups; i++) {
		uint32_t s = r->groups[i].stn;
		if (r->groups[i].defined &&
		    s != OTF2_UNDEFINED_SYSTEM_TREE_NODE &&
		    (s >= r->n_stns || !r->stns[s].defined))
			return error_set(r->err, STATUS_CORRUPT, r->path,
					 "global definitions: location group "
					 "%u is in undefined system tree node "
					 "%u", i, s);
	}
	for (size_t i = 0; i < r->n_locs; i++) {
		uint32_t g = r->locs[i].group;
		if (g != OTF2_UNDEFINED_LOCATION_GROUP &&
		    (g >= r->n_groups || !r->groups[g].defined))
			return error_set(r->err, STATUS_CORRUPT, r->path,
					 "global definitions: location %llu "
					 "is in undefined location group %u",
					 (unsigned long long)r->locs[i].ref, g);
	}
	return STATUS_OK;
}

enum status otf2_read_defs(struct otf2_run *r, void *reader)
{
	OTF2_Reader *rd = reader;
	OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	if (!gdr || !cb) {
		OTF2_GlobalDefReaderCallbacks_Delete(cb);
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "cannot read the global definitions");
	}
	OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(cb, on_unknown);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, on_stn);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_group);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_ogroup);
	otf2_metrics_def_callbacks(cb);
	OTF2_ErrorCode e =
		OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, r);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	uint64_t n = 0;
	if (e == OTF2_SUCCESS)
		e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
	if (r->failed != STATUS_OK)
		return r->failed;
	if (e != OTF2_SUCCESS)
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "global definitions: %s",
				 OTF2_Error_GetDescription(e));
	settle_strings(r);
	if (!r->has_clock)
		return error_set(r->err, STATUS_CORRUPT, r->path,
				 "global definitions: no clock properties");
	return check_tree(r);
}
