/*
 * cmd_synth.c — `opticoll synth`: the fewest steps of a collective on a small ring or star, found
 * and proven with the z3 solver (src/synth/synth.c has the encoding and the search), the schedule
 * checked through the pipeline and written as a schedule file with -o. Parsing and printing only.
 */
#include "cli.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>

int cmd_synth(int argc, char **argv);

static const char *const help =
    "usage: opticoll synth -c COLL -t NET -n N [-w W] [-f F] [--net KEY=VALUE]...\n"
    "                      [-s SIZE] [--chunks Q] [--time-limit SECONDS] [-o FILE]\n"
    "                      [--no-data-check] [--json]\n\n"
    "Finds a schedule of the fewest steps with the z3 solver and proves it minimal: the solver\n"
    "shows that no schedule of one step less exists under the network model's rules, and the\n"
    "schedule found passes the verifier and the model's resource check and maps to as many\n"
    "steps as it has rounds. \"optimal: yes\" is printed only then; otherwise what was proven\n"
    "(the lower bound) and the best schedule found, and why the search stopped (one line\n"
    "on stderr). The search starts from the existing algorithms' schedule of fewest steps\n"
    "(verified on this instance) and looks only below it, so a stop on the time limit still\n"
    "returns a schedule, marked not proven, saying where it came from (\"schedule from:\").\n"
    "Exit 0 with a schedule, proven or not; 1 when none was found (no algorithm runs the\n"
    "instance and the time limit left the solver none).\n\n"
    "Supported: -c allgather, gossip, broadcast (root 0), allreduce; -t ring (N from 2 to 10,\n"
    "w up to 3, fibres x w up to 6) or star (P from 2 to 9, --net k=K, default 3).\n"
    "An instance past these limits is refused before any work.\n\n"
    "  -c, --collective COLL   allgather, gossip, broadcast or allreduce\n"
    "  -t, --network NET       ring or star\n"
    "  -n, --nodes N           nodes (processors on the star)\n"
    "  -w, --wavelengths W     ring: wavelengths per fibre (default 1 for synth)\n"
    "  -f, --fibres F          ring: fibres per direction (default 1)\n"
    "      --net KEY=VALUE     a network parameter (as run's), e.g. k=2 on the star\n"
    "  -s, --size SIZE         what the schedule carries, as run's -s (default 1MiB); it sets\n"
    "                          the time, not the steps\n"
    "      --chunks Q          chunks per block (allgather, gossip) or pieces (allreduce,\n"
    "                          broadcast), 1 to 4 (default 1: the fewest steps; more chunks\n"
    "                          never take fewer steps, see docs/synth.md)\n"
    "      --time-limit S      the solver's budget in seconds (default 60)\n"
    "  -o, --output FILE       write the schedule file (opticoll verify FILE checks it)\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "      --json              one JSON object: the search's outcome and run's report\n\n"
    "examples:\n"
    "  opticoll synth -c allgather -t ring -n 8 -w 1\n"
    "  opticoll synth -c broadcast -t star -n 9 --net k=2 -o bcast9.json\n";

typedef struct opt {
    const char *coll, *net, *nodes, *w, *f, *size, *chunks, *limit, *out;
    int json, no_data, help;
    oc_kv *net_params;
} opt;

static int parse(int argc, char **argv, opt *o) {
    enum { COLL, NET, NODES, W, F, NETP, SIZE, CHUNKS, LIMIT, OUT, JSON, NODATA, HELP };
    static const arg_option opts[] = {
        {"-c", "--collective", 1, COLL},  {"-t", "--network", 1, NET},
        {"-n", "--nodes", 1, NODES},      {"-w", "--wavelengths", 1, W},
        {"-f", "--fibres", 1, F},         {NULL, "--net", 1, NETP},
        {"-s", "--size", 1, SIZE},        {NULL, "--chunks", 1, CHUNKS},
        {NULL, "--time-limit", 1, LIMIT}, {"-o", "--output", 1, OUT},
        {NULL, "--json", 0, JSON},        {NULL, "--no-data-check", 0, NODATA},
        {"-h", "--help", 0, HELP}};
    /* --net may be given many times: read them first, then the rest with read_options */
    o->net_params = oc_kv_new();
    if (!o->net_params) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    char **rest = malloc(((size_t)argc + 1) * sizeof(char *));
    if (!rest) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *pair = NULL;
        if (i > 0 && !strcmp(a, "--net") && i + 1 < argc)
            pair = argv[++i];
        else if (i > 0 && !strncmp(a, "--net=", 6))
            pair = a + 6;
        if (pair) {
            if (oc_kv_set_pair(o->net_params, pair)) {
                free(rest);
                return die(EXIT_USAGE, "synth: --net %s: expected KEY=VALUE", pair, NULL);
            }
            continue;
        }
        rest[n++] = argv[i];
    }
    rest[n] = NULL;
    const char *v[HELP + 1] = {0};
    int rc = read_options("synth", n, rest, opts, sizeof opts / sizeof opts[0], v, NULL);
    free(rest);
    /* an abbreviation of --net (getopt_long takes "--ne k=2") reaches read_options: kept too */
    if (!rc && v[NETP] && oc_kv_set_pair(o->net_params, v[NETP]))
        return die(EXIT_USAGE, "synth: --net %s: expected KEY=VALUE", v[NETP], NULL);
    o->coll = v[COLL];
    o->net = v[NET];
    o->nodes = v[NODES];
    o->w = v[W];
    o->f = v[F];
    o->size = v[SIZE];
    o->chunks = v[CHUNKS];
    o->limit = v[LIMIT];
    o->out = v[OUT];
    o->json = !!v[JSON];
    o->no_data = !!v[NODATA];
    o->help = !!v[HELP];
    return rc;
}

