/*
 * opticoll.c — the command-line tool: argument parsing and printing, no logic of its own.
 *
 *   opticoll list
 *   opticoll run -c COLL -a ALGO [-t NET] -n N [-w W] [-f F] -s SIZE [--param k=v]... [--net
 * k=v]...
 *                [--json]
 *   opticoll compare -c COLL [-t NET] -n N [-w W] -s SIZE [--json|--csv]
 *   opticoll export -c COLL -a ALGO [-t NET] -n N -s SIZE --format json [-o FILE]
 *   opticoll verify FILE [-t NET] [--net k=v]... [--json]
 *   opticoll reproduce optree
 *   opticoll train -m MODEL [-t NET] -n N [-a ALGO] [-w W] [--net k=v]... [--models FILE]
 *                  [--json]
 *
 * Every error is one line on stderr ("opticoll: ...") and a non-zero exit: 2 for bad usage or
 * input (too big included), 1 for a schedule that fails verification, 3 when the environment
 * fails (memory, a write, gnuplot): the table is in the README, "Exit codes". Nothing is printed
 * on stdout before a result is whole, and main checks at the end that it was all written.
 */
#include "cli.h"
#include "output.h"
#include "scaleout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- commands ---- */

static int cmd_list(int argc, char **argv) {
    static const arg_option help[] = {{"-h", "--help", 0, 0}};
    const char *asked = NULL;
    int rc = read_options("list", argc, argv, help, 1, &asked, NULL);
    if (rc) return rc;
    if (asked) {
        puts("usage: opticoll list\n\nLists the networks, the collectives and the algorithms, one "
             "line each.\n\n"
             "examples:\n"
             "  opticoll list\n"
             "  opticoll list | grep optree");
        return 0;
    }
    puts("networks:");
    for (size_t i = 0; i < oc_network_count(); i++) {
        const oc_network_info *n = oc_network_at(i);
        printf("  %-10s %s\n             parameters: %s\n", n->name, n->summary, n->params);
    }
    puts("collectives:");
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        printf("  %-14s %s\n", oc_collective_name((oc_collective)c),
               oc_collective_summary((oc_collective)c));
    puts("algorithms (collective / name  networks  summary):");
    int wname = 0, width = 0; /* the name and networks columns fit their longest entries */
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        int n = (int)strlen(oc_algorithm_at(i)->name),
            w = (int)strlen(oc_algorithm_at(i)->networks);
        if (n > wname) wname = n;
        if (w > width) width = w;
    }
    /* grouped by collective, in the registry's order within each */
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        for (size_t i = 0; i < oc_algorithm_count(); i++) {
            const oc_algorithm_info *a = oc_algorithm_at(i);
            if ((int)a->collective != c) continue;
            printf("  %-13s %-*s %-*s %s", oc_collective_name(a->collective), wname, a->name, width,
                   a->networks, a->summary);
            if (*a->restriction) printf(" [needs %s]", a->restriction);
            putchar('\n');
        }
    return 0;
}

