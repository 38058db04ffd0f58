/*
 * registry.c — the network registry behind `opticoll list` and the pipeline: every network model
 * is listed once, in the table below, and found by name.
 */
#include "net/net.h"

#include <string.h>

static const oc__model *const models[] = {
    &oc__model_ring,   &oc__model_fattree,   &oc__model_switch, &oc__model_star,
    &oc__model_fabric, &oc__model_hypercube, &oc__model_torus,  &oc__model_mesh};

size_t oc_network_count(void) {
    return sizeof models / sizeof models[0];
}

const oc_network_info *oc_network_at(size_t i) {
    return i < oc_network_count() ? &models[i]->info : NULL;
}

const oc__model *oc__model_find(const char *name) {
    for (size_t i = 0; name && i < oc_network_count(); i++)
        if (strcmp(models[i]->info.name, name) == 0) return models[i];
    return NULL;
}
