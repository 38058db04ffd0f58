/*
 * rhd.c — recursive halving (reduce-scatter) and recursive doubling (all-gather) in radix r: the
 * algorithm the lumorph seed adapts to its photonic rack (section 4: "recursive doubling/halving
 * ... generalize[d] into quadrupling/quartering": radix 2 = Lumorph-2, radix 4 = Lumorph-4;
 * Thakur, Rabenseifner and Gropp's MPICH algorithm in radix 2).
 *
 * Core (N = P = r^k). Write a node x in base r, digits d_{k-1} .. d_0, and give core node x the
 * label range [B[x], B[x+1]) (allreduce: the vector in P chunks, B[x] = x). Halving, levels
 * p = k-1 down to 0, w = r^p: x holds, partially reduced, the range of the w*r nodes that share
 * its digits above p; it cuts it into r parts (part j = the range of the w nodes whose digit p is
 * j) and sends part j, reduce, to x + (j - d_p) w, for every j != d_p. After k levels x holds its
 * own range fully reduced. Doubling is the mirror, levels p = 0 .. k-1: x sends the range of its
 * w-node group (which it holds complete) as a copy to the same r-1 peers. The most significant
 * digit goes first so that every part is one contiguous label range.
 *
 * Other N (MPICH's fold, generalised to radix r): P = r^floor(log_r N); extra node n >= P folds
 * onto core node (n - P) mod P, which takes up to m = ceil((N - P) / P) extras (m = 1 in radix
 * 2). All-reduce: one round in which every extra adds its whole vector into its core node, the
 * core runs halving and doubling, one round in which the core node copies the whole result back.
 * Reduce-scatter: the same first round; the labels are ordered so that core node x's range is its
 * own block followed by its extras' blocks (spec.block_node), and a last round copies each extra
 * its block. All-gather: a first round in which each extra copies its block to its core node, the
 * doubling, a last round in which the core node copies everything to its extras.
 *
 * Cost on the switch (one send and one receive port per node; r-1 transfers per port and level
 * are serialised), a = alpha, c = one chunk's bytes x beta, all-reduce with P chunks:
 *     halving = doubling = k (r-1) a + (P-1) c
 *     fold    = m (a + P c) each way when N > P
 *     rhd     = 2 k (r-1) a + 2 (P-1) c  [+ 2 m (a + P c)]
 * For N = 2^k, radix 2: 2 log2(N) a + 2 (N-1)/N n beta, the textbook figure.
 */
#include "algo/rhd.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const rhd_params[] = {"radix", NULL};

