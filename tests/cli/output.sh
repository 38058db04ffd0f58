#!/usr/bin/env bash
# output.sh TOOL [CLI_DIR] — what a person reads and the files they name ("Options and
# output"): a size range includes its end point; sweep --plot writes the file named (one panel
# per N), in the format its extension names, says what it wrote, and refuses an unknown format or
# a missing gnuplot naming the file; the plot script labels an axis one way (no 1e+06 beside
# 100000) and tells series drawn on top of each other apart; compare lists the algorithms of
# other networks in one line and reads -a as sweep does; tables fit 100 columns in a pipe.
set -u
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP

# ---- the end point of a range ----
run_tool sweep -c allgather -t ring --nodes 5 --sizes 4KiB..64MiB:*16 --json --no-data-check -a ring
if [ "$RC" -eq 0 ] && grep -q '"bytes": 67108864' "$T/out" && grep -q '"bytes": 16777216' "$T/out"; then
    pass "--sizes 4KiB..64MiB:*16 runs 16 MiB and the end point 64 MiB"
else
    fail "--sizes 4KiB..64MiB:*16 includes 64 MiB" "$(head -c 300 "$T/err")"
fi
run_tool sweep -c allgather -t ring --nodes 3..20 --sizes 1KiB -a ring
if [ "$RC" -eq 0 ] && [ "$(grep -cE '^ +(3|6|12|20) ' "$T/out")" = 4 ]; then
    pass "--nodes 3..20 is 3, 6, 12, 20"
else
    fail "--nodes 3..20 is 3, 6, 12, 20" "$(cat "$T/out" "$T/err")"
fi

# ---- plots: refusals first (nothing runs, nothing is written) ----
refused "--plot out.bmp: unknown format refused" "out.bmp: unknown image format" \
    sweep -c allgather -t ring --nodes 5 --sizes 1KiB --plot "$T/out.bmp"
[ ! -e "$T/out.bmp" ] && pass "nothing written for out.bmp" || fail "out.bmp was written"
EMPTY=$T/nopath
mkdir -p "$EMPTY"
LC_ALL=C PATH=$EMPTY "$TOOL" sweep -c allgather -t ring --nodes 5 --sizes 1KiB --plot "$T/named.png" \
    >"$T/out" 2>"$T/err"
if [ $? -eq 3 ] && grep -q "named.png: gnuplot is not installed" "$T/err"; then
    pass "gnuplot missing: the error names the file"
else
    fail "gnuplot missing: the error names the file" "$(cat "$T/err")"
fi

