/*
 * cmd_perf.c — `opticoll perf`: nccl-tests' report of one algorithm, its times from the network
 * model. Each size is a verified run of the whole pipeline, as `run` makes it: the points are a
 * sweep (points.c, src/studies/sweep.c) over one N, run on -j threads.
 *
 * The options are nccl-tests' where nccl-tests has the letter (NVIDIA/nccl-tests, src/common.cu):
 * -b -e minBytes and maxBytes (K, M, G: 1024^k), -f the step factor or -i the step in bytes, -g
 * the ranks (its GPUs; --nodes too), -n iterations, -w warm-up iterations, -c the check (0: none),
 * -z blocking, -r the root. The network model's time is the same at every iteration, with or
 * without warm-up or blocking, so -n, -w and -z change no number: they are printed in the header
 * as nccl-tests prints them. -c 0 turns the real-data run off (the symbolic verifier always
 * runs) and prints #wrong as N/A, as nccl-tests does without a check.
 *
 * Before this layout, perf read -c as the collective, -n as the nodes and -w as the wavelengths.
 * Those are --collective, -g/--nodes and --wavelengths now; a -c that is not a number (an old
 * `-c allreduce`) and a -n without -g or --nodes are refused with a line that says so, so an old
 * command line never runs with a changed meaning. -a (the algorithm) and -t (the network) keep
 * opticoll's meaning: nccl-tests' -a (average) and -t (threads) have no counterpart in a model.
 *
 * A size is nccl-tests' size, the bytes of the whole operation: b, b x f, b x f^2, ... while at
 * most e (b, b + i, ... with -i), as nccl-tests steps, and the request's SIZE follows as
 * src/report/perf.c says (all-gather: size / N per rank, in whole floats). A size under one
 * float per rank has no run and is listed as a comment. The rows have nccl-tests' two halves,
 * out-of-place and in-place: the model has no buffers, so both are the one verified run's time
 * (the header says so). #wrong is 0 for a run that passed the verifier (a wrong schedule is an
 * error, exit 1, and no table); the footer is nccl-tests': out-of-bounds values and the mean bus
 * bandwidth over both halves of every row.
 */
#include "points.h"
#include "opticoll_json.h"
#include "scaleout.h"

#include <stdlib.h>
#include <string.h>

static const char *const perf_help =
    "usage: opticoll perf --collective COLL -a ALGO -g N -b SIZE [-e SIZE] [-f F | -i BYTES]\n"
    "                     [-n ITERS] [-w WARMUP] [-c CHECK] [-z 0|1] [-t NET] [--json]\n\n"
    "Prints nccl-tests' report (size, count, type, redop, root, then time, algbw, busbw and\n"
    "#wrong out-of-place and in-place; the out-of-bounds and average bus bandwidth footer) for\n"
    "one algorithm, each size a verified run whose time is the network model's. algbw = size /\n"
    "time, busbw = algbw x the collective's factor (all-reduce 2(N-1)/N; all-gather,\n"
    "reduce-scatter, all-to-all, scatter, gather, gossip (N-1)/N; broadcast 1; docs/perf.md).\n"
    "The letters are nccl-tests': the collective is --collective, the ranks -g or --nodes, the\n"
    "ring's wavelengths --wavelengths.\n\n"
    "      --collective NAME   the collective, as for run\n"
    "  -a, --algorithm NAME    the algorithm (see `opticoll list`)\n"
    "  -g, --ngpus N           ranks (nccl-tests' GPUs; also --nodes N)\n"
    "  -b, --minbytes SIZE     the first size: nccl-tests' size, the bytes of the whole\n"
    "                          operation (all-gather: N blocks); 8, 1K, 128M (K M G: 1024^k)\n"
    "  -e, --maxbytes SIZE     the last size (default: -b)\n"
    "  -f, --stepfactor F      multiply the size by F from one row to the next (2)\n"
    "  -i, --stepbytes BYTES   add BYTES from one row to the next instead\n"
    "  -n, --iters N           iterations (20); the model's time is the same at each\n"
    "  -w, --warmup_iters N    warm-up iterations (5); no effect on the model's time\n"
    "  -c, --check N           0: no real-data run and #wrong N/A; else the run checks data (1)\n"
    "  -z, --blocking 0|1      nccl-tests' blocking collectives (0); no effect on the model\n"
    "  -r, --root R            root of broadcast, scatter, gather (0)\n"
    "  -p, --param KEY=VALUE   an algorithm parameter (repeatable), as for run\n"
    "  -j, --jobs N            threads (the output does not depend on it)\n"
    "      --json              one JSON object: the run's settings and its rows\n"
    "      --no-data-check     the same as -c 0\n"
    "  -t, --network NAME      the network, as for run (ring by default)\n"
    "      --wavelengths W     ring: wavelengths per fibre (run's -w)\n"
    "      --fibres F          ring: fibres per direction (run's -f)\n"
    "      --preset NAME       a network preset, as for run\n"
    "      --net KEY=VALUE     a network parameter (repeatable); the star needs --net tau= and\n"
    "                          --net D= in seconds\n\n"
    "examples:\n"
    "  opticoll perf --collective allreduce -a ring -g 8 -b 8 -e 128M -f 2\n"
    "  opticoll perf --collective allgather -a optree -g 64 -b 1K -e 1G -f 4 --wavelengths 64\n"
    "  opticoll perf --collective allreduce -a rhd -p radix=4 -t fabric -g 256 -b 1M --json\n";

