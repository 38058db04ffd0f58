/*
 * reproduce_wrht_data.c — `reproduce wrht`'s facts and bookkeeping: the numbers the WRHT paper
 * prints (the only place they live), its formulas evaluated (Table I's step counts, the WRHT rule
 * of III.C-D, Lemma 1), the list of runs handed to the batch (one entry per distinct run), the
 * DNN models of IV.A read from the models file, and the algorithms each figure shows. No output
 * is written here (reproduce_wrht.h lists the files).
 */
#include "reproduce/reproduce_wrht.h"

const wrht_printed oc__rwrht_paper = {
    .t1_nodes = 1000,
    .t1_wavelengths = 64,
    .t1_hring_g = 5,
    .t1_ring = 1998,
    .t1_hring = 411,
    .t1_bt = 20,
    .t1_wrht = 4,
    .ex_nodes = 15,
    .ex_wavelengths = 2,
    .ex_groups = 3,
    .ex_bt = 8,
    .ex_wrht = 3,
    .models = {{"AlexNet", "62.3M", UINT64_C(62300000), 512},
               {"VGG16", "138M", UINT64_C(138000000), 48},
               {"ResNet50", "25M", UINT64_C(25000000), 1024},
               {"GoogLeNet", "6.7977M", UINT64_C(6797700), 64}},
    .normaliser = "GoogLeNet",
    .opt_topology = "double ring",
    .el_topology = "two-level",
    .el_routing = "shortest-path routing",
    .opt_fibre_rings = 4,
    .opt_wavelengths = 64,
    .opt_gbps = 40,
    .opt_reconfig_us = 25,
    .opt_oeo_cycles_per_flit = 1,
    .opt_packet_bytes = 128,
    .opt_flit_bytes = 32,
    .el_ports = 32,
    .el_gbps = 25,
    .el_router_delay_us = 50,
    .el_packet_bytes = 64,
    .fig4_nodes = {1024, 2048, 3072, 4096},
    .fig5_nodes = {128, 256, 512, 1024},
    .vs_ring = 75.59,
    .vs_hring = 49.25,
    .vs_bt = 70.1,
    .vs_ering = 86.69,
    .vs_erd = 84.71,
    .oring_vs_ering = 74.74,
};

/* ---- the paper's formulas, evaluated --------------------------------------------------------- */

/* ceil(log_b n) in whole numbers: the least L with b^L >= n (0 for n <= 1). */
static uint32_t ceil_log(uint64_t n, uint64_t b) {
    uint32_t L = 0;
    for (uint64_t x = 1; x < n; x *= b)
        L++;
    return L;
}

/* Ring: 2(N - 1) (III.D). */
double oc__rwrht_f_ring(uint32_t N) {
    return 2.0 * (N - 1.0);
}

/* H-Ring: 2(g^2 + N)/g + ceil(g/w) - 4 (III.D, Table I). */
double oc__rwrht_f_hring(uint32_t N, uint32_t g, uint32_t w) {
    return 2.0 * ((double)g * g + N) / g + ceil((double)g / w) - 4;
}

/* Our count for H-Ring on the ring model, where a step moves one chunk (1/N of the vector) per
 * wavelength: 2(g-1) intra-group rounds whose transfers carry N/g chunks over one link, and
 * 2(N/g - 1) inter-group rounds in which the g rings share every link once. */
double oc__rwrht_our_hring(uint32_t N, uint32_t g, uint32_t w) {
    return 2.0 * (g - 1) * ceil((double)N / g / w) + 2.0 * (N / g - 1.0) * ceil((double)g / w);
}

/* BT: 2 ceil(log2 N) (III.D; Table I adds "or 2(ceil(log2 N) + 1)"). */
double oc__rwrht_f_bt(uint32_t N) {
    return 2.0 * ceil_log(N, 2);
}

wrht_rule oc__rwrht_f_wrht(uint32_t N, uint32_t m, uint32_t w) {
    wrht_rule r = {.m = m, .L = ceil_log(N, m)};
    uint64_t below = 1;
    for (uint32_t i = 1; i < r.L; i++)
        below *= m;
    r.mstar = r.L ? oc__ceil_div(N, below) : 1;
    r.a2a_wl = oc__ceil_div(r.mstar * r.mstar, 8);
    r.group_wl = oc__ceil_div(m, 2);
    r.a2a = r.mstar > 1 && r.a2a_wl <= w;
    r.steps = 2.0 * r.L - (r.a2a ? 1 : 0);
    return r;
}

/* Lemma 1: 2 ceil(log_(2w+1) N). */
double oc__rwrht_f_lemma1(uint32_t N, uint32_t w) {
    return 2.0 * ceil_log(N, 2 * (uint64_t)w + 1);
}

/* The seed's group size: 2w + 1 (Lemma 1), or the whole ring when it has fewer nodes. */
uint32_t oc__rwrht_seed_m(uint32_t N, uint32_t w) {
    return 2 * w + 1 < N ? 2 * w + 1 : (N > 1 ? N : 2);
}

