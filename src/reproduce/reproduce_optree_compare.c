/*
 * reproduce_optree_compare.c — `reproduce optree`'s Figs. 5 and 6 (OpTree's reduction of the
 * all-gather time against WRHT, Ring and NE), the headline averages of the abstract and the
 * conclusion with their claims, the orderings, and the sensitivity of the reductions to the
 * numbers we chose (reproduce_optree.h lists the files).
 */
#include "reproduce/reproduce_optree.h"

static const char *const HL_LABEL[HL_ALGOS] = {"OpTree", "WRHT (p = 2w+1)", "WRHT (our m)", "Ring",
                                               "NE"};

/* The claims' baselines (the paper's order: WRHT, Ring, NE) as algorithms of the comparison. */
static const size_t CLAIM_ALGO[3] = {HL_WRHT_OURS, HL_RING, HL_NE};

static size_t cmp_at(size_t nsizes, size_t p, size_t s, size_t a) {
    return (p * nsizes + s) * HL_ALGOS + a;
}

int oc__roptree_comparison_run(const optree_cfg *g, comparison *c, char *why, size_t whylen) {
    c->n = c->npt * g->nsizes * HL_ALGOS;
    c->jobs = calloc(c->n, sizeof *c->jobs);
    oc__sim_job *runnable = calloc(c->n, sizeof *runnable);
    size_t *back = calloc(c->n, sizeof *back);
    int rc = 0;
    if (!c->jobs || !runnable || !back) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    static const char *const algo[HL_ALGOS] = {"optree", "wrht", "wrht", "ring", "ne"};
    size_t m = 0;
    for (size_t p = 0; p < c->npt; p++)
        for (size_t s = 0; s < g->nsizes; s++)
            for (size_t a = 0; a < HL_ALGOS; a++) {
                const uint32_t N = c->N[p], w = c->w[p];
                oc__sim_job *j = &c->jobs[cmp_at(g->nsizes, p, s, a)];
                j->req.coll = OC_ALLGATHER;
                j->req.algo = algo[a];
                j->req.network = "ring";
                j->req.nodes = N;
                j->req.bytes = g->sizes[s];
                j->req.data_check = 0;
                if (a == HL_WRHT_SEED)
                    oc__cellf(j->req.params, sizeof j->req.params, "m=%" PRIu32,
                              2 * w + 1 < N ? 2 * w + 1 : N);
                oc__cellf(j->req.net, sizeof j->req.net, "wavelengths=%" PRIu32 "%s%s", w,
                          c->net_extra && c->net_extra[0] ? " " : "",
                          c->net_extra ? c->net_extra : "");
                j->keep = 1;
                if (a == HL_NE && N % 2) { /* NE pairs neighbours: it needs an even N */
                    oc__cellf(j->sim.note, sizeof j->sim.note, "NE needs an even N");
                    continue;
                }
                back[m] = cmp_at(g->nsizes, p, s, a);
                runnable[m++] = *j;
            }
    rc = oc__sim_batch(runnable, m, why, whylen);
    for (size_t i = 0; i < m; i++) {
        c->jobs[back[i]] = runnable[i];
        if (rc) {
            oc_report_free(runnable[i].report);
            c->jobs[back[i]].report = NULL;
        }
    }
out:
    free(runnable);
    free(back);
    return rc;
}

void oc__roptree_comparison_free(comparison *c) {
    for (size_t i = 0; c->jobs && i < c->n; i++)
        oc_report_free(c->jobs[i].report);
    free(c->jobs);
    c->jobs = NULL;
}

/* The paper's step count for algorithm a at N (NAN when it has none): Theorem 1 at Theorem 2's
 * k* for OpTree, the text's WRHT formula (its all-to-all case when the seed's rule allows one),
 * N - 1 and N/2. */
static double hl_formula(size_t a, uint32_t N, uint32_t w, uint32_t m) {
    switch (a) {
    case HL_OPTREE:
        return oc__roptree_theorem1(N, oc__roptree_theorem2(N), w);
    case HL_WRHT_SEED:
    case HL_WRHT_OURS: {
        if (m < 2) return NAN;
        const wrht_ag r = oc__roptree_wrht_allgather(N, m, w);
        return r.a2a ? r.text_a2a : r.text_plain;
    }
    case HL_RING:
        return N - 1.0;
    case HL_NE:
        return floor(N / 2.0);
    }
    return NAN;
}

