/*
 * allreduce_dbtree.c — NCCL's double binary tree all-reduce, the "Tree" baseline of the lumorph
 * seed (section 4: "state-of-the-art Ring and Tree algorithms for AllReduce on the ideal switch
 * ... implemented by NCCL"; Sanders, Speck and Traeff's two-tree idea as NCCL builds it).
 *
 * Trees. Tree 0 is NCCL's ncclGetBtree: node 0 is the root with one child; node v > 0 with lowest
 * set bit b has parent (v ^ b) | 2b, or v ^ b when that is not a node, so odd nodes are leaves and
 * the tree is an in-order binary tree of depth about log2 N. Tree 1 is ncclGetDtree: tree 0 on the
 * nodes shifted by one (N odd) or mirrored, v -> N-1-v (N even), so that a leaf of one tree is an
 * inner node of the other and every node sends and receives about as much in both trees together.
 *
 * Schedule. Each tree carries half the vector, cut into C chunks (parameter pipeline = C, default
 * 1: not pipelined, the tree's latency-bound form). Reduce: chunk j leaves node v for its parent in
 * round j + height(v) (leaves have height 0), so v has its children's chunk j one round earlier.
 * Broadcast: node u of depth d copies chunk j down to its children in round j + H + d, H the larger
 * root height of the two trees (the root has chunk j complete by then). Both trees and all chunks
 * run in the same rounds: C - 1 + H + D rounds, D the larger depth, about C + 2 log2 N. With C = 1
 * this is reduce-up then broadcast-down; larger C is NCCL's pipelining, which trades more rounds
 * (alphas) for chunks of n / 2C.
 *
 * Cost on the switch: a node receives up to two children per tree and round and its port
 * serialises them, so a round costs up to (transfers on the busiest port) (a + (n/2) c/chunk),
 * a = alpha. The closed form below charges every round its busiest port's transfer count, counted
 * from the trees (the alpha-beta form of the schedule, not a pipelined NCCL estimate):
 *     time = sum over rounds of D_round (a + n/2 beta)
 * which the switch model must reproduce exactly. On the photonic fabric a round's transfers run
 * at once, the busiest tile's D_round circuits sharing its W wavelengths in whole wavelengths:
 *     time = sum over rounds of (a + n/2 / (floor(W / D_round) x 300 GB/s / W))
 *            + 3.7 us for every round whose circuits are not the previous round's
 *
 * The pipeline search's bounds below are one per rule by which the model says it costs a round
 * (algos.h: oc__round_rule, from core/netcfg.h's oc__netcost and the circuits hook), extrapolated
 * from pipeline C0 to every longer one: ports (the busiest port, alpha each: the switch),
 * circuits (the busiest tile's circuits on its lanes: the fabric), link loads (the ring), packets
 * on a tree of routers in groups (the least path's routers inside a group, cross_group_s between
 * two: the fat-tree's 1 or 3). The search never asks which network it is on.
 */
#include "algo/algos.h"
#include "core/progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const params_[] = {"pipeline", NULL};

enum { MAX_PIPELINE = 1 << 16 };

/* NCCL's ncclGetBtree parent of v among N nodes (-1 for the root 0). */
static int64_t btree_parent(uint32_t N, uint32_t v) {
    if (v == 0) return -1;
    uint32_t bit = v & (~v + 1);
    uint64_t up = (uint64_t)(v ^ bit) | ((uint64_t)bit << 1);
    if (up >= N) up = v ^ bit;
    return (int64_t)up;
}

/* Parent of v in tree t (ncclGetDtree for t = 1). */
static int64_t parent(uint32_t N, uint32_t t, uint32_t v) {
    if (t == 0) return btree_parent(N, v);
    if (N % 2) {
        int64_t u = btree_parent(N, (v + N - 1) % N);
        return u < 0 ? -1 : (int64_t)(((uint64_t)u + 1) % N);
    }
    int64_t u = btree_parent(N, N - 1 - v);
    return u < 0 ? -1 : (int64_t)(N - 1 - (uint64_t)u);
}

typedef struct dbt {
    uint32_t N, C;  /* nodes, chunks per tree */
    int64_t *up[2]; /* parents */
    uint32_t *height[2], *depth[2];
    uint32_t H, D; /* max height, max depth over both trees */
} dbt;

static void dbt_free(dbt *d) {
    if (!d) return;
    for (int t = 0; t < 2; t++) {
        free(d->up[t]);
        free(d->height[t]);
        free(d->depth[t]);
    }
    free(d);
}

/* Builds both trees; heights by relaxing children into parents (children have smaller heights,
 * processed in order of depth, deepest first). */
