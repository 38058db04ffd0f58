#define _DEFAULT_SOURCE
/*
 * bench.c — `make bench`: wall time and peak memory of generate + verify + map (with the resource
 * check) for the cases DESIGN.md names. Each case runs in its own child process so that its peak
 * resident memory (ru_maxrss) is its own. A benchmark, not a test: it prints figures and checks
 * only that every run verified.
 *
 *   ./build/oc_bench            all cases
 *   ./build/oc_bench CASE...    selected cases by name
 */
#include "opticoll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct bench_case {
    const char *name, *algo;
    uint32_t nodes;
    const char *params; /* "key=value" or NULL */
    /* Optional (zero: all-gather on the ring, 4 MiB): the searched runs of other collectives. */
    oc_collective coll;
    const char *network;
    uint64_t bytes;
} bench_case;

static const bench_case cases[] = {
    {"ring-allgather-4096", "ring", 4096, NULL, 0, NULL, 0},
    {"onestage-allgather-2048", "onestage", 2048, NULL, 0, NULL, 0},
    {"optree-allgather-65536", "optree", 65536, NULL, 0, NULL, 0},
    {"optree-allgather-65536-k8", "optree", 65536, "k=8", 0, NULL, 0},
    {"optree-allgather-1024", "optree", 1024, NULL, 0, NULL, 0},
    /* parameter searches of rhd (radices), dbtree (pipeline) and hring (g), 64 MiB / 1 MiB */
    {"rhd-allreduce-fabric-1024", "rhd", 1024, NULL, OC_ALLREDUCE, "fabric", UINT64_C(64) << 20},
    {"rhd-allreduce-switch-1000", "rhd", 1000, NULL, OC_ALLREDUCE, "switch", UINT64_C(64) << 20},
    {"dbtree-allreduce-fabric-512", "dbtree", 512, NULL, OC_ALLREDUCE, "fabric",
     UINT64_C(64) << 20},
    {"hring-allreduce-ring-720", "hring", 720, NULL, OC_ALLREDUCE, "ring", UINT64_C(1) << 20},
};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs in the child: returns 0 when the run verified; writes its figures to fd. */
static int run_case(const bench_case *c, int fd) {
    oc_kv *params = oc_kv_new();
    if (c->params) oc_kv_set_pair(params, c->params);
    oc_request req = {.collective = c->network ? c->coll : OC_ALLGATHER,
                      .algorithm = c->algo,
                      .network = c->network ? c->network : "ring",
                      .nodes = c->nodes,
                      .bytes = c->bytes ? c->bytes : UINT64_C(4) << 20,
                      .params = params,
                      .data_check = 0};
    char why[512] = "";
    oc_report *rep = NULL;
    double t0 = now();
    int rc = oc_run(&req, &rep, why, sizeof why);
    double t1 = now();
    char line[640];
    if (rc) {
        snprintf(line, sizeof line, "FAILED: %s", why);
    } else {
        /* the searched parameter: OpTree's and rhd's radices, else the algorithm's own */
        const char *key = "radices", *radices = oc_report_param(rep, key);
        if (!radices && c->network) {
            key = c->algo[0] == 'h' ? "g" : c->algo[0] == 'd' ? "pipeline" : "radix";
            radices = oc_report_param(rep, key);
        }
        snprintf(line, sizeof line, "%.3f s  steps %llu  rounds %llu  %s%s%s  verified %s", t1 - t0,
                 (unsigned long long)oc_report_steps(rep),
                 (unsigned long long)oc_report_rounds(rep), radices ? key : "", radices ? "=" : "",
                 radices ? radices : "", oc_report_verified(rep) ? "yes" : "NO");
    }
    if (write(fd, line, strlen(line)) < 0) rc = 1;
    oc_report_free(rep);
    oc_kv_free(params);
    return rc ? 1 : 0;
}

int main(int argc, char **argv) {
    int failed = 0;
    printf("opticoll bench: generate + verify + map + resource check, all-gather on the ring, "
           "4 MiB blocks, w = 64 (the real-data run is off: it is a test, not part of the cost); "
           "the searched cases after them name their collective and network\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bench_case *c = &cases[i];
        if (argc > 1) {
            int want = 0;
            for (int a = 1; a < argc; a++)
                want |= strcmp(argv[a], c->name) == 0;
            if (!want) continue;
        }
        int pipefd[2];
        if (pipe(pipefd)) return 3;
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) return 3;
        if (pid == 0) {
            close(pipefd[0]);
            _exit(run_case(c, pipefd[1]));
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
        failed |= !ok;
        printf("  %-28s %s  peak RSS %.1f MiB%s\n", c->name, line, (double)ru.ru_maxrss / 1024.0,
               ok ? "" : "  (FAILED)");
    }
    return failed;
}
