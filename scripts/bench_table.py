#!/usr/bin/env python3
"""Writes `oc_bench --markdown` figures into the rows of a page marked <!--b:CASE-->.

    ./build/oc_bench --markdown CASE... | python3 scripts/bench_table.py docs/performance.md

Each output line "|b:CASE| wall | CPU | RSS |" replaces the three cells after the marked cell of
the page's row for CASE (issue 31 item 5: the performance table regenerated from `make bench`);
the machine line oc_bench prints first replaces the page's line marked <!--bench-machine-->. Rows of cases not run are left as they are.
"""
import re
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: oc_bench --markdown ... | bench_table.py PAGE", file=sys.stderr)
        return 2
    page = sys.argv[1]
    figures, machine = {}, None
    for line in sys.stdin:
        m = re.match(r"^\|b:([\w.-]+)\| (.*) \| (.*) \| (.*) \|$", line.rstrip("\n"))
        if m:
            figures[m.group(1)] = m.groups()[1:]
        elif line.startswith("machine: "):
            machine = line[len("machine: "):].strip()
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    done = set()
    for i, line in enumerate(lines):
        m = re.search(r"<!--b:([\w.-]+)-->", line)
        if m and m.group(1) in figures:
            cells = line.split("|")
            # cells[0] is "", cells[1] the description with the mark, then wall, CPU, RSS
            k = next(j for j, c in enumerate(cells) if m.group(0) in c)
            for n, value in enumerate(figures[m.group(1)]):
                cells[k + 1 + n] = " " + value + " "
            lines[i] = "|".join(cells)
            done.add(m.group(1))
        if machine and "<!--bench-machine-->" in line:
            # within the page's 100 columns: the load's three averages are 1, 5 and 15 min
            lines[i] = "<!--bench-machine-->" + machine.replace(" (1, 5, 15 min)", "") + "."
    with open(page, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    missing = sorted(set(figures) - done)
    for name in missing:
        print(f"bench_table: no row marked <!--b:{name}--> in {page}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
