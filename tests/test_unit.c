/*
 * test_unit.c — unit tests of the library: size parsing, the semantic verifier and the real-data
 * run on deliberately broken schedules (each error kind must be caught and named), the ring model
 * (routing, splitting a round into steps, the independent resource check rejecting a conflict),
 * and every all-gather algorithm for node counts that are not powers of anything, checked against
 * the verifier and against the closed forms where those are exact.
 *
 * Every test asserts a result a wrong implementation would get wrong. The harness prints one line
 * per failure and ends with "N passed, M failed".
 */
#include "algo/algos.h"
#include "core/core.h"
#include "net/net.h"
#include "net/ring.h"
#include "verify/verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* ---- sizes and numbers ---- */

static void test_sizes(void) {
    uint64_t v = 0;
    CHECK(oc_parse_size("4096", &v) == 0 && v == 4096, "4096");
    CHECK(oc_parse_size("4KiB", &v) == 0 && v == 4096, "4KiB");
    CHECK(oc_parse_size("4MiB", &v) == 0 && v == 4u << 20, "4MiB");
    CHECK(oc_parse_size("1GiB", &v) == 0 && v == 1u << 30, "1GiB");
    CHECK(oc_parse_size("4MB", &v) == 0 && v == 4000000, "4MB");
    CHECK(oc_parse_size("1PiB", &v) == 0 && v == UINT64_C(1) << 50, "1PiB is the limit");
    CHECK(oc_parse_size("2PiB", &v) == OC_ERANGE, "over the limit");
    CHECK(oc_parse_size("99999999999999999999", &v) == OC_ERANGE, "overflow");
    CHECK(oc_parse_size("-1", &v) == OC_EPARSE, "negative");
    CHECK(oc_parse_size("", &v) == OC_EPARSE, "empty");
    char version[32]; /* the header's macros and the library linked say one version */
    snprintf(version, sizeof version, "%d.%d.%d", OC_VERSION_MAJOR, OC_VERSION_MINOR,
             OC_VERSION_PATCH);
    CHECK(strcmp(oc_version(), version) == 0,
          "oc_version() is the header's OC_VERSION_*");
    /* one grammar: nccl-tests' K, M, G are 1024^k, its decimal cousins stay 10^k */
    CHECK(oc_parse_size("1K", &v) == 0 && v == 1024, "1K is nccl-tests' 1024");
    CHECK(oc_parse_size("128M", &v) == 0 && v == UINT64_C(128) << 20, "128M");
    CHECK(oc_parse_size("2G", &v) == 0 && v == UINT64_C(2) << 30, "2G");
    CHECK(oc_parse_size("4k", &v) == OC_EPARSE, "4k: kilo or kibi, refused");
    CHECK(oc_parse_size("1KB", &v) == 0 && v == 1000, "1KB stays decimal");
    CHECK(oc_parse_size("K", &v) == OC_EPARSE && oc_parse_size("1KK", &v) == OC_EPARSE,
          "a letter needs digits before it, and only one");
    CHECK(oc_parse_size("1.5MiB", &v) == OC_EPARSE, "fraction");
    CHECK(oc_parse_size("4XB", &v) == OC_EPARSE, "unit");
    CHECK(oc_parse_size(" 4", &v) == OC_EPARSE, "space");
    CHECK(oc_parse_u64("12", 1, 100, &v) == 0 && v == 12, "u64");
    CHECK(oc_parse_u64("0", 1, 100, &v) == OC_ERANGE, "u64 below");
    CHECK(oc_parse_u64("1e3", 1, 100000, &v) == OC_EPARSE, "u64 exponent");
    CHECK(strcmp(oc_strerror(OC_EVERIFY), "schedule failed semantic verification") == 0,
          "strerror");
}

/* ---- a schedule in memory, fed to the verifier and the real-data run ---- */

typedef struct sched {
    oc__round rounds[64];
    size_t n;
} sched;

static void add(sched *s, size_t round, uint32_t src, uint32_t dst, oc__op op, uint32_t first,
                uint32_t count) {
    if (round >= s->n) s->n = round + 1;
    if (oc__round_push(&s->rounds[round], src, dst, op, first, count)) abort();
}

static void sched_free(sched *s) {
    for (size_t i = 0; i < s->n; i++)
        oc__round_free(&s->rounds[i]);
    memset(s, 0, sizeof *s);
}

/* Runs the symbolic verifier (and, with data = 1, the real-data run alone) over s. */
static int verify(const oc__spec *spec, const sched *s, int data, char *why, size_t len) {
    oc__sink *sink;
    oc__verifier *v = NULL;
    oc__datacheck *d = NULL;
    int rc;
    if (data) {
        rc = oc__datacheck_new(spec, UINT64_C(1) << 30, &d, why, len);
        if (rc || !d) return rc ? rc : -1000;
        sink = oc__datacheck_sink(d);
    } else {
        rc = oc__verifier_new(spec, &v, why, len);
        if (rc) return rc;
        sink = oc__verifier_sink(v);
    }
    sink->next = NULL;
    for (size_t i = 0; i < s->n && !rc; i++)
        rc = sink->round(sink, i, &s->rounds[i], why, len);
    if (!rc) rc = data ? oc__datacheck_finish(d, why, len) : oc__verifier_finish(v, why, len);
    oc__datacheck_free(d);
    oc__verifier_free(v);
    return rc;
}

/* Ring all-gather written out by hand (round r: i sends block i-r to i+1). */
static void ring_allgather(sched *s, uint32_t N) {
    for (uint32_t r = 0; r + 1 < N; r++)
        for (uint32_t i = 0; i < N; i++)
            add(s, r, i, (i + 1) % N, OC_OP_COPY, (i + N - r) % N, 1);
}