enum { TSIZE = 4 }; /* the rows are of floats, nccl-tests' default type */

enum {
    P_COLL,
    P_ALGO,
    P_RANKS,
    P_MINB,
    P_MAXB,
    P_STEPF,
    P_STEPB,
    P_ITERS,
    P_WARMUP,
    P_CHECK,
    P_BLOCK,
    P_ROOT,
    P_PARAM,
    P_JOBS,
    P_JSON,
    P_NODATA,
    P_NET,
    P_WAVE,
    P_FIBRES,
    P_PRESET,
    P_NETPARAM,
    P_HELP,
    P_COUNT
};

static const arg_option perf_options[] = {
    {NULL, "--collective", 1, P_COLL},
    {"-a", "--algorithm", 1, P_ALGO},
    {"-g", "--ngpus", 1, P_RANKS},
    {NULL, "--nodes", 1, P_RANKS},
    {"-b", "--minbytes", 1, P_MINB},
    {"-e", "--maxbytes", 1, P_MAXB},
    {"-f", "--stepfactor", 1, P_STEPF},
    {"-i", "--stepbytes", 1, P_STEPB},
    {"-n", "--iters", 1, P_ITERS},
    {"-w", "--warmup_iters", 1, P_WARMUP},
    {"-c", "--check", 1, P_CHECK},
    {"-z", "--blocking", 1, P_BLOCK},
    {"-r", "--root", 1, P_ROOT},
    {"-p", "--param", 1, P_PARAM},
    {"-j", "--jobs", 1, P_JOBS},
    {NULL, "--json", 0, P_JSON},
    {NULL, "--no-data-check", 0, P_NODATA},
    {"-t", "--network", 1, P_NET},
    {NULL, "--wavelengths", 1, P_WAVE},
    {NULL, "--fibres", 1, P_FIBRES},
    {NULL, "--preset", 1, P_PRESET},
    {NULL, "--net", 1, P_NETPARAM},
    {"-h", "--help", 0, P_HELP},
};

/* nccl-tests' settings that change no number of the model, printed as nccl-tests prints them. */
typedef struct perf_ctx {
    uint64_t sizes[MAX_LIST]; /* nccl-tests' sizes asked for, before the mapping */
    size_t nsizes;
    uint64_t minbytes, maxbytes, step;
    int by_factor;
    uint64_t iters, warmup, check, blocking;
} perf_ctx;

