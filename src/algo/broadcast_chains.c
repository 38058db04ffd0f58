/*
 * broadcast_chains.c — the pipelined broadcast on the passive optical star (issue 26, item 2: a
 * counterpart where the star's bound shows a gap; net/star.c's model, passive-optical-star
 * section 1).
 *
 * Why. The star's physical bound for a broadcast of m = ceil(SIZE / L) messages is D + ceil(m /
 * k') message times (src/bounds/bounds_star.c: a processor takes in m messages on at most k' =
 * min(k, P - 1) streams a step, a step lasts its largest stream). The seed's broadcasts send the
 * whole message along every arc of a tree: TCP1 pays h m (a step per level, each carrying all m),
 * the three-phase TCP1-split about 3 m / k + ...; both stay 3 to 4 times above the bound at 1 KiB
 * and k = 3 or 4 from P = 5 up (docs/bounds-gap.md). Pipelining removes the factor: every
 * processor forwards a piece while it receives the next.
 *
 * The schedule. The n = P - 1 processors other than the root are numbered x = 0..n-1 (processor
 * root + 1 + x mod P). The message is cut into q pieces (q chunks) dealt to c chains, chain j
 * taking a contiguous run of floor((j+1) q / c) - floor(j q / c) of them. Chain j visits every
 * processor once: the root, then x = j, j + s_j, j + 2 s_j, ... (mod n), with s_j the j-th
 * smallest stride coprime to n (n = 2: both chains stride 1, starting at 0 and 1). The root hands
 * chain j its pieces one a round to the chain's first processor, and a processor forwards the
 * piece it got in round t to its successor in round t + 1, so piece u of a chain reaches the
 * chain's position i in round u + i: ceil(q / c) + n - 1 rounds.
 *  - Streams. Chain j's arcs are x -> x + s_j (and root -> j); distinct strides make distinct
 *    ordered pairs (n = 2: 0 -> 1 and 1 -> 0), so in a round every stream carries one piece,
 *    every processor sends at most c and receives at most c streams: one step a round when c <= k.
 *  - Tunings. A processor hears the same c senders from its first reception on (its predecessor
 *    in each chain), so each filter is tuned once; but position i of the chains first receives
 *    in round i, so rounds 0 .. n - 1 each retune: n D of filling.
 *  - Time. n D + (ceil(q / c) + n - 1) ceil(ceil(SIZE / q) / L) L tau, about n D + m / c + (n -
 *    1) m / q: at c = k' and q large next to n it approaches the bound's m / k', where D n is small
 *    next to m / k. Where D is large or m small, TCP1's h retuned steps win, and `compare` shows
 *    both.
 *  - Chains available: c <= k and c <= the strides coprime to n (phi(n), or 2 at n = 2, 1 at n =
 *    1): at n = 6 only 1 and 5, so c <= 2 there whatever k (a simplification: other Hamiltonian
 *    path decompositions exist; not built).
 *
 * The search (algos.h's contract). Space: chains c = 1 .. min(k, strides), pieces q from c to
 * min(m, 65536, 2^22 / n) (a piece is at least a message: more pieces than messages only add
 * rounds; the pins may take up to 65536 pieces and 2^25 transfers),
 * walked as q = ceil(m / p) for p = 1, 2, 4, ... messages a piece, and q = c. Proven bound of a
 * candidate: each of its R = ceil(q / c) + n - 1 rounds is at least one step (steps >= R), each
 * step's largest stream carries at least one piece, ceil(ceil(SIZE / q) / L) messages, and the
 * first step tunes: time >= D + R x that piece's time. Pins: chains=, pieces= (any q >= c up to
 * the transfer budget).
 */
#include "algo/algos.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A round a piece: the rounds and the transfers (q (P - 1)) are kept to what the verifier and
 * the star's model take in seconds (q <= 65536: pieces of 64 messages at 4 MiB, L = 1). */
#define CHAINS_MAX_PIECES 65536u
#define CHAINS_MAX_TRANSFERS (UINT64_C(1) << 25)

typedef struct chains_state {
    uint32_t c, n;
    uint64_t q;
    uint64_t *stride; /* c strides */
} chains_state;

static const char *const chain_params[] = {"chains", "pieces", NULL};

