#!/bin/sh
# Every experiment.xml database of ../shared/corpus (hpctoolkit-xml and
# hpctoolkit-sparse-2020; the .tar.gz samples extracted into a temporary
# directory) opens, and its tree, values and traces equal what
# tests/check_xml_corpus.py computes from the files on its own.  Then
# corrupted copies (truncated XML, unbalanced tags, a huge attribute, an
# entity, bad binary magic, a table offset past the end, a truncated
# metric-db) are refused with exit status 2 and one line naming the file.
. "${top_srcdir:-.}/tests/test-lib.sh"
corpus="$shared/corpus/hpctoolkit-xml"
[ -d "$corpus" ] || { echo "no $shared: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
check="$top_srcdir/tests/check_xml_corpus.py"

mkdir "$tmp/x"
for tgz in $(find "$corpus" -name '*.tar.gz' | sort); do
	tar -xzf "$tgz" -C "$tmp/x" || { echo "FAIL: cannot extract $tgz"; status=1; }
done
dbs=$( (find "$corpus" "$shared/corpus/hpctoolkit-sparse-2020" "$tmp/x" \
	-name experiment.xml -exec dirname {} \; ;
	find "$corpus" -name '*.xml' ! -name experiment.xml) | sort)
n=0
for db in $dbs; do
	n=$((n + 1))
	case $db in
	# no values at all: bug-empty and bug-nometric are hpcviewer's
	# regression samples for that; kripke's metric-db files hold zeros
	*/bug-empty | */bug-nometric | */hpctoolkit-kripke-trace-database)
		python3 "$check" "$cs" "$db" --empty || status=1 ;;
	*)
		python3 "$check" "$cs" "$db" || status=1 ;;
	esac
done
[ "$n" -ge 19 ] || { echo "FAIL: only $n databases found"; status=1; }

expect_reject() { # DB WORD: exit 2, one stderr line naming a file, saying WORD
	"$cs" report "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
	   ! grep -q "$2" "$tmp/err" || ! grep -q "$3" "$tmp/err"; then
		echo "FAIL: $1: exit $rc, stderr: $(cat "$tmp/err") (want $2, $3)"
		status=1
	fi
}

cpi="$corpus/hatchet/hatchet/tests/data/hpctoolkit-cpi-database"
inl="$corpus/hpcviewer.e4/tests/resources/xml/inline.xml.db"
copy() { rm -rf "$tmp/c"; cp -r "$1" "$tmp/c"; chmod -R u+w "$tmp/c"; }
x="$tmp/c/experiment.xml"
copy "$cpi"; head -c 9000 "$cpi/experiment.xml" >"$x"
expect_reject "$tmp/c" "experiment.xml" "line"
copy "$cpi"; sed 's|</PF>|</C>|' "$cpi/experiment.xml" >"$x"
expect_reject "$tmp/c" "experiment.xml" "mismatched tag"
copy "$cpi"; python3 -c "
import sys; t = open(sys.argv[1]).read()
open(sys.argv[1], 'w').write(t.replace('<Header n=\"cpi\">',
    '<Header n=\"' + 'x' * 2000000 + '\">'))" "$x"
expect_reject "$tmp/c" "experiment.xml" "longer than"
copy "$cpi"; sed 's|^\]>|<!ENTITY a "aaaa">]>|' "$cpi/experiment.xml" >"$x"
expect_reject "$tmp/c" "experiment.xml" "entity"
copy "$cpi"; sed 's|<HPCToolkitExperiment version="2.0">|<HPCToolkitExperiment version="9.1">|' "$cpi/experiment.xml" >"$x"
expect_reject "$tmp/c" "experiment.xml" "version 9.1"
copy "$cpi"; f=$(ls "$tmp/c"/*.metric-db | head -1)
printf 'HPCPROF-metricXX' | dd of="$f" conv=notrunc 2>/dev/null
expect_reject "$tmp/c" "metric-db" "magic"
copy "$cpi"; f=$(ls "$tmp/c"/*.metric-db | head -1)
head -c 100 "$cpi/$(basename "$f")" >"$f"
expect_reject "$tmp/c" "metric-db" "."
copy "$inl"; printf '\377\377\377\377' | dd of="$tmp/c/experiment-1.mdb" bs=1 seek=20 conv=notrunc 2>/dev/null
expect_reject "$tmp/c" "experiment-1.mdb" "."
copy "$inl"; printf '\377\377\377\377' | dd of="$tmp/c/experiment.mt" bs=1 seek=20 conv=notrunc 2>/dev/null
expect_reject "$tmp/c" "experiment.mt" "."
exit $status
