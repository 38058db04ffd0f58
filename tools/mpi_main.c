/*
 * mpi_main.c — main() of opticoll-cluster, the tool built with MPI (cmake/scaleout.cmake).
 *
 * The MPI build compiles the tool's sources with main renamed to oc_tool_main (a definition on
 * that target only), and this file is its main: it starts MPI, lets every rank run the same
 * command — sweep, tune and reproduce split their points across the ranks and gather the results
 * on rank 0 (scaleout.c) — and finalises MPI. Only rank 0 prints: the others' stdout and stderr go
 * to /dev/null, and rank 0's exit code is the command's. Before the command, the ranks check
 * that they were all started with the same arguments (mpi_agree.h): ranks given other lists
 * would split other points and gather blobs of other sizes (which read as "out of memory").
 * On a mismatch every rank exits 2 after rank 0's one line.
 */
#undef main
#include "mpi_agree.h"

#include <mpi.h>
#include <stdio.h>

int oc_tool_main(int argc, char **argv);
int main(int argc, char **argv);

int main(int argc, char **argv) {
    int provided = 0, rank = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fputs("opticoll: MPI_Init failed\n", stderr);
        return 3;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int agreed = mpi_agree(MPI_COMM_WORLD, "opticoll", argc, argv, mpi_agree_env);
    if (agreed) {
        MPI_Finalize();
        return agreed < 0 ? 3 : 2;
    }
    if (rank > 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) return 3;
    }
    int rc = oc_tool_main(argc, argv); /* it has checked and closed stdout (output.h) */
    MPI_Finalize();
    return rank == 0 ? rc : 0;
}
