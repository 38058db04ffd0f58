#!/usr/bin/env bash
# dbtree_fattree.sh TOOL [CLI_DIR] — dbtree's pipeline search on the fat-tree prunes by a bound
# that counts the payload (the busiest node's packets), so a large vector does not map thousands
# of candidates (1 GiB at N = 3 ran past 2 minutes of CPU, mapping every C up to 65536 / 50 us
# rounds), and the default is still the best of every pinned pipeline at sizes that are not whole
# packets.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

if ! have_python; then
    skip "dbtree fat-tree search (python3 missing)"
    finish
fi

# 1. The search maps few candidates: 64 MiB at N = 3 mapped 2093 of them before the bounds (138
#    with it), N = 7 1803 (185).
AR=(run -q -c allreduce -a dbtree -t fattree)
for n in 3 7; do
    run_tool "${AR[@]}" -n "$n" -s 64MiB --json
    mapped=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["search"]["mapped"])' \
        "$T/out" 2>/dev/null)
    if [ "$RC" -eq 0 ] && [ -n "$mapped" ] && [ "$mapped" -le 400 ]; then
        pass "dbtree fattree N=$n 64MiB: $mapped candidates mapped"
    else
        fail "dbtree fattree N=$n 64MiB: at most 400 candidates mapped" "rc=$RC mapped=${mapped:-?}" \
            "$(head -c 300 "$T/err")"
    fi
done

# 2. Every mapped candidate's bound is at most its mapped time (the bounds are proven, never
#    estimates), with leaves of 16 and of 3 (most rounds cross a spine).
for args in "-n 97 -s 64MiB" "-n 40 -s 3MiB --net leaf_down=3" "-n 13 -s 1000003 --net leaf_down=2"; do
    # shellcheck disable=SC2086  # the words of $args are separate arguments
    run_tool "${AR[@]}" $args --explain --json
    verdict=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["search"]["candidates"]
m = [x for x in c if x["status"] == "mapped"]
bad = [x for x in m if x["bound_time_s"] > x["time_s"] * (1 + 1e-12)]
print("%d %d" % (len(m), len(bad)) + ("" if not bad else " e.g. %r" % bad[0]))' "$T/out" 2>&1)
    set -- $verdict
    if [ "$RC" -eq 0 ] && [ "${2:-x}" = 0 ]; then
        pass "dbtree fattree $args: every bound of the $1 mapped candidates at most its time"
    else
        fail "dbtree fattree $args: every bound at most its mapped time" "rc=$RC" "$verdict"
    fi
done

# 3. The default against every pipeline the user could pin (C rounds of at least one 50 us
#    router delay each: no C past best / 50 us can win), at sizes that are not whole packets.
LC_ALL=C python3 - "$TOOL" >"$T/py" 2>&1 <<'PY'
import json, subprocess, sys
tool = sys.argv[1]
def run(n, s, *pins):
    args = [tool, "run", "-q", "-c", "allreduce", "-a", "dbtree", "-t", "fattree", "-n", str(n),
            "-s", str(s), "--json", "--no-data-check"] + net
    for p in pins:
        args += ["-p", p]
    r = subprocess.run(args, capture_output=True, text=True)
    return json.loads(r.stdout)["time_s"] if r.returncode == 0 else None
# the default leaves of 16 nodes, and leaves of 3 (most transfers cross a spine: the bound's
# three routers a round)
for net, n, s in [([], n, s) for n in (3, 7, 17) for s in (100003, 1048577)] + \
                 [(["--net", "leaf_down=3"], n, s) for n in (7, 13) for s in (100003, 1048577)]:
    if True:
        default, best, arg, c = run(n, s), None, None, 1
        while True:
            t = run(n, s, "pipeline=%d" % c)
            if t is None:
                break
            if best is None or t < best:
                best, arg = t, c
            if c * 50e-6 > best:
                break
            c += 1
        ok = default is not None and default <= best * (1 + 1e-9)
        print("%s dbtree fattree %sN=%d %d bytes: default %r s, best pinned pipeline=%s %r s"
              % ("ok" if ok else "FAIL", " ".join(net[1:]) + " " if net else "", n, s, default,
                 arg, best))
PY
[ -s "$T/py" ] || fail "the exhaustive pipeline check printed nothing"
while read -r verdict text; do
    if [ "$verdict" = ok ]; then pass "$text"; else fail "$verdict $text"; fi
done <"$T/py"
finish
