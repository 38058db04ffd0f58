/*
 * msccl_import.c — `opticoll verify FILE.xml`: an MSCCL XML program (msccl-tools' output, what
 * msccl-executor-nccl and RCCL's MSCCL load) executed symbolically under the runtimes' rules,
 * checked against its collective, and read into our schedule IR for the network model.
 *
 * The rules followed, with where the runtimes state them (msccl-executor-nccl
 * src/misc/msccl/msccl_parser.cc, src/device/msccl_kernel.cu, src/misc/msccl/msccl_setup.cc and
 * msccl_lifecycle.cc; RCCL src/device/msccl_kernel_impl.h, which passes the step's buffers to
 * the primitives with setDataPtrs(src, dst)):
 *  - Buffers. Each GPU has an input `i`, an output `o` and a scratch `s` buffer, counted in
 *    chunks of count * sizeMultiplier / nchunksperloop elements (mscclSetupKernel). So
 *    nchunksperloop is the output buffer of allgather and the input of reducescatter (the whole
 *    vector of N blocks), and one rank's whole buffer for allreduce, broadcast and alltoall
 *    (alltoall: N blocks of nchunksperloop/N chunks, block d for / from rank d); gather and
 *    scatter count one rank's block. In place (mscclInternalSchedulerSelectAlgo), `i` and `o`
 *    are one buffer for allreduce, broadcast and alltoall; allgather's `i` is o[r*q ..] of rank
 *    r (q = nchunksperloop/N), reducescatter's `o` is i[r*q ..]. A file runs in place if it says
 *    inplace="1" and out of place if outofplace="1"; each mode it declares is checked. Out of
 *    place, the caller's input buffer is read-only here: a program that writes into it is
 *    refused.
 *  - Steps (kernel: the primitives' Input is srcbuf, Output dstbuf): s sends src; r receives
 *    into dst; rcs receives into dst and forwards it; rrc writes received + src into dst; rrs
 *    sends received + src on without storing it; rrcs writes received + src into dst and sends
 *    it on; cpy copies src to dst; re adds src into dst; nop does nothing. Each covers cnt
 *    consecutive chunks from srcoff / dstoff. A send meets the next receive, in order, of the
 *    threadblock of its peer that receives from it on the same channel (one connection per
 *    (sender, receiver, channel)).
 *  - Waits. A step with depid >= 0 waits until threadblock depid has published a step number of
 *    at least deps; a threadblock publishes its step number only after a step with hasdep="1"
 *    (mscclRunInterpreter's flags). Step numbers are the kernel's counter, not the file's s: a
 *    nop is no step of its own, its wait is carried by the next step (msccl_parser.cc's
 *    dependence pointer, which refuses a chain of nops that ends in a step with no wait of its
 *    own) and counts one; consecutive `re` steps into one dst chunk from one buffer, none after
 *    the first waiting and none before the last publishing, are fused (at most 16) and run with
 *    the first one's cnt. A wait no step will ever satisfy is a hang, and is refused.
 *
 * What is checked. The steps' order inside a threadblock, the messages and the waits form a
 * graph of happens-before; a cycle is a deadlock (buffers are taken to be unbounded). The
 * program is then executed in an order of that graph, chunk by chunk: a chunk's value is the
 * collective's chunk label it holds and, for reductions, the set of GPUs whose contributions it
 * carries (N bits). Reading a chunk nobody wrote, reducing two different chunks into one,
 * counting a contribution twice, a reduce in a copy collective, and a final output that is not
 * the collective's (a missing chunk, a permuted one, a partial sum) are refused, naming the GPU,
 * buffer and chunk. Two threadblocks of a GPU touching one chunk, one of them writing, must be
 * ordered: the earlier step happens before the later by a path of threadblock order, waits and
 * messages (a receive completes after its send), which may pass through a third threadblock or
 * other GPUs; otherwise it is a race, whatever order this execution chose. The order is kept as
 * vector clocks (hb_*, below), within the memory budget.
 *
 * The schedule IR. Every message between GPUs is one transfer of our IR, labelled with the
 * chunks it carries (split where they are not consecutive labels); local steps (cpy, re) move
 * nothing over the network and are not in the IR. A transfer's round is its depth in the graph
 * of waits, where data that lands by a receive is read a round later and everything else may
 * share a round (a round reads the state at its start); a local step runs between rounds. In a
 * reduction, a message whose chunks are reduced at the receiver (rrc, rrs, rrcs, or received
 * into a chunk that a later re or reducing receive adds into another) is a reduce, else a copy.
 * The rounds then go through the pipeline (src/run): the label verifier checks this projection
 * once more, and -t maps it on a network like any other schedule. MSCCL's per-runtime limits
 * (steps per threadblock, peers per channel, ...) are the exporter's and the executor test's
 * business (msccl_export.c), not checked here.
 *
 * A malformed file (not XML, a missing or non-numeric attribute) is a parse error (exit 2); a
 * file whose steps do not match up or whose result is wrong is a verification error (exit 1).
 * Size: at most 2048 GPUs and 2^24 (GPU, chunk) pairs over the three buffers, and libxml2's
 * tree and the execution's state are counted against the memory budget before they are built
 * (the clocks of the order: threadblocks x the threadblocks that share chunks x 4 bytes, and
 * those kept for messages in flight and waited steps, refused in one line past the budget);
 * threadblocks are found through sorted indices, so reading is O(n log n) in the file. Before
 * libxml2 sees the text, one linear scan caps an element at 64 attributes (libxml2's duplicate
 * check is quadratic in them) and the file at 2048 x 4096 elements (what MSCCL's runtime loads).
 */
#include "core/quote.h"
#include "formats/formats.h"

#include "formats/msccl.h"
#include "verify/verify.h"
#include <assert.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a step does ---- */

enum { K_S, K_R, K_RRC, K_NOP, K_RCS, K_RRS, K_RRCS, K_CPY, K_RE, K_COUNT };
static const char *const kind_name[K_COUNT] = {"s",   "r",    "rrc", "nop", "rcs",
                                               "rrs", "rrcs", "cpy", "re"};
enum { F_RECV = 1, F_SEND = 2, F_RSRC = 4, F_WDST = 8, F_RED = 16, F_LOCAL = 32 };
static const uint8_t kind_flags[K_COUNT] = {
    [K_S] = F_SEND | F_RSRC,
    [K_R] = F_RECV | F_WDST,
    [K_RRC] = F_RECV | F_RSRC | F_WDST | F_RED,
    [K_NOP] = 0,
    [K_RCS] = F_RECV | F_SEND | F_WDST,
    [K_RRS] = F_RECV | F_SEND | F_RSRC | F_RED,
    [K_RRCS] = F_RECV | F_SEND | F_RSRC | F_WDST | F_RED,
    [K_CPY] = F_LOCAL | F_RSRC | F_WDST,
    [K_RE] = F_LOCAL | F_RSRC | F_WDST | F_RED,
};
enum { B_I, B_O, B_S };
static const char *const buf_name[3] = {"input", "output", "scratch"};
#define MAX_FUSION 16 /* MSCCL_MAX_REDUCE_FUSION, msccl_struct.h */
#define MAX_PAIRS (UINT64_C(1) << 24)
#define NONE UINT32_MAX
#define NEED_ORDER 2 /* not an error: the race check needs the clocks of happens-before */

typedef struct rstep {
    uint8_t kind, sbuf, dbuf, hasdep;
    int32_t s;     /* the file's s */
    uint32_t ridx; /* the kernel's step number */
    uint32_t soff, doff, cnt;
    uint32_t w0, nw; /* its waits in prog.waits[] (the nops' before it included) */
    uint32_t rx, sx; /* the message it receives / sends (NONE: none) */
    uint32_t lnode;  /* a local step's node in the graph of rounds */
    uint32_t part;   /* its first part in the graph of execution */
    uint32_t snap;   /* its clock while steps that wait for it have not run (hb_leave) */
    uint32_t takers; /* those steps */
    long line;
} rstep;

typedef struct rtb {
    int32_t id, send, recv, chan;
    rstep *steps;
    size_t n, cap;
    long line;
} rtb;

typedef struct rgpu {
    rtb *tbs;
    size_t n, cap;
    int seen;
    uint32_t *by_id;   /* threadblock indices sorted by id */
    uint32_t *by_recv; /* receiving threadblocks sorted by (recv, chan) */
    size_t nrecv;
} rgpu;

/* A wait as the file says it, then resolved to the step that satisfies it. */
typedef struct rwaitf {
    int32_t depid, deps;
    uint32_t tb, k;
} rwaitf;

/* A message: step sk of threadblock stb on GPU src to step rk of rtb on dst. */
typedef struct rmsg {
    uint32_t src, dst, stb, sk, rtb, rk, cnt;
    uint8_t reduce;  /* the IR's op */
    uint32_t *label; /* the payload while in flight: cnt labels ... */
    uint64_t *bits;  /* ... and cnt contribution sets */
} rmsg;

typedef struct prog {
    const char *path;
    uint32_t N, C, q, nbuf[3]; /* nbuf: chunks of i, o, s as the collective sizes them */
    oc_collective coll;
    uint32_t root;
    int reduces, inplace, outofplace;
    rgpu *gpus;
    rwaitf *waits;
    size_t nwaits, capwaits;
    rmsg *msgs;
    size_t nmsgs, capmsgs;
    uint32_t nlocal; /* local steps (cpy, re): nodes nmsgs.. of the graph of rounds */
} prog;

/* ---- reading ---- */

/* Reads integer attribute `name` of node into *out (in [lo, hi]); 0 or OC_EPARSE. */
static int attr_int(xmlNodePtr node, const char *name, long long lo, long long hi, int need,
                    long long dflt, long long *out, const char *path, char *why, size_t len) {
    xmlChar *v = xmlGetProp(node, BAD_CAST name);
    if (!v) {
        if (!need) {
            *out = dflt;
            return 0;
        }
        return oc__fail(why, len, OC_EPARSE, "%s: line %ld: <%s> has no %s attribute", path,
                        xmlGetLineNo(node), (const char *)node->name, name);
    }
    char *end = NULL;
    errno = 0;
    long long x = strtoll((const char *)v, &end, 10);
    int ok = errno == 0 && end != (char *)v && *end == 0 && x >= lo && x <= hi;
    if (!ok) {
        int rc = oc__fail(why, len, OC_EPARSE,
                          "%s: line %ld: <%s %s=\"%s\">: expected a whole "
                          "number from %lld to %lld",
                          path, xmlGetLineNo(node), (const char *)node->name, name,
                          OC_Q((const char *)v), lo, hi);
        xmlFree(v);
        return rc;
    }
    xmlFree(v);
    *out = x;
    return 0;
}

/* An upper bound of the memory libxml2's tree of `text` takes, found in one pass before the tree
 * is built: an element per '<' (its node, and a text node between elements), an attribute per
 * '=' (its node and its value's text node), and the text itself copied. A 600 MB file of steps
 * takes some 10 GB as a tree. */
static uint64_t xml_tree_bytes(const char *text, size_t n) {
    uint64_t elems = 0, attrs = 0;
    for (size_t i = 0; i < n; i++) {
        elems += text[i] == '<';
        attrs += text[i] == '=';
    }
    return elems * 2 * (sizeof(xmlNode) + 16) + attrs * (sizeof(xmlAttr) + sizeof(xmlNode) + 48) +
           n;
}

