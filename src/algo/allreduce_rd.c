/*
 * allreduce_rd.c — recursive-doubling all-reduce (the E-RD baseline of wrht IV.C; Thakur,
 * Rabenseifner and Gropp's MPICH algorithm).
 *
 * N = 2^k: in round i every node exchanges its whole partial vector with node XOR 2^i and both add
 * what they receive; after k rounds every node has the sum. Other N (MPICH's method): with
 * p = 2^floor(log2 N) and r = N - p, the first 2r nodes pair up and the even one of each pair adds
 * its vector into the odd one and waits; the p remaining nodes (the odd ones of the pairs and nodes
 * 2r..N-1) run recursive doubling; finally every odd node of a pair copies the result to its even
 * partner. Cost of the extra nodes: two more rounds.
 *   steps = log2 N (N a power of two), floor(log2 N) + 2 otherwise
 */
#include "algo/algos.h"

#include <stdlib.h>

static const char *const no_params[] = {NULL};

static uint32_t pow2_floor(uint32_t N) {
    uint32_t p = 1;
    while ((uint64_t)p * 2 <= N)
        p *= 2;
    return p;
}

/* The transfers, counted before anything is made (generate below): r folds, r unfolds and P a
 * round in the core's log2 P rounds, 2r + P log2 P (none for N < 2). At most 2^37 on 2^32 nodes. */
static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    const uint32_t P = nodes ? pow2_floor(nodes) : 0;
    uint64_t work = 0;
    for (uint32_t bit = 1; nodes > 1 && bit < P; bit *= 2)
        work += P;
    if (nodes > 1) work += 2 * (uint64_t)(nodes - P);
    int rc = oc__plan_work("rd", nodes, work, why, len);
    if (!rc) rc = oc__plan_plain(p, "rd", coll, nodes, root, bytes, 1, params, why, len);
    if (!rc) p->spec.units = p->spec.transfers = work; /* work: the whole vector, one chunk */
    return rc;
}

/* The node that plays new rank x in the power-of-two core. */
static uint32_t core_node(uint32_t x, uint32_t r) {
    return x < r ? 2 * x + 1 : x + r;
}

static int generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes, P = pow2_floor(N), r = N - P;
    int rc = 0;
    if (N < 2) return 0;
    if (r) {
        for (uint32_t i = 0; i < r && !rc; i++)
            rc = oc__emit_transfer(e, 2 * i, 2 * i + 1, OC_OP_REDUCE, 0, 1);
        if (!rc) rc = oc__emit_round(e);
    }
    for (uint32_t bit = 1; bit < P && !rc; bit *= 2) {
        for (uint32_t x = 0; x < P && !rc; x++)
            rc = oc__emit_transfer(e, core_node(x, r), core_node(x ^ bit, r), OC_OP_REDUCE, 0, 1);
        if (!rc) rc = oc__emit_round(e);
    }
    if (r && !rc) {
        for (uint32_t i = 0; i < r && !rc; i++)
            rc = oc__emit_transfer(e, 2 * i + 1, 2 * i, OC_OP_COPY, 0, 1);
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

/* Why the ring needs more steps than rounds: a round's lightpaths cover H link-hops of the 2N
 * directed links, so its busiest link carries at least ceil(H / 2N) of them; the rounds where that
 * exceeds the C channels, and the steps these averages alone prove. */
static uint64_t ring_detail(uint32_t N, uint64_t C, char *buf, size_t len) {
    const uint32_t P = pow2_floor(N), r = N - P;
    uint64_t proven = r ? 2 : 0; /* the fold rounds: neighbours, one step each */
    size_t at = (size_t)snprintf(buf, len,
                                 "rounds whose link-hops over the 2N links prove more than one "
                                 "step (XOR partner: link-hops / lightpaths on some link / steps):");
    const size_t head = at;
    for (uint32_t bit = 1; bit < P; bit *= 2) {
        uint64_t H = 0;
        for (uint32_t x = 0; x < P; x++) {
            const uint32_t a = core_node(x, r), b = core_node(x ^ bit, r);
            const uint32_t d = a > b ? a - b : b - a;
            H += d < N - d ? d : N - d;
        }
        const uint64_t avg = (H + 2 * (uint64_t)N - 1) / (2 * (uint64_t)N), s = (avg + C - 1) / C;
        proven += s ? s : 1;
        if (s > 1 && at < len)
            at += (size_t)snprintf(buf + at, len - at, "%s %u: %llu/%llu/%llu", at > head ? "," : "",
                                   bit, (unsigned long long)H, (unsigned long long)avg,
                                   (unsigned long long)s);
    }
    if (at == head) buf[0] = 0; /* no round proves more than one step from its average */
    else if (at < len)
        snprintf(buf + at, len - at, "; so at least %llu steps in all", (unsigned long long)proven);
    return proven;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const uint32_t N = p->spec.nodes, P = pow2_floor(N);
    uint32_t k = 0;
    while ((UINT32_C(1) << k) < P)
        k++;
    oc__formula_steps(rep, in, N < 2 ? 0 : (double)k + (P == N ? 0 : 2));
    char detail[768] = "";
    uint64_t proven = 0;
    if (N > 1 && in->channels) proven = ring_detail(N, in->channels, detail, sizeof detail);
    return oc__note_rounds_on_ring(rep, in, detail, proven);
}

const oc__algo oc__algo_allreduce_rd = {
    .info = {"rd", OC_ALLREDUCE, "ring,fattree,switch",
             "recursive doubling: whole-vector exchanges with node XOR 2^i (MPICH's fix-up for "
             "other N)",
             "", "log2 N steps (+2 when N is not a power of two)", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