/* Ring all-reduce by hand: reduce-scatter (N-1 rounds of reduces) then all-gather (N-1 copies). */
static void ring_allreduce(sched *s, uint32_t N) {
    for (uint32_t r = 0; r + 1 < N; r++)
        for (uint32_t i = 0; i < N; i++)
            add(s, r, i, (i + 1) % N, OC_OP_REDUCE, (i + 2 * N - r - 1) % N, 1);
    for (uint32_t r = 0; r + 1 < N; r++)
        for (uint32_t i = 0; i < N; i++)
            add(s, N - 1 + r, i, (i + 1) % N, OC_OP_COPY, (i + N - r) % N, 1);
}

/* The one size formatter (core/units.c) reads back through the size grammar, and its rounded
 * twin for messages: units that divide exactly, never rounded; nothing lost at the ends. */
static void test_size_text(void) {
    static const struct {
        uint64_t bytes;
        const char *exact, *rounded;
    } cases[] = {{0, "0 B", "0 B"},
                 {1, "1 B", "1 B"},
                 {1000, "1000 B", "1000 B"},
                 {1536, "1536 B", "1.5 KiB"},
                 {3072, "3 KiB", "3 KiB"},
                 {UINT64_C(3) << 19, "1536 KiB", "1.5 MiB"},
                 {UINT64_C(1) << 30, "1 GiB", "1 GiB"},
                 {UINT64_C(5) << 40, "5 TiB", "5 TiB"},
                 {UINT64_C(4) << 60, "4 EiB", "4 EiB"},
                 {UINT64_MAX, "18446744073709551615 B", "16 EiB"}};
    char buf[48];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        oc_format_size(buf, sizeof buf, cases[i].bytes);
        CHECK(strcmp(buf, cases[i].exact) == 0, "oc_format_size(%llu) = %s, not %s",
              (unsigned long long)cases[i].bytes, buf, cases[i].exact);
        char compact[48];
        size_t k = 0;
        for (const char *p = buf; *p; p++)
            if (*p != ' ') compact[k++] = *p;
        compact[k] = '\0';
        uint64_t back = 0;
        if (cases[i].bytes <= UINT64_C(1) << 50) /* the grammar's limit */
            CHECK(oc_parse_size(compact, &back) == 0 && back == cases[i].bytes,
                  "%s does not read back as %llu", compact, (unsigned long long)cases[i].bytes);
        oc__format_bytes(buf, sizeof buf, cases[i].bytes);
        CHECK(strcmp(buf, cases[i].rounded) == 0, "oc__format_bytes(%llu) = %s, not %s",
              (unsigned long long)cases[i].bytes, buf, cases[i].rounded);
        /* the length of the whole text, whatever the buffer: a short one says it was cut */
        char small[4];
        size_t n = oc_format_size(small, sizeof small, cases[i].bytes);
        CHECK(n == strlen(cases[i].exact) && strncmp(small, cases[i].exact, 3) == 0 && !small[3],
              "oc_format_size(%llu) into 4 bytes: %zu, '%s'", (unsigned long long)cases[i].bytes, n,
              small);
        CHECK(oc_format_bytes(NULL, 0, cases[i].bytes) == strlen(cases[i].rounded),
              "oc_format_bytes(%llu)'s length", (unsigned long long)cases[i].bytes);
    }
    /* the times too: the text's length, cut or not */
    static const struct {
        double t;
        const char *unit, *text;
    } times[] = {{0, NULL, "0 s"},
                 {12.345e-6, NULL, "12.345 us"},
                 {2.5e-3, "", "2.500 ms"},
                 {1234567.0, NULL, "1234567.000 s"},
                 {208, "tau", "104 tau"}};
    for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
        size_t n = oc_format_time(buf, sizeof buf, times[i].t, times[i].unit, 2);
        char cut[6];
        size_t m = oc_format_time(cut, sizeof cut, times[i].t, times[i].unit, 2);
        CHECK(!strcmp(buf, times[i].text) && n == strlen(times[i].text) && m == n &&
                  strncmp(cut, times[i].text, sizeof cut - 1) == 0,
              "oc_format_time(%g, %s) = '%s' (%zu), cut '%s' (%zu)", times[i].t,
              times[i].unit ? times[i].unit : "NULL", buf, n, cut, m);
    }
}

static void test_verifier_accepts(void) {
    char why[256];
    const uint32_t sizes[] = {1, 2, 3, 5, 7, 12};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t N = sizes[k];
        oc__spec spec;
        sched s = {0};
        oc__spec_init(&spec, OC_ALLGATHER, N, 0, 64, 1, why, sizeof why);
        ring_allgather(&s, N);
        CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "ring allgather N=%u: %s", N, why);
        CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "ring allgather data N=%u: %s", N, why);
        sched_free(&s);
        oc__spec_init(&spec, OC_ALLREDUCE, N, 0, 64, N, why, sizeof why);
        ring_allreduce(&s, N);
        CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "ring allreduce N=%u: %s", N, why);
        CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "ring allreduce data N=%u: %s", N, why);
        sched_free(&s);
    }
}

