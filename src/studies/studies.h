/*
 * studies.h — the studies room: questions answered by many verified runs rather than one. Each
 * study makes its runs through the pipeline (oc_run, or run/batch.h's batches on the thread pool)
 * and reads only their results (core/result.h), so every number it prints comes from a schedule
 * that was generated, verified, mapped and costed.
 *
 *   sweep.c       every candidate algorithm x node count x size (oc_sweep*): `sweep`, `tune`
 *   tune.c        the winner of every point, the crossovers, the decision files of `run -a auto`
 *                 (oc_tune*)
 *   train.c       the gradient all-reduce of data-parallel training, per iteration and epoch
 *                 (WRHT seed, section IV; oc_train*, oc_models*)
 *   throughput.c  samples per second on the Lumorph rack against Ring on a switch (Lumorph
 *                 seed, section 4)
 *   rack.c        multi-tenant allocation on Lumorph, TPU-like and SiPAC racks (rack.h; Lumorph
 *                 seed, section 3)
 *
 * The public API of the room is in include/opticoll.h; this header gathers what its files share
 * from the rooms below. It stands on src/report and src/run; src/reproduce stands on it.
 */
#ifndef OC_STUDIES_H
#define OC_STUDIES_H

#include "core/core.h"
#include "report/table.h"
#include "run/batch.h"

/* The models file used when none is named (train.c, oc_models_default in opticoll.h). */
#define oc__models_default oc_models_default

#endif
