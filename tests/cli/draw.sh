#!/usr/bin/env bash
# draw.sh TOOL [CLI_DIR] — `opticoll draw`: the SVG read back (draw_check.py, xml.etree) against
# an independent account of the same schedule: every ring lightpath once with the wavelength and
# fibre the ring model gave it (the Chrome trace's resource text), the star's wavelengths and
# filters, the fabric's circuits, the matrix's transfers (the schedule file), the rounds, views
# and index links (run --json), the summary past 64 nodes; a schedule file drawn like the
# request; --round R; names from a file escaped; bad input: one line, exit 2, no file.
# The PNG (gnuplot): the script of the same drawing read back the same way (every lightpath,
# transmission, circuit, cell once with its facts), the PNG whole and of the script's size,
# gnuplot run by hand on the script drawing the same bytes; no gnuplot: one line, exit 3.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
CHECK=$CLI_DIR/draw_check.py

# check DESCRIPTION KIND SVG REF [ROUND]: draw_check.py's verdict
check() {
    local what=$1
    shift
    if out=$(python3 "$CHECK" "$@" 2>&1); then pass "$what"; else fail "$what" "$out"; fi
}

# drawn NAME ARGS...: draw ARGS into $T/NAME.svg, the Chrome trace into $T/NAME.json, the run
# into $T/NAME.run and the schedule into $T/NAME.sched (the same request each time)
drawn() {
    local name=$1
    shift
    run_tool draw "$@" -o "$T/$name.svg"
    if [ "$RC" -ne 0 ] || [ -s "$T/out" ] || [ -s "$T/err" ]; then
        fail "$name: draw $*" "rc $RC" "$(cat "$T/err")"
        return 1
    fi
    LC_ALL=C "$TOOL" export "$@" --format chrome -o "$T/$name.json" &&
        LC_ALL=C "$TOOL" export "$@" --format json -o "$T/$name.sched" &&
        LC_ALL=C "$TOOL" run "$@" --json >"$T/$name.run"
}

# ---- the ring: every lightpath once, its wavelength and fibre as the model assigned them ----
# wrht at N = 16 on 4 wavelengths: one all-to-all round over 8 physical steps, both directions
if drawn wrht16 -c allgather -a wrht -n 16 -w 4 -s 1KiB; then
    check "ring wrht N=16 w=4: every lightpath once (round, step, dir, fibre, wavelength)" \
        ring "$T/wrht16.svg" "$T/wrht16.json"
    check "ring wrht N=16: rounds, a view per round, index links" index "$T/wrht16.svg" "$T/wrht16.run"
fi
# two fibres a direction, N = 7 (not a power of two); the lightpaths add up to the chunk-transfers
if drawn ring7 -c allreduce -a bt -n 7 -w 2 -f 2 -s 3KiB; then
    check "ring bt all-reduce N=7 w=2 F=2: every lightpath once" ring "$T/ring7.svg" "$T/ring7.json"
    check "ring bt N=7: rounds, views, index" index "$T/ring7.svg" "$T/ring7.run"
    got=$(grep -c 'class="lightpath"' "$T/ring7.svg")
    want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chunk_transfers"])' "$T/ring7.run")
    if [ "$got" = "$want" ]; then pass "ring N=7: $got lightpaths = the run's chunk-transfers"
    else fail "ring N=7: lightpaths = chunk-transfers" "$got drawn, $want in the run"; fi
fi
# onestage on 2 wavelengths x 2 fibres: the model needs the second fibre, and the drawing shows it
if drawn one7 -c allgather -a onestage -n 7 -w 2 -f 2 -s 1KiB; then
    check "ring onestage N=7 w=2 F=2: every lightpath once" ring "$T/one7.svg" "$T/one7.json"
    if grep -q 'data-fibre="1"' "$T/one7.svg"; then pass "ring N=7 F=2: the second fibre is drawn"
    else fail "ring N=7 F=2: the second fibre is drawn" "no lightpath on fibre 1"; fi
fi
# optree N = 12: multi-chunk transfers and many wavelengths in one step
if drawn optree12 -c allgather -a optree -n 12 -w 3 -s 1KiB; then
    check "ring optree N=12 w=3: every lightpath once" ring "$T/optree12.svg" "$T/optree12.json"
fi

# ---- --round R: that round alone ----
run_tool draw -c allgather -a ring -n 5 -s 1KiB --round 2 -o "$T/r2.svg"
LC_ALL=C "$TOOL" export -c allgather -a ring -n 5 -s 1KiB --format chrome -o "$T/r5.json"
LC_ALL=C "$TOOL" run -c allgather -a ring -n 5 -s 1KiB --json >"$T/r5.run"
if [ "$RC" -eq 0 ]; then
    check "--round 2 (ring N=5): round 2's lightpaths, each once, and no other" ring "$T/r2.svg" "$T/r5.json" 2
    check "--round 2: one view, one link" index "$T/r2.svg" "$T/r5.run" 2
