#!/usr/bin/env python3
"""executor.py -- runs an MSCCL program the way the MSCCL runtimes do, for the tests.

Written from the runtimes' sources (Azure/msccl-executor-nccl and ROCm/rccl: msccl_parser.cc,
msccl_parser.h, msccl_struct.h, msccl_kernel.cu / msccl_kernel_impl.h, msccl_setup.cc,
msccl_lifecycle.cc), independently of opticoll's C code: it is the test of the rules, not of
ourselves. src/formats/msccl_export.c's essay lists the same rules with their sources.

  executor.py [--runtime msccl-nccl|rccl] [--root R] [--mode in|out|both] FILE...

For each file and each mode the file declares (inplace / outofplace; --mode picks), per rank:
  1. reads the file with the runtime's own reader rules (no XML declaration, one space between
     attributes, double quotes, values <= 255 characters, 16 attributes kept, 1024 children per
     element, fewer than 4096 elements kept for a rank) and its loader's checks (required
     attributes, coll names, 0 <= s < 64, cnt < 72, threadblock ids 0..n-1 below the runtime's
     maximum, channels, at most 32 sending and 32 receiving threadblocks per channel, each peer
     once per channel and direction, depid an int8, offsets int16 and inside i_chunks/o_chunks/
     s_chunks, sends and receives only with a peer, nop chains, fused re steps);
  2. runs every threadblock in order: a step waits until each threadblock it depends on has
     published a step counter >= deps (published after hasdep steps, counted as the kernel counts:
     a nop's wait folds into the next step, fused re steps advance it together); sends and
     receives match in order per (sender, receiver, channel), a connection buffering at most
     --capacity messages (default 1, stricter than the runtimes' NCCL_STEPS slots);
  3. values are sets of input tokens (rank, input chunk): a copy moves a set, a reduction joins
     two disjoint sets -- a token met twice is "counted twice"; the result is checked against the
     collective (sizes from nchunksperloop as the runtime derives them, in-place aliasing as the
     runtime defines it); the input buffer of an out-of-place call is never written;
  4. a data race is two threadblocks of one GPU touching a chunk (one writing) with no chain of
     waits, messages (a receive completes after its send) and program order between them, which
     may pass through other GPUs; a deadlock is no threadblock able to move.
Prints "ok FILE mode" or "FAIL FILE mode: reason" per run; exit 1 if any failed.
"""
import argparse
import bisect
import re
import sys

RUNTIMES = {
    # max threadblocks per GPU, channels (MAXCHANNELS), steps per threadblock
    "msccl-nccl": dict(tbs=1024, channels=32, steps=64),
    "rccl": dict(tbs=64, channels=128, steps=64),
}
MAX_STR_LEN, MAX_ATTR, MAX_SUBS, MAX_NODES = 255, 16, 1024, 4096
MAX_COUNT, PER_CHANNEL, MAX_FUSION = 72, 32, 16
COLLS = {"reduce", "broadcast", "allreduce", "reducescatter", "allgather", "send", "recv",
         "gather", "scatter", "alltoall", "alltoallv"}
SENDS = {"s", "rcs", "rrs", "rrcs"}
RECVS = {"r", "rcs", "rrs", "rrc", "rrcs"}


class Bad(Exception):
    pass


# ---- the runtime's reader (mscclXmlGetNode and friends), character by character ----

