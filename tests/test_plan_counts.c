/*
 * test_plan_counts.c — the transfers a plan counts before anything is made (oc__plan_work) are the
 * transfers its generator emits.
 *
 * bt, rd and WRHT all-reduce and one-stage all-gather and all-to-all count theirs by closed forms
 * (their plan() functions), so that a run past the node cap is refused with the transfers it would
 * have, and one past the tool's transfer limit before any work. bidir, stride, bistride and
 * multilevel (all-gather, reduce-scatter, all-reduce) and the comb all-gather count theirs in
 * closed form too (src/algo/stride.c, levels.c, comb.c): at strides 1, 2, 3, 7 and 33 where N
 * takes them, and multilevel's and bistride's defaults. The
 * figure is read where the user reads it: from the node cap's line (oc__algo_node_cap on a copy of
 * the algorithm capped at one node, so every N >= 2 is past it), and compared with a counting sink
 * on the generator, for N in {1, 2, 3, 5, 7, 12, 100, 1000}, at the parameters the user can pin and
 * at the defaults (WRHT: the search's choice on the ring; alltoall unpinned counts as alltoall = 1,
 * which gives the same transfers whatever m is). N = 1 is under any cap: the generator must emit
 * nothing there.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100, 1000};

typedef struct counter {
    oc__sink sink;
    uint64_t transfers;
} counter;

static int count_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)index, (void)why, (void)len;
    ((counter *)self)->transfers += r->count;
    return 0;
}

/* Parses "k=v k=v" into a new kv (NULL on no memory). */
static oc_kv *kv_of(const char *words) {
    oc_kv *kv = oc_kv_new();
    char buf[128];
    snprintf(buf, sizeof buf, "%s", words);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); kv && w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) continue;
        *eq = 0;
        if (oc_kv_set(kv, w, eq + 1)) {
            oc_kv_free(kv);
            return NULL;
        }
    }
    return kv;
}

/* The transfers the node cap's line gives for `params` on N nodes: 0 when it gives none (or N is
 * under the cap), UINT64_MAX when the plan refused for another reason than the cap. */
static uint64_t counted(const oc__algo *a, uint32_t N, const oc_kv *params) {
    oc__algo capped = *a;
    capped.max_nodes = 1;
    char why[512] = "";
    const int rc = oc__algo_node_cap(&capped, a->info.collective, N, 0, 4096, params, why, sizeof why);
    if (rc == 0) return 0;
    const char *at = strstr(why, "it would be ");
    unsigned long long n = 0;
    if (rc != OC_ETOOBIG || !strstr(why, "runs on at most 1 nodes")) return UINT64_MAX;
    if (at && sscanf(at, "it would be %llu transfers", &n) != 1) return UINT64_MAX;
    return n;
}

/* The transfers the generator emits for `params` (UINT64_MAX when it cannot plan them). */
static uint64_t emitted(const oc__algo *a, uint32_t N, const oc_kv *params) {
    oc__plan plan = {0};
    char why[512] = "";
    counter c = {.sink.round = count_round};
    int rc = a->plan(&plan, a->info.collective, N, 0, 4096, params, why, sizeof why);
    if (!rc) rc = oc__generate(a, &plan, &c.sink, why, sizeof why);
    oc__plan_free(a, &plan);
    CHECK(rc == 0, "%s %s N=%u: %s", oc_collective_name(a->info.collective), a->info.name, N, why);
    return rc ? UINT64_MAX : c.transfers;
}

/* Counted = emitted, for the pins `words` ("" for none). */
static void same(const oc__algo *a, uint32_t N, const char *words) {
    oc_kv *kv = kv_of(words);
    CHECK(kv != NULL, "out of memory");
    if (!kv) return;
    const uint64_t c = counted(a, N, kv), e = emitted(a, N, kv);
    CHECK(e != UINT64_MAX && (N > 1 ? c == e && c > 0 : e == 0),
          "%s %s N=%u [%s]: counted %llu, emitted %llu", oc_collective_name(a->info.collective),
          a->info.name, N, words, (unsigned long long)c, (unsigned long long)e);
    oc_kv_free(kv);
}

