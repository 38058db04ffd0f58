/*
 * opticoll.c — the command-line tool's main: the environment read once (the memory budget, the
 * verifier's shard knob, the terminal's width), then the command named by argv[1], each in its
 * own tools/cmd_NAME.c; the tool parses and prints, the library does the work.
 *
 * The commands and their one-line summaries are usage() below (`opticoll --help`); each command's
 * own --help gives its options and examples.
 *
 * Every error is one line on stderr ("opticoll: ...") and a non-zero exit: 2 for bad usage or
 * input (too big included), 1 for a schedule that fails verification, 3 when the environment
 * fails (memory, a write, gnuplot): the table is in the README, "Exit codes". Nothing is printed
 * on stdout before a result is whole, and main checks at the end that it was all written.
 */
#include "cli.h"
#include "output.h"
#include "scaleout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fputs("usage: opticoll COMMAND [options]    (opticoll COMMAND --help for each)\n\n"
          "  list        networks, collectives and algorithms, one line each\n"
          "  run         generate, verify, map and cost one algorithm\n"
          "  compare     every algorithm of a collective on one network\n"
          "  export      write a verified schedule: JSON, Chrome trace or MSCCL XML\n"
          "  verify      check a schedule file\n"
          "  reproduce   the seed papers' tables with paper, formula and simulated values\n"
          "  train       gradient all-reduce time per iteration and per epoch of a DNN model\n"
          "  throughput  training samples/s with Lumorph against Ring (lumorph seed, sec. 4)\n"
          "  rack        multi-tenant rack allocation: lumorph vs TPU-like and SiPAC slices\n"
          "  sweep       every algorithm x N x size, as a table, CSV, JSON and plots\n"
          "  tune        the winning algorithm for each N and size, crossovers, decision file\n"
          "  perf        nccl-tests' columns (time, algbw, busbw) from the model, -b -e -f\n"
          "  synth       the fewest steps on a small ring or star, proven with the z3 solver\n"
          "  draw        a verified schedule as an SVG picture: lightpaths, tunings, circuits\n"
          "  simgrid     one schedule on the fat-tree: SimGrid's SMPI time beside the model's\n"
          "\nEvery command takes -q, --quiet: no progress line on stderr (shown only when stderr\n"
          "is a terminal and the work has run for a second).\n\n"
          "examples:\n"
          "  opticoll list\n"
          "  opticoll run -c allgather -a optree -t ring -n 1024 -w 64 -s 4MiB\n"
          "  opticoll compare -c allreduce -t fattree -n 128 -s 100MB\n",
          f);
}

/* The command named by argv[1]; its exit code. */
static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    cli_progress_start();
    int brc = memory_budget_from_env();
    if (!brc) brc = oc_scale_settings_from_env();
    if (brc) return brc;
    text_width_from_terminal();
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    /* each command reads argv from its own name on (argv[0], as getopt expects) */
    argc--, argv++;
    if (!strcmp(cmd, "list")) return cmd_list(argc, argv);
    if (!strcmp(cmd, "reproduce")) return cmd_reproduce(argc, argv);
    if (!strcmp(cmd, "train")) return cmd_train(argc, argv);
    if (!strcmp(cmd, "throughput")) return cmd_throughput(argc, argv);
    if (!strcmp(cmd, "rack")) return cmd_rack(argc, argv);
    if (!strcmp(cmd, "sweep")) return cmd_sweep(argc, argv);
    if (!strcmp(cmd, "tune")) return cmd_tune(argc, argv);
    if (!strcmp(cmd, "perf")) return cmd_perf(argc, argv);
    if (!strcmp(cmd, "synth")) return cmd_synth(argc, argv);
    if (!strcmp(cmd, "draw")) return cmd_draw(argc, argv);
    if (!strcmp(cmd, "simgrid")) return cmd_simgrid(argc, argv);
    int (*fn)(options *) = NULL;
    if (!strcmp(cmd, "run"))
        fn = cmd_run;
    else if (!strcmp(cmd, "compare"))
        fn = cmd_compare;
    else if (!strcmp(cmd, "export"))
        fn = cmd_export;
    else if (!strcmp(cmd, "verify"))
        fn = cmd_verify;
    if (!fn) return die(EXIT_USAGE, "unknown command '%s' (see opticoll --help)", cmd, NULL);
    options o;
    int rc = options_read(argc, argv, cmd, &o);
    if (!rc) rc = fn(&o);
    options_free(&o);
    return rc;
}

/* Every command's output is checked here, once: a write to stdout that failed anywhere (a full
 * disk, /dev/full) is an error even when the command itself succeeded (output.h). */
int main(int argc, char **argv) {
    int rc = dispatch(argc, argv);
    cli_progress_clear();
    return close_stdout(rc);
}