class Reader:
    """mscclXmlGetNode and its helpers, with the same accept/refuse decisions (scans by search
    instead of one fread per character)."""
    STOP = re.compile(r"[= >/\n\r]")
    BLANK = re.compile(r"[ \n\r]*")

    def __init__(self, text):
        self.s, self.i = text, 0

    def char(self):
        if self.i >= len(self.s):
            raise Bad("XML Parse: unexpected EOF")
        c = self.s[self.i]
        self.i += 1
        return c

    def value(self):
        c = self.char()
        if c not in "\"'":
            raise Bad("XML Parse: expected (double) quote")
        j = self.s.find('"', self.i)
        if j < 0:
            raise Bad("XML Parse: unexpected EOF")
        v = self.s[self.i:j]
        if len(v) > MAX_STR_LEN:
            raise Bad("attribute value of %d characters overruns the reader's %d-byte buffer"
                      % (len(v), MAX_STR_LEN + 1))
        self.i = j + 1
        return v, self.char()

    def token(self, want_value):
        m = self.STOP.search(self.s, self.i)
        if not m:
            raise Bad("XML Parse: unexpected EOF")
        j = m.start()
        name, c = self.s[self.i:j], self.s[j]
        self.i = j + 1
        if c == "=":
            if len(name) >= MAX_STR_LEN:
                raise Bad("name %s too long" % name[:MAX_STR_LEN])
            if not want_value:
                raise Bad("XML Parse: unexpected value with name %s" % name)
            v, last = self.value()
            return name, v, last
        if len(name) >= MAX_STR_LEN - 1:
            raise Bad("name %s too long" % name[:MAX_STR_LEN])
        return name, "", c

    # the common well-formed element, read at once (anything else takes the careful path)
    FAST = re.compile(r'<(/?)([^ =>/\n\r!]+)((?: [^ =>/\n\r"]+="[^"]*")*)(/?)>')
    ATTR = re.compile(r' ([^ =>/\n\r"]+)="([^"]*)"')

    def node(self):
        self.i = self.BLANK.match(self.s, self.i).end()
        if self.i >= len(self.s):
            return None
        m = self.FAST.match(self.s, self.i)
        if m and not (m.group(1) and (m.group(3) or m.group(4))):
            name = m.group(2)
            attrs = self.ATTR.findall(m.group(3))
            if len(name) < MAX_STR_LEN - 1 and all(
                    len(k) < MAX_STR_LEN and len(v) <= MAX_STR_LEN for k, v in attrs):
                self.i = m.end()
                if m.group(1):
                    return ("close", name, None)
                return ("single" if m.group(4) else "open", name, attrs[:MAX_ATTR])
        c = self.char()
        if c != "<":
            raise Bad("XML Parse error: expecting '<', got %r" % c)
        name, _, c = self.token(False)
        if name.startswith("!--"):
            end = "..."
            for ch in name[3:] + c:
                end = end[1:] + ch
            if end != "-->":
                j = self.s.find("-->", self.i - 2)
                if j < 0:
                    raise Bad("XML Parse error: unterminated comment")
                self.i = j + 3
            return self.node()
        if name == "" and c == "/":
            name, _, c = self.token(False)
            if c != ">":
                raise Bad("XML Parse error: unexpected trailing %r in closing tag %s" % (c, name))
            return ("close", name, None)
        attrs = []
        while c == " ":
            k, v, c = self.token(True)
            if len(attrs) < MAX_ATTR:
                attrs.append((k, v))
        kind = "open"
        if c == "/":
            kind = "single"
            _, _, c = self.token(False)
        if c != ">":
            raise Bad("XML Parse: expected >, got %r (after <%s ...)" % (c, name))
        return (kind, name, attrs)


class Node:
    def __init__(self, name, attrs):
        self.name, self.attrs, self.subs = name, dict(), []
        for k, v in attrs:
            self.attrs.setdefault(k, v)  # the first one is found


def read_tree(text):
    """The whole file as a tree of algo/gpu/tb/step (unknown elements skipped, as the loader)."""
    r = Reader(text)
    child = {None: "algo", "algo": "gpu", "gpu": "tb", "tb": "step"}
    root, stack = None, []  # stack of (Node or None when skipped, name)
    while True:
        n = r.node()
        if n is None:
            if stack:
                raise Bad("XML Parse: unterminated %s" % stack[-1][1])
            break
        kind, name, attrs = n
        if kind == "close":
            if not stack or stack[-1][1] != name:
                raise Bad("XML Mismatch: %s / %s" % (stack[-1][1] if stack else "-", name))
            stack.pop()
            continue
        node = None
        parent = stack[-1][0] if stack else None
        if (not stack or parent is not None) and child.get(parent.name if parent else None) == name:
            node = Node(name, attrs)
            if parent is None:
                if root is None:
                    root = node
            else:
                parent.subs.append(node)
                if len(parent.subs) > MAX_SUBS:
                    raise Bad("<%s> has more than %d children (MAX_SUBS)" % (parent.name, MAX_SUBS))
        if kind == "open":
            stack.append((node, name))
    if root is None:
        raise Bad("no <algo> element")
    return root


