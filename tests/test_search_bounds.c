/*
 * test_search_bounds.c — candidates whose transfers are known ahead (oc__bound.transfers,
 * src/run/search.c): one over the search's mapping budget is never generated; when no candidate
 * fits that budget, the one of least bound that the tool can generate is chosen by its bound (and
 * the run maps it); when none can be generated at all, one line names the fewest transfers, the
 * candidate and the limit, before any work. hring at N = 65536 (before: 17 s, then "no hring
 * parameters could be mapped") is the real case: g = 256 on the switch, whose bound is its cost.
 */
#include "check.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <string.h>

/* A fake algorithm whose candidates a, b, c have the transfers of `sizes`; generating any of them
 * is a failure of the test (the search must decide from the bounds alone). */
static uint64_t sizes[3];
static int generated;

static int fake_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root,
                     uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    (void)params;
    generated++;
    return oc__plan_begin(p, coll, nodes, root, bytes, 1, why, len);
}

static int fake_generate(const oc__plan *p, oc__emit *e) {
    (void)p, (void)e;
    generated++;
    return 0;
}

static int fake_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    (void)in, (void)why, (void)len;
    static const char *const names[] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        /* b has the least bound */
        const oc__bound b = {.time_s = i == 1 ? 1.0 : 2.0 + i,
                             .steps = 10,
                             .name = "test bound",
                             .transfers = sizes[i]};
        const char *kv[] = {"x", names[i]};
        int rc = oc__search_offer(s, &b, 1, kv);
        if (rc) return rc;
    }
    return 0;
}

static const char *const fake_params[] = {"x", NULL};
static const oc__algo fake = {
    .info = {"fake", OC_ALLGATHER, "switch", "test", "", "", ""},
    .param_names = fake_params,
    .plan = fake_plan,
    .generate = fake_generate,
    .search = fake_search,
};

/* The search of `algo` on the switch at N nodes: its rc, the chosen x (or g), the reason. */
static int search(const oc__algo *algo, oc_collective coll, uint32_t nodes, char *chosen,
                  size_t clen, char *why, size_t len) {
    const oc__model *model = oc__model_find("switch");
    oc_request req = {.collective = coll,
                      .algorithm = algo->info.name,
                      .network = "switch",
                      .nodes = nodes,
                      .bytes = 1 << 20,
                      .skip_data_check = 1};
    oc_report *rep = oc__report_new();
    oc_kv *kv = NULL;
    why[0] = chosen[0] = 0;
    oc__netset net;
    int rc = oc__netset_parse(model, req.net_params, req.nodes, &net, why, len);
    if (!rc) rc = oc__search_params(algo, &net, &req, &kv, rep, why, len);
    if (kv) snprintf(chosen, clen, "%s", oc_kv_value(kv, 0));
    if (!rc && rep->search && rep->search->why_won)
        snprintf(why, len, "%s", rep->search->why_won);
    oc_kv_free(kv);
    oc_report_free(rep);
    return rc;
}

int main(void) {
    char chosen[32], why[1024];
    const uint64_t over = (UINT64_C(1) << 25) + 1, huge = OC_MAX_TRANSFERS + 1;

    /* every candidate over the mapping budget, all generable: b, by its bound, none generated */
    sizes[0] = sizes[1] = sizes[2] = over;
    generated = 0;
    int rc = search(&fake, OC_ALLGATHER, 64, chosen, sizeof chosen, why, sizeof why);
    CHECK(rc == 0 && !strcmp(chosen, "b") && strstr(why, "chosen by the least proven bound"),
          "rc %d chosen '%s': %s", rc, chosen, why);
    CHECK(generated == 0, "%d candidates planned or generated", generated);

    /* b cannot be generated at all: a, the least bound of those that can */
    sizes[1] = huge;
    rc = search(&fake, OC_ALLGATHER, 64, chosen, sizeof chosen, why, sizeof why);
    CHECK(rc == 0 && !strcmp(chosen, "a"), "rc %d chosen '%s': %s", rc, chosen, why);

    /* none can be generated: one line, the fewest transfers, which candidate, the limit */
    sizes[0] = huge + 5;
    sizes[2] = huge + 2;
    generated = 0;
    rc = search(&fake, OC_ALLGATHER, 64, chosen, sizeof chosen, why, sizeof why);
    char want[256];
    snprintf(want, sizeof want,
             "fake on 64 nodes needs at least %llu transfers (x=b, the fewest of its 3 parameter "
             "sets), more than the %llu this tool generates",
             (unsigned long long)huge, (unsigned long long)OC_MAX_TRANSFERS);
    CHECK(rc == OC_ETOOBIG && !strcmp(why, want), "rc %d: '%s'", rc, why);
    CHECK(generated == 0, "%d candidates planned or generated", generated);

    /* hring at N = 65536 on the switch: g = 256 (the bound is the switch's exact time) */
    const oc__algo *hring = oc__algo_find(OC_ALLREDUCE, "hring");
    rc = search(hring, OC_ALLREDUCE, 65536, chosen, sizeof chosen, why, sizeof why);
    CHECK(rc == 0 && !strcmp(chosen, "256") && strstr(why, "66846720 transfers"),
          "hring N=65536: rc %d g=%s: %s", rc, chosen, why);
    /* and where candidates fit, the search maps as before (N = 720: g = 24 or 30 mapped) */
    rc = search(hring, OC_ALLREDUCE, 720, chosen, sizeof chosen, why, sizeof why);
    CHECK(rc == 0 && !strstr(why, "chosen by the least proven bound"), "hring N=720: rc %d: %s",
          rc, why);
    return CHECK_SUMMARY();
}
