/*
 * test_tune_api.c — the tuner as a library user sees it: through opticoll.h alone (this test is
 * built without the library's private headers), a grid of points is swept and tuned, the decision
 * file is written and read back, and every answer is checked against the pipeline itself.
 *
 * For every grid (odd, prime and non-power node counts, sizes from 0 bytes up, on the ring, the
 * switch, the fat-tree, the fabric and the star), each point is run again by hand with oc_run and
 * the sweep must agree with it: the same status, the same time and steps, and a winner that is the
 * fastest verified candidate (ties to the first candidate), with the fastest of the rest as the
 * runner-up. The sweep must give the same bytes on 1 and on 3 threads, and a point must survive a
 * trip through its packed bytes. The decision file, read with oc_tune_pick, must choose at every
 * tuned point that point's winner, and elsewhere the winner of the nearest point by the rule the
 * header states (computed here independently). Bad specs, bad ranges, a failing point and bad
 * decision files must be refused with the documented errors.
 */
#include "check.h"
#include "opticoll.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct grid {
    oc_collective coll;
    const char *network;
    const char *net; /* "k=v" network parameter or NULL */
    uint32_t root;
    uint64_t nodes[8];
    size_t nnodes;
    uint64_t sizes[4];
    size_t nsizes;
} grid;

static const grid grids[] = {
    {OC_ALLGATHER,
     "ring",
     "wavelengths=4",
     0,
     {1, 2, 3, 5, 7, 12, 31, 100},
     8,
     {0, 1000, 7168, 1 << 20},
     4},
    {OC_ALLGATHER, "switch", NULL, 0, {3, 5, 13, 100}, 4, {1024, 3 << 20}, 2},
    {OC_ALLREDUCE, "switch", NULL, 0, {1, 2, 3, 5, 7, 12, 17, 48}, 8, {4096, 1 << 20}, 2},
    {OC_ALLREDUCE, "ring", NULL, 0, {3, 6, 11, 25}, 4, {3, 65536}, 2},
    {OC_ALLREDUCE, "fattree", NULL, 0, {3, 6, 11}, 3, {65536}, 1},
    {OC_ALLREDUCE, "fabric", NULL, 0, {2, 5, 24, 37}, 4, {1 << 16, 1 << 24}, 2},
    {OC_BROADCAST, "star", NULL, 2, {2, 3, 5, 7, 13}, 5, {1024, 5000}, 2},
    {OC_ALLTOALL, "torus", NULL, 0, {4, 9, 12}, 3, {1024}, 1},
};

/* Runs candidate `algo` of the grid's point by hand; *t the time when it ran (returns 0). */
static int by_hand(const oc_request *base, const char *algo, uint64_t n, uint64_t s, double *t,
                   uint64_t *steps) {
    oc_request q = *base;
    q.algorithm = algo;
    q.nodes = (uint32_t)n;
    q.bytes = s;
    oc_report *r = NULL;
    char why[512];
    if (q.root >= q.nodes) return OC_ENOTSUP; /* the header's rule: not run there */
    int rc = oc_run(&q, &r, why, sizeof why);
    if (!rc) {
        CHECK(oc_report_verified(r), "%s N=%llu: a run that returned 0 is verified", algo,
              (unsigned long long)n);
        *t = oc_report_time(r);
        *steps = oc_report_steps(r);
    }
    oc_report_free(r);
    return rc;
}

/* The same sweep made again (for the thread and pack comparisons). */
static oc_sweep *make(const oc_sweep_spec *spec) {
    oc_sweep *s = NULL;
    char why[512] = "";
    int rc = oc_sweep_new(spec, &s, why, sizeof why);
    CHECK(rc == 0, "oc_sweep_new: %s", why);
    return s;
}

static int same_point(const oc_sweep_point *a, const oc_sweep_point *b) {
    return a->status == b->status && a->err == b->err && a->algorithm == b->algorithm &&
           a->nodes == b->nodes && a->bytes == b->bytes && a->steps == b->steps &&
           a->rounds == b->rounds && a->time_s == b->time_s && !strcmp(a->time, b->time) &&
           !strcmp(a->params, b->params) && !strcmp(a->why, b->why) && !a->csv == !b->csv &&
           (!a->csv || !strcmp(a->csv, b->csv)) && !a->json == !b->json &&
           (!a->json || !strcmp(a->json, b->json));
}

/* The decision file of s, written to a temporary file; its path in buf. */
static void write_decisions(const oc_sweep *s, char *buf, size_t len) {
    char *text = NULL;
    CHECK(oc_tune_decisions(s, &text) == 0 && text, "oc_tune_decisions");
    snprintf(buf, len, "/tmp/oc_test_tune_XXXXXX");
    int fd = mkstemp(buf);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0 || !text) {
        free(text);
        return;
    }
    size_t n = strlen(text);
    CHECK(write(fd, text, n) == (ssize_t)n, "write the decision file");
    close(fd);
    free(text);
}

