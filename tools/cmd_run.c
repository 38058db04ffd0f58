/*
 * cmd_run.c — `opticoll run`: one algorithm generated, verified, mapped and costed (oc_run), its
 * report as text or JSON; `-a auto` picks the algorithm first (cmd_tune.c, the library's
 * oc_tune_auto_*), and in opticoll-cluster the run's verification is split across the ranks
 * (scaleout.h).
 */
#include "cli.h"
#include "scaleout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_run(options *o) {
    if (o->help) {
        printf(
            "usage: opticoll run -c COLL -a ALGO [-t NET] -n N -s SIZE [options] [--json]\n\n"
            "Generates the schedule, verifies it (semantic verifier, real-data run, network\n"
            "resource check), maps it onto the network and prints steps, time, the seed's\n"
            "closed form and the lower bound. A schedule that fails a check is an error.\n"
            "Parameters left unpinned are searched: the default is the best of every value\n"
            "-p could pin, mapped on the network.\n\n%s%s%s%s"
            "  -a auto                 choose the algorithm: with --decisions, the winner of the\n"
            "                          file's nearest point; without, every algorithm that runs on\n"
            "                          the network is run at this point and the fastest is kept\n"
            "      --decisions FILE    a decision file written by `opticoll tune -o FILE` (with\n"
            "                          -a auto only)\n"
            "      --explain           list the parameter search: every candidate mapped, those\n"
            "                          pruned and the bound that pruned them, why the winner won\n"
            "                          (with --json: every candidate under \"search\")\n"
            "      --json              one JSON object (fields: docs/cli.md)\n"
            "      --links             per-resource utilisation (busy time / total time per\n"
            "                          directed link and wavelength, port, ...): a summary, the\n"
            "                          hottest resources, and a \"links\" field in --json\n\n"
            "examples:\n"
            "  opticoll run -c allgather -a optree -t ring -n 1024 -w 64 -s 4MiB\n"
            "  opticoll run -c allreduce -a rhd -p radix=4 -t fabric -n 256 -s 1MiB --json\n"
            "  opticoll run -c allgather -a ring -n 12 -w 1 -s 1MiB --links\n",
            help_problem, help_algo, help_search, help_network);
        return 0;
    }
    oc_request req;
    int rc = run_auto(o); /* -a auto: pick the algorithm first */
    char chosen[64];        /* opticoll-cluster: rank 0's choice, on every rank */
    rc = oc_scale_agree(rc, &o->algo, chosen, sizeof chosen);
    if (rc || (rc = fold_network_flags(o)) || (rc = build_request(o, &req, 1))) return rc;
    req.links = o->links;
    char why[512] = "";
    oc_report *rep = NULL;
    oc_scale_split split; /* opticoll-cluster: the run's shards across the ranks */
    oc_scale_split_begin(&split);
    int err = oc_run(&req, &rep, why, sizeof why);
    if ((err = oc_scale_split_end(&split, err, why, sizeof why))) {
        oc_report_free(rep); /* NULL unless another rank failed after this one's run */
        return lib_error(err, why);
    }
    if (*run_auto_note()) fprintf(o->json ? stderr : stdout, "%s\n", run_auto_note());
    /* A failed stdout is close_stdout's to report (exit 3); memory is ours. */
    err = o->json ? oc_report_write_json(rep, stdout) : oc_report_write_text(rep, stdout);
    if (o->explain && !o->json) {
        fputc('\n', stdout);
        oc_report_write_search(rep, stdout);
    }
    oc_report_free(rep);
    return err == OC_ENOMEM ? lib_error(err, "out of memory writing the report") : 0;
}
