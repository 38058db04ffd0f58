/*
 * switch_check.c — the ideal switch's check, independent of the port accounting in switch.c.
 *
 * Nothing is ever refused on the ideal switch (lumorph section 4: "no queuing delays"); what can go
 * wrong is the bookkeeping of the port rule — a transfer missed on its sender's or receiver's port,
 * a busiest port that is not the busiest, a round split into the wrong number of steps. The check
 * takes the round's transfers alone, sorts (port, chunks) pairs by port instead of indexing arrays
 * by node as switch.c does, sums every port's run, and proves:
 *   1. every transfer is between two different nodes of the switch;
 *   2. the largest number of transfers on one port (send side or receive side) is the claimed
 *      number of steps of the round;
 *   3. the claimed busiest port exists (some port carries exactly the claimed transfers and bytes)
 *      and no port takes longer, at msgs x alpha + bytes x beta.
 * The sort is a least-significant-digit radix sort on the port, so a round of T transfers costs
 * O(T), not O(T log T) (ring all-reduce on 4096 nodes spent half its run in qsort here): one
 * counting pass over all 2N ports when they are at most four times the round's 2T entries (a
 * round where every node sends once: ring, rhd), else two passes of half the port's bits (ports
 * are below 2N <= 2^18: at most 512 buckets a pass). An entry is 8 bytes (port, chunks); the
 * bytes are chunks x chunk_bytes, summed per port. Small rounds still use qsort.
 * The scratch arrays are reused.
 */
#include "net/switch.h"

#include <stdlib.h>
#include <string.h>

typedef struct port_load {
    uint32_t port;   /* 2 x node (send) or 2 x node + 1 (receive) */
    uint32_t chunks; /* the transfer's chunks (bytes = chunks x chunk_bytes) */
} port_load;

struct oc__sw_checker {
    port_load *a, *tmp;
    size_t cap, tmp_cap;
    uint32_t *count; /* a counting pass's buckets */
    size_t count_cap;
};

int oc__sw_checker_new(oc__sw_checker **out) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : OC_ENOMEM;
}

void oc__sw_checker_free(oc__sw_checker *c) {
    if (!c) return;
    free(c->a);
    free(c->tmp);
    free(c->count);
    free(c);
}

static int by_port(const void *x, const void *y) {
    const port_load *a = x, *b = y;
    return a->port < b->port ? -1 : a->port > b->port;
}

