/* tree_label: a tree row's label in the columns it has: cut in its
 * middle, so that names sharing a start stay told apart; a metric's name
 * in a column header (the tree pane, pane_tree.c). */
#ifndef CALLSCOPE_UI_TREE_LABEL_H
#define CALLSCOPE_UI_TREE_LABEL_H

/* TEXT (sanitized here) in at most WIDTH display columns: whole when it
 * fits, else its start and its end around an ellipsis, so that names
 * that share a start ("loop at SteadyStateSolver.cpp:93", ":126") stay
 * told apart by their end, a number at the head's cut kept whole
 * ("thread 1230493…MPI Rank 0"); a signature ("f(int, long)") is left whole
 * for screen_text to cut at its end.  NULL when out of memory. */
char *middle_cut(const char *text, int width);

/* A metric's NAME in ROOM columns for a column header, heap: whole, else
 * cut with an ellipsis, at its start when it has a colon ("GKER:STMEM"
 * -> "…STMEM": the part after it tells the metric's siblings apart),
 * else at its end ("WALLCL…").  NULL when out of memory. */
char *metric_name_fit(const char *name, int room);

#endif
