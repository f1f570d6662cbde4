#!/bin/sh
# Every HPCToolkit v4 database in ../shared/corpus opens; where
# ../shared/expected has reference values, callscope's report and trace
# output equal them; the pre-release 2022 layout and a trace.db without
# meta.db are rejected with exit status 2 and one line naming the file.
. "${top_srcdir:-.}/tests/test-lib.sh"
[ -d "$shared/corpus/hpctoolkit-v4" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }

for meta in $(find "$shared/corpus/hpctoolkit-v4" -name meta.db | sort); do
	db=$(dirname "$meta")
	rel=${db#"$shared/corpus/hpctoolkit-v4/"}
	for fmt in text csv json; do
		if ! "$cs" report "$db" --format $fmt >"$tmp/out" 2>"$tmp/err"; then
			echo "FAIL: report --format $fmt $rel: $(cat "$tmp/err")"
			status=1
		fi
	done
	"$cs" info "$db" >/dev/null 2>"$tmp/err" || { echo "FAIL: info $rel: $(cat "$tmp/err")"; status=1; }
	for view in bottom-up flat; do
		"$cs" report "$db" --view $view --format json >/dev/null 2>"$tmp/err" ||
			{ echo "FAIL: report --view $view $rel: $(cat "$tmp/err")"; status=1; }
	done
	"$cs" hotpath "$db" >/dev/null 2>"$tmp/err" || { echo "FAIL: hotpath $rel: $(cat "$tmp/err")"; status=1; }
	ref="$shared/expected/hpctoolkit-v4/$rel.json"
	if [ -f "$ref" ]; then
		python3 "$top_srcdir/tests/check_v4_answers.py" "$cs" "$db" "$ref" || status=1
	fi
done

expect_reject() { # DB WORD: exit 2, one stderr line that names DB's file and says WORD
	"$cs" report "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qi "$2" "$tmp/err"; then
		echo "FAIL: $1: exit $rc, stderr: $(cat "$tmp/err")"
		status=1
	else
		echo "rejected as expected: $(cat "$tmp/err")"
	fi
}
for meta in $(find "$shared/corpus/hpctoolkit-v4-prerelease-2022" -name meta.db | sort); do
	expect_reject "$(dirname "$meta")" "meta.db"
done
oom="$shared/corpus/hpctoolkit-v4/hpcviewer.e4/tests/resources/metadb/out.of.memory"
[ -d "$oom" ] && expect_reject "$oom" "meta.db"
expect_reject "$tmp/does-not-exist" "does-not-exist"
exit $status
