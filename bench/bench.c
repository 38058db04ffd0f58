#define _DEFAULT_SOURCE
/*
 * bench.c — `make bench`: wall time and peak memory of generate + verify + map (with the resource
 * check) for the cases the README names. Each case runs in its own child process so that its peak
 * resident memory (ru_maxrss) is its own. A benchmark, not a test: it prints figures and checks
 * only that every run verified.
 *
 * The readers are timed after: a schedule with 10^6 keys in "params" and in
 * "network_params", a gather of 10^6 ranges in descending order, a models file of 10^6 lines and an
 * MSCCL file of 10^5 threadblocks per GPU (libxml2's tree of 10^6 would be ~15 GB, past the memory
 * budget, which refuses it up front), each written by bench/readers.c and read back through the
 * library in a child of its own.
 *
 * The compare cases time `opticoll compare` as a user runs it (oc_compare: every algorithm of the
 * collective, searched, verified, mapped, with the real-data run where it fits, two at a time on
 * the thread pool), the point of docs/search-speed.md: the ring at N = 4096, 4 MiB, w = 64.
 *
 * Each case's figures are printed beside the ones docs/performance.md quotes for it (the table
 * row marked <!--b:CASE-->: wall, CPU, peak RSS), so that a regression or a stale page shows at
 * once; the machine (CPU model, cores, memory) and its load (/proc/loadavg) head the output.
 * With --markdown each case also prints a line "|b:CASE| wall | CPU | RSS |", which
 * scripts/bench_table.py writes into the page's marked rows (issue 31 item 5).
 *
 *   ./build/oc_bench            all cases
 *   ./build/oc_bench CASE...    selected cases by name ("readers" for all the readers)
 *   ./build/oc_bench --markdown [CASE...]   the same, and the page's rows
 *   ./build/oc_bench --help     the cases, and nothing run
 *
 * Unlike the tools, which see only include/, oc_bench is built with src/ on its include path: its
 * throughput figure (chunk-transfers a second) reads a count the public API does not give, the
 * report's units (core/result.h), and a benchmark of the internals may look at them.
 */
#include "core/result.h"
#include "opticoll.h"
#include "readers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A case: its name, algorithm, N, one algorithm "key=value" (or NULL); then, where they are not
 * the all-gather of 4 MiB blocks on the ring, the collective, the network, one network
 * "key=value" and the size. A compare case (compare = 1, algo NULL) runs every algorithm. */
typedef struct bench_case {
    const char *name, *algo;
    uint32_t nodes;
    const char *params;
    const char *coll, *network, *net_param;
    uint64_t bytes;
    int compare;
    int export_json; /* time `export --format json` (verify, map, then the file) to /dev/null */
    int data; /* 1: with the real-data run (the CLI's default), to time it beside the case without */
} bench_case;

/* Every field by name: a case sets only what differs from the defaults. */
#define CASE(n, a, N, ...)                                                                         \
    { .name = n, .algo = a, .nodes = N, __VA_ARGS__ }