/* What libxml2 is not asked to parse: an element with more attributes than MSCCL's parser keeps
 * (MAX_ATTR_COUNT 16; 100 000 on one element kept libxml2's duplicate check busy for minutes),
 * given room for ones MSCCL ignores; and more elements than its runtime loads (MSCCL_MAX_GPUS
 * GPUs of at most MAX_NODES 4096 elements each; 15 million unknown ones were a 2 GB tree). */
enum { MSCCL_MAX_ATTRIBUTES = 64 };
#define MSCCL_MAX_ELEMENTS ((uint64_t)MSCCL_MAX_GPUS * 4096u)

/* Counts the start tags of the text and the most attributes one has, before libxml2 sees it:
 * comments, processing instructions, CDATA and declarations are stepped over, quoted values
 * are not looked into. A linear scan: refusing here costs no tree. */
static void xml_prescan(const char *t, size_t n, uint64_t *elements, uint64_t *most_attrs,
                        uint64_t *at) {
    *elements = *most_attrs = *at = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] != '<') continue;
        const char *end = NULL;
        if (i + 3 < n && !strncmp(t + i, "<!--", 4)) end = "-->";
        else if (i + 8 < n && !strncmp(t + i, "<![CDATA[", 9)) end = "]]>";
        else if (i + 1 < n && t[i + 1] == '?') end = "?>";
        if (end) {
            const char *e = strstr(t + i, end); /* the text ends in a NUL */
            if (!e) return;
            i = (size_t)(e - t) + strlen(end) - 1;
            continue;
        }
        if (i + 1 < n && (t[i + 1] == '/' || t[i + 1] == '!')) continue;
        ++*elements;
        uint64_t attrs = 0;
        char quote = 0;
        size_t j = i + 1;
        for (; j < n && (quote || t[j] != '>'); j++) {
            if (quote) {
                if (t[j] == quote) quote = 0;
            } else if (t[j] == '"' || t[j] == '\'') {
                quote = t[j];
            } else if (t[j] == '=') {
                attrs++;
            }
        }
        if (attrs > *most_attrs) {
            *most_attrs = attrs;
            *at = i;
        }
        i = j;
    }
}

static int is_elem(xmlNodePtr n, const char *name) {
    return n->type == XML_ELEMENT_NODE && xmlStrcmp(n->name, BAD_CAST name) == 0;
}

static int nomem(char *why, size_t len) {
    return oc__fail(why, len, OC_ENOMEM, "out of memory");
}

/* ---- threadblock lookups: sorted indices, so 131071 threadblocks on one GPU are not a pairwise
 * comparison (13.6 s) but a sort ---- */

typedef struct tbkey {
    int64_t a, b;
    uint32_t i; /* index of the threadblock in file order */
} tbkey;

static int tbkey_cmp(const void *x, const void *y) {
    const tbkey *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* Refuses two threadblocks of GPU `gid` with one id, or one send (recv) peer on one channel,
 * naming the first threadblock in file order that repeats an earlier one, and ids that are not
 * 0..n-1 (msccl_parser.cc: "thread block %d is missing"); then fills the GPU's sorted indices. */
static int index_tbs(rgpu *g, long long gid, const char *path, char *why, size_t len) {
    static const char *const kind[] = {"id", "send peer", "recv peer"};
    tbkey *keys = oc__malloc_array(g->n ? g->n : 1, sizeof *keys);
    g->by_id = oc__malloc_array(g->n ? g->n : 1, sizeof *g->by_id);
    g->by_recv = oc__malloc_array(g->n ? g->n : 1, sizeof *g->by_recv);
    if (!keys || !g->by_id || !g->by_recv) {
        free(keys);
        return nomem(why, len);
    }
    uint32_t bad = UINT32_MAX;
    int bad_kind = 0;
    for (int k = 0; k < 3; k++) {
        size_t n = 0;
        for (uint32_t t = 0; t < g->n; t++) {
            const rtb *x = &g->tbs[t];
            if (k == 0)
                keys[n++] = (tbkey){x->id, 0, t};
            else if (k == 1 && x->send >= 0)
                keys[n++] = (tbkey){x->chan, x->send, t};
            else if (k == 2 && x->recv >= 0)
                keys[n++] = (tbkey){x->recv, x->chan, t};
        }
        qsort(keys, n, sizeof *keys, tbkey_cmp);
        for (size_t i = 1; i < n; i++)
            if (keys[i].a == keys[i - 1].a && keys[i].b == keys[i - 1].b && keys[i].i < bad) {
                bad = keys[i].i;
                bad_kind = k;
            }
        if (k == 0)
            for (size_t i = 0; i < n; i++)
                g->by_id[i] = keys[i].i;
        if (k == 2) {
            for (size_t i = 0; i < n; i++)
                g->by_recv[i] = keys[i].i;
            g->nrecv = n;
        }
    }
    free(keys);
    if (bad != UINT32_MAX)
        return oc__fail(
            why, len, OC_EVERIFY,
            "%s: line %ld: gpu %lld has two threadblocks with the same %s on channel %d", path,
            g->tbs[bad].line, gid, kind[bad_kind], g->tbs[bad].chan);
    for (uint32_t i = 0; i < g->n; i++)
        if (g->tbs[g->by_id[i]].id != (int32_t)i)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: gpu %lld: threadblock %u is missing (the runtime needs ids 0 to "
                            "%zu)",
                            path, gid, i, g->n - 1);
    return 0;
}

/* The threadblock of g that receives from `peer` on `chan`, or NULL. */
static rtb *find_recv_tb(rgpu *g, int32_t peer, int32_t chan) {
    size_t lo = 0, hi = g->nrecv;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const rtb *t = &g->tbs[g->by_recv[mid]];
        if (t->recv < peer || (t->recv == peer && t->chan < chan))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == g->nrecv) return NULL;
    rtb *t = &g->tbs[g->by_recv[lo]];
    return t->recv == peer && t->chan == chan ? t : NULL;
}

/* Reads one <step> into t (nops become waits of the step after them). *pending counts the
 * waits of the nops since the last step, *counter is the kernel's step counter. */
static int read_step(prog *p, xmlNodePtr sn, long long gid, rtb *t, uint32_t *pending,
                     uint32_t *counter, char *why, size_t len) {
    const char *path = p->path;
    long long s = 0, so = 0, dof = 0, cnt = 0, depid = -1, deps = -1, hasdep = 0;
    const long long C3 = (long long)p->C * (long long)p->N + 1; /* no buffer has more chunks */
    int rc;
    if ((rc = attr_int(sn, "s", 0, INT32_MAX, 1, 0, &s, path, why, len)) ||
        (rc = attr_int(sn, "srcoff", -1, INT32_MAX, 1, 0, &so, path, why, len)) ||
        (rc = attr_int(sn, "dstoff", -1, INT32_MAX, 1, 0, &dof, path, why, len)) ||
        (rc = attr_int(sn, "cnt", 0, C3, 1, 0, &cnt, path, why, len)) ||
        (rc = attr_int(sn, "depid", -1, INT32_MAX, 1, 0, &depid, path, why, len)) ||
        (rc = attr_int(sn, "deps", -1, INT32_MAX, 1, 0, &deps, path, why, len)) ||
        (rc = attr_int(sn, "hasdep", 0, 1, 0, 0, &hasdep, path, why, len)))
        return rc;
    const long line = xmlGetLineNo(sn);
    xmlChar *ty = xmlGetProp(sn, BAD_CAST "type");
    int kind = -1;
    for (int k = 0; ty && k < K_COUNT; k++)
        if (!xmlStrcmp(ty, BAD_CAST kind_name[k])) kind = k;
    if (kind < 0) {
        rc = oc__fail(why, len, OC_EPARSE,
                      "%s: line %ld: step type \"%s\" is not an MSCCL step type (s, r, rrc, rcs, "
                      "rrs, rrcs, cpy, re, nop)",
                      path, line, OC_Q((const char *)ty));
        xmlFree(ty);
        return rc;
    }
    xmlFree(ty);
    if (t->n && t->steps[t->n - 1].s >= s)
        return oc__fail(why, len, OC_EPARSE,
                        "%s: line %ld: threadblock %d of gpu %lld: step s=%lld does not follow "
                        "s=%d",
                        path, line, t->id, gid, s, t->steps[t->n - 1].s);
    if (depid >= 0 || deps >= 0) {
        if (depid < 0 || deps < 0)
            return oc__fail(why, len, OC_EPARSE,
                            "%s: line %ld: step %lld: depid=%lld with deps=%lld (both or neither)",
                            path, line, s, depid, deps);
        if (oc__grow((void **)&p->waits, &p->capwaits, p->nwaits + 1, sizeof *p->waits))
            return nomem(why, len);
        p->waits[p->nwaits++] = (rwaitf){(int32_t)depid, (int32_t)deps, NONE, NONE};
    }
    const uint8_t f = kind_flags[kind];
    if (kind == K_NOP) {
        *pending += depid >= 0;
        return 0;
    }
    uint8_t bufs[2] = {0, 0};
    static const char *const attr[2] = {"srcbuf", "dstbuf"};
    for (int k = 0; k < 2; k++) {
        const int used = k == 0 ? (f & F_RSRC) != 0 : (f & F_WDST) != 0;
        xmlChar *b = xmlGetProp(sn, BAD_CAST attr[k]);
        int which = !b                            ? -1
                    : !xmlStrcmp(b, BAD_CAST "i") ? B_I
                    : !xmlStrcmp(b, BAD_CAST "o") ? B_O
                    : !xmlStrcmp(b, BAD_CAST "s") ? B_S
                                                  : -1;
        if (which < 0) /* the parser reads every step's buffers (mscclGetBufferType) */
            rc = oc__fail(why, len, OC_EPARSE,
                          "%s: line %ld: step %lld: %s=\"%s\" is not an MSCCL buffer (i, o, s)",
                          path, line, s, attr[k], OC_Q((const char *)b));
        xmlFree(b);
        if (rc) return rc;
        bufs[k] = (uint8_t)which;
        const long long off = k == 0 ? so : dof;
        if (!used) continue;
        const uint32_t have = p->nbuf[which]; /* as the collective sizes it */
        if (cnt < 1 || off < 0 || off + cnt > (long long)have)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %lld step %lld (%s) %s chunks %lld..%lld of the "
                            "%s buffer, which has %u for %s on %u GPUs",
                            path, line, gid, s, kind_name[kind], k ? "writes" : "reads", off,
                            off + cnt - 1, buf_name[which], have, oc_collective_name(p->coll),
                            p->N);
    }
    if ((f & F_SEND) && t->send < 0)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %lld threadblock %d step %lld sends, but the "
                        "threadblock has no send peer",
                        path, line, gid, t->id, s);
    if ((f & F_RECV) && t->recv < 0)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %lld threadblock %d step %lld receives, but the "
                        "threadblock has no recv peer",
                        path, line, gid, t->id, s);
    if (*pending && depid < 0)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %lld threadblock %d step %lld follows nops that wait, "
                        "but waits for nothing itself (the runtime refuses such a chain)",
                        path, line, gid, t->id, s);
    if ((f & F_RED) && !p->reduces)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %lld step %lld (%s) reduces, but %s moves data "
                        "without reducing",
                        path, line, gid, s, kind_name[kind], oc_collective_name(p->coll));
    /* re fusion (msccl_parser.cc): it joins the previous re when nothing tells them apart */
    if (kind == K_RE && t->n && depid < 0) {
        size_t run = 0;
        while (run < t->n && t->steps[t->n - 1 - run].kind == K_RE &&
               t->steps[t->n - 1 - run].dbuf == bufs[1] &&
               t->steps[t->n - 1 - run].doff == (uint32_t)dof &&
               t->steps[t->n - 1 - run].sbuf == bufs[0] && !t->steps[t->n - 1 - run].hasdep)
            run++;
        /* the run is a fused group only if its first step starts one; a cap of 16 restarts */
        if (run % MAX_FUSION && t->steps[t->n - 1].cnt != (uint32_t)cnt)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %lld step %lld (re, cnt=%lld) is fused with the "
                            "re before it, and the runtime runs it with that step's cnt=%u",
                            path, line, gid, s, cnt, t->steps[t->n - 1].cnt);
    }
    if (oc__grow((void **)&t->steps, &t->cap, t->n + 1, sizeof(rstep))) return nomem(why, len);
    *counter += *pending; /* each nop's wait counts one step (numDependencies - 1) */
    const uint32_t nw = *pending + (depid >= 0);
    t->steps[t->n++] = (rstep){.kind = (uint8_t)kind,
                               .sbuf = bufs[0],
                               .dbuf = bufs[1],
                               .hasdep = (uint8_t)hasdep,
                               .s = (int32_t)s,
                               .ridx = (*counter)++,
                               .soff = so < 0 ? 0 : (uint32_t)so,
                               .doff = dof < 0 ? 0 : (uint32_t)dof,
                               .cnt = (uint32_t)cnt,
                               .w0 = (uint32_t)(p->nwaits - nw),
                               .nw = nw,
                               .rx = NONE,
                               .sx = NONE,
                               .lnode = NONE,
                               .part = 0,
                               .snap = NONE,
                               .takers = 0,
                               .line = line};
    *pending = 0;
    return 0;
}

