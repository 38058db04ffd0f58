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
 * The sort is a least-significant-digit radix sort on the port (11 bits a pass; ports are below
 * 2N <= 2^18, two passes), so a round of T transfers costs O(T), not O(T log T): ring all-reduce
 * on 4096 nodes spent half its run in qsort here. Small rounds still use qsort.
 * The scratch arrays are reused.
 */
#include "net/switch.h"

#include <stdlib.h>

typedef struct port_load {
    uint64_t port; /* 2 x node (send) or 2 x node + 1 (receive) */
    uint64_t bytes;
} port_load;

struct oc__sw_checker {
    port_load *a, *tmp;
    size_t cap, tmp_cap;
};

int oc__sw_checker_new(oc__sw_checker **out) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : OC_ENOMEM;
}

void oc__sw_checker_free(oc__sw_checker *c) {
    if (!c) return;
    free(c->a);
    free(c->tmp);
    free(c);
}

static int by_port(const void *x, const void *y) {
    const port_load *a = x, *b = y;
    return a->port < b->port ? -1 : a->port > b->port;
}

/* Sorts a[0..n) by port, stably, 11 bits a pass (ports below 2^(11 x passes) = 2^22). */
static int sort_ports(oc__sw_checker *c, size_t n, uint64_t max_port) {
    if (n < 256) {
        qsort(c->a, n, sizeof *c->a, by_port);
        return 0;
    }
    if (oc__grow((void **)&c->tmp, &c->tmp_cap, n, sizeof *c->tmp)) return OC_ENOMEM;
    port_load *from = c->a, *to = c->tmp;
    for (unsigned shift = 0; shift == 0 || (max_port >> shift); shift += 11) {
        size_t count[2048] = {0};
        for (size_t i = 0; i < n; i++)
            count[(from[i].port >> shift) & 2047]++;
        size_t sum = 0;
        for (size_t d = 0; d < 2048; d++) {
            const size_t k = count[d];
            count[d] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++)
            to[count[(from[i].port >> shift) & 2047]++] = from[i];
        port_load *t = from;
        from = to;
        to = t;
    }
    if (from != c->a) { /* an odd number of passes: the result is in tmp; swap the buffers */
        port_load *t = c->a;
        size_t cap = c->cap;
        c->a = c->tmp;
        c->cap = c->tmp_cap;
        c->tmp = t;
        c->tmp_cap = cap;
    }
    return 0;
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
    if (sort_ports(c, n, 2 * (uint64_t)nodes))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
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
