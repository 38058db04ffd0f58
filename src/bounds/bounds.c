/*
 * bounds.c — the physical bound of a request: the dispatch from the model's typed settings
 * (core/netcfg.h) to the family file that proves its bounds (bounds.h lists them). It stands
 * above the family files, which stand on bounds_common.c, so that no two files call each other.
 */
#include "bounds/bounds.h"

int oc__pbound_compute(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    *out = (oc__pbound){0, 0, "one node: nothing to move", "one node: nothing to move",
                        OC_LOOSE_SCHEDULE};
    if ((unsigned)in->coll >= OC_COLLECTIVE_COUNT)
        return oc__fail(why, len, OC_ENOTSUP, "no physical bound: unknown collective");
    if (in->nodes < 1) return oc__fail(why, len, OC_EINVAL, "no physical bound: no nodes");
    if (in->nodes == 1) return 0;
    switch (in->cfg.kind) {
    case OC_NETCFG_RING:
        return oc__pbound_ring(in, out, why, len);
    case OC_NETCFG_STAR:
        return oc__pbound_star(in, out, why, len);
    case OC_NETCFG_FABRIC:
        return oc__pbound_fabric(in, out, why, len);
    case OC_NETCFG_SWITCH:
        return oc__pbound_switch(in, out, why, len);
    case OC_NETCFG_FATTREE:
        return oc__pbound_fattree(in, out, why, len);
    case OC_NETCFG_DIRECT:
        return oc__pbound_direct(in, out, why, len);
    case OC_NETCFG_NONE:
    default:
        break;
    }
    return oc__fail(why, len, OC_ENOTSUP, "no physical bound: the network hands no settings");
}
