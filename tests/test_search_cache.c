/*
 * test_search_cache.c — the parameter search's round cache (src/run/search.c) against mapping each
 * candidate whole. On a model whose cost is additive over rounds (oc__model.additive: the ring,
 * the fat-tree, the switch) the search costs a candidate from its distinct rounds, each mapped
 * once alone; that cost must be the whole mapping's: the same steps, the same time (to a relative
 * 1e-12, the rounding of a sum). For every algorithm with a search, on every additive network it
 * runs on, at odd, prime and non-power N and two sizes, oc__search_check_cache maps every
 * candidate offered one by one (mapped or pruned) both ways and fails at the first difference;
 * the winner must be the least of all of them under the tie rule (hints included: rhd's least
 * bound is mapped ahead of its offer and must not win a tie it would lose by order);
 * then the search is run again on a copy of the model without the flag (every candidate mapped
 * whole, as before the cache) and must pick the same parameters with the same mapped figures
 * for every candidate it mapped.
 *
 * The test can fail: a copy of the fabric flagged additive (it is not: it charges a
 * reconfiguration when a round's circuit set differs from the previous round's) is caught on rhd.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run/pipeline.h"

typedef struct net_case {
    const char *net, *params; /* "k=v k=v" or "" */
} net_case;

static const net_case nets[] = {
    {"ring", ""}, {"ring", "wavelengths=2"}, {"ring", "wavelengths=3 fibres=2"},
    {"fattree", ""}, {"switch", ""},
};

static void set_pairs(oc_kv *kv, const char *text) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        oc_kv_set_pair(kv, tok);
}

static char *kv_text(const oc_kv *kv) {
    static char buf[512];
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; kv && i < oc_kv_count(kv) && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s=%s ", oc_kv_key(kv, i),
                               oc_kv_value(kv, i));
    return buf;
}

static uint64_t compared, searches;

/* One (algorithm, network, N, size): the cache against whole mapping. */
static void one(const oc__algo *a, const oc__model *model, const net_case *nc, uint32_t N,
                uint64_t bytes) {
    oc_kv *np = oc_kv_new(), *chosen = NULL, *plain_chosen = NULL;
    set_pairs(np, nc->params);
    oc_request req = {.collective = a->info.collective,
                      .algorithm = a->info.name,
                      .network = nc->net,
                      .nodes = N,
                      .bytes = bytes,
                      .net_params = np,
                      .skip_data_check = 1};
    oc_report *rep = oc__report_new(), *plain_rep = oc__report_new();
    char why[512] = "", why2[512] = "";
    uint64_t checked = 0;
    int rc = oc__search_check_cache(a, model, &req, &checked, &chosen, rep, why, sizeof why);
    CHECK(!(rc && strncmp(why, "round cache:", 12) == 0), "%s on %s %s N=%u %llu B: %s",
          a->info.name, nc->net, nc->params, N, (unsigned long long)bytes, why);
    compared += checked;
    if (rc == 0 && rep->search && model->additive) {
        /* the winner against every candidate offered one by one, pruned ones included (their
         * costs are in the check's log): least time (1e-9), then fewer steps, then offered first;
         * the hints (rhd's least bound mapped ahead) must not change it */
        const oc__search_log *x = rep->search;
        size_t best = x->n;
        for (size_t i = 0; i < x->n; i++) {
            const oc__search_entry *e = &x->entry[i];
            if ((e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) || !e->steps)
                continue;
            if (best == x->n) {
                best = i;
                continue;
            }
            const oc__search_entry *b = &x->entry[best];
            const int tie = fabs(e->time_s - b->time_s) <= 1e-9 * fmax(e->time_s, b->time_s);
            if ((!tie && e->time_s < b->time_s) || (tie && e->steps < b->steps)) best = i;
        }
        /* every bound is proven: never above the candidate's mapped cost (rhd's exact level
         * costs and its ring levels' busiest-link loads included) */
        for (size_t i = 0; i < x->n; i++) {
            const oc__search_entry *e = &x->entry[i];
            if ((e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) || !e->steps)
                continue;
            CHECK(e->bound_steps <= e->steps && e->bound_time_s <= e->time_s * (1 + 1e-12),
                  "%s on %s %s N=%u %s: bound %llu steps %.17g s above its cost %llu steps "
                  "%.17g s",
                  a->info.name, nc->net, nc->params, N, e->text,
                  (unsigned long long)e->bound_steps, e->bound_time_s,
                  (unsigned long long)e->steps, e->time_s);
        }
        CHECK(best == x->winner, "%s on %s %s N=%u: winner %s, the least of all offered %s",
              a->info.name, nc->net, nc->params, N, x->entry[x->winner].text,
              best < x->n ? x->entry[best].text : "(none)");
    }
    oc__model plain = *model;
    plain.additive = 0;
    oc__netset plain_net;
    int prc = oc__netset_parse(&plain, req.net_params, req.nodes, &plain_net, why2, sizeof why2);
    if (!prc)
        prc = oc__search_params(a, &plain_net, &req, &plain_chosen, plain_rep, why2, sizeof why2);
    if (rc == 0 && rep->search) {
        searches++;
        char mine[512];
        snprintf(mine, sizeof mine, "%s", kv_text(chosen));
        CHECK(prc == 0 && strcmp(mine, kv_text(plain_chosen)) == 0,
              "%s on %s %s N=%u: the cache picks %s, whole mapping %s (%s)", a->info.name,
              nc->net, nc->params, N, mine, kv_text(plain_chosen), why2);
        /* The two searches may map different candidates: on an additive model rhd's search
         * costs levels alone (oc__search_round_costs) and prunes with exact bounds, which the
         * whole-mapping model does not offer. The winner is the same, and every candidate both
         * mapped costs the same. */
        const oc__search_log *x = rep->search, *y = plain_rep->search;
        CHECK(y && !strcmp(x->entry[x->winner].text, y->entry[y->winner].text),
              "%s on %s N=%u: the winners differ", a->info.name, nc->net, N);
        for (size_t i = 0; y && i < x->n; i++) {
            const oc__search_entry *xe = &x->entry[i], *ye = NULL;
            for (size_t j = 0; j < y->n && !ye; j++)
                if (y->entry[j].status == OC__CAND_MAPPED && !strcmp(y->entry[j].text, xe->text))
                    ye = &y->entry[j];
            if (xe->status == OC__CAND_MAPPED && ye)
                CHECK(xe->steps == ye->steps &&
                          fabs(xe->time_s - ye->time_s) <= 1e-12 * fabs(ye->time_s),
                      "%s on %s N=%u %s: %llu steps %.17g s cached, %llu steps %.17g s whole",
                      a->info.name, nc->net, N, xe->text, (unsigned long long)xe->steps,
                      xe->time_s, (unsigned long long)ye->steps, ye->time_s);
        }
    } else {
        /* a refusal (a restriction of the algorithm or the network) is the same either way */
        CHECK((rc != 0) == (prc != 0), "%s on %s N=%u: cache rc %d (%s), whole rc %d (%s)",
              a->info.name, nc->net, N, rc, why, prc, why2);
    }
    oc_report_free(rep);
    oc_report_free(plain_rep);
    oc_kv_free(chosen);
    oc_kv_free(plain_chosen);
    oc_kv_free(np);
}