/* The parameters that run the seed's WRHT: m, the all-to-all rule, one piece (no striping). */
void oc__rwrht_seed_wrht_params(char *buf, size_t len, uint32_t N, uint32_t m, uint32_t w) {
    wrht_rule r = oc__rwrht_f_wrht(N, m, w);
    oc__cellf(buf, len, "m=%" PRIu32 " alltoall=%" PRIu64 " pieces=1 rep=middle", m,
              r.a2a ? r.mstar : 1);
}

/* Adds a run (or finds the identical one already listed) and gives its index. */
int oc__rwrht_job_add(jobs *J, oc_collective coll, const char *algo, const char *network,
                      uint32_t N, uint64_t bytes, const char *params, const char *net,
                      int data_check, size_t *at) {
    oc__sim_req q = {.coll = coll,
                     .algo = algo,
                     .network = network,
                     .nodes = N,
                     .bytes = bytes,
                     .data_check = data_check};
    oc__cellf(q.params, sizeof q.params, "%s", params ? params : "");
    oc__cellf(q.net, sizeof q.net, "%s", net ? net : "");
    for (size_t i = 0; i < J->n; i++) {
        const oc__sim_req *o = &J->v[i].req;
        if (o->coll == q.coll && !strcmp(o->algo, q.algo) && !strcmp(o->network, q.network) &&
            o->nodes == q.nodes && o->bytes == q.bytes && !strcmp(o->params, q.params) &&
            !strcmp(o->net, q.net) && o->data_check == q.data_check) {
            *at = i;
            return 0;
        }
    }
    if (oc__grow((void **)&J->v, &J->cap, J->n + 1, sizeof *J->v)) return OC_ENOMEM;
    memset(&J->v[J->n], 0, sizeof J->v[J->n]);
    J->v[J->n].req = q;
    J->v[J->n].keep = 1;
    *at = J->n++;
    return 0;
}

void oc__rwrht_jobs_free(jobs *J) {
    for (size_t i = 0; i < J->n; i++)
        oc_report_free(J->v[i].report);
    free(J->v);
    J->v = NULL;
    J->n = J->cap = 0;
}

const oc__sim *oc__rwrht_sim_of(const jobs *J, size_t i) {
    return i == NONE ? NULL : &J->v[i].sim;
}

const oc_report *oc__rwrht_rep_of(const jobs *J, size_t i) {
    return i == NONE ? NULL : J->v[i].report;
}

/* The parameters a run used, as "g=32" or "m=129 alltoall=8 pieces=1". */
void oc__rwrht_used_text(char *buf, size_t len, const jobs *J, size_t i) {
    const oc_report *r = oc__rwrht_rep_of(J, i);
    buf[0] = 0;
    if (r) oc__kv_text(buf, len, oc_report_params(r));
}

uint32_t oc__rwrht_used_u32(const jobs *J, size_t i, const char *key) {
    const oc_report *r = oc__rwrht_rep_of(J, i);
    const char *v = r ? oc_report_param(r, key) : NULL;
    return v ? (uint32_t)strtoul(v, NULL, 10) : 0;
}

/* The four DNN models of IV.A from the models file; the normaliser is GoogLeNet (IV.B). */
int oc__rwrht_read_models(wmodel *out, size_t *nm, size_t *norm, char *why, size_t whylen) {
    oc_model *all = NULL;
    size_t count = 0;
    int rc = oc_models_read(NULL, oc__models_default(), &all, &count, why, whylen);
    if (rc) return rc;
    *nm = PAPER_MODELS;
    *norm = PAPER_MODELS;
    for (size_t i = 0; i < PAPER_MODELS && !rc; i++) {
        const wrht_model_printed *p = &oc__rwrht_paper.models[i];
        const oc_model *m = oc_model_find(all, count, p->name);
        if (!m) {
            rc = oc__fail(why, whylen, OC_ENOENT,
                          "reproduce wrht: %s has no model '%s' (the seed's IV.A)",
                          oc__models_default(), OC_Q(p->name));
            break;
        }
        out[i].printed = p;
        oc__cellf(out[i].name, sizeof out[i].name, "%s", p->name);
        out[i].file = *m;
        out[i].file.name = out[i].file.note = NULL; /* they go with `all`: the numbers are kept */
        out[i].bytes = m->parameters * OC_GRADIENT_BYTES_PER_PARAMETER;
        if (!strcmp(p->name, oc__rwrht_paper.normaliser)) *norm = i;
    }
    oc_models_free(all);
    if (!rc && *norm == PAPER_MODELS)
        rc = oc__fail(why, whylen, OC_EINVAL, "reproduce wrht: the normaliser is not a model");
    return rc;
}

/* --sizes: each size in place of a model's gradient, in increasing order. The paper normalises
 * by GoogLeNet, the smallest of its four gradients, so the smallest size is the normaliser. */
int oc__rwrht_read_sizes(wmodel *out, size_t *nm, size_t *norm, const char *text, char *why,
                         size_t whylen) {
    uint64_t v[MAX_MODELS];
    int rc = oc__repro_sizes("wrht", text, v, MAX_MODELS, nm, why, whylen);
    if (rc) return rc;
    for (size_t i = 0; i < *nm; i++) {
        memset(&out[i], 0, sizeof out[i]);
        oc__cellf(out[i].name, sizeof out[i].name, "%" PRIu64 " B", v[i]);
        out[i].bytes = v[i];
    }
    *norm = 0;
    return 0;
}

