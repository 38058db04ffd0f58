#!/usr/bin/env bash
# killed_rank.sh MPIRUN OPTICOLL_MPI — a rank killed in the middle of a run (SIGKILL: an
# out-of-memory kill, a node lost) must end the whole job with a non-zero status within seconds,
# not leave the other ranks waiting forever in a collective. opticoll-mpi starts a run long
# enough to be killed in (16 MiB all-reduce, 100000 repeats); once rank 0 has printed the table's
# header (the ranks agreed on their arguments and the cases are running), rank 1 gets SIGKILL.
# The job must be gone within 30 s with a non-zero status; otherwise the test kills it and fails.
set -u
MPIRUN=$1
TOOL=$2
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
"$MPIRUN" --oversubscribe -np 3 "$TOOL" --collectives allreduce --algorithms ring --sizes 16MiB \
    --repeats 100000 --warmup 0 >"$OUT" 2>&1 &
job=$!
started=0
for _ in $(seq 1 3000); do
    if grep -q '^collective ' "$OUT"; then started=1; break; fi
    kill -0 "$job" 2>/dev/null || break
    sleep 0.01
done
if [ "$started" -ne 1 ]; then
    cat "$OUT"
    echo "killed_rank.sh: the run never started" >&2
    kill -KILL "$job" 2>/dev/null
    exit 1
fi
# children PID: the processes whose parent is PID, from /proc (procps' pgrep is not on every
# minimal Debian image)
children() {
    local f pid comm state ppid rest
    for f in /proc/[0-9]*/stat; do
        read -r pid comm state ppid rest <"$f" 2>/dev/null || continue
        [ "$ppid" = "$1" ] && echo "$pid"
    done | sort -n
}
# the ranks are mpirun's children, in rank order of their start; take the second
victim=$(children "$job" | sed -n 2p)
if [ -z "$victim" ]; then
    echo "killed_rank.sh: no second rank found under mpirun ($job)" >&2
    kill -KILL "$job" 2>/dev/null
    exit 1
fi
kill -KILL "$victim"
for _ in $(seq 1 300); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$job" 2>/dev/null; then
    echo "killed_rank.sh: the job still runs 30 s after a rank was killed (a hang)" >&2
    for c in $(children "$job"); do kill -KILL "$c"; done
    kill -KILL "$job"
    exit 1
fi
wait "$job"
status=$?
if [ "$status" -eq 0 ]; then
    cat "$OUT"
    echo "killed_rank.sh: the job exited 0 although a rank was killed" >&2
    exit 1
fi
echo "ok: the job ended with status $status within seconds of SIGKILL to one rank"
