#!/bin/sh
# Extra-Prof sets written by tests/check_extrap_prof.py, their values
# computed there by hand from Extra-P's reader rules (subtrees dropped
# where the children exceed the node, kernels and async copies not
# subtracted, merged nodes, per-thread lists, names, GPU and energy
# metrics, the warning naming the short series).  Needs no ../shared.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 "$top_srcdir/tests/check_extrap_prof.py" "$top_builddir/callscope" "$tmp"