/* -w / -f as --net wavelengths= / fibres=, refused when given both ways differently. */
static int fold(opt *o, const char *flag, const char *value, const char *key) {
    if (!value) return 0;
    const char *had = oc_kv_get(o->net_params, key);
    if (had && strcmp(had, value))
        return die(EXIT_USAGE, "synth: %s and --net disagree on %s", flag, key);
    if (oc_kv_set(o->net_params, key, value)) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    return 0;
}

static int write_schedule(FILE *f, void *ctx) {
    char why[512] = "";
    int rc = oc_synth_write_schedule(ctx, f, why, sizeof why);
    if (rc) lib_error(rc, why);
    return rc;
}

static int run(opt *o) {
    if (o->help) {
        fputs(help, stdout);
        return 0;
    }
    if (!o->coll) return die(EXIT_USAGE, "synth: missing -c COLL (see --help)", NULL, NULL);
    if (!o->net) return die(EXIT_USAGE, "synth: missing -t NET (ring or star)", NULL, NULL);
    if (!o->nodes) return die(EXIT_USAGE, "synth: missing -n N", NULL, NULL);
    oc_synth_spec spec = {
        .network = o->net, .skip_data_check = o->no_data, .settings = &cli_settings};
    uint64_t v;
    if (oc_collective_from_name(o->coll, &spec.collective))
        return die(EXIT_USAGE, "synth: unknown collective '%s'", o->coll, NULL);
    if (oc_parse_u64(o->nodes, 1, OC_MAX_NODES, &v))
        return die(EXIT_USAGE, "synth: -n %s: not a node count", o->nodes, NULL);
    spec.nodes = (uint32_t)v;
    if (o->size) {
        int rc = oc_parse_size(o->size, &spec.bytes);
        if (rc || spec.bytes == 0)
            return die(EXIT_USAGE, "synth: -s %s: not a size (use e.g. 4096, 4KiB, 1MiB)", o->size,
                       NULL);
    }
    if (o->chunks) {
        if (oc_parse_u64(o->chunks, 1, UINT32_MAX, &v))
            return die(EXIT_USAGE, "synth: --chunks %s: not a whole number from 1", o->chunks,
                       NULL);
        spec.chunks = (uint32_t)v;
    }
    if (o->limit && (oc_parse_double(o->limit, 0.001, OC_SYNTH_MAX_TIME_LIMIT, &spec.time_limit_s)))
        return die(EXIT_USAGE, "synth: --time-limit %s: seconds from 0.001 to 86400", o->limit,
                   NULL);
    int rc;
    if ((rc = fold(o, "-w", o->w, "wavelengths")) || (rc = fold(o, "-f", o->f, "fibres")))
        return rc;
    spec.net_params = o->net_params;
    char why[512] = "";
    oc_synth_result *res = NULL;
    int err = oc_synth(&spec, &res, why, sizeof why);
    if (err) return lib_error(err, why);
    oc_synth_info info;
    oc_synth_get(res, &info);
    rc = 0;
    if (info.stopped) {
        char line[400];
        snprintf(line, sizeof line, "synth: stopped: %s (proven lower bound %llu steps; %s%s%s)",
                 info.stopped, (unsigned long long)info.lower,
                 info.found ? "best schedule below, not proven optimal, from "
                            : "no schedule found",
                 info.found && strcmp(info.source, "solver") ? "algorithm " : "",
                 info.found ? info.source : "");
        die_line(0, line);
    }
    if (o->out) {
        if (!info.found) {
            oc_synth_free(res);
            return die(EXIT_VERIFY, "synth: no schedule found, nothing written to %s", o->out,
                       NULL);
        }
        if ((rc = write_whole(o->out, write_schedule, res))) {
            oc_synth_free(res);
            return rc;
        }
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        oc_synth_free(res);
        return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    err = o->json ? oc_synth_write_json(res, mem) : oc_synth_write_text(res, mem);
    if (fclose(mem) && !err) err = OC_ENOMEM;
    oc_synth_free(res);
    if (err) {
        free(buf);
        return lib_error(err, "cannot render the result");
    }
    /* with -o - the schedule file owns standard output; the report goes to standard error */
    fwrite(buf, 1, len, out_is_stdout(o->out) ? stderr : stdout);
    free(buf);
    return info.found ? 0 : EXIT_VERIFY;
}

int cmd_synth(int argc, char **argv) {
    opt o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (!rc) rc = run(&o);
    oc_kv_free(o.net_params);
    return rc;
}
