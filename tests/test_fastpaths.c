/*
 * test_fastpaths.c — the hot paths made fast for the scale targets, each against a plain
 * recomputation written here, on random rounds that reach every branch:
 *
 *   - the switch's independent check (src/net/switch_check.c) sorts a round's port entries with
 *     qsort (small rounds), one counting pass over all 2N ports (ports few next to the entries)
 *     or two radix passes (many ports). A round's true claim (largest port degree, the busiest
 *     port's transfers and bytes), counted here port by port, must pass; a claim one step short,
 *     naming a port that does not exist, or naming a lighter port than the busiest must fail. A
 *     sort that misplaces one entry changes a port's run and fails these; a check that skips
 *     timing a port it should time misses the busiest.
 *   - the reduction verifier (src/verify/verify.c) copies and merges inline cells (up to two
 *     intervals of contributors) without its heap path. Random reduce / copy schedules on N in
 *     {2, 3, 5, 7, 12, 100} are executed here with one bit per contributor and must give the same
 *     verdict and the same first failure (round, node, kind, and the node named) as the verifier.
 *     Contributor sets fragment past two intervals, so the heap path is crossed both ways.
 *
 * Deterministic (a fixed linear congruential generator). Asserts results, never times.
 */
#include "core/core.h"
#include "net/net.h"
#include "net/switch.h"
#include "report/report.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static uint64_t seed = 12345;

static uint32_t rnd(uint32_t n) {
    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)((seed >> 33) % n);
}

/* ---- the switch check ---- */

/* The round's true claim, port by port; *light: a port that carries something and takes the
 * least time (a claim that names a real port but not the busiest). */
static oc__sw_claim true_claim(const oc__round *r, uint32_t N, uint64_t cb, double a, double b,
                               oc__sw_claim *light) {
    uint64_t *msgs = calloc(2 * (size_t)N, sizeof *msgs), *bytes = calloc(2 * (size_t)N, 8);
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        msgs[x->src]++;
        bytes[x->src] += x->count * cb;
        msgs[N + x->dst]++;
        bytes[N + x->dst] += x->count * cb;
    }
    oc__sw_claim c = {0, 0, 0};
    double best = -1, least = -1;
    for (size_t p = 0; p < 2 * (size_t)N; p++) {
        if (msgs[p] > c.degree) c.degree = msgs[p];
        const double t = (double)msgs[p] * a + (double)bytes[p] * b;
        if (msgs[p] && t > best) {
            best = t;
            c.msgs = msgs[p];
            c.bytes = bytes[p];
        }
        if (msgs[p] && (least < 0 || t < least)) {
            least = t;
            light->msgs = msgs[p];
            light->bytes = bytes[p];
        }
    }
    light->degree = c.degree;
    free(msgs);
    free(bytes);
    return c;
}

