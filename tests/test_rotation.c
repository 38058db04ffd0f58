/*
 * test_rotation.c — issue 26 item 4: the two shortcuts that make `compare` at N = 4096 faster
 * must give exactly what the long way gives.
 *
 *  1. The verifier's rotation rounds (verify.c, "rotation rounds"): an all-gather (and gossip)
 *     round made of pieces in which every transfer is the one k before moved by one node and one
 *     block is checked by the orbit of its first k transfers. Schedules of such rounds (the
 *     bidirectional ring with a block's two arcs together or one direction after the other, a
 *     circulant-like tree of hops 1, 2 and 3, partial blocks of q = 3, transfers of two blocks,
 *     redundant deliveries) on N = 2, 3, 5, 7, 12, 100, with the blocks unlabelled or each
 *     relabelled to its own node (bidir's labels), and each one broken in one transfer of
 *     one round (its receiver moved, its label moved to a block its sender does not hold yet, the
 *     transfer dropped, a duplicate added, two transfers swapped, its op made a reduce) or in the
 *     order of its rounds (one left out, two swapped: every round still a rotation whose senders
 *     may lack what they send), go
 *     through the verifier with the path on and with it off (oc__verifier_rotation_off): the
 *     return code, the reason, the redundant count must be the same; a broken label must be a
 *     failure; and the path must have taken the whole rounds (a path that never fires would pass
 *     the rest). A path that skipped the senders' check, took a chain for a rotation without
 *     checking every transfer, or counted the redundant deliveries once instead of N times,
 *     fails here.
 *  2. The search's lone candidate (search.c, "The lone candidate left to the final run"): oc_run,
 *     which leaves it to the final run, against oc__run_request with a watch, which maps it in
 *     the search as before: `run --json` byte for byte (the search log's winner time to the last
 *     bit, the note, the counts), for every algorithm with a search on the ring, all-gather,
 *     reduce-scatter and all-reduce, N = 3, 5, 7, 12, 100, 1031, w = 1, 8, 64, and circulant's
 *     all-gather and reduce-scatter at N = 2897 (above 2^23 lightpaths a candidate its search
 *     maps one tree and prunes the rest: there the candidate is left to the final run, and
 *     oc__search_params_deferred must say so; below, every search compares the candidate it maps
 *     with another's bound and so maps it at once: the same path as before). A settle that
 *     summed the time otherwise (total steps x step time) or counted the candidate as mapped twice
 *     fails here.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"
#include "run/pipeline.h"
#include "run/watch.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. rotation rounds ---- */

/* A base transfer, node 0's block's: from node a to node b (offsets from the block's owner) the
 * labels [o q + lo, o q + lo + count) of the block o further on. */
typedef struct base {
    uint32_t a, b, o, lo, count;
} base;

/* A round: pieces of bases, each piece written out as every block's rotation in label order. */
typedef struct piece {
    const base *b;
    size_t k;
} piece;

typedef struct breakage {
    int kind;       /* 0 none, 1 receiver + 1, 2 label to the block further on, 3 drop, 4 add a
                       duplicate, 5 swap with the next, 6 a reduce; whole rounds, each still a
                       rotation: 7 the round left out, 8 the round after it first */
    uint32_t round; /* which round */
    uint32_t at;    /* which transfer of it (mod its count) */
} breakage;

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t redundant, rotations;
} outcome;

static uint32_t mod(int64_t x, uint32_t n) {
    const int64_t m = x % (int64_t)n;
    return (uint32_t)(m < 0 ? m + n : m);
}

