/*
 * test_search.c — the search contract's driver (src/run/search.c), tested on its own.
 *
 * A test algorithm "pick" offers one parameter, algo=ring|rd|bruck|ne, and generates the all-gather
 * of the named registry algorithm; the bounds it offers are set by each case. The cases check what
 * the contract promises whatever the algorithm: the winner is the exhaustive optimum of the
 * model's time over what was offered (or of steps with --objective steps); a candidate is pruned
 * only when its bound is worse than a mapped one; a full tie goes to the earlier offer; the log
 * counts every candidate once and names the winner; the winner's parameters are the ones used.
 */
#include "run/pipeline.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const pick_names[] = {"algo", NULL};

/* What the next search offers: names, bounds (time, steps). */
static struct {
    const char *algo[6];
    double bound_time[6];
    uint64_t bound_steps[6];
    size_t n;
} offers;

static const oc__algo *inner(const oc_kv *params) {
    return oc__algo_find(OC_ALLGATHER, oc_kv_get(params, "algo"));
}

/* The inner algorithm's own parameters, pinned so that it searches nothing (rd has a search of
 * its own: radix 2 on the powers of two the cases use). */
static oc_kv *inner_params(const char *algo) {
    oc_kv *kv = oc_kv_new();
    if (kv && strcmp(algo, "rd") == 0) oc_kv_set(kv, "radix", "2");
    return kv;
}

static int pick_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                     uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    const oc__algo *a = inner(params);
    if (!a) return oc__fail(why, len, OC_EINVAL, "pick: algo= must name an all-gather");
    int rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
    if (!rc) rc = oc_kv_set(plan->used, "algo", oc_kv_get(params, "algo"));
    return rc;
}

static int pick_generate(const oc__plan *plan, oc__emit *e) {
    const oc__algo *a = inner(plan->used);
    oc__plan p = {0};
    char why[128];
    oc_kv *kv = inner_params(a->info.name);
    int rc = kv ? a->plan(&p, plan->spec.coll, plan->spec.nodes, plan->spec.root,
                          plan->spec.bytes, kv, why, sizeof why)
                : OC_ENOMEM;
    if (!rc) rc = a->generate(&p, e);
    oc__plan_free(a, &p);
    oc_kv_free(kv);
    return rc;
}

static int pick_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    (void)in;
    (void)why;
    (void)len;
    for (size_t i = 0; i < offers.n; i++) {
        const oc__bound b = {offers.bound_time[i], offers.bound_steps[i],
                             offers.bound_time[i] > 0 ? "test bound" : NULL, 0};
        const char *kv[] = {"algo", offers.algo[i]};
        int rc = oc__search_offer(s, &b, 1, kv);
        if (rc) return rc;
    }
    return 0;
}

static const oc__algo pick = {
    .info = {"pick", OC_ALLGATHER, "switch,ring", "test", "", "", ""},
    .param_names = pick_names,
    .plan = pick_plan,
    .generate = pick_generate,
    .search = pick_search,
};

/* The model's time and steps of one all-gather algorithm, through the public API. */
static void measure(const char *algo, const char *net, uint32_t N, uint64_t bytes, double *time,
                    uint64_t *steps) {
    oc_kv *kv = inner_params(algo);
    oc_request req = {.collective = OC_ALLGATHER,
                      .algorithm = algo,
                      .network = net,
                      .nodes = N,
                      .bytes = bytes,
                      .params = kv,
                      .skip_data_check = 1};
    oc_report *rep = NULL;
    char why[256] = "";
    int rc = oc_run(&req, &rep, why, sizeof why);
    CHECK(rc == 0, "%s on %s N=%u: %s", algo, net, N, why);
    *time = rc ? NAN : oc_report_time(rep);
    *steps = rc ? 0 : oc_report_steps(rep);
    oc_report_free(rep);
    oc_kv_free(kv);
}

static oc_report *search(const char *net, uint32_t N, uint64_t bytes, int objective,
                         oc_kv **chosen) {
    oc_request req = {.collective = OC_ALLGATHER,
                      .algorithm = "pick",
                      .network = net,
                      .nodes = N,
                      .bytes = bytes,
                      .objective = objective,
                      .skip_data_check = 1};
    oc_report *rep = oc__report_new();
    char why[256] = "";
    oc__netset ns;
    int rc = oc__netset_parse(oc__model_find(net), NULL, N, &ns, why, sizeof why);
    if (!rc) rc = oc__search_params(&pick, &ns, &req, chosen, rep, why, sizeof why);
    CHECK(rc == 0 && *chosen, "search on %s N=%u: %s", net, N, why);
    return rep;
}

static size_t count_status(const oc__search_log *log, int status) {
    size_t n = 0;
    for (size_t i = 0; i < log->n; i++)
        n += log->entry[i].status == status;
    return n;
}

