/*
 * reproduce_optima.c — `opticoll reproduce optima`: proven optima of small instances (src/synth,
 * issue 26 item 3) beside the best the registered algorithms reach there.
 *
 * Each row is one instance: the fewest steps `synth` finds and proves with the z3 solver (UNSAT
 * at one step less; the schedule verified and mapped by the pipeline), and every algorithm of the
 * collective that runs on the network, run through the pipeline with its parameter search on the
 * step objective (oc_compare): the fewest steps any of them maps to, which ones reach it, and which
 * reach the optimum. No number here is typed in: every cell is computed when the table is printed.
 * The instances are ones the solver settles in seconds on this machine (docs/synth.md lists the
 * whole range with its times); the table takes about half a minute. Columns are one table line
 * each (`columns` below). The physical bound (src/bounds: what every schedule on the network
 * needs) stands beside the optimum; a bound above a proven optimum would be a wrong bound, so the
 * table refuses to print one (the test reproduce_optima runs it).
 */
#include "reproduce/reproduce_common.h"
#include "synth/synth.h"

#include <stdio.h>
#include <string.h>

typedef struct instance {
    oc_collective coll;
    const char *network;
    uint32_t nodes;
    const char *net; /* network parameters, "key=value ..." */
} instance;

static const instance instances[] = {
    {OC_ALLGATHER, "ring", 5, "wavelengths=1"},
    {OC_ALLGATHER, "ring", 7, "wavelengths=1"},
    {OC_ALLGATHER, "ring", 8, "wavelengths=1"},
    {OC_ALLGATHER, "ring", 8, "wavelengths=3"},
    {OC_ALLGATHER, "ring", 10, "wavelengths=1"},
    {OC_ALLGATHER, "ring", 5, "wavelengths=2"},
    {OC_ALLREDUCE, "ring", 4, "wavelengths=1"},
    {OC_ALLREDUCE, "ring", 6, "wavelengths=1"},
    {OC_ALLREDUCE, "ring", 8, "wavelengths=1"},
    {OC_BROADCAST, "star", 9, "k=1"},
    {OC_BROADCAST, "star", 9, "k=3"},
    {OC_GOSSIP, "star", 6, "k=2"},
    {OC_GOSSIP, "star", 9, "k=3"},
};
enum { NINST = sizeof instances / sizeof instances[0], TIME_LIMIT_S = 60 };

/* What a row's cells are computed from. */
typedef struct row {
    const instance *in;
    oc_synth_info syn;
    uint64_t bound;       /* the physical bound's steps */
    uint64_t best;        /* the fewest steps of any algorithm; UINT64_MAX: none ran */
    char best_algos[160]; /* the algorithms that reach it */
    char optimal_algos[160];
} row;

static void cell_instance(const row *r, char *buf, size_t len) {
    const char *eq = strchr(r->in->net, '=');
    oc__cellf(buf, len, "%s %s %s=%u %c=%s", oc_collective_name(r->in->coll), r->in->network,
              strcmp(r->in->network, "star") ? "N" : "P", r->in->nodes, r->in->net[0],
              eq ? eq + 1 : "");
}

static void cell_optimum(const row *r, char *buf, size_t len) {
    if (r->syn.optimal)
        oc__cellf(buf, len, "%llu", (unsigned long long)r->syn.upper);
    else if (r->syn.found)
        oc__cellf(buf, len, "%llu..%llu (not proven)", (unsigned long long)r->syn.lower,
                  (unsigned long long)r->syn.upper);
    else
        oc__cellf(buf, len, ">= %llu (not proven)", (unsigned long long)r->syn.lower);
}

static void cell_bound(const row *r, char *buf, size_t len) {
    oc__cellf(buf, len, "%llu", (unsigned long long)r->bound);
}

static void cell_solve(const row *r, char *buf, size_t len) {
    oc__cellf(buf, len, "%.1f s", r->syn.solve_s);
}

static void cell_best(const row *r, char *buf, size_t len) {
    if (r->best == UINT64_MAX)
        oc__cellf(buf, len, "-");
    else
        oc__cellf(buf, len, "%llu: %s", (unsigned long long)r->best, r->best_algos);
}

static void cell_ratio(const row *r, char *buf, size_t len) {
    if (r->best == UINT64_MAX || !r->syn.optimal || !r->syn.upper)
        oc__cellf(buf, len, "-");
    else
        oc__cellf(buf, len, "%.2f x", (double)r->best / (double)r->syn.upper);
}

static void cell_optimal_algos(const row *r, char *buf, size_t len) {
    oc__cellf(buf, len, "%s", r->optimal_algos[0] ? r->optimal_algos : "none");
}

