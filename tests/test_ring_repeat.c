/*
 * test_ring_repeat.c — the ring model maps a round that repeats the last one (the same ends and
 * chunk counts, transfer for transfer) with the last round's routing and colouring, and only such
 * a round; and one that repeats the round before the last with that round's.
 *
 * A checked run is fed a sequence of rounds: an all-to-all among spread nodes (arcs through every
 * cut, so the colouring is not the trivial one), the same again, the same ends with one count
 * changed, the same transfers in reverse order (the tie at N/2 and the colouring's order may
 * differ), a ring shift, and the first round again; then rounds alternating two shapes, and
 * near misses of such an alternation (a count changed). Each round's steps in the sequence must
 * equal its steps mapped alone on a fresh run, and every round must pass the model's independent
 * check: a reuse that ignored a count or the order would hand the check fragments that do not cover
 * the round (an error) or cost it wrongly. The report's interval and circular colouring counts must
 * be the sum of the rounds' alone. N = 5, 7, 12, 100, 257 with w = 1, 3, 64.
 */
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { KINDS = 6 };

/* Round k of the sequence on N nodes, into r (emptied first). */
static int make_round(int k, uint32_t N, oc__round *r) {
    r->count = 0;
    const uint32_t stride = N > 4 ? 2 : 1;
    int rc = 0;
    if (k == 4) { /* a ring shift: node i to i + 1 */
        for (uint32_t i = 0; i < N && !rc; i++)
            rc = oc__round_push(r, i, (i + 1) % N, OC_OP_COPY, i, 1);
        return rc;
    }
    /* every even node to every other even node (every node when N is small), 1 or 2 chunks */
    for (uint32_t a = 0; a < N && !rc; a += stride)
        for (uint32_t b = 0; b < N && !rc; b += stride) {
            if (a == b) continue;
            uint32_t count = 1 + (a + b) % 2;
            if (k == 2 && a == 0 && b == stride) count += 5; /* one count changed */
            rc = oc__round_push(r, a, b, OC_OP_COPY, a % N, count);
        }
    if (!rc && k == 3) /* reversed */
        for (size_t i = 0, j = r->count - 1; i < j; i++, j--) {
            oc__transfer t = r->xfers[i];
            r->xfers[i] = r->xfers[j];
            r->xfers[j] = t;
        }
    return rc;
}

/* then rounds that repeat the one before the last (neighbour exchange's alternation), and near
 * misses of it: 4 between 1 and 2, which differ in one count */
static const int sequence[] = {0, 0, 1, 2, 2, 3, 0, 4, 4, 0, 0, 1,
                               4, 1, 4, 2, 4, 2, 3, 2, 3, 1, 2, 1};

static double report_num(const oc_report *rep, const char *key) {
    double v = -1;
    return oc_report_number(rep, key, &v) ? v : -1;
}

static void one(uint32_t N, const char *w) {
    const oc__model *model = oc__model_find("ring");
    char why[512] = "";
    oc_kv *net = oc_kv_new();
    oc__spec spec;
    oc__round r = {0};
    oc__netrun *seq = NULL;
    oc_report *rep = oc__report_new(), *alone_rep = oc__report_new();
    int rc = oc__spec_init(&spec, OC_ALLGATHER, N, 0, 4096, 8, why, sizeof why);
    CHECK(rc == 0 && model && net && rep && alone_rep, "setup N=%u: %s", N, why);
    if (rc || !model || !net || !rep || !alone_rep) goto out;
    oc_kv_set(net, "wavelengths", w);
    rc = oc__model_create(model, &spec, net, 1, &seq, why, sizeof why);
    CHECK(rc == 0, "N=%u w=%s: create: %s", N, w, why);
    if (rc) goto out;
    double interval = 0, circular = 0;
    for (size_t i = 0; i < sizeof sequence / sizeof *sequence; i++) {
        if (make_round(sequence[i], N, &r)) {
            CHECK(0, "out of memory");
            goto out;
        }
        /* alone, on a fresh checked run */
        oc__netrun *fresh = NULL;
        uint64_t alone = 0;
        rc = oc__model_create(model, &spec, net, 1, &fresh, why, sizeof why);
        oc__sink *fs = rc ? NULL : model->sink(fresh);
        if (!rc) rc = fs->round(fs, 0, &r, why, sizeof why);
        if (!rc) alone = model->steps(fresh);
        oc_report *one_rep = rc ? NULL : oc__report_new();
        if (!rc && one_rep && !(rc = model->finish(fresh, one_rep, why, sizeof why))) {
            interval += report_num(one_rep, "colourings_interval");
            circular += report_num(one_rep, "colourings_circular");
        }
        oc_report_free(one_rep);
        if (fresh) model->destroy(fresh);
        CHECK(rc == 0, "N=%u w=%s round %zu alone: %s", N, w, i, why);
        /* in the sequence */
        const uint64_t before = model->steps(seq);
        oc__sink *ss = model->sink(seq);
        rc = ss->round(ss, i, &r, why, sizeof why);
        CHECK(rc == 0, "N=%u w=%s round %zu (kind %d) in the sequence: %s", N, w, i, sequence[i],
              why);
        if (rc) goto out;
        CHECK(model->steps(seq) - before == alone,
              "N=%u w=%s round %zu (kind %d): %llu steps in the sequence, %llu alone", N, w, i,
              sequence[i], (unsigned long long)(model->steps(seq) - before),
              (unsigned long long)alone);
    }
    rc = model->finish(seq, rep, why, sizeof why);
    CHECK(rc == 0, "N=%u finish: %s", N, why);
    CHECK(report_num(rep, "colourings_interval") == interval &&
              report_num(rep, "colourings_circular") == circular,
          "N=%u w=%s: colourings %g interval, %g circular in the sequence; %g, %g alone", N, w,
          report_num(rep, "colourings_interval"), report_num(rep, "colourings_circular"), interval,
          circular);
out:
    if (seq) model->destroy(seq);
    oc_report_free(rep);
    oc_report_free(alone_rep);
    oc__round_free(&r);
    oc__spec_free(&spec);
    oc_kv_free(net);
}

int main(void) {
    const uint32_t Ns[] = {5, 7, 12, 100, 257};
    const char *ws[] = {"1", "3", "64"};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t j = 0; j < sizeof ws / sizeof *ws; j++)
            one(Ns[i], ws[j]);
    return CHECK_SUMMARY();
}
