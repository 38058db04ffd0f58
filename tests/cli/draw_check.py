#!/usr/bin/env python3
"""draw_check.py KIND SVG [REFERENCE] [ROUND] — reads an `opticoll draw` SVG back with
xml.etree and checks its contents against an independent account of the same schedule:

  ring  SVG CHROME [ROUND]  every lightpath of the Chrome trace (`export --format chrome`, whose
                            resource text the ring model writes: "cw fibre 0 wavelengths 3-5")
                            appears exactly once as an arc with the same round, step, ends,
                            direction, fibre, wavelength, links and chunks (ROUND: that round's)
  star  SVG CHROME          every transmission once, with the wavelength the star model tuned
  fabric SVG CHROME         every circuit once, with its first wavelength and wavelength count
  matrix SVG SCHEDULE       every transfer of the schedule file (`export --format json`) once, as
                            a cell in its round with its ends, op and chunks
  index SVG RUN [ROUND]     the structure against `run --json`: data-rounds, one <view
                            id="round-R"> per round drawn (all, or ROUND alone), one index link
                            per view pointing at it, a round group per view
  summary SVG RUN           the summary past 64 nodes: no per-transfer element; the blocks'
                            marks add up to the run's chunk-transfers (ring: lightpaths) or
                            transfers
SVG may instead be the gnuplot script of the same drawing (`draw --format gnuplot`, a name
ending .gp): its elements are read from its data blocks, where each drawn element is a comment
line with the SVG's data-* facts ("# lightpath round=0 step=1 src=2 ...") followed by the points
gnuplot draws; an element with fewer points than its kind draws (a curve two, a cell or a filter
one) is a difference. `index` is the SVG's alone (a PNG has no links).

  png PNG GP                a whole PNG (signature, every chunk's length inside the file, IHDR
                            first, IEND ending the file exactly) of the size the script's
                            terminal line gives
Prints nothing and exits 0 when the drawing is right; one line per difference and exit 1.
"""
import collections
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def elements(svg, tag, cls):
    return [e for e in svg.iter(NS + tag) if e.get("class") == cls]


class GpElement:
    """A drawn element of a gnuplot script, answering get() as its SVG element would."""

    def __init__(self, tag, cls, facts):
        self.tag, self.attrs = tag, {"class": cls}
        for k, v in facts.items():
            self.attrs[k if k == "id" else "data-" + k] = v.replace(",", " ")

    def get(self, key, default=None):
        return self.attrs.get(key, default)


GP_TAGS = {"lightpath": "path", "transmission": "path", "circuit": "path", "transfer": "rect",
           "block": "rect", "filter": "circle", "drawing": "g"}
GP_POINTS = {"path": 2, "rect": 1, "circle": 1}


class GpDoc:
    """A gnuplot script of `opticoll draw` read as the SVG's elements (see the module's text)."""

    def __init__(self, path):
        self.items, self.bad = [], []
        lines = open(path, encoding="utf-8").read().split("\n")
        in_block, current, points = False, None, 0

        def close():
            if current is not None and current.tag in GP_POINTS and points < GP_POINTS[current.tag]:
                self.bad.append(f"{current.get('class')} {current.attrs} draws {points} points")

        for line in lines:
            if not in_block and line.startswith("$b") and line.endswith("<< EOD"):
                in_block = True
                continue
            if in_block and line == "EOD":
                close()
                in_block, current, points = False, None, 0
                continue
            m = re.match(r"# (\w+)((?: [\w-]+=\S+)+)$", line)
            if m and (in_block or m.group(1) == "drawing"):
                if in_block:
                    close()
                facts = dict(kv.split("=", 1) for kv in m.group(2).split())
                if m.group(1) == "drawing":
                    facts["id"] = "summary"
                current = GpElement(GP_TAGS.get(m.group(1), "unknown"), m.group(1), facts)
                self.items.append(current)
                points = 0
            elif in_block and line.strip() and current is not None:
                points += 1
            elif in_block and not line.strip() and current is not None and points:
                close()
                current, points = None, 0

    def iter(self, tag=None):
        return [e for e in self.items if tag is None or NS + e.tag == tag]

    def find(self, query):
        return next((e for e in self.items if e.get("id") == "summary"), None)