/* The means of every algorithm's reduction, 1 - T_OpTree / T_other, over the points run. */
void oc__roptree_comparison_stats(const optree_cfg *g, comparison *c) {
    for (size_t b = HL_WRHT_SEED; b < HL_ALGOS; b++) {
        double mean = 0, fmean = 0, fmean_t1 = 0, lo = INFINITY, hi = -INFINITY;
        size_t k = 0, fk = 0, slower = 0;
        for (size_t p = 0; p < c->npt; p++) {
            const uint32_t N = c->N[p], w = c->w[p];
            for (size_t s = 0; s < g->nsizes; s++) {
                const oc__sim_job *x = &c->jobs[cmp_at(g->nsizes, p, s, HL_OPTREE)],
                                  *y = &c->jobs[cmp_at(g->nsizes, p, s, b)];
                if (!x->sim.ok || !y->sim.ok) continue;
                const double red = 1 - x->sim.time_s / y->sim.time_s;
                mean += red;
                lo = fmin(lo, red);
                hi = fmax(hi, red);
                slower += red <= 0;
                k++;
                if (s) continue; /* the formula does not depend on the size: once per point */
                const char *mm = oc_report_param(y->report, "m");
                const uint32_t mv = mm ? (uint32_t)strtoul(mm, NULL, 10) : 0;
                const double fx = hl_formula(HL_OPTREE, N, w, 0), fy = hl_formula(b, N, w, mv);
                const double sx = oc__report_figure(x->report, "step_time_s"),
                             sy = oc__report_figure(y->report, "step_time_s");
                if (!isnan(fy) && !isnan(sx) && !isnan(sy)) {
                    fmean += 1 - fx * sx / (fy * sy);
                    fk++;
                    if (mv >= 2) /* WRHT by Table I's formula */
                        fmean_t1 +=
                            1 - fx * sx / (oc__roptree_wrht_allgather(N, mv, w).table1 * sy);
                }
            }
        }
        c->mean[b] = k ? mean / (double)k : NAN;
        c->lo[b] = lo;
        c->hi[b] = hi;
        c->k[b] = k;
        c->slower[b] = slower;
        c->fmean[b] = fk ? fmean / (double)fk : NAN;
        c->fmean_t1[b] = fk ? fmean_t1 / (double)fk : NAN;
        c->fk[b] = fk;
    }
}

/* "m = 3 at N = 1024 w = 64, ..." : the group sizes our WRHT search chose at each point. */
static void comparison_wrht_m(const optree_cfg *g, const comparison *c, char *buf, size_t len) {
    buf[0] = 0;
    for (size_t p = 0; p < c->npt; p++) {
        const oc__sim_job *y = &c->jobs[cmp_at(g->nsizes, p, 0, HL_WRHT_OURS)];
        const char *mm = y->report ? oc_report_param(y->report, "m") : NULL;
        if (mm)
            oc__cellf(buf + strlen(buf), len - strlen(buf),
                      "%sm = %s at N = %" PRIu32 ", w = %" PRIu32, buf[0] ? "; " : "", mm, c->N[p],
                      c->w[p]);
    }
}

