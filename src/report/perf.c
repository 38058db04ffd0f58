/*
 * perf.c — nccl-tests' report of a collective (perf.h): the bus-bandwidth factors, nccl-tests'
 * size and count from opticoll's SIZE, and the one writer of the columns for both `opticoll perf`
 * (times from the network model) and `opticoll-mpi --perf` (measured times).
 *
 * nccl-tests (NVIDIA/nccl-tests, doc/PERFORMANCE.md and its src/ files) prints, per size, the size
 * of the whole operation in bytes, the count of elements each rank passes to the call, the type,
 * the reduction (or "none"), the root (-1 when the collective has none), and per group of timings
 * (its out-of-place and in-place runs) the time in microseconds, algbw = size / time and
 * busbw = algbw x a factor of the collective that makes the figure comparable to the hardware's
 * link bandwidth whatever the number of ranks n:
 *   all-reduce 2(n-1)/n; reduce-scatter, all-gather, all-to-all (n-1)/n; broadcast, reduce 1;
 *   scatter and gather (n-1)/n (src/scatter.cu, src/gather.cu).
 * Sizes: nccl-tests' size of all-gather, gather, scatter and all-to-all is n blocks (its count is
 * per rank); opticoll's SIZE of these is one rank's block, so size = n x SIZE, count = SIZE /
 * type size. Reduce-scatter's size is the whole vector in both (count = SIZE / n / type size);
 * all-reduce and broadcast: size = SIZE, count = SIZE / type size. Gossip, which nccl-tests lacks,
 * is counted as the all-gather it moves like.
 */
#include "report/perf.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

double oc_perf_busbw_factor(oc_collective c, uint32_t n) {
    double f = n ? (double)(n - 1) / (double)n : 0.0;
    switch (c) {
    case OC_ALLREDUCE:
        return 2.0 * f;
    case OC_BROADCAST:
        return 1.0;
    default: /* reduce-scatter, all-gather, all-to-all, scatter, gather, gossip */
        return f;
    }
}

/* 1 when nccl-tests' size of c is n times opticoll's SIZE (the collectives whose SIZE is one
 * rank's block: all-gather, gather, scatter, all-to-all, gossip). */
static int perf_size_per_rank(oc_collective c) {
    return c == OC_ALLGATHER || c == OC_GATHER || c == OC_SCATTER || c == OC_ALLTOALL ||
           c == OC_GOSSIP;
}

uint64_t oc_perf_bytes(oc_collective c, uint32_t n, uint64_t size, uint32_t tsize) {
    if (!n || !tsize) return 0;
    if (perf_size_per_rank(c)) return size / n / tsize * tsize;
    if (c == OC_REDUCESCATTER) return size / n / tsize * tsize * n;
    return size / tsize * tsize;
}

oc_perf_row oc_perf_row_of(oc_collective c, uint32_t n, uint64_t bytes, uint32_t tsize,
                             uint32_t root) {
    oc_perf_row r;
    memset(&r, 0, sizeof r);
    int per_rank = perf_size_per_rank(c);
    r.size = per_rank ? bytes * n : bytes;
    r.count = (per_rank ? bytes : c == OC_REDUCESCATTER ? bytes / n : bytes) / (tsize ? tsize : 1);
    r.redop = oc_collective_reduces(c) ? "sum" : "none";
    r.root = c == OC_BROADCAST || c == OC_SCATTER || c == OC_GATHER ? (int64_t)root : -1;
    return r;
}

/* algbw in GB/s (10^9 bytes per second), as nccl-tests counts. */
static double algbw(const oc_perf_row *r, double t) {
    return (double)r->size / t / 1e9;
}

cJSON *oc_perf_row_json(const oc_perf_row *r, const char *const *groups, size_t ngroups,
                         double factor) {
    cJSON *x = cJSON_CreateObject();
    int ok = x && oc__json_u64(x, "size", r->size) && oc__json_u64(x, "count", r->count) &&
             oc__json_str(x, "type", r->type) && oc__json_str(x, "redop", r->redop) &&
             oc__json_num(x, "root", (double)r->root) && oc__json_num(x, "busbw_factor", factor);
    for (size_t g = 0; ok && g < ngroups && g < OC_PERF_MAX_GROUPS; g++) {
        cJSON *o = groups ? oc__json_obj(x, groups[g]) : x; /* one unnamed group: flat */
        double t = r->time_s[g];
        ok = o != NULL;
        if (ok && t > 0)
            ok = oc__json_num(o, "time_us", t * 1e6) &&
                 oc__json_num(o, "algbw_GBps", algbw(r, t)) &&
                 oc__json_num(o, "busbw_GBps", algbw(r, t) * factor);
        else if (ok)
            ok = oc__json_null(o, "time_us") && oc__json_null(o, "algbw_GBps") &&
                 oc__json_null(o, "busbw_GBps");
    }
    if (!ok) {
        cJSON_Delete(x);
        return NULL;
    }
    return x;
}

