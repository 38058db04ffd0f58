/*
 * scaleout.c — the points of a sweep, a tuning or a reproduction on every core (the pool) and,
 * built with OC_WITH_MPI (the opticoll-cluster tool, cmake/scaleout.cmake), across MPI ranks.
 *
 * The split is static and simple on purpose: rank r of R takes the contiguous share
 * [r n / R, (r + 1) n / R) of the points, the library's pool (oc_pool_run) runs that share on its
 * threads, which take points one at a time in order (so a slow point does not hold up the others),
 * and the blobs go to rank 0 with one MPI_Gatherv in rank order, which is point order. Nothing
 * about a point's result depends on who computed it, so the output does not depend on -j or on the
 * number of ranks (tests/tune.cmake diffs them). Only the main thread calls MPI
 * (MPI_THREAD_FUNNELED is enough).
 */
#include "scaleout.h"

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef OC_WITH_MPI
#include <mpi.h>
#endif

int oc_scale_rank(void) {
#ifdef OC_WITH_MPI
    int init = 0, r = 0;
    MPI_Initialized(&init);
    if (init) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
#else
    return 0;
#endif
}

int oc_scale_size(void) {
#ifdef OC_WITH_MPI
    int init = 0, s = 1;
    MPI_Initialized(&init);
    if (init) MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
#else
    return 1;
#endif
}

unsigned oc_scale_default_threads(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 1024 ? 1024u : (unsigned)n;
}

int oc_scale_parse_jobs(const char *text, unsigned *out) {
    uint64_t v;
    if (oc_parse_u64(text, 1, 1024, &v)) {
        die(EXIT_USAGE, "-j %s: the number of threads must be a whole number from 1 to 1024", text,
            NULL);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

typedef struct share {
    size_t lo;
    oc_scale_fn fn;
    void *ctx;
    char **blobs;
    size_t *lens;
} share;

static int point_job(size_t k, void *arg) {
    share *s = arg;
    size_t i = s->lo + k;
    char *b = NULL;
    size_t len = 0;
    int rc = s->fn(i, s->ctx, &b, &len);
    s->blobs[i] = b;
    s->lens[i] = b ? len : 0;
    return rc;
}

/* Computes points [lo, hi) on up to `threads` threads of the library's pool (oc_pool_run). */
static int run_share(size_t lo, size_t hi, unsigned threads, oc_scale_fn fn, void *ctx,
                     char **blobs, size_t *lens) {
    share s = {.lo = lo, .fn = fn, .ctx = ctx, .blobs = blobs, .lens = lens};
    return oc_pool_run(hi - lo, threads, point_job, &s, NULL);
}

#ifdef OC_WITH_MPI
/* Packs this rank's blobs as (uint64 length, bytes) records, gathers them on rank 0 and unpacks
 * them there into blobs[] in point order. */
static int gather(size_t n, size_t lo, size_t hi, char **blobs, size_t *lens, int err) {
    int rank = oc_scale_rank(), size = oc_scale_size();
    size_t bytes = 0;
    for (size_t i = lo; i < hi; i++)
        bytes += sizeof(uint64_t) + lens[i];
    /* every rank learns the first failure's code (codes are negative: the minimum is one of
     * them), not only that one happened */
    int mine = err ? err : bytes > (size_t)INT32_MAX ? OC_ETOOBIG : 0, first = 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first) return first;
    int bad = 0; /* from here on: out of memory on some rank */
    char *pack = malloc(bytes ? bytes : 1);
    int count = (int)bytes, *counts = NULL, *displs = NULL;
    char *all = NULL;
    if (pack) {
        char *p = pack;
        for (size_t i = lo; i < hi; i++) {
            uint64_t l = lens[i];
            memcpy(p, &l, sizeof l);
            if (l) memcpy(p + sizeof l, blobs[i], lens[i]);
            p += sizeof l + lens[i];
            free(blobs[i]);
            blobs[i] = NULL;
            lens[i] = 0;
        }
    }
    bad = !pack;
    if (rank == 0) {
        counts = calloc((size_t)size, sizeof *counts);
        displs = calloc((size_t)size, sizeof *displs);
        bad |= !counts || !displs;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) goto fail;
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    long total = 0;
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            displs[r] = (int)total;
            total += counts[r];
        }
        bad = total > INT32_MAX || !(all = malloc(total ? (size_t)total : 1));
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad) goto fail;
    MPI_Gatherv(pack, count, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        const char *p = all;
        for (size_t i = 0; i < n && !bad; i++) {
            uint64_t l;
            memcpy(&l, p, sizeof l);
            p += sizeof l;
            blobs[i] = malloc(l ? l : 1);
            if (!blobs[i]) {
                bad = 1;
                break;
            }
            memcpy(blobs[i], p, l);
            lens[i] = l;
            p += l;
        }
    }
