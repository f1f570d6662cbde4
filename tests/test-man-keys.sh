#!/bin/sh
# The man page's KEYS table lists every action of ui/actions.def with its
# default keys, and its FORMATS section every reader of the reader table
# with its capabilities (the tables are the source; this keeps the page in
# step).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
man="$top_srcdir/doc/callscope.1"
status=0
"$top_builddir/callscope" --list-actions >actions.tmp || exit 1
while IFS= read -r line; do
	name=$(printf '%s' "$line" | cut -c1-18 | sed 's/ *$//')
	keys=$(printf '%s' "$line" | cut -c20-33 | sed 's/ *$//')
	want=$(printf '%s\t%s' "$name" "$keys" | sed 's/-/\\-/g')
	if ! grep -qF "$want" "$man"; then
		echo "FAIL: doc/callscope.1 KEYS lacks '$name' with keys '$keys'"
		status=1
	fi
done <actions.tmp
rm -f actions.tmp

# The keymaps bind accepts (`callscope --list-keymaps`, from the pane
# registry) are each named where the man page lists them: in the Commands
# text of KEYS and in the CONFIGURATION's bind line.
"$top_builddir/callscope" --list-keymaps >keymaps.tmp || exit 1
[ -s keymaps.tmp ] || { echo "FAIL: --list-keymaps printed nothing"; status=1; }
bindline=$(grep -F '(keymaps generic' "$man")
while IFS= read -r km; do
	case $bindline in
	*" $km,"* | *" $km)"*) ;;
	*) echo "FAIL: doc/callscope.1 bind line lacks keymap '$km'"; status=1 ;;
	esac
	if [ "$km" != generic ] && ! grep -qE "^\.BR? $km( ,| ;|$)" "$man"; then
		echo "FAIL: doc/callscope.1 KEYS does not name keymap '$km'"
		status=1
	fi
done <keymaps.tmp
rm -f keymaps.tmp

# The FORMATS section lists every reader of the table (`callscope formats
# --format json`) with its capabilities.
"$top_builddir/callscope" formats --format json >formats.tmp || exit 1
python3 - "$man" formats.tmp <<'PY' || status=1
import json, re, sys
man = open(sys.argv[1]).read()
sect = man.split(".SH FORMATS", 1)[1].split("\n.SH ", 1)[0]
for f in json.load(open(sys.argv[2])):
    name = f["name"].replace("-", "\\-")
    m = re.search(r"^\.B " + re.escape(name) + r"\n(.*?)(?=^\.TP|\Z)", sect, re.M | re.S)
    if not m:
        print("FAIL: doc/callscope.1 FORMATS lacks " + f["name"])
        sys.exit(1)
    holds = re.search(r"Holds: (.*)\.", m.group(1))
    if not holds or holds.group(1).split(", ") != f["capabilities"]:
        print("FAIL: doc/callscope.1 FORMATS: %s holds %s" % (f["name"], f["capabilities"]))
        sys.exit(1)
PY
rm -f formats.tmp
exit $status