/* Writes round r of the schedule into out (a plain round), broken as `br` says. */
static int make_round(const piece *ps, size_t np, uint32_t N, uint32_t q, const breakage *br,
                      uint32_t r, oc__round *out) {
    out->count = 0;
    const uint32_t C = N * q;
    for (size_t p = 0; p < np; p++)
        for (uint32_t j = 0; j < N; j++)
            for (size_t i = 0; i < ps[p].k; i++) {
                const base *b = &ps[p].b[i];
                const uint32_t src = mod((int64_t)b->a + j, N), dst = mod((int64_t)b->b + j, N);
                const uint32_t first =
                    (uint32_t)(((uint64_t)mod((int64_t)b->o + j, N) * q + b->lo) % C);
                if (first + b->count > C) { /* past the last label: two transfers (no rotation) */
                    if (oc__round_push(out, src, dst, OC_OP_COPY, first, C - first) ||
                        oc__round_push(out, src, dst, OC_OP_COPY, 0, first + b->count - C))
                        return 1;
                } else if (oc__round_push(out, src, dst, OC_OP_COPY, first, b->count)) {
                    return 1;
                }
            }
    if (br->kind && br->round == r && out->count) {
        oc__transfer *t = &out->xfers[br->at % out->count];
        switch (br->kind) {
        case 1:
            t->dst = t->dst + 1 == N ? 0 : t->dst + 1;
            if (t->dst == t->src) t->dst = t->dst + 1 == N ? 0 : t->dst + 1;
            break;
        case 2:
            t->first = (t->first + q) % C;
            if (t->first + t->count > C) t->first = 0;
            break;
        case 3:
            memmove(t, t + 1, (size_t)(out->xfers + out->count - t - 1) * sizeof *t);
            out->count--;
            break;
        case 4: {
            const oc__transfer d = *t;
            if (oc__round_push(out, d.src, d.dst, (oc__op)d.op, d.first, d.count)) return 1;
            break;
        }
        case 5:
            if (br->at % out->count + 1 < out->count) {
                const oc__transfer s = t[0];
                t[0] = t[1];
                t[1] = s;
            }
            break;
        case 6:
            t->op = OC_OP_REDUCE;
            break;
        }
    }
    return 0;
}

static outcome verify_schedule(oc_collective coll, const piece *const *rounds, const size_t *np,
                               uint32_t nr, uint32_t N, uint32_t q, const breakage *br, int off,
                               int labels) {
    outcome o = {0};
    oc__spec spec;
    oc__verifier *v = NULL;
    oc__round r = {0};
    o.rc = oc__spec_init(&spec, coll, N, 0, 4096, q, o.why, sizeof o.why);
    /* labels 1: every block relabelled to its own node (stride 1's, bidir's labels) */
    if (!o.rc && labels && !(spec.block_node = calloc(N, sizeof(uint32_t)))) o.rc = -1000;
    for (uint32_t b = 0; !o.rc && labels && b < N; b++)
        spec.block_node[b] = b;
    if (!o.rc) o.rc = oc__verifier_new(&spec, &v, o.why, sizeof o.why);
    if (o.rc) goto out;
    oc__verifier_rotation_off(v, off);
    oc__sink *sink = oc__verifier_sink(v);
    for (uint32_t i = 0; i < nr && !o.rc; i++) {
        uint32_t at = i; /* the schedule's round given in place i */
        if (br->kind == 7 && i == br->round) continue;
        if (br->kind == 8 && i == br->round && i + 1 < nr) at = i + 1;
        if (br->kind == 8 && i == br->round + 1) at = br->round;
        if (make_round(rounds[at], np[at], N, q, br, at, &r)) {
            o.rc = -1000;
            break;
        }
        if (r.count) o.rc = sink->round(sink, i, &r, o.why, sizeof o.why);
    }
    if (!o.rc) o.rc = oc__verifier_finish(v, o.why, sizeof o.why);
    o.redundant = oc__verifier_redundant(v);
    o.rotations = oc__verifier_rotation_rounds(v);
out:
    oc__round_free(&r);
    oc__verifier_free(v);
    oc__spec_free(&spec);
    return o;
}

enum { MAXR = 64 };

/* The schedules: each fills rounds[] / np[] for N and q, returns the round count. */
typedef struct shape {
    const char *name;
    uint32_t (*make)(uint32_t N, uint32_t q, piece *store, base *bases, const piece **rounds,
                     size_t *np);
} shape;

/* The bidirectional ring: round r sends block 0 from r - 1 to r and from -(r - 1) to -r; `split`:
 * the two directions as two pieces, else one piece of both. */