/* The nearest tuned point with a winner, by the header's rule (ties: smaller N, then size). */
static int nearest(const oc_sweep *s, uint64_t n, uint64_t b, size_t *bn, size_t *bs) {
    double best = INFINITY;
    int found = 0;
    for (size_t ni = 0; ni < oc_sweep_node_count(s); ni++)
        for (size_t si = 0; si < oc_sweep_size_count(s); si++) {
            if (oc_tune_winner(s, ni, si, NULL) < 0) continue;
            double d = fabs(log2((double)n / (double)oc_sweep_nodes(s, ni))) +
                       fabs(log2(((double)b + 1) / ((double)oc_sweep_size(s, si) + 1)));
            if (d < best - 1e-12) { /* the lists are increasing: the first at a tie is smaller */
                best = d;
                *bn = ni;
                *bs = si;
                found = 1;
            }
        }
    return found;
}

static void test_grid(const grid *g) {
    oc_kv *net = oc_kv_new();
    if (g->net) oc_kv_set_pair(net, g->net);
    oc_sweep_spec spec = {
        .base = {.collective = g->coll, .network = g->network, .net_params = net, .root = g->root},
        .nodes = g->nodes,
        .nnodes = g->nnodes,
        .sizes = g->sizes,
        .nsizes = g->nsizes};
    oc_sweep *s = make(&spec), *s3 = make(&spec), *copy = make(&spec);
    if (!s || !s3 || !copy) goto out;
    const char *cname = oc_collective_name(g->coll);
    size_t na = oc_sweep_algorithm_count(s), n = oc_sweep_count(s);
    CHECK(n == na * g->nnodes * g->nsizes, "%s on %s: points", cname, g->network);
    /* the default candidates: every algorithm of the collective that runs on the network */
    size_t expect = 0;
    for (size_t i = 0; i < oc_algorithm_count(); i++)
        expect += oc_algorithm_at(i)->collective == g->coll &&
                  oc_algorithm_runs_on(oc_algorithm_at(i), g->network);
    CHECK(na == expect && na > 0, "%s on %s: %zu candidates, expected %zu", cname, g->network, na,
          expect);
    char why[512] = "";
    CHECK(oc_sweep_run(s, 0, n, 1, why, sizeof why) == 0, "run on 1 thread: %s", why);
    /* two halves on 3 threads: the result must not depend on threads or on the split */
    CHECK(oc_sweep_run(s3, n / 2, n, 3, why, sizeof why) == 0, "second half: %s", why);
    CHECK(oc_sweep_run(s3, 0, n / 2, 3, why, sizeof why) == 0, "first half: %s", why);
    CHECK(oc_sweep_first_failure(s, NULL) == 0, "%s on %s: no point failed", cname, g->network);
    for (size_t i = 0; i < n; i++) {
        const oc_sweep_point *p = oc_sweep_point_at(s, i);
        CHECK(same_point(p, oc_sweep_point_at(s3, i)), "point %zu: same on 1 and 3 threads", i);
        char *blob = NULL;
        size_t len = 0;
        CHECK(oc_sweep_point_pack(s, i, &blob, &len) == 0, "pack %zu", i);
        CHECK(oc_sweep_point_unpack(copy, i, blob, len) == 0, "unpack %zu", i);
        CHECK(same_point(p, oc_sweep_point_at(copy, i)), "point %zu survives pack and unpack", i);
        CHECK(oc_sweep_point_unpack(copy, (i + 1) % n, blob, len) == (n > 1 ? OC_EINVAL : 0),
              "point %zu's bytes are refused as another point", i);
        /* its texts end with the blob: one byte short, or one more text, is not a point */
        CHECK(len > 1 && oc_sweep_point_unpack(copy, i, blob, len - 1) == OC_EINVAL,
              "point %zu's bytes cut short are refused", i);
        char *longer = malloc(len + 2);
        if (longer) {
            memcpy(longer, blob, len);
            memcpy(longer + len, "x", 2);
            CHECK(oc_sweep_point_unpack(copy, i, longer, len + 2) == OC_EINVAL,
                  "point %zu's bytes with a sixth text are refused", i);
            free(longer);
        }
        free(blob);
    }
    /* every (N, size) against oc_run by hand */
    for (size_t ni = 0; ni < g->nnodes; ni++)
        for (size_t si = 0; si < g->nsizes; si++) {
            int best = -1, second = -1;
            double bt = 0, st = 0;
            for (size_t k = 0; k < na; k++) {
                const char *algo = oc_sweep_algorithm(s, k);
                const oc_sweep_point *p = oc_sweep_point_of(s, ni, si, k);
                CHECK(p == oc_sweep_point_at(s, (ni * g->nsizes + si) * na + k),
                      "point i = (ni nsizes + si) nalgorithms + k");
                double t = 0;
                uint64_t steps = 0;
                int rc = by_hand(&spec.base, algo, g->nodes[ni], g->sizes[si], &t, &steps);
                CHECK(p->algorithm == k && p->nodes == g->nodes[ni] && p->bytes == g->sizes[si],
                      "point order");
                if (rc == 0) {
                    CHECK(p->status == OC_POINT_RAN && p->time_s == t && p->steps == steps,
                          "%s N=%llu S=%llu: the sweep's run (%d, %g s) is oc_run's (%g s)", algo,
                          (unsigned long long)g->nodes[ni], (unsigned long long)g->sizes[si],
                          p->status, p->time_s, t);
                    CHECK(p->csv && p->json && strstr(p->json, algo), "%s: rendered", algo);
                    if (best < 0 || t < bt) {
                        second = best;
                        st = bt;
                        best = (int)k;
                        bt = t;
                    } else if (second < 0 || t < st) {
                        second = (int)k;
                        st = t;
                    }
                } else {
                    CHECK(rc == OC_ENOTSUP || rc == OC_ETOOBIG, "%s: oc_run %d", algo, rc);
                    CHECK(p->status == OC_POINT_NOT_RUN && p->why[0] && p->csv &&
                              strstr(p->csv, "not run: "),
                          "%s N=%llu: not run, with a reason", algo,
                          (unsigned long long)g->nodes[ni]);
                }
            }
            int w2, w = oc_tune_winner(s, ni, si, &w2);
            CHECK(w == best && w2 == second,
                  "%s on %s N=%llu S=%llu: winner %d runner-up %d, by hand %d %d", cname,
                  g->network, (unsigned long long)g->nodes[ni], (unsigned long long)g->sizes[si], w,
                  w2, best, second);
        }
    /* the decision file: at each tuned point its winner; elsewhere the nearest point's */
    char path[64];
    write_decisions(s, path, sizeof path);
    oc_tune_choice c;
    for (size_t ni = 0; ni < g->nnodes; ni++)
        for (size_t si = 0; si < g->nsizes; si++) {
            oc_request q = spec.base;
            q.nodes = (uint32_t)g->nodes[ni];
            q.bytes = g->sizes[si];
            int w = oc_tune_winner(s, ni, si, NULL);
            int rc = oc_tune_pick(path, &q, &c, why, sizeof why);
            if (w >= 0)
                CHECK(rc == 0 && !strcmp(c.algorithm, oc_sweep_algorithm(s, (size_t)w)) &&
                          c.nodes == q.nodes && c.bytes == q.bytes && c.distance == 0,
                      "pick at a tuned point (N=%u, %llu B): %d %s", q.nodes,
                      (unsigned long long)q.bytes, rc, rc ? why : c.algorithm);
        }
    const uint64_t probes[][2] = {{4, 3000}, {9, 1}, {64, 1 << 22}, {1, 0}, {17, 100000}};
    for (size_t k = 0; k < sizeof probes / sizeof probes[0]; k++) {
        oc_request q = spec.base;
        q.nodes = (uint32_t)probes[k][0];
        q.bytes = probes[k][1];
        size_t bn = 0, bs = 0;
        int any = nearest(s, q.nodes, q.bytes, &bn, &bs);
        int rc = oc_tune_pick(path, &q, &c, why, sizeof why);
        if (!any) {
            CHECK(rc == OC_EPARSE, "no winner anywhere: refused");
            continue;
        }
        int w = oc_tune_winner(s, bn, bs, NULL);
        CHECK(rc == 0 && c.nodes == oc_sweep_nodes(s, bn) && c.bytes == oc_sweep_size(s, bs) &&
                  !strcmp(c.algorithm, oc_sweep_algorithm(s, (size_t)w)),
              "%s on %s: pick for N=%u %llu B is the nearest point's (%llu, %llu): %s", cname,
              g->network, q.nodes, (unsigned long long)q.bytes,
              (unsigned long long)oc_sweep_nodes(s, bn), (unsigned long long)oc_sweep_size(s, bs),
              rc ? why : c.algorithm);
    }
    /* the file belongs to its collective, network and network parameters */
    oc_request other = spec.base;
    other.nodes = 4;
    other.bytes = 1024;
    other.collective = g->coll == OC_ALLGATHER ? OC_ALLREDUCE : OC_ALLGATHER;
    CHECK(oc_tune_pick(path, &other, &c, why, sizeof why) == OC_EPARSE && strstr(why, path) &&
              strstr(why, "was tuned for") && !c.algorithm,
          "another collective is refused: %s", why);
    other.collective = g->coll;
    oc_kv *net2 = oc_kv_new();
    oc_kv_set(net2, "preset", "seed");
    other.net_params = net2;
    CHECK(oc_tune_pick(path, &other, &c, why, sizeof why) == OC_EPARSE &&
              strstr(why, "tuned with network parameters"),
          "other network parameters are refused: %s", why);
    oc_kv_free(net2);
    unlink(path);
out:
    oc_sweep_free(s);
    oc_sweep_free(s3);
    oc_sweep_free(copy);
    oc_kv_free(net);
}