magic() { head -c "$2" "$1" | od -An -tx1 | tr -d ' \n'; }
if command -v gnuplot >/dev/null 2>&1; then
    run_tool sweep -c allgather -t ring -a ring,ne,rd --nodes 4,7,12 --sizes 1KiB..1MiB:*32 \
        --plot "$T/t.png" --csv "$T/t.csv"
    if [ "$RC" -eq 0 ] && [ "$(magic "$T/t.png" 8)" = 89504e470d0a1a0a ] && [ ! -e "$T/t-n4.png" ] &&
        grep -qx "plot: wrote $T/t.png (3 panels, one per N)" "$T/out" &&
        grep -qx "csv: wrote $T/t.csv" "$T/out"; then
        pass "sweep --plot t.png over 3 N: t.png itself, 3 panels, every file written named"
    else
        fail "sweep --plot t.png over 3 N" "$(tail -3 "$T/out")" "$(cat "$T/err")" "$(ls "$T")"
    fi
    run_tool sweep -c allgather -t ring -a ring --nodes 4 --sizes 1KiB --plot "$T/o.json.png" --json
    if [ "$RC" -eq 0 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" &&
        grep -q "plot: wrote" "$T/err"; then
        pass "--json keeps stdout JSON; the file written is said on stderr"
    else
        fail "--json with --plot" "$(head -c 300 "$T/out")" "$(cat "$T/err")"
    fi
    for ext in jpg:ffd8ff jpeg:ffd8ff svg: pdf:25504446 gif:474946 PNG:89504e47; do
        e=${ext%%:*} m=${ext#*:}
        run_tool sweep -c allgather -t ring -a ring --nodes 4 --sizes 1KiB,4KiB --plot "$T/f.$e"
        if [ "$e" = svg ]; then ok=$(grep -c '<svg' "$T/f.$e" 2>/dev/null); else
            [ "$(magic "$T/f.$e" $((${#m} / 2)))" = "$m" ] && ok=1 || ok=0; fi
        if [ "$RC" -eq 0 ] && [ "${ok:-0}" -ge 1 ]; then pass "--plot f.$e writes $e bytes"; else
            fail "--plot f.$e writes $e bytes" "$(magic "$T/f.$e" 8)" "$(cat "$T/err")"; fi
    done
else
    skip "gnuplot is not installed: the drawing checks"
fi

# The script itself (reproduce --out keeps it): one label style, and series on top of each other.
run_tool reproduce star --out "$T/rep"
if [ "$RC" -eq 0 ] || [ -s "$T/rep/star-tradeoff.gp" ] 2>/dev/null; then :; fi
GP=$(ls "$T"/rep/*.gp 2>/dev/null | head -1)
if [ -n "$GP" ] && ! grep -q 'set format y "%g"' "$T"/rep/*.gp; then
    pass "no %g tic labels (they mix 100000 and 1e+06)"
else
    fail "no %g tic labels" "$(grep -l 'format y' "$T"/rep/*.gp 2>&1 | head -3)"
fi
if [ -n "$GP" ] && grep -q ' dt [0-9]' "$GP"; then pass "every series has a dash pattern"; else
    fail "every series has a dash pattern" "$GP"; fi

# ---- compare: what does not apply, in one line; -a read as sweep reads it ----
run_tool compare -c alltoall -t hypercube -n 8 -s 4KiB
others=$(grep -c 'for other networks' "$T/out")
if [ "$RC" -eq 0 ] && [ "$others" = 1 ] && ! grep -q 'runs on .*, not on hypercube' "$T/out" &&
    grep -q 'for other networks (14; see opticoll list): tcp2, kautz, onestage' "$T/out" &&
    [ "$(tail -1 "$T/out" | cut -c1-22)" = "  for other networks (" ] && grep -q '^  dex  *not run: ' "$T/out"; then
    pass "compare on the hypercube: the 14 algorithms of other networks in one last line"
else
    fail "compare on the hypercube: other networks' algorithms in one line" "$(cat "$T/out")"
fi
run_tool compare -c alltoall -t hypercube -n 8 -s 4KiB --json
if [ "$RC" -eq 0 ] && [ "$(grep -o '"not_run"' "$T/out" | wc -l)" = 15 ]; then
    pass "compare --json keeps a not_run entry for each of the 15"
else
    fail "compare --json keeps every not_run entry"
fi
for cmd in compare sweep; do
    s=-s
    [ $cmd = sweep ] && s=--sizes
    refused "$cmd -a with an algorithm of another network" "-a: 'tcp2' does not run on hypercube" \
        $cmd -c alltoall -t hypercube -n 8 $s 4KiB -a sex,tcp2
    refused "$cmd -a with a name twice" "-a: 'sex' is listed twice" \
        $cmd -c alltoall -t hypercube -n 8 $s 4KiB -a sex,sex
    refused "$cmd -a with an empty item" "expected names separated by commas" \
        $cmd -c alltoall -t hypercube -n 8 $s 4KiB -a sex,
    refused "$cmd -a with an unknown name" "-a: 'foo' is not an algorithm of alltoall" \
        $cmd -c alltoall -t hypercube -n 8 $s 4KiB -a foo
done

# ---- tables fit a pipe's 100 columns ----
# Each reproduction runs once in a pipe (they are the slowest runs of this script, most of all
# under the sanitizers); the checks below read the saved output.
# Under the sanitizers (OC_TEST_SANITIZED=1, set by tests/cli.cmake) optree and wrht reproduce at
# N = 64, w = 8 and two sizes, lumorph at its 1 GiB row alone: the same tables with the same
# columns (and lumorph's 7197.02 below) in well under a second of CPU, where the papers' own
# settings took 66-72 s each for optree and wrht and 25 s for lumorph there; the release build
# checks the papers' own settings.
settings_of() {
    [ "${OC_TEST_SANITIZED:-0}" = 1 ] || return 0
    case "$1" in
    optree | wrht) echo "-n 64 -w 8 --sizes 1KiB,1MiB" ;;
    lumorph) echo "--sizes 1GiB" ;;
    esac
}
for paper in optree wrht lumorph star aas; do
    # shellcheck disable=SC2046  # the settings are words on purpose
    run_tool reproduce "$paper" $(settings_of "$paper")
    cp "$T/out" "$T/pipe-$paper.out"
    echo "$RC" >"$T/pipe-$paper.rc"
done
rc_of() { cat "$T/pipe-$1.rc"; }
widest=$(awk '/ \| / { if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/pipe-aas.out")
if [ "$(rc_of aas)" -eq 0 ] && [ "$widest" -le 100 ] && grep -qE '^  \[1\] ' "$T/pipe-aas.out"; then
    pass "reproduce aas in a pipe: table rows within 100 columns ($widest), reasons as notes"
else
    fail "reproduce aas table rows within 100 columns" "widest $widest"
fi
# star's and lumorph's tables fit too, counted in characters (α-β is 3); but a number is never
# cut to fit ("7197.0" over "2" would read as 7197.0): lumorph's 11 columns of 7-digit times keep
# their numbers whole and may pass the width by those digits (at most 110)
for paper in star lumorph; do
    widest=$(python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8") if " | " in l or "-+-" in l))' "$T/pipe-$paper.out")
    limit=100
    [ "$paper" = lumorph ] && limit=110
    if [ "$(rc_of "$paper")" -eq 0 ] && [ "$widest" -le "$limit" ]; then
        pass "reproduce $paper in a pipe: table rows within $limit columns ($widest)"
    else
        fail "reproduce $paper table rows within $limit columns" "widest $widest"
    fi
done
# the prose around the tables is wrapped to the width too (it reached 805 characters)
for paper in optree wrht lumorph star aas; do
    widest=$(python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8") if not (" | " in l or "-+-" in l)))' "$T/pipe-$paper.out")
    if [ "$(rc_of "$paper")" -eq 0 ] && [ "$widest" -le 100 ]; then
        pass "reproduce $paper in a pipe: every line but table rows within 100 columns ($widest)"
    else
        fail "reproduce $paper: lines within 100 columns" "widest $widest"
    fi
done
if grep -qE '^  1 GiB +\| 7197\.02 +\|' "$T/pipe-lumorph.out"; then
    pass "reproduce lumorph in a pipe: numbers whole (7197.02 on one line)"
else
    fail "reproduce lumorph in a pipe: numbers whole" "$(grep -A2 '^  1 GiB' "$T/pipe-lumorph.out" | head -6)"
fi
COLUMNS=0 run_tool reproduce aas
wide=$(awk '/ \| / { if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")
COLUMNS=90 run_tool reproduce aas
narrow=$(awk '/ \| / { if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/out")
if [ "$wide" -gt 200 ] && [ "$narrow" -le 90 ]; then
    pass "COLUMNS=0: whole rows ($wide columns); COLUMNS=90: rows within 90 ($narrow)"
else
    fail "COLUMNS sets the width" "COLUMNS=0: $wide, COLUMNS=90: $narrow"
fi
run_tool reproduce aas --json
if [ "$RC" -eq 0 ] && python3 - "$T/out" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for t in d["tables"] for r in t["rows"]]
assert max(len(c) for r in rows for c in r) > 100, "the JSON keeps the whole reasons"
assert not any(c.startswith("[") and c.endswith("]") and c[1:-1].isdigit() for r in rows for c in r)
PY
    pass "reproduce --json keeps the whole reasons (no note numbers)"
else
    fail "reproduce --json keeps the whole reasons"
fi
finish
