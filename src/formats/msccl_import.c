/*
 * msccl_import.c — `opticoll verify FILE.xml`: an MSCCL XML program (the format described in
 * msccl_export.c) read back into our schedule IR and verified.
 *
 *
 * Re-import rebuilds rounds from what the file says and nothing else: sends and receives are
 * matched per (sender, receiver, channel) in order, and a transfer's round is its depth in the
 * graph of waits: a threadblock's previous step (the same round at the earliest), its own earlier
 * receive of any of the chunks the step reads or overwrites (a later round), and its depid/deps
 * step (a later round for a receive, whose data lands at the end of its round; the same round at
 * the earliest for a send, since a round reads the state at its start; the same round for a
 * receive that waits for a receive of its own kind, which only follows it). A transfer's send and
 * receive are one node of that graph, so waits of weight 0 may form cycles (those transfers share
 * a round); a cycle through a receive is a deadlock, and so is a cycle of one GPU's own waits or a
 * step waiting for itself. Races are refused next (check_races): along each chunk's history on a
 * GPU, in rebuilt-round order, a step that reads or writes a chunk another threadblock last wrote
 * must wait for that write, and a write must wait for the send that last read it. The rebuilt
 * schedule then goes through the semantic verifier (and the model with -t). A malformed file (not
 * XML, a missing or non-numeric attribute) is a parse error (exit 2); a file whose steps do not
 * match up (a send nobody receives, a wait on a missing step, a cycle of waits) or whose schedule
 * is wrong is a verification error (exit 1).
 *
 * Size: export keeps, per GPU and chunk, the last writer and reader (8 bytes each), so it is for
 * the node counts MSCCL targets: at most 2048 GPUs and 2^22 (GPU, chunk) pairs; import reads
 * files of at most 2^22 pairs too, and counts libxml2's tree against the memory budget before it
 * is built. Threadblocks are found through indices sorted by id and by (recv, chan), so every
 * step of reading is O(n log n) in the file (131071 threadblocks on one GPU were 13.6 s).
 */
#include "formats/formats.h"
#include "core/quote.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/msccl.h"

/* ---- reading ---- */

typedef struct rstep {
    uint8_t type;
    int32_t s, depid, deps;
    uint32_t off, cnt;
    uint32_t node;  /* graph node: the transfer, or the step itself for a nop */
    uint32_t depth; /* longest chain of local waits before it (check_races) */
} rstep;

typedef struct rtb {
    int32_t id, send, recv, chan;
    rstep *steps;
    size_t n, cap;
    size_t matched;  /* sends matched so far (send side) */
    xmlNodePtr node; /* its <tb>, for the line in messages (xmlGetLineNo is not O(1)) */
} rtb;

typedef struct rgpu {
    rtb *tbs;
    size_t n, cap;
    int seen;
    uint32_t *by_id;   /* threadblock indices sorted by id (binary search, not a scan) */
    uint32_t *by_recv; /* indices of the receiving threadblocks sorted by (recv, chan) */
    size_t nrecv;
} rgpu;

/* A wait of step k of threadblock a for step j of threadblock b (indices) on GPU g, with b != a:
 * the race check asks whether a step waits, directly or through an earlier step of its own
 * threadblock, for another threadblock's write. */
typedef struct rwait {
    uint32_t g, a, b, k, j;
} rwait;

typedef struct redge {
    uint32_t from, to;
    uint8_t w;
} redge;

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

/* What this reader understands of a step's buffers: everything in the output buffer "o", a chunk
 * keeping its offset from sender to receiver (what `export --format msccl` writes: opticoll's
 * schedules are in place). The input buffer "i" and the scratch buffer "s" are MSCCL's but not
 * read (OC_ENOTSUP); any other name, or an offset that changes on the way, is refused rather than
 * read as if it were "o". */
