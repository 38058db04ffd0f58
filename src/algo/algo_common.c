/*
 * algo_common.c — the helpers every algorithm's plan(), search() and formula() share: the common
 * start and end of a plan, the refusal of a schedule too big to generate, the offers to the
 * parameter search, and the closed forms' shared notes. It sits below every algorithm and knows
 * none of them (ARCHITECTURE.md): the table that lists them is registry.c, above them all.
 */
#include "algo/algos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oc__plan_begin(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, uint32_t q, char *why, size_t whylen) {
    memset(plan, 0, sizeof *plan);
    plan->used = oc_kv_new();
    if (!plan->used) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    return oc__spec_init(&plan->spec, coll, nodes, root, bytes, q, why, whylen);
}

void oc__plan_free(const oc__algo *a, oc__plan *plan) {
    if (a && a->release) a->release(plan);
    oc__spec_free(&plan->spec);
    oc_kv_free(plan->used);
    memset(plan, 0, sizeof *plan);
}

int oc__plan_plain(oc__plan *plan, const char *algo, oc_collective coll, uint32_t nodes,
                   uint32_t root, uint64_t bytes, uint32_t q, const oc_kv *params, char *why,
                   size_t whylen) {
    static const char *const none[] = {NULL};
    int rc = oc__kv_only(params, none, algo, why, whylen);
    if (rc) return rc;
    return oc__plan_begin(plan, coll, nodes, root, bytes, q, why, whylen);
}

void oc__formula_steps(oc_report *rep, const oc__formula_in *in, double steps) {
    rep->has_formula = 1;
    rep->steps_formula = steps;
    rep->has_time_formula = 1;
    rep->time_formula_s = steps * in->step_time;
}

int oc__note_rounds_on_ring(oc_report *rep, const oc__formula_in *in, const char *detail,
                            uint64_t proven) {
    if (!in->cfg.cost.steps_by_link_load || !rep->has_lb || !rep->has_formula ||
        (double)rep->steps_lb <= rep->steps_formula)
        return 0;
    char rest[96] = "";
    if (proven && proven < rep->steps_lb)
        snprintf(rest, sizeof rest, " (%llu short: the busiest links carry more than the average)",
                 (unsigned long long)(rep->steps_lb - proven));
    int rc = oc__report_note(
        rep,
        "the formula counts %.0f rounds, one step each; on the ring a round takes ceil(its busiest "
        "directed link's lightpaths / %llu channels) steps, so the load bound is %llu, %.0f above "
        "it (mapped %llu)",
        rep->steps_formula, (unsigned long long)in->channels, (unsigned long long)rep->steps_lb,
        (double)rep->steps_lb - rep->steps_formula, (unsigned long long)rep->steps);
    if (!rc && detail && detail[0]) rc = oc__report_note(rep, "%s%s", detail, rest);
    return rc;
}

oc__round_rule oc__round_rule_of(const oc__formula_in *in) {
    const oc__netcost *c = &in->cfg.cost;
    if (c->alpha_per_transfer) return OC_RULE_PORTS;
    if (in->lanes) return OC_RULE_CIRCUITS;
    if (c->steps_by_link_load) return OC_RULE_LINKS;
    if (c->group_nodes) return OC_RULE_PACKETS;
    return OC_RULE_NONE;
}

double oc__formula_split(const oc__formula_in *in, uint64_t circuits) {
    if (!in->lanes || !circuits || circuits > in->lanes) return 0;
    return (double)in->lanes / (double)(in->lanes / circuits);
}