/* A size in the one grammar (oc_parse_size: nccl-tests' "8", "1K", "128M", "2G" as well as -s's
 * "128MiB"), not 0. */
static int size_arg(const char *flag, const char *text, uint64_t *out) {
    if (oc_parse_size(text, out) || *out == 0)
        return die(EXIT_USAGE, "%s %s: not a size (e.g. 8, 1K, 128M, 1GiB)", flag, text);
    return 0;
}

/* A whole number for one of nccl-tests' counts (-n, -w, -c, -z, -f, -i). */
static int count_arg(const char *flag, const char *text, uint64_t lo, uint64_t hi, uint64_t *out,
                     const char *what) {
    if (!oc_parse_u64(text, lo, hi, out)) return 0;
    char line[400];
    snprintf(line, sizeof line, "perf: %s %s: %s, a whole number from %llu to %llu", flag,
             OC_Q(text), what, (unsigned long long)lo, (unsigned long long)hi);
    return die_line(EXIT_USAGE, line);
}

/* The words of argv into a->o (the options sweep_setup reads) and pc; the old letters refused. */
static int perf_read(int argc, char **argv, sweep_args *a, perf_ctx *pc, const char **ranks) {
    const char *v[P_COUNT] = {0};
    arg_reader p;
    arg_word w;
    arg_init(&p, argc, argv, perf_options, sizeof perf_options / sizeof perf_options[0]);
    while (arg_next(&p, &w) != ARG_END) {
        if (w.kind == ARG_OPERAND)
            return die(EXIT_USAGE, "perf: unexpected argument '%s'", w.value, NULL);
        if (w.kind == ARG_UNKNOWN)
            return die(EXIT_USAGE, "perf: unknown option '%s' (see --help)", w.spelling, NULL);
        if (w.kind == ARG_NEEDS_VALUE)
            return die(EXIT_USAGE, "perf: %s needs a value", w.spelling, NULL);
        if (w.kind != ARG_OPTION)
            return die(EXIT_USAGE, "perf: bad option '%s' (see --help)", w.spelling, NULL);
        if (w.id == P_PARAM || w.id == P_NETPARAM) {
            oc_kv *kv = w.id == P_PARAM ? a->o.params : a->o.net_params;
            const char *eq = strchr(w.value, '=');
            char key[128];
            snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - w.value) : 0, w.value);
            if (eq && eq > w.value && oc_kv_get(kv, key))
                return die(EXIT_USAGE, "perf: %s %s given twice", w.spelling, key);
            if (oc_kv_set_pair(kv, w.value))
                return die(EXIT_USAGE, "perf: %s: expected KEY=VALUE, got '%s'", w.spelling,
                           w.value);
            continue;
        }
        if (!w.value) { /* a flag */
            v[w.id] = w.spelling;
            continue;
        }
        if (v[w.id]) return die(EXIT_USAGE, "perf: %s given twice", w.spelling, NULL);
        v[w.id] = w.value;
    }
    if (v[P_HELP]) {
        fputs(perf_help, stdout);
        return -1;
    }
    /* the letters perf read before it took nccl-tests': refused where the old meaning shows */
    uint64_t u;
    if (v[P_CHECK] && oc_parse_u64(v[P_CHECK], 0, UINT64_MAX, &u)) {
        char line[400];
        snprintf(line, sizeof line,
                 "perf: -c %s: -c is nccl-tests' check count now (0 or more); give the collective "
                 "as --collective %s, the ranks as -g N",
                 OC_Q(v[P_CHECK]), OC_Q(v[P_CHECK]));
        return die_line(EXIT_USAGE, line);
    }
    if (v[P_ITERS] && !v[P_RANKS])
        return die(EXIT_USAGE,
                   "perf: -n %s is nccl-tests' iteration count now: give the ranks as -g N (or "
                   "--nodes N)",
                   v[P_ITERS], NULL);
    if (v[P_CHECK] && v[P_NODATA])
        return die(EXIT_USAGE, "perf: -c and --no-data-check say the same thing: give one", NULL,
                   NULL);
    if (v[P_STEPF] && v[P_STEPB])
        return die(EXIT_USAGE, "perf: -f and -i exclude each other (a factor or a step in bytes)",
                   NULL, NULL);
    int rc = 0;
    pc->iters = 20, pc->warmup = 5, pc->check = v[P_NODATA] ? 0 : 1, pc->blocking = 0;
    if ((v[P_ITERS] && (rc = count_arg("-n", v[P_ITERS], 1, 1000000000, &pc->iters,
                                       "nccl-tests' iteration count"))) ||
        (v[P_WARMUP] && (rc = count_arg("-w", v[P_WARMUP], 0, 1000000000, &pc->warmup,
                                        "nccl-tests' warm-up iterations (the ring's wavelengths "
                                        "are --wavelengths)"))) ||
        (v[P_CHECK] &&
         (rc = count_arg("-c", v[P_CHECK], 0, 1000000, &pc->check, "nccl-tests' check count"))) ||
        (v[P_BLOCK] &&
         (rc = count_arg("-z", v[P_BLOCK], 0, 1, &pc->blocking, "nccl-tests' blocking flag"))))
        return rc;
    pc->by_factor = !v[P_STEPB];
    pc->step = 2;
    if (v[P_STEPF] && (rc = count_arg("-f", v[P_STEPF], 2, 1024, &pc->step,
                                      "the step factor (the ring's fibres are --fibres)")))
        return rc;
    if (v[P_STEPB] && (rc = size_arg("-i", v[P_STEPB], &pc->step))) return rc;
    if (!v[P_COLL])
        return die(EXIT_USAGE, "perf: missing --collective NAME (e.g. --collective allreduce)",
                   NULL, NULL);
    if (!v[P_ALGO] || strchr(v[P_ALGO], ','))
        return die(EXIT_USAGE, "perf: give one algorithm (-a NAME)", NULL, NULL);
    if (!v[P_RANKS]) return die(EXIT_USAGE, "perf: missing -g N (the number of ranks)", NULL, NULL);
    if (!v[P_MINB])
        return die(EXIT_USAGE, "perf: missing -b SIZE (e.g. -b 8 -e 128M -f 2)", NULL, NULL);
    if ((rc = size_arg("-b", v[P_MINB], &pc->minbytes)) ||
        (rc = size_arg("-e", v[P_MAXB] ? v[P_MAXB] : v[P_MINB], &pc->maxbytes)))
        return rc;
    if (pc->maxbytes < pc->minbytes)
        return die(EXIT_USAGE, "perf: -e %s: smaller than -b %s", v[P_MAXB], v[P_MINB]);
    a->o.coll = v[P_COLL], a->o.algo = v[P_ALGO], a->o.net = v[P_NET], a->o.root = v[P_ROOT];
    a->o.jobs = v[P_JOBS], a->o.json = v[P_JSON] != NULL, a->o.no_data = pc->check == 0;
    a->o.wavelengths = v[P_WAVE], a->o.fibres = v[P_FIBRES], a->o.preset = v[P_PRESET];
    a->o.spelling[OPT_W] = "--wavelengths";
    a->o.spelling[OPT_F] = "--fibres";
    *ranks = v[P_RANKS];
    /* nccl-tests' sizes: from -b while at most -e, times -f (or plus -i) */
    pc->nsizes = 0;
    for (uint64_t s = pc->minbytes; s <= pc->maxbytes;) {
        if (pc->nsizes == MAX_LIST)
            return die(EXIT_USAGE, "perf: more than 4096 sizes from -b to -e", NULL, NULL);
        pc->sizes[pc->nsizes++] = s;
        uint64_t next = pc->by_factor ? s * pc->step : s + pc->step;
        if (next <= s || (pc->by_factor && next / pc->step != s)) break; /* past 2^64 */
        s = next;
    }
    return 0;
}

