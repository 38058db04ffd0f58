/*
 * cmd_perf.c — `opticoll perf`: nccl-tests' report of one algorithm, its times
 * from the network model. Each size is a verified run of the whole pipeline, as `run` makes it:
 * the points are a sweep (points.c, src/studies/sweep.c) over one N, run on -j threads.
 *
 * The options are nccl-tests': -b, -e and -f give the sizes (minBytes, maxBytes, the step factor;
 * K, M and G are powers of 1024 as there), and a size is nccl-tests' size, the bytes of the whole
 * operation; the request's SIZE follows from it as src/report/perf.c says (all-gather: size / N
 * per rank, in whole floats). A size under one float per rank has no run and is listed as such.
 * The columns and the bus-bandwidth factors are src/report/perf.c's, shared with opticoll-mpi.
 */
#include "points.h"
#include "report/perf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const perf_help =
    "usage: opticoll perf -c COLL -a ALGO -n N -b SIZE [-e SIZE] [-f F] [-t NET] [--json]\n\n"
    "Prints nccl-tests' columns (size, count, type, redop, root, time, algbw, busbw) for one\n"
    "algorithm, each size a verified run whose time is the network model's. algbw = size /\n"
    "time, busbw = algbw x the collective's factor (all-reduce 2(N-1)/N; all-gather,\n"
    "reduce-scatter, all-to-all, scatter, gather, gossip (N-1)/N; broadcast 1; docs/perf.md).\n\n"
    "  -b, --minbytes SIZE     the first size: nccl-tests' size, the bytes of the whole\n"
    "                          operation (all-gather: N blocks); 8, 1K, 128M (K M G: 1024^k)\n"
    "  -e, --maxbytes SIZE     the last size (default: -b)\n"
    "  -f, --stepfactor F      multiply the size by F from one row to the next (2)\n"
    "  -n, --nodes N           ranks\n"
    "  -c, --collective NAME   the collective, as for run\n"
    "  -a, --algorithm NAME    the algorithm (see `opticoll list`)\n"
    "  -p, --param KEY=VALUE   an algorithm parameter (repeatable), as for run\n"
    "  -r, --root R            root of broadcast, scatter, gather (0)\n"
    "  -j, --jobs N            threads (the output does not depend on it)\n"
    "      --json              one JSON object: the run's settings and its rows\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "  -t, --network NAME      the network, as for run (ring by default)\n"
    "  -w, --wavelengths W     ring: wavelengths per fibre (as for run)\n"
    "      --preset NAME       a network preset, as for run\n"
    "      --net KEY=VALUE     a network parameter (repeatable); fibres: --net fibres=F, since\n"
    "                          -f is the step factor here, as in nccl-tests; the star needs\n"
    "                          --net tau= and --net D= in seconds\n";

enum { TSIZE = 4 }; /* the rows are of floats, nccl-tests' default type */

typedef struct perf_ctx {
    uint64_t sizes[MAX_LIST]; /* nccl-tests' sizes asked for, before the mapping */
    size_t nsizes;
} perf_ctx;

/* nccl-tests' size ("8", "1K", "128M", "2G": K, M, G as 1024^k) in the form of -s ("128MiB"). */
static int size_arg(const char *flag, const char *text, char *out, size_t len) {
    size_t n = strlen(text);
    char last = n ? (char)toupper((unsigned char)text[n - 1]) : 0;
    if (n && n < 64 && (last == 'K' || last == 'M' || last == 'G') &&
        isdigit((unsigned char)text[n > 1 ? n - 2 : 0]))
        snprintf(out, len, "%.*s%ciB", (int)(n - 1), text, last);
    else
        snprintf(out, len, "%s", text);
    uint64_t v;
    if (oc_parse_size(out, &v) || v == 0)
        return die(EXIT_USAGE, "%s %s: not a size (e.g. 8, 1K, 128M, 1GiB)", flag, text);
    return 0;
}

/* The sizes asked for -> the requests' SIZEs on the one N; the sizes with no whole float per
 * rank are left out (and listed by the report). */
static int map_sizes(sweep_args *a) {
    perf_ctx *p = a->ctx;
    if (a->nnodes != 1) return die(EXIT_USAGE, "perf: -n takes one node count", NULL, NULL);
    uint32_t n = (uint32_t)a->nodes[0];
    size_t k = 0;
    p->nsizes = a->nsizes;
    memcpy(p->sizes, a->sizes, a->nsizes * sizeof *a->sizes);
    for (size_t i = 0; i < a->nsizes; i++) {
        uint64_t b = oc__perf_bytes(a->base.collective, n, a->sizes[i], TSIZE);
        if (b && (k == 0 || b > a->sizes[k - 1])) a->sizes[k++] = b;
    }
    a->nsizes = k;
    if (!k) {
        char line[256];
        snprintf(line, sizeof line,
                 "perf: no size from -b to -e holds one float per rank of %s on %u ranks",
                 oc_collective_name(a->base.collective), n);
        return die_line(EXIT_USAGE, line);
    }
    return 0;
}