/* The collective of <algo coll=...> as the runtimes name it, its sizes and buffers. */
static int read_algo(prog *p, xmlNodePtr root, char *why, size_t len) {
    const char *path = p->path;
    long long N = 0, C = 0, r = 0, ip = 0, oop = 0;
    int rc;
    if ((rc = attr_int(root, "ngpus", 1, MSCCL_MAX_GPUS, 1, 0, &N, path, why, len)) ||
        (rc = attr_int(root, "nchunksperloop", 1, INT32_MAX, 1, 0, &C, path, why, len)) ||
        (rc = attr_int(root, "inplace", 0, 1, 0, 0, &ip, path, why, len)) ||
        (rc = attr_int(root, "outofplace", 0, 1, 0, 0, &oop, path, why, len)) ||
        (rc = attr_int(root, "oc_root", 0, N - 1, 0, 0, &r, path, why, len)))
        return rc;
    p->N = (uint32_t)N;
    p->C = (uint32_t)C;
    p->root = (uint32_t)r;
    p->inplace = (int)ip;
    p->outofplace = (int)oop;
    xmlChar *cname = xmlGetProp(root, BAD_CAST "coll");
    /* the names msccl_parser.cc accepts that are ours; reduce, send, recv and alltoallv are
     * runtime collectives opticoll does not model */
    static const char *const names[] = {"allgather", "allreduce", "reducescatter", "alltoall",
                                        "broadcast", "gather",    "scatter"};
    int known = 0;
    for (size_t k = 0; cname && k < sizeof names / sizeof names[0]; k++)
        if (!xmlStrcmp(cname, BAD_CAST names[k]))
            known = oc_collective_from_name(names[k], &p->coll) == 0;
    if (!known) {
        rc = oc__fail(why, len, OC_EPARSE,
                      "%s: <algo coll=\"%s\"> is not a collective the MSCCL runtimes run that "
                      "opticoll checks (allgather, allreduce, reducescatter, alltoall, "
                      "broadcast, gather, scatter)",
                      path, OC_Q((const char *)cname));
        xmlFree(cname);
        return rc;
    }
    xmlFree(cname);
    p->reduces = oc_collective_reduces(p->coll);
    const uint32_t n = p->N, c = p->C;
    int per_rank = 0;        /* nchunksperloop holds N blocks */
    uint64_t ni = c, no = c; /* allreduce, broadcast, alltoall */
    switch (p->coll) {
    case OC_ALLGATHER:
        per_rank = 1;
        ni = c / n;
        break;
    case OC_REDUCESCATTER:
        per_rank = 1;
        no = c / n;
        break;
    case OC_ALLTOALL:
        per_rank = 1;
        break;
    case OC_GATHER:
        no = (uint64_t)c * n;
        break;
    case OC_SCATTER:
        ni = (uint64_t)c * n;
        break;
    default:
        break;
    }
    p->q = per_rank ? c / n : c;
    if (per_rank && (c % n || !p->q))
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: nchunksperloop=%u is not a whole number of chunks per rank for %s "
                        "on %u GPUs",
                        path, c, oc_collective_name(p->coll), n);
    const uint64_t pairs = (uint64_t)n * (ni + no);
    if (pairs > MAX_PAIRS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: ngpus=%u with nchunksperloop=%u is %llu (GPU, chunk) pairs of "
                        "buffers for %s, more than MSCCL files are read with (2^24)",
                        path, n, c, (unsigned long long)pairs, oc_collective_name(p->coll));
    p->nbuf[B_I] = (uint32_t)ni; /* within 2^24 now */
    p->nbuf[B_O] = (uint32_t)no;
    if (!p->inplace && !p->outofplace)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: <algo> says neither inplace=\"1\" nor outofplace=\"1\": the runtime "
                        "never selects it",
                        path);
    return 0;
}

/* Reads <gpu>, <tb> and <step> elements. */
static int read_gpus(prog *p, xmlNodePtr root, char *why, size_t len) {
    const char *path = p->path;
    int rc = 0;
    long long sch_max = 0;
    for (xmlNodePtr gn = root->children; gn; gn = gn->next) {
        if (!is_elem(gn, "gpu")) continue;
        long long id, sch;
        if ((rc = attr_int(gn, "id", 0, p->N - 1, 1, 0, &id, path, why, len)) ||
            (rc = attr_int(gn, "s_chunks", 0, INT32_MAX, 0, 0, &sch, path, why, len)))
            return rc;
        rgpu *g = &p->gpus[id];
        if (g->seen)
            return oc__fail(why, len, OC_EPARSE, "%s: line %ld: gpu %lld appears twice", path,
                            xmlGetLineNo(gn), id);
        g->seen = 1;
        if (sch > sch_max) sch_max = sch;
        p->nbuf[B_S] = (uint32_t)sch; /* this GPU's, while its steps are read */
        for (xmlNodePtr tn = gn->children; tn; tn = tn->next) {
            if (!is_elem(tn, "tb")) continue;
            long long tid, snd, rcv, chan;
            if ((rc = attr_int(tn, "id", 0, INT32_MAX, 1, 0, &tid, path, why, len)) ||
                (rc = attr_int(tn, "send", -1, p->N - 1, 1, 0, &snd, path, why, len)) ||
                (rc = attr_int(tn, "recv", -1, p->N - 1, 1, 0, &rcv, path, why, len)) ||
                (rc = attr_int(tn, "chan", 0, INT32_MAX, 1, 0, &chan, path, why, len)))
                return rc;
            if (snd == id || rcv == id)
                return oc__fail(why, len, OC_EVERIFY,
                                "%s: line %ld: gpu %lld threadblock %lld names itself as a peer",
                                path, xmlGetLineNo(tn), id, tid);
            if (g->n >= UINT32_MAX - 1 ||
                oc__grow((void **)&g->tbs, &g->cap, g->n + 1, sizeof(rtb)))
                return nomem(why, len);
            rtb *t = &g->tbs[g->n++];
            *t = (rtb){(int32_t)tid,    (int32_t)snd, (int32_t)rcv, (int32_t)chan, NULL, 0, 0,
                       xmlGetLineNo(tn)};
            uint32_t pending = 0, counter = 0;
            for (xmlNodePtr sn = tn->children; sn; sn = sn->next)
                if (is_elem(sn, "step") &&
                    (rc = read_step(p, sn, id, t, &pending, &counter, why, len)))
                    return rc;
            p->nwaits -= pending; /* the waits of trailing nops lead nowhere (the parser drops
                                     them with the nops) */
        }
        if ((rc = index_tbs(g, id, path, why, len))) return rc;
    }
    p->nbuf[B_S] = (uint32_t)sch_max;
    for (uint32_t g = 0; g < p->N; g++) /* GPUs the file does not list: no threadblocks */
        if (!p->gpus[g].seen && (rc = index_tbs(&p->gpus[g], g, path, why, len))) return rc;
    return 0;
}

/* Resolves every wait to the step that satisfies it: the first step of threadblock depid whose
 * step number is at least deps and that publishes it (hasdep). */
static int resolve_waits(prog *p, char *why, size_t len) {
    for (uint32_t g = 0; g < p->N; g++) {
        rgpu *gp = &p->gpus[g];
        for (uint32_t t = 0; t < gp->n; t++)
            for (uint32_t k = 0; k < gp->tbs[t].n; k++) {
                const rstep *x = &gp->tbs[t].steps[k];
                for (uint32_t w = x->w0; w < x->w0 + x->nw; w++) {
                    rwaitf *wf = &p->waits[w];
                    if (wf->depid >= (int32_t)gp->n)
                        return oc__fail(why, len, OC_EVERIFY,
                                        "%s: line %ld: gpu %u threadblock %d step %d waits for "
                                        "threadblock %d, which does not exist",
                                        p->path, x->line, g, gp->tbs[t].id, x->s, wf->depid);
                    const uint32_t dt = gp->by_id[wf->depid];
                    const rtb *d = &gp->tbs[dt];
                    uint32_t j = 0;
                    while (j < d->n &&
                           (d->steps[j].ridx < (uint32_t)wf->deps || !d->steps[j].hasdep))
                        j++;
                    if (dt == t && j >= k) {
                        char later[48] = "itself";
                        if (j > k && j < d->n)
                            snprintf(later, sizeof later, "its own later step %d", d->steps[j].s);
                        return oc__fail(why, len, OC_EVERIFY,
                                        "%s: line %ld: gpu %u threadblock %d step %d waits "
                                        "(depid/deps) for %s: it would never run",
                                        p->path, x->line, g, gp->tbs[t].id, x->s,
                                        j < d->n ? later : "a step that never comes");
                    }
                    if (j == d->n)
                        return oc__fail(why, len, OC_EVERIFY,
                                        "%s: line %ld: gpu %u threadblock %d step %d waits for "
                                        "step %d of threadblock %d, which no step from there on "
                                        "publishes (hasdep=\"1\"): it would wait forever",
                                        p->path, x->line, g, gp->tbs[t].id, x->s, wf->deps,
                                        wf->depid);
                    wf->tb = dt;
                    wf->k = j;
                }
            }
    }
    return 0;
}

