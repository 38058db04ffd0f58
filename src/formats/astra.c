/*
 * astra.c — `opticoll export --format astra-sim -o DIR`: everything ASTRA-sim 2.0's analytical
 * backend needs to run a verified schedule on the same switch as opticoll's `switch` model, so
 * that the two simulators can be run side by side on one schedule:
 *
 *   DIR/trace.RANK.et  the Chakra execution traces (chakra.c), one per rank
 *   DIR/network.yml    the analytical network: topology [ Switch ], npus_count [ N ],
 *                      bandwidth [ B ] (GB/s), latency [ L ] (ns a link)
 *   DIR/system.json    the system layer: scheduling-policy, endpoint-delay, active-chunks-per-
 *                      dimension, preferred-dataset-splits, the four *-implementation lists,
 *                      collective-optimization, local-mem-bw, boost-mode
 *   DIR/memory.json    memory-type NO_MEMORY_EXPANSION (no remote memory)
 *   DIR/run.sh         the command line: AstraSim_Analytical_Congestion_Unaware with the four
 *                      --*-configuration options pointing at these files
 *   DIR/opticoll.json  opticoll's own report of the same run (run --json): its time beside
 *                      ASTRA-sim's
 *
 * The numbers. opticoll's switch charges a transfer of b bytes alpha + b beta (switch.c).
 * ASTRA-sim's congestion-unaware Switch sends NPU -> switch -> NPU, two hops, and charges
 * hops x latency + b / bandwidth, with bandwidth read in GB/s of 2^30 bytes (its
 * bw_GBps_to_Bpns: x 2^30 / 10^9) and the delay cut to whole nanoseconds. So
 *     latency   = alpha / 2, in ns
 *     bandwidth = 1 / beta / 2^30, in ASTRA-sim's GB/s
 * give every single transfer the same time in both, up to that cut. The settings come typed from
 * the model that mapped the run (its config hook, core/netcfg.h), written with 17 significant
 * digits so that the doubles read back exactly. The system layer adds nothing of its own to a
 * point-to-point trace: endpoint-delay 0, one chunk, one split; the collective implementations
 * are required fields that a trace of sends and receives never calls.
 *
 * Where the two still differ is the model, not the files (README, "Simulators side by side"):
 * ASTRA-sim's congestion-unaware backend limits only what a rank sends (a rank's sends leave one
 * after another), while opticoll's switch serialises each node's receive port as well. A
 * schedule whose rounds have every node receive at most once (ring, recursive doubling and
 * halving, Bruck, neighbour exchange) costs the same in both; one where a node receives from two
 * senders in one round (the double binary tree's inner nodes, reducing their two children at
 * once) costs more in opticoll.
 *
 * Only the switch is exported: ASTRA-sim has no model of a WDM ring, a star or a circuit fabric,
 * and its Ring/FullyConnected topologies are not opticoll's fat-tree or direct networks. One node
 * is refused: ASTRA-sim's network reader stops at an npus_count of 1 (NetworkParser.cc of
 * astra-network-analytical, check_validity).
 */
#include "formats/formats.h"
#include "net/model_common.h"
#include "run/watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A watch that keeps the typed settings of the model that mapped the run. */
typedef struct astra_watch {
    oc__watch watch;
    oc__netcfg cfg;
} astra_watch;

static int astra_attach(oc__watch *w, const oc__model *model, oc__netrun *net, char *why,
                        size_t len) {
    astra_watch *a = (astra_watch *)w;
    memset(&a->cfg, 0, sizeof a->cfg);
    if (model->config) model->config(net, &a->cfg);
    if (a->cfg.kind != OC_NETCFG_SWITCH)
        return oc__fail(why, len, OC_ENOTSUP,
                        "ASTRA-sim's analytical backend is exported for the switch only (-t "
                        "switch): it has no model of the %s",
                        model->info.name);
    return 0;
}

static int astra_finish(oc__watch *w, oc_report *rep, char *why, size_t len) {
    (void)w, (void)rep, (void)why, (void)len;
    return 0;
}

/* A rendered file handed to the writer; its failure (an OC_ code) stops the export. */
static int hand(oc_astra_writer write, void *ctx, const char *name, const char *text, size_t n,
                char *why, size_t len) {
    int rc = write(ctx, name, text, n);
    return rc ? oc__fail(why, len, rc < 0 ? rc : OC_EIO, "%s: not written", name) : 0;
}

typedef struct trace_ctx {
    oc_astra_writer write;
    void *ctx;
} trace_ctx;

static int trace_rank(void *ctx, uint32_t rank, const void *data, size_t len) {
    trace_ctx *t = ctx;
    char name[32];
    snprintf(name, sizeof name, "trace.%u.et", rank);
    return t->write(t->ctx, name, data, len);
}

/* Renders one file with fn into memory and hands it over. */
static int render(oc_astra_writer write, void *ctx, const char *name,
                  void (*fn)(FILE *f, const void *arg), const void *arg, char *why, size_t len) {
    char *buf = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&buf, &n);
    if (!mem) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    fn(mem, arg);
    int bad = ferror(mem);
    if (fclose(mem) || bad) {
        free(buf);
        return oc__fail(why, len, OC_ENOMEM, "out of memory writing %s", name);
    }
    int rc = hand(write, ctx, name, buf, n, why, len);
    free(buf);
    return rc;
}