static uint64_t gcd_u64(uint64_t a, uint64_t b) {
    while (b) {
        const uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The strides coprime to n, smallest first, up to `want` of them, into out (if not NULL);
 * returns how many there are (capped at want). n = 1: one chain; n = 2: two, stride 1 each. */
static uint32_t strides_of(uint32_t n, uint32_t want, uint64_t *out) {
    uint32_t got = 0;
    if (n <= 2) {
        for (; got < want && got < (n == 0 ? 1u : n); got++)
            if (out) out[got] = n == 2 ? 1 : 0;
        return got;
    }
    for (uint64_t s = 1; s < n && got < want; s++)
        if (gcd_u64(s, n) == 1) {
            if (out) out[got] = s;
            got++;
        }
    return got;
}

static void chains_release(oc__plan *plan) {
    chains_state *st = plan->state;
    if (st) free(st->stride);
    free(st);
    plan->state = NULL;
}

static int chains_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                       uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    uint64_t c, q;
    int rc = oc__kv_only(params, chain_params, "chains", why, len);
    if (rc || (rc = oc__kv_u64(params, "chains", 1, 1, 64, &c, why, len)) ||
        (rc = oc__kv_u64(params, "pieces", c, 1, UINT32_MAX, &q, why, len)))
        return rc;
    const uint32_t n = nodes - 1;
    const uint32_t most = strides_of(n, 64, NULL);
    if (c > most)
        return oc__fail(why, len, OC_EINVAL,
                        "chains: chains=%llu: at most %u chains on %u nodes (strides coprime to "
                        "P - 1 = %u)",
                        (unsigned long long)c, most, nodes, n);
    if (q < c)
        return oc__fail(why, len, OC_EINVAL,
                        "chains: pieces=%llu: at least one piece a chain (chains=%llu)",
                        (unsigned long long)q, (unsigned long long)c);
    if (q > CHAINS_MAX_PIECES)
        return oc__fail(why, len, OC_EINVAL,
                        "chains: pieces=%llu: at most %u pieces (a round each; more only "
                        "shorten the pieces below a message's worth of filling)",
                        (unsigned long long)q, CHAINS_MAX_PIECES);
    /* every piece reaches each of the n other processors once */
    if (q * (uint64_t)n > CHAINS_MAX_TRANSFERS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "chains on %u nodes with %llu pieces is %llu transfers, more than its "
                        "budget of %llu: fewer pieces",
                        nodes, (unsigned long long)q, (unsigned long long)(q * (uint64_t)n),
                        (unsigned long long)CHAINS_MAX_TRANSFERS);
    if ((rc = oc__plan_work("chains", nodes, q * (uint64_t)n, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)q, why, len))) return rc;
    chains_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = st;
    st->c = (uint32_t)c;
    st->n = n;
    st->q = q;
    st->stride = calloc((size_t)c, sizeof *st->stride);
    if (!st->stride) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    strides_of(n, (uint32_t)c, st->stride);
    plan->rounds = n ? oc__ceil_div(q, c) + n - 1 : 0;
    plan->spec.max_round = c * (uint64_t)nodes;
    plan->spec.units = plan->spec.transfers = q * (uint64_t)n; /* the work: a piece a transfer */
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)c);
    rc |= oc_kv_set(plan->used, "chains", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)q);
    rc |= oc_kv_set(plan->used, "pieces", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

/* The processor at position i (0-based after the root) of chain j. */
static uint32_t chain_node(const chains_state *st, uint32_t root, uint32_t P, uint32_t j,
                           uint64_t i) {
    const uint64_t x = ((uint64_t)j + i * st->stride[j]) % st->n;
    return (uint32_t)((root + 1 + x) % P);
}

static int chains_generate(const oc__plan *plan, oc__emit *e) {
    const chains_state *st = plan->state;
    const uint32_t P = plan->spec.nodes, root = plan->spec.root, c = st->c, n = st->n;
    if (n == 0) return 0;
    const uint64_t per = oc__ceil_div(st->q, c), R = per + n - 1;
    for (uint64_t t = 0; t < R; t++) {
        for (uint32_t j = 0; j < c; j++) {
            const uint64_t lo = (uint64_t)j * st->q / c, nj = ((uint64_t)j + 1) * st->q / c - lo;
            /* the sender at position i (-1: the root) forwards piece u = t - i - 1 */
            const int64_t ifirst = (int64_t)t - (int64_t)nj > -1 ? (int64_t)t - (int64_t)nj : -1;
            const int64_t ilast = (int64_t)t - 1 < (int64_t)n - 2 ? (int64_t)t - 1 : (int64_t)n - 2;
            for (int64_t i = ifirst; i <= ilast; i++) {
                const uint64_t u = t - (uint64_t)(i + 1);
                const uint32_t src = i < 0 ? root : chain_node(st, root, P, j, (uint64_t)i);
                const uint32_t dst = chain_node(st, root, P, j, (uint64_t)(i + 1));
                int rc = oc__emit_transfer(e, src, dst, OC_OP_COPY, (uint32_t)(lo + u), 1);
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int chains_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    /* the star's k and L (its registry entry lists the star alone) */
    const oc__star_cfg *star = oc__netcfg_star(&in->net->cfg);
    if (!star) return oc__fail(why, len, OC_ENOTSUP, "chains: runs on the star only");
    const uint32_t n = in->nodes - 1;
    const char *pc = oc_kv_get(in->params, "chains"), *pq = oc_kv_get(in->params, "pieces");
    if (pc && pq) return 0; /* everything pinned: the pipeline plans the pins */
    uint64_t cpin = 0, qpin = 0;
    if (pc && oc_parse_u64(pc, 1, 64, &cpin))
        return oc__fail(why, len, OC_EINVAL, "chains: chains=%s: expected 1 to 64", pc);
    if (pq && oc_parse_u64(pq, 1, UINT32_MAX, &qpin))
        return oc__fail(why, len, OC_EINVAL, "chains: pieces=%s: expected 1 to %u", pq, UINT32_MAX);
    const uint32_t kmax = (uint32_t)(star->k < 64 ? star->k : 64);
    uint32_t cmax = strides_of(n, kmax, NULL);
    if (cmax == 0) cmax = 1;
    const double m = star->L >= 1 && in->bytes ? ceil((double)in->bytes / star->L) : 1;
    /* more pieces than messages only add rounds; the transfers stay within 2^22 */
    const double qcap =
        n ? fmin(fmin(m, CHAINS_MAX_PIECES), floor((double)(UINT64_C(1) << 22) / n)) : 1;
    char cb[32], qb[32];
    for (uint32_t c = cpin ? (uint32_t)cpin : cmax; c >= 1; c--) {
        uint64_t last = 0;
        for (double p = 1;; p *= 2) {
            uint64_t q = qpin ? qpin : (uint64_t)fmax((double)c, ceil(m / p));
            if (!qpin && (double)q > fmax(qcap, (double)c)) q = (uint64_t)fmax(qcap, (double)c);
            if (q != last) {
                last = q;
                oc__formula_in f;
                int rc = in->figures(in, in->coll, (uint32_t)q, &f, why, len);
                if (rc) return rc;
                const uint64_t R = n ? oc__ceil_div(q, c) + n - 1 : 0;
                const oc__bound b = {
                    .time_s = n ? f.step_fixed + (double)R * (f.step_time - f.step_fixed) : 0,
                    .steps = R,
                    .name = "ceil(q / c) + n - 1 rounds of a piece each, one tuning",
                    .transfers = q * (uint64_t)n};
                snprintf(cb, sizeof cb, "%u", c);
                snprintf(qb, sizeof qb, "%llu", (unsigned long long)q);
                const char *kv[] = {"chains", cb, "pieces", qb};
                if ((rc = oc__search_offer(s, &b, 2, kv))) return rc;
            }
            if (qpin || q <= c) break;
        }
        if (cpin) break;
    }
    return 0;
}

static const char *const names[] = {"chains", "pieces", NULL};

const oc__algo oc__algo_broadcast_chains = {
    .info = {"chains", OC_BROADCAST, "star",
             "pipelined broadcast: the message in q pieces down c chains through every "
             "processor, each on its own stride, a piece a round per arc",
             "", "ceil(q/c) + P - 2 rounds of a piece; (P-1) D of filling",
             "chains=searched 1..min(k, strides coprime to P-1): parallel chains; "
             "pieces=searched: pieces of the message (a power-of-two messages each)"},
    .param_names = names,
    .plan = chains_plan,
    .generate = chains_generate,
    .release = chains_release,
    .search = chains_search,
};
