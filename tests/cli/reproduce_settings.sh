#!/usr/bin/env bash
# reproduce_settings.sh — `reproduce -w -n --sizes -t --json`: the settings
# reach the paper (its text names them), a setting the paper does not take is refused naming the
# ones it takes, bad values are refused with one line and exit 2, and --json carries the same
# claims and tables as the text (so the JSON is the run, not a second computation).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "$@"
# the text is compared with --json cell by cell: tables at full width (COLUMNS=0), no notes
export COLUMNS=0

ok_if() { # NAME CONDITION-STATUS DETAIL...
    local name=$1 st=$2
    shift 2
    if [ "$st" = 0 ]; then pass "$name"; else fail "$name" "$@"; fi
}

for set in "27 2" "16 1" "125 4" "30 1"; do
    read -r n w <<<"$set"
    run_tool reproduce star -n "$n" -w "$w"
    grep -q "P = $n, k = $w" "$T/out"
    ok_if "star -n $n -w $w: the text runs at P = $n, k = $w" $? "rc=$RC" "$(head -c 600 "$T/out")" "$(cat "$T/err")"
    head -1 "$T/out" | grep -q '^Claims (the headline ones'
    ok_if "star -n $n -w $w: the claims table comes first" $? "$(head -2 "$T/out")"
    LC_ALL=C "$TOOL" reproduce star -n "$n" -w "$w" --json >"$T/j.json" 2>"$T/j.err"
    python3 - "$T/j.json" "$T/out" "$n" "$w" <<'PY' >"$T/py.out" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
n, w = int(sys.argv[3]), int(sys.argv[4])
assert d["paper"] == "star", d["paper"]
assert d["settings"] == {"wavelengths": w, "nodes": n, "sizes": None, "network": None}, d["settings"]
assert len(d["claims"]) >= 1, "no claims"
# every claim of the JSON is a row of the text's claims table, with the same reason
for c in d["claims"]:
    assert c["claim"] in text, c["claim"]
    if c["reason"]:
        assert c["reason"] in text, c["reason"]
# the first table is the claims table; every table's cells are in the text
assert d["tables"][0]["columns"][0] == "claim", d["tables"][0]["columns"]
for t in d["tables"]:
    for row in t["rows"]:
        for cell in row:
            assert cell in text, cell
print("ok")
PY
    ok_if "star -n $n -w $w --json: settings, claims and tables match the text" $? "$(cat "$T/py.out" "$T/j.err")"
done

refused "-t on a paper without it" "-t is not a setting of this paper (it takes -w, -n)" reproduce star -t ring
refused "--sizes on a paper without it" "--sizes is not a setting" reproduce star --sizes 1KiB
refused "a setting the paper does not take" "-w is not a setting of this paper (it takes -n, -t)" reproduce aas -w 3
refused "-w 0" "expected a whole number from 1 to" reproduce star -w 0
refused "-n -3" "expected a whole number from 1 to" reproduce star -n -3
refused "-n 1e3" "expected a whole number from 1 to" reproduce optree -n 1e3
refused "--sizes with a zero" "at least 1 byte" reproduce optree -n 12 --sizes 0,4KiB
refused "--sizes not a list" "expected sizes" reproduce wrht -n 12 --sizes lots
refused "--json with all" "one paper, without --out" reproduce all --json
refused "no paper names every paper" "optree, wrht, star, lumorph, aas, optima, all" reproduce
refused "all with settings no paper takes together" "no paper takes all of these settings" reproduce all -t torus --sizes 1KiB

# optree at other settings: the figures' series change with -w (computed, not copied)
LC_ALL=C "$TOOL" reproduce optree -n 12 -w 2 --sizes 4KiB --json >"$T/a.json" 2>"$T/a.err"
LC_ALL=C "$TOOL" reproduce optree -n 12 -w 4 --sizes 4KiB --json >"$T/b.json" 2>"$T/b.err"
python3 - "$T/a.json" "$T/b.json" <<'PY' >"$T/py.out" 2>&1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sa = [s["y"] for f in a["figures"] for s in f["series"]]
sb = [s["y"] for f in b["figures"] for s in f["series"]]
assert sa and sb, "no series"
assert sa != sb, "the series do not change with -w"
print("ok")
PY
ok_if "optree -n 12: the figures' series change between -w 2 and -w 4" $? "$(cat "$T/py.out" "$T/a.err" "$T/b.err")"

finish
