# bench-lib.sh: what the benchmark scripts share, sourced by them after
# `here` (the bench directory) is set, as tests/test-lib.sh is by the
# tests: $cs and $gen, the machine line that heads every result, `m`
# (measure.py with RUNS runs, default 3), an old-against-new script's
# arguments, the check for make-big-db.sh's databases, a repeated key
# string, a temporary directory, the trace pane's key script and the
# per-key percentile table of a --timing file (key-times.py), and the
# measurements of a GPU run (bench-nsight.sh, bench-rocpd.sh).  POSIX sh.

# The programs measured and run: callscope ($cs) and the database
# generator ($gen) of this build, or CALLSCOPE and GEN.
cs=${CALLSCOPE:-$here/../callscope}
gen=${GEN:-$here/../tests/gen-v4db}

# "machine: N cores, M GiB, kernel" (and the load average with `load`).
bench_machine() {
	load=
	[ "${1:-}" = load ] && load=", load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr)$load"
}

m() { python3 "$here/measure.py" --runs "${RUNS:-3}" "$@"; }

# A fresh temporary directory in $tmp, removed at exit.
bench_tmp() {
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}

# The arguments of an old-against-new benchmark, OLD_BIN NEW_BIN [DIR]:
# old, new, out (DIR, default bench/out, made), runs (RUNS, default 5)
# and $m (measure.py with that many runs); with fewer than two, the script's lines 2 to LAST (its
# usage) and exit 2.  usage: bench_old_new LAST "$@"
bench_old_new() {
	last=$1
	shift
	[ $# -ge 2 ] || { sed -n "2,${last}p" "$0"; exit 2; }
	old=$1
	new=$2
	out=${3:-$here/out}
	runs=${RUNS:-5}
	m="python3 $here/measure.py --runs $runs"
	mkdir -p "$out"
}

# bench_need_big FILE [PART]: exit 1 unless FILE, a file of one of
# bench/make-big-db.sh's databases in $out, exists (the message names the
# command that makes it, with PART: a or b).
bench_need_big() {
	[ -f "$1" ] || {
		echo "missing $(dirname "$1"): run bench/make-big-db.sh $out${2:+ $2}" >&2
		exit 1
	}
}

# N TEXT: TEXT N times over (a key script's repeated part).
bench_repeat() {
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '%s' "$2"
		i=$((i + 1))
	done
}

# The trace pane's key script, five times: zoom in x4, pan, zoom out, line
# zoom, depth, next change, undo/redo, cursor moves, home (in $keys).
bench_trace_keys() {
	keys=$(bench_repeat 5 "++++>>>----}}{{))((..,uu<C-r><C-r><Right><Down><Up>0")
}

# The trace pane of DB in headless mode at 225x75 (page cache warmed by
# one run of the key script first): open to the first trace frame with
# OPEN ("W": the pane full screen; "tF" where the tree comes first), then
# the key script once with per-key times (its table) and peak RSS.
# LABEL heads the measurements' labels ("" or "NAME: ").
bench_trace_pane() {
	"$cs" --headless --no-config --size 225x75 --keys "W$keys" "$1" >/dev/null
	python3 "$here/measure.py" --label "${3}open to first trace frame" -- \
		"$cs" --headless --no-config --size 225x75 --keys "$2" "$1"
	python3 "$here/measure.py" --runs 1 --label "${3}key script (peak RSS)" -- \
		"$cs" --headless --no-config --size 225x75 --keys "$2$keys" \
		--timing "$tmp/timing" "$1"
	bench_key_times "$tmp/timing" trace
}

# The per-key p50/p99/max table of a --timing FILE, keys named as in SET
# (trace or tree).
bench_key_times() {
	python3 "$here/key-times.py" "$1" "$2"
}

# The measurements of a GPU run OUT ($cs, every file read through the
# index of a cache directory of the benchmark's own): the first open scans
# the files and writes the index (measured once), the first trace reads
# every file's lines again and adds them (once); the targets are then
# measured on the indexed run, as every open after the first sees it.
# NOINDEX=1 measures without it (--no-cache).  AT: the trace probe's time.
bench_gpu_run() {
	out=$1
	XDG_CACHE_HOME="$out.cache"
	export XDG_CACHE_HOME
	rm -rf "$XDG_CACHE_HOME"
	nc=
	if [ "${NOINDEX:-0}" = 1 ]; then
		nc=--no-cache
	else
		python3 "$here/measure.py" --runs 1 --label "first open: scan, index written (once)" -- \
			"$cs" info "$out"
		python3 "$here/measure.py" --runs 1 --label "first trace: every file's lines read, indexed (once)" -- \
			"$cs" trace --from +0s --to +2s --columns 1000 "$out"
		echo "index: $(du -sh "$XDG_CACHE_HOME" | cut -f1)"
	fi
	m --label "open to first frame (headless)" -- \
		"$cs" $nc --headless --no-config --size 160x48 --keys "" "$out"
	m --label "info (open, tree)" -- "$cs" $nc info "$out"
	m --label "trace probe, one line" -- \
		"$cs" $nc trace --lines 0 --at "$2" "$out"
	m --label "1000-column window, every line" -- \
		"$cs" $nc trace --from +0s --to +2s --columns 1000 "$out"
	m --label "flat kernel summary (report --view flat)" -- \
		"$cs" $nc report --view flat "$out"
	m --label "per-kind summary with medians (stats: every duration)" -- \
		"$cs" $nc stats "$out"
}
