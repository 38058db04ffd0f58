/*
 * reproduce_wrht_figures.c — `reproduce wrht`'s figures and claims: Fig. 4 and Fig. 5 printed and
 * handed to `reproduce --out`, the paper's trends and orderings against ours (each a claim with a
 * verdict), the headline averages of the abstract and the conclusion with their claims, the
 * sensitivity of the headline to the numbers we chose, and the per-epoch note (reproduce_wrht.h
 * lists the files).
 */
#include "reproduce/reproduce_wrht.h"

/* Fig. 4 or 5 as figures for reproduce --out: one per DNN model (the paper's panels a to d),
 * time normalised by WRHT's time for the normalising model against N, one line per algorithm. */
static void hand_figure(const wrht_data *d, const figure *F, int which) {
    static const char *const caption[2] = {
        "\"Fig. 4. Comparison of communication time in optical interconnect system using "
        "different all-reduce algorithms\" (panels (a)-(d): one DNN each; 1024 to 4096 nodes; "
        "normalised by WRHT in GoogLeNet)",
        "\"Fig. 5. The comparison of communication time in electrical interconnect and optical "
        "interconnect system using different all-reduce algorithms\" (panels (a)-(d): one DNN "
        "each; 128 to 1024 nodes; normalised by WRHT in GoogLeNet)"};
    for (size_t m = 0; m < d->nm; m++) {
        char id[64], title[160], ylab[96];
        oc__cellf(id, sizeof id, "fig%d-%s", which, d->models[m].name);
        for (char *c = id; *c; c++) /* a file name: "fig4-googlenet", "fig4-4096-b" */
            *c = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c == ' ' ? '-' : *c;
        oc__cellf(title, sizeof title, "Fig. %d, %s: all-reduce of one iteration's gradient", which,
                  d->models[m].name);
        oc__cellf(ylab, sizeof ylab, "time / WRHT's time for %s at N = %" PRIu32,
                  d->models[d->norm].name, F->nodes[0]);
        oc__figure(id, title, "nodes N", ylab, 1, 1, caption[which == 5]);
        for (size_t a = 0; a < F->na; a++) {
            double x[MAX_FIG], y[MAX_FIG];
            for (size_t n = 0; n < F->nn; n++) {
                x[n] = F->nodes[n];
                y[n] = F->p[n][m][a].ok ? F->p[n][m][a].norm : NAN;
            }
            oc__figure_series(F->algos[a].label, F->nn, x, y);
        }
    }
}

/* How a figure is normalised and which WRHT it shows, with the numbers that make it so. */
void oc__rwrht_print_fig_header(FILE *f, const wrht_data *d, const figure *F) {
    const size_t iw = F->algos == oc__rwrht_fig4_algos ? I_WRHT4 : I_WRHT5, last = F->nn - 1;
    const point *first = &F->p[0][d->norm][iw], *end = &F->p[last][d->norm][iw];
    fprintf(f,
            "   Normalised as the paper does (\"by dividing the result of WRHT in %s\"): every "
            "bar by one bar,\n"
            "   WRHT's %s time at N = %" PRIu32 " (%.3f ms), so that each bar's growth with N "
            "shows.",
            oc__rwrht_paper.normaliser, d->models[d->norm].name, F->nodes[0], first->time_s * 1e3);
    if (last && first->ok && end->ok)
        fprintf(f,
                " WRHT's own %s\n"
                "   bar is then %.3f at N = %" PRIu32 ", and the trends of IV.B and IV.C show "
                "in every bar.",
                d->models[d->norm].name, end->time_s / first->time_s, F->nodes[last]);
    fprintf(f,
            "\n   WRHT is the paper's own: m = 2w+1 = %" PRIu64 " (m = N below it), its all-to-all "
            "rule, pieces=1.\n"
            "   `opticoll run -a wrht` with nothing pinned runs our striped search instead (row "
            "\"WRHT, our search\":\n"
            "   m, alltoall and pieces chosen by mapped time), which is not the paper's algorithm; "
            "pin the paper's\n"
            "   with -p m=%" PRIu64 " -p pieces=1.\n",
            2 * (uint64_t)d->w + 1, 2 * (uint64_t)d->w + 1);
}

/* Whether model m's bars of algorithm a keep trend `tk` over the figure's N (fig_algo's tests);
 * -1 when a bar is missing. */
static int trend_holds(const figure *F, size_t m, size_t a, trend_kind tk) {
    const size_t last = F->nn - 1;
    int inc = 1, nondec = 1, flat = 1;
    for (size_t n = 0; n < F->nn; n++)
        if (!F->p[n][m][a].ok) return -1;
    const double t0 = F->p[0][m][a].time_s, r = F->p[last][m][a].time_s / t0,
                 q = (double)F->nodes[last] / F->nodes[0];
    for (size_t n = 1; n < F->nn; n++) {
        const double x = F->p[n - 1][m][a].time_s, y = F->p[n][m][a].time_s;
        inc &= y > x;
        nondec &= y >= x;
        flat &= fabs(y / t0 - 1) <= 0.2;
    }
    switch (tk) {
    case TR_INCREASING:
        return inc;
    case TR_LINEAR:
        return inc && r >= q / 2;
    case TR_SLOW:
        return inc && r < q / 2;
    case TR_SLIGHT:
        return nondec && r <= 1.5;
    case TR_CONSTANT:
        return flat;
    case TR_NONE:
        break;
    }
    return -1;
}

/* Whether algorithm a keeps ordering `ok` at point (n, m); -1 when a bar is missing. */
static int order_holds(const figure *F, size_t n, size_t m, size_t a, order_kind ok) {
    const point *x = &F->p[n][m][a];
    if (!x->ok) return -1;
    if (ok == ORD_BELOW_E_RING) {
        const point *e = &F->p[n][m][I_ERING5];
        return e->ok ? x->time_s < e->time_s : -1;
    }
    if (ok == ORD_HIGHEST || ok == ORD_LOWEST) {
        for (size_t b = 0; b < F->na; b++)
            if (b != a && F->algos[b].paper && F->p[n][m][b].ok &&
                (ok == ORD_HIGHEST ? F->p[n][m][b].time_s >= x->time_s
                                   : F->p[n][m][b].time_s <= x->time_s))
                return 0;
        return 1;
    }
    return -1;
}