static const oc__algo *find(oc_collective coll, const char *name) {
    const oc__algo *a = oc__algo_find(coll, name);
    CHECK(a != NULL, "no %s %s", oc_collective_name(coll), name);
    return a;
}

/* WRHT at the parameters its search chooses on the ring (the default of `opticoll run`). */
static void wrht_default(const oc__algo *a, uint32_t N) {
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = "wrht",
                      .network = "ring",
                      .nodes = N,
                      .bytes = 4096,
                      .skip_data_check = 1};
    const oc__algo *algo = NULL;
    const oc__model *model = NULL;
    oc__plan plan = {0};
    char why[512] = "";
    oc_report *rep = oc__report_new();
    int rc = rep ? oc__plan_request(&req, &algo, &model, &plan, rep, why, sizeof why) : OC_ENOMEM;
    CHECK(rc == 0, "wrht N=%u on the ring: %s", N, why);
    if (!rc) {
        const uint64_t c = counted(a, N, plan.used);
        counter k = {.sink.round = count_round};
        rc = oc__generate(algo, &plan, &k.sink, why, sizeof why);
        CHECK(rc == 0 && (N > 1 ? c == k.transfers : k.transfers == 0),
              "wrht N=%u searched (m=%s alltoall=%s): counted %llu, emitted %llu (%s)", N,
              oc_kv_get(plan.used, "m"), oc_kv_get(plan.used, "alltoall"), (unsigned long long)c,
              (unsigned long long)k.transfers, rc ? why : "");
    }
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
}

/* ---- the largest round said ahead (oc__spec.max_round) bounds every round made ---- */

typedef struct widest {
    oc__sink sink;
    uint64_t most;
} widest;

static int widest_round(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                        size_t len) {
    (void)index, (void)why, (void)len;
    widest *w = (widest *)self;
    if (r->count > w->most) w->most = r->count;
    return 0;
}

/* An algorithm that says its largest round ahead (the budget refuses from it before generating:
 * shard.c) never makes a larger one: every algorithm of the registry at its defaults, and TCP2
 * at each k (its all-to-all's first round is P k ceil(P / (k+1)) transfers). */
static void max_round_holds(const oc__algo *a, uint32_t N, const char *words) {
    oc_kv *kv = kv_of(words);
    oc__plan plan = {0};
    char why[512] = "";
    widest w = {.sink.round = widest_round};
    int rc = kv ? a->plan(&plan, a->info.collective, N, 0, 4096, kv, why, sizeof why) : OC_ENOMEM;
    if (!rc && plan.spec.max_round) {
        rc = oc__generate(a, &plan, &w.sink, why, sizeof why);
        CHECK(rc == 0 && w.most <= plan.spec.max_round,
              "%s %s N=%u [%s]: a round of %llu transfers, said ahead at most %llu (%s)",
              oc_collective_name(a->info.collective), a->info.name, N, words,
              (unsigned long long)w.most, (unsigned long long)plan.spec.max_round,
              rc ? why : "");
    }
    oc__plan_free(a, &plan);
    oc_kv_free(kv);
}

