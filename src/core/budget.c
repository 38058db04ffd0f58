/*
 * budget.c — the memory budget's check and its variables, the work budget's, and files read
 * within a cap.
 *
 * The memory budget is one number every reader and checker asks before an allocation whose size
 * comes from input, so a 50-byte file cannot take 16 GB (oc_budget_check names what would need
 * how much). Reading a file goes through oc__read_file, which stops at the cap while it reads
 * (1/64 of the budget unless a format has a lower cap of its own), never past it.
 */
#include "core/core.h"
#include "core/quote.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the memory budget ----
 *
 * The budget is a field of the settings a call was given (settings.c): oc__memory_budget() reads
 * the calling thread's. */

static int budget_check(uint64_t budget, uint64_t bytes, const char *what, char *why,
                        size_t whylen) {
    if (bytes <= budget) return 0;
    char need[32], have[32];
    oc__format_bytes(need, sizeof need, bytes);
    oc__format_bytes(have, sizeof have, budget);
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "%s needs %s, more than the memory budget of %s (set "
                    "OPTICOLL_MEMORY_BUDGET_MIB)",
                    what, need, have);
}

int oc_budget_check(const oc_settings *s, uint64_t bytes, const char *what, char *why,
                    size_t whylen) {
    int rc = oc_settings_check(s, why, whylen);
    return rc ? rc : budget_check(oc_settings_memory_budget(s), bytes, what, why, whylen);
}

int oc__budget_check(uint64_t bytes, const char *what, char *why, size_t whylen) {
    return budget_check(oc__memory_budget(), bytes, what, why, whylen);
}

int oc_memory_budget_from_env(const char *mib, const char *old_mib, uint64_t *bytes, char *why,
                              size_t whylen) {
    /* A variable set to nothing (`OPTICOLL_MEMORY_BUDGET_MIB= cmd`, the shell's way of clearing
     * one for a command) is unset, as for the shell's own variables, not a bad number. */
    if (mib && !*mib) mib = NULL;
    if (old_mib && !*old_mib) old_mib = NULL;
    const char *name = mib ? "OPTICOLL_MEMORY_BUDGET_MIB" : "OPTICOLL_VERIFY_BUDGET_MIB";
    const char *value = mib ? mib : old_mib;
    if (!value) {
        *bytes = 0;
        return 0;
    }
    char quoted[OC__QUOTE_SIZE]; /* the value is the user's text: escaped and cut */
    uint64_t v;
    if (oc_parse_u64(value, 1, OC_MAX_MEMORY_BUDGET >> 20, &v))
        return oc__fail(why, whylen, OC_EINVAL,
                        "%s=%s: expected a whole number of MiB from 1 to %llu", name,
                        oc__quote(quoted, sizeof quoted, value),
                        (unsigned long long)(OC_MAX_MEMORY_BUDGET >> 20));
    *bytes = v << 20;
    return 0;
}

/* ---- the work budget ----
 *
 * Memory is not the only thing input sizes: SiPCO r=2 on 65536 nodes fits the memory budget in
 * shards (1024 of 1.3 GB) and is 1.4e11 chunk-transfers to verify, hours at the 6e-8 s each
 * measured on SiPCO at 4096 nodes. Every plan counts its work before it generates (oc__spec:
 * units, the chunk-transfers, and transfers), and the run and each search candidate are held to
 * this budget before a round is made. What is counted is what the verifier does: a reduction's
 * verifier that keeps a contribution set a chunk merges one a chunk a transfer carries (units);
 * a copy collective's adds a range a transfer, and a reduction verified in cells per label
 * offset or orbit (run/shard.c) takes a family round whole, so there the transfers are the work
 * (the network model's too: a bundle a transfer). The default, 2^35, is about half an hour of
 * reductions' work on the project's 2-core machine, and above every copy schedule and family
 * reduction within the node cap (the ring all-reduce on 131072 nodes: 3.4e10 transfers). */
int oc_work_budget_from_env(const char *text, uint64_t *units, char *why, size_t whylen) {
    if (!text || !*text) { /* set to nothing: unset, as the memory budget's */
        *units = 0;
        return 0;
    }
    char quoted[OC__QUOTE_SIZE];
    uint64_t v;
    if (oc_parse_u64(text, OC_MIN_WORK_BUDGET, OC_MAX_TRANSFERS, &v))
        return oc__fail(why, whylen, OC_EINVAL,
                        "OPTICOLL_WORK_BUDGET=%s: expected a whole number of work units "
                        "(chunk-transfers or transfers) from %llu to %llu",
                        oc__quote(quoted, sizeof quoted, text),
                        (unsigned long long)OC_MIN_WORK_BUDGET,
                        (unsigned long long)OC_MAX_TRANSFERS);
    *units = v;
    return 0;
}

