#!/usr/bin/env bash
# fuzz/run.sh check | fuzz [NAME...] — the fuzz targets of fuzz/ with clang's libFuzzer, built in
# build-fuzz/ (CC=clang, OC_FUZZ=ON; cmake/fuzz.cmake).
#
#   check   `make check-fuzz`: builds the targets and runs each for a few seconds from its seed
#           corpus through CTest (label fuzz; OC_FUZZ_SMOKE_SECONDS, 5 by default). Without a
#           clang that can link libFuzzer it prints one line and succeeds: the seeds still run
#           in the ordinary suites (fuzz_replay_NAME).
#   fuzz    `make fuzz`: runs each target (or the NAMEs given) for FUZZ_SECONDS (60 by default).
#           What a target finds is kept in build-fuzz/fuzz-corpus/NAME/ and a crash, leak, hang
#           or sanitizer report in build-fuzz/fuzz-artifacts/; the run ends non-zero and prints
#           how to reproduce it.
# JOBS (2) is the build's and CTest's parallelism.
set -u
mode=${1:-}
shift || true
cd "$(dirname "$0")/.." || exit 1
JOBS=${JOBS:-2}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
B=build-fuzz

# 0 when clang can build and link a libFuzzer target here.
have_libfuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    local t
    t=$(mktemp -d) || return 1
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$t/probe.c"
    clang -fsanitize=fuzzer,address,undefined "$t/probe.c" -o "$t/probe" >/dev/null 2>&1
    local rc=$?
    rm -rf "$t"
    return $rc
}

build() {
    CC=clang cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Debug -DOC_FUZZ=ON >/dev/null || return 1
    mkdir -p "$B"
    # the compiler's output is shown only when the build fails
    cmake --build "$B" -j"$JOBS" --target fuzz_all >"$B/fuzz-build.log" 2>&1 ||
        { cat "$B/fuzz-build.log"; return 1; }
}

case "$mode" in
check)
    if ! have_libfuzzer; then
        echo "check-fuzz: skipped: no clang with libFuzzer here (scripts/deps.sh installs clang and libclang-rt-dev)"
        exit 0
    fi
    build || exit 1
    (cd "$B" && ctest -L fuzz -j"$JOBS" --output-on-failure) || exit 1
    ;;
fuzz)
    if ! have_libfuzzer; then
        echo "fuzz: no clang with libFuzzer here (scripts/deps.sh installs clang and libclang-rt-dev)" >&2
        exit 1
    fi
    build || exit 1
    names=("$@")
    if [ ${#names[@]} -eq 0 ]; then
        for f in fuzz/fuzz_*.c; do
            n=${f#fuzz/fuzz_}
            names+=("${n%.c}")
        done
    fi
    failed=0
    for n in "${names[@]}"; do
        if [ ! -x "$B/fuzz_$n" ]; then
            echo "fuzz: no target '$n' (see fuzz/fuzz_*.c)" >&2
            exit 2
        fi
        mkdir -p "$B/fuzz-corpus/$n" "$B/fuzz-artifacts"
        dict=()
        [ -f "fuzz/$n.dict" ] && dict=("-dict=fuzz/$n.dict")
        log="$B/fuzz-artifacts/$n.log"
        # check: a fixed seed, so that make check explores the same inputs on every run (a red
        # check is then a change's, not the dice's); fuzz: a new seed each run, to find more
        seed=()
        [ "$mode" = check ] && seed=(-seed="${FUZZ_SEED:-1}")
        "$B/fuzz_$n" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
            -close_fd_mask=3 "${seed[@]}" "${dict[@]}" -artifact_prefix="$B/fuzz-artifacts/$n-" \
            "$B/fuzz-corpus/$n" "fuzz/corpus/$n" >"$log" 2>&1
        rc=$?
        runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
        if [ $rc -eq 0 ]; then
            echo "fuzz $n: ${runs:-done} in ${FUZZ_SECONDS} s, nothing found"
        else
            failed=1
            art=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | cut -d' ' -f5)
            echo "fuzz $n: FOUND something (exit $rc): ${art:-see the log}; log $log"
            [ -n "$art" ] && echo "  reproduce: $B/fuzz_$n $art"
        fi
    done
    exit $failed
    ;;
*)
    echo "usage: fuzz/run.sh check | fuzz [NAME...]" >&2
    exit 2
    ;;
esac
