/*
 * registry.c — the algorithm table behind `opticoll list` and the pipeline: the one file that
 * names every algorithm (OC_ALGO_LIST, algos.h), and so the one file above all of them
 * (ARCHITECTURE.md). It lends nothing to the algorithms: what they share is algo_common.c, below
 * every algorithm. The networks' registry is src/net/registry.c.
 */
#include "algo/algos.h"

#include <stdlib.h>
#include <string.h>

#define OC__ALGO_PTR(id) &oc__algo_##id,
static const oc__algo *const algos[] = {OC_ALGO_LIST(OC__ALGO_PTR)};
#undef OC__ALGO_PTR

size_t oc__algo_count(void) {
    return sizeof algos / sizeof algos[0];
}

const oc__algo *oc__algo_at(size_t i) {
    return i < oc__algo_count() ? algos[i] : NULL;
}

const oc__algo *oc__algo_find(oc_collective coll, const char *name) {
    for (size_t i = 0; name && i < oc__algo_count(); i++)
        if (algos[i]->info.collective == coll && strcmp(algos[i]->info.name, name) == 0)
            return algos[i];
    return NULL;
}

int oc__algo_supports(const oc__algo *a, const char *net) {
    const char *p = a->info.networks;
    size_t n = strlen(net);
    while (p && *p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && strncmp(p, net, n) == 0) return 1;
        p = comma ? comma + 1 : NULL;
    }
    return 0;
}

size_t oc_algorithm_count(void) {
    return oc__algo_count();
}

const oc_algorithm_info *oc_algorithm_at(size_t i) {
    return i < oc__algo_count() ? &algos[i]->info : NULL;
}

int oc_algorithm_takes(const oc_algorithm_info *a, const char *key) {
    for (size_t i = 0; a && key && i < oc__algo_count(); i++) {
        if (&algos[i]->info != a) continue;
        for (const char *const *p = algos[i]->param_names; p && *p; p++)
            if (!strcmp(*p, key)) return 1;
        return 0;
    }
    return 0;
}
