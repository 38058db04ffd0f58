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
 * N <= V = m_1 * ... * m_k <= 2N virtual positions (plan() refuses other products, naming the
 * range): position x has mixed-radix digits (d_1 .. d_k), d_1 the most significant, and stage j
 * exchanges among positions that differ only in d_j. Position x lives on node floor(x * N / V),
 * so when V > N some nodes hold two positions, evenly spread round the ring; a node's own block
 * belongs to the first position it holds and its other position starts empty (the "uneven
 * groups" of the seed, without losing any block). stage_sends() holds the rules that keep every
 * delivery new to its node: transfers between two positions on one node are local and not sent, a
 * position sends its range once to a node holding two of its partners or already holding it, and
 * in the last stage a node with positions in two groups takes each class from one group only.
 * So an uneven tree delivers every block to every node exactly once, as an exact one does; what
 * uneven groups still cost is load: a node with two positions receives for both in the stages
 * before the last (about V/N - 1 more on the busiest link than an exact tree of the same radices).
 *
 * Labels. After stage j a position holds the blocks of all positions that agree with it on digits
 * j+1..k. Numbering blocks by the digit-reversed position (d_k most significant) makes that set one
 * contiguous label range, so every transfer is one range and verification and mapping stay linear
 * in the transfers. block_node[] records which node each label's block comes from.
 *
 * Choosing the radices: with `radices=4x4x4` the user decides; with `k=K` or nothing pinned the
 * search below maps the best list of the space (every ordered list of that depth, or of any
 * depth) on the ring, by the branch and bound over prefixes that its essay describes.
 *   Theorem 1: S = ceil((2k-1) N^(1+1/k) / 8w);   Theorem 2: k* = ceil((ln N + sqrt(ln N (ln N -
 * 2)))/2);   Theorem 3 as printed: T = (d/B + a) ceil(N m* log_m* N / 4w), m* = N^(1/k*), which
 * is not Theorem 1 at k* (see theorem3 below); the report gives both, each under its own name.
 */
#include "algo/allgather_optree.h"
#include "algo/algos.h"
#include "algo/radix.h"
#include "core/progress.h"

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

/* Physical node of virtual position x on N nodes of V positions. */
static inline uint32_t host_of(uint32_t N, uint64_t V, uint64_t x) {
    return (uint32_t)(x * N / V);
}

enum { OC__OPTREE_SEND_MAX = 64 };

static inline uint32_t host(const optree *t, uint32_t N, uint64_t x) {
    return host_of(N, t->V, x);
}

/* The first position on node n. */
static inline uint64_t first_pos(uint32_t N, uint64_t V, uint32_t n) {
    return ((uint64_t)n * V + N - 1) / N;
}

/* The first positions of nodes 0, 1, 2, ... in turn without a division each: n V + N - 1 =
 * pos N + rem grows by V = q N + r, so first_pos(n + 1) - first_pos(n) is q or q + 1 (1 or 2,
 * since N <= V <= 2N). */
typedef struct node_walk {
    uint64_t rem, q, r, N;
} node_walk;

static void walk_start(node_walk *w, uint32_t N, uint64_t V) {
    *w = (node_walk){.rem = N - 1, .q = V / N, .r = V % N, .N = N};
}

/* From node n to node n + 1: returns first_pos(n + 1) - first_pos(n). */
static inline uint64_t walk_next(node_walk *w) {
    uint64_t step = w->q;
    w->rem += w->r;
    if (w->rem >= w->N) {
        w->rem -= w->N;
        step++;
    }
    return step;
}

/* 1 if position x is the first position of its node (it carries that node's block). */
static inline int bears_block_at(uint32_t N, uint64_t V, uint64_t x) {
    return x == 0 || host_of(N, V, x - 1) != host_of(N, V, x);
}

static inline int bears_block(const optree *t, uint32_t N, uint64_t x) {
    return bears_block_at(N, t->V, x);
}

/* 1 if node `to` already holds what position x sends in the stage whose group spans `span`
 * positions (span = m_j ... m_k): one of its positions agrees with x on digits j..k, so it holds
 * the same blocks (an uneven group puts two positions on a node; without this check the node
 * would be sent a range it has). */
static int holds_already(uint32_t N, uint64_t V, uint32_t to, uint64_t x, uint64_t span) {
    for (uint64_t y = first_pos(N, V, to); y < V && host_of(N, V, y) == to; y++)
        if (y % span == x % span) return 1;
    return 0;
}

/* The nodes position x sends its range to in the stage of radix m whose partners are W apart:
 * writes them to out[] (at most m - 1) and returns how many. The one rule set of the schedule,
 * shared by the generator and the search's bounds (so a bound counts exactly what is sent).
 *  - A partner on x's own node, or a second partner on the node just sent to, needs nothing.
 *  - A node that already holds x's range (holds_already) is skipped.
 *  - W = 1 (the last stage: groups of m consecutive positions): a node whose first position p'
 *    lies in the group before its partner's receives x's range from the sender of that earlier
 *    group with the same digit (same class, same blocks), so this group's sender skips it. Without
 *    this rule such a node gets the range twice in one round (the redundant deliveries of uneven
 *    groups). Positions W >= 2 apart never share such a class, so the rule is for W = 1 only. */
static uint32_t stage_sends(uint32_t N, uint64_t V, uint64_t x, uint64_t W, uint32_t m,
                            uint32_t *out) {
    const uint32_t from = host_of(N, V, x);
    const uint64_t d = (x / W) % m;
    uint32_t n = 0, last_to = UINT32_MAX;
    for (uint64_t c = 0; c < m; c++) {
        if (c == d) continue;
        uint64_t peer = x + (c - d) * W; /* unsigned wrap is exact here */
        uint32_t to = host_of(N, V, peer);
        /* Hosts grow with c, so two partners on one node come one after the other. */
        if (to == from || to == last_to) continue;
        /* A node's other position is its partner's neighbour, which shares x's residue mod mW
         * only when W = 1 (at most two positions a node): the check is for the last stage. */
        if (W == 1 && holds_already(N, V, to, x, m)) continue;
        if (W == 1) {
            uint64_t p0 = first_pos(N, V, to);
            if (p0 < peer && p0 / m != peer / m) continue;
        }
        last_to = to;
        out[n++] = to;
    }
    return n;
}

/* The deepest list within 2N positions: floor(log2(2N)) stages of 2. */
static uint32_t deepest(uint32_t N) {
    uint32_t k = 0;
    while ((UINT64_C(2) << k) <= 2ull * N)
        k++;
    return k;
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
        rc = oc__kv_u64(params, "k", 0, 1, deepest(N), &k, why, len);
        if (rc) return rc;
        if (k == 0)
            return oc__fail(why, len, OC_EINVAL, "internal: optree plan without radices or k");
        if (!oc__radices_exact(N, (uint32_t)k, &t->r) &&
            !oc__radices_balanced(N, (uint32_t)k, &t->r))
            return oc__fail(why, len, OC_EINVAL, "no radices of depth %llu cover %u nodes",
                            (unsigned long long)k, N);
    }
    t->V = oc__radices_product(&t->r);
    if (t->V < N || t->V > 2ull * N)
        return oc__fail(why, len, OC_EINVAL,
                        "radices=%s cover %llu positions: their product must be between the %u "
                        "nodes and twice as many (%u..%llu)",
                        radices ? radices : "(k)", (unsigned long long)t->V, N, N, 2ull * N);
    return 0;
}

