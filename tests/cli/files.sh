#!/usr/bin/env bash
# files.sh TOOL [CLI_DIR] — the output files of every writer (export -o, sweep --csv and --plot,
# tune -o, reproduce --out) and what reaches gnuplot (README, "Exit codes" and "Output files"):
#  - a file name with backquotes or a leading '|' runs nothing and is written under its literal
#    name (sweep --plot, its per-N plots, reproduce --out into such a directory);
#  - a symlink planted at the target is refused and its target untouched; one planted at the old
#    TARGET.part name is never followed; a fifo target is refused without blocking; a directory
#    target is refused and not deleted; a name of 250 bytes works; no temporary is left behind;
#  - a failed plot (gnuplot missing, gnuplot failing, even after writing part of a file) exits 3
#    from sweep --plot and reproduce --out alike and leaves what was there untouched.
set -u
TOOL=${1:-}
DIR=${2:-$(dirname "$0")}
# shellcheck source=lib.sh
. "$DIR/lib.sh"
need_tool "$TOOL"
TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL") # the checks change directory
T=$OC_TMP

# png FILE: FILE starts with the PNG signature.
png() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = "211PNG" ]; }

# check DESC COND...: pass when the command COND... succeeds, else fail with stderr.
check() {
    local desc=$1
    shift
    if "$@"; then pass "$desc"; else fail "$desc" "exit $RC" "stderr: $(head -c 400 "$T/err")"; fi
}

# no_temporaries DIR: no .opticoll-* left in DIR.
no_temporaries() { [ -z "$(find "$1" -maxdepth 1 -name '.opticoll-*' -print -quit)" ]; }

# The writers, each as a function of its output path.
w_export() { run_tool export -c allgather -a ring -n 5 -s 1KiB --format json -o "$1"; }
w_csv() { run_tool sweep -c allgather -a ring,ne --nodes 3 --sizes 1KiB --csv "$1"; }
w_tune() { run_tool tune -c allgather -a ring,ne --nodes 3,5 --sizes 1KiB -o "$1"; }
w_plot() { run_tool sweep -c allgather -a ring,ne --nodes 4 --sizes 1KiB,4KiB --plot "$1"; }
WRITERS=(w_export w_csv w_tune)
HAVE_GNUPLOT=0
if command -v gnuplot >/dev/null 2>&1; then
    HAVE_GNUPLOT=1
    WRITERS+=(w_plot)
fi

# ---- 1. nothing in a file name reaches gnuplot as code ----
# shellcheck disable=SC2016  # the backquotes and $(...) are the point: they must stay characters
if [ "$HAVE_GNUPLOT" = 1 ]; then
    mkdir "$T/inj"
    cd "$T/inj" || exit 2
    n1='x`touch PWNED`.png'
    w_plot "$n1"
    check "sweep --plot '$n1': no PWNED, the PNG under the literal name" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PWNED ] && png "$n1"'
    run_tool sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB,4KiB --plot 'y`touch PWNED2`.png'
    check "a plot of one panel per N under a backquoted name: the PNG, no PWNED2" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PWNED2 ] && png "y\`touch PWNED2\`.png"'
    n3='|touch PIPED.png'
    w_plot "$n3"
    check "sweep --plot '$n3': written under that name, never piped" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PIPED ] && [ ! -e PIPED.png ] && png "$n3"'
    d4='d`touch PWNED3`'
    mkdir "$d4" && w_plot "$d4/p.png"
    check "a backquoted directory: no PWNED3, the PNG inside it" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PWNED3 ] && png "$d4/p.png"'
    n5="it's \"quoted\" \$(touch PWNED4) @x \\n.png"
    w_plot "$n5"
    check "quotes, \$(...), @ and a backslash in a name: written literally" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PWNED4 ] && png "$n5"'
    n6=$'line\nbreak.png'
    w_plot "$n6"
    check "a line break in a name: written literally" eval '[ "$RC" -eq 0 ] && png "$n6"'
    r7='r`touch PWNED5`'
    run_tool reproduce star --out "$r7"
    check "reproduce star --out '$r7': no PWNED5, the PNG and index.md there" \
        eval '[ "$RC" -eq 0 ] && [ ! -e PWNED5 ] && [ -f "$r7/index.md" ] && png "$r7/star-tradeoff.png" && no_temporaries "$r7"'
    rm -f "$r7/star-tradeoff.png"
    (cd "$r7" && gnuplot star-tradeoff.gp 2>/dev/null)
    check "the kept .gp script redraws its PNG by hand in DIR" png "$r7/star-tradeoff.png"
    check "no temporaries left where the plots went" no_temporaries .
    cd "$T" || exit 2
