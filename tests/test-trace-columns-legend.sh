#!/bin/sh
# `callscope trace --from --to --columns` in text ends with a legend of the
# context ids its cells print: per id its cells, share and name, checked by
# tests/check_trace_legend.py against the printed cells and the names
# `trace --at` gives at those cells (critique b9: main printed raw ids with
# no key).  The GPU runs at depth 1 also check that `trace --at --depth`
# on a GPU line gives the kernel or copy the window's cells (and the
# viewer) show there (main gave the launching thread: ctx 2 where the cell
# read 21).  Skipped without the corpus.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -d "$corpus" ] || { echo "no $corpus: skipped"; exit 77; }
[ -x "$py" ] || { echo "python3 missing"; exit 1; }
v4=hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/issue-233
rpd=rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result.rpd
ns=nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
otf=otf2/pipit/pipit/tests/data/ping-pong-otf2/traces.otf2
gpu4=hpctoolkit-v4/hpctoolkit/tests/data/dbase/loops-cuda-nvidia-t.d
n=0
# DB FROM_NS TO_NS COLUMNS [DEPTH]
while read -r db args; do
	[ -e "$corpus/$db" ] || { echo "no $corpus/$db: not checked"; continue; }
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$py" "$top_srcdir/tests/check_trace_legend.py" "$cs" "$corpus/$db" \
		$args || fail "$db $args"
done <<LIST
$v4 0 8000000000 40 2
$v4 0 8000000000 60
$rpd 0 7000000000 50 1
$rpd 0 7000000000 50
$ns 0 2000000000 50 1
$ns 0 2000000000 50
$otf 0 200000000 50 1
$gpu4 0 20000000 40 1
LIST
[ "$n" -gt 0 ] || { echo "no corpus database: skipped"; exit 77; }
# the JSON form is unchanged: no legend
"$cs" trace "$corpus/$otf" --from +0 --to +1s --columns 5 --format json |
	"$py" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(list(d) != ["lines"])' ||
	fail "the JSON window has keys other than lines"
exit $status