/* ---- the search: branch and bound over radix lists, stage 1 first ----
 *
 * Every step of a candidate costs the same (one chunk per block, so the ring's step time is fixed
 * by the size), so its time is its steps times one step and a bound in steps is a bound in time.
 * The ring model maps a round to ceil(colours / C) steps, C = wavelengths x fibres, and colours
 * >= the load of the busiest directed link, so ceil(load / C) steps is a proof for each stage. The
 * loads below are counts of what stage_sends() sends, never estimates:
 *  - ring stage (stage 1, k >= 2): every node's block goes to its m - 1 partners, the one at
 *    cyclic distance delta (delta W positions, W = V/m) being floor(delta N/m) or ceil(delta N/m)
 *    nodes away. The shortest paths of all nodes over all delta add up to at least
 *    N (2 sum_{delta < m/2} floor(delta N/m) + [m even] floor(N/2)) link-units on 2N directed
 *    links, so some link carries at least half of the per-node sum. It holds for every V.
 *  - one stage (k = 1, any V): the rules of stage_sends make it one-stage all-gather on N nodes
 *    (every node to every other once), the same bound with m = N.
 *  - a middle stage (W >= 2): segments of S = mW positions; cut one between the groups h-1 and h
 *    (position P = tS + hW). Every position left of P sends its class (cnt(r) blocks, r its
 *    residue mod S) to the m - h partners right of it, all clockwise (no transfer in a segment
 *    reaches N/2 nodes when W >= 2 and V <= 2N) and none skipped (W >= 2 puts partners on
 *    different nodes), so the link after P's node carries (m-h) CNT(0, hW) when P starts its
 *    node in some segment; otherwise the link after P's node misses at most the classes of
 *    positions tS + cW, c < h. The other direction carries h CNT(hW, S). CNT counts first
 *    positions of nodes among residues, a sum of floors done exactly (oc__floor_sum). Before V
 *    is known (a prefix), CNT >= R (ceil(hN/(mR)) - 1) with R the product of earlier radices.
 *    Such a stage always sends something: at least one step.
 *  - the last stage (W = 1): groups of m consecutive positions. At the link after the node of
 *    position tm + h - 1, every node right of it lacks the classes of residues < h (but class 0,
 *    which the group's last node may hold through the next group's first position) and every
 *    node left of it those right of it (but the group's first node when it also hosts the
 *    previous group's last position: it is served from there); a sample of groups, and none that
 *    spans N/2 nodes or more. Before V is known: ceil((m-h-1)/2) nodes right of the cut, each
 *    lacking CNT(0, h) >= hN/m - 2N/m blocks.
 *  - the rest of a prefix of product R: the least over every way to finish it of the bounds
 *    above (a table over R, and over the stages left when k is pinned).
 * A list that passes these is counted exactly (exact_load: the busiest link of every stage, the
 * same count as routing every transfer, done per segment or per residue in O(V + N) a stage
 * instead of O(V m): segment_load, ring_stage_load); lists with the same V and m_1 share their
 * ring round, so only the one whose later stages count least can win (dominance).
 * The space: every ordered list m_1 x ... x m_k, each m_j >= 2, whose product V is between N and
 * 2N (what plan() accepts); with k= pinned, the lists of depth k. Families are prefixes
 * (m_1 .. m_j): their bound is the fixed stages' bound (a stage that may be the last counts 0),
 * and a prefix is expanded only when oc__search_can_win says its bound can still win. A complete
 * list is offered with its bound when that bound can win. A few balanced lists (the old
 * candidates: exact factorisations and near-equal radices of every depth) are offered first, so
 * the search starts from a good schedule and full ties go to them.
 *
 * Order. The bounds prove which lists cannot win, but a list is mapped whenever its bound is
 * below the best list mapped so far, so the order of offer decides how many are mapped: with k
 * pinned the best list of the depth is often far from the balanced seeds, and every list on the
 * way whose bound was below the best mapped then was mapped (109 two-stage lists at N = 4096, 65
 * of depth 4 at N = 65536, a few hundred milliseconds each there), and counted exactly before.
 * So the space is walked first to find, not to offer (collecting): a complete list whose cheap
 * bound (list_bound) can win is kept in a pool (the best 4096 by bound) uncounted, and what
 * lies more than 1/16 above the least bound kept is skipped, lists and prefixes alike: a guess,
 * not a proof, whose least bound is remembered (skip_least). settle_pool then takes the pool
 * least bound first (a heap): a list on top is counted exactly (exact_stages) and goes back by
 * its larger bound, and the first counted list on top is mapped as the incumbent
 * (oc__search_hint); the counted lists that can still win against it are set aside (with the
 * dominance above among them, a list dominating only one found after it), until the top cannot
 * win. If skip_least cannot win either, nothing skipped can: the set-aside lists are offered in
 * the order they were found, so the offers, their order and the tie rule are those of a single
 * pass, and the search maps them least bound first (search.c), each once, stopping when the
 * rest are beaten. Else the space is collected again without the guessed skip, against the
 * incumbent (only a pool past its size skips then, and is remembered the same way), and settled
 * the same way; only when that too leaves something unproven is the space walked as a single
 * pass always did (nothing was offered yet). A list that pass finds able to win by its counts
 * has its ring stage mapped alone (ring_stage_cost, once per V and m_1) before it is offered:
 * at spread=0 and N = 4093, k = 2, the guessed skip missed the winner and that pass mapped 30
 * lists and the ring stages of 327 (11 s); the second collecting pass maps 2 and settles. The lists counted are then those whose bound is below
 * the incumbent, and the lists mapped those whose bound is below the winner's cost: 15 and 7 of
 * the above (each bound is a proof, so those must be mapped; the bounds are 0.3 to 0.9% under
 * the model's colouring of the ring stage).
 *
 * At the ring's spread=0 (ring.c, item 6: a transfer keeps to one lightpath, a round is coloured
 * one unit a transfer, and a step lasts reconfiguration + the O/E/O and transmission of the
 * largest bundle it carries) the loads above, in blocks, still bound what the busiest link must
 * carry, but no longer its steps. A stage is one round; say its busiest link carries L >= load
 * blocks in n steps. A step puts at most C transfers on the link, so the link's blocks in step i
 * are at most C b_i, b_i the step's largest bundle, and step i lasts at least
 *     r + b_i c (o/f + 8/B)    (r the reconfiguration, c a block's bytes, o the O/E/O of a flit
 *                               of f bytes, B the bandwidth: ceil(x) >= x in flits and packets),
 * and at least the step of one block, s(1). Summed over the n >= 1 steps, with b the largest
 * bundle of the whole stage (one step carries it):
 *     stage time >= max(s(1), r + lin max(L / C, b)),   lin = c (o/f + 8/B),
 * and 0 only for a stage that sends nothing. b: before stage j a position holds its class, the
 * blocks of the positions congruent to it mod S = m_j W, and sends it whole in one transfer. The
 * classes share the N blocks, so one holds at least ceil(N / S). A middle stage (W >= 2) sends
 * every class to m - 1 partners on other nodes; the last (W = 1, S = m >= 3) must bring that
 * class to a node with no position of its residue (at most V/m < N nodes have one), whole, as a
 * node takes a class from one group. So b >= ceil(N / S), S = V/R >= N/R before V is known (R:
 * the product of the earlier radices), so b >= ceil(R / 2) there. And no bundle is larger than a
 * class, at most V/S = R blocks: the link's L blocks take n >= ceil(L / (C R)) steps, each at
 * least s(1), and their reconfigurations are n r, so
 *     stage time >= max(n s(1), n r + lin max(L / C, b)),   n = max(1, ceil(L / (C R))). The ring
 * stage (and one stage, k = 1) carries one block a transfer, so there ceil(load / C) steps of s(1),
 * as at spread=1. The search adds these per-stage times instead of steps, in ticks of s(1) / 2^20
 * rounded down (a sum of floors is at most the floor of the sum: still a proof); its bound then
 * claims no steps (0). The dominance above compares block counts, which at spread=0 do not fix a
 * stage's time: it is not used there. The balanced seeds are ordered by the spread=1 bound either
 * way, so the offers come in the same order and full ties go where they went when every candidate
 * was mapped.
 *
 * Transfers, not blocks (spread=0). The ring colours a round at spread=0 one unit a transfer, so
 * the steps of a stage are at least n = ceil(units / C), units the busiest link's load in
 * transfers: the same cuts as the load in blocks (segment_load, routed_load) with every class
 * that is not empty weighing 1 (a position sends its class whole, one transfer to each partner).
 * That link is in n distinct steps, each carrying on it a transfer of at least `least` blocks
 * (the least class that is not empty: every transfer carries a whole class), so with the above
 *     stage time >= max(n s(1), n r + lin max(L / C, n least, b))            (stage_counted)
 * for a stage whose counts are exact; the cheap bounds keep n = ceil(L / (C R)), which the
 * transfers count can only raise (no transfer carries more than R blocks). At N = 1000, k = 2
 * the old n stayed at 15 for 16 x m, m = 63 .. 125, while the transfers grew 2x with m. And the
 * steps are a sum of those n (the ring stage: its mapped steps, or ceil(load / C)): offered with
 * its time, a list whose time ties the best mapped list's and whose steps are no fewer is
 * decided by the order of offer without being mapped (counted_steps; 128 lists tied at 322
 * steps at N = 4096, k = 2, and were all mapped). tests/test_optree_pinned.c checks every
 * logged bound against the list run pinned.
 *
 * One stage, any V (k = 1 pinned). A list of one stage has m = V, W = 1 and one group, so
 * stage_sends() skips nothing but a node's own partners and a node sent to already: holds_already
 * looks for a position y = x mod V, which is x itself, and the group-before rule needs two groups.
 * Only block-bearing positions send (emit_stages skips an empty range), the first position of
 * each node n in turn, and its range is the label n (the block-bearing positions before it), so
 * for every V in N..2N the schedule is the same round: node 0, 1, ... each sends its block to
 * every other node in increasing order, with the same labels and the same block_node. Every V
 * then maps to the same cost, and a full tie goes to the earlier offer: radices=N (the seed, and
 * the first V of the pass). So with k=1 pinned the search tries V = N alone and records the others
 * as one family: 1002 one-stage lists of 10^6 transfers each were mapped at N = 1000 (27 s of CPU),
 * and at N = 4096 the CLI gave up on its estimate (82 min).
 *
 * The ring stage when m_1 divides N. Stage 1 of a list of k >= 2 stages has W = V/m_1 >= 2 and one
 * segment, the whole ring. Position x on node n = floor(x N / V) has partners x + jW (digit d + j,
 * 0 <= d + j < m_1, j != 0), on nodes floor(x N / V + j N/m_1) = n + j N/m_1 when m_1 divides N (an
 * integer moved out of the floor). The digit of n's first position is d = floor(n m_1 / N) for
 * every V: positions [dW, (d+1)W) lie on nodes [d N/m_1, (d+1) N/m_1) (host_of at dW is d N/m_1 and
 * at (d+1)W - 1 below (d+1) N/m_1). So the ring stage is, for every V: nodes n = 0, 1, ... in turn
 * (their first positions in order) each send one block to the nodes (n mod N/m_1) + c N/m_1,
 * c = 0 .. m_1 - 1, c != d, in that order: the same ends, counts and order of transfers, only the
 * labels differ, and the ring model costs a round by its transfers' ends and counts in order
 * (ring.c: routing, colouring and the step's cost read no label). Its mapped cost is then one
 * number for every V, and ring_stage_cost maps it once (ring_key). At N = 65536, k = 3, the lists
 * 64 x a x b with ab = 1024 .. 2048 had 33 ring stages of 4.1 M transfers mapped alone, all at
 * 65792 steps.
 *
 * The ring stage's colours, counted as the model counts them (on the ring: a->ring_rule). The
 * load is a bound on every colouring, and these all-to-all rounds among evenly spaced nodes are
 * probably coloured with their load by the best colouring, so no bound on colourings in general
 * closes the 0.3-1 % by which the ring model's own colouring exceeds it; only that colouring
 * does. ring_stage_colours counts it by the model's rule (ring.c, items 1 and 3: src/net/ring.c
 * is the rule; nothing of it is called) without mapping the round:
 *  - the transfers: node n = 0, 1, ... (its first position x, digit d = floor(x / W)) sends its
 *    one block to the nodes of x + (c - d) W, c != d (stage_sends skips none when W >= 2), in
 *    that order; in the order c = d+1 .. m-1, 0 .. d-1 their clockwise distances grow strictly
 *    (the partners above x lie on nodes n+1 .. N-1 in order, those below on 0 .. n-1, reached
 *    clockwise past N), so a node's clockwise arcs (distance below N/2) are a prefix of that
 *    list and its counterclockwise ones (above N/2) a suffix, each already in order of length;
 *  - routing: the shorter way; a transfer at exactly N/2 the way that has carried fewer such
 *    units so far, in transfer order (at most one such partner a node: partners W >= 2 apart
 *    sit on distinct nodes);
 *  - per direction (counterclockwise arcs mirrored, starting at N - src): the cut is the first
 *    link of least load not counting the arcs that start on it; the K arcs through it get K
 *    colours of their own; the rest, intervals once the ring is cut, are taken by start from
 *    the cut and longest first, each taking a free colour from the bucket of the least deadline
 *    at or after its end, or a new colour, and giving it back to the bucket it came from at its
 *    end (new colours to the bucket of N); an arc through the cut puts its colour into the
 *    bucket of its start at its end. Every arc of the ring stage carries one block, so a bucket
 *    is a count (which colour of a bucket is taken changes no later decision), and the colours
 *    are K plus the new ones; the round's steps are ceil(max over directions / C), as ring.c
 *    computes them, and its time those steps of one block each (at spread=0 too: every bundle
 *    is one block).
 * The count is the model's, not a bound under it: tests/test_optree_pinned.c maps the ring stage
 * of every m_1 and V of N = 2 .. 40 and of sampled m_1 and V of N = 97 .. 1024 through the ring
 * model at one wavelength (a colour a step) and requires the same colours and the same busiest
 * link; a change to the model's rule fails there. It costs O(N m_1) in flat arrays (at N = 4096,
 * m_1 = 86: about 5 ms against about 20 ms for the round generated, hashed for the round cache
 * and mapped alone). With a target (ring_enough_steps: the least steps of the ring stage at which
 * the list can no longer win against the best mapped cost, found by oc__search_can_win) the
 * count stops once one direction reaches it, the busier direction counted first (the count only
 * grows along the sweep, so what it has reached is a proven lower bound on the model's): such a
 * count is kept as partial and counted again when a later list needs more of it. */

typedef struct ag_search {
    oc__search *s;
    uint32_t N, kpin;
    uint64_t C;
    double step;
    int unspread;                 /* the ring's spread=0: stage bounds in ticks of time (above) */
    double tick, reconf_s, lin_s; /* s(1) / 2^20; r; c (o/f + 8/B) */
    oc__radices cur;
    uint64_t families, candidates, offered, dominated;
    /* exact stage loads by (V, W, m), and the least middle-stage sum per (V, m_1) */
    struct memo *loads, *firsts, *cheap;
    size_t nloads, caploads, nfirsts, capfirsts, ncheap, capcheap;
    int64_t *cw, *ccw;
    uint64_t *cls;
    uint32_t *host; /* host_of(N, hostV, x) for every position x of hostV (exact_load) */
    uint64_t hostV, caphost;
    uint64_t capN, capS, cappre, capcut;
    uint64_t *pre;   /* segment_load's prefix sums */
    uint64_t *cut;   /* segment_load's cuts of one group */
    uint64_t *rest;  /* rest[R]: a bound on the stages after a prefix of product R < N (or NULL) */
    uint64_t *restk; /* k pinned: restk[j (N+1) + R], j stages exactly after a prefix of R */
    uint64_t fam_steps, cand_steps; /* the least bound among what was skipped */
    /* the first passes (collecting): the lists that could win, kept instead of offered; 1 with
     * the guessed skip, 2 without it (the essay's "Order") */
    int collecting;
    struct pooled *pool;
    size_t npool, cappool, pool_seen;
    uint64_t pool_least; /* the least bound kept (when npool) */
    uint64_t skip_least; /* the least bound the first pass skipped without a proof */
    const oc__search_in *in;
    int no_round_costs;    /* the model costs no round alone (oc__search_round_costs) */
    int ring_rule;         /* the network is the ring: its ring stages counted here (essay) */
    struct ring_scratch *ring_scratch; /* ring_stage_colours' (NULL until the first) */
    struct memo *ringcost; /* the ring stage's mapped cost by (V, m_1), in steps or ticks */
    size_t nringcost, capringcost;
} ag_search;

/* F summed over laps: sum over t < V/S of (the number of nodes whose first position is below
 * tS + y). Node n starts at ceil(nV/N), so below x lie floor((x-1)N/V) + 1 first positions. */
static uint64_t fsum(uint32_t N, uint64_t V, uint64_t S, uint64_t y) {
    const uint64_t R = V / S;
    if (y >= 1) return oc__floor_sum(R, V, S * N, (y - 1) * N) + R;
    return R > 1 ? oc__floor_sum(R - 1, V, S * N, (S - 1) * N) + R - 1 : 0;
}

/* CNT(lo, hi): blocks held by the positions of residues [lo, hi) mod S (first positions of nodes
 * among them). */
static uint64_t cnt(uint32_t N, uint64_t V, uint64_t S, uint64_t lo, uint64_t hi) {
    return fsum(N, V, S, hi) - fsum(N, V, S, lo);
}

static uint64_t ring_load(uint32_t N, uint64_t m) {
    uint64_t half = oc__floor_sum((m + 1) / 2, m, N, 0); /* sum_{delta < m/2} floor(delta N/m) */
    return (2 * half + (m % 2 ? 0 : N / 2) + 1) / 2;
}

/* A middle stage (W >= 2) whose V is known. */
static uint64_t mid_load(uint32_t N, uint64_t V, uint64_t W, uint64_t m) {
    const uint64_t S = W * m, R = V / S;
    uint64_t best = 0;
    for (uint64_t h = m / 2; h <= (m + 1) / 2; h++) {
        if (h < 1 || h >= m) continue;
        uint64_t left = cnt(N, V, S, 0, h * W), right = cnt(N, V, S, h * W, S);
        uint64_t cw = (m - h) * left;
        if (cnt(N, V, S, h * W, h * W + 1) == 0) { /* P never starts a node */
            uint64_t corr = 0;
            if (h <= 64)
                for (uint64_t c = 0; c < h; c++)
                    corr += cnt(N, V, S, c * W, c * W + 1);
            else
                corr = h * R;
            cw = cw > corr ? cw - corr : 0;
        }
        uint64_t ccw = h * right;
        if (cw > best) best = cw;
        if (ccw > best) best = ccw;
    }
    return best;
}

/* A middle stage before V is known: R is the product of the earlier radices. */
static uint64_t mid_load_prefix(uint32_t N, uint64_t R, uint64_t m) {
    uint64_t best = 0;
    for (uint64_t h = m / 2; h <= (m + 1) / 2; h++) {
        if (h < 1 || h >= m) continue;
        uint64_t per = oc__ceil_div((m - h) * (uint64_t)N, m * R); /* the right side, ccw */
        uint64_t v = h * R * (per - 1);
        if (v > best) best = v;
    }
    return best;
}

/* The last stage (W = 1, radix m) of V positions, at the link after the node of position
 * P - 1 = tm + h - 1 of group t (see the essay): the nodes right of it each lack the classes of
 * residues < h but for class 0 (which the group's last node may hold through the next group's
 * first position), and the nodes left of it lack those right of their positions, but for the
 * group's first node when it also hosts the previous group's last position (it is served from
 * there). A sample of groups; groups spanning N/2 nodes or more are left out. */
static uint64_t last_load(uint32_t N, uint64_t V, uint64_t m) {
    const uint64_t R = V / m, G = R < 8 ? R : 8;
    uint64_t best = 0;
    for (uint64_t i = 0; i < G; i++) {
        const uint64_t g = (i * R / G) * m;
        const uint32_t first = host_of(N, V, g), last = host_of(N, V, g + m - 1);
        if (2ull * (last - first) >= N) continue;
        const int shared_first = g > 0 && host_of(N, V, g - 1) == first;
        for (uint64_t h = m / 2; h <= (m + 1) / 2; h++) {
            if (h < 1 || h >= m) continue;
            const uint32_t u = host_of(N, V, g + h - 1);
            const int p_left = host_of(N, V, g + h) == u;
            const uint64_t right_nodes = last - u,
                           left_nodes = u - first + 1 - (uint64_t)shared_first;
            uint64_t cw = right_nodes * cnt(N, V, m, 0, h), c0 = cnt(N, V, m, 0, 1);
            cw = cw > c0 ? cw - c0 : 0;
            uint64_t ccw = left_nodes * cnt(N, V, m, h + (uint64_t)p_left, m);
            if (cw > best) best = cw;
            if (ccw > best) best = ccw;
        }
    }
    return best;
}

/* ---- exact loads (complete lists that passed the cheap bound) ----
 * A stage's transfers depend only on (V, W, m) (a position's class is its residue mod S = mW), so
 * its loads are counted once: every transfer stage_sends() gives, routed the shortest way, into
 * difference arrays per direction. A transfer at exactly N/2 nodes goes whichever way the model
 * decides; it is left out of the per-link count and only enters the volume bound (all link-units
 * over the 2N directed links), and the stage is then not exact. A middle or last stage without
 * such transfers is coloured optimally by the model (a node at a segment's end is passed by no
 * lightpath), so its steps are exactly ceil(load / C). */