else
    skip "gnuplot injection checks (gnuplot is not installed)"
fi

# ---- 2. what is at the target ----
# the tool under a timeout, for the fifo: opening one for writing would block
printf '#!/bin/sh\nexec timeout 60 "%s" "$@"\n' "$TOOL" >"$T/timed"
chmod +x "$T/timed"
echo "precious" >"$T/victim"
echo old >"$T/old"
for w in "${WRITERS[@]}"; do
    d="$T/$w"
    x=out # sweep --plot takes only image names: the format is the extension's
    [ "$w" = w_plot ] && x=png
    mkdir -p "$d"
    ln -s "$T/victim" "$d/link.$x"
    $w "$d/link.$x"
    check "$w: a symlink at the target is refused (exit 2) and its target untouched" \
        eval '[ "$RC" -eq 2 ] && [ "$(cat "$T/victim")" = precious ] && [ -L "$d/link.$x" ] && grep -q "symbolic link" "$T/err"'
    ln -s "$T/victim" "$d/new.$x.part"
    $w "$d/new.$x"
    check "$w: a symlink at the old TARGET.part is not followed" \
        eval '[ "$RC" -eq 0 ] && [ "$(cat "$T/victim")" = precious ] && [ -L "$d/new.$x.part" ] && [ -f "$d/new.$x" ] && [ ! -L "$d/new.$x" ]'
    mkfifo "$d/fifo.$x"
    TOOL=$T/timed $w "$d/fifo.$x"
    check "$w: a fifo target is refused at once (exit 2), still a fifo" \
        eval '[ "$RC" -eq 2 ] && [ -p "$d/fifo.$x" ]'
    mkdir "$d/adir.$x"
    $w "$d/adir.$x"
    check "$w: a directory target is refused (exit 2) and not deleted" \
        eval '[ "$RC" -eq 2 ] && [ -d "$d/adir.$x" ]'
    $w "$d/"
    check "$w: a name ending in / is refused (exit 2)" eval '[ "$RC" -eq 2 ]'
    for len in 250 255; do # NAME_MAX is 255: nothing may be appended to the name
        long=$(printf 'n%.0s' $(seq 1 $((len - 4)))).png
        $w "$d/$long"
        check "$w: a $len-byte file name works" eval '[ "$RC" -eq 0 ] && [ -s "$d/$long" ]'
    done
    echo old >"$d/keep.$x"
    chmod 640 "$d/keep.$x"
    $w "$d/keep.$x"
    check "$w: a regular file is replaced and keeps its mode (640)" \
        eval '[ "$RC" -eq 0 ] && ! cmp -s "$d/keep.$x" "$T/old" && [ "$(stat -c %a "$d/keep.$x")" = 640 ]'
    (
        umask 022
        $w "$d/fresh.$x"
        [ "$RC" -eq 0 ] && [ "$(stat -c %a "$d/fresh.$x")" = 644 ]
    )
    RC=$?
    check "$w: a new file gets the umask's mode (644), not mkstemp's 600" eval '[ "$RC" -eq 0 ]'
    check "$w: no temporaries left behind" no_temporaries "$d"
done
# (No device is tried as a target: a tool without the fix, run as root, would replace it.)