static void test_verifier_rejects(void) {
    char why[256];
    oc__spec spec;
    sched s = {0};

    /* A chunk missing at the end: drop node 2's last transfer of a 5-node ring all-gather. */
    oc__spec_init(&spec, OC_ALLGATHER, 5, 0, 64, 1, why, sizeof why);
    ring_allgather(&s, 5);
    s.rounds[3].count--; /* the last transfer of the last round: 4 -> 0, block 1 */
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY, "missing chunk not caught");
    CHECK(strstr(why, "at the end: node 0 is missing chunk 1 (block of node 1)") != NULL, "%s",
          why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == OC_EVERIFY && strstr(why, "node 0"),
          "data check did not catch the missing chunk: %s", why);
    sched_free(&s);

    /* A chunk sent before the sender had it: node 1 forwards block 3 in round 0. */
    add(&s, 0, 1, 2, OC_OP_COPY, 3, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY, "early send not caught");
    CHECK(strstr(why, "round 0: node 1 sends to node 2, before it has it, chunk 3") != NULL, "%s",
          why);
    sched_free(&s);

    /* Reads at the start of the round: receiving and forwarding in one round is too early. */
    add(&s, 0, 0, 1, OC_OP_COPY, 0, 1);
    add(&s, 0, 1, 2, OC_OP_COPY, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "node 1 sends"),
          "same-round forward not caught: %s", why);
    sched_free(&s);

    /* A node out of range. */
    add(&s, 0, 0, 5, OC_OP_COPY, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "out of range"),
          "node out of range not caught: %s", why);
    sched_free(&s);

    /* A chunk label out of range, a node sending to itself, a reduce in a copy collective. */
    add(&s, 0, 0, 1, OC_OP_COPY, 4, 2);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "outside"), "%s", why);
    sched_free(&s);
    add(&s, 0, 3, 3, OC_OP_COPY, 3, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "itself"), "%s", why);
    sched_free(&s);
    add(&s, 0, 0, 1, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "reduces"), "%s", why);
    sched_free(&s);

    /* A contribution counted twice: node 1 reduces into node 0 in two rounds. */
    oc__spec_init(&spec, OC_ALLREDUCE, 3, 0, 64, 1, why, sizeof why);
    add(&s, 0, 1, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 1, 0, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY, "double count not caught");
    CHECK(strstr(why, "round 1: node 0 counts the contribution of node 1 twice") != NULL, "%s",
          why);
    sched_free(&s);

    /* The same, hidden: 0 -> 1 (1 = {0,1}), then 1 -> 2 and 0 -> 2 in one round (2 sees 0 twice).
     */
    add(&s, 0, 0, 1, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 1, 2, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 0, 2, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "counts the contribution of node 0 twice"),
          "double count inside a round not caught: %s", why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == OC_EVERIFY && strstr(why, "instead of the sum"),
          "data check did not catch the double count: %s", why);
    sched_free(&s);

    /* A contribution missing: 2 never reaches 0; then 0 copies its partial sum to everyone. */
    add(&s, 0, 1, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 0, 1, OC_OP_COPY, 0, 1);
    add(&s, 1, 0, 2, OC_OP_COPY, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "at the end: node 0 is missing the contribution of node 2"),
          "missing contribution not caught: %s", why);
    sched_free(&s);

    /* Scattered contributions (more intervals than a compact cell holds inline): nodes 2, 4, 6
     * reduce into node 0 one round each, then 4 again: counted twice, named. */
    oc__spec big;
    oc__spec_init(&big, OC_ALLREDUCE, 8, 0, 64, 1, why, sizeof why);
    add(&s, 0, 2, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 4, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 2, 6, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 3, 4, 0, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&big, &s, 0, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "round 3: node 0 counts the contribution of node 4 twice"),
          "scattered double count: %s", why);
    s.n = 3;
    s.rounds[3].count = 0;
    /* the same three, then the odd nodes in one round: node 0 then holds {0..7} */
    for (uint32_t v = 1; v < 8; v += 2)
        add(&s, 3, v, 0, OC_OP_REDUCE, 0, 1);
    for (uint32_t v = 1; v < 8; v++)
        add(&s, 4, 0, v, OC_OP_COPY, 0, 1);
    CHECK(verify(&big, &s, 0, why, sizeof why) == 0, "scattered then complete: %s", why);
    CHECK(verify(&big, &s, 1, why, sizeof why) == 0, "scattered, data: %s", why);
    /* leave out node 5: missing, named */
    s.rounds[3].count = 2; /* 1 and 3 only */
    add(&s, 3, 7, 0, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&big, &s, 0, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "missing the contribution of node 5"),
          "scattered missing: %s", why);
    sched_free(&s);

    /* A copy and a reduce into one chunk in one round do not commute. */
    add(&s, 0, 1, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 0, 2, 0, OC_OP_COPY, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "a copy and another"),
          "conflicting writes not caught: %s", why);
    sched_free(&s);

    /* Reduce-scatter: node i must end with block i fully reduced. */
    oc__spec_init(&spec, OC_REDUCESCATTER, 3, 0, 64, 1, why, sizeof why);
    add(&s, 0, 1, 0, OC_OP_REDUCE, 0, 1);
    add(&s, 1, 2, 0, OC_OP_REDUCE, 0, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "node 1 is missing the contribution"),
          "reduce-scatter of block 1 not required: %s", why);
    sched_free(&s);

    /* A labelling that is not a permutation is refused before anything runs. */
    oc__spec_init(&spec, OC_ALLGATHER, 3, 0, 64, 1, why, sizeof why);
    spec.block_node = calloc(3, sizeof(uint32_t));
    spec.block_node[0] = 0;
    spec.block_node[1] = 2;
    spec.block_node[2] = 2;
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "permutation"), "%s",
          why);
    oc__spec_free(&spec);
}

/* Broadcast, scatter, gather and all-to-all specs: a direct schedule passes, one short fails. */
static void test_other_collectives(void) {
    char why[256];
    oc__spec spec;
    const uint32_t N = 5, root = 2;
    sched s = {0};
    oc__spec_init(&spec, OC_BROADCAST, N, root, 100, 3, why, sizeof why);
    for (uint32_t i = 0; i < N; i++)
        if (i != root) add(&s, 0, root, i, OC_OP_COPY, 0, 3);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "broadcast: %s", why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "broadcast data: %s", why);
    s.rounds[0].xfers[0].count = 2;
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "chunk 2"), "%s", why);
    sched_free(&s);

    oc__spec_init(&spec, OC_SCATTER, N, root, 100, 1, why, sizeof why);
    for (uint32_t i = 0; i < N; i++)
        if (i != root) add(&s, 0, root, i, OC_OP_COPY, i, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "scatter: %s", why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "scatter data: %s", why);
    s.rounds[0].xfers[0].first = 4; /* node 0 gets block 4 instead of block 0 */
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "node 0 is missing"),
          "%s", why);
    sched_free(&s);

    oc__spec_init(&spec, OC_GATHER, N, root, 100, 1, why, sizeof why);
    for (uint32_t i = 0; i < N; i++)
        if (i != root) add(&s, 0, i, root, OC_OP_COPY, i, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "gather: %s", why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "gather data: %s", why);
    sched_free(&s);

    oc__spec_init(&spec, OC_ALLTOALL, N, 0, 100, 1, why, sizeof why);
    for (uint32_t src = 0; src < N; src++)
        for (uint32_t d = 0; d < N; d++)
            if (d != src) add(&s, 0, src, d, OC_OP_COPY, d * N + src, 1);
    CHECK(verify(&spec, &s, 0, why, sizeof why) == 0, "alltoall: %s", why);
    CHECK(verify(&spec, &s, 1, why, sizeof why) == 0, "alltoall data: %s", why);
    /* forwarding through another node (combining) is fine; sending someone else's block is not */
    s.rounds[0].xfers[0].first = 1 * N + 2; /* node 0 sends what node 2 owes node 1 */
    CHECK(verify(&spec, &s, 0, why, sizeof why) == OC_EVERIFY && strstr(why, "before it has it"),
          "%s", why);
    sched_free(&s);
}

