#!/bin/sh
# The extrap-nsight reader beyond the corpus comparison
# (test-extrap-points.sh): a copy of nsight/sampled_callchains whose
# exports lost Extra-P's own table and views (EXTRAP_RESOLVED_CALLPATHS,
# ...) must give the same points, the callpaths derived from
# CUDA_CALLCHAINS as Extra-P derives them; the reader opens the exports
# read-only (the corpus files are read-only, and a writable copy is
# unchanged byte for byte after reading); `callscope formats` lists the
# reader.  Skipped (77) without ../shared, as in a tarball's build.
. "${top_srcdir:-.}/tests/test-lib.sh"
set_dir="$top_srcdir/../shared/corpus/extra-p/extrap/tests/data/nsight/sampled_callchains"
need_corpus "$set_dir"
fail=0
python3 - "$set_dir" "$tmp/derived" <<'PY' || exit 1
import os, shutil, sqlite3, sys
src, dst = sys.argv[1:3]
for p in sorted(os.listdir(src)):
    os.makedirs(os.path.join(dst, p))
    for f in os.listdir(os.path.join(src, p)):
        out = os.path.join(dst, p, f)
        shutil.copyfile(os.path.join(src, p, f), out)
        if f.endswith(".sqlite"):
            db = sqlite3.connect(out)
            db.execute("DROP TABLE EXTRAP_RESOLVED_CALLPATHS")
            for v in ("EXTRAP_FORMAT", "EXTRAP_GPU_INFO",
                      "EXTRAP_CONCURRENT_KERNELS", "EXTRAP_GPU_ACTIVITIES",
                      "EXTRAP_OVERLAP_ACTIVITIES"):
                db.execute("DROP VIEW " + v)
            db.commit()
            db.close()
PY
"$cs" points --format json "$set_dir" >"$tmp/stored.json" || exit 1
sum_before=$(cat "$tmp"/derived/*/*.sqlite | cksum)
"$cs" points --format json "$tmp/derived" >"$tmp/derived.json" || exit 1
sum_after=$(cat "$tmp"/derived/*/*.sqlite | cksum)
python3 - "$tmp/stored.json" "$tmp/derived.json" <<'PY' || fail=1
import json, sys
a, b = (json.load(open(p))["measurements"] for p in sys.argv[1:3])
print("stored table: %d series, derived callpaths: %d series, equal: %s"
      % (len(a), len(b), a == b))
sys.exit(0 if a == b and len(a) == 136 else 1)
PY
if [ "$sum_before" != "$sum_after" ]; then
	echo "FAIL: reading changed a writable export"
	fail=1
fi
"$cs" formats | grep -q extrap-nsight || {
	echo "FAIL: extrap-nsight not in callscope formats"
	fail=1
}
exit $fail