typedef struct memo {
    uint64_t V, W, m, load;
    uint64_t units, least; /* exact loads at spread=0: the busiest link in transfers, the least
                            * class a transfer carries (stage_count) */
    int exact, used;
    size_t seen; /* firsts in settle_pool: the list's place in the enumeration */
} memo;

static size_t memo_slot(const memo *t, size_t cap, uint64_t V, uint64_t W, uint64_t m) {
    uint64_t h =
        (V * 0x9E3779B97F4A7C15ull) ^ (W * 0xC2B2AE3D27D4EB4Full) ^ (m * 0x165667B19E3779F9ull);
    size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);
    while (t[i].used && !(t[i].V == V && t[i].W == W && t[i].m == m))
        i = (i + 1) & (cap - 1);
    return i;
}

/* The entry for (V, W, m) when counted (used = 1), else NULL; nothing inserted. */
static const memo *memo_find(const memo *tab, size_t cap, uint64_t V, uint64_t W, uint64_t m) {
    if (!cap) return NULL;
    const memo *e = &tab[memo_slot(tab, cap, V, W, m)];
    return e->used == 1 ? e : NULL;
}

/* The entry for (V, W, m), inserted empty (used = 2) when new; NULL when out of memory. */
static memo *memo_get(memo **tab, size_t *n, size_t *cap, uint64_t V, uint64_t W, uint64_t m) {
    if (2 * (*n + 1) > *cap) {
        size_t nc = *cap ? 2 * *cap : 1024;
        memo *nt = calloc(nc, sizeof *nt);
        if (!nt) return NULL;
        for (size_t i = 0; i < *cap; i++)
            if ((*tab)[i].used)
                nt[memo_slot(nt, nc, (*tab)[i].V, (*tab)[i].W, (*tab)[i].m)] = (*tab)[i];
        free(*tab);
        *tab = nt;
        *cap = nc;
    }
    memo *e = &(*tab)[memo_slot(*tab, *cap, V, W, m)];
    if (!e->used) {
        *e = (memo){.V = V, .W = W, .m = m, .used = 2};
        (*n)++;
    }
    return e;
}

static void add_arc(int64_t *d, uint32_t N, uint32_t start, uint32_t len, int64_t b) {
    d[start] += b;
    if (start + len <= N) {
        d[start + len] -= b;
    } else {
        d[N] -= b;
        d[0] += b;
        d[start + len - N] -= b;
    }
}

/* The stage's load from its difference arrays (a->cw, a->ccw, filled by add_arc): the busiest
 * link of either direction, and never less than the link-slot volume over the 2N links. */
static uint64_t busiest_link(const ag_search *a, uint32_t N, uint64_t volume) {
    int64_t rcw = 0, rccw = 0;
    uint64_t best = oc__ceil_div(volume, 2ull * N);
    for (uint32_t p = 0; p < N; p++) {
        rcw += a->cw[p];
        rccw += a->ccw[p];
        if ((uint64_t)rcw > best) best = (uint64_t)rcw;
        if ((uint64_t)rccw > best) best = (uint64_t)rccw;
    }
    return best;
}

/* a->host[x] = host_of(N, V, x) for every position x, once per V (a load then, not a division;
 * filled without one: x N = host V + rem, and N <= V). 0 or OC_ENOMEM. */
static int host_table(ag_search *a, uint64_t V) {
    if (a->hostV == V) return 0;
    if (a->caphost < V) {
        free(a->host);
        a->hostV = 0;
        if (!(a->host = oc__malloc_array((size_t)V, sizeof *a->host))) {
            a->caphost = 0;
            return OC_ENOMEM;
        }
        a->caphost = V;
    }
    uint64_t rem = 0;
    uint32_t h = 0;
    for (uint64_t x = 0; x < V; x++) {
        a->host[x] = h;
        rem += a->N;
        if (rem >= V) {
            rem -= V;
            h++;
        }
    }
    a->hostV = V;
    return 0;
}

/* The loads of the stage (V, W, m) by routing every transfer stage_sends() gives: *load the
 * busiest directed link's (or the volume bound, when larger), in blocks, or with `unit` in
 * transfers (each transfer weighs 1 whatever its class); *ties 1 when some transfer is at exactly
 * N/2 nodes (left to the model, see above); *least the least class a transfer carries. O(V m). */
static int routed_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m, int unit, uint64_t *load,
                       int *ties_out, uint64_t *least) {
    const uint32_t N = a->N;
    const uint64_t S = W * m;
    if (a->capN < (uint64_t)N + 1) {
        free(a->cw);
        free(a->ccw);
        a->cw = oc__calloc((size_t)N + 1, sizeof *a->cw);
        a->ccw = oc__calloc((size_t)N + 1, sizeof *a->ccw);
        if (!a->cw || !a->ccw) return OC_ENOMEM;
        a->capN = (uint64_t)N + 1;
    }
    if (a->capS < S) {
        free(a->cls);
        if (!(a->cls = oc__malloc_array((size_t)S, sizeof *a->cls))) return OC_ENOMEM;
        a->capS = S;
    }
    uint32_t to[OC__OPTREE_SEND_MAX];
    uint32_t *tov = m - 1 <= OC__OPTREE_SEND_MAX ? to : oc__malloc_array(m, sizeof *tov);
    if (!tov) return OC_ENOMEM;
    memset(a->cw, 0, ((size_t)N + 1) * sizeof *a->cw);
    memset(a->ccw, 0, ((size_t)N + 1) * sizeof *a->ccw);
    memset(a->cls, 0, (size_t)S * sizeof *a->cls);
    for (uint64_t x = 0; x < V; x++)
        if (x == 0 || host_of(N, V, x - 1) != host_of(N, V, x)) a->cls[x % S]++;
    uint64_t volume = 0, fewest = UINT64_MAX;
    int ties = 0;
    if (host_table(a, V)) {
        if (tov != to) free(tov);
        return OC_ENOMEM;
    }
    for (uint64_t s = 0; s < S; s++)
        if (a->cls[s] && a->cls[s] < fewest) fewest = a->cls[s];
    for (uint64_t x = 0; x < V; x++) {
        const uint64_t b = unit && a->cls[x % S] ? 1 : a->cls[x % S];
        if (!b) continue;
        const uint32_t from = a->host[x];
        uint32_t n;
        if (W >= 2) {
            /* stage_sends' rules skip no partner W >= 2 apart (a node's two positions are
             * neighbours, so such partners sit on other nodes than x's and each other's): every
             * partner, in stage_sends' order */
            const uint64_t d = (x / W) % m, base = x - d * W;
            n = 0;
            for (uint64_t c = 0; c < m; c++)
                if (c != d) tov[n++] = a->host[base + c * W];
        } else {
            n = stage_sends(N, V, x, W, m, tov);
        }
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t d = tov[i] >= from ? tov[i] - from : tov[i] + N - from;
            if (2ull * d < N) {
                add_arc(a->cw, N, from, d, (int64_t)b);
                volume += b * d;
            } else if (2ull * d > N) {
                add_arc(a->ccw, N, tov[i], N - d, (int64_t)b); /* links to .. from-1, ccw */
                volume += b * (N - d);
            } else {
                ties = 1;
                volume += b * d;
            }
        }
    }
    if (tov != to) free(tov);
    *load = busiest_link(a, N, volume);
    *ties_out = ties;
    *least = fewest == UINT64_MAX ? 0 : fewest;
    return 0;
}

/* The same count for a stage after the ring stage, in O(N + S) instead of O(V m), when no
 * segment spans N/2 nodes or more (then every transfer goes the short way inside its segment, no
 * transfer is at N/2 nodes, and a link between two nodes is crossed only by the transfers of the
 * one segment holding both). Returns 1 with *load set, 0 when it does not apply (the ring stage,
 * a wide segment: routed_load counts those), or OC_ENOMEM.
 *
 * Every term below is what stage_sends() sends, counted at a cut instead of transfer by transfer.
 * The link from node n-1 to node n (and back) is the cut before P = first_pos(n), n >= 1 (every
 * node has a position, V >= N); what crosses it depends only on P mod S, since every segment
 * holds the same classes (cls[s]: the blocks of the residue s mod S, one per node whose first
 * position has that residue).
 *  - W >= 2 (a middle stage): write P mod S = hW + q (0 <= q < W). Position tS + dW + r sends
 *    cls[dW + r] to its m - 1 partners tS + cW + r (c != d), every one on another node (see
 *    routed_load), clockwise when c > d. Such a pair crosses the cut when r < q, d <= h < c, or
 *    r >= q, d < h <= c. With A[d][q] = sum over d' < d and r < q of cls[d'W + r]:
 *        cw  = (m-1-h) A[h+1][q] + (m-h) (A[h][W] - A[h][q]),
 *        ccw = (h+1) (A[m][q] - A[h+1][q]) + h (A[m][W] - A[h][W] - A[m][q] + A[h][q]).
 *  - W = 1 (the last stage): P = tm + h; h = 0 is a group's border, crossed by nothing. The
 *    group's nodes run from F = host(tm) to L = host(tm + m - 1). stage_sends() sends each class
 *    once to every node of the group but its own, except: to F when F also holds the previous
 *    group's last position (it is served from there: first_pos(F) lies in the group before), and
 *    class 0 to L when L also holds the next group's first position (it holds that class
 *    already: holds_already); no other node holds a position of another group. So with
 *    CL[h] = cls[0] + ... + cls[h-1]:
 *        cw  = (L - n + 1) CL[h] - [L shared] cls[0],
 *        ccw = (n - F - [F shared]) (CL[m] - CL[h]).
 * The same cuts weigh transfers instead of blocks (the busiest link in transfers, which the ring
 * colours at spread=0) when every class counts 1 if it is not empty: a position sends its class
 * as one transfer to each partner above, whatever its size, and an empty class not at all.
 * tests/test_optree_pinned.c checks both against routed_load over every stage of every list of
 * many N (odd, prime, powers, V = N .. 2N). */
static uint64_t cut_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m);

/* *load in blocks; with `units`, *units in transfers and *least the least class (not empty). */
static int segment_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m, uint64_t *load,
                        int units, uint64_t *unit_load, uint64_t *least) {
    const uint32_t N = a->N;
    const uint64_t S = W * m, R = V / S;
    if (R < 2) return 0; /* the ring stage: one segment round the whole ring */
    /* A segment spans at most ceil((S-1) N / V) nodes; only near that many is each looked at. */
    if (2 * oc__ceil_div((S - 1) * N, V) >= N)
        for (uint64_t t = 0; t < R; t++)
            if (2ull * (host_of(N, V, t * S + S - 1) - host_of(N, V, t * S)) >= N) return 0;
    const uint64_t cols = W + 1, need = (uint64_t)(m + 1) * cols;
    if (a->capS < S || a->cappre < need || a->capcut < m) {
        free(a->cls);
        free(a->pre);
        free(a->cut);
        a->cls = oc__malloc_array((size_t)S, sizeof *a->cls);
        a->pre = oc__malloc_array((size_t)need, sizeof *a->pre);
        a->cut = oc__malloc_array(m, 2 * sizeof *a->cut);
        a->capS = a->cls ? S : 0;
        a->cappre = a->pre ? need : 0;
        a->capcut = a->cut ? m : 0;
        if (!a->cls || !a->pre || !a->cut) return OC_ENOMEM;
    }
    /* cls[], node by node: node n's first position, as a digit h and an offset q < W */
    memset(a->cls, 0, (size_t)S * sizeof *a->cls);
    node_walk w;
    walk_start(&w, N, V);
    a->cls[0] = 1; /* node 0 at position 0 */
    for (uint64_t n = 1, h = 0, q = 0; n < N; n++) {
        q += walk_next(&w);
        while (q >= W) {
            q -= W;
            if (++h == m) h = 0;
        }
        a->cls[h * W + q]++;
    }
    *load = cut_load(a, V, W, m);
    if (units) { /* every class that is not empty weighs 1: the same cuts count transfers */
        uint64_t fewest = UINT64_MAX;
        for (uint64_t s = 0; s < S; s++)
            if (a->cls[s]) {
                if (a->cls[s] < fewest) fewest = a->cls[s];
                a->cls[s] = 1;
            }
        *least = fewest == UINT64_MAX ? 0 : fewest;
        *unit_load = cut_load(a, V, W, m);
    }
    return 1;
}

/* segment_load's cuts, weighing each class by a->cls[] (see above). */
static uint64_t cut_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m) {
    const uint32_t N = a->N;
    const uint64_t cols = W + 1;
    node_walk w;
    uint64_t *A = a->pre; /* A[d][q] at d * cols + q (W >= 2); CL[h] at A[h] (W = 1) */
    uint64_t best = 0;
    if (W >= 2) {
        for (uint64_t q = 0; q < cols; q++)
            A[q] = 0;
        for (uint64_t d = 0; d < m; d++) {
            uint64_t run = 0;
            for (uint64_t q = 0; q < cols; q++) {
                A[(d + 1) * cols + q] = A[d * cols + q] + run;
                if (q < W) run += a->cls[d * W + q];
            }
        }
        /* the cuts: every residue some node starts at (0, a segment's border, carries 0) */
        const uint64_t *Am = A + m * cols;
        for (uint64_t h = 0; h < m; h++) {
            const uint64_t *Ah = A + h * cols, *Ah1 = A + (h + 1) * cols;
            for (uint64_t q = 0; q < W; q++) {
                if (!a->cls[h * W + q]) continue;
                const uint64_t cw = (m - 1 - h) * Ah1[q] + (m - h) * (Ah[W] - Ah[q]);
                const uint64_t ccw =
                    (h + 1) * (Am[q] - Ah1[q]) + h * (Am[W] - Ah[W] - Am[q] + Ah[q]);
                if (cw > best) best = cw;
                if (ccw > best) best = ccw;
            }
        }
    } else {
        A[0] = 0;
        for (uint64_t d = 0; d < m; d++)
            A[d + 1] = A[d] + a->cls[d];
        /* Node by node again, group by group: a group's first node F is the node entered on
         * its first position (h = 0) or the node before (it holds the previous group's last
         * position too: shared); its last node L the one before the next group's entry, shared
         * when that entry is past the group's first position. The clockwise cuts wait for L. */
        walk_start(&w, N, V);
        uint64_t F = 0, fshared = 0, ncut = 0;
        uint64_t *cut = a->cut; /* (node, digit) of each cut of the group so far */
        for (uint64_t n = 1, h = 0; n <= N; n++) {
            const uint64_t step = n < N ? walk_next(&w) : m; /* past the last node: the end */
            h += step;
            if (h >= m) { /* the group ends before node n: L = n - 1 */
                h -= m;
                const uint64_t L = n - 1, lshared = n < N && h > 0;
                for (uint64_t i = 0; i < ncut; i++) {
                    const uint64_t c = cut[2 * i], hc = cut[2 * i + 1];
                    const uint64_t cw = (L - c + 1) * A[hc] - (lshared ? a->cls[0] : 0);
                    if (cw > best) best = cw;
                }
                ncut = 0;
                F = h == 0 ? n : n - 1;
                fshared = h > 0;
            }
            if (n == N || h == 0) continue;
            const uint64_t ccw = (n - F - fshared) * (A[m] - A[h]);
            if (ccw > best) best = ccw;
            cut[2 * ncut] = n;
            cut[2 * ncut + 1] = h;
            ncut++;
        }
    }
    return best;
}

