/*
 * opticoll_testing.h — hooks that break the library on purpose, to show that a checker catches the
 * break. They are not part of the API an application uses: no installed header declares them
 * (cmake/install.cmake installs opticoll.h, opticoll_core.h, opticoll_studies.h, opticoll_json.h
 * and opticoll_mpi.h, not this one), the library itself never calls them, and they may change
 * without notice. Their users are opticoll-mpi's --drop-transfer (tools/opticoll_mpi.c) and the
 * tests (tests/mpi).
 *
 * Why a header in include/ and not in src/: the tools are clients of the public headers alone
 * (ARCHITECTURE.md, tests/arch/layering.py rule 6, compiled with -Iinclude only), and the checker
 * needs the hook. Keeping it apart keeps the promise of opticoll_mpi.h: what it declares is what
 * an application may rely on.
 */
#ifndef OPTICOLL_TESTING_H
#define OPTICOLL_TESTING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the MPI executor (libopticoll_mpi): a transfer left out ---------------------------------
 *
 * From now on the executor leaves out transfer `index` of round `round` (0-based) of every
 * schedule it runs, on every rank, so neither side posts it and nothing hangs. The schedule itself
 * was verified; this models a broken executor. round < 0 turns it off. Clears the schedule cache.
 */
void oc_mpi_inject_drop_transfer(long round, long index);
/* Since the last oc_mpi_inject_drop_transfer: how many schedules compiled had that transfer (0:
 * the drop changed nothing), the most rounds of one, and the most transfers in one round. */
void oc_mpi_inject_drop_stats(size_t *hits, size_t *max_rounds, size_t *max_transfers);

#ifdef __cplusplus
}
#endif

#endif /* OPTICOLL_TESTING_H */
