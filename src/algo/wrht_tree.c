/*
 * wrht_tree.c — the hierarchy of WRHT (wrht III.C.1, Fig. 3), shared by WRHT all-reduce and the
 * WRHT all-gather of optree III.D.2.
 *
 * Level 0 is every node in ring order. At each level the current representatives are cut into
 * groups of m consecutive ones (the last group may be smaller) and the middle member of each group
 * (index (size-1)/2; rep=first or rep=last: the group's first or last member, our alternatives to
 * the seed's choice) becomes a representative of the next level. This stops when one
 * representative is left, or when at most `alltoall` remain: those then finish with one
 * all-to-all among themselves (the dotted box of Fig. 3). Every group spans a contiguous stretch of
 * the ring, so everything below a representative is a contiguous range of nodes.
 */
#include "algo/wrht_tree.h"
#include "algo/algos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void wrht_free(oc__wrht_tree *t) {
    for (uint32_t l = 0; l <= t->levels && l < OC_WRHT_MAX_LEVELS; l++) {
        free(t->reps[l]);
        free(t->lo[l]);
        free(t->hi[l]);
    }
    memset(t, 0, sizeof *t);
}

/* Groups until one representative is left or at most `alltoall` remain (then count[levels] > 1
 * representatives finish with an all-to-all). */
static int wrht_build(uint32_t N, uint32_t m, uint32_t alltoall, int rep, oc__wrht_tree *t) {
    memset(t, 0, sizeof *t);
    if (m < 2 || N < 1) return OC_EINVAL;
    t->m = m;
    t->rep = rep;
    t->count[0] = N;
    t->reps[0] = malloc(N * sizeof(uint32_t));
    t->lo[0] = malloc(N * sizeof(uint32_t));
    t->hi[0] = malloc(N * sizeof(uint32_t));
    if (!t->reps[0] || !t->lo[0] || !t->hi[0]) goto nomem;
    for (uint32_t i = 0; i < N; i++) {
        t->reps[0][i] = i;
        t->lo[0][i] = i;
        t->hi[0][i] = i + 1;
    }
    uint32_t l = 0;
    while (t->count[l] > 1 && t->count[l] > alltoall) {
        if (l + 1 >= OC_WRHT_MAX_LEVELS) return OC_ERANGE;
        uint32_t r = t->count[l], groups = (r + m - 1) / m;
        t->reps[l + 1] = malloc(groups * sizeof(uint32_t));
        t->lo[l + 1] = malloc(groups * sizeof(uint32_t));
        t->hi[l + 1] = malloc(groups * sizeof(uint32_t));
        t->count[l + 1] = groups;
        t->levels = l + 1;
        if (!t->reps[l + 1] || !t->lo[l + 1] || !t->hi[l + 1]) goto nomem;
        for (uint32_t a = 0; a < groups; a++) {
            uint32_t first = a * m, size = r - first < m ? r - first : m;
            t->reps[l + 1][a] = t->reps[l][first + oc__wrht_rep_index(size, rep)];
            t->lo[l + 1][a] = t->lo[l][first];
            t->hi[l + 1][a] = t->hi[l][first + size - 1];
        }
        l++;
    }
    t->levels = l;
    return 0;
nomem:
    wrht_free(t);
    return OC_ENOMEM;
}

static const char *const wrht_params[] = {"m", "alltoall", "rep", NULL};
static const char *const wrht_striped_params[] = {"m", "alltoall", "pieces", "rep", NULL};
const char *const oc__wrht_rep_names[OC_WRHT_REPS] = {"middle", "first", "last"};

int oc__wrht_pins(uint32_t nodes, const oc_kv *params, int striped, uint64_t *m, uint64_t *a2a,
                  uint64_t *pieces, int *rep, char *why, size_t len) {
    int rc = oc__kv_only(params, striped ? wrht_striped_params : wrht_params, "wrht", why, len);
    if (!rc) rc = oc__kv_u64(params, "m", 0, 2, nodes > 2 ? nodes : 2, m, why, len);
    if (!rc) rc = oc__kv_u64(params, "alltoall", 0, 1, nodes, a2a, why, len);
    if (!rc) rc = oc__kv_u64(params, "pieces", 0, 1, 1u << 16, pieces, why, len);
    *rep = -1;
    const char *r = oc_kv_get(params, "rep");
    if (!rc && r) {
        for (int i = 0; i < OC_WRHT_REPS; i++)
            if (!strcmp(r, oc__wrht_rep_names[i])) *rep = i;
        if (*rep < 0)
            rc = oc__fail(why, len, OC_EINVAL, "wrht: rep=%s: expected middle, first or last", r);
    }
    return rc;
}

