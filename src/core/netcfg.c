/*
 * netcfg.c — what the typed network settings of netcfg.h compute on their own, for the models and
 * the algorithms alike: the direct networks' dims read and written the way a user writes them
 * (--net dims=3x5, -p dims=3x5), the mesh's most square default, and one message's time.
 */
#include "core/netcfg.h"
#include "core/quote.h"

#include <stdio.h>
#include <string.h>

int oc__direct_parse_dims(const char *text, uint32_t *dims, uint32_t *ndims, char *why,
                          size_t len) {
    *ndims = 0;
    const char *p = text;
    while (p && *p) {
        char part[24];
        size_t n = strcspn(p, "x");
        if (n == 0 || n >= sizeof part || *ndims >= OC_DIRECT_MAX_DIMS)
            return oc__fail(why, len, OC_EINVAL,
                            "dims '%s': expected side lengths like 8x8 (at most %d)", OC_Q(text),
                            OC_DIRECT_MAX_DIMS);
        memcpy(part, p, n);
        part[n] = 0;
        uint64_t v;
        if (oc_parse_u64(part, 1, OC_MAX_NODES, &v))
            return oc__fail(why, len, OC_EINVAL, "dims '%s': '%s' is not a side length in 1..%u",
                            OC_Q(text), OC_Q(part), OC_MAX_NODES);
        dims[(*ndims)++] = (uint32_t)v;
        p += n;
        if (*p == 'x') {
            p++;
            if (!*p) return oc__fail(why, len, OC_EINVAL, "dims '%s': ends with 'x'", OC_Q(text));
        }
    }
    if (*ndims == 0) return oc__fail(why, len, OC_EINVAL, "dims: empty");
    return 0;
}

void oc__direct_square_dims(uint32_t nodes, uint32_t *a, uint32_t *b) {
    uint32_t best = 1;
    for (uint32_t d = 1; (uint64_t)d * d <= nodes; d++)
        if (nodes % d == 0) best = d;
    *b = best;
    *a = nodes / best;
}

void oc__direct_dims_text(const oc__direct_cfg *c, char *buf, size_t len) {
    int at = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < c->ndims && at >= 0 && (size_t)at < len; i++)
        at += snprintf(buf + at, len - (size_t)at, "%s%u", i ? "x" : "", c->dims[i]);
}

double oc__direct_msg_time(const oc__direct_cfg *cfg, uint64_t hops, uint64_t bytes) {
    return cfg->ts + (cfg->wormhole ? (double)hops * cfg->td : 0) + (double)bytes * cfg->tm;
}

const char *oc__netcfg_time_unit(const oc__netcfg *cfg, double *value) {
    *value = 1;
    if (cfg->kind != OC_NETCFG_STAR) return NULL;
    const oc__star_cfg *s = &cfg->star;
    *value = s->tau > 0 ? s->tau : s->D > 0 ? s->D : 1;
    return s->tau > 0 || s->D == 0 ? "tau" : "D";
}