static void test_switch_check(void) {
    const uint32_t nodes[] = {2, 3, 5, 7, 12, 100, 5000, 70000};
    const size_t sizes[] = {1, 100, 127, 128, 200, 1000, 5000, 40000};
    const double A = 0.7e-6, B = 1 / 300e9;
    const uint64_t cb = 1000;
    oc__sw_checker *c = NULL;
    CHECK(oc__sw_checker_new(&c) == 0, "checker");
    char why[256];
    for (size_t ni = 0; ni < sizeof nodes / sizeof *nodes; ni++) {
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            const uint32_t N = nodes[ni];
            oc__round r = {0};
            for (size_t k = 0; k < sizes[si]; k++) {
                /* a busy node now and then, so that degrees differ from port to port */
                uint32_t src = rnd(4) ? rnd(N) : 0, dst = rnd(N);
                if (dst == src) dst = (src + 1) % N;
                oc__round_push(&r, src, dst, OC_OP_COPY, 0, 1 + rnd(5));
            }
            oc__sw_claim light;
            const oc__sw_claim ok = true_claim(&r, N, cb, A, B, &light);
            CHECK(oc__sw_check(c, 0, &r, N, cb, A, B, &ok, why, sizeof why) == 0,
                  "N=%u T=%zu: the true claim: %s", N, sizes[si], why);
            /* a real port, but a lighter one than the busiest: the check must time them all */
            const int lighter = light.msgs < ok.msgs || light.bytes < ok.bytes;
            CHECK(!lighter ||
                      oc__sw_check(c, 0, &r, N, cb, A, B, &light, why, sizeof why) == OC_ERESOURCE,
                  "N=%u T=%zu: a lighter port taken for the busiest", N, sizes[si]);
            oc__sw_claim few = ok;
            few.degree--;
            CHECK(oc__sw_check(c, 0, &r, N, cb, A, B, &few, why, sizeof why) == OC_ERESOURCE,
                  "N=%u T=%zu: one step short", N, sizes[si]);
            oc__sw_claim ghost = ok;
            ghost.bytes += 7; /* no port carries a byte count that is not a multiple of cb */
            CHECK(oc__sw_check(c, 0, &r, N, cb, A, B, &ghost, why, sizeof why) == OC_ERESOURCE,
                  "N=%u T=%zu: no such port", N, sizes[si]);
            oc__round_free(&r);
        }
    }
    /* Node N-1 and the nodes that differ from it in one bit send in turn, 300 transfers each: a
     * sort that drops a bit of the port mixes two of their runs, and one port's count is off. */
    for (size_t ni = 0; ni < sizeof nodes / sizeof *nodes; ni++) {
        const uint32_t N = nodes[ni];
        oc__round r = {0};
        for (uint32_t k = 0; k < 300; k++)
            for (uint32_t j = 0; (UINT32_C(1) << j) < N; j++) {
                const uint32_t src = (N - 1) & ~(UINT32_C(1) << j);
                oc__round_push(&r, src, (src + 1) % N, OC_OP_COPY, 0, 1);
            }
        oc__sw_claim light;
        const oc__sw_claim ok = true_claim(&r, N, cb, A, B, &light);
        CHECK(oc__sw_check(c, 0, &r, N, cb, A, B, &ok, why, sizeof why) == 0,
              "N=%u aliased ports: %s", N, why);
        oc__round_free(&r);
    }
    /* Many small transfers outlast one big one met first: node 0 sends 5 chunks once, node 2
     * sends 1 chunk three times. Port 0 (1 transfer, 5000 bytes) comes first, port 4 (3, 3000)
     * has fewer bytes but takes longer: the model and the check must time it. */
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 0, 5);
    for (int k = 0; k < 3; k++)
        oc__round_push(&r, 2, 3, OC_OP_COPY, (uint32_t)k, 1);
    oc__sw_claim light;
    const oc__sw_claim ok = true_claim(&r, 4, cb, A, B, &light);
    CHECK(ok.msgs == 3 && ok.bytes == 3000 && light.msgs == 1 && light.bytes == 5000,
          "the hand-made round's ports");
    CHECK(oc__sw_check(c, 0, &r, 4, cb, A, B, &light, why, sizeof why) == OC_ERESOURCE,
          "the first, big but light port taken for the busiest");
    int err = 0;
    oc_report *rep = map_on(&oc__model_switch, 4, cb, NULL, &r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3 * A + 3000 * B) && oc_report_steps(rep) == 3,
          "the model's busiest port: %s", rep ? "wrong time" : why);
    oc_report_free(rep);
    oc__round_free(&r);
    oc__sw_checker_free(c);
}

/* ---- the reduction verifier ---- */

/* A set of contributors, N <= 128: two words of bits. */
typedef struct set {
    uint64_t w[2];
} set;

static int set_empty(set s) {
    return !s.w[0] && !s.w[1];
}

static set set_and(set a, set b) {
    return (set){{a.w[0] & b.w[0], a.w[1] & b.w[1]}};
}

static set set_or(set a, set b) {
    return (set){{a.w[0] | b.w[0], a.w[1] | b.w[1]}};
}

/* The smallest member, or 128. */
static uint32_t set_first(set s) {
    if (s.w[0]) return (uint32_t)__builtin_ctzll(s.w[0]);
    if (s.w[1]) return 64 + (uint32_t)__builtin_ctzll(s.w[1]);
    return 128;
}

static set set_one(uint32_t n) {
    set s = {{0, 0}};
    s.w[n / 64] = UINT64_C(1) << (n % 64);
    return s;
}

/* What the plain execution found first: kind 0 none, 1 a contribution counted twice, 2 a copy
 * and another write, 3 missing at the end; round, node (receiver) and the node named. */
