/*
 * allgather_optree.c — OpTree: k-stage m-ary tree all-gather (optree III.D, Theorems 1-3).
 *
 * The seed: the N nodes form the root of an m-ary tree of depth k. Stage 1 splits them into m
 * contiguous groups; the nodes at the same position i of the m groups form a subset that does a
 * one-stage all-to-all broadcast (long, evenly spaced lightpaths carrying one block). Stage j
 * splits every group again into m subgroups and the nodes at the same position of sibling subgroups
 * exchange everything they hold (m^(j-1) blocks, on m^(j-1) wavelengths) along shorter and shorter
 * segments of the ring. After stage k every node holds every block.
 *
 * Any N, any radices. Stage j uses radix m_j (k stages, m_1 ... m_k >= 2). We lay the tree over
 * V = m_1 * ... * m_k >= N virtual positions: position x has mixed-radix digits (d_1 .. d_k), d_1
 * the most significant, and stage j exchanges among positions that differ only in d_j. Position x
 * lives on node floor(x * N / V), so when V > N a few nodes hold two positions, evenly spread round
 * the ring; a node's own block belongs to the first position it holds and its other position starts
 * empty (the "uneven groups" of the seed, without losing any block). Transfers between two
 * positions on the same node are local and not sent, and a position sends its range once to a
 * node that holds two of its partners.
 *
 * Labels. After stage j a position holds the blocks of all positions that agree with it on digits
 * j+1..k. Numbering blocks by the digit-reversed position (d_k most significant) makes that set one
 * contiguous label range, so every transfer is one range and verification and mapping stay linear
 * in the transfers. block_node[] records which node each label's block comes from.
 *
 * Choosing the radices: with `radices=4x4x4` or `k=K` the user decides; otherwise every depth k
 * from 1 to ceil(log2 N) offers balanced radices (exact factorisations of N where they exist, and
 * near-equal radices whose product just covers N, in both orders), screened by a load estimate;
 * the pipeline maps the best few on the network and keeps the one with the fewest steps.
 *   Theorem 1: S = ceil((2k-1) N^(1+1/k) / 8w);   Theorem 2: k* = ceil((ln N + sqrt(ln N (ln N -
 * 2)))/2)
 */
#include "algo/algos.h"
#include "algo/radix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct optree {
    oc__radices r; /* stage radices, stage 1 (the most significant digit) first */
    uint64_t V;
    uint32_t *rev;   /* digit-reversed value of every position */
    uint32_t *below; /* below[r]: block-bearing positions with reversed value < r (V+1 entries) */
} optree;

static const char *const optree_params[] = {"radices", "k", NULL};

/* Physical node of virtual position x. */
static inline uint32_t host(const optree *t, uint32_t N, uint64_t x) {
    return (uint32_t)(x * N / t->V);
}

/* 1 if position x is the first position of its node (it carries that node's block). */
static inline int bears_block(const optree *t, uint32_t N, uint64_t x) {
    return x == 0 || host(t, N, x - 1) != host(t, N, x);
}

/* 1 if node `to` already holds what position x sends in the stage whose group spans `span`
 * positions (span = m_j ... m_k): one of its positions agrees with x on digits j..k, so it holds
 * the same blocks (an uneven group puts two positions on a node; without this check the node
 * would be sent a range it has). */
static int holds_already(const optree *t, uint32_t N, uint32_t to, uint64_t x, uint64_t span) {
    uint64_t first = ((uint64_t)to * t->V + N - 1) / N; /* the first position on node `to` */
    for (uint64_t y = first; y < t->V && host(t, N, y) == to; y++)
        if (y % span == x % span) return 1;
    return 0;
}

static int optree_choose(uint32_t N, const oc_kv *params, optree *t, char *why, size_t len) {
    memset(t, 0, sizeof *t);
    const char *radices;
    int rc = oc__radices_args(params, N, &radices, why, len);
    if (rc) return rc;
    if (N == 1) { /* nothing to gather: zero stages */
        t->r.k = 0;
        t->V = 1;
        return 0;
    }
    if (radices) {
        rc = oc__radices_parse(radices, &t->r, why, len);
        if (rc) return rc;
    } else {
        uint64_t k;
        rc = oc__kv_u64(params, "k", 0, 1, oc__radices_max_depth(N), &k, why, len);
        if (rc) return rc;
        if (k == 0)
            return oc__fail(why, len, OC_EINVAL, "internal: optree plan without radices or k");
        if (!oc__radices_exact(N, (uint32_t)k, &t->r) &&
            !oc__radices_balanced(N, (uint32_t)k, &t->r))
            return oc__fail(why, len, OC_EINVAL, "no radices of depth %llu cover %u nodes",
                            (unsigned long long)k, N);
    }
    t->V = oc__radices_product(&t->r);
    if (t->V < N)
        return oc__fail(why, len, OC_EINVAL,
                        "radices=%s cover %llu positions, fewer than the %u nodes",
                        radices ? radices : "?", (unsigned long long)t->V, N);
    if (t->V > 2ull * N && t->V > N + 64ull)
        return oc__fail(why, len, OC_EINVAL,
                        "radices cover %llu positions for %u nodes: more than twice as many",
                        (unsigned long long)t->V, N);
    return 0;
}

