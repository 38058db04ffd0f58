/*
 * opticoll_mpi.c — `opticoll-mpi`, the checker and benchmark of the MPI executor, run under
 * mpirun: for each collective, algorithm and size it runs libopticoll_mpi's collective and the MPI
 * library's own on the same inputs, checks that the results are identical, and times both
 * (the median over --repeats runs after --warmup runs, the two alternating run by run; one run's
 * time is the slowest rank's, from a barrier to the end of the call).
 *
 * Exact comparison: the inputs of the reductions are small integers (-8..8), so every partial sum
 * is an exact integer in float and double whatever order a schedule adds in, and the result must
 * equal MPI's bit for bit (tolerance 0). Copies are compared bit for bit too. A mismatch names the
 * collective, algorithm, size, rank and first element, and the exit status is 1.
 *
 *   mpirun -np 4 opticoll-mpi [--collectives allreduce,allgather] [--algorithms ring,rd|all]
 *          [--sizes 0,4B,1KiB,1MiB] [--type float|double|int32|int64] [--op sum|max|min]
 *          [--root R] [--inplace] [--repeats 5] [--warmup 1] [--json] [--drop-transfer R:I]
 *          [--perf]
 *
 * Without --algorithms, every algorithm of the collective that runs on the `switch` network is
 * taken (or, when none does, every algorithm of it); `all` takes every registered one; of an
 * explicit list, each collective runs the names it has, and a name none of them has is a usage
 * error (exit 2). An algorithm whose plan refuses the communicator size, root or message size
 * (MPI_ERR_UNSUPPORTED_OPERATION on every rank) is reported as skipped; any other error of our
 * collective is FAILED (one line per rank naming algorithm and size) and the exit status is 1.
 * --drop-transfer R:I (for tests) leaves out transfer I of round R of every schedule: the check
 * must then report a mismatch.
 *
 * --perf prints nccl-tests' columns instead (src/report/perf.c, the writer `opticoll perf` uses):
 * per collective and algorithm, size, count, type, redop, root and then time, algbw and busbw
 * twice, for our schedule ("opticoll") and for the MPI library's own collective ("MPI"), as
 * nccl-tests prints its out-of-place and in-place runs side by side; with --json each case gains
 * a "perf" object (the same row). The size is nccl-tests' (all-gather: ranks x --sizes).
 */
#include "opticoll_mpi.h"
#include "args.h"
#include "mpi_agree.h"
#include "opticoll.h"
#include "opticoll_json.h"
#include "opticoll_testing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LIST = 64 };

typedef struct opts {
    const char *colls[MAX_LIST];
    size_t ncolls;
    char *algos[MAX_LIST];
    size_t nalgos;
    int all_algos;
    uint64_t sizes[MAX_LIST];
    size_t nsizes;
    MPI_Datatype type;
    const char *type_name;
    MPI_Op op;
    const char *op_name;
    int root, inplace, repeats, warmup, json, perf;
    /* nccl-tests' options: -b -e with -f or -i give the sizes as nccl-tests' (the whole
     * operation's bytes, mapped per collective as src/report/perf.c says); -c the check count
     * (0: #wrong is N/A; the comparison with MPI still runs), -z blocking (the executor always
     * is; printed) */
    int nccl_sizes, by_factor;
    uint64_t minbytes, maxbytes, step, check, blocking;
    long drop_round, drop_index;
    const char *drop_text; /* as given, for its message */
} opts;

static const char *const mpi_colls[] = {"allgather", "allreduce", "reducescatter", "alltoall",
                                        "broadcast", "scatter",   "gather"};
enum { NCOLLS = sizeof mpi_colls / sizeof mpi_colls[0] };

static int rank, nranks;
/* The library's settings for this process's calls: the memory budget of OPTICOLL_MEMORY_BUDGET_MIB
 * (check_budget reads it first), the rest the defaults. */
static oc_settings settings;

static const char help[] =
    "usage: mpirun -np P opticoll-mpi [--collectives LIST] [--algorithms LIST|all] [--sizes LIST]\n"
    "       [--type float|double|int32|int64] [--op sum|max|min] [--root R] [--inplace]\n"
    "       [--repeats N] [--warmup N] [--json] [--drop-transfer ROUND:INDEX] [--perf]\n"
    "       [-b SIZE -e SIZE [-f F | -i BYTES]] [-n ITERS] [-w WARMUP] [-c CHECK] [-z 0|1]\n"
    "  --perf   nccl-tests' report: size count type redop root, then time algbw busbw #wrong\n"
    "           for opticoll's schedule measured out-of-place and in-place, for MPI's own\n"
    "           collective (measured) and for the network model (the schedule's time on the\n"
    "           switch); nccl-tests' footer per algorithm\n"
    "  nccl-tests' letters: -b -e (sizes of the whole operation, K M G = 1024^k) with -f\n"
    "  (factor, 2) or -i (bytes) in place of --sizes; -n = --repeats, -w = --warmup;\n"
    "  -c 0: #wrong N/A (the check still runs); -z is printed (every call blocks)\n\n"
    "examples:\n"
    "  mpirun -np 4 opticoll-mpi --collectives allreduce --algorithms all --sizes 1KiB,1MiB\n"
    "  mpirun -np 8 opticoll-mpi --perf -b 8 -e 16M --collectives allreduce --algorithms rhd\n";

/* Bad input: one line on stderr (rank 0), exit status 2. */
static int usage(const char *msg, const char *arg) {
    if (rank == 0)
        fprintf(stderr, "opticoll-mpi: %s%s%s (see --help)\n", msg, arg ? ": " : "",
                arg ? OC_Q(arg) : "");
    return 2;
}

/* Splits a comma-separated list in place; 0 for an empty item ("4,,8", "4,": a typo, which
 * strtok_r alone would skip). */
static size_t split(char *text, char **out, size_t max) {
    size_t n = 0;
    for (const char *c = text; *c; c++)
        if (*c == ',' && (c == text || c[1] == ',' || c[1] == 0)) return 0;
    for (char *save = NULL, *t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max) return max + 1;
        out[n++] = t;
    }
    return n;
}

/* An algorithm's parameters are separated by commas too ("rhd:radix=3,fold=1", as `opticoll
 * simgrid` passes the parameters its model's run used), so split() cut them apart: an item
 * KEY=VALUE without a colon after an algorithm that has parameters is one more of them, joined
 * back by restoring the comma strtok_r replaced (the items lie one after another in the text,
 * one comma apart; an algorithm's name has no '='). Returns the number of items left. */
