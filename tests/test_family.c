/*
 * test_family.c — family rounds (core.h, issue 31): a ring round handed to the sinks whole must
 * give exactly what its transfers one by one give.
 *
 *  1. Schedules made of families (the ring all-gather, and broken ones: a round short, a sender
 *     that does not hold its block yet, a round repeated, hop 2, a family with a transfer added
 *     to its round, a plain round between families, a reduce in an all-gather, blocks narrower
 *     than q, hops 1 and 2 in turn) on N in {2, 3, 5, 7, 12, 64, 100}, q in {1, 3}, all-gather and
 * gossip, on the ring (which takes families whole) and the switch (which is handed them written
 * out), with and without the real-data run: emitted as families and emitted one transfer at a time,
 * the return code, the reason, the rounds, transfers, chunk-transfers, redundant deliveries, steps
 * and time must be the same. The verifier's uniform state (verify.c) and the ring model's repeated
 * family (ring.c) are the paths under test: a verifier that skipped the senders' check, or a model
 * that reused another family's colours, fails here. The all-reduce (the ring reduce-scatter's
 * families, then the all-gather's) goes the same way: the verifier writes its families out, the
 * switch takes them whole.
 *  2. The ring check's family shortcut (oc__ring_check_family) decides only what it proves:
 *     arcs of one link on one colour range, covering each transfer exactly; longer arcs, a range
 *     of the wrong width or past the colours used, a family of another ring are left undecided;
 *     the switch check's (oc__sw_check_family) proves one transfer a port and nothing else.
 */
#include "check.h"
#include "core/result.h"
#include "net/net.h"
#include "net/ring.h"
#include "net/switch.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One round of a test schedule: a family, and optionally one more transfer in the same round. */
typedef struct step {
    uint32_t hop, shift, width, op;
    int plain; /* 1: this round is always emitted one transfer at a time */
    int extra; /* 1: add the transfer extra_src -> extra_dst of block 0 */
    uint32_t extra_src, extra_dst;
} step;

typedef struct sched {
    const step *steps;
    size_t n;
    uint32_t N;
    int whole; /* 1: families through oc__emit_family; 0: every transfer on its own */
} sched;

