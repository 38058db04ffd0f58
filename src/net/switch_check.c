/*
 * switch_check.c — the ideal switch's check, independent of the port accounting in switch.c.
 *
 * Nothing is ever refused on the ideal switch (lumorph section 4: "no queuing delays"); what can go
 * wrong is the bookkeeping of the port rule — a transfer missed on its sender's or receiver's port,
 * a busiest port that is not the busiest, a round split into the wrong number of steps. The check
 * takes the round's transfers alone, sorts (port, bytes) pairs by port instead of indexing arrays
 * by node as switch.c does, sums every port's run, and proves:
 *   1. every transfer is between two different nodes of the switch;
 *   2. the largest number of transfers on one port (send side or receive side) is the claimed
 *      number of steps of the round;
 *   3. the claimed busiest port exists (some port carries exactly the claimed transfers and bytes)
 *      and no port takes longer, at msgs x alpha + bytes x beta.
 * O(T log T) per round of T transfers; the scratch array is reused.
 */
#include "net/switch.h"

#include <stdlib.h>

typedef struct port_load {
    uint64_t port; /* 2 x node (send) or 2 x node + 1 (receive) */
    uint64_t bytes;
} port_load;

struct oc__sw_checker {
    port_load *a;
    size_t cap;
};

int oc__sw_checker_new(oc__sw_checker **out) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : OC_ENOMEM;
}

void oc__sw_checker_free(oc__sw_checker *c) {
    if (!c) return;
    free(c->a);
    free(c);
}

static int by_port(const void *x, const void *y) {
    const port_load *a = x, *b = y;
    return a->port < b->port ? -1 : a->port > b->port;
}

int oc__sw_check(oc__sw_checker *c, uint64_t round, const oc__round *r, uint32_t nodes,
                 uint64_t chunk_bytes, double alpha_s, double beta_s, const oc__sw_claim *claim,
                 char *why, size_t len) {
    const unsigned long long R = (unsigned long long)round;
    if (oc__grow((void **)&c->a, &c->cap, 2 * r->count, sizeof *c->a))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (x->src >= nodes || x->dst >= nodes || x->src == x->dst)
            return oc__fail(why, len, OC_ERESOURCE, "check: round %llu: transfer %u -> %u", R,
                            x->src, x->dst);
        c->a[n++] = (port_load){2 * (uint64_t)x->src, x->count * chunk_bytes};
        c->a[n++] = (port_load){2 * (uint64_t)x->dst + 1, x->count * chunk_bytes};
    }
    qsort(c->a, n, sizeof *c->a, by_port);
    uint64_t degree = 0;
    double worst = 0;
    int found = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t bytes = 0;
        while (j < n && c->a[j].port == c->a[i].port)
            bytes += c->a[j++].bytes;
        const uint64_t msgs = j - i;
        const double t = (double)msgs * alpha_s + (double)bytes * beta_s;
        if (msgs > degree) degree = msgs;
        if (t > worst) worst = t;
        if (msgs == claim->msgs && bytes == claim->bytes) found = 1;
        i = j;
    }
    if (r->count && degree != claim->degree)
        return oc__fail(why, len, OC_ERESOURCE,
                        "check: round %llu: a port carries %llu transfers, the model counted "
                        "%llu steps",
                        R, (unsigned long long)degree, (unsigned long long)claim->degree);
    const double claimed = (double)claim->msgs * alpha_s + (double)claim->bytes * beta_s;
    if (r->count && (!found || claimed < worst))
        return oc__fail(why, len, OC_ERESOURCE,
                        "check: round %llu: the model's busiest port (%llu transfers, %llu bytes) "
                        "is not the busiest",
                        R, (unsigned long long)claim->msgs, (unsigned long long)claim->bytes);
    return 0;
}
