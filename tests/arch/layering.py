#!/usr/bin/env python3
"""layering.py — the house's one rule, checked (ARCHITECTURE.md): nothing calls, reads or includes
a room above it, and no two files depend on each other, directly or around a loop.

The room order is not written here: it is read from the rooms table of ARCHITECTURE.md, whose rows
run bottom to top and whose last column says what each room may use ("core, algo", "run and
below", "everything below"). A row may name one file (`src/algo/registry.c`): that file is then a
room of its own, apart from its folder (the algorithm table above every algorithm, the helpers they
share below them).

What is checked, on what the compiler saw rather than on what the README says:
 1. includes: every `#include "room/file.h"` in src/ goes to the includer's folder or to a folder
    the includer's room may use;
 2. references: from the library's object files (nm), file A depends on file B when A uses a
    symbol B defines — a function it calls or data it reads (a table, a const struct, a global):
    the defined types T, D, B, R, C and the weak ones, not only T. Every such reference must go
    to the same room or to a room A's room may use (direction), and the file graph must have no
    cycle (Tarjan's strongly connected components);
 3. independent checks: a model's check (src/net/NAME_check.c) takes nothing from its room — no
    function or data of another src/net file, no inline function from a src/net header — since
    two implementations that agree are evidence and one implementation called twice is not;
 4. text: the rooms listed below src/report in the table hand numbers up and write no formatted
    text (no printf family, no open_memstream): report is where a result becomes text;
 5. networks by name or kind: no algorithm (src/algo, src/aas) compares a string with a model's
    name (the names of src/net's models), and none branches on its network's kind (an
    OC_NETCFG_ name, oc__netcfg_kind, a netcfg's .kind, outside comments and strings) nor reads
    one family's settings from the netcfg's union (cfg.ring, cfg.fattree, ...): what
    differs per network is the model's to say (core/netcfg.h: oc__netcfg.cost, the rule by which
    it costs a round), a family's own settings are read through oc__netcfg_ring/star/direct, and
    the networks an algorithm runs on are its registry entry's list. A file allowed a branch
    would be in KIND_ALLOWED below with its reason (none is: the last two, dbtree's and rhd's
    searches, now read the model's rule, algos.h's oc__round_rule); an entry whose file no
    longer branches is itself reported, so the list only shrinks;
 6. the tools are clients: every `#include "..."` in tools/ names a public header (include/) or
    one of tools/' own, never a path into src/, and the tools' targets (opticoll, opticoll-mpi,
    opticoll-cluster) are compiled without src/ on their include path (CMake's flags.make);
 7. file-local is static: an internal function (oc__ name) that a file of src/ defines and no
    other object of the build calls (the library's other files, the tools, tests, benchmarks,
    fuzzers) is that file's own, and is `static` there, not in a header for all to see.
Each kind of violation has a case in the self-test (--self-test), on synthetic inputs shaped like
the house's own past violations (the table and the helpers in one file, algo <-> aas, run calling
report's time formatter, run writing the link text, the ring's check using the model's helper).

Usage: layering.py SOURCE_DIR BUILD_DIR   prints one line per violation; exits 1 if any.
       layering.py --self-test            runs the cases; exits 1 if one is not caught.
"""
import collections
import glob
import os
import re
import subprocess
import sys

# nm's letters for a symbol a file defines: code (T), data (D, B, R, C, G, S) and weak (V, W).
DEFINED = set("TDBRCGSVW")
# The algorithms allowed to branch on their network's kind (rule 5), each with its reason (also
# in the file's essay). Empty: dbtree's pipeline search and rhd's radix search, the last two,
# write their proven bounds per rule of a round (algos.h: oc__round_rule, from the model's
# oc__netcfg.cost and circuits hook), not per network.
KIND_ALLOWED = {}
# What a branch on the network's kind looks like in C (rule 5), outside comments and strings: the
# kind's names, the kind field, or one family's member of the netcfg's union read directly (the
# fat-tree's leaves as cfg.fattree.leaf_down instead of the rule's group_nodes).
KIND_BRANCH = re.compile(r"\bOC_NETCFG_[A-Z_]+\b|\boc__netcfg_kind\b|\bcfg\s*(?:\.|->)\s*kind\b"
                         r"|\bcfg\s*(?:\.|->)\s*(?:ring|fattree|sw|star|fabric|direct)\b")
