/*
 * run_time.h — the time of one run made here, through oc_run, for the tests that recompute a
 * reproduction's cell from runs of their own (test_repro_wrht.c, test_repro_optree.c): the
 * algorithm's parameters and the network's settings written as `run -p` and `--net` take them,
 * space-separated KEY=VALUE words ("" for none). Symbolic verification only (the reproductions'
 * own runs skip the real-data run too).
 */
#ifndef OC_TESTS_RUN_TIME_H
#define OC_TESTS_RUN_TIME_H

#include <opticoll.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Sets every KEY=VALUE word of `words` in kv; 0, or OC_EINVAL/OC_ENOMEM (a word too long). */
static inline int run_time_words(oc_kv *kv, const char *words) {
    char b[256], *save = NULL;
    if (!kv || strlen(words) >= sizeof b) return OC_ENOMEM;
    snprintf(b, sizeof b, "%s", words);
    for (char *t = strtok_r(b, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        int rc = oc_kv_set_pair(kv, t);
        if (rc) return rc;
    }
    return 0;
}

/* The time of collective c by `algo` on `network` at N nodes and `bytes`; NAN when the run
 * fails, with its reason in why. */
static inline double run_time(oc_collective c, const char *algo, const char *network, uint32_t N,
                              uint64_t bytes, const char *params, const char *netw, char *why,
                              size_t len) {
    oc_kv *par = oc_kv_new(), *net = oc_kv_new();
    double t = NAN;
    snprintf(why, len, "bad parameters '%s' or network settings '%s'", params, netw);
    if (!run_time_words(par, params) && !run_time_words(net, netw)) {
        oc_request req = {.collective = c,
                          .algorithm = algo,
                          .network = network,
                          .nodes = N,
                          .bytes = bytes,
                          .params = par,
                          .net_params = net,
                          .skip_data_check = 1};
        oc_report *rep = NULL;
        why[0] = '\0';
        if (oc_run(&req, &rep, why, len) == 0) t = oc_report_time(rep);
        oc_report_free(rep);
    }
    oc_kv_free(par);
    oc_kv_free(net);
    return t;
}

#endif
