/*
 * reproduce_wrht.c — `opticoll reproduce wrht`: the WRHT seed's tables and figures, shown three
 * ways.
 *
 * The WRHT seed (wrht-allreduce-optical.txt; Dai, Chen, Huang, Zhang and Zhang) proposes an
 * all-reduce for a WDM optical ring: groups of m nodes along the ring collect at their middle node,
 * level after level, the last representatives exchange all-to-all when the wavelengths allow it,
 * and the result is broadcast back down. Like every reproduction ("the papers are not
 * always right") each value is shown as the paper prints it, as the paper's own formula gives it
 * (evaluated here), and as our simulation gives it — a schedule the library generated, checked with
 * its semantic verifier, mapped onto the network model, checked for resource conflicts and costed
 * (oc_run) — with one line of reason for every difference. The numbers the paper prints live only
 * in oc__rwrht_paper (reproduce_wrht_data.c).
 *
 * What is reproduced:
 *  0. Table II (the simulated architectures) against the parameters our ring and fat-tree models
 *     actually use, and the four DNN models of IV.A against data/models.tsv (the models file of
 *     `opticoll train`, read with oc_models_read; the gradient is float32, 4 bytes a parameter).
 *  1. Table I, steps at N = 1000, w = 64: Ring, H-Ring at the printed g = 5 and at our g, BT, and
 *     WRHT at the seed's m = 2w + 1 with the seed's all-to-all rule (III.C-D: the last reduce step
 *     is an all-to-all among m* = ceil(N / m^(ceil(log_m N) - 1)) representatives when
 *     ceil(m*^2 / 8) <= w), at our m, and with our full search (which may stripe the vector over
 *     spare wavelengths: ours, not the seed's); with Lemma 1's 2 ceil(log_(2w+1) N).
 *  2. The motivation example (III.B, Fig. 2): 15 nodes, 2 wavelengths, BT in 8 steps and WRHT in 3.
 *  3. Fig. 4: Ring, H-Ring, BT and WRHT on the ring (w = 64) for N = 1024 .. 4096 and the four
 *     models, normalised as the paper does, by one bar: WRHT's GoogLeNet time at the figure's
 *     first N (each N once had its own normaliser, which pinned that bar at 1 and hid
 *     the growth with N the paper describes). The paper only draws bars, so the printed column
 *     says "bar only"; a table sets the paper's words on each algorithm's trend (IV.B, IV.C)
 *     beside our time at the last N over the first, split into steps and mean step time. WRHT
 *     is the paper's own (m = 2w+1, its all-to-all rule, pieces=1); `wrht` unpinned is our
 *     striped search, shown beside it and named as such wherever the paper's numbers are.
 *     H-Ring is run three ways: our g at the ring's default rule (spread=1: its N/g chunks side
 *     by side on wavelengths), and under the paper's rule (spread=0, net/ring.c: every transfer
 *     on one wavelength, as eq. 1 costs a step) at the divisor of N nearest Table I's g = 5 and
 *     at our g. The WRHT-vs-H-Ring claim sets the paper's setup (the paper's WRHT and H-Ring at
 *     g ~ 5, both at spread=0) against our search's (striped WRHT and H-Ring at our g, both at
 *     spread=1), and names the mixed pair (the paper's WRHT against H-Ring spreading).
 *  4. Fig. 5: O-Ring and WRHT on the ring against E-Ring and E-RD (ring and recursive doubling on
 *     the `fattree` model of Table II's electrical network) for N = 128 .. 1024, normalised alike;
 *     where N < 2w + 1 the seed's WRHT is one group of all N nodes.
 *  5. The headline averages (abstract, IV.B, IV.C, conclusion): WRHT's reduction of the
 *     communication time against Ring, H-Ring and BT over Fig. 4's points and against E-Ring and
 *     E-RD over Fig. 5's, and O-Ring against E-Ring. Ours is the mean of the per-point reductions
 *     1 - T_WRHT / T_other over the 16 points (4 N x 4 models) of a figure; the reduction of the
 *     summed times is given beside it, since the paper does not say how it averages.
 *  6. Per epoch: the paper counts one epoch; an epoch is iterations x one all-reduce, with the
 *     iterations of the models file (ceil(samples / (batch x N))). The count is the same for every
 *     algorithm at one (model, N), so the reductions do not change; which normalised bars would
 *     change is listed.
 *  7. Sensitivity: the five headline reductions at the figures' first N (the mean over the
 *     models) again with one number we chose changed on the ring: the O/E/O clock (0, 0.25, 4
 *     ns a flit against our assumed 1) and two fibres a direction (TeraRack's four rings against
 *     the simulation's double ring); every cell from verified runs (the rows: oc__rwrht_sens,
 *     reproduce_wrht_data.c).
 *
 * The claims table (printed first, reproduce.c): the five reductions of the abstract and the
 * conclusion (the introduction repeats them), ours computed as in 5, each reason built from the
 * numbers that make it: the per-point range, the points where WRHT is slower, the mechanism of
 * our model, the mean wrht's striped default gives, and the mean with O/E/O taken as a latency
 * overlapped with the transmission. Our ring charges O/E/O (one cycle per 32 B flit, at an
 * assumed 1 GHz) as a bandwidth term added to every step; Table II's row says so with its share.
 *
 * Settings (oc_reproduce_settings; `reproduce -w -n --sizes`): -w replaces the 64 wavelengths of
 * Table I and both figures, -n Table I's N and each figure's four node counts by that one N,
 * --sizes the four DNN gradients (up to MAX_MODELS sizes; the smallest normalises, as GoogLeNet,
 * the smallest gradient, does in the paper; no per-epoch section then). Table I's printed column
 * holds only at N = 1000, w = 64; the III.B example keeps its 15 nodes and 2 wavelengths.
 *
 * The paper's formula for a time is its step count times one step's time d/B + a (eq. 1 for
 * WRHT), with d/B + a taken from our model for that run (the report's step_time_s), so that the
 * formula and the simulated columns differ only where the step counts differ (on the ring) or
 * where contention and path lengths differ (on the fat-tree).
 *
 * Runtime. The runs go through oc__sim_batch (two threads). The big sweeps skip the real-data run
 * (data_check = 0; the symbolic verifier and the resource check always run); Table I and the
 * example run with it. Ring and H-Ring cut the vector into N chunks, and the library's reduction
 * verifier holds a 16-byte cell per node and chunk, O(N^2) cells: one ring all-reduce on 4096
 * nodes takes ~2 s and ~330 MB, so every figure point is simulated. Above RECOST_ABOVE nodes (none
 * of the seed's figures) these two would be simulated once per N, at
 * GoogLeNet's gradient (the normaliser), and the other models are re-costed: the same verified
 * schedule's mapped steps (they do not depend on the vector size when the chunk count is fixed)
 * times the ring model's time for one step moving that model's chunk, ceil(bytes / N), read from a
 * one-step probe run (all-gather on 2 nodes with that block). The ring model costs every step
 * alike (time = steps x step time, checked on every run re-costing relies on), the probe's step
 * time must equal the verified GoogLeNet run's at its own chunk (checked), and at N = RECOST_ABOVE
 * every model is both simulated and re-costed and the largest difference is printed.
 *
 * The models file is the one `opticoll train` reads by default (oc__models_default: the source
 * tree's data/models.tsv, or the installed copy).
 *
 * The files (reproduce_wrht.h): the paper's numbers, formulas, runs and models in
 * reproduce_wrht_data.c, the tables in reproduce_wrht_tables.c, the figures, claims,
 * sensitivity and per-epoch sections in reproduce_wrht_figures.c; here the plan of the runs,
 * their results and the order of it all.
 */
