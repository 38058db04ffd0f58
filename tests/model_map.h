/*
 * model_map.h — what the network models' tests share: map hand-made rounds on one model, run a
 * collective on a network through the public pipeline, and read the report's figures. Include
 * after check.h, net/net.h and report/report.h (or core/result.h). The helpers are static inline,
 * so a test that uses only some of them compiles without unused-function warnings.
 */
#ifndef OC_TESTS_MODEL_MAP_H
#define OC_TESTS_MODEL_MAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static inline int close_to(double a, double b) {
    return fabs(a - b) <= 1e-12 * fabs(b) + 1e-18;
}

static inline double num(const oc_report *rep, const char *key) {
    double v = NAN;
    oc_report_number(rep, key, &v);
    return v;
}

/* Adds the "key=value" words of text (separated by any of the characters of seps; NULL text:
 * none) to kv, a later word overriding an earlier one of the same key. */
static inline void kv_add_words(oc_kv *kv, const char *text, const char *seps) {
    char buf[256], *save = NULL;
    if (!text) return;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = strtok_r(buf, seps, &save); p; p = strtok_r(NULL, seps, &save))
        oc_kv_set_pair(kv, p);
}

/* Runs one collective through the public pipeline (oc_run: generated, verified, mapped,
 * checked) on network `net` (NULL: the default): the algorithm's pins and the network's
 * parameters as "key=value key=value" words (NULL: none). */
static inline oc_report *run_words(const char *net, oc_collective coll, const char *algo,
                                   uint32_t N, uint64_t bytes, const char *params,
                                   const char *net_params, int data_check, int *err, char *why,
                                   size_t len) {
    oc_kv *kv = oc_kv_new(), *nkv = oc_kv_new();
    kv_add_words(kv, params, " ");
    kv_add_words(nkv, net_params, " ");
    oc_report *rep = NULL;
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = net,
                      .nodes = N,
                      .bytes = bytes,
                      .params = kv,
                      .net_params = nkv,
                      .skip_data_check = !data_check};
    *err = oc_run(&req, &rep, why, len);
    oc_kv_free(kv);
    oc_kv_free(nkv);
    return rep;
}

/* Maps hand-made rounds (chunks of `bytes` each) of collective `coll` (its chunk labels: an
 * all-to-all's N^2 fit up to 65535 nodes, an all-gather's N any N) on N nodes of `model`, with
 * optional network parameters "key=value key=value" (NULL: none); NULL and *err set when the
 * model refuses. */
static inline oc_report *map_coll_on(const oc__model *model, oc_collective coll, uint32_t N,
                                     uint64_t bytes, const char *net, const oc__round *r, size_t nr,
                                     int *err, char *why, size_t len) {
    oc__spec spec;
    oc_report *rep = NULL;
    oc__netrun *run = NULL;
    oc_kv *kv = oc_kv_new();
    *err = oc__spec_init(&spec, coll, N, 0, bytes, 1, why, len);
    if (*err) goto out;
    kv_add_words(kv, net, " ");
    *err = oc__model_create(model, &spec, kv, 1, &run, why, len);
    if (*err) goto out;
    oc__sink *sink = model->sink(run);
    for (size_t i = 0; i < nr && !*err; i++)
        *err = sink->round(sink, i, &r[i], why, len);
    if (*err) goto out;
    rep = oc__report_new();
    *err = model->finish(run, rep, why, len);
    if (*err) {
        oc_report_free(rep);
        rep = NULL;
    }
out:
    if (run) model->destroy(run);
    oc__spec_free(&spec);
    oc_kv_free(kv);
    return rep;
}

/* map_coll_on with an all-to-all's chunk labels. */
static inline oc_report *map_on(const oc__model *model, uint32_t N, uint64_t bytes, const char *net,
                                const oc__round *r, size_t nr, int *err, char *why, size_t len) {
    return map_coll_on(model, OC_ALLTOALL, N, bytes, net, r, nr, err, why, len);
}

/* run_words with a real-data check and at most one algorithm parameter and one network
 * parameter, each "key=value" (NULL: none). */
static inline oc_report *run_net(const char *net, oc_collective coll, const char *algo, uint32_t N,
                                 uint64_t bytes, const char *param, const char *netparam, int *err,
                                 char *why, size_t len) {
    return run_words(net, coll, algo, N, bytes, param, netparam, 1, err, why, len);
}

/* MPICH's fold: the largest power P = r^k <= N in *P; returns k. */
static inline uint32_t fold_pow(uint32_t N, uint32_t r, uint32_t *P) {
    uint32_t k = 0;
    for (*P = 1; *P * r <= N; *P *= r)
        k++;
    return k;
}

/* ceil(log_r N): the stages of a radix-r tree over N nodes. */
static inline uint32_t log_r(uint32_t N, uint32_t r) {
    uint32_t k = 0;
    for (uint64_t p = 1; p < N; p *= r)
        k++;
    return k;
}

#endif
