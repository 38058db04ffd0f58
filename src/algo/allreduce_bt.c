/*
 * allreduce_bt.c — binary-tree all-reduce as the WRHT seed draws it (wrht III.B, Fig. 2a).
 *
 * Reduce stage, step i = 1 .. ceil(log2 N): the nodes form groups of 2^i consecutive nodes and the
 * node at offset 2^(i-1) of each group sends its partial sum (the whole vector) to the group's
 * first node. Broadcast stage: the same transfers in reverse order, copying the result down. One
 * transfer per pair and one wavelength each, so it never uses the ring's parallel wavelengths.
 *   steps = 2 ceil(log2 N)  (Table I prints "2 ceil(log2 N) or 2(ceil(log2 N) + 1)")
 */
#include "algo/algos.h"

static const char *const no_params[] = {NULL};

static uint32_t levels(uint32_t N) {
    uint32_t L = 0;
    while ((UINT64_C(1) << L) < N)
        L++;
    return L;
}

/* The transfers, counted before anything is made (generate below): every node x but node 0 sends
 * its partial sum once on the way up (at level 1 + ctz(x), at most L since x < N <= 2^L) and
 * receives the result once on the way down, 2(N - 1) in all. */
static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_work("bt", nodes, nodes ? 2 * ((uint64_t)nodes - 1) : 0, why, len);
    if (!rc) rc = oc__plan_plain(p, "bt", coll, nodes, root, bytes, 1, params, why, len);
    if (!rc) p->spec.units = p->spec.transfers = 2 * ((uint64_t)nodes - 1); /* work: one chunk */
    return rc;
}

static int generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes, L = levels(N);
    int rc = 0;
    for (uint32_t i = 1; i <= L && !rc; i++) {
        uint64_t group = UINT64_C(1) << i, half = group / 2;
        for (uint64_t g = 0; g < N && !rc; g += group)
            if (g + half < N)
                rc = oc__emit_transfer(e, (uint32_t)(g + half), (uint32_t)g, OC_OP_REDUCE, 0, 1);
        if (!rc) rc = oc__emit_round(e);
    }
    for (uint32_t i = L; i >= 1 && !rc; i--) {
        uint64_t group = UINT64_C(1) << i, half = group / 2;
        for (uint64_t g = 0; g < N && !rc; g += group)
            if (g + half < N)
                rc = oc__emit_transfer(e, (uint32_t)g, (uint32_t)(g + half), OC_OP_COPY, 0, 1);
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__formula_steps(rep, in, 2.0 * levels(p->spec.nodes));
    return 0;
}

const oc__algo oc__algo_allreduce_bt = {
    .info = {"bt", OC_ALLREDUCE, "ring,fattree,switch",
             "binary tree (wrht Fig. 2a): pairwise reduce up, broadcast down, whole vector", "",
             "2 ceil(log2 N) steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