static int source(void *arg, oc__emit *e) {
    const sched *s = arg;
    for (size_t i = 0; i < s->n; i++) {
        const step *st = &s->steps[i];
        const oc__family f = {.n = s->N,
                              .hop = st->hop,
                              .shift = st->shift,
                              .first = 0,
                              .width = st->width,
                              .op = st->op};
        int rc = 0;
        if (s->whole && !st->plain) {
            rc = oc__emit_family(e, &f);
        } else {
            for (uint32_t k = 0; k < s->N && !rc; k++) {
                const oc__transfer t = oc__family_at(&f, k);
                rc = oc__emit_transfer(e, t.src, t.dst, (oc__op)t.op, t.first, t.count);
            }
        }
        if (!rc && st->extra)
            rc = oc__emit_transfer(e, st->extra_src, st->extra_dst, OC_OP_COPY, 0, st->width);
        if (!rc) rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, transfers, units, redundant, steps;
    double time;
} outcome;

static outcome run(const char *net, oc_collective coll, uint32_t N, uint32_t q, const step *steps,
                   size_t n, int whole, int data, int families) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    if (oc__spec_init(&spec, coll, N, 0, (uint64_t)q * 1024, q, o.why, sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    spec.families = families;
    oc_report *rep = oc__report_new();
    const sched s = {steps, n, N, whole};
    o.rc = oc__run_schedule(&spec, source, (void *)&s, oc__model_find(net), NULL, data, NULL, rep,
                            o.why, sizeof o.why);
    if (!o.rc) {
        o.rounds = rep->rounds;
        o.transfers = rep->transfers;
        o.units = rep->units;
        o.redundant = rep->redundant;
        o.steps = oc_report_steps(rep);
        o.time = oc_report_time(rep);
    }
    oc_report_free(rep);
    oc__spec_free(&spec);
    return o;
}

/* The ring all-gather's N - 1 rounds (after the ring reduce-scatter's N - 1 when `reduce`) into
 * st (room for 2N + 1), changed by `kind`; the count. */
static size_t make(int kind, uint32_t N, uint32_t q, step *st, int reduce) {
    size_t n = 0;
    for (uint32_t r = 0; reduce && r + 1 < N; r++)
        st[n++] = (step){.hop = 1, .shift = (r + 1) % N, .width = q, .op = OC_OP_REDUCE};
    for (uint32_t r = 0; r + 1 < N; r++)
        st[n++] = (step){.hop = 1, .shift = r, .width = q, .op = OC_OP_COPY};
    switch (kind) {
    case 0: /* whole */
        break;
    case 1: /* the last round left out */
        n--;
        break;
    case 2: /* round 1 sends a block its senders do not hold yet */
        if (n > 1) st[1].shift = 2 % N;
        break;
    case 3: /* round 0 twice: N redundant deliveries of q chunks */
        memmove(st + 1, st, n * sizeof *st);
        n++;
        break;
    case 4: /* hop 2 throughout: arcs of two links */
        for (size_t i = 0; i < n; i++)
            st[i].hop = 2 % N, st[i].shift = (uint32_t)((2 * i) % N);
        break;
    case 5: /* one more transfer in round 0's round */
        st[0].extra = 1, st[0].extra_src = 0, st[0].extra_dst = N - 1;
        break;
    case 6: /* a plain round between families */
        if (n > 1) st[1].plain = 1;
        break;
    case 7: /* a reduce in an all-gather */
        st[n - 1].op = OC_OP_REDUCE;
        break;
    case 8: /* blocks of one chunk where a block is q */
        for (size_t i = 0; i < n; i++)
            st[i].width = 1;
        break;
    case 9: /* hops 1 and 2 in turn: a family like the last but for its hop */
        for (size_t i = 1; i < n; i += 2)
            st[i].hop = 2 % N;
        break;
    }
    return n;
}

static int same(const outcome *a, const outcome *b) {
    return a->rc == b->rc && !strcmp(a->why, b->why) && a->rounds == b->rounds &&
           a->transfers == b->transfers && a->units == b->units && a->redundant == b->redundant &&
           a->steps == b->steps && a->time == b->time;
}

static void families_as_transfers(void) {
    static const uint32_t sizes[] = {2, 3, 5, 7, 12, 64, 100};
    static const char *const nets[] = {"ring", "switch"};
    static const oc_collective colls[] = {OC_ALLGATHER, OC_GOSSIP, OC_ALLREDUCE};
    int fails = 0, passes = 0;
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        const uint32_t N = sizes[a];
        step *st = calloc(2 * (size_t)N + 2, sizeof *st);
        for (uint32_t q = 1; q <= 3; q += 2)
            for (int kind = 0; kind <= 9; kind++)
                for (size_t c = 0; c < 3; c++)
                    for (size_t k = 0; k < 2; k++)
                        for (int data = 0; data <= 1; data++) {
                            /* an all-reduce's vector is N blocks of q chunks */
                            const int reduce = colls[c] == OC_ALLREDUCE;
                            const uint32_t sq = reduce ? N * q : q;
                            const size_t n = make(kind, N, q, st, reduce);
                            /* a reduction's verifier holds one cell per offset when the
                             * spec says families (the promise kept, and broken: transfers) */
                            const outcome w = run(nets[k], colls[c], N, sq, st, n, 1, data, 1);
                            const outcome p = run(nets[k], colls[c], N, sq, st, n, 0, data, 0);
                            if (reduce) {
                                const outcome b = run(nets[k], colls[c], N, sq, st, n, 0, data, 1);
                                CHECK(same(&b, &p), "N=%u q=%u kind %d: promise broken rc %d '%s'",
                                      N, q, kind, b.rc, b.why);
                            }
                            CHECK(same(&w, &p),
                                  "%s %s N=%u q=%u kind %d data %d: families rc %d '%s' rounds "
                                  "%llu steps %llu redundant %llu, transfers rc %d '%s' rounds "
                                  "%llu steps %llu redundant %llu",
                                  oc_collective_name(colls[c]), nets[k], N, q, kind, data, w.rc,
                                  w.why, (unsigned long long)w.rounds, (unsigned long long)w.steps,
                                  (unsigned long long)w.redundant, p.rc, p.why,
                                  (unsigned long long)p.rounds, (unsigned long long)p.steps,
                                  (unsigned long long)p.redundant);
                            if (w.rc)
                                fails++;
                            else
                                passes++;
                        }
        free(st);
    }
    /* both kinds of verdict were compared, not only passes */
    CHECK(fails > 100 && passes > 100, "%d failing and %d passing schedules", fails, passes);
    /* the kinds that must fail do, as their transfers one by one do, naming the same thing */
    step st[16];
    size_t n = make(2, 7, 1, st, 0);
    outcome w = run("ring", OC_ALLGATHER, 7, 1, st, n, 1, 0, 0);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "round 1: node 0 sends to node 1, before it has it"),
          "sender without its block: rc %d '%s'", w.rc, w.why);
    n = make(1, 7, 1, st, 0);
    w = run("ring", OC_ALLGATHER, 7, 1, st, n, 1, 0, 0);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "at the end: node 0 is missing"),
          "a round short: rc %d '%s'", w.rc, w.why);
    /* round 0 of the reduce-scatter again in round 1 counts a contribution twice */
    step rs[32];
    n = make(0, 7, 1, rs, 1);
    rs[1].shift = 1;
    w = run("switch", OC_ALLREDUCE, 7, 7, rs, n, 1, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "twice"), "all-reduce, round 0 twice: rc %d '%s'",
          w.rc, w.why);
    n = make(0, 7, 1, rs, 1);
    w = run("switch", OC_ALLREDUCE, 7, 7, rs, n - 1, 1, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "at the end: node"),
          "all-reduce, a round short: rc %d '%s'", w.rc, w.why);
    n = make(3, 7, 3, st, 0);
    w = run("ring", OC_ALLGATHER, 7, 3, st, n, 1, 0, 0);
    CHECK(w.rc == 0 && w.redundant == 7 * 3, "round 0 twice: rc %d redundant %llu", w.rc,
          (unsigned long long)w.redundant);
}