/* ---- the ring model ---- */

/* Maps one round on the ring model and returns its steps and lower bound. */
static int map_round(uint32_t N, const char *w, const sched *s, uint64_t *steps, uint64_t *lb,
                     char *why, size_t len) {
    oc__spec spec;
    oc__spec_init(&spec, OC_ALLTOALL, N, 0, 128, 1, why, len);
    oc_kv *kv = oc_kv_new();
    oc_kv_set(kv, "wavelengths", w);
    oc__netrun *net = NULL;
    int rc = oc__model_create(&oc__model_ring, &spec, kv, 1, &net, why, len);
    oc__sink *sink = net ? oc__model_ring.sink(net) : NULL;
    for (size_t i = 0; i < s->n && !rc; i++)
        rc = sink->round(sink, i, &s->rounds[i], why, len);
    if (!rc) {
        oc_report *rep = oc__report_new();
        rc = oc__model_ring.finish(net, rep, why, len);
        *steps = rep->steps;
        *lb = rep->steps_lb;
        oc_report_free(rep);
    }
    if (net) oc__model_ring.destroy(net);
    oc_kv_free(kv);
    return rc;
}

static void test_ring_model(void) {
    char why[256] = "";
    uint64_t steps = 0, lb = 0;
    sched s = {0};
    /* Every node sends two hops clockwise: every link carries 2 lightpaths. */
    for (uint32_t i = 0; i < 8; i++)
        add(&s, 0, i, (i + 2) % 8, OC_OP_COPY, i, 1);
    CHECK(map_round(8, "1", &s, &steps, &lb, why, sizeof why) == 0 && steps == 2 && lb == 2,
          "w=1: steps %llu lb %llu %s", (unsigned long long)steps, (unsigned long long)lb, why);
    CHECK(map_round(8, "2", &s, &steps, &lb, why, sizeof why) == 0 && steps == 1 && lb == 1,
          "w=2: steps %llu", (unsigned long long)steps);
    sched_free(&s);
    /* Ties at N/2 split between the directions: four half-ring transfers fit one wavelength. */
    for (uint32_t i = 0; i < 4; i++)
        add(&s, 0, i, (i + 2) % 4, OC_OP_COPY, i, 1);
    CHECK(map_round(4, "1", &s, &steps, &lb, why, sizeof why) == 0 && steps == 1 && lb == 1,
          "ties: steps %llu lb %llu", (unsigned long long)steps, (unsigned long long)lb);
    sched_free(&s);
    /* Shortest path: 0 -> 6 on 8 nodes goes counter-clockwise (2 hops), sharing nothing with
     * 1 -> 3 clockwise, so one wavelength is enough. */
    add(&s, 0, 0, 6, OC_OP_COPY, 0, 1);
    add(&s, 0, 1, 3, OC_OP_COPY, 1, 1);
    CHECK(map_round(8, "1", &s, &steps, &lb, why, sizeof why) == 0 && steps == 1,
          "shortest path: steps %llu", (unsigned long long)steps);
    sched_free(&s);
    /* A bundle of 5 chunks on one link with w = 2 needs 3 steps. */
    add(&s, 0, 0, 1, OC_OP_COPY, 0, 5);
    CHECK(map_round(4, "2", &s, &steps, &lb, why, sizeof why) == 0 && steps == 3 && lb == 3,
          "bundle: steps %llu lb %llu", (unsigned long long)steps, (unsigned long long)lb);
    sched_free(&s);
}