static int step_buffers(xmlNodePtr sn, long long s, long long srcoff, long long dstoff,
                        const char *path, char *why, size_t len) {
    static const char *const names[] = {"srcbuf", "dstbuf"};
    for (int k = 0; k < 2; k++) {
        xmlChar *b = xmlGetProp(sn, BAD_CAST names[k]);
        int ours = b && !xmlStrcmp(b, BAD_CAST "o");
        int msccl = b && (!xmlStrcmp(b, BAD_CAST "i") || !xmlStrcmp(b, BAD_CAST "s"));
        int rc = 0;
        if (!ours)
            rc = oc__fail(why, len, msccl ? OC_ENOTSUP : OC_EPARSE,
                          msccl ? "%s: line %ld: step %lld: %s=\"%s\" is MSCCL's but not read by "
                                  "opticoll (only the output buffer \"o\")"
                                : "%s: line %ld: step %lld: %s=\"%s\" is not an MSCCL buffer",
                          path, xmlGetLineNo(sn), s, names[k], OC_Q((const char *)b));
        xmlFree(b);
        if (rc) return rc;
    }
    if (srcoff != dstoff)
        return oc__fail(why, len, OC_EPARSE,
                        "%s: line %ld: step %lld: srcoff %lld and dstoff %lld differ (opticoll "
                        "reads schedules whose chunks keep their offset)",
                        path, xmlGetLineNo(sn), s, srcoff, dstoff);
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
 * naming the first threadblock in file order that repeats an earlier one; then fills the
 * GPU's sorted indices. */
static int index_tbs(rgpu *g, long long gid, const char *path, char *why, size_t len) {
    static const char *const kind[] = {"id", "send peer", "recv peer"};
    tbkey *keys = oc__malloc_array(g->n ? g->n : 1, sizeof *keys);
    g->by_id = oc__malloc_array(g->n ? g->n : 1, sizeof *g->by_id);
    g->by_recv = oc__malloc_array(g->n ? g->n : 1, sizeof *g->by_recv);
    if (!keys || !g->by_id || !g->by_recv) {
        free(keys);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
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
            xmlGetLineNo(g->tbs[bad].node), gid, kind[bad_kind], g->tbs[bad].chan);
    return 0;
}

static rtb *find_tb(rgpu *g, int32_t id) {
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->tbs[g->by_id[mid]].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n && g->tbs[g->by_id[lo]].id == id ? &g->tbs[g->by_id[lo]] : NULL;
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

static rstep *find_step(rtb *t, int32_t s) {
    size_t lo = 0, hi = t->n; /* steps are in increasing s (checked when read) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->steps[mid].s < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n && t->steps[lo].s == s ? &t->steps[lo] : NULL;
}

/* ---- races: MSCCL runs threadblocks concurrently; only waits order them ---- */

/* The threadblock whose steps [base[t], base[t + 1]) hold global step v. */
static size_t upper_bound_tb(const size_t *base, size_t n, size_t v) {
    size_t lo = 0, hi = n; /* the last t with base[t] <= v */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (base[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int rwait_cmp(const void *x, const void *y) {
    const rwait *p = x, *q = y;
    if (p->g != q->g) return p->g < q->g ? -1 : 1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

/* 1 if step k of threadblock a on GPU g waits for step j of threadblock b: through its own
 * depid/deps or an earlier step's of its threadblock (nop steps included), on step j or a later
 * one of b (b runs in order). waits[] is sorted by (g, a, b, k) with j replaced by the running
 * maximum within each (g, a, b). */
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

typedef struct raccess {
    uint32_t level, recv, depth, tb, k; /* recv: 0 for a send, 1 for a receive */
} raccess;

static int raccess_cmp(const void *x, const void *y) {
    const raccess *p = x, *q = y;
    if (p->level != q->level) return p->level < q->level ? -1 : 1;
    if (p->recv != q->recv) return p->recv < q->recv ? -1 : 1;
    if (p->depth != q->depth) return p->depth < q->depth ? -1 : 1;
    if (p->tb != q->tb) return p->tb < q->tb ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

typedef struct lastw_t {
    uint32_t g1, tb, k; /* g1: GPU + 1 of the entry (0: never written) */
} lastw_t;

/* The send of a chunk since its last write in the latest round (ambiguous: two threadblocks
 * sent it in that round, and the check of the next write is skipped for it). */
typedef struct lastr_t {
    uint32_t g1, tb, k, level, ambiguous;
} lastr_t;

static int race_fail(const rgpu *gp, uint32_t g, uint32_t stb, uint32_t sk, uint32_t wtb,
                     uint32_t wk, uint32_t c, const char *path, char *why, size_t len) {
    const rtb *st = &gp->tbs[stb], *wt = &gp->tbs[wtb];
    const rstep *x = &st->steps[sk], *y = &wt->steps[wk];
    if (x->type != T_S)
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: gpu %u: threadblocks %d (step %d) and %d (step %d) both receive into "
                        "chunk %u with no dependency between them (a race)",
                        path, g, wt->id, y->s, st->id, x->s, c);
    return oc__fail(why, len, OC_EVERIFY,
                    "%s: gpu %u threadblock %d step %d sends chunk %u with no wait (depid/deps) "
                    "between it and step %d of threadblock %d, which %s it (a race)",
                    path, g, st->id, x->s, c, y->s, wt->id,
                    y->type == T_RRC ? "reduces into" : "receives into");
}

/* One step of GPU g in race-check order, chunk by chunk (a run of chunks with one last writer
 * or reader is checked once). */
static int race_access(const rgpu *gp, uint32_t g, const raccess *a, lastw_t *last, lastr_t *read,
                       const rwait *waits, size_t nw, const char *path, char *why, size_t len) {
    const rstep *x = &gp->tbs[a->tb].steps[a->k];
    lastw_t prev = {0, 0, 0}, prevr = {0, 0, 0};
    int prev_later = 1;
    for (uint32_t c = x->off; c < x->off + x->cnt; c++) {
        const lastw_t w = last[c];
        int later = 1; /* this step comes after w */
        if (w.g1 == g + 1 && w.tb != a->tb) {
            if (prev.g1 && w.tb == prev.tb && w.k == prev.k)
                later = prev_later;
            else if (waits_for(waits, nw, g, a->tb, a->k, w.tb, w.k))
                later = 1;
            else if (a->recv && waits_for(waits, nw, g, w.tb, w.k, a->tb, a->k))
                later = 0; /* two writes of one round, ordered the other way */
            else
                return race_fail(gp, g, a->tb, a->k, w.tb, w.k, c, path, why, len);
            prev = w;
            prev_later = later;
        }
        lastr_t *r = &read[c];
        if (!a->recv) {
            if (r->g1 == g + 1 && r->level == a->level && r->tb != a->tb)
                r->ambiguous = 1;
            else if (r->g1 != g + 1 || r->level <= a->level)
                *r = (lastr_t){g + 1, a->tb, a->k, a->level, 0};
            continue;
        }
        /* a write must wait for the send that last read the chunk, or it may clobber it */
        if (r->g1 == g + 1 && !r->ambiguous && r->tb != a->tb &&
            !(prevr.g1 && prevr.tb == r->tb && prevr.k == r->k)) {
            if (!waits_for(waits, nw, g, a->tb, a->k, r->tb, r->k))
                return race_fail(gp, g, r->tb, r->k, a->tb, a->k, c, path, why, len);
            prevr = (lastw_t){r->g1, r->tb, r->k};
        }
        if (later) {
            last[c] = (lastw_t){g + 1, a->tb, a->k};
            r->g1 = 0;
        }
    }
    return 0;
}

/* Refuses the races a data-flow reading of the file would hide: the rounds rebuilt from the
 * waits order every GPU's steps (a round's sends read the state at its start, its receives
 * write at its end), and, chunk by chunk, the step that last wrote a chunk in another
 * threadblock must be waited for by the next step that sends it (else the send may read it
 * before the reduce or receive lands) and by the next step that receives into it (else two
 * threadblocks write one chunk in either order). A wait counts when it is the step's own or an
 * earlier step's of its threadblock, on that step or a later one; a wait through a third
 * threadblock is not followed (export writes every wait directly). The last writer of every
 * chunk of a GPU is one array of C entries, tagged by GPU so it is never cleared. Steps of one
 * round are taken in order of their chains of local waits (local_depths), so the last writer
 * is the latest. */
/* Numbers every step of GPU g by its longest chain of local waits (the previous step of its
 * threadblock and its depid/deps step), Kahn's algorithm over the GPU's steps; waits[w0..w1) are
 * the GPU's waits across threadblocks. A cycle of local waits is a deadlock. */
static int local_depths(rgpu *gp, uint32_t g, const rwait *waits, size_t w0, size_t w1,
                        const char *path, char *why, size_t len) {
    size_t M = 0;
    for (uint32_t t = 0; t < gp->n; t++)
        M += gp->tbs[t].n;
    size_t *base = oc__calloc(gp->n + 1, sizeof *base);
    uint32_t *indeg = oc__calloc(M + 1, sizeof *indeg), *first = oc__calloc(M + 2, sizeof *first);
    uint32_t *to = oc__calloc(w1 - w0 + 1, sizeof *to), *queue = oc__calloc(M + 1, sizeof *queue);
    int rc = 0;
    if (!base || !indeg || !first || !to || !queue) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t t = 0; t < gp->n; t++)
        base[t + 1] = base[t] + gp->tbs[t].n;
    for (size_t w = w0; w < w1; w++) {
        first[base[waits[w].b] + waits[w].j + 1]++;
        indeg[base[waits[w].a] + waits[w].k]++;
    }
    for (size_t v = 0; v < M; v++)
        first[v + 1] += first[v];
    for (size_t w = w0; w < w1; w++) /* queue[] counts the fill for now */
        to[first[base[waits[w].b] + waits[w].j] + queue[base[waits[w].b] + waits[w].j]++] =
            (uint32_t)(base[waits[w].a] + waits[w].k);
    memset(queue, 0, (M + 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    for (uint32_t t = 0; t < gp->n; t++)
        for (uint32_t k = 0; k < gp->tbs[t].n; k++) {
            gp->tbs[t].steps[k].depth = 0;
            if (k) indeg[base[t] + k]++;
            if (!indeg[base[t] + k] && !k) queue[tail++] = (uint32_t)base[t];
        }
    while (head < tail) {
        uint32_t v = queue[head++];
        uint32_t t = (uint32_t)(upper_bound_tb(base, gp->n, v)), k = v - (uint32_t)base[t];
        const uint32_t d = gp->tbs[t].steps[k].depth + 1;
        for (uint32_t e = first[v]; e <= first[v + 1]; e++) {
            uint32_t u = e < first[v + 1] ? to[e] : (k + 1 < gp->tbs[t].n ? v + 1 : UINT32_MAX);
            if (u == UINT32_MAX) continue;
            uint32_t ut = (uint32_t)upper_bound_tb(base, gp->n, u);
            rstep *us = &gp->tbs[ut].steps[u - base[ut]];
            if (us->depth < d) us->depth = d;
            if (--indeg[u] == 0) queue[tail++] = u;
        }
    }
    if (tail < M)
        rc = oc__fail(why, len, OC_EVERIFY,
                      "%s: gpu %u: the steps' waits (depid/deps and threadblock order) form a "
                      "cycle (the MSCCL program would deadlock)",
                      path, g);
out:
    free(base);
    free(indeg);
    free(first);
    free(to);
    free(queue);
    return rc;
}

static int check_races(rgpu *gpus, uint32_t N, uint32_t C, const uint32_t *level, rwait *waits,
                       size_t nw, const char *path, char *why, size_t len) {
    if (nw) qsort(waits, nw, sizeof *waits, rwait_cmp);
    for (size_t w0 = 0, g = 0; g < N; g++) {
        size_t w1 = w0;
        while (w1 < nw && waits[w1].g == g)
            w1++;
        int rc0 = local_depths(&gpus[g], (uint32_t)g, waits, w0, w1, path, why, len);
        if (rc0) return rc0;
        w0 = w1;
    }
    for (size_t i = 1; i < nw; i++)
        if (waits[i].g == waits[i - 1].g && waits[i].a == waits[i - 1].a &&
            waits[i].b == waits[i - 1].b && waits[i - 1].j > waits[i].j)
            waits[i].j = waits[i - 1].j;
    char what[300];
    snprintf(what, sizeof what, "%.256s: the race check", path);
    int brc =
        oc__budget_check((uint64_t)(C + 1) * (sizeof(lastw_t) + sizeof(lastr_t)), what, why, len);
    if (brc) return brc;
    lastw_t *last = oc__calloc((size_t)C + 1, sizeof *last);
    lastr_t *read = oc__calloc((size_t)C + 1, sizeof *read);
    raccess *acc = NULL;
    size_t cap = 0;
    int rc = 0;
    if (!last || !read) rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (uint32_t g = 0; g < N && !rc; g++) {
        rgpu *gp = &gpus[g];
        size_t n = 0;
        for (uint32_t t = 0; t < gp->n && !rc; t++)
            for (uint32_t k = 0; k < gp->tbs[t].n; k++) {
                const rstep *x = &gp->tbs[t].steps[k];
                if (x->type == T_NOP) continue;
                if (oc__grow((void **)&acc, &cap, n + 1, sizeof *acc)) {
                    rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                    break;
                }
                acc[n++] = (raccess){level[x->node], x->type != T_S, x->depth, t, k};
            }
        if (rc) break;
        if (n) qsort(acc, n, sizeof *acc, raccess_cmp);
        for (size_t i = 0; i < n && !rc; i++)
            rc = race_access(gp, g, &acc[i], last, read, waits, nw, path, why, len);
    }
    free(read);
    free(acc);
    free(last);
    return rc;
}

int oc__verify_msccl(const char *path, const char *text, const char *network,
                     const oc_kv *net_params, oc_report **out, char *why, size_t len) {
    *out = NULL;
    xmlDocPtr doc = NULL;
    rgpu *gpus = NULL;
    oc__transfer *xf = NULL;
    redge *edges = NULL;
    rwait *waits = NULL;
    size_t nw = 0, capw = 0;
    uint32_t *level = NULL, *indeg = NULL, *first = NULL, *adj = NULL, *queue = NULL;
    uint8_t *adjw = NULL;
    size_t nxf = 0, capxf = 0, ne = 0, cape = 0;
    long long N = 0, C = 0;
    oc__spec spec;
    memset(&spec, 0, sizeof spec);
    oc__store store;
    oc__store_init(&store);
    oc_report *rep = NULL;
    int rc = 0;
    size_t tlen = strlen(text);
    if (tlen > INT32_MAX) return oc__fail(why, len, OC_ETOOBIG, "%s is too large", path);
    char what[300];
    snprintf(what, sizeof what, "reading %.256s", path);
    if ((rc = oc__budget_check(xml_tree_bytes(text, tlen), what, why, len))) return rc;
    doc = xmlReadMemory(text, (int)tlen, path, NULL,
                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        rc = oc__fail(why, len, OC_EPARSE, "%s: malformed XML%s%s", path,
                      e && e->message ? ": " : "", e && e->message ? e->message : "");
        /* libxml2's messages end with a newline: one line only */
        for (char *p = why; p && *p; p++)
            if (*p == '\n') *p = 0;
        goto out;
    }
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "algo")) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: the top element must be <algo> (MSCCL XML)", path);
        goto out;
    }
    if ((rc = attr_int(root, "ngpus", 1, OC_MAX_NODES, 1, 0, &N, path, why, len)) ||
        (rc = attr_int(root, "nchunksperloop", 1, UINT32_MAX, 1, 0, &C, path, why, len)))
        goto out;
    /* What export writes is what import reads: at most 2^22 (GPU, chunk) pairs (a 1 KB file
     * with 2 GPUs and nchunksperloop=2^26 asked for 2.1 GB before this). */
    if ((uint64_t)N * (uint64_t)C > MSCCL_MAX_CELLS) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "%s: ngpus=%lld x nchunksperloop=%lld is %llu (GPU, chunk) pairs, more than "
                      "MSCCL files are read with (2^22, as export writes them)",
                      path, N, C, (unsigned long long)((uint64_t)N * (uint64_t)C));
        goto out;
    }
    /* The collective: ours if the file says it, else MSCCL's coll. */
    oc_collective coll;
    xmlChar *cname = xmlGetProp(root, BAD_CAST "oc_collective");
    if (!cname) cname = xmlGetProp(root, BAD_CAST "coll");
    int known = 0;
    if (cname) {
        const char *c = (const char *)cname;
        if (!strcmp(c, "reduce_scatter")) c = "reducescatter";
        known = oc_collective_from_name(c, &coll) == 0;
    }
    if (!known) {
        rc = oc__fail(why, len, OC_EPARSE,
                      "%s: <algo coll=\"%s\"> is not a collective opticoll "
                      "knows (allgather, allreduce, reduce_scatter, alltoall, "
                      "broadcast, or oc_collective=...)",
                      path, OC_Q((const char *)cname));
        xmlFree(cname);
        goto out;
    }
    xmlFree(cname);
    long long rootnode, bytes, q;
    uint64_t per = coll == OC_ALLREDUCE || coll == OC_BROADCAST ? 1
                   : coll == OC_ALLTOALL                        ? (uint64_t)N * (uint64_t)N
                                                                : (uint64_t)N;
    if ((rc = attr_int(root, "oc_root", 0, N - 1, 0, 0, &rootnode, path, why, len)) ||
        (rc = attr_int(root, "oc_bytes", 0, (long long)OC_MAX_BYTES, 0, 0, &bytes, path, why,
                       len)) ||
        (rc = attr_int(root, "oc_chunks_per_block", 1, UINT32_MAX, 0,
                       (long long)((uint64_t)C / per), &q, path, why, len)))
        goto out;
    if (q < 1 || (uint64_t)q * per != (uint64_t)C) {
        rc = oc__fail(why, len, OC_EPARSE,
                      "%s: nchunksperloop=%lld is not a whole number of chunks per block for %s "
                      "on %lld GPUs",
                      path, C, oc_collective_name(coll), N);
        goto out;
    }
    if ((rc = oc__spec_init(&spec, coll, (uint32_t)N, (uint32_t)rootnode, (uint64_t)bytes,
                            (uint32_t)q, why, len)))
        goto out;
    xmlChar *bn = xmlGetProp(root, BAD_CAST "oc_block_node");
    if (bn) {
        spec.block_node = oc__malloc_array((size_t)N, sizeof(uint32_t));
        const char *p = (const char *)bn;
        long long k = 0;
        int okb = spec.block_node != NULL;
        while (okb && *p) {
            char *end;
            errno = 0;
            unsigned long x = strtoul(p, &end, 10);
            if (end == p || errno || k >= N || x >= (unsigned long)N)
                okb = 0;
            else
                spec.block_node[k++] = (uint32_t)x;
            p = end;
            if (okb && *p == ',')
                p++;
            else if (okb && *p)
                okb = 0;
        }
        xmlFree(bn);
        if (!okb || k != N) {
            rc = oc__fail(why, len, OC_EPARSE, "%s: oc_block_node must list %lld node numbers",
                          path, N);
            goto out;
        }
    }
    /* Read the GPUs, threadblocks and steps. */
    gpus = oc__calloc((size_t)N, sizeof(rgpu));
    if (!gpus) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    uint32_t nodes = 0; /* graph nodes: transfers first, then nops (numbered after) */
    size_t nnop = 0;
    for (xmlNodePtr gn = root->children; gn; gn = gn->next) {
        if (!is_elem(gn, "gpu")) continue;
        long long id;
        if ((rc = attr_int(gn, "id", 0, N - 1, 1, 0, &id, path, why, len))) goto out;
        rgpu *g = &gpus[id];
        if (g->seen) {
            rc = oc__fail(why, len, OC_EPARSE, "%s: line %ld: gpu %lld appears twice", path,
                          xmlGetLineNo(gn), id);
            goto out;
        }
        g->seen = 1;
        for (xmlNodePtr tn = gn->children; tn; tn = tn->next) {
            if (!is_elem(tn, "tb")) continue;
            long long tid, snd, rcv, chan;
            if ((rc = attr_int(tn, "id", 0, INT32_MAX, 1, 0, &tid, path, why, len)) ||
                (rc = attr_int(tn, "send", -1, N - 1, 1, 0, &snd, path, why, len)) ||
                (rc = attr_int(tn, "recv", -1, N - 1, 1, 0, &rcv, path, why, len)) ||
                (rc = attr_int(tn, "chan", 0, INT32_MAX, 1, 0, &chan, path, why, len)))
                goto out;
            if (g->n >= UINT32_MAX - 1 ||
                oc__grow((void **)&g->tbs, &g->cap, g->n + 1, sizeof(rtb))) {
                rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                goto out;
            }
            rtb *t = &g->tbs[g->n++];
            memset(t, 0, sizeof *t);
            t->id = (int32_t)tid;
            t->send = (int32_t)snd;
            t->recv = (int32_t)rcv;
            t->chan = (int32_t)chan;
            t->node = tn;
            for (xmlNodePtr sn = tn->children; sn; sn = sn->next) {
                if (!is_elem(sn, "step")) continue;
                long long s, off, doff, cnt, depid, deps;
                if ((rc = attr_int(sn, "s", 0, INT32_MAX, 1, 0, &s, path, why, len)) ||
                    (rc = attr_int(sn, "srcoff", -1, C - 1, 1, 0, &off, path, why, len)) ||
                    (rc = attr_int(sn, "dstoff", -1, C - 1, 1, 0, &doff, path, why, len)) ||
                    (rc = attr_int(sn, "cnt", 0, C, 1, 0, &cnt, path, why, len)) ||
                    (rc = attr_int(sn, "depid", -1, INT32_MAX, 1, 0, &depid, path, why, len)) ||
                    (rc = attr_int(sn, "deps", -1, INT32_MAX, 1, 0, &deps, path, why, len)))
                    goto out;
                xmlChar *ty = xmlGetProp(sn, BAD_CAST "type");
                int type = -1;
                for (int k = 0; ty && k < 4; k++)
                    if (!xmlStrcmp(ty, BAD_CAST oc__msccl_type_name[k])) type = k;
                if (type < 0) {
                    static const char *const other[] = {"rcs", "rrs", "rrcs", "cpy", "re", NULL};
                    int msccl = 0;
                    for (int k = 0; ty && other[k]; k++)
                        msccl |= !xmlStrcmp(ty, BAD_CAST other[k]);
                    rc = oc__fail(why, len, msccl ? OC_ENOTSUP : OC_EPARSE,
                                  msccl ? "%s: line %ld: step type \"%s\" is MSCCL's but not read "
                                          "by opticoll (s, r, rrc, nop)"
                                        : "%s: line %ld: step type \"%s\" is not an MSCCL step "
                                          "type",
                                  path, xmlGetLineNo(sn), OC_Q((const char *)ty));
                    xmlFree(ty);
                    goto out;
                }
                xmlFree(ty);
                if (type != T_NOP && (rc = step_buffers(sn, s, off, doff, path, why, len)))
                    goto out;
                long long o = type == T_S ? off : doff;
                if (type != T_NOP && (o < 0 || cnt < 1 || o + cnt > C)) {
                    rc = oc__fail(why, len, OC_EPARSE,
                                  "%s: line %ld: step %lld moves chunks %lld..%lld, outside "
                                  "0..%lld",
                                  path, xmlGetLineNo(sn), s, o, o + cnt - 1, C - 1);
                    goto out;
                }
                if ((type == T_S && snd < 0) || ((type == T_R || type == T_RRC) && rcv < 0)) {
                    rc =
                        oc__fail(why, len, OC_EVERIFY,
                                 "%s: line %ld: gpu %lld threadblock %lld step %lld %s, but the "
                                 "threadblock has no %s peer",
                                 path, xmlGetLineNo(sn), id, tid, s,
                                 type == T_S ? "sends" : "receives", type == T_S ? "send" : "recv");
                    goto out;
                }
                if (t->n && t->steps[t->n - 1].s >= s) {
                    rc = oc__fail(why, len, OC_EPARSE,
                                  "%s: line %ld: threadblock %lld of gpu %lld: step s=%lld does "
                                  "not follow s=%d",
                                  path, xmlGetLineNo(sn), tid, id, s, t->steps[t->n - 1].s);
                    goto out;
                }
                if (oc__grow((void **)&t->steps, &t->cap, t->n + 1, sizeof(rstep))) {
                    rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                    goto out;
                }
                t->steps[t->n++] = (rstep){(uint8_t)type,
                                           (int32_t)s,
                                           (int32_t)depid,
                                           (int32_t)deps,
                                           (uint32_t)(o < 0 ? 0 : o),
                                           (uint32_t)cnt,
                                           UINT32_MAX,
                                           0};
                if (type == T_NOP) nnop++;
            }
        }
        if ((rc = index_tbs(g, id, path, why, len))) goto out;
    }
    for (long long g = 0; g < N; g++) /* GPUs the file does not list: no threadblocks */
        if (!gpus[g].seen && (rc = index_tbs(&gpus[g], g, path, why, len))) goto out;
    /* Match the k-th send from a to b on a channel with the k-th receive of b from a. */
    for (uint32_t a = 0; a < (uint32_t)N; a++)
        for (size_t ti = 0; ti < gpus[a].n; ti++) {
            rtb *st = &gpus[a].tbs[ti];
            if (st->send < 0) continue;
            rgpu *gb = &gpus[st->send];
            rtb *rt = find_recv_tb(gb, (int32_t)a, st->chan);
            size_t ri = 0, sends = 0, recvs = 0;
            for (size_t k = 0; k < st->n; k++)
                sends += st->steps[k].type == T_S;
            for (size_t k = 0; rt && k < rt->n; k++)
                recvs += rt->steps[k].type == T_R || rt->steps[k].type == T_RRC;
            if (sends != recvs) {
                rc = oc__fail(why, len, OC_EVERIFY,
                              "%s: gpu %u sends %zu message%s to gpu %d on channel %d, which "
                              "receives %zu from it",
                              path, a, sends, sends == 1 ? "" : "s", st->send, st->chan, recvs);
                goto out;
            }
            for (size_t k = 0; k < st->n; k++) {
                rstep *x = &st->steps[k];
                if (x->type != T_S) continue;
                while (rt->steps[ri].type != T_R && rt->steps[ri].type != T_RRC)
                    ri++;
                rstep *y = &rt->steps[ri++];
                if (x->off != y->off || x->cnt != y->cnt) {
                    rc = oc__fail(why, len, OC_EVERIFY,
                                  "%s: gpu %u step %d sends chunks %u+%u to gpu %d, whose step %d "
                                  "receives %u+%u: opticoll schedules keep chunk offsets",
                                  path, a, x->s, x->off, x->cnt, st->send, y->s, y->off, y->cnt);
                    goto out;
                }
                if (oc__grow((void **)&xf, &capxf, nxf + 1, sizeof *xf)) {
                    rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                    goto out;
                }
                x->node = y->node = (uint32_t)nxf;
                xf[nxf++] = (oc__transfer){a, (uint32_t)st->send, x->off, x->cnt,
                                           y->type == T_RRC ? OC_OP_REDUCE : OC_OP_COPY};
            }
        }
    /* Receives with no matching send tb (the loop above saw every send tb). */
    for (uint32_t b2 = 0; b2 < (uint32_t)N; b2++)
        for (size_t ti = 0; ti < gpus[b2].n; ti++)
            for (size_t k = 0; k < gpus[b2].tbs[ti].n; k++) {
                rstep *y = &gpus[b2].tbs[ti].steps[k];
                if (y->type == T_NOP) {
                    y->node = (uint32_t)nxf + (uint32_t)(nodes++);
                } else if (y->node == UINT32_MAX) {
                    rc = oc__fail(why, len, OC_EVERIFY,
                                  "%s: gpu %u threadblock %d step %d receives from gpu %d, which "
                                  "sends nothing to it on channel %d",
                                  path, b2, gpus[b2].tbs[ti].id, y->s, gpus[b2].tbs[ti].recv,
                                  gpus[b2].tbs[ti].chan);
                    goto out;
                }
            }
    const size_t G = nxf + nodes;
    (void)nnop;
    /* The graph of waits. A step follows its threadblock's previous step (weight 0: the same
     * round at the earliest) and waits for its depid/deps step (weight 1 if that is a receive:
     * the data arrives at the end of its round; 0 for a send, which reads the state at the start
     * of its round). Within a threadblock, order alone is a wait for data too: a step that reads
     * or overwrites chunks the threadblock's own earlier receive wrote comes a round later
     * (found per chunk, with the last writer of each chunk of the GPU, tagged by threadblock). */
    uint64_t *lastw = oc__calloc((size_t)C + 1, sizeof *lastw);
    if (!lastw) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    uint32_t tbtag = 0;
    for (uint32_t g = 0; g < (uint32_t)N && !rc; g++)
        for (size_t ti = 0; ti < gpus[g].n && !rc; ti++) {
            rtb *t = &gpus[g].tbs[ti];
            tbtag++;
            size_t ahead = 0; /* the first step at or after k that is not a nop (or t->n) */
            for (size_t k = 0; k < t->n && !rc; k++) {
                rstep *x = &t->steps[k];
                if (ahead < k) ahead = k;
                while (ahead < t->n && t->steps[ahead].type == T_NOP)
                    ahead++;
                /* a nop carries a wait of the step that follows it (msccl-tools' convention) */
                const int as = ahead < t->n ? t->steps[ahead].type : T_NOP;
                const rstep *on[2] = {k ? &t->steps[k - 1] : NULL, NULL};
                uint8_t w[2] = {0, 0};
                if (x->depid == t->id && x->deps >= x->s) {
                    /* a wait for itself or for a later step of its own threadblock, which runs
                     * only after this one: the step would never start */
                    char later[48] = "itself";
                    if (x->deps > x->s)
                        snprintf(later, sizeof later, "its own later step %d", x->deps);
                    rc = oc__fail(why, len, OC_EVERIFY,
                                  "%s: gpu %u threadblock %d step %d waits (depid/deps) for %s: "
                                  "it would never run",
                                  path, g, t->id, x->s, later);
                    break;
                }
                if (x->depid >= 0 || x->deps >= 0) {
                    rtb *dt = find_tb(&gpus[g], x->depid);
                    on[1] = dt ? find_step(dt, x->deps) : NULL;
                    if (!on[1]) {
                        rc = oc__fail(why, len, OC_EVERIFY,
                                      "%s: gpu %u threadblock %d step %d waits for step %d of "
                                      "threadblock %d, which does not exist",
                                      path, g, t->id, x->s, x->deps, x->depid);
                        break;
                    }
                    /* a receive that waits for a receive of its own kind only follows it (two
                     * copies of a chunk in one round carry the same data, two reduces commute):
                     * both may land in one round; any other wait for a receive is for its data,
                     * which lands at the end of its round */
                    w[1] = (on[1]->type == T_R || on[1]->type == T_RRC) && on[1]->type != as;
                    if (dt != t) {
                        if (oc__grow((void **)&waits, &capw, nw + 1, sizeof *waits)) {
                            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                            break;
                        }
                        waits[nw++] = (rwait){g, (uint32_t)ti, (uint32_t)(dt - gpus[g].tbs),
                                              (uint32_t)k, (uint32_t)(on[1] - dt->steps)};
                    }
                }
                if (x->type != T_NOP) {
                    /* the latest own receive this step's chunks depend on */
                    uint32_t latest = UINT32_MAX;
                    for (uint32_t c = x->off; c < x->off + x->cnt; c++)
                        if (lastw[c] >> 32 == tbtag &&
                            (latest == UINT32_MAX || (uint32_t)lastw[c] > latest))
                            latest = (uint32_t)lastw[c];
                    if (latest != UINT32_MAX) {
                        on[0] = &t->steps[latest];
                        w[0] = 1;
                    }
                    if (x->type != T_S)
                        for (uint32_t c = x->off; c < x->off + x->cnt; c++)
                            lastw[c] = (uint64_t)tbtag << 32 | (uint32_t)k;
                }
                for (int j = 0; j < 2 && !rc; j++) {
                    if (!on[j]) continue;
                    if (oc__grow((void **)&edges, &cape, ne + 1, sizeof *edges))
                        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                    else
                        edges[ne++] = (redge){on[j]->node, x->node, w[j]};
                }
                /* the previous step, when the data wait above named an earlier one */
                if (!rc && k && on[0] != &t->steps[k - 1]) {
                    if (oc__grow((void **)&edges, &cape, ne + 1, sizeof *edges))
                        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
                    else
                        edges[ne++] = (redge){t->steps[k - 1].node, x->node, 0};
                }
            }
        }
    free(lastw);
    if (rc) goto out;
    /* Longest paths over a CSR of the edges. A transfer is one node for its send and its
     * receive, so waits of weight 0 can form cycles (the ring: every GPU sends, then receives
     * what its neighbour sent): those nodes share a round. The strongly connected components
     * (Tarjan, iterative) are condensed; a component with a weight-1 wait inside is a
     * contradiction (a step waiting, through receives, for itself). Tarjan emits components in
     * reverse topological order, so levels are relaxed walking its output backwards. */
    uint32_t rounds = 0;
    level = oc__calloc(G + 1, sizeof *level); /* per component, then per node */
    indeg = oc__calloc(G + 1, sizeof *indeg); /* Tarjan index + 1 (0: unvisited) */
    first = oc__calloc(G + 2, sizeof *first);
    adj = oc__calloc(ne + 1, sizeof *adj);
    adjw = oc__calloc(ne + 1, sizeof *adjw);
    queue = oc__calloc(G + 1, sizeof *queue); /* Tarjan's stack */
    uint32_t *low = oc__calloc(G + 1, sizeof *low), *comp = oc__calloc(G + 1, sizeof *comp);
    uint32_t *callv = oc__calloc(G + 1, sizeof *callv), *calle = oc__calloc(G + 1, sizeof *calle);
    uint32_t *emitted = oc__calloc(G + 1, sizeof *emitted); /* nodes in emission order */
    uint8_t *onst = oc__calloc(G + 1, 1);
    if (!level || !indeg || !first || !adj || !adjw || !queue || !low || !comp || !callv ||
        !calle || !emitted || !onst) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto graph_out;
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
        if (indeg[r0]) continue;
        uint32_t depth = 0;
        callv[0] = r0;
        calle[0] = first[r0];
        indeg[r0] = low[r0] = ++next_index;
        queue[sp++] = r0;
        onst[r0] = 1;
        while (1) {
            uint32_t u = callv[depth];
            if (calle[depth] < first[u + 1]) {
                uint32_t v = adj[calle[depth]++];
                if (!indeg[v]) {
                    indeg[v] = low[v] = ++next_index;
                    queue[sp++] = v;
                    onst[v] = 1;
                    callv[++depth] = v;
                    calle[depth] = first[v];
                } else if (onst[v] && indeg[v] < low[u]) {
                    low[u] = indeg[v];
                }
                continue;
            }
            if (low[u] == indeg[u]) { /* u roots a component */
                uint32_t w;
                do {
                    w = queue[--sp];
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
    /* Components in topological order: the last emitted first. Nodes of one component are
     * contiguous in emitted[]. */
    memset(level, 0, (G + 1) * sizeof *level);
    for (uint32_t k = nemit; k-- > 0 && !rc;) {
        uint32_t u = emitted[k], cu = comp[u];
        for (uint32_t e = first[u]; e < first[u + 1]; e++) {
            uint32_t cv = comp[adj[e]];
            if (cv == cu) {
                if (adjw[e]) {
                    rc = oc__fail(why, len, OC_EVERIFY,
                                  "%s: the steps' waits form a cycle through a receive (the "
                                  "MSCCL program would deadlock)",
                                  path);
                    break;
                }
            } else if (level[cu] + adjw[e] > level[cv]) {
                level[cv] = level[cu] + adjw[e];
            }
        }
    }
    if (!rc) {
        /* per node from here on: a transfer's round is its component's level */
        for (uint32_t v = 0; v < G; v++)
            low[v] = level[comp[v]];
        memcpy(level, low, G * sizeof *level);
        for (size_t i = 0; i < nxf; i++)
            if (level[i] + 1 > rounds) rounds = level[i] + 1;
    }
    if (!rc) rc = check_races(gpus, (uint32_t)N, (uint32_t)C, level, waits, nw, path, why, len);
graph_out:
    free(low);
    free(comp);
    free(callv);
    free(calle);
    free(emitted);
    free(onst);
    if (rc) goto out;
    /* Rounds by level (empty levels dropped), transfers in file order within a round: a
     * counting sort by level. */
    {
        uint32_t *at = oc__calloc((size_t)rounds + 2, sizeof *at);
        uint32_t *order = oc__calloc(nxf + 1, sizeof *order);
        if (!at || !order) {
            free(at);
            free(order);
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < nxf; i++)
            at[level[i] + 1]++;
        for (uint32_t l = 0; l < rounds; l++)
            at[l + 1] += at[l];
        for (size_t i = 0; i < nxf; i++)
            order[at[level[i]]++] = (uint32_t)i;
        /* at[l] is now the end of level l's run in order[] */
        uint32_t from = 0;
        for (uint32_t l = 0; l < rounds && !rc; l++) {
            if (at[l] == from) continue;
            oc__round r = {0};
            for (uint32_t k = from; k < at[l] && !rc; k++) {
                const oc__transfer *x = &xf[order[k]];
                if (oc__round_push(&r, x->src, x->dst, (oc__op)x->op, x->first, x->count))
                    rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            }
            if (!rc) rc = store.sink.round(&store.sink, l, &r, why, len);
            oc__round_free(&r);
            from = at[l];
        }
        free(at);
        free(order);
        if (rc) goto out;
    }
    const oc__model *model = NULL;
    if (network && !(model = oc__model_find(network))) {
        rc = oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(network));
        goto out;
    }
    if (!(rep = oc__report_new())) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
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
    for (long long g = 0; gpus && g < N; g++) {
        for (size_t t = 0; t < gpus[g].n; t++)
            free(gpus[g].tbs[t].steps);
        free(gpus[g].tbs);
        free(gpus[g].by_id);
        free(gpus[g].by_recv);
    }
    free(gpus);
    free(xf);
    free(edges);
    free(waits);
    free(level);
    free(indeg);
    free(first);
    free(adj);
    free(adjw);
    free(queue);
    oc__store_free(&store);
    oc__spec_free(&spec);
    xmlFreeDoc(doc);
    return rc;
}
