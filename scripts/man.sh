#!/bin/sh
# man.sh TEMPLATE TOOL: print the man page TEMPLATE (man/NAME.1.in) with its @HELP@ line replaced
# by `TOOL --help` and its @COMMANDS@ line by one subsection per command that `TOOL --help` lists
# (lines "  NAME  description"), each holding `TOOL NAME --help` verbatim. CMake runs it every time
# the tool is built (cmake/install.cmake), so the page says exactly what --help says; the install
# test (tests/readme/install.py) checks that and that groff reads the page without a warning.
set -eu
template=$1
tool=$2

# The help text as roff: no fill, every backslash and minus escaped (so options paste as ASCII
# hyphens), and a control character at the start of a line made literal.
verbatim() {
    echo '.nf'
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
    echo '.fi'
}

help=$("$tool" --help)
while IFS= read -r line; do
    case $line in
    @HELP@)
        printf '%s\n' "$help" | verbatim
        ;;
    @COMMANDS@)
        printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | while read -r cmd; do
            echo ".SS $cmd"
            "$tool" "$cmd" --help | verbatim
        done
        ;;
    *)
        printf '%s\n' "$line"
        ;;
    esac
done <"$template"
