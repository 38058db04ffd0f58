#!/usr/bin/env bash
# messages.sh MPIRUN... -- OPTICOLL_MPI — what opticoll-mpi says when an algorithm does not run:
# a refusal names the rank count ("on 5 ranks ... not 5"), is printed once (rank 0,
# not once per rank and size), its reason is a note under the table (skipped [k]) and the summary
# does not blame the size; a long algorithm name keeps the columns aligned.
set -u
run=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do run+=("$1"); shift; done
shift
TOOL=$1
T=$(mktemp -d "${TMPDIR:-/tmp}/opticoll-mpi-msg.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
fails=0 passes=0
check() { if eval "$2"; then passes=$((passes + 1)); echo "ok - $1"; else
    fails=$((fails + 1)); echo "FAIL - $1"; sed 's/^/    | /' "$T/out" "$T/err"; fi; }

for np in 3 5; do
    "${run[@]}" "$np" "$TOOL" --collectives alltoall,allreduce --algorithms sex,rhd:radix=4 \
        --sizes 28B,1KiB,4100B --repeats 1 --warmup 0 >"$T/out" 2>"$T/err"
    rc=$?
    check "np $np: exit 0" '[ $rc -eq 0 ]'
    check "np $np: the refusal is said once, naming $np ranks" \
        '[ "$(grep -c "alltoall sex on $np ranks" "$T/err")" = 1 ]'
    check "np $np: every sex row is skipped [1]; the note names the rank count" \
        '[ "$(grep -c "^alltoall  *sex .*skipped \[1\]$" "$T/out")" = 3 ] && grep -q "^\[1\] alltoall sex on $np ranks: .*not $np" "$T/out"'
    check "np $np: the summary does not blame the size" \
        '! grep -q "does not support this size" "$T/out" && grep -q "3 skipped (refused by the algorithm: the notes say why)" "$T/out"'
    # the columns line up: "ranks" ends at the same column on every row of the table
    awk '/^(collective|alltoall|allreduce) / { match($0, /^[a-z]+ +[^ ]+ +[a-z0-9]+/); print RLENGTH }' \
        "$T/out" | sort -u >"$T/ends"
    check "np $np: rows aligned with rhd:radix=4 (the ranks column ends at one place)" \
        '[ "$(wc -l <"$T/ends")" = 1 ]'
done
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
