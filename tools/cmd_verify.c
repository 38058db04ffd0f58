/*
 * cmd_verify.c — `opticoll verify FILE`: a schedule file read back and run through the
 * pipeline (oc_verify_file_progress): the verifier and the network model's resource check, its
 * report as text or JSON.
 */
#include "cli.h"
#include "scaleout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_verify(options *o) {
    if (o->help) {
        printf(
            "usage: opticoll verify FILE [-t NET] [-w W] [-f F] [--preset NAME]\n"
            "                       [--net KEY=VALUE]... [--json]\n\n"
            "Reads a schedule file (JSON or MSCCL XML, as written by `opticoll export`) and\n"
            "checks it with the semantic verifier, a real-data run and, when the file or -t\n"
            "names a network, the network's resource check. Exit 0 and a summary when it is\n"
            "right; exit 1 and one line saying what is wrong (node, chunk, round) otherwise.\n"
            "Required fields: collective, nodes, rounds (each a list of {src, dst, op,\n"
            "chunks: [first, count]}); optional: bytes (0), root (0), chunks_per_block (1),\n"
            "block_node (identity), network, network_params, algorithm, params.\n"
            "-t, -w, -f, --preset and --net override the file's network and its parameters.\n"
            "An XML file is read as MSCCL XML (see `opticoll export --format msccl`): sends and\n"
            "receives are matched, rounds rebuilt from the steps' order and waits, then\n"
            "verified; a malformed file exits 2, steps that do not match up exit 1. FILE -\n"
            "is standard input.\n\n%s"
            "      --json              the report as one JSON object, as run --json\n\n"
            "examples:\n"
            "  opticoll verify ne16.json\n"
            "  opticoll verify ne16.json -t ring -w 2 --json\n"
            "  opticoll verify ring16.xml -t switch\n",
            help_network);
        return 0;
    }
    if (!o->file) return die(EXIT_USAGE, "verify: missing FILE", NULL, NULL);
    if (o->coll || o->algo || o->nodes || o->size)
        return die(EXIT_USAGE, "verify: the file says what the schedule is; drop -c/-a/-n/-s", NULL,
                   NULL);
    /* "-" is standard input, as -o - is standard output (`export ... -o - | verify -`); across
     * MPI ranks it reaches rank 0 alone, so there it is refused */
    const char *file = o->file;
    if (!strcmp(file, "-")) {
        if (oc_scale_size() > 1)
            return die(EXIT_USAGE,
                       "verify -: standard input reaches rank 0 only; give every rank a file", NULL,
                       NULL);
        file = "/dev/stdin";
    }
    int rc = fold_network_flags(o);
    if (rc) return rc;
    char why[512] = "";
    oc_report *rep = NULL;
    oc_scale_split split;
    oc_scale_split_begin(&split);
    /* the reading and the check report as a run does (a line on a terminal, a word ahead of
     * long work); SIGINT ends the tool, as every command (its default action: exit 130) */
    int err = oc_verify_file_progress(&cli_settings, file, o->net, o->net_params, cli_progress,
                                      NULL, &rep, why, sizeof why);
    if ((err = oc_scale_split_end(&split, err, why, sizeof why))) {
        oc_report_free(rep); /* NULL unless another rank failed after this one's run */
        return lib_error(err, why);
    }
    err = o->json ? oc_report_write_json(rep, stdout) : oc_report_write_text(rep, stdout);
    oc_report_free(rep);
    return err == OC_ENOMEM ? lib_error(err, "out of memory writing the report") : 0;
}
