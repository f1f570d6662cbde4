#!/bin/sh
# DCPI in the viewer, in a real terminal (tmux).  Epochs: the generated
# database has two epochs, each a profile, so the per-thread pane (T) on
# main shows one row per epoch whose value is main's inclusive samples when
# that epoch's directory is opened alone (no epoch code involved there).
# The listing pane: `i` on a
# procedure opens dcpilist's listing of it, on the hottest instruction
# (marked >, whose address and samples `callscope listing --format json`
# gives, computed by the same engine and checked against objdump and the
# generator by test-dcpi.sh); source lines (DWARF) with their text appear
# between the instructions; `g` leaves the hottest row and `H` comes back
# to it; Esc closes; `i` on the root says what to select.  Polls the
# screen, never a bare sleep.
. "${top_srcdir:-.}/tests/test-lib.sh"
. "$top_srcdir/tests/tmux-env.sh"
command -v gcc >/dev/null || { echo "gcc missing"; exit 77; }
gen="$top_srcdir/tests/gen_dcpi.py"
mkdir -p "$tmp/bin"
gcc -g -O0 -no-pie -o "$tmp/bin/prog" "$top_srcdir/tests/dcpi-prog.c" ||
	{ echo "FAIL: cannot compile tests/dcpi-prog.c"; exit 1; }
/usr/bin/python3 "$gen" "$tmp/bin/prog" "$tmp/p" --seed 8 --layout db \
	--samples 300 --answers "$tmp/a.json" >/dev/null || exit 1
