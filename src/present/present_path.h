/* present_path: the call path of a node, from the outermost context down
 * to it, as every output shows it: "main > solve > loop at x.c:12" in the
 * trace pane, the detail line and `callscope trace`, "main->solve" in
 * Extra-P's callpaths.  One walk up the parents and one join: linear in
 * the path's length, however deep.  No curses here. */
#ifndef CALLSCOPE_PRESENT_PATH_H
#define CALLSCOPE_PRESENT_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model;
struct view;

/* What names a node in a path: its label (model_node_label: the name with
 * the line, the loop's place, ...) or its bare name (Extra-P's
 * callpaths). */
enum present_path_names { PRESENT_PATH_LABELS, PRESENT_PATH_NAMES };

/* The names of the model nodes from the outermost one below the root
 * (node 0) down to `node`, outermost first, in a heap array of *n heap
 * strings (present_path_free).  Node 0 and MODEL_NONE give an empty path:
 * a non-NULL array with *n 0.  NULL when out of memory. */
char **present_node_parts(const struct model *m, uint32_t node,
			  enum present_path_names names, size_t *n);
void present_path_free(char **parts, size_t n);

/* Those names joined by `sep` (" > ", "->"); "" for the root.  Heap
 * string, NULL when out of memory. */
char *present_node_path(const struct model *m, uint32_t node, const char *sep,
			enum present_path_names names);

/* The labels (view_node_label) of view row `node` and its ancestors below
 * the view's root, outermost first, joined by `sep`.  With `max_bytes` not
 * 0, only the nearest ancestors whose labels make about that many bytes
 * (a deep tree's path is shown by its end).  Heap string, NULL when out of
 * memory. */
char *present_view_path(const struct view *v, uint32_t node, const char *sep,
			size_t max_bytes);

/* HPCToolkit v4 records a source file that hpcprof copied into the
 * database by its copy's path, relative to the database: "src/" and the
 * file's absolute path (FORMATS.md, Source File Specification: pPath
 * "Absolute, or relative to the root database directory", flag `copied`).
 * The viewer's detail lines and trace readout show the path the program
 * was built from; `report` keeps the path as recorded.  True when FILE
 * (a path, or text starting with one) is such a copy's path in `m`. */
bool present_v4_copied(const struct model *m, const char *file);

/* TEXT (a name or a path of names) with each v4 copied path, at the start
 * or after a space, written as the absolute path it is a copy of.  Heap
 * string, NULL when out of memory. */
char *present_built_paths(const struct model *m, const char *text);

#endif