def chrome_sends(path, round_only=None):
    """The Chrome trace's send slices (one per use on the sender's track)."""
    out = []
    for ev in json.load(open(path))["traceEvents"]:
        if ev.get("ph") != "X" or ev.get("pid") != 1 or not ev["name"].startswith("send "):
            continue
        a = ev["args"]
        if round_only is not None and a["round"] != round_only:
            continue
        src, dst = map(int, ev["name"][5:].split("->"))
        out.append((a, src, dst))
    return out


def compare(want, got, what):
    want, got = collections.Counter(want), collections.Counter(got)
    bad = []
    for k in sorted(set(want) | set(got), key=str):
        if want[k] != got[k]:
            bad.append(f"{what} {k}: {want[k]} in the reference, {got[k]} in the drawing")
    if not want:
        bad.append(f"no {what} in the reference: the check would prove nothing")
    return bad


def ring(svg, chrome, round_only):
    want = []
    for a, src, dst in chrome_sends(chrome, round_only):
        r = a["resource"]
        m = re.match(r"(cw|ccw) fibre (\d+) wavelengths (\d+)-(\d+) \((\d+) links?\)$", r)
        n = re.match(r"(cw|ccw) channels (\d+)-(\d+) \(fibre x (\d+) \+ wavelength; (\d+) links?\)$", r)
        if m:
            d, f, w0, w1, links = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
            lanes = [(f, w) for w in range(w0, w1 + 1)]
        elif n:
            d, k0, k1, w, links = n.group(1), int(n.group(2)), int(n.group(3)), int(n.group(4)), int(n.group(5))
            lanes = [(k // w, k % w) for k in range(k0, k1 + 1)]
        else:
            return [f"unreadable ring resource {r!r}"]
        for f, w in lanes:
            want.append((a["round"], a["step"], src, dst, d, f, w, links, tuple(a["chunks"])))
    got = [(int(e.get("data-round")), int(e.get("data-step")), int(e.get("data-src")),
            int(e.get("data-dst")), e.get("data-dir"), int(e.get("data-fibre")),
            int(e.get("data-wavelength")), int(e.get("data-links")),
            tuple(map(int, e.get("data-chunks").split())))
           for e in elements(svg, "path", "lightpath")]
    return compare(want, got, "lightpath (round, step, src, dst, dir, fibre, wavelength, links, chunks)")


def star(svg, chrome):
    want = []
    for a, src, dst in chrome_sends(chrome):
        m = re.match(r"wavelength (\d+) ", a["resource"])
        if not m:
            return [f"unreadable star resource {a['resource']!r}"]
        want.append((a["round"], a["step"], src, dst, int(m.group(1))))
    got = [(int(e.get("data-round")), int(e.get("data-step")), int(e.get("data-src")),
            int(e.get("data-dst")), int(e.get("data-wavelength")))
           for e in elements(svg, "path", "transmission")]
    bad = compare(want, got, "transmission (round, step, src, dst, wavelength)")
    # the receiver's filter is tuned to the transmission's wavelength
    filters = collections.Counter((int(e.get("data-node")), int(e.get("data-wavelength")))
                                  for e in elements(svg, "circle", "filter"))
    bad += compare([(k[3], k[4]) for k in want], list(filters.elements()), "filter (node, wavelength)")
    return bad


def fabric(svg, chrome):
    want = []
    for a, src, dst in chrome_sends(chrome):
        m = re.match(r"circuit tile (\d+) -> tile (\d+), wavelengths (\d+)-(\d+) ", a["resource"])
        if not m:
            return [f"unreadable fabric resource {a['resource']!r}"]
        w0, w1 = int(m.group(3)), int(m.group(4))
        want.append((a["round"], src, dst, w0, w1 - w0 + 1))
    got = [(int(e.get("data-round")), int(e.get("data-src")), int(e.get("data-dst")),
            int(e.get("data-wavelength")), int(e.get("data-wavelengths")))
           for e in elements(svg, "path", "circuit")]
    return compare(want, got, "circuit (round, src, dst, first wavelength, wavelengths)")


def matrix(svg, schedule):
    want = []
    for r, rnd in enumerate(json.load(open(schedule))["rounds"]):
        for t in rnd:
            want.append((r, t["src"], t["dst"], t.get("op", "copy"), tuple(t["chunks"])))
    got = [(int(e.get("data-round")), int(e.get("data-src")), int(e.get("data-dst")),
            e.get("data-op"), tuple(map(int, e.get("data-chunks").split())))
           for e in elements(svg, "rect", "transfer")]
    return compare(want, got, "transfer (round, src, dst, op, chunks)")


def index(svg, run, round_only):
    rep = json.load(open(run))
    bad = []
    summary = svg.find(f".//{NS}g[@id='summary']")
    if summary is None or int(summary.get("data-rounds")) != rep["rounds"]:
        bad.append(f"data-rounds is not the run's {rep['rounds']} rounds")
    if summary is not None and int(summary.get("data-steps")) != rep["steps"]:
        bad.append(f"data-steps is not the run's {rep['steps']} steps")
    drawn = list(range(rep["rounds"])) if round_only is None else [round_only]
    views = [e.get("id") for e in svg.iter(NS + "view") if e.get("id", "").startswith("round-")]
    if sorted(views) != sorted(f"round-{r}" for r in drawn):
        bad.append(f"views {views[:8]}... are not one per round drawn ({len(drawn)})")
    links = [(a.get("href"), a.get(XLINK)) for a in svg.iter(NS + "a")]
    if sorted(h for h, _ in links) != sorted(f"#{v}" for v in views) or any(h != x for h, x in links):
        bad.append(f"the index links {links[:8]}... are not one per view")
    groups = [int(g.get("data-round")) for g in elements(svg, "g", "round")]
    if groups != drawn:
        bad.append(f"round groups {groups[:8]}... are not the rounds drawn {drawn[:8]}...")
    return bad


def summary(svg, run):
    rep = json.load(open(run))
    bad = []
    s = svg.find(f".//{NS}g[@id='summary']")
    if s is None or s.get("data-view") != "summary":
        bad.append("the drawing is not a summary")
    for cls in ("lightpath", "transmission", "circuit", "transfer"):
        if any(e.get("class") == cls for e in svg.iter()):
            bad.append(f"a summary has a per-transfer element ({cls})")
    blocks = [e for e in svg.iter(NS + "rect") if e.get("class") == "block"]
    # on the ring a block counts lightpaths (a transfer of c chunks holds c channels, perhaps
    # over several steps); elsewhere a transfer is one mark
    key, want = ("chunk_transfers", rep["chunk_transfers"]) if rep["network"] == "ring" else \
        ("transfers", rep["transfers"])
    total = sum(int(e.get("data-lightpaths")) for e in blocks)
    if total != want:
        bad.append(f"the blocks hold {total} marks, the run has {want} {key}")
    for e in blocks:
        s0, s1 = map(int, e.get("data-senders").split())
        if not 0 <= s0 <= s1 < rep["nodes"]:
            bad.append(f"a block's senders {s0}-{s1} are outside 0-{rep['nodes'] - 1}")
            break
    return bad


def png(path, script):
    import struct
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return ["not a PNG (no signature)"]
    at, chunks = 8, []
    while at + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        if at + 12 + n > len(data):
            return [f"chunk {kind!r} runs past the end of the file"]
        chunks.append((kind, data[at + 8:at + 8 + n]))
        at += 12 + n
        if kind == b"IEND":
            break
    bad = []
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND" or at != len(data):
        return ["the PNG is not whole: IHDR first and IEND at the very end"]
    width, height = struct.unpack(">II", chunks[0][1][:8])
    m = re.search(r"^set terminal pngcairo size (\d+),(\d+)", open(script).read(), re.M)
    if not m or (width, height) != (int(m.group(1)), int(m.group(2))):
        bad.append(f"the PNG is {width} x {height}, the script's terminal "
                   f"{m.groups() if m else 'says no size'}")
    return bad


def main():
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "png":
        bad = png(path, sys.argv[3])
        print("\n".join(bad[:10])) if bad else None
        return 1 if bad else 0
    ref = sys.argv[3] if len(sys.argv) > 3 else None
    rnd = int(sys.argv[4]) if len(sys.argv) > 4 else None
    if path.endswith(".gp"):
        svg = GpDoc(path)
        if svg.bad:
            print("\n".join(svg.bad[:10]))
            return 1
    else:
        try:
            svg = ET.parse(path).getroot()
        except ET.ParseError as e:
            print(f"{path}: not well-formed XML: {e}")
            return 1
    bad = {"ring": lambda: ring(svg, ref, rnd), "star": lambda: star(svg, ref),
           "fabric": lambda: fabric(svg, ref), "matrix": lambda: matrix(svg, ref),
           "index": lambda: index(svg, ref, rnd), "summary": lambda: summary(svg, ref)}[kind]()
    for b in bad[:10]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
