/*
 * test_search_memo.c — the round cache's memo (src/run/search.c, round_cache.memo): a round the
 * cache has no room for is kept apart until the next such round, so that one coming back at once
 * (rhd's doubling level after its halving level, the same ends and amounts) is costed from it
 * instead of being mapped alone a second time.
 *
 * The memo may change no cost and no decision. With the cache held to a few bytes of transfers
 * (oc__search_check_memo: 1 byte, nothing kept, every round through the memo; 4 KiB and 64 KiB,
 * the cache full after a few rounds), rd, rh and rhd search the ring (w = 64 and w = 2), the
 * fat-tree and the switch at N = 5, 7, 12, 30 and 97 (prime), 4 KiB and 256 MiB, in the cache's
 * check mode: every candidate offered is costed from its rounds and mapped whole, and a
 * difference is an error naming it. Each search must then equal the one with the default cache
 * exactly: the same winner, and every entry of the log with the same status, steps and time, bit
 * for bit (a round's cost from the memo is the one mapping it alone gives; the sums are taken in
 * the same order). And the memo must be used: rhd's searches find rounds in it.
 *
 * The test can fail: a memo that answers without comparing the round's transfers (the hash
 * alone, or any round) or that keeps the cost of another round is caught by the check mode
 * (steps that the whole mapping does not give); a memo never consulted fails the count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run/pipeline.h"

typedef struct net_case {
    const char *net, *params; /* "k=v k=v" or "" */
} net_case;

static const net_case nets[] = {
    {"ring", ""}, {"ring", "wavelengths=2"}, {"fattree", ""}, {"switch", ""}};

static void set_pairs(oc_kv *kv, const char *text) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        oc_kv_set_pair(kv, tok);
}

static uint64_t memo_hits_rhd, searches;

/* One search with the cache held to `limit` bytes against the same with the default cache. */
static void one(const oc__algo *a, const oc__model *model, const net_case *nc, uint32_t N,
                uint64_t bytes, size_t limit) {
    oc_kv *np = oc_kv_new(), *chosen = NULL, *ref_chosen = NULL;
    set_pairs(np, nc->params);
    oc_request req = {.collective = a->info.collective,
                      .algorithm = a->info.name,
                      .network = nc->net,
                      .nodes = N,
                      .bytes = bytes,
                      .net_params = np,
                      .skip_data_check = 1};
    oc_report *rep = oc__report_new(), *ref = oc__report_new();
    char why[512] = "", why_ref[512] = "";
    uint64_t checked = 0, hits = 0, ref_checked = 0;
    int rc = oc__search_check_memo(a, model, &req, limit, &checked, &hits, &chosen, rep, why,
                                   sizeof why);
    int ref_rc = oc__search_check_cache(a, model, &req, &ref_checked, &ref_chosen, ref, why_ref,
                                        sizeof why_ref);
    CHECK(rc == ref_rc, "%s on %s %s N=%u %llu B cache %zu B: rc %d (%s), default cache rc %d (%s)",
          a->info.name, nc->net, nc->params, N, (unsigned long long)bytes, limit, rc, why, ref_rc,
          why_ref);
    if (rc == 0 && ref_rc == 0 && rep->search && ref->search) {
        searches++;
        const oc__search_log *x = rep->search, *y = ref->search;
        CHECK(x->n == y->n && x->winner == y->winner,
              "%s on %s %s N=%u cache %zu B: %zu entries, winner %zu; default %zu, %zu",
              a->info.name, nc->net, nc->params, N, limit, x->n, x->winner, y->n, y->winner);
        for (size_t i = 0; i < x->n && i < y->n; i++) {
            const oc__search_entry *e = &x->entry[i], *f = &y->entry[i];
            CHECK(e->status == f->status && e->steps == f->steps &&
                      memcmp(&e->time_s, &f->time_s, sizeof e->time_s) == 0,
                  "%s on %s %s N=%u %llu B cache %zu B, %s: status %d, %llu steps, %.17g s; "
                  "default cache: status %d, %llu steps, %.17g s",
                  a->info.name, nc->net, nc->params, N, (unsigned long long)bytes, limit, e->text,
                  e->status, (unsigned long long)e->steps, e->time_s, f->status,
                  (unsigned long long)f->steps, f->time_s);
        }
        if (!strcmp(a->info.name, "rhd")) memo_hits_rhd += hits;
    }
    oc_report_free(rep);
    oc_report_free(ref);
    oc_kv_free(chosen);
    oc_kv_free(ref_chosen);
    oc_kv_free(np);
}

int main(void) {
    static const struct {
        oc_collective coll;
        const char *name;
    } algos[] = {{OC_ALLREDUCE, "rhd"}, {OC_REDUCESCATTER, "rh"}, {OC_ALLGATHER, "rd"}};
    static const uint32_t nodes[] = {5, 7, 12, 30, 97};
    static const uint64_t sizes[] = {4096, UINT64_C(256) << 20};
    static const size_t limits[] = {1, 4096, 65536};
    for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
        const oc__algo *a = oc__algo_find(algos[i].coll, algos[i].name);
        CHECK(a != NULL, "no algorithm %s", algos[i].name);
        if (!a) continue;
        for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
            const oc__model *model = oc__model_find(nets[k].net);
            if (!model || !oc__algo_supports(a, nets[k].net)) continue;
            for (size_t n = 0; n < sizeof nodes / sizeof *nodes; n++)
                for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
                    for (size_t l = 0; l < sizeof limits / sizeof *limits; l++)
                        one(a, model, &nets[k], nodes[n], sizes[s], limits[l]);
        }
    }
    printf("%llu searches compared; rhd found %llu rounds in the memo\n",
           (unsigned long long)searches, (unsigned long long)memo_hits_rhd);
    CHECK(searches > 100, "only %llu searches compared", (unsigned long long)searches);
    CHECK(memo_hits_rhd > 0, "the memo was never used");
    return CHECK_SUMMARY();
}