typedef struct net_arg {
    const oc__switch_cfg *sw;
    uint32_t nodes;
} net_arg;

static void network_yml(FILE *f, const void *arg) {
    const net_arg *a = arg;
    const double alpha_ns = a->sw->alpha_s * 1e9, bytes_per_s = 1.0 / a->sw->beta_s;
    fprintf(f,
            "# ASTRA-sim 2.0 analytical network (congestion-unaware backend), written by opticoll\n"
            "# for its `switch` model: alpha = %.17g ns a message, %.17g bytes/s a node and\n"
            "# direction. A send crosses two links (NPU -> switch -> NPU), each `latency` ns, so\n"
            "# latency = alpha / 2; ASTRA-sim reads bandwidth in GB/s of 2^30 bytes, so\n"
            "# bandwidth = bytes/s / 2^30.\n"
            "topology: [ Switch ]\n"
            "npus_count: [ %u ]\n"
            "bandwidth: [ %.17g ]  # GB/s (2^30 bytes)\n"
            "latency: [ %.17g ]  # ns a link\n",
            alpha_ns, bytes_per_s, a->nodes, bytes_per_s / 1073741824.0, alpha_ns / 2);
}

static void system_json(FILE *f, const void *arg) {
    (void)arg;
    fputs("{\n"
          "    \"scheduling-policy\": \"FIFO\",\n"
          "    \"endpoint-delay\": 0,\n"
          "    \"active-chunks-per-dimension\": 1,\n"
          "    \"preferred-dataset-splits\": 1,\n"
          "    \"all-reduce-implementation\": [\"ring\"],\n"
          "    \"all-gather-implementation\": [\"ring\"],\n"
          "    \"reduce-scatter-implementation\": [\"ring\"],\n"
          "    \"all-to-all-implementation\": [\"ring\"],\n"
          "    \"collective-optimization\": \"baseline\",\n"
          "    \"local-mem-bw\": 1600,\n"
          "    \"boost-mode\": 0\n"
          "}\n",
          f);
}

static void memory_json(FILE *f, const void *arg) {
    (void)arg;
    fputs("{\n    \"memory-type\": \"NO_MEMORY_EXPANSION\"\n}\n", f);
}

static void run_sh(FILE *f, const void *arg) {
    (void)arg;
    fputs("#!/bin/sh\n"
          "# ASTRA-sim 2.0 on the schedule opticoll exported beside this script (analytical\n"
          "# congestion-unaware backend). ASTRA_SIM: the binary, e.g.\n"
          "# astra-sim/build/astra_analytical/build/bin/AstraSim_Analytical_Congestion_Unaware\n"
          "# opticoll's own time of the same run: \"time_s\" in opticoll.json.\n"
          "dir=$(cd \"$(dirname \"$0\")\" && pwd)\n"
          "exec \"${ASTRA_SIM:?set ASTRA_SIM to AstraSim_Analytical_Congestion_Unaware}\" \\\n"
          "    --workload-configuration=\"$dir/trace\" \\\n"
          "    --system-configuration=\"$dir/system.json\" \\\n"
          "    --remote-memory-configuration=\"$dir/memory.json\" \\\n"
          "    --network-configuration=\"$dir/network.yml\"\n",
          f);
}

static int export_astra_in(const oc_request *req, oc_astra_writer write, void *ctx, char *why,
                           size_t len) {
    astra_watch w = {
        .watch = {.what = "the ASTRA-sim export", .attach = astra_attach, .finish = astra_finish}};
    oc_report *rep = NULL;
    /* ASTRA-sim's network reader (NetworkParser::check_validity) stops at an npus_count of 1 */
    if (req && req->nodes == 1)
        return oc__fail(why, len, OC_ENOTSUP,
                        "ASTRA-sim's analytical network needs at least 2 NPUs (its reader "
                        "refuses npus_count 1): export 2 nodes or more");
    /* the run first: the switch's settings, typed, and the report; nothing is handed out
     * unless it passed every check */
    int rc = oc__run_request(req, &w.watch, &rep, why, len);
    if (rc) goto out;
    trace_ctx t = {write, ctx};
    if ((rc = oc_export_chakra(req, trace_rank, &t, why, len))) goto out;
    net_arg na = {&w.cfg.sw, req->nodes};
    if ((rc = render(write, ctx, "network.yml", network_yml, &na, why, len)) ||
        (rc = render(write, ctx, "system.json", system_json, NULL, why, len)) ||
        (rc = render(write, ctx, "memory.json", memory_json, NULL, why, len)) ||
        (rc = render(write, ctx, "run.sh", run_sh, NULL, why, len)))
        goto out;
    char *buf = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&buf, &n);
    if (!mem) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    int err = oc_report_write_json(rep, mem);
    if (fclose(mem) || err) {
        free(buf);
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory writing opticoll.json");
        goto out;
    }
    rc = hand(write, ctx, "opticoll.json", buf, n, why, len);
    free(buf);
out:
    oc_report_free(rep);
    return rc;
}

int oc_export_astra(const oc_request *req, oc_astra_writer write, void *ctx, char *why,
                    size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = export_astra_in(req, write, ctx, why, len);
    oc__settings_leave(prev);
    return rc;
}
