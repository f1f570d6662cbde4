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

# The prose keeps to the bindings: where it says what a key does
# ("\fBW\fR makes it full screen", ".B U" then "undoes the last flatten"),
# a word of that phrase (its first four letters) is in the description of
# an action the key is bound to (`callscope --list-actions`).  It said
# "F makes it full screen" while F flattens and W is full screen.
"$top_builddir/callscope" --list-actions >actions.tmp || exit 1
python3 - "$man" actions.tmp <<'PY' || status=1
import re, sys
man = open(sys.argv[1]).read()
acts = {}
for line in open(sys.argv[2]):
    for k in line[19:33].split():
        acts.setdefault(k, []).append(line[34:].strip().lower())
prose = re.sub(r"^\.TS.*?^\.TE", "", man, flags=re.S | re.M)
# generic verbs say nothing about what the key does
stop = {"makes", "moves", "the", "and", "then", "that", "this", "with",
        "from", "into", "over", "back", "again", "shows", "goes", "turns",
        "picks", "each", "also", "them", "their", "its", "does", "switches"}
# not keys: a filter pattern starting with "!"
not_keys = {("!", "hides the matching rows instead")}
claims = []
end = r"(?=[,.;()]|\\f|\n)"
for m in re.finditer(r"\\fB(\S{1,2})\\fR((?:/\\fB\S{1,2}\\fR)*) "
                     r"([a-z][a-z ]{3,40}?)" + end, prose):
    keys = [m.group(1)] + re.findall(r"\\fB(\S{1,2})\\fR", m.group(2))
    claims.append((keys, m.group(3)))
for m in re.finditer(r"^\.B (\S{1,2})\n([a-z][a-z ]{3,40}?)" + end, prose,
                     re.M):
    claims.append(([m.group(1)], m.group(2)))
bad = 0
n = 0
for keys, phrase in claims:
    first = phrase.split()[0]
    if not (first.endswith("s") or first in ("resize", "double")):
        continue
    words = [w[:4] for w in re.findall(r"[a-z]{4,}", phrase) if w not in stop]
    for k in keys:
        k = k.replace("\\-", "-")
        if not words or k not in acts or (k, phrase.strip()) in not_keys:
            continue
        n += 1
        if not any(w in d for d in acts[k] for w in words):
            print("FAIL: doc/callscope.1 says '%s %s' but %s is bound to: %s"
                  % (k, phrase.strip(), k, "; ".join(acts[k])))
            bad = 1
if n < 10:
    print("FAIL: only %d key claims found in the prose" % n)
    bad = 1
sys.exit(bad)
PY
rm -f actions.tmp
exit $status
