/* uninstalled: the files that a callscope run from its build tree uses
 * and an installed one does not have (the demo database that `make demo`
 * writes, the source tree's themes), found without a build path compiled
 * into the program: an environment variable names each, else the folder
 * of that name beside the program (/proc/self/exe), which is where `make
 * demo` writes the demo and, in a build in the source tree, where themes/
 * is.  An installed program has neither folder beside it. */
#ifndef CALLSCOPE_UI_UNINSTALLED_H
#define CALLSCOPE_UI_UNINSTALLED_H

/* $CALLSCOPE_DEMO when set and not empty, else demo/ beside the program
 * when it is a directory, else NULL.  The string lives as long as the
 * process. */
const char *uninstalled_demo(void);

/* $CALLSCOPE_THEME_DIR when set and not empty, else themes/ beside the
 * program when it is a directory, else NULL.  The string lives as long
 * as the process. */
const char *uninstalled_themes(void);

#endif