int oc__rwrht_bt_models(oc__repro *ctx, FILE *f, const wrht_data *d) {
    const figure *F = &d->fig4;
    static const struct {
        const char *model;
        int good;
    } SAID[] = {{"ResNet50", 1}, {"GoogLeNet", 1}, {"AlexNet", 0}, {"VGG16", 0}};
    size_t bt = SIZE_MAX;
    for (size_t a = 0; a < F->na; a++)
        if (F->algos[a].paper && F->algos[a].kind == F_BT) bt = a;
    if (d->sized || bt == SIZE_MAX) return 0;
    oc__verdict v = {.of = 0};
    char fails[OC__REASON_LEN] = "";
    for (size_t m = 0; m < d->nm; m++) {
        int good = -1;
        for (size_t s = 0; s < sizeof SAID / sizeof *SAID; s++)
            if (!strcmp(SAID[s].model, d->models[m].name)) good = SAID[s].good;
        if (good < 0) continue;
        for (size_t n = 0; n < F->nn; n++) {
            const point *x = &F->p[n][m][bt];
            if (!x->ok) continue;
            size_t rank = 1, bars = 1; /* 1: the fastest of the paper's bars at (N, model) */
            for (size_t b = 0; b < F->na; b++) {
                const point *y = &F->p[n][m][b];
                if (b == bt || !F->algos[b].paper || !y->ok) continue;
                bars++;
                rank += y->time_s < x->time_s;
            }
            const int ok = good ? 2 * rank <= bars : 2 * rank > bars;
            v.of++;
            v.hit += (size_t)ok;
            if (!ok)
                oc__cellf(fails + strlen(fails), sizeof fails - strlen(fails),
                          "%s%s at N = %" PRIu32 " (rank %zu of %zu)", fails[0] ? ", " : "",
                          d->models[m].name, F->nodes[n], rank, bars);
        }
    }
    if (!v.of) return 0;
    char re[OC__REASON_LEN] = "", src[OC__CELL_LEN];
    oc__reason_add(re, sizeof re,
                   "BT's rank among the paper's four bars at every (N, model): good = one of the "
                   "two fastest, poor = one of the two slowest; it holds at %zu of %zu",
                   v.hit, v.of);
    if (fails[0]) oc__reason_add(re, sizeof re, "not at %s", fails);
    fprintf(f, "\n  IV.B on BT per model: %s: %s.\n", oc__verdict_word(v), re);
    oc__cellf(src, sizeof src, "IV.B (BT per model); Fig. 4, N = %" PRIu32 " .. %" PRIu32,
              F->nodes[0], F->nodes[F->nn - 1]);
    const oc__claim_in in = {.claim = "BT: \"a good performance\" in ResNet50 and GoogLeNet, "
                                      "\"poor performance\" in AlexNet and VGG16",
                             .source = src,
                             .unit = "% of points",
                             .paper = 100,
                             .ours = 100.0 * (double)v.hit / (double)v.of,
                             .verdict = v,
                             .reason = re};
    return oc__claim(ctx, &in);
}

/* The paper's trends (IV.B, IV.C) against ours: each algorithm's time at the figure's last N over
 * its time at the first, split into the steps' and one step's share of the change, the verdict of
 * the paper's words per model (and of its orderings per point), each also a claim. */
