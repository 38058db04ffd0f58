/*
 * star_check.c — the passive optical star's resource check, independent of the assignment code in
 * star.c (seed: passive-optical-star section 1, the WDMA model).
 *
 * The model of the seed: every processor has k lasers and k filters; in one step it can send on up
 * to k wavelengths and receive on up to k; "for a given wavelength, at most one transmitter can use
 * it at a given step"; tuning to a new wavelength costs D. The assignment code claims, for every
 * stream of a round, its step, its laser, its filter, its wavelength and whether the filter was
 * retuned. This file trusts none of it. From the logical round alone it recomputes the streams
 * (transfers of one round between the same two processors share one stream) and proves:
 *   1. the claims carry every stream of the round exactly once, with all its messages;
 *   2. in every step no processor uses a port number outside 0..k-1 or one laser or filter twice;
 *   3. in every step every wavelength has one transmitter, and one transmitter never puts two
 *      streams on one wavelength (the message names step, wavelength and processors);
 *   4. the claimed retunings are exactly the filter changes its own copy of the filters' history
 *      requires, and the round's steps, retunings and message time (the largest stream of each
 *      step) are recomputed for the model to match.
 * Each round costs O(S log S) for its S streams; the filter history is O(P k) words.
 */
#include "net/star.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct oc__star_checker {
    uint32_t nodes, k;
    uint64_t chunk_bytes;
    double L;
    uint64_t *filter; /* P x k: the wavelength each filter is on, UINT64_MAX = never tuned */
};

#define UNTUNED UINT64_MAX

int oc__star_checker_new(uint32_t nodes, uint32_t k, uint64_t chunk_bytes, double L,
                         oc__star_checker **out) {
    *out = NULL;
    oc__star_checker *c = calloc(1, sizeof *c);
    if (!c) return OC_ENOMEM;
    c->nodes = nodes;
    c->k = k;
    c->chunk_bytes = chunk_bytes;
    c->L = L;
    c->filter = oc__malloc_array((size_t)nodes * k + 1, sizeof(uint64_t));
    if (!c->filter) {
        free(c);
        return OC_ENOMEM;
    }
    for (size_t i = 0; i < (size_t)nodes * k + 1; i++)
        c->filter[i] = UNTUNED;
    *out = c;
    return 0;
}

void oc__star_checker_free(oc__star_checker *c) {
    if (!c) return;
    free(c->filter);
    free(c);
}

typedef struct stream {
    uint32_t src, dst;
    uint64_t messages;
} stream;

static int by_pair(const void *a, const void *b) {
    const stream *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return 0;
}

static int claim_by_pair(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return 0;
}