/* The reason of baseline b's row: every clause is built from the numbers that make it true. */
static void comparison_reason(const optree_cfg *g, const comparison *c, size_t b, char *re,
                              size_t len) {
    const size_t i = b == HL_WRHT_SEED || b == HL_WRHT_OURS ? 0 : b - HL_RING + 1;
    re[0] = 0;
    if (!c->k[b]) {
        oc__reason_add(re, len, "not simulated");
        return;
    }
    if (c->printed && b != HL_WRHT_SEED)
        oc__reason_add(re, len, "ours is %+.2f points from the paper's %.2f%%",
                       100 * c->mean[b] - c->printed[i], c->printed[i]);
    if (c->fk[b] && (b == HL_RING || b == HL_NE))
        oc__reason_add(re, len,
                       "the paper's own step formulas (Theorem 1 at k* against %s) give %.2f%%%s",
                       b == HL_RING ? "N-1" : "N/2", 100 * c->fmean[b],
                       c->printed && fabs(100 * c->fmean[b] - c->printed[i]) < 0.05
                           ? ", which is the paper's number: its average follows its formulas"
                           : "");
    if (b == HL_WRHT_OURS || b == HL_WRHT_SEED) {
        char used[256];
        comparison_wrht_m(g, c, used, sizeof used);
        if (b == HL_WRHT_OURS)
            oc__reason_add(re, len,
                           "our WRHT is our search's (%s); at the seed's group size p = 2w+1 "
                           "ours would be %.2f%% (row \"OpTree vs %s\" of the comparison)",
                           used, 100 * c->mean[HL_WRHT_SEED], HL_LABEL[HL_WRHT_SEED]);
        else
            oc__reason_add(re, len,
                           "at the seed's group size p = 2w+1 WRHT's way down is bound by one "
                           "link (see Table I)");
        if (c->fk[b])
            oc__reason_add(re, len,
                           "by formulas at this row's group sizes: the text's WRHT count %.2f%%, "
                           "Table I's WRHT formula %.2f%%",
                           100 * c->fmean[b], 100 * c->fmean_t1[b]);
    }
    oc__reason_add(re, len, "per point %.1f%% .. %.1f%%", 100 * c->lo[b], 100 * c->hi[b]);
    if (c->slower[b])
        oc__reason_add(re, len, "OpTree is not faster at %zu of the %zu points", c->slower[b],
                       c->k[b]);
}

int oc__roptree_comparison_print(FILE *f, const optree_cfg *g, comparison *c) {
    static const char *const head[] = {"item", "paper (printed)", "formula", "simulated", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0;
    for (size_t b = HL_WRHT_SEED; b < HL_ALGOS && !rc; b++) {
        const size_t i = b == HL_WRHT_SEED || b == HL_WRHT_OURS ? 0 : b - HL_RING + 1;
        char item[OC__CELL_LEN], pr[OC__CELL_LEN] = "—", fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN],
                                 re[OC__REASON_LEN];
        oc__cellf(item, sizeof item, "OpTree vs %s", HL_LABEL[b]);
        if (c->printed && b != HL_WRHT_SEED) oc__cellf(pr, sizeof pr, "%.2f%%", c->printed[i]);
        if (c->fk[b]) oc__cellf(fo, sizeof fo, "%.2f%% (%zu points)", 100 * c->fmean[b], c->fk[b]);
        if (c->k[b])
            oc__cellf(si, sizeof si, "%.2f%% (%zu runs)", 100 * c->mean[b], c->k[b]);
        else
            oc__cellf(si, sizeof si, "not simulated");
        comparison_reason(g, c, b, re, sizeof re);
        for (size_t q = 0; q < 3; q++)
            if (CLAIM_ALGO[q] == b) oc__cellf(c->reason[q], sizeof c->reason[q], "%s", re);
        if (b == HL_WRHT_SEED && c->printed)
            oc__reason_add(re, sizeof re,
                           "the paper does not say which group size its WRHT uses: the "
                           "paper's %.2f%% is set against our m in the next row",
                           c->printed[0]);
        const char *row[] = {item, pr, fo, si, re};
        rc = oc__table_row(&t, row);
    }
    if (!rc) oc__table_print(&t, f);
    oc__table_free(&t);
    if (rc) return OC_ENOMEM;
    /* The figure as the paper draws it: time over message size, normalised by OpTree's first. */
    for (size_t p = 0; p < c->npt; p++) {
        char id[32], title[160];
        oc__cellf(id, sizeof id, "%s-n%" PRIu32 "-w%" PRIu32, c->id, c->N[p], c->w[p]);
        oc__cellf(title, sizeof title,
                  "All-gather time, N = %" PRIu32 ", w = %" PRIu32 " (simulated, verified)",
                  c->N[p], c->w[p]);
        oc__figure(id, title, "message size per node (bytes)", "time / OpTree's at the first size",
                   1, 1,
                   !strcmp(c->id, "fig5")
                       ? "\"Fig. 5\": OpTree, WRHT, Ring and NE at 1024 and 2048 nodes over "
                         "message sizes, normalised by dividing the first result of OpTree"
                       : "\"Fig. 6. Performance comparison of different All-gather algorithms in "
                         "1024-node optical interconnect system with different wavelengths\"");
        const oc__sim_job *first = &c->jobs[cmp_at(g->nsizes, p, 0, HL_OPTREE)];
        for (size_t a = 0; a < HL_ALGOS; a++) {
            double x[MAX_SIZES], y[MAX_SIZES];
            for (size_t s = 0; s < g->nsizes; s++) {
                const oc__sim_job *j = &c->jobs[cmp_at(g->nsizes, p, s, a)];
                x[s] = (double)g->sizes[s];
                y[s] = j->sim.ok && first->sim.ok ? j->sim.time_s / first->sim.time_s : NAN;
            }
            oc__figure_series(HL_LABEL[a], g->nsizes, x, y);
        }
    }
    return 0;
}

