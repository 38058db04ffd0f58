#!/usr/bin/env bash
# prose_wrap.sh TOOL [CLI_DIR] — the prose of `reproduce optree` (what `make demo` shows a newcomer)
# wraps as one paragraph at the page's width (100 columns in a pipe): Fig. 4's introduction was
# hard-wrapped at 103 columns, so the page's wrap left "  bar;" alone on a line and the lines after
# it ragged and indented by three.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

run_tool reproduce -q optree -n 64 -w 8 --sizes 1MiB
# the paragraph: from "3. Fig. 4:" to the first empty line
awk '/^3\. Fig\. 4:/ {p = 1} p && /^$/ {exit} p' "$T/out" >"$T/para"
lines=$(wc -l <"$T/para")
short=$(awk 'NR > 1 && length($0) < 60 {n++} END {print n + 0}' <(sed '$d' "$T/para"))
if [ "$RC" -eq 0 ] && [ "$lines" -ge 2 ] && ! grep -q '^   ' "$T/para" && [ "$short" -eq 0 ] &&
    [ "$(awk '{ if (length($0) > 100) n++ } END {print n + 0}' "$T/para")" -eq 0 ]; then
    pass "reproduce optree: Fig. 4's introduction wraps as one paragraph ($lines lines)"
else
    fail "reproduce optree: Fig. 4's introduction wraps as one paragraph" "rc=$RC" "$(cat "$T/para")"
fi
finish