int main(int argc, char **argv) {
    const int slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    static const uint32_t small[] = {2, 3, 5, 7, 12, 13, 16, 24, 30};
    static const uint32_t large[] = {36, 64, 97, 100, 120};
    static const uint64_t sizes[] = {4096, 1000};
    for (size_t i = 0; i < oc__algo_count(); i++) {
        const oc__algo *a = oc__algo_at(i);
        if (!a->search) continue;
        for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
            const oc__model *model = oc__model_find(nets[k].net);
            if (!model || !model->additive || !oc__algo_supports(a, nets[k].net)) continue;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                for (size_t n = 0; n < sizeof small / sizeof *small; n++)
                    one(a, model, &nets[k], small[n], sizes[s]);
                for (size_t n = 0; slow && n < sizeof large / sizeof *large; n++)
                    one(a, model, &nets[k], large[n], sizes[s]);
            }
        }
    }
    /* The check bites: the fabric flagged additive (it is not) must be caught on rhd, whose first
     * doubling level reuses the last halving level's circuits (no reconfiguration). */
    {
        oc__model fake = *oc__model_find("fabric");
        fake.additive = 1;
        const oc__algo *rd = oc__algo_find(OC_ALLREDUCE, "rhd");
        oc_request req = {.collective = OC_ALLREDUCE,
                          .algorithm = "rhd",
                          .network = "fabric",
                          .nodes = 12,
                          .bytes = 4096,
                          .skip_data_check = 1};
        oc_report *rep = oc__report_new();
        oc_kv *chosen = NULL;
        char why[512] = "";
        uint64_t checked = 0;
        int rc = oc__search_check_cache(rd, &fake, &req, &checked, &chosen, rep, why, sizeof why);
        CHECK(rc == OC_EINVAL && strncmp(why, "round cache:", 12) == 0,
              "the fabric flagged additive was not caught: rc %d, %s", rc, why);
        printf("the fabric flagged additive: %s\n", why);
        oc_report_free(rep);
        oc_kv_free(chosen);
    }
    printf("%llu searches, %llu candidates costed from the cache and mapped whole\n",
           (unsigned long long)searches, (unsigned long long)compared);
    CHECK(compared > 1000, "only %llu candidates compared", (unsigned long long)compared);
    return CHECK_SUMMARY();
}
