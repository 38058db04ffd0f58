/*
 * cmd_export.c — `opticoll export`: a verified schedule written as opticoll's JSON, a
 * Chrome/Perfetto trace, MSCCL XML or Chakra execution traces (one file per rank), whole or not at
 * all (output.h).
 */
#include "cli.h"
#include "output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* export --format chakra: one file per rank, PREFIX.RANK.et (ASTRA-sim's naming), all or nothing
 * (output.h's group): each rank's file is written whole into a temporary as the library hands it
 * over, and only when every rank's is whole are they renamed over the targets. A failure at rank
 * k (a full disk, a target that is a directory) leaves every old file as it was — not ranks
 * before k new and ranks after it old, a mix ASTRA-sim would load — and no temporaries. The
 * schedule passed every check before the first file. */
typedef struct chakra_out {
    const char *prefix;
    out_group files;
    int rc; /* the group's exit code, its line already printed */
} chakra_out;

static int chakra_rank(void *ctx, uint32_t rank, const void *data, size_t len) {
    chakra_out *c = ctx;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s.%u.et", c->prefix, rank) >= sizeof path) {
        c->rc = die(EXIT_USAGE, "-o %s: the path is too long", c->prefix, NULL);
        return OC_EINVAL;
    }
    c->rc = out_group_write_bytes(&c->files, path, data, len);
    return c->rc ? OC_EIO : 0;
}

static int export_chakra(options *o) {
    if (!o->output || out_is_stdout(o->output))
        return die(EXIT_USAGE, "--format chakra writes one file per rank: give -o PREFIX", NULL,
                   NULL);
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 1))) return rc;
    char why[512] = "";
    chakra_out c = {o->output, {0}, 0};
    int err = oc_export_chakra(&req, chakra_rank, &c, why, sizeof why);
    if (c.rc || err) {
        out_group_discard(&c.files);
        return c.rc ? c.rc : lib_error(err, why);
    }
    return out_group_commit(&c.files);
}

/* export --format msccl's settings, for export_msccl (the exporters share one signature) */
static const char *msccl_runtime;
static int msccl_inplace; /* --format msccl-inplace */

static int export_msccl(const oc_request *req, FILE *f, char *why, size_t len) {
    return oc_export_msccl_for(req, msccl_runtime, msccl_inplace, f, why, len);
}

/* One exporter for out_render. */
typedef struct export_job {
    int (*fn)(const oc_request *, FILE *, char *, size_t);
    const oc_request *req;
} export_job;

static int export_render(FILE *f, void *ctx, char *why, size_t len) {
    const export_job *j = ctx;
    return j->fn(j->req, f, why, len);
}

int cmd_export(options *o) {
    if (o->help) {
        printf(
            "usage: opticoll export -c COLL -a ALGO [-t NET] -n N -s SIZE --format FORMAT "
            "[-o FILE]\n\n"
            "Writes the schedule after it has passed every check. With -o the file appears\n"
            "only when it is whole.\n\n%s%s%s%s"
            "      --format json       the schedule file format (docs/cli.md)\n"
            "      --format chrome     a Chrome trace-event timeline: open it in\n"
            "                          https://ui.perfetto.dev or chrome://tracing (every\n"
            "                          network: one track per node, one slice per transfer)\n"
            "      --format msccl      an MSCCL program (gpus, threadblocks, steps) that the\n"
            "                          runtime loads, out-of-place; `opticoll verify FILE.xml`\n"
            "                          reads it back\n"
            "      --format msccl-inplace  the same for in-place calls\n"
            "      --runtime RT        msccl: msccl-nccl (default, msccl-executor-nccl) or rccl;\n"
            "                          their limits are checked, a schedule over one is refused\n"
            "      --format chakra     MLCommons Chakra execution traces (ASTRA-sim's input):\n"
            "                          one file PREFIX.RANK.et per rank; needs -o PREFIX\n"
            "      --format astra-sim  ASTRA-sim 2.0 on the same switch (-t switch): the Chakra\n"
            "                          traces DIR/trace.RANK.et, network.yml, system.json,\n"
            "                          memory.json, run.sh and opticoll.json; needs -o DIR\n"
            "  -o, --output FILE       write FILE instead of standard output (- is standard\n"
            "                          output)\n\n"
            "examples:\n"
            "  opticoll export -c allgather -a ne -n 16 -s 1MiB --format json -o ne16.json\n"
            "  opticoll export -c allreduce -a ring -n 16 -s 64MiB --format msccl -o ring16.xml\n"
            "  opticoll export -c allreduce -a ring -n 16 -s 64MiB --format chakra -o ring16\n",
            help_problem, help_algo, help_search, help_network);
        return 0;
    }
    if (!o->format)
        return die(EXIT_USAGE, "missing --format (json, chrome, msccl, chakra or astra-sim)", NULL,
                   NULL);
    if (o->runtime && strcmp(o->format, "msccl") && strcmp(o->format, "msccl-inplace"))
        return die(EXIT_USAGE, "--runtime applies to --format msccl only", NULL, NULL);
    if (!strcmp(o->format, "chakra")) return export_chakra(o);
    if (!strcmp(o->format, "astra-sim")) return export_astra(o);
    int (*export_fn)(const oc_request *, FILE *, char *, size_t) = NULL;
    if (!strcmp(o->format, "json"))
        export_fn = oc_export_json;
    else if (!strcmp(o->format, "chrome"))
        export_fn = oc_export_chrome;
    else if (!strcmp(o->format, "msccl") || !strcmp(o->format, "msccl-inplace"))
        export_fn = export_msccl;
    else
        return die(EXIT_USAGE,
                   "--format %s: unknown format (json, chrome, msccl, msccl-inplace, chakra, "
                   "astra-sim)",
                   o->format, NULL);
    if (o->runtime && strcmp(o->runtime, "msccl-nccl") && strcmp(o->runtime, "rccl"))
        return die(EXIT_USAGE, "--runtime %s: unknown MSCCL runtime (msccl-nccl, rccl)", o->runtime,
                   NULL);
    msccl_runtime = o->runtime;
    msccl_inplace = !strcmp(o->format, "msccl-inplace");
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 1))) return rc;
    /* `-o -` (or /dev/stdout) is standard output, as for most tools (it wrote a file named "-");
     * a file of that name is still `-o ./-` */
    if (out_is_stdout(o->output)) o->output = NULL;
    export_job job = {export_fn, &req};
    return out_render(o->output, export_render, &job);
}