static size_t join_parameters(char **items, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && strchr(items[i], '=') && !strchr(items[i], ':') && strchr(items[k - 1], ':')) {
            items[i][-1] = ',';
            continue;
        }
        items[k++] = items[i];
    }
    return k;
}

/* The line for a word the option reader refused (args.h); exit status 2. */
static int refused(const arg_word *w) {
    char msg[600];
    switch (w->kind) {
    case ARG_AMBIGUOUS:
        snprintf(msg, sizeof msg, "option '%s' is ambiguous: %s", OC_Q(w->spelling), w->value);
        return usage(msg, NULL);
    case ARG_NEEDS_VALUE:
        snprintf(msg, sizeof msg, "%s needs a value", w->spelling);
        return usage(msg, NULL);
    case ARG_NO_VALUE:
        snprintf(msg, sizeof msg, "%s takes no value (got '%s')", w->spelling, OC_Q(w->value));
        return usage(msg, NULL);
    case ARG_OPERAND:
        return usage("unexpected argument", w->value);
    default:
        return usage("unknown option", w->spelling);
    }
}

static int parse(int argc, char **argv, opts *o) {
    enum {
        COLLS,
        ALGOS,
        SIZES,
        TYPE,
        OP,
        ROOT,
        REPEATS,
        WARMUP,
        DROP,
        INPLACE,
        JSON,
        PERF,
        HELP,
        MINB,
        MAXB,
        STEPF,
        STEPB,
        CHECK,
        BLOCK
    };
    static const arg_option options[] = {{NULL, "--collectives", 1, COLLS},
                                         {NULL, "--algorithms", 1, ALGOS},
                                         {NULL, "--sizes", 1, SIZES},
                                         {NULL, "--type", 1, TYPE},
                                         {NULL, "--op", 1, OP},
                                         {NULL, "--root", 1, ROOT},
                                         {NULL, "--repeats", 1, REPEATS},
                                         {NULL, "--warmup", 1, WARMUP},
                                         {NULL, "--drop-transfer", 1, DROP},
                                         {NULL, "--inplace", 0, INPLACE},
                                         {NULL, "--json", 0, JSON},
                                         {NULL, "--perf", 0, PERF},
                                         {"-h", "--help", 0, HELP},
                                         {"-n", "--iters", 1, REPEATS},
                                         {"-w", "--warmup_iters", 1, WARMUP},
                                         {"-b", "--minbytes", 1, MINB},
                                         {"-e", "--maxbytes", 1, MAXB},
                                         {"-f", "--stepfactor", 1, STEPF},
                                         {"-i", "--stepbytes", 1, STEPB},
                                         {"-c", "--check", 1, CHECK},
                                         {"-z", "--blocking", 1, BLOCK}};
    const char *nccl[6] = {0}; /* -b -e -f -i as given */
    int sizes_given = 0;
    *o = (opts){.type = MPI_FLOAT,
                .type_name = "float",
                .op = MPI_SUM,
                .op_name = "sum",
                .repeats = 5,
                .warmup = 1,
                .check = 1,
                .drop_round = -1};
    o->sizes[0] = 1024, o->sizes[1] = 65536, o->nsizes = 2;
    arg_reader p;
    arg_word w;
    arg_init(&p, argc, argv, options, sizeof options / sizeof options[0]);
    while (arg_next(&p, &w) != ARG_END) {
        char *v = (char *)w.value; /* in argv: --drop-transfer splits it in place */
        uint64_t u;
        if (w.kind != ARG_OPTION) return refused(&w);
        if (w.id == INPLACE) {
            o->inplace = 1;
            continue;
        }
        if (w.id == JSON) {
            o->json = 1;
            continue;
        }
        if (w.id == PERF) {
            o->perf = 1;
            continue;
        }
        if (w.id == HELP) {
            if (rank == 0) fputs(help, stdout);
            return 1;
        }
        if (w.id == COLLS) {
            char *items[MAX_LIST + 1];
            o->ncolls = split(v, items, MAX_LIST);
            if (o->ncolls == 0 || o->ncolls > MAX_LIST)
                return usage("bad --collectives (names separated by single commas, at most 64)", v);
            for (size_t k = 0; k < o->ncolls; k++) {
                size_t c = 0;
                while (c < NCOLLS && strcmp(items[k], mpi_colls[c]) != 0)
                    c++;
                if (c == NCOLLS) return usage("unknown collective", items[k]);
                o->colls[k] = mpi_colls[c];
            }
        } else if (w.id == ALGOS) {
            if (strcmp(v, "all") == 0) {
                o->all_algos = 1;
                continue;
            }
            o->nalgos = split(v, o->algos, MAX_LIST);
            if (o->nalgos == 0 || o->nalgos > MAX_LIST)
                return usage("bad --algorithms (names separated by single commas, at most 64)", v);
            o->nalgos = join_parameters(o->algos, o->nalgos);
        } else if (w.id >= MINB && w.id <= STEPB) {
            nccl[w.id - MINB] = v;
        } else if (w.id == CHECK) {
            if (oc_parse_u64(v, 0, 1000000, &u))
                return usage("bad -c (a check count, 0 or more)", v);
            o->check = u;
        } else if (w.id == BLOCK) {
            if (oc_parse_u64(v, 0, 1, &u)) return usage("bad -z (0 or 1)", v);
            o->blocking = u;
        } else if (w.id == SIZES) {
            sizes_given = 1;
            char *items[MAX_LIST + 1];
            o->nsizes = split(v, items, MAX_LIST);
            if (o->nsizes == 0 || o->nsizes > MAX_LIST)
                return usage("bad --sizes (sizes separated by single commas, at most 64)", v);
            for (size_t k = 0; k < o->nsizes; k++)
                if (oc_parse_size(items[k], &o->sizes[k]) || o->sizes[k] > (UINT64_C(1) << 30))
                    return usage("bad size (at most 1GiB)", items[k]);
        } else if (w.id == TYPE) {
            static const struct {
                const char *name;
                MPI_Datatype t;
            } types[] = {{"float", MPI_FLOAT},
                         {"double", MPI_DOUBLE},
                         {"int32", MPI_INT32_T},
                         {"int64", MPI_INT64_T}};
            size_t k = 0;
            while (k < 4 && strcmp(v, types[k].name) != 0)
                k++;
            if (k == 4) return usage("unknown --type", v);
            o->type = types[k].t, o->type_name = types[k].name;
        } else if (w.id == OP) {
            if (strcmp(v, "sum") == 0)
                o->op = MPI_SUM;
            else if (strcmp(v, "max") == 0)
                o->op = MPI_MAX;
            else if (strcmp(v, "min") == 0)
                o->op = MPI_MIN;
            else
                return usage("unknown --op", v);
            o->op_name = v;
        } else if (w.id == ROOT) {
            if (oc_parse_u64(v, 0, (uint64_t)nranks - 1, &u)) return usage("bad --root", v);
            o->root = (int)u;
        } else if (w.id == REPEATS) {
            if (oc_parse_u64(v, 1, 100000, &u)) return usage("bad --repeats", v);
            o->repeats = (int)u;
        } else if (w.id == WARMUP) {
            if (oc_parse_u64(v, 0, 100000, &u)) return usage("bad --warmup", v);
            o->warmup = (int)u;
        } else {
            char *colon = strchr(v, ':');
            uint64_t r2, i2;
            const char *bad = "--drop-transfer wants ROUND:INDEX, whole numbers from 0 to 2^30";
            if (!colon) return usage(bad, v);
            *colon = 0;
            int wrong =
                oc_parse_u64(v, 0, 1u << 30, &r2) || oc_parse_u64(colon + 1, 0, 1u << 30, &i2);
            *colon = ':';
            if (wrong) return usage(bad, v);
            o->drop_text = v;
            o->drop_round = (long)r2, o->drop_index = (long)i2;
        }
    }
    if (nccl[0] || nccl[1] || nccl[2] || nccl[3]) {
        if (sizes_given)
            return usage("--sizes and -b/-e/-f/-i both give the sizes: give one", NULL);
        if (!nccl[0]) return usage("-e, -f and -i need -b (the first size)", NULL);
        if (nccl[2] && nccl[3]) return usage("-f and -i exclude each other", NULL);
        uint64_t *ends[2] = {&o->minbytes, &o->maxbytes};
        for (int k = 0; k < 2; k++) {
            const char *t = nccl[k] ? nccl[k] : nccl[0]; /* "1K", "128M": oc_parse_size */
            if (oc_parse_size(t, ends[k]) || !*ends[k] || *ends[k] > (UINT64_C(1) << 30))
                return usage(k ? "bad -e (a size of at most 1G)" : "bad -b (a size of at most 1G)",
                             t);
        }
        if (o->maxbytes < o->minbytes) return usage("-e is smaller than -b", nccl[1]);
        o->by_factor = !nccl[3];
        o->step = 2;
        if (nccl[2] && oc_parse_u64(nccl[2], 2, 1024, &o->step))
            return usage("bad -f (a factor from 2 to 1024)", nccl[2]);
        if (nccl[3] && (oc_parse_u64(nccl[3], 1, UINT64_C(1) << 30, &o->step)))
            return usage("bad -i (a step of 1 to 2^30 bytes)", nccl[3]);
        o->nsizes = 0;
        for (uint64_t sz = o->minbytes; sz <= o->maxbytes;
             sz = o->by_factor ? sz * o->step : sz + o->step) {
            if (o->nsizes == MAX_LIST) return usage("more than 64 sizes from -b to -e", NULL);
            o->sizes[o->nsizes++] = sz;
        }
        o->nccl_sizes = 1;
    }
    if (!o->ncolls)
        for (size_t c = 0; c < NCOLLS; c++)
            o->colls[o->ncolls++] = mpi_colls[c];
    return 0;
}