int oc__rwrht_print_trends(oc__repro *ctx, FILE *f, const wrht_data *d, const figure *F,
                           int which) {
    const size_t last = F->nn - 1;
    if (!last) {
        fprintf(f, "\n  Fig. %d's trends with N: one N only (-n), no trend to show.\n", which);
        return 0;
    }
    static const char *const head[] = {"algorithm", "paper (printed)",
                                       "simulated: T(last N) / T(first N)", "verdict", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0;
    const double q = (double)F->nodes[last] / F->nodes[0];
    for (size_t a = 0; a < F->na && !rc; a++) {
        char si[OC__REASON_LEN] = "", re[OC__REASON_LEN] = "";
        double slo = INFINITY, shi = 0, tlo = INFINITY, thi = 0;
        for (size_t m = 0; m < d->nm; m++) {
            const point *x = &F->p[0][m][a], *y = &F->p[last][m][a];
            if (!x->ok || !y->ok) continue;
            const double r = y->time_s / x->time_s,
                         st = (y->time_s / (double)y->steps) / (x->time_s / (double)x->steps);
            oc__reason_add(si, sizeof si, "%s x%.2f", d->models[m].name, r);
            slo = fmin(slo, (double)y->steps / (double)x->steps);
            shi = fmax(shi, (double)y->steps / (double)x->steps);
            tlo = fmin(tlo, st);
            thi = fmax(thi, st);
        }
        if (!si[0])
            oc__cellf(si, sizeof si, "not simulated");
        else {
            oc__reason_add(re, sizeof re, "N x%.2f; steps x%.2f", q, slo);
            if (round(shi * 100) != round(slo * 100))
                oc__cellf(re + strlen(re), sizeof re - strlen(re), " .. x%.2f", shi);
            oc__cellf(re + strlen(re), sizeof re - strlen(re), ", mean step time x%.2f", tlo);
            if (round(thi * 100) != round(tlo * 100))
                oc__cellf(re + strlen(re), sizeof re - strlen(re), " .. x%.2f", thi);
            oc__cellf(re + strlen(re), sizeof re - strlen(re), " (time = steps x mean step)");
        }
        /* the verdict: the trend per model, then the ordering per point */
        const fig_algo *A = &F->algos[a];
        oc__verdict vt = {.of = 0}, vo = {.of = 0};
        char vc[OC__CELL_LEN] = "—", fails[OC__REASON_LEN] = "";
        for (size_t m = 0; m < d->nm && A->tk != TR_NONE; m++) {
            const int h = trend_holds(F, m, a, A->tk);
            if (h < 0) continue;
            vt.of++;
            vt.hit += (size_t)h;
            if (!h)
                oc__cellf(fails + strlen(fails), sizeof fails - strlen(fails), "%s%s",
                          fails[0] ? ", " : "", d->models[m].name);
        }
        for (size_t n = 0; n < F->nn && A->ok != ORD_NONE; n++)
            for (size_t m = 0; m < d->nm; m++) {
                if (A->order_model && strcmp(A->order_model, d->models[m].name)) continue;
                const int h = order_holds(F, n, m, a, A->ok);
                if (h < 0) continue;
                vo.of++;
                vo.hit += (size_t)h;
            }
        if (vt.of) {
            oc__cellf(vc, sizeof vc, "trend: %s (%zu of %zu models)", oc__verdict_word(vt), vt.hit,
                      vt.of);
            if (fails[0]) oc__reason_add(re, sizeof re, "the trend fails for %s", fails);
        }
        static const char *const ORD_WORD[] = {"", "highest", "lowest", "below E-Ring"};
        if (vo.of)
            oc__cellf(vc + strlen(vc), sizeof vc - strlen(vc), "; %s%s%s: %s (%zu of %zu points)",
                      ORD_WORD[A->ok], A->order_model ? " in " : "",
                      A->order_model ? A->order_model : "", oc__verdict_word(vo), vo.hit, vo.of);
        const char *row[] = {A->label, A->trend ? A->trend : "—", si, vc, re};
        rc = oc__table_row(&t, row);
        char claim[OC__CELL_LEN], src[OC__CELL_LEN];
        oc__cellf(src, sizeof src, "%s; Fig. %d, every model, N = %" PRIu32 " .. %" PRIu32,
                  which == 4 ? "IV.B" : "IV.C", which, F->nodes[0], F->nodes[last]);
        if (!rc && vt.of) {
            oc__cellf(claim, sizeof claim, "%s's time with N: %s", A->label, A->trend + 6);
            const oc__claim_in in = {.claim = claim,
                                     .source = src,
                                     .unit = "% of models",
                                     .paper = 100,
                                     .ours = 100.0 * (double)vt.hit / (double)vt.of,
                                     .verdict = vt,
                                     .reason = fails[0] ? re : ""};
            rc = oc__claim(ctx, &in);
        }
        if (!rc && vo.of) {
            char ro[OC__REASON_LEN] = "";
            oc__reason_add(ro, sizeof ro, "%s at %zu of the %zu (N, model) points%s%s",
                           A->ok == ORD_BELOW_E_RING ? "below E-Ring"
                           : A->ok == ORD_HIGHEST    ? "the highest of the paper's four bars"
                                                     : "the lowest of the paper's four bars",
                           vo.hit, vo.of, A->order_model ? " of " : "",
                           A->order_model ? A->order_model : "");
            oc__cellf(claim, sizeof claim, "%s: %s", A->label, A->order_text);
            const oc__claim_in in = {.claim = claim,
                                     .source = src,
                                     .unit = "% of points",
                                     .paper = 100,
                                     .ours = 100.0 * (double)vo.hit / (double)vo.of,
                                     .verdict = vo,
                                     .reason = ro};
            rc = oc__claim(ctx, &in);
        }
    }
    if (!rc) {
        fprintf(f,
                "\n  Fig. %d's trends with N (%" PRIu32 " to %" PRIu32 "): the paper's words "
                "against our growth per model. The tests: increasing = T grows at every N; a "
                "linear rise = increasing and T(last)/T(first) at least half of N's x%.2f; "
                "relatively slow = increasing and below half of it; a slight increase = never "
                "decreasing and at most x1.5; almost constant = every T within 20%% of "
                "T(first); the highest = above the paper's other bars at the same (N, model)\n\n",
                which, F->nodes[0], F->nodes[last], (double)F->nodes[last] / F->nodes[0]);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

int oc__rwrht_print_figure(FILE *f, const wrht_data *d, const figure *F, int which) {
    hand_figure(d, F, which);
    static const char *const head[] = {"model",
                                       "algorithm (parameters)",
                                       "paper (printed)",
                                       "formula: steps; normalised",
                                       "simulated: steps, time; normalised",
                                       "reason"};
    int rc = 0;
    const size_t iw = which == 4 ? I_WRHT4 : I_WRHT5;
    for (size_t n = 0; n < F->nn && !rc; n++) {
        const uint32_t N = F->nodes[n];
        const point *ref = &F->p[0][d->norm][iw];
        oc__table t;
        oc__table_init(&t, 6, head);
        for (size_t m = 0; m < d->nm && !rc; m++) {
            for (size_t a = 0; a < F->na && !rc; a++) {
                const fig_algo *A = &F->algos[a];
                const point *pt = &F->p[n][m][a];
                char al[OC__CELL_LEN], fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN],
                                       re[OC__REASON_LEN] = "";
                oc__cellf(al, sizeof al, "%s%s%s%s", A->label, pt->used[0] ? " (" : "", pt->used,
                          pt->used[0] ? ")" : "");
                if (!isnan(pt->f_steps) && pt->ok)
                    oc__cellf(fo, sizeof fo, "%.0f; %.3f", pt->f_steps, pt->f_norm);
                if (pt->ok)
                    oc__cellf(si, sizeof si, "%" PRIu64 ", %.3f ms; %.3f", pt->steps,
                              pt->time_s * 1e3, pt->norm);
                else
                    oc__cellf(si, sizeof si, "not simulated");
                if (!A->paper) oc__reason_add(re, sizeof re, "not in the paper");
                if (pt->ok && !isnan(pt->f_steps) && fabs((double)pt->steps - pt->f_steps) > 0.5) {
                    if (A->kind == F_HRING) {
                        const uint32_t g = pt->g, w = d->w;
                        if (g && fabs((double)pt->steps - oc__rwrht_our_hring(N, g, w)) < 0.5)
                            oc__reason_add(re, sizeof re,
                                           "mapped = 2(g-1) ceil(N/g/w) + 2(N/g-1) ceil(g/w) "
                                           "(see Table I): the seed's extra ceil(g/w) = %.0f is "
                                           "not a step",
                                           ceil((double)g / w));
                        else
                            oc__reason_add(re, sizeof re, "mapped %" PRIu64 " vs %.0f", pt->steps,
                                           pt->f_steps);
                    } else {
                        oc__reason_add(re, sizeof re, "mapped %" PRIu64 " vs the formula's %.0f",
                                       pt->steps, pt->f_steps);
                    }
                } else if (pt->ok && !isnan(pt->f_time) &&
                           fabs(pt->f_time / pt->time_s - 1) > 1e-6) {
                    oc__reason_add(re, sizeof re,
                                   "same steps, time %.3f ms against the formula's %.3f ms: "
                                   "rounds differ in path length and contention",
                                   pt->time_s * 1e3, pt->f_time * 1e3);
                }
                if (pt->ok && A->kind == F_ERD)
                    oc__reason_add(re, sizeof re, "the seed gives no step count for RD");
                if (pt->ok && A->kind == F_WRHT_OURS && ref->ok)
                    oc__reason_add(re, sizeof re, "%.2fx the seed's WRHT time for this model",
                                   pt->time_s / F->p[n][m][iw].time_s);
                if (pt->recosted) {
                    char b[32];
                    oc__rwrht_fmt_bytes(b, sizeof b, (double)oc__ceil_div(d->models[m].bytes, N));
                    oc__reason_add(re, sizeof re,
                                   "re-costed: the verified %s schedule's %" PRIu64
                                   " steps x the ring model's step for a %s chunk",
                                   oc__rwrht_paper.normaliser, pt->steps, b);
                }
                if (!re[0]) oc__cellf(re, sizeof re, "agrees");
                const char *row[] = {a ? "" : d->models[m].name, al, "bar only", fo, si, re};
                rc = oc__table_row(&t, row);
            }
        }
        if (!rc) {
            fprintf(f,
                    "\n  N = %" PRIu32 ": normalised by WRHT's %s time at N = %" PRIu32
                    " (formula %.3f ms, simulated %.3f ms)\n\n",
                    N, d->models[d->norm].name, F->nodes[0], ref->f_time * 1e3, ref->time_s * 1e3);
            oc__table_print(&t, f);
        }
        oc__table_free(&t);
    }
    return rc;
}

/* ---- the headline averages --------------------------------------------------------------------
 */

typedef struct avg {
    double mean, sum_red, lo, hi, f_mean;
    size_t n, fn, slower; /* slower: points where the first is not faster */
} avg;

/* A bar's time; without_oeo: less the ring's O/E/O, as if it were a latency overlapped with the
 * transmission instead of the bandwidth term our ring model charges. */
static double bar_time(const point *x, int without_oeo) {
    return without_oeo ? x->time_s - (double)x->steps * x->oeo_s : x->time_s;
}

/* Mean over a figure's points of 1 - T_a / T_b (simulated and formula), with the reduction of
 * the summed times and the range. */
static avg average(const figure *F, size_t a, size_t b, int without_oeo) {
    avg r = {.lo = INFINITY, .hi = -INFINITY};
    double sa = 0, sb = 0, fs = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++) {
            const point *x = &F->p[n][m][a], *y = &F->p[n][m][b];
            if (!x->ok || !y->ok) continue;
            const double ta = bar_time(x, without_oeo), tb = bar_time(y, without_oeo);
            double red = 1 - ta / tb;
            r.slower += red <= 0;
            r.mean += red;
            r.lo = fmin(r.lo, red);
            r.hi = fmax(r.hi, red);
            sa += ta;
            sb += tb;
            r.n++;
            if (!isnan(x->f_time) && !isnan(y->f_time)) {
                fs += 1 - x->f_time / y->f_time;
                r.fn++;
            }
        }
    r.mean = r.n ? r.mean / (double)r.n : NAN;
    r.sum_red = sb > 0 ? 1 - sa / sb : NAN;
    r.f_mean = r.fn ? fs / (double)r.fn : NAN;
    return r;
}

/* Mean over a figure's points of the share of an algorithm's time that moves no data. */
static double overhead_share(const figure *F, size_t a) {
    double s = 0;
    size_t k = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++) {
            const point *x = &F->p[n][m][a];
            if (!x->ok || isnan(x->overhead)) continue;
            s += x->overhead;
            k++;
        }
    return k ? s / (double)k : NAN;
}

