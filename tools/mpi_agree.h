/*
 * mpi_agree.h — the one rule of the MPI tools (opticoll-mpi, opticoll-cluster): before any
 * message moves, every rank checks that it was started with the same command line, and the same
 * settings from the environment, as rank 0 (mpi_agree.c). mpirun's MPMD form
 * (`-np 1 A ... : -np 1 A ...`) or a wrapper script can start ranks that disagree; every later
 * collective assumes they agree (the same cases, the same buffer sizes, the same order of calls),
 * and a disagreement there is a crash in MPI's unpack, a double free or a hang.
 */
#ifndef OC_MPI_AGREE_H
#define OC_MPI_AGREE_H

#include <mpi.h>

/* The environment variables that change what a rank does (the memory budget, which decides what
 * is refused; the verifier's shard); NULL-terminated. */
extern const char *const mpi_agree_env[];

/* Collective over `comm`: every rank calls it, right after MPI_Init, before its arguments decide
 * anything. Compares argv[1..argc) and the variables of `env` (set or unset, and their values)
 * with rank 0's, exactly (lengths, then bytes). Returns 0 when every rank agrees; 1 when some
 * rank differs, after rank 0 printed one line on stderr naming the lowest such rank and what
 * differs, prefixed by `tool`; -1 when MPI itself failed (rank 0 says so). Every rank gets the
 * same answer, so all of them can leave together without a hang. */
int mpi_agree(MPI_Comm comm, const char *tool, int argc, char **argv, const char *const *env);

#endif