static int cmd_run(options *o) {
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

/* The physical bound under a table of runs (compare, sweep, tune): what every schedule on the
 * network needs, the arguments that gave it, and where the best run is far from it, which side
 * is likely loose: a capacity argument (receive, send, link load, port volume) is met by some
 * schedule on some instance, so a large gap there points at the schedules; a relay-depth or
 * one-round argument ignores the volume, so a gap there points at the bound. */
static void print_physical_bound(const oc_request *req, const oc_report *any, double best_ratio) {
    oc_physical_bound_info b;
    char why[512] = "", tb[32];
    if (any ? !oc_report_physical_bound(any, &b) : oc_physical_bound(req, &b, why, sizeof why))
        return;
    if (any)
        oc_report_format_time(any, tb, sizeof tb, b.time_s);
    else
        oc_format_seconds(tb, sizeof tb, b.time_s);
    printf("  physical bound (every schedule on %s): %llu steps (%s); %s (%s)\n", req->network,
           (unsigned long long)b.steps, b.steps_argument, tb, b.time_argument);
    if (best_ratio > 2) {
        const int weak = strstr(b.time_argument, "relay") || strstr(b.time_argument, "one round") ||
                         strstr(b.time_argument, "tuning");
        /* the ring all-reduce's reduction spread charges one spanning tree a chunk where a
         * reduction then a broadcast pays two, and no schedule meets it: neither side is known */
        const int spread = strstr(b.time_argument, "spread") != NULL;
        printf("  gap: the best run is %.2f x the time bound; likely loose: %s\n", best_ratio,
               spread ? "both (the bound counts one tree a chunk, a reduce and broadcast pay two; "
                        "no schedule spreads a reduction in so few steps)"
               : weak ? "the bound (its argument ignores the data volume)"
                      : "the schedules (a capacity argument: schedules that fill every receiver "
                        "each step would meet it)");
    }
}

static int cmd_compare(options *o) {
    if (o->help) {
        printf(
            "usage: opticoll compare -c COLL [-t NET] -n N -s SIZE [-a A,B,..] [-p KEY=VALUE]...\n"
            "                        [options] [--json|--csv]\n\n"
            "Runs every algorithm of the collective that supports the network (or those -a\n"
            "lists), each verified, and prints one line each (or a JSON array, or CSV).\n"
            "Algorithms whose restrictions exclude these parameters are listed with the reason.\n\n"
            "  -a, --algorithm A,B     only these algorithms, in this order\n"
            "  -p, --param KEY=VALUE   pins KEY for every listed algorithm that takes it\n"
            "                          (repeatable); -p ALGO.KEY=VALUE pins it for ALGO alone\n%s%s"
            "      --json              a JSON array: one run report per algorithm, then\n"
            "                          {\"algorithm\": NAME, \"not_run\": REASON} for the others\n"
            "      --csv               one CSV line per algorithm (header first); algorithms\n"
            "                          not run have empty figures and the reason in `note`\n\n"
            "examples:\n"
            "  opticoll compare -c allgather -t ring -n 1024 -w 64 -s 4MiB\n"
            "  opticoll compare -c allreduce -t fattree -n 128 -s 100MB --csv\n"
            "  opticoll compare -c allreduce -n 1000 -s 1MiB -a ring,wrht -p wrht.m=129\n",
            help_problem, help_network);
        return 0;
    }
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 0))) return rc;
    /* the library picks the algorithms, checks the -a names and the -p pins, runs each and
     * keeps the reasons of those not run; the command splits -a and prints */
    const char **names = NULL;
    char *copy = NULL;
    size_t nnames = 0;
    if (o->algo && (rc = algo_names(o->algo, &names, &copy, &nnames))) return rc;
    oc_compare_result res;
    char why[1024] = "";
    int err = oc_compare(&req, names, nnames, o->params, &res, why, sizeof why);
    free(names);
    free(copy);
    if (err) return lib_error(err, why);
    size_t n = res.nrun, ns = res.count - res.nrun;
    int status = 0;
    int wname = 10; /* the name column fits the longest name (hypercube-opt) */
    for (size_t i = 0; i < res.count; i++)
        if ((int)strlen(res.runs[i].algorithm->name) > wname)
            wname = (int)strlen(res.runs[i].algorithm->name);
    if (o->json) {
        /* A failed stdout is close_stdout's to report (exit 3). */
        if (oc_compare_write_json(&res, stdout) == OC_ENOMEM)
            status = lib_error(OC_ENOMEM, "out of memory writing the JSON");
    } else if (o->csv) {
        for (size_t k = 0; k < n; k++)
            oc_report_write_csv(res.runs[k].report, stdout, k == 0);
        if (n == 0) oc_report_write_csv(NULL, stdout, 1);
        for (size_t k = n; k < n + ns; k++) {
            printf("%s,%s,%s,%u,%llu,,,,,,,,,,,,\"not run: ", o->coll, res.runs[k].algorithm->name,
                   req.network, req.nodes, (unsigned long long)req.bytes);
            for (const char *c = res.runs[k].reason; *c; c++) {
                if (*c == '"') putchar('"'); /* CSV doubles a quote inside quotes */
                putchar(*c);
            }
            puts("\"");
        }
    } else {
        printf("%s on %s, %u node%s, %s per %s\n", o->coll, req.network, req.nodes,
               req.nodes == 1 ? "" : "s", o->size,
               oc_collective_reduces(req.collective) || req.collective == OC_BROADCAST ? "vector"
                                                                                       : "block");
        /* "sched lb": the model's bound on that schedule; "x phys": the run's time over the
         * physical bound, which holds for every schedule on the network (printed below) */
        printf("  %-*s %10s %9s %12s %14s %8s %9s  %s\n", wname, "algorithm", "steps", "sched lb",
               "seed formula", "time", "x phys", "verified", "parameters");
        double best_ratio = 0;
        for (size_t k = 0; k < n; k++) {
            oc_report *r = res.runs[k].report;
            double f = 0, t = oc_report_time(r);
            uint64_t lb = 0;
            char fb[32] = "-", lbb[32] = "-", tb[32];
            if (oc_report_steps_formula(r, &f)) snprintf(fb, sizeof fb, "%.0f", f);
            if (oc_report_steps_lower_bound(r, &lb))
                snprintf(lbb, sizeof lbb, "%llu", (unsigned long long)lb);
            oc_report_format_time(r, tb, sizeof tb, t);
            char pb[256] = "";
            const oc_kv *used = oc_report_params(r);
            for (size_t i = 0, at = 0; i < oc_kv_count(used) && at < sizeof pb; i++)
                at += (size_t)snprintf(pb + at, sizeof pb - at, i ? " %s=%s" : "  %s=%s",
                                       oc_kv_key(used, i), oc_kv_value(used, i));
            oc_physical_bound_info phys;
            char xb[32] = "-";
            if (oc_report_physical_bound(r, &phys) && phys.time_s > 0) {
                snprintf(xb, sizeof xb, "%.2f", t / phys.time_s);
                if (best_ratio == 0 || t / phys.time_s < best_ratio) best_ratio = t / phys.time_s;
            }
            printf("  %-*s %10llu %9s %12s %14s %8s %9s%s\n", wname, res.runs[k].algorithm->name,
                   (unsigned long long)oc_report_steps(r), lbb, fb, tb, xb,
                   oc_report_verified(r) ? "yes" : "NO", pb);
        }
        print_physical_bound(&req, n ? res.runs[0].report : NULL, best_ratio);
        /* restrictions at this point, one line each; then the algorithms made for other
         * networks, in one line: they do not apply here, whatever N and SIZE */
        char elsewhere[2048] = "";
        size_t nelse = 0, at = 0;
        for (size_t k = n; k < n + ns; k++) {
            const oc_algorithm_info *a = res.runs[k].algorithm;
            if (!oc_algorithm_runs_on(a, req.network)) {
                if (at < sizeof elsewhere)
                    at += (size_t)snprintf(elsewhere + at, sizeof elsewhere - at, "%s%s",
                                           nelse ? ", " : "", a->name);
                nelse++;
                continue;
            }
            printf("  %-*s not run: %s\n", wname, a->name, res.runs[k].reason);
        }
        if (nelse)
            printf("  for other networks (%zu; see opticoll list): %s\n", nelse, elsewhere);
    }
    oc_compare_result_free(&res);
    return status;
}

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