/* Matches the k-th send from a to b on a channel with the k-th receive of b from a there. */
static int match_messages(prog *p, char *why, size_t len) {
    for (uint32_t a = 0; a < p->N; a++)
        for (uint32_t ti = 0; ti < p->gpus[a].n; ti++) {
            rtb *st = &p->gpus[a].tbs[ti];
            if (st->send < 0) continue;
            rgpu *gb = &p->gpus[st->send];
            rtb *rt = find_recv_tb(gb, (int32_t)a, st->chan);
            size_t sends = 0, recvs = 0;
            for (size_t k = 0; k < st->n; k++)
                sends += (kind_flags[st->steps[k].kind] & F_SEND) != 0;
            for (size_t k = 0; rt && k < rt->n; k++)
                recvs += (kind_flags[rt->steps[k].kind] & F_RECV) != 0;
            if (sends != recvs)
                return oc__fail(why, len, OC_EVERIFY,
                                "%s: gpu %u sends %zu message%s to gpu %d on channel %d, which "
                                "receives %zu from it",
                                p->path, a, sends, sends == 1 ? "" : "s", st->send, st->chan,
                                recvs);
            size_t ri = 0;
            for (uint32_t k = 0; k < st->n; k++) {
                rstep *x = &st->steps[k];
                if (!(kind_flags[x->kind] & F_SEND)) continue;
                while (!(kind_flags[rt->steps[ri].kind] & F_RECV))
                    ri++;
                rstep *y = &rt->steps[ri];
                if (x->cnt != y->cnt)
                    return oc__fail(why, len, OC_EVERIFY,
                                    "%s: line %ld: gpu %u step %d sends %u chunk%s to gpu %d, "
                                    "whose step %d receives %u",
                                    p->path, x->line, a, x->s, x->cnt, x->cnt == 1 ? "" : "s",
                                    st->send, y->s, y->cnt);
                if (oc__grow((void **)&p->msgs, &p->capmsgs, p->nmsgs + 1, sizeof *p->msgs))
                    return nomem(why, len);
                x->sx = y->rx = (uint32_t)p->nmsgs;
                p->msgs[p->nmsgs++] = (rmsg){a,
                                             (uint32_t)st->send,
                                             ti,
                                             k,
                                             (uint32_t)(rt - gb->tbs),
                                             (uint32_t)ri,
                                             x->cnt,
                                             (kind_flags[y->kind] & F_RED) != 0,
                                             NULL,
                                             NULL};
                ri++;
            }
        }
    for (uint32_t b = 0; b < p->N; b++) /* receives no send tb matched */
        for (size_t ti = 0; ti < p->gpus[b].n; ti++) {
            const rtb *t = &p->gpus[b].tbs[ti];
            for (size_t k = 0; k < t->n; k++)
                if ((kind_flags[t->steps[k].kind] & F_RECV) && t->steps[k].rx == NONE)
                    return oc__fail(why, len, OC_EVERIFY,
                                    "%s: line %ld: gpu %u threadblock %d step %d receives from "
                                    "gpu %d, which sends nothing to it on channel %d",
                                    p->path, t->steps[k].line, b, t->id, t->steps[k].s, t->recv,
                                    t->chan);
        }
    /* local steps are nodes of the graph of rounds after the messages */
    for (uint32_t g = 0; g < p->N; g++)
        for (size_t ti = 0; ti < p->gpus[g].n; ti++)
            for (size_t k = 0; k < p->gpus[g].tbs[ti].n; k++) {
                rstep *x = &p->gpus[g].tbs[ti].steps[k];
                if (kind_flags[x->kind] & F_LOCAL) x->lnode = (uint32_t)p->nmsgs + p->nlocal++;
            }
    return 0;
}

/* ---- one mode (in place or out of place): slots, execution, races, rounds ---- */

/* A GPU's chunks in one mode, as slots: the buffers laid out one after the other, except that
 * in place the input and output alias as the runtime's callers lay them out. */
typedef struct layout {
    int inplace;
    uint32_t M;          /* slots per GPU */
    uint32_t base[3];    /* slot of chunk 0 of i, o, s (rank 0; see slot()) */
    int alias;           /* in place: -1 none, B_I: i sits in o at rank*q, B_O: o sits in i */
    uint32_t alias_step; /* q (allgather, reducescatter) or C (gather, scatter); 0: same base */
} layout;

static void make_layout(const prog *p, int inplace, layout *L) {
    const uint32_t ni = p->nbuf[B_I], no = p->nbuf[B_O], ns = p->nbuf[B_S];
    memset(L, 0, sizeof *L);
    L->inplace = inplace;
    L->alias = -1;
    if (!inplace) {
        L->base[B_I] = 0;
        L->base[B_O] = ni;
        L->base[B_S] = ni + no;
        L->M = ni + no + ns;
        return;
    }
    if (ni <= no) { /* i lives inside o */
        L->base[B_O] = 0;
        L->base[B_I] = 0;
        L->alias = B_I;
        L->alias_step = ni == no ? 0 : ni;
        L->base[B_S] = no;
        L->M = no + ns;
    } else { /* o lives inside i */
        L->base[B_I] = 0;
        L->base[B_O] = 0;
        L->alias = B_O;
        L->alias_step = no;
        L->base[B_S] = ni;
        L->M = ni + ns;
    }
}

static uint32_t slot(const layout *L, uint32_t g, int b, uint32_t off) {
    uint32_t s = L->base[b] + off;
    if (L->alias == b) s += g * L->alias_step;
    return s;
}

/* Which buffer and chunk slot s of GPU g is, for messages ("output chunk 5"); in place, the
 * chunk is named in the larger of the two aliased buffers. */
static void describe_slot(const prog *p, const layout *L, uint32_t s, char *buf, size_t n) {
    int b;
    if (s >= L->base[B_S])
        b = B_S;
    else if (L->inplace)
        b = p->nbuf[B_I] > p->nbuf[B_O] ? B_I : B_O;
    else
        b = s >= L->base[B_O] ? B_O : B_I;
    snprintf(buf, n, "%s chunk %u", buf_name[b], s - L->base[b]);
}

/* The label input chunk j of GPU g starts with (NONE: nothing). */
static uint32_t initial_label(const prog *p, uint32_t g, uint32_t j) {
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_GATHER:
        return g * q + j;
    case OC_ALLTOALL: /* block d of rank g's input goes to rank d: label (d*N + g)*q + p */
        return ((j / q) * N + g) * q + j % q;
    case OC_BROADCAST:
    case OC_SCATTER:
        return g == p->root ? j : NONE;
    default: /* allreduce, reducescatter: every rank contributes to every chunk */
        return j;
    }
}

/* The label output chunk j of GPU g must end with (NONE: no requirement). */
static uint32_t final_label(const prog *p, uint32_t g, uint32_t j) {
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        return j;
    case OC_GATHER:
        return g == p->root ? j : NONE;
    case OC_REDUCESCATTER:
    case OC_SCATTER:
        return g * q + j;
    case OC_ALLTOALL: /* block s of rank g's output came from rank s: label (g*N + s)*q + p */
        return (g * N + j / q) * q + j % q;
    default:
        return NONE;
    }
}

static void label_text(const prog *p, uint32_t label, char *buf, size_t n) {
    if (label == NONE) {
        snprintf(buf, n, "nothing");
        return;
    }
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_GATHER:
    case OC_REDUCESCATTER:
    case OC_SCATTER:
        snprintf(buf, n, "chunk %u of rank %u's block", label % q, label / q);
        break;
    case OC_ALLTOALL:
        snprintf(buf, n, "chunk %u from rank %u to rank %u", label % q, (label / q) % N,
                 label / q / N);
        break;
    default:
        snprintf(buf, n, "chunk %u", label);
    }
}

/* A cross-threadblock wait on GPU g: step k of threadblock a waits for step j of b. */
typedef struct rwait {
    uint32_t g, a, b, k, j;
} rwait;