/* The ring stage's (V, W = V/m, m: one segment round the ring, W >= 2) count in O(V + N)
 * instead of O(V m): the transfers of routed_load, added up per residue instead of one by one.
 * Positions r, W + r, ..., (m-1)W + r (one residue r < W) sit on m distinct nodes h_0 < ... <
 * h_(m-1) (W >= 2, at most two positions a node), and each sends its block (when it bears one)
 * to the other m - 1. Unrolled, H_i = h_(i mod m) + N [i >= m]: from d, the receiver d + s is
 * H_(d+s) - H_d nodes clockwise, growing with s, so the receivers s = 1 .. j_d go clockwise (twice
 * the distance below N), at most one is at exactly N/2 (a tie, left out of the links and counted
 * in the volume, as routed_load does) and the rest go counterclockwise. The gap i (the links
 * from H_i to H_(i+1), one node's first position to the next's of this residue) then carries
 * j_d - (i - d) of d's clockwise transfers for i in [d, d + j_d): a linear ramp in i, added in
 * O(1) with two difference arrays (a constant and a coefficient of i); counterclockwise the
 * same from the other side. Each gap then adds its count to its links, as routed_load's arcs do.
 * The volume is the same sum of shortest distances, by prefix sums of H. j_d grows with d (two
 * pointers). Returns 0, or OC_ENOMEM. */
static int ring_stage_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m, uint64_t *load,
                           int *ties_out) {
    const uint32_t N = a->N;
    const size_t len = 2 * (size_t)m + 1;
    uint64_t *H = oc__malloc_array(len, 2 * sizeof *H);
    int64_t *dif = oc__malloc_array(len, 6 * sizeof *dif);
    if (!H || !dif) {
        free(H);
        free(dif);
        return OC_ENOMEM;
    }
    uint64_t *PH = H + len; /* PH[i] = H_0 + ... + H_(i-1) */
    int64_t *cwc = dif, *cwl = dif + len, *ccc = dif + 2 * len, *ccl = dif + 3 * len;
    if (a->capN < (uint64_t)N + 1) {
        free(a->cw);
        free(a->ccw);
        a->cw = oc__calloc((size_t)N + 1, sizeof *a->cw);
        a->ccw = oc__calloc((size_t)N + 1, sizeof *a->ccw);
        a->capN = a->cw && a->ccw ? (uint64_t)N + 1 : 0;
        if (!a->cw || !a->ccw) {
            free(H);
            free(dif);
            return OC_ENOMEM;
        }
    }
    memset(a->cw, 0, ((size_t)N + 1) * sizeof *a->cw);
    memset(a->ccw, 0, ((size_t)N + 1) * sizeof *a->ccw);
    if (host_table(a, V)) {
        free(H);
        free(dif);
        return OC_ENOMEM;
    }
    const uint32_t *host = a->host;
    uint64_t volume = 0;
    int ties = 0;
    for (uint64_t r = 0; r < W; r++) {
        PH[0] = 0;
        for (size_t i = 0; i < m; i++)
            H[i] = host[i * W + r];
        for (size_t i = 0; i < m; i++)
            H[i + m] = H[i] + N;
        for (size_t i = 0; i < 2 * (size_t)m; i++)
            PH[i + 1] = PH[i] + H[i];
        memset(dif, 0, 4 * len * sizeof *dif);
        size_t f = 0;
        for (size_t d = 0; d < m; d++) {
            const uint64_t x = d * W + r;
            if (x && host[x - 1] == host[x]) continue; /* no block: nothing to send */
            if (f < d) f = d;
            while (f + 1 < d + m && 2 * (H[f + 1] - H[d]) < N)
                f++;
            const size_t j = f - d;
            const int tie = f + 1 < d + m && 2 * (H[f + 1] - H[d]) == N;
            const size_t back = m - 1 - j - (size_t)tie; /* counterclockwise receivers */
            /* clockwise: j - (i - d) on gaps i in [d, d + j) */
            cwc[d] += (int64_t)(j + d);
            cwc[d + j] -= (int64_t)(j + d);
            cwl[d] -= 1;
            cwl[d + j] += 1;
            /* counterclockwise: back - (d + m - 1 - i) on gaps i in [d + m - back, d + m) */
            ccc[d + m - back] += (int64_t)back - (int64_t)(d + m - 1);
            ccc[d + m] -= (int64_t)back - (int64_t)(d + m - 1);
            ccl[d + m - back] += 1;
            ccl[d + m] -= 1;
            volume += PH[d + j + 1] - PH[d + 1] - j * H[d];
            if (tie) {
                ties = 1;
                volume += N / 2;
            }
            volume += back * (N + H[d]) - (PH[d + m] - PH[d + m - back]);
        }
        int64_t c1 = 0, l1 = 0, c2 = 0, l2 = 0;
        int64_t *gap = dif + 4 * len; /* gap i's clockwise and counterclockwise counts */
        for (size_t i = 0; i < 2 * (size_t)m; i++) {
            c1 += cwc[i];
            l1 += cwl[i];
            c2 += ccc[i];
            l2 += ccl[i];
            gap[2 * i] = c1 + (int64_t)i * l1;
            gap[2 * i + 1] = c2 + (int64_t)i * l2;
        }
        for (size_t g = 0; g < m; g++) {
            const uint32_t from = (uint32_t)H[g], span = (uint32_t)(H[g + 1] - H[g]);
            add_arc(a->cw, N, from, span, gap[2 * g] + gap[2 * (g + m)]);
            add_arc(a->ccw, N, from, span, gap[2 * g + 1] + gap[2 * (g + m) + 1]);
        }
    }
    free(H);
    free(dif);
    *load = busiest_link(a, N, volume);
    *ties_out = ties;
    return 0;
}

/* ---- the ring model's colouring of the ring stage, counted here (the essay's "The ring
 * stage's colours, counted as the model counts them") ---- */

/* Free colours by deadline: cnt[dl] colours whose window closes at dl (the model's free buckets),
 * with a two-level bit index of the non-empty ones for the least deadline at or after a point. */
typedef struct deadline_pool {
    uint32_t *cnt;
    uint64_t *lo, *hi; /* a bit a deadline; a bit a word of lo */
    size_t nlo, nhi;
} deadline_pool;

static void bucket_put(deadline_pool *p, uint32_t dl) {
    if (p->cnt[dl]++ == 0) {
        p->lo[dl >> 6] |= UINT64_C(1) << (dl & 63);
        p->hi[dl >> 12] |= UINT64_C(1) << ((dl >> 6) & 63);
    }
}

static void bucket_take(deadline_pool *p, uint32_t dl) {
    if (--p->cnt[dl] == 0) {
        p->lo[dl >> 6] &= ~(UINT64_C(1) << (dl & 63));
        if (!p->lo[dl >> 6]) p->hi[dl >> 12] &= ~(UINT64_C(1) << ((dl >> 6) & 63));
    }
}

/* The least non-empty deadline >= e, or UINT32_MAX. */
static uint32_t bucket_next(const deadline_pool *p, uint32_t e) {
    size_t w = e >> 6;
    uint64_t bits = w < p->nlo ? p->lo[w] & (~UINT64_C(0) << (e & 63)) : 0;
    if (bits) return (uint32_t)(w * 64 + (size_t)__builtin_ctzll(bits));
    size_t h = (w + 1) >> 6;
    if (h >= p->nhi) return UINT32_MAX;
    uint64_t hb = ((w + 1) & 63) ? p->hi[h] & (~UINT64_C(0) << ((w + 1) & 63)) : p->hi[h];
    while (!hb) {
        if (++h >= p->nhi) return UINT32_MAX;
        hb = p->hi[h];
    }
    w = h * 64 + (size_t)__builtin_ctzll(hb);
    return (uint32_t)(w * 64 + (size_t)__builtin_ctzll(p->lo[w]));
}

/* ring_stage_colours' scratch, kept across calls (a search counts dozens of ring stages): sized
 * by N and by N (m - 1) distances. */
typedef struct ring_scratch {
    uint32_t *dist, *ncw, *starting, *rel_at, *open_at, *opens;
    uint8_t *tie;
    int64_t *diff;
    deadline_pool pool;
    uint32_t *rel; /* the intervals' release slots: the bucket each colour goes back to */
    size_t capdist, capopens, caprel;
    uint32_t N; /* the per-node arrays' size (0: none yet) */
} ring_scratch;

static void ring_scratch_free(ring_scratch *z) {
    free(z->dist);
    free(z->ncw);
    free(z->starting);
    free(z->rel_at);
    free(z->open_at);
    free(z->opens);
    free(z->tie);
    free(z->diff);
    free(z->pool.cnt);
    free(z->pool.lo);
    free(z->pool.hi);
    free(z->rel);
    memset(z, 0, sizeof *z);
}

/* 0 or OC_ENOMEM (z freed). */
static int ring_scratch_size(ring_scratch *z, uint32_t N, size_t dists) {
    if (z->N != N) {
        ring_scratch_free(z);
        const size_t np = (size_t)N + 1;
        z->pool.nlo = (np + 63) / 64;
        z->pool.nhi = (z->pool.nlo + 63) / 64;
        z->ncw = oc__malloc_array(N, sizeof *z->ncw);
        z->tie = oc__malloc_array(N, 1);
        z->diff = oc__malloc_array(np, sizeof *z->diff);
        z->starting = oc__malloc_array(np, sizeof *z->starting);
        z->rel_at = oc__malloc_array(np + 1, sizeof *z->rel_at);
        z->open_at = oc__malloc_array(np + 1, sizeof *z->open_at);
        z->pool.cnt = oc__malloc_array(np, sizeof *z->pool.cnt);
        z->pool.lo = oc__malloc_array(z->pool.nlo, sizeof *z->pool.lo);
        z->pool.hi = oc__malloc_array(z->pool.nhi, sizeof *z->pool.hi);
        if (!z->ncw || !z->tie || !z->diff || !z->starting || !z->rel_at || !z->open_at ||
            !z->pool.cnt || !z->pool.lo || !z->pool.hi) {
            ring_scratch_free(z);
            return OC_ENOMEM;
        }
        z->N = N;
    }
    if (z->capdist < dists) {
        free(z->dist);
        if (!(z->dist = oc__malloc_array(dists, sizeof *z->dist))) {
            ring_scratch_free(z);
            return OC_ENOMEM;
        }
        z->capdist = dists;
    }
    return 0;
}

/* The colours the ring model gives each direction of the ring stage of V positions and radix m
 * (W = V/m >= 2) on N nodes: colours[0] clockwise, colours[1] counterclockwise (the round's
 * steps are ceil(max / C)), maxload[] each direction's busiest link. host: host_of for every
 * position (NULL: computed). With `enough` (0: none), the counting stops once a direction has
 * reached that many colours: *whole is then 0 and colours[] are lower bounds on the model's (the
 * sweep only adds colours), one of them >= enough; else *whole is 1 and they are the model's.
 * 0 or OC_ENOMEM. */
/* Node n's ring-stage arcs in direction dir (0 clockwise), for the sweep's two walks: j = 0 is
 * the tie at N/2 when it goes this way, then j = 1 .. the count returned, longest first
 * (clockwise arcs by falling distance, counterclockwise ones by rising distance). */
static size_t stage_arcs(const uint32_t *ncw, const uint8_t *tie, size_t per, int dir,
                         uint32_t n) {
    return dir == 0 ? ncw[n] : per - (ncw[n] + (tie[n] ? 1 : 0));
}

/* The length of arc j of stage_arcs' list (cnt of them) in *len; 0 when j = 0 and no tie goes
 * this way. */
static inline int stage_arc(uint32_t N, const uint32_t *dist, const uint32_t *ncw,
                            const uint8_t *tie, size_t per, int dir, uint32_t n, size_t cnt,
                            size_t j, uint32_t *len) {
    if (j == 0) {
        *len = N / 2;
        return tie[n] == 1 + dir;
    }
    const uint32_t *dn = dist + (size_t)n * per;
    const size_t i = dir == 0 ? cnt - j : ncw[n] + (tie[n] ? 1 : 0) + j - 1;
    *len = dir == 0 ? dn[i] : N - dn[i];
    return 1;
}