# Calls that write formatted text; byte writers (fputs, fwrite, fputc) are the serialisers'.
TEXT_WRITERS = {"printf", "fprintf", "vprintf", "vfprintf", "puts", "putchar", "open_memstream",
                "open_wmemstream", "__printf_chk", "__fprintf_chk", "__vfprintf_chk"}


# ---- the room order, from ARCHITECTURE.md ----

def parse_rooms(text):
    """Returns (order, allowed): the rooms bottom to top ("core", "algo/registry.c", ...) and for
    each the set of rooms it may use. Raises ValueError on a table that contradicts itself."""
    order, uses = [], {}
    for line in text.splitlines():
        m = re.match(r"\|\s*`src/([a-z_]+(?:/[a-z_]+\.c)?)`\s*\|.*\|([^|]*)\|\s*$", line)
        if not m:
            continue
        order.append(m.group(1))
        uses[m.group(1)] = m.group(2).strip()
    if not order:
        raise ValueError("no rooms table (| `src/ROOM` | holds | may use |) in ARCHITECTURE.md")
    allowed = {}
    for i, room in enumerate(order):
        words = uses[room]
        below = set(order[:i])
        got = set()
        if "everything below" in words:
            got |= below
        for m in re.finditer(r"`?([a-z_]+(?:/[a-z_]+\.c)?)`? and below", words):
            if m.group(1) not in order[:i]:
                raise ValueError(f"src/{room}: '{m.group(1)} and below' names no room under it")
            got |= set(order[:order.index(m.group(1)) + 1])
        for tok in re.findall(r"[a-z_]+(?:/[a-z_]+\.c)?", words):
            if tok in order:
                if tok not in below:
                    raise ValueError(f"src/{room} may use {tok}, which is not below it")
                got.add(tok)
        allowed[room] = got
    return order, allowed


