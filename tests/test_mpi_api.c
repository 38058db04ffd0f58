/*
 * test_mpi_api.c — the public API of libopticoll_mpi as an application sees it (run under mpirun
 * with 3 ranks by tests/mpi.cmake): results against MPI's own collectives on a split
 * communicator (freed afterwards: the executor's duplicate goes with it), repeated calls that hit
 * the schedule cache, "auto" and NULL, algorithm parameters ("rhd:radix=4"), and the errors a
 * wrong call must return before any message moves. Exit status 0 only when every check passed.
 */
#include "opticoll_mpi.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, what)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "test_mpi_api: FAILED: %s (line %d)\n", what, __LINE__);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static void noncommutative(void *in, void *inout, int *len, MPI_Datatype *t) {
    (void)in, (void)inout, (void)len, (void)t;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int wrank, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm comm; /* all ranks, in reverse order: rank numbers differ from MPI_COMM_WORLD's */
    MPI_Comm_split(MPI_COMM_WORLD, 0, -wrank, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* all-reduce of 1001 ints (not divisible by the chunks), three times: the cache is used */
    enum { N = 1001 };
    int in[N], ours[N], ref[N];
    for (int i = 0; i < N; i++)
        in[i] = rank * 1000 + i;
    MPI_Allreduce(in, ref, N, MPI_INT, MPI_SUM, comm);
    const char *algos[] = {"ring", "rd", "rhd:radix=4", "auto", NULL, "bt"};
    for (int a = 0; a < 6; a++)
        for (int rep = 0; rep < 3; rep++) {
            memset(ours, 0, sizeof ours);
            CHECK(oc_mpi_allreduce(in, ours, N, MPI_INT, MPI_SUM, comm, algos[a]) == MPI_SUCCESS,
                  "allreduce returns MPI_SUCCESS");
            CHECK(memcmp(ours, ref, sizeof ref) == 0, "allreduce equals MPI_Allreduce");
        }
    /* all-gather in place, with different send and receive types of the same signature */
    double blocks[3 * 5], want[3 * 5];
    for (int i = 0; i < 5; i++)
        want[5 * rank + i] = blocks[5 * rank + i] = rank + i / 8.0;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, want, 5, MPI_DOUBLE, comm);
    CHECK(oc_mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, blocks, 5, MPI_DOUBLE, comm,
                           "ring") == MPI_SUCCESS,
          "in-place allgather");
    CHECK(memcmp(blocks, want, sizeof want) == 0, "in-place allgather equals MPI's");
    char bytes[40], gathered[3 * 40];
    for (int i = 0; i < 40; i++)
        bytes[i] = (char)(rank * 40 + i);
    CHECK(oc_mpi_allgather(bytes, 40, MPI_CHAR, gathered, 10, MPI_INT, comm, "rd") == MPI_SUCCESS,
          "allgather of 40 chars received as 10 ints");
    for (int i = 0; i < 3 * 40; i++)
        CHECK(gathered[i] == (char)i, "allgather bytes");

    /* 200 distinct counts: the cache keeps at most OC_MPI_CACHE_MAX schedules, evicting the
     * least recently used, and results stay right; then the first counts again (re-planned). */
    int ok_all = 1, bounded = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int n = 1; n <= (pass ? 70 : 200); n++) {
            MPI_Allreduce(in, ref, n, MPI_INT, MPI_SUM, comm);
            memset(ours, 0, sizeof ours);
            ok_all &=
                oc_mpi_allreduce(in, ours, n, MPI_INT, MPI_SUM, comm, "ring") == MPI_SUCCESS &&
                memcmp(ours, ref, (size_t)n * sizeof(int)) == 0;
            bounded &= oc_mpi_cache_entries() <= OC_MPI_CACHE_MAX;
        }
    CHECK(ok_all, "allreduce of 200 distinct counts equals MPI_Allreduce");
    CHECK(bounded, "the schedule cache stays within OC_MPI_CACHE_MAX");
    CHECK(oc_mpi_cache_entries() == OC_MPI_CACHE_MAX, "the cache is full after 200 counts");

    /* errors: one line on stderr and an MPI error code, on every rank alike (no hang) */
    int x = 0, y = 0;
    CHECK(oc_mpi_allreduce(&x, &y, -1, MPI_INT, MPI_SUM, comm, "ring") == MPI_ERR_COUNT,
          "negative count");
    CHECK(oc_mpi_bcast(&x, 1, MPI_INT, size, comm, "tcp1") == MPI_ERR_ROOT, "root out of range");
    CHECK(oc_mpi_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm, "nosuch") == MPI_ERR_ARG,
          "unknown algorithm");
    CHECK(oc_mpi_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm, "ring:q=2") == MPI_ERR_ARG,
          "unknown algorithm parameter");
    CHECK(oc_mpi_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, "ring") == MPI_ERR_COMM,
          "null communicator");
    MPI_Op op;
    MPI_Op_create(noncommutative, 0, &op);
    CHECK(oc_mpi_allreduce(&x, &y, 1, MPI_INT, op, comm, "ring") == MPI_ERR_OP,
          "non-commutative operation");
    MPI_Op_free(&op);
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int four[4] = {0}, eight[8];
    CHECK(oc_mpi_allgather(four, 1, strided, eight, 1, strided, comm, "ring") == MPI_ERR_TYPE,
          "non-contiguous datatype");
    MPI_Type_free(&strided);
    CHECK(oc_mpi_alltoall(four, 1, MPI_INT, eight, 2, MPI_INT, comm, "auto") == MPI_ERR_COUNT,
          "send and receive blocks differ");
    /* a known algorithm that does not support 3 ranks: a refusal, distinct from other errors */
    CHECK(oc_mpi_alltoall(four, 1, MPI_INT, eight, 1, MPI_INT, comm, "dex") ==
              MPI_ERR_UNSUPPORTED_OPERATION,
          "dex (a power of two of ranks) refuses 3 ranks");
    /* count 0 moves nothing, but a wrong root, communicator or algorithm is still refused */
    CHECK(oc_mpi_allgather(four, 0, MPI_INT, eight, 0, MPI_INT, MPI_COMM_NULL, "ring") ==
              MPI_ERR_COMM,
          "allgather of 0 on a null communicator");
    CHECK(oc_mpi_alltoall(four, 0, MPI_INT, eight, 0, MPI_INT, comm, "nosuch") == MPI_ERR_ARG,
          "alltoall of 0 with an unknown algorithm");
    CHECK(oc_mpi_scatter(four, 0, MPI_INT, eight, 0, MPI_INT, size, comm, "auto") == MPI_ERR_ROOT,
          "scatter of 0 with the root out of range");
    CHECK(oc_mpi_gather(four, 0, MPI_INT, eight, 0, MPI_INT, -1, comm, "auto") == MPI_ERR_ROOT,
          "gather of 0 with a negative root");
    CHECK(oc_mpi_gather(four, 0, MPI_INT, eight, 0, MPI_INT, 0, MPI_COMM_NULL, "auto") ==
              MPI_ERR_COMM,
          "gather of 0 on a null communicator");
    CHECK(oc_mpi_scatter(four, 0, MPI_INT, eight, 0, MPI_INT, 0, comm, "nosuch") == MPI_ERR_ARG,
          "scatter of 0 with an unknown algorithm");
    CHECK(oc_mpi_bcast(&x, 0, MPI_INT, size, comm, "auto") == MPI_ERR_ROOT,
          "bcast of 0 with the root out of range");
    CHECK(oc_mpi_allreduce(&x, &y, 0, MPI_INT, MPI_SUM, MPI_COMM_NULL, "ring") == MPI_ERR_COMM,
          "allreduce of 0 on a null communicator");
    CHECK(oc_mpi_reduce_scatter_block(&x, &y, 0, MPI_INT, MPI_SUM, comm, "nosuch") == MPI_ERR_ARG,
          "reduce-scatter of 0 with an unknown algorithm");
    CHECK(oc_mpi_allgather(four, 0, MPI_INT, eight, 0, MPI_INT, comm, "auto") == MPI_SUCCESS,
          "a valid allgather of 0");
    CHECK(oc_mpi_gather(four, 0, MPI_INT, eight, 0, MPI_INT, 2, comm, "auto") == MPI_SUCCESS,
          "a valid gather of 0");
    CHECK(strcmp(oc_mpi_default_algorithm("allgather"), "ring") == 0, "default algorithm");
    CHECK(oc_mpi_default_algorithm("nosuch") == NULL, "default of an unknown collective");

    MPI_Comm_free(&comm);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0) printf("test_mpi_api: %s (%d failed checks)\n", all ? "FAILED" : "passed", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