static uint32_t bidir_rounds(uint32_t N, int split, piece *store, base *bases, const piece **rounds,
                             size_t *np) {
    const uint32_t up = N / 2, down = (N - 1) / 2;
    uint32_t nr = 0;
    for (uint32_t r = 1; r <= up && nr < MAXR; r++, nr++) {
        base *b = &bases[4 * nr];
        size_t k = 0;
        b[k++] = (base){r - 1, r, 0, 0, 0};
        if (r <= down) b[k++] = (base){N - (r - 1), N - r, 0, 0, 0};
        piece *p = &store[2 * nr];
        if (split && k == 2) {
            p[0] = (piece){b, 1};
            p[1] = (piece){b + 1, 1};
            np[nr] = 2;
        } else {
            p[0] = (piece){b, k};
            np[nr] = 1;
        }
        rounds[nr] = p;
    }
    return nr;
}

static uint32_t bidir_one(uint32_t N, uint32_t q, piece *s, base *b, const piece **r, size_t *n) {
    const uint32_t nr = bidir_rounds(N, 0, s, b, r, n);
    for (uint32_t i = 0; i < 4 * nr; i++)
        b[i].count = q;
    return nr;
}

static uint32_t bidir_split(uint32_t N, uint32_t q, piece *s, base *b, const piece **r, size_t *n) {
    const uint32_t nr = bidir_rounds(N, 1, s, b, r, n);
    for (uint32_t i = 0; i < 4 * nr; i++)
        b[i].count = q;
    return nr;
}

/* A tree of hops: in round t block 0 goes from offset 3 (t - 1) to the next three offsets, and
 * from its mirror to theirs (round 1: from the owner to 1, 2, 3 and -1, -2, -3): one piece of
 * up to six arcs a round, until every offset up to N / 2 and its mirror are reached. */
static uint32_t tree(uint32_t N, uint32_t q, piece *s, base *b, const piece **r, size_t *n) {
    uint32_t nr = 0;
    for (uint32_t reach = 0; 2 * (reach + 1) <= N && nr < MAXR; reach += 3) {
        base *x = b + 8 * nr;
        size_t k = 0;
        for (uint32_t h = reach + 1; h <= reach + 3 && 2 * h <= N; h++) {
            x[k++] = (base){reach, h, 0, 0, q};
            if (h < N - h) x[k++] = (base){N - reach, N - h, 0, 0, q};
        }
        s[nr] = (piece){x, k};
        r[nr] = &s[nr];
        n[nr++] = 1;
    }
    return nr;
}

/* q = 3 only matters here: each block in two transfers, labels [0, 1) and [1, q), one hop a
 * round one way (the one-way ring), the second piece a round late: partial blocks. */
static uint32_t partial(uint32_t N, uint32_t q, piece *s, base *b, const piece **r, size_t *n) {
    uint32_t nr = 0;
    for (uint32_t t = 0; t < N && nr < MAXR; t++, nr++) {
        base *x = b + 4 * nr;
        size_t k = 0;
        if (t + 1 < N) x[k++] = (base){t, t + 1, 0, 0, 1};
        if (t >= 1 && q > 1) x[k++] = (base){t - 1, t, 0, 1, q - 1};
        s[nr] = (piece){x, k};
        r[nr] = &s[nr];
        n[nr] = k ? 1 : 0;
    }
    return nr;
}

/* Two blocks a transfer (the block and the next: its last block's labels wrap, so the round is
 * not a rotation and goes the plain way), then the bidirectional ring with a redundant third arc
 * a round (block 0 to node 1 again). */
static uint32_t pairs(uint32_t N, uint32_t q, piece *s, base *b, const piece **r, size_t *n) {
    uint32_t nr = bidir_one(N, q, s, b, r, n);
    for (uint32_t i = 0; i < nr && i < MAXR - 1; i++) {
        base *x = (base *)(uintptr_t)r[i][0].b;
        x[r[i][0].k] = (base){0, 1, 0, 0, q};
        s[2 * i].k = r[i][0].k + 1;
    }
    if (nr < MAXR) {
        base *x = b + 4 * nr;
        x[0] = (base){0, N - 1, N - 1, 0, 2 * q <= N * q ? 2 * q : q};
        s[2 * nr] = (piece){x, 1};
        r[nr] = &s[2 * nr];
        n[nr] = 1;
        nr++;
    }
    return nr;
}