fail:
    free(pack);
    free(all);
    free(counts);
    free(displs);
    return bad ? OC_ENOMEM : 0;
}
#endif

int oc_scale_run(size_t n, unsigned threads, oc_scale_fn fn, void *ctx, char **blobs,
                 size_t *lens) {
    for (size_t i = 0; i < n; i++) {
        blobs[i] = NULL;
        lens[i] = 0;
    }
    size_t rank = (size_t)oc_scale_rank(), size = (size_t)oc_scale_size();
    size_t lo = n * rank / size, hi = n * (rank + 1) / size;
    int err = run_share(lo, hi, threads ? threads : 1, fn, ctx, blobs, lens);
#ifdef OC_WITH_MPI
    if (size > 1) err = gather(n, lo, hi, blobs, lens, err);
#endif
    if (err) oc_scale_free(blobs, n);
    return err;
}

void oc_scale_free(char **blobs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(blobs[i]);
        blobs[i] = NULL;
    }
}

/* One point of a sweep run here and packed for rank 0 (the pool's threads call it side by side:
 * each writes only its own point). */
static int sweep_point_fn(size_t i, void *ctx, char **blob, size_t *len) {
    oc_sweep *s = ctx;
    int rc = oc_sweep_run(s, i, i + 1, 1, NULL, 0);
    return rc ? rc : oc_sweep_point_pack(s, i, blob, len);
}

int oc_scale_sweep(oc_sweep *s, unsigned threads) {
    size_t n = oc_sweep_count(s);
    if (oc_scale_size() == 1) return oc_sweep_run(s, 0, n, threads, NULL, 0);
    char **blobs = calloc(n ? n : 1, sizeof *blobs);
    size_t *lens = calloc(n ? n : 1, sizeof *lens);
    int rc = !blobs || !lens ? OC_ENOMEM : oc_scale_run(n, threads, sweep_point_fn, s, blobs, lens);
    for (size_t i = 0; !rc && oc_scale_rank() == 0 && i < n; i++)
        rc = oc_sweep_point_unpack(s, i, blobs[i], lens[i]);
    if (blobs) oc_scale_free(blobs, n);
    free(blobs);
    free(lens);
    return rc;
}

/* ---- one run split across the ranks ---- */

int oc_scale_settings_from_env(void) {
    const char *k = getenv("OPTICOLL_VERIFY_SHARD");
    if (!k || !*k) return 0; /* set to nothing is unset, as for OPTICOLL_MEMORY_BUDGET_MIB */
    uint64_t v;
    if (oc_parse_u64(k, 1, UINT32_MAX, &v))
        return die(EXIT_USAGE,
                   "OPTICOLL_VERIFY_SHARD=%s: expected the chunks of a verifier shard, a whole "
                   "number from 1 to 4294967295",
                   k, NULL);
    cli_settings.verify_shard = (uint32_t)v;
    return 0;
}

