/* gen-otf2-big: a large OTF2 archive for bench/bench-otf2.sh, written with
 * the OTF2 library's C writer (the Python bindings write about 0.2 M
 * events a second: an hour for the issue's 64 x 10 million).  LOCS
 * locations (one MPI rank each, one thread), each `main` around calls of
 * `solve`, which calls `kernel` or `mpi` in turn (4 events a call, 1 GHz
 * ticks); every 1000th `mpi` call sends 4096 bytes to the next rank, whose
 * `mpi` call of the same number receives them (MPI_COMM_WORLD, tag 1),
 * and every `solve` call records a metric event (a PAPI-like counter, its
 * call number) at its Enter, so that the archive holds messages and a
 * counter as Score-P's do.  EVENTS is the events per location (main's two
 * and whole calls: at most EVENTS).
 * usage: gen-otf2-big DIR LOCS EVENTS
 * Built by bench/bench-otf2.sh with `pkg-config --cflags --libs otf2`. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <otf2/otf2.h>

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft,
				OTF2_LocationRef loc, void *cb, bool final)
{
	(void)ud;
	(void)ft;
	(void)loc;
	(void)cb;
	(void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft,
				 OTF2_LocationRef loc)
{
	(void)ud;
	(void)ft;
	(void)loc;
	return 0;
}

static OTF2_FlushCallbacks flush_cb = {.otf2_pre_flush = pre_flush,
				       .otf2_post_flush = post_flush};

static void check(OTF2_ErrorCode e, const char *what)
{
	if (e != OTF2_SUCCESS) {
		fprintf(stderr, "gen-otf2-big: %s: %s\n", what,
			OTF2_Error_GetDescription(e));
		exit(1);
	}
}

enum { S_EMPTY, S_MAIN, S_SOLVE, S_KERNEL, S_MPI, S_NODE, S_NODECLS,
       S_THREAD, S_WORLD, S_PAPI, S_UNIT, S_RANK0 };

/* One location's events: its calls (4 events each, plus a metric event
 * per call), their end time in *end. */
static uint64_t write_location(OTF2_Archive *a, uint64_t li, uint64_t locs,
			       uint64_t events, uint64_t *end)
{
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, li);
	if (!w)
		check(OTF2_ERROR_INVALID, "event writer");
	uint64_t t = 1000, n = 2;
	OTF2_Type type = OTF2_TYPE_UINT64;
	check(OTF2_EvtWriter_Enter(w, NULL, t, 0), "enter");
	for (uint64_t c = 0; n + 5 <= events; c++) {
		uint32_t inner = c % 2 ? 3 : 2; /* kernel, mpi */
		t += 10;
		check(OTF2_EvtWriter_Enter(w, NULL, t, 1), "enter");
		OTF2_MetricValue v = {.unsigned_int = c};
		check(OTF2_EvtWriter_Metric(w, NULL, t, 0, 1, &type, &v),
		      "metric");
		t += 10;
		check(OTF2_EvtWriter_Enter(w, NULL, t, inner), "enter");
		n += 5;
		if (inner == 3 && c % 2000 == 1 && locs > 1 &&
		    n + 1 <= events) {
			check(OTF2_EvtWriter_MpiSend(w, NULL, t + 1,
						     (uint32_t)((li + 1) % locs),
						     0, 1, 4096), "send");
			check(OTF2_EvtWriter_MpiRecv(
				      w, NULL, t + 2,
				      (uint32_t)((li + locs - 1) % locs), 0,
				      1, 4096), "recv");
			n += 2;
		}
		t += 50 + (c * 7 + li) % 40;
		check(OTF2_EvtWriter_Leave(w, NULL, t, inner), "leave");
		t += 10;
		check(OTF2_EvtWriter_Leave(w, NULL, t, 1), "leave");
	}
	t += 10;
	check(OTF2_EvtWriter_Leave(w, NULL, t, 0), "leave");
	*end = t;
	check(OTF2_Archive_CloseEvtWriter(a, w), "close event writer");
	OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, li);
	check(OTF2_Archive_CloseDefWriter(a, dw), "close def writer");
	return n;
}