static void rotation_cases(void) {
    static const shape shapes[] = {{"bidir, both arcs of a block together", bidir_one},
                                   {"bidir, one direction a piece", bidir_split},
                                   {"tree of hops 1..3", tree},
                                   {"partial blocks", partial},
                                   {"two-block transfers and redundant arcs", pairs}};
    static const uint32_t Ns[] = {2, 3, 5, 7, 12, 100};
    static const uint32_t qs[] = {1, 3};
    static const oc_collective colls[] = {OC_ALLGATHER, OC_GOSSIP};
    piece *store = calloc(4 * MAXR, sizeof *store);
    base *bases = calloc(16 * MAXR, sizeof *bases);
    const piece *rounds[MAXR];
    size_t np[MAXR];
    uint64_t fast = 0, broken_failed = 0, rounds_failed = 0, cases = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof *Ns; ni++)
            for (size_t qi = 0; qi < sizeof qs / sizeof *qs; qi++)
                for (size_t ci = 0; ci < sizeof colls / sizeof *colls; ci++) {
                    const uint32_t N = Ns[ni], q = qs[qi];
                    memset(bases, 0, 16 * MAXR * sizeof *bases);
                    const uint32_t nr = shapes[sh].make(N, q, store, bases, rounds, np);
                    for (int kind = 0; kind <= 8; kind++)
                        for (uint32_t at = 0; at < (kind ? 3u : 1u); at++) {
                            const breakage br = {kind, nr ? (at * 7 + 1) % nr : 0, at * 5 + 2};
                            const int labels = (int)((sh + ni + at) % 2);
                            const outcome on =
                                verify_schedule(colls[ci], rounds, np, nr, N, q, &br, 0, labels);
                            const outcome off =
                                verify_schedule(colls[ci], rounds, np, nr, N, q, &br, 1, labels);
                            cases++;
                            CHECK(on.rc == off.rc && strcmp(on.why, off.why) == 0 &&
                                      on.redundant == off.redundant,
                                  "%s, %s, N=%u q=%u, break %d at round %u transfer %u: with the "
                                  "rotation path rc %d '%s' redundant %llu, without rc %d '%s' "
                                  "redundant %llu",
                                  shapes[sh].name, oc_collective_name(colls[ci]), N, q, kind,
                                  br.round, br.at, on.rc, on.why, (unsigned long long)on.redundant,
                                  off.rc, off.why, (unsigned long long)off.redundant);
                            CHECK(off.rotations == 0, "the path off took %llu rounds",
                                  (unsigned long long)off.rotations);
                            fast += on.rotations;
                            if (kind == 2 && off.rc) broken_failed++;
                            if (kind >= 7 && off.rc) rounds_failed++;
                            if (kind == 0 && sh != 3 && N >= 3)
                                CHECK(on.rc == 0 && on.rotations > 0,
                                      "%s N=%u q=%u: rc %d '%s', %llu rounds taken whole",
                                      shapes[sh].name, N, q, on.rc, on.why,
                                      (unsigned long long)on.rotations);
                        }
                }
    /* the path fired, and the broken labels were failures the path did not pass */
    CHECK(fast > 1000, "only %llu rounds taken whole in %llu cases", (unsigned long long)fast,
          (unsigned long long)cases);
    CHECK(broken_failed > 50, "only %llu broken labels failed", (unsigned long long)broken_failed);
    CHECK(rounds_failed > 50, "only %llu schedules with a round left out or moved failed",
          (unsigned long long)rounds_failed);
    free(store);
    free(bases);
}

/* ---- 2. the search's lone candidate ---- */

static int quiet_attach(oc__watch *w, const oc__model *m, oc__netrun *net, char *why, size_t len) {
    (void)w, (void)m, (void)net, (void)why, (void)len;
    return 0;
}

static int quiet_finish(oc__watch *w, oc_report *rep, char *why, size_t len) {
    (void)w, (void)rep, (void)why, (void)len;
    return 0;
}