static void ring_check_family(void) {
    oc__ring_checker *c = NULL;
    CHECK(oc__ring_checker_new(12, &c) == 0, "checker");
    if (!c) return;
    char why[256];
    int decided = -1;
    const oc__family one = {.n = 12, .hop = 1, .shift = 3, .first = 0, .width = 2, .op = 0};
    /* one link clockwise, colours [0, 2) of 2: proven */
    CHECK(!oc__ring_check_family(c, 0, &one, RING_CW, 0, 2, 2, &decided, why, sizeof why) &&
              decided == 1,
          "hop 1 cw: decided %d", decided);
    /* hop 11 counter-clockwise is one link too */
    const oc__family back = {.n = 12, .hop = 11, .shift = 0, .first = 0, .width = 1, .op = 0};
    CHECK(!oc__ring_check_family(c, 0, &back, RING_CCW, 5, 1, 6, &decided, why, sizeof why) &&
              decided == 1,
          "hop 11 ccw: decided %d", decided);
    /* the same family clockwise: arcs of 11 links on one range share links */
    CHECK(!oc__ring_check_family(c, 0, &back, RING_CW, 0, 1, 1, &decided, why, sizeof why) &&
              decided == 0,
          "hop 11 cw: decided %d", decided);
    const oc__family two = {.n = 12, .hop = 2, .shift = 0, .first = 0, .width = 1, .op = 0};
    CHECK(!oc__ring_check_family(c, 0, &two, RING_CW, 0, 1, 1, &decided, why, sizeof why) &&
              decided == 0,
          "hop 2: decided %d", decided);
    /* a range narrower or wider than the transfers, or past the colours used */
    CHECK(!oc__ring_check_family(c, 0, &one, RING_CW, 0, 1, 2, &decided, why, sizeof why) &&
              decided == 0,
          "width 1 of 2: decided %d", decided);
    CHECK(!oc__ring_check_family(c, 0, &one, RING_CW, 1, 2, 2, &decided, why, sizeof why) &&
              decided == 0,
          "past the colours: decided %d", decided);
    /* a family of 13 nodes on a ring of 12 */
    const oc__family other = {.n = 13, .hop = 1, .shift = 0, .first = 0, .width = 2, .op = 0};
    CHECK(!oc__ring_check_family(c, 0, &other, RING_CW, 0, 2, 2, &decided, why, sizeof why) &&
              decided == 0,
          "another ring: decided %d", decided);
    oc__ring_checker_free(c);
}

static void switch_check_family(void) {
    int decided = -1;
    const oc__family f = {.n = 12, .hop = 5, .shift = 3, .first = 0, .width = 2, .op = 1};
    /* every port one transfer of 2 x 1000 bytes: proven */
    oc__sw_claim claim = {.degree = 1, .msgs = 1, .bytes = 2000};
    oc__sw_check_family(0, &f, 12, 1000, &claim, &decided);
    CHECK(decided == 1, "hop 5 of 12: decided %d", decided);
    /* a claim that is not the round's, a hop of 0, a family of another switch: undecided */
    claim.bytes = 1000;
    oc__sw_check_family(0, &f, 12, 1000, &claim, &decided);
    CHECK(decided == 0, "bytes 1000 claimed: decided %d", decided);
    claim = (oc__sw_claim){.degree = 2, .msgs = 1, .bytes = 2000};
    oc__sw_check_family(0, &f, 12, 1000, &claim, &decided);
    CHECK(decided == 0, "degree 2 claimed: decided %d", decided);
    claim = (oc__sw_claim){.degree = 1, .msgs = 1, .bytes = 2000};
    const oc__family zero = {.n = 12, .hop = 0, .shift = 0, .first = 0, .width = 2, .op = 1};
    oc__sw_check_family(0, &zero, 12, 1000, &claim, &decided);
    CHECK(decided == 0, "hop 0: decided %d", decided);
    oc__sw_check_family(0, &f, 13, 1000, &claim, &decided);
    CHECK(decided == 0, "12 of 13 nodes: decided %d", decided);
}

int main(void) {
    families_as_transfers();
    ring_check_family();
    switch_check_family();
    return CHECK_SUMMARY();
}