static int ring_stage_colours(ring_scratch *z, uint32_t N, uint64_t V, uint32_t m,
                              const uint32_t *host, uint64_t enough, uint64_t colours[2],
                              uint64_t maxload[2], int *whole) {
    const uint64_t W = V / m;
    const size_t per = (size_t)m - 1, np = (size_t)N + 1;
    if (ring_scratch_size(z, N, (size_t)N * per)) return OC_ENOMEM;
    uint32_t *dist = z->dist, *ncw = z->ncw, *starting = z->starting, *rel_at = z->rel_at;
    uint32_t *open_at = z->open_at;
    uint8_t *tie = z->tie;
    int64_t *diff = z->diff;
    deadline_pool pool = z->pool;
    memset(tie, 0, N);
    /* 1. Every node's partners, clockwise distances in the order c = d+1 .. m-1, 0 .. d-1 (a
     * strictly growing list: see the essay), and the model's routing: shorter way, a transfer at
     * exactly N/2 the way fewer such units went so far in the round (transfer order: node by
     * node, at most one such partner a node). */
    uint64_t ties[2] = {0, 0};
    for (uint32_t n = 0; n < N; n++) {
        const uint64_t x = first_pos(N, V, n), d = x / W, base = x - d * W;
        uint32_t *dn = dist + (size_t)n * per, cw_n = 0;
        uint64_t c = d + 1 == m ? 0 : d + 1;
        for (size_t i = 0; i < per; i++, c = c + 1 == m ? 0 : c + 1) {
            const uint64_t peer = base + c * W;
            const uint32_t to = host ? host[peer] : host_of(N, V, peer);
            const uint32_t cw = to >= n ? to - n : to + N - n;
            dn[i] = cw;
            if (2ull * cw < N) cw_n++;
            if (2ull * cw == N) {
                const int way = ties[0] <= ties[1] ? 0 : 1;
                ties[way]++;
                tie[n] = (uint8_t)(1 + way);
            }
        }
        ncw[n] = cw_n;
    }
    uint32_t cuts[2] = {0, 0};
    uint64_t arcs_of[2] = {0, 0};
    for (int dir = 0; dir < 2; dir++) {
        /* 2. Loads and the cut (ring.c: the first link whose arcs, those starting on it aside,
         * are fewest), in this direction's forward coordinates: counterclockwise arcs mirrored,
         * starting at N - src. */
        uint64_t arcs = 0;
        memset(diff, 0, np * sizeof *diff);
        memset(starting, 0, np * sizeof *starting);
        for (uint32_t n = 0; n < N; n++) {
            const uint32_t *dn = dist + (size_t)n * per;
            const uint32_t s = dir == 0 ? n : (N - n) % N;
            const size_t lo = dir == 0 ? 0 : ncw[n] + (tie[n] ? 1 : 0), hi = dir == 0 ? ncw[n] : per;
            for (size_t i = lo; i <= hi; i++) {
                uint32_t len;
                if (i == hi) { /* the tie, after the loop's arcs */
                    if (tie[n] != 1 + dir) break;
                    len = N / 2;
                } else {
                    len = dir == 0 ? dn[i] : N - dn[i];
                }
                diff[s]++;
                starting[s]++;
                if (s + len <= N) {
                    diff[s + len]--;
                } else {
                    diff[N]--;
                    diff[0]++;
                    diff[s + len - N]--;
                }
                arcs++;
            }
        }
        colours[dir] = maxload[dir] = 0;
        arcs_of[dir] = arcs;
        int64_t run = 0;
        uint64_t best_pass = UINT64_MAX;
        for (uint32_t p = 0; p < N && arcs; p++) {
            run += diff[p];
            if ((uint64_t)run > maxload[dir]) maxload[dir] = (uint64_t)run;
            const uint64_t pass = (uint64_t)run - starting[p];
            if (pass < best_pass) {
                best_pass = pass;
                cuts[dir] = p;
            }
        }
    }
    /* The busier direction first: with `enough`, the other is not coloured once it reaches it. */
    *whole = 1;
    for (int o = 0; o < 2; o++) {
        const int dir = (maxload[1] > maxload[0]) != (o == 1);
        if (!arcs_of[dir]) continue;
        if (enough && (colours[0] >= enough || colours[1] >= enough)) {
            *whole = 0; /* the other direction has shown enough: this one is not coloured */
            continue;
        }
        const uint32_t cut = cuts[dir];
        /* 3. The arcs through the cut: their own colours (K), each opened at its end into the
         * bucket of its start (both from the cut), listed by end; and the slots of what the
         * other arcs (intervals) give back, by end too (the model's release records), counted
         * here and written as the sweep colours them. */
        memset(open_at, 0, (np + 1) * sizeof *open_at);
        memset(rel_at, 0, (np + 1) * sizeof *rel_at);
        for (int fill = 0; fill < 2; fill++) {
            for (uint32_t p = 0; p < N; p++) {
                const uint32_t s = (cut + p) % N, n = dir == 0 ? s : (N - s) % N;
                const size_t cnt = stage_arcs(ncw, tie, per, dir, n);
                for (size_t j = 0; j <= cnt; j++) { /* the crossing ones come first */
                    uint32_t len;
                    if (!stage_arc(N, dist, ncw, tie, per, dir, n, cnt, j, &len)) continue;
                    if (p + len <= N) { /* an interval, and so are the shorter ones after it */
                        if (fill) break;
                        rel_at[p + len + 1]++;
                        continue;
                    }
                    const uint32_t end = p + len - N;
                    if (fill) z->opens[open_at[end]++] = p;
                    else open_at[end + 1]++;
                }
            }
            if (!fill) {
                for (size_t e = 0; e < np; e++) {
                    open_at[e + 1] += open_at[e];
                    rel_at[e + 1] += rel_at[e];
                }
                /* open_at[np] arcs through the cut (best_pass of them), rel_at[np] intervals */
                if (oc__grow((void **)&z->opens, &z->capopens, open_at[np] + 1, sizeof *z->opens) ||
                    oc__grow((void **)&z->rel, &z->caprel, rel_at[np] + 1, sizeof *z->rel))
                    return OC_ENOMEM;
            } else { /* open_at[e] moved to the end of e's run: the start of e + 1's */
                for (size_t e = np; e-- > 0;)
                    open_at[e + 1] = open_at[e];
                open_at[0] = 0;
            }
        }
        const uint64_t ncross = open_at[np];
        /* 4. The sweep (ring.c's colour_cut, one unit an arc): at each point from the cut, the
         * intervals ending there give their colour back to the bucket it came from, the arcs
         * through the cut ending there open theirs, and the intervals starting there, longest
         * first, each take a colour from the bucket of the least deadline at or after its end,
         * or a new one (given back to the bucket of N). rel_at[e] is where e's slots begin,
         * moved on as they are written: when the sweep reaches e, every interval ending at e
         * or before has started, so e's slots run from rel_at[e - 1] (moved to e's beginning)
         * to rel_at[e] (moved to its end). */
        memset(pool.cnt, 0, np * sizeof *pool.cnt);
        memset(pool.lo, 0, pool.nlo * sizeof *pool.lo);
        memset(pool.hi, 0, pool.nhi * sizeof *pool.hi);
        uint64_t fresh = 0;
        uint32_t *slot = z->rel;
        for (uint32_t p = 0; p <= N; p++) {
            if (p >= 1) /* the intervals ending at p (ends >= 1), all written by now */
                for (uint32_t q = rel_at[p - 1]; q < rel_at[p]; q++)
                    bucket_put(&pool, slot[q]);
            for (uint32_t i = open_at[p]; i < open_at[p + 1]; i++)
                bucket_put(&pool, z->opens[i]);
            if (p == N) break;
            const uint32_t s = (cut + p) % N, n = dir == 0 ? s : (N - s) % N;
            const size_t cnt = stage_arcs(ncw, tie, per, dir, n);
            for (size_t j = 0; j <= cnt; j++) {
                uint32_t len;
                if (!stage_arc(N, dist, ncw, tie, per, dir, n, cnt, j, &len)) continue;
                if (p + len > N) continue; /* through the cut: coloured above */
                const uint32_t end = p + len;
                uint32_t dl = bucket_next(&pool, end);
                if (dl == UINT32_MAX) {
                    fresh++;
                    dl = N;
                } else {
                    bucket_take(&pool, dl);
                }
                slot[rel_at[end]++] = dl;
            }
            /* the count only grows: past `enough` the rest cannot take it back */
            if (enough && ncross + fresh >= enough && p + 1 < N) {
                *whole = 0;
                break;
            }
        }
        colours[dir] = ncross + fresh;
    }
    return 0;
}

int oc__optree_ring_stage_colours(uint32_t N, uint64_t V, uint32_t m1, uint64_t enough,
                                  uint64_t colours[2], uint64_t maxload[2], int *whole) {
    if (m1 < 2 || V % m1 || V / m1 < 2 || V < N || V > 2ull * N) return OC_EINVAL;
    if ((uint64_t)N * (m1 - 1) > UINT32_MAX) return OC_ETOOBIG;
    ring_scratch z = {0};
    int rc = ring_stage_colours(&z, N, V, m1, NULL, enough, colours, maxload, whole);
    ring_scratch_free(&z);
    return rc;
}

/* A stage's exact counts: its busiest link in blocks (load) and, at spread=0 (a->unspread),
 * in transfers (units), with the least class a transfer carries (least); exact 0 when a transfer
 * is at N/2 nodes (the model decides its way). */
typedef struct stage_count {
    uint64_t load, units, least;
    int exact;
} stage_count;

/* The exact counts of the stage (V, W, m), counted once (memo): segment_load where it applies,
 * the ring stage per residue (one block a transfer: units = load, least = 1), else routed_load
 * (twice at spread=0, by blocks and by transfers). */
static int exact_load(ag_search *a, uint64_t V, uint64_t W, uint32_t m, stage_count *c) {
    memo *e = memo_get(&a->loads, &a->nloads, &a->caploads, V, W, m);
    if (!e) return OC_ENOMEM;
    if (e->used == 1) {
        *c = (stage_count){.load = e->load, .units = e->units, .least = e->least,
                           .exact = e->exact};
        return 0;
    }
    /* A count walks every node (65536 at the largest N, thousands of counts a search): the
     * caller's stop is heard between counts, not only inside the candidates' mapped rounds. */
    if (oc__stop_here.progress && oc__stop_poll()) return OC_ECANCELED;
    int ties = 0, rc = segment_load(a, V, W, m, &c->load, a->unspread, &c->units, &c->least);
    if (rc < 0) return rc;
    if (!rc && V == W * m && W >= 2) {
        if ((rc = ring_stage_load(a, V, W, m, &c->load, &ties))) return rc;
        c->units = c->load;
        c->least = 1;
    } else if (!rc) {
        if ((rc = routed_load(a, V, W, m, 0, &c->load, &ties, &c->least))) return rc;
        if (a->unspread && (rc = routed_load(a, V, W, m, 1, &c->units, &ties, &c->least)))
            return rc;
    }
    if (!a->unspread) c->units = c->least = 0;
    c->exact = !ties;
    e->used = 1;
    e->load = c->load;
    e->units = c->units;
    e->least = c->least;
    e->exact = c->exact;
    return 0;
}

int oc__optree_stage_counts(uint32_t N, uint64_t V, uint64_t W, uint32_t m, oc__optree_count how,
                            uint64_t *load, uint64_t *units, uint64_t *least, int *exact) {
    ag_search a = {.N = N, .unspread = 1};
    int ties = 0, rc;
    if (how == OC__OPTREE_COUNT_SEARCH) {
        stage_count c = {0};
        rc = exact_load(&a, V, W, m, &c);
        *load = c.load;
        *units = c.units;
        *least = c.least;
        *exact = c.exact;
    } else {
        rc = routed_load(&a, V, W, m, 0, load, &ties, least);
        if (!rc) rc = routed_load(&a, V, W, m, 1, units, &ties, least);
        *exact = !ties;
    }
    free(a.loads);
    free(a.cw);
    free(a.ccw);
    free(a.cls);
    free(a.pre);
    free(a.cut);
    free(a.host);
    return rc;
}

/* The last stage for any V in N..2N (a prefix's last radix before the bound above is worth its
 * floor sums): the group's positions right of P sit on at least ceil((m-h-1)/2) nodes after P-1's
 * (at most two positions a node), CNT(0, h) >= hN/m - R and cnt(0) <= R with R = V/m <= 2N/m. */
static uint64_t last_load_any(uint32_t N, uint64_t m) {
    const uint64_t h = m / 2;
    if (h < 3) return 0;
    const uint64_t nodes = (m - h) / 2, per = (h - 2) * N / m, c0 = oc__ceil_div(2ull * N, m);
    return nodes * per > c0 ? nodes * per - c0 : 0;
}

/* A stage's bound from its busiest link's load in blocks: steps (spread=1), or at spread=0 the
 * time of a stage whose transfers may carry bundles, its largest at least `big` blocks, in ticks
 * (the essay above). */
static uint64_t stage_of(const ag_search *a, uint64_t load, uint64_t big, uint64_t most) {
    if (!a->unspread) return oc__ceil_div(load, a->C);
    if (!load && !big) return 0;
    const uint64_t steps = oc__ceil_div(load, a->C * (most ? most : 1));
    const double n = (double)(steps ? steps : 1);
    const double per = (double)load / (double)a->C, b = (double)big;
    const double t = n * a->reconf_s + a->lin_s * (per > b ? per : b);
    return (uint64_t)floor((t > n * a->step ? t : n * a->step) / a->tick);
}

/* A lower bound on the largest bundle of a stage of segments S (0: none proven), V known. */
static uint64_t big_known(uint32_t N, uint64_t S, uint64_t W) {
    return W >= 2 || S >= 3 ? oc__ceil_div(N, S) : 0;
}

/* The ring stage's (and one stage's) bound: every transfer one block, ceil(load / C) steps, in
 * ticks at spread=0. */
static uint64_t ring_steps(const ag_search *a, uint64_t load) {
    const uint64_t st = oc__ceil_div(load, a->C);
    return a->unspread ? (uint64_t)floor((double)st * a->step / a->tick) : st;
}

/* A stage known to send something: at least one step (one step of s(1) at spread=0). */
static uint64_t one_step(const ag_search *a) {
    return a->unspread ? (uint64_t)floor(a->step / a->tick) : 1;
}

/* A stage's bound from its exact counts: steps, or at spread=0 its time in ticks from its
 * busiest link in transfers (the essay's "Transfers, not blocks"): n = max(1, ceil(units / C))
 * steps at least, n of them each carrying on that link a transfer of `least` blocks or more, so
 *     stage time >= max(n s(1), n r + lin max(load / C, n least, big)). */
static uint64_t stage_counted(const ag_search *a, const stage_count *c, uint64_t big) {
    if (!a->unspread) return oc__ceil_div(c->load, a->C);
    if (!c->load && !big) return 0;
    const uint64_t steps = oc__ceil_div(c->units, a->C);
    const double n = (double)(steps ? steps : 1);
    double b = (double)c->load / (double)a->C;
    if (n * (double)c->least > b) b = n * (double)c->least;
    if ((double)big > b) b = (double)big;
    const double t = n * a->reconf_s + a->lin_s * b;
    return (uint64_t)floor((t > n * a->step ? t : n * a->step) / a->tick);
}

/* The cheap bound (steps) of a stage whose V is known: mid_load or last_load, counted once. */
static int stage_cheap(ag_search *a, uint64_t V, uint64_t W, uint64_t m, uint64_t *steps) {
    memo scratch = {0};
    memo *e = a->ncheap < (1u << 20) ? memo_get(&a->cheap, &a->ncheap, &a->capcheap, V, W, m)
                                     : &scratch; /* a full table: counted again, not kept */
    if (!e) return OC_ENOMEM;
    if (e->used != 1) {
        e->used = 1;
        if (W == 1) {
            e->load = stage_of(a, last_load(a->N, V, m), big_known(a->N, m, 1), V / m);
        } else {
            e->load = stage_of(a, mid_load(a->N, V, W, m), big_known(a->N, W * m, W), V / (W * m));
            if (!e->load) e->load = one_step(a);
        }
    }
    *steps = e->load;
    return 0;
}