/* The report as `run --json` prints it, into buf (NULL: could not be written). */
static char *report_json(const oc_report *rep) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return NULL;
    const int rc = oc_report_write_json(rep, f);
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void lone_cases(void) {
    static const struct {
        oc_collective c;
        const char *a;
    } algos[] = {
        {OC_ALLGATHER, "circulant"},  {OC_ALLGATHER, "stride"},        {OC_ALLGATHER, "multilevel"},
        {OC_ALLGATHER, "bistride"},   {OC_ALLGATHER, "optree"},        {OC_ALLGATHER, "wrht"},
        {OC_ALLGATHER, "rd"},         {OC_REDUCESCATTER, "circulant"}, {OC_REDUCESCATTER, "rh"},
        {OC_REDUCESCATTER, "stride"}, {OC_ALLREDUCE, "hring"},         {OC_ALLREDUCE, "rhd"},
        {OC_ALLREDUCE, "sipco"},      {OC_ALLREDUCE, "stride"},        {OC_ALLREDUCE, "multilevel"},
        {OC_ALLREDUCE, "circulant"},  {OC_ALLREDUCE, "dbtree"}};
    static const uint32_t Ns[] = {3, 5, 7, 12, 100, 1031, 2897};
    static const char *const ws[] = {"1", "8", "64"};
    uint64_t deferred = 0, compared = 0;
    oc__watch quiet = {.what = "a test's watch", .attach = quiet_attach, .finish = quiet_finish};
    for (size_t ai = 0; ai < sizeof algos / sizeof *algos; ai++)
        for (size_t ni = 0; ni < sizeof Ns / sizeof *Ns; ni++)
            for (size_t wi = 0; wi < sizeof ws / sizeof *ws; wi++) {
                const uint32_t N = Ns[ni];
                /* the large case only where it is cheap, and circulant's past 1024 nodes */
                if (N > 1000 && (wi != 2 || (strcmp(algos[ai].a, "circulant") != 0 &&
                                             strcmp(algos[ai].a, "stride") != 0)))
                    continue;
                if (N == 2897 && (strcmp(algos[ai].a, "circulant") || algos[ai].c == OC_ALLREDUCE))
                    continue;
                oc_kv *net = oc_kv_new();
                if (!net || oc_kv_set(net, "wavelengths", ws[wi])) {
                    CHECK(0, "out of memory");
                    oc_kv_free(net);
                    return;
                }
                oc_request req = {.collective = algos[ai].c,
                                  .algorithm = algos[ai].a,
                                  .network = "ring",
                                  .nodes = N,
                                  .bytes = algos[ai].c == OC_ALLGATHER ? 4096 : 4u << 20,
                                  .net_params = net,
                                  .skip_data_check = N > 1000};
                char why1[512] = "", why2[512] = "";
                oc_report *a = NULL, *b = NULL;
                const int rc1 = oc_run(&req, &a, why1, sizeof why1);
                const int rc2 = oc__run_request(&req, &quiet, &b, why2, sizeof why2);
                char *ja = a ? report_json(a) : NULL, *jb = b ? report_json(b) : NULL;
                CHECK(rc1 == rc2 && strcmp(why1, why2) == 0 &&
                          ((!ja && !jb) || (ja && jb && strcmp(ja, jb) == 0)),
                      "%s %s N=%u w=%s: oc_run rc %d '%s'\n%s\nmapped in the search rc %d '%s'\n%s",
                      oc_collective_name(algos[ai].c), algos[ai].a, N, ws[wi], rc1, why1,
                      ja ? ja : "(none)", rc2, why2, jb ? jb : "(none)");
                compared++;
                /* whether the search left it to the final run */
                const oc__algo *algo = oc__algo_find(req.collective, req.algorithm);
                const oc__model *model = oc__model_find(req.network);
                char why[512];
                if (algo && model) {
                    oc_report *scratch = oc__report_new();
                    oc_kv *chosen = NULL;
                    oc__search_defer *d = NULL;
                    oc__netset parsed;
                    if (scratch &&
                        oc__netset_parse(model, req.net_params, req.nodes, &parsed, why,
                                         sizeof why) == 0 &&
                        oc__search_params_deferred(algo, &parsed, &req, &chosen, &d, scratch, why,
                                                   sizeof why) == 0 &&
                        d)
                        deferred++;
                    oc__search_defer_free(d);
                    oc_kv_free(chosen);
                    oc_report_free(scratch);
                }
                free(ja);
                free(jb);
                oc_report_free(a);
                oc_report_free(b);
                oc_kv_free(net);
            }
    CHECK(deferred >= 2, "only %llu of %llu searches left their candidate to the final run",
          (unsigned long long)deferred, (unsigned long long)compared);
    printf("lone candidates: %llu of %llu searches left to the final run\n",
           (unsigned long long)deferred, (unsigned long long)compared);
}

int main(void) {
    rotation_cases();
    lone_cases();
    return CHECK_SUMMARY();
}
