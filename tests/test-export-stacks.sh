#!/bin/sh
# `callscope export --to folded|speedscope|pprof|chrome-trace` read back by
# tests/check_export.py (Python's json and plain parsing; pprof through
# `protoc --decode`, Google's decoder): the stacks add up
# to the root's inclusive value and, per function, to the generator's own
# flat exclusive values (gen-v4db --answers) or to the flat report's (corpus
# HPCToolkit v4, Cube, .rpd, Nsight and OTF2 files); speedscope's document agrees
# with the folded stacks; the Trace Event JSON has every trace line with as
# many events as `callscope info` counts.  A 2,000-context database of 1,000
# level chains exports in one pass; hostile names reach neither folded
# stacks nor the terminal raw; bad requests are one line and exit 1 or 2.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -x "$py" ] || exit 77
check="$py $top_srcdir/tests/check_export.py $cs"
export TMPDIR="$tmp"

"$gen" -o "$tmp/g1" --seed 3 --contexts 400 --threads 2 --ranks 2 \
	--answers "$tmp/g1.json" >/dev/null || exit 1
"$gen" -o "$tmp/g2" --seed 11 --contexts 2000 --metrics 3 --no-trace \
	--answers "$tmp/g2.json" >/dev/null || exit 1
$check --answers "$tmp/g1.json" "$tmp/g1" --answers "$tmp/g2.json" "$tmp/g2" ||
	fail "generated databases"
"$py" "$top_srcdir/tests/gen_nsight.py" "$tmp/ns" --kernels 500 --ranks 1 \
	>/dev/null || exit 1
$check "$tmp/ns/rank0.sqlite" || fail "generated Nsight export"

# deep: one chain of 1,000 contexts, no recursion in the walk
"$gen" -o "$tmp/deep" --seed 5 --depth-chain 1000 --no-trace >/dev/null ||
	exit 1
"$cs" export "$tmp/deep" --to folded >"$tmp/deep.txt" 2>"$tmp/deep.err" ||
	fail "deep chain: exit $?"
frames=$(awk '{n = split($0, a, ";"); if (n > m) m = n} END {print m + 0}' \
	"$tmp/deep.txt")
[ "$frames" -ge 400 ] || fail "deep chain: $frames frames at most"

# hostile names: no control character in folded or speedscope output
"$gen" -o "$tmp/h" --seed 4 --contexts 300 --hostile >/dev/null || exit 1
for to in folded speedscope chrome-trace; do
	"$cs" export "$tmp/h" --to $to >"$tmp/h.$to" 2>"$tmp/h.err" ||
		fail "hostile $to: exit $?"
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$tmp/h.$to"; then
		fail "hostile $to: a control character in the output"
	fi
done
"$py" -c 'import json,sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' \
	"$tmp/h.speedscope" "$tmp/h.chrome-trace" || fail "hostile: not JSON"

# -o writes the file; what goes to stdout is the same
"$cs" export "$tmp/g1" --to folded -o "$tmp/out.txt" 2>/dev/null ||
	fail "-o: exit $?"
"$cs" export "$tmp/g1" --to folded 2>/dev/null | cmp -s - "$tmp/out.txt" ||
	fail "-o and stdout differ"

# refusals: one line each
expect() { # CODE TEXT ARGS...
	code=$1 text=$2
	shift 2
	"$cs" export "$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ "$rc" -eq "$code" ] || fail "export $*: exit $rc, not $code"
	grep -q -e "$text" "$tmp/e" || fail "export $*: no '$text' in: $(cat "$tmp/e")"
	[ "$(wc -l <"$tmp/e")" -eq 1 ] || fail "export $*: not one line: $(cat "$tmp/e")"
	[ -s "$tmp/o" ] && fail "export $*: wrote to stdout"
}
expect 1 "--to takes folded, speedscope, chrome-trace, pprof" "$tmp/g1" --to svg
expect 1 "--to folded, speedscope, chrome-trace, pprof is needed" "$tmp/g1"
expect 2 "split into stacks" "$tmp/ns/rank0.sqlite" --to folded \
	--metric 'Duration (ns):Mean'
expect 2 "split into stacks" "$tmp/ns/rank0.sqlite" --to speedscope \
	--metric 'Duration (ns):Max (E)'
expect 1 "no metric 'nosuch'" "$tmp/g1" --to folded --metric nosuch
expect 2 "no trace lines to export" "$tmp/g2" --to chrome-trace
expect 2 "cannot write" "$tmp/g1" --to folded -o "$tmp/no/such/dir/x"
"$cs" export "$tmp/nosuch" --to folded >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] || fail "a missing database: not exit 2"

if [ -d "$corpus" ]; then
	# shellcheck disable=SC2046
	$check $(find "$corpus/hpctoolkit-v4" -name meta.db |
		sed 's,/meta.db$,,' | sort) \
		$(find "$corpus/cube" -name '*.cubex' | sort) \
		$(find "$corpus/rocpd-rpd" "$corpus/nsys-sqlite" "$corpus/otf2" \
			-name '*.rpd' -o -name '*.sqlite' -o -name '*.otf2' | sort) \
		>"$tmp/corpus.txt" ||
		{ cat "$tmp/corpus.txt"; fail "corpus"; }
	grep -c '^ok ' "$tmp/corpus.txt"
else
	echo "no $corpus: corpus part skipped"
fi
exit $status