/* nccl-tests' getFloatStr: value in `width` characters, 2 decimals while they fit, then 1, then
 * none, then an exponent. */
static void float_text(double value, int width, char *out, size_t len) {
    int power = 0;
    for (double v = 1; value >= v && power < 40; v *= 10)
        power++;
    if (power < width - 2)
        snprintf(out, len, "%*.2f", width, value);
    else if (power < width - 1)
        snprintf(out, len, "%*.1f", width, value);
    else if (power < width + 1)
        snprintf(out, len, "%*.0f", width, value);
    else
        snprintf(out, len, "%*.1e", width, value);
}

int oc_perf_nccl_header(FILE *f, const char *const *groups, size_t ngroups) {
    /* the first two groups are nccl-tests' halves, named as its own line names them (64
     * characters over their 66 columns); any further group is centred over its 33 */
    fprintf(f,
            "#\n# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
            "in-place          ",
            "", "", "", "", "");
    for (size_t g = 2; g < ngroups; g++) {
        const char *name = groups[g];
        int n = (int)strlen(name), left = (33 - n) / 2 + (g == 2 ? 2 : 0);
        if (left < 1) left = 1;
        fprintf(f, "%*s%s%*s", left, "", name, 33 - n - left > 0 ? 33 - n - left : 0, "");
    }
    fprintf(f, "\n# %10s  %12s  %8s  %6s  %6s", "size", "count", "type", "redop", "root");
    for (size_t g = 0; g < ngroups; g++)
        fprintf(f, "  %7s  %6s  %6s  %6s", "time", "algbw", "busbw", "#wrong");
    fprintf(f, " \n# %10s  %12s  %8s  %6s  %6s", "(B)", "(elements)", "", "", "");
    for (size_t g = 0; g < ngroups; g++)
        fprintf(f, "  %7s  %6s  %6s  %6s", "(us)", "(GB/s)", "(GB/s)", "");
    fputs(" \n", f);
    return ferror(f) ? OC_EIO : 0;
}

double oc_perf_busbw(const oc_perf_row *r, size_t g, double factor) {
    double t = g < OC_PERF_MAX_GROUPS ? r->time_s[g] : 0;
    return t > 0 ? algbw(r, t) * factor : 0;
}

int oc_perf_nccl_row(FILE *f, const oc_perf_row *r, const int64_t *wrong, size_t ngroups,
                     double factor) {
    char root[32];
    snprintf(root, sizeof root, "%6" PRId64, r->root);
    fprintf(f, "%12" PRIu64 "  %12" PRIu64 "  %8s  %6s  %6s", r->size, r->count, r->type, r->redop,
            root);
    for (size_t g = 0; g < ngroups && g < OC_PERF_MAX_GROUPS; g++) {
        double t = r->time_s[g];
        if (!(t > 0)) { /* not timed (a mismatch stops before the timing): its #wrong stays */
            if (wrong[g] >= 0)
                fprintf(f, "  %7s  %6s  %6s  %6g", "-", "-", "-", (double)wrong[g]);
            else
                fprintf(f, "  %7s  %6s  %6s  %6s", "-", "-", "-", "-");
            continue;
        }
        char ts[32], as[32], bs[32];
        float_text(t * 1e6, 7, ts, sizeof ts);
        float_text(algbw(r, t), 6, as, sizeof as);
        float_text(algbw(r, t) * factor, 6, bs, sizeof bs);
        if (wrong[g] >= 0)
            fprintf(f, "  %7s  %6s  %6s  %6g", ts, as, bs, (double)wrong[g]);
        else
            fprintf(f, "  %7s  %6s  %6s    N/A", ts, as, bs);
    }
    fputc('\n', f);
    return ferror(f) ? OC_EIO : 0;
}

int oc_perf_nccl_footer(FILE *f, int64_t out_of_bounds, double avg_busbw_GBps) {
    fprintf(f, "# %-20s : %" PRId64 " %s\n", "Out of bounds values", out_of_bounds,
            out_of_bounds ? "FAILED" : "OK");
    fprintf(f, "# %-20s : %g %s\n", "Avg bus bandwidth", avg_busbw_GBps, "");
    fputs("#\n", f);
    return ferror(f) ? OC_EIO : 0;
}