/* The sizes asked for -> the requests' SIZEs on the one N; the sizes with no whole float per
 * rank are left out (and listed by the report). */
static int map_sizes(sweep_args *a) {
    perf_ctx *p = a->ctx;
    if (a->nnodes != 1) return die(EXIT_USAGE, "perf: -g takes one number of ranks", NULL, NULL);
    uint32_t n = (uint32_t)a->nodes[0];
    size_t k = 0;
    for (size_t i = 0; i < p->nsizes; i++) {
        uint64_t b = oc_perf_bytes(a->base.collective, n, p->sizes[i], TSIZE);
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

static oc_perf_row row_of(const sweep_args *a, const oc_sweep_point *p) {
    oc_perf_row r = oc_perf_row_of(a->base.collective, p->nodes, p->bytes, TSIZE, a->base.root);
    r.type = "float";
    double t = p->status == OC_POINT_RAN ? p->time_s : 0;
    r.time_s[0] = r.time_s[1] = t; /* out-of-place and in-place: one schedule, one model time */
    return r;
}

/* The mean busbw over both halves of every row that ran (nccl-tests' "Avg bus bandwidth"). */
static double mean_busbw(const sweep_args *a, double factor) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(a->sweep, i);
        if (p->status != OC_POINT_RAN) continue;
        oc_perf_row r = row_of(a, p);
        sum += oc_perf_busbw(&r, 0, factor) + oc_perf_busbw(&r, 1, factor);
        n += 2;
    }
    return n ? sum / (double)n : 0;
}