static int cmd_export(options *o) {
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

static int cmd_verify(options *o) {
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
            "verified; a malformed file exits 2, steps that do not match up exit 1.\n\n%s"
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
    int rc = fold_network_flags(o);
    if (rc) return rc;
    char why[512] = "";
    oc_report *rep = NULL;
    oc_scale_split split;
    oc_scale_split_begin(&split);
    int err = oc_verify_file(o->file, o->net, o->net_params, &rep, why, sizeof why);
    if ((err = oc_scale_split_end(&split, err, why, sizeof why))) {
        oc_report_free(rep); /* NULL unless another rank failed after this one's run */
        return lib_error(err, why);
    }
    err = o->json ? oc_report_write_json(rep, stdout) : oc_report_write_text(rep, stdout);
    oc_report_free(rep);
    return err == OC_ENOMEM ? lib_error(err, "out of memory writing the report") : 0;
}

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

static int cmd_reproduce(int argc, char **argv) {
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
    oc_reproduce_settings set = {.progress = cli_progress};
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
static int cmd_train(int argc, char **argv) {
    options o;
    memset(&o, 0, sizeof o);
    o.params = oc_kv_new();
    o.net_params = oc_kv_new();
    oc_train_result res;
    memset(&res, 0, sizeof res);
    int rc = 0;
    if (!o.params || !o.net_params) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if ((rc = parse_options(argc, argv, &o, "train"))) goto out;
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
    req.algorithm = o.algo;
    req.network = o.net ? o.net : "ring";
    req.nodes = (uint32_t)v;
    req.params = o.params;
    req.net_params = o.net_params;
    req.data_check = !o.no_data;
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
    oc_kv_free(o.params);
    oc_kv_free(o.net_params);
    return rc;
}

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
    memset(&o, 0, sizeof o);
    o.params = oc_kv_new();
    o.net_params = oc_kv_new();
    int rc;
    if (!o.params || !o.net_params)
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
    else if (!(rc = parse_options(argc, argv, &o, cmd)))
        rc = fn(&o);
    oc_kv_free(o.params);
    oc_kv_free(o.net_params);
    return rc;
}

/* Every command's output is checked here, once: a write to stdout that failed anywhere (a full
 * disk, /dev/full) is an error even when the command itself succeeded (output.h). */
int main(int argc, char **argv) {
    int rc = dispatch(argc, argv);
    cli_progress_clear();
    return close_stdout(rc);
}
