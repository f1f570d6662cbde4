/* partial: the viewer on a partial model (a GPU run shown while its files
 * are scanned, formats/open_later.h): the progress note while the scan
 * runs, the swap to a better partial model each time the scan offers one
 * (more files exact) and to the complete model when it ends, and the state of the
 * views (the view shown, each view's expanded rows and selection, the
 * sort, the panes open over the tree) carried over by row path
 * (views/view_path.h), since the row ids of the two models differ. */
#ifndef CALLSCOPE_UI_PARTIAL_H
#define CALLSCOPE_UI_PARTIAL_H

#include <stdbool.h>

struct app;
struct ui_carry;

/* The viewer's model is partial while app->later runs: its note on the
 * status line (the frame ticks meanwhile, frame.c: a redraw without a
 * key, so that the progress and the end show). */
void partial_start(struct app *app);

/* Look at the background open (wait for its end when `wait`): the note
 * redrawn while it runs; when it ends, false after its error is shown
 * (the partial model stays), true when the complete model is in
 * app->reopen->complete with the views' state in app->reopen->carry (the
 * viewer then quits to be run on it). */
bool partial_poll(struct app *app, bool wait);

/* Wait for the scan's next partial model (a fill-in: more files exact)
 * or its end, and swap to it as partial_poll does: true when the viewer
 * quits to be run on it; false when there is no scan or it failed. */
bool partial_wait_better(struct app *app);

/* Whether pane `ops` must wait for the complete model (the trace: the
 * partial model has no lines); then the status line says so. */
struct pane_ops;
bool partial_refuses(struct app *app, const struct pane_ops *ops);

/* Apply state carried from the partial model's viewer (after the first
 * pane is up), then free it. */
void partial_apply(struct app *app, struct ui_carry *c);

/* Free carried state that was not applied.  NULL is fine. */
void partial_carry_free(struct ui_carry *c);

#endif
