/*
 * test_rhd_folds.c — the bounds rhd_search.c prunes folds and fat-tree rounds with: the folds'
 * floors (fold_floor: a folded candidate's proven steps at a step's least time), the family of
 * every radix from r up cut off by the least floor above it (fold_tail), and the fat-tree's
 * three routers for a round with a transfer between two leaves (round_cost, level_crosses).
 *
 * For each case every candidate of rhd's space is run pinned (every ordered factorisation of N
 * and fold=1 with every radix 2 .. N + 1 of which N is not a power), then the search's log is
 * read: every entry it bounded (mapped, or pruned unmapped) and every family it pruned (its
 * members found among the pinned runs) must have its bound at most the pinned cost, in time and
 * in steps, and the search's choice must be no slower than any pinned run (the contract: the
 * default is the optimum). Networks: the ring (64 and 2 wavelengths), the fat-tree (16 nodes a
 * leaf, and 4, so that small N cross leaves), the switch, the fabric; N = 2, 3, 5, 7, 12, 17, 30
 * (plus 64 and 97 under the `slow` label, and rh and rd there); 4 KiB and 256 MiB.
 *
 * Then the work the search does (counted, never timed): at N = 2053 (prime) on the ring and
 * N = 1021 on the fat-tree the folds of large radix are one family, not one entry each (the
 * search used to decide every radix up to N alone, each with the network made twice for its
 * chunk size: minutes at N = 131072), and on the fat-tree at N = 1021 no fold is mapped.
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

typedef struct net_case {
    const char *net, *params; /* model, "k=v k=v" */
} net_case;

static void add(cands *cs, const char *params, const char *digits, uint32_t fold_radix) {
    CHECK(cs->n < MAX_CANDIDATES, "more than %d candidates", MAX_CANDIDATES);
    if (cs->n >= MAX_CANDIDATES) return;
    pinned_run *p = &cs->c[cs->n++];
    memset(p, 0, sizeof *p);
    snprintf(p->params, sizeof p->params, "%s", params);
    snprintf(p->digits, sizeof p->digits, "%s", digits);
    p->fold_radix = fold_radix;
}

/* Every ordered factorisation of M into factors >= 2, above the digits in `low`. */
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

static void check_bound(const pinned_run *p, double bound_t, uint64_t bound_steps, const char *what,
                        const char *name, uint32_t N, uint64_t bytes, const net_case *nc) {
    if (!p->ran) return; /* refused pinned: nothing to compare */
    CHECK(bound_t <= p->t * (1 + 1e-9) && bound_steps <= p->steps,
          "%s %s %s N=%u %llu B: bound of %s (%.9g s, %llu steps) above %s's %.9g s, %llu steps",
          name, nc->net, nc->params, N, (unsigned long long)bytes, what, bound_t,
          (unsigned long long)bound_steps, p->params, p->t, (unsigned long long)p->steps);
}

