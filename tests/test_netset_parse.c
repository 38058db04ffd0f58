/*
 * test_netset_parse.c — a network's settings are parsed once a run (net/netset.c), however many
 * times the run creates its model: the parameter search once per candidate mapped and once per
 * round mapped alone, the closed forms' figures, the physical bound and the checked run. Before,
 * each creation parsed them: an OpTree run at w = 64 on the ring parsed them 61 times.
 *
 * Each case counts the parses (oc__netset_parses, the test hook of net/net.h) around one call of
 * the public API and asserts exactly one:
 *  - OpTree all-gather on the ring at w = 64 (a search over radices and stage counts), at N = 64,
 *    97 (a prime) and 100, and at spread=0;
 *  - compare: every all-gather algorithm on the ring, every all-reduce algorithm on the fat-tree
 *    and on the switch, at N = 12 and 97 (one parse shared by all the algorithms);
 *  - searching runs on other networks: rhd's and rd's searches on the fat-tree, the switch and the
 *    fabric, dbtree's on the fat-tree, hring's on the switch, at N = 12, 97, 100;
 *  - an export (search, plan, then the checked run: one parse for both);
 *  - the physical bound alone.
 * It also checks that the one parse serves: the run is verified and its report names the network.
 * A run on the torus parses once too (its settings depend on N and are checked for N).
 * A creation that parsed again (oc__net_create calling oc__netset_parse each time) fails every
 * case with the number of creations instead of 1.
 */
#include "net/net.h"

#include "opticoll.h"

#include <stdio.h>
#include <string.h>

#include "check.h"

static oc_kv *kv_of(const char *pairs) {
    oc_kv *kv = oc_kv_new();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", pairs);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); kv && t; t = strtok_r(NULL, " ", &save))
        if (oc_kv_set_pair(kv, t)) {
            oc_kv_free(kv);
            return NULL;
        }
    return kv;
}

static oc_request request(oc_collective coll, const char *algo, const char *net, uint32_t N,
                          uint64_t bytes, const oc_kv *np) {
    return (oc_request){.collective = coll,
                        .algorithm = algo,
                        .network = net,
                        .nodes = N,
                        .bytes = bytes,
                        .net_params = np,
                        .skip_data_check = 1};
}

static void one_run(oc_collective coll, const char *algo, const char *net, uint32_t N,
                    uint64_t bytes, const char *pairs) {
    oc_kv *np = kv_of(pairs);
    CHECK(np != NULL, "%s", pairs);
    oc_request req = request(coll, algo, net, N, bytes, np);
    oc_report *rep = NULL;
    char why[512] = "";
    const uint64_t before = oc__netset_parses();
    int rc = oc_run(&req, &rep, why, sizeof why);
    const uint64_t parses = oc__netset_parses() - before;
    CHECK(rc == 0 && rep && oc_report_verified(rep), "%s %s on %s N=%u %s: %s",
          oc_collective_name(coll), algo, net, N, pairs, why);
    CHECK(parses == 1, "%s %s on %s N=%u %s: settings parsed %llu times", oc_collective_name(coll),
          algo, net, N, pairs, (unsigned long long)parses);
    oc_report_free(rep);
    oc_kv_free(np);
}

static void one_compare(oc_collective coll, const char *net, uint32_t N, uint64_t bytes,
                        const char *pairs) {
    oc_kv *np = kv_of(pairs);
    CHECK(np != NULL, "%s", pairs);
    oc_request req = request(coll, NULL, net, N, bytes, np);
    oc_compare_result res;
    char why[1024] = "";
    const uint64_t before = oc__netset_parses();
    int rc = oc_compare(&req, NULL, 0, NULL, &res, why, sizeof why);
    const uint64_t parses = oc__netset_parses() - before;
    CHECK(rc == 0 && res.nrun >= 2, "compare %s on %s N=%u: %s (%zu run)", oc_collective_name(coll),
          net, N, why, rc ? (size_t)0 : res.nrun);
    CHECK(parses == 1, "compare %s on %s N=%u %s (%zu algorithms run): settings parsed %llu times",
          oc_collective_name(coll), net, N, pairs, rc ? (size_t)0 : res.nrun,
          (unsigned long long)parses);
    if (!rc) oc_compare_result_free(&res);
    oc_kv_free(np);
}

