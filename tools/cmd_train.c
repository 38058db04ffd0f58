/*
 * cmd_train.c — `opticoll train`: the gradient all-reduce of data-parallel training for a DNN
 * model of the models file (oc_train): time per iteration and per epoch for each algorithm.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const train_help =
    "usage: opticoll train -m MODEL [-t NET] -n N [-a ALGO] [-w W] [--net KEY=VALUE]...\n"
    "                      [--models FILE] [--json]\n\n"
    "The gradient all-reduce of data-parallel training of MODEL on N nodes: its time per\n"
    "iteration and per epoch. Each iteration all-reduces the whole float32 gradient (4 bytes\n"
    "per parameter); every run is generated, verified and mapped onto the network (oc_run).\n"
    "Without -a, every all-reduce algorithm that runs on the network, one line each, best "
    "first.\n\n"
    "The batch of the models file is per node (per GPU): the seed (wrht IV.B) chose each batch\n"
    "as the size that fills one GPU's memory, so an iteration consumes batch x N samples and\n"
    "    iterations per epoch = ceil(samples / (batch x N)).\n"
    "Times are communication only (no computation, no overlap with the backward pass).\n\n"
    "  -m, --model NAME        a model of the models file (case-insensitive): AlexNet, VGG16,\n"
    "                          ResNet50, GoogLeNet (the seed's), BERT-base, BERT-large (ours)\n"
    "      --models FILE       models file (default: the models.tsv shipped with opticoll);\n"
    "                          format in its header: name, parameters, batch, samples, source\n"
    "  -t, --network NAME      ring (default); see `opticoll list`\n"
    "  -n, --nodes N           number of nodes\n"
    "  -a, --algorithm NAME    one all-reduce algorithm (default: all that run on NET)\n"
    "  -w, --wavelengths W     wavelengths per fibre (ring: 64)\n"
    "  -f, --fibres F          fibres per direction (ring: 1; --preset terarack: 2)\n"
    "      --preset NAME       network preset (ring: seed, terarack)\n"
    "  -p, --param KEY=VALUE   algorithm parameter (repeatable; needs -a)\n"
    "      --net KEY=VALUE     network parameter (repeatable), e.g. reconfig_us=25\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "      --json              one JSON object: model, bytes, batch_per_node, global_batch,\n"
    "                          iterations_per_epoch, runs (each with its full run report),\n"
    "                          not_run, notes\n\n"
    "examples:\n"
    "  opticoll train -m VGG16 -t ring -n 1024 -w 64\n"
    "  opticoll train -m BERT-large -t fattree -n 256 -a ring --json\n";

/* `train` takes -m and --models on top of the shared options (cli.c). */
int cmd_train(int argc, char **argv) {
    options o;
    oc_train_result res;
    memset(&res, 0, sizeof res);
    int rc = options_read(argc, argv, "train", &o);
    if (rc) goto out;
    const char *model = o.model, *models = o.models;
    if (o.help) {
        fputs(train_help, stdout);
        goto out;
    }
    if (o.coll) {
        rc = die(EXIT_USAGE, "train: the collective is all-reduce; drop -c %s", o.coll, NULL);
        goto out;
    }
    if (o.size) {
        rc = die(EXIT_USAGE, "train: the model gives the size (4 bytes per parameter); drop -s %s",
                 o.size, NULL);
        goto out;
    }
    if (oc_kv_count(o.params) && !o.algo) {
        rc = die(EXIT_USAGE, "train: -p needs -a (a parameter belongs to one algorithm)", NULL,
                 NULL);
        goto out;
    }
    if (!model) {
        rc = die(EXIT_USAGE, "train: missing -m MODEL (e.g. VGG16; see --help)", NULL, NULL);
        goto out;
    }
    if (!o.nodes) {
        rc = die(EXIT_USAGE, "missing -n NODES", NULL, NULL);
        goto out;
    }
    uint64_t v;
    int prc = oc_parse_u64(o.nodes, 0, UINT64_MAX, &v);
    char limit[32];
    snprintf(limit, sizeof limit, "%u", (unsigned)OC_MAX_NODES);
    if (prc == OC_EPARSE) {
        rc = die(EXIT_USAGE, "-n %s: not a whole number of nodes", o.nodes, NULL);
        goto out;
    }
    if (prc || v > OC_MAX_NODES) {
        rc = die(EXIT_USAGE, "-n %s: at most %s nodes are supported", o.nodes, limit);
        goto out;
    }
    if (v < 1) {
        rc = die(EXIT_USAGE, "-n %s: at least one node is needed", o.nodes, NULL);
        goto out;
    }
    if ((rc = fold_network_flags(&o))) goto out;
    oc_request req;
    memset(&req, 0, sizeof req);
    req.collective = OC_ALLREDUCE;
    req.settings = &cli_settings;
    req.algorithm = o.algo;
    req.network = o.net ? o.net : "ring";
    req.nodes = (uint32_t)v;
    req.params = o.params;
    req.net_params = o.net_params;
    req.skip_data_check = o.no_data;
    req.progress = cli_progress; /* each algorithm's run says ahead when it will take long */
    char why[512] = "";
    int err =
        oc_train(models ? models : oc_models_default(), model, &req, &res, why, sizeof why);
    if (err) {
        rc = lib_error(err, why);
        goto out;
    }
    /* Render into memory first so that a failure half-way prints nothing. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    err = o.json ? oc_train_write_json(&res, mem) : oc_train_write_text(&res, mem);
    if (fclose(mem) && !err) err = OC_ENOMEM;
    if (err)
        rc = lib_error(err, "cannot render the result");
    else
        fwrite(buf, 1, len, stdout);
    free(buf);
out:
    oc_train_result_free(&res);
    options_free(&o);
    return rc;
}