typedef struct verdict {
    int kind;
    uint32_t round, node, other, chunk;
} verdict;

/* Executes the rounds plainly: stage what every sender holds, then write in transfer order. */
static verdict plain_run(const oc__round *rounds, uint32_t R, uint32_t N, uint32_t C) {
    set *st = calloc((size_t)N * C, sizeof *st), *staged = NULL;
    uint32_t *wr = calloc((size_t)N * C, sizeof *wr); /* 2 (round + 1) + 1 if by copy */
    verdict v = {0, 0, 0, 0, 0};
    for (uint32_t n = 0; n < N; n++)
        for (uint32_t c = 0; c < C; c++)
            st[n * C + c] = set_one(n);
    for (uint32_t r = 0; r < R && !v.kind; r++) {
        const oc__round *rd = &rounds[r];
        size_t units = 0, u = 0;
        for (size_t i = 0; i < rd->count; i++)
            units += rd->xfers[i].count;
        staged = realloc(staged, (units ? units : 1) * sizeof *staged);
        for (size_t i = 0; i < rd->count; i++)
            for (uint32_t c = rd->xfers[i].first; c < rd->xfers[i].first + rd->xfers[i].count; c++)
                staged[u++] = st[rd->xfers[i].src * C + c];
        u = 0;
        const uint32_t stamp = 2 * (r + 1);
        for (size_t i = 0; i < rd->count && !v.kind; i++) {
            const oc__transfer *t = &rd->xfers[i];
            for (uint32_t c = t->first; c < t->first + t->count && !v.kind; c++, u++) {
                const size_t at = (size_t)t->dst * C + c;
                const int copy = t->op == OC_OP_COPY;
                if (wr[at] >= stamp && (copy || (wr[at] & 1))) {
                    v = (verdict){2, r, t->dst, t->src, c};
                    break;
                }
                wr[at] = stamp | (uint32_t)copy;
                if (copy) {
                    st[at] = staged[u];
                    continue;
                }
                const set both = set_and(st[at], staged[u]);
                if (!set_empty(both)) {
                    v = (verdict){1, r, t->dst, set_first(both), c};
                    break;
                }
                st[at] = set_or(st[at], staged[u]);
            }
        }
    }
    for (uint32_t n = 0; n < N && !v.kind; n++)
        for (uint32_t c = 0; c < C && !v.kind; c++) {
            set s = st[n * C + c];
            set missing = {{~s.w[0], ~s.w[1]}};
            if (N < 128) missing.w[N / 64] &= (UINT64_C(1) << (N % 64)) - 1;
            if (N <= 64) missing.w[1] = 0;
            if (!set_empty(missing)) v = (verdict){3, R, n, set_first(missing), c};
        }
    free(st);
    free(staged);
    free(wr);
    return v;
}

/* The verifier's verdict, read back from its message. */
static verdict verifier_run(const oc__round *rounds, uint32_t R, uint32_t N, uint32_t C,
                            char *why, size_t len) {
    oc__spec spec;
    verdict v = {0, 0, 0, 0, 0};
    if (oc__spec_init(&spec, OC_ALLREDUCE, N, 0, 64 * (uint64_t)C, C, why, len)) {
        v.kind = -1;
        return v;
    }
    oc__verifier *ver = NULL;
    int rc = oc__verifier_new(&spec, &ver, why, len);
    oc__sink *sink = ver ? oc__verifier_sink(ver) : NULL;
    for (uint32_t r = 0; r < R && !rc; r++)
        rc = sink->round(sink, r, &rounds[r], why, len);
    if (!rc) rc = oc__verifier_finish(ver, why, len);
    oc__verifier_free(ver);
    oc__spec_free(&spec);
    unsigned long long round = 0;
    if (!rc) return v;
    v.kind = -1;
    if (rc != OC_EVERIFY) return v;
    if (sscanf(why, "round %llu: node %u counts the contribution of node %u twice in chunk %u",
               &round, &v.node, &v.other, &v.chunk) == 4)
        v.kind = 1;
    else if (sscanf(why, "round %llu: node %u receives a copy and another write in one round (from "
                         "node %u) of chunk %u",
                    &round, &v.node, &v.other, &v.chunk) == 4)
        v.kind = 2;
    else if (sscanf(why, "at the end: node %u is missing the contribution of node %u in chunk %u",
                    &v.node, &v.other, &v.chunk) == 3) {
        v.kind = 3;
        round = R;
    }
    v.round = (uint32_t)round;
    return v;
}

