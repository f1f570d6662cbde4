/* natural: comparing labels in natural order: runs of digits compare as
 * numbers (leading zeros aside: "RANK 2" before "RANK 10"), the rest byte
 * by byte; the threads pane's sort by label.  libc only. */
#ifndef CALLSCOPE_CORE_NATURAL_H
#define CALLSCOPE_CORE_NATURAL_H

/* <0, 0 or >0 as `a` comes before, with or after `b`. */
int natural_cmp(const char *a, const char *b);

#endif
