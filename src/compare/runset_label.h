/* runset_label: short labels for the runs of a set, from their paths, for
 * the viewer's run columns (a column 9 wide cannot show a path): the
 * path components every run shares at the start and at the end are
 * dropped, then the characters every remaining text shares at its start
 * (back to a separator, so "kripke.p16" and "kripke.p32" keep their "p")
 * and at its end (from a separator: ".r1", ".d"), so that
 * /data/kripke.p16.r1 and /data/kripke.p32.r1 become "p16" and "p32".
 * Where that leaves a run nothing, or two runs one label, every run is
 * "run N" instead.  A separator is an ASCII byte that is not a letter or
 * a digit; labels are cut at bytes only there, so UTF-8 stays whole.
 * The labels are the paths' bytes: the caller sanitises them for a
 * terminal as any name.  No curses here. */
#ifndef CALLSCOPE_RUNSET_LABEL_H
#define CALLSCOPE_RUNSET_LABEL_H

#include <stdbool.h>
#include <stdint.h>

/* Fill out[0..n) with malloc'd labels of the runs at paths[0..n) (one
 * run: "run 1").  false when out of memory (out[] then all NULL). */
bool runset_labels(const char *const *paths, uint32_t n, char **out);

#endif