#ifdef OC_WITH_MPI
/* The part's combine: every rank's result to every rank (one MPI_Allgather of fixed-size records,
 * on the main thread: the run calls it from the thread that started it), merged alike everywhere
 * (oc_part_merge). Rank 0 keeps the line OPTICOLL_CLUSTER_VERBOSE prints. */
static int split_combine(oc_part *self, oc_part_result *r) {
    oc_scale_split *s = (oc_scale_split *)self;
    const int size = oc_scale_size();
    const size_t rsz = oc_part_result_size();
    char *all = r ? calloc((size_t)size, rsz) : NULL;
    int bad = !all; /* r NULL: this rank could not make its record (oc_scale_split_end) */
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        free(all);
        if (r) oc_part_result_fail(r, OC_ENOMEM, "out of memory");
        return OC_ENOMEM;
    }
    MPI_Allgather(r, (int)rsz, MPI_BYTE, all, (int)rsz, MPI_BYTE, MPI_COMM_WORLD);
    oc_part_merge((const oc_part_result *)(void *)all, (unsigned)size, r);
    oc_part_info whole, part;
    oc_part_result_get(r, &whole);
    size_t at = (size_t)snprintf(s->note, sizeof s->note,
                                 "opticoll-cluster: %u shards of %u chunks on %d ranks:",
                                 whole.shards, whole.width, size);
    for (int i = 0; i < size && at < sizeof s->note; i++) {
        oc_part_result_get((const oc_part_result *)(void *)(all + (size_t)i * rsz), &part);
        at += (size_t)snprintf(s->note + at, sizeof s->note - at, "%s rank %d verified %u%s",
                               i ? "," : "", i, part.ran,
                               part.cost ? " and ran the cost pass" : "");
    }
    free(all);
    return 0;
}
#endif

int oc_scale_agree(int rc, const char **algo, char *buf, size_t len) {
#ifdef OC_WITH_MPI
    if (oc_scale_size() < 2) return rc;
    struct {
        int rc;
        char algo[64];
    } m;
    memset(&m, 0, sizeof m);
    m.rc = rc;
    if (*algo) snprintf(m.algo, sizeof m.algo, "%s", *algo);
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (oc_scale_rank() != 0 && *m.algo) {
        snprintf(buf, len, "%s", m.algo);
        *algo = buf;
    }
    return m.rc;
#else
    (void)algo, (void)buf, (void)len;
    return rc;
#endif
}

void oc_scale_split_begin(oc_scale_split *s) {
    memset(s, 0, sizeof *s);
#ifdef OC_WITH_MPI
    if (oc_scale_size() < 2) return;
    s->on = 1;
    const char *v = getenv("OPTICOLL_CLUSTER_VERBOSE");
    s->verbose = v && !strcmp(v, "1");
    s->part.index = (unsigned)oc_scale_rank();
    s->part.count = (unsigned)oc_scale_size();
    s->part.combine = split_combine;
    cli_settings.part = &s->part;
#endif
}

int oc_scale_split_end(oc_scale_split *s, int err, char *why, size_t len) {
    if (!s->on) return err;
    cli_settings.part = NULL;
    if (!s->part.combined) {
        /* This rank failed before its passes (bad input fails on every rank alike): it still
         * joins the one combine the others are waiting in, and reports what won there. */
        oc_part_result *r = malloc(oc_part_result_size());
        if (r)
            oc_part_result_fail(r, err ? err : OC_EINVAL,
                                err ? why : "internal: the run skipped verification");
        /* without a record it still joins, and every rank fails alike with OC_ENOMEM */
        int rc = s->part.combine(&s->part, r);
        oc_part_info got = {.rc = OC_ENOMEM, .why = "out of memory"};
        if (r) oc_part_result_get(r, &got);
        err = rc ? rc : got.rc;
        snprintf(why, len, "%s", got.why);
        free(r);
    }
    if (s->verbose && s->part.index == 0 && *s->note) fprintf(stderr, "%s\n", s->note);
    return err;
}