int oc__rhd_plan(oc__plan *p, const char *name, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    uint64_t r;
    int rc = oc__kv_only(params, rhd_params, name, why, len);
    if (rc || (rc = oc__kv_u64(params, "radix", 2, 2, 1024, &r, why, len))) return rc;
    uint32_t P = 1, k = 0;
    while ((uint64_t)P * r <= nodes) {
        P *= (uint32_t)r;
        k++;
    }
    const uint32_t m = (uint32_t)oc__ceil_div(nodes - P, P);
    uint64_t work = 2 * (uint64_t)k * P * (r - 1) + 2 * (uint64_t)(nodes - P);
    if ((rc = oc__plan_work(name, nodes, work, why, len))) return rc;
    const int per_block = coll != OC_ALLREDUCE;
    if ((rc = oc__plan_begin(p, coll, nodes, root, bytes, per_block ? 1 : P, why, len))) return rc;
    oc__rhd *h = calloc(1, sizeof *h);
    if (!h) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    p->state = h;
    h->N = nodes;
    h->P = P;
    h->r = (uint32_t)r;
    h->k = k;
    h->m = m;
    h->B = oc__calloc((size_t)P + 1, sizeof(uint32_t));
    h->label = oc__calloc(nodes, sizeof(uint32_t));
    if (!h->B || !h->label) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (per_block) {
        p->spec.block_node = oc__calloc(nodes, sizeof(uint32_t));
        if (!p->spec.block_node) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        uint32_t at = 0;
        for (uint32_t x = 0; x < P; x++) {
            h->B[x] = at;
            for (uint64_t n = x; n < nodes; n += P) {
                h->label[n] = at;
                p->spec.block_node[at++] = (uint32_t)n;
            }
        }
        h->B[P] = at;
    } else {
        for (uint32_t x = 0; x <= P; x++)
            h->B[x] = x;
    }
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)r);
    if (oc_kv_set(p->used, "radix", b)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

void oc__rhd_release(oc__plan *p) {
    oc__rhd *h = p->state;
    if (h) {
        free(h->B);
        free(h->label);
        free(h);
    }
    p->state = NULL;
}

/* One level: every core node sends, for each j != its digit, labels [B[lo(j)], B[lo(j) + w')) to
 * x + (j - d) w, where the parts are the w-node groups (halving: part j; doubling: its own). */
static int level(const oc__rhd *h, oc__emit *e, uint32_t w, int halving) {
    const uint32_t r = h->r;
    for (uint32_t x = 0; x < h->P; x++) {
        const uint32_t d = (x / w) % r, g = x - x % (w * r);
        for (uint32_t j = 0; j < r; j++) {
            if (j == d) continue;
            const uint32_t y = g + j * w + x % w;
            const uint32_t lo = halving ? g + j * w : x - x % w;
            const uint32_t first = h->B[lo], end = h->B[lo + w];
            if (end == first) continue;
            int rc =
                oc__emit_transfer(e, x, y, halving ? OC_OP_REDUCE : OC_OP_COPY, first, end - first);
            if (rc) return rc;
        }
    }
    return oc__emit_round(e);
}

int oc__rhd_halving(const oc__rhd *h, oc__emit *e) {
    uint32_t w = h->P;
    int rc = 0;
    while (w > 1 && !rc) {
        w /= h->r;
        rc = level(h, e, w, 1);
    }
    return rc;
}

int oc__rhd_doubling(const oc__rhd *h, oc__emit *e) {
    int rc = 0;
    for (uint32_t w = 1; w < h->P && !rc; w *= h->r)
        rc = level(h, e, w, 0);
    return rc;
}

int oc__rhd_fold(const oc__rhd *h, oc__emit *e, int in, oc__op op, uint32_t first, uint32_t count) {
    if (h->N == h->P) return 0;
    for (uint32_t n = h->P; n < h->N; n++) {
        const uint32_t core = (n - h->P) % h->P;
        const uint32_t f = count ? first : h->label[n], c = count ? count : 1;
        int rc = oc__emit_transfer(e, in ? n : core, in ? core : n, op, f, c);
        if (rc) return rc;
    }
    return oc__emit_round(e);
}

int oc__rhd_one_way_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__rhd *h = p->state;
    const int fold = h->N > h->P;
    if (in->lanes) {
        /* The photonic fabric, N = r^k: k rounds of r-1 concurrent circuits, each a new circuit
         * set (other peers every level); the fold's uneven ranges have no closed form here. */
        const double lv = oc__formula_split(in, h->r - 1);
        if (fold)
            return oc__report_note(rep, "no closed form on the fabric for N not a power of the "
                                        "radix: the fold makes the ranges uneven");
        if (lv == 0) return 0;
        const double c = in->step_time - in->step_fixed;
        return oc__formula_circuits(rep, in, h->k, h->k, (double)(h->P - 1) / (h->r - 1) * lv * c);
    }
    if (in->wavelengths > 1) {
        oc__formula_steps(rep, in, (double)h->k + (fold ? 2 : 0));
        return 0;
    }
    const double a = in->step_fixed, c = in->step_time - in->step_fixed, m = h->m;
    const double lv = (double)h->k * (h->r - 1);
    rep->has_formula = 1;
    rep->steps_formula = lv + 2 * m;
    rep->has_time_formula = 1;
    rep->time_formula_s =
        lv * a + (double)(h->P - 1) * (m + 1) * c + (fold ? m * (a + c) + m * (a + h->N * c) : 0);
    return 0;
}