#include "reproduce/reproduce_wrht.h"

static int plan_steps(wrht_data *d, steps_plan *s, uint32_t N, uint32_t w, uint32_t g_printed) {
    char net[32], p[96];
    oc__rwrht_ring_net(net, sizeof net, w);
    jobs *J = &d->J;
    const uint64_t B = TABLE1_BYTES;
    int rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "ring", "ring", N, B, "", net, 1, &s->ring);
    s->hring_printed = s->hring_printed0 = NONE;
    if (!rc && g_printed && N % g_printed == 0) { /* -n: the printed g may not divide N */
        char net0[48];
        oc__cellf(net0, sizeof net0, "%s spread=0", net);
        oc__cellf(p, sizeof p, "g=%" PRIu32, g_printed);
        rc =
            oc__rwrht_job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, p, net, 1, &s->hring_printed);
        if (!rc)
            rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, p, net0, 1,
                                   &s->hring_printed0);
    }
    if (!rc)
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, "", net, 1, &s->hring_ours);
    if (!rc) rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "bt", "ring", N, B, "", net, 1, &s->bt);
    if (!rc) {
        oc__rwrht_seed_wrht_params(p, sizeof p, N, oc__rwrht_seed_m(N, w), w);
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, p, net, 1, &s->wrht_seed);
    }
    if (!rc)
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "pieces=1", net, 1,
                               &s->wrht_unstriped);
    if (!rc)
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "", net, 1, &s->wrht_ours);
    return rc;
}

