# shellcheck shell=bash
# lib.sh — helpers shared by the CLI test scripts (sourced, not run).
#
# Every check prints one line, "ok - ..." or "FAIL - ..." (with the reason on the following
# indented lines), and `finish` prints "N passed, M failed" and exits 1 if any check failed.

# The tables' width comes from COLUMNS when it is set (tools/cli.c): the tests see a pipe's 100.
unset COLUMNS

OC_PASS=0
OC_FAIL=0

pass() {
    OC_PASS=$((OC_PASS + 1))
    printf 'ok - %s\n' "$1"
}

# fail DESCRIPTION [DETAIL...]: the details are printed indented, one per line.
fail() {
    OC_FAIL=$((OC_FAIL + 1))
    printf 'FAIL - %s\n' "$1"
    shift
    local d
    for d in "$@"; do printf '%s\n' "$d" | sed 's/^/    | /'; done
}

skip() {
    printf 'skip - %s\n' "$1"
}

finish() {
    printf '%d passed, %d failed\n' "$OC_PASS" "$OC_FAIL"
    [ "$OC_FAIL" -eq 0 ]
    exit $?
}

# need_tool TOOL: the scripts take the tool as their first argument.
need_tool() {
    if [ -z "${1:-}" ] || [ ! -x "$1" ]; then
        echo "usage: $0 PATH/TO/opticoll [tests/cli]" >&2
        exit 2
    fi
}

# A scratch directory, removed on exit.
OC_TMP=$(mktemp -d "${TMPDIR:-/tmp}/opticoll-cli.XXXXXX") || exit 2
trap 'rm -rf "$OC_TMP"' EXIT

# The scripts' arguments (lib.sh is sourced, so $1 and $2 are the script's): the tool, and the
# tests/cli directory; T is the scratch directory.
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
need_tool "$TOOL"
T=$OC_TMP

# run_tool ARGS...: runs "$TOOL" ARGS with stdout in $OC_TMP/out, stderr in $OC_TMP/err and the
# exit status in $RC. The C locale keeps number formatting stable.
run_tool() {
    LC_ALL=C "$TOOL" "$@" >"$OC_TMP/out" 2>"$OC_TMP/err"
    # shellcheck disable=SC2034  # read by the scripts that source this file
    RC=$?
}

# bad CODE PATTERN ARGS...: opticoll ARGS exits CODE, stdout empty, one stderr line starting
# "opticoll: " and containing PATTERN (a fixed string; "" for none) — the bad-input contract
# (badinput.sh).
bad() {
    local code=$1 pat=$2
    shift 2
    run_tool "$@"
    local lines desc="opticoll $*"
    lines=$(wc -l <"$OC_TMP/err")
    local why=()
    [ "$RC" -eq "$code" ] || why+=("exit $RC, expected $code")
    [ -s "$OC_TMP/out" ] && why+=("stdout not empty: $(head -c 300 "$OC_TMP/out")")
    [ "$lines" -eq 1 ] || why+=("$lines lines on stderr, expected 1")
    grep -q '^opticoll: ' "$OC_TMP/err" || why+=("stderr does not start with 'opticoll: '")
    if [ -n "$pat" ] && ! grep -qF -- "$pat" "$OC_TMP/err"; then why+=("stderr does not mention '$pat'"); fi
    if [ ${#why[@]} -eq 0 ]; then
        pass "$desc -> exit $code: $(head -1 "$OC_TMP/err")"
    else
        # shellcheck disable=SC2016  # the quotes are literal; $pat does expand
        fail "$desc -> exit $code, one line on stderr${pat:+ naming '$pat'}" "${why[@]}" \
            "stderr: $(head -c 400 "$OC_TMP/err")"
    fi
}

have_python() {
    command -v python3 >/dev/null 2>&1
}

# refused NAME EXPECTED-TEXT ARGS...: the tool run with ARGS must refuse them as bad usage: exit 2,
# nothing on stdout, one line on stderr containing EXPECTED-TEXT.
refused() {
    local name=$1 text=$2
    shift 2
    run_tool "$@"
    if [ "$RC" = 2 ] && [ ! -s "$OC_TMP/out" ] && [ "$(wc -l <"$OC_TMP/err")" = 1 ] &&
        grep -q -- "$text" "$OC_TMP/err"; then
        pass "$name"
    else
        fail "$name" "rc=$RC" "$(head -c 300 "$OC_TMP/out")" "$(cat "$OC_TMP/err")"
    fi
}
