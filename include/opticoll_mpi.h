/*
 * opticoll_mpi.h — run opticoll's schedules on real MPI processes (libopticoll_mpi).
 *
 * Every function mirrors the MPI collective of the same name and takes one more argument, the
 * opticoll algorithm ("ring", "rd", "rhd", "bt", "tcp1", ...; see `opticoll list`). An algorithm
 * may carry parameters after a colon: "rhd:radix=4". NULL or "auto" picks ring where the
 * collective has one, else the first registered algorithm of the collective. One rank is one
 * node of the schedule: the schedule is generated for the communicator's size, checked by the
 * semantic verifier and the network model's resource check (the same schedule `opticoll run`
 * and `opticoll export` produce), and then executed with MPI_Isend/MPI_Irecv round by round.
 *
 * Switching an application is one line:
 *     MPI_Allgather(sb, n, MPI_INT, rb, n, MPI_INT, comm);
 *  -> oc_mpi_allgather(sb, n, MPI_INT, rb, n, MPI_INT, comm, "rd");
 *
 * Return values are MPI error codes (MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_COUNT, MPI_ERR_TYPE,
 * MPI_ERR_OP, MPI_ERR_ROOT, MPI_ERR_BUFFER, MPI_ERR_NO_MEM, MPI_ERR_OTHER or what MPI itself
 * returned); on an error one line naming the cause is printed on stderr. A known algorithm whose
 * plan refuses this communicator size, root or message size (e.g. one that needs a power of two
 * of ranks) returns MPI_ERR_UNSUPPORTED_OPERATION, on every rank alike and before any message
 * moves (its line, naming the rank count, comes from rank 0 only; oc_mpi_last_error has it); an unknown algorithm or parameter name is MPI_ERR_ARG. All ranks of the
 * communicator must call with the same algorithm, counts and root, as for MPI's collectives.
 *
 * Data types: any contiguous type (extent = size, lower bound 0) for the copy collectives; the
 * reductions apply `op` with MPI_Reduce_local, so every predefined type/op pair MPI accepts works
 * (tested: MPI_SUM, MPI_MAX, MPI_MIN on MPI_FLOAT, MPI_DOUBLE, MPI_INT32_T, MPI_INT64_T); the op
 * must be commutative because a schedule combines contributions in its own order.
 *
 * Uneven split: a schedule cuts a block (or the whole vector) into q chunks; piece p of q of a
 * block of E units covers units [p*floor(E/q) + min(p, E mod q), ...), so the first E mod q pieces
 * are one unit longer and, when E < q, the last pieces are empty (their messages are skipped on
 * both sides). A unit is one element for the reductions and one byte for the copies.
 *
 * Schedule cache: a call plans, verifies and compiles its schedule once per (collective,
 * algorithm, communicator size, rank, root, count, type size) and keeps it, with the buffers the
 * executor needs for it (staging, relay scratch: up to a few times the message size), for later
 * calls with the same arguments. At most OC_MPI_CACHE_MAX schedules are kept per process; a new
 * one beyond that evicts the least recently used, whose buffers are freed (calling again with
 * its arguments plans it anew). Memory stays bounded by OC_MPI_CACHE_MAX entries.
 *
 * Not thread-safe: call from one thread at a time (the schedule cache is process-wide). The cache
 * and the duplicated communicators are freed by MPI_Finalize.
 */
#ifndef OPTICOLL_MPI_H
#define OPTICOLL_MPI_H

#include "opticoll_core.h"

#include <mpi.h>
#include <stddef.h>

/* The most schedules the cache keeps (see above). */
#define OC_MPI_CACHE_MAX 64

#ifdef __cplusplus
extern "C" {
#endif

int oc_mpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm);
int oc_mpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, const char *algorithm);
/* MPI_Reduce_scatter_block: every rank receives recvcount elements (block `rank` of the sum). */
int oc_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const char *algorithm);
int oc_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm);
int oc_mpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const char *algorithm);
int oc_mpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const char *algorithm);
int oc_mpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  const char *algorithm);

/* The algorithm "auto" (or NULL) resolves to for a collective name ("allgather", "allreduce",
 * "reducescatter", "alltoall", "broadcast", "scatter", "gather"), or NULL if it has none. */
const char *oc_mpi_default_algorithm(const char *collective);

/* The cause of this process's last error or refusal, as one line ("alltoall sex on 5 ranks: sex
 * runs on a hypercube: N must be a power of two, not 5"), or "" when there was none. A refusal
 * is printed by the communicator's rank 0 only, and not again while the same one repeats. */
const char *oc_mpi_last_error(void);

/* How many schedules the cache holds now (<= OC_MPI_CACHE_MAX); for tests and diagnostics. */
size_t oc_mpi_cache_entries(void);

/* The library's settings (oc_settings, opticoll_core.h: the memory budget the planning and the
 * executor's buffers are checked against, the verifier's threads) for the schedules planned from
 * now on; NULL, the default: the defaults. The caller keeps them alive while it makes calls. They
 * are this process's, as the schedule cache is: the calls here mirror MPI's, which leave no room
 * for one more argument; a schedule already in the cache keeps the settings it was planned with
 * (opticoll-mpi sets them once, from OPTICOLL_MEMORY_BUDGET_MIB, before its first call). */
void oc_mpi_settings(const oc_settings *settings);

/* A deliberate break of the executor, to show a checker catches it (opticoll-mpi
 * --drop-transfer), is not here: it is a test hook, in opticoll_testing.h, which is not installed. */

#ifdef __cplusplus
}
#endif

#endif /* OPTICOLL_MPI_H */
