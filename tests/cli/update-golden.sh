#!/usr/bin/env bash
# update-golden.sh [TOOL] — regenerate tests/cli/golden/*.out from golden.cases after a
# deliberate change of output. TOOL defaults to build/opticoll at the repository root. Each case
# is run twice and must give the same output, exit 0 and print nothing on stderr; goldens of
# cases no longer in golden.cases are removed. Review the result with `git diff tests/cli/golden`.
set -u
unset COLUMNS # the goldens are a pipe's 100 columns, whatever the terminal says
CLI_DIR=$(cd "$(dirname "$0")" && pwd)
TOOL=${1:-$CLI_DIR/../../build/opticoll}
if [ ! -x "$TOOL" ]; then
    echo "update-golden.sh: no tool at $TOOL (run make build, or pass the path)" >&2
    exit 2
fi
GOLDEN=$CLI_DIR/golden
mkdir -p "$GOLDEN"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/opticoll-golden.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
status=0
keep=" "
while read -r name args; do
    case "$name" in '' | '#'*) continue ;; esac
    keep="$keep$name "
    # shellcheck disable=SC2086
    LC_ALL=C "$TOOL" $args >"$TMP/a" 2>"$TMP/err"
    rc=$?
    # shellcheck disable=SC2086
    LC_ALL=C "$TOOL" $args >"$TMP/b" 2>/dev/null
    if [ $rc -ne 0 ] || [ -s "$TMP/err" ]; then
        echo "update-golden.sh: $name: opticoll $args exited $rc: $(head -1 "$TMP/err")" >&2
        status=1
    elif ! cmp -s "$TMP/a" "$TMP/b"; then
        echo "update-golden.sh: $name: two runs differ; not a usable golden" >&2
        status=1
    elif cmp -s "$TMP/a" "$GOLDEN/$name.out" 2>/dev/null; then
        echo "unchanged  $name"
    else
        cp "$TMP/a" "$GOLDEN/$name.out"
        echo "written    $name"
    fi
done <"$CLI_DIR/golden.cases"
for f in "$GOLDEN"/*.out; do
    [ -e "$f" ] || continue
    n=$(basename "$f" .out)
    case "$keep" in *" $n "*) ;; *) rm -f "$f" && echo "removed    $n" ;; esac
done
exit $status