static int rwait_cmp(const void *x, const void *y) {
    const rwait *p = x, *q = y;
    if (p->g != q->g) return p->g < q->g ? -1 : 1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

/* 1 if step k of threadblock a on GPU g waits for step j of threadblock b: through its own
 * waits or an earlier step's of its threadblock, on step j or a later one of b (b runs in
 * order). waits[] is sorted by (g, a, b, k) with j the running maximum within each (g, a, b). */
static int waits_for(const rwait *waits, size_t nw, uint32_t g, uint32_t a, uint32_t k, uint32_t b,
                     uint32_t j) {
    const rwait key = {g, a, b, k, 0};
    size_t lo = 0, hi = nw; /* the first entry after (g, a, b, k) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (rwait_cmp(&waits[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo) return 0;
    const rwait *w = &waits[lo - 1];
    return w->g == g && w->a == a && w->b == b && w->j >= j;
}

/* The execution's state of one mode. */
typedef struct exec {
    const prog *p;
    const layout *L;
    uint32_t words;  /* 64-bit words of a contribution set */
    uint32_t *label; /* N x M */
    uint64_t *bits;  /* N x M x words (reductions) */
    uint32_t *fresh; /* N x M: the message whose copy the slot holds unchanged (reductions) */
    uint64_t *lastw; /* N x M: (tb + 1) << 32 | step of the last write, 0: none */
    uint32_t *rhead; /* N x M: readers since the last write (list in rpool), NONE: none */
    struct rreader {
        uint32_t tb, k, next;
    } * rpool;
    size_t nr, capr;
    const rwait *waits; /* the direct waits (waits_for) */
    size_t nw;
    int full;       /* 1: the race check asks the clocks (hb_*), 0: the direct waits only */
    uint64_t *tmpb; /* one step's scratch of cnt sets */
    uint32_t *tmpl;
    /* happens-before (hb_*): vector clocks, one row per threadblock of the program, one column
     * per threadblock that some race check can ask about */
    uint32_t T, D;   /* rows, columns */
    uint32_t *base;  /* N + 1: GPU g's threadblocks are rows base[g] .. base[g + 1] - 1 */
    uint32_t *col;   /* T: a row's column, NONE: never asked about */
    uint32_t *now;   /* T x D: how many steps of each column's threadblock happened before */
    uint32_t *snaps; /* clocks kept for later, D each: a message's at its send, a waited step's */
    uint32_t *freed; /* snapshots free for reuse */
    size_t nsnaps, capsnaps, nfreed, capfreed;
    uint32_t *msnap; /* per message: its sender's snapshot, NONE: none (yet) */
} exec;

/* ---- happens-before: which steps of a GPU are ordered ----
 *
 * Step u happens before step v when a path of the graph of execution leads from u to v:
 * threadblock order, waits (a waited step has published its counter) and messages (a receive
 * completes after its send, per connection in order; buffers are unbounded, so a send learns
 * nothing of its receive). Order is transitive and may leave the GPU: tb C waits for tb B, which
 * waited for tb A; or tb X sends to another GPU, which forwards it back to tb Y. msccl-tools does
 * not write the waits that order implies (msccl/language/ir.py drops a threadblock's own waits and
 * those an earlier step of it made; the InstructionDAG of rank_dag.py makes a write depend on the
 * reads since the last write, not on that write; infer_dependencies keeps one per threadblock, the
 * latest), so a direct wait is not the test.
 *
 * Vector clocks give it exactly: now[t][c] is how many steps of column c's threadblock happened
 * before the point threadblock t has reached. A step takes the maximum with the clocks of what it
 * waits for and of the message it receives; at its end it counts itself, and its clock is kept
 * (a snapshot) for its message and for each step that waits for it, until they take it. The
 * execution runs in an order of the graph, so every snapshot exists when it is taken. Columns are
 * only the threadblocks that touch a chunk another threadblock of their GPU touches, one of the
 * two writing (all-to-all out of place: none), but the rows are every threadblock's, as order
 * crosses the other GPUs. Cost: (rows + snapshots alive) x columns x 4 bytes, counted against the
 * memory budget (one line past it), and a step's merges are columns each: with T threadblocks,
 * O(steps x T) at worst. So the clocks are built only when needed: the execution first asks the
 * direct waits (waits_for: the later step, or an earlier step of its threadblock, waits for the
 * other's step or a later one), which order every pair in most files (opticoll's exports, the
 * reference files), and starts again with the clocks at the first pair they do not order. */

/* The slot ranges step x of GPU g touches, as run_part does (an re's dst is read and written): n
 * of them, at[] their first slots, wr[] whether written. */
static int step_ranges(const layout *L, uint32_t g, const rstep *x, uint32_t at[2], int wr[2]) {
    const uint8_t f = kind_flags[x->kind];
    int n = 0;
    if (f & F_RSRC) at[n] = slot(L, g, x->sbuf, x->soff), wr[n++] = 0;
    if (f & F_WDST) at[n] = slot(L, g, x->dbuf, x->doff), wr[n++] = 1;
    return n;
}

/* Picks the columns: the rows whose threadblock shares a chunk with another of its GPU, one of
 * them writing. lastw[] (zero, and zeroed again) notes per slot the first threadblock + 1, bit
 * 32 a second one, bit 33 a write. */
static void hb_columns(exec *e) {
    const prog *p = e->p;
    const uint64_t M = e->L->M, SHARED = UINT64_C(1) << 32, WRITTEN = UINT64_C(1) << 33;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t t = 0; t < p->gpus[g].n; t++) {
                const rtb *tb = &p->gpus[g].tbs[t];
                for (uint32_t k = 0; k < tb->n && e->col[e->base[g] + t] == NONE; k++) {
                    uint32_t at[2];
                    int wr[2];
                    const int n = step_ranges(e->L, g, &tb->steps[k], at, wr);
                    for (int r = 0; r < n; r++)
                        for (uint64_t c = g * M + at[r]; c < g * M + at[r] + tb->steps[k].cnt;
                             c++) {
                            uint64_t *w = &e->lastw[c];
                            if (pass == 1) {
                                if ((*w & SHARED) && (*w & WRITTEN)) e->col[e->base[g] + t] = 0;
                                continue;
                            }
                            if (!(uint32_t)*w)
                                *w |= t + 1;
                            else if ((uint32_t)*w != t + 1)
                                *w |= SHARED;
                            if (wr[r]) *w |= WRITTEN;
                        }
                }
            }
    memset(e->lastw, 0, (size_t)p->N * M * sizeof *e->lastw);
    for (uint32_t r = 0; r < e->T; r++)
        if (e->col[r] != NONE) e->col[r] = e->D++;
}

static int hb_init(exec *e, char *why, size_t len) {
    const prog *p = e->p;
    e->base = oc__calloc((size_t)p->N + 1, sizeof *e->base);
    if (!e->base) return nomem(why, len);
    for (uint32_t g = 0; g < p->N; g++)
        e->base[g + 1] = e->base[g] + (uint32_t)p->gpus[g].n;
    e->T = e->base[p->N];
    e->col = oc__malloc_array((size_t)e->T + 1, sizeof *e->col);
    e->msnap = oc__malloc_array(p->nmsgs + 1, sizeof *e->msnap);
    if (!e->col || !e->msnap) return nomem(why, len);
    for (uint32_t r = 0; r < e->T; r++)
        e->col[r] = NONE;
    for (size_t m = 0; m < p->nmsgs; m++)
        e->msnap[m] = NONE;
    for (uint32_t g = 0; g < p->N; g++) /* a waited step's snapshot is taken by its waiters */
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                rstep *x = &p->gpus[g].tbs[t].steps[k];
                x->snap = NONE;
                x->takers = 0;
            }
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                const rstep *x = &p->gpus[g].tbs[t].steps[k];
                for (uint32_t w = x->w0; w < x->w0 + x->nw; w++)
                    if (p->waits[w].tb != t)
                        p->gpus[g].tbs[p->waits[w].tb].steps[p->waits[w].k].takers++;
            }
    hb_columns(e);
    if (!e->D) return 0; /* no chunk is shared: nothing to order */
    char what[300];
    snprintf(what, sizeof what, "ordering the steps of %.200s (%u threadblocks x %u)", p->path,
             e->T, e->D);
    int rc = oc__budget_check((uint64_t)e->T * e->D * sizeof *e->now, what, why, len);
    if (rc) return rc;
    e->now = oc__calloc((size_t)e->T * e->D, sizeof *e->now);
    return e->now ? 0 : nomem(why, len);
}

/* Keeps threadblock row's clock as a snapshot: *out its index. */
static int hb_keep(exec *e, uint32_t row, uint32_t *out, char *why, size_t len) {
    const size_t D = e->D;
    if (!e->nfreed) {
        if (e->nsnaps == e->capsnaps) {
            const size_t next = e->capsnaps ? 2 * e->capsnaps : 16; /* as oc__grow grows */
            char what[300];
            snprintf(what, sizeof what,
                     "ordering the steps of %.200s (%u threadblocks x %u, %zu clocks kept)",
                     e->p->path, e->T, e->D, next);
            int rc = oc__budget_check(((uint64_t)e->T + next) * D * sizeof *e->now, what, why, len);
            if (rc) return rc;
        }
        if (oc__grow((void **)&e->snaps, &e->capsnaps, e->nsnaps + 1, D * sizeof *e->snaps) ||
            oc__grow((void **)&e->freed, &e->capfreed, e->nsnaps + 1, sizeof *e->freed))
            return nomem(why, len);
        e->freed[e->nfreed++] = (uint32_t)e->nsnaps++;
    }
    *out = e->freed[--e->nfreed];
    memcpy(&e->snaps[*out * D], &e->now[row * D], D * sizeof *e->now);
    return 0;
}

/* Threadblock row takes snapshot *s into its clock; the snapshot is freed when `last`. */
static void hb_take(exec *e, uint32_t row, uint32_t *s, int last) {
    uint32_t *c = &e->now[(size_t)row * e->D];
    const uint32_t *x = &e->snaps[(size_t)*s * e->D];
    for (uint32_t i = 0; i < e->D; i++)
        if (x[i] > c[i]) c[i] = x[i];
    if (last) {
        e->freed[e->nfreed++] = *s;
        *s = NONE;
    }
}

/* Step k of threadblock t on GPU g starts: what it waits for and what it receives happened
 * before it. */
static void hb_enter(exec *e, uint32_t g, uint32_t t, uint32_t k) {
    const prog *p = e->p;
    if (!e->D) return; /* no clocks (yet) */
    const rstep *x = &p->gpus[g].tbs[t].steps[k];
    const uint32_t row = e->base[g] + t;
    for (uint32_t w = x->w0; w < x->w0 + x->nw; w++) {
        const rwaitf *wf = &p->waits[w];
        if (wf->tb == t) continue; /* its own earlier step: threadblock order */
        rstep *d = &p->gpus[g].tbs[wf->tb].steps[wf->k];
        hb_take(e, row, &d->snap, --d->takers == 0);
    }
    if (x->rx != NONE) hb_take(e, row, &e->msnap[x->rx], 1);
}

/* Step k of threadblock t on GPU g has ended: it counts itself, and its clock is kept for its
 * message and for the steps that wait for it. */
static int hb_leave(exec *e, uint32_t g, uint32_t t, uint32_t k, char *why, size_t len) {
    if (!e->D) return 0;
    rstep *x = &e->p->gpus[g].tbs[t].steps[k];
    const uint32_t row = e->base[g] + t;
    int rc = 0;
    if (e->col[row] != NONE) e->now[(size_t)row * e->D + e->col[row]] = k + 1;
    if (x->sx != NONE) rc = hb_keep(e, row, &e->msnap[x->sx], why, len);
    if (!rc && x->takers) rc = hb_keep(e, row, &x->snap, why, len);
    return rc;
}

/* 1 if step j of threadblock a on GPU g happened before step k of threadblock t, which runs
 * now; 0 if not; NEED_ORDER when no direct wait orders them and the clocks are not kept (yet). */
static int hb_before(const exec *e, uint32_t g, uint32_t a, uint32_t j, uint32_t t, uint32_t k) {
    if (waits_for(e->waits, e->nw, g, t, k, a, j)) return 1;
    if (!e->full) return NEED_ORDER;
    const uint32_t c = e->col[e->base[g] + a];
    assert(c != NONE); /* a shares the chunk asked about with t: a column */
    return e->now[(size_t)(e->base[g] + t) * e->D + c] > j;
}

static int race(const exec *e, uint32_t g, uint32_t tb1, uint32_t k1, uint32_t tb2, uint32_t k2,
                uint32_t s, int both_write, char *why, size_t len) {
    const rgpu *gp = &e->p->gpus[g];
    const rstep *x = &gp->tbs[tb1].steps[k1], *y = &gp->tbs[tb2].steps[k2];
    char d[64];
    describe_slot(e->p, e->L, s, d, sizeof d);
    return oc__fail(why, len, OC_EVERIFY,
                    "%s%s: gpu %u: step %d (%s) of threadblock %d and step %d (%s) of threadblock "
                    "%d %s %s with no wait (depid/deps) between them (a race)",
                    e->p->path, e->L->inplace ? " (in place)" : "", g, x->s, kind_name[x->kind],
                    gp->tbs[tb1].id, y->s, kind_name[y->kind], gp->tbs[tb2].id,
                    both_write ? "both write" : "read and write", d);
}

/* Step k of threadblock t on GPU g reads (write = 0) or writes slots [s0, s0 + n): refuses an
 * access of another threadblock to them that did not happen before this one (hb_before). */
static int access_slots(exec *e, uint32_t g, uint32_t t, uint32_t k, uint32_t s0, uint32_t n,
                        int write, char *why, size_t len) {
    const uint64_t M = e->L->M;
    int ok;
    for (uint32_t s = s0; s < s0 + n; s++) {
        const uint64_t at = g * M + s;
        const uint64_t w = e->lastw[at];
        if (w && (uint32_t)(w >> 32) - 1 != t &&
            (ok = hb_before(e, g, (uint32_t)(w >> 32) - 1, (uint32_t)w, t, k)) != 1)
            return ok ? ok
                      : race(e, g, t, k, (uint32_t)(w >> 32) - 1, (uint32_t)w, s, write, why, len);
        if (!write) {
            if (oc__grow((void **)&e->rpool, &e->capr, e->nr + 1, sizeof *e->rpool))
                return nomem(why, len);
            e->rpool[e->nr] = (struct rreader){t, k, e->rhead[at]};
            e->rhead[at] = (uint32_t)e->nr++;
            continue;
        }
        for (uint32_t r = e->rhead[at]; r != NONE; r = e->rpool[r].next)
            if (e->rpool[r].tb != t &&
                (ok = hb_before(e, g, e->rpool[r].tb, e->rpool[r].k, t, k)) != 1)
                return ok ? ok : race(e, g, t, k, e->rpool[r].tb, e->rpool[r].k, s, 0, why, len);
        e->rhead[at] = NONE;
        e->lastw[at] = (uint64_t)(t + 1) << 32 | k;
    }
    return 0;
}