/* The example: BT, WRHT at the printed group size (N / groups) with an all-to-all among the
 * groups' representatives, our unstriped search and our full search. */
static int plan_example(wrht_data *d, steps_plan *s) {
    const wrht_printed *P = &oc__rwrht_paper;
    const uint32_t N = P->ex_nodes, w = P->ex_wavelengths, m = N / P->ex_groups;
    char net[32], p[96];
    oc__rwrht_ring_net(net, sizeof net, w);
    jobs *J = &d->J;
    const uint64_t B = TABLE1_BYTES;
    s->ring = s->hring_printed = s->hring_printed0 = s->hring_ours = NONE;
    int rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "bt", "ring", N, B, "", net, 1, &s->bt);
    if (!rc) {
        oc__cellf(p, sizeof p, "m=%" PRIu32 " alltoall=%" PRIu32 " pieces=1", m, P->ex_groups);
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, p, net, 1, &s->wrht_seed);
    }
    if (!rc)
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "pieces=1", net, 1,
                               &s->wrht_unstriped);
    if (!rc)
        rc = oc__rwrht_job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "", net, 1, &s->wrht_ours);
    return rc;
}

static int plan_probe(wrht_data *d, uint32_t N, uint64_t bytes, size_t *at) {
    char net[32];
    oc__rwrht_ring_net(net, sizeof net, d->w);
    return oc__rwrht_job_add(&d->J, OC_ALLGATHER, "ring", "ring", 2, oc__ceil_div(bytes, N), "",
                             net, 0, at);
}

static int plan_figure(wrht_data *d, figure *F, const fig_algo *algos, size_t na,
                       const uint32_t *nodes, size_t nn) {
    const uint32_t w = d->w;
    char net[32], p[96];
    int rc = 0;
    F->algos = algos;
    F->na = na;
    memcpy(F->nodes, nodes, nn * sizeof *nodes);
    F->nn = nn;
    F->nm = d->nm;
    for (size_t n = nn; n-- > 0 && !rc;) { /* largest N first: the batch runs in list order */
        const uint32_t N = nodes[n];
        F->probe_check[n] = NONE;
        for (size_t a = 0; a < F->na && !rc; a++) {
            const fig_algo *A = &algos[a];
            const char *netp =
                !strcmp(A->network, "ring") ? oc__rwrht_ring_net(net, sizeof net, w) : "";
            if (A->spread0) oc__cellf(net + strlen(net), sizeof net - strlen(net), " spread=0");
            p[0] = 0;
            if (A->kind == F_WRHT)
                oc__rwrht_seed_wrht_params(p, sizeof p, N, oc__rwrht_seed_m(N, w), w);
            if (A->near_g)
                oc__cellf(p, sizeof p, "g=%" PRIu32, oc__rwrht_near_divisor(N, A->near_g));
            size_t base = NONE;
            if (oc__rwrht_recost(A, N))
                rc = oc__rwrht_job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N,
                                       d->models[d->norm].bytes, p, netp, 0, &base);
            for (size_t m = 0; m < d->nm && !rc; m++) {
                point *pt = &F->p[n][m][a];
                pt->job = pt->base = pt->probe = NONE;
                if (base != NONE && m != d->norm) {
                    pt->base = base;
                    rc = plan_probe(d, N, d->models[m].bytes, &pt->probe);
                } else {
                    rc = oc__rwrht_job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N,
                                           d->models[m].bytes, p, netp, 0, &pt->job);
                    /* At the last simulated N, probe too: re-costing is checked against it. */
                    if (!rc && oc__rwrht_chunked(A) && N == RECOST_ABOVE)
                        rc = plan_probe(d, N, d->models[m].bytes, &pt->probe);
                }
            }
            if (!rc && base != NONE)
                rc = plan_probe(d, N, d->models[d->norm].bytes, &F->probe_check[n]);
        }
    }
    return rc;
}

/* ---- Fig. 4 and Fig. 5: results ---------------------------------------------------------------
 */

