/*
 * test_rhd_split.c — the searches of rd, rh, rhd and SiPCO on the fabric with mzi_split=1 (a round
 * above the MZI degree runs in passes) prune by bounds proven for split rounds (rhd_search.c's
 * essay, "Split rounds"; allreduce_sipco.c, split_bound), and still return the best point of
 * their space. SiPCO: every r with r^l = N, at N = 4, 8, 16, 27, 64, 81, 256.
 *
 * For each case every candidate of the space is run pinned: every ordered factorisation of N
 * (radices=, most significant first) and fold=1 with every radix 2 .. N + 1 of which N is not a
 * power. Then the search's log is read: every entry it bounded (mapped, or pruned unmapped) and
 * every family it pruned (each member found among the pinned runs by its digits) must have its
 * bound at most the pinned cost, in time and in steps, and the search's choice must be no slower
 * than any pinned run (the contract: the default is the optimum). N = 2, 3, 5, 7, 12, 24, 64 and
 * 30 (three primes); MZI degree 1 (every level above radix 2 split) and 3; 64 B and 1 MiB. The
 * unsplit closed form (each of d circuits at floor(W / d) lanes at once) fails here as a bound:
 * a pass gives its circuits more lanes.
 */
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

#define MAX_CANDIDATES 512

typedef struct pinned_run {
    char params[128]; /* "radices=AxB" or "radix=r fold=1" */
    char digits[96];  /* the radices text, for a family's "ending x..." */
    uint32_t fold_radix;
    int ran;
    double t;
    uint64_t steps;
} pinned_run;

typedef struct cands {
    pinned_run c[MAX_CANDIDATES];
    size_t n;
} cands;

static void add(cands *cs, const char *params, const char *digits, uint32_t fold_radix) {
    CHECK(cs->n < MAX_CANDIDATES, "more than %d candidates", MAX_CANDIDATES);
    if (cs->n >= MAX_CANDIDATES) return;
    pinned_run *p = &cs->c[cs->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->params, sizeof p->params, "%s", params);
    snprintf(p->digits, sizeof p->digits, "%s", digits);
    p->fold_radix = fold_radix;
}

/* Every ordered factorisation of M into factors >= 2, appended above the digits in `low` (the
 * text of the less significant ones, most significant first). */
static void factorisations(cands *cs, uint32_t M, const char *low) {
    if (M == 1) {
        char params[128];
        snprintf(params, sizeof params, "radices=%s", low);
        add(cs, params, low, 0);
        return;
    }
    for (uint32_t r = 2; r <= M; r++) {
        if (M % r) continue;
        char text[96];
        if (low[0])
            snprintf(text, sizeof text, "%ux%s", r, low);
        else
            snprintf(text, sizeof text, "%u", r);
        factorisations(cs, M / r, text);
    }
}

static void run_all(cands *cs, const char *coll_algo, oc_collective coll, uint32_t N,
                    uint64_t bytes, const char *net) {
    for (size_t i = 0; i < cs->n; i++) {
        pinned_run *p = &cs->c[i];
        char why[512] = "";
        int err;
        oc_report *rep = run_words("fabric", coll, coll_algo, N, bytes, p->params, net, 0, &err,
                                   why, sizeof why);
        if (!err && rep) {
            p->ran = 1;
            p->t = oc_report_time(rep);
            p->steps = oc_report_steps(rep);
        }
        oc_report_free(rep);
    }
}

static void check_bound(const pinned_run *p, double bound_t, uint64_t bound_steps, const char *what,
                        const char *name, uint32_t N, uint64_t bytes, const char *net) {
    if (!p->ran) return; /* refused pinned: nothing to compare */
    CHECK(bound_t <= p->t * (1 + 1e-9) && bound_steps <= p->steps,
          "%s N=%u %llu B %s: bound of %s (%.9g s, %llu steps) above %s's %.9g s, %llu steps", name,
          N, (unsigned long long)bytes, net, what, bound_t, (unsigned long long)bound_steps,
          p->params, p->t, (unsigned long long)p->steps);
}