else
    fail "--round 2" "rc $RC" "$(cat "$T/err")"
fi

# ---- the star: each transmission's wavelength and the receiver's filter ----
if drawn star9 -c broadcast -a tcp1 -t star -n 9 -s 1KiB; then
    check "star tcp1 N=9: every transmission once with its wavelength and filter" \
        star "$T/star9.svg" "$T/star9.json"
    check "star N=9: rounds, views, index" index "$T/star9.svg" "$T/star9.run"
fi
if drawn star5 -c alltoall -a tcp2 -t star -n 5 -s 1KiB; then
    check "star tcp2 all-to-all N=5: every transmission once" star "$T/star5.svg" "$T/star5.json"
fi

# ---- the fabric: circuits per round ----
if drawn fab12 -c allreduce -a rhd -t fabric -n 12 -s 1MiB; then
    check "fabric rhd N=12: every circuit once with its wavelengths" fabric "$T/fab12.svg" "$T/fab12.json"
    check "fabric N=12: rounds, views, index" index "$T/fab12.svg" "$T/fab12.run"
fi

# ---- the matrix: switch, fat-tree, a direct network ----
for net in "switch 12 allreduce rd" "fattree 20 allreduce rd" "hypercube 8 alltoall sex" \
    "torus 5 alltoall pipeline"; do
    read -r t n c a <<<"$net"
    if drawn "m-$t" -c "$c" -a "$a" -t "$t" -n "$n" -s 64KiB; then
        check "matrix on $t N=$n: every transfer once in its round" matrix "$T/m-$t.svg" "$T/m-$t.sched"
        check "matrix on $t: rounds, views, index" index "$T/m-$t.svg" "$T/m-$t.run"
    fi
done

# ---- the summary past 64 nodes ----
if drawn sum100 -c allgather -a optree -n 100 -s 1KiB; then
    check "N=100: the summary, its blocks' lightpaths = the run's chunk-transfers" summary "$T/sum100.svg" "$T/sum100.run"
fi
if drawn sum200 -c allgather -a onestage -n 200 -s 1KiB; then
    check "N=200, onestage (39800 lightpaths in one step): the summary" summary "$T/sum200.svg" "$T/sum200.run"
fi
if drawn sum65 -c allreduce -a rhd -t switch -n 65 -s 1MiB; then
    check "N=65 on the switch: the summary" summary "$T/sum65.svg" "$T/sum65.run"
fi

# ---- a schedule file, drawn like the request ----
run_tool draw "$T/wrht16.sched" -o "$T/file.svg"
if [ "$RC" -eq 0 ]; then
    check "a schedule file (wrht N=16, its own network): every lightpath once" \
        ring "$T/file.svg" "$T/wrht16.json"
else
    fail "draw FILE" "rc $RC" "$(cat "$T/err")"
fi
run_tool draw "$T/m-switch.sched" -t switch
if [ "$RC" -eq 0 ] && cp "$T/out" "$T/stdout.svg"; then
    check "draw FILE -t switch to standard output" matrix "$T/stdout.svg" "$T/m-switch.sched"
else
    fail "draw FILE to standard output" "rc $RC" "$(cat "$T/err")"
fi

# a name from the file is escaped: the document stays well-formed and says the name as it is
python3 - "$T/wrht16.sched" "$T/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["algorithm"] = "<x&y \"q\" 'a'>"
d["params"] = {"k<": "v&"}
json.dump(d, open(sys.argv[2], "w"))
PY
run_tool draw "$T/evil.json" -o "$T/evil.svg"
if [ "$RC" -eq 0 ] && python3 - "$T/evil.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
text = "".join(svg.itertext())
sys.exit(0 if "<x&y \"q\" 'a'>" in text and "k<=v&" in text else 1)
PY
then pass "a file's algorithm and parameters are escaped (well-formed, said as written)"
else fail "names escaped" "rc $RC" "$(cat "$T/err")"; fi

# the word after -o is its value whatever it looks like: a file named --round
ABS=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
(cd "$T" && LC_ALL=C "$ABS" draw -c allgather -a ring -n 4 -s 1KiB -o --round >/dev/null 2>&1)
if python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/--round" 2>/dev/null; then
    pass "-o --round writes a file named --round"
else
    fail "-o --round writes a file named --round" "$(ls -A "$T" | head)"
fi