static double paper_steps(const fig_algo *A, uint32_t N, uint32_t w, uint32_t g) {
    switch (A->kind) {
    case F_RING:
        return oc__rwrht_f_ring(N);
    case F_HRING:
        return g ? oc__rwrht_f_hring(N, g, w) : NAN;
    case F_BT:
        return oc__rwrht_f_bt(N);
    case F_WRHT:
        return oc__rwrht_f_wrht(N, oc__rwrht_seed_m(N, w), w).steps;
    case F_WRHT_OURS:
    case F_ERD:
        return NAN;
    }
    return NAN;
}

/* Checks the ring model's "every step costs the same" on a run that re-costing relies on. */
static int check_uniform(const jobs *J, size_t i, char *why, size_t whylen) {
    const oc__sim *s = oc__rwrht_sim_of(J, i);
    double step = oc__report_figure(oc__rwrht_rep_of(J, i), "step_time_s");
    if (!s->ok || isnan(step) || fabs(s->time_s - (double)s->steps * step) > 1e-9 * s->time_s)
        return oc__fail(why, whylen, OC_EINVAL,
                        "reproduce wrht: re-costing needs time = steps x step time, and %s on "
                        "%" PRIu32 " nodes does not give it",
                        J->v[i].req.algo, J->v[i].req.nodes);
    return 0;
}

static int resolve_figure(wrht_data *d, figure *F, char *why, size_t whylen) {
    const uint32_t w = d->w;
    const jobs *J = &d->J;
    int rc = 0;
    for (size_t n = 0; n < F->nn && !rc; n++) {
        const uint32_t N = F->nodes[n];
        for (size_t a = 0; a < F->na && !rc; a++) {
            const fig_algo *A = &F->algos[a];
            for (size_t m = 0; m < d->nm && !rc; m++) {
                point *pt = &F->p[n][m][a];
                size_t src = pt->job != NONE ? pt->job : pt->base;
                const oc__sim *s = oc__rwrht_sim_of(J, src);
                pt->ok = s->ok;
                pt->reconfig_s = NAN;
                if (!s->ok) continue;
                oc__rwrht_used_text(pt->used, sizeof pt->used, J, src);
                pt->steps = s->steps;
                const oc_report *r = oc__rwrht_rep_of(J, src);
                if (pt->job != NONE) {
                    pt->time_s = s->time_s;
                    pt->step_s = oc__report_figure(r, "step_time_s");
                    pt->reconfig_s = oc__report_figure(r, "step_reconfig_s");
                    pt->oeo_s = oc__report_figure(r, "step_oeo_s");
                    if (pt->probe != NONE) { /* both: compare */
                        if ((rc = check_uniform(J, pt->job, why, whylen))) break;
                        double rec =
                            (double)s->steps *
                            oc__report_figure(oc__rwrht_rep_of(J, pt->probe), "step_time_s");
                        double dev = fabs(rec / s->time_s - 1);
                        if (dev > F->recost_dev) F->recost_dev = dev;
                        F->recost_compared++;
                    }
                } else {
                    if ((rc = check_uniform(J, pt->base, why, whylen))) break;
                    const oc_report *pr = oc__rwrht_rep_of(J, pt->probe);
                    if (!pr) {
                        pt->ok = 0;
                        continue;
                    }
                    pt->recosted = 1;
                    pt->step_s = oc__report_figure(pr, "step_time_s");
                    pt->reconfig_s = oc__report_figure(pr, "step_reconfig_s");
                    pt->oeo_s = oc__report_figure(pr, "step_oeo_s");
                    pt->time_s = (double)s->steps * pt->step_s;
                }
                if (strcmp(A->network, "ring") || isnan(pt->oeo_s)) pt->oeo_s = 0;
                if (strcmp(A->network, "ring")) {
                    pt->reconfig_s = NAN;
                    pt->overhead = oc__report_figure(r, "time_router_delay_s") / pt->time_s;
                } else {
                    pt->overhead = (double)pt->steps * pt->reconfig_s / pt->time_s;
                }
                pt->g = A->kind == F_HRING ? oc__rwrht_used_u32(J, src, "g") : 0;
                pt->f_steps = paper_steps(A, N, w, pt->g);
                pt->f_time = pt->f_steps * pt->step_s;
                /* spread=0: the formula's steps with its group rounds' bundles as mapped (what
                 * they add over one chunk a step, the model's time_bundles_s) */
                const double bundles = oc__report_figure(r, "time_bundles_s");
                if (A->spread0 && !isnan(bundles)) pt->f_time += bundles;
            }
        }
        /* The probe at the normaliser's own chunk must cost what its verified run costs. */
        if (!rc && F->probe_check[n] != NONE) {
            for (size_t a = 0; a < F->na; a++) {
                const point *pt = &F->p[n][d->norm][a];
                if (pt->job == NONE || !oc__rwrht_recost(&F->algos[a], N) ||
                    !oc__rwrht_sim_of(J, pt->job)->ok)
                    continue;
                double p = oc__report_figure(oc__rwrht_rep_of(J, F->probe_check[n]), "step_time_s");
                if (fabs(p - pt->step_s) > 1e-12 * pt->step_s)
                    rc = oc__fail(why, whylen, OC_EINVAL,
                                  "reproduce wrht: the probe's step (%.9g s) is not the verified "
                                  "run's (%.9g s) at %" PRIu32 " nodes: re-costing would be wrong",
                                  p, pt->step_s, N);
            }
        }
        /* Normalise as the paper does (IV.B, IV.C: "normalized by dividing the result of WRHT
         * in GoogLeNet"): by one bar for the whole figure, the seed's WRHT at the normaliser
         * model and the figure's first N, so that every bar's growth with N stays visible. */
        size_t iw = F->algos == oc__rwrht_fig4_algos ? I_WRHT4 : I_WRHT5;
        const point *ref = &F->p[0][d->norm][iw];
        for (size_t a = 0; a < F->na; a++)
            for (size_t m = 0; m < d->nm; m++) {
                point *pt = &F->p[n][m][a];
                pt->norm = pt->ok && ref->ok ? pt->time_s / ref->time_s : NAN;
                pt->f_norm = pt->ok && ref->ok ? pt->f_time / ref->f_time : NAN;
            }
    }
    return rc;
}