/* A headline claim of the paper, with ours for the same experiment: the mean over the figure's
 * points of 1 - T_a / T_b, and a reason built from the numbers that make it (the range, the
 * points where WRHT is slower, the model's mechanism, wrht's striped default and the O/E/O term).
 */
typedef struct claim_of {
    oc__repro *ctx;
    const char *claim, *source;
    const wrht_data *d;
} claim_of;

/* A printed reduction holds when ours is within this many points of it. */
static const double CLAIM_TOL = 1.0;

/* b: what the paper's WRHT is compared with (the paper's setup); b_best: what our search's WRHT
 * is compared with (the best setup), the same algorithm under our search's choices. */
static int add_claim(const claim_of *c, const figure *F, int which, const avg *r, double printed,
                     size_t a, size_t b, size_t b_best, const char *why_model) {
    const wrht_data *d = c->d;
    char re[OC__REASON_LEN] = "";
    oc__claim_in in = {.claim = c->claim,
                       .source = c->source,
                       .unit = "%",
                       .paper = printed,
                       .decimals = 2,
                       .ours = NAN,
                       .reason = "not simulated"};
    if (!r->n) return oc__claim(c->ctx, &in);
    const avg s = average(F, I_OURS, b_best, 0), o = average(F, a, b, 1);
    oc__reason_add(re, sizeof re,
                   "ours: the mean over Fig. %d's %zu points (%zu N x %zu %s) of 1 - T_%s / T_%s, "
                   "the paper's WRHT (m = 2w+1 = %" PRIu64 ", pieces=1); %+.2f points",
                   which, r->n, F->nn, F->nm, d->sized ? "sizes" : "models", F->algos[a].label,
                   F->algos[b].label, 2 * (uint64_t)d->w + 1, 100 * r->mean - printed);
    oc__reason_add(re, sizeof re, "per point %.1f%% .. %.1f%%", 100 * r->lo, 100 * r->hi);
    if (r->slower)
        oc__reason_add(re, sizeof re, "%s is slower at %zu of the %zu points", F->algos[a].label,
                       r->slower, r->n);
    if (why_model && why_model[0]) oc__reason_add(re, sizeof re, "%s", why_model);
    if (s.n && b_best == b)
        oc__reason_add(re, sizeof re,
                       "`wrht` unpinned runs our striped search, not the paper's WRHT: %.2f%%",
                       100 * s.mean);
    else if (s.n)
        oc__reason_add(re, sizeof re,
                       "`wrht` unpinned runs our striped search, not the paper's WRHT: %.2f%% "
                       "against %s, both at spread=1 (ours)",
                       100 * s.mean, F->algos[b_best].label);
    if (o.n)
        oc__reason_add(re, sizeof re,
                       "our ring charges O/E/O as a bandwidth term; as a latency overlapped with "
                       "the transmission: %.2f%%",
                       100 * o.mean);
    if (!d->paper_figs) oc__reason_add(re, sizeof re, "at the reader's settings, not the paper's");
    /* the paper's WRHT (m = 2w+1, pieces=1) and our search's: two setups of one claim */
    in.verdict = oc__verdict_setups(printed, 100 * r->mean, s.n ? 100 * s.mean : NAN, CLAIM_TOL);
    in.ours = 100 * r->mean;
    in.reason = re;
    return oc__claim(c->ctx, &in);
}

