#!/usr/bin/env bash
# getopt.sh TOOL [CLI_DIR [OPTICOLL-MPI]] — every command reads its options as getopt_long does:
# `--opt=value`, `-oVALUE`, unambiguous prefixes (`--nod`), grouped short
# flags (`-hn5` is `-h -n 5`) and `--` (what follows is an operand) give exactly the stdout (and
# the files) of the spaced form, for run (and run -a auto), compare, export, verify, sweep, tune,
# train, reproduce, rack, throughput, list and opticoll-mpi --help. And what the old parser
# guaranteed still holds: a value that looks like an option (-n -5) is taken as the value and
# refused as a number, an ambiguous prefix or a value given to a flag is one line and exit 2, the
# spelling of an option in a message is the one it was given (--wavelengths, even as --wave).
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments
MPI_TOOL=${3:-}
case $TOOL in /*) ;; *) TOOL=$PWD/$TOOL ;; esac # verify runs one check from inside $T

# same DESC -- SPACED... -- OTHER...: both exit 0 with an empty stderr and the same stdout.
same() {
    local desc=$1 spaced=() other=()
    shift 2
    while [ "$1" != "--" ]; do spaced+=("$1"); shift; done
    shift
    other=("$@")
    run_tool "${spaced[@]}"
    local rc1=$RC
    cp "$T/out" "$T/out1"
    cp "$T/err" "$T/err1"
    run_tool "${other[@]}"
    local why=()
    [ "$rc1" -eq 0 ] || why+=("spaced form: exit $rc1: $(head -c 300 "$T/err1")")
    [ "$RC" -eq 0 ] || why+=("exit $RC: $(head -c 300 "$T/err")")
    [ -s "$T/out1" ] || why+=("spaced form printed nothing")
    cmp -s "$T/out1" "$T/out" || why+=("stdout differs: $(diff "$T/out1" "$T/out" | head -6)")
    if [ ${#why[@]} -eq 0 ]; then
        pass "$desc: opticoll ${other[*]}"
    else
        fail "$desc: opticoll ${other[*]} = opticoll ${spaced[*]}" "${why[@]}"
    fi
}

# same_file DESC FILE1 FILE2: the two runs wrote the same file.
same_file() {
    if [ -s "$2" ] && cmp -s "$2" "$3"; then
        pass "$1: same file"
    else
        fail "$1: same file" "$(ls -l "$2" "$3" 2>&1)" "$(diff "$2" "$3" 2>&1 | head -6)"
    fi
}

RUN=(-c allgather -a ring -n 5 -s 1KiB)

# ---- run ----
same "--opt=value" -- run "${RUN[@]}" --json -- run --collective=allgather --algorithm=ring --nodes=5 --size=1KiB --json
same "-oVALUE" -- run "${RUN[@]}" --json -- run -callgather -aring -n5 -s1KiB --json
same "prefixes" -- run "${RUN[@]}" --json -- run --coll allgather --algo ring --nod 5 --si 1KiB --js
same "prefixes with =" -- run "${RUN[@]}" --json -- run --coll=allgather --algo=ring --nod=5 --si=1KiB --js
same "-- at the end" -- run "${RUN[@]}" -- run "${RUN[@]}" --
same "options after --json, in any order" -- run "${RUN[@]}" --json -- run --json -s1KiB -n 5 --algorithm ring -callgather
same "network options" -- run -c allgather -a ring -n 7 -s 3KiB -w 8 -f 2 --preset terarack --net reconfig_us=10 -- \
    run -c allgather -a ring -n7 -s3KiB -w8 -f2 --preset=terarack --net=reconfig_us=10
same "--wavelengths=, --fibres=" -- run -c allgather -a ring -n 7 -s 3KiB -w 8 -f 2 -- \
    run -c allgather -a ring -n 7 -s 3KiB --wavelengths=8 --fibres=2
same "-pKEY=VALUE" -- run -c allgather -a optree -n 12 -s 1KiB -p k=3 --json -- \
    run -c allgather -a optree -n 12 -s 1KiB -pk=3 --json
same "--param=KEY=VALUE" -- run -c allgather -a optree -n 12 -s 1KiB -p k=3 --json -- \
    run -c allgather -a optree -n 12 -s 1KiB --param=k=3 --json
same "-r, --root=" -- run -c broadcast -a tcp1 -t star -n 5 -s 1KiB -r 3 -- \
    run -c broadcast -a tcp1 -t star -n 5 -s 1KiB --root=3
same "-rVALUE -tNET" -- run -c broadcast -a tcp1 -t star -n 5 -s 1KiB -r 3 -- \
    run -c broadcast -a tcp1 -tstar -n 5 -s 1KiB -r3
same "--objective=" -- run -c allreduce -a hring -n 12 -s 1MiB --objective steps --explain -- \
    run -c allreduce -a hring -n 12 -s 1MiB --objective=steps --expl
same "grouped -h" -- run -h -c allgather -- run -hc allgather
same "grouped -h with an attached value" -- run -h -n 5 -- run -hn5
same "--help prefix" -- run --help -- run --he

# ---- run -a auto, in every spelling ----
run_tool tune -c allgather --nodes 4,8 --sizes 1KiB,64KiB -o "$T/dec.json"
[ "$RC" -eq 0 ] || fail "tune -o for run -a auto" "$(cat "$T/err")"
same "-aauto" -- run -c allgather -a auto -n 6 -s 4KiB -- run -c allgather -aauto -n 6 -s 4KiB
same "--algorithm=auto" -- run -c allgather -a auto -n 6 -s 4KiB -- run -c allgather --algorithm=auto -n 6 -s 4KiB
same "--decisions=FILE" -- run -c allgather -a auto -n 6 -s 4KiB --decisions "$T/dec.json" -- \
    run -c allgather --algorithm=auto -n6 -s4KiB --decisions="$T/dec.json"
same "--dec FILE" -- run -c allgather -a auto -n 6 -s 4KiB --decisions "$T/dec.json" -- \
    run -c allgather -a auto -n 6 -s 4KiB --dec "$T/dec.json"

# ---- compare ----
same "--opt=value" -- compare -c allgather -n 7 -s 3KiB --csv -- compare --collective=allgather --nodes=7 --size=3KiB --csv
same "-oVALUE" -- compare -c allgather -n 7 -s 3KiB -- compare -callgather -n7 -s3KiB
same "-tNET --net=" -- compare -c alltoall -t torus -n 16 -s 1KiB --net dims=4x4 --json -- \
    compare -calltoall -ttorus -n16 -s1KiB --net=dims=4x4 --json

# ---- export ----
same "--format=" -- export "${RUN[@]}" --format json -- export "${RUN[@]}" --format=json
same "--form" -- export "${RUN[@]}" --format msccl -- export "${RUN[@]}" --form msccl
run_tool export "${RUN[@]}" --format json -o "$T/a.json"
run_tool export "${RUN[@]}" --format=json -o"$T/b.json"
same_file "export -oFILE" "$T/a.json" "$T/b.json"
run_tool export "${RUN[@]}" --format=json --output="$T/c.json"
same_file "export --output=FILE" "$T/a.json" "$T/c.json"

# ---- verify: the file after --, even when its name starts with '-' ----
cp "$T/a.json" "$T/-s.json"
same "FILE after --" -- verify "$T/a.json" --json -- verify --json -- "$T/a.json"
(
    cd "$T" || exit 1
    run_tool verify ./-s.json --json
    cp out out1
    run_tool verify --json -- -s.json
    [ "$RC" -eq 0 ] && cmp -s out1 out
) && pass "verify -- -s.json: a file named like an option" || fail "verify -- -s.json" "$(head -c 300 "$T/err")"
same "-tNET --net=" -- verify "$T/a.json" -t ring --net wavelengths=4 -- verify "$T/a.json" -tring --net=wavelengths=4

# ---- sweep ----
same "--nodes= --sizes= -jN" -- sweep -c allgather -a ring,ne --nodes 4,6 --sizes 1KiB,4KiB -j 2 -- \
    sweep -c allgather -a ring,ne --nodes=4,6 --sizes=1KiB,4KiB -j2
same "-nLIST -sLIST --jobs=" -- sweep -c allgather -a ring,ne --nodes 4,6 --sizes 1KiB,4KiB -j 2 -- \
    sweep -callgather -aring,ne -n4,6 -s1KiB,4KiB --jobs=2
same "--size (sweep's other spelling) and --siz" -- sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB -- \
    sweep -c allgather -a ring --nodes 3,5 --siz 1KiB
run_tool sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB --csv "$T/s1.csv"
run_tool sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB --csv="$T/s2.csv"
same_file "sweep --csv=FILE" "$T/s1.csv" "$T/s2.csv"

# ---- tune ----
same "--nodes= --sizes= -jN" -- tune -c allgather -a ring,ne --nodes 4,8 --sizes 1KiB,64KiB -j 1 -- \
    tune -c allgather -a ring,ne --nodes=4,8 --sizes=1KiB,64KiB -j1
same "--json, prefixes" -- tune -c allgather --nodes 4,8 --sizes 1KiB --json -- tune -c allgather --nod 4,8 --sizes 1KiB --js
run_tool tune -c allgather --nodes 4,8 --sizes 1KiB,64KiB -o "$T/d1.json"
run_tool tune -c allgather --nodes=4,8 --sizes=1KiB,64KiB -o"$T/d2.json"
same_file "tune -oFILE" "$T/d1.json" "$T/d2.json"

# ---- train ----
same "-mMODEL -aALGO -nN" -- train -m AlexNet -a ring -n 3 -- train -mAlexNet -aring -n3
same "--model= --models=" -- train -m AlexNet -a ring -n 3 --models "$CLI_DIR/../../data/models.tsv" -- \
    train --model=AlexNet --algorithm=ring --nodes=3 --models="$CLI_DIR/../../data/models.tsv"

# ---- reproduce ----
same "PAPER after --" -- reproduce star -- reproduce -- star
same "-jN" -- reproduce star -j 1 -- reproduce star -j1
same "--jobs=, the paper after the option" -- reproduce star -j 1 -- reproduce --jobs=1 star
same "-j N -- PAPER" -- reproduce star -j 1 -- reproduce -j 1 -- star

# ---- rack ----
RACK=(--seed 3 --tenants 20 --servers 2 --tiles 4)
same "--opt=value" -- rack "${RACK[@]}" -s 1MiB -- rack --seed=3 --tenants=20 --servers=2 --tiles=4 --size=1MiB
same "-sSIZE" -- rack "${RACK[@]}" -s 1MiB --json -- rack "${RACK[@]}" -s1MiB --json
same "prefixes" -- rack "${RACK[@]}" --tenants-detail -- rack --see 3 --tenants 20 --serv 2 --til 4 --tenants-d

# ---- throughput ----
same "-mMODEL -nN --opt=value" -- throughput -m BERT-base -n 8 --buckets 4 -- throughput -mBERT-base -n8 --buckets=4
same "--utilisation= and --utilization" -- throughput -m BERT-base -n 8 --utilisation 0.4 --json -- \
    throughput -m BERT-base -n 8 --utilization=0.4 --json

# ---- list ----
same "--he" -- list --help -- list --he

# ---- what the old parser guaranteed ----
bad 2 "-n -5: not a whole number of nodes" run -c allgather -a ring -n -5 -s 1KiB
bad 2 "-n -5: not a whole number of nodes" run -c allgather -a ring --nodes=-5 -s 1KiB
bad 2 "-s --json: not a size" run -c allgather -a ring -n 5 -s --json
bad 2 "run: option '--n' is ambiguous: --network, --nodes, --net, --no-data-check" run "${RUN[@]}" --n 3
bad 2 "rack: option '--ten' is ambiguous: --tenants, --tenants-detail" rack --ten 3
bad 2 "run: --json takes no value (got '1')" run "${RUN[@]}" --json=1
bad 2 "run: unknown option '-x'" run "${RUN[@]}" -hx
bad 2 "run: unknown option '--frob=3'" run "${RUN[@]}" --frob=3
bad 2 "run: unknown option '--=3'" run "${RUN[@]}" --=3
bad 2 "run: unexpected argument '--json'" run "${RUN[@]}" -- --json
bad 2 "reproduce: unexpected argument '-j'" reproduce star -- -j 2
bad 2 "run: -s needs a value" run -c allgather -a ring -n 5 -s
bad 2 "run: --size needs a value" run -c allgather -a ring -n 5 --size
bad 2 "run: --size needs a value" run -c allgather -a ring -n 5 --siz
bad 2 "run: -p needs KEY=VALUE" run "${RUN[@]}" -p
bad 2 "run: --nodes given twice" run "${RUN[@]}" --nodes=6
bad 2 "sweep: --jobs given twice" sweep -c allgather --nodes 3 --sizes 1KiB -j2 --jobs=3
bad 2 "sweep: -j given twice" sweep -c allgather --nodes 3 --sizes 1KiB --jobs=3 -j2
bad 2 "sweep: --output x does not apply to sweep" sweep -c allgather --nodes 3 --sizes 1KiB --output=x
bad 2 "compare: --explain does not apply to compare" compare -c allgather -n 5 -s 1KiB --expl
bad 2 "compare: unknown option '--plot=x.png'" compare -c allgather -n 5 -s 1KiB --plot=x.png
bad 2 "run: unknown option '--sizes'" run -c allgather -a ring -n 5 --sizes 1KiB
bad 2 "--wavelengths 12 and --net wavelengths=7 disagree" run "${RUN[@]}" --wave 12 --net wavelengths=7
bad 2 "--wavelengths 12 and --net wavelengths=7 disagree" run "${RUN[@]}" --wavelengths=12 --net=wavelengths=7
bad 2 "-w 12 and --net wavelengths=7 disagree" run "${RUN[@]}" -w12 --net=wavelengths=7
bad 2 "run: --decisions goes with -a auto" run "${RUN[@]}" --decisions="$T/dec.json"
bad 2 "train: unexpected argument 'foo'" train -m AlexNet -n 3 foo
# train has no use for these: each is refused by name, never silently ignored
for opt in --links --explain "--objective steps" "-r 0" "--format json" --csv "-o x"; do
    # shellcheck disable=SC2086 # the option and its value are two words
    bad 2 "train: ${opt%% *}" train -m AlexNet -n 3 -a ring $opt
done
bad 2 "list: unknown option '--json'" list --json

# ---- opticoll-mpi ----
if [ -n "$MPI_TOOL" ]; then
    # a singleton (no mpirun); Open MPI refuses root without these, and its own allocations
    # would trip the leak checker of a sanitizer build
    mpi() {
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
            "$MPI_TOOL" "$@" >"$T/out" 2>"$T/err"
        RC=$?
    }
    mpi --help
    cp "$T/out" "$T/mpihelp"
    for form in -h --he; do
        mpi $form
        if [ "$RC" -eq 0 ] && [ -s "$T/out" ] && cmp -s "$T/mpihelp" "$T/out"; then
            pass "opticoll-mpi $form = opticoll-mpi --help"
        else
            fail "opticoll-mpi $form = opticoll-mpi --help" "exit $RC" "$(head -c 300 "$T/err")"
        fi
    done
    mpi --r 3
    if [ "$RC" -eq 2 ] && grep -q "^opticoll-mpi: option '--r' is ambiguous: --root, --repeats" "$T/err"; then
        pass "opticoll-mpi --r: ambiguous, exit 2"
    else
        fail "opticoll-mpi --r: ambiguous, exit 2" "exit $RC" "$(head -c 300 "$T/err")"
    fi
else
    skip "opticoll-mpi (not built)"
fi
finish
