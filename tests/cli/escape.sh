#!/usr/bin/env bash
# escape.sh TOOL [CLI_DIR] — user text in an error line is escaped and cut.
#
# Control characters (ESC, LF, CR, TAB, BEL) in a file name, -a, a --net key, -s, -c, a rack
# trace line, an MSCCL attribute or a decision file must reach stderr escaped (\x1b, \n, ...):
# one line, no raw control byte. A huge bad value gives a line of a few hundred bytes at most,
# which says how long the value was.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

E=$'x\e[31mred\a\t\r\ny' # ESC, BEL, TAB, CR, LF
BIG=$(head -c 100000 /dev/zero | tr '\0' a) # an argument may hold 128 KiB

# clean CODE PATTERN ARGS...: opticoll ARGS exits CODE, prints nothing on stdout and one line on
# stderr that names PATTERN (a fixed string), holds no raw control byte (but its final newline)
# and is under 400 bytes. The test's own line shows the arguments quoted and cut.
clean() {
    local code=$1 pat=$2
    shift 2
    run_tool "$@"
    local why=() desc n
    desc=$(printf '%q ' "$@")
    desc="opticoll ${desc:0:100} "
    [ "$RC" -eq "$code" ] || why+=("exit $RC, expected $code")
    [ -s "$T/out" ] && why+=("stdout not empty")
    n=$(wc -l <"$T/err")
    [ "$n" -eq 1 ] || why+=("$n lines on stderr, expected 1")
    grep -qF -- "$pat" "$T/err" || why+=("stderr does not mention '$pat'")
    n=$(tr -d '\n' <"$T/err" | LC_ALL=C tr -dc '\000-\037\177' | wc -c)
    [ "$n" -eq 0 ] || why+=("$n raw control bytes on stderr")
    n=$(wc -c <"$T/err")
    [ "$n" -lt 400 ] || why+=("stderr is $n bytes")
    if [ ${#why[@]} -eq 0 ]; then
        pass "$desc-> exit $code, $n bytes: $(head -c 160 "$T/err")"
    else
        fail "$desc" "${why[@]}" "stderr: $(head -c 300 "$T/err" | od -c | head -6)"
    fi
}

RUN=(run -c allgather -a ring -n 4 -s 4KiB)
clean 2 'x\x1b[31mred\x07\t\r\ny' verify "$E"
clean 2 'x\x1b[31mred' run -c allgather -a "$E" -n 4 -s 4KiB
clean 2 'x\x1b[31mred' "${RUN[@]}" --net "$E=3"
clean 2 'x\x1b[31mred' "${RUN[@]}" -p "$E=3"
clean 2 'x\x1b[31mred' run -c allgather -a ring -n 4 -s "$E"
clean 2 'x\x1b[31mred' run -c "$E" -a ring -n 4 -s 4KiB
clean 2 'x\x1b[31mred' run -c allgather -a ring -n "$E" -s 4KiB
clean 2 'x\x1b[31mred' "${RUN[@]}" -t "$E"
clean 2 'x\x1b[31mred' "${RUN[@]}" --preset "$E"
clean 2 'x\x1b[31mred' "${RUN[@]}" "$E"
clean 2 'x\x1b[31mred' "$E"
clean 2 'x\x1b[31mred' sweep -c allgather --nodes "$E" --sizes 4KiB
clean 2 'x\x1b[31mred' export -c allgather -a ring -n 4 -s 4KiB --format "$E"
clean 2 'x\x1b[31mred' train -m "$E" -n 4
clean 2 'x\x1b[31mred' throughput -m BERT-base -n 4 --buckets "$E"
clean 2 'x\x1b[31mred' rack --servers "$E"
# huge values: cut, with their length
clean 2 '(100000 bytes)' run -c allgather -a "$BIG" -n 4 -s 4KiB
clean 2 '(100000 bytes)' "${RUN[@]}" --net "$BIG=1"
clean 2 '(100000 bytes)' "${RUN[@]}" -p "$BIG=1"
clean 2 '(100000 bytes)' run -c allgather -a ring -n 4 -s "$BIG"
clean 2 '(100000 bytes)' run -c allgather -a ring -n "$BIG" -s 4KiB
clean 2 '(100000 bytes)' run -c "$BIG" -a ring -n 4 -s 4KiB
clean 2 '(100000 bytes)' "${RUN[@]}" -t "$BIG"
clean 2 '(100000 bytes)' "${RUN[@]}" --preset "$BIG"
clean 2 '(100000 bytes)' "$BIG"
clean 2 '(100000 bytes)' sweep -c allgather --nodes "$BIG" --sizes 4KiB
clean 2 '... (' verify "$T/$(head -c 250 /dev/zero | tr '\0' b)"

# a rack trace line: the tokens are split at white space, so ESC and BEL
printf '0 arrive a 4\n1 x\033[31m\007b b 4\n' >"$T/trace"
clean 2 'x\x1b[31m\x07b' rack --trace "$T/trace"
printf '0 arrive a%s 4\n' "$(head -c 2000 /dev/zero | tr '\0' c)" >"$T/trace2"
clean 2 'trace2:1' rack --trace "$T/trace2"
# an MSCCL attribute: character references put LF and TAB into it
cat >"$T/m.xml" <<'XML'
<algo name="x" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allgather&#10;&#9;x" inplace="1">
</algo>
XML
clean 2 'allgather\n\tx' verify "$T/m.xml"
cat >"$T/m2.xml" <<'XML'
<algo name="x" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allgather" inplace="1">
  <gpu id="0" i_chunks="0" o_chunks="2" s_chunks="0">
    <tb id="0" send="1" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="o&#13;&#9;" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
</algo>
XML
clean 2 'o\r\t' verify "$T/m2.xml"

# a decision file: a huge winner with ESC, and huge network parameters (once a 2.7 MB line)
"$TOOL" tune -c allgather --nodes 4,8 --sizes 1KiB -o "$T/dec.json" >/dev/null 2>&1 ||
    fail "tune -o writes a decision file"
if have_python; then
    python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
s = open(t + "/dec.json").read()
open(t + "/w.json", "w").write(s.replace('"winner":\t"', '"winner":\t"\\u001b[31m' + "x" * 3000000, 1))
open(t + "/np.json", "w").write(s.replace('"network_params":\t{', '"network_params":\t{"a": "' + "y" * 2700000 + '"', 1))
PY
    clean 2 '\x1b[31mxxx' run -c allgather -n 4 -s 1KiB -a auto --decisions "$T/w.json"
    clean 2 'yyy... (' run -c allgather -n 4 -s 1KiB -a auto --decisions "$T/np.json"
else
    skip "decision files (no python3)"
fi
finish
