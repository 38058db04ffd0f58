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
 * The reader is three files (msccl_import.h): this one reads the file into a program and is the
 * entry; msccl_exec.c executes one mode (the checks above, happens-before's clocks) and makes
 * the rounds of the IR; msccl_rounds.c finds each message's round.
 *
 * A malformed file (not XML, a missing or non-numeric attribute) is a parse error (exit 2); a
 * file whose steps do not match up or whose result is wrong is a verification error (exit 1).
 * Size: at most 2048 GPUs and 2^24 (GPU, chunk) pairs over the three buffers, and libxml2's
 * tree and the execution's state are counted against the memory budget before they are built
 * (the clocks of the order: threadblocks x the threadblocks that share chunks x 4 bytes, and
 * those kept for messages in flight and waited steps, refused in one line past the budget);
 * threadblocks are found through sorted indices, so reading is O(n log n) in the file. Before
 * libxml2 sees the text, one linear scan caps an element at 64 attributes (libxml2's duplicate
 * check is quadratic in them) and the file at 2048 x 4096 elements (what MSCCL's runtime loads;
 * a comment or a processing instruction counts as one, being a node of the tree as well).
 */
#include "formats/msccl_import.h"
#include "core/progress.h"
#include "core/quote.h"
#include "verify/verify.h"
#include <assert.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * comments, processing instructions, CDATA and declarations are stepped over, each counted as
 * an element (each is a node of the tree: 9 million empty comments in 63 MB were a 1.5 GB
 * tree), and quoted values are not looked into. A linear scan: refusing here costs no tree. */
static void xml_prescan(const char *t, size_t n, uint64_t *elements, uint64_t *most_attrs,
                        uint64_t *at) {
    *elements = *most_attrs = *at = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] != '<') continue;
        const char *end = NULL;
        if (i + 3 < n && !strncmp(t + i, "<!--", 4))
            end = "-->";
        else if (i + 8 < n && !strncmp(t + i, "<![CDATA[", 9))
            end = "]]>";
        else if (i + 1 < n && t[i + 1] == '?')
            end = "?>";
        if (i + 1 < n && t[i + 1] == '/') continue;
        ++*elements; /* a comment, a processing instruction or a declaration is a node too */
        if (end) {
            /* by hand, not strstr: a sanitizer's strstr reads the whole rest of the text on
             * every call, which made 9 million comments quadratic */
            const size_t m = strlen(end);
            size_t e = i + 1;
            while (e + m <= n && memcmp(t + e, end, m) != 0)
                e++;
            if (e + m > n) return;
            i = e + m - 1;
            continue;
        }
        if (i + 1 < n && t[i + 1] == '!') continue;
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
        return oc__msccl_nomem(why, len);
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
        if (!xmlStrcmp(ty, BAD_CAST oc__msccl_kind_name(k))) kind = k;
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
            return oc__msccl_nomem(why, len);
        p->waits[p->nwaits++] = (rwaitf){(int32_t)depid, (int32_t)deps, NONE, NONE};
    }
    const uint8_t f = oc__msccl_kind_flags(kind);
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
                            path, line, gid, s, oc__msccl_kind_name(kind), k ? "writes" : "reads",
                            off, off + cnt - 1, oc__msccl_buf_name(which), have,
                            oc_collective_name(p->coll), p->N);
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
                        path, line, gid, s, oc__msccl_kind_name(kind), oc_collective_name(p->coll));
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
    if (oc__grow((void **)&t->steps, &t->cap, t->n + 1, sizeof(rstep)))
        return oc__msccl_nomem(why, len);
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
                return oc__msccl_nomem(why, len);
            rtb *t = &g->tbs[g->n++];
            *t = (rtb){(int32_t)tid,    (int32_t)snd, (int32_t)rcv, (int32_t)chan, NULL, 0, 0,
                       xmlGetLineNo(tn)};
            uint32_t pending = 0, counter = 0;
            for (xmlNodePtr sn = tn->children; sn; sn = sn->next) {
                if (oc__stop_tick()) return oc__msccl_cancelled(p, why, len);
                if (is_elem(sn, "step") &&
                    (rc = read_step(p, sn, id, t, &pending, &counter, why, len)))
                    return rc;
            }
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
                sends += (oc__msccl_kind_flags(st->steps[k].kind) & F_SEND) != 0;
            for (size_t k = 0; rt && k < rt->n; k++)
                recvs += (oc__msccl_kind_flags(rt->steps[k].kind) & F_RECV) != 0;
            if (sends != recvs)
                return oc__fail(why, len, OC_EVERIFY,
                                "%s: gpu %u sends %zu message%s to gpu %d on channel %d, which "
                                "receives %zu from it",
                                p->path, a, sends, sends == 1 ? "" : "s", st->send, st->chan,
                                recvs);
            size_t ri = 0;
            for (uint32_t k = 0; k < st->n; k++) {
                rstep *x = &st->steps[k];
                if (!(oc__msccl_kind_flags(x->kind) & F_SEND)) continue;
                while (!(oc__msccl_kind_flags(rt->steps[ri].kind) & F_RECV))
                    ri++;
                rstep *y = &rt->steps[ri];
                if (x->cnt != y->cnt)
                    return oc__fail(why, len, OC_EVERIFY,
                                    "%s: line %ld: gpu %u step %d sends %u chunk%s to gpu %d, "
                                    "whose step %d receives %u",
                                    p->path, x->line, a, x->s, x->cnt, x->cnt == 1 ? "" : "s",
                                    st->send, y->s, y->cnt);
                if (oc__grow((void **)&p->msgs, &p->capmsgs, p->nmsgs + 1, sizeof *p->msgs))
                    return oc__msccl_nomem(why, len);
                x->sx = y->rx = (uint32_t)p->nmsgs;
                p->msgs[p->nmsgs++] = (rmsg){a,
                                             (uint32_t)st->send,
                                             ti,
                                             k,
                                             (uint32_t)(rt - gb->tbs),
                                             (uint32_t)ri,
                                             x->cnt,
                                             (oc__msccl_kind_flags(y->kind) & F_RED) != 0,
                                             NULL,
                                             NULL};
                ri++;
            }
        }
    for (uint32_t b = 0; b < p->N; b++) /* receives no send tb matched */
        for (size_t ti = 0; ti < p->gpus[b].n; ti++) {
            const rtb *t = &p->gpus[b].tbs[ti];
            for (size_t k = 0; k < t->n; k++)
                if ((oc__msccl_kind_flags(t->steps[k].kind) & F_RECV) && t->steps[k].rx == NONE)
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
                if (oc__msccl_kind_flags(x->kind) & F_LOCAL)
                    x->lnode = (uint32_t)p->nmsgs + p->nlocal++;
            }
    return 0;
}