static void write_defs(OTF2_Archive *a, uint64_t locs, const uint64_t *n,
		       uint64_t end)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	static const char *const s[] = {
		"", "main", "solve", "kernel", "mpi", "node", "node",
		"thread", "MPI_COMM_WORLD", "PAPI_TOT_INS", "#"};
	check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0,
							end + 1, 0), "clock");
	for (uint32_t i = 0; i < sizeof(s) / sizeof(*s); i++)
		check(OTF2_GlobalDefWriter_WriteString(g, i, s[i]), "string");
	for (uint32_t i = 0; i < locs; i++) {
		char name[32];
		snprintf(name, sizeof(name), "rank %u", i);
		check(OTF2_GlobalDefWriter_WriteString(g, S_RANK0 + i, name),
		      "string");
	}
	for (uint32_t r = 0; r < 4; r++)
		check(OTF2_GlobalDefWriter_WriteRegion(
			      g, r, S_MAIN + r, S_MAIN + r, S_EMPTY,
			      r == 3 ? OTF2_REGION_ROLE_POINT2POINT
				     : OTF2_REGION_ROLE_FUNCTION,
			      r == 3 ? OTF2_PARADIGM_MPI
				     : OTF2_PARADIGM_COMPILER,
			      OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0),
		      "region");
	check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
		      g, 0, S_NODE, S_NODECLS, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
	      "system tree node");
	uint64_t *members = malloc(locs * sizeof(*members));
	for (uint64_t i = 0; i < locs; i++) {
		check(OTF2_GlobalDefWriter_WriteLocationGroup(
			      g, (uint32_t)i, S_RANK0 + (uint32_t)i,
			      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
			      OTF2_UNDEFINED_LOCATION_GROUP), "group");
		check(OTF2_GlobalDefWriter_WriteLocation(
			      g, i, S_THREAD, OTF2_LOCATION_TYPE_CPU_THREAD,
			      n[i], (uint32_t)i), "location");
		members[i] = i;
	}
	check(OTF2_GlobalDefWriter_WriteGroup(
		      g, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
		      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
		      (uint32_t)locs, members), "locations group");
	check(OTF2_GlobalDefWriter_WriteGroup(
		      g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
		      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
		      (uint32_t)locs, members), "comm group");
	free(members);
	check(OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1,
					     OTF2_UNDEFINED_COMM,
					     OTF2_COMM_FLAG_NONE), "comm");
	OTF2_MetricMemberRef mm = 0;
	check(OTF2_GlobalDefWriter_WriteMetricMember(
		      g, 0, S_PAPI, S_EMPTY, OTF2_METRIC_TYPE_PAPI,
		      OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_UINT64,
		      OTF2_BASE_DECIMAL, 0, S_UNIT), "metric member");
	check(OTF2_GlobalDefWriter_WriteMetricClass(
		      g, 0, 1, &mm, OTF2_METRIC_ASYNCHRONOUS,
		      OTF2_RECORDER_KIND_ABSTRACT), "metric class");
	check(OTF2_Archive_CloseGlobalDefWriter(a, g), "close global defs");
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fputs("usage: gen-otf2-big DIR LOCS EVENTS\n", stderr);
		return 2;
	}
	uint64_t locs = strtoull(argv[2], NULL, 10),
		 events = strtoull(argv[3], NULL, 10);
	if (locs == 0 || locs > 4096 || events < 7)
		return 2;
	OTF2_Archive *a = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE,
					    1024 * 1024, 4 * 1024 * 1024,
					    OTF2_SUBSTRATE_POSIX,
					    OTF2_COMPRESSION_NONE);
	if (!a)
		check(OTF2_ERROR_INVALID, "open");
	check(OTF2_Archive_SetFlushCallbacks(a, &flush_cb, NULL), "flush");
	check(OTF2_Archive_SetSerialCollectiveCallbacks(a), "collectives");
	check(OTF2_Archive_SetCreator(a, "gen-otf2-big"), "creator");
	check(OTF2_Archive_OpenEvtFiles(a), "open event files");
	check(OTF2_Archive_OpenDefFiles(a), "open def files");
	uint64_t *n = malloc(locs * sizeof(*n)), end = 0;
	for (uint64_t i = 0; i < locs; i++) {
		uint64_t e;
		n[i] = write_location(a, i, locs, events, &e);
		if (e > end)
			end = e;
	}
	check(OTF2_Archive_CloseEvtFiles(a), "close event files");
	check(OTF2_Archive_CloseDefFiles(a), "close def files");
	write_defs(a, locs, n, end);
	free(n);
	check(OTF2_Archive_Close(a), "close");
	return 0;
}
