/*
 * pbound.c — the pipeline's side of the physical bounds (src/bounds): it creates the network
 * model once, from the run's parsed settings, to read them typed (the model's config hook,
 * core/netcfg.h), hands them with the collective, N, root and SIZE to the bounds room, and puts the
 * answer in the report. No algorithm is consulted: the bound is the network's, and
 * oc_physical_bound answers it for a request whose algorithm it ignores.
 */
#include "core/quote.h"
#include "run/pipeline.h"

#include <string.h>

/* The physical bound (src/bounds) of a collective on the network `net` (its settings parsed by
 * the run) or, when it is NULL, on `model` with `net_params`, parsed here after the request's own
 * checks: the model is created once to hand over its settings typed (its config hook), never
 * run. *unit and *unit_value (when unit is not NULL): the unit the model prints its times in. */
static int pbound_for(oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                      const oc__netset *net, const oc__model *model, const oc_kv *net_params,
                      oc__pbound *out, const char **unit, double *unit_value, char *why,
                      size_t len) {
    oc__pbound_in in = {.coll = coll, .nodes = nodes, .root = root, .bytes = bytes};
    if ((unsigned)coll >= OC_COLLECTIVE_COUNT)
        return oc__fail(why, len, OC_EINVAL, "unknown collective");
    if (nodes < 1) return oc__fail(why, len, OC_EINVAL, "the number of nodes must be at least 1");
    if (nodes > OC_MAX_NODES)
        return oc__fail(why, len, OC_ETOOBIG, "%u nodes: at most %u are supported", nodes,
                        OC_MAX_NODES);
    if (root >= nodes)
        return oc__fail(why, len, OC_EINVAL, "root %u is not a node (0..%u)", root, nodes - 1);
    /* The probe: one chunk of one unit (bounds.h), so that a model whose settings depend on the
     * chunk (the direct networks' packets) hands over those of the largest chunk. */
    in.bytes = bytes;
    oc__netset parsed;
    if (!net) {
        int rc = oc__netset_parse(model, net_params, nodes, &parsed, why, len);
        if (rc) return rc;
        net = &parsed;
    }
    model = net->model;
    oc__spec probe;
    int rc = oc__spec_init(&probe, OC_ALLREDUCE, nodes, 0, oc__pb_unit_bytes(&in), 1, why, len);
    if (rc) return rc;
    oc__netrun *run = NULL;
    rc = oc__net_create(net, &probe, 0, &run, why, len);
    if (!rc) {
        memset(&in.cfg, 0, sizeof in.cfg);
        if (model->config) model->config(run, &in.cfg);
        model->destroy(run);
        if (unit) *unit = oc__netcfg_time_unit(&in.cfg, unit_value);
        rc = oc__pbound_compute(&in, out, why, len);
    }
    oc__spec_free(&probe);
    return rc;
}

int oc__pbound_report(const oc_request *req, const oc__netset *net, oc_report *rep, char *why,
                      size_t len) {
    oc__pbound b;
    int rc = pbound_for(req->collective, req->nodes, req->root, req->bytes, net, NULL, NULL, &b,
                        NULL, NULL, why, len);
    if (rc == OC_ENOTSUP) {
        if (why && len) why[0] = 0;
        return 0;
    }
    if (rc) return rc;
    rep->has_pbound = 1;
    rep->pbound_steps = b.steps;
    rep->pbound_time_s = b.time_s;
    rep->pbound_steps_arg = b.steps_arg;
    rep->pbound_time_arg = b.time_arg;
    rep->pbound_gap_side = b.gap_side;
    return 0;
}

static int physical_bound_in(const oc_request *req, oc_physical_bound_info *out, char *why,
                             size_t len) {
    if (!req || !out) return oc__fail(why, len, OC_EINVAL, "no request");
    if (!req->network) return oc__fail(why, len, OC_EINVAL, "a physical bound needs a network");
    const oc__model *model = oc__model_find(req->network);
    if (!model) return oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(req->network));
    oc__pbound b;
    const char *unit = NULL;
    double unit_value = 1;
    int rc = pbound_for(req->collective, req->nodes, req->root, req->bytes, NULL, model,
                        req->net_params, &b, &unit, &unit_value, why, len);
    if (rc) return rc;
    *out = (oc_physical_bound_info){b.steps,    b.time_s, b.steps_arg, b.time_arg,
                                    b.gap_side, unit,     unit_value};
    return 0;
}

int oc_physical_bound(const oc_request *req, oc_physical_bound_info *out, char *why, size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = physical_bound_in(req, out, why, len);
    oc__settings_leave(prev);
    return rc;
}

/* What the CLI prints after "likely loose: ", per side: the reason a gap points there. */
oc_loose_side oc_physical_bound_loose(const oc_physical_bound_info *b, double ratio,
                                      const char **reason) {
    static const char *const why_side[] = {
        [OC_LOOSE_NONE] = "",
        [OC_LOOSE_SCHEDULE] = "the schedules (a capacity argument: schedules that fill every "
                              "receiver each step would meet it)",
        [OC_LOOSE_BOUND] = "the bound (its argument ignores the data volume)",
        [OC_LOOSE_BOTH] = "both (the bound counts one tree a chunk, a reduce and broadcast pay "
                          "two; the best schedule loads some links above the average)"};
    oc_loose_side side = OC_LOOSE_NONE;
    /* !(ratio <= threshold): a NaN ratio names nothing either */
    if (b && ratio > OC_LOOSE_RATIO && (unsigned)b->gap_side <= OC_LOOSE_BOTH) side = b->gap_side;
    if (reason) *reason = why_side[side];
    return side;
}

const char *oc_loose_side_name(oc_loose_side side) {
    switch (side) {
    case OC_LOOSE_SCHEDULE:
        return "schedule";
    case OC_LOOSE_BOUND:
        return "bound";
    case OC_LOOSE_BOTH:
        return "both";
    case OC_LOOSE_NONE:
    default:
        return "none";
    }
}