/* ---- one case: buffers, the two runs, the comparison ---- */

typedef struct bufs {
    char *send, *recv, *ref;
    size_t send_bytes, recv_bytes, alloc_bytes; /* recv has alloc_bytes: room for in-place */
} bufs;

/* The buffers of a case of `coll` with c bytes per block on N ranks (no allocation). */
static void buffer_sizes(const char *coll, size_t c, size_t N, bufs *b) {
    if (strcmp(coll, "allgather") == 0 || strcmp(coll, "gather") == 0)
        b->send_bytes = c, b->recv_bytes = c * N;
    else if (strcmp(coll, "allreduce") == 0 || strcmp(coll, "broadcast") == 0)
        b->send_bytes = c, b->recv_bytes = c;
    else if (strcmp(coll, "reducescatter") == 0)
        b->send_bytes = c * N, b->recv_bytes = c;
    else if (strcmp(coll, "alltoall") == 0)
        b->send_bytes = c * N, b->recv_bytes = c * N;
    else /* scatter */
        b->send_bytes = c * N, b->recv_bytes = c;
    b->alloc_bytes = b->send_bytes > b->recv_bytes ? b->send_bytes : b->recv_bytes;
}

static void fill_values(char *p, size_t n, MPI_Datatype t, int seed) {
    for (size_t i = 0; i < n; i++) {
        int v = (int)((unsigned)(seed * 7 + (int)i * 3) % 17u) - 8;
        if (t == MPI_FLOAT)
            ((float *)(void *)p)[i] = (float)v;
        else if (t == MPI_DOUBLE)
            ((double *)(void *)p)[i] = v;
        else if (t == MPI_INT32_T)
            ((int32_t *)(void *)p)[i] = v;
        else
            ((int64_t *)(void *)p)[i] = v;
    }
}

static void describe(char *out, size_t len, const char *p, size_t i, MPI_Datatype t) {
    if (t == MPI_FLOAT)
        snprintf(out, len, "%g", (double)((const float *)(const void *)p)[i]);
    else if (t == MPI_DOUBLE)
        snprintf(out, len, "%g", ((const double *)(const void *)p)[i]);
    else if (t == MPI_INT32_T)
        snprintf(out, len, "%ld", (long)((const int32_t *)(const void *)p)[i]);
    else
        snprintf(out, len, "%lld", (long long)((const int64_t *)(const void *)p)[i]);
}

typedef struct kase {
    const char *coll;
    const char *algo;
    int count; /* elements per block, or of the vector (reduce-scatter: per rank) */
} kase;