/* x := x + y for one chunk: same label, disjoint contributions. */
static int add_into(exec *e, uint32_t g, const rstep *st, uint32_t *xl, uint64_t *xb, uint32_t yl,
                    const uint64_t *yb, const char *what, char *why, size_t len) {
    const prog *p = e->p;
    if (*xl != yl) {
        char a[80], b[80];
        label_text(p, yl, a, sizeof a);
        label_text(p, *xl, b, sizeof b);
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %u step %d (%s) adds %s to %s (%s)", p->path, st->line,
                        g, st->s, kind_name[st->kind], a, b, what);
    }
    for (uint32_t w = 0; w < e->words; w++)
        if (xb[w] & yb[w]) {
            char a[80];
            label_text(p, yl, a, sizeof a);
            uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(xb[w] & yb[w]);
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %u step %d (%s) counts the contribution of rank %u "
                            "twice in %s",
                            p->path, st->line, g, st->s, kind_name[st->kind], r, a);
        }
    for (uint32_t w = 0; w < e->words; w++)
        xb[w] |= yb[w];
    return 0;
}

static int unwritten(const exec *e, uint32_t g, const rstep *st, uint32_t s, char *why,
                     size_t len) {
    char d[64];
    describe_slot(e->p, e->L, s, d, sizeof d);
    return oc__fail(why, len, OC_EVERIFY,
                    "%s%s: line %ld: gpu %u step %d (%s) reads %s before anything was written "
                    "there",
                    e->p->path, e->L->inplace ? " (in place)" : "", st->line, g, st->s,
                    kind_name[st->kind], d);
}

/* Runs one part of step k of threadblock t on GPU g: its receive (part 0 of a receiving step),
 * its send, or the local step. */
static int run_part(exec *e, uint32_t g, uint32_t t, uint32_t k, int is_send, char *why,
                    size_t len) {
    const prog *p = e->p;
    rgpu *gp = &p->gpus[g];
    rstep *st = &gp->tbs[t].steps[k];
    const uint8_t f = kind_flags[st->kind];
    const uint32_t W = e->words, M = e->L->M;
    const uint32_t ss = slot(e->L, g, st->sbuf, st->soff), ds = slot(e->L, g, st->dbuf, st->doff);
    int rc;
    if (is_send) {
        rmsg *m = &p->msgs[st->sx];
        if (f & F_RECV) return 0; /* forwarded at the receive, below */
        if ((rc = access_slots(e, g, t, k, ss, st->cnt, 0, why, len))) return rc;
        free(m->label); /* an earlier mode's, or an execution started again */
        free(m->bits);
        m->label = oc__calloc(st->cnt, sizeof *m->label);
        m->bits = oc__calloc((size_t)st->cnt * W + 1, sizeof *m->bits);
        if (!m->label || !m->bits) return nomem(why, len);
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ss + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ss + c, why, len);
            m->label[c] = e->label[at];
            if (W) memcpy(&m->bits[(size_t)c * W], &e->bits[at * W], W * sizeof(uint64_t));
        }
        return 0;
    }
    /* the incoming payload, or for a local step the source chunks */
    uint32_t *inl = e->tmpl;
    uint64_t *inb = e->tmpb;
    rmsg *in = (f & F_RECV) ? &p->msgs[st->rx] : NULL;
    if (in) {
        memcpy(inl, in->label, st->cnt * sizeof *inl);
        if (W) memcpy(inb, in->bits, (size_t)st->cnt * W * sizeof *inb);
        free(in->bits); /* the labels stay: they name the message in the IR */
        in->bits = NULL;
    }
    if (f & F_RSRC) {
        if ((rc = access_slots(e, g, t, k, ss, st->cnt, 0, why, len))) return rc;
        if (st->kind == K_RE && (rc = access_slots(e, g, t, k, ds, st->cnt, 0, why, len)))
            return rc;
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ss + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ss + c, why, len);
            /* a message copied into a chunk that is now an operand of a reduce is reduced */
            if (e->fresh && (f & F_RED) && e->fresh[at] != NONE) p->msgs[e->fresh[at]].reduce = 1;
            if (!in) {
                inl[c] = e->label[at];
                if (W) memcpy(&inb[(size_t)c * W], &e->bits[at * W], W * sizeof(uint64_t));
                continue;
            }
            /* rrc, rrs, rrcs: received + src */
            if ((rc = add_into(e, g, st, &inl[c], &inb[(size_t)c * W], e->label[at],
                               &e->bits[at * W], "received + source", why, len)))
                return rc;
        }
    }
    if (st->kind == K_RE)
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ds + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ds + c, why, len);
            if (e->fresh && e->fresh[at] != NONE) p->msgs[e->fresh[at]].reduce = 1;
            if ((rc = add_into(e, g, st, &inl[c], &inb[(size_t)c * W], e->label[at],
                               &e->bits[at * W], "source into destination", why, len)))
                return rc;
        }
    if (f & F_WDST) {
        if (!e->L->inplace && st->dbuf == B_I)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %u step %d (%s) writes into the input buffer, "
                            "which out of place is the caller's send buffer",
                            p->path, st->line, g, st->s, kind_name[st->kind]);
        if ((rc = access_slots(e, g, t, k, ds, st->cnt, 1, why, len))) return rc;
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ds + c;
            e->label[at] = inl[c];
            if (W) memcpy(&e->bits[at * W], &inb[(size_t)c * W], W * sizeof(uint64_t));
            if (e->fresh) e->fresh[at] = in && !(f & F_RED) ? st->rx : NONE;
        }
    }
    if (f & F_SEND) { /* rcs, rrs, rrcs forward what they received (and added) */
        rmsg *m = &p->msgs[st->sx];
        free(m->label); /* an earlier mode's, or an execution started again */
        free(m->bits);
        m->label = oc__calloc(st->cnt, sizeof *m->label);
        m->bits = oc__calloc((size_t)st->cnt * W + 1, sizeof *m->bits);
        if (!m->label || !m->bits) return nomem(why, len);
        memcpy(m->label, inl, st->cnt * sizeof *inl);
        if (W) memcpy(m->bits, inb, (size_t)st->cnt * W * sizeof *inb);
    }
    return 0;
}

/* The end state against the collective's. */
static int check_final(const exec *e, char *why, size_t len) {
    const prog *p = e->p;
    const uint32_t M = e->L->M, W = e->words;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t j = 0; j < p->nbuf[B_O]; j++) {
            const uint32_t want = final_label(p, g, j);
            if (want == NONE) continue;
            const uint32_t s = slot(e->L, g, B_O, j);
            const uint64_t at = (uint64_t)g * M + s;
            char d[64], a[80], b[80];
            snprintf(d, sizeof d, "output chunk %u", j);
            if (e->label[at] != want) {
                label_text(p, e->label[at], a, sizeof a);
                label_text(p, want, b, sizeof b);
                return oc__fail(why, len, OC_EVERIFY,
                                "%s%s: at the end gpu %u's %s holds %s, not %s", p->path,
                                e->L->inplace ? " (in place)" : "", g, d, a, b);
            }
            for (uint32_t r = 0; r < p->N; r++)
                if (W && !(e->bits[at * W + r / 64] >> (r % 64) & 1)) {
                    label_text(p, want, b, sizeof b);
                    return oc__fail(why, len, OC_EVERIFY,
                                    "%s%s: at the end gpu %u's %s (%s) lacks the contribution "
                                    "of rank %u",
                                    p->path, e->L->inplace ? " (in place)" : "", g, d, b, r);
                }
        }
    return 0;
}

/* The graph of execution: parts (a step's receive, its send, or the local step) in an order
 * that respects threadblock order, messages and waits (Kahn); the parts are run as they come
 * off the queue. A part left over is a deadlock. */
static int execute(exec *e, char *why, size_t len) {
    const prog *p = e->p;
    size_t P = 0;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                rstep *x = &p->gpus[g].tbs[t].steps[k];
                const uint8_t f = kind_flags[x->kind];
                x->part = (uint32_t)P;
                P += (f & F_RECV && f & F_SEND) ? 2 : 1;
            }
    /* edges: at most one in-step, one threadblock, one message and the waits per part */
    uint32_t *indeg = oc__calloc(P + 1, sizeof *indeg), *first = oc__calloc(P + 2, sizeof *first);
    uint32_t *who = oc__calloc(3 * P + 3, sizeof *who); /* part -> (g, t, k) */
    uint32_t *queue = oc__calloc(P + 1, sizeof *queue);
    uint32_t *to = NULL;
    size_t ne = 0;
    int rc = 0;
    if (!indeg || !first || !who || !queue) {
        rc = nomem(why, len);
        goto out;
    }
    for (int pass = 0; pass < 2 && !rc; pass++) {
        /* pass 0 counts each part's out-edges into first[], pass 1 fills to[] */
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t t = 0; t < p->gpus[g].n; t++) {
                const rtb *tb = &p->gpus[g].tbs[t];
                for (uint32_t k = 0; k < tb->n; k++) {
                    const rstep *x = &tb->steps[k];
                    const uint8_t f = kind_flags[x->kind];
                    const uint32_t a = x->part, last = (f & F_RECV && f & F_SEND) ? a + 1 : a;
                    uint32_t n = 0;
                    if (pass == 0) {
                        who[3 * a] = g, who[3 * a + 1] = t, who[3 * a + 2] = k;
                        if (last != a)
                            who[3 * last] = g, who[3 * last + 1] = t, who[3 * last + 2] = k;
                    }
                    /* out-edges of this step's parts */
                    uint32_t src[3], dst[3];
                    n = 0;
                    if (last != a) src[n] = a, dst[n++] = last;
                    if (k + 1 < tb->n) src[n] = last, dst[n++] = tb->steps[k + 1].part;
                    if (x->sx != NONE) {
                        const rmsg *m = &p->msgs[x->sx];
                        src[n] = last, dst[n++] = p->gpus[m->dst].tbs[m->rtb].steps[m->rk].part;
                    }
                    for (uint32_t i = 0; i < n; i++) {
                        if (pass == 0) {
                            first[src[i] + 1]++;
                        } else {
                            to[first[src[i]] + indeg[src[i]]++] = dst[i];
                        }
                    }
                    /* waits: from the waited step's last part */
                    for (uint32_t w = x->w0; w < x->w0 + x->nw; w++) {
                        const rstep *d = &p->gpus[g].tbs[p->waits[w].tb].steps[p->waits[w].k];
                        const uint8_t df = kind_flags[d->kind];
                        const uint32_t dl = (df & F_RECV && df & F_SEND) ? d->part + 1 : d->part;
                        if (pass == 0)
                            first[dl + 1]++;
                        else
                            to[first[dl] + indeg[dl]++] = a;
                    }
                }
            }
        if (pass == 0) {
            for (size_t v = 0; v < P; v++)
                first[v + 1] += first[v];
            ne = first[P];
            to = oc__calloc(ne + 1, sizeof *to);
            if (!to) rc = nomem(why, len);
        }
    }
    if (rc) goto out;
    memset(indeg, 0, (P + 1) * sizeof *indeg);
    for (size_t i = 0; i < ne; i++)
        indeg[to[i]]++;
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < P; v++)
        if (!indeg[v]) queue[tail++] = v;
    while (head < tail && !rc) {
        const uint32_t v = queue[head++];
        const uint32_t g = who[3 * v], t = who[3 * v + 1], k = who[3 * v + 2];
        const rstep *x = &p->gpus[g].tbs[t].steps[k];
        const uint8_t f = kind_flags[x->kind];
        const int is_send = (f & F_SEND) && (!(f & F_RECV) || v == x->part + 1);
        if (v == x->part) hb_enter(e, g, t, k);
        rc = run_part(e, g, t, k, is_send, why, len);
        if (!rc && v == ((f & F_RECV && f & F_SEND) ? x->part + 1 : x->part))
            rc = hb_leave(e, g, t, k, why, len);
        for (uint32_t i = first[v]; i < first[v + 1] && !rc; i++)
            if (--indeg[to[i]] == 0) queue[tail++] = to[i];
    }
    if (!rc && tail < P) {
        /* name the first stuck step in file order */
        uint32_t v = 0;
        while (v < P && !indeg[v])
            v++;
        const uint32_t g = who[3 * v], t = who[3 * v + 1], k = who[3 * v + 2];
        const rstep *x = &p->gpus[g].tbs[t].steps[k];
        rc = oc__fail(why, len, OC_EVERIFY,
                      "%s: line %ld: gpu %u threadblock %d step %d (%s) never runs: the steps' "
                      "order, messages and waits form a cycle (the MSCCL program would "
                      "deadlock)",
                      p->path, x->line, g, p->gpus[g].tbs[t].id, x->s, kind_name[x->kind]);
    }
    if (!rc) rc = check_final(e, why, len);