"$cs" listing "$tmp/p" main --format json >"$tmp/l.json" || exit 1
hot=$(/usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hottest"]
row = [r for r in d["instructions"] if r["address"] == h][0]
print("%s %d" % (h[2:], row["values"][0]))' "$tmp/l.json") || exit 1
hot_addr=${hot% *}
hot_val=${hot#* }

# main's inclusive cycles in each epoch, from the epoch opened alone
for ep in "$tmp"/p/*/; do
	ep=${ep%/}
	v=$("$cs" report "$ep" --format json --depth 2 | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
print("%d" % [x for x in d["nodes"] if x["name"] == "main"][0]["values"][0])') ||
		exit 1
	echo "EPOCH ${ep##*/} $v" >>"$tmp/epochs"
done
[ "$(wc -l <"$tmp/epochs")" -eq 2 ] || { echo "FAIL: not two epochs"; exit 1; }

# T opens main's epochs: each line of $tmp/epochs (word, epoch, value) is a
# row there; Esc closes the pane.  $1 names the run in a failure.
main_epochs() {
	press T "per execution context: main" "$1: T did not open main's epochs"
	while read -r word ep v; do
		screen | grep -qE "^ *$v +[0-9.]+% +$word $ep *\$" ||
			fail "$1: main in $word $ep: no row with $v (opened alone)"
	done <"$tmp/epochs"
	t send-keys -t "$S" Escape
	wait_gone "per execution context" ||
		fail "$1: Esc did not close the threads pane"
}

start "$cs --no-config $tmp/p" "q quit" || fail "the viewer did not draw"
# the root is selected: nothing to list yet
press i "listing: select a procedure" "no message on the root"
# select main (a child of the image) and open its listing
t send-keys -t "$S" "/^main$" Enter
wait_for "main" || fail "search for main"
sync_keys
# the epochs of main
main_epochs opened
press i "Procedure main in" "i did not open the listing of main"
# the hottest instruction is marked and shows its samples
screen | grep -E "> $hot_addr:" | grep -qF " $hot_val " ||
	fail "the hottest row ($hot_addr, $hot_val samples) is not marked"
screen | grep -qE "dcpi-prog\.c:[0-9]+ +[^ ]" ||
	fail "no source line with its text between the instructions"
# g moves the cursor away; H returns to the hottest row (selected)
t send-keys -t "$S" g
sync_keys
t send-keys -t "$S" H
sync_keys
screen | grep -qE "> $hot_addr:" || fail "H did not show the hottest row"
t send-keys -t "$S" Escape
wait_gone "Procedure main in" || fail "Esc did not close the listing"
t send-keys -t "$S" q
wait_prompt || fail "q did not quit"

# the same epochs with the image deferred (CALLSCOPE_DCPI_DEFER_MIN=0):
# main's per-epoch values come from the load (dcpi_epochs_grow)
start "env CALLSCOPE_DCPI_DEFER_MIN=0 $cs --no-config $tmp/p" "Top-down" ||
	fail "the viewer did not draw (deferred)"
t send-keys -t "$S" "/^main$" Enter
wait_for "Name  main" || fail "search for main (deferred)"
main_epochs deferred
t send-keys -t "$S" q
wait_prompt || fail "q did not quit (deferred)"

# deferred images (CALLSCOPE_DCPI_DEFER_MIN=0): 30 image rows at open; an
# image expanded shows its address rows; one whose file changed after the
# open says so in one line and stays a row to expand
big="$tmp/big"
/usr/bin/python3 "$top_srcdir/bench/gen_dcpi_big.py" "$big" 30 500 || exit 1
cp -r "$big" "$big.keep"
/usr/bin/python3 "$top_srcdir/bench/gen_dcpi_big.py" "$tmp/other" 30 400 || exit 1
start "env CALLSCOPE_DCPI_DEFER_MIN=0 $cs --no-config $big" "30 images" ||
	fail "the viewer did not draw the deferred database (30 images)"
cp "$tmp/other/2611260000/00001005.cycles" "$big/2611260000/00001005.cycles"
t send-keys -t "$S" "/libbench00001007" Enter
wait_for "Path  libbench00001007.so" || fail "search for an image row"
t send-keys -t "$S" l
sync_keys
press j "libbench00001007.so @ 0x" "the expanded image shows no address rows"
t send-keys -t "$S" "/libbench00001005" Enter
wait_for "Path  libbench00001005.so" || fail "search for the changed image"
t send-keys -t "$S" l
wait_for "changed since the database was opened" ||
	fail "no message for an image whose file changed"
screen | grep -q "▸ libbench00001005.so" ||
	fail "the changed image is not a row to expand any more"
# the flat view reads every image first: the changed one stops it with
# its line; restored, every image's rows are there
t send-keys -t "$S" 3
wait_for "changed since the database was opened" ||
	fail "the flat view did not stop on the changed image"
cp "$big.keep/2611260000/00001005.cycles" "$big/2611260000/00001005.cycles"
press 3 "Name (flat)" "the flat view did not open"
t send-keys -t "$S" "/libbench0000101d.so @ 0x" Enter
wait_for "Name  [libbench0000101d.so @ 0x" ||
	fail "the flat view has no rows of an image never expanded"
t send-keys -t "$S" q
wait_prompt || fail "q did not quit the deferred database"

# grouped (CALLSCOPE_DCPI_GROUP_MIN=0): the flat view stops at one
# "[IMAGE: no symbols]" row per image, with the image's total from the
# generator and no address row; in the top-down view that row expands to
# its address rows, read then
tot=$(/usr/bin/python3 -c '
import json, sys
print("{:,}".format(json.load(open(sys.argv[1]))["image_totals"]["0000101d"]))' \
	"$big.answers.json") || exit 1
start "env CALLSCOPE_DCPI_DEFER_MIN=0 CALLSCOPE_DCPI_GROUP_MIN=0 $cs --no-config $big" \
	"30 images" || fail "the viewer did not draw the grouped database"
press 3 "Name (flat)" "grouped: the flat view did not open"
t send-keys -t "$S" "/libbench0000101d.so: no symbols" Enter
wait_for "libbench0000101d.so: no symbols: 1 matches" ||
	fail "grouped: no group row in the flat view"
screen | grep -F "libbench0000101d.so: no symbols]" | grep -qF " $tot " ||
	fail "grouped: the flat group row is not the image's total $tot"
t send-keys -t "$S" "/libbench0000101d.so@" Enter
wait_for "libbench0000101d.so@: no match" ||
	fail "grouped: the flat view has address rows"
t send-keys -t "$S" Escape 1
wait_for "Name (top-down)" || fail "grouped: back to top-down"
t send-keys -t "$S" "/libbench0000101d.so: no symbols" Enter
wait_for "libbench0000101d.so: no symbols: 1 matches" ||
	fail "grouped: no group row in the top-down view"
t send-keys -t "$S" l
sync_keys
t send-keys -t "$S" j
wait_for "Name  /opt/bench/lib/libbench0000101d.so@0x" ||
	fail "grouped: the expanded group shows no address rows"
t send-keys -t "$S" q
wait_prompt || fail "q did not quit the grouped database"
exit $status