static int print_json(const sweep_args *a, double factor) {
    const oc_sweep_point *p0 = oc_sweep_point_at(a->sweep, 0);
    cJSON *x = cJSON_CreateObject();
    int ok = x && oc__json_str(x, "collective", a->o.coll) &&
             oc__json_str(x, "algorithm", a->algos[0]) &&
             oc__json_str(x, "network", a->base.network) &&
             oc__json_kv(x, "network_params", a->o.net_params) &&
             oc__json_u64(x, "nodes", p0->nodes) && oc__json_str(x, "type", "float") &&
             oc__json_num(x, "busbw_factor", factor) && oc__json_str(x, "time_source", "model");
    cJSON *rows = ok ? oc__json_arr(x, "rows") : NULL;
    ok = rows != NULL;
    for (size_t i = 0; ok && i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(a->sweep, i);
        oc__perf_row r =
            oc__perf_row_of(a->base.collective, p->nodes, p->bytes, TSIZE, a->base.root);
        r.type = "float";
        r.time_s[0] = p->status == OC_POINT_RAN ? p->time_s : 0;
        cJSON *row = oc__perf_row_json(&r, NULL, 1, factor);
        ok = row && oc__json_u64(row, "bytes", p->bytes) &&
             (p->status == OC_POINT_RAN ? oc__json_str(row, "params", p->params)
                                        : oc__json_str(row, "not_run", p->why));
        ok = oc__json_add(rows, NULL, row) && ok;
    }
    if (!ok) {
        cJSON_Delete(x);
        return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    int rc = oc__json_write(stdout, x, OC__JSON_SPACED, "\n");
    return rc == OC_ENOMEM ? die(EXIT_OTHER, "out of memory", NULL, NULL) : 0;
}

static void print_table(const sweep_args *a, const perf_ctx *pc, double factor) {
    uint32_t n = (uint32_t)a->nodes[0];
    printf("# opticoll perf: %s / %s on %s, %u ranks; times from the network model (each size a "
           "verified run)\n# busbw = algbw x %.6g\n#\n",
           a->o.coll, a->algos[0], a->base.network, n, factor);
    oc__perf_header(stdout, NULL, 1);
    for (size_t i = 0; i < pc->nsizes; i++)
        if (!oc__perf_bytes(a->base.collective, n, pc->sizes[i], TSIZE))
            printf("# %llu B: less than one float per rank, not run\n",
                   (unsigned long long)pc->sizes[i]);
    for (size_t i = 0; i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(a->sweep, i);
        oc__perf_row r =
            oc__perf_row_of(a->base.collective, p->nodes, p->bytes, TSIZE, a->base.root);
        r.type = "float";
        r.time_s[0] = p->status == OC_POINT_RAN ? p->time_s : 0;
        oc__perf_row_text(stdout, &r, 1, factor);
        if (p->status != OC_POINT_RAN) printf("#   not run: %s\n", p->why);
    }
}

int cmd_perf(int argc, char **argv) {
    sweep_args a;
    perf_ctx pc;
    memset(&pc, 0, sizeof pc);
    int rc = sweep_read(argc, argv, "perf", perf_help, &a);
    if (rc) {
        sweep_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    char lo[96], hi[96], range[256];
    const char *f = a.o.stepfactor ? a.o.stepfactor : "2";
    uint64_t fv;
    if (!a.o.algo || strchr(a.o.algo, ','))
        rc = die(EXIT_USAGE, "perf: give one algorithm (-a NAME)", NULL, NULL);
    else if (!a.o.nodes)
        rc = die(EXIT_USAGE, "perf: missing -n N (the number of ranks)", NULL, NULL);
    else if (!a.o.minbytes)
        rc = die(EXIT_USAGE, "perf: missing -b SIZE (e.g. -b 8 -e 128M -f 2)", NULL, NULL);
    else if (oc_parse_u64(f, 2, 1024, &fv))
        rc = die(EXIT_USAGE, "-f %s: the step factor is a whole number from 2 to 1024", f, NULL);
    if (!rc && !(rc = size_arg("-b", a.o.minbytes, lo, sizeof lo)) &&
        !(rc = size_arg("-e", a.o.maxbytes ? a.o.maxbytes : a.o.minbytes, hi, sizeof hi))) {
        uint64_t b, e;
        if (!oc_parse_size(lo, &b) && !oc_parse_size(hi, &e) && e < b)
            rc = die(EXIT_USAGE, "-e %s: smaller than -b %s", a.o.maxbytes, a.o.minbytes);
        else if (!strcmp(lo, hi))
            snprintf(range, sizeof range, "%s", lo);
        else
            snprintf(range, sizeof range, "%s..%s:*%llu", lo, hi, (unsigned long long)fv);
    }
    a.map_sizes = map_sizes;
    a.ctx = &pc;
    if (rc || (rc = sweep_setup(&a, "perf", a.o.nodes, range, "-b/-e/-f"))) goto out;
    /* The star's model counts time in its own units, tau and D (default 1 each): a bandwidth in
     * GB/s needs both in seconds. */
    if (!strcmp(a.base.network, "star") &&
        (!oc_kv_get(a.o.net_params, "tau") || !oc_kv_get(a.o.net_params, "D"))) {
        rc = die(EXIT_USAGE,
                 "perf: the star's times are in units of tau and D: give both in "
                 "seconds (e.g. --net tau=1e-8 --net D=1e-6)",
                 NULL, NULL);
        goto out;
    }
    if ((rc = points_run(a.sweep, a.jobs))) { /* ranks > 0 end here (-1) */
        rc = rc < 0 ? 0 : rc;
        goto out;
    }
    if ((rc = points_first_failure(a.sweep))) goto out;
    double factor = oc__perf_busbw_factor(a.base.collective, (uint32_t)a.nodes[0]);
    if (a.o.json)
        rc = print_json(&a, factor);
    else
        print_table(&a, &pc, factor);
out:
    sweep_args_free(&a);
    return rc;
}
