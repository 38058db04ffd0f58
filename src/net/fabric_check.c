/*
 * fabric_check.c — the photonic rack's resource check, independent of the accounting in fabric.c.
 *
 * What can go wrong on the Lumorph rack (seed section 2: a tile has up to 16 wavelength-multiplexed
 * lasers; section 3: circuits to other servers "traverse available fibers") is that a tile is
 * asked to drive more wavelengths than it has, that more circuits leave one server for another
 * than there are fibres between them, or that a circuit has no path (a node outside the rack, a
 * circuit from a tile to itself). fabric.c counts circuits per node in arrays stamped by round;
 * this check takes the round's transfers and the model's claimed wavelengths per circuit and, by
 * sorting instead of indexing:
 *   1. re-derives every circuit's tiles and servers from the node numbers alone (node i is tile
 *      i mod T of server i / T) and proves the path exists;
 *   2. sums the claimed wavelengths per tile and direction and proves none exceeds W, naming the
 *      tile, its server and the round when one does;
 *   2b. counts the circuits per tile and direction and proves none exceeds the MZI degree (the
 *      seed's 1x3 switch: three concurrent circuits, Fig. 1(a)'s all-to-all of four tiles);
 *   3. re-derives the fibre rule: the k circuits of an ordered server pair whose tile shares sum
 *      above C = fibres x W (a fibre carries a tile's W wavelengths) get floor(C / k) each at most
 *      (k <= C) or one each (k > C, run in passes by the model); proves that a pair without fibres
 *      carries nothing and that the claimed wavelengths of a pair never exceed C, or are one
 *      each when k > C;
 *   4. re-derives each circuit's share, min(floor(W / sender's circuits), floor(W / receiver's
 *      circuits)) lowered by the fibre rule, and proves the model claimed exactly that.
 * O(T log T) per round of T transfers; the scratch arrays are reused.
 */
#include "net/fabric.h"

#include <stdlib.h>

typedef struct fab_item {
    uint64_t key; /* 2 x tile (send) or 2 x tile + 1 (receive); or a server pair */
    uint64_t wl;  /* claimed wavelengths */
    size_t xfer;  /* the transfer's index in the round */
} fab_item;

struct oc__fab_checker {
    fab_item *a;
    size_t cap;
    uint64_t *share;
    size_t share_cap;
};

int oc__fab_checker_new(oc__fab_checker **out) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : OC_ENOMEM;
}

void oc__fab_checker_free(oc__fab_checker *c) {
    if (!c) return;
    free(c->a);
    free(c->share);
    free(c);
}

static int by_key(const void *x, const void *y) {
    const fab_item *a = x, *b = y;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* The items a[i..) of one key (a sorted by key): returns the end of the group, its wavelengths
 * summed in *sum. */
static size_t key_group(const fab_item *a, size_t n, size_t i, uint64_t *sum) {
    size_t j = i;
    *sum = 0;
    while (j < n && a[j].key == a[i].key)
        *sum += a[j++].wl;
    return j;
}

int oc__fab_check(oc__fab_checker *c, uint64_t round, const oc__round *r, const oc__fab_shape *s,
                  const uint32_t *wl, char *why, size_t len) {
    const unsigned long long R = (unsigned long long)round;
    const uint64_t T = s->tiles_per_server, W = s->wavelengths;
    const uint64_t servers = T ? ((uint64_t)s->nodes + T - 1) / T : 0;
    if (oc__grow((void **)&c->a, &c->cap, 2 * r->count, sizeof *c->a) ||
        oc__grow((void **)&c->share, &c->share_cap, r->count, sizeof *c->share))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    /* 1. paths, and the items of the per-tile sums */
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (!T || x->src >= s->nodes || x->dst >= s->nodes || x->src == x->dst ||
            x->src / T >= servers || x->dst / T >= servers)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: circuit %u -> %u has no path in the rack", R,
                            x->src, x->dst);
        c->share[i] = W;
        c->a[n++] = (fab_item){2 * (uint64_t)x->src, wl[i], i};
        c->a[n++] = (fab_item){2 * (uint64_t)x->dst + 1, wl[i], i};
    }
    /* 2. wavelengths per tile and direction; the circuit counts give the fair shares */
    qsort(c->a, n, sizeof *c->a, by_key);
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t sum;
        j = key_group(c->a, n, i, &sum);
        const uint64_t tile = c->a[i].key / 2, circuits = j - i;
        if (sum > W)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: tile %llu (server %llu, tile %llu there) %s on "
                            "%llu wavelengths, more than its %llu",
                            R, (unsigned long long)tile, (unsigned long long)(tile / T),
                            (unsigned long long)(tile % T), c->a[i].key % 2 ? "receives" : "sends",
                            (unsigned long long)sum, (unsigned long long)W);
        if (s->mzi_degree && circuits > s->mzi_degree)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: tile %llu %s on %llu circuits, more than its 1x%u "
                            "MZI switch holds",
                            R, (unsigned long long)tile, c->a[i].key % 2 ? "receives" : "sends",
                            (unsigned long long)circuits, s->mzi_degree);
        for (size_t k = i; k < j; k++)
            if (W / circuits < c->share[c->a[k].xfer]) c->share[c->a[k].xfer] = W / circuits;
    }
    /* 3. the fibre rule per ordered pair of servers, on the tile shares */
    n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const uint64_t a = r->xfers[i].src / T, b = r->xfers[i].dst / T;
        if (a != b) c->a[n++] = (fab_item){a * servers + b, c->share[i], i};
    }
    qsort(c->a, n, sizeof *c->a, by_key);
    const uint64_t C = s->fibres * W;
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t sum, claimed = 0;
        j = key_group(c->a, n, i, &sum);
        const uint64_t k = j - i;
        for (size_t q = i; q < j; q++)
            claimed += wl[c->a[q].xfer];
        if (C == 0)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: circuits from server %llu to server %llu, which "
                            "have no fibres",
                            R, (unsigned long long)(c->a[i].key / servers),
                            (unsigned long long)(c->a[i].key % servers));
        if (sum > C)
            for (size_t q = i; q < j; q++) {
                const uint64_t share = k <= C ? C / k : 1;
                if (c->share[c->a[q].xfer] > share) c->share[c->a[q].xfer] = share;
            }
        if (k <= C ? claimed > C : claimed != k)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: %llu wavelengths from server %llu to server %llu, "
                            "more than its %llu fibres carry",
                            R, (unsigned long long)claimed,
                            (unsigned long long)(c->a[i].key / servers),
                            (unsigned long long)(c->a[i].key % servers),
                            (unsigned long long)s->fibres);
    }
    /* 4. the claimed share is the rule's */
    for (size_t i = 0; i < r->count; i++)
        if (c->share[i] == 0 || wl[i] != c->share[i])
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: circuit %u -> %u gets %u wavelengths, the rule "
                            "gives %llu",
                            R, r->xfers[i].src, r->xfers[i].dst, wl[i],
                            (unsigned long long)c->share[i]);
    return 0;
}
