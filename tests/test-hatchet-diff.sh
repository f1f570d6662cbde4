#!/bin/sh
# test-hatchet-diff: `callscope diff` against hatchet's graph-frame
# subtraction (gf_new - gf_base), an independent implementation, on pairs
# of corpus HPCToolkit v4 databases of one program, and an experiment.xml
# database against a variant of it (tests/check_hatchet_diff.py
# compares every node's inclusive delta, matched by path; doc/compare.md
# lists the pairs and the differences of tree matching).  Skipped (77)
# without the corpus or without a hatchet: HATCHET_PATH names a directory
# holding the `hatchet` package, else an installed one is imported.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bin=${top_builddir:-$top}
shared="$top/../shared"
v4=${CALLSCOPE_CORPUS:-$shared/corpus}/hpctoolkit-v4
[ -d "$v4" ] || { echo "no corpus at $v4: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME="$tmp/cfg" XDG_CACHE_HOME="$tmp/cache"
t=$v4/hpctoolkit/tests/data/dbase
m=$v4/hpcviewer.e4/tests/resources/metadb
# experiment.xml: hatchet's cpi database and a variant of it (every
# context's values times 1.0..2.0, MPI_Init's call removed), both ways
chk="$top/tests/check_hatchet_diff.py"
cpi=${CALLSCOPE_CORPUS:-$shared/corpus}/hpctoolkit-xml/hatchet/hatchet/tests/data/hpctoolkit-cpi-database
/usr/bin/python3 "$chk" --xml-variant "$cpi" "$tmp/cpi2"
# the same program with and without hpcstruct's structure (loops, inlined
# code) both ways; small with and without; the sort program's two
# databases; hpcviewer's d.foo and d.x
exec /usr/bin/python3 "$chk" "$bin/callscope" \
	"$cpi" "$tmp/cpi2" "$tmp/cpi2" "$cpi" \
	"$t/loops-cputime-t.d" "$t/loops-cputime-t.nostruct.d" \
	"$t/loops-cputime-t.nostruct.d" "$t/loops-cputime-t.d" \
	"$t/small.d" "$t/small.nostruct.d" \
	"$v4/db2pprof" "$v4/db2pprof/hpctoolkit-sort2-database" \
	"$m/d.foo" "$m/d.x"