static dbt *dbt_build(uint32_t N) {
    dbt *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->N = N;
    for (int t = 0; t < 2; t++) {
        d->up[t] = oc__calloc(N, sizeof(int64_t));
        d->height[t] = oc__calloc(N, sizeof(uint32_t));
        d->depth[t] = oc__calloc(N, sizeof(uint32_t));
        if (!d->up[t] || !d->height[t] || !d->depth[t]) goto fail;
        for (uint32_t v = 0; v < N; v++)
            d->up[t][v] = parent(N, (uint32_t)t, v);
        /* depth: walk up (depth is O(log N)) */
        for (uint32_t v = 0; v < N; v++) {
            uint32_t k = 0;
            for (int64_t u = d->up[t][v]; u >= 0; u = d->up[t][u]) {
                if (++k > 64) goto fail; /* not a tree: our bug */
            }
            d->depth[t][v] = k;
            if (k > d->D) d->D = k;
        }
        /* height: every node pushes its height + 1 up the path */
        for (uint32_t v = 0; v < N; v++) {
            uint32_t h = 0;
            for (int64_t u = d->up[t][v]; u >= 0; u = d->up[t][u]) {
                h++;
                if (d->height[t][u] < h) d->height[t][u] = h;
            }
        }
        for (uint32_t v = 0; v < N; v++)
            if (d->height[t][v] > d->H) d->H = d->height[t][v];
    }
    return d;
fail:
    dbt_free(d);
    return NULL;
}

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    uint64_t C;
    int rc = oc__kv_only(params, params_, "dbtree", why, len);
    if (rc || (rc = oc__kv_u64(params, "pipeline", 1, 1, MAX_PIPELINE, &C, why, len))) return rc;
    /* Pipelining cuts no chunk empty; unpipelined, a vector of 0 or 1 bytes leaves a tree an
     * empty half, as the ring all-reduce leaves empty chunks, and still runs. */
    if (nodes > 1 && C > 1 && 2 * C > bytes)
        return oc__fail(why, len, OC_EINVAL,
                        "dbtree: pipeline=%llu cuts %llu bytes into %llu chunks: at most %llu",
                        (unsigned long long)C, (unsigned long long)bytes,
                        (unsigned long long)(2 * C),
                        (unsigned long long)(bytes / 2 ? bytes / 2 : 1));
    if ((rc = oc__plan_work("dbtree", nodes, 4 * (uint64_t)nodes * C, why, len))) return rc;
    if ((rc = oc__plan_begin(p, coll, nodes, root, bytes, 2 * (uint32_t)C, why, len))) return rc;
    /* the work (core.h): C chunks a tree, up and down its N - 1 edges, one chunk a transfer */
    p->spec.units = p->spec.transfers = 4 * (uint64_t)(nodes - 1) * C;
    dbt *d = dbt_build(nodes);
    p->state = d;
    if (!d) return oc__fail(why, len, OC_ENOMEM, "out of memory building the trees");
    d->C = (uint32_t)C;
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)C);
    if (oc_kv_set(p->used, "pipeline", b)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

static void release(oc__plan *p) {
    dbt_free(p->state);
    p->state = NULL;
}

/* A node sends, and receives, at most 6 transfers a round: up and down twice in each tree. */
enum { MAX_PORT = 6 };

/* What the fat-tree's bound counts of a round (oc__fattree_cfg): the most transfers at either end
 * of a transfer inside a leaf (`in`) and of one through a spine (`across`), 0 when there is none. A
 * round then lasts at least max(in x chunk + 1 router, across x chunk + 3 routers): every transfer
 * waits for its source's injection and its destination's ejection link to drain. */
typedef struct ft_round {
    uint8_t in, across;
} ft_round;

/* What the closed forms count of the schedule, round by round. */
typedef struct tally {
    const oc__formula_in *in;
    uint32_t *send, *recv; /* per node, this round */
    uint64_t *key, *prev;  /* this round's and the last round's sorted circuits (src << 32 | dst) */
    size_t nkey, nprev;
    uint64_t busy;      /* sum over rounds of the busiest port (send or receive side) */
    uint64_t reconfigs; /* rounds whose circuits differ from the previous round's */
    double split;       /* sum over rounds of oc__formula_split(busiest), circuit-switched */
    /* The fat-tree (in->cfg is OC_RULE_PACKETS and keys are kept): rounds by their ft_round,
     * and the ft_round of round `mark` (the first full round of a pipeline, search's C0). */
    uint64_t ft[MAX_PORT + 1][MAX_PORT + 1];
    uint64_t round, mark;
    ft_round at_mark;
    /* The fabric with mzi_split=1 (in->split_degree > 0 and keys kept): split_pass's counts,
     * round by round, and what the round `mark` adds when a copy of it follows it. */
    uint64_t *seq, *prev_seq; /* this round's and the last round's circuits in emitted order */
    uint8_t *twice_out, *twice_in; /* per node: sends / receives twice to / from one tile */
    uint64_t passes;          /* sum over rounds of ceil(busiest / D) (1 when unsplit) */
    uint64_t pass_reconfigs;  /* reconfigurations certain (split_pass) */
    double pass_split;        /* sum over passes of the busiest tile's lanes factor */
    uint32_t prev_passes;
    uint64_t mark_passes, mark_reconfigs; /* a full round after a full round */
    double mark_split;
} tally;

/* The fat-tree's ft_round of the round whose transfers are c->key[0 .. nkey) (before the sort). */
static ft_round ft_of(const tally *c) {
    const uint64_t D = c->in->cfg.cost.group_nodes;
    ft_round f = {0, 0};
    for (size_t i = 0; i < c->nkey; i++) {
        const uint32_t src = (uint32_t)(c->key[i] >> 32), dst = (uint32_t)c->key[i];
        uint32_t most = c->send[src] > c->recv[dst] ? c->send[src] : c->recv[dst];
        if (most > MAX_PORT) most = MAX_PORT; /* never: the trees' degree */
        uint8_t *slot = src / D == dst / D ? &f.in : &f.across;
        if (most > *slot) *slot = (uint8_t)most;
    }
    return f;
}

/* Sum over the tallied rounds of the fat-tree round bound at `chunk` seconds of packets. */
static double ft_time(const uint64_t ft[MAX_PORT + 1][MAX_PORT + 1], double chunk, double router,
                      double cross) {
    double t = 0;
    for (int a = 0; a <= MAX_PORT; a++)
        for (int b = 0; b <= MAX_PORT; b++) {
            if (!ft[a][b]) continue;
            const double in = a ? a * chunk + router : 0, across = b ? b * chunk + cross : 0;
            t += (double)ft[a][b] * (in > across ? in : across);
        }
    return t;
}

static int by_u64(const void *x, const void *y) {
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The lanes factor of a pass whose busiest tile has k circuits: W / floor(W / k) (k chunk
 * times at full rate where the tile has fewer than k lanes: the model refuses such a pass). */
static double pass_factor(const oc__formula_in *in, uint64_t k) {
    const double f = oc__formula_split(in, k);
    return f > 0 ? f : (double)k;
}

/* A round whose busiest tile has d circuits on the split fabric (split_bound's essay): its
 * passes, and the sum over them of the busiest tile's lanes factor (pass q holds
 * min(D, d - q D) of that tile's circuits). */
static uint64_t split_passes(const oc__formula_in *in, uint64_t d, double *factor) {
    const uint64_t D = in->split_degree;
    if (d <= D) {
        *factor = pass_factor(in, d);
        return 1;
    }
    *factor = 0;
    uint64_t p = 0;
    for (uint64_t left = d; left; left -= left < D ? left : D, p++)
        *factor += pass_factor(in, left < D ? left : D);
    return p;
}

/* Whether sorted multiset a[0..na) holds sorted multiset b[0..nb). */
static int holds(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
    size_t i = 0;
    for (size_t j = 0; j < nb; j++) {
        while (i < na && a[i] < b[j]) i++;
        if (i == na || a[i] != b[j]) return 0;
        i++;
    }
    return 1;
}

/* Whether some busiest tile of the round (`most` circuits on one side) has them with `most`
 * distinct tiles (split_bound's essay: then two passes of the round never hold the same
 * circuits); c->key is the round's circuits sorted. */
static int clean_busiest(tally *c, uint32_t N, uint32_t most) {
    for (size_t i = 1; i < c->nkey; i++)
        if (c->key[i] == c->key[i - 1]) {
            c->twice_out[c->key[i] >> 32] = 1;
            c->twice_in[(uint32_t)c->key[i]] = 1;
        }
    int clean = 0;
    for (uint32_t v = 0; v < N && !clean; v++)
        clean = (c->send[v] == most && !c->twice_out[v]) || (c->recv[v] == most && !c->twice_in[v]);
    for (size_t i = 1; i < c->nkey; i++)
        if (c->key[i] == c->key[i - 1]) {
            c->twice_out[c->key[i] >> 32] = 0;
            c->twice_in[(uint32_t)c->key[i]] = 0;
        }
    return clean;
}

/* The reconfigurations a round of `passes` passes certainly pays on the split fabric (split_bound's
 * essay, cases (i)-(v)); c->key is its sorted circuits, c->prev the last round's, c->seq and
 * c->prev_seq both in emitted order; `clean` from clean_busiest. */
static uint64_t pass_reconfigs(const tally *c, uint64_t passes, int clean) {
    const int dup = !clean;
    uint64_t r = passes > 1 && !dup ? passes - 1 : 0; /* (i) inside the round */
    if (c->round == 0) return r + 1;                  /* the set-up */
    const uint64_t pp = c->prev_passes;
    int differs;
    if (passes == 1 && pp == 1) /* (ii) both whole */
        differs = c->nkey != c->nprev || memcmp(c->key, c->prev, c->nkey * sizeof *c->key) != 0;
    else if (passes == 1) /* (iii) this one whole, the last one's last pass a part of it */
        differs = c->nkey >= c->nprev || !holds(c->prev, c->nprev, c->key, c->nkey);
    else if (pp == 1)
        differs = c->nprev >= c->nkey || !holds(c->key, c->nkey, c->prev, c->nprev);
    else /* (iv) the same round again: its first pass is the last round's first */
        differs = !dup && c->nkey == c->nprev &&
                  memcmp(c->seq, c->prev_seq, c->nkey * sizeof *c->seq) == 0;
    if (!differs) { /* (v) no circuit in common */
        size_t i = 0, j = 0;
        differs = 1;
        while (i < c->nkey && j < c->nprev && differs) {
            if (c->key[i] == c->prev[j])
                differs = 0;
            else if (c->key[i] < c->prev[j])
                i++;
            else
                j++;
        }
    }
    return r + (uint64_t)differs;
}

/* Ends a counted round: its busiest port, and whether its circuit set is a new one. */
static void tally_round(tally *c, uint32_t N) {
    uint32_t most = 0;
    for (uint32_t v = 0; v < N; v++) {
        if (c->send[v] > most) most = c->send[v];
        if (c->recv[v] > most) most = c->recv[v];
    }
    c->busy += most;
    c->split += oc__formula_split(c->in, most);
    if (!c->key) return; /* circuit sets not asked for */
    if (oc__round_rule_of(c->in) == OC_RULE_PACKETS) {
        const ft_round f = ft_of(c);
        c->ft[f.in][f.across]++;
        if (c->round == c->mark) c->at_mark = f;
    }
    if (c->seq) memcpy(c->seq, c->key, c->nkey * sizeof *c->seq);
    qsort(c->key, c->nkey, sizeof *c->key, by_u64);
    if (c->nkey != c->nprev || memcmp(c->key, c->prev, c->nkey * sizeof *c->key) != 0)
        c->reconfigs++;
    if (c->seq && c->nkey) {
        double factor;
        const uint64_t passes = split_passes(c->in, most, &factor);
        const uint64_t certain = pass_reconfigs(c, passes, clean_busiest(c, N, most));
        c->passes += passes;
        c->pass_split += factor;
        c->pass_reconfigs += certain;
        c->prev_passes = (uint32_t)passes;
        if (c->round == c->mark + 1) { /* the second full round: one after a copy of itself */
            c->mark_passes = passes;
            c->mark_reconfigs = certain;
            c->mark_split = factor;
        }
        uint64_t *u = c->prev_seq;
        c->prev_seq = c->seq;
        c->seq = u;
    }
    c->round++;
    uint64_t *t = c->prev;
    c->prev = c->key;
    c->key = t;
    c->nprev = c->nkey;
    c->nkey = 0;
}

/* The number of rounds: C - 1 + H + D (none for one node). */
static uint64_t round_count(const dbt *d) {
    return d->N < 2 ? 0 : (uint64_t)d->C - 1 + d->H + d->D;
}

/* Emits (or, with e NULL, counts into c) the schedule's rounds. */
static int rounds(const dbt *d, oc__emit *e, tally *c) {
    const uint32_t N = d->N, C = d->C;
    const uint64_t R = round_count(d);
    for (uint64_t r = 0; r < R; r++) {
        if (c) {
            memset(c->send, 0, N * sizeof *c->send);
            memset(c->recv, 0, N * sizeof *c->recv);
        }
        for (uint32_t t = 0; t < 2; t++)
            for (uint32_t v = 0; v < N; v++) {
                /* The search counts whole schedules before it offers a pipeline (C0's, and
                 * each shorter one's): on the fat-tree at 131072 nodes minutes without a
                 * candidate decided. A tick polls the search's progress (the caller's callback:
                 * the time, the CLI's line that the work is not done) and hears a stop. */
                int tick = oc__stop_tick();
                if (tick) return tick;
                const int64_t u = d->up[t][v];
                if (u < 0) continue;
                /* reduce: chunk j = r - height(v) goes up; broadcast: chunk j = r - H - depth(u)
                 * comes down from u, depth(u) = depth(v) - 1 */
                const int64_t jr = (int64_t)r - d->height[t][v];
                const int64_t jb = (int64_t)r - d->H - (d->depth[t][v] - 1);
                for (int phase = 0; phase < 2; phase++) {
                    const int64_t j = phase ? jb : jr;
                    if (j < 0 || j >= C) continue;
                    const uint32_t src = phase == 0 ? v : (uint32_t)u;
                    const uint32_t dst = phase == 0 ? (uint32_t)u : v;
                    if (e) {
                        int rc = oc__emit_transfer(e, src, dst, phase ? OC_OP_COPY : OC_OP_REDUCE,
                                                   t * C + (uint32_t)j, 1);
                        if (rc) return rc;
                    } else {
                        c->send[src]++;
                        c->recv[dst]++;
                        if (c->key) c->key[c->nkey++] = (uint64_t)src << 32 | dst;
                    }
                }
            }
        if (e) {
            int rc = oc__emit_round(e);
            if (rc) return rc;
        } else {
            tally_round(c, N);
        }
    }
    return 0;
}

static int generate(const oc__plan *p, oc__emit *e) {
    return rounds(p->state, e, NULL);
}

/* Counts the schedule's rounds into c (busy, split, and with `circuits` the reconfigurations and,
 * on the fat-tree, the rounds' ft_round; `mark`: the round whose ft_round is kept); 0 or
 * OC_ENOMEM. */
static int count(const dbt *d, const oc__formula_in *in, int circuits, uint64_t mark, tally *c) {
    /* a node sends at most up (once per tree) and down (twice per tree) in a round: 6N */
    *c = (tally){.in = in,
                 .send = oc__calloc(d->N, sizeof(uint32_t)),
                 .recv = oc__calloc(d->N, sizeof(uint32_t)),
                 .mark = mark};
    int rc = OC_ENOMEM;
    const int passes = circuits && in->lanes && in->split_degree;
    if (circuits) {
        c->key = oc__calloc(6 * (size_t)d->N, sizeof(uint64_t));
        c->prev = oc__calloc(6 * (size_t)d->N, sizeof(uint64_t));
    }
    if (passes) {
        c->seq = oc__calloc(6 * (size_t)d->N, sizeof(uint64_t));
        c->prev_seq = oc__calloc(6 * (size_t)d->N, sizeof(uint64_t));
        c->twice_out = oc__calloc(d->N, 1);
        c->twice_in = oc__calloc(d->N, 1);
    }
    if (c->send && c->recv && (!circuits || (c->key && c->prev)) &&
        (!passes || (c->seq && c->prev_seq && c->twice_out && c->twice_in)))
        rc = rounds(d, NULL, c);
    free(c->send);
    free(c->recv);
    free(c->key);
    free(c->prev);
    free(c->seq);
    free(c->prev_seq);
    free(c->twice_out);
    free(c->twice_in);
    c->twice_out = c->twice_in = NULL;
    c->send = c->recv = NULL;
    c->key = c->prev = c->seq = c->prev_seq = NULL;
    return rc;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const dbt *d = p->state;
    tally c;
    int rc = count(d, in, 1, UINT64_MAX, &c);
    if (rc) return rc;
    /* The photonic fabric: a round's transfers are concurrent circuits sharing the busiest tile's
     * wavelengths; a round reconfigures unless its circuits are the last round's (N = 2: the
     * two trees' reduce and broadcast are the same pair of circuits). */
    if (in->lanes && d->N > 1)
        return oc__formula_circuits(rep, in, (double)round_count(d), (double)c.reconfigs,
                                    c.split * (in->step_time - in->step_fixed));
    /* The ring carries a node's transfers on parallel wavelengths: one step per round there. */
    oc__formula_steps(rep, in, in->wavelengths > 1 ? (double)round_count(d) : (double)c.busy);
    return 0;
}

/* ---- the parameter search (the essay: the space and the bounds) ---- */

/* The most transfers a node sends (or receives) per chunk index over both trees: its children
 * and its parent in each tree. */
static uint32_t degree_sum(const dbt *d) {
    uint32_t *deg = oc__calloc(d->N, sizeof *deg), most = 0;
    if (!deg) return 0;
    for (int t = 0; t < 2; t++)
        for (uint32_t v = 0; v < d->N; v++)
            if (d->up[t][v] >= 0) {
                deg[v]++;
                deg[d->up[t][v]]++;
            }
    for (uint32_t v = 0; v < d->N; v++)
        if (deg[v] > most) most = deg[v];
    free(deg);
    return most;
}

/* A schedule's counts as the closed forms see them (C >= C0: C0's plus C - C0 full rounds). */
typedef struct counts {
    uint64_t rounds, busy, reconfigs;
    double split;
    uint64_t passes, pass_reconfigs; /* the split fabric (tally) */
    double pass_split;
    uint64_t ft[MAX_PORT + 1][MAX_PORT + 1]; /* the fat-tree's rounds by ft_round */
} counts;

typedef struct pipe_search {
    const oc__search_in *in;
    dbt *d;
    uint32_t deg, C0; /* the busiest tree degree; from C0 on, the schedule has full rounds */
    counts at_c0;
    ft_round full;     /* the fat-tree: a full round's ft_round */
    uint64_t full_passes, full_reconfigs; /* the split fabric: what a full round adds */
    double full_split;
    double bytes_time; /* the whole vector's payload time (switch: n beta; fabric: full rate) */
    oc__round_rule rule; /* how the model costs a round (algos.h, core/netcfg.h) */
    double half_time;  /* fat-tree: one chunk of ceil(n/2) bytes (pipeline 1), in whole packets */
    int ft;            /* fat-tree with its leaves known (group_nodes): round by round */
} pipe_search;

/* The counts of pipeline C: walked for C < C0; for C >= C0 the first and last H + D - 1 rounds
 * do not depend on C (j < C never binds before round C, j >= 0 always holds after it), and the
 * C - C0 extra rounds between are full rounds: deg transfers at the busiest node, the circuit
 * set of the full rounds before them (no reconfiguration). */
static int pipeline_counts(pipe_search *p, uint64_t C, counts *out) {
    if (C >= p->C0) {
        *out = p->at_c0;
        out->rounds += C - p->C0;
        out->busy += (C - p->C0) * p->deg;
        out->split += (double)(C - p->C0) * oc__formula_split(p->in->net, p->deg);
        out->ft[p->full.in][p->full.across] += C - p->C0;
        out->passes += (C - p->C0) * p->full_passes;
        out->pass_reconfigs += (C - p->C0) * p->full_reconfigs;
        out->pass_split += (double)(C - p->C0) * p->full_split;
        return 0;
    }
    tally t;
    p->d->C = (uint32_t)C;
    int rc = count(p->d, p->in->net, p->rule == OC_RULE_CIRCUITS || p->ft, UINT64_MAX, &t);
    *out = (counts){round_count(p->d), t.busy, t.reconfigs, t.split,
                    t.passes, t.pass_reconfigs, t.pass_split, {{0}}};
    memcpy(out->ft, t.ft, sizeof t.ft);
    return rc;
}

static const char *const BOUND_NAME = "the closed form (switch, fabric: the model's own sum); "
                                      "ring: a step a round and the busiest node's units; "
                                      "fat-tree: each round's busiest link ends and its routers "
                                      "(1 in a leaf, 3 across)";

static const char *const SPLIT_BOUND_NAME =
    "the split fabric: every pass a step (alpha), the reconfigurations certain, each pass the "
    "busiest tile's circuits over floor(W / k) lanes";

/* One chunk's payload time at pipeline C (ceil(n / 2C) bytes). */
static double chunk_time(const pipe_search *p, uint64_t C) {
    const uint64_t n = p->in->bytes;
    return n ? p->bytes_time * (double)oc__ceil_div(n, 2 * C) / (double)n : 0;
}

/* The fabric with mzi_split=1 runs a round whose busiest tile has d circuits above the MZI
 * degree D in passes, each a step of its own: its alpha, a reconfiguration when its circuits are
 * not the previous pass's, and the slowest of its circuits at floor(W / d') wavelengths each, d'
 * the busiest tile's circuits in that pass. The closed form's split factor (W / floor(W / d), for
 * all d circuits at once) is then no bound: a pass gives each circuit more wavelengths. The
 * bound follows the model's own rules (net/fabric.c, fab_round and fab_colour):
 *   Passes. The model colours the round's circuits with exactly d colours (Konig) and puts
 *   colours q D .. q D + D - 1 in pass q: ceil(d / D) passes (d <= D: one). A busiest tile has d
 *   circuits on its busiest side, one of each colour, so pass q holds k_q = min(D, d - q D) of
 *   them and no pass is empty. Each pass is at least one step (fibres short of wavelengths only
 *   add passes): steps >= sum over rounds of ceil(d / D), an alpha each.
 *   Payload. The busiest tile's k_q circuits in pass q get at most floor(W / k_q) wavelengths
 *   each (its share; a fibre's share only lowers it), so the pass lasts at least one chunk over
 *   floor(W / k_q) of the W: W / floor(W / k_q) chunk times at full rate. Summed over passes
 *   (tally.pass_split), where the old bound had d chunk times a round (W = 16, D = 3: 6.4 against
 *   6 for a full round of d = 6).
 *   Reconfigurations. A pass pays one when its sorted circuits differ from the previous pass's
 *   (the first round's passes always). Call a round clean when one of its busiest tiles has its
 *   d circuits with d distinct tiles: two passes of a clean round then hold that tile's circuits
 *   with disjoint sets of partners, so they differ. Certain (pass_reconfigs): (i) in a clean round,
 *   every pass after its first; across rounds, the first pass of round r against the last pass of
 *   round r - 1, which differ when (ii) both are whole rounds with different circuits; (iii) round
 *   r is whole and round r - 1 split (its last pass a part of it) and round r's circuits are not
 *   a smaller part of round r - 1's; (iv) the converse; (v) the two rounds share no circuit; or
 *   (vi) round r emits the same circuits in the same order as round r - 1 and is clean and split:
 *   the colouring reads nothing but the circuits' ends in order, so both rounds are split alike,
 *   and round r's first pass is round r - 1's first, which differs from its last. (vi) is what a
 *   pipeline's full rounds are: each adds its passes (one after a copy of itself) at the split
 *   fabric's default (D = 3, full rounds of d = 6).
 * Summed over rounds: passes x alpha + certain reconfigurations x R + the payload. Before, rounds
 * x alpha + busy x chunk left every pipeline of N = 1000 at 256 MiB within the winner's cost (138
 * mapped, 7.5 s); now 45 (tests/test_dbtree_split.c holds each bound under its pinned run). */
static double split_bound(const pipe_search *p, const counts *k, double payload) {
    const oc__formula_in *net = p->in->net;
    return (double)k->passes * net->step_fixed + (double)k->pass_reconfigs * net->reconfig_s +
           payload;
}

/* A proven lower bound on pipeline C's mapped cost. */
static int pipeline_bound(pipe_search *p, uint64_t C, oc__bound *b, char *why, size_t len) {
    const oc__formula_in *net = p->in->net;
    counts k;
    int rc = pipeline_counts(p, C, &k);
    if (rc) return rc;
    *b = (oc__bound){.name = BOUND_NAME, .steps = k.rounds};
    const double a = net->step_fixed, c = chunk_time(p, C);
    if (p->rule == OC_RULE_PORTS) {
        b->time_s = (double)k.busy * (a + c);
        b->steps = k.busy;
    } else if (p->rule == OC_RULE_CIRCUITS && net->split_degree) {
        b->time_s = split_bound(p, &k, k.pass_split * c);
        b->steps = k.passes;
        b->name = SPLIT_BOUND_NAME;
    } else if (p->rule == OC_RULE_CIRCUITS) {
        b->time_s = (double)k.rounds * a + (double)k.reconfigs * net->reconfig_s + k.split * c;
        if (k.split == 0) b->time_s = 0; /* too few lanes: the model refuses it */
    } else if (p->rule == OC_RULE_LINKS) {
        oc__formula_in at;
        if ((rc = p->in->figures(p->in, p->in->coll, 2 * (uint32_t)C, &at, why, len))) return rc;
        const double ch = (double)(net->channels ? net->channels : 1);
        const double steps = fmax((double)k.rounds, ceil((double)(p->deg * C) / (2 * ch)));
        b->time_s = steps * at.step_time;
        b->steps = (uint64_t)steps;
    } else if (p->rule == OC_RULE_PACKETS) {
        /* A fat-tree round lasts at least one router delay (the model's typed router_s, core/
         * netcfg.h: a path crosses 1 router, or 3 through a spine) plus the packets on its
         * busiest node's injection or
         * ejection link: the round's busiest port count x one chunk's whole packets. The chunk's
         * packet time is the model's own, from its figures at this C's 2C chunks. */
        oc__formula_in at;
        if ((rc = p->in->figures(p->in, p->in->coll, 2 * (uint32_t)C, &at, why, len))) return rc;
        const double chunk = at.step_time - at.step_fixed;
        b->time_s = (double)k.rounds * net->cfg.cost.least_path_s + (double)k.busy * chunk;
        /* with the leaves known, each round by its own transfers' paths (ft_round) */
        if (p->ft)
            b->time_s = fmax(b->time_s, ft_time(k.ft, chunk, net->cfg.cost.least_path_s,
                                                net->cfg.cost.cross_group_s));
    } else {
        b->steps = 0;
    }
    b->time_s *= 1 - 1e-12; /* floating-point slack: never above the model's own sum */
    return 0;
}

/* A bound on every pipeline C' >= C >= C0: the rounds, busy counts and reconfigurations only
 * grow with C', and the payload part, (S0 + (C' - C0) s) n / 2C' for S0 at C0 and s per full
 * round, tends to s n/2 from one side: its least over C' >= C is min(its value at C, s n/2). */
static oc__bound family_bound(const pipe_search *p, uint64_t C) {
    const oc__formula_in *net = p->in->net;
    const double a = net->step_fixed, half = p->bytes_time / 2;
    const uint64_t R = p->at_c0.rounds + (C - p->C0);
    oc__bound b = {.name = BOUND_NAME, .steps = R};
    if (p->rule == OC_RULE_CIRCUITS && net->split_degree) {
        /* split_bound's lanes factors x chunk: (factors at C0 + (C' - C0) a full round's) x
         * n / 2C', as on the switch; the passes and certain reconfigurations grow with C' */
        const double s0 = p->at_c0.pass_split, s = p->full_split;
        const double pay = fmin(s * half, (s0 + (double)(C - p->C0) * s) * half / (double)C);
        counts k = p->at_c0;
        k.passes += (C - p->C0) * p->full_passes;
        k.pass_reconfigs += (C - p->C0) * p->full_reconfigs;
        b.time_s = split_bound(p, &k, pay);
        b.steps = k.passes;
        b.name = SPLIT_BOUND_NAME;
    } else if (p->rule == OC_RULE_PORTS || p->rule == OC_RULE_CIRCUITS) {
        const double s0 = p->rule == OC_RULE_PORTS ? (double)p->at_c0.busy : p->at_c0.split;
        const double s = p->rule == OC_RULE_PORTS ? p->deg : oc__formula_split(net, p->deg);
        const double pay = fmin(s * half, (s0 + (double)(C - p->C0) * s) * half / (double)C);
        if (p->rule == OC_RULE_PORTS) {
            const uint64_t busy = p->at_c0.busy + (C - p->C0) * p->deg;
            b.time_s = (double)busy * a + pay;
            b.steps = busy;
        } else {
            b.time_s = (double)R * a + (double)p->at_c0.reconfigs * net->reconfig_s + pay;
        }
    } else if (p->rule == OC_RULE_LINKS) {
        b.time_s = (double)R * a;
    } else if (p->rule == OC_RULE_PACKETS) {
        /* The busiest node sends deg transfers for every chunk index, C' x deg in all, each of
         * ceil(ceil(n/2C') / P) >= (n/2P) / C' packets: C' x that many is at least ceil(n/2P)
         * packets, pipeline 1's chunk (half_time), whatever C'; and each round one router. */
        b.time_s = (double)R * net->cfg.cost.least_path_s + (double)p->deg * p->half_time;
        if (p->ft) {
            /* the routers alone, round by round: C0's rounds, then full rounds */
            const double r = net->cfg.cost.least_path_s, r3 = net->cfg.cost.cross_group_s;
            double routers = 0;
            for (int x = 0; x <= MAX_PORT; x++)
                for (int y = 0; y <= MAX_PORT; y++)
                    routers += (double)p->at_c0.ft[x][y] * (y ? r3 : x ? r : 0);
            routers += (double)(C - p->C0) * (p->full.across ? r3 : p->full.in ? r : 0);
            b.time_s = fmax(b.time_s, routers);
        }
    } else {
        b.steps = 0;
    }
    b.time_s *= 1 - 1e-12;
    return b;
}

/* The transfers (4 N C a pipeline) the pipelines that can still win may add up to before the
 * search thins them out. Where the payload dominates (1 PiB on 4 nodes) every longer pipeline
 * is a little better, no bound prunes, and mapping all 65536 of them was ~1.7e10 transfers
 * (hours): past this much, from pipeline C on only C + C/THIN is offered next, and the ones
 * stepped over are logged as a family not searched (no bound: not proven worse). Below it
 * (every size up to tens of GiB on a few nodes, where the bounds prune first) the search is
 * exhaustive as before. */
#define DBT_SEARCH_WORK (UINT64_C(1) << 24)
enum { THIN = 8 };

/* The pipelines stepped over past DBT_SEARCH_WORK: a family, with no bound (not proven worse). */
static int note_thinned(oc__search *s, uint64_t skipped) {
    char text[160];
    snprintf(text, sizeof text,
             "pipelines stepped over (not mapped, not proven worse): past %llu transfers of "
             "pipelines that could win, from C on only C + C/%d next",
             (unsigned long long)DBT_SEARCH_WORK, THIN);
    return oc__search_prune(s, text, NULL, skipped);
}

/* Offers pipeline = 1, 2, ... with the bounds above; from C0 on, every time C - C0 reaches a
 * power of two, asks whether the family C' >= C can still win and stops when it cannot. */
static int search_pipelines(pipe_search *p, uint64_t cmax, oc__search *s, char *why, size_t len) {
    uint64_t offered = 0, work = 0, skipped = 0, next_x = 0, step = 1;
    for (uint64_t C = 1; C <= cmax; C += step) {
        const uint64_t x = C - p->C0;
        if (C >= p->C0 && x >= next_x) {
            while (next_x <= x)
                next_x = next_x ? 2 * next_x : 1;
            const oc__bound fam = family_bound(p, C);
            int yes = oc__search_can_win(s, &fam);
            if (yes < 0) return yes;
            if (!yes) {
                char text[96];
                snprintf(text, sizeof text, "pipeline=%llu..%llu", (unsigned long long)C,
                         (unsigned long long)cmax);
                int rc = oc__search_prune(s, text, &fam, cmax - C + 1);
                if (!rc && skipped) rc = note_thinned(s, skipped);
                return rc;
            }
        }
        oc__bound b;
        int rc = pipeline_bound(p, C, &b, why, len);
        if (rc) return rc;
        /* Past DBT_SEARCH_WORK offered, a pipeline whose bound can still win will be mapped:
         * its transfers count as work; past DBT_SEARCH_WORK of those, the rest are thinned. */
        offered += 4 * (uint64_t)p->d->N * C;
        if (offered > DBT_SEARCH_WORK && C >= p->C0) {
            if (work <= DBT_SEARCH_WORK) {
                int yes = oc__search_can_win(s, &b);
                if (yes < 0) return yes;
                if (yes) work += 4 * (uint64_t)p->d->N * C;
            }
            if (work > DBT_SEARCH_WORK) {
                step = C / THIN > 1 ? C / THIN : 1;
                if (C + step > cmax && C < cmax) step = cmax - C; /* the longest is offered */
                skipped += step - 1;
            }
        }
        char v[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)C);
        const char *kv[] = {"pipeline", v};
        if ((rc = oc__search_offer(s, &b, 1, kv))) return rc;
    }
    return skipped ? note_thinned(s, skipped) : 0;
}

static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "pipeline") || N < 2) return 0;
    pipe_search p = {.in = in,
                     .d = dbt_build(N),
                     .bytes_time = in->net->step_time - in->net->step_fixed,
                     .rule = oc__round_rule_of(in->net)};
    int rc = OC_ENOMEM;
    if (!p.d || !(p.deg = degree_sum(p.d))) goto out;
    const uint64_t cmax = in->bytes / 2 < MAX_PIPELINE ? in->bytes / 2 : MAX_PIPELINE;
    if (p.rule == OC_RULE_PACKETS && cmax >= 1) {
        oc__formula_in at;
        if ((rc = in->figures(in, in->coll, 2, &at, why, len))) goto out;
        p.half_time = at.step_time - at.step_fixed;
        p.ft = in->net->cfg.cost.group_nodes > 0;
    }
    p.C0 = p.d->H + p.d->D + 1; /* rounds H + D - 1 .. C - 1 are full: two of them at C0 */
    if (p.C0 <= cmax) {
        /* C0 walked once; later pipelines extrapolate from it */
        p.d->C = p.C0;
        tally t;
        const int by_ends = p.rule == OC_RULE_CIRCUITS || p.ft;
        if ((rc = count(p.d, in->net, by_ends, p.d->H + p.d->D - 1, &t))) goto out;
        p.at_c0 = (counts){round_count(p.d), t.busy, t.reconfigs, t.split,
                           t.passes, t.pass_reconfigs, t.pass_split, {{0}}};
        memcpy(p.at_c0.ft, t.ft, sizeof t.ft);
        p.full = t.at_mark;
        p.full_passes = t.mark_passes;
        p.full_reconfigs = t.mark_reconfigs;
        p.full_split = t.mark_split;
    }
    rc = search_pipelines(&p, cmax, s, why, len);
out:
    dbt_free(p.d);
    if (rc == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory building the trees");
    return rc;
}

const oc__algo oc__algo_allreduce_dbtree = {
    .info = {"dbtree", OC_ALLREDUCE, "ring,fattree,switch,fabric",
             "NCCL's double binary tree: two complementary trees, half the vector each, reduce "
             "up then broadcast down, pipelined in C chunks per tree",
             "",
             "C - 1 + height + depth rounds (about C + 2 log2 N); on the switch each round costs "
             "its busiest port's transfers x (alpha + n/2C beta)",
             "pipeline=C: chunks per tree (1 = not pipelined; NCCL pipelines), 1..min(65536, "
             "bytes/2) (1 also below 2 bytes); unset: searched by mapped time (1 without a "
             "network)"},
    .param_names = params_,
    .plan = plan,
    .generate = generate,
    .release = release,
    .search = search,
    .bounds_hold_split = 1, /* split_bound on the fabric with mzi_split=1 */
    .formula = formula,
};