def code_only(text):
    """text with its comments and string and character literals blanked (newlines kept, so
    line numbers hold): what the compiler reads as code."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def kind_branches_in(text):
    """(line, what) for each line of C source text that branches on the network's kind (rule 5),
    what being the words that do ("cfg.kind, OC_NETCFG_RING")."""
    lines = enumerate(code_only(text).splitlines(), 1)
    found = [(n, [m.group(0) for m in KIND_BRANCH.finditer(line)]) for n, line in lines]
    return [(n, ", ".join(words)) for n, words in found if words]


def room_of(rel, order):
    """The room of a path under src/ ("algo/registry.c" when that file is a room, else "algo")."""
    parts = rel.split("/")
    if len(parts) >= 3 and parts[0] == "src":
        if parts[1] + "/" + parts[2] in order:
            return parts[1] + "/" + parts[2]
        return parts[1]
    return rel


def folder(room):
    return room.split("/")[0]


# ---- the checks, on facts (so the self-test can hand them synthetic ones) ----

def check(order, allowed, folders, includes, refs, inline_headers, name_compares=(),
          tool_includes=(), tool_headers=frozenset(), tool_flags=(), file_local=(),
          kind_branches=(), kind_allowed=None):
    """folders: the folders under src/; includes: (file, line, "room/x.h"); refs: (file, file,
    symbol, kind) with kind "call" or "data"; inline_headers: headers under src/ that define an
    inline function; tool_includes: (file, line, "x.h") of tools/; tool_headers: the names a tool
    may include (include/'s and tools/' own); tool_flags: (target, include directory) of the
    tools' targets; file_local: (file, symbol) of internal functions no other object calls;
    kind_branches: (file, line, what) of an algorithm's branches on its network's kind, and
    kind_allowed the files allowed them (KIND_ALLOWED when None).
    Returns the violations, one line each."""
    bad = []
    for f, n, hdr in tool_includes:
        if hdr not in tool_headers:
            bad.append(f"{f}:{n}: includes {hdr}, not a public header (include/) nor one of "
                       f"tools/': the tools use the library through its public API")
    for target, inc in tool_flags:
        bad.append(f"{target}: compiled with {inc} on its include path: the tools see include/ "
                   f"and their own folder only")
    known = {folder(r) for r in order}
    for d in sorted(folders):
        if d not in known:
            bad.append(f"src/{d}/: a room ARCHITECTURE.md's table does not place")
    # A folder may include a folder when one of its rooms may use one of that folder's rooms.
    may_include = collections.defaultdict(set)
    for r in order:
        for u in allowed[r]:
            may_include[folder(r)].add(folder(u))
    for f, n, hdr in includes:
        to, at = hdr.split("/")[0], folder(room_of(f, order))
        if to != at and to not in may_include[at]:
            bad.append(f"{f}:{n}: {at} includes {hdr}, a room above or beside it")
    # References: direction, per room pair, with counts.
    edges = collections.defaultdict(lambda: collections.Counter())
    graph = collections.defaultdict(set)
    for a, b, sym, kind in refs:
        if a == b or b == "libc":
            continue
        graph[a].add(b)
        ra, rb = room_of(a, order), room_of(b, order)
        if ra != rb and ra in allowed and rb not in allowed[ra]:
            edges[(ra, rb)][(a, b, sym, kind)] += 1
    for (ra, rb), c in sorted(edges.items()):
        calls = sum(1 for k in c if k[3] == "call")
        data = len(c) - calls
        first = sorted(c)[0]
        verb = "calls" if first[3] == "call" else "reads data of"
        bad.append(f"{ra} -> {rb}: {calls} call(s) and {data} data reference(s) to a room above "
                   f"or beside it (first: {first[0]} {verb} {first[1]}: {first[2]})")
    # Independent checks share no code with their room.
    for a, b, sym, kind in refs:
        if re.match(r"src/net/\w+_check\.c$", a) and b.startswith("src/net/") and a != b:
            bad.append(f"{a} uses {sym} of {b}: a model's check takes nothing from the models")
    for f, n, hdr in includes:
        if (re.match(r"src/net/\w+_check\.c$", f) and hdr.startswith("net/")
                and "src/" + hdr in inline_headers):
            bad.append(f"{f}:{n}: includes {hdr}, which defines code (an inline function) the "
                       f"models use too")
    # Text is report's.
    if "report" in order:
        low = set(order[:order.index("report")])
        for a, b, sym, kind in refs:
            if b == "libc" and sym in TEXT_WRITERS and room_of(a, order) in low:
                bad.append(f"{a} writes text ({sym}) below report: hand the numbers up")
    for f, n, net in name_compares:
        bad.append(f"{f}:{n}: compares a string with the network name \"{net}\": read the typed "
                   f"settings' kind (oc__formula_in.cfg.kind) instead")
    for f, sym in file_local:
        bad.append(f"{f}: {sym} is called from no other file of the build: make it static")
    kind_allowed = KIND_ALLOWED if kind_allowed is None else kind_allowed
    for f, n, what in kind_branches:
        if f not in kind_allowed:
            bad.append(f"{f}:{n}: branches on its network's kind ({what}): ask the model's rule "
                       f"for a round (oc__netcfg.cost), read a family's settings through "
                       f"oc__netcfg_ring/star/direct, list the networks in the registry entry")
    for f in sorted(set(kind_allowed) - {f for f, n, what in kind_branches}):
        bad.append(f"{f}: allowed to branch on its network's kind (KIND_ALLOWED) but no longer "
                   f"does: take it off the list")
    bad.extend(cycles(graph))
    return sorted(set(bad), key=bad.index)


def cycles(graph):
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def strong(v):  # iterative Tarjan: the graph is small but recursion limits are not ours
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                sccs.append(comp)

    for v in sorted(list(graph)):
        if v not in index:
            strong(v)
    def name(c):  # a loop of many files: the first few and how many
        c = sorted(c)
        return " <-> ".join(c[:6]) + (f" <-> ... ({len(c)} files)" if len(c) > 6 else "")
    return ["files that depend on each other around a loop: " + name(c)
            for c in sccs if len(c) > 1]


# ---- the facts of the tree ----

def tree_facts(root, build):
    src = os.path.join(root, "src")
    folders = [d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))]
    includes, inline_headers = [], set()
    for path in sorted(glob.glob(os.path.join(src, "*", "*.[ch]"))):
        rel = os.path.relpath(path, root)
        text = open(path, encoding="utf-8").read()
        if path.endswith(".h") and re.search(r"^\s*static\s+inline\b[^;]*\)\s*\{", text, re.M):
            inline_headers.add(rel)
        for n, line in enumerate(text.splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([a-z_]+/[a-z_0-9]+\.h)"', line)
            if m:
                includes.append((rel, n, m.group(1)))
    nets = set()
    for path in glob.glob(os.path.join(src, "net", "*.c")):
        text = open(path, encoding="utf-8").read()
        nets |= set(re.findall(r'\.info\s*=\s*\{\s*"([a-z_]+)"', text))
        nets |= set(re.findall(r'DIRECT_MODEL\(\s*"([a-z_]+)"', text))
    name_compares = []
    for path in sorted(glob.glob(os.path.join(src, "algo", "*.c")) +
                       glob.glob(os.path.join(src, "aas", "*.c"))):
        rel = os.path.relpath(path, root)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            for m in re.finditer(r'str(?:n?case)?n?cmp\s*\([^;]*?"([a-z_]+)"', line):
                if m.group(1) in nets:
                    name_compares.append((rel, n, m.group(1)))
    kind_branches = []
    for path in sorted(glob.glob(os.path.join(src, "algo", "*.[ch]")) +
                       glob.glob(os.path.join(src, "aas", "*.[ch]"))):
        rel = os.path.relpath(path, root)
        for n, what in kind_branches_in(open(path, encoding="utf-8").read()):
            kind_branches.append((rel, n, what))
    tool_includes = []
    tool_headers = {os.path.basename(h) for h in glob.glob(os.path.join(root, "include", "*.h"))}
    tool_headers |= {os.path.basename(h) for h in glob.glob(os.path.join(root, "tools", "*.h"))}
    for path in sorted(glob.glob(os.path.join(root, "tools", "*.[ch]"))):
        rel = os.path.relpath(path, root)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                tool_includes.append((rel, n, m.group(1)))
    tool_flags = []
    src_dir = os.path.realpath(src)
    for target in ("opticoll", "opticoll-mpi", "opticoll-cluster"):
        flags = os.path.join(build, "CMakeFiles", target + ".dir", "flags.make")
        if not os.path.exists(flags):
            continue  # not built here (opticoll-mpi and -cluster need MPI)
        for m in re.finditer(r"(?:^|\s)-I\s*(\S+)", open(flags, encoding="utf-8").read()):
            if os.path.realpath(m.group(1)) == src_dir:
                tool_flags.append((target, m.group(1)))
    objs = glob.glob(os.path.join(build, "CMakeFiles", "*.dir", "src", "*", "*.c.o"))
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        rel = "src/" + o.split(os.sep + "src" + os.sep, 1)[1][:-2]
        if not os.path.exists(os.path.join(root, rel)):
            continue  # a stale object of a file that moved
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in DEFINED:
                defs[p[2]] = (rel, "call" if p[1] in "TW" else "data")
            elif len(p) == 2 and p[0] == "U":
                uses[rel].add(p[1])
    refs = []
    for f, us in uses.items():
        for u in us:
            if u in defs:
                refs.append((f, defs[u][0], u, defs[u][1]))
            elif u in TEXT_WRITERS:
                refs.append((f, "libc", u, "call"))
    # Who calls an internal function from outside its file: any object of the build (tools,
    # tests, benchmarks and fuzzers too), the library's own file compiled into several targets
    # counting as one file.
    called_from = collections.defaultdict(set)
    every = sorted(glob.glob(os.path.join(build, "CMakeFiles", "*.dir", "**", "*.o"),
                             recursive=True))
    for i in range(0, len(every), 200):  # one nm for many objects: "object: U symbol" lines
        out = subprocess.run(["nm", "-u", "-A"] + every[i:i + 200], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            o, _, rest = line.rpartition(": ")
            sym = rest.split()[-1] if rest.split() else ""
            if o and sym.startswith("oc__"):
                called_from[sym].add(o.split(".dir" + os.sep, 1)[1][:-2])
    file_local = sorted((f, s) for s, (f, kind) in defs.items()
                        if kind == "call" and s.startswith("oc__")
                        and not called_from[s] - {f})
    return (folders, includes, refs, inline_headers, name_compares,
            (tool_includes, tool_headers, tool_flags, file_local, kind_branches), bool(defs))


# ---- the self-test: each kind of violation, caught ----

SELF_TABLE = """
| room | holds | may use |
|---|---|---|
| `src/core` | the IR | libc |
| `src/algo/algo_common.c` | helpers | core |
| `src/algo` | algorithms | core, algo/algo_common.c |
| `src/aas` | more algorithms | core, algo/algo_common.c |
| `src/algo/registry.c` | the table | core, algo/algo_common.c, algo, aas |
| `src/net` | models | core |
| `src/run` | the pipeline | everything below |
| `src/report` | text | run and below |
"""


def self_test():
    order, allowed = parse_rooms(SELF_TABLE)
    folders = ["core", "algo", "aas", "net", "run", "report"]
    clean = [("src/algo/ring.c", "src/algo/algo_common.c", "oc__plan_begin", "call"),
             ("src/aas/sex.c", "src/algo/algo_common.c", "oc__plan_work", "call"),
             ("src/algo/registry.c", "src/algo/ring.c", "oc__algo_ring", "data"),
             ("src/algo/registry.c", "src/aas/sex.c", "oc__algo_sex", "data"),
             ("src/run/search.c", "src/algo/registry.c", "oc__algo_find", "call"),
             ("src/run/search.c", "src/core/units.c", "oc_format_time", "call"),
             ("src/report/report.c", "libc", "fprintf", "call"),
             ("src/net/ring.c", "src/net/ring_check.c", "oc__ring_check", "call")]
    clean_inc = [("src/aas/aas.h", 1, "algo/algos.h"), ("src/net/ring_check.c", 1, "net/ring.h")]
    cases = {
        # The table and the helpers in one file: every algorithm calls up into the table.
        "helpers in the table": (
            [("src/algo/ring.c", "src/algo/registry.c", "oc__plan_begin", "call")], [], set(),
            "algo -> algo/registry.c"),
        # A data reference alone (no call) going up: counted as well as calls.
        "data up": (
            [("src/algo/ring.c", "src/algo/registry.c", "oc__algo_table", "data")], [], set(),
            "1 data reference"),
        # algo <-> aas: the table's data in algo, the helpers' calls back from aas.
        "algo <-> aas": (
            [("src/algo/lump.c", "src/aas/sex.c", "oc__algo_sex", "data"),
             ("src/aas/sex.c", "src/algo/lump.c", "oc__plan_begin", "call")], [], set(),
            "around a loop"),
        # run calling report's time formatter.
        "run calls report": (
            [("src/run/search.c", "src/report/report.c", "oc_format_time", "call")], [], set(),
            "run -> report"),
        # run writing the link text itself.
        "run writes text": (
            [("src/run/links.c", "libc", "open_memstream", "call")], [], set(),
            "writes text"),
        # The ring's check using the model's assignment helper, by call or by inline header.
        "check calls model": (
            [("src/net/ring_check.c", "src/net/ring.c", "oc__ring_dir", "call")], [], set(),
            "takes nothing from the models"),
        "check shares inline": (
            [], [("src/net/ring_check.c", 2, "net/ring_model.h")], {"src/net/ring_model.h"},
            "defines code"),
        # An include going up.
        "include up": ([], [("src/net/ring.c", 3, "run/watch.h")], set(), "a room above"),
        # An unknown folder.
        "unknown room": ([], [], set(), "does not place"),
        # An algorithm that knows its network by name (hring's strcmp(name, "fattree")).
        "network by name": ([], [], set(), "network name"),
        # A command reaching into the library's rooms (cmd_rack.c's studies/rack.h).
        "tool includes src": ([], [], set(), "not a public header"),
        # A tool target built with src/ on its include path (CMakeLists.txt's PRIVATE src).
        "tool built with src": ([], [], set(), "include path"),
        # A helper only its own file calls, declared for all (star_tcp.h's oc__tcp1_label).
        "file-local not static": ([], [], set(), "make it static"),
        # An algorithm that branches on its network's kind (hring's bound before the model said
        # its rule), read from source text by the scanner the tree's check uses.
        "network by kind": ([], [], set(), "branches on its network's kind"),
        # The same through a copy of the kind (dbtree's p->kind == OC_NETCFG_FABRIC).
        "network kind copied": ([], [], set(), "(OC_NETCFG_FABRIC)"),
        # One family's settings read from the union (dbtree's cfg.fattree.leaf_down).
        "network family read": ([], [], set(), "cfg.fattree"),
        # A file on the allow-list that no longer branches: the list must shrink with the code.
        "stale kind allowance": ([], [], set(), "take it off the list"),
    }
    # The algorithms' sources the kind cases scan: a branch in code is found; the same words in a
    # comment or a string are not (an essay may say what the kind is).
    kind_sources = {
        "network by kind": ("src/algo/hring.c", "static double b(const oc__formula_in *f) {\n"
                            "    /* not in a comment: cfg.kind */\n"
                            "    if (f->cfg.kind == 4) return 1;\n    return 0;\n}\n"),
        "network kind copied": ("src/algo/dbt.c", "int k = p->kind == OC_NETCFG_FABRIC;\n"),
        "network family read": ("src/algo/dbt.c",
                                "const uint64_t D = c->in->cfg.fattree.leaf_down;\n"),
    }
    clean_kind = [("src/algo/dbt.c", n, w) for n, w in kind_branches_in(
        "/* OC_NETCFG_RING in an essay */ const char *s = \"cfg.kind\"; char c = '\\'';\n"
        "x = p->kind == OC_NETCFG_RING; // cfg->kind\n")]
    failed = 0
    if [n for f, n, w in clean_kind] != [2]:
        print(f"FAIL self-test: the kind scanner read comments or strings as code: {clean_kind}")
        failed += 1
    base = check(order, allowed, folders, clean_inc, clean, set(), (),
                 [("tools/cmd_rack.c", 7, "cli.h"), ("tools/cli.h", 12, "opticoll.h")],
                 {"cli.h", "opticoll.h"}, (), (), clean_kind, {"src/algo/dbt.c": "allowed"})
    if base:
        print("FAIL self-test: the clean tree has violations: " + "; ".join(base))
        failed += 1
    for name, (refs, incs, inl, want) in cases.items():
        fl = folders + (["mystery"] if name == "unknown room" else [])
        names = [("src/algo/hring.c", 148, "fattree")] if name == "network by name" else []
        tool_inc = [("tools/cmd_rack.c", 7, "cli.h"), ("tools/cli.h", 12, "opticoll.h")]
        if name == "tool includes src":
            tool_inc.append(("tools/cmd_rack.c", 8, "studies/rack.h"))
        flags = [("opticoll", "/x/src")] if name == "tool built with src" else []
        local = ([("src/algo/star_tcp_common.c", "oc__tcp1_label")]
                 if name == "file-local not static" else [])
        kinds = ([(kind_sources[name][0], n, w)
                  for n, w in kind_branches_in(kind_sources[name][1])]
                 if name in kind_sources else [])
        kind_ok = {"src/algo/gone.c": "allowed"} if name == "stale kind allowance" else {}
        got = check(order, allowed, fl, clean_inc + incs, clean + refs, inl, names, tool_inc,
                    {"cli.h", "opticoll.h"}, flags, local, kinds, kind_ok)
        if not any(want in g for g in got):
            print(f"FAIL self-test: '{name}' not caught (wanted '{want}', got {got})")
            failed += 1
    for bad_table, want in [(SELF_TABLE.replace("| models | core |", "| models | core, run |"),
                             "not below it")]:
        try:
            parse_rooms(bad_table)
            print(f"FAIL self-test: a table using a room above was accepted ({want})")
            failed += 1
        except ValueError:
            pass
    print(f"layering self-test: {len(cases) + 3 - failed} of {len(cases) + 3} cases caught")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 3:
        print("usage: layering.py SOURCE_DIR BUILD_DIR | --self-test", file=sys.stderr)
        return 2
    root, build = sys.argv[1], sys.argv[2]
    try:
        order, allowed = parse_rooms(open(os.path.join(root, "ARCHITECTURE.md"),
                                          encoding="utf-8").read())
    except (OSError, ValueError) as e:
        print(f"FAIL ARCHITECTURE.md: {e}")
        return 1
    (folders, includes, refs, inline_headers, name_compares, tools,
     any_defs) = tree_facts(root, build)
    if not any_defs:
        print("FAIL no object files under " + build + " (build the library first)")
        return 1
    bad = check(order, allowed, folders, includes, refs, inline_headers, name_compares, *tools)
    for b in bad:
        print("FAIL " + b)
    print(f"layering: {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
