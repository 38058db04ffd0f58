/*
 * aas_common.c — the pieces the all-to-all algorithms of the all-to-all-scatter notes share
 * (aas.h): packet labels, the plan, and the direct network's typed settings for the closed forms.
 */
#include "aas/aas.h"

#include <string.h>

int oc__aas_send(oc__emit *e, uint32_t from, uint32_t to, uint32_t d, uint32_t s0, uint32_t count) {
    const uint32_t N = e->spec->nodes;
    return oc__emit_transfer(e, from, to, OC_OP_COPY, d * N + s0, count);
}

int oc__aas_plan(oc__plan *p, const char *algo, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, const char *const *known, uint64_t transfers,
                 char *why, size_t len) {
    memset(p, 0, sizeof *p);
    int rc = oc__kv_only(params, known, algo, why, len);
    if (rc || (rc = oc__plan_work(algo, nodes, transfers, why, len))) return rc;
    return oc__plan_begin(p, coll, nodes, root, bytes, 1, why, len);
}

int oc__aas_network(const oc__formula_in *in, oc__direct_cfg *cfg) {
    const oc__direct_cfg *direct = oc__netcfg_direct(&in->cfg);
    if (!direct) return OC_EINVAL;
    *cfg = *direct;
    return 0;
}

void oc__aas_formula(oc_report *rep, double steps, double time_s) {
    rep->has_formula = 1;
    rep->steps_formula = steps;
    rep->has_time_formula = time_s >= 0;
    rep->time_formula_s = time_s >= 0 ? time_s : 0;
}

int oc__aas_assumptions(oc_report *rep, const oc__direct_cfg *cfg, int want_wh, int want_combining,
                        int want_allport, int want_full) {
    int rc = 0;
    if (cfg->wormhole != want_wh)
        rc |= oc__report_note(rep, "the notes' formula is for %s switching; this network is %s",
                              want_wh ? "wormhole" : "store-and-forward",
                              cfg->wormhole ? "wormhole (td per hop)" : "store-and-forward");
    if (cfg->combining != want_combining)
        rc |= oc__report_note(rep, "the notes' formula is for the %scombining model",
                              want_combining ? "" : "non-");
    if (want_allport >= 0 && cfg->allport != want_allport)
        rc |= oc__report_note(rep, "the notes' formula is for %s nodes; this network is %s",
                              want_allport ? "all-port" : "1-port",
                              cfg->allport ? "all-port" : "1-port (a node's messages serialise)");
    if (want_full >= 0 && cfg->fullduplex != want_full)
        rc |= oc__report_note(rep, "the notes' formula is for %s-duplex links",
                              want_full ? "full" : "half");
    return rc ? OC_ENOMEM : 0;
}

int oc__aas_pow2(uint32_t n, uint32_t *log) {
    uint32_t k = 0;
    while (k < 31 && (UINT32_C(1) << k) < n)
        k++;
    *log = k;
    return n >= 1 && (UINT32_C(1) << k) == n;
}
