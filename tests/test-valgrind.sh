#!/bin/sh
# valgrind (memcheck) finds no error and no definite leak in a
# representative subset: every batch command on a generated database, a
# database of the shared corpus, a hostile and a cyclic database, and the
# headless viewer.  Skipped (77) without valgrind or in sanitizer builds,
# which valgrind cannot run.
. "${top_srcdir:-.}/tests/test-lib.sh"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind absent: skipped"; exit 77; }
if grep -Eq '^(SAN|FUZZ)_CFLAGS = .*-fsanitize' "$top_builddir/Makefile" 2>/dev/null; then
	echo "sanitizer build: valgrind skipped"
	exit 77
fi
gen_db --seed 3 --contexts 300 --threads 2 --ranks 2 --samples 300 \
	--yaml
"$gen" -o "$tmp/hostile" --hostile --seed 4 --contexts 200 --samples 100 >/dev/null || exit 1
"$gen" -o "$tmp/cyclic" --cycle --threads 1 --contexts 50 >/dev/null || exit 1
corpus="$top_srcdir/../shared/corpus/hpctoolkit-v4/hpctoolkit/tests/data/dbase/small.d"
fail=0
n=0
vg() { # vg WANT_RC ARGS...: callscope ARGS under memcheck
	want=$1
	shift
	n=$((n + 1))
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --log-file="$tmp/vg.$n" \
		"$cs" "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -ne "$want" ] || [ -s "$tmp/vg.$n" ]; then
		echo "FAIL: callscope $* (exit $rc, want $want)"
		head -40 "$tmp/vg.$n"
		fail=1
	fi
}
export TERM=xterm-256color LANG=C.UTF-8
vg 0 info "$tmp/db" --format json
vg 0 report "$tmp/db" --metric all
vg 0 report "$tmp/db" --view bottom-up --format json
vg 0 report "$tmp/db" --view flat --format csv
vg 0 hotpath "$tmp/db"
vg 0 trace "$tmp/db" --from +0 --to +1s --columns 20 --format json
vg 0 report "$tmp/hostile" --view bottom-up
vg 2 report "$tmp/cyclic"
vg 1 report "$tmp/db" --metric nonexistent
vg 0 --headless --no-config --size 100x30 --keys "EjjjjHT<Esc>3jj2jjo?" "$tmp/db"
if [ -d "$corpus" ]; then
	vg 0 report "$corpus" --metric all
	vg 0 trace "$corpus" --at +0
else
	echo "shared corpus absent: only generated databases checked"
fi
echo "$n runs under valgrind"
exit $fail