/* ---- printing: header, models, Table II -------------------------------------------------------
 */

static void print_header(FILE *f) {
    fputs(
        "opticoll reproduce wrht — WRHT all-reduce on an optical ring (Dai, Chen, Huang, Zhang, "
        "Zhang;\n"
        "seed: wrht-allreduce-optical.txt): Table II, Table I, the III.B example, Fig. 4, Fig. 5 "
        "and the\n"
        "headline averages.\n\n"
        "Columns:\n"
        "  paper (printed)  the value as the paper prints it (never computed here); \"bar only\" "
        "where the\n"
        "                   paper draws a bar and prints no number\n"
        "  formula          the paper's own formula, evaluated by this code at the same "
        "parameters (a time:\n"
        "                   the paper's step count x one step's time d/B + a of our model, eq. 1)\n"
        "  simulated        our schedule: generated, checked by the semantic verifier, mapped "
        "onto the\n"
        "                   network model and checked for resource conflicts, then costed\n"
        "  reason           one line for every difference (\"agrees\" when all agree)\n",
        f);
}

/* ---- the WRHT reproduction --------------------------------------------------------------------
 */

int oc__reproduce_wrht(oc__repro *ctx, FILE *f, char *why, size_t whylen) {
    const wrht_printed *P = &oc__rwrht_paper;
    const oc_reproduce_settings *set = oc__repro_settings(ctx);
    wrht_data *d = calloc(1, sizeof *d);
    int rc = 0;
    if (!d) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    /* The reader's settings (reproduce -w -n --sizes): -w replaces the 64 wavelengths of Table I
     * and both figures, -n Table I's N and each figure's four node counts (one point per model),
     * --sizes the four DNN gradients. The III.B example keeps its 15 nodes and 2 wavelengths. */
    d->w = set->wavelengths ? set->wavelengths : P->opt_wavelengths;
    d->t1_nodes = set->nodes ? set->nodes : P->t1_nodes;
    d->paper_t1 = d->w == P->t1_wavelengths && d->t1_nodes == P->t1_nodes;
    d->paper_figs = !set->wavelengths && !set->nodes && !set->sizes;
    d->sized = set->sizes != NULL;
    const uint32_t one[1] = {set->nodes};
    const uint32_t *n4 = set->nodes ? one : P->fig4_nodes, *n5 = set->nodes ? one : P->fig5_nodes;
    const size_t nn = set->nodes ? 1 : PAPER_FIG;
    rc = d->sized ? oc__rwrht_read_sizes(d->models, &d->nm, &d->norm, set->sizes, why, whylen)
                  : oc__rwrht_read_models(d->models, &d->nm, &d->norm, why, whylen);
    if (rc) goto out;
    /* The big re-costed runs first: the batch takes jobs in list order. */
    if ((rc = plan_figure(d, &d->fig4, oc__rwrht_fig4_algos, FIG4_ALGOS_N, n4, nn)) ||
        (rc = plan_figure(d, &d->fig5, oc__rwrht_fig5_algos, FIG5_ALGOS_N, n5, nn)) ||
        (rc = plan_steps(d, &d->t1, d->t1_nodes, d->w, P->t1_hring_g)) ||
        (rc = plan_example(d, &d->ex)) || (rc = oc__rwrht_plan_sens(d))) {
        if (rc == OC_ENOMEM) oc__fail(why, whylen, rc, "out of memory");
        goto out;
    }
    d->fattree_ref = d->fig5.p[nn - 1][d->norm][2].job;
    if ((rc = oc__sim_batch(d->J.v, d->J.n, why, whylen))) goto out;
    if ((rc = resolve_figure(d, &d->fig4, why, whylen)) ||
        (rc = resolve_figure(d, &d->fig5, why, whylen)))
        goto out;

    print_header(f);
    oc__rwrht_print_networks(f, d);
    size_t asked = 0, checked = 0;
    for (size_t i = 0; i < d->J.n; i++)
        if (d->J.v[i].req.data_check) {
            asked++;
            checked += d->J.v[i].sim.ok && d->J.v[i].sim.data_checked;
        }
    fprintf(f,
            "Data: %zu of the %zu Table I and III.B runs were also executed with real data (the "
            "library skips\n"
            "  what does not fit in memory); Fig. 4 and Fig. 5 ran with data_check = 0 (the "
            "symbolic verifier and\n"
            "  the resource check only). Every point is simulated: ring and H-Ring would be "
            "re-costed above\n"
            "  %d nodes from one verified run at %s's gradient; the re-costing is checked at "
            "N = 4096 (Fig. 4).\n",
            checked, asked, RECOST_ABOVE, d->models[d->norm].name);
    if ((rc = oc__rwrht_print_models(f, d)) || (rc = oc__rwrht_print_table2(f, d)) ||
        (rc = oc__rwrht_print_table1(f, d)) || (rc = oc__rwrht_print_theorem1(ctx, f, d)) ||
        (rc = oc__rwrht_print_example(f, d)))
        goto nomem;
    fprintf(f,
            "\n3. Fig. 4: all-reduce on the ring (w = %" PRIu32 "), one iteration's float32 "
            "gradient.\n",
            d->w);
    oc__rwrht_print_fig_header(f, d, &d->fig4);
    fputs("   H-Ring's g is our search's in the column \"H-Ring\" (the ring's default rule, "
          "spread=1: a transfer's\n"
          "   chunks side by side on wavelengths). Beside it, under the paper's rule (spread=0: "
          "every transfer\n"
          "   on one wavelength, eq. 1): H-Ring at the divisor of N nearest the paper's g = 5, "
          "and at our g.\n",
          f);
    if (d->fig4.recost_compared)
        fprintf(f,
                "   Re-costing (ring, H-Ring above N = %d) checked against full runs at\n"
                "   N = %d: %zu points, largest difference %.2g.\n",
                RECOST_ABOVE, RECOST_ABOVE, d->fig4.recost_compared, d->fig4.recost_dev);
    if ((rc = oc__rwrht_print_figure(f, d, &d->fig4, 4)) ||
        (rc = oc__rwrht_print_trends(ctx, f, d, &d->fig4, 4)) ||
        (rc = oc__rwrht_bt_models(ctx, f, d)))
        goto nomem;
    fprintf(f,
            "\n4. Fig. 5: optical (O-Ring, WRHT on the ring, w = %" PRIu32 ") against electrical "
            "(E-Ring, E-RD on the\n"
            "   fattree model); WRHT with m = N where the ring has fewer than 2w+1 nodes (one "
            "group).\n",
            d->w);
    oc__rwrht_print_fig_header(f, d, &d->fig5);
    if ((rc = oc__rwrht_print_figure(f, d, &d->fig5, 5)) ||
        (rc = oc__rwrht_print_trends(ctx, f, d, &d->fig5, 5)))
        goto nomem;
    if ((rc = oc__rwrht_print_headline(ctx, f, d)) || (rc = oc__rwrht_print_epoch(f, d)) ||
        (rc = oc__rwrht_print_sens(f, d)))
        goto nomem;
    if (ferror(f)) rc = oc__fail(why, whylen, OC_EIO, "reproduce: writing the output failed");
    goto out;
nomem:
    oc__fail(why, whylen, rc, "out of memory");
out:
    oc__rwrht_jobs_free(&d->J);
    free(d);
    return rc;
}