/* The sizes line: "1 MiB, 2 MiB, ..." */
void oc__roptree_print_sizes(FILE *f, const optree_cfg *g) {
    for (size_t s = 0; s < g->nsizes; s++) {
        char b[32];
        oc__format_bytes(b, sizeof b, g->sizes[s]);
        fprintf(f, "%s%s", s ? ", " : "", b);
    }
}

/* A reduction the paper prints holds when ours is within this many points of it. */
static const double CLAIM_TOL = 1.0;

/* The claims of one comparison (I, IV.C): the paper's average against WRHT, Ring and NE
 * "under different <what>", ours and the reason of its table row. */
static int comparison_claims(oc__repro *ctx, const comparison *c, const double *printed,
                             const char *what, const char *source) {
    static const char *const NAME[3] = {"WRHT", "Ring", "NE"};
    int rc = 0;
    for (size_t i = 0; i < 3 && !rc; i++) {
        const size_t b = CLAIM_ALGO[i];
        char claim[OC__CELL_LEN], re[OC__REASON_LEN];
        oc__cellf(claim, sizeof claim,
                  "OpTree reduces the all-gather time by %.2f%% against %s under different %s",
                  printed[i], NAME[i], what);
        oc__cellf(re, sizeof re, "%s%s", c->reason[i],
                  c->printed ? "" : "; ours at the reader's settings, not the paper's");
        const double ours = c->k[b] ? 100 * c->mean[b] : NAN;
        /* WRHT's group size is open in the paper: ours at its p = 2w+1 and at our search's m */
        const oc__verdict v =
            b == HL_WRHT_OURS
                ? oc__verdict_setups(printed[i],
                                     c->k[HL_WRHT_SEED] ? 100 * c->mean[HL_WRHT_SEED] : NAN, ours,
                                     CLAIM_TOL)
                : oc__verdict_one(ours, fabs(ours - printed[i]) <= CLAIM_TOL);
        const oc__claim_in in = {.claim = claim,
                                 .source = source,
                                 .unit = "%",
                                 .paper = printed[i],
                                 .decimals = 2,
                                 .ours = ours,
                                 .verdict = v,
                                 .reason = re};
        rc = oc__claim(ctx, &in);
    }
    return rc;
}

/* A comparison's time of algorithm a at point p and size s (NAN: not simulated). */
static double cmp_time(const optree_cfg *g, const comparison *c, size_t p, size_t s, size_t a) {
    const oc__sim_job *j = &c->jobs[cmp_at(g->nsizes, p, s, a)];
    return j->sim.ok ? j->sim.time_s : NAN;
}

/* IV.C's orderings as claims: "OpTree is the lowest" and "Ring is the highest" at every (N or w,
 * size) point of the figure, with the seed's WRHT (p = 2w+1) among the others, and for Fig. 6
 * "the time of WRHT is smaller than Ring but slightly larger than NE when the wavelength is set
 * to 128", under the seed's WRHT and under our search's. */