/* The bound of a complete list (steps). */
static int list_bound(ag_search *a, const oc__radices *r, uint64_t *steps) {
    const uint32_t N = a->N;
    const uint64_t V = oc__radices_product(r);
    if (r->k == 1) {
        *steps = ring_steps(a, ring_load(N, N));
        return 0;
    }
    uint64_t total = ring_steps(a, ring_load(N, r->m[0])), W = V / r->m[0], st;
    for (uint32_t j = 1; j < r->k; j++) {
        W /= r->m[j];
        if (stage_cheap(a, V, W, r->m[j], &st)) return OC_ENOMEM;
        total += st;
    }
    *steps = total;
    return 0;
}

static oc__bound bound_of(const ag_search *a, uint64_t steps, const char *name) {
    oc__bound b = {.time_s = (double)steps * a->step, .steps = steps, .name = name};
    if (a->unspread) { /* ticks of time; the steps are not bounded */
        b.time_s = (double)steps * a->tick;
        b.steps = 0;
    }
    return b;
}

static const char *const BOUND_NAME = "ring load: sum over stages of ceil(busiest link / C)";

/* oc__search_can_win for a bound of `steps`; in the first pass also 0 past the least bound kept
 * so far plus 1/64 (the essay's "Order": that pass only picks incumbents, so it may skip what
 * is unlikely to be the best; the second pass decides by proofs alone). */
static int may_win(ag_search *a, const oc__bound *b, uint64_t steps) {
    if (a->collecting == 1 && a->npool && steps > a->pool_least + a->pool_least / 16) {
        if (steps < a->skip_least) a->skip_least = steps;
        return 0;
    }
    return oc__search_can_win(a->s, b);
}

/* may_win for a list of `steps` steps, its bound made here (into *b); a list that cannot win is
 * counted among the candidates passed over, with the fewest steps of those. 1: it may win; 0:
 * passed over; < 0: an error. */
static int may_win_counted(ag_search *a, uint64_t steps, oc__bound *b) {
    *b = bound_of(a, steps, BOUND_NAME);
    int yes = may_win(a, b, steps);
    if (!yes && (!a->candidates++ || steps < a->cand_steps)) a->cand_steps = steps;
    return yes;
}

/* A list's transfers (oc__bound.transfers, a lower bound there), so that the search does not
 * generate a list over its budget to find out: a stage with W >= 2 sends the range of every
 * position that holds something to all m - 1 partners (two positions of one node are neighbours,
 * so partners W >= 2 apart sit on other nodes and stage_sends skips none of them), and a position
 * holds something before stage j when a block-bearing position shares its residue mod S = mW.
 * The last stage (W = 1, radix m): before it a position holds its class (the blocks of the
 * positions of its residue mod m) and a node the classes of its one or two positions; it ends
 * with every block, each class whole in one transfer, delivered once (stage_sends' rules: the
 * verifier finds no redundant delivery), so node n receives exactly the classes that are not
 * empty less those it holds: N x (classes not empty) - sum over nodes of the classes not empty
 * that they hold. (It counted 0 before: at N = 65536 with k = 2 pinned the lists of about 35 M
 * transfers passed as 23 M, were counted and their ring stages colour by colour, and were
 * refused only when generated past the search's budget of 2^25.) One stage (k = 1) is one-stage
 * all-gather: N (N - 1). 0 (not known) when out of memory. */
static uint64_t list_transfers(uint32_t N, const oc__radices *r) {
    if (r->k == 1) return (uint64_t)N * (N - 1);
    const uint64_t V = oc__radices_product(r);
    uint8_t *held = oc__malloc_array((size_t)V, 1);
    if (!held) return 0;
    uint64_t total = 0, W = V;
    for (uint32_t j = 0; j + 1 < r->k; j++) {
        W /= r->m[j];
        const uint64_t S = W * r->m[j];
        memset(held, 0, (size_t)S);
        uint64_t residues = 0;
        for (uint32_t n = 0; n < N; n++) {
            const uint64_t x = first_pos(N, V, n) % S;
            residues += !held[x];
            held[x] = 1;
        }
        total += (uint64_t)(r->m[j] - 1) * (V / S) * residues;
    }
    const uint64_t m = r->m[r->k - 1];
    memset(held, 0, (size_t)m);
    uint64_t classes = 0;
    for (uint32_t n = 0; n < N; n++) {
        const uint64_t x = first_pos(N, V, n) % m;
        classes += !held[x];
        held[x] = 1;
    }
    total += (uint64_t)N * classes;
    for (uint32_t n = 0; n < N; n++) /* a node's positions: consecutive, distinct residues */
        for (uint64_t x = first_pos(N, V, n); x < V && host_of(N, V, x) == n; x++)
            total -= held[x % m];
    free(held);
    return total;
}

/* The key of a list's ring stage among those mapped alone (ringcost, with m_1): its V, or 0 when
 * m_1 divides N, where the stage is the same round for every V (the essay's "The ring stage when
 * m_1 divides N"), mapped once. */
static uint64_t ring_key(const ag_search *a, const oc__radices *r) {
    return oc__optree_ring_stage_shared(a->N, r->m[0]) ? 0 : oc__radices_product(r);
}

int oc__optree_ring_stage_shared(uint32_t N, uint32_t m1) {
    return m1 >= 2 && N % m1 == 0;
}

/* At spread=0, a proven lower bound on a list's steps from what is already counted (the bound
 * in ticks claims none): every stage takes at least ceil(units / C) steps, its busiest link in
 * transfers, one colour each; the ring stage its mapped steps when it was mapped alone
 * (ring_stage_cost), else ceil(load / C) (one block a transfer); a stage not counted, 0. With
 * it a list whose time bound ties the best mapped list and whose steps are no fewer is decided
 * by the order of offer, unmapped (a full tie goes to the earlier offer): at N = 4096, k = 2,
 * 128 lists tie at 322 steps and 10.234 ms. 0 at spread=1 (the bound is in steps there). */
static uint64_t counted_steps(const ag_search *a, const oc__radices *r) {
    if (!a->unspread) return 0;
    const uint32_t N = a->N;
    if (r->k == 1) return oc__ceil_div(ring_load(N, N), a->C);
    const uint64_t V = oc__radices_product(r);
    const memo *ring = memo_find(a->ringcost, a->capringcost, ring_key(a, r), 0, r->m[0]);
    const memo *ring_count = memo_find(a->loads, a->caploads, V, V / r->m[0], r->m[0]);
    uint64_t steps = oc__ceil_div(ring_load(N, r->m[0]), a->C);
    if (ring_count && oc__ceil_div(ring_count->load, a->C) > steps)
        steps = oc__ceil_div(ring_count->load, a->C);
    if (ring && ring->exact && ring->units > steps) steps = ring->units;
    uint64_t W = V / r->m[0];
    for (uint32_t j = 1; j < r->k; j++) {
        W /= r->m[j];
        const memo *e = memo_find(a->loads, a->caploads, V, W, r->m[j]);
        if (e) steps += oc__ceil_div(e->units, a->C);
    }
    return steps;
}

static int offer_list(ag_search *a, const oc__radices *r, uint64_t steps) {
    char text[256];
    oc__radices_format(r, text, sizeof text);
    const char *kv[] = {"radices", text};
    oc__bound b = bound_of(a, steps, BOUND_NAME);
    if (a->unspread) b.steps = counted_steps(a, r);
    b.transfers = list_transfers(a->N, r);
    a->offered++;
    return oc__search_offer(a->s, &b, 1, kv);
}

/* The exact counts of a complete list's stages (k >= 2) for try_list: the ring stage's (its
 * busiest link, which the volume bound only averages; at least `ring`, its closed form) in
 * *ring_exact, the later stages' sum in *rest, and whether all of those are exact. The stages are
 * counted cheapest first (a stage of radix m costs V m transfers to count: with k pinned at
 * N = 65536, lists whose last stage has a radix in the thousands were counted whole only to be
 * found unable to win). Each stage's steps are at least its cheap bound (list_bound's term) and at
 * least its exact count, so after each count the sum over stages of the larger of the two, the
 * stages not yet counted at their cheap bound, is a proven bound on the list; once it cannot win
 * the rest is not counted: 1 (counted as a complete list whose bound cannot win; the sum is a
 * proven bound, so the list cannot beat what the search has mapped, whichever way it is decided),
 * else 0 or a negative error. */
static int exact_stages(ag_search *a, const oc__radices *r, uint64_t cheap_total,
                        uint64_t *ring_exact, uint64_t *rest, int *all_exact) {
    const uint64_t V = oc__radices_product(r);
    uint64_t W[OC_RADIX_MAX_STAGES], cheap[OC_RADIX_MAX_STAGES], val[OC_RADIX_MAX_STAGES] = {0};
    int counted[OC_RADIX_MAX_STAGES] = {0}, ex = 1;
    uint64_t w = V;
    for (uint32_t j = 0; j < r->k; j++) {
        w /= r->m[j];
        W[j] = w;
        if (j == 0)
            cheap[j] = ring_steps(a, ring_load(a->N, r->m[0]));
        else if (stage_cheap(a, V, W[j], r->m[j], &cheap[j]))
            return OC_ENOMEM;
    }
    uint64_t partial = cheap_total, checked = cheap_total;
    for (uint32_t n = 0; n < r->k; n++) {
        uint32_t j = UINT32_MAX;
        for (uint32_t i = 0; i < r->k; i++)
            if (!counted[i] && (j == UINT32_MAX || r->m[i] < r->m[j])) j = i;
        stage_count c;
        int rc = exact_load(a, V, W[j], r->m[j], &c);
        if (rc) return rc;
        counted[j] = 1;
        val[j] = j == 0 ? ring_steps(a, c.load)
                        : stage_counted(a, &c, big_known(a->N, W[j] * r->m[j], W[j]));
        if (val[j] < cheap[j]) val[j] = cheap[j];
        if (j > 0) ex &= c.exact;
        if (val[j] > cheap[j]) partial += val[j] - cheap[j];
        if (n + 1 < r->k && partial > checked) {
            checked = partial;
            oc__bound b = bound_of(a, partial, BOUND_NAME);
            int yes = may_win(a, &b, partial);
            if (yes < 0) return yes;
            if (!yes) {
                if (!a->candidates++ || partial < a->cand_steps) a->cand_steps = partial;
                return 1;
            }
        }
    }
    *ring_exact = val[0];
    *rest = 0;
    for (uint32_t j = 1; j < r->k; j++)
        *rest += val[j];
    *all_exact = ex;
    return 0;
}

/* ---- the first pass: the likeliest winners mapped first (the essay's "Order") ---- */

typedef struct pooled {
    oc__radices r;
    uint64_t steps; /* its proven bound: list_bound's, or with its exact counts (counted) */
    size_t seen;    /* its place in the enumeration */
    int counted, exact;
    uint64_t rest; /* counted: the exact count of the stages after the ring stage */
} pooled;

enum { OC__OPTREE_POOL = 4096 }; /* lists kept from the first pass (the best bounds) */

static int by_bound_then_seen(const void *pa, const void *pb) {
    const pooled *x = pa, *y = pb;
    if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
    return x->seen < y->seen ? -1 : x->seen > y->seen;
}

/* Keeps a list the first pass found able to win; past twice the pool's size, only the best
 * OC__OPTREE_POOL bounds stay (what is dropped is still offered in the second pass). */
static int pool_add(ag_search *a, const oc__radices *r, uint64_t steps) {
    if (a->npool == 2 * (size_t)OC__OPTREE_POOL) {
        qsort(a->pool, a->npool, sizeof *a->pool, by_bound_then_seen);
        a->npool = OC__OPTREE_POOL;
        if (a->pool[a->npool].steps < a->skip_least) a->skip_least = a->pool[a->npool].steps;
    }
    if (oc__grow((void **)&a->pool, &a->cappool, a->npool + 1, sizeof *a->pool)) return OC_ENOMEM;
    a->pool[a->npool] = (pooled){.r = *r, .steps = steps, .seen = a->pool_seen++};
    if (!a->npool || steps < a->pool_least) a->pool_least = steps;
    a->npool++;
    return 0;
}

/* Maps pooled lists as incumbents (oc__search_hint), least bound first, while one can still win.
 * A pooled list carries its cheap bound (list_bound) until it comes first; its exact counts
 * (exact_stages) are taken then, and it goes back in its place by the larger bound; a list first
 * by a bound with its counts in is mapped. So the lists counted and mapped here are those whose
 * bound is below the incumbents found (a heap by bound, least first). */
static int heap_less(const pooled *p, size_t i, size_t j) {
    if (p[i].steps != p[j].steps) return p[i].steps < p[j].steps;
    return p[i].seen < p[j].seen;
}

static void heap_down(pooled *p, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, least = i;
        if (l < n && heap_less(p, l, least)) least = l;
        if (l + 1 < n && heap_less(p, l + 1, least)) least = l + 1;
        if (least == i) return;
        const pooled t = p[i];
        p[i] = p[least];
        p[least] = t;
        i = least;
    }
}

static int by_seen(const void *pa, const void *pb) {
    const pooled *x = pa, *y = pb;
    return x->seen < y->seen ? -1 : x->seen > y->seen;
}

static int optree_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                       uint64_t bytes, const oc_kv *params, char *why, size_t len);
static void optree_release(oc__plan *plan);
static int emit_stages(const oc__plan *plan, oc__emit *e, uint32_t stages);

static int ring_stage_round(void *ctx, oc__emit *e) {
    return emit_stages(ctx, e, 1);
}

/* The least steps T of the ring stage at which a list whose later stages are bounded by `rest`
 * (steps, or ticks at spread=0) can no longer win (oc__search_can_win, which only compares with
 * the best mapped cost: monotone in the bound), searched from T0 up to 2 T0 + 1; 0 when it can
 * still win there (the stage is then counted whole), < 0 on an error. */
