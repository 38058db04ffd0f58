/*
 * net.h — the network-model interface. A model consumes a schedule's logical rounds (it is a sink),
 * turns each into physical steps by giving every transfer the resources it needs, proves with an
 * independent check that no resource is used twice in a step, computes a lower bound, and costs
 * each step. It never knows which algorithm made the rounds.
 */
#ifndef OC_NET_H
#define OC_NET_H

#include "core/core.h"
#include "report/report.h"

typedef struct oc__netrun oc__netrun;

typedef struct oc__model {
    oc_network_info info;
    /* mode: 1 = map, check and cost (the default); 0 = map and count steps only (parameter
     * searches; the final run always checks). */
    int (*create)(const oc__spec *spec, const oc_kv *params, int check, oc__netrun **out, char *why,
                  size_t whylen);
    oc__sink *(*sink)(oc__netrun *run);
    /* Fills steps, steps_lb, time_s, the breakdown and the parameters used. */
    int (*finish)(oc__netrun *run, oc_report *rep, char *why, size_t whylen);
    /* Figures the closed forms need: the seed's per-step time and the channels per direction. */
    double (*step_time)(const oc__netrun *run);
    uint64_t (*channels)(const oc__netrun *run);
    uint64_t (*steps)(const oc__netrun *run);
    void (*destroy)(oc__netrun *run);
} oc__model;

const oc__model *oc__model_find(const char *name);

extern const oc__model oc__model_ring;
extern const oc__model oc__model_fattree;
extern const oc__model oc__model_switch;
extern const oc__model oc__model_star;
extern const oc__model oc__model_fabric;
extern const oc__model oc__model_hypercube;
extern const oc__model oc__model_torus;
extern const oc__model oc__model_mesh;

#endif