/* Plans the tree from params m=, alltoall= (and pieces= when striped); m is required (the
 * pipeline's search fills it). */
static int wrht_plan_tree(uint32_t nodes, const oc_kv *params, int striped, oc_kv *used,
                          oc__wrht_tree *t, char *why, size_t len) {
    memset(t, 0, sizeof *t);
    uint64_t m, a2a, pieces;
    int rep;
    int rc = oc__wrht_pins(nodes, params, striped, &m, &a2a, &pieces, &rep, why, len);
    if (rc) return rc;
    if (rep < 0) rep = OC_WRHT_REP_MIDDLE;
    if (nodes > 1 && !m)
        return oc__fail(why, len, OC_EINVAL,
                        "wrht needs m= (the pipeline chooses it when a network is given)");
    if (!m) m = 2;
    if (!a2a) a2a = 1;
    if (!pieces) pieces = 1;
    rc = wrht_build(nodes, (uint32_t)m, (uint32_t)a2a, rep, t);
    t->pieces = (uint32_t)pieces;
    if (rc)
        return oc__fail(why, len, rc, "wrht: cannot build the tree for m=%llu",
                        (unsigned long long)m);
    uint32_t top = t->count[t->levels];
    if (top > 1 && (uint64_t)top * (top - 1) > OC_WRHT_A2A_MAX_TRANSFERS) {
        wrht_free(t);
        return oc__fail(why, len, OC_ETOOBIG,
                        "wrht: alltoall=%llu leaves %u representatives for the final all-to-all, "
                        "more than the %u it may have; pin alltoall=1..%u%s",
                        (unsigned long long)a2a, top, OC_WRHT_A2A_MAX_REPS, OC_WRHT_A2A_MAX_REPS,
                        a2a < nodes ? " or a larger m" : "");
    }
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)m);
    rc = oc_kv_set(used, "m", b);
    snprintf(b, sizeof b, "%llu", (unsigned long long)a2a);
    rc |= oc_kv_set(used, "alltoall", b);
    if (striped) {
        snprintf(b, sizeof b, "%llu", (unsigned long long)pieces);
        rc |= oc_kv_set(used, "pieces", b);
    }
    if (rep != OC_WRHT_REP_MIDDLE) /* the seed's middle is the default, not shown */
        rc |= oc_kv_set(used, "rep", oc__wrht_rep_names[rep]);
    if (rc) {
        wrht_free(t);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

static int plan_common(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root,
                       uint64_t bytes, const oc_kv *params, int striped, char *why, size_t len) {
    oc__wrht_tree *t = calloc(1, sizeof *t);
    oc_kv *used = oc_kv_new();
    int rc = t && used ? wrht_plan_tree(nodes, params, striped, used, t, why, len)
                       : oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (!rc) rc = oc__plan_begin(p, coll, nodes, root, bytes, striped ? t->pieces : 1, why, len);
    for (size_t i = 0; !rc && i < oc_kv_count(used); i++) /* the parameters, in the tree's order */
        if (oc_kv_set(p->used, oc_kv_key(used, i), oc_kv_value(used, i)))
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    oc_kv_free(used);
    if (rc) {
        if (t) wrht_free(t);
        free(t);
        return rc;
    }
    p->state = t;
    /* The work (core.h), from the tree: a member's send up and back down, the all-to-all among
     * the top; the all-reduce's carry the whole vector, the all-gather's down sends are the one
     * or two ranges a member lacks (every block reaches every other node once). */
    const uint32_t top = t->count[t->levels];
    p->spec.transfers = 2 * ((uint64_t)nodes - top) + (uint64_t)top * (top - 1);
    p->spec.units = p->spec.transfers * p->spec.chunks;
    if (coll == OC_ALLGATHER) {
        p->spec.transfers = (uint64_t)nodes - top + (uint64_t)top * (top - 1);
        for (uint32_t l = 0; l < t->levels; l++)
            for (uint32_t k = 0; k < t->count[l]; k++)
                if (t->reps[l][k] != t->reps[l + 1][k / t->m])
                    p->spec.transfers += (t->lo[l][k] > 0) + (t->hi[l][k] < nodes);
        p->spec.units = (uint64_t)nodes * (nodes - 1);
    }
    return 0;
}

int oc__wrht_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t len) {
    return plan_common(p, coll, nodes, root, bytes, params, 0, why, len);
}

int oc__wrht_plan_striped(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    return plan_common(p, coll, nodes, root, bytes, params, 1, why, len);
}

void oc__wrht_release(oc__plan *p) {
    if (!p->state) return;
    wrht_free(p->state);
    free(p->state);
    p->state = NULL;
}