/* Sets the inputs (the send buffer, or recv for in-place) and poisons the outputs. */
static void setup(const opts *o, const kase *k, bufs *b, int tsize, int ours) {
    const size_t c = (size_t)k->count;
    memset(b->recv, 0xa5, b->alloc_bytes);
    int reduces = strcmp(k->coll, "allreduce") == 0 || strcmp(k->coll, "reducescatter") == 0;
    size_t nin = b->send_bytes / (size_t)tsize;
    if (reduces) {
        fill_values(b->send, nin, o->type, rank);
    } else {
        for (size_t i = 0; i < b->send_bytes; i++)
            b->send[i] = (char)((unsigned)(rank * 131 + (int)i * 7 + 1) & 0xffu);
    }
    if (strcmp(k->coll, "broadcast") == 0 && rank == o->root) /* the root's buffer is the input */
        memcpy(b->recv, b->send, c * (size_t)tsize);
    if (!(ours && o->inplace)) return;
    /* In-place: the input lives where MPI says it does. */
    if (strcmp(k->coll, "allgather") == 0 || (strcmp(k->coll, "gather") == 0 && rank == o->root))
        memcpy(b->recv + (size_t)rank * c * (size_t)tsize, b->send, c * (size_t)tsize);
    else if (strcmp(k->coll, "allreduce") == 0 || strcmp(k->coll, "reducescatter") == 0 ||
             strcmp(k->coll, "alltoall") == 0)
        memcpy(b->recv, b->send, b->send_bytes);
}

static int run_one(const opts *o, const kase *k, bufs *b, int ours) {
    const int c = k->count, root = o->root, ip = ours && o->inplace;
    const MPI_Datatype t = o->type;
    const char *a = k->algo;
    const char *coll = k->coll;
    const int at_root = rank == root;
    if (strcmp(coll, "allgather") == 0)
        return ours ? oc_mpi_allgather(ip ? MPI_IN_PLACE : b->send, c, t, b->recv, c, t,
                                       MPI_COMM_WORLD, a)
                    : MPI_Allgather(b->send, c, t, b->recv, c, t, MPI_COMM_WORLD);
    if (strcmp(coll, "allreduce") == 0)
        return ours ? oc_mpi_allreduce(ip ? MPI_IN_PLACE : b->send, b->recv, c, t, o->op,
                                       MPI_COMM_WORLD, a)
                    : MPI_Allreduce(b->send, b->recv, c, t, o->op, MPI_COMM_WORLD);
    if (strcmp(coll, "reducescatter") == 0)
        return ours ? oc_mpi_reduce_scatter_block(ip ? MPI_IN_PLACE : b->send, b->recv, c, t, o->op,
                                                  MPI_COMM_WORLD, a)
                    : MPI_Reduce_scatter_block(b->send, b->recv, c, t, o->op, MPI_COMM_WORLD);
    if (strcmp(coll, "alltoall") == 0)
        return ours ? oc_mpi_alltoall(ip ? MPI_IN_PLACE : b->send, c, t, b->recv, c, t,
                                      MPI_COMM_WORLD, a)
                    : MPI_Alltoall(b->send, c, t, b->recv, c, t, MPI_COMM_WORLD);
    if (strcmp(coll, "broadcast") == 0)
        return ours ? oc_mpi_bcast(b->recv, c, t, root, MPI_COMM_WORLD, a)
                    : MPI_Bcast(b->recv, c, t, root, MPI_COMM_WORLD);
    if (strcmp(coll, "scatter") == 0)
        return ours ? oc_mpi_scatter(b->send, c, t, ip && at_root ? MPI_IN_PLACE : b->recv, c, t,
                                     root, MPI_COMM_WORLD, a)
                    : MPI_Scatter(b->send, c, t, b->recv, c, t, root, MPI_COMM_WORLD);
    return ours ? oc_mpi_gather(ip && at_root ? MPI_IN_PLACE : b->send, c, t, b->recv, c, t, root,
                                MPI_COMM_WORLD, a)
                : MPI_Gather(b->send, c, t, b->recv, c, t, root, MPI_COMM_WORLD);
}