int main(void) {
    static const uint32_t Ns[] = {12, 97, 100};
    /* OpTree's search on the ring at w = 64 */
    one_run(OC_ALLGATHER, "optree", "ring", 64, 1 << 20, "wavelengths=64");
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        one_run(OC_ALLGATHER, "optree", "ring", Ns[i], 1 << 20, "wavelengths=64");
        one_run(OC_ALLGATHER, "optree", "ring", Ns[i], 1 << 16, "wavelengths=64 spread=0");
    }
    /* other searches, other networks */
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        one_run(OC_ALLREDUCE, "rhd", "fattree", Ns[i], 1 << 20, "ports=8");
        one_run(OC_ALLREDUCE, "rhd", "switch", Ns[i], 1 << 20, "");
        one_run(OC_ALLREDUCE, "rhd", "fabric", Ns[i], 1 << 20, "tiles_per_server=4");
        one_run(OC_ALLGATHER, "rd", "fattree", Ns[i], 1 << 16, "");
        one_run(OC_ALLREDUCE, "dbtree", "fattree", Ns[i], 1 << 20, "ports=8");
        one_run(OC_ALLREDUCE, "rhd", "ring", Ns[i], 1 << 20, "wavelengths=8");
    }
    one_run(OC_ALLREDUCE, "hring", "switch", 12, 1 << 20, "");
    one_run(OC_ALLTOALL, "pipeline", "torus", 12, 1 << 10, "dims=12");
    one_run(OC_ALLTOALL, "cartesian", "torus", 12, 1 << 10, "dims=3x4");
    /* compare: one parse for every algorithm */
    one_compare(OC_ALLGATHER, "ring", 12, 1 << 16, "wavelengths=64");
    one_compare(OC_ALLGATHER, "ring", 97, 1 << 16, "wavelengths=8");
    one_compare(OC_ALLREDUCE, "fattree", 12, 1 << 20, "");
    one_compare(OC_ALLREDUCE, "switch", 97, 1 << 20, "");
    /* an export: the search's parse serves the checked run */
    {
        oc_kv *np = kv_of("wavelengths=64");
        oc_request req = request(OC_ALLGATHER, "optree", "ring", 100, 1 << 20, np);
        char why[512] = "";
        FILE *f = tmpfile();
        CHECK(f != NULL, "tmpfile");
        const uint64_t before = oc__netset_parses();
        int rc = f ? oc_export_json(&req, f, why, sizeof why) : -1;
        const uint64_t parses = oc__netset_parses() - before;
        CHECK(rc == 0 && f && ftell(f) > 0, "export optree: %s", why);
        if (f) fclose(f);
        CHECK(parses == 1, "export optree on the ring: settings parsed %llu times",
              (unsigned long long)parses);
        oc_kv_free(np);
    }
    /* the physical bound alone */
    {
        oc_kv *np = kv_of("ports=8");
        oc_request req = request(OC_ALLREDUCE, NULL, "fattree", 100, 1 << 20, np);
        oc_physical_bound_info b;
        char why[512] = "";
        const uint64_t before = oc__netset_parses();
        int rc = oc_physical_bound(&req, &b, why, sizeof why);
        CHECK(rc == 0 && b.steps > 0, "physical bound: %s", why);
        CHECK(oc__netset_parses() - before == 1, "physical bound: settings parsed %llu times",
              (unsigned long long)(oc__netset_parses() - before));
        oc_kv_free(np);
    }
    /* a bad setting is still refused, with the model's reason */
    {
        oc_kv *np = kv_of("wavelengths=0");
        oc_request req = request(OC_ALLGATHER, "optree", "ring", 12, 1 << 20, np);
        oc_report *rep = NULL;
        char why[512] = "";
        int rc = oc_run(&req, &rep, why, sizeof why);
        CHECK(rc < 0 && !rep && strstr(why, "wavelengths"), "wavelengths=0: %d %s", rc, why);
        oc_kv_free(np);
    }
    return CHECK_SUMMARY();
}
