/*
 * simgrid.c — the SimGrid platform of opticoll's `fattree` model, for `opticoll simgrid`, which
 * runs the same schedule under SimGrid's SMPI (the MPI executor built with smpicc) and prints
 * SimGrid's time beside the model's.
 *
 * The request is run first on the fat-tree (verified and mapped: its time, and the parameters
 * the search chose, which the CLI pins for the executor so that both time one schedule), and the
 * platform is written from the settings of the model that mapped it (its config hook and the
 * parameters it recorded): SimGrid 4.1's cluster with topology="FAT_TREE" and
 * topo_parameters="2;D,L;1,U;1,1" — two levels, D nodes under each of L leaf routers, each leaf
 * with one cable to each of U spines (fattree.c: D = leaf_down, U = ports - leaf_down,
 * L = ceil(N / D); one leaf of N nodes when N < D) — every cable of bw = the model's
 * bandwidth_gbps a direction and lat = its router delay. What stays different is the models':
 * SimGrid charges lat per cable (2 inside a leaf, 4 through a spine) where opticoll charges the
 * router delay per router (1 or 3), and SimGrid shares a link max-min fairly where opticoll
 * charges each round its most loaded link (README, "SimGrid").
 */
#include "formats/formats.h"
#include "net/model_common.h"
#include "run/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sg_watch {
    oc__watch watch;
    oc__netcfg cfg;
} sg_watch;

static int sg_attach(oc__watch *w, const oc__model *model, oc__netrun *net, char *why, size_t len) {
    sg_watch *s = (sg_watch *)w;
    memset(&s->cfg, 0, sizeof s->cfg);
    if (model->config) model->config(net, &s->cfg);
    if (s->cfg.kind != OC_NETCFG_FATTREE)
        return oc__fail(why, len, OC_ENOTSUP,
                        "SimGrid runs the schedule on the fat-tree (-t fattree), not on the %s",
                        model->info.name);
    return 0;
}

static int sg_finish(oc__watch *w, oc_report *rep, char *why, size_t len) {
    (void)w, (void)rep, (void)why, (void)len;
    return 0;
}

static int simgrid_platform_in(const oc_request *req, FILE *f, oc_report **out, char *why,
                               size_t len) {
    sg_watch w = {
        .watch = {.what = "the SimGrid platform", .attach = sg_attach, .finish = sg_finish}};
    *out = NULL;
    oc_report *rep = NULL;
    int rc = oc__run_request(req, &w.watch, &rep, why, len);
    if (rc) goto out;
    const oc__fattree_cfg *c = &w.cfg.fattree;
    uint64_t ports = 0;
    const char *p = oc_kv_get(rep->net_params, "ports");
    if (!p || oc_parse_u64(p, 2, UINT64_MAX, &ports) || ports <= c->leaf_down || !c->packet_s) {
        rc = oc__fail(why, len, OC_EINVAL, "the fat-tree model did not report its router ports");
        goto out;
    }
    const uint64_t N = rep->nodes, D = N < c->leaf_down ? N : c->leaf_down,
                   L = (N + c->leaf_down - 1) / c->leaf_down, U = ports - c->leaf_down;
    const double bps = (double)c->packet_bytes * 8 / c->packet_s;
    fprintf(
        f,
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<!-- opticoll's fattree model for %llu nodes: %llu nodes a leaf, %llu leaves, %llu "
        "spines, %.17g bit/s a cable and direction, %.17g s a router (here: a cable) -->\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"world\" routing=\"Full\">\n"
        "    <cluster id=\"ft\" prefix=\"node-\" suffix=\"\" radical=\"0-%llu\" speed=\"100Gf\"\n"
        "             bw=\"%.17gbps\" lat=\"%.17gs\" topology=\"FAT_TREE\"\n"
        "             topo_parameters=\"2;%llu,%llu;1,%llu;1,1\"/>\n"
        "  </zone>\n"
        "</platform>\n",
        (unsigned long long)N, (unsigned long long)D, (unsigned long long)L, (unsigned long long)U,
        bps, c->router_s, (unsigned long long)(D * L - 1), bps, c->router_s, (unsigned long long)D,
        (unsigned long long)L, (unsigned long long)U);
    if (ferror(f)) {
        rc = oc__fail(why, len, OC_EIO, "cannot write the SimGrid platform");
        goto out;
    }
    *out = rep;
    rep = NULL;
out:
    oc_report_free(rep);
    return rc;
}

int oc_simgrid_platform(const oc_request *req, FILE *f, oc_report **out, char *why, size_t len) {
    if (out) *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = simgrid_platform_in(req, f, out, why, len);
    oc__settings_leave(prev);
    return rc;
}