static void one(const char *name, oc_collective coll, uint32_t N, uint64_t bytes,
                const net_case *nc) {
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
    for (size_t i = 0; i < cs.n; i++) {
        pinned_run *p = &cs.c[i];
        char why[512] = "";
        int err;
        oc_report *rep = run_words(nc->net, coll, name, N, bytes, p->params, nc->params, 0, &err,
                                   why, sizeof why);
        if (!err && rep) {
            p->ran = 1;
            p->t = oc_report_time(rep);
            p->steps = oc_report_steps(rep);
        }
        oc_report_free(rep);
    }
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words(nc->net, coll, name, N, bytes, NULL, nc->params, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "%s %s N=%u: %s", name, nc->net, N, why);
    if (err || !rep || !rep->search) goto out;
    const double best = oc_report_time(rep);
    for (size_t i = 0; i < cs.n; i++)
        if (cs.c[i].ran)
            CHECK(best <= cs.c[i].t * (1 + 1e-9),
                  "%s %s %s N=%u %llu B: the search's %.9g s above %s's %.9g s", name, nc->net,
                  nc->params, N, (unsigned long long)bytes, best, cs.c[i].params, cs.c[i].t);
    const oc__search_log *log = rep->search;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (!e->bound_name) continue;
        if (e->status == OC__CAND_MAPPED || e->status == OC__CAND_PRUNED) {
            for (size_t j = 0; j < cs.n; j++)
                if (!strcmp(cs.c[j].params, e->text))
                    check_bound(&cs.c[j], e->bound_time_s, e->bound_steps, e->text, name, N, bytes,
                                nc);
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
                                nc);
                }
            } else if (sscanf(e->text, "fold=1 with radix %u to %u", &lo, &hi) == 2) {
                for (size_t j = 0; j < cs.n; j++)
                    if (cs.c[j].fold_radix >= lo && cs.c[j].fold_radix <= hi) {
                        members++;
                        check_bound(&cs.c[j], e->bound_time_s, e->bound_steps, e->text, name, N,
                                    bytes, nc);
                    }
            }
            CHECK(members > 0, "%s N=%u: family '%s' has no member among the pinned runs", name, N,
                  e->text);
        }
    }
out:
    oc_report_free(rep);
}

/* The search's log at a large N: entries decided, and folds mapped. */
static void work(const char *net, uint32_t N, uint64_t bytes, size_t most_entries,
                 size_t most_fold_maps) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words(net, OC_ALLREDUCE, "rhd", N, bytes, NULL, NULL, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "rhd %s N=%u: %s", net, N, why);
    if (!err && rep && rep->search) {
        const oc__search_log *log = rep->search;
        size_t fold_maps = 0, families = 0;
        for (size_t i = 0; i < log->n; i++) {
            const oc__search_entry *e = &log->entry[i];
            fold_maps += e->status == OC__CAND_MAPPED && strstr(e->text, "fold=1") != NULL;
            families += e->status == OC__CAND_FAMILY && !strncmp(e->text, "fold=1 with radix", 17);
        }
        CHECK(log->n <= most_entries,
              "rhd %s N=%u: the search decided %zu entries (at most %zu: the folds of large radix "
              "are one family)",
              net, N, log->n, most_entries);
        CHECK(families >= 1, "rhd %s N=%u: no fold family pruned", net, N);
        CHECK(fold_maps <= most_fold_maps, "rhd %s N=%u: %zu folds mapped (at most %zu)", net, N,
              fold_maps, most_fold_maps);
    }
    oc_report_free(rep);
}

int main(int argc, char **argv) {
    const int slow = argc > 1 && !strcmp(argv[1], "slow");
    const uint32_t fast_Ns[] = {2, 3, 5, 7, 12, 17, 30}, slow_Ns[] = {64, 97};
    const uint64_t sizes[] = {4096, (uint64_t)256 << 20};
    const net_case nets[] = {{"ring", ""},    {"ring", "wavelengths=2"},
                             {"fattree", ""}, {"fattree", "leaf_down=4"},
                             {"switch", ""},  {"fabric", ""}};
    const uint32_t *Ns = slow ? slow_Ns : fast_Ns;
    const size_t nN = slow ? sizeof slow_Ns / sizeof *slow_Ns : sizeof fast_Ns / sizeof *fast_Ns;
    const struct {
        const char *name;
        oc_collective coll;
    } algos[] = {{"rhd", OC_ALLREDUCE}, {"rh", OC_REDUCESCATTER}, {"rd", OC_ALLGATHER}};
    for (size_t a = 0; a < (slow ? 3u : 1u); a++)
        for (size_t i = 0; i < nN; i++)
            for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
                for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
                    one(algos[a].name, algos[a].coll, Ns[i], sizes[j], &nets[k]);
    if (!slow) {
        /* N / 16 entries: the search used to decide every fold radix up to N alone */
        work("ring", 2053, 4u << 20, 2053 / 16, SIZE_MAX);
        work("fattree", 1021, 4096, 1021 / 16, 0);
    }
    return CHECK_SUMMARY();
}
