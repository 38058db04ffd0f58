#!/usr/bin/env bash
# units.sh TOOL [CLI_DIR] — one unit policy: in JSON the *_s fields hold seconds (on
# the star, units of tau, and "time_unit" says which), parameter values are numbers where they
# are numbers, and no two parameter names differ only in case; in text a time is printed in its
# unit under its name without "_s", the star's in tau, and a ratio as one (1.000 x).
set -u
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP

# ---- text: no "_s" name beside a time in ms, us or tau; the star in tau; ratios as ratios ----
for spec in "allgather optree ring 12" "allgather ring fattree 7" "allreduce rhd switch 5" \
    "allreduce rhd fabric 12" "broadcast tcp1 star 27" "alltoall sex hypercube 8" \
    "alltoall pipeline torus 5" "scatter tcp1 star 7"; do
    read -r c a t n <<<"$spec"
    run_tool run -c "$c" -a "$a" -t "$t" -n "$n" -s 4KiB
    bad_lines=$(grep -E '^  [a-z0-9_]+_s +[0-9.]+ (s|ms|us|ns|tau)$' "$T/out")
    if [ "$RC" -eq 0 ] && [ -z "$bad_lines" ]; then
        pass "run $a on $t: no field named *_s printed in a human unit"
    else
        fail "run $a on $t: *_s printed in a human unit" "$bad_lines" "$(cat "$T/err")"
    fi
done
run_tool run -c broadcast -a tcp1 -t star -n 100 -s 1KiB
if grep -qE '^  time: +[0-9.]+ tau' "$T/out" && ! grep -qE '[0-9] s( |$|\))' "$T/out"; then
    pass "the star's times in tau, never in seconds"
else
    fail "the star's times in tau" "$(cat "$T/out")"
fi
run_tool run -c allgather -a onestage -t ring -n 12 -w 4 -s 4KiB
if grep -qE '^  steps_to_lower_bound_ratio +[0-9]+\.[0-9]{3} x$' "$T/out" &&
    grep -qE '^  worst_round_ratio +[0-9]+\.[0-9]{3} x$' "$T/out" && ! grep -q over_lower_bound "$T/out"; then
    pass "ratios printed as ratios (1.000 x), named *_ratio"
else
    fail "ratios printed as ratios" "$(cat "$T/out")"
fi

# ---- JSON ----
if have_python; then
    run_tool run -c broadcast -a tcp1 -t star -n 27 -s 1KiB --json
    cp "$T/out" "$T/star.json"
    run_tool run -c allgather -a optree -t ring -n 12 -w 8 -s 4KiB --json
    cp "$T/out" "$T/ring.json"
    run_tool run -c allreduce -a rhd -t switch -n 7 -s 4KiB --net alpha_us=0.7 --json
    cp "$T/out" "$T/switch.json"
    run_tool export -c allreduce -a rhd -t switch -n 7 -s 4KiB --net alpha_us=0.7 --format json -o "$T/s.json"
    run_tool verify "$T/s.json" --json
    cp "$T/out" "$T/verified.json"
    if python3 - "$T" <<'PY'; then
import json, sys
d = sys.argv[1]
star, ring, sw, ver = (json.load(open(f"{d}/{n}.json")) for n in ("star", "ring", "switch", "verified"))
assert star["time_unit"] == "tau" and ring["time_unit"] == "s" and sw["time_unit"] == "s"
for r in (star, ring, sw):
    for k, v in list(r["params"].items()) + list(r["network_params"].items()):
        try:
            float(v if isinstance(v, str) else "x")
            raise AssertionError(f"{k}: the number {v!r} is a string")
        except ValueError:
            pass
assert star["params"]["k"] == 3 and star["network_params"]["tau"] == 1, star["params"]
assert ring["network_params"]["wavelengths"] == 8 and ring["network_params"]["preset"] == "seed"
assert isinstance(ring["params"]["radices"], str)
assert sw["network_params"]["alpha_us"] == 0.7
# a schedule file's numbers read back as written (0.7, not 0.69999999999999996)
assert ver["network_params"]["alpha_us"] == 0.7, ver["network_params"]
assert "steps_to_lower_bound_ratio" in ring["figures"] and "steps_over_lower_bound" not in ring["figures"]
PY
        pass "JSON: numbers as numbers, time_unit s or tau, 0.7 reads back as 0.7"
    else
        fail "JSON: numbers as numbers, time_unit"
    fi
fi

# ---- one name per unit: no two parameter names that differ only in case ----
run_tool list
names=$(grep -oE '[A-Za-z_]+=' "$T/out" | sort -u)
clash=$(echo "$names" | tr 'A-Z' 'a-z' | sort | uniq -d)
if [ "$RC" -eq 0 ] && [ -z "$clash" ] && grep -q 'bandwidth_gbps=40: Gb/s (bits)' "$T/out" &&
    grep -q 'bandwidth_gbytes=300: GB/s (bytes)' "$T/out"; then
    pass "parameter names: none differs from another only in case; Gb/s and GB/s named apart"
else
    fail "parameter names differing only in case" "$clash"
fi
finish