# ---- the PNG through gnuplot: the same drawing as the SVG ----
# pngs NAME KIND REF ARGS...: NAME.gp (the script) read back as KIND against REF, NAME.png whole
# and of the script's size
pngs() {
    local name=$1 kind=$2 ref=$3
    shift 3
    run_tool draw "$@" -o "$T/$name.gp"
    if [ "$RC" -ne 0 ] || [ -s "$T/err" ]; then fail "$name: draw -o $name.gp" "rc $RC" "$(cat "$T/err")"; return 1; fi
    check "$name: the gnuplot script, read back ($kind)" "$kind" "$T/$name.gp" "$ref"
    run_tool draw "$@" -o "$T/$name.png"
    if [ "$RC" -ne 0 ] || [ -s "$T/out" ] || [ -s "$T/err" ]; then fail "$name: draw -o $name.png" "rc $RC" "$(cat "$T/err")"; return 1; fi
    check "$name: the PNG is whole, of the script's size" png "$T/$name.png" "$T/$name.gp"
}
if command -v gnuplot >/dev/null; then
    pngs wrht16 ring "$T/wrht16.json" -c allgather -a wrht -n 16 -w 4 -s 1KiB
    pngs ring7 ring "$T/ring7.json" -c allreduce -a bt -n 7 -w 2 -f 2 -s 3KiB
    # one element per lightpath: the script's lightpaths are the run's chunk-transfers
    got=$(grep -c '^# lightpath ' "$T/ring7.gp")
    want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chunk_transfers"])' "$T/ring7.run")
    if [ "$got" = "$want" ]; then pass "PNG ring N=7: $got lightpaths in the script = the run's chunk-transfers"
    else fail "PNG ring N=7: lightpaths = chunk-transfers" "$got in the script, $want in the run"; fi
    pngs star9 star "$T/star9.json" -c broadcast -a tcp1 -t star -n 9 -s 1KiB
    pngs fab12 fabric "$T/fab12.json" -c allreduce -a rhd -t fabric -n 12 -s 1MiB
    pngs m-torus matrix "$T/m-torus.sched" -c alltoall -a pipeline -t torus -n 5 -s 64KiB
    pngs sum100 summary "$T/sum100.run" -c allgather -a optree -n 100 -s 1KiB
    # --round and a schedule file, as the SVG
    run_tool draw "$T/wrht16.sched" --round 0 --format png -o "$T/file.img"
    if [ "$RC" -eq 0 ]; then check "draw FILE --format png -o FILE.img: a whole PNG" png "$T/file.img" "$T/wrht16.gp"
    else fail "draw FILE --format png" "rc $RC" "$(cat "$T/err")"; fi
    # the PNG is what gnuplot draws from that script, byte for byte (cairo is deterministic)
    if (cd "$T" && gnuplot -e "opticoll_output='hand.png'" wrht16.gp 2>/dev/null) && cmp -s "$T/hand.png" "$T/wrht16.png"; then
        pass "gnuplot run by hand on the script draws the same PNG"
    else
        fail "gnuplot on the script draws the PNG" "$(cmp "$T/hand.png" "$T/wrht16.png" 2>&1)"
    fi
    # a script names its own PNG (x.gp draws x.png) and quotes it: a name with a quote
    run_tool draw -c allgather -a ring -n 4 -s 1KiB -o "$T/it's.gp"
    if [ "$RC" -eq 0 ] && (cd "$T" && gnuplot "it's.gp" 2>/dev/null) && python3 "$CHECK" png "$T/it's.png" "$T/it's.gp" >/dev/null; then
        pass "a script's own PNG: it's.gp draws it's.png"
    else
        fail "a script's own PNG" "rc $RC" "$(cat "$T/err")" "$(ls "$T" | grep it)"
    fi
else
    fail "the PNG tests need gnuplot (scripts/deps.sh installs gnuplot-nox)"
