#!/usr/bin/env bash
# exitcodes.sh TOOL [CLI_DIR] — the table of exit codes in the README ("Exit codes"), one check per
# code and per kind of cause, and standard output that cannot be written: every command, --help
# included, exits 3 with one line on stderr when stdout is /dev/full or closed, and a command that
# fails for its own reason keeps its own code then.
set -u
TOOL=${1:-}
DIR=${2:-$(dirname "$0")}
# shellcheck source=lib.sh
. "$DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP

# code N DESC ARGS...: opticoll ARGS (with PATH=$TOOL_PATH when that is set) exits N; on a non-zero code, exactly one line on stderr
# starting "opticoll: " and nothing on stdout.
code() {
    local want=$1 desc=$2
    shift 2
    if [ -n "${TOOL_PATH:-}" ]; then PATH=$TOOL_PATH run_tool "$@"; else run_tool "$@"; fi
    local why=()
    [ "$RC" -eq "$want" ] || why+=("exit $RC, expected $want")
    if [ "$want" -ne 0 ]; then
        [ "$(wc -l <"$T/err")" -eq 1 ] || why+=("$(wc -l <"$T/err") lines on stderr, expected 1")
        grep -q '^opticoll: ' "$T/err" || why+=("stderr does not start with 'opticoll: '")
        [ -s "$T/out" ] && why+=("stdout not empty")
    fi
    if [ ${#why[@]} -eq 0 ]; then
        pass "exit $want: $desc"
    else
        fail "exit $want: $desc (opticoll $*)" "${why[@]}" "stderr: $(head -c 400 "$T/err")"
    fi
}

# full DESC ARGS...: with stdout on /dev/full, opticoll ARGS exits 3 with one line saying so.
full() {
    local desc=$1
    shift
    LC_ALL=C "$TOOL" "$@" >/dev/full 2>"$T/err"
    RC=$?
    if [ "$RC" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^opticoll: .*standard output' "$T/err"; then
        pass "stdout on /dev/full: $desc -> exit 3, one line"
    else
        fail "stdout on /dev/full: $desc -> exit 3, one line (opticoll $*)" "exit $RC" \
            "stderr: $(head -c 400 "$T/err")"
    fi
}

# ---- 0 ----
code 0 "list" list
code 0 "run" run -c allgather -a ring -n 5 -s 1KiB
code 0 "export -o" export -c allgather -a ring -n 7 -s 1KiB --format json -o "$T/s.json"
code 0 "verify of an exported schedule" verify "$T/s.json"
LC_ALL=C "$TOOL" export -c allgather -a ring -n 3 -s 1KiB --format json -o "$T/c.json" >&- 2>"$T/err"
RC=$?
if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ]; then
    pass "exit 0: a command that prints nothing, with stdout closed"
else
    fail "exit 0: a command that prints nothing, with stdout closed" "exit $RC" "$(cat "$T/err")"
fi

# ---- 1: a schedule that fails a check ----
echo '{"collective": "allgather", "nodes": 2, "rounds": []}' >"$T/missing.json"
code 1 "verify: a node misses a chunk" verify "$T/missing.json"
echo '{"collective": "allgather", "nodes": 3, "rounds": [[{"src": 0, "dst": 1, "op": "copy", "chunks": [2, 1]}]]}' >"$T/early.json"
code 1 "verify: a node sends a chunk it does not have" verify "$T/early.json"

# ---- 2: bad usage or input, too big included ----
code 2 "unknown command" frobnicate
code 2 "unknown option" run -c allgather -a ring -n 4 -s 1KiB --frob
code 2 "unknown algorithm" run -c allgather -a nosuch -n 4 -s 1KiB
code 2 "malformed size" run -c allgather -a ring -n 4 -s 4XB
echo '{"collective": "allgather", "nodes": 2, "rounds": [' >"$T/cut.json"
code 2 "malformed schedule file" verify "$T/cut.json"
code 2 "missing file" verify "$T/none.json"
code 2 "too big: -n over 131072" run -c allgather -a ring -n 131073 -s 1KiB
code 2 "too big: -s over 1 PiB" run -c allgather -a ring -n 4 -s 2PiB
code 2 "too big: more transfers than the tool generates" run -c alltoall -a pairwise -n 100000 -s 1KiB
code 2 "too big: in compare too" compare -c allgather -n 1048577 -s 1KiB
code 2 "too big: a schedule file of 2000000 nodes" verify <(echo '{"collective": "allgather", "nodes": 2000000, "rounds": []}')
code 2 "too big: a list of more than 4096 values" sweep -c allgather --nodes 1..131072:+1 --sizes 1KiB
code 2 "an output path in a missing directory" export -c allgather -a ring -n 4 -s 1KiB --format json -o "$T/no/such/dir/x.json"
mkdir "$T/adir"
code 2 "an output path that is a directory" tune -c allgather -a ring --nodes 4 --sizes 1KiB -o "$T/adir"
ln -s "$T/s.json" "$T/link.json"
code 2 "an output path that is a symlink" export -c allgather -a ring -n 4 -s 1KiB --format json -o "$T/link.json"

# ---- 3: the environment failed ----
full "list" list
mkdir -p "$T/nognuplot" "$T/failbin"
printf '#!/bin/sh\necho "fake gnuplot: failing" >&2\nexit 1\n' >"$T/failbin/gnuplot"
chmod +x "$T/failbin/gnuplot"
TOOL_PATH=$T/nognuplot code 3 "sweep --plot without gnuplot" sweep -c allgather -a ring --nodes 4 --sizes 1KiB,4KiB --plot "$T/p.png"
TOOL_PATH=$T/nognuplot code 3 "reproduce --out without gnuplot" reproduce star --out "$T/r0"
TOOL_PATH=$T/failbin:$PATH code 3 "sweep --plot with a failing gnuplot" sweep -c allgather -a ring --nodes 4 --sizes 1KiB,4KiB --plot "$T/p.png"
TOOL_PATH=$T/failbin:$PATH code 3 "reproduce --out with a failing gnuplot" reproduce star --out "$T/r1"

# ---- stdout that cannot be written: every command ----
full "no option: --help" --help
full "help" help
for c in list run compare export verify reproduce train throughput rack sweep tune synth; do
    full "$c --help" "$c" --help
done
full "run" run -c allgather -a ring -n 5 -s 1KiB
full "run --json" run -c allgather -a optree -n 12 -s 1KiB --json
full "run --links" run -c allgather -a ring -n 5 -s 1KiB --links
full "run -a auto" run -c allgather -a auto -n 5 -s 1KiB
full "compare" compare -c allgather -n 5 -s 1KiB
full "compare --json" compare -c allgather -n 5 -s 1KiB --json
full "compare --csv" compare -c allgather -n 5 -s 1KiB --csv
for f in json chrome msccl; do
    full "export --format $f to stdout" export -c allgather -a ring -n 5 -s 1KiB --format "$f"
done
full "verify" verify "$T/s.json"
full "verify --json" verify "$T/s.json" --json
full "reproduce star" reproduce star
full "reproduce star -j1" reproduce star -j1
full "train" train -m VGG16 -n 16 -a ring
full "train --json" train -m VGG16 -n 16 -a ring --json
full "throughput" throughput -m BERT-large -n 16
full "synth" synth -c allgather -t ring -n 5
full "synth --json" synth -c allgather -t ring -n 5 --json
full "throughput --json" throughput -m BERT-large -n 16 --json
full "rack" rack --servers 2 --tiles 8 --fibres 1 --tenants 6
full "rack --json" rack --servers 2 --tiles 8 --fibres 1 --tenants 6 --json
full "rack --example fig2a" rack --example fig2a
full "sweep" sweep -c allgather -a ring,ne --nodes 3,4 --sizes 1KiB
full "sweep --json" sweep -c allgather -a ring,ne --nodes 3,4 --sizes 1KiB --json
full "tune" tune -c allgather -a ring,ne --nodes 3,4 --sizes 1KiB
full "tune --json" tune -c allgather -a ring,ne --nodes 3,4 --sizes 1KiB --json

# closed rather than full
LC_ALL=C "$TOOL" list >&- 2>"$T/err"
RC=$?
if [ "$RC" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "stdout closed: list -> exit 3, one line"
else
    fail "stdout closed: list -> exit 3, one line" "exit $RC" "$(cat "$T/err")"
fi

# a command that fails for its own reason keeps its code and its one line
LC_ALL=C "$TOOL" verify "$T/missing.json" >/dev/full 2>"$T/err"
RC=$?
if [ "$RC" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "stdout on /dev/full: a failing verify keeps exit 1 and its one line"
else
    fail "stdout on /dev/full: a failing verify keeps exit 1 and its one line" "exit $RC" "$(cat "$T/err")"
fi
LC_ALL=C "$TOOL" run -c allgather -a nosuch -n 4 -s 1KiB >/dev/full 2>"$T/err"
RC=$?
if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "stdout on /dev/full: bad input keeps exit 2 and its one line"
else
    fail "stdout on /dev/full: bad input keeps exit 2 and its one line" "exit $RC" "$(cat "$T/err")"
fi

finish