int main(void) {
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        if (sizes[s] > 100) continue;
        for (size_t i = 0; i < oc__algo_count(); i++)
            max_round_holds(oc__algo_at(i), sizes[s], "");
    }
    static const uint32_t star_sizes[] = {2, 3, 5, 7, 12, 16, 27, 64, 100, 125};
    for (size_t s = 0; s < sizeof star_sizes / sizeof *star_sizes; s++)
        for (unsigned k = 1; k <= 4; k++) {
            char words[16];
            snprintf(words, sizeof words, "k=%u", k);
            max_round_holds(find(OC_ALLTOALL, "tcp2"), star_sizes[s], words);
            max_round_holds(find(OC_GOSSIP, "tcp2"), star_sizes[s], words);
        }
    /* the bound is tight where the seed's cliques run: P k P/(k+1) at P = (k+1)^h */
    {
        oc_kv *kv = kv_of("k=3");
        oc__plan plan = {0};
        char why[512] = "";
        const oc__algo *a = find(OC_ALLTOALL, "tcp2");
        int rc = kv ? a->plan(&plan, OC_ALLTOALL, 64, 0, 4096, kv, why, sizeof why) : OC_ENOMEM;
        CHECK(rc == 0 && plan.spec.max_round == 64 * 3 * 16,
              "tcp2 all-to-all P=64 k=3: max_round %llu, want %u (%s)",
              (unsigned long long)plan.spec.max_round, 64 * 3 * 16, why);
        oc__plan_free(a, &plan);
        oc_kv_free(kv);
    }
    const oc__algo *plain[] = {find(OC_ALLREDUCE, "bt"), find(OC_ALLREDUCE, "rd"),
                               find(OC_ALLGATHER, "onestage"), find(OC_ALLTOALL, "onestage")};
    const oc__algo *wrht = find(OC_ALLREDUCE, "wrht");
    if (failed) return CHECK_SUMMARY();
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        const uint32_t N = sizes[s];
        for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
            same(plain[i], N, "");
        /* WRHT pinned: group sizes from the smallest to all of N, with the pure tree, an
         * all-to-all at small tops and one among every node, striped or not. */
        const uint32_t ms[] = {2, 3, 5, 7, N};
        const uint32_t tops[] = {1, 2, 7, N};
        for (size_t i = 0; N > 1 && i < sizeof ms / sizeof *ms; i++)
            for (size_t j = 0; ms[i] <= N && j < sizeof tops / sizeof *tops; j++) {
                if (tops[j] > N) continue;
                char words[96];
                snprintf(words, sizeof words, "m=%u alltoall=%u%s", ms[i], tops[j],
                         j == 2 ? " pieces=4" : "");
                same(wrht, N, words);
                /* alltoall unpinned is the pure tree: the same transfers, counted without m */
                if (j == 0) {
                    snprintf(words, sizeof words, "m=%u", ms[i]);
                    oc_kv *kv = kv_of(words), *none = kv_of("");
                    const uint64_t e = kv && none ? emitted(wrht, N, kv) : UINT64_MAX;
                    CHECK(e != UINT64_MAX && counted(wrht, N, none) == e &&
                              counted(wrht, N, kv) == e,
                          "wrht N=%u: unpinned counted %llu, m=%u counted %llu, emitted %llu", N,
                          (unsigned long long)counted(wrht, N, none), ms[i],
                          (unsigned long long)counted(wrht, N, kv), (unsigned long long)e);
                    oc_kv_free(kv);
                    oc_kv_free(none);
                }
            }
        wrht_default(wrht, N);
        static const oc_collective colls[] = {OC_ALLGATHER, OC_REDUCESCATTER, OC_ALLREDUCE};
        static const uint32_t strides[] = {1, 2, 3, 7, 33};
        for (size_t ci = 0; ci < 3; ci++) {
            same(find(colls[ci], "bidir"), N, "");
            same(find(colls[ci], "multilevel"), N, "");
            for (size_t i = 0; i < sizeof strides / sizeof *strides; i++) {
                if (strides[i] > 1 && 2 * strides[i] >= N) continue;
                char words[32];
                snprintf(words, sizeof words, "stride=%u", strides[i]);
                same(find(colls[ci], "stride"), N, words);
                same(find(colls[ci], "bistride"), N, words);
            }
            same(find(colls[ci], "bistride"), N, "");
        }
        same(find(OC_ALLGATHER, "comb"), N, "");
    }
    return CHECK_SUMMARY();
}
