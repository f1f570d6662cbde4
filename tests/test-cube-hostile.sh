#!/bin/sh
# Cube files from tests/gen_cube.py: valid variants (plain and ZCUBEX
# rows, big-endian, gzip-compressed anchor, dense index, the Cube 4.8
# checksum bug, a SCALE_FUNC metric beside the others, shown as a column
# of ranking codes without a warning: tests/test-cube-scalefn.sh checks
# its values) give the generator's answers (computed apart from the
# reader); damaged ones (bad checksums, truncated tars, absurd counts,
# corrupt members, hostile XML) exit 2 with one line naming the file, never
# a crash or a hang.
. "${top_srcdir:-.}/tests/test-lib.sh"
gen="$top_srcdir/tests/gen_cube.py"
[ -x /usr/bin/python3 ] || { echo "python3 missing"; exit 1; }
seed=0
for opts in "" "--zlib" "--big-endian" "--gzip-anchor --zlib" "--dense" \
	"--cube48 --zlib" "--locs 1 --cnodes 1" "--cnodes 300 --locs 9 --zlib" \
	"--scale-func" "--scale-func --big-endian --zlib"; do
	seed=$((seed + 1))
	f="$tmp/v$seed.cubex"
	# shellcheck disable=SC2086
	/usr/bin/python3 "$gen" "$f" --seed $seed $opts --answers "$tmp/a.json" ||
		{ echo "FAIL: gen $opts"; status=1; continue; }
	if ! timeout 60 "$cs" report "$f" --format json --metric all >"$tmp/r.json" 2>"$tmp/err"; then
		echo "FAIL: report $opts: $(cat "$tmp/err")"; status=1; continue
	fi
	/usr/bin/python3 - "$tmp/r.json" "$tmp/a.json" "$opts" <<'PY' || status=1
import json, math, sys
rep = json.load(open(sys.argv[1])); ans = json.load(open(sys.argv[2]))
cols = [(c["metric"], c["kind"]) for c in rep["columns"]]
bad = n = 0
for node in rep["nodes"]:
    if node["id"] is None:
        continue
    a = ans[str(node["id"])]
    for (m, k), v in zip(cols, node["values"]):
        if m == "scaling" and m not in a:
            continue  # test-cube-scalefn.sh
        want = a[m][0 if k == "inclusive" else 1]
        got = 0.0 if v is None else v
        n += 1
        scale = abs(a[m][0])
        if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9 * scale + 1e-12):
            bad += 1
            if bad < 5:
                print(f"FAIL {sys.argv[3]}: cnode {node['id']} {m} {k}: {got} != {want}")
if len([x for x in rep["nodes"] if x["id"] is not None]) != len(ans):
    print(f"FAIL {sys.argv[3]}: node count"); bad += 1
print(f"{sys.argv[3] or 'plain'}: {n} values, {bad} mismatches")
sys.exit(1 if bad else 0)
PY
	case "$opts" in
	--scale-func*)
		# its metric shown (two columns of ranking codes), no warning
		n=$(grep -o '"metric":"scaling","kind":"[a-z]*"' "$tmp/r.json" | wc -l)
		[ "$n" = 2 ] && [ ! -s "$tmp/err" ] ||
			{ echo "FAIL: $opts: $n scaling columns, warnings: $(cat "$tmp/err")"; status=1; }
		;;
	esac
done
for kind in checksum trunc-header trunc-member trunc-end count ztable xml \
	entity region no-anchor zrow tree-index dtype-size endian; do
	f="$tmp/h-$kind.cubex"
	/usr/bin/python3 "$gen" "$f" --hostile "$kind" --zlib || { echo "FAIL: gen $kind"; status=1; continue; }
	for cmd in "report --metric all" info hotpath; do
		# shellcheck disable=SC2086
		timeout 20 "$cs" $cmd "$f" >/dev/null 2>"$tmp/err"
		rc=$?
		lines=$(wc -l <"$tmp/err")
		if [ "$cmd" = info ] && [ $rc -eq 0 ] && { [ "$kind" = zrow ] || [ "$kind" = tree-index ]; }; then
			continue # lazily read rows: info reads no value
		fi
		if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q "h-$kind.cubex" "$tmp/err"; then
			echo "FAIL: $cmd $kind: exit $rc, $lines lines: $(head -c 300 "$tmp/err")"
			status=1
		fi
	done
done
[ $status -eq 0 ] && echo "cube generator: valid variants and 14 hostile kinds OK"
exit $status
