/* proc_listing: dcpilist's procedure listing over a model, shared by `callscope
 * listing` and the viewer's listing pane: every instruction of a
 * procedure, disassembled from the program's image by the model's reader
 * (reader_listing in formats/reader.h: DCPI's, Capstone over ELF), with its samples per event (the model's
 * exclusive columns: samples fall on addresses, and a sample inside an
 * instruction counts for it), the procedure's total per event, the source
 * line of each instruction (DWARF) and the hottest instruction of the
 * first event.  Built once per procedure asked for: O(the procedure's
 * subtree + its instructions), never O(database).  Only the readers with
 * a listing (DCPI today) have images to disassemble.  Must not depend on curses or on ui/. */
#ifndef CALLSCOPE_PROC_LISTING_H
#define CALLSCOPE_PROC_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "model/model.h"

struct proc_listing_row {
	uint64_t addr;
	char *bytes; /* "55 48 89 e5" */
	char *text;  /* "mov rbp, rsp"; not sanitized */
	char *file;  /* source file, NULL when unknown; not sanitized */
	uint32_t line;
	double *values; /* n_columns samples (into one block of the listing) */
};

struct proc_listing {
	char *procedure; /* the symbol's name */
	const char *image; /* the ELF image (a model string) */
	uint64_t entry, size;
	uint32_t *columns; /* the exclusive model columns, one per event */
	size_t n_columns;
	double *totals;    /* per column: the procedure's samples */
	struct proc_listing_row *rows;
	size_t n_rows;
	size_t hottest;    /* row of the hottest instruction (first event) */
	bool has_hottest;
	double *rows_block; /* owned: the rows' values */
};

/* The first procedure node named `name` (as the tree shows it), or
 * MODEL_NONE. */
uint32_t proc_listing_find(const struct model *m, const char *name);

/* The procedure node at or above `node` (a function of a DCPI image), or
 * MODEL_NONE. */
uint32_t proc_listing_procedure_of(const struct model *m, uint32_t node);

/* The listing of procedure node `fn` into *out (proc_listing_free).
 * STATUS_UNSUPPORTED for a database whose reader has no listing, and the
 * errors of the reader's listing (the image not found, a machine Capstone is not
 * set up for, the bytes not in the file); STATUS_NOMEM. */
enum status proc_listing_build(const struct model *m, uint32_t fn,
			  struct proc_listing **out, struct error *err);

void proc_listing_free(struct proc_listing *l);

/* How the instruction part of a listing row ("ADDR: BYTES INSTRUCTION")
 * fits a given width: the instruction is what dcpilist and perf annotate
 * show, the bytes are optional, so they are shortened (whole bytes and an
 * ellipsis) and then dropped before any instruction is cut. */
struct proc_listing_fit {
	int addr_w;  /* hex digits of the widest address (addresses are
			right-aligned to it) */
	int bytes_w; /* the bytes column's width; 0: no bytes column */
	int text_w;  /* the widest instruction text */
	bool bytes_cut; /* some row's bytes are wider than bytes_w */
};

/* The narrowest shortened bytes column: two bytes and an ellipsis. */
#define PROC_LISTING_BYTES_MIN 6

/* The layout of l's instruction part in WIDTH columns: every byte when
 * "ADDR: BYTES TEXT" of the widest row fits, else a bytes column of the
 * room the widest instruction leaves (at least PROC_LISTING_BYTES_MIN),
 * else none.  Instruction text is ASCII (Capstone's): a byte a column. */
void proc_listing_fit(const struct proc_listing *l, int width,
		      struct proc_listing_fit *out);

/* How many leading characters of BYTES ("48 89 c1 ...") to show in a
 * column of W: all of them when they fit, else the whole bytes that fit
 * with one column left for an ellipsis (0 when not even one does). */
size_t proc_listing_bytes_keep(const char *bytes, int w);

#endif