static int optree_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    const oc_kv *params = in->params;
    if (oc_kv_get(params, "radices") || N < 2) return 0; /* pinned: nothing to search */
    uint64_t kpin = 0;
    int rc = oc__kv_u64(params, "k", 0, 1, 64, &kpin, why, len);
    if (rc) return rc;
    const uint32_t kmax = oc__radices_max_depth(N);
    char offered[64][256];
    size_t noffered = 0;
    for (uint32_t k = 1; k <= kmax; k++) {
        if (kpin && k != kpin) continue;
        optree opts[4];
        oc__radices shapes[4];
        size_t nopt = oc__radices_options(N, k, 1, shapes);
        for (size_t i = 0; i < nopt; i++) {
            opts[i].r = shapes[i];
            opts[i].V = oc__radices_product(&opts[i].r);
            if (opts[i].V < N || (opts[i].V > 2ull * N && opts[i].V > N + 64ull)) continue;
            char text[256];
            oc__radices_format(&opts[i].r, text, sizeof text);
            int dup = 0;
            for (size_t c = 0; c < noffered; c++)
                if (strcmp(offered[c], text) == 0) dup = 1;
            if (dup) continue;
            if (noffered < 64) snprintf(offered[noffered++], sizeof offered[0], "%s", text);
            const char *kv[] = {"radices", text};
            const oc__bound none = {0};
            if (oc__search_offer(s, &none, 1, kv))
                return oc__fail(why, len, OC_ENOMEM, "out of memory");
        }
    }
    return 0;
}

static void optree_release(oc__plan *plan) {
    optree *t = plan->state;
    if (!t) return;
    free(t->rev);
    free(t->below);
    free(t);
    plan->state = NULL;
}

static int optree_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                       uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__radices_need(params, optree_params, nodes, why, len);
    if (rc) return rc;
    optree *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    rc = optree_choose(nodes, params, t, why, len);
    if (rc) {
        free(t);
        return rc;
    }
    rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
    plan->state = t;
    if (rc) return rc;
    const uint32_t N = nodes;
    const uint64_t V = t->V;
    t->rev = oc__malloc_array((size_t)V, sizeof(uint32_t));
    t->below = oc__calloc((size_t)V + 1, sizeof(uint32_t));
    plan->spec.block_node = oc__malloc_array(N, sizeof(uint32_t));
    if (!t->rev || !t->below || !plan->spec.block_node)
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    /* Reversed digits: R_1 = 1, R_j = m_1 ... m_(j-1); W_j = m_(j+1) ... m_k. */
    for (uint64_t x = 0; x < V; x++) {
        uint64_t rest = x, r = 0, R = 1, W = V;
        for (uint32_t j = 0; j < t->r.k; j++) {
            W /= t->r.m[j];
            uint64_t d = rest / W;
            rest %= W;
            r += d * R;
            R *= t->r.m[j];
        }
        t->rev[x] = (uint32_t)r;
        if (bears_block(t, N, x)) t->below[r + 1] = 1;
    }
    for (uint64_t r = 0; r < V; r++)
        t->below[r + 1] += t->below[r];
    for (uint64_t x = 0; x < V; x++)
        if (bears_block(t, N, x)) plan->spec.block_node[t->below[t->rev[x]]] = host(t, N, x);
    return oc__radices_record(plan->used, &t->r, N, why, len);
}

