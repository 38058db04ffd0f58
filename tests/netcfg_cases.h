/*
 * netcfg_cases.h — the grid of runs test_netcfg.c compares with the results the code gave before
 * the network's settings were handed to the algorithms typed (core/netcfg.h), when the all-to-all
 * algorithms still read them back from the run's report: every all-to-all algorithm of the
 * all-to-all-scatter notes on its direct networks (hypercube, torus, mesh), on non-square dims
 * (3x5, 5x3, 7x2, 2x7, 3x4 ...) under non-default switching, ports, duplex, combining, t_s, t_m,
 * t_d and packet size, every parameter pinned (no search, so the notes are the model's and the
 * formula's alone), at an odd and an even size.
 *
 * A case's result is one line (nc_result): the run's return code, the closed forms (steps, time),
 * the figures the closed forms write and the notes, the doubles as %.17g so that a difference in
 * the last bit shows.
 */
#ifndef OC_TESTS_NETCFG_CASES_H
#define OC_TESTS_NETCFG_CASES_H

#include "core/result.h"
#include "opticoll.h"

#include <stdio.h>
#include <string.h>

typedef struct nc_case {
    const char *algo, *net;
    uint32_t nodes;
    uint64_t bytes;
    char net_params[160]; /* "k=v k=v" */
    char params[48];      /* "k=v" or "" */
} nc_case;

/* The direct networks' settings the grid crosses with every shape: the defaults, then one or
 * more parameters away from them. */
static const char *const nc_settings[] = {
    "",
    "switching=wh td_us=0.3",
    "ts_us=2.5 tm_ns=0.7",
    "ports=all duplex=half",
    "combining=no mu=64",
    "switching=wh ports=all ts_us=0.25 tm_ns=3 td_us=0.125 duplex=half",
};
enum { NC_SETTINGS = sizeof nc_settings / sizeof nc_settings[0] };

static size_t nc_add(nc_case *out, size_t n, size_t cap, const char *algo, const char *net,
                     uint32_t nodes, uint64_t bytes, const char *shape, const char *setting,
                     const char *params) {
    if (n < cap) {
        nc_case *c = &out[n];
        c->algo = algo;
        c->net = net;
        c->nodes = nodes;
        c->bytes = bytes;
        snprintf(c->net_params, sizeof c->net_params, "%s%s%s", shape,
                 *shape && *setting ? " " : "", setting);
        snprintf(c->params, sizeof c->params, "%s", params);
    }
    return n + 1;
}

/* Fills out[0..cap) and returns the number of cases (call with cap 0 to count). */
static size_t nc_cases(nc_case *out, size_t cap) {
    static const struct {
        const char *algo, *net;
        uint32_t nodes;
        const char *shape, *params;
    } runs[] = {
        {"cartesian", "torus", 15, "dims=3x5", "dims=3x5"},
        {"cartesian", "torus", 15, "dims=5x3", "dims=5x3"},
        {"cartesian", "torus", 14, "dims=7x2", "dims=7x2"},
        {"cartesian", "torus", 14, "dims=2x7", "dims=2x7"},
        {"cartesian", "torus", 12, "dims=3x4", "dims=3x4"},
        {"cartesian", "torus", 15, "dims=3x5", "dims=5x3"}, /* planned for other dims */
        {"cartesian", "torus", 14, "dims=2x7", "dims=7x2"},
        {"cartesian", "torus", 5, "dims=5", "dims=5x1"},
        {"pipeline", "torus", 5, "", "directions=1"},
        {"pipeline", "torus", 7, "dims=7", "directions=2"},
        {"pipeline", "torus", 12, "", "directions=1"},
        {"pipeline", "torus", 12, "", "directions=2"},
        {"dex-torus", "torus", 7, "", ""},
        {"dex-torus", "torus", 12, "", ""},
        {"dex", "torus", 8, "", ""},
        {"dex", "mesh", 8, "dims=4x2", ""},
        {"dex", "hypercube", 8, "", ""},
        {"sex", "hypercube", 2, "", ""},
        {"sex", "hypercube", 8, "dim=3", ""},
        {"hypercube-opt", "hypercube", 8, "", ""},
        {"hypercube-opt", "hypercube", 16, "", ""},
        {"bex", "mesh", 8, "dims=4x2", "dims=4x2"},
        {"bex", "mesh", 16, "dims=2x8", "dims=2x8"},
        {"bex", "mesh", 16, "dims=4x4", "dims=8x2"}, /* planned for another mesh */
        {"qex", "mesh", 16, "dims=4x4", "dims=4x4"},
        {"qex", "mesh", 16, "dims=8x2", "dims=4x4"},
    };
    static const uint64_t sizes[] = {7, 1000};
    size_t n = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (size_t s = 0; s < NC_SETTINGS; s++)
            for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++)
                n = nc_add(out, n, cap, runs[r].algo, runs[r].net, runs[r].nodes, sizes[b],
                           runs[r].shape, nc_settings[s], runs[r].params);
    /* Not a direct network: hypercube-opt's closed form from the model's step instead. */
    n = nc_add(out, n, cap, "hypercube-opt", "switch", 8, 1000, "", "", "");
    n = nc_add(out, n, cap, "bex", "switch", 16, 1000, "", "", "dims=4x4");
    return n;
}

/* "k=v k=v" into kv (0, or -1 on a malformed pair or no memory). */
static int nc_kv(const char *text, oc_kv *kv) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (oc_kv_set_pair(kv, tok)) return -1;
    return 0;
}

/* Runs one case and writes its result line into line[len]; 0, or -1 when the test itself failed
 * (no memory, a malformed case). */
static int nc_result(const nc_case *c, char *line, size_t len) {
    static const char *const formula_figures[] = {"exact_time_s", "time_closed_form_s",
                                                  "notes_simplified_time_s", NULL};
    oc_kv *par = oc_kv_new(), *np = oc_kv_new();
    int rc = -1;
    oc_report *rep = NULL;
    char why[512] = "";
    if (!par || !np || nc_kv(c->params, par) || nc_kv(c->net_params, np)) goto out;
    oc_request req = {.collective = OC_ALLTOALL,
                      .algorithm = c->algo,
                      .network = c->net,
                      .nodes = c->nodes,
                      .bytes = c->bytes,
                      .params = par,
                      .net_params = np};
    const int run = oc_run(&req, &rep, why, sizeof why);
    int at = snprintf(line, len, "rc=%d", run);
    if (!run) {
        at += snprintf(line + at, len - (size_t)at, " steps=%.17g time=%.17g",
                       rep->has_formula ? rep->steps_formula : -1.0,
                       rep->has_time_formula ? rep->time_formula_s : -1.0);
        for (size_t i = 0; i < rep->nnums; i++)
            for (size_t k = 0; formula_figures[k]; k++)
                if (strcmp(rep->nums[i].key, formula_figures[k]) == 0 && (size_t)at < len)
                    at += snprintf(line + at, len - (size_t)at, " %s=%.17g", rep->nums[i].key,
                                   rep->nums[i].value);
        for (size_t i = 0; i < rep->nnotes && (size_t)at < len; i++)
            at += snprintf(line + at, len - (size_t)at, " | %s", rep->notes[i]);
    }
    rc = (size_t)at < len ? 0 : -1;
out:
    oc_report_free(rep);
    oc_kv_free(par);
    oc_kv_free(np);
    return rc;
}

#endif