int oc__roptree_comparison_order_claims(oc__repro *ctx, const optree_cfg *g, const comparison *c,
                                        int fig) {
    static const size_t PAPER4[4] = {HL_OPTREE, HL_WRHT_SEED, HL_RING, HL_NE};
    oc__verdict lowest = {.of = 0}, highest = {.of = 0}, between = {.of = 0};
    for (size_t p = 0; p < c->npt; p++)
        for (size_t s = 0; s < g->nsizes; s++) {
            double t[HL_ALGOS];
            int ok = 1;
            for (size_t a = 0; a < HL_ALGOS; a++)
                t[a] = cmp_time(g, c, p, s, a);
            for (size_t i = 0; i < 4; i++)
                ok &= !isnan(t[PAPER4[i]]);
            if (ok) {
                int lo = 1, hi = 1;
                for (size_t i = 1; i < 4; i++)
                    lo &= t[HL_OPTREE] < t[PAPER4[i]];
                for (size_t i = 0; i < 4; i++)
                    hi &= PAPER4[i] == HL_RING || t[HL_RING] > t[PAPER4[i]];
                lowest.of++;
                lowest.hit += (size_t)lo;
                highest.of++;
                highest.hit += (size_t)hi;
            }
            if (fig == 6 && c->w[p] == 128)
                for (size_t b = HL_WRHT_SEED; b <= HL_WRHT_OURS; b++) {
                    if (isnan(t[b]) || isnan(t[HL_RING]) || isnan(t[HL_NE])) continue;
                    between.of++;
                    between.hit += (size_t)(t[HL_NE] < t[b] && t[b] < t[HL_RING]);
                }
        }
    char src[OC__CELL_LEN], re[OC__REASON_LEN];
    oc__cellf(src, sizeof src, "IV.C; Fig. %d, every (%s, size) point, the seed's WRHT", fig,
              fig == 5 ? "N" : "w");
    int rc = 0;
    const struct {
        const char *claim;
        oc__verdict v;
    } rows[2] = {{"OpTree has the lowest time of OpTree, WRHT, Ring and NE", lowest},
                 {"Ring has the highest time of OpTree, WRHT, Ring and NE", highest}};
    for (int i = 0; i < 2 && !rc; i++) {
        if (!rows[i].v.of) continue;
        char claim[OC__CELL_LEN];
        oc__cellf(claim, sizeof claim, "%s (Fig. %d)", rows[i].claim, fig);
        oc__cellf(re, sizeof re, "%zu of the %zu points", rows[i].v.hit, rows[i].v.of);
        const oc__claim_in in = {.claim = claim,
                                 .source = src,
                                 .unit = "% of points",
                                 .paper = 100,
                                 .ours = 100.0 * (double)rows[i].v.hit / (double)rows[i].v.of,
                                 .verdict = rows[i].v,
                                 .reason = re};
        rc = oc__claim(ctx, &in);
    }
    if (!rc && between.of) {
        oc__cellf(re, sizeof re,
                  "NE < WRHT < Ring at %zu of the %zu (size, WRHT) cases at w = 128, counting "
                  "both the seed's WRHT (p = 2w+1) and our search's",
                  between.hit, between.of);
        const oc__claim_in in = {.claim = "at w = 128 WRHT is smaller than Ring but slightly "
                                          "larger than NE",
                                 .source = "IV.C, Fig. 6(b)",
                                 .unit = "% of cases",
                                 .paper = 100,
                                 .ours = 100.0 * (double)between.hit / (double)between.of,
                                 .verdict = between,
                                 .reason = re};
        rc = oc__claim(ctx, &in);
    }
    return rc ? OC_ENOMEM : 0;
}