static int optree_generate(const oc__plan *plan, oc__emit *e) {
    const optree *t = plan->state;
    const uint32_t N = plan->spec.nodes;
    uint64_t W = t->V, R = 1;
    for (uint32_t j = 0; j < t->r.k; j++) {
        const uint32_t m = t->r.m[j];
        W /= m;
        for (uint64_t x = 0; x < t->V; x++) {
            /* What position x holds now: reversed values [base, base + R). */
            uint64_t base = t->rev[x] - t->rev[x] % R;
            uint32_t lo = t->below[base], hi = t->below[base + R];
            if (lo == hi) continue;
            uint32_t from = host(t, N, x);
            uint64_t d = (x / W) % m;
            uint32_t last_to = UINT32_MAX;
            for (uint64_t c = 0; c < m; c++) {
                if (c == d) continue;
                uint64_t peer = x + (c - d) * W; /* unsigned wrap is exact here */
                uint32_t to = host(t, N, peer);
                /* Both positions on one node: nothing to send. Two partners on one node (they
                 * come one after the other, hosts grow with c): the node needs the range once. */
                if (to == from || to == last_to || holds_already(t, N, to, x, W * m)) continue;
                last_to = to;
                int rc = oc__emit_transfer(e, from, to, OC_OP_COPY, lo, hi - lo);
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
        R *= m;
    }
    return 0;
}

/* Theorem 1 at depth k: ceil((2k-1) N^(1+1/k) / 8w). pow() can land a hair above a whole
 * number the formula reaches exactly (N = 1024, k = 10: 76.00000000001); such values are whole. */
static double theorem1(double N, double k, double w) {
    double x = (2 * k - 1) * pow(N, 1 + 1 / k) / (8 * w), r = round(x);
    return fabs(x - r) <= 1e-9 * (r > 1 ? r : 1) ? r : ceil(x);
}

static int optree_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const optree *t = plan->state;
    const double N = plan->spec.nodes, w = (double)in->channels;
    int rc = 0;
    if (plan->spec.nodes < 2) {
        oc__formula_steps(rep, in, 0);
        return 0;
    }
    double lnN = log(N);
    double kstar = lnN >= 2 ? ceil((lnN + sqrt(lnN * (lnN - 2))) / 2) : 1;
    /* Theorem 1 is stated for k >= 2; at k = 1 it is the one-stage count ceil(N^2/8w). */
    oc__formula_steps(rep, in, theorem1(N, (double)t->r.k, w));
    rc |= oc__report_num(rep, "k", (double)t->r.k);
    rc |= oc__report_num(rep, "virtual_positions", (double)t->V);
    rc |= oc__report_num(rep, "kstar_theorem2", kstar);
    rc |= oc__report_num(rep, "steps_theorem1_at_kstar", theorem1(N, kstar, w));
    rc |= oc__report_num(rep, "time_theorem3_at_kstar_s", theorem1(N, kstar, w) * in->step_time);
    if (rep->steps != (uint64_t)rep->steps_formula) {
        double m_paper = pow(N, 1.0 / t->r.k);
        int uniform = 1;
        for (uint32_t j = 1; j < t->r.k; j++)
            uniform &= t->r.m[j] == t->r.m[0];
        if (t->V > plan->spec.nodes)
            rc |= oc__report_note(rep,
                                  "uneven groups: %llu tree positions on %u nodes, so %llu nodes "
                                  "carry two positions and send twice in some stages",
                                  (unsigned long long)t->V, plan->spec.nodes,
                                  (unsigned long long)(t->V - plan->spec.nodes));
        if (!uniform || fabs(m_paper - round(m_paper)) > 1e-9)
            rc |= oc__report_note(rep,
                                  "rounding: Theorem 1 uses m = N^(1/k) = %.3f, a real number; "
                                  "the tree needs whole radices",
                                  m_paper);
        rc |= oc__report_note(rep,
                              "link load: Theorem 1 charges stage 1 ceil(m^2/8) and later stages "
                              "floor(m^2/4) wavelengths per subset and rounds once over all "
                              "stages; we map every stage on its own onto the heaviest link "
                              "(%llu steps, load bound %llu)",
                              (unsigned long long)rep->steps, (unsigned long long)rep->steps_lb);
    }
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_allgather_optree = {
    .info = {"optree", OC_ALLGATHER, "ring",
             "OpTree: k-stage m-ary tree, all-to-all among tree siblings in every stage", "",
             "ceil((2k-1) N^(1+1/k) / 8w) steps (Theorem 1), k* of Theorem 2",
             "radices=AxBx...: stage radices (stage 1 first); k=K: depth with balanced radices; "
             "unset: chosen by mapped time"},
    .param_names = optree_params,
    .plan = optree_plan,
    .generate = optree_generate,
    .release = optree_release,
    .search = optree_search,
    .formula = optree_formula,
};