const fig_algo oc__rwrht_fig4_algos[FIG_ALGOS] = {
    {"Ring", "ring", "ring", F_RING, 1, "IV.B: \"a linear rise with the cluster scales\"",
     TR_LINEAR, ORD_NONE, NULL, NULL, 0, 0},
    {"H-Ring", "hring", "ring", F_HRING, 1, "IV.B: an increasing trend, \"relatively slow\"",
     TR_SLOW, ORD_NONE, NULL, NULL, 0, 0},
    {"BT", "bt", "ring", F_BT, 1, "IV.B: \"a slight increase\"", TR_SLIGHT, ORD_HIGHEST, "VGG16",
     "in VGG16 \"the worst among all-reduce algorithms regardless of the number of nodes\"", 0, 0},
    {"WRHT", "wrht", "ring", F_WRHT, 1, "IV.B: \"keeps almost constant\"", TR_CONSTANT, ORD_LOWEST,
     NULL, "\"the lowest regardless of DNN models\"", 0, 0},
    {"WRHT, our search", "wrht", "ring", F_WRHT_OURS, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL, 0, 0},
    /* The paper's H-Ring setup (g = 5, Table I) under the paper's rule (eq. 1: a step moves a
     * transfer's data on one wavelength): the ring at spread=0. 5 divides none of Fig. 4's N,
     * so g is the divisor of N nearest it. */
    {"H-Ring (g ~ 5, spread=0)", "hring", "ring", F_HRING, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL,
     1, 5},
    {"H-Ring (our g, spread=0)", "hring", "ring", F_HRING, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL,
     1, 0},
};

const fig_algo oc__rwrht_fig5_algos[FIG_ALGOS] = {
    {"O-Ring", "ring", "ring", F_RING, 1, "IV.C: \"an increasing trend when the cluster scales\"",
     TR_INCREASING, ORD_NONE, NULL, NULL, 0, 0},
    {"WRHT", "wrht", "ring", F_WRHT, 1, "IV.C: \"keeps almost constant\"", TR_CONSTANT, ORD_LOWEST,
     NULL, "\"the lowest\"", 0, 0},
    {"E-Ring", "ring", "fattree", F_RING, 1, "IV.C: an increasing trend, the highest",
     TR_INCREASING, ORD_HIGHEST, NULL, "\"the highest\"", 0, 0},
    {"E-RD", "rd", "fattree", F_ERD, 1, "IV.C: an increasing trend, \"a little lower\" than E-Ring",
     TR_INCREASING, ORD_BELOW_E_RING, NULL, "\"a little lower than\" E-Ring", 0, 0},
    {"WRHT, our search", "wrht", "ring", F_WRHT_OURS, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL, 0, 0},
};

const sens_setting oc__rwrht_sens[SENS_ROWS] = {
    {"ours: O/E/O 1 ns per 32 B flit (1 GHz, assumed), F = 1", "", ""},
    {"O/E/O free (0 ns per flit)", "oeo_ns_per_flit=0", ""},
    {"O/E/O at 4 GHz (0.25 ns per flit)", "oeo_ns_per_flit=0.25", ""},
    {"O/E/O at 250 MHz (4 ns per flit)", "oeo_ns_per_flit=4", ""},
    {"F = 2 fibres per direction (TeraRack's four rings)", "fibres=2", ""},
    {"WRHT's representative: each group's first node (rep=first)", "", " rep=first"},
};

/* The ring algorithms re-run per row: Fig. 4's Ring, H-Ring (g ~ 5, spread=0), BT and the seed's
 * WRHT at its first N, and Fig. 5's seed WRHT at its first N (the fat-tree's are the figure's). */
const size_t oc__rwrht_sens_fig4[4] = {0, 5, 2, 3};

const char *oc__rwrht_ring_net(char *buf, size_t len, uint32_t w) {
    oc__cellf(buf, len, "wavelengths=%" PRIu32, w);
    return buf;
}

/* Ring and H-Ring on the ring: N chunks, so the reduction verifier is quadratic in N. Re-costing
 * (steps x one step) needs every step to cost the same, which spread=0 does not give: those runs
 * are always simulated. */
int oc__rwrht_chunked(const fig_algo *a) {
    return !strcmp(a->network, "ring") && (a->kind == F_RING || a->kind == F_HRING) && !a->spread0;
}

/* The divisor of N nearest g (the smaller of two as near): H-Ring's groups must divide N. */
uint32_t oc__rwrht_near_divisor(uint32_t N, uint32_t g) {
    for (uint32_t k = 0; k <= N; k++) {
        if (g > k && N % (g - k) == 0) return g - k;
        if (g + k <= N && N % (g + k) == 0) return g + k;
    }
    return 1;
}

/* Whether (algorithm, N) is re-costed rather than simulated for every model. */
int oc__rwrht_recost(const fig_algo *a, uint32_t N) {
    return N > RECOST_ABOVE && oc__rwrht_chunked(a);
}