/* Random rounds that mostly stay correct (so that the run goes deep and sets fragment), with a
 * wrong transfer now and then: a reduce whose contributions the receiver already has, or a
 * second write to a copied chunk. `shadow` is the plain state, advanced round by round. */
static void test_reduce_merges(void) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 100};
    char why[512];
    int deep = 0, heap = 0;
    for (size_t ni = 0; ni < sizeof Ns / sizeof *Ns; ni++) {
        const uint32_t N = Ns[ni];
        for (int trial = 0; trial < 40; trial++) {
            const uint32_t C = 1 + rnd(6), R = 2 * N + 2;
            oc__round *rounds = calloc(R, sizeof *rounds);
            set *st = calloc((size_t)N * C, sizeof *st);
            for (uint32_t n = 0; n < N; n++)
                for (uint32_t c = 0; c < C; c++)
                    st[n * C + c] = set_one(n);
            const int wrong = trial % 4 != 0; /* a quarter stay clean to the end */
            for (uint32_t r = 0; r < R; r++) {
                set *next = malloc((size_t)N * C * sizeof *next);
                memcpy(next, st, (size_t)N * C * sizeof *next);
                uint8_t *touched = calloc((size_t)N * C, 1);
                const uint32_t T = 1 + rnd(2 * N);
                for (uint32_t k = 0; k < T; k++) {
                    const uint32_t src = rnd(N), dst = (src + 1 + rnd(N - 1)) % N;
                    const uint32_t first = rnd(C), count = 1 + rnd(C - first);
                    const int copy = rnd(8) == 0, bad = wrong && rnd(60) == 0;
                    int fits = 1;
                    for (uint32_t c = first; c < first + count; c++) {
                        const size_t at = (size_t)dst * C + c;
                        if (touched[at] == 2 || (touched[at] && copy) ||
                            (!copy && !set_empty(set_and(next[at], st[src * C + c]))))
                            fits = 0;
                    }
                    if (!fits && !bad) continue;
                    oc__round_push(&rounds[r], src, dst, copy ? OC_OP_COPY : OC_OP_REDUCE, first,
                                   count);
                    for (uint32_t c = first; c < first + count; c++) {
                        const size_t at = (size_t)dst * C + c;
                        next[at] = copy ? st[src * C + c] : set_or(next[at], st[src * C + c]);
                        touched[at] = copy ? 2 : 1;
                    }
                }
                memcpy(st, next, (size_t)N * C * sizeof *st);
                free(next);
                free(touched);
            }
            for (uint32_t n = 0; n < N * C; n++) {
                /* more than two runs of contributors: the verifier's heap cells were used */
                set s = st[n];
                int runs = 0;
                for (uint32_t m = 0; m < N; m++)
                    runs += (s.w[m / 64] >> (m % 64) & 1) &&
                            (m == 0 || !(s.w[(m - 1) / 64] >> ((m - 1) % 64) & 1));
                heap |= runs > 2;
            }
            const verdict want = plain_run(rounds, R, N, C);
            const verdict got = verifier_run(rounds, R, N, C, why, sizeof why);
            CHECK(got.kind == want.kind && got.round == want.round && got.node == want.node &&
                      got.other == want.other && got.chunk == want.chunk,
                  "N=%u C=%u trial %d: plain: kind %d round %u node %u other %u chunk %u; "
                  "verifier: %s",
                  N, C, trial, want.kind, want.round, want.node, want.other, want.chunk,
                  want.kind == got.kind && !got.kind ? "ok" : why);
            deep += want.kind == 0 || want.kind == 3 || want.round >= N;
            for (uint32_t r = 0; r < R; r++)
                oc__round_free(&rounds[r]);
            free(rounds);
            free(st);
        }
    }
    /* the random rounds must reach what they are for: deep runs, and fragmented sets */
    CHECK(deep > 40, "only %d runs went past round N", deep);
    CHECK(heap, "no contributor set fragmented past two intervals");
}

int main(void) {
    test_switch_check();
    test_reduce_merges();
    return CHECK_SUMMARY();
}