static int64_t ring_enough_steps(ag_search *a, uint64_t T0, uint64_t rest) {
    uint64_t lo = 0, hi = T0 ? T0 : 1, step = 1; /* lo: can win (0: not tried) */
    for (;;) {
        const uint64_t v = ring_steps(a, hi * a->C) + rest;
        oc__bound b = bound_of(a, v, BOUND_NAME);
        const int yes = oc__search_can_win(a->s, &b);
        if (yes < 0) return yes;
        if (!yes) break;
        lo = hi;
        hi = T0 + step;
        step *= 2;
        if (hi > 2 * T0 + 1) return 0;
    }
    while (lo && hi - lo > 1) { /* lo can win, hi cannot */
        const uint64_t mid = lo + (hi - lo) / 2;
        oc__bound b = bound_of(a, ring_steps(a, mid * a->C) + rest, BOUND_NAME);
        const int yes = oc__search_can_win(a->s, &b);
        if (yes < 0) return yes;
        if (yes)
            lo = mid;
        else
            hi = mid;
    }
    return (int64_t)hi;
}

/* The ring stage's cost counted here by the model's rule (the essay's "The ring stage's colours,
 * counted as the model counts them"), kept in e: whole, or (partial, e->least = 1) only as far
 * as shows that a list whose later stages are bounded by `rest` cannot win. */
static int ring_stage_counted(ag_search *a, const oc__radices *r, uint64_t rest, memo *e) {
    const uint64_t V = oc__radices_product(r), m1 = r->m[0];
    const int64_t T = ring_enough_steps(a, oc__ceil_div(ring_load(a->N, m1), a->C), rest);
    if (T < 0) return (int)T;
    if (e->used == 1 && e->least && T && e->units >= (uint64_t)T) return 0; /* enough already */
    uint64_t colours[2], maxload[2];
    int whole = 0;
    if (!a->ring_scratch && !(a->ring_scratch = oc__calloc(1, sizeof *a->ring_scratch)))
        return OC_ENOMEM;
    if (host_table(a, V) || ring_stage_colours(a->ring_scratch, a->N, V, (uint32_t)m1, a->host,
                                               T ? ((uint64_t)T - 1) * a->C + 1 : 0, colours,
                                               maxload, &whole))
        return OC_ENOMEM;
    const uint64_t steps = oc__ceil_div(colours[0] > colours[1] ? colours[0] : colours[1], a->C);
    e->used = 1;
    e->exact = 1; /* costed: a proven bound either way */
    e->least = !whole;
    e->load = ring_steps(a, steps * a->C);
    e->units = steps;
    return 0;
}

/* The ring stage of list r costed alone, once per (V, m_1): on the ring counted here by the
 * model's rule (ring_stage_counted; `rest` bounds the list's later stages), elsewhere mapped
 * alone by the model (oc__search_round_costs). On a model that costs rounds alone that is exactly
 * what the stage adds to the list's cost (or, counted partially, at most that), so with the other
 * stages' bounds it bounds the list (the model's colouring of the ring stage is 0.3-1% above its
 * load, the gap that left the bounds under the winner's cost). *ok 0 when not costed (no such
 * model, the budget, a refusal); 0, OC_ENOMEM, or an error of oc__search_can_win. */
static int ring_stage_cost(ag_search *a, const oc__radices *r, uint64_t rest, uint64_t *units,
                           int *ok) {
    *ok = 0;
    if (a->no_round_costs) return 0;
    memo *e = memo_get(&a->ringcost, &a->nringcost, &a->capringcost, ring_key(a, r), 0, r->m[0]);
    if (!e) return OC_ENOMEM;
    /* (the count indexes its arcs in 32 bits: past that the stage is left uncosted) */
    if (a->ring_rule && (uint64_t)a->N * (r->m[0] - 1) > UINT32_MAX) return 0;
    if (a->ring_rule && (e->used != 1 || e->least)) { /* the model's colouring, counted here */
        const int rc = ring_stage_counted(a, r, rest, e);
        if (rc) return rc;
    }
    if (e->used == 1) {
        *ok = e->exact;
        *units = e->load;
        return 0;
    }
    uint64_t steps = 0;
    char text[256], why[256] = "";
    oc__radices_format(r, text, sizeof text);
    oc_kv *kv = oc_kv_new();
    if (!kv || oc_kv_set(kv, "radices", text)) {
        oc_kv_free(kv);
        return OC_ENOMEM;
    }
    oc__plan plan = {0};
    double t = 0;
    int rc = optree_plan(&plan, OC_ALLGATHER, a->N, a->in->root, a->in->bytes, kv, why, sizeof why);
    oc_kv_free(kv);
    if (!rc)
        rc = oc__search_round_costs(a->s, &plan.spec, ring_stage_round, &plan, &steps, &t, why,
                                    sizeof why);
    optree_release(&plan);
    oc__plan_free(NULL, &plan);
    if (rc == OC_ENOMEM) return rc;
    if (rc == OC_ENOTSUP) a->no_round_costs = 1;
    e->used = 1;
    e->exact = *ok = rc == 0;
    e->load = *units = a->unspread ? (uint64_t)floor(t / a->tick) : steps;
    e->units = steps; /* counted_steps reads the mapped steps at spread=0 */
    return 0;
}

/* After the first pass: the pool's lists counted least bound first (a heap), the first counted
 * one on top mapped as the incumbent (oc__search_hint), and every list whose bound can still win
 * against it set aside. When no list the pass skipped without a proof can win either (its bound,
 * skip_least, is beaten), those lists are offered in the order they were found, the one pass's
 * order, and *done is 1: the search is decided by mapping them (least bound first, search.c)
 * and the rest is proven out. Else *done is 0 and nothing was offered. */
static int settle_pool(ag_search *a, int *done) {
    pooled *p = a->pool;
    size_t n = a->npool, nset = 0; /* set aside: p[n .. npool) grows down from the end */
    *done = 0;
    for (size_t i = n / 2; i-- > 0;)
        heap_down(p, n, i);
    int rc = 0, hinted = 0;
    while (n && !rc) {
        oc__bound b = bound_of(a, p[0].steps, BOUND_NAME);
        int yes = oc__search_can_win(a->s, &b);
        if (yes <= 0) {
            rc = yes; /* 0: the rest are bounded no lower */
            break;
        }
        if (!p[0].counted) {
            uint64_t ring_exact = 0, rest = 0;
            int exact = 0;
            rc = p[0].r.k >= 2 ? exact_stages(a, &p[0].r, p[0].steps, &ring_exact, &rest, &exact)
                               : 0;
            if (rc < 0) break;
            p[0].counted = 1;
            p[0].rest = rest;
            p[0].exact = exact;
            if (rc == 1) { /* cannot win (counted by exact_stages) */
                p[0] = p[--n];
            } else if (ring_exact + rest > p[0].steps) {
                p[0].steps = ring_exact + rest;
            }
            rc = 0;
            heap_down(p, n, 0);
            continue;
        }
        if (p[0].counted == 1 && p[0].r.k >= 2) { /* its ring stage costed alone, once */
            /* On the ring at spread=1, the first list here is mapped as the incumbent first: its
             * bound is its exact later stages and its ring stage's load, within the colouring's
             * 0.3-1 % of its cost, so the counts of the ring stages after it stop once they show
             * that their list cannot win against it (ring_stage_counted) instead of running
             * whole against the balanced seeds. (At spread=0 the bounds are looser: mapped that
             * early it is no good incumbent, and the search then mapped more, 70 lists instead
             * of 21 at N = 4096, 4 KiB, nothing pinned.) */
            if (!hinted && a->ring_rule && !a->unspread &&
                (!a->s->budget || list_transfers(a->N, &p[0].r) <= a->s->budget)) {
                char text[256];
                oc__radices_format(&p[0].r, text, sizeof text);
                const char *kv[] = {"radices", text};
                if ((rc = oc__search_hint(a->s, 1, kv))) break;
                hinted = 1;
            }
            uint64_t ring = 0;
            int ok = 0;
            /* (a list past the budget is refused whatever its bound: not costed) */
            if (!a->s->budget || (a->s->budget >= oc__radices_product(&p[0].r) * p[0].r.m[0] &&
                                  list_transfers(a->N, &p[0].r) <= a->s->budget))
                if ((rc = ring_stage_cost(a, &p[0].r, p[0].rest, &ring, &ok))) break;
            p[0].counted = 2;
            if (ok && ring + p[0].rest > p[0].steps) p[0].steps = ring + p[0].rest;
            heap_down(p, n, 0);
            continue;
        }
        if (!hinted && (!a->s->budget || list_transfers(a->N, &p[0].r) <= a->s->budget)) {
            char text[256];
            oc__radices_format(&p[0].r, text, sizeof text);
            const char *kv[] = {"radices", text};
            if ((rc = oc__search_hint(a->s, 1, kv))) break;
            hinted = 1;
        }
        const pooled top = p[0];
        p[0] = p[--n];
        heap_down(p, n, 0);
        if (top.r.k >= 2 && !a->unspread) { /* try_list's dominance, among lists found earlier */
            memo *f = memo_get(&a->firsts, &a->nfirsts, &a->capfirsts, oc__radices_product(&top.r),
                               0, top.r.m[0]);
            if (!f) return OC_ENOMEM;
            if (f->used == 1 && f->load <= top.rest && f->seen < top.seen) {
                a->dominated++;
                continue;
            }
            if (top.exact && (f->used != 1 || top.seen < f->seen)) {
                f->used = 1;
                f->load = top.rest;
                f->seen = top.seen;
            }
        }
        p[a->npool - ++nset] = top; /* n < npool - nset: the slot is free */
    }
    if (rc) return rc;
    for (size_t i = 0; i < n; i++) /* beaten by their bounds */
        if (!a->candidates++ || p[i].steps < a->cand_steps) a->cand_steps = p[i].steps;
    if (a->skip_least != UINT64_MAX) {
        oc__bound b = bound_of(a, a->skip_least, BOUND_NAME);
        int yes = oc__search_can_win(a->s, &b);
        if (yes) return yes < 0 ? yes : 0;
    }
    if (nset) { /* p may be NULL when nothing was pooled */
        pooled *set = p + a->npool - nset;
        qsort(set, nset, sizeof *set, by_seen);
        for (size_t i = 0; i < nset && !rc; i++)
            rc = offer_list(a, &set[i].r, set[i].steps);
    }
    a->npool = 0;
    *done = !rc;
    return rc;
}

static int try_list(ag_search *a, const oc__radices *r) {
    uint64_t steps;
    if (list_bound(a, r, &steps)) return OC_ENOMEM;
    oc__bound b;
    int yes = may_win_counted(a, steps, &b);
    if (yes <= 0) return yes;
    if (a->collecting) return pool_add(a, r, steps); /* counted if it comes first (settle_pool) */
    if (r->k >= 2) { /* the exact count, and the best list per ring stage */
        /* Same V and m_1: the same ring-stage round (the same transfers in the same order),
         * coloured the same; the later stages of a list whose count is exact cost exactly their
         * count. A list whose later stages' bound is no less than such a list's exact count
         * cannot beat it (that one was offered first, or could not win either). */
        const uint64_t ring = ring_steps(a, ring_load(a->N, r->m[0]));
        memo *f =
            memo_get(&a->firsts, &a->nfirsts, &a->capfirsts, oc__radices_product(r), 0, r->m[0]);
        if (!f) return OC_ENOMEM;
        if (!a->unspread && f->used == 1 && f->load <= steps - ring) {
            a->dominated++;
            return 0;
        }
        uint64_t rest = 0, ring_exact = 0;
        int exact = 0, rc = exact_stages(a, r, steps, &ring_exact, &rest, &exact);
        if (rc < 0) return rc;
        if (rc) return 0; /* a stage's exact count already shows the list cannot win */
        if (ring_exact + rest > steps) steps = ring_exact + rest;
        if (!a->unspread && f->used == 1 && f->load <= rest) {
            a->dominated++;
            return 0;
        }
        if (exact && !a->unspread) {
            f->used = 1;
            f->load = rest;
        }
        if ((yes = may_win_counted(a, steps, &b)) <= 0) return yes;
        /* Still able to win: its ring stage costed alone (once per V and m_1, as settle_pool
         * does: ring_stage_cost), the model's own cost of that round, which may sit far above
         * its load (1.7 times at w = 1 for m_1 = 3), before the whole list is offered and
         * mapped. */
        uint64_t ring_mapped = 0;
        int ok = 0;
        if (!a->s->budget || (a->s->budget >= oc__radices_product(r) * r->m[0] &&
                              list_transfers(a->N, r) <= a->s->budget))
            if ((rc = ring_stage_cost(a, r, rest, &ring_mapped, &ok))) return rc;
        if (ok && ring_mapped + rest > steps) {
            steps = ring_mapped + rest;
            if ((yes = may_win_counted(a, steps, &b)) <= 0) return yes;
        }
    }
    return offer_list(a, r, steps);
}

/* rest[R] for R = 1 .. N-1: the least, over every way to finish a prefix of product R, of the
 * stages' bounds before V is known (middle stages: mid_load_prefix and at least one step; a last
 * stage: last_load_any). Every term holds for any V, so the least is a bound on the family. */
static int rest_bounds(ag_search *a) {
    const uint32_t N = a->N;
    if (N > (1u << 22)) return 0; /* no table: the families are bounded without it */
    if (!(a->rest = oc__calloc((size_t)N + 1, sizeof *a->rest))) return OC_ENOMEM;
    for (uint64_t R = N - 1; R >= 1; R--) {
        uint64_t best = UINT64_MAX;
        for (uint64_t m = 2; R * m <= 2ull * N; m++) {
            uint64_t c;
            if (R * m < N) {
                c = stage_of(a, mid_load_prefix(N, R, m), (R + 1) / 2, R);
                c = (c ? c : one_step(a)) + a->rest[R * m];
            } else {
                c = R * m > N ? stage_of(a, R >= 3 ? last_load_any(N, m) : 0, big_known(N, m, 1), R)
                              : 0;
            }
            if (c < best) best = c;
        }
        a->rest[R] = best;
    }
    return 0;
}

/* With k pinned, the same for exactly j more stages (UINT64_MAX: no such list): a stage before
 * the last has W >= 2, so R m <= N; the last ends in N..2N. */
