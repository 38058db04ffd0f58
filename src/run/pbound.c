/*
 * pbound.c — the pipeline's side of the physical bounds (src/bounds): it creates the network
 * model once to read its settings typed (the model's config hook, core/netcfg.h), hands them
 * with the collective, N, root and SIZE to the bounds room, and puts the answer in the report.
 * No algorithm is consulted: the bound is the network's, and oc_physical_bound answers it for a
 * request whose algorithm it ignores.
 */
#include "core/quote.h"
#include "run/pipeline.h"

#include <string.h>

/* The physical bound (src/bounds) of a collective on `model` with `net_params`: the model is
 * created once to hand over its settings typed (its config hook), never run. */
static int pbound_for(oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc__model *model, const oc_kv *net_params, oc__pbound *out, char *why,
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
    oc__spec probe;
    int rc = oc__spec_init(&probe, OC_ALLREDUCE, nodes, 0, oc__pb_unit_bytes(&in), 1, why, len);
    if (rc) return rc;
    oc__netrun *net = NULL;
    rc = model->create(&probe, net_params, 0, &net, why, len);
    if (!rc) {
        memset(&in.cfg, 0, sizeof in.cfg);
        if (model->config) model->config(net, &in.cfg);
        model->destroy(net);
        rc = oc__pbound_compute(&in, out, why, len);
    }
    oc__spec_free(&probe);
    return rc;
}

int oc__pbound_report(const oc_request *req, const oc__model *model, oc_report *rep, char *why,
                      size_t len) {
    oc__pbound b;
    int rc = pbound_for(req->collective, req->nodes, req->root, req->bytes, model,
                            req->net_params, &b, why, len);
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
    return 0;
}

int oc_physical_bound(const oc_request *req, oc_physical_bound_info *out, char *why, size_t len) {
    if (!req || !out) return oc__fail(why, len, OC_EINVAL, "no request");
    if (!req->network) return oc__fail(why, len, OC_EINVAL, "a physical bound needs a network");
    const oc__model *model = oc__model_find(req->network);
    if (!model) return oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(req->network));
    oc__pbound b;
    int rc = pbound_for(req->collective, req->nodes, req->root, req->bytes, model,
                            req->net_params, &b, why, len);
    if (rc) return rc;
    *out = (oc_physical_bound_info){b.steps, b.time_s, b.steps_arg, b.time_arg};
    return 0;
}