/* The bytes of recv that carry the result on this rank (0 where MPI leaves it undefined). */
static size_t result_bytes(const opts *o, const kase *k, const bufs *b, int tsize) {
    if (strcmp(k->coll, "gather") == 0 && rank != o->root) return 0;
    if (strcmp(k->coll, "scatter") == 0 && rank == o->root && o->inplace) return 0;
    (void)tsize;
    return b->recv_bytes;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The slowest rank's time of one run. */
static double run_timed(const opts *o, const kase *k, bufs *b, int tsize, int ours, int *err) {
    setup(o, k, b, tsize, ours);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int rc = run_one(o, k, b, ours);
    double dt = MPI_Wtime() - t0, slowest = 0;
    if (rc) *err = rc;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

/* Medians over repeats of the slowest rank's time, for MPI and for ours. The two alternate run by
 * run, so that both see the same background load (the machine is shared and oversubscribed). */
static void timed(const opts *o, const kase *k, bufs *b, int tsize, double *ours_s, double *mpi_s,
                  int *err) {
    double *t = calloc(2 * (size_t)o->repeats, sizeof(double));
    if (!t) {
        *err = MPI_ERR_NO_MEM;
        return;
    }
    for (int r = -o->warmup; r < o->repeats && !*err; r++) {
        double tm = run_timed(o, k, b, tsize, 0, err);
        double to = run_timed(o, k, b, tsize, 1, err);
        if (r >= 0) t[r] = tm, t[o->repeats + r] = to;
    }
    *mpi_s = median(t, o->repeats);
    *ours_s = median(t + o->repeats, o->repeats);
    free(t);
}

/* One error line for the whole run of a case, not one per rank: every rank calls this (it is
 * collective); the lowest rank where `mine` holds prints the line with its rank and how many other
 * ranks saw the same kind of error. A line whose text (rank aside) is the one said last is not
 * repeated: the same failure at every size is one line. */
static void say_once(int mine, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say_once(int mine, const char *fmt, ...) {
    static char said[600];
    int me = mine ? rank : nranks, first = nranks, count = 0, one = mine != 0;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank != first) return;
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!strcmp(text, said)) return;
    snprintf(said, sizeof said, "%s", text);
    if (count > 1)
        fprintf(stderr, "opticoll-mpi: %s (rank %d and %d other rank%s)\n", text, rank, count - 1,
                count > 2 ? "s" : "");
    else
        fprintf(stderr, "opticoll-mpi: %s (rank %d)\n", text, rank);
}

/* Runs, checks and times one case; returns 0 ok, 1 mismatch, 2 failed (an error other than a
 * refusal), 3 skipped (the algorithm refused these ranks or this size, on every rank). */
static int one_case(const opts *o, const kase *k, int tsize, double *ours_s, double *mpi_s,
                    int64_t *wrong) {
    const size_t c = (size_t)k->count * (size_t)tsize, N = (size_t)nranks;
    bufs b = {0};
    const char *coll = k->coll;
    buffer_sizes(coll, c, N, &b);
    b.send = malloc(b.send_bytes + 1);
    b.recv = malloc(b.alloc_bytes + 1);
    b.ref = malloc(b.recv_bytes + 1);
    int status = 0;
    *wrong = -1; /* not compared */
    if (!b.send || !b.recv || !b.ref) {
        fprintf(stderr, "opticoll-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* 1. MPI's result. */
    setup(o, k, &b, tsize, 0);
    if (run_one(o, k, &b, 0)) {
        fprintf(stderr, "opticoll-mpi: MPI's own %s failed\n", coll);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memcpy(b.ref, b.recv, b.recv_bytes);
    /* 2. Ours, checked. Refusals happen before any message moves, on every rank alike. */
    setup(o, k, &b, tsize, 1);
    int rc = run_one(o, k, &b, 1);
    /* 0 ok, 1 refused (the algorithm does not support this size: every rank alike, before any
     * message moves), 2 any other error. Only a refusal on every rank is a skip. */
    int bad = rc == MPI_SUCCESS                     ? 0
              : rc == MPI_ERR_UNSUPPORTED_OPERATION ? 1
                                                    : 2,
        any_bad = 0, all_refused = 0, refused = bad == 1;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&refused, &all_refused, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (any_bad && all_refused) {
        status = 3;
        goto out;
    }
    if (any_bad) {
        int n = 0;
        char msg[MPI_MAX_ERROR_STRING] = "";
        if (bad) MPI_Error_string(rc, msg, &n);
        say_once(bad, "FAILED %s %s, %d elements: error %d (%s; %s)", coll, k->algo, k->count, rc,
                 msg, oc_mpi_last_error());
        status = 2;
        goto out;
    }
    size_t nb = result_bytes(o, k, &b, tsize);
    size_t at = 0;
    while (at < nb && b.recv[at] == b.ref[at])
        at++;
    bad = at < nb;
    /* nccl-tests' #wrong: the elements that differ, summed over the ranks */
    long long mine = 0, total = 0;
    for (size_t e = at / (size_t)tsize; bad && e < nb / (size_t)tsize; e++)
        mine += memcmp(b.recv + e * (size_t)tsize, b.ref + e * (size_t)tsize, (size_t)tsize) != 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    *wrong = total;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad) {
        size_t el = at / (size_t)tsize;
        char got[64] = "", want[64] = "";
        if (bad) {
            describe(got, sizeof got, b.recv, el, o->type);
            describe(want, sizeof want, b.ref, el, o->type);
        }
        say_once(bad, "MISMATCH %s %s, %d elements, element %zu: got %s, MPI gives %s", coll,
                 k->algo, k->count, el, got, want);
        status = 1;
        goto out;
    }
    /* 3. Times. */
    int err = 0;
    timed(o, k, &b, tsize, ours_s, mpi_s, &err);
    if (err) status = 1;
out:
    free(b.send);
    free(b.recv);
    free(b.ref);
    return status;
}

/* 1 if the collective has the algorithm named by text ("name" or "name:k=v,..."; "auto"). */
static int has_algorithm(const char *coll, const char *text) {
    size_t len = strcspn(text, ":");
    oc_collective c;
    if (oc_collective_from_name(coll, &c)) return 0;
    if (len == 4 && strncmp(text, "auto", 4) == 0) return oc_mpi_default_algorithm(coll) != NULL;
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        if (a->collective == c && strlen(a->name) == len && strncmp(a->name, text, len) == 0)
            return 1;
    }
    return 0;
}

/* 1 when "switch" is a whole item of the comma-separated list of networks. */
static int on_switch(const char *networks) {
    const char *p = strstr(networks, "switch");
    return p && (p == networks || p[-1] == ',') && (p[6] == 0 || p[6] == ',');
}

/* The algorithms to run for a collective: of an explicit list, those the collective has. */
static size_t algorithms_for(const opts *o, const char *coll, const char **out) {
    size_t n = 0;
    if (o->nalgos) {
        for (size_t i = 0; i < o->nalgos; i++)
            if (has_algorithm(coll, o->algos[i])) out[n++] = o->algos[i];
        return n;
    }
    oc_collective c;
    if (oc_collective_from_name(coll, &c)) return 0;
    for (int pass = 0; pass < 2 && n == 0; pass++)
        for (size_t i = 0; i < oc_algorithm_count() && n < MAX_LIST; i++) {
            const oc_algorithm_info *a = oc_algorithm_at(i);
            if (a->collective != c) continue;
            if (pass == 0 && !o->all_algos && !on_switch(a->networks)) continue;
            out[n++] = a->name;
        }
    return n;
}

/* Plans the schedule of `text` ("name:k=v,...") for the collective at this communicator size
 * through the library, as the executor would (on the switch, else the algorithm's first network;
 * direct networks in wormhole mode), and returns the library's error (why set). */
static int plan_parameters(const opts *o, const char *coll, const char *text, uint64_t bytes,
                           double *time_s, char *why, size_t len) {
    const char *colon = strchr(text, ':');
    char name[64];
    snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - text) : (int)strlen(text), text);
    if (!strcmp(name, "auto")) snprintf(name, sizeof name, "%s", oc_mpi_default_algorithm(coll));
    oc_collective c;
    const oc_algorithm_info *info = NULL;
    if (oc_collective_from_name(coll, &c)) return OC_ENOENT;
    for (size_t i = 0; i < oc_algorithm_count() && !info; i++)
        if (oc_algorithm_at(i)->collective == c && !strcmp(oc_algorithm_at(i)->name, name))
            info = oc_algorithm_at(i);
    if (!info) return OC_ENOENT; /* has_algorithm found it: not reached */
    char net[32] = "switch";
    if (!on_switch(info->networks))
        snprintf(net, sizeof net, "%.*s", (int)strcspn(info->networks, ","), info->networks);
    oc_kv *params = oc_kv_new(), *np = oc_kv_new();
    char *copy = strdup(colon ? colon + 1 : ""), *save = NULL;
    int err = !params || !np || !copy ? OC_ENOMEM : 0;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !err;
         t = strtok_r(NULL, ",", &save))
        if ((err = oc_kv_set_pair(params, t))) snprintf(why, len, "%s is not KEY=VALUE", OC_Q(t));
    int direct = !strcmp(net, "hypercube") || !strcmp(net, "mesh") || !strcmp(net, "torus");
    if (!err && direct &&
        (oc_kv_set(np, "switching", "wh") ||
         (oc_kv_get(params, "dims") && oc_kv_set(np, "dims", oc_kv_get(params, "dims")))))
        err = OC_ENOMEM;
    if (!err) {
        oc_request req = {.collective = c,
                          .algorithm = name,
                          .network = net,
                          .nodes = (uint32_t)nranks,
                          .bytes = bytes,
                          .root = (uint32_t)o->root,
                          .params = params,
                          .net_params = np,
                          .skip_data_check = 1,
                          .settings = &settings};
        oc_report *rep = NULL;
        err = oc_run(&req, &rep, why, len);
        if (!err && time_s) *time_s = oc_report_time(rep);
        oc_report_free(rep);
    }
    if (err == OC_ENOMEM) snprintf(why, len, "out of memory");
    free(copy);
    oc_kv_free(params);
    oc_kv_free(np);
    return err;
}

