#!/usr/bin/env bash
# loose.sh TOOL [CLI_DIR] — which side of a gap to the physical bound is likely loose (issue 26,
# item 2): the library decides it (oc_physical_bound_loose, from the kind of the time bound's
# argument), `--json` carries it as "likely_loose" beside "to_physical_bound_ratio" only where
# that ratio is above 2, and the text of `run` and `compare` prints the same side. One case per
# answer (schedule, bound, both, none), the JSON checked against the text of the same run; and the
# physical bound of a `compare` where no algorithm runs printed in the model's unit (the star's
# tau), not in seconds (the tau-scale number was printed as seconds).
set -u
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP

# the JSON's ratio and likely_loose ("-" when absent) of the report in $T/out
json_side() {
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["to_physical_bound_ratio"], r.get("likely_loose", "-"))' "$T/out"
}
# the side the text's "likely loose: ..." names ("-" when there is none)
text_side() {
    local line
    line=$(grep -oE 'likely loose: (the schedules|the bound|both)' "$T/out" | head -1)
    case "$line" in
    "likely loose: the schedules"*) echo schedule ;;
    "likely loose: the bound"*) echo bound ;;
    "likely loose: both"*) echo both ;;
    "") echo - ;;
    *) echo "?$line" ;;
    esac
}

# CASE EXPECTED ARGS...: `run ARGS --json` has likely_loose EXPECTED (- for absent, with a ratio
# of at most 2, else above 2), and `run ARGS` prints the same side
check_run() {
    local want=$1
    shift
    run_tool run "$@" --json
    local rc1=$RC got ratio side
    got=$(json_side)
    ratio=${got% *}
    side=${got#* }
    run_tool run "$@"
    local tside
    tside=$(text_side)
    local above
    above=$(python3 -c 'import sys; print(int(float(sys.argv[1]) > 2))' "$ratio")
    if [ "$rc1" -eq 0 ] && [ "$RC" -eq 0 ] && [ "$side" = "$want" ] && [ "$tside" = "$want" ] &&
        [ "$above" = "$([ "$want" = - ] && echo 0 || echo 1)" ]; then
        pass "run $*: likely_loose $want (ratio $ratio), the text says the same"
    else
        fail "run $*: likely_loose $want" "json: ratio $ratio side $side; text: $tside" \
            "$(grep 'physical bound' "$T/out")"
    fi
}

# the receive capacity binds (a capacity some schedule meets): the schedules
check_run schedule -c allgather -a optree -n 16 -w 2 -s 4MiB
# one reconfiguration and the relay depth bind on the fabric at 1 KiB: the bound
check_run bound -c allreduce -a rhd -t fabric -n 100 -s 1KiB
# the ring's relay depth binds where N is small next to w: the bound
check_run bound -c allreduce -a ring -n 12 -w 4 -s 1MiB
# the ring all-reduce's reduction spread: both
check_run both -c allreduce -a ring -n 16 -w 2 -s 1MiB
# within twice the bound: nothing named, in the JSON or the text
check_run - -c allreduce -a rhd -t switch -n 16 -s 1MiB -p radix=4

# compare: the gap line names the side of the best run's JSON (the least ratio among the runs)
for spec in "allreduce fabric 100 1KiB" "allreduce ring 12 1MiB -w 4" "allgather ring 7 4MiB -w 4" \
    "allreduce switch 16 1MiB"; do
    read -r c t n s w <<<"$spec"
    # shellcheck disable=SC2086  # $w is "-w N" or empty
    run_tool compare -c "$c" -t "$t" -n "$n" $w -s "$s" --json
    want=$(python3 -c '
import json, sys
runs = [r for r in json.load(open(sys.argv[1])) if "not_run" not in r]
best = min(runs, key=lambda r: r["to_physical_bound_ratio"])
print(best.get("likely_loose", "-"))' "$T/out")
    # shellcheck disable=SC2086
    run_tool compare -c "$c" -t "$t" -n "$n" $w -s "$s"
    got=$(text_side)
    if [ "$RC" -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
        pass "compare $c on $t, N = $n: the gap line's side ($got) is the best run's likely_loose"
    else
        fail "compare $c on $t, N = $n: gap line against the JSON" "json $want, text $got" \
            "$(grep -E 'gap:|physical bound' "$T/out")"
    fi
done

# compare --csv and sweep --csv: a likely_loose column, each run's the same as the JSON's ("" where
# the JSON has none), and every row (the not-run ones too) as wide as the header
for spec in "allreduce fabric 100 1KiB" "allreduce switch 16 1MiB" "allreduce ring 16 1MiB -w 2"; do
    read -r c t n s w <<<"$spec"
    # shellcheck disable=SC2086
    run_tool compare -c "$c" -t "$t" -n "$n" $w -s "$s" --json
    cp "$T/out" "$T/cmp.json"
    # shellcheck disable=SC2086
    run_tool compare -c "$c" -t "$t" -n "$n" $w -s "$s" --csv
    cp "$T/out" "$T/cmp.csv"
    # shellcheck disable=SC2086
    run_tool sweep -c "$c" -t "$t" --nodes "$n" $w --sizes "$s" --csv "$T/sw.csv" --json
    if python3 - "$T/cmp.json" "$T/cmp.csv" "$T/sw.csv" "$T/out" <<'PY'; then
import csv, json, sys
def sides(runs):
    return {r["algorithm"]: r.get("likely_loose", "") for r in runs if "not_run" not in r}
want = sides(json.load(open(sys.argv[1])))
swant = sides(json.load(open(sys.argv[4])))
for path, w in ((sys.argv[2], want), (sys.argv[3], swant)):
    rows = list(csv.reader(open(path)))
    head = rows[0]
    assert "likely_loose" in head and all(len(r) == len(head) for r in rows), path
    got = {r[1]: r[head.index("likely_loose")] for r in rows[1:] if r[head.index("verified")]}
    assert got == w, (path, got, w)
    assert set(w.values()) <= {"", "schedule", "bound", "both"}, w
PY
        pass "compare/sweep --csv $c on $t, N = $n: likely_loose as in the JSON, every row whole"
    else
        fail "compare/sweep --csv $c on $t, N = $n: likely_loose against the JSON" \
            "$(cat "$T/cmp.csv")"
    fi
done

# compare where no algorithm runs (no all-gather runs on the star): the bound in tau, as where
# algorithms run (the all-to-all)
run_tool compare -c allgather -t star -n 9 -s 1KiB
bline=$(grep 'physical bound' "$T/out")
run_tool compare -c alltoall -t star -n 12 -s 1KiB
rline=$(grep 'physical bound' "$T/out")
if echo "$bline" | grep -qE '\); [0-9.]+ tau \(' && ! echo "$bline" | grep -qE '[0-9] s \(' &&
    echo "$rline" | grep -qE '\); [0-9.]+ tau \('; then
    pass "compare on the star with nothing run: the bound in tau, as with runs"
else
    fail "compare on the star with nothing run: the bound in tau" "$bline" "$rline"
fi

finish