out:
    free(indeg);
    free(first);
    free(who);
    free(queue);
    free(to);
    return rc;
}

/* ---- rounds: the depth of each message in the graph of waits ---- */

typedef struct redge {
    uint32_t from, to;
    uint8_t w;
} redge;

enum { R_RECV, R_SEND, R_LOCAL };

static uint32_t start_node(const rstep *x) {
    const uint8_t f = kind_flags[x->kind];
    return f & F_RECV ? x->rx : f & F_SEND ? x->sx : x->lnode;
}
static uint32_t end_node(const rstep *x, int *role) {
    const uint8_t f = kind_flags[x->kind];
    *role = f & F_SEND ? R_SEND : f & F_RECV ? R_RECV : R_LOCAL;
    return f & F_SEND ? x->sx : f & F_RECV ? x->rx : x->lnode;
}
/* Data a receive writes is read a round later; a local step runs between rounds, so one that
 * follows a send in its round waits a round (it could overwrite what the send reads). */
static uint8_t edge_weight(int role, const rstep *to) {
    return role == R_RECV || (role == R_SEND && (kind_flags[to->kind] & F_LOCAL));
}

static int push_edge(redge **edges, size_t *ne, size_t *cap, uint32_t from, uint32_t to, uint8_t w,
                     char *why, size_t len) {
    if (from == NONE || to == NONE || from == to) return 0;
    if (oc__grow((void **)edges, cap, *ne + 1, sizeof **edges)) return nomem(why, len);
    (*edges)[(*ne)++] = (redge){from, to, w};
    return 0;
}

/* The edges of the graph of rounds for one mode: threadblock order, a receive before what the
 * same step sends on, waits, and the data a threadblock's earlier steps wrote or read. */
static int round_edges(const prog *p, const layout *L, redge **edges, size_t *ne, size_t *cap,
                       char *why, size_t len) {
    uint64_t *lastw = oc__calloc((size_t)L->M + 1, sizeof *lastw);
    uint64_t *lastr = oc__calloc((size_t)L->M + 1, sizeof *lastr);
    int rc = 0;
    if (!lastw || !lastr) rc = nomem(why, len);
    uint32_t tag = 0; /* entries are tagged by threadblock, so the arrays are never cleared */
    for (uint32_t g = 0; g < p->N && !rc; g++)
        for (uint32_t t = 0; t < p->gpus[g].n && !rc; t++) {
            const rtb *tb = &p->gpus[g].tbs[t];
            tag++;
            for (uint32_t k = 0; k < tb->n && !rc; k++) {
                const rstep *x = &tb->steps[k];
                const uint8_t f = kind_flags[x->kind];
                const uint32_t start = start_node(x);
                int role;
                if (k) {
                    uint32_t pe = end_node(&tb->steps[k - 1], &role);
                    rc = push_edge(edges, ne, cap, pe, start, 0, why, len);
                }
                if (!rc && (f & F_RECV) && (f & F_SEND))
                    rc = push_edge(edges, ne, cap, x->rx, x->sx, 1, why, len);
                for (uint32_t w = x->w0; w < x->w0 + x->nw && !rc; w++) {
                    const rstep *d = &p->gpus[g].tbs[p->waits[w].tb].steps[p->waits[w].k];
                    uint32_t de = end_node(d, &role);
                    /* two reduces into one chunk commute: the later only follows the earlier
                     * and both may land in one round */
                    const uint8_t w1 =
                        d->kind == K_RRC && x->kind == K_RRC ? 0 : edge_weight(role, x);
                    rc = push_edge(edges, ne, cap, de, start, w1, why, len);
                }
                /* data of this threadblock's earlier steps */
                uint32_t ranges[2][2] = {{NONE, 0}, {NONE, 0}}; /* read, written */
                if (f & F_RSRC) ranges[0][0] = slot(L, g, x->sbuf, x->soff), ranges[0][1] = x->cnt;
                if (f & F_WDST) ranges[1][0] = slot(L, g, x->dbuf, x->doff), ranges[1][1] = x->cnt;
                for (int io = 0; io < 2 && !rc; io++)
                    for (uint32_t s = ranges[io][0];
                         ranges[io][0] != NONE && s < ranges[io][0] + ranges[io][1] && !rc; s++) {
                        if (lastw[s] >> 32 == tag) {
                            const rstep *d = &tb->steps[(uint32_t)lastw[s]];
                            const int r = (kind_flags[d->kind] & F_LOCAL) ? R_LOCAL : R_RECV;
                            rc = push_edge(edges, ne, cap, r == R_LOCAL ? d->lnode : d->rx, start,
                                           edge_weight(r, x), why, len);
                        }
                        if (!rc && io == 1 && lastr[s] >> 32 == tag && (f & F_LOCAL)) {
                            const rstep *d = &tb->steps[(uint32_t)lastr[s]];
                            if (kind_flags[d->kind] & F_SEND && !(kind_flags[d->kind] & F_RECV))
                                rc = push_edge(edges, ne, cap, d->sx, start, 1, why, len);
                        }
                    }
                for (uint32_t s = ranges[0][0];
                     ranges[0][0] != NONE && s < ranges[0][0] + ranges[0][1]; s++)
                    lastr[s] = (uint64_t)tag << 32 | k;
                for (uint32_t s = ranges[1][0];
                     ranges[1][0] != NONE && s < ranges[1][0] + ranges[1][1]; s++)
                    lastw[s] = (uint64_t)tag << 32 | k;
            }
        }
    free(lastw);
    free(lastr);
    return rc;
}

/* Longest paths over the edges (weights 0 and 1). A message is one node for its send and its
 * receive, so waits of weight 0 can form cycles (the ring: every GPU sends, then receives what
 * its neighbour sent): those nodes share a round. The strongly connected components (Tarjan,
 * iterative) are condensed and relaxed in topological order; a component with a wait of weight
 * 1 inside cannot be laid out in rounds. level[] gets each node's round. */
static int levels(const prog *p, const redge *edges, size_t ne, size_t G, uint32_t *level,
                  char *why, size_t len) {
    uint32_t *index = oc__calloc(G + 1, sizeof *index), *first = oc__calloc(G + 2, sizeof *first);
    uint32_t *adj = oc__calloc(ne + 1, sizeof *adj), *stack = oc__calloc(G + 1, sizeof *stack);
    uint8_t *adjw = oc__calloc(ne + 1, 1), *onst = oc__calloc(G + 1, 1);
    uint32_t *low = oc__calloc(G + 1, sizeof *low), *comp = oc__calloc(G + 1, sizeof *comp);
    uint32_t *callv = oc__calloc(G + 1, sizeof *callv), *calle = oc__calloc(G + 1, sizeof *calle);
    uint32_t *emitted = oc__calloc(G + 1, sizeof *emitted);
    uint32_t *clevel = oc__calloc(G + 1, sizeof *clevel);
    int rc = 0;
    if (!index || !first || !adj || !stack || !adjw || !onst || !low || !comp || !callv || !calle ||
        !emitted || !clevel) {
        rc = nomem(why, len);
        goto out;
    }
    for (size_t e = 0; e < ne; e++)
        first[edges[e].from + 1]++;
    for (size_t v = 0; v < G; v++)
        first[v + 1] += first[v];
    for (size_t e = 0; e < ne; e++) { /* low[] is the fill count for now */
        uint32_t u = edges[e].from;
        adj[first[u] + low[u]] = edges[e].to;
        adjw[first[u] + low[u]++] = edges[e].w;
    }
    memset(low, 0, (G + 1) * sizeof *low);
    uint32_t next_index = 0, ncomp = 0, sp = 0, nemit = 0;
    for (uint32_t r0 = 0; r0 < G; r0++) {
        if (index[r0]) continue;
        uint32_t depth = 0;
        callv[0] = r0;
        calle[0] = first[r0];
        index[r0] = low[r0] = ++next_index;
        stack[sp++] = r0;
        onst[r0] = 1;
        while (1) {
            uint32_t u = callv[depth];
            if (calle[depth] < first[u + 1]) {
                uint32_t v = adj[calle[depth]++];
                if (!index[v]) {
                    index[v] = low[v] = ++next_index;
                    stack[sp++] = v;
                    onst[v] = 1;
                    callv[++depth] = v;
                    calle[depth] = first[v];
                } else if (onst[v] && index[v] < low[u]) {
                    low[u] = index[v];
                }
                continue;
            }
            if (low[u] == index[u]) { /* u roots a component */
                uint32_t w;
                do {
                    w = stack[--sp];
                    onst[w] = 0;
                    comp[w] = ncomp;
                    emitted[nemit++] = w;
                } while (w != u);
                ncomp++;
            }
            if (depth == 0) break;
            depth--;
            if (low[u] < low[callv[depth]]) low[callv[depth]] = low[u];
        }
    }
    /* components in topological order: the last emitted first */
    for (uint32_t k = nemit; k-- > 0 && !rc;) {
        uint32_t u = emitted[k], cu = comp[u];
        for (uint32_t e = first[u]; e < first[u + 1]; e++) {
            uint32_t cv = comp[adj[e]];
            if (cv == cu) {
                if (adjw[e]) {
                    rc = oc__fail(why, len, OC_EVERIFY,
                                  "%s: the steps' waits form a cycle through a receive (the "
                                  "MSCCL program would deadlock)",
                                  p->path);
                    break;
                }
            } else if (clevel[cu] + adjw[e] > clevel[cv]) {
                clevel[cv] = clevel[cu] + adjw[e];
            }
        }
    }
    for (uint32_t v = 0; v < G; v++)
        level[v] = clevel[comp[v]];
out:
    free(index);
    free(first);
    free(adj);
    free(stack);
    free(adjw);
    free(onst);
    free(low);
    free(comp);
    free(callv);
    free(calle);
    free(emitted);
    free(clevel);
    return rc;
}

/* The cross-threadblock waits of every GPU, sorted, with j the running maximum (waits_for). */
static int collect_waits(const prog *p, rwait **out, size_t *nout, char *why, size_t len) {
    rwait *w = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                const rstep *x = &p->gpus[g].tbs[t].steps[k];
                for (uint32_t i = x->w0; i < x->w0 + x->nw; i++) {
                    if (p->waits[i].tb == t) continue;
                    if (oc__grow((void **)&w, &cap, n + 1, sizeof *w)) {
                        free(w);
                        return nomem(why, len);
                    }
                    w[n++] = (rwait){g, t, p->waits[i].tb, k, p->waits[i].k};
                }
            }
    if (n) qsort(w, n, sizeof *w, rwait_cmp);
    for (size_t i = 1; i < n; i++)
        if (w[i].g == w[i - 1].g && w[i].a == w[i - 1].a && w[i].b == w[i - 1].b &&
            w[i - 1].j > w[i].j)
            w[i].j = w[i - 1].j;
    *out = w;
    *nout = n;
    return 0;
}

