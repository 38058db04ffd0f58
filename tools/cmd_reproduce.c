/*
 * cmd_reproduce.c — `opticoll reproduce`: the seed papers' tables, each row with the paper's
 * printed value, its formula evaluated by us and our simulated value (oc_reproduce_with);
 * `reproduce all`, --out and -j go to cmd_reproduce_out.c.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "-w 64": a whole number from 1 to max for a reproduce setting; 0 or an exit code. */
static int reproduce_number(const char *flag, const char *text, uint64_t max, uint32_t *out) {
    uint64_t v;
    if (oc_parse_u64(text, 1, max, &v)) {
        char msg[64];
        snprintf(msg, sizeof msg, "reproduce %s %%s: expected a whole number from 1 to %llu", flag,
                 (unsigned long long)max);
        return die(EXIT_USAGE, msg, text, NULL);
    }
    *out = (uint32_t)v;
    return 0;
}

/* The papers and the settings each takes, for --help and the missing-paper line. */
static void paper_list(char *buf, size_t len, int with_settings) {
    static const struct {
        unsigned bit;
        const char *flag;
    } flags[] = {{OC_SETTING_WAVELENGTHS, "-w"},
                 {OC_SETTING_NODES, "-n"},
                 {OC_SETTING_SIZES, "--sizes"},
                 {OC_SETTING_NETWORK, "-t"}};
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < oc_paper_count() && at < len; i++) {
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? (with_settings ? "\n" : ", ") : "",
                               oc_paper_name(i));
        if (!with_settings || at >= len) continue;
        at += (size_t)snprintf(buf + at, len - at, "%*s", (int)(12 - strlen(oc_paper_name(i))),
                               "");
        unsigned t = oc_paper_settings(i);
        if (!t && at < len) at += (size_t)snprintf(buf + at, len - at, " (no settings)");
        for (size_t k = 0; k < sizeof flags / sizeof flags[0] && at < len; k++)
            if (t & flags[k].bit) at += (size_t)snprintf(buf + at, len - at, " %s", flags[k].flag);
    }
}

int cmd_reproduce(int argc, char **argv) {
    enum { HELP, OUT, JOBS, WAVES, NODES, SIZES, NET, JSON };
    static const arg_option opts[] = {{"-h", "--help", 0, HELP},     {"-o", "--out", 1, OUT},
                                      {"-j", "--jobs", 1, JOBS},     {"-w", "--wavelengths", 1, WAVES},
                                      {"-n", "--nodes", 1, NODES},   {NULL, "--sizes", 1, SIZES},
                                      {"-t", "--network", 1, NET},   {NULL, "--json", 0, JSON}};
    const char *which = NULL, *v[JSON + 1] = {0};
    int rc = read_options("reproduce", argc, argv, opts, sizeof opts / sizeof opts[0], v, &which);
    const char *out = v[OUT], *jobs = v[JOBS];
    if (rc) return rc;
    if (v[HELP]) {
        char papers[512];
        paper_list(papers, sizeof papers, 1);
        printf("usage: opticoll reproduce PAPER|all [-w W] [-n N] [--sizes LIST] [-t NET]\n"
               "                          [--json | --out DIR] [-j N]\n\n"
               "Prints the seed paper's tables and figures: the paper's printed value, the paper's\n"
               "formula evaluated by us, and our simulated value on a verified schedule, with a\n"
               "one-line reason for every difference. The paper's headline claims come first,\n"
               "each beside our value for the same experiment.\n\n"
               "Papers and the settings each takes:\n%s\n\n"
               "  -w, --wavelengths W  wavelengths per fibre in place of the paper's\n"
               "  -n, --nodes N        node count in place of the paper's\n"
               "      --sizes LIST     message sizes in place of the paper's (4KiB,1MiB or\n"
               "                       1KiB..64MiB:*4)\n"
               "  -t, --network NET    the network the paper's experiments run on\n"
               "                       (all with settings: the papers that take them)\n"
               "      --json           one paper as JSON: its settings, claims, tables and\n"
               "                       figures' series\n"
               "  --out DIR            also write each paper's text (NAME.txt), tables (CSV),\n"
               "                       figures (PNG through gnuplot, with their data and .gp\n"
               "                       scripts) and DIR/index.md, which sets each paper's figure\n"
               "                       caption beside ours\n"
               "  -j N                 papers run in parallel on N threads (default: the online\n"
               "                       CPUs); in opticoll-cluster under mpirun, across the ranks\n"
               "                       too; same output\n\n"
               "examples:\n"
               "  opticoll reproduce optree\n"
               "  opticoll reproduce optree -n 512 -w 32 --sizes 1MiB,16MiB\n"
               "  opticoll reproduce all --out repro/\n",
               papers);
        return 0;
    }
    if (!which) {
        char papers[256];
        paper_list(papers, sizeof papers, 0);
        return die(EXIT_USAGE, "reproduce: name a paper (%s, all; see --help)", papers, NULL);
    }
    oc_reproduce_settings set = {.progress = cli_progress, .library = &cli_settings};
    unsigned given = 0;
    if (v[WAVES]) {
        if ((rc = reproduce_number("-w", v[WAVES], 65536, &set.wavelengths))) return rc;
        given |= OC_SETTING_WAVELENGTHS;
    }
    if (v[NODES]) {
        if ((rc = reproduce_number("-n", v[NODES], OC_MAX_NODES, &set.nodes))) return rc;
        given |= OC_SETTING_NODES;
    }
    if (v[SIZES]) set.sizes = v[SIZES], given |= OC_SETTING_SIZES;
    if (v[NET]) set.network = v[NET], given |= OC_SETTING_NETWORK;
    if (v[JSON] && (out || jobs || !strcmp(which, "all")))
        return die(EXIT_USAGE, "reproduce --json: one paper, without --out and -j", NULL, NULL);
    /* all, --out DIR and -j: the papers in parallel, files and figures (cmd_reproduce_out.c) */
    if (out || jobs || !strcmp(which, "all"))
        return cmd_reproduce_out(which, out, jobs, &set, given);
    char why[512] = "";
    /* Buffer the whole reproduction so that a failure half-way prints nothing. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    oc_figures *figs = NULL;
    int err = v[JSON] ? oc_reproduce_collect(which, &set, mem, &figs, why, sizeof why)
                      : oc_reproduce_with(which, &set, mem, why, sizeof why);
    fclose(mem);
    if (!err && v[JSON]) {
        free(buf); /* the text is not printed: the JSON carries the tables */
        buf = NULL;
        len = 0;
        mem = open_memstream(&buf, &len);
        err = mem ? oc_reproduce_write_json(which, &set, figs, mem) : OC_ENOMEM;
        if (mem) fclose(mem);
        if (err) snprintf(why, sizeof why, "out of memory writing the JSON");
    }
    oc_figures_free(figs);
    if (err) {
        free(buf);
        return lib_error(err, why);
    }
    fwrite(buf, 1, len, stdout);
    free(buf);
    return 0;
}