static int print_json(const sweep_args *a, const perf_ctx *pc, double factor) {
    const oc_sweep_point *p0 = oc_sweep_point_at(a->sweep, 0);
    cJSON *x = cJSON_CreateObject();
    int ok =
        x && oc_json_str(x, "collective", a->o.coll) &&
        oc_json_str(x, "algorithm", a->algos[0]) && oc_json_str(x, "network", a->base.network) &&
        oc_json_kv(x, "network_params", a->o.net_params) && oc_json_u64(x, "nodes", p0->nodes) &&
        oc_json_str(x, "type", "float") && oc_json_num(x, "busbw_factor", factor) &&
        oc_json_str(x, "time_source", "model") && oc_json_u64(x, "minbytes", pc->minbytes) &&
        oc_json_u64(x, "maxbytes", pc->maxbytes) &&
        oc_json_u64(x, pc->by_factor ? "step_factor" : "step_bytes", pc->step) &&
        oc_json_u64(x, "iters", pc->iters) && oc_json_u64(x, "warmup_iters", pc->warmup) &&
        oc_json_u64(x, "check", pc->check) && oc_json_u64(x, "blocking", pc->blocking) &&
        oc_json_u64(x, "out_of_bounds", 0) &&
        oc_json_num(x, "avg_busbw_GBps", mean_busbw(a, factor));
    cJSON *rows = ok ? oc_json_arr(x, "rows") : NULL;
    static const char *const halves[] = {"out_of_place", "in_place"};
    ok = rows != NULL;
    for (size_t i = 0; ok && i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(a->sweep, i);
        oc_perf_row r = row_of(a, p);
        cJSON *row = oc_perf_row_json(&r, NULL, 1, factor), *h = NULL;
        ok = row && oc_json_u64(row, "bytes", p->bytes) &&
             (p->status == OC_POINT_RAN ? oc_json_str(row, "params", p->params)
                                        : oc_json_str(row, "not_run", p->why));
        for (size_t g = 0; ok && g < 2; g++) {
            ok = (h = oc_json_obj(row, halves[g])) != NULL;
            if (ok && p->status == OC_POINT_RAN)
                ok = oc_json_num(h, "time_us", r.time_s[g] * 1e6) &&
                     oc_json_num(h, "algbw_GBps", oc_perf_busbw(&r, g, 1.0)) &&
                     oc_json_num(h, "busbw_GBps", oc_perf_busbw(&r, g, factor)) &&
                     (pc->check ? oc_json_u64(h, "wrong", 0) : oc_json_null(h, "wrong"));
            else if (ok)
                ok = oc_json_null(h, "time_us") && oc_json_null(h, "algbw_GBps") &&
                     oc_json_null(h, "busbw_GBps") && oc_json_null(h, "wrong");
        }
        ok = oc_json_add(rows, NULL, row) && ok;
    }
    if (!ok) {
        cJSON_Delete(x);
        return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    int rc = oc_json_write(stdout, x, OC_JSON_SPACED, "\n");
    return rc == OC_ENOMEM ? die(EXIT_OTHER, "out of memory", NULL, NULL) : 0;
}

static void print_table(const sweep_args *a, const perf_ctx *pc, double factor) {
    uint32_t n = (uint32_t)a->nodes[0];
    printf("# opticoll perf: %s / %s on %s, %u ranks; times from the network model (each size a "
           "verified run)\n",
           a->o.coll, a->algos[0], a->base.network, n);
    printf("# nThread 1 nGpus %u minBytes %llu maxBytes %llu step: %llu(%s) warmup iters: %llu "
           "iters: %llu agg iters: 1 validation: %llu graph: 0\n",
           n, (unsigned long long)pc->minbytes, (unsigned long long)pc->maxbytes,
           (unsigned long long)pc->step, pc->by_factor ? "factor" : "bytes",
           (unsigned long long)pc->warmup, (unsigned long long)pc->iters,
           (unsigned long long)pc->check);
    if (pc->blocking)
        printf("# Blocking Enabled: wait for completion and barrier after each collective \n");
    printf("# the model's time is the same at every iteration, warm-up or not, and in-place or "
           "out-of-place (one schedule); busbw = algbw x %.6g\n",
           factor);
    static const char *const halves[] = {"out-of-place", "in-place"};
    oc_perf_nccl_header(stdout, halves, 2);
    for (size_t i = 0; i < pc->nsizes; i++)
        if (!oc_perf_bytes(a->base.collective, n, pc->sizes[i], TSIZE))
            printf("# %llu B: less than one float per rank, not run\n",
                   (unsigned long long)pc->sizes[i]);
    const int64_t wrong[2] = {pc->check ? 0 : -1, pc->check ? 0 : -1};
    for (size_t i = 0; i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(a->sweep, i);
        oc_perf_row r = row_of(a, p);
        oc_perf_nccl_row(stdout, &r, wrong, 2, factor);
        if (p->status != OC_POINT_RAN) printf("#   not run: %s\n", p->why);
    }
    oc_perf_nccl_footer(stdout, 0, mean_busbw(a, factor));
}

int cmd_perf(int argc, char **argv) {
    sweep_args a;
    perf_ctx pc;
    memset(&a, 0, sizeof a);
    memset(&pc, 0, sizeof pc);
    a.jobs = oc_scale_default_threads();
    const char *ranks = NULL;
    int rc = options_init(&a.o);
    if (!rc) rc = perf_read(argc, argv, &a, &pc, &ranks);
    if (rc) {
        sweep_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    char range[32];
    snprintf(range, sizeof range, "%llu", (unsigned long long)pc.sizes[0]);
    a.map_sizes = map_sizes;
    a.ctx = &pc;
    if ((rc = sweep_setup(&a, "perf", ranks, range, "-b/-e/-f"))) goto out;
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
    double factor = oc_perf_busbw_factor(a.base.collective, (uint32_t)a.nodes[0]);
    if (a.o.json)
        rc = print_json(&a, &pc, factor);
    else
        print_table(&a, &pc, factor);
out:
    sweep_args_free(&a);
    return rc;
}
