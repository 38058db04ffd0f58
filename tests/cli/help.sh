#!/usr/bin/env bash
# help.sh TOOL [CLI_DIR [BENCH]] — the help texts say what the commands take: every
# option of tools/cli.c's table that a command takes appears in that command's --help; run's
# help names -a auto and --decisions; export's says chrome works on every network (and it does);
# reproduce without a paper names every paper its --help lists; oc_bench --help prints its
# usage and runs nothing.
set -u
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
BENCH=${3:-}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP
SRC=$CLI_DIR/../../tools

# ---- every option of the table in its command's help ----
if have_python; then
    python3 - "$SRC/cli.h" "$SRC/cli.c" >"$T/table" <<'PY'
import re, sys
h, c = open(sys.argv[1]).read(), open(sys.argv[2]).read()
# cli.h's groups (#define OPT_PROBLEM OPT_COLL, ...) and cli.c's lists (OPT_LIST(...)) of opt_ids
groups = {name: body.split(",") for name, body in
          re.findall(r"#define (OPT_[A-Z_]+) (OPT_[A-Z_][A-Z_, ]*)\n", h)}
def expand(names):
    out = set()
    for n in (x.strip() for x in names):
        if n:
            out |= expand(groups[n]) if n in groups else {n}
    return out
cmds = re.search(r"command_options\[\] = \{(.*?)\n\};", c, re.S).group(1)
allowed = {}
for cmd, body in re.findall(r'\{"(\w+)",\s*OPT_LIST\(([^)]*)\)\}', cmds):
    allowed[cmd] = expand(re.sub(r"/\*.*?\*/", "", body).split(","))
rows = re.search(r"cli_options\[\] = \{(.*?)\n\};", c, re.S).group(1)
for letter, name, opt, only in re.findall(
        r'\{\{(NULL|"-\w")\s*,\s*"(--[\w-]+)"\s*,\s*\d\s*,\s*(OPT_\w+)\}\s*,[^,]*,\s*(NULL|"[^"]*")\}', rows):
    if opt == "OPT_HELP":
        continue
    for cmd, a in allowed.items():
        if opt not in a:
            continue
        # train is shown the shared options so that it can refuse them by name (-c, -s, -r,
        # --format, -o, --csv) or ignore them (--links, --explain, --objective): not its own
        if cmd == "train" and name in ("--collective", "--size", "--root", "--format", "--output",
                                       "--csv", "--links", "--explain", "--objective"):
            continue
        if only != "NULL" and cmd not in only.strip('"').split():
            continue
        print(cmd, name, letter.strip('"') if letter != "NULL" else "-")
