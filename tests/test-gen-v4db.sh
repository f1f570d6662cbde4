#!/bin/sh
# Generates small databases with tests/gen-v4db and checks them with
# tests/check_v4db.py (python3, standard library only): headers, footers,
# section bounds and alignment, cct.db/profile.db agreement, the answers'
# propagation identities, trace order and probes.  Also checks that one seed
# always gives byte-identical files and that another seed does not.
set -eu
: "${top_srcdir:=.}" "${top_builddir:=.}"
gen="$top_builddir/tests/gen-v4db"
checker="$top_srcdir/tests/check_v4db.py"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-gen-v4db.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$gen" -o "$tmp/a" --seed 7 --contexts 400 --metrics 3 --ranks 2 --threads 3 \
	--samples 1500 --empty-lines 1 --yaml --answers "$tmp/a.json" >/dev/null
python3 "$checker" --strict "$tmp/a" "$tmp/a.json"
test -s "$tmp/a/metrics/default.yaml"
grep -q 'standard: \*CPUTIMEx20_x28_secx29_-sum-x5b_0x0x5d_-execution' "$tmp/a/metrics/default.yaml"

# determinism: same seed, byte-identical files
"$gen" -o "$tmp/b" --seed 7 --contexts 400 --metrics 3 --ranks 2 --threads 3 \
	--samples 1500 --empty-lines 1 --yaml --answers "$tmp/b.json" >/dev/null
for f in meta.db profile.db cct.db trace.db metrics/default.yaml; do
	cmp "$tmp/a/$f" "$tmp/b/$f"
done
cmp "$tmp/a.json" "$tmp/b.json"

# another seed, another database
"$gen" -o "$tmp/c" --seed 8 --contexts 400 --metrics 3 --ranks 2 --threads 3 \
	--samples 1500 --answers "$tmp/c.json" >/dev/null
if cmp -s "$tmp/a/meta.db" "$tmp/c/meta.db"; then
	echo "seeds 7 and 8 gave the same meta.db"
	exit 1
fi
python3 "$checker" "$tmp/c" "$tmp/c.json"

# single thread (no application-thread entry), one metric, no trace, no cct
"$gen" -o "$tmp/d" --seed 3 --contexts 60 --metrics 1 --ranks 1 --threads 1 \
	--no-trace --no-cct --answers "$tmp/d.json" >/dev/null
test ! -e "$tmp/d/trace.db" && test ! -e "$tmp/d/cct.db"
python3 "$checker" "$tmp/d" "$tmp/d.json"

# a tree that dies out and is revived (seed 1, 50 contexts): the revived
# nodes' child blocks follow those of later nodes and must still be found
"$gen" -o "$tmp/e" --seed 1 --contexts 50 --threads 1 --answers "$tmp/e.json" >/dev/null
python3 "$checker" "$tmp/e" "$tmp/e.json"

# one chain of nested contexts
"$gen" -o "$tmp/f" --depth-chain 500 --threads 1 --ranks 1 --answers "$tmp/f.json" >/dev/null
python3 "$checker" "$tmp/f" "$tmp/f.json"

# the demo database
"$gen" -o "$tmp/demo" --demo --answers "$tmp/demo.json" >/dev/null
python3 "$checker" "$tmp/demo" "$tmp/demo.json"
grep -q '"title": "callscope demo"' "$tmp/demo.json"
