#!/usr/bin/env bash
# expect.sh STATUS PATTERN... -- COMMAND...: runs COMMAND and passes only if it exits with STATUS
# and its output (stdout + stderr) matches every extended regular expression PATTERN (each on some
# line, in any order: mpirun forwards the ranks' stdout and stderr in no fixed order). Used by
# the MPI tests whose point is a failure: a wrong schedule must make opticoll-mpi report a
# mismatch and exit 1 (not hang, not pass); bad input must exit 2 with one clear line.
set -u
want="$1"
shift
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do patterns+=("$1"); shift; done
shift
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf '%s\n' "$out"
  echo "expect.sh: exit status $got, expected $want" >&2
  exit 1
fi
for p in "${patterns[@]}"; do
  if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
    printf '%s\n' "$out"
    echo "expect.sh: no line of the output matches /$p/" >&2
    exit 1
  fi
done
exit 0