static void test_ring_check(void) {
    char why[256] = "";
    oc__ring_checker *c = NULL;
    CHECK(oc__ring_checker_new(4, &c) == 0, "checker");
    oc__round r = {0};
    oc__round_push(&r, 0, 2, OC_OP_COPY, 0, 1); /* links 0->1, 1->2 */
    oc__round_push(&r, 1, 3, OC_OP_COPY, 1, 1); /* links 1->2, 2->3: shares 1->2 */
    uint64_t dir[1] = {0}; /* both clockwise */
    oc__ring_frag frags[2] = {{.xfer = 0, .c0 = 0, .n = 1}, {.xfer = 1, .c0 = 0, .n = 1}};
    oc__ring_assignment a = {
        .dir = dir, .frags = {frags, NULL}, .nfrags = {2, 0}, .colours = {1, 0}};
    CHECK(oc__ring_check(c, 7, &r, &a, 1, 2, why, sizeof why) == OC_ERESOURCE, "conflict accepted");
    CHECK(strstr(why, "round 7, step 0") && strstr(why, "wavelength 0") && strstr(why, "1->2"),
          "conflict message: %s", why);
    /* Different wavelengths: fine. */
    frags[1].c0 = 1;
    a.colours[0] = 2;
    CHECK(oc__ring_check(c, 7, &r, &a, 1, 2, why, sizeof why) == 0, "distinct colours: %s", why);
    /* Colour 2 with w = 2 is wavelength 0 of step 1: the two lightpaths do not meet. */
    frags[1].c0 = 2;
    a.colours[0] = 3;
    CHECK(oc__ring_check(c, 7, &r, &a, 1, 2, why, sizeof why) == 0, "next step: %s", why);
    /* Counter-clockwise 2 -> 0 (links 2->1, 1->0) does not meet clockwise traffic. */
    oc__round r2 = {0};
    oc__round_push(&r2, 2, 0, OC_OP_COPY, 0, 1);
    oc__round_push(&r2, 3, 1, OC_OP_COPY, 1, 1); /* ccw links 3->2, 2->1: shares 2->1 */
    uint64_t dir2[1] = {3}; /* both counter-clockwise */
    oc__ring_frag f2[2] = {{.xfer = 0, .c0 = 0, .n = 1}, {.xfer = 1, .c0 = 0, .n = 1}};
    oc__ring_assignment a2 = {
        .dir = dir2, .frags = {NULL, f2}, .nfrags = {0, 2}, .colours = {0, 1}};
    CHECK(oc__ring_check(c, 0, &r2, &a2, 1, 1, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "2->1"),
          "ccw conflict: %s", why);
    /* A transfer whose chunks are not all carried. */
    oc__round_push(&r, 3, 0, OC_OP_COPY, 3, 2);
    uint64_t dir3[1] = {0}; /* all three clockwise */
    oc__ring_frag f3[3] = {{.xfer = 0, .c0 = 0, .n = 1},
                           {.xfer = 1, .c0 = 1, .n = 1},
                           {.xfer = 2, .c0 = 0, .n = 1}};
    oc__ring_assignment a3 = {
        .dir = dir3, .frags = {f3, NULL}, .nfrags = {3, 0}, .colours = {2, 0}};
    CHECK(oc__ring_check(c, 0, &r, &a3, 1, 2, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "got 1 wavelength-slots"),
          "coverage: %s", why);
    /* A range in the wrong direction. */
    dir3[0] = 4; /* the third counter-clockwise */
    CHECK(oc__ring_check(c, 0, &r, &a3, 1, 2, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "wrong direction"),
          "direction: %s", why);
    oc__round_free(&r);
    oc__round_free(&r2);
    oc__ring_checker_free(c);
}

/* ---- every all-gather algorithm through the whole pipeline ---- */

static oc_report *run_coll(oc_collective coll, const char *algo, uint32_t N, uint64_t w,
                           const char *param, const char *param2, const char *net_param, int *err,
                           char *why, size_t len) {
    char params[128], net[128]; /* param2: one or more space-separated pairs */
    snprintf(params, sizeof params, "%s %s", param ? param : "", param2 ? param2 : "");
    snprintf(net, sizeof net, "wavelengths=%llu %s", (unsigned long long)w,
             net_param ? net_param : "");
    return run_words("ring", coll, algo, N, 4u << 20, params, net, 1, err, why, len);
}

/* Every algorithm of a collective in the registry (at most max): a new one is tested without a
 * new line here. */
/* The algorithms of `coll` that run on the ring, where the matrices below run them (one that runs
 * elsewhere only, like rdk on the fabric, has its own test). */
static size_t algos_of(oc_collective coll, const char **names, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < oc_algorithm_count() && n < max; i++)
        if (oc_algorithm_at(i)->collective == coll &&
            oc_algorithm_runs_on(oc_algorithm_at(i), "ring"))
            names[n++] = oc_algorithm_at(i)->name;
    return n;
}

static oc_report *run(const char *algo, uint32_t N, uint64_t w, const char *param,
                      const char *net_param, int *err, char *why, size_t len) {
    return run_coll(OC_ALLGATHER, algo, N, w, param, NULL, net_param, err, why, len);
}

/* The heaviest directed-link load of one-stage all-to-all with shortest paths, by brute force:
 * an independent count (walks every link of every path; fine for small N). */
static uint64_t onestage_load(uint32_t N) {
    uint64_t *cw = calloc(N, sizeof *cw), *ccw = calloc(N, sizeof *ccw), tie[2] = {0, 0}, mx = 0;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++) {
            if (s == d) continue;
            uint32_t dist = (d + N - s) % N;
            int clockwise = 2 * dist < N || (2 * dist == N && tie[0] <= tie[1]);
            if (2 * dist == N) tie[clockwise ? 0 : 1]++;
            if (clockwise)
                for (uint32_t k = 0; k < dist; k++)
                    cw[(s + k) % N]++;
            else
                for (uint32_t k = 0; k < N - dist; k++)
                    ccw[(s + N - k) % N]++;
        }
    for (uint32_t i = 0; i < N; i++) {
        if (cw[i] > mx) mx = cw[i];
        if (ccw[i] > mx) mx = ccw[i];
    }
    free(cw);
    free(ccw);
    return mx;
}

/* `allgather_matrix-K/M` runs every M-th (algorithm, wavelengths) pair from the K-th (0 <= K <
 * M), the pairs in the registry's order, three wavelength counts each; plain `allgather_matrix`
 * all of them. By pairs rather than algorithms, since one algorithm (circulant at N = 1000) was
 * most of the whole; with M = 4 its three pairs fall into three parts. */
static size_t matrix_part = 0, matrix_parts = 1;