PLAIN = re.compile(r"-?(0|[1-9][0-9]*)\Z")


def strtol(s):
    """C's strtol(s, NULL, 0)."""
    if PLAIN.match(s):
        return int(s)
    s = s.lstrip(" \t\n\r\f\v")
    sign = 1
    if s[:1] in "+-" and s:
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    base = 10
    if s[:2].lower() == "0x":
        base, s = 16, s[2:]
    elif s[:1] == "0":
        base = 8
    digits = "0123456789abcdef"[:base]
    n, v = 0, 0
    for ch in s.lower():
        if ch not in digits:
            break
        v = v * base + digits.index(ch)
        n += 1
    return sign * v


def attr(node, key, num=True):
    if key not in node.attrs:
        raise Bad("Attribute %s of node %s not found" % (key, node.name))
    return strtol(node.attrs[key]) if num else node.attrs[key]


# ---- the loader (mscclGetAlgoFromXmlFile) for one rank ----

class Tx:
    """A transmission as the kernel sees it."""
    __slots__ = ("type", "sbuf", "soff", "dbuf", "doff", "cnt", "deps", "hasdep", "reds", "xml_s",
                 "counter")


def load_rank(algo, gpu, rt):
    I, O, S = attr(gpu, "i_chunks"), attr(gpu, "o_chunks"), attr(gpu, "s_chunks")
    rank = attr(gpu, "id")
    if S < 0:
        raise Bad("nScratchChunks must be not negative")
    sizes = {"i": I, "o": O, "s": S}
    tbs, seen = {}, set()
    chan_send, chan_recv = {}, {}
    for tbn in gpu.subs:
        bid, recv, send, ch = (attr(tbn, k) for k in ("id", "recv", "send", "chan"))
        if bid < 0 or bid >= rt["tbs"]:
            raise Bad("gpu %d: threadblock %d: at most %d threadblocks" % (rank, bid, rt["tbs"]))
        if bid in seen:
            raise Bad("gpu %d: duplicate thread block id %d" % (rank, bid))
        seen.add(bid)
        if recv == rank or send == rank or recv < -1 or send < -1:
            raise Bad("gpu %d tb %d: bad peers (%d, %d)" % (rank, bid, send, recv))
        if ch < 0 or ch >= rt["channels"]:
            raise Bad("gpu %d tb %d: channel %d (MAXCHANNELS %d)" % (rank, bid, ch, rt["channels"]))
        for peer, table, what in ((send, chan_send, "send"), (recv, chan_recv, "recv")):
            if peer < 0:
                continue
            peers = table.setdefault(ch, [])
            if peer in peers:
                raise Bad("gpu %d: two threadblocks %s with %d on channel %d (one connection)"
                          % (rank, what, peer, ch))
            peers.append(peer)
            if len(peers) > PER_CHANNEL:
                raise Bad("gpu %d: too many %ss per channel %d (max %d)" % (rank, what, ch, PER_CHANNEL))
        txs, pending, counter = [], [], 0
        old_red = None
        nred = 0
        for st in tbn.subs:
            s = attr(st, "s")
            ty = attr(st, "type", False)
            sbuf, dbuf = attr(st, "srcbuf", False), attr(st, "dstbuf", False)
            soff, doff, cnt = attr(st, "srcoff"), attr(st, "dstoff"), attr(st, "cnt")
            depid, deps, hasdep = attr(st, "depid"), attr(st, "deps"), attr(st, "hasdep")
            if s >= rt["steps"]:
                raise Bad("gpu %d tb %d: too many steps (step %d; max %d)" % (rank, bid, s, rt["steps"]))
            if s < 0:
                raise Bad("gpu %d tb %d: step must be positive" % (rank, bid))
            if ty not in ("s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"):
                raise Bad("gpu %d tb %d step %d: type %s not supported" % (rank, bid, s, ty))
            if depid > 127 or depid < -128:
                raise Bad("gpu %d tb %d step %d: depid %d does not fit an int8" % (rank, bid, s, depid))
            if depid >= 0:
                if deps < 0 or deps > 32767:
                    raise Bad("gpu %d tb %d step %d: deps %d" % (rank, bid, s, deps))
                pending.append((depid, deps))
            if sbuf not in sizes or dbuf not in sizes:
                raise Bad("gpu %d tb %d step %d: type of buffer not supported" % (rank, bid, s))
            cont = False
            if ty == "re":
                if old_red == (dbuf, doff, sbuf) and depid == -1:
                    cont = True
                else:
                    old_red = None
            if ty == "nop":
                continue
            if cnt < 0 or cnt >= MAX_COUNT:
                raise Bad("gpu %d tb %d step %d: count %d (must be < %d)" % (rank, bid, s, cnt, MAX_COUNT))
            if ty in SENDS and send < 0:
                raise Bad("gpu %d tb %d: a send without a send peer" % (rank, bid))
            if ty in RECVS and recv < 0:
                raise Bad("gpu %d tb %d: a receive without a recv peer" % (rank, bid))
            check_src = ty in ("s", "rrs", "rrcs", "cpy", "re")
            check_dst = ty in ("r", "rcs", "rrcs", "cpy", "re")
            for chk, b, o in ((check_src, sbuf, soff), (check_dst, dbuf, doff)):
                if chk and (o < -1 or o >= sizes[b]):
                    raise Bad("gpu %d tb %d step %d: offset %d outside %s (%d chunks)"
                              % (rank, bid, s, o, b, sizes[b]))
                if o > 32767:
                    raise Bad("gpu %d tb %d step %d: offset %d does not fit an int16" % (rank, bid, s, o))
            if cont:
                t = txs[-1]
                t.reds.append(soff)
                t.cnt, t.soff, t.hasdep = cnt, soff, hasdep
                t.xml_s = s
            else:
                if pending and depid < 0:
                    raise Bad("gpu %d tb %d step %d: a chain of waits must end on the step's own wait"
                              % (rank, bid, s))
                t = Tx()
                t.type, t.sbuf, t.soff, t.dbuf, t.doff, t.cnt = ty, sbuf, soff, dbuf, doff, cnt
                t.deps, pending = pending, []
                t.hasdep, t.reds, t.xml_s = hasdep, [soff], s
                txs.append(t)
            if hasdep not in (0, 1):
                raise Bad("gpu %d tb %d step %d: hasdep must be 0 or 1" % (rank, bid, s))
            if ty == "re":
                nred = 1 if not cont else nred + 1
                old_red = None if (hasdep or nred == MAX_FUSION) else (dbuf, doff, sbuf)
            else:
                old_red = None
        # the kernel's step counter
        step = 0
        for t in txs:
            if t.deps:
                step += len(t.deps) - 1
            if t.type == "re" and t.cnt > 0:
                step += len(t.reds) - 1
            t.counter = step
            step += 1
        tbs[bid] = dict(send=send, recv=recv, chan=ch, txs=txs)
    for b in range(len(tbs)):
        if b not in tbs:
            raise Bad("gpu %d: thread block %d is missing" % (rank, b))
    nodes = 1 + len(algo.subs) + len(gpu.subs) + sum(len(t.subs) for t in gpu.subs)
    if nodes >= MAX_NODES:
        raise Bad("gpu %d: %d elements for its reader (MAX_NODES %d)" % (rank, nodes, MAX_NODES))
    return tbs, sizes