static int headline_row(oc__table *t, const figure *F, const char *item, double printed, size_t a,
                        size_t b, size_t b_best, const char *why_model, const claim_of *claim) {
    avg r = average(F, a, b, 0);
    if (claim) {
        int rc = add_claim(claim, F, F->algos == oc__rwrht_fig4_algos ? 4 : 5, &r, printed, a, b,
                           b_best, why_model);
        if (rc) return rc;
    }
    char p[OC__CELL_LEN] = "—", fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    if (!isnan(printed)) oc__cellf(p, sizeof p, "%.2f%%", printed);
    if (r.fn) oc__cellf(fo, sizeof fo, "%.2f%% (%zu points)", 100 * r.f_mean, r.fn);
    if (r.n)
        oc__cellf(si, sizeof si, "%.2f%% (%zu points)", 100 * r.mean, r.n);
    else
        oc__cellf(si, sizeof si, "not simulated");
    if (!F->algos[a].paper) oc__reason_add(re, sizeof re, "not in the paper");
    if (r.n) {
        if (!isnan(printed))
            oc__reason_add(re, sizeof re, "%+.2f points against the printed",
                           100 * r.mean - printed);
        oc__reason_add(re, sizeof re,
                       "per point %.1f%% .. %.1f%%; reduction of the summed times "
                       "%.2f%%",
                       100 * r.lo, 100 * r.hi, 100 * r.sum_red);
        if (r.slower)
            oc__reason_add(re, sizeof re, "%s is slower than %s at %zu of the %zu points",
                           F->algos[a].label, F->algos[b].label, r.slower, r.n);
    }
    if (!r.fn)
        oc__reason_add(re, sizeof re, "no formula: %s",
                       F->algos[a].kind == F_WRHT_OURS ? "the seed's WRHT does not stripe"
                                                       : "the seed gives no step count for RD");
    if (why_model && why_model[0]) oc__reason_add(re, sizeof re, "%s", why_model);
    const char *row[] = {item, p, fo, si, re};
    return oc__table_row(t, row);
}

/* The group sizes column a ran with over a figure's points, "g = 4" or "g = 4 .. 6". */
static void g_list(char *buf, size_t len, const figure *F, size_t a) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++)
            if (F->p[n][m][a].ok && F->p[n][m][a].g) {
                lo = F->p[n][m][a].g < lo ? F->p[n][m][a].g : lo;
                hi = F->p[n][m][a].g > hi ? F->p[n][m][a].g : hi;
            }
    if (lo > hi)
        oc__cellf(buf, len, "g = ?");
    else if (lo == hi)
        oc__cellf(buf, len, "g = %" PRIu32, lo);
    else
        oc__cellf(buf, len, "g = %" PRIu32 " .. %" PRIu32, lo, hi);
}

/* The least and the largest simulated steps of algorithm a over a figure's points. */
static void steps_range(const figure *F, size_t a, uint64_t *lo, uint64_t *hi) {
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++)
            if (F->p[n][m][a].ok) {
                if (F->p[n][m][a].steps < *lo) *lo = F->p[n][m][a].steps;
                if (F->p[n][m][a].steps > *hi) *hi = F->p[n][m][a].steps;
            }
    if (*lo > *hi) *lo = *hi = 0;
}