static void test_allgather_matrix(void) {
    const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 16, 100, 1000};
    const uint64_t ws[] = {1, 2, 64};
    const char *algos[32];
    const size_t na = algos_of(OC_ALLGATHER, algos, 32);
    CHECK(na >= 5, "all-gather algorithms: %zu", na);
    CHECK(matrix_parts <= 3 * na, "%zu parts of %zu pairs: some part would run none", matrix_parts,
          3 * na);
    char why[512];
    for (size_t a = 0; a < na; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (size_t j = 0; j < 3; j++) {
                if ((3 * a + j) % matrix_parts != matrix_part) continue;
                uint32_t N = sizes[i];
                uint64_t w = ws[j];
                if (!strcmp(algos[a], "onestage") && N == 1000 && w == 1) continue; /* slow */
                int err;
                oc_report *rep = run(algos[a], N, w, NULL, NULL, &err, why, sizeof why);
                if (!strcmp(algos[a], "ne") && N % 2 && N > 1) {
                    CHECK(err == OC_ENOTSUP && strstr(why, "even"), "ne N=%u: %s", N, why);
                    continue;
                }
                CHECK(err == 0 && rep && oc_report_verified(rep), "%s N=%u w=%llu: %s", algos[a], N,
                      (unsigned long long)w, why);
                if (err) continue;
                uint64_t steps = oc_report_steps(rep), lb = 0;
                double formula = -1;
                CHECK(oc_report_steps_lower_bound(rep, &lb) && steps >= lb, "%s N=%u: %llu < %llu",
                      algos[a], N, (unsigned long long)steps, (unsigned long long)lb);
                CHECK(oc_report_steps_formula(rep, &formula), "%s: no formula", algos[a]);
                CHECK(N * (uint64_t)N > 64 * 1024 || oc_report_data_checked(rep),
                      "%s N=%u: real-data run skipped", algos[a], N);
                if (!strcmp(algos[a], "ring")) {
                    CHECK(steps == N - 1 && oc_report_rounds(rep) == N - 1, "ring N=%u: %llu steps",
                          N, (unsigned long long)steps);
                    CHECK(formula == N - 1, "ring formula");
                } else if (!strcmp(algos[a], "ne")) {
                    /* round 0 moves one block, later rounds two: on one wavelength 2 steps each */
                    uint64_t want = N < 2 ? 0 : w >= 2 ? N / 2 : 1 + 2 * (N / 2 - 1);
                    CHECK(steps == want, "ne N=%u w=%llu: %llu steps, want %llu", N,
                          (unsigned long long)w, (unsigned long long)steps,
                          (unsigned long long)want);
                } else if (!strcmp(algos[a], "onestage")) {
                    uint64_t load = N <= 100
                                        ? onestage_load(N)
                                        : (N % 2 ? ((uint64_t)N * N - 1) / 8 : (uint64_t)N * N / 8);
                    CHECK(lb == oc__ceil_div(load, w),
                          "onestage N=%u w=%llu: bound %llu, load %llu", N, (unsigned long long)w,
                          (unsigned long long)lb, (unsigned long long)load);
                    CHECK((double)steps <= 1.05 * (double)lb + 1, "onestage N=%u: %llu vs %llu", N,
                          (unsigned long long)steps, (unsigned long long)lb);
                    if (N % 2) CHECK(load == ((uint64_t)N * N - 1) / 8, "odd N load");
                } else if (!strcmp(algos[a], "optree")) {
                    CHECK((double)steps <= 1.05 * (double)lb + 1, "optree N=%u: %llu vs %llu", N,
                          (unsigned long long)steps, (unsigned long long)lb);
                    CHECK(N == 1 || oc_report_param(rep, "radices"), "optree N=%u radices", N);
                }
                oc_report_free(rep);
            }
}

static void test_optree(void) {
    char why[512];
    int err;
    /* The paper's motivation example (optree III.C): 16 nodes, 2 wavelengths, two-stage 4-ary. */
    oc_report *rep = run("optree", 16, 2, "radices=4x4", NULL, &err, why, sizeof why);
    CHECK(err == 0 && oc_report_steps(rep) == 12, "16 nodes 4x4: %llu (%s)",
          rep ? (unsigned long long)oc_report_steps(rep) : 0ull, why);
    oc_report_free(rep);
    /* Table I's setting at k = 5, m = 4 (N = m^k): Theorem 1 is exact, 9*1024^1.2/512 = 72. */
    rep = run("optree", 1024, 64, "radices=4x4x4x4x4", NULL, &err, why, sizeof why);
    double f = 0;
    CHECK(err == 0 && oc_report_steps(rep) == 72 && oc_report_steps_formula(rep, &f) && f == 72,
          "1024 nodes 4^5: %llu steps, formula %g (%s)",
          rep ? (unsigned long long)oc_report_steps(rep) : 0ull, f, why);
    double kstar = 0;
    CHECK(rep && oc_report_number(rep, "kstar_theorem2", &kstar) && kstar == 7, "k* = %g", kstar);
    oc_report_free(rep);
    /* Uneven groups: radices whose product exceeds N, for N prime. */
    const char *cases[][2] = {{"7", "3x3"},     {"7", "2x2x2"}, {"13", "4x4"}, {"100", "5x5x5"},
                              {"101", "11x10"}, {"5", "2x3"},   {"5", "3x2"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char p[64];
        snprintf(p, sizeof p, "radices=%s", cases[i][1]);
        uint32_t N = (uint32_t)atoi(cases[i][0]);
        rep = run("optree", N, 2, p, NULL, &err, why, sizeof why);
        CHECK(err == 0 && oc_report_verified(rep), "optree N=%u %s: %s", N, cases[i][1], why);
        oc_report_free(rep);
    }
    /* Random radices for N = 2..60: every one must verify. */
    unsigned seed = 12345;
    for (uint32_t N = 2; N <= 60; N++) {
        for (int t = 0; t < 3; t++) {
            char p[128] = "radices=";
            uint64_t prod = 1;
            while (prod < N) {
                seed = seed * 1103515245u + 12345u;
                uint32_t m = 2 + (seed >> 16) % 5;
                char b[16];
                snprintf(b, sizeof b, prod == 1 ? "%u" : "x%u", m);
                strcat(p, b);
                prod *= m;
            }
            if (prod > 2 * N) continue; /* plan accepts N..2N positions */
            rep = run("optree", N, 3, p, "fibres=2", &err, why, sizeof why);
            CHECK(err == 0 && oc_report_verified(rep), "optree N=%u %s: %s", N, p, why);
            oc_report_free(rep);
        }
    }
    /* Bad radices are refused with a reason. */
    rep = run("optree", 16, 2, "radices=1x16", NULL, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "radices"), "radix 1: %s", why);
    rep = run("optree", 16, 2, "radices=2x2", NULL, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "between"), "too few: %s", why);
    rep = run("optree", 16, 2, "k=0", NULL, &err, why, sizeof why);
    CHECK(err != 0, "k=0 accepted");
    rep = run("optree", 16, 2, "colour=red", NULL, &err, why, sizeof why);
    CHECK(err == OC_ENOENT && strstr(why, "colour"), "unknown param: %s", why);
}