PY
    n=$(wc -l <"$T/table")
    missing=()
    while read -r cmd name letter; do
        LC_ALL=C "$TOOL" "$cmd" --help >"$T/h" 2>&1
        # -w: --net is not found inside --network, nor -c inside --collective
        grep -qwF -- "$name" "$T/h" || missing+=("$cmd --help lacks $name")
        if [ "$letter" != - ]; then
            grep -qwF -- "$letter" "$T/h" || missing+=("$cmd --help lacks $letter")
        fi
    done <"$T/table"
    if [ "$n" -gt 40 ] && [ ${#missing[@]} -eq 0 ]; then
        pass "every option of tools/cli.c's table is in its command's --help ($n pairs)"
    else
        fail "every option of the table in its command's --help ($n pairs)" "${missing[@]}"
    fi
else
    skip "python3 missing: the option table check"
fi

# ---- what each help must say ----
says() { # says DESCRIPTION PATTERN CMD...: `opticoll CMD... --help` matches the extended regex
    local desc=$1 pat=$2
    shift 2
    run_tool "$@" --help
    if [ "$RC" -eq 0 ] && grep -qE -- "$pat" "$T/out"; then pass "$desc"; else
        fail "$desc" "rc=$RC" "$(head -5 "$T/out")"; fi
}
says "run --help names -a auto" '-a auto' run
says "run --help names --decisions FILE" '--decisions FILE' run
says "export --help: chrome on every network" 'chrome://tracing \(every' export
run_tool export --help
if grep -q 'ring, switch, star' "$T/out"; then fail "export --help still limits chrome"; else
    pass "export --help does not limit chrome to some networks"; fi
says "sweep --help names the image formats" '\.svg, \.pdf, \.jpg' sweep
# and chrome does work on every network
for spec in "allgather ring ring 8" "allgather ring switch 8" "broadcast tcp1 star 8" \
    "allreduce rhd fabric 8" "allgather ring fattree 8" "alltoall sex hypercube 8" \
    "alltoall pipeline torus 8" "alltoall bex mesh 16 --net switching=wh"; do
    read -r c a t n extra <<<"$spec"
    # shellcheck disable=SC2086
    run_tool export -c "$c" -a "$a" -t "$t" -n "$n" -s 1KiB --format chrome $extra
    if [ "$RC" -eq 0 ] && grep -q '"traceEvents"' "$T/out" && grep -q '"send ' "$T/out"; then
        pass "export --format chrome on $t"
    else
        fail "export --format chrome on $t" "$(cat "$T/err")"
    fi
done

# ---- every --help ends with two or three examples ----
# The commands are the dispatcher's (tools/opticoll.c), so that a new command is checked without a
# line here; the block is the last one: "examples" (a heading, e.g. "examples (after ...):"), then
# two or three lines each a command line of the tool, then the end of the text.
ends_with_examples() { # FILE TOOLNAME: 0 when FILE's last block is 2-3 example lines
    awk -v tool="$2" '
        /^examples/ { n = 0; inblock = 1; next }
        inblock && /^  / { if (index($0, tool) == 0) bad = 1; n++; next }
        { inblock = 0; n = -99 }
        END { exit !(n >= 2 && n <= 3 && !bad) }' "$1"
}
cmds=$(grep -oE 'strcmp\(cmd, "[a-z]+"\)\) (return cmd_|fn = )|strcmp\(cmd, "[a-z]+"\)\)$' \
    "$SRC/opticoll.c" | grep -oE '"[a-z]+"' | tr -d '"' | grep -v '^help$')
no_examples=()
for c in "" $cmds; do
    # shellcheck disable=SC2086
    LC_ALL=C "$TOOL" $c --help >"$T/h" 2>&1
    ends_with_examples "$T/h" opticoll || no_examples+=("${c:-opticoll} --help")
done
if [ "$(echo "$cmds" | wc -w)" -ge 15 ] && [ ${#no_examples[@]} -eq 0 ]; then
    pass "opticoll --help and each of its $(echo "$cmds" | wc -w) commands' end with 2-3 examples"
else
    fail "every --help ends with 2-3 examples ($(echo "$cmds" | wc -w) commands)" \
        "${no_examples[@]}"
fi
MPI_TOOL=$(dirname "$TOOL")/opticoll-mpi
if [ -x "$MPI_TOOL" ]; then
    # --help prints and exits before MPI_Init's work, as the tool's own tests run it; Open MPI's
    # own allocations at exit are not ours to free (the MPI tests run with leaks unchecked too)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$MPI_TOOL" --help >"$T/h" 2>&1
    if ends_with_examples "$T/h" opticoll-mpi; then pass "opticoll-mpi --help ends with examples"
    else fail "opticoll-mpi --help ends with 2-3 examples" "$(tail -4 "$T/h")"; fi
else
    skip "no opticoll-mpi beside the tool"
fi

# ---- reproduce without a paper names every paper ----
run_tool reproduce --help
papers=$(sed -n '/^Papers and the settings/,/^$/p' "$T/out" | awk 'NR > 1 && NF { print $1 }')
run_tool reproduce
miss=()
for p in $papers all; do grep -qE "[ (]$p[,;)]" "$T/err" || miss+=("$p"); done
if [ "$RC" -eq 2 ] && [ "$(echo "$papers" | wc -w)" -ge 5 ] && [ ${#miss[@]} -eq 0 ]; then
    pass "reproduce without a paper names all $(echo "$papers" | wc -w) papers and all"
else
    fail "reproduce without a paper names every paper" "missing: ${miss[*]}" "$(cat "$T/err")"
fi

# ---- oc_bench --help ----
if [ -n "$BENCH" ] && [ -x "$BENCH" ]; then
    start=$(date +%s%N)
    "$BENCH" --help >"$T/out" 2>"$T/err"
    rc=$? ms=$((($(date +%s%N) - start) / 1000000))
    if [ $rc -eq 0 ] && grep -q '^usage: oc_bench' "$T/out" && grep -q 'ring-allgather-4096' "$T/out" &&
        ! grep -q 'opticoll bench:' "$T/out" && [ $ms -lt 2000 ]; then
        pass "oc_bench --help prints its usage and the cases, runs nothing (${ms} ms)"
    else
        fail "oc_bench --help" "rc=$rc, ${ms} ms" "$(head -3 "$T/out")"
    fi
    "$BENCH" no-such-case >"$T/out" 2>"$T/err"
    if [ $? -eq 2 ] && grep -q "unknown case 'no-such-case'" "$T/err" && [ ! -s "$T/out" ]; then
        pass "oc_bench refuses an unknown case"
    else
        fail "oc_bench refuses an unknown case" "$(head -3 "$T/out" "$T/err")"
    fi
else
    skip "no oc_bench given"
fi
finish