static const struct column {
    const char *head;
    void (*cell)(const row *r, char *buf, size_t len);
} columns[] = {
    {"instance", cell_instance}, {"optimum", cell_optimum},
    {"bound", cell_bound},       {"solver", cell_solve},      {"best algorithm", cell_best},
    {"best/opt", cell_ratio},    {"algorithms at the optimum", cell_optimal_algos},
};
enum { NCOLS = sizeof columns / sizeof columns[0] };

static int kv_from_text(const char *text, oc_kv **out) {
    oc_kv *kv = oc_kv_new();
    char copy[64];
    snprintf(copy, sizeof copy, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); kv && tok; tok = strtok_r(NULL, " ", &save))
        if (oc_kv_set_pair(kv, tok)) {
            oc_kv_free(kv);
            kv = NULL;
        }
    *out = kv;
    return kv ? 0 : OC_ENOMEM;
}

/* The algorithms' side of row r: every algorithm of the collective on the network, searched for
 * the fewest steps. */
static int algorithms(row *r, const oc_kv *net, char *why, size_t len) {
    oc_request req = {.collective = r->in->coll,
                      .network = r->in->network,
                      .nodes = r->in->nodes,
                      .bytes = 1u << 20,
                      .net_params = net,
                      .skip_data_check = 1,
                      .objective = OC_OBJECTIVE_STEPS};
    oc_physical_bound_info pb;
    int rc = oc_physical_bound(&req, &pb, why, len);
    if (rc) return rc;
    r->bound = pb.steps;
    if (r->syn.lower && pb.steps > r->syn.lower)
        return oc__fail(why, len, OC_EINVAL,
                        "the physical bound of %s on %s, %u nodes (%llu steps, %s) is above what "
                        "synth proved (%llu): a wrong bound",
                        oc_collective_name(r->in->coll), r->in->network, r->in->nodes,
                        (unsigned long long)pb.steps, pb.steps_argument,
                        (unsigned long long)r->syn.lower);
    oc_compare_result res;
    rc = oc_compare(&req, NULL, 0, NULL, &res, why, len);
    if (rc) return rc;
    r->best = UINT64_MAX;
    for (size_t k = 0; k < res.nrun; k++)
        if (res.runs[k].report->steps < r->best) r->best = res.runs[k].report->steps;
    for (size_t k = 0; k < res.nrun; k++) {
        const oc_report *rep = res.runs[k].report;
        if (rep->steps == r->best)
            oc__reason_add(r->best_algos, sizeof r->best_algos, "%s", rep->algorithm);
        if (r->syn.optimal && rep->steps == r->syn.upper)
            oc__reason_add(r->optimal_algos, sizeof r->optimal_algos, "%s", rep->algorithm);
    }
    oc_compare_result_free(&res);
    return 0;
}

int oc__reproduce_optima(oc__repro *rp, FILE *f, char *why, size_t len) {
    (void)rp;
    const char *head[NCOLS];
    for (size_t c = 0; c < NCOLS; c++)
        head[c] = columns[c].head;
    oc__table t;
    oc__table_init(&t, NCOLS, head);
    int rc = 0;
    for (size_t i = 0; i < NINST && !rc; i++) {
        row r;
        memset(&r, 0, sizeof r);
        r.in = &instances[i];
        oc_kv *net = NULL;
        if (kv_from_text(r.in->net, &net)) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            break;
        }
        oc_synth_spec spec = {.collective = r.in->coll,
                              .network = r.in->network,
                              .nodes = r.in->nodes,
                              .net_params = net,
                              .time_limit_s = TIME_LIMIT_S};
        oc_synth_result *syn = NULL;
        rc = oc_synth(&spec, &syn, why, len);
        if (!rc) {
            oc_synth_get(syn, &r.syn);
            rc = algorithms(&r, net, why, len);
        }
        char cells[NCOLS][192];
        const char *ptrs[NCOLS];
        for (size_t c = 0; !rc && c < NCOLS; c++) {
            columns[c].cell(&r, cells[c], sizeof cells[c]);
            ptrs[c] = cells[c];
        }
        if (!rc && oc__table_row(&t, ptrs)) rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        oc_synth_free(syn);
        oc_kv_free(net);
    }
    if (!rc) {
        fputs(
            "Proven optima of small instances in steps (opticoll synth: z3, UNSAT at one step\n"
            "less; the schedule verified and mapped) against every algorithm of the collective\n"
            "on the network, each searched for its fewest steps (best algorithm: its steps and\n"
            "the algorithms that reach them). bound: the physical bound, the steps every\n"
            "schedule on the network needs (src/bounds). w: wavelengths per fibre (one fibre a\n"
            "direction); k: wavelengths a processor sends and receives on. A 1 MiB payload; the\n"
            "steps do not depend on it. All-reduce optima are among schedules whose rounds each\n"
            "take one step (docs/synth.md, \"What the proof covers\").\n\n",
            f);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}