static const bench_case cases[] = {
    CASE("ring-allgather-4096", "ring", 4096, .params = NULL),
    /* the same with the real-data run, as the CLI runs it (issue 31 item 1: within 1.3x) */
    CASE("ring-allgather-4096-data", "ring", 4096, .data = 1),
    CASE("onestage-allgather-2048", "onestage", 2048, .params = NULL),
    CASE("optree-allgather-65536", "optree", 65536, .params = NULL),
    CASE("optree-allgather-65536-k8", "optree", 65536, .params = "k=8"),
    CASE("optree-allgather-65536-pinned", "optree", 65536, .params = "radices=4x3x3x3x3x3x3x3x3x3"),
    CASE("optree-allgather-16384", "optree", 16384, .params = NULL),
    CASE("optree-allgather-4096-k2", "optree", 4096, .params = "k=2"),
    CASE("optree-allgather-1024", "optree", 1024, .params = NULL),
    /* parameter searches of rhd (radices), dbtree (pipeline) and hring (g), 64 MiB / 1 MiB */
    CASE("rhd-allreduce-fabric-1024", "rhd", 1024, .coll = "allreduce", .network = "fabric",
         .bytes = UINT64_C(64) << 20),
    CASE("rhd-allreduce-switch-1000", "rhd", 1000, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(64) << 20),
    CASE("dbtree-allreduce-fabric-512", "dbtree", 512, .coll = "allreduce", .network = "fabric",
         .bytes = UINT64_C(64) << 20),
    CASE("hring-allreduce-ring-720", "hring", 720, .coll = "allreduce", .network = "ring",
         .bytes = UINT64_C(1) << 20),
    /* the split fabric (mzi_split=1): rhd's bounds proven for passes (all were mapped) */
    CASE("rhd-allreduce-fabric-split-1000", "rhd", 1000, .coll = "allreduce", .network = "fabric",
         .net_param = "mzi_split=1", .bytes = 4096),
    /* the star's searched defaults (k; h' for tcp1-split) at P not a power of k + 1 */
    CASE("star-gossip-tcp2-65535", "tcp2", 65535, .coll = "gossip", .network = "star",
         .net_param = "k=3", .bytes = 1024),
    CASE("star-alltoall-tcp2-2000", "tcp2", 2000, .coll = "alltoall", .network = "star",
         .net_param = "k=3", .bytes = 1024),
    CASE("star-bcast-tcp1split-65535", "tcp1-split", 65535, .coll = "broadcast", .network = "star",
         .net_param = "k=3", .bytes = UINT64_C(4) << 20),
    /* WRHT's searched defaults (m, alltoall, pieces) on the ring, the w = 100 */
    CASE("wrht-allreduce-5000-w100", "wrht", 5000, .coll = "allreduce",
         .net_param = "wavelengths=100"),
    CASE("wrht-allreduce-65536-w64", "wrht", 65536, .coll = "allreduce",
         .net_param = "wavelengths=64", .bytes = UINT64_C(64) << 20),
    CASE("wrht-allgather-4096-w64", "wrht", 4096, .net_param = "wavelengths=64"),
    /* the all-to-all dims searches: the mesh's default 32 x 16, a 30 x 24 torus */
    /* rounds streamed, reductions verified in chunk shards (docs/scale.md) */
    CASE("ring-allreduce-switch-4096", "ring", 4096, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("ring-allreduce-switch-65536", "ring", 65536, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("hring-allreduce-switch-65536", "hring", 65536, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("bt-allreduce-switch-65536", "bt", 65536, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("rd-allreduce-switch-65536", "rd", 65536, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("dbtree-allreduce-switch-65536-p32", "dbtree", 65536, .params = "pipeline=32",
         .coll = "allreduce", .network = "switch", .bytes = UINT64_C(1) << 20),
    CASE("rhd-allreduce-fabric-65536", "rhd", 65536, .coll = "allreduce", .network = "fabric",
         .bytes = UINT64_C(1) << 20),
    CASE("wrht-allreduce-ring-65536", "wrht", 65536, .coll = "allreduce",
         .bytes = UINT64_C(1) << 20),
    CASE("dbtree-allreduce-switch-65536", "dbtree", 65536, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20),
    CASE("ring-allgather-65536", "ring", 65536, .params = NULL),
    CASE("ne-allgather-65536", "ne", 65536, .params = NULL),
    CASE("onestage-allgather-8192", "onestage", 8192, .params = NULL),
    CASE("bex-alltoall-512-mesh32x16", "bex", 512, .coll = "alltoall", .network = "mesh",
         .net_param = "switching=wh", .bytes = 1024),
    CASE("cartesian-alltoall-720-torus30x24", "cartesian", 720, .coll = "alltoall",
         .network = "torus", .net_param = "dims=30x24", .bytes = 64),
    /* all-gather at N = 2^20, 4 KiB blocks: OpTree's radices searched, WRHT on the ring, Bruck
     * and rd on the switch and the ring (OpTree's search maps about seven lists: a minute of CPU) */
    CASE("optree-allgather-1048576", "optree", 1048576, .bytes = 4096),
    CASE("wrht-allgather-1048576", "wrht", 1048576, .bytes = 4096),
    CASE("bruck-allgather-switch-1048576", "bruck", 1048576, .network = "switch", .bytes = 4096),
    CASE("rd-allgather-switch-1048576", "rd", 1048576, .network = "switch", .bytes = 4096),
    /* rd on the ring, radices searched: levels costed alone, one candidate mapped */
    CASE("rd-allgather-ring-8192", "rd", 8192, .params = NULL),
    CASE("rd-allgather-ring-1048576", "rd", 1048576, .bytes = 4096),
    /* the real-data run beside the run without it for every kind of collective and schedule
     * (issue 31 item 1: within 1.3x; docs/performance.md, "The real-data run for every
     * collective"): the reductions' ring on the switch and the ring, rhd (digit-symmetric) on
     * the switch and the fabric, the circulant's rotation rounds, SiPCO, the star */
    CASE("ring-allreduce-switch-4096-data", "ring", 4096, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(1) << 20, .data = 1),
    CASE("ring-reducescatter-4096", "ring", 4096, .coll = "reducescatter"),
    CASE("ring-reducescatter-4096-data", "ring", 4096, .coll = "reducescatter", .data = 1),
    CASE("rhd-allreduce-switch-1000-data", "rhd", 1000, .coll = "allreduce", .network = "switch",
         .bytes = UINT64_C(64) << 20, .data = 1),
    CASE("rhd-allreduce-fabric-1024-data", "rhd", 1024, .coll = "allreduce", .network = "fabric",
         .bytes = UINT64_C(64) << 20, .data = 1),
    CASE("circulant-allgather-4096", "circulant", 4096, .params = NULL),
    CASE("circulant-allgather-4096-data", "circulant", 4096, .data = 1),
    CASE("circulant-allreduce-4096", "circulant", 4096, .coll = "allreduce"),
    CASE("circulant-allreduce-4096-data", "circulant", 4096, .coll = "allreduce", .data = 1),
    CASE("sipco-allreduce-2048", "sipco", 2048, .coll = "allreduce"),
    CASE("sipco-allreduce-2048-data", "sipco", 2048, .coll = "allreduce", .data = 1),
    CASE("star-gossip-tcp2-1000", "tcp2", 1000, .coll = "gossip", .network = "star",
         .net_param = "k=3", .bytes = 4),
    CASE("star-gossip-tcp2-1000-data", "tcp2", 1000, .coll = "gossip", .network = "star",
         .net_param = "k=3", .bytes = 4, .data = 1),
    /* compare as a user runs it: every algorithm, each searched, verified and mapped */
    CASE("compare-allgather-ring-4096", NULL, 4096, .compare = 1),
    CASE("compare-allreduce-ring-4096", NULL, 4096, .coll = "allreduce", .compare = 1),
    /* the schedule file of 1 M transfers (ring all-gather, N = 1024, 4 KiB blocks): verified,
     * mapped, then written round by round (issue 31 item 4: under 0.2 s) */
    CASE("export-json-ring-allgather-1024", "ring", 1024, .bytes = 4096, .export_json = 1),
};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A compare case in the child: every algorithm of the collective, with the real-data run as the
 * command has it; 0 when every algorithm that ran verified. */
static int run_compare(const oc_request *req, int fd) {
    char why[512] = "";
    oc_compare_result res;
    double t0 = now();
    int rc = oc_compare(req, NULL, 0, NULL, &res, why, sizeof why);
    double t1 = now();
    char line[640];
    if (rc) {
        snprintf(line, sizeof line, "FAILED: %s", why);
    } else {
        size_t verified = 0;
        for (size_t k = 0; k < res.nrun; k++)
            verified += (size_t)oc_report_verified(res.runs[k].report);
        snprintf(line, sizeof line,
                 "%.3f s  %zu algorithms run, %zu verified, %zu not run (real-data run on)",
                 t1 - t0, res.nrun, verified, res.count - res.nrun);
        if (verified != res.nrun) rc = 1;
        oc_compare_result_free(&res);
    }
    if (write(fd, line, strlen(line)) < 0) rc = 1;
    return rc ? 1 : 0;
}

/* An export case in the child: the schedule file written to /dev/null. */
static int run_export(const oc_request *req, int fd) {
    char why[512] = "", line[640];
    FILE *f = fopen("/dev/null", "w");
    if (!f) return 1;
    double t0 = now();
    int rc = oc_export_json(req, f, why, sizeof why);
    double t1 = now();
    fclose(f);
    if (rc)
        snprintf(line, sizeof line, "FAILED: %s", why);
    else
        snprintf(line, sizeof line, "%.3f s  schedule file written (real-data run off)", t1 - t0);
    if (write(fd, line, strlen(line)) < 0) rc = 1;
    return rc ? 1 : 0;
}

/* Runs in the child: returns 0 when the run verified; writes its figures to fd. */
static int run_case(const bench_case *c, int fd) {
    oc_kv *params = oc_kv_new(), *net = oc_kv_new();
    if (c->params) oc_kv_set_pair(params, c->params);
    if (c->net_param) oc_kv_set_pair(net, c->net_param);
    oc_collective coll = OC_ALLGATHER;
    if (c->coll) oc_collective_from_name(c->coll, &coll);
    oc_request req = {.collective = coll,
                      .algorithm = c->algo,
                      .network = c->network ? c->network : "ring",
                      .nodes = c->nodes,
                      .bytes = c->bytes ? c->bytes : UINT64_C(4) << 20,
                      .params = params,
                      .net_params = net,
                      .skip_data_check = !c->compare && !c->data};
    if (c->compare || c->export_json) {
        int crc = c->compare ? run_compare(&req, fd) : run_export(&req, fd);
        oc_kv_free(params);
        oc_kv_free(net);
        return crc;
    }
    char why[512] = "";
    oc_report *rep = NULL;
    double t0 = now();
    int rc = oc_run(&req, &rep, why, sizeof why);
    double t1 = now();
    char line[640];
    if (rc) {
        snprintf(line, sizeof line, "FAILED: %s", why);
    } else {
        const char *radices = oc_report_param(rep, "radices");
        /* chunk-transfers a second of wall time: the rate the README gives */
        snprintf(line, sizeof line,
                 "%.3f s  steps %llu  rounds %llu  %.1f M chunk-transfers/s  %s%s  verified %s%s",
                 t1 - t0, (unsigned long long)oc_report_steps(rep),
                 (unsigned long long)oc_report_rounds(rep), (double)rep->units / (t1 - t0) / 1e6,
                 radices ? "radices=" : "", radices ? radices : "",
                 oc_report_verified(rep) ? "yes" : "NO",
                 /* a -data case says whether the real-data run ran to its verdict */
                 !c->data                        ? ""
                 : oc_report_data_checked(rep) ? " (real-data run: checked)"
                                                 : " (real-data run: skipped)");
    }
    if (write(fd, line, strlen(line)) < 0) rc = 1;
    oc_report_free(rep);
    oc_kv_free(params);
    oc_kv_free(net);
    return rc ? 1 : 0;
}

/* A reader case in the child: write its input, time reading it back. */
static int run_reader(int kind, size_t n, int fd) {
    char path[] = "/tmp/oc_bench_reader_XXXXXX";
    int tfd = mkstemp(path);
    if (tfd < 0) return 1;
    close(tfd);
    char line[640], why[512] = "";
    int rc = oc_reader_write(kind, n, path);
    if (rc) {
        snprintf(line, sizeof line, "FAILED: cannot write %s", path);
    } else {
        double t0 = now();
        rc = oc_reader_read(NULL, kind, n, path, why, sizeof why);
        double t1 = now();
        if (rc)
            snprintf(line, sizeof line, "FAILED: %s", why);
        else
            snprintf(line, sizeof line, "%.3f s  %zu %s read and checked", t1 - t0, n,
                     oc_reader_kind_unit(kind));
    }
    unlink(path);
    if (write(fd, line, strlen(line)) < 0) rc = 1;
    return rc ? 1 : 0;
}

#ifndef OC_SOURCE_DIR
#define OC_SOURCE_DIR "."
#endif

static int markdown; /* --markdown: the page's rows too */

/* The figures docs/performance.md quotes for case `name` (its row marked <!--b:name-->: the
 * wall, CPU and peak RSS cells) into buf, or "not quoted" when the page has no such row. */
static void docs_figures(const char *name, char *buf, size_t len) {
    snprintf(buf, len, "not quoted in docs/performance.md");
    FILE *f = fopen(OC_SOURCE_DIR "/docs/performance.md", "r");
    if (!f) return;
    char line[2048], mark[96];
    snprintf(mark, sizeof mark, "<!--b:%s-->", name);
    while (fgets(line, sizeof line, f)) {
        const char *at = strstr(line, mark);
        if (!at) continue;
        /* the cells after the marked one: wall | CPU | RSS */
        const char *cell = strchr(at, '|');
        char part[3][64] = {"", "", ""};
        for (int k = 0; k < 3 && cell; k++) {
            const char *end = strchr(cell + 1, '|');
            if (!end) break;
            size_t n = (size_t)(end - cell - 1);
            if (n >= sizeof part[k]) n = sizeof part[k] - 1;
            memcpy(part[k], cell + 1, n);
            part[k][n] = 0;
            cell = end;
        }
        /* without the bold marks and the spaces around */
        for (int k = 0; k < 3; k++) {
            char *p = part[k], out[64];
            size_t o = 0;
            for (; *p; p++)
                if (*p != '*' && o + 1 < sizeof out) out[o++] = *p;
            out[o] = 0;
            char *b = out;
            while (*b == ' ')
                b++;
            for (size_t e = strlen(b); e && b[e - 1] == ' ';)
                b[--e] = 0;
            snprintf(part[k], sizeof part[k], "%s", b);
        }
        snprintf(buf, len, "docs: wall %s, CPU %s, peak RSS %s", part[0], part[1], part[2]);
        break;
    }
    fclose(f);
}

/* The machine and its load, for the head of the output. */
static void machine_line(void) {
    char model[128] = "unknown CPU", line[256];
    long mem_kb = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f) fclose(f);
    f = fopen("/proc/meminfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %ld kB", &mem_kb) == 1) break;
    if (f) fclose(f);
    double l1 = -1, l5 = -1, l15 = -1; /* the load averages over 1, 5 and 15 minutes */
    f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) != 3) l1 = l5 = l15 = -1;
    if (f) fclose(f);
    time_t t = time(NULL);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("machine: %s, %ld cores, %.1f GiB; load %.2f %.2f %.2f (1, 5, 15 min) at %s\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), (double)mem_kb / 1048576.0, l1, l5, l15, when);
}

/* Runs fn(arg, fd) in a child and prints its line and peak memory; 1 if it failed. */
static int in_child(const char *name, int (*fn)(const void *, int), const void *arg) {
    int pipefd[2];
    if (pipe(pipefd)) return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        close(pipefd[0]);
        _exit(fn(arg, pipefd[1]));
    }
    close(pipefd[1]);
    char line[640] = "";
    ssize_t got = read(pipefd[0], line, sizeof line - 1);
    if (got > 0) line[got] = 0;
    close(pipefd[0]);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    wait4(pid, &status, 0, &ru);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    /* CPU time beside the wall time: on a shared machine the wall time also counts waiting */
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    printf("  %-28s %s  (cpu %.2f s)  peak RSS %.1f MiB%s\n", name, line, cpu,
           (double)ru.ru_maxrss / 1024.0, ok ? "" : "  (FAILED)");
    char quoted[256];
    docs_figures(name, quoted, sizeof quoted);
    printf("  %-28s %s\n", "", quoted);
    /* the wall time is the case's own (its first figure), not the child's start-up */
    double wall = -1;
    if (ok && markdown && sscanf(line, "%lf s", &wall) == 1 && wall >= 0) {
        /* figures to two significant digits at least, as the page writes them */
        char w[32], c[32], r[32];
        snprintf(w, sizeof w, wall < 0.01 ? "%.3f s" : wall < 10 ? "%.2f s" : "%.0f s", wall);
        snprintf(c, sizeof c, cpu < 0.01 ? "%.3f s" : cpu < 10 ? "%.2f s" : "%.0f s", cpu);
        const double mib = (double)ru.ru_maxrss / 1024.0;
        if (mib >= 1024)
            snprintf(r, sizeof r, "%.2f GiB", mib / 1024);
        else
            snprintf(r, sizeof r, mib < 10 ? "%.1f MiB" : "%.0f MiB", mib);
        printf("|b:%s| %s | %s | %s |\n", name, w, c, r);
    }
    return !ok;
}

static int case_child(const void *arg, int fd) {
    return run_case(arg, fd);
}

typedef struct reader_case {
    int kind;
    size_t n;
} reader_case;

static int reader_child(const void *arg, int fd) {
    const reader_case *r = arg;
    return run_reader(r->kind, r->n, fd);
}

static int wanted(int argc, char **argv, const char *name, const char *group) {
    if (argc <= 1) return 1;
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], name) == 0 || (group && strcmp(argv[a], group) == 0)) return 1;
    return 0;
}