int oc__rwrht_print_headline(oc__repro *ctx, FILE *f, const wrht_data *d) {
    const wrht_printed *P = &oc__rwrht_paper;
    const figure *F4 = &d->fig4, *F5 = &d->fig5;
    static const char *const head[] = {"item", "paper (printed)", "formula", "simulated", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    char w[OC__REASON_LEN];
    int rc;
    /* The models' parameters as the runs used them, and d/B of the smallest and the largest
     * gradient at the ring's bandwidth per wavelength. */
    const oc_report *ring = oc__rwrht_rep_of(&d->J, d->t1.wrht_seed),
                    *ft = oc__rwrht_rep_of(&d->J, d->fattree_ref);
    const char *rec = ring ? oc__net_param(ring, "reconfig_us") : "?",
               *obw = ring ? oc__net_param(ring, "bandwidth_gbps") : "?",
               *dly = ft ? oc__net_param(ft, "router_delay_us") : "?",
               *ebw = ft ? oc__net_param(ft, "bandwidth_gbps") : "?";
    const double gbps = strtod(obw, NULL), delay_us = strtod(dly, NULL);
    double dlo = INFINITY, dhi = 0;
    for (size_t m = 0; m < d->nm; m++) {
        dlo = fmin(dlo, (double)d->models[m].bytes * 8 / (gbps * 1e9));
        dhi = fmax(dhi, (double)d->models[m].bytes * 8 / (gbps * 1e9));
    }
    uint64_t wlo, whi, blo, bhi;
    steps_range(F4, I_WRHT4, &wlo, &whi);
    steps_range(F4, 2, &blo, &bhi);
    oc__cellf(w, sizeof w,
              "the seed's WRHT sends the whole gradient on one wavelength in each of its %" PRIu64
              " .. %" PRIu64 " steps (eq. 1: theta d/B, d/B = %.1f .. %.1f ms here), Ring about "
              "2d per node in 2(N-1) steps of d/N, %.0f%% of its time reconfiguration: WRHT wins "
              "only where 2(N-1) x %s us outweighs about (theta - 2) d/B",
              wlo, whi, dlo * 1e3, dhi * 1e3, 100 * overhead_share(F4, 0), rec);
    /* The claims of the abstract and the conclusion (the introduction repeats the abstract's). */
    const char *src4 = "abstract, conclusion; the mean of Fig. 4 (IV.B)",
               *src5 = "abstract, conclusion; the mean of Fig. 5 (IV.C)";
    const claim_of c_ring = {ctx, "WRHT cuts the all-reduce time of Ring on the optical ring by",
                             src4, d},
                   c_hring = {ctx, "WRHT cuts the all-reduce time of H-Ring on the optical ring by",
                              src4, d},
                   c_bt = {ctx, "WRHT cuts the all-reduce time of BT on the optical ring by", src4,
                           d},
                   c_ering = {ctx,
                              "WRHT cuts the all-reduce time of Ring on the electrical "
                              "fat-tree (E-Ring) by",
                              src5, d},
                   c_erd = {ctx,
                            "WRHT cuts the all-reduce time of recursive doubling on the "
                            "electrical fat-tree (E-RD) by",
                            src5, d};
    rc = headline_row(&t, F4, "WRHT vs Ring (Fig. 4)", P->vs_ring, I_WRHT4, 0, 0, w, &c_ring);
    /* H-Ring: the paper's setup under one rule (spread=0, its g), our g under the same rule, and
     * the two rules mixed (the paper's WRHT at spread=0 against H-Ring spreading), each named */
    char gs[OC__CELL_LEN];
    g_list(gs, sizeof gs, F4, I_HRING_G5);
    const avg h0 = average(F4, I_WRHT4, I_HRING_SPREAD0, 0), hm = average(F4, I_WRHT4, 1, 0);
    oc__cellf(w, sizeof w,
              "one rule for both, the paper's: spread=0 (no transfer spreads over wavelengths; "
              "eq. 1 moves a step's data on one), the paper's WRHT and H-Ring at %s%s; at our g "
              "under the same rule %.2f%%; the paper's WRHT (one wavelength a transfer) against "
              "H-Ring at spread=1 (its N/g chunks side by side on N/g wavelengths) mixes two "
              "rules: %.2f%%",
              gs,
              strcmp(gs, "g = 5") ? ", the divisor of N nearest the paper's g = 5 (which does "
                                    "not divide N)"
                                  : ", the paper's",
              100 * h0.mean, 100 * hm.mean);
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; g ~ 5, spread=0)", P->vs_hring, I_WRHT4,
                          I_HRING_G5, 1, w, &c_hring);
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; our g, spread=0)", NAN, I_WRHT4,
                          I_HRING_SPREAD0, I_HRING_SPREAD0,
                          "one rule for both (spread=0): H-Ring's g chosen by our search", NULL);
    oc__cellf(w, sizeof w,
              "two rules: H-Ring lays the N/g chunks of an intra-group transfer side by side on "
              "N/g wavelengths (spread=1) and needs only 2(g + N/g) - 4 reconfigurations (%.0f%% "
              "of its time), while the paper's WRHT moves d on one wavelength per step",
              100 * overhead_share(F4, 1));
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; our g, spread=1)", NAN, I_WRHT4, 1, 1, w,
                          NULL);
    oc__cellf(w, sizeof w,
              "BT and WRHT both move the whole vector on one wavelength every step: the ratio is "
              "about their step counts, %" PRIu64 " .. %" PRIu64 " against %" PRIu64 " .. %" PRIu64,
              blo, bhi, wlo, whi);
    if (!rc) rc = headline_row(&t, F4, "WRHT vs BT (Fig. 4)", P->vs_bt, I_WRHT4, 2, 2, w, &c_bt);
    for (size_t b = 0; b < 3 && !rc; b++) {
        char item[OC__CELL_LEN];
        oc__cellf(item, sizeof item, "WRHT, our search vs %s (Fig. 4)", F4->algos[b].label);
        rc = headline_row(&t, F4, item, NAN, I_OURS, b, b, "", NULL);
    }
    steps_range(F5, I_WRHT5, &wlo, &whi);
    oc__cellf(w, sizeof w,
              "E-Ring's rounds pay %s us per router, 3 across leaves (%.0f%% of its time), and "
              "move d/N at %s Gb/s; WRHT's %" PRIu64 " .. %" PRIu64 " steps pay %s us each but "
              "move d at %s Gb/s",
              dly, 100 * overhead_share(F5, 2), ebw, wlo, whi, rec, obw);
    if (!rc)
        rc = headline_row(&t, F5, "WRHT vs E-Ring (Fig. 5)", P->vs_ering, I_WRHT5, 2, 2, w,
                          &c_ering);
    oc__cellf(w, sizeof w,
              "RD moves the whole vector log2 N times at %s Gb/s (%.1f%% of its time is router "
              "delay), WRHT %" PRIu64 " .. %" PRIu64 " times at %s Gb/s",
              ebw, 100 * overhead_share(F5, 3), wlo, whi, obw);
    if (!rc)
        rc = headline_row(&t, F5, "WRHT vs E-RD (Fig. 5)", P->vs_erd, I_WRHT5, 3, 3, w, &c_erd);
    oc__cellf(w, sizeof w,
              "the same 2(N-1) steps of d/N: %s us + %s Gb/s (O-Ring, %.0f%% reconfiguration) "
              "against %g or %g us of routers + %s Gb/s (E-Ring, %.0f%% router delay)",
              rec, obw, 100 * overhead_share(F5, 0), delay_us, 3 * delay_us, ebw,
              100 * overhead_share(F5, 2));
    if (!rc)
        rc = headline_row(&t, F5, "O-Ring vs E-Ring (Fig. 5)", P->oring_vs_ering, 0, 2, 2, w, NULL);
    if (!rc) {
        /* IV.C's O-Ring against E-Ring: no WRHT in it, so no setups to bracket */
        const avg r = average(F5, 0, 2, 0);
        char re[OC__REASON_LEN] = "";
        if (r.n)
            oc__reason_add(re, sizeof re,
                           "the mean over Fig. 5's %zu points of 1 - T_O-Ring / T_E-Ring, %+.2f "
                           "points; per point %.1f%% .. %.1f%%; %s",
                           r.n, 100 * r.mean - P->oring_vs_ering, 100 * r.lo, 100 * r.hi, w);
        const oc__claim_in in = {
            .claim = "O-Ring reduces the all-reduce time of E-Ring on average by",
            .source = src5,
            .unit = "%",
            .paper = P->oring_vs_ering,
            .decimals = 2,
            .ours = r.n ? 100 * r.mean : NAN,
            .verdict = oc__verdict_one(r.n ? 100 * r.mean : NAN,
                                       fabs(100 * r.mean - P->oring_vs_ering) <= CLAIM_TOL),
            .reason = r.n ? re : "not simulated"};
        rc = oc__claim(ctx, &in);
    }
    for (size_t b = 2; b < 4 && !rc; b++) {
        char item[OC__CELL_LEN];
        oc__cellf(item, sizeof item, "WRHT, our search vs %s (Fig. 5)", F5->algos[b].label);
        rc = headline_row(&t, F5, item, NAN, I_OURS, b, b, "", NULL);
    }
    if (!rc) {
        fprintf(f,
                "\n5. The headline averages: WRHT's reduction of the all-reduce time, the mean "
                "over a figure's %zu points\n"
                "   (%zu N x %zu %s) of 1 - T_WRHT / T_other (abstract, IV.B, IV.C, "
                "conclusion)\n\n",
                F4->nn * d->nm, F4->nn, d->nm, d->sized ? "sizes" : "models");
        oc__table_print(&t, f);
        fprintf(f,
                "\n  Why ours differ from the printed ones: our time model is ours (per optical "
                "step: %s us MRR\n"
                "  reconfiguration + O/E/O at %s ns per %s B flit, an assumed clock + "
                "transmission at %s Gb/s per\n"
                "  wavelength; per fat-tree round: the bottleneck link's packets at %s Gb/s + %s "
                "us per router), while\n"
                "  the paper's in-house simulator and its SimGrid runs are driven by profiled "
                "traces whose per-step\n"
                "  costs it does not give; the paper does not say how it averages (ours: mean of "
                "per-point reductions;\n"
                "  the reduction of the summed times is beside it) nor which g its H-Ring uses in "
                "Fig. 4 (ours: the\n"
                "  best g by mapped time, and the g nearest Table I's 5 beside it); and it counts "
                "one epoch where\n"
                "  we count one all-reduce (section 6: the reductions are the same per epoch).\n",
                rec, ring ? oc__net_param(ring, "oeo_ns_per_flit") : "?",
                ring ? oc__net_param(ring, "flit_bytes") : "?", obw, ebw, dly);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- sensitivity -------------------------------------------------------------------------------
 */

int oc__rwrht_plan_sens(wrht_data *d) {
    int rc = 0;
    for (size_t r = 1; r < SENS_ROWS && !rc; r++)
        for (size_t m = 0; m < d->nm && !rc; m++)
            for (size_t k = 0; k < SENS_ALGOS && !rc; k++) {
                const figure *F = k < 4 ? &d->fig4 : &d->fig5;
                const fig_algo *A = &F->algos[k < 4 ? oc__rwrht_sens_fig4[k] : I_WRHT5];
                const uint32_t N = F->nodes[0];
                char net[96], p[96] = "";
                oc__cellf(net, sizeof net, "wavelengths=%" PRIu32 " %s%s", d->w,
                          oc__rwrht_sens[r].net, A->spread0 ? " spread=0" : "");
                if (A->kind == F_WRHT) {
                    oc__rwrht_seed_wrht_params(p, sizeof p, N, oc__rwrht_seed_m(N, d->w), d->w);
                    if (oc__rwrht_sens[r].wrht[0]) { /* the seed's middle replaced */
                        char *at = strstr(p, " rep=middle");
                        if (at)
                            oc__cellf(at, sizeof p - (size_t)(at - p), "%s",
                                      oc__rwrht_sens[r].wrht);
                    }
                }
                if (A->near_g)
                    oc__cellf(p, sizeof p, "g=%" PRIu32, oc__rwrht_near_divisor(N, A->near_g));
                rc = oc__rwrht_job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N,
                                       d->models[m].bytes, p, net, 0, &d->sens.job[r][m][k]);
            }
    return rc;
}