/* Checks the program in one mode; on success, when `store` is given, the messages as rounds. */
static int check_mode(prog *p, int inplace, const rwait *waits, size_t nw, oc__store *store,
                      char *why, size_t len) {
    layout L;
    make_layout(p, inplace, &L);
    exec e = {.p = p, .L = &L, .waits = waits, .nw = nw};
    e.words = p->reduces ? (p->N + 63) / 64 : 0;
    const uint64_t cells = (uint64_t)p->N * L.M;
    redge *edges = NULL;
    size_t ne = 0, cape = 0;
    uint32_t *level = NULL;
    int rc = 0;
    if (cells > MAX_PAIRS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: %u GPUs x %u chunks of buffers is %llu (GPU, chunk) pairs, more than "
                        "MSCCL files are read with (2^24)",
                        p->path, p->N, L.M, (unsigned long long)cells);
    char what[300];
    snprintf(what, sizeof what, "executing %.256s", p->path);
    uint32_t maxcnt = 1;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++)
                if (p->gpus[g].tbs[t].steps[k].cnt > maxcnt)
                    maxcnt = p->gpus[g].tbs[t].steps[k].cnt;
    if ((rc = oc__budget_check(cells * (4 + 8 + 4 + 4 + (p->reduces ? 4 : 0) + 8 * e.words), what,
                               why, len)))
        return rc;
    e.label = oc__malloc_array(cells, sizeof *e.label);
    e.bits = oc__calloc(cells * e.words + 1, sizeof *e.bits);
    e.lastw = oc__calloc(cells, sizeof *e.lastw);
    e.rhead = oc__malloc_array(cells, sizeof *e.rhead);
    e.fresh = p->reduces ? oc__malloc_array(cells, sizeof *e.fresh) : NULL;
    e.tmpl = oc__calloc(maxcnt, sizeof *e.tmpl);
    e.tmpb = oc__calloc((size_t)maxcnt * e.words + 1, sizeof *e.tmpb);
    if (!e.label || !e.bits || !e.lastw || !e.rhead || (p->reduces && !e.fresh) || !e.tmpl ||
        !e.tmpb) {
        rc = nomem(why, len);
        goto out;
    }
    /* Races: a direct wait orders most pairs (waits_for, cheap); at the first pair it does not,
     * the execution starts again with the clocks of happens-before (hb_init), in the same order,
     * so that a file every pair of which a direct wait orders costs no clocks. */
    for (e.full = 0; e.full < 2; e.full++) {
        for (uint64_t at = 0; at < cells; at++) {
            e.label[at] = NONE;
            e.rhead[at] = NONE;
            e.lastw[at] = 0;
            if (e.fresh) e.fresh[at] = NONE;
        }
        memset(e.bits, 0, cells * e.words * sizeof *e.bits);
        e.nr = 0;
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t j = 0; j < p->nbuf[B_I]; j++) {
                const uint64_t at = (uint64_t)g * L.M + slot(&L, g, B_I, j);
                e.label[at] = initial_label(p, g, j);
                if (e.words && e.label[at] != NONE)
                    e.bits[at * e.words + g / 64] |= UINT64_C(1) << (g % 64);
            }
        for (size_t m = 0; m < p->nmsgs; m++) { /* as the receiving step says, until a reduce
                                                   uses it */
            const rmsg *x = &p->msgs[m];
            p->msgs[m].reduce =
                (kind_flags[p->gpus[x->dst].tbs[x->rtb].steps[x->rk].kind] & F_RED) != 0;
        }
        if (e.full && (rc = hb_init(&e, why, len))) goto out;
        if ((rc = execute(&e, why, len)) != NEED_ORDER) break;
    }
    if (rc) goto out;
    if (!store) goto out;
    /* rounds */
    const size_t G = p->nmsgs + p->nlocal;
    if ((rc = round_edges(p, &L, &edges, &ne, &cape, why, len))) goto out;
    level = oc__calloc(G + 1, sizeof *level);
    if (!level) {
        rc = nomem(why, len);
        goto out;
    }
    if ((rc = levels(p, edges, ne, G, level, why, len))) goto out;
    uint32_t rounds = 0;
    for (size_t i = 0; i < p->nmsgs; i++)
        if (level[i] + 1 > rounds) rounds = level[i] + 1;
    /* a counting sort of the messages by round; empty rounds dropped */
    uint32_t *at = oc__calloc((size_t)rounds + 2, sizeof *at);
    uint32_t *order = oc__calloc(p->nmsgs + 1, sizeof *order);
    if (!at || !order) {
        free(at);
        free(order);
        rc = nomem(why, len);
        goto out;
    }
    for (size_t i = 0; i < p->nmsgs; i++)
        at[level[i] + 1]++;
    for (uint32_t l = 0; l < rounds; l++)
        at[l + 1] += at[l];
    for (size_t i = 0; i < p->nmsgs; i++)
        order[at[level[i]]++] = (uint32_t)i;
    uint32_t from = 0, out_round = 0;
    for (uint32_t l = 0; l < rounds && !rc; l++) {
        if (at[l] == from) continue;
        oc__round r = {0};
        for (uint32_t k = from; k < at[l] && !rc; k++) {
            const rmsg *m = &p->msgs[order[k]];
            /* the labels the message carried: runs of consecutive labels */
            const uint32_t *lab = m->label;
            for (uint32_t c = 0; c < m->cnt && !rc;) {
                uint32_t c2 = c + 1;
                while (c2 < m->cnt && lab[c2] == lab[c2 - 1] + 1)
                    c2++;
                if (oc__round_push(&r, m->src, m->dst, m->reduce ? OC_OP_REDUCE : OC_OP_COPY,
                                   lab[c], c2 - c))
                    rc = nomem(why, len);
                c = c2;
            }
        }
        if (!rc) rc = store->sink.round(&store->sink, out_round++, &r, why, len);
        oc__round_free(&r);
        from = at[l];
    }
    free(at);
    free(order);
out:
    free(e.label);
    free(e.bits);
    free(e.lastw);
    free(e.rhead);
    free(e.fresh);
    free(e.rpool);
    free(e.tmpl);
    free(e.tmpb);
    free(e.base);
    free(e.col);
    free(e.now);
    free(e.snaps);
    free(e.freed);
    free(e.msnap);
    free(edges);
    free(level);
    return rc;
}

int oc__verify_msccl(const char *path, const char *text, const char *network,
                     const oc_kv *net_params, oc_report **out, char *why, size_t len) {
    *out = NULL;
    xmlDocPtr doc = NULL;
    prog p;
    memset(&p, 0, sizeof p);
    p.path = path;
    oc__spec spec;
    memset(&spec, 0, sizeof spec);
    oc__store store;
    oc__store_init(&store);
    oc_report *rep = NULL;
    rwait *waits = NULL;
    size_t nw = 0;
    int rc = 0;
    size_t tlen = strlen(text);
    if (tlen > INT32_MAX) return oc__fail(why, len, OC_ETOOBIG, "%s is too large", path);
    char what[300];
    snprintf(what, sizeof what, "reading %.256s", path);
    uint64_t elements, most_attrs, at;
    xml_prescan(text, tlen, &elements, &most_attrs, &at);
    if (most_attrs > MSCCL_MAX_ATTRIBUTES) {
        uint64_t line = 1;
        for (uint64_t i = 0; i < at; i++)
            line += text[i] == '\n';
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s:%llu: an element with %llu attributes, more than the %d this reader "
                        "takes (MSCCL keeps 16)",
                        path, (unsigned long long)line, (unsigned long long)most_attrs,
                        MSCCL_MAX_ATTRIBUTES);
    }
    if (elements > MSCCL_MAX_ELEMENTS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: %llu elements, more than the %llu this reader takes (MSCCL loads at "
                        "most %u GPUs of 4096 elements)",
                        path, (unsigned long long)elements, (unsigned long long)MSCCL_MAX_ELEMENTS,
                        MSCCL_MAX_GPUS);
    if ((rc = oc__budget_check(xml_tree_bytes(text, tlen), what, why, len))) return rc;
    doc = xmlReadMemory(text, (int)tlen, path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        rc = oc__fail(why, len, OC_EPARSE, "%s: malformed XML%s%s", path,
                      e && e->message ? ": " : "", e && e->message ? e->message : "");
        /* libxml2's messages end with a newline: one line only */
        for (char *c = why; c && *c; c++)
            if (*c == '\n') *c = 0;
        goto out;
    }
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "algo")) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: the top element must be <algo> (MSCCL XML)", path);
        goto out;
    }
    if ((rc = read_algo(&p, root, why, len))) goto out;
    if (!(p.gpus = oc__calloc(p.N, sizeof(rgpu)))) {
        rc = nomem(why, len);
        goto out;
    }
    if ((rc = read_gpus(&p, root, why, len)) || (rc = resolve_waits(&p, why, len)) ||
        (rc = match_messages(&p, why, len)) || (rc = collect_waits(&p, &waits, &nw, why, len)))
        goto out;
    /* Each mode the file declares; the last one checked gives the rounds. */
    if (p.outofplace && (rc = check_mode(&p, 0, waits, nw, p.inplace ? NULL : &store, why, len)))
        goto out;
    if (p.inplace && (rc = check_mode(&p, 1, waits, nw, &store, why, len))) goto out;
    long long bytes;
    if ((rc = attr_int(root, "oc_bytes", 0, (long long)OC_MAX_BYTES, 0, 0, &bytes, path, why, len)))
        goto out;
    if ((rc = oc__spec_init(&spec, p.coll, p.N, p.root, (uint64_t)bytes, p.q, why, len))) goto out;
    const oc__model *model = NULL;
    if (network && !(model = oc__model_find(network))) {
        rc = oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(network));
        goto out;
    }
    if (!(rep = oc__report_new())) {
        rc = nomem(why, len);
        goto out;
    }
    /* too few transfers, or too many node-chunk states, before the verifier makes its state */
    if ((rc = oc__verify_file_counts(&spec, &store, path, why, len))) goto out;
    oc__store_source src = {&store};
    rc = oc__run_schedule(&spec, oc__source_store, &src, model, net_params, 1, NULL, rep, why, len);
    if (rc) goto out;
    xmlChar *name = xmlGetProp(root, BAD_CAST "oc_algorithm");
    if (!name) name = xmlGetProp(root, BAD_CAST "name");
    snprintf(rep->algorithm, sizeof rep->algorithm, "%s",
             name ? (const char *)name : "(msccl file)");
    xmlFree(name);
    *out = rep;
    rep = NULL;
out:
    oc_report_free(rep);
    for (uint32_t g = 0; p.gpus && g < p.N; g++) {
        for (size_t t = 0; t < p.gpus[g].n; t++)
            free(p.gpus[g].tbs[t].steps);
        free(p.gpus[g].tbs);
        free(p.gpus[g].by_id);
        free(p.gpus[g].by_recv);
    }
    free(p.gpus);
    for (size_t m = 0; m < p.nmsgs; m++) {
        free(p.msgs[m].label);
        free(p.msgs[m].bits);
    }
    free(p.msgs);
    free(p.waits);
    free(waits);
    oc__store_free(&store);
    oc__spec_free(&spec);
    xmlFreeDoc(doc);
    return rc;
}