static void one(const char *name, oc_collective coll, uint32_t N, uint64_t bytes, const char *net) {
    static cands cs;
    cs.n = 0;
    factorisations(&cs, N, "");
    for (uint32_t r = 2; r <= N + 1; r++) {
        uint64_t P = 1;
        while (P * r <= N)
            P *= r;
        if (P == N) continue;
        char params[128];
        snprintf(params, sizeof params, "radix=%u fold=1", r);
        add(&cs, params, "", r);
    }
    run_all(&cs, name, coll, N, bytes, net);

    char why[512] = "";
    int err;
    oc_report *rep = run_words("fabric", coll, name, N, bytes, NULL, net, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "%s N=%u %llu B %s: %s", name, N, (unsigned long long)bytes,
          net, why);
    if (err || !rep || !rep->search) goto out;
    const double best = oc_report_time(rep);
    for (size_t i = 0; i < cs.n; i++)
        if (cs.c[i].ran)
            CHECK(best <= cs.c[i].t * (1 + 1e-9),
                  "%s N=%u %llu B %s: the search's %.9g s above %s's %.9g s", name, N,
                  (unsigned long long)bytes, net, best, cs.c[i].params, cs.c[i].t);
    const oc__search_log *log = rep->search;
    size_t bounded = 0;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (!e->bound_name) continue;
        if (e->status == OC__CAND_MAPPED || e->status == OC__CAND_PRUNED) {
            bounded++;
            char why2[512] = "";
            int err2;
            oc_report *pin = run_words("fabric", coll, name, N, bytes, e->text, net, 0, &err2, why2,
                                       sizeof why2);
            if (!err2 && pin) {
                pinned_run p = {.ran = 1, .t = oc_report_time(pin), .steps = oc_report_steps(pin)};
                snprintf(p.params, sizeof p.params, "%s", e->text);
                check_bound(&p, e->bound_time_s, e->bound_steps, e->text, name, N, bytes, net);
            }
            oc_report_free(pin);
        } else if (e->status == OC__CAND_FAMILY && strcmp(e->bound_name, "refused") != 0) {
            char tail[96];
            unsigned lo = 0, hi = 0;
            size_t members = 0;
            if (sscanf(e->text, "radices ending x%95[0-9x]", tail) == 1) {
                char suffix[100];
                snprintf(suffix, sizeof suffix, "x%s", tail);
                const size_t ls = strlen(suffix);
                for (size_t j = 0; j < cs.n; j++) {
                    const size_t ld = strlen(cs.c[j].digits);
                    if (cs.c[j].fold_radix || ld <= ls ||
                        strcmp(cs.c[j].digits + ld - ls, suffix) != 0)
                        continue;
                    members++;
                    check_bound(&cs.c[j], e->bound_time_s, e->bound_steps, e->text, name, N, bytes,
                                net);
                }
            } else if (sscanf(e->text, "fold=1 with radix %u to %u", &lo, &hi) == 2) {
                for (size_t j = 0; j < cs.n; j++)
                    if (cs.c[j].fold_radix >= lo && cs.c[j].fold_radix <= hi) {
                        members++;
                        check_bound(&cs.c[j], e->bound_time_s, e->bound_steps, e->text, name, N,
                                    bytes, net);
                    }
            }
            CHECK(members > 0, "%s N=%u: family '%s' has no member among the pinned runs", name, N,
                  e->text);
        }
    }
    /* the bounds are used: with mzi_split=1 the search used to map every candidate unbounded */
    CHECK(bounded > 0, "%s N=%u %llu B %s: no bounded candidate", name, N,
          (unsigned long long)bytes, net);
out:
    oc_report_free(rep);
}

/* SiPCO on the split fabric (allreduce_sipco.c, split_bound): every r with r^l = N pinned; every
 * bound the search logged at most that r's cost, the search's choice no slower than any. */
static void sipco_case(uint32_t N, uint64_t bytes, const char *net) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words("fabric", OC_ALLREDUCE, "sipco", N, bytes, NULL, net, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "sipco N=%u %llu B %s: %s", N, (unsigned long long)bytes, net,
          why);
    if (err || !rep || !rep->search) goto out;
    const double best = oc_report_time(rep);
    const oc__search_log *log = rep->search;
    size_t bounded = 0;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        char why2[512] = "";
        int err2;
        oc_report *pin = run_words("fabric", OC_ALLREDUCE, "sipco", N, bytes, e->text, net, 0,
                                   &err2, why2, sizeof why2);
        if (!err2 && pin) {
            pinned_run p = {.ran = 1, .t = oc_report_time(pin), .steps = oc_report_steps(pin)};
            snprintf(p.params, sizeof p.params, "%s", e->text);
            CHECK(best <= p.t * (1 + 1e-9),
                  "sipco N=%u %llu B %s: the search's %.9g s above %s's %.9g s", N,
                  (unsigned long long)bytes, net, best, e->text, p.t);
            if (e->bound_name) {
                bounded++;
                check_bound(&p, e->bound_time_s, e->bound_steps, e->text, "sipco", N, bytes, net);
            }
        }
        oc_report_free(pin);
    }
    CHECK(bounded > 0, "sipco N=%u %llu B %s: no bounded candidate", N, (unsigned long long)bytes,
          net);
out:
    oc_report_free(rep);
}

int main(void) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 24, 30, 64};
    const uint64_t sizes[] = {64, 1 << 20};
    const char *nets[] = {"mzi_split=1 mzi_degree=1", "mzi_split=1 mzi_degree=3"};
    const struct {
        const char *name;
        oc_collective coll;
    } algos[] = {{"rd", OC_ALLGATHER}, {"rh", OC_REDUCESCATTER}, {"rhd", OC_ALLREDUCE}};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++)
        for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
            for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
                for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
                    one(algos[a].name, algos[a].coll, Ns[i], sizes[j], nets[k]);
    /* SiPCO cuts the vector into l N chunks: 4 KiB and 1 MiB */
    const uint32_t powers[] = {4, 8, 16, 27, 64, 81, 256};
    const uint64_t sipco_sizes[] = {4096, 1 << 20};
    for (size_t i = 0; i < sizeof powers / sizeof *powers; i++)
        for (size_t j = 0; j < sizeof sipco_sizes / sizeof *sipco_sizes; j++)
            for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
                sipco_case(powers[i], sipco_sizes[j], nets[k]);
    return CHECK_SUMMARY();
}
