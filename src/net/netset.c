/*
 * netset.c — a network's settings parsed once a run, and every creation of its model from them.
 *
 * A run creates its model many times: the parameter search once per candidate it maps and once
 * per round it maps alone (an OpTree run at w = 64 on the ring: 61 creations), the closed forms'
 * figures and the physical bound once each, the checked run once. Each creation used to parse
 * the `--net key=value` settings again, so a typo was found as often as a model was made and a
 * model's defaults were applied in as many places. Here the settings are read once into the
 * model's own record (oc__netset, net/net.h) and handed to each creation; the pipeline (a run, a
 * compare of many algorithms, an export, a schedule file's check) parses at its start.
 *
 * The one exception is a model whose settings are checked against the node count (the direct
 * networks: a torus's dims must multiply to N): a creation for a spec of another count (a
 * search's sub-problem) parses for that count, as that model's create() did before.
 *
 * The count of parses (oc__netset_parses) is for the test that holds a run to one
 * (test_netset_parse); it is a relaxed atomic, added to from the compare's and the search's
 * worker threads.
 */
#include "net/net.h"

#include <stdatomic.h>
#include <string.h>

static atomic_uint_least64_t parses;

uint64_t oc__netset_parses(void) {
    return (uint64_t)atomic_load_explicit(&parses, memory_order_relaxed);
}

int oc__netset_parse(const oc__model *model, const oc_kv *params, uint32_t nodes, oc__netset *out,
                     char *why, size_t len) {
    memset(out, 0, sizeof *out);
    out->model = model;
    out->params = params;
    out->nodes = nodes;
    atomic_fetch_add_explicit(&parses, 1, memory_order_relaxed);
    return model->parse(params, nodes, out->own.bytes, why, len);
}

int oc__net_create(const oc__netset *set, const oc__spec *spec, int check, oc__netrun **out,
                   char *why, size_t len) {
    *out = NULL;
    if (set->model->parse_by_nodes && spec->nodes != set->nodes) {
        oc__netset other;
        int rc = oc__netset_parse(set->model, set->params, spec->nodes, &other, why, len);
        if (rc) return rc;
        return set->model->create(spec, other.own.bytes, check, out, why, len);
    }
    return set->model->create(spec, set->own.bytes, check, out, why, len);
}

int oc__model_create(const oc__model *model, const oc__spec *spec, const oc_kv *params, int check,
                     oc__netrun **out, char *why, size_t len) {
    oc__netset set;
    *out = NULL;
    int rc = oc__netset_parse(model, params, spec->nodes, &set, why, len);
    return rc ? rc : oc__net_create(&set, spec, check, out, why, len);
}