# reproduce --out: a planted index.md link, and the old index.md.part
mkdir "$T/rep1"
ln -s "$T/victim" "$T/rep1/index.md"
run_tool reproduce star --out "$T/rep1"
check "reproduce --out: a symlink at DIR/index.md is refused before any work (exit 2)" \
    eval '[ "$RC" -eq 2 ] && [ "$(cat "$T/victim")" = precious ] && [ -L "$T/rep1/index.md" ]'
if [ "$HAVE_GNUPLOT" = 1 ]; then
    mkdir "$T/rep2"
    ln -s "$T/victim" "$T/rep2/index.md.part"
    ln -s "$T/victim" "$T/rep2/star.txt.part"
    run_tool reproduce star --out "$T/rep2"
    check "reproduce --out: links at the old .part names are not followed" \
        eval '[ "$RC" -eq 0 ] && [ "$(cat "$T/victim")" = precious ] && [ -f "$T/rep2/index.md" ] && [ ! -L "$T/rep2/index.md" ]'
    mkdir "$T/rep3"
    ln -s "$T/victim" "$T/rep3/star.txt"
    run_tool reproduce star --out "$T/rep3"
    check "reproduce --out: a symlink at one of its files is refused (exit 2), target untouched" \
        eval '[ "$RC" -eq 2 ] && [ "$(cat "$T/victim")" = precious ] && [ -L "$T/rep3/star.txt" ] && [ ! -e "$T/rep3/index.md" ]'
fi

# ---- 3. a failed plot leaves what was there ----
mkdir -p "$T/nognuplot" "$T/failbin" "$T/plots/empty"
cat >"$T/failbin/gnuplot" <<'EOF'
#!/bin/sh
# A gnuplot that writes part of its output file and then fails.
for a in "$@"; do
    case $a in opticoll_output=*) f=${a#opticoll_output=\'}; f=${f%\'}; echo partial >"$f" ;; esac
done
echo "fake gnuplot: failing on purpose" >&2
exit 1
EOF
chmod +x "$T/failbin/gnuplot"
echo "the old plot" >"$T/plots/old.png"
for how in "missing" "failing"; do
    if [ "$how" = missing ]; then P=$T/nognuplot; else P=$T/failbin:$PATH; fi
    echo "the old table" >"$T/plots/old.csv"
    PATH=$P run_tool sweep -c allgather -a ring --nodes 4 --sizes 1KiB,4KiB --plot "$T/plots/old.png" \
        --csv "$T/plots/old.csv"
    check "gnuplot $how: sweep --plot exits 3, one line, the old PNG and CSV untouched" \
        eval '[ "$RC" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ "$(cat "$T/plots/old.png")" = "the old plot" ] &&
              [ "$(cat "$T/plots/old.csv")" = "the old table" ]'
    PATH=$P run_tool sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB,4KiB --plot "$T/plots/old.png"
    check "gnuplot $how: per-N plots exit 3 and leave no file" \
        eval '[ "$RC" -eq 3 ] && [ ! -e "$T/plots/old-n3.png" ] && [ ! -e "$T/plots/old-n5.png" ]'
    PATH=$P run_tool sweep -c allgather -a ring --nodes 4 --sizes 1KiB,4KiB --plot "$T/plots/empty"
    check "gnuplot $how: an empty directory as the target is not deleted" \
        eval '[ "$RC" -ne 0 ] && [ -d "$T/plots/empty" ]'
    mkdir -p "$T/rfail-$how"
    echo "the old figure" >"$T/rfail-$how/star-tradeoff.png"
    PATH=$P run_tool reproduce star --out "$T/rfail-$how"
    check "gnuplot $how: reproduce --out exits 3 like sweep --plot, one line" \
        eval '[ "$RC" -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ "$(cat "$T/rfail-$how/star-tradeoff.png")" = "the old figure" ]'
    check "gnuplot $how: no temporaries left behind" \
        eval 'no_temporaries "$T/plots" && no_temporaries "$T/rfail-$how"'
done
check "a failing gnuplot's message is on the line" grep -q "failing on purpose" "$T/err"

finish
