#!/usr/bin/env bash
# throughput.sh TOOL [CLI_DIR] — `opticoll throughput`: bad flags give one stderr line and exit 2
# (lib.sh's `bad`), and the extremes of the accepted ranges print numbers of sane width (a peak
# or utilisation of 1e-300 once printed 300-digit times).
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

bad 2 "-n 0: not a whole number" throughput -m BERT-large -n 0
bad 2 "-n 99999999: not a whole number" throughput -m BERT-large -n 99999999
bad 2 "unknown model 'NoSuchModel'" throughput -m NoSuchModel -n 8
bad 2 "--peak-tflops 1e-300: not a number from 0.001" throughput -m BERT-large -n 8 --peak-tflops 1e-300
bad 2 "--peak-tflops 2e6: not a number" throughput -m BERT-large -n 8 --peak-tflops 2e6
bad 2 "--peak-tflops nan: not a number" throughput -m BERT-large -n 8 --peak-tflops nan
bad 2 "--utilisation 1e-300: not a number from 0.001 to 1" throughput -m BERT-large -n 8 --utilisation 1e-300
bad 2 "--utilisation 1.5: not a number" throughput -m BERT-large -n 8 --utilisation 1.5
bad 2 "--buckets 0: not a whole number" throughput -m BERT-large -n 8 --buckets 0
bad 2 "--buckets x: not a whole number" throughput -m BERT-large -n 8 --buckets x
bad 2 "--buckets 1000001: not a whole number" throughput -m BERT-large -n 8 --buckets 1000001

# the slowest accepted compute: every line stays short, times in %g form
run_tool throughput -m BERT-large -n 8 --peak-tflops 1e-3 --utilisation 1e-3
if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ] && grep -q '= 1.567e+09 ms' "$T/out" &&
    [ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/out")" -lt 120 ]; then
    pass "throughput at peak 1e-3 x utilisation 1e-3: short lines, %g times"
else
    fail "throughput at peak 1e-3 x utilisation 1e-3: short lines, %g times" "exit $RC" \
        "$(head -c 600 "$T/out")" "stderr: $(head -c 300 "$T/err")"
fi

finish
