/* trace_pane.h: what the files of the trace pane share (ui/pane_trace.c
 * the keys, mouse and life cycle; ui/trace_draw.c the header, labels,
 * grid and axis; ui/trace_detail.c the cursor's lines; ui/trace_legend.c
 * the legend, statistics and summary views).  Private to those files. */
#ifndef CALLSCOPE_TRACE_PANE_H
#define CALLSCOPE_TRACE_PANE_H

#include <stdbool.h>
#include <stdint.h>

#include "pane.h"
#include "views/trace_view.h"

#define LABEL_MAX 32

enum trace_mode {
	MODE_MAIN,
	MODE_DEPTH,
	MODE_SUMMARY,
	MODE_STATS,
	MODE_COUNT
};


extern const char *const trace_mode_names[];

struct trace_pane {
	struct trace_view *view;
	struct trace_grid grid;
	enum trace_mode mode;
	bool hide_empty;
	char *filter;
	/* what the grid was computed for: recomputed only when it changes */
	struct trace_window key;
	uint32_t key_rows, key_cols, key_line;
	enum trace_mode key_mode;
	bool valid;
	/* the last layout, for the keys and the mouse */
	uint32_t rows, cols; /* grid rows (lines, not screen rows) */
	int grid_y, grid_x, grid_h; /* grid origin in the pane, screen rows */
	/* the details of the interval at the cursor, kept for that one */
	uint32_t det_line;
	uint64_t det_index;
	char *det_text;
	/* colours */
	uint32_t n_colors; /* palette size; 0 = letters */
	bool half;         /* two grid rows per screen row possible */
	uint32_t per;      /* grid rows per screen row in this frame (1, 2) */
	short pair_base;
	/* the window's functions, most first, up to the palette's size:
	 * their name hashes and the colours they take (the hash's colour,
	 * or the next one free: no two share one in the legend) */
	uint32_t map_hash[32], map_color[32];
	uint32_t n_map;
	/* a line has instants: the cursor's lines get one more, for the
	 * instant in its cell beside the interval's details */
	bool instants;
	bool hide_instants; /* the instants key: marks not drawn */
};

/* colours (trace_draw.c) */
void trace_setup_colors(struct pane_env *env, struct trace_pane *t);
/* one screen cell of colours `up` and `down` (0 idle) */
void trace_draw_cell(struct trace_pane *t, int y, int x, uint32_t up,
		     uint32_t down, bool dim, bool cursor);
/* the colour of frame context `ctx` (0 idle) in this window: the map's,
 * else its hash's (trace_legend.c) */
uint32_t trace_pane_color(const struct trace_pane *t, const struct model *m,
			  uint32_t ctx);
/* the map from the window's shares over every line, most first */
void trace_map_colors(struct pane_env *env, struct trace_pane *t);
/* the pane's draw operation */
void trace_pane_draw(struct pane_env *env, struct pane *pane, struct rect r);

/* helpers (pane_trace.c) */
char *trace_ctx_label(const struct model *m, uint32_t ctx);
void trace_fmt_rel(const struct pane_env *env, uint64_t t, char *buf,
		   size_t size);
const char *trace_group_name(const struct model *m, enum timeline_group g);

/* the legend line, the statistics view, the summary view
 * (trace_legend.c) */
void trace_draw_legend(struct pane_env *env, struct trace_pane *t, int y,
		       int x, int w);
void trace_draw_stats(struct pane_env *env, struct trace_pane *t, int y,
		      int x, int w, int screen_rows);
void trace_draw_summary(struct pane_env *env, struct trace_pane *t, int y,
			int x, int screen_rows);

/* the cursor's lines (trace_detail.c) */
void trace_draw_cursor_info(struct pane_env *env, struct trace_pane *t,
			    int y, int x, int w, int lines);

#endif
