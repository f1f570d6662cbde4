#!/bin/sh
# Every configuration example of the documentation is accepted as written:
# the lines of doc/config.md's example blocks (indented four spaces) and
# its inline examples (`set ...`, `bind ...`, `:set ...` in backquotes,
# placeholders such as NAME left out), and the literal `:` command lines
# of doc/callscope.1 (`.B ":sort severity"`).  Each line alone is a
# configuration file (`--config`) or, starting with `:`, typed at the
# prompt, in the viewer headless; the status line must show no warning
# (the file's name and line, `(prompt):`, "unknown ...").  doc/config.md
# said `bind tree <Enter> toggle-expand` (no such key name or action),
# `bind tree = zoom-in` and `set view = top-down` (no such action, option).
. "${top_srcdir:-.}/tests/test-lib.sh"
mkdir -p "$tmp/home/.config/callscope" "$tmp/cache" &&
	export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
		XDG_CACHE_HOME="$tmp/cache" LANG=C.UTF-8
# the files the examples `source`
: >"$tmp/home/.config/callscope/site.conf"
: >"$tmp/home/alt.conf"
"$top_builddir/tests/gen-v4db" -o "$tmp/db" --seed 7 --contexts 50 \
	--threads 1 --ranks 1 --samples 500 --metrics 3 >/dev/null || exit 1
# the man page's model commands need a parametric database
xp=$top_srcdir/../shared/corpus/extra-p/extrap/tests/data/comparison/lulesh-cpu_demangled.extra-p
python3 - "$top_srcdir/doc/config.md" "$top_srcdir/doc/callscope.1" \
	>"$tmp/examples" <<'PY' || exit 1
import re, sys
cmds = ("set", "bind", "color", "theme", "source", "derive")
viewer = cmds + ("sort", "metric", "threshold", "depth", "view", "quit")
holder = re.compile(r"\b(NAME|VALUE|KEYMAP|KEY|ACTION|ROLE|FG|BG|ATTR|PATH|"
                    r"FORMULA|NEWNAME|FILE|PCT|N)\b|\.\.\.")
out = []
md = open(sys.argv[1]).read().split("\n")
for i, line in enumerate(md, 1):
    if line.startswith("    ") and line.strip():
        text = line.strip()
        if text.split()[0] in cmds or text.startswith("#"):
            out.append(("config.md:%d" % i, "file", text))
        continue
    for span in re.findall(r"`([^`]+)`", line):
        word = span.lstrip(":").split(" ")[0].split("=")[0]
        if word in cmds and " " in span and not holder.search(span):
            out.append(("config.md:%d" % i,
                        "prompt" if span.startswith(":") else "file", span))
for i, line in enumerate(open(sys.argv[2]).read().split("\n"), 1):
    m = re.match(r'^\.BR? (?:"(:[^"]+)"|(:[^" ][^"]*)$)', line)
    text = m and (m.group(1) or m.group(2)).replace("\\-", "-")
    if text and text[1:].split(" ")[0] in viewer and not holder.search(text):
        out.append(("callscope.1:%d" % i, "man", text))
for where, how, text in out:
    print("%s\t%s\t%s" % (where, how, text))
PY
[ -z "${SHOW_EXAMPLES:-}" ] || cat "$tmp/examples"
n=$(wc -l <"$tmp/examples")
[ "$n" -ge 20 ] || { echo "FAIL: only $n examples found"; exit 1; }
# the status line after a run: no warning, no error
check() {
	case $3 in
	*"$tmp/c:"* | *"(prompt):"* | *unknown* | *"not found"* | \
		*"No such"* | *expected* | *"bad "* | *"no such"*)
		echo "FAIL: $1: '$2' is refused: $3"
		status=1 ;;
	esac
}
while IFS="$(printf '\t')" read -r where how text; do
	case $how in
	file)
		printf '%s\n' "$text" >"$tmp/c"
		last=$("$cs" --headless --size 120x12 --config "$tmp/c" \
			--keys '' "$tmp/db" | sed -n '$p') ;;
	prompt | man)
		db=$tmp/db
		[ "$how" = man ] && db=$xp
		[ -e "$db" ] || { echo "skipped $where (no $db)"; continue; }
		# the script's '<' is a named key's start: type it as <<>
		keys=$(printf '%s' "$text" | sed 's/</<<>/g')
		last=$("$cs" --headless --size 120x12 --no-config \
			--keys "$keys<Enter>" "$db" | sed -n '$p') ;;
	esac
	check "$where" "$text" "$last"
done <"$tmp/examples"
exit $status