/* The headline (abstract, VI): the mean of the Fig. 5 and the Fig. 6 averages, and the claims. */
int oc__roptree_headline_print(FILE *f, oc__repro *ctx, const optree_printed *P,
                               const optree_cfg *g, const comparison *c5, const comparison *c6) {
    static const char *const head[] = {"item", "paper (printed)",
                                       "mean of the paper's Fig. 5 and "
                                       "Fig. 6 averages",
                                       "simulated", "reason"};
    static const char *const NAME[3] = {"WRHT", "Ring", "NE"};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0;
    for (size_t i = 0; i < 3 && !rc; i++) {
        const size_t b = CLAIM_ALGO[i];
        const double pm = (P->body_vs[i] + P->fig6_vs[i]) / 2;
        const double o5 = 100 * c5->mean[b], o6 = 100 * c6->mean[b], ours = (o5 + o6) / 2;
        char item[OC__CELL_LEN], pr[OC__CELL_LEN], fo[OC__CELL_LEN],
            si[OC__CELL_LEN] = "not simulated", re[OC__REASON_LEN] = "";
        oc__cellf(item, sizeof item, "OpTree vs %s", NAME[i]);
        oc__cellf(pr, sizeof pr, "%.2f%%", P->abstract_vs[i]);
        oc__cellf(fo, sizeof fo, "(%.2f + %.2f) / 2 = %.3f%%", P->body_vs[i], P->fig6_vs[i], pm);
        if (c5->k[b] && c6->k[b]) oc__cellf(si, sizeof si, "%.2f%%", ours);
        if (fabs(pm - P->abstract_vs[i]) < 0.005)
            oc__reason_add(re, sizeof re,
                           "the paper's %.2f%% is the mean of its Fig. 5 average %.2f%% and its "
                           "Fig. 6 average %.2f%%",
                           P->abstract_vs[i], P->body_vs[i], P->fig6_vs[i]);
        else
            oc__reason_add(re, sizeof re,
                           "the mean of the paper's Fig. 5 average %.2f%% and Fig. 6 average "
                           "%.2f%% is (%.2f + %.2f) / 2 = %.3f%%, %+.3f points from its printed "
                           "%.2f%%",
                           P->body_vs[i], P->fig6_vs[i], P->body_vs[i], P->fig6_vs[i], pm,
                           P->abstract_vs[i] - pm, P->abstract_vs[i]);
        if (c5->k[b] && c6->k[b])
            oc__reason_add(re, sizeof re,
                           "ours is the mean of our Fig. 5 average %.2f%% and our Fig. 6 "
                           "average %.2f%%: %+.2f points from the paper's",
                           o5, o6, ours - P->abstract_vs[i]);
        if (!g->paper_nw || !c5->printed)
            oc__reason_add(re, sizeof re, "ours at the reader's settings, not the paper's");
        const char *row[] = {item, pr, fo, si, re};
        rc = oc__table_row(&t, row);
        /* The claims: the headline, then Fig. 5's and Fig. 6's averages it is made of. */
        char claim[OC__CELL_LEN];
        oc__cellf(claim, sizeof claim,
                  "OpTree reduces the all-gather time by %.2f%% against %s on average",
                  P->abstract_vs[i], NAME[i]);
        const double oursv = c5->k[b] && c6->k[b] ? ours : NAN;
        const double seedv = c5->k[HL_WRHT_SEED] && c6->k[HL_WRHT_SEED]
                                 ? 100 * (c5->mean[HL_WRHT_SEED] + c6->mean[HL_WRHT_SEED]) / 2
                                 : NAN;
        const oc__verdict v =
            b == HL_WRHT_OURS
                ? oc__verdict_setups(P->abstract_vs[i], seedv, oursv, CLAIM_TOL)
                : oc__verdict_one(oursv, fabs(oursv - P->abstract_vs[i]) <= CLAIM_TOL);
        if (b == HL_WRHT_OURS && !isnan(seedv))
            oc__reason_add(re, sizeof re,
                           "with the seed's WRHT (p = 2w+1) ours is (%.2f + %.2f) / 2 = %.2f%%",
                           100 * c5->mean[HL_WRHT_SEED], 100 * c6->mean[HL_WRHT_SEED], seedv);
        const oc__claim_in in = {.claim = claim,
                                 .source =
                                     "abstract and VI; the mean of Fig. 5's and Fig. 6's averages",
                                 .unit = "%",
                                 .paper = P->abstract_vs[i],
                                 .decimals = 2,
                                 .ours = oursv,
                                 .verdict = v,
                                 .reason = re};
        if (!rc) rc = oc__claim(ctx, &in);
    }
    if (!rc)
        rc = comparison_claims(ctx, c5, P->body_vs, "numbers of nodes",
                               "I and IV.C; Fig. 5 (N = 1024 and 2048, w = 64)");
    if (!rc)
        rc = comparison_claims(ctx, c6, P->fig6_vs, "wavelengths",
                               "I and IV.C; Fig. 6 (N = 1024, w = 96 and 128)");
    if (!rc) {
        fputs("\n6. The headline averages (abstract, VI): the mean of the Fig. 5 average and the "
              "Fig. 6 average.\n\n",
              f);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc ? OC_ENOMEM : 0;
}

static const struct {
    const char *label, *net;
} SENS[SENS_ROWS] = {
    {"ours: O/E/O 1 ns per 32 B flit (1 GHz, assumed), F = 1", ""},
    {"O/E/O free (0 ns per flit)", "oeo_ns_per_flit=0"},
    {"O/E/O at 4 GHz (0.25 ns per flit)", "oeo_ns_per_flit=0.25"},
    {"O/E/O at 250 MHz (4 ns per flit)", "oeo_ns_per_flit=4"},
    {"F = 2 fibres per direction (TeraRack's four rings)", "fibres=2"},
};

int oc__roptree_sens_print(FILE *f, const optree_cfg *g, char *why, size_t whylen) {
    optree_cfg s = *g;
    if (g->nsizes > 3) {
        s.nsizes = 3;
        s.sizes[0] = g->sizes[0];
        s.sizes[1] = g->sizes[g->nsizes / 2];
        s.sizes[2] = g->sizes[g->nsizes - 1];
    }
    static const char *const head[] = {"setting", "OpTree vs WRHT (p = 2w+1)", "vs WRHT (our m)",
                                       "vs Ring", "vs NE"};
    static const size_t col[4] = {HL_WRHT_SEED, HL_WRHT_OURS, HL_RING, HL_NE};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0, clock_moves = 0; /* whether a clock row differs from ours */
    double ours[4] = {NAN, NAN, NAN, NAN};
    for (size_t r = 0; r < SENS_ROWS && !rc; r++) {
        comparison c = {.npt = 1, .N = {g->fig5_nodes[0]}, .w = {g->w}, .net_extra = SENS[r].net};
        if ((rc = oc__roptree_comparison_run(&s, &c, why, whylen))) {
            oc__roptree_comparison_free(&c);
            break;
        }
        oc__roptree_comparison_stats(&s, &c);
        char cells[4][OC__CELL_LEN];
        const char *row[5] = {SENS[r].label};
        for (size_t k = 0; k < 4; k++) {
            const double v = c.k[col[k]] ? c.mean[col[k]] : NAN;
            if (r == 0) ours[k] = v;
            if (r > 0 && r < 4 && !(fabs(v - ours[k]) <= 1e-12)) clock_moves = 1;
            if (c.k[col[k]])
                oc__cellf(cells[k], sizeof cells[k], "%.2f%%", 100 * v);
            else
                oc__cellf(cells[k], sizeof cells[k], "not simulated");
            row[1 + k] = cells[k];
        }
        oc__roptree_comparison_free(&c);
        rc = oc__table_row(&t, row);
    }
    if (!rc) {
        fprintf(f,
                "\n7. Sensitivity: OpTree's reduction of the all-gather time at Fig. 5's N = "
                "%" PRIu32 ", w = %" PRIu32 ",\n   the mean over ",
                g->fig5_nodes[0], g->w);
        oc__roptree_print_sizes(f, &s);
        fputs(", with one number we chose changed on the ring (the seed gives\n"
              "   neither the O/E/O clock nor, for its simulation, more than a double ring); "
              "every cell from verified\n"
              "   runs:\n\n",
              f);
        oc__table_print(&t, f);
        if (!clock_moves)
            fputs("\n   The O/E/O clock moves no reduction: every step of these all-gathers "
                  "moves one block, so it\n"
                  "   lengthens every algorithm's step alike and the ratios are the step "
                  "counts'.\n",
                  f);
    }
    oc__table_free(&t);
    return rc;
}
