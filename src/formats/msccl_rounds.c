/*
 * msccl_rounds.c — the round of each message of an MSCCL program (msccl_exec.c runs it, and
 * msccl_import.c's essay says what a round is): its depth in the graph of waits, where data that
 * lands by a receive is read a round later and everything else may share a round (a round reads
 * the state at its start); a local step (cpy, re) runs between rounds. The graph has a node per
 * message (its send and its receive) and per local step, and an edge for threadblock order, for
 * a receive before what the same step sends on, for each wait and for the data a threadblock's
 * earlier steps wrote or read, of weight 1 where data a receive wrote is read (or a local step
 * follows a send in its round). A node's round is its longest path; nodes on a cycle of weight 0
 * (the ring: every GPU sends, then receives what its neighbour sent) share a round, and a cycle
 * through an edge of weight 1 cannot be laid out in rounds and is refused.
 */
#include "formats/msccl_import.h"

#include <stdlib.h>
#include <string.h>

/* ---- rounds: the depth of each message in the graph of waits ---- */

enum { R_RECV, R_SEND, R_LOCAL };

static uint32_t start_node(const rstep *x) {
    const uint8_t f = oc__msccl_kind_flags(x->kind);
    return f & F_RECV ? x->rx : f & F_SEND ? x->sx : x->lnode;
}
static uint32_t end_node(const rstep *x, int *role) {
    const uint8_t f = oc__msccl_kind_flags(x->kind);
    *role = f & F_SEND ? R_SEND : f & F_RECV ? R_RECV : R_LOCAL;
    return f & F_SEND ? x->sx : f & F_RECV ? x->rx : x->lnode;
}
/* Data a receive writes is read a round later; a local step runs between rounds, so one that
 * follows a send in its round waits a round (it could overwrite what the send reads). */
static uint8_t edge_weight(int role, const rstep *to) {
    return role == R_RECV || (role == R_SEND && (oc__msccl_kind_flags(to->kind) & F_LOCAL));
}

static int push_edge(redge **edges, size_t *ne, size_t *cap, uint32_t from, uint32_t to, uint8_t w,
                     char *why, size_t len) {
    if (from == NONE || to == NONE || from == to) return 0;
    if (oc__grow((void **)edges, cap, *ne + 1, sizeof **edges)) return oc__msccl_nomem(why, len);
    (*edges)[(*ne)++] = (redge){from, to, w};
    return 0;
}

/* The edges of the graph of rounds for one mode: threadblock order, a receive before what the
 * same step sends on, waits, and the data a threadblock's earlier steps wrote or read. */
int oc__msccl_round_edges(const prog *p, const layout *L, redge **edges, size_t *ne, size_t *cap,
                          char *why, size_t len) {
    uint64_t *lastw = oc__calloc((size_t)L->M + 1, sizeof *lastw);
    uint64_t *lastr = oc__calloc((size_t)L->M + 1, sizeof *lastr);
    int rc = 0;
    if (!lastw || !lastr) rc = oc__msccl_nomem(why, len);
    uint32_t tag = 0; /* entries are tagged by threadblock, so the arrays are never cleared */
    for (uint32_t g = 0; g < p->N && !rc; g++)
        for (uint32_t t = 0; t < p->gpus[g].n && !rc; t++) {
            const rtb *tb = &p->gpus[g].tbs[t];
            tag++;
            for (uint32_t k = 0; k < tb->n && !rc; k++) {
                const rstep *x = &tb->steps[k];
                const uint8_t f = oc__msccl_kind_flags(x->kind);
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
                if (f & F_RSRC)
                    ranges[0][0] = oc__msccl_slot(L, g, x->sbuf, x->soff), ranges[0][1] = x->cnt;
                if (f & F_WDST)
                    ranges[1][0] = oc__msccl_slot(L, g, x->dbuf, x->doff), ranges[1][1] = x->cnt;
                for (int io = 0; io < 2 && !rc; io++)
                    for (uint32_t s = ranges[io][0];
                         ranges[io][0] != NONE && s < ranges[io][0] + ranges[io][1] && !rc; s++) {
                        if (lastw[s] >> 32 == tag) {
                            const rstep *d = &tb->steps[(uint32_t)lastw[s]];
                            const int r =
                                (oc__msccl_kind_flags(d->kind) & F_LOCAL) ? R_LOCAL : R_RECV;
                            rc = push_edge(edges, ne, cap, r == R_LOCAL ? d->lnode : d->rx, start,
                                           edge_weight(r, x), why, len);
                        }
                        if (!rc && io == 1 && lastr[s] >> 32 == tag && (f & F_LOCAL)) {
                            const rstep *d = &tb->steps[(uint32_t)lastr[s]];
                            if (oc__msccl_kind_flags(d->kind) & F_SEND &&
                                !(oc__msccl_kind_flags(d->kind) & F_RECV))
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
int oc__msccl_levels(const prog *p, const redge *edges, size_t ne, size_t G, uint32_t *level,
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
        rc = oc__msccl_nomem(why, len);
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