static int claim_by_wavelength(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    if (x->wavelength != y->wavelength) return x->wavelength < y->wavelength ? -1 : 1;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static int claim_by_laser(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->tx_port < y->tx_port ? -1 : x->tx_port > y->tx_port;
}

static int claim_by_filter(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return x->rx_port < y->rx_port ? -1 : x->rx_port > y->rx_port;
}

/* One side of a stream: its sender's laser (side 0) or its receiver's filter (side 1). */
static uint32_t side_node(const oc__star_claim *x, int side) {
    return side ? x->dst : x->src;
}
static uint32_t side_port(const oc__star_claim *x, int side) {
    return side ? x->rx_port : x->tx_port;
}

/* Sorts the n claims by one side's device (step, processor, port) and returns the index of the
 * first that shares its device with the claim before it, or 0 when every device carries one
 * stream per step. */
static size_t shared_device(oc__star_claim *cl, size_t n, int side) {
    qsort(cl, n, sizeof *cl, side ? claim_by_filter : claim_by_laser);
    for (size_t i = 1; i < n; i++)
        if (cl[i].step == cl[i - 1].step &&
            side_node(&cl[i], side) == side_node(&cl[i - 1], side) &&
            side_port(&cl[i], side) == side_port(&cl[i - 1], side))
            return i;
    return 0;
}

int oc__star_check(oc__star_checker *c, uint64_t round, uint64_t first_step, const oc__round *r,
                   const oc__star_claim *claims, size_t n, uint64_t *steps, uint64_t *retunes,
                   uint64_t *messages, char *why, size_t len) {
    const unsigned long long R = (unsigned long long)round;
    /* The round's streams are counted first (a transfer of the same pair as the one before it
     * joins its stream), and only they are held: a round of millions of transfers between a few
     * thousand pairs (TCP2's all-to-all) costs the pairs, not the transfers. */
    size_t runs = 0;
    for (size_t i = 0; i < r->count; i++)
        runs += !i || r->xfers[i].src != r->xfers[i - 1].src ||
                r->xfers[i].dst != r->xfers[i - 1].dst;
    stream *st = oc__malloc_array(runs + 1, sizeof *st);
    oc__star_claim *cl = oc__malloc_array(n + 1, sizeof *cl);
    int rc = 0;
    if (!st || !cl) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
        goto out;
    }
    /* 1. The streams of the round, recomputed, against the claims. */
    size_t ns = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (x->src >= c->nodes || x->dst >= c->nodes || x->src == x->dst) {
            rc = oc__fail(why, len, OC_ERESOURCE, "round %llu: transfer %u -> %u has no stream", R,
                          x->src, x->dst);
            goto out;
        }
        if (ns && st[ns - 1].src == x->src && st[ns - 1].dst == x->dst)
            st[ns - 1].messages += x->count;
        else
            st[ns++] = (stream){x->src, x->dst, x->count};
    }
    qsort(st, ns, sizeof *st, by_pair);
    size_t m = 0;
    for (size_t i = 0; i < ns; i++) {
        if (m && st[m - 1].src == st[i].src && st[m - 1].dst == st[i].dst)
            st[m - 1].messages += st[i].messages;
        else
            st[m++] = st[i];
    }
    /* chunks to messages: each chunk's bytes in messages of L bytes */
    if (c->chunk_bytes) {
        const uint64_t per_chunk = (uint64_t)ceil((double)c->chunk_bytes / c->L - 1e-9);
        for (size_t i = 0; i < m; i++)
            st[i].messages *= per_chunk;
    }
    if (n) memcpy(cl, claims, n * sizeof *cl);
    qsort(cl, n, sizeof *cl, claim_by_pair);
    for (size_t i = 0; i < n || i < m; i++) {
        if (i >= n || i >= m || cl[i].src != st[i].src || cl[i].dst != st[i].dst ||
            cl[i].messages != st[i].messages) {
            const stream *s = i < m ? &st[i] : NULL;
            rc = s ? oc__fail(why, len, OC_ERESOURCE,
                              "round %llu: the stream %u -> %u of %llu messages is not carried "
                              "exactly once by the assignment",
                              R, s->src, s->dst, (unsigned long long)s->messages)
                   : oc__fail(why, len, OC_ERESOURCE,
                              "round %llu: the assignment carries a stream %u -> %u the round "
                              "does not have",
                              R, cl[i].src, cl[i].dst);
            goto out;
        }
    }
    /* 2. Ports: in range, and one stream per laser and per filter in a step. */
    for (size_t i = 0; i < n; i++)
        if (cl[i].tx_port >= c->k || cl[i].rx_port >= c->k) {
            rc = oc__fail(why, len, OC_ERESOURCE,
                          "step %llu: stream %u -> %u uses laser %u / filter %u, but a processor "
                          "has k = %u",
                          (unsigned long long)(first_step + cl[i].step), cl[i].src, cl[i].dst,
                          cl[i].tx_port, cl[i].rx_port, c->k);
            goto out;
        }
    for (int side = 0; side < 2; side++) {
        const size_t i = shared_device(cl, n, side);
        if (!i) continue;
        rc = oc__fail(why, len, OC_ERESOURCE,
                      "step %llu: processor %u %s %u and %u on the same %s %u",
                      (unsigned long long)(first_step + cl[i].step), side_node(&cl[i], side),
                      side ? "receives from" : "sends to", side_node(&cl[i - 1], !side),
                      side_node(&cl[i], !side), side ? "filter" : "laser", side_port(&cl[i], side));
        goto out;
    }
    /* 3. One transmitter per wavelength per step. */
    qsort(cl, n, sizeof *cl, claim_by_wavelength);
    for (size_t i = 1; i < n; i++)
        if (cl[i].step == cl[i - 1].step && cl[i].wavelength == cl[i - 1].wavelength) {
            const oc__star_claim *a = &cl[i - 1], *b = &cl[i];
            rc = a->src != b->src
                     ? oc__fail(why, len, OC_ERESOURCE,
                                "step %llu: wavelength %llu has two transmitters, processors %u "
                                "(to %u) and %u (to %u)",
                                (unsigned long long)(first_step + b->step),
                                (unsigned long long)b->wavelength, a->src, a->dst, b->src, b->dst)
                     : oc__fail(why, len, OC_ERESOURCE,
                                "step %llu: wavelength %llu carries two streams of processor %u "
                                "(to %u and to %u)",
                                (unsigned long long)(first_step + b->step),
                                (unsigned long long)b->wavelength, a->src, a->dst, b->dst);
            goto out;
        }
    /* 4. Retunings, from this file's own filter history, step by step (cl is in step order);
     * the cost figures with them. */
    *steps = *retunes = *messages = 0;
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || cl[i].step != cl[i - 1].step) {
            *messages += most;
            most = 0;
            ++*steps;
        }
        if (cl[i].messages > most) most = cl[i].messages;
        *retunes += cl[i].wavelength != c->filter[(size_t)cl[i].dst * c->k + cl[i].rx_port];
        uint64_t *f = &c->filter[(size_t)cl[i].dst * c->k + cl[i].rx_port];
        uint32_t need = *f != cl[i].wavelength;
        if (need != cl[i].retuned) {
            rc = oc__fail(why, len, OC_ERESOURCE,
                          "step %llu: the filter %u of processor %u %s retuned to wavelength %llu, "
                          "but the assignment says it %s",
                          (unsigned long long)(first_step + cl[i].step), cl[i].rx_port, cl[i].dst,
                          need ? "must be" : "need not be", (unsigned long long)cl[i].wavelength,
                          cl[i].retuned ? "was" : "was not");
            goto out;
        }
        *f = cl[i].wavelength;
    }
    *messages += most;
out:
    free(st);
    free(cl);
    return rc;
}
