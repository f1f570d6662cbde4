#!/bin/sh
# The operands and the options of the commands that take a fixed set
# (cli_args_next and cli_operands in src/cli/cli_common.c): `formats`
# takes none, `cache` exactly one, `info` one or more; --format only where
# the command prints JSON, --output only for `fetch`.  Each wrong call exits
# 1 with its one line on stderr; a right one exits 0.
. "${top_srcdir:-.}/tests/test-lib.sh"

# expect RC TEXT CMD...: the exit status and a line of stderr
expect() {
	want=$1 text=$2
	shift 2
	"$cs" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, not $want"
	if [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; then
		fail "$*: no '$text' in: $(cat "$tmp/err")"
	fi
}

# degenerate: no operand where one is needed, one where none is
expect 1 "callscope info: expected a database" info
expect 1 "callscope cache: expected list, clear or dir" cache
expect 1 "callscope formats: expected no operand" formats x
expect 1 "callscope cache: expected list, clear or dir" cache list dir
# an option the command does not take
expect 1 "callscope cache: no option -o" cache -o "$tmp/x" list
expect 1 "callscope fetch: no option -f" fetch -f json http://127.0.0.1:9/x
expect 1 "Try 'callscope --help'." formats --bogus
expect 1 "unknown --format 'csv' (expected text|json)" formats -f csv
# right calls
expect 0 "" formats
expect 0 "" formats --format=json
"$py" -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and all("name" in r for r in d), d' "$tmp/out" ||
	fail "formats --format=json: not a list of readers"
expect 0 "" cache -f json dir
expect 0 "" formats -h
grep -q "callscope" "$tmp/out" || fail "formats -h: no usage on stdout"
exit $status