# ---- the collective: buffers, aliasing, initial and final values ----

def layout(coll, N, ncpl, root, rank):
    """Real sizes (chunks) of i and o at rank, and the in-place alias of i chunk k in o (or of o
    chunk k in i)."""
    if coll == "allgather":
        return ncpl // N, ncpl
    if coll == "reducescatter":
        return ncpl, ncpl // N
    if coll in ("allreduce", "alltoall"):
        return ncpl, ncpl
    if coll == "broadcast":
        return (ncpl if rank == root else 0), ncpl
    if coll == "gather":
        return ncpl, (N * ncpl if rank == root else 0)
    if coll == "scatter":
        return (N * ncpl if rank == root else 0), ncpl
    raise Bad("collective %s not checked by this executor" % coll)


def cell_of(coll, inplace, rank, I, O, buf, off):
    """A physical cell: ('i', k) / ('o', k) / ('s', k), in-place aliases folded."""
    if inplace and buf == "i" and O:
        if coll in ("allgather", "gather"):
            return ("o", rank * I + off)
        if coll in ("allreduce", "alltoall", "broadcast"):
            return ("o", off)
    if inplace and buf == "o" and I and coll in ("reducescatter", "scatter"):
        return ("i", rank * O + off)
    return (buf, off)


def expected(coll, N, ncpl, root, rank, tok):
    """{o chunk: token set} required at rank."""
    I, O = layout(coll, N, ncpl, root, rank)
    out = {}
    if coll == "allgather":
        q = ncpl // N
        for k in range(O):
            out[k] = tok(k // q, k % q)
    elif coll == "allreduce":
        every = sum(tok(v, 0) for v in range(N))  # token k of every rank: this shifted by k
        for k in range(O):
            out[k] = every << k
    elif coll == "reducescatter":
        every = sum(tok(v, 0) for v in range(N))
        for k in range(O):
            out[k] = every << (rank * O + k)
    elif coll == "alltoall":
        q = ncpl // N
        for k in range(O):
            out[k] = tok(k // q, rank * q + k % q)
    elif coll == "broadcast":
        for k in range(O):
            out[k] = tok(root, k)
    elif coll == "gather":
        for k in range(O):
            out[k] = tok(k // ncpl, k % ncpl)
    elif coll == "scatter":
        for k in range(O):
            out[k] = tok(root, rank * ncpl + k)
    return out


def run(text, rt_name, root, modes, capacity, execute_it=True):
    rt = RUNTIMES[rt_name]
    algo = read_tree(text)
    for k in ("nchunksperloop", "nchannels", "ngpus", "minBytes", "maxBytes", "inplace",
              "outofplace"):
        attr(algo, k)
    proto, coll = attr(algo, "proto", False), attr(algo, "coll", False)
    if proto not in ("Simple", "LL128", "LL"):
        raise Bad("protocol %s is not supported" % proto)
    if coll not in COLLS:
        raise Bad("unsupported collective: %s" % coll)
    N, ncpl, nch = attr(algo, "ngpus"), attr(algo, "nchunksperloop"), attr(algo, "nchannels")
    if nch > rt["channels"]:
        raise Bad("nchannels %d > MAXCHANNELS %d" % (nch, rt["channels"]))
    gpus = {}
    for g in algo.subs:
        gpus[attr(g, "id")] = g
    if sorted(gpus) != list(range(N)):
        raise Bad("gpu ids are not 0..%d" % (N - 1))
    ranks = {v: load_rank(algo, gpus[v], rt) for v in range(N)}
    for v, (tbs, _) in ranks.items():
        for b, t in tbs.items():
            if t["chan"] >= nch and (t["send"] >= 0 or t["recv"] >= 0):
                raise Bad("gpu %d tb %d: channel %d is not among the nchannels=%d the runtime connects"
                          % (v, b, t["chan"], nch))
    want = [m for m in ("in", "out") if (m == "in" and attr(algo, "inplace")) or
            (m == "out" and attr(algo, "outofplace"))]
    if modes != "both":
        want = [m for m in want if m == modes]
    if not want:
        raise Bad("the file declares neither requested mode")
    for m in want:
        if execute_it:
            execute(coll, N, ncpl, root, ranks, m == "in", capacity)
    return want


def execute(coll, N, ncpl, root, ranks, inplace, capacity):
    mode = "in-place" if inplace else "out-of-place"
    sizes = {v: layout(coll, N, ncpl, root, v) for v in range(N)}
    maxI = max(s[0] for s in sizes.values()) or 1

    def tok(v, k):
        return 1 << (v * maxI + k)

    mem = {}
    for v in range(N):
        I, O = sizes[v]
        mem[v] = {cell_of(coll, inplace, v, I, O, "i", k): tok(v, k) for k in range(I)}
    # per rank and threadblock: next transmission, published counter, vector clock and the
    # clocks published with each counter. A clock maps (rank, threadblock) to how many of its
    # transmissions happened before: over every rank's threadblocks, as order also flows through
    # messages (a receive completes after its send) and so through the other ranks.
    pc, flag, vcs, pubc, pubv = {}, {}, {}, {}, {}
    for v, (tbs, _) in ranks.items():
        for b in sorted(tbs):
            pc[v, b], flag[v, b], vcs[v, b] = 0, -1, {}
            pubc[v, b], pubv[v, b] = [], []
    fifo, access, waiting = {}, {}, {}

    def where(v, buf, off):
        I, O = sizes[v]
        c = cell_of(coll, inplace, v, I, O, buf, off)
        real = {"i": I, "o": O}.get(c[0])
        if real is not None and not (0 <= c[1] < real):
            raise Bad("%s: gpu %d touches %s[%d] outside the real buffer (%d chunks)"
                      % (mode, v, c[0], c[1], real))
        return c

    def output_alias(v, k):
        """In-place, input chunk k is also an output chunk (the call's buffers overlap)."""
        I, O = sizes[v]
        if not inplace or not O:
            return False
        if coll in ("reducescatter", "scatter"):
            return v * O <= k < (v + 1) * O
        return True

    def touch(v, b, ep, vc, c, write):
        w, reads = access.get((v, c), (None, ()))
        if w and w[0] != b and vc.get((v, w[0]), 0) < w[1]:
            raise Bad("%s: gpu %d: race on %s[%d] between tb %d (write) and tb %d"
                      % (mode, v, c[0], c[1], w[0], b))
        if write:
            for (pb, pcount) in reads:
                if pb != b and vc.get((v, pb), 0) < pcount:
                    raise Bad("%s: gpu %d: race on %s[%d] between tb %d (read) and tb %d"
                              % (mode, v, c[0], c[1], pb, b))
            if c[0] == "i" and not output_alias(v, c[1]):
                raise Bad("%s: gpu %d writes the input buffer i[%d]" % (mode, v, c[1]))
            access[(v, c)] = ((b, ep), ())
        else:
            access[(v, c)] = (w, reads + ((b, ep),))

    def join(vc, other):
        for key, x in other.items():
            if vc.get(key, 0) < x:
                vc[key] = x

    def add(a, b_):
        if a is None or b_ is None:
            return None
        if a & b_:
            raise Bad("%s: a contribution counted twice" % mode)
        return a | b_

    def wake(key):
        for x in waiting.pop(key, ()):
            work.append(x)

    work = [(v, b) for v in range(N) for b in sorted(ranks[v][0])]
    total = sum(len(t["txs"]) for tbs, _ in ranks.values() for t in tbs.values())
    executed = 0
    while work:
        v, b = work.pop()
        tb = ranks[v][0][b]
        txs = tb["txs"]
        m = mem[v]
        while pc[v, b] < len(txs):
            t = txs[pc[v, b]]
            blocked = None
            for d, s in t.deps:
                if (v, d) not in flag:
                    raise Bad("gpu %d tb %d: waits for threadblock %d, which does not exist"
                              % (v, b, d))
                if flag[v, d] < s:
                    blocked = ("flag", v, d)
                    break
            send_key = (v, tb["send"], tb["chan"])
            recv_key = (tb["recv"], v, tb["chan"])
            if not blocked and t.type in RECVS and not fifo.get(recv_key):
                blocked = ("msg", recv_key)
            if not blocked and t.type in SENDS and len(fifo.get(send_key, ())) >= capacity:
                blocked = ("space", send_key)
            if blocked:
                waiting.setdefault(blocked, []).append((v, b))
                break
            vc = vcs[v, b]  # changed in place; what others keep is a copy
            for d, s in t.deps:  # the clock published with the first counter >= s
                cs = pubc[v, d]
                j = bisect.bisect_left(cs, s)
                join(vc, pubv[v, d][j])
            n = t.cnt
            incoming = None
            if t.type in RECVS:
                incoming, sent = fifo[recv_key].pop(0)
                join(vc, sent)  # the send happened before
                wake(("space", recv_key))
                if len(incoming) != n:
                    raise Bad("%s: gpu %d tb %d receives %d chunks where gpu %d sent %d"
                              % (mode, v, b, n, tb["recv"], len(incoming)))
            ep = vc[v, b] = vc.get((v, b), 0) + 1
            out = []
            ty = t.type
            for k in range(n):
                if ty == "s":
                    c = where(v, t.sbuf, t.soff + k)
                    touch(v, b, ep, vc, c, False)
                    out.append(m.get(c))
                elif ty == "r" or ty == "rcs":
                    c = where(v, t.dbuf, t.doff + k)
                    touch(v, b, ep, vc, c, True)
                    m[c] = incoming[k]
                    out.append(incoming[k])
                elif ty in ("rrs", "rrc", "rrcs"):
                    cs = where(v, t.sbuf, t.soff + k)
                    touch(v, b, ep, vc, cs, False)
                    x = add(incoming[k], m.get(cs))
                    if ty != "rrs":
                        cd = where(v, t.dbuf, t.doff + k)
                        touch(v, b, ep, vc, cd, True)
                        m[cd] = x
                    out.append(x)
                elif ty == "cpy":
                    cs = where(v, t.sbuf, t.soff + k)
                    touch(v, b, ep, vc, cs, False)
                    cd = where(v, t.dbuf, t.doff + k)
                    x = m.get(cs)
                    touch(v, b, ep, vc, cd, True)
                    m[cd] = x
                elif ty == "re":
                    cd = where(v, t.dbuf, t.doff + k)
                    x = m.get(cd)
                    for r in t.reds:
                        cs = where(v, t.sbuf, r + k)
                        touch(v, b, ep, vc, cs, False)
                        x = add(x, m.get(cs))
                    touch(v, b, ep, vc, cd, True)
                    m[cd] = x
            if ty in SENDS:
                fifo.setdefault(send_key, []).append((out, dict(vc)))
                wake(("msg", send_key))
            if t.hasdep:
                flag[v, b] = t.counter
                pubc[v, b].append(t.counter)
                pubv[v, b].append(dict(vc))
                wake(("flag", v, b))
            pc[v, b] += 1
            executed += 1
    if executed < total:
        stuck = []
        for v in range(N):
            for b in sorted(ranks[v][0]):
                txs = ranks[v][0][b]["txs"]
                if pc[v, b] < len(txs):
                    t = txs[pc[v, b]]
                    stuck.append("gpu %d tb %d at s=%d (%s)" % (v, b, t.xml_s, t.type))
        raise Bad("%s: deadlock: %s%s" % (mode, "; ".join(stuck[:3]),
                                          " ..." if len(stuck) > 3 else ""))
    for key, q in fifo.items():
        if q:
            raise Bad("%s: %d messages from gpu %d to gpu %d on channel %d never received"
                      % (mode, len(q), key[0], key[1], key[2]))
    for v in range(N):
        I, O = sizes[v]
        for k, want in expected(coll, N, ncpl, root, v, tok).items():
            got = mem[v].get(cell_of(coll, inplace, v, I, O, "o", k))
            if got != want:
                what = "no data" if got is None else (
                    "a wrong or partial value" if got & ~want or not got else "missing contributions")
                raise Bad("%s: gpu %d output chunk %d holds %s" % (mode, v, k, what))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runtime", default="msccl-nccl", choices=sorted(RUNTIMES))
    ap.add_argument("--root", type=int, default=0)
    ap.add_argument("--mode", default="both", choices=("in", "out", "both"))
    ap.add_argument("--capacity", type=int, default=1)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    bad = 0
    for f in a.files:
        try:
            with open(f, encoding="utf-8", newline="") as fh:
                text = fh.read()
            modes = run(text, a.runtime, a.root, a.mode, a.capacity)
            print("ok %s %s" % (f, ",".join(modes)))
        except Bad as e:
            bad += 1
            print("FAIL %s: %s" % (f, e))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