static int rest_bounds_k(ag_search *a) {
    const uint32_t N = a->N, K = a->kpin;
    if (!K || N > (1u << 22)) return 0;
    const size_t row = (size_t)N + 1;
    if (!(a->restk = oc__malloc_array(row * (K + 1), sizeof *a->restk))) return OC_ENOMEM;
    for (size_t i = 0; i < row * (K + 1); i++)
        a->restk[i] = UINT64_MAX;
    a->restk[N] = 0; /* no stage left: only a product of exactly N is stored (more is R > N) */
    for (uint32_t j = 1; j <= K; j++)
        for (uint64_t R = 1; R <= N; R++) {
            uint64_t best = UINT64_MAX;
            for (uint64_t m = 2; R * m <= 2ull * N; m++) {
                uint64_t c;
                if (j == 1) {
                    if (R * m < N) continue;
                    c = R * m > N
                            ? stage_of(a, R >= 3 ? last_load_any(N, m) : 0, big_known(N, m, 1), R)
                            : 0;
                } else {
                    if (R * m > N) break;
                    const uint64_t next = a->restk[(j - 1) * row + R * m];
                    if (next == UINT64_MAX) continue;
                    c = R * m < N ? stage_of(a, mid_load_prefix(N, R, m), (R + 1) / 2, R) : 0;
                    c = (c ? c : one_step(a)) + next;
                }
                if (c < best) best = c;
            }
            a->restk[j * row + R] = best;
        }
    return 0;
}

static uint64_t rest_of(const ag_search *a, uint64_t R) {
    if (a->restk && R <= a->N) {
        const uint64_t v = a->restk[(size_t)(a->kpin - a->cur.k) * (a->N + 1) + R];
        return v;
    }
    return a->rest && R < a->N ? a->rest[R] : 0;
}

/* Expands the prefix a->cur (product R, bound `fixed` steps). */
static int expand(ag_search *a, uint64_t R, uint64_t fixed) {
    const uint32_t N = a->N, depth = a->cur.k;
    if (R >= N && depth >= 2 && (!a->kpin || depth == a->kpin)) {
        int rc = try_list(a, &a->cur);
        if (rc) return rc;
    }
    if (2 * R > 2ull * N || depth >= OC_RADIX_MAX_STAGES || (a->kpin && depth >= a->kpin)) return 0;
    /* At the root the ring stage with a later stage needs W >= 2: m_1 <= N. */
    const uint64_t mmax = depth == 0 ? N : 2ull * N / R;
    for (uint64_t m = 2; m <= mmax; m++) {
        if (a->kpin) { /* depth pinned: the list must still reach exactly kpin stages in N..2N */
            const uint32_t rem = a->kpin - depth - 1;
            if (rem == 0 && R * m < N) continue;
            if (rem > 0 && (rem >= 40 || (R * m) << rem > 2ull * N)) break;
        }
        uint64_t st;
        if (depth == 0)
            st = ring_steps(a, ring_load(N, m));
        else if (R * m < N) {
            st = stage_of(a, mid_load_prefix(N, R, m), (R + 1) / 2, R);
            if (!st) st = one_step(a);
        } else if (R * m > N) { /* the last stage: V = R m is known */
            /* (a group spans N/2 nodes or more only when R <= 2) */
            uint64_t any =
                R * m > N ? stage_of(a, R >= 3 ? last_load_any(N, m) : 0, big_known(N, m, 1), R)
                          : 0;
            oc__bound quick = bound_of(a, fixed + any, BOUND_NAME);
            int q = may_win(a, &quick, fixed + any);
            if (q < 0) return q;
            if (!q) {
                /* (the bound's own units: at spread=0 quick.steps is 0, its ticks are these) */
                if (!a->families++ || fixed + any < a->fam_steps) a->fam_steps = fixed + any;
                continue;
            }
            if (stage_cheap(a, R * m, 1, m, &st)) return OC_ENOMEM;
        } else {
            st = 0; /* may be the last stage (V = N) or not (V = 2N) */
        }
        a->cur.k++; /* rest_of counts the stages after this one */
        const uint64_t more = rest_of(a, R * m);
        a->cur.k--;
        if (more == UINT64_MAX) continue; /* no list of the pinned depth goes on from here */
        oc__bound b = bound_of(a, fixed + st + more, BOUND_NAME);
        int yes = may_win(a, &b, fixed + st + more);
        if (yes < 0) return yes;
        if (!yes) {
            const uint64_t fam = fixed + st + more;
            if (!a->families++ || fam < a->fam_steps) a->fam_steps = fam;
            continue;
        }
        a->cur.m[a->cur.k++] = (uint32_t)m;
        int rc = expand(a, R * m, fixed + st);
        a->cur.k--;
        if (rc) return rc;
    }
    return 0;
}

static int optree_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    const oc_kv *params = in->params;
    if (oc_kv_get(params, "radices") || N < 2) return 0; /* pinned: nothing to search */
    if (N > (1u << 30))
        return oc__fail(why, len, OC_ETOOBIG, "optree searches radices for at most 2^30 nodes");
    uint64_t kpin = 0;
    const uint32_t kmax = deepest(N);
    int rc = oc__kv_u64(params, "k", 0, 1, kmax, &kpin, why, len);
    if (rc) return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, OC_ALLGATHER, 1, &f, why, len))) return rc;
    ag_search a = {
        .s = s, .N = N, .kpin = (uint32_t)kpin, .C = f.channels, .step = f.step_time, .in = in};
    /* the ring (its registry entry's one network): its rule is counted here (essay) */
    a.ring_rule = oc__netcfg_ring(&f.cfg) != NULL && f.cfg.cost.steps_by_link_load;
    if (f.cfg.cost.bundle_step_s) { /* a transfer on one lightpath (the model's, netcfg.h) */
        a.unspread = 1;
        a.tick = f.step_time / (double)(1u << 20);
        a.reconf_s = f.cfg.cost.bundle_fixed_s;
        a.lin_s = (double)in->bytes * f.cfg.cost.bundle_per_byte_s;
    }
    /* Seeds: the balanced lists of every depth, best bound first. */
    oc__radices seeds[4 * 64];
    uint64_t seed_steps[4 * 64];
    size_t nseeds = 0;
    for (uint32_t k = 1; k <= kmax && !rc; k++) {
        if (kpin && k != kpin) continue;
        oc__radices shapes[4];
        size_t nopt = oc__radices_options(N, k, 1, shapes);
        for (size_t i = 0; i < nopt && !rc; i++) {
            uint64_t V = oc__radices_product(&shapes[i]);
            if (V < N || V > 2ull * N) continue;
            seeds[nseeds] = shapes[i];
            const int unspread = a.unspread; /* ordered by the spread=1 bound (essay) */
            a.unspread = 0;
            rc = list_bound(&a, &shapes[i], &seed_steps[nseeds]);
            a.unspread = unspread;
            nseeds++;
        }
    }
    if (a.unspread) { /* the seeds' spread=1 stage bounds must not stand for ticks later */
        free(a.cheap);
        a.cheap = NULL;
        a.ncheap = a.capcheap = 0;
    }
    for (size_t n = 0; n < 3 && !rc; n++) { /* the three best seeds, in order */
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < nseeds; i++)
            if (seed_steps[i] != UINT64_MAX &&
                (best == SIZE_MAX || seed_steps[i] < seed_steps[best]))
                best = i;
        if (best == SIZE_MAX) break;
        uint64_t st = seed_steps[best];
        if (a.unspread) rc = list_bound(&a, &seeds[best], &st);
        if (!rc) rc = offer_list(&a, &seeds[best], st);
        seed_steps[best] = UINT64_MAX;
    }
    if (!rc) rc = rest_bounds(&a);
    if (!rc) rc = rest_bounds_k(&a);
    /* The first pass keeps the lists that could win (the essay's "Order"); when what it
     * skipped without a proof is beaten by the best of them, they are offered and that is the
     * search; else the second pass does the same without the guessed skip, against the
     * incumbent the first mapped (only a pool past its size skips then); else the third
     * offers, as a single pass always did. */
    a.skip_least = UINT64_MAX;
    int settled = 0;
    for (int pass = 0; pass < 3 && !rc && !settled; pass++) {
        a.collecting = pass < 2 ? pass + 1 : 0;
        a.skip_least = UINT64_MAX;
        a.npool = 0; /* what an unsettled pass left is walked again */
        /* One stage: radices=N and every V up to 2N (the same exchange, see above). With k=1
         * pinned only V = N is tried: the others are its schedule again, offered after it
         * (the essay's "One stage, any V"), and the search would map every one of them. */
        const uint64_t Vone = kpin == 1 ? N : 2ull * N;
        for (uint64_t V = N; V <= Vone && !rc && (!kpin || kpin == 1); V++) {
            oc__radices one = {.k = 1, .m = {(uint32_t)V}};
            rc = try_list(&a, &one);
        }
        if (!rc) rc = expand(&a, 1, 0);
        if (!rc && pass < 2) {
            a.collecting = 0;
            rc = settle_pool(&a, &settled);
            if (!settled) { /* the next pass counts and logs afresh; its dominance table is
                             * rebuilt (a list that set it must not find itself dominated) */
                a.families = a.candidates = a.dominated = 0;
                a.fam_steps = a.cand_steps = 0;
                free(a.firsts);
                a.firsts = NULL;
                a.nfirsts = a.capfirsts = 0;
            }
        }
    }
    if (!rc && kpin == 1)
        rc = oc__search_prune(s,
                              "one-stage lists of N+1 .. 2N positions: the transfers of "
                              "radices=N, in its order, offered after it",
                              NULL, N);
    if (!rc && a.families) {
        oc__bound b = bound_of(&a, a.fam_steps, BOUND_NAME);
        rc = oc__search_prune(s, "radix-list prefixes whose fixed stages' bound cannot win", &b,
                              a.families);
    }
    if (!rc && a.dominated)
        rc = oc__search_prune(s,
                              "radix lists with the ring stage (V, m_1) of a list seen before and "
                              "no fewer steps in the other stages",
                              NULL, a.dominated);
    if (!rc && a.candidates) {
        oc__bound b = bound_of(&a, a.cand_steps, BOUND_NAME);
        rc = oc__search_prune(s, "complete radix lists whose bound cannot win", &b, a.candidates);
    }
    free(a.pool);
    free(a.ringcost);
    if (a.ring_scratch) ring_scratch_free(a.ring_scratch);
    free(a.ring_scratch);
    free(a.loads);
    free(a.cheap);
    free(a.rest);
    free(a.restk);
    free(a.firsts);
    free(a.cw);
    free(a.ccw);
    free(a.cls);
    free(a.pre);
    free(a.cut);
    free(a.host);
    if (rc == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return rc;
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
    /* a plan walks every position (the search plans each list it maps): a stop heard here too */
    if (oc__stop_here.progress && oc__stop_poll())
        return oc__fail(why, len, OC_ECANCELED, "cancelled");
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
    /* A stage is one round in which every position sends to at most its m_j - 1 partners: the
     * bound lets the pipeline refuse a round too large for the budget before generating it (one
     * stage on 2^20 nodes is 1.1e12 transfers in one round). */
    for (uint32_t j = 0; j < t->r.k; j++)
        if (V * (t->r.m[j] - 1) > plan->spec.max_round) plan->spec.max_round = V * (t->r.m[j] - 1);
    /* The work (core.h): every block reaches every other node once (stage_sends), in at most
     * V (m_j - 1) transfers a stage (exact when V = N; fewer where partners share a node). */
    plan->spec.units = (uint64_t)N * (N - 1);
    for (uint32_t j = 0; j < t->r.k; j++)
        plan->spec.transfers += V * (t->r.m[j] - 1);
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

/* The rounds of stages 1 .. `stages` (the search costs the ring stage alone: ring_stage_cost). */
static int emit_stages(const oc__plan *plan, oc__emit *e, uint32_t stages) {
    const optree *t = plan->state;
    const uint32_t N = plan->spec.nodes;
    uint64_t W = t->V, R = 1;
    uint32_t *to = NULL;
    if (t->r.k && !(to = oc__malloc_array(oc__radices_max(&t->r), sizeof *to))) return OC_ENOMEM;
    int rc = 0;
    for (uint32_t j = 0; j < stages && j < t->r.k && !rc; j++) {
        const uint32_t m = t->r.m[j];
        W /= m;
        for (uint64_t x = 0; x < t->V && !rc; x++) {
            /* What position x holds now: reversed values [base, base + R). */
            uint64_t base = t->rev[x] - t->rev[x] % R;
            uint32_t lo = t->below[base], hi = t->below[base + R];
            if (lo == hi) continue;
            uint32_t from = host(t, N, x), n = stage_sends(N, t->V, x, W, m, to);
            for (uint32_t i = 0; i < n && !rc; i++)
                rc = oc__emit_transfer(e, from, to[i], OC_OP_COPY, lo, hi - lo);
        }
        if (!rc) rc = oc__emit_round(e);
        R *= m;
    }
    free(to);
    return rc;
}

static int optree_generate(const oc__plan *plan, oc__emit *e) {
    const optree *t = plan->state;
    return emit_stages(plan, e, t->r.k);
}

/* Theorem 1 at depth k: ceil((2k-1) N^(1+1/k) / 8w). pow() can land a hair above a whole
 * number the formula reaches exactly (N = 1024, k = 10: 76.00000000001); such values are whole. */
static double ceil_whole(double x) {
    double r = round(x);
    return fabs(x - r) <= 1e-9 * (r > 1 ? r : 1) ? r : ceil(x);
}

static double theorem1(double N, double k, double w) {
    return ceil_whole((2 * k - 1) * pow(N, 1 + 1 / k) / (8 * w));
}

/* Theorem 3 (and eq. 3) as the paper prints them: the time is (d/B + a) ceil(N m* log_m* N / 4w)
 * with m* = N^(1/k*), so log_m* N = k* and the step count is ceil(k* N^(1+1/k*) / 4w). That is
 * not Theorem 1 at k* ((2k*-1) N^(1+1/k*) / 8w): it charges every stage m^2/4, stage 1 included,
 * where Theorem 1 charges stage 1 m^2/8 (76 against 70 at N = 1024, w = 64). */
static double theorem3(double N, double kstar, double w) {
    return ceil_whole(kstar * pow(N, 1 + 1 / kstar) / (4 * w));
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
    rc |= oc__report_num(rep, "time_theorem1_at_kstar_s", theorem1(N, kstar, w) * in->step_time);
    rc |= oc__report_num(rep, "steps_theorem3_at_kstar", theorem3(N, kstar, w));
    rc |= oc__report_num(rep, "time_theorem3_at_kstar_s", theorem3(N, kstar, w) * in->step_time);
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
    .max_nodes = OC_MAX_NODES,
    .plan = optree_plan,
    .generate = optree_generate,
    .release = optree_release,
    .search = optree_search,
    .bounds_hold_unspread = 1, /* its search's stage bounds read the ring's spread (essay) */
    .formula = optree_formula,
};