static void test_network_params(void) {
    char why[512];
    int err;
    oc_report *rep = run("ring", 8, 64, NULL, "preset=terarack", &err, why, sizeof why);
    const char *f = rep ? oc_kv_get(rep->net_params, "fibres") : NULL;
    CHECK(err == 0 && f && !strcmp(f, "2"), "terarack fibres: %s", f ? f : why);
    oc_report_free(rep);
    rep = run("ring", 8, 64, NULL, "preset=nope", &err, why, sizeof why);
    CHECK(err == OC_ENOENT && strstr(why, "terarack"), "%s", why);
    rep = run("ring", 8, 64, NULL, "reconfig_us=-1", &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "reconfig_us"), "%s", why);
    rep = run("ring", 8, 64, NULL, "bogus=1", &err, why, sizeof why);
    CHECK(err == OC_ENOENT && strstr(why, "bogus"), "%s", why);
    /* One step of 4 MiB: 25 us + 131072 flits x 1 ns + 32768 packets x 128 B x 8 / 40 Gb/s. */
    rep = run("ring", 2, 64, NULL, NULL, &err, why, sizeof why);
    double expect = 25e-6 + 131072e-9 + 32768.0 * 128 * 8 / 40e9;
    CHECK(err == 0 && fabs(oc_report_time(rep) - expect) < 1e-12, "step time %.9g vs %.9g",
          rep ? oc_report_time(rep) : 0.0, expect);
    oc_report_free(rep);
}

static uint32_t ceil_log(uint64_t N, uint64_t m) {
    uint32_t L = 0;
    for (uint64_t x = 1; x < N; x *= m)
        L++;
    return L;
}

static void test_allreduce_matrix(void) {
    const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 16, 100};
    const uint64_t ws[] = {1, 2, 64};
    const char *algos[32];
    const size_t na = algos_of(OC_ALLREDUCE, algos, 32);
    CHECK(na >= 5, "all-reduce algorithms: %zu", na);
    char why[512];
    for (size_t a = 0; a < na; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (size_t j = 0; j < 3; j++) {
                uint32_t N = sizes[i];
                int err;
                oc_report *rep = run_coll(OC_ALLREDUCE, algos[a], N, ws[j], NULL, NULL, NULL, &err,
                                          why, sizeof why);
                CHECK(err == 0 && oc_report_verified(rep) && oc_report_data_checked(rep),
                      "allreduce %s N=%u w=%llu: %s", algos[a], N, (unsigned long long)ws[j], why);
                if (err) continue;
                double f = -1;
                CHECK(oc_report_steps_formula(rep, &f) && f >= 0, "allreduce %s: no formula",
                      algos[a]);
                uint64_t steps = oc_report_steps(rep), lb = 0;
                CHECK(oc_report_steps_lower_bound(rep, &lb) && steps >= lb, "bound");
                if (!strcmp(algos[a], "ring"))
                    CHECK(steps == 2ull * (N - 1), "ring allreduce N=%u: %llu", N,
                          (unsigned long long)steps);
                if (!strcmp(algos[a], "bt"))
                    CHECK(steps == 2ull * ceil_log(N, 2), "bt N=%u: %llu", N,
                          (unsigned long long)steps);
                if (!strcmp(algos[a], "rd")) {
                    uint32_t P = 1;
                    while (2 * P <= N)
                        P *= 2;
                    CHECK(oc_report_rounds(rep) == ceil_log(P, 2) + (P == N ? 0 : 2),
                          "rd N=%u: %llu rounds", N, (unsigned long long)oc_report_rounds(rep));
                }
                oc_report_free(rep);
            }
    /* reduce-scatter ring: N-1 rounds, one step each, a block of SIZE/N per transfer */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int err;
        oc_report *rep = run_coll(OC_REDUCESCATTER, "ring", sizes[i], 2, NULL, NULL, NULL, &err,
                                  why, sizeof why);
        CHECK(err == 0 && oc_report_steps(rep) == sizes[i] - 1 && oc_report_data_checked(rep),
              "reducescatter ring N=%u: %s", sizes[i], why);
        oc_report_free(rep);
    }
    /* hring with g pinned: the seed's three phases, 2(g-1) + 2(N/g-1) rounds */
    int err;
    oc_report *rep =
        run_coll(OC_ALLREDUCE, "hring", 12, 64, "g=3", NULL, NULL, &err, why, sizeof why);
    CHECK(err == 0 && oc_report_rounds(rep) == 2 * 2 + 2 * 3, "hring g=3: %s", why);
    oc_report_free(rep);
    rep = run_coll(OC_ALLREDUCE, "hring", 12, 64, "g=5", NULL, NULL, &err, why, sizeof why);
    CHECK(err == OC_ENOTSUP && strstr(why, "divide"), "hring g=5 on 12: %s", why);
    /* The seed's motivation examples (wrht III.B, Fig. 2): 15 nodes, 2 wavelengths. */
    rep = run_coll(OC_ALLREDUCE, "bt", 15, 2, NULL, NULL, NULL, &err, why, sizeof why);
    CHECK(err == 0 && oc_report_steps(rep) == 8, "BT on 15 nodes: 8 steps");
    oc_report_free(rep);
    rep = run_coll(OC_ALLREDUCE, "wrht", 15, 2, "m=5", "alltoall=3 pieces=1", NULL, &err, why,
                   sizeof why);
    CHECK(err == 0 && oc_report_steps(rep) == 3, "WRHT on 15 nodes: 3 steps (%s)", why);
    oc_report_free(rep);
}

/* WRHT for every N from 1 to 200: verified; with the seed's own choices (m = min(2w+1, N), the
 * all-to-all among m* representatives when ceil(m*^2/8) <= w, one piece) the mapped steps equal the
 * seed's rule 2 ceil(log_m N) (- 1 with the all-to-all) whenever every round fits one step. */