/* libxml2's tree of the text, parsed a piece at a time (its push parser) so that a stop is heard
 * between two pieces: xmlReadMemory parses 64 MiB in one call of seconds. NULL when the text is
 * not well-formed XML (libxml2's last error says why) or when a stop was asked (*stopped). */
enum { XML_PIECE = 1 << 20 };
static xmlDocPtr parse_pieces(const char *text, size_t n, const char *path, oc__progress *reading,
                              int *stopped) {
    *stopped = 0;
    const int head = n < 4 ? (int)n : 4; /* the encoding is read from the first bytes */
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(NULL, NULL, text, head, path);
    if (!ctxt) return NULL;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    size_t at = (size_t)head;
    int err = 0;
    while (!err && at < n) {
        const size_t piece = n - at < XML_PIECE ? n - at : XML_PIECE;
        err = xmlParseChunk(ctxt, text + at, (int)piece, 0);
        at += piece;
        if (oc__progress_at(reading, at, n)) {
            *stopped = 1;
            break;
        }
    }
    if (!err && !*stopped) err = xmlParseChunk(ctxt, NULL, 0, 1);
    xmlDocPtr doc = ctxt->myDoc;
    if (err || *stopped || !ctxt->wellFormed) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    return doc;
}

int oc__verify_msccl(const char *path, const char *text, const char *network,
                     const oc_kv *net_params, oc_progress_fn progress, void *progress_ctx,
                     oc_report **out, char *why, size_t len) {
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
    /* the reading's progress: the bytes parsed; the program's loops poll it for a stop */
    oc__progress reading;
    oc__progress_begin(&reading, progress, progress_ctx, "bytes read", tlen);
    oc__progress *const watched = oc__stop_watch(&reading);
    int is_reading = 1, stopped = 0;
    char what[300];
    snprintf(what, sizeof what, "reading %.256s", path);
    uint64_t elements, most_attrs, at;
    xml_prescan(text, tlen, &elements, &most_attrs, &at);
    if (most_attrs > MSCCL_MAX_ATTRIBUTES) {
        uint64_t line = 1;
        for (uint64_t i = 0; i < at; i++)
            line += text[i] == '\n';
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "%s:%llu: an element with %llu attributes, more than the %d this reader "
                      "takes (MSCCL keeps 16)",
                      path, (unsigned long long)line, (unsigned long long)most_attrs,
                      MSCCL_MAX_ATTRIBUTES);
        goto out;
    }
    if (elements > MSCCL_MAX_ELEMENTS) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "%s: %llu elements, more than the %llu this reader takes (MSCCL loads at "
                      "most %u GPUs of 4096 elements; comments and processing instructions "
                      "count as elements)",
                      path, (unsigned long long)elements, (unsigned long long)MSCCL_MAX_ELEMENTS,
                      MSCCL_MAX_GPUS);
        goto out;
    }
    if ((rc = oc__budget_check(xml_tree_bytes(text, tlen), what, why, len))) goto out;
    doc = parse_pieces(text, tlen, path, &reading, &stopped);
    if (stopped) {
        rc = oc__msccl_cancelled(&p, why, len);
        goto out;
    }
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
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    if ((rc = read_gpus(&p, root, why, len)) || (rc = resolve_waits(&p, why, len)) ||
        (rc = match_messages(&p, why, len)) ||
        (rc = oc__msccl_collect_waits(&p, &waits, &nw, why, len)))
        goto out;
    /* Each mode the file declares; the last one checked gives the rounds. */
    if (p.outofplace &&
        (rc = oc__msccl_check_mode(&p, 0, waits, nw, p.inplace ? NULL : &store, why, len)))
        goto out;
    if (p.inplace && (rc = oc__msccl_check_mode(&p, 1, waits, nw, &store, why, len))) goto out;
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
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    oc__stop_watch(watched); /* the reading is over: the checked run reports its rounds */
    oc__progress_end(&reading);
    is_reading = 0;
    /* too few transfers, or too many node-chunk states, before the verifier makes its state */
    if ((rc = oc__verify_file_counts(&spec, &store, path, why, len))) goto out;
    oc__store_source src = {&store};
    rc = oc__run_schedule_reported(&spec, oc__source_store, &src, store.count, model, net_params,
                                   1, NULL, NULL, progress, progress_ctx, rep, why, len);
    if (rc) goto out;
    xmlChar *name = xmlGetProp(root, BAD_CAST "oc_algorithm");
    if (!name) name = xmlGetProp(root, BAD_CAST "name");
    snprintf(rep->algorithm, sizeof rep->algorithm, "%s",
             name ? (const char *)name : "(msccl file)");
    xmlFree(name);
    *out = rep;
    rep = NULL;
out:
    if (is_reading) {
        oc__stop_watch(watched);
        oc__progress_end(&reading);
    }
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