/* A time of the sensitivity table: row r's run of (model m, algorithm k), or at row 0 the
 * figure's own point; NAN when it did not run. */
static double sens_time(const wrht_data *d, size_t r, size_t m, size_t k) {
    if (r == 0) {
        const point *x =
            k < 4 ? &d->fig4.p[0][m][oc__rwrht_sens_fig4[k]] : &d->fig5.p[0][m][I_WRHT5];
        return x->ok ? x->time_s : NAN;
    }
    const oc__sim *s = oc__rwrht_sim_of(&d->J, d->sens.job[r][m][k]);
    return s && s->ok ? s->time_s : NAN;
}

/* The mean over the models of 1 - T_WRHT / T_other at row r: Fig. 4's WRHT (k = 3) against
 * Ring, H-Ring, BT (k = 0..2) or Fig. 5's (k = 4) against E-Ring, E-RD (the figure's own). */
static double sens_mean(const wrht_data *d, size_t r, size_t claim) {
    double sum = 0;
    size_t n = 0;
    for (size_t m = 0; m < d->nm; m++) {
        double tw, to;
        if (claim < 3) {
            tw = sens_time(d, r, m, 3);
            to = sens_time(d, r, m, claim);
        } else {
            tw = sens_time(d, r, m, 4);
            const point *e = &d->fig5.p[0][m][claim == 3 ? 2 : 3];
            to = e->ok ? e->time_s : NAN;
        }
        if (isnan(tw) || isnan(to)) continue;
        sum += 1 - tw / to;
        n++;
    }
    return n ? sum / (double)n : NAN;
}

