/*
 * points.c — the options that `sweep`, `tune` and `run -a auto` share (points.h), and the run of
 * their points: the library's sweep (src/studies/sweep.c) on every core and across ranks.
 *
 * A node or size list is comma-separated items, each a value or a range A..B: A, 2A, 4A, ... up to
 * B (B itself need not be reached); A..B:*F multiplies by F instead and A..B:+S adds S. Sizes take
 * the units of -s (4KiB..64MiB:*4). The union is sorted and repeats dropped, so that "along N" and
 * "along size" are in increasing order for the crossovers of `tune`.
 */
#include "points.h"

#include "scaleout.h"

#include <stdlib.h>
#include <string.h>

/* Parses a node (sizes = 0) or size list into out[0 .. *n) (oc_parse_list): 0 or an exit code
 * after one line. */
static int parse_list(const char *flag, const char *text, int sizes, uint64_t *out, size_t *n) {
    const char *what = sizes ? "sizes (e.g. 4KiB,1MiB or 1KiB..64MiB:*4)"
                             : "node counts (e.g. 3,5,12 or 2..64 or 4..100:+8)";
    int rc = oc_parse_list(text, sizes, out, MAX_LIST, n);
    if (rc == OC_ENOMEM) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    if (rc == OC_ERANGE) return die(EXIT_USAGE, "%s %s: more than 4096 values", flag, text);
    if (rc && !*text) return die(EXIT_USAGE, "%s: empty list; expected %s", flag, what);
    size_t len = strlen(text);
    if (rc && (text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,")))
        return die(EXIT_USAGE, "%s %s: an empty item in the list (e.g. 4,,8)", flag, text);
    if (rc) {
        char msg[600];
        snprintf(msg, sizeof msg, "%s %s: expected %s", flag, OC_Q(text), what);
        return die_line(EXIT_USAGE, msg);
    }
    return 0;
}

static int network_known(const char *name) {
    for (size_t i = 0; i < oc_network_count(); i++)
        if (!strcmp(oc_network_at(i)->name, name)) return 1;
    return 0;
}

/* The algorithms: -a's list (each checked against the registry), or every algorithm of the
 * collective that runs on the network, in registry order. */
static int parse_algos(sweep_args *a) {
    size_t cap = oc_algorithm_count() + 1, n = 0;
    const oc_algorithm_info **list = calloc(cap, sizeof *list);
    a->algos = calloc(cap, sizeof *a->algos);
    int rc = !list || !a->algos ? die(EXIT_OTHER, "out of memory", NULL, NULL)
                                : algo_list(a->o.algo, a->base.collective, a->base.network, 0,
                                            list, cap, &n);
    for (size_t k = 0; !rc && k < n; k++)
        a->algos[a->nalgos++] = list[k]->name;
    free(list);
    return rc;
}

int sweep_read(int argc, char **argv, const char *cmd, const char *help, sweep_args *a) {
    memset(a, 0, sizeof *a);
    a->jobs = oc_scale_default_threads();
    int rc = options_read(argc, argv, cmd, &a->o);
    if (rc) return rc;
    /* --csv FILE and --plot are sweep's */
    a->csv = a->o.csv_file;
    a->plot = a->o.plot;
    if (a->o.help) {
        /* the help's "%s" is where the network options go, as run shows them */
        const char *at = strstr(help, "%s");
        if (at) {
            fwrite(help, 1, (size_t)(at - help), stdout);
            fputs(help_network, stdout);
            fputs(at + 2, stdout);
        } else {
            fputs(help, stdout);
        }
        return -1;
    }
    return 0;
}

int sweep_parse(int argc, char **argv, const char *cmd, const char *help, sweep_args *a) {
    int rc = sweep_read(argc, argv, cmd, help, a);
    return rc ? rc : sweep_setup(a, cmd, a->o.nodes, a->o.size, "--sizes");
}

int sweep_setup(sweep_args *a, const char *cmd, const char *nodes, const char *sizes,
                const char *sizes_flag) {
    const char *jobs = a->o.jobs;
    int rc = 0;
    if ((rc = fold_network_flags(&a->o))) goto out;
    oc_request *q = &a->base;
    q->skip_data_check = a->o.no_data;
    q->params = a->o.params;
    q->net_params = a->o.net_params;
    q->progress = cli_progress; /* the points, and each point's rounds (docs/cli.md, Progress) */
    q->settings = &cli_settings;
    if (!a->o.coll) {
        rc = die(EXIT_USAGE, "missing -c COLLECTIVE", NULL, NULL);
        goto out;
    }
    if (oc_collective_from_name(a->o.coll, &q->collective)) {
        rc = die(EXIT_USAGE, "unknown collective '%s' (see opticoll list)", a->o.coll, NULL);
        goto out;
    }
    q->network = a->o.net ? a->o.net : "ring";
    if (!network_known(q->network)) {
        rc = die(EXIT_USAGE, "unknown network '%s' (see opticoll list)", q->network, NULL);
        goto out;
    }
    if (!nodes || !sizes) {
        rc = die(EXIT_USAGE, "%s: missing %s", cmd, !nodes ? "--nodes LIST" : "--sizes LIST");
        goto out;
    }
    if ((rc = parse_list("--nodes", nodes, 0, a->nodes, &a->nnodes)) ||
        (rc = parse_list(sizes_flag, sizes, 1, a->sizes, &a->nsizes)) ||
        (a->map_sizes && (rc = a->map_sizes(a))))
        goto out;
    if ((rc = root_applies(q->collective, a->o.root))) goto out;
    if (a->o.root) {
        uint64_t r;
        if (oc_parse_u64(a->o.root, 0, a->nodes[0] - 1, &r)) {
            rc = die(EXIT_USAGE, "-r %s: not a node number below the smallest N", a->o.root, NULL);
            goto out;
        }
        q->root = (uint32_t)r;
    }
    if (jobs && oc_scale_parse_jobs(jobs, &a->jobs)) {
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = parse_algos(a))) goto out;
    if (oc_kv_count(a->o.params) && a->nalgos != 1) {
        rc = die(EXIT_USAGE, "%s: -p needs exactly one -a (a parameter belongs to one algorithm)",
                 cmd, NULL);
        goto out;
    }
    if ((double)a->nalgos * (double)a->nnodes * (double)a->nsizes > MAX_POINTS) {
        rc = die(EXIT_USAGE, "%s: more than 100000 points (algorithms x nodes x sizes)", cmd, NULL);
        goto out;
    }
    oc_sweep_spec spec = {.base = *q,
                          .algorithms = a->algos,
                          .nalgorithms = a->nalgos,
                          .nodes = a->nodes,
                          .nnodes = a->nnodes,
                          .sizes = a->sizes,
                          .nsizes = a->nsizes};
    char why[512] = "";
    int err = oc_sweep_new(&spec, &a->sweep, why, sizeof why);
    if (err) rc = lib_error(err, why);
out:
    return rc;
}

void sweep_args_free(sweep_args *a) {
    oc_sweep_free(a->sweep);
    options_free(&a->o);
    free(a->algos);
    memset(a, 0, sizeof *a);
}

int points_run(oc_sweep *s, unsigned jobs) {
    if (oc_scale_sweep(s, jobs)) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    return oc_scale_rank() != 0 ? -1 : 0;
}

int points_first_failure(const oc_sweep *s) {
    size_t i;
    int err = oc_sweep_first_failure(s, &i);
    if (!err) return 0;
    const oc_sweep_point *p = oc_sweep_point_at(s, i);
    char line[768], sz[32];
    oc_format_size(sz, sizeof sz, p->bytes);
    snprintf(line, sizeof line, "%s, N = %u, %s: %s", oc_sweep_algorithm(s, p->algorithm), p->nodes,
             sz, *p->why ? p->why : oc_strerror(err));
    return die_line(exit_for(err), line);
}
