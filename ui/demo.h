/* demo: the database `callscope` opens without an argument (see demo.c).
 * Knows nothing of curses. */
#ifndef CALLSCOPE_UI_DEMO_H
#define CALLSCOPE_UI_DEMO_H

/* The demo database's path, or NULL when there is none (the build tree
 * has no demo yet and the program is not installed, or the installed
 * generator failed).  The string lives as long as the process. */
const char *demo_database(void);

#endif
