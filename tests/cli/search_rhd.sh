#!/usr/bin/env bash
# search_rhd.sh TOOL [CLI_DIR] — pinned values outside the spaces of rhd / rh / rd, hring and
# dbtree: exit 2, nothing on stdout, one line on stderr naming the valid range (lib.sh's `bad`).
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

AR=(run -c allreduce -t switch -s 1MiB)
bad 2 'multiply to 64, not N=128' "${AR[@]}" -a rhd -n 128 -p radices=4x4x4
bad 2 'radix=1: expected a whole number from 2 to 1024' "${AR[@]}" -a rhd -n 8 -p radix=1
bad 2 'needs N a power of 4' "${AR[@]}" -a rhd -n 12 -p radix=4 -p fold=0
bad 2 'give radix=r' "${AR[@]}" -a rhd -n 12 -p radices=3x4 -p fold=1
bad 2 'expected radices of at least 2' run -c reducescatter -a rh -t switch -n 8 -s 1MiB -p radices=1x8
bad 2 'g to divide N: g=5, N=12 (divisors: 1, 2, 3, 4, 6, 12)' "${AR[@]}" -a hring -n 12 -p g=5
bad 2 'pipeline=0' "${AR[@]}" -a dbtree -n 12 -p pipeline=0
finish
