#!/bin/sh
# check-packaging: the packages keep up with the tree.  The version in
# configure.ac is the one of debian/changelog, the Spack recipe and the
# EasyBuild easyconfig (and its file name); both recipes are Python that
# parses; debian/control build-depends on every -dev package .ci/deps
# installs for the build; debian/rules is executable.  (Building the .deb
# is `dpkg-buildpackage -b -us -uc`, too slow for make check.)
top_srcdir=${top_srcdir:-.}
py=/usr/bin/python3
[ -x "$py" ] || exit 77
status=0
fail() { echo "FAIL: $*"; status=1; }
v=$(sed -n 's/^AC_INIT(\[callscope\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
[ -n "$v" ] || { echo "FAIL: no version in configure.ac"; exit 1; }
head -1 "$top_srcdir/debian/changelog" | grep -q "^callscope ($v)" ||
	fail "debian/changelog is not at $v"
grep -q "version(\"$v\"" "$top_srcdir/packaging/spack/package.py" ||
	fail "the Spack recipe has no version $v"
eb="$top_srcdir/packaging/easybuild/callscope-$v-GCCcore-12.3.0.eb"
[ -f "$eb" ] || fail "no easyconfig for $v"
[ -f "$eb" ] && ! grep -q "^version = '$v'" "$eb" && fail "the easyconfig is not at $v"
for f in "$top_srcdir/packaging/spack/package.py" "$eb"; do
	[ -f "$f" ] && "$py" -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$f" ||
		fail "$f is not Python"
done
for p in $(tr ' \t' '\n\n' <"$top_srcdir/.ci/deps" | grep -e '-dev$' -e '^protobuf-c-compiler$'); do
	grep -q "$p" "$top_srcdir/debian/control" ||
		fail "debian/control does not build-depend on $p (.ci/deps installs it)"
done
[ -x "$top_srcdir/debian/rules" ] || fail "debian/rules is not executable"
# every test script and helper is distributed (make distcheck runs them
# from the tarball: one left out of EXTRA_DIST fails only there)
for f in "$top_srcdir"/tests/*.py "$top_srcdir"/tests/*.sh; do
	[ -f "$f" ] || continue
	n=tests/${f##*/}
	cat "$top_srcdir"/Makefile.am "$top_srcdir"/*/*.am 2>/dev/null |
		grep -qF "$n" || fail "$n is in no Makefile.am list (not distributed)"
done
[ $status = 0 ] && echo "packaging: version $v everywhere, recipes parse, build-depends complete, tests distributed"
exit $status