/* An algorithm's parameters ("rhd:radix=4") are checked before anything runs: a parameter that
 * is unknown, malformed or outside its range is bad input, one line from rank 0 naming the valid
 * range (every rank comes to the same answer) and exit status 2 — not a skip, and not one FAILED
 * line per rank. A plan that refuses the communicator size or root (OC_ENOTSUP) is not bad
 * input: the case is reported as skipped where it runs. */
static int check_parameters(const opts *o) {
    for (size_t ai = 0; ai < o->nalgos; ai++) {
        if (!strchr(o->algos[ai], ':')) continue;
        for (size_t ci = 0; ci < o->ncolls; ci++) {
            if (!has_algorithm(o->colls[ci], o->algos[ai])) continue;
            char why[512] = "", msg[700];
            int err = plan_parameters(o, o->colls[ci], o->algos[ai], 1024, NULL, why, sizeof why);
            if (err == OC_ENOTSUP || err == OC_ETOOBIG || !err) continue;
            snprintf(msg, sizeof msg, "--algorithms %s (%s): %s", OC_Q(o->algos[ai]), o->colls[ci],
                     *why ? why : oc_strerror(err));
            return err == OC_ENOMEM ? (usage(msg, NULL), 3) : usage(msg, NULL);
        }
    }
    return 0;
}

/* The memory budget (OPTICOLL_MEMORY_BUDGET_MIB, as for opticoll) and every case's buffers
 * against it, before anything runs: each rank holds a send, a receive and a reference buffer (a
 * 1 GiB all-to-all on 4 ranks is 12 GiB per rank) and would otherwise run out of memory and
 * abort half-way. Every rank computes the same answer; rank 0 says it, in one line. 0 or 2. */