int oc__formula_circuits(oc_report *rep, const oc__formula_in *in, double rounds, double reconfigs,
                         double bandwidth_s) {
    const double ta = rounds * in->step_fixed, tr = reconfigs * in->reconfig_s;
    rep->has_formula = 1;
    rep->steps_formula = rounds;
    rep->has_time_formula = 1;
    rep->time_formula_s = ta + tr + bandwidth_s;
    int rc = oc__report_num(rep, "formula_alpha_s", ta);
    rc |= oc__report_num(rep, "formula_reconfig_s", tr);
    rc |= oc__report_num(rep, "formula_bandwidth_s", bandwidth_s);
    /* The model has finished: what it did beyond the closed form's rounds. Scarce fibres only
     * take wavelengths away and add passes, so the form is then the unshared bound; a split
     * round's passes get their own wavelength shares, so there it is no bound, only unsplit. */
    double shared = 0, fextra = 0, split = 0, bw = 0;
    oc_report_number(rep, "fibre_shared_circuits", &shared);
    oc_report_number(rep, "fibre_extra_steps", &fextra);
    oc_report_number(rep, "mzi_extra_steps", &split);
    oc_report_number(rep, "time_bandwidth_s", &bw);
    const double ft = rep->time_formula_s;
    if (shared > 0 || fextra > 0) {
        rc |= oc__report_num(rep, "formula_unshared_bound", 1);
        rc |= oc__report_note(rep,
                              "the closed form is the unshared bound: it gives every circuit its "
                              "tile's share of wavelengths, as if the fibres between servers "
                              "were enough; here %.0f circuits shared their server pair's fibres "
                              "and %.0f passes were added, so the mapped bandwidth is %.6g us "
                              "against the form's %.6g us (%.2fx) and the time %.2fx the form",
                              shared, fextra, bw * 1e6, bandwidth_s * 1e6,
                              bandwidth_s > 0 ? bw / bandwidth_s : 0,
                              ft > 0 ? rep->time_s / ft : 0);
    }
    if (split > 0)
        rc |= oc__report_note(rep,
                              "the closed form counts the rounds unsplit: mzi_split ran the rounds "
                              "above the MZI degree in %.0f more steps, each its own alpha and "
                              "reconfiguration (mapped %.6g us, the form %.6g us: %.2fx)",
                              split, rep->time_s * 1e6, ft * 1e6, ft > 0 ? rep->time_s / ft : 0);
    return rc ? OC_ENOMEM : 0;
}

/* While oc__algo_node_cap asks a plan for its transfer count, where oc__plan_work puts it (the
 * plans count their transfers before anything else; this thread only). */
static _Thread_local uint64_t *plan_work_probe;

int oc__algo_node_cap(const oc__algo *a, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen) {
    const uint32_t cap = a->max_nodes ? a->max_nodes : OC_NODE_CAP;
    if (nodes <= cap) return 0;
    /* A plan that counts its transfers first (oc__plan_work) says how many and the limit: that
     * is the reason to give. Its other refusals (restrictions, parameters) are not the cap's. */
    oc__plan plan = {0};
    uint64_t transfers = 0;
    plan_work_probe = &transfers;
    int rc = a->plan(&plan, coll, nodes, root, bytes, params, why, whylen);
    plan_work_probe = NULL;
    oc__plan_free(a, &plan);
    if (rc == OC_ETOOBIG && why && strstr(why, "transfers")) return rc;
    char count[96] = "";
    if (transfers)
        snprintf(count, sizeof count, "; it would be %llu transfers there",
                 (unsigned long long)transfers);
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "%s %s runs on at most %u nodes, not %u%s (the algorithms measured at up to "
                    "%u nodes: optree, wrht, rd and bruck all-gather)",
                    oc_collective_name(coll), a->info.name, cap, nodes, count, OC_MAX_NODES);
}

int oc__plan_work(const char *algo, uint32_t nodes, uint64_t transfers, char *why, size_t whylen) {
    if (plan_work_probe) *plan_work_probe = transfers;
    if (transfers <= OC_MAX_TRANSFERS) return 0;
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "%s on %u nodes is %llu transfers, more than the %llu this tool generates",
                    algo, nodes, (unsigned long long)transfers,
                    (unsigned long long)OC_MAX_TRANSFERS);
}

/* The parameter set of `pairs` key=value pairs handed to s->offer (bound given) or s->hint. */
static int hand(oc__search *s, const oc__bound *bound, int hint, size_t pairs,
                const char *const *kv) {
    oc_kv *set = oc_kv_new();
    int rc = set ? 0 : OC_ENOMEM;
    for (size_t i = 0; !rc && i < pairs; i++)
        rc = oc_kv_set(set, kv[2 * i], kv[2 * i + 1]);
    if (!rc) rc = hint ? s->hint(s, set) : s->offer(s, bound, set);
    oc_kv_free(set);
    return rc;
}

int oc__search_offer(oc__search *s, const oc__bound *bound, size_t pairs, const char *const *kv) {
    return hand(s, bound, 0, pairs, kv);
}

int oc__search_hint(oc__search *s, size_t pairs, const char *const *kv) {
    return hand(s, NULL, 1, pairs, kv);
}

int oc__search_round_costs(oc__search *s, const oc__spec *spec, int (*gen)(void *ctx, oc__emit *e),
                           void *ctx, uint64_t *steps, double *time_s, char *why, size_t whylen) {
    if (!s->round_costs) return OC_ENOTSUP;
    return s->round_costs(s, spec, gen, ctx, steps, time_s, why, whylen);
}

int oc__search_can_win(oc__search *s, const oc__bound *bound) {
    int yes = 1, rc = s->can_win(s, bound, &yes);
    return rc ? rc : yes;
}

int oc__search_prune(oc__search *s, const char *family, const oc__bound *bound, uint64_t count) {
    return s->prune(s, family, bound, count);
}
