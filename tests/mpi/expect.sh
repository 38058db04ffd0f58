#!/usr/bin/env bash
# expect.sh STATUS PATTERN COMMAND...: runs COMMAND and passes only if it exits with STATUS and its
# output (stdout + stderr, its lines joined by spaces) matches the extended regular expression PATTERN. Used by the MPI tests
# whose point is a failure: a wrong schedule must make opticoll-mpi report a mismatch and exit 1
# (not hang, not pass); bad input must exit 2 with one clear line.
set -u
want="$1" pattern="$2"
shift 2
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
  printf '%s\n' "$out"
  echo "expect.sh: exit status $got, expected $want" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | tr '\n' ' ' | grep -Eq -- "$pattern"; then
  printf '%s\n' "$out"
  echo "expect.sh: output does not match /$pattern/" >&2
  exit 1
fi
exit 0
