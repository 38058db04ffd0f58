/*
 * executor.h — the MPI executor's test hooks, kept out of the public header (opticoll_mpi.h):
 * a deliberate break of the executor, for the tests that show the checker against MPI's own
 * collectives catches a transfer left out (opticoll-mpi --drop-transfer, tests/mpi). Never
 * called by the library itself.
 */
#ifndef OC_MPI_EXECUTOR_H
#define OC_MPI_EXECUTOR_H

#include <stddef.h>

/* For tests of the checker only: from now on, the executor leaves out transfer `index` of round
 * `round` (0-based) of every schedule it runs — on every rank, so neither side posts it and
 * nothing hangs. The schedule itself was verified; this models a broken executor. round < 0
 * turns it off. Clears the schedule cache. */
void oc__mpi_test_drop_transfer(long round, long index);
/* Since the last oc__mpi_test_drop_transfer: how many schedules compiled had that transfer (0: the
 * drop changed nothing), the most rounds of one, and the most transfers in one round. */
void oc__mpi_test_drop_stats(size_t *hits, size_t *max_rounds, size_t *max_transfers);

#endif