/* Specs, ranges and files the library must refuse, and a failing point. */
static void test_refusals(void) {
    char why[512];
    oc_sweep *s = NULL;
    uint64_t nodes[] = {5, 3}, sizes[] = {1024};
    const char *algos[] = {"ring", "nosuch"};
    oc_sweep_spec spec = {
        .base = {.collective = OC_ALLGATHER, .network = "ring", .skip_data_check = 1},
        .nodes = nodes,
        .nnodes = 2,
        .sizes = sizes,
        .nsizes = 1};
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == OC_EINVAL && !s, "decreasing N: %s", why);
    nodes[0] = 3;
    nodes[1] = 5;
    spec.algorithms = algos;
    spec.nalgorithms = 2;
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == OC_ENOENT && strstr(why, "nosuch"),
          "unknown algorithm: %s", why);
    algos[1] = "onestage";
    spec.base.network = "switch";
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == OC_EINVAL, "onestage is not on the switch");
    spec.base.network = "nonet";
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == OC_ENOENT, "unknown network");
    spec.algorithms = NULL;
    spec.base.network = "star";
    spec.base.collective = OC_ALLREDUCE;
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == OC_ENOTSUP && strstr(why, "no allreduce"),
          "no allreduce runs on the star: %s", why);
    /* a point that fails (a bad pin is neither a restriction nor too big): the first in order */
    oc_kv *bad = oc_kv_new();
    oc_kv_set(bad, "radix", "1");
    const char *rhd[] = {"rhd"};
    spec = (oc_sweep_spec){.base = {.collective = OC_ALLREDUCE,
                                    .network = "switch",
                                    .params = bad,
                                    .skip_data_check = 1},
                           .algorithms = rhd,
                           .nalgorithms = 1,
                           .nodes = nodes,
                           .nnodes = 2,
                           .sizes = sizes,
                           .nsizes = 1};
    CHECK(oc_sweep_new(&spec, &s, why, sizeof why) == 0, "rhd radix=1: %s", why);
    if (s) {
        size_t at = 99;
        CHECK(oc_sweep_run(s, 1, 3, 1, why, sizeof why) == OC_EINVAL, "a range past the end");
        CHECK(oc_sweep_point_at(s, 0)->status == OC_POINT_PENDING, "pending before it runs");
        CHECK(oc_sweep_run(s, 0, 2, 2, why, sizeof why) == 0, "a failing point is no run error");
        int err = oc_sweep_first_failure(s, &at);
        CHECK(err < 0 && at == 0 && oc_sweep_point_at(s, 0)->status == OC_POINT_FAILED &&
                  oc_sweep_point_at(s, 0)->why[0],
              "the first failure: %d at %zu", err, at);
        CHECK(oc_tune_winner(s, 0, 0, NULL) == -1, "no winner where nothing ran");
    }
    oc_sweep_free(s);
    oc_kv_free(bad);
    /* decision texts */
    oc_request q = {.collective = OC_ALLGATHER,
                    .network = "ring",
                    .nodes = 4,
                    .bytes = 1024,
                    .skip_data_check = 1};
    oc_tune_choice c;
    CHECK(oc_tune_pick_text("", 0, "d.json", &q, &c, why, sizeof why) == OC_EIO &&
              !strcmp(why, "d.json: cannot read it (or it is empty)"),
          "empty: %s", why);
    CHECK(oc_tune_pick_text("{\"format\": 1}", 13, "d.json", &q, &c, why, sizeof why) ==
                  OC_EPARSE &&
              strstr(why, "not an opticoll decision file"),
          "not a decision file: %s", why);
    const char *two = "{\"a\": 1,\n\"a\": 2}";
    CHECK(oc_tune_pick_text(two, strlen(two), "d.json", &q, &c, why, sizeof why) == OC_EPARSE &&
              !strcmp(why, "d.json:2: \"a\" given twice in one object"),
          "duplicate key with its line: %s", why);
    CHECK(oc_tune_pick("/nonexistent/d.json", &q, &c, why, sizeof why) == OC_EIO, "no file");
}

int main(void) {
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++)
        test_grid(&grids[i]);
    test_refusals();
    return CHECK_SUMMARY();
}
