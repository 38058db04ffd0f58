/*
 * mpi_agree.c — every rank checks that it runs the same command as rank 0 (mpi_agree.h).
 *
 * What is compared: the arguments after the program's name (argv[0] is a path, which may differ
 * between hosts and means nothing), then each listed environment variable as "NAME=value" or
 * "NAME" alone when unset. Each item ends in a NUL, so ("ab", "c") and ("a", "bc") differ, and
 * the items are prefixed by a count, so a missing trailing item differs too. A variable set to
 * nothing is unset (as every tool reads these), so it is compared as unset.
 *
 * How: exactly, not by a hash, in four collectives that every rank makes whatever its input —
 * (1) rank 0 broadcasts the lengths of its argument part and of the whole; (2) an all-reduce of
 * the lowest rank whose lengths differ; only when none differs, (3) rank 0 broadcasts its bytes,
 * which every rank now has room for, and (4) an all-reduce of the lowest rank whose bytes differ.
 * Each reduced value encodes the rank and whether the difference lies in the arguments or the
 * environment (2 x rank + 1 for the environment), so the lowest value names the lowest rank.
 * A broadcast of differently sized buffers is what made Open MPI's unpack fail; here every
 * broadcast has one size everywhere before it is made. The cost is a few microseconds and one
 * copy of a command line.
 */
#include "mpi_agree.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mpi_agree_env[] = {"OPTICOLL_MEMORY_BUDGET_MIB", "OPTICOLL_VERIFY_BUDGET_MIB",
                                     "OPTICOLL_VERIFY_SHARD", "OPTICOLL_WORK_BUDGET", NULL};

/* The variable's value, NULL when it is unset or set to nothing. */
static const char *set_value(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* The command line and the listed variables as one byte string (malloc'ed, NULL when out of
 * memory); *args_len is the length of its argument part. */
static char *serialise(int argc, char **argv, const char *const *env, size_t *len,
                       size_t *args_len) {
    size_t n = 32;
    for (int i = 1; i < argc; i++)
        n += strlen(argv[i]) + 1;
    for (size_t k = 0; env[k]; k++) {
        const char *v = set_value(env[k]);
        n += strlen(env[k]) + 2 + (v ? strlen(v) : 0);
    }
    char *buf = malloc(n), *at = buf;
    if (!buf) return NULL;
    at += sprintf(at, "%d", argc) + 1;
    for (int i = 1; i < argc; i++)
        at = stpcpy(at, argv[i]) + 1;
    *args_len = (size_t)(at - buf);
    for (size_t k = 0; env[k]; k++) {
        const char *v = set_value(env[k]);
        at = stpcpy(at, env[k]);
        if (v) at = stpcpy(stpcpy(at, "="), v);
        at++;
    }
    *len = (size_t)(at - buf);
    return buf;
}

int mpi_agree(MPI_Comm comm, const char *tool, int argc, char **argv, const char *const *env) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t len = 0, args_len = 0;
    char *mine = serialise(argc, argv, env, &len, &args_len), *theirs = NULL;
    /* out of memory on some rank: a length no rank has, so that it is reported, not hung on */
    unsigned long long lens[2] = {mine ? args_len : ULLONG_MAX, mine ? len : ULLONG_MAX};
    unsigned long long root_lens[2] = {lens[0], lens[1]};
    int code = 2 * size, first = 2 * size, failed = 0;
    failed |= MPI_Bcast(root_lens, 2, MPI_UNSIGNED_LONG_LONG, 0, comm) != MPI_SUCCESS;
    if (!failed && (lens[0] != root_lens[0] || lens[1] != root_lens[1]))
        code = 2 * rank + (lens[0] == root_lens[0]);
    failed |= MPI_Allreduce(&code, &first, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS;
    if (!failed && first == 2 * size && root_lens[1] <= INT_MAX) {
        /* every rank has len bytes, the same as rank 0 */
        theirs = malloc(len ? len : 1);
        int have = theirs != NULL, all = 0;
        failed |= MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS;
        if (!failed && all) {
            if (rank == 0) memcpy(theirs, mine, len);
            failed |= MPI_Bcast(theirs, (int)len, MPI_CHAR, 0, comm) != MPI_SUCCESS;
            size_t at = 0;
            while (!failed && at < len && theirs[at] == mine[at])
                at++;
            code = at < len ? 2 * rank + (at >= args_len) : 2 * size;
            failed |= MPI_Allreduce(&code, &first, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS;
        } else if (!failed) {
            first = -1; /* out of memory on some rank */
        }
    } else if (!failed && first == 2 * size) {
        first = -1; /* a command line of more than 2 GiB: not one the kernel passes */
    }
    free(mine);
    free(theirs);
    if (failed || first < 0) {
        if (rank == 0)
            fprintf(stderr, "%s: the ranks could not compare their command lines (%s)\n", tool,
                    failed ? "an MPI call failed" : "out of memory");
        return -1;
    }
    if (first == 2 * size) return 0;
    if (rank == 0) {
        fprintf(stderr,
                "%s: rank %d was started with other %s than rank 0; every rank must run the "
                "same command",
                tool, first / 2, first % 2 ? "environment settings" : "arguments");
        if (first % 2) {
            fputs(" (", stderr);
            for (size_t k = 0; env[k]; k++)
                fprintf(stderr, "%s%s", k ? ", " : "", env[k]);
            fputs(")", stderr);
        }
        fputs("\n", stderr);
    }
    return 1;
}