int main(void) {
    static const char *const algos[] = {"ring", "rd", "bruck", "ne"};
    static const char *const nets[] = {"switch", "ring"};
    static const uint32_t sizes[] = {2, 4, 8, 16};
    static const uint64_t bytes[] = {64, 1 << 20};
    for (size_t ni = 0; ni < 2; ni++)
        for (size_t si = 0; si < 4; si++)
            for (size_t bi = 0; bi < 2; bi++) {
                const char *net = nets[ni];
                uint32_t N = sizes[si];
                double t[4];
                uint64_t st[4];
                for (size_t a = 0; a < 4; a++)
                    measure(algos[a], net, N, bytes[bi], &t[a], &st[a]);
                /* no bounds: every candidate is mapped, the winner is the exhaustive optimum */
                offers.n = 4;
                for (size_t a = 0; a < 4; a++) {
                    offers.algo[a] = algos[a];
                    offers.bound_time[a] = 0;
                    offers.bound_steps[a] = 0;
                }
                for (int obj = 0; obj < 2; obj++) {
                    size_t best = 0;
                    for (size_t a = 1; a < 4; a++) {
                        int tie_t = fabs(t[a] - t[best]) <= 1e-9 * fmax(t[a], t[best]);
                        int lt = obj == OC_OBJECTIVE_TIME
                                     ? (!tie_t && t[a] < t[best]) || (tie_t && st[a] < st[best])
                                     : st[a] < st[best] || (st[a] == st[best] && !tie_t &&
                                                            t[a] < t[best]);
                        if (lt) best = a;
                    }
                    oc_kv *chosen = NULL;
                    oc_report *rep = search(net, N, bytes[bi], obj, &chosen);
                    const char *won = chosen ? oc_kv_get(chosen, "algo") : "";
                    CHECK(won && strcmp(won, algos[best]) == 0,
                          "%s N=%u bytes=%llu objective %d: the search picked %s, the optimum is %s",
                          net, N, (unsigned long long)bytes[bi], obj, won ? won : "?",
                          algos[best]);
                    const oc__search_log *log = rep->search;
                    CHECK(log && log->mapped == 4 && log->pruned == 0 &&
                              count_status(log, OC__CAND_MAPPED) == 4,
                          "every unbounded candidate is mapped");
                    CHECK(log && fabs(log->entry[log->winner].time_s - t[best]) <=
                                     1e-9 * t[best],
                          "the log's winner time is the model's time");
                    oc_kv_free(chosen);
                    oc_report_free(rep);
                }
                /* Bounds: the best's exact time as the bound of a later duplicate prunes it (a
                 * full tie goes to the earlier offer); a bound above the best prunes; a bound
                 * below the best does not. */
                size_t best = 0;
                for (size_t a = 1; a < 4; a++)
                    if (t[a] < t[best]) best = a;
                offers.n = 4;
                offers.algo[0] = algos[best];
                offers.bound_time[0] = 0;
                offers.algo[1] = algos[best];     /* same cost, offered later */
                offers.bound_time[1] = t[best];   /* exact: prunable by the tie rule */
                offers.bound_steps[1] = st[best];
                offers.algo[2] = algos[(best + 1) % 4];
                offers.bound_time[2] = 2 * t[best] + 1e-3; /* above the best: pruned */
                offers.bound_steps[2] = 0;
                offers.algo[3] = algos[(best + 2) % 4];
                offers.bound_time[3] = 0.5 * t[best]; /* below: must be mapped */
                offers.bound_steps[3] = 0;
                oc_kv *chosen = NULL;
                oc_report *rep = search(net, N, bytes[bi], OC_OBJECTIVE_TIME, &chosen);
                const oc__search_log *log = rep->search;
                CHECK(log && log->entry[1].status == OC__CAND_PRUNED,
                      "%s N=%u: a later full tie is pruned by its exact bound", net, N);
                CHECK(log && log->entry[2].status == OC__CAND_PRUNED,
                      "%s N=%u: a bound above the best prunes", net, N);
                CHECK(log && log->entry[3].status == OC__CAND_MAPPED,
                      "%s N=%u: a bound below the best is mapped", net, N);
                size_t other = (best + 2) % 4;
                int other_ties = fabs(t[other] - t[best]) <= 1e-9 * t[best] && st[other] < st[best];
                CHECK(log && (log->winner == 0 || (log->winner == 3 && other_ties)),
                      "%s N=%u: the first offer of the optimum wins", net, N);
                CHECK(log && log->mapped + log->pruned == log->n, "every candidate counted once");
                oc_kv_free(chosen);
                oc_report_free(rep);
            }
    /* The CLI's report: the "search" field names the parameters the run used. */
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = "hring",
                      .network = "ring",
                      .nodes = 12,
                      .bytes = 1 << 20,
                      .explain = 1,
                      .skip_data_check = 1};
    oc_report *rep = NULL;
    char why[256] = "";
    CHECK(oc_run(&req, &rep, why, sizeof why) == 0, "hring: %s", why);
    if (rep) {
        const oc__search_log *log = rep->search;
        CHECK(log && log->n == 6, "hring on 12 nodes offers the 6 divisors of 12, got %zu",
              log ? log->n : 0);
        const char *g = oc_report_param(rep, "g");
        CHECK(log && g && strcmp(oc_kv_get(log->entry[log->winner].params, "g"), g) == 0,
              "the report's g is the winner's");
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        oc_report_write_json(rep, f);
        fclose(f);
        CHECK(buf && strstr(buf, "\"search\": {\"objective\": \"time\"") &&
                  strstr(buf, "\"candidates\": ["),
              "the JSON carries the search with its candidates");
        free(buf);
        oc_report_free(rep);
    }
    return CHECK_SUMMARY();
}
