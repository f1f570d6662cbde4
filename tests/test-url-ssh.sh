#!/bin/sh
# sftp:// and scp:// URLs against a throw-away sshd on 127.0.0.1: a host
# key, a client key (ed25519, no agent) and authorized_keys generated into
# a temporary directory, `sshd -f CONFIG -D` on a free port.  Checks that
# `report` of a v4 database over sftp:// and scp:// equals the local one
# (and info and report of one input of every other format over sftp://),
# that sftp:// reads large files lazily (trace --at, trace.db not
# downloaded), and the ssh errors: no ~/.ssh/known_hosts, a host key that
# does not match (each names --insecure, which skips the check), a user
# the server refuses.  Skipped (77) when sshd, ssh-keygen or libcurl's
# sftp support is missing, or sshd does not start.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
sshd=$(command -v sshd 2>/dev/null || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { echo "no sshd: skipped"; exit 77; }
command -v ssh-keygen >/dev/null 2>&1 || { echo "no ssh-keygen: skipped"; exit 77; }
. "${top_srcdir:-.}/tests/http-env.sh"
unset SSH_AUTH_SOCK
mkdir -p "$HOME/.ssh" "$tmp/sshd"
chmod 700 "$HOME/.ssh"
"$gen" -o "$tmp/db" --yaml --seed 7 >/dev/null || exit 99
ssh-keygen -q -t ed25519 -N '' -C test-host -f "$tmp/sshd/host_key" || exit 99
ssh-keygen -q -t ed25519 -N '' -C test-client -f "$HOME/.ssh/id_ed25519" || exit 99
cp "$HOME/.ssh/id_ed25519.pub" "$tmp/sshd/authorized_keys"
chmod 600 "$tmp/sshd/authorized_keys"

# the sshd is $pid: http-env.sh kills it at exit
# root's sshd needs its privilege separation directory (as systemd makes)
[ "$(id -u)" = 0 ] && [ ! -d /run/sshd ] && mkdir -p /run/sshd && chmod 755 /run/sshd
try=0
while :; do
	port=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$tmp/sshd/config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $tmp/sshd/host_key
AuthorizedKeysFile $tmp/sshd/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UsePAM no
StrictModes no
PidFile $tmp/sshd/sshd.pid
Subsystem sftp internal-sftp
CONF
	"$sshd" -f "$tmp/sshd/config" -D -e >"$tmp/sshd/log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 50 ] && ! grep -q "Server listening" "$tmp/sshd/log" &&
	      kill -0 $pid 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q "Server listening" "$tmp/sshd/log" && break
	kill $pid 2>/dev/null
	pid=
	try=$((try + 1))
	[ $try -lt 3 ] || { echo "sshd did not start: skipped"; cat "$tmp/sshd/log"; exit 77; }
done
hostkey=$(cut -d' ' -f1,2 "$tmp/sshd/host_key.pub")
echo "[127.0.0.1]:$port $hostkey" >"$HOME/.ssh/known_hosts"
base="sftp://127.0.0.1:$port$tmp"

report() { "$cs" report "$@" --depth 4 --metric all; }
report "$tmp/db" >"$tmp/local.txt" 2>"$tmp/err" || { cat "$tmp/err"; exit 99; }
"$cs" trace "$tmp/db" --at +1ms --lines 0-3 >"$tmp/trace-local.txt" 2>"$tmp/err" ||
	{ cat "$tmp/err"; exit 99; }

report "$base/db/" >"$tmp/out" 2>"$tmp/err"
if grep -q "does not support sftp" "$tmp/err"; then
	echo "libcurl without sftp: skipped"; exit 77
fi
cmp -s "$tmp/out" "$tmp/local.txt" && ok "sftp:// report equals the local report" ||
	fail "sftp:// report: $(cat "$tmp/err") $(tail -5 "$tmp/sshd/log")"
grep -q "Accepted publickey for .* ED25519" "$tmp/sshd/log" &&
	ok "sftp:// logged in with the ed25519 key" || fail "no publickey login in the sshd log"

report --no-cache "scp://127.0.0.1:$port$tmp/db/" >"$tmp/out" 2>"$tmp/err" &&
	cmp -s "$tmp/out" "$tmp/local.txt" && ok "scp:// report equals the local report" ||
	fail "scp:// report: $(cat "$tmp/err")"

"$cs" cache clear
CALLSCOPE_LAZY_MIN_SIZE=20000 "$cs" trace "$base/db/" --at +1ms --lines 0-3 >"$tmp/out" 2>"$tmp/err"
if cmp -s "$tmp/out" "$tmp/trace-local.txt" &&
   ls -d "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db.blocks >/dev/null 2>&1 &&
   ! ls "$XDG_CACHE_HOME"/callscope/url/*/data/trace.db >/dev/null 2>&1; then
	ok "sftp:// lazy: trace --at equals the local answer, trace.db not downloaded"
else
	fail "sftp:// lazy trace: $(cat "$tmp/err")"
fi

# --- every other format over sftp:// (directories from the listing,
# files): the same inputs as tests/test-remote-formats.sh, each answer
# (info without the lines naming the input, report --depth 4 of every
# metric) equal to the local one
corpus="$top_srcdir/../shared/corpus"
ex="$corpus/extra-p/extrap/tests/data"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if [ -d "$corpus/rocpd-rpd" ] && [ -d "$corpus/otf2" ] && [ -d "$corpus/cube" ] &&
   [ -d "$ex" ] && [ -d "$corpus/nsys-sqlite" ]; then
	f="$tmp/fmt"
	mkdir "$f" "$f/rpddir"
	cp "$corpus"/rocpd-rpd/rocmProfileData/examples/rocm-profile-data/results/matmul_result.rpd "$f/rpddir/"
	cp "$f/rpddir/matmul_result.rpd" "$f/matmul.rpd"
	cp -r "$corpus/otf2/pipit/pipit/tests/data/ping-pong-otf2" "$f/otf2"
	cp -r "$corpus/hpctoolkit-xml/hatchet/hatchet/tests/data/hpctoolkit-cpi-database" "$f/xml"
	cp -r "$corpus/hpctoolkit-sparse-2020/hpcviewer.e4/tests/resources/prof2/empty-trace" "$f/sparse"
	cp "$corpus/cube/pycubexr/data/call_tree_test/call_tree_test.cubex" "$f/tree.cubex"
	cp "$corpus/nsys-sqlite/pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite" "$f/saxpy.sqlite"
	cp "$ex/text/one_parameter_1.txt" "$f/one.txt"
	cp "$ex/jsonlines/test1.jsonl" "$f/test1.jsonl"
	cp "$ex/experiments/two_parameter3.txt.extra-p" "$f/two.extra-p"
	cp -r "$ex/cubeset/extra_file" "$f/cubeset"
	cp -r "$ex/extra_prof/test1" "$f/prof"
	inputs="rpddir/ matmul.rpd otf2/ xml/ sparse/ tree.cubex saxpy.sqlite one.txt test1.jsonl two.extra-p cubeset/ prof/"
	if "$py" "$top_srcdir/tests/gen_rocpd.py" "$tmp/gen" >/dev/null 2>&1; then
		cp -r "$tmp/gen/run" "$f/rocpdrun"
		inputs="$inputs rocpdrun/"
	fi
	if gcc -g -O0 -no-pie -o "$tmp/prog" "$top_srcdir/tests/dcpi-prog.c" 2>/dev/null &&
	   "$py" "$top_srcdir/tests/gen_dcpi.py" "$tmp/prog" "$f/dcpi" --seed 8 \
		--layout db --samples 300 >/dev/null; then
		inputs="$inputs dcpi/"
	fi
	chmod -R u+w "$f"
	answer() {
		"$cs" info "$1" 2>/dev/null | tail -n +2 | grep -v '^Warning:'
		"$cs" report "$1" --depth 4 --metric all 2>/dev/null
	}
	for u in $inputs; do
		answer "$f/${u%/}" >"$tmp/fmt-local"
		answer "$base/fmt/$u" >"$tmp/fmt-remote"
		if grep -q '^Format:' "$tmp/fmt-local" && cmp -s "$tmp/fmt-local" "$tmp/fmt-remote"; then
			ok "sftp:// $u: info and report equal the local ones ($(sed -n 's/^Format: *//p' "$tmp/fmt-local"))"
		else
			"$cs" info "$base/fmt/$u" >/dev/null 2>"$tmp/err"
			fail "sftp:// $u: $(cat "$tmp/err") $(diff "$tmp/fmt-local" "$tmp/fmt-remote" | head -3)"
		fi
	done
else
	echo "shared corpus absent: other formats over sftp:// not checked"
fi

# expect_error PATTERN ARGS...: one line, exit status 2
expect_error() {
	pat=$1; shift
	"$cs" info --no-cache "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^callscope: .*$pat" "$tmp/err"; then
		ok "error: $(cat "$tmp/err")"
	else
		fail "expected '$pat': rc $rc: $(cat "$tmp/err")"
	fi
}
mv "$HOME/.ssh/known_hosts" "$tmp/known_hosts"
expect_error "$base/db/: no ~/.ssh/known_hosts to check the host key against; --insecure skips the check" "$base/db/"
"$cs" info --no-cache --insecure "$base/db/" >/dev/null 2>"$tmp/err" &&
	ok "--insecure without known_hosts" || fail "--insecure: $(cat "$tmp/err")"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$HOME/.ssh/id_ed25519.pub")" >"$HOME/.ssh/known_hosts"
expect_error "db/: host key not accepted .*--insecure skips the check" "$base/db/"
mv "$tmp/known_hosts" "$HOME/.ssh/known_hosts"
expect_error "db/: access denied" "sftp://nobody-here@127.0.0.1:$port$tmp/db/"
expect_error "db/: cannot connect" "sftp://127.0.0.1:1$tmp/db/"

echo "$fails failure(s)"
[ $fails = 0 ]
