/* check: invariant checks in SQLite's habit (sqliteInt.h: assert, ALWAYS,
 * NEVER).  A check states what the code relies on and that no input can
 * break, only a bug: corrupt input is a status (core/status.h), never a
 * failed check.  Checks are compiled in builds configured with
 * --enable-checks, which --enable-debug, --enable-sanitizers (the CI
 * build of .ci/run) and --enable-fuzzing turn on (config.h then defines
 * CALLSCOPE_CHECKS); a failed check prints the condition and its place on
 * stderr and aborts.  In a release build they are compiled out: CHECK's
 * condition is not evaluated at all (so it must have no side effect), and
 * ALWAYS(X) and NEVER(X) are plain (X):
 *
 *     CHECK(node < m->n_nodes);            an invariant
 *     if (NEVER(parent >= b->m->n_nodes))  a defensive branch believed
 *             return MODEL_NONE;           unreachable: kept in release,
 *                                          a failure in a checked build
 *
 * Depends on libc only. */
#ifndef CALLSCOPE_CHECK_H
#define CALLSCOPE_CHECK_H

/* Print "callscope: check failed: EXPR (FILE:LINE)" and abort. */
_Noreturn void check_failed(const char *expr, const char *file, int line);

#ifdef CALLSCOPE_CHECKS
#define CHECK(x) ((x) ? (void)0 : check_failed(#x, __FILE__, __LINE__))
#define ALWAYS(x) ((x) ? 1 : (check_failed(#x, __FILE__, __LINE__), 0))
#define NEVER(x) ((x) ? (check_failed(#x, __FILE__, __LINE__), 1) : 0)
#else
#define CHECK(x) ((void)0)
#define ALWAYS(x) (x)
#define NEVER(x) (x)
#endif

#endif