fi
# no gnuplot on the PATH: one line, exit 3, no file, before any work
rm -rf "$T/none" && mkdir -p "$T/none"
ABS=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
PATH=/nonexistent LC_ALL=C "$ABS" draw -c allgather -a ring -n 5 -s 1KiB -o "$T/none/x.png" >"$T/out" 2>"$T/err"
RC=$?
if [ "$RC" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q gnuplot "$T/err" && [ -z "$(ls -A "$T/none")" ]; then
    pass "PNG without gnuplot: one line, exit 3, no file"
else
    fail "PNG without gnuplot" "rc $RC" "$(cat "$T/err")" "$(ls -A "$T/none")"
fi
# an old PNG stays when the new drawing is refused
echo old >"$T/keep.png"
run_tool draw -c allgather -a ring -n 300 -s 1KiB -o "$T/keep.png"
if [ "$RC" -eq 2 ] && [ "$(cat "$T/keep.png")" = old ] && [ -z "$(ls -A "$T" | grep '^\.opticoll')" ]; then
    pass "a refused PNG leaves the old file and no temporary"
else
    fail "a refused PNG leaves the old file" "rc $RC" "$(head -c 80 "$T/keep.png")"
fi

# ---- bad input: one line, exit 2, no file ----
refused() { # refused DESCRIPTION ARGS...: exit 2, one line on stderr, nothing in $T/none
    local what=$1
    shift
    rm -rf "$T/none"
    mkdir -p "$T/none"
    run_tool "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
        [ -z "$(ls -A "$T/none")" ]; then
        pass "$what"
    else
        fail "$what" "rc $RC" "$(cat "$T/err")" "$(ls -A "$T/none")"
    fi
}
refused "--format not svg, png or gnuplot" draw -c allgather -a ring -n 5 -s 1KiB --format jpg -o "$T/none/x.svg"
refused "--format png to standard output" draw -c allgather -a ring -n 5 -s 1KiB --format png
refused "--format given twice" draw -c allgather -a ring -n 5 -s 1KiB --format svg --format=png -o "$T/none/x.svg"
refused "--round past the last round" draw -c allgather -a ring -n 5 -s 1KiB --round 4 -o "$T/none/x.svg"
refused "--round not a number" draw -c allgather -a ring -n 5 -s 1KiB --round two -o "$T/none/x.svg"
refused "--round given twice" draw -c allgather -a ring -n 5 -s 1KiB --round 1 --round=2
refused "--round without a value" draw -c allgather -a ring -n 5 -s 1KiB --round
refused "more panels than the cap (ring all-gather N=300: 299 steps)" \
    draw -c allgather -a ring -n 300 -s 1KiB -o "$T/none/x.svg"
# two nodes exchanging 6000 chunks each: 12000 lightpaths in 94 steps, 24000 elements
python3 -c 'import json, sys; q = 6000; json.dump({"collective": "allgather", "nodes": 2, "chunks_per_block": q, "network": "ring", "rounds": [[{"src": 0, "dst": 1, "chunks": [0, q]}, {"src": 1, "dst": 0, "chunks": [q, q]}]]}, open(sys.argv[1], "w"))' "$T/wide.json"
refused "more elements than the cap (12000 lightpaths between two nodes)" \
    draw "$T/wide.json" -o "$T/none/x.svg"
refused "a summary past the elements cap too (ring all-gather N=200: its block pairs)" \
    draw -c allgather -a ring -n 200 -s 1KiB -o "$T/none/x.svg"
refused "an unknown algorithm" draw -c allgather -a nosuch -n 5 -s 1KiB -o "$T/none/x.svg"
refused "a restriction (ne needs N even)" draw -c allgather -a ne -n 5 -s 1KiB -o "$T/none/x.svg"
refused "a file and -c together" draw "$T/wrht16.sched" -c allgather -o "$T/none/x.svg"
refused "a file that does not exist" draw "$T/none/nosuch.json" -o "$T/none/x.svg"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("network"); d.pop("network_params", None); json.dump(d, open(sys.argv[2], "w"))' \
    "$T/wrht16.sched" "$T/nonet.json"
refused "a file with no network and no -t" draw "$T/nonet.json" -o "$T/none/x.svg"
LC_ALL=C "$TOOL" export -c allgather -a ring -n 4 -s 1KiB -t switch --format msccl -o "$T/p.xml"
refused "an MSCCL XML file" draw "$T/p.xml" -t switch -o "$T/none/x.svg"
# a schedule missing a transfer fails verification: exit 1, one line, no drawing
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["rounds"][-1].pop(); json.dump(d, open(sys.argv[2], "w"))' \
    "$T/ring7.sched" "$T/short.json"
rm -f "$T/short.svg"
run_tool draw "$T/short.json" -o "$T/short.svg"
if [ "$RC" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -e "$T/short.svg" ]; then
    pass "a schedule that fails verification: exit 1, no drawing"
else
    fail "a schedule that fails verification" "rc $RC" "$(cat "$T/err")"
fi
refused "-o into a directory that does not exist" draw -c allgather -a ring -n 4 -s 1KiB -o "$T/none/nodir/x.svg"

# an existing drawing is left as it was when the new one is refused
echo old >"$T/keep.svg"
run_tool draw -c allgather -a ring -n 300 -s 1KiB -o "$T/keep.svg"
if [ "$RC" -eq 2 ] && [ "$(cat "$T/keep.svg")" = old ] && [ -z "$(ls -A "$T" | grep '^\.opticoll')" ]; then
    pass "a refused drawing leaves the old file and no temporary"
else
    fail "a refused drawing leaves the old file" "rc $RC" "$(cat "$T/keep.svg" | head -c 80)"
fi

finish