static int check_budget(const opts *o, int tsize) {
    char why[256];
    if (oc_memory_budget_from_env(getenv("OPTICOLL_MEMORY_BUDGET_MIB"),
                                  getenv("OPTICOLL_VERIFY_BUDGET_MIB"), &settings.memory_budget,
                                  why, sizeof why)) {
        if (rank == 0) fprintf(stderr, "opticoll-mpi: %s\n", why);
        return 2;
    }
    oc_mpi_settings(&settings); /* the executor's planning and buffers, as opticoll's runs */
    for (size_t ci = 0; ci < o->ncolls; ci++)
        for (size_t si = 0; si < o->nsizes; si++) {
            uint64_t count = o->sizes[si] / (uint64_t)tsize;
            if (strcmp(o->colls[ci], "reducescatter") == 0) count /= (uint64_t)nranks;
            if (count > INT32_MAX / (uint64_t)nranks) continue; /* not run (main) */
            bufs b = {0};
            buffer_sizes(o->colls[ci], (size_t)count * (size_t)tsize, (size_t)nranks, &b);
            char what[128], size[32];
            oc_format_bytes(size, sizeof size, o->sizes[si]);
            snprintf(what, sizeof what, "%s of %s on %d ranks (each rank's buffers)", o->colls[ci],
                     size, nranks);
            if (oc_budget_check(&settings, (uint64_t)b.send_bytes + b.alloc_bytes + b.recv_bytes,
                                what, why, sizeof why)) {
                if (rank == 0) fprintf(stderr, "opticoll-mpi: %s\n", why);
                return 2;
            }
        }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    /* Before anything else: ranks started with other arguments (mpirun's MPMD form) would run
     * other cases and sizes and meet in mismatched collectives (mpi_agree.h). */
    int rc = mpi_agree(MPI_COMM_WORLD, "opticoll-mpi", argc, argv, mpi_agree_env);
    if (rc) {
        MPI_Finalize();
        return rc < 0 ? 3 : 2;
    }
    opts o;
    rc = parse(argc, argv, &o);
    if (rc) {
        MPI_Finalize();
        return rc == 1 ? 0 : rc;
    }
    int tsize = 0;
    MPI_Type_size(o.type, &tsize);
    for (size_t i = 0; i < o.nsizes && !o.nccl_sizes; i++)
        if (o.sizes[i] % (uint64_t)tsize) {
            char s[32];
            snprintf(s, sizeof s, "%llu", (unsigned long long)o.sizes[i]);
            rc = usage("a size must be a multiple of the datatype's size", s);
            MPI_Finalize();
            return rc;
        }
    for (size_t ai = 0; ai < o.nalgos; ai++) { /* a name no chosen collective has: usage */
        size_t ci = 0;
        while (ci < o.ncolls && !has_algorithm(o.colls[ci], o.algos[ai]))
            ci++;
        if (ci == o.ncolls) {
            rc = usage("unknown --algorithms name (no chosen collective has it)", o.algos[ai]);
            MPI_Finalize();
            return rc;
        }
    }
    if ((rc = check_parameters(&o)) || (rc = check_budget(&o, tsize))) {
        MPI_Finalize();
        return rc;
    }
    if (o.drop_round >= 0) oc_mpi_inject_drop_transfer(o.drop_round, o.drop_index);
    int checked = 0, skipped = 0, mismatches = 0, failed = 0, json_lost = 0, json_cases = 0;
    /* --perf: nccl-tests' halves (our schedule, measured), then MPI's own collective (measured,
     * out-of-place) and the network model's time of the schedule */
    static const char *const groups[] = {"out-of-place", "in-place", "MPI", "model"},
                             *const json_groups[] = {"out_of_place", "in_place", "mpi", "model"};
    /* the algorithm column fits the longest name given ("rhd:radix=4"), so rows stay aligned */
    int wa = (int)strlen("algorithm");
    for (size_t ci = 0; ci < o.ncolls; ci++) {
        const char *algos[MAX_LIST];
        size_t na = algorithms_for(&o, o.colls[ci], algos);
        for (size_t ai = 0; ai < na; ai++)
            if ((int)strlen(algos[ai]) > wa) wa = (int)strlen(algos[ai]);
    }
    /* why cases were skipped: the library's refusals, each once, as numbered notes */
    char notes[16][512];
    size_t nnotes = 0;
    const oc_table_col cols[] = {{13, 1, 0}, {wa, 1, 1}, {5, 0, 1}, {10, 0, 1},
                                 {12, 0, 1}, {12, 0, 1}, {6, 0, 1}, {0, 1, 2}};
    const oc_table_layout tab = {stdout, "", cols, sizeof cols / sizeof cols[0]};
    if (rank == 0 && !o.json && !o.perf)
        oc_table_write_row(&tab, (const char *const[]){"collective", "algorithm", "ranks", "bytes",
                                                       "opticoll", "MPI", "ratio", "check"});
    if (rank == 0 && o.json) printf("[");
    for (size_t ci = 0; ci < o.ncolls; ci++) {
        const char *algos[MAX_LIST];
        size_t na = algorithms_for(&o, o.colls[ci], algos);
        oc_collective cc = OC_ALLREDUCE;
        oc_collective_from_name(o.colls[ci], &cc); /* one of mpi_colls: known */
        double factor = oc_perf_busbw_factor(cc, (uint32_t)nranks);
        for (size_t ai = 0; ai < na; ai++) {
            int64_t out_of_bounds = 0;
            double bw_sum = 0;
            size_t bw_n = 0;
            if (rank == 0 && o.perf && !o.json) {
                printf("#\n# %s / %s on %d ranks, measured (median of %d after %d warm-up) beside "
                       "the network model's time; busbw = algbw x %.6g\n",
                       o.colls[ci], algos[ai], nranks, o.repeats, o.warmup, factor);
                printf("# nThread 1 nGpus %d minBytes %llu maxBytes %llu step: %llu(%s) warmup "
                       "iters: %d iters: %d agg iters: 1 validation: %llu graph: 0\n",
                       nranks, (unsigned long long)(o.nccl_sizes ? o.minbytes : o.sizes[0]),
                       (unsigned long long)(o.nccl_sizes ? o.maxbytes : o.sizes[o.nsizes - 1]),
                       (unsigned long long)(o.nccl_sizes ? o.step : 0),
                       o.nccl_sizes && !o.by_factor ? "bytes" : "factor", o.warmup, o.repeats,
                       (unsigned long long)o.check);
                if (o.blocking)
                    printf("# Blocking Enabled: wait for completion and barrier after each "
                           "collective \n");
                oc_perf_nccl_header(stdout, groups, 4);
            }
            for (size_t si = 0; si < o.nsizes; si++) {
                /* nccl-tests' size (-b/-e) -> this collective's SIZE, in whole elements */
                uint64_t sz = o.nccl_sizes ? oc_perf_bytes(cc, (uint32_t)nranks, o.sizes[si],
                                                            (uint32_t)tsize)
                                           : o.sizes[si];
                if (!sz) continue;
                uint64_t count = sz / (uint64_t)tsize;
                if (strcmp(o.colls[ci], "reducescatter") == 0) count /= (uint64_t)nranks;
                if (count > INT32_MAX / (uint64_t)nranks) continue;
                kase k = {o.colls[ci], algos[ai], (int)count};
                double ours = 0, theirs = 0, ours_ip = 0, theirs_ip = 0, model_s = 0;
                int64_t wrong = -1, wrong_ip = -1;
                opts flip = o;
                if (o.perf) flip.inplace = 0;
                int st = one_case(&flip, &k, tsize, &ours, &theirs, &wrong), st_ip = 3;
                if (o.perf) { /* nccl-tests' in-place half: the same case in place */
                    flip.inplace = 1;
                    st_ip = one_case(&flip, &k, tsize, &ours_ip, &theirs_ip, &wrong_ip);
                    checked += st_ip == 0, mismatches += st_ip == 1, failed += st_ip == 2;
                    char why[512];
                    uint64_t mbytes =
                        count * (uint64_t)tsize *
                        (strcmp(o.colls[ci], "reducescatter") == 0 ? (uint64_t)nranks : 1);
                    if (rank == 0 && st == 0 &&
                        plan_parameters(&o, o.colls[ci], algos[ai], mbytes, &model_s, why,
                                        sizeof why))
                        model_s = 0; /* the model refuses it: "-" in its columns */
                }
                const char *verdict = st == 0   ? "ok"
                                      : st == 3 ? "skipped"
                                      : st == 2 ? "FAILED"
                                                : "MISMATCH";
                checked += st == 0, skipped += st == 3, mismatches += st == 1, failed += st == 2;
                if (rank != 0) continue;
                uint64_t bytes = count * (uint64_t)tsize;
                if (strcmp(o.colls[ci], "reducescatter") == 0) bytes *= (uint64_t)nranks;
                oc_perf_row prow =
                    oc_perf_row_of(cc, (uint32_t)nranks, bytes, (uint32_t)tsize, (uint32_t)o.root);
                prow.type = o.type_name;
                if (oc_collective_reduces(cc)) prow.redop = o.op_name;
                prow.time_s[0] = st == 0 ? ours : 0;
                prow.time_s[1] = st == 0 ? theirs : 0;
                int64_t wrongs[4] = {o.check ? wrong : -1, -1, -1, -1};
                if (o.perf) {
                    prow.time_s[1] = st_ip == 0 ? ours_ip : 0;
                    prow.time_s[2] = st == 0 ? theirs : 0;
                    prow.time_s[3] = model_s;
                    wrongs[1] = o.check ? wrong_ip : -1;
                    wrongs[3] = model_s > 0 ? 0 : -1; /* a verified schedule */
                    out_of_bounds += (wrong > 0 ? wrong : 0) + (wrong_ip > 0 ? wrong_ip : 0);
                    for (size_t g = 0; g < 2; g++)
                        if (prow.time_s[g] > 0) bw_sum += oc_perf_busbw(&prow, g, factor), bw_n++;
                }
                if (o.json) {
                    /* The array is streamed, a case a line as it finishes; each case is a
                     * cJSON object. Out of memory ends the run like a lost stdout. */
                    fputs(json_cases++ ? ",\n " : "\n ", stdout);
                    cJSON *x = cJSON_CreateObject();
                    int ok =
                        oc_json_str(x, "collective", o.colls[ci]) &&
                        oc_json_str(x, "algorithm", algos[ai]) &&
                        oc_json_u64(x, "ranks", (uint64_t)nranks) &&
                        oc_json_u64(x, "bytes", bytes) && oc_json_str(x, "type", o.type_name) &&
                        oc_json_str(x, "op", o.op_name) &&
                        oc_json_bool(x, "inplace", o.inplace) && oc_json_str(x, "check", verdict);
                    if (ok && st == 3) ok = oc_json_str(x, "reason", oc_mpi_last_error());
                    if (ok && st == 0)
                        ok = oc_json_num(x, "opticoll_s", ours) &&
                             oc_json_num(x, "mpi_s", theirs) &&
                             oc_json_num(x, "ratio", theirs > 0 ? ours / theirs : 0.0);
                    if (ok && o.perf) {
                        cJSON *pr = oc_perf_row_json(&prow, json_groups, 4, factor);
                        for (size_t g = 0; pr && g < 4 && ok; g++) {
                            cJSON *h = cJSON_GetObjectItemCaseSensitive(pr, json_groups[g]);
                            ok =
                                h && (wrongs[g] >= 0 ? oc_json_u64(h, "wrong", (uint64_t)wrongs[g])
                                                     : oc_json_null(h, "wrong"));
                        }
                        ok = oc_json_add(x, "perf", pr) && ok;
                    }
                    if (!ok) {
                        cJSON_Delete(x);
                        x = NULL; /* oc_json_write: out of memory */
                    }
                    if (oc_json_write(stdout, x, OC_JSON_SPACED, NULL) == OC_ENOMEM)
                        json_lost = 1;
                } else if (o.perf) {
                    oc_perf_nccl_row(stdout, &prow, wrongs, 4, factor);
                    if (st != 0) printf("#   %s\n", verdict);
                } else if (st == 0) {
                    char a[32], b2[32], nr[16], nb[32], ratio[32];
                    oc_format_seconds(a, sizeof a, ours);
                    oc_format_seconds(b2, sizeof b2, theirs);
                    snprintf(nr, sizeof nr, "%d", nranks);
                    snprintf(nb, sizeof nb, "%llu", (unsigned long long)bytes);
                    snprintf(ratio, sizeof ratio, "%.2f", theirs > 0 ? ours / theirs : 0.0);
                    oc_table_write_row(&tab, (const char *const[]){o.colls[ci], algos[ai], nr, nb,
                                                                   a, b2, ratio, "ok"});
                } else {
                    char v[32];
                    snprintf(v, sizeof v, "%s", verdict);
                    if (st == 3) { /* "skipped [k]": note k says why, under the table */
                        const char *why = oc_mpi_last_error();
                        size_t kn = 0;
                        while (kn < nnotes && strcmp(notes[kn], why))
                            kn++;
                        if (kn == nnotes && nnotes < 16)
                            snprintf(notes[nnotes++], sizeof notes[0], "%s", why);
                        if (kn < nnotes) snprintf(v, sizeof v, "skipped [%zu]", kn + 1);
                    }
                    char nr[16], nb[32];
                    snprintf(nr, sizeof nr, "%d", nranks);
                    snprintf(nb, sizeof nb, "%llu", (unsigned long long)bytes);
                    oc_table_write_row(&tab, (const char *const[]){o.colls[ci], algos[ai], nr, nb,
                                                                   "-", "-", "-", v});
                }
                fflush(stdout);
            }
            if (rank == 0 && o.perf && !o.json)
                oc_perf_nccl_footer(stdout, out_of_bounds, bw_n ? bw_sum / (double)bw_n : 0);
        }
    }
    size_t hits = 0, max_rounds = 0, max_xfers = 0;
    if (o.drop_round >= 0) oc_mpi_inject_drop_stats(&hits, &max_rounds, &max_xfers);
    if (o.drop_round >= 0 && !hits) {
        /* the drop changed nothing: the run proves nothing about the checker */
        char msg[256];
        snprintf(msg, sizeof msg,
                 "--drop-transfer %s: no schedule run has that transfer (they have rounds 0 to "
                 "%zu, and at most %zu transfers in a round, 0 to %zu)",
                 o.drop_text, max_rounds ? max_rounds - 1 : 0, max_xfers,
                 max_xfers ? max_xfers - 1 : 0);
        rc = usage(msg, NULL);
        MPI_Finalize();
        return rc;
    }
    if (rank == 0) {
        if (o.json)
            printf("\n]\n");
        else {
            for (size_t kn = 0; kn < nnotes; kn++)
                printf("[%zu] %s\n", kn + 1, notes[kn]);
            printf("%d checked, %d skipped%s, %d mismatches, %d failed%s\n", checked, skipped,
                   skipped ? " (refused by the algorithm: the notes say why)" : "", mismatches,
                   failed, o.inplace ? " (in-place where MPI allows it)" : "");
        }
    }
    /* A table that could not be written is not a result (opticoll's close_stdout does the same). */
    int lost = json_lost || fflush(stdout) != 0 || ferror(stdout);
    if (lost)
        fprintf(stderr, "opticoll-mpi: rank %d: cannot write the results to standard output%s\n",
                rank, json_lost ? " (out of memory)" : "");
    /* Nothing checked is no result either: a run whose every case was skipped (the algorithm
     * refuses this communicator size, root or message size) or left out (a count past what one
     * MPI call takes) proves nothing, and a script must not read exit 0 as "checked". The same
     * on every rank: the cases are the same everywhere (mpi_agree). */
    int nothing = !checked && !mismatches && !failed;
    if (nothing && !lost && rank == 0)
        fprintf(stderr,
                "opticoll-mpi: nothing was checked: %s (choose other --algorithms, --sizes or "
                "ranks)\n",
                skipped
                    ? (o.json ? "every case was skipped by its algorithm (its \"reason\" says why)"
                              : "every case was skipped by its algorithm (the notes say why)")
                    : "every size is too large for one MPI call on this many ranks");
    MPI_Finalize();
    return lost ? 3 : mismatches || failed ? 1 : nothing ? 2 : 0;
}