uint64_t oc__work_of(const oc__spec *spec, int per_chunk) {
    return per_chunk && oc_collective_reduces(spec->coll) ? spec->units : spec->transfers;
}

int oc__work_check(const oc__spec *spec, int per_chunk, uint32_t shards, char *why, size_t whylen) {
    const uint64_t budget = oc_settings_work_budget(oc__settings());
    const int by_units = per_chunk && oc_collective_reduces(spec->coll);
    const uint64_t work = oc__work_of(spec, per_chunk);
    if (!work || work <= budget) return 0;
    char in[48] = "";
    if (shards > 1) snprintf(in, sizeof in, " (in %u shards)", shards);
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "verifying %s on %u nodes with %u chunks%s is %llu %s, more than "
                    "the work budget of %llu (set OPTICOLL_WORK_BUDGET)",
                    oc_collective_name(spec->coll), spec->nodes, spec->chunks, in,
                    (unsigned long long)work, by_units ? "chunk-transfers" : "transfers",
                    (unsigned long long)budget);
}

int oc__work_floor_check(oc_collective coll, uint32_t nodes, char *why, size_t whylen) {
    /* Any schedule on N >= 2 nodes makes every node but one receive (all-gather, all-reduce,
     * reduce-scatter, all-to-all, gossip: every node; broadcast, scatter: all but the root) or
     * send (gather: all but the root) at least one transfer of at least one chunk. */
    const uint64_t budget = oc_settings_work_budget(oc__settings());
    if (nodes < 2 || nodes - 1 <= budget) return 0;
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "%s on %u nodes needs at least %u transfers whatever the algorithm, more "
                    "than the work budget of %llu (set OPTICOLL_WORK_BUDGET)",
                    oc_collective_name(coll), nodes, nodes - 1, (unsigned long long)budget);
}

uint64_t oc__file_cap(void) {
    return oc__memory_budget() / 64;
}

int oc__read_file(const char *path, uint64_t cap, const char *what, char **out, size_t *len,
                  char *why, size_t whylen) {
    *out = NULL;
    *len = 0;
    if (!what) what = path;
    char quoted[OC__QUOTE_SIZE]; /* a file name reaches the message escaped and cut */
    what = oc__quote(quoted, sizeof quoted, what);
    const int budget_cap = !cap || cap >= oc__file_cap();
    if (budget_cap) cap = oc__file_cap();
    /* Opened without waiting: a FIFO with no writer would block open() for ever. Once open, the
     * descriptor blocks again, so a FIFO whose writer is there is read whole, and one whose
     * writer never came reads as empty (read() on a FIFO without a writer is end of file). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int flags = fd < 0 ? -1 : fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        const int e = errno;
        if (fd >= 0) close(fd);
        return oc__fail(why, whylen, OC_EIO, "cannot read %s: %s", what, strerror(e));
    }
    char *buf = NULL;
    size_t n = 0, bcap = 0;
    int rc = 0;
    for (;;) {
        /* Never ask for more than cap + 1 bytes: one byte past the cap proves the file is over
         * it, and a device that never ends (/dev/zero) stops there. */
        size_t want = 65536;
        if ((uint64_t)n + want > cap + 1) want = (size_t)(cap + 1 - n);
        if (oc__grow((void **)&buf, &bcap, n + want + 1, 1)) {
            rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory reading %s", what);
            break;
        }
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > cap) {
            char c[32];
            oc__format_bytes(c, sizeof c, cap);
            rc = budget_cap
                     ? oc__fail(why, whylen, OC_ETOOBIG,
                                "%s is larger than %s, the input file cap (1/64 of the "
                                "memory budget; set OPTICOLL_MEMORY_BUDGET_MIB)",
                                what, c)
                     : oc__fail(why, whylen, OC_ETOOBIG,
                                "%s is larger than %s, the most this kind of file may be", what, c);
            break;
        }
        if (got < want) {
            if (ferror(f))
                rc = oc__fail(why, whylen, OC_EIO, "cannot read %s: %s", what, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    if (!buf && !(buf = malloc(1))) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}