static void test_wrht_rule(void) {
    const uint64_t ws[] = {1, 2, 4, 64};
    char why[512];
    int held = 0;
    for (uint32_t N = 1; N <= 200; N++)
        for (size_t j = 0; j < 4; j++) {
            uint64_t w = ws[j], m = 2 * w + 1 < N ? 2 * w + 1 : (N < 2 ? 2 : N);
            uint32_t L = ceil_log(N, m);
            uint64_t below = 1;
            for (uint32_t k = 1; k < L; k++)
                below *= m;
            uint64_t mstar = L ? (N + below - 1) / below : 1;
            int a2a = mstar > 1 && (mstar * mstar + 7) / 8 <= w;
            char pm[32], pa[48];
            snprintf(pm, sizeof pm, "m=%llu", (unsigned long long)m);
            snprintf(pa, sizeof pa, "alltoall=%llu pieces=1",
                     (unsigned long long)(a2a ? mstar : 1));
            int err;
            oc_report *rep =
                run_coll(OC_ALLREDUCE, "wrht", N, w, pm, pa, NULL, &err, why, sizeof why);
            CHECK(err == 0 && oc_report_verified(rep), "wrht N=%u w=%llu: %s", N,
                  (unsigned long long)w, why);
            if (err) continue;
            double f = -1;
            oc_report_steps_formula(rep, &f);
            CHECK(f == (N < 2 ? 0 : 2.0 * L - a2a), "wrht formula N=%u w=%llu: %g", N,
                  (unsigned long long)w, f);
            if (oc_report_steps(rep) == oc_report_rounds(rep)) {
                held++;
                CHECK((double)oc_report_steps(rep) == f, "wrht N=%u w=%llu: %llu steps, rule %g", N,
                      (unsigned long long)w, (unsigned long long)oc_report_steps(rep), f);
            }
            double seed_time = oc_report_time(rep);
            oc_report_free(rep);
            if (N % 7 == 0 && j == 3) { /* and the searched choice: never slower than the rule */
                rep = run_coll(OC_ALLREDUCE, "wrht", N, w, NULL, NULL, NULL, &err, why, sizeof why);
                CHECK(err == 0 && oc_report_time(rep) <= seed_time * (1 + 1e-12),
                      "wrht search N=%u: %s", N, why);
                oc_report_free(rep);
            }
        }
    CHECK(held > 600, "the seed's assumptions held in only %d of 800 cases", held);
}

/* A zeroed request means the defaults (include/opticoll_core.h): the real-data check runs unless
 * skip_data_check asks otherwise. A field whose zero turned the check off (the old data_check)
 * would fail the first assertion; one that ignored the skip would fail the second. */
static void test_zero_request_defaults(void) {
    const uint32_t sizes[] = {1, 5, 12, 16};
    const oc_collective colls[] = {OC_ALLGATHER, OC_ALLREDUCE};
    const char *algos[] = {"ring", "ring"};
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int skip = 0; skip < 2; skip++) {
                oc_request req;
                memset(&req, 0, sizeof req);
                req.collective = colls[c];
                req.algorithm = algos[c];
                req.network = "ring";
                req.nodes = sizes[i];
                req.bytes = 4096;
                req.skip_data_check = skip;
                oc_report *rep = NULL;
                char why[256] = "";
                int rc = oc_run(&req, &rep, why, sizeof why);
                CHECK(rc == 0 && oc_report_verified(rep), "%s N=%u: %s",
                      oc_collective_name(colls[c]), sizes[i], why);
                if (!rc)
                    CHECK(oc_report_data_checked(rep) == !skip,
                          "%s N=%u skip_data_check=%d: data_checked %d",
                          oc_collective_name(colls[c]), sizes[i], skip,
                          oc_report_data_checked(rep));
                oc_report_free(rep);
            }
}

/* The parts, by name: `test_unit` runs them all; `test_unit PART...` only those; `test_unit
 * --without PART...` all but those (CTest runs `unit` without the all-gather matrix, and the
 * matrix as unit_allgather_matrix_K, tests/tests.cmake: under the sanitizers the whole took 94 s
 * of CPU, past a fifth of its limit, issue 27). */
static const struct {
    const char *name;
    void (*run)(void);
} PARTS[] = {
    {"sizes", test_sizes},
    {"size_text", test_size_text},
    {"verifier_accepts", test_verifier_accepts},
    {"verifier_rejects", test_verifier_rejects},
    {"other_collectives", test_other_collectives},
    {"ring_model", test_ring_model},
    {"ring_check", test_ring_check},
    {"allgather_matrix", test_allgather_matrix},
    {"optree", test_optree},
    {"network_params", test_network_params},
    {"allreduce_matrix", test_allreduce_matrix},
    {"wrht_rule", test_wrht_rule},
    {"zero_request_defaults", test_zero_request_defaults},
};

int main(int argc, char **argv) {
    const size_t n = sizeof PARTS / sizeof PARTS[0];
    const int without = argc > 1 && strcmp(argv[1], "--without") == 0;
    const int first = without ? 2 : 1;
    for (int a = first; a < argc; a++) { /* every name is checked before anything runs */
        unsigned k, m;
        char end;
        if (sscanf(argv[a], "allgather_matrix-%u/%u%c", &k, &m, &end) == 2 && m > 0 && k < m) {
            matrix_part = k;
            matrix_parts = m;
            argv[a] = (char *)"allgather_matrix";
        }
        size_t i = 0;
        while (i < n && strcmp(argv[a], PARTS[i].name) != 0)
            i++;
        if (i == n) {
            fprintf(stderr, "test_unit: unknown part %s (allgather_matrix-K/M: every M-th pair)\n",
                    argv[a]);
            return 2;
        }
    }
    for (size_t i = 0; i < n; i++) {
        int named = 0;
        for (int a = first; a < argc && !named; a++)
            named = strcmp(argv[a], PARTS[i].name) == 0;
        if (argc == 1 || named != without) PARTS[i].run();
    }
    return CHECK_SUMMARY();
}