int oc__rwrht_print_sens(FILE *f, const wrht_data *d) {
    static const char *const head[] = {"setting", "WRHT vs Ring", "vs H-Ring (g ~ 5, spread=0)",
                                       "vs BT",   "vs E-Ring",    "vs E-RD"};
    oc__table t;
    oc__table_init(&t, 6, head);
    int rc = 0;
    for (size_t r = 0; r < SENS_ROWS && !rc; r++) {
        char cells[5][OC__CELL_LEN];
        const char *row[6] = {oc__rwrht_sens[r].label};
        for (size_t c = 0; c < 5; c++) {
            const double v = sens_mean(d, r, c);
            if (isnan(v))
                oc__cellf(cells[c], sizeof cells[c], "not simulated");
            else
                oc__cellf(cells[c], sizeof cells[c], "%.2f%%", 100 * v);
            row[1 + c] = cells[c];
        }
        rc = oc__table_row(&t, row);
    }
    if (!rc) {
        fprintf(f,
                "\n7. Sensitivity: the headline reductions (the paper's WRHT, m = 2w+1, pieces=1) "
                "at Fig. 4's N = %" PRIu32 "\n"
                "   and Fig. 5's N = %" PRIu32 ", the mean over the %zu %s, with one number "
                "we chose changed on the optical\n"
                "   ring (the seed gives neither the O/E/O clock nor, for its simulation, more "
                "than a double ring)\n"
                "   or WRHT's representative moved (III.C.1 names the middle node);\n"
                "   every cell is a verified run (the fat-tree's are the figure's own):\n\n",
                d->fig4.nodes[0], d->fig5.nodes[0], d->nm, d->sized ? "sizes" : "models");
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- per epoch --------------------------------------------------------------------------------
 */

int oc__rwrht_print_epoch(FILE *f, const wrht_data *d) {
    if (d->sized) {
        fputs("\n6. Per epoch: not with --sizes (a size has no batch or samples per epoch).\n", f);
        return 0;
    }
    const char *head[2 + PAPER_MODELS] = {"figure, N"};
    for (size_t m = 0; m < d->nm; m++)
        head[1 + m] = d->models[m].name;
    head[1 + PAPER_MODELS] = "normalised bars per epoch";
    oc__table t;
    oc__table_init(&t, 2 + PAPER_MODELS, head);
    int rc = 0;
    for (int which = 4; which <= 5 && !rc; which++) {
        const figure *F = which == 4 ? &d->fig4 : &d->fig5;
        for (size_t n = 0; n < F->nn && !rc; n++) {
            const uint32_t N = F->nodes[n];
            char cells[2 + PAPER_MODELS][OC__REASON_LEN];
            const char *row[2 + PAPER_MODELS];
            oc__cellf(cells[0], sizeof cells[0], "Fig. %d, N = %" PRIu32, which, N);
            const uint64_t ref = oc_train_iterations(d->models[d->norm].file.samples,
                                                     d->models[d->norm].file.batch, N);
            cells[1 + PAPER_MODELS][0] = 0;
            for (size_t m = 0; m < d->nm; m++) {
                const wmodel *M = &d->models[m];
                uint64_t it = oc_train_iterations(M->file.samples, M->file.batch, N);
                oc__cellf(cells[1 + m], sizeof cells[1 + m], "%" PRIu64, it);
                if (it != ref)
                    oc__reason_add(cells[1 + PAPER_MODELS], sizeof cells[1 + PAPER_MODELS],
                                   "%s x %" PRIu64 "/%" PRIu64, M->name, it, ref);
            }
            if (!cells[1 + PAPER_MODELS][0])
                oc__cellf(cells[1 + PAPER_MODELS], sizeof cells[1 + PAPER_MODELS], "unchanged");
            for (size_t c = 0; c < 2 + PAPER_MODELS; c++)
                row[c] = cells[c];
            rc = oc__table_row(&t, row);
        }
    }
    if (!rc) {
        fputs("\n6. Per epoch: iterations per epoch = ceil(samples / (batch x N)) (models file; "
              "the batch is per node).\n"
              "   An epoch is that many all-reduces of the same gradient, so at one (model, N) "
              "every algorithm's\n"
              "   time is multiplied alike and every reduction above is the same per epoch; a "
              "normalised bar moves\n"
              "   by its model's iterations over GoogLeNet's:\n\n",
              f);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}