/* One stable counting pass of from[0..n) into to[] on the digit (port >> shift) & (buckets - 1). */
static void count_pass(uint32_t *count, size_t buckets, const port_load *from, port_load *to,
                       size_t n, unsigned shift) {
    const uint32_t mask = (uint32_t)buckets - 1;
    memset(count, 0, buckets * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[(from[i].port >> shift) & mask]++;
    uint32_t sum = 0;
    for (size_t d = 0; d < buckets; d++) {
        const uint32_t k = count[d];
        count[d] = sum;
        sum += k;
    }
    for (size_t i = 0; i < n; i++)
        to[count[(from[i].port >> shift) & mask]++] = from[i];
}

/* The bits of a port (ports below 2^bits), and those of the radix sort's digit: all of them (one
 * counting pass) when the 2^bits buckets are at most four times the n entries, else half. */
static unsigned port_bits(size_t n, uint64_t ports, unsigned *digit) {
    unsigned bits = 1;
    while ((UINT64_C(1) << bits) < ports)
        bits++;
    *digit = (UINT64_C(1) << bits) <= 4 * (uint64_t)n ? bits : (bits + 1) / 2;
    return bits;
}

/* Sorts a[0..n) by port (all below `ports`): qsort for small rounds, else the radix passes. */
static int sort_ports(oc__sw_checker *c, size_t n, uint64_t ports) {
    if (n < 256) {
        qsort(c->a, n, sizeof *c->a, by_port);
        return 0;
    }
    unsigned digit;
    const unsigned bits = port_bits(n, ports, &digit);
    if (oc__grow((void **)&c->tmp, &c->tmp_cap, n, sizeof *c->tmp) ||
        oc__grow((void **)&c->count, &c->count_cap, (size_t)1 << digit, sizeof *c->count))
        return OC_ENOMEM;
    port_load *from = c->a, *to = c->tmp;
    for (unsigned shift = 0; shift < bits; shift += digit) {
        count_pass(c->count, (size_t)1 << digit, from, to, n, shift);
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

/* The round's (port, chunks) entries, two a transfer, sorted by port into c->a. When one counting
 * pass does, the entries are counted and placed straight from the transfers (no unsorted copy);
 * else they are listed, then sorted. 0, OC_ENOMEM, or OC_ERESOURCE with the first transfer that is
 * not between two different nodes. */
static int sorted_entries(oc__sw_checker *c, const oc__round *r, uint32_t nodes, size_t *out,
                          char *why, size_t len, unsigned long long R) {
    const size_t n = 2 * r->count;
    const uint64_t ports = 2 * (uint64_t)nodes;
    unsigned digit;
    const unsigned bits = port_bits(n, ports, &digit);
    const int direct = n >= 256 && digit == bits;
    if (oc__grow((void **)&c->a, &c->cap, n, sizeof *c->a) ||
        (direct && oc__grow((void **)&c->count, &c->count_cap, (size_t)1 << bits, sizeof *c->count)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    if (direct) memset(c->count, 0, ((size_t)1 << bits) * sizeof *c->count);
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (x->src >= nodes || x->dst >= nodes || x->src == x->dst)
            return oc__fail(why, len, OC_ERESOURCE, "check: round %llu: transfer %u -> %u", R,
                            x->src, x->dst);
        if (direct) {
            c->count[2 * x->src]++;
            c->count[2 * x->dst + 1]++;
        } else {
            c->a[2 * i] = (port_load){2 * x->src, x->count};
            c->a[2 * i + 1] = (port_load){2 * x->dst + 1, x->count};
        }
    }
    *out = n;
    if (!direct) {
        return sort_ports(c, n, ports)
                   ? oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R)
                   : 0;
    }
    uint32_t sum = 0;
    for (size_t d = 0; d < ((size_t)1 << bits); d++) {
        const uint32_t k = c->count[d];
        c->count[d] = sum;
        sum += k;
    }
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        c->a[c->count[2 * x->src]++] = (port_load){2 * x->src, x->count};
        c->a[c->count[2 * x->dst + 1]++] = (port_load){2 * x->dst + 1, x->count};
    }
    return 0;
}

/* A family: node k sends width chunks to node (k + hop) mod n for every k in [0, n). With n the
 * switch's nodes and hop in [1, n), the senders are every node once and the receivers too (k ->
 * k + hop mod n is a bijection of the nodes, and never k itself), so every send port and every
 * receive port carries exactly one transfer of width x chunk_bytes bytes: the degree is 1 and
 * every port is a busiest one. A claim of exactly that is proven; anything else is left to the
 * full check on the transfers. */
int oc__sw_check_family(uint64_t round, const oc__family *f, uint32_t nodes, uint64_t chunk_bytes,
                        const oc__sw_claim *claim, int *decided) {
    (void)round;
    *decided = 0;
    if (f->n != nodes || nodes < 2 || f->hop == 0 || f->hop >= nodes || f->width == 0) return 0;
    if (chunk_bytes && f->width > UINT64_MAX / chunk_bytes) return 0;
    const uint64_t bytes = (uint64_t)f->width * chunk_bytes;
    *decided = claim->degree == 1 && claim->msgs == 1 && claim->bytes == bytes;
    return 0;
}

int oc__sw_check(oc__sw_checker *c, uint64_t round, const oc__round *r, uint32_t nodes,
                 uint64_t chunk_bytes, double alpha_s, double beta_s, const oc__sw_claim *claim,
                 char *why, size_t len) {
    const unsigned long long R = (unsigned long long)round;
    size_t n = 0;
    int rc = sorted_entries(c, r, nodes, &n, why, len, R);
    if (rc) return rc;
    uint64_t degree = 0, worst_msgs = 0, worst_bytes = 0;
    double worst = 0;
    int found = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t chunks = 0;
        while (j < n && c->a[j].port == c->a[i].port)
            chunks += c->a[j++].chunks;
        const uint64_t msgs = j - i, bytes = chunks * chunk_bytes;
        if (msgs > degree) degree = msgs;
        /* a port with no more transfers and bytes than the worst so far cannot take longer
         * (alpha, beta >= 0, and rounding is monotone): its time is not computed */
        if (msgs > worst_msgs || bytes > worst_bytes) {
            const double t = (double)msgs * alpha_s + (double)bytes * beta_s;
            if (t > worst) {
                worst = t;
                worst_msgs = msgs;
                worst_bytes = bytes;
            }
        }
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