/* The case names, for --help and for an unknown name. */
static void case_names(FILE *f) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        fprintf(f, "  %s\n", cases[i].name);
    for (int k = 0; k < OC_RK_COUNT; k++)
        fprintf(f, "  reader-%s\n", oc_reader_kind_name(k));
}

/* 1 when `name` is a case, a reader or the readers' group. */
static int known(const char *name) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(name, cases[i].name)) return 1;
    for (int k = 0; k < OC_RK_COUNT; k++) {
        char r[64];
        snprintf(r, sizeof r, "reader-%s", oc_reader_kind_name(k));
        if (!strcmp(name, r)) return 1;
    }
    return !strcmp(name, "readers");
}

int main(int argc, char **argv) {
    int failed = 0;
    /* --help prints and runs nothing; a name that is not a case is refused, not skipped */
    if (argc > 1 && !strcmp(argv[1], "--markdown")) {
        markdown = 1;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
            printf("usage: oc_bench [--markdown] [CASE...]\n\nWall time and peak memory of "
                   "generate + verify + "
                   "map + resource check for\nthe cases the README names, each in a child process; "
                   "without CASE, all of them.\n\ncases (\"readers\" for every reader):\n");
            case_names(stdout);
            return 0;
        }
        if (!known(argv[a])) {
            fprintf(stderr, "oc_bench: unknown case '%s'; the cases:\n", argv[a]);
            case_names(stderr);
            return 2;
        }
    }
    printf("opticoll bench: generate + verify + map + resource check, all-gather on the ring, "
           "4 MiB blocks, w = 64 (the real-data run is off, a test rather than part of the cost, "
           "but in the cases named -data)\n");
    machine_line();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (wanted(argc, argv, cases[i].name, NULL))
            failed |= in_child(cases[i].name, case_child, &cases[i]);
    printf("readers: write the input, then time reading and checking it\n");
    for (int k = 0; k < OC_RK_COUNT; k++) {
        reader_case r = {k, k == OC_RK_MSCCL_TBS ? 100000 : 1000000};
        char name[64];
        snprintf(name, sizeof name, "reader-%s", oc_reader_kind_name(k));
        if (wanted(argc, argv, name, "readers")) failed |= in_child(name, reader_child, &r);
    }
    return failed;
}
