/*
 * opticoll.h — libopticoll's public API, whole: the core (opticoll_core.h: one run of one
 * collective, from request to report, its exports and bounds) and the studies built on it
 * (opticoll_studies.h: sweeps, tuning, reproductions, training, compare, synth, rack, perf).
 *
 * A program that needs only one run includes opticoll_core.h; this header is both. Conventions
 * (after libuv): public names are oc_..., every function that can fail returns 0 or a negative
 * oc_errno and gives its results through pointer arguments. The library never prints, never
 * exits and never reads the environment; a failing call can leave a one-line reason in the
 * caller's `why` buffer.
 */
#ifndef OPTICOLL_H
#define OPTICOLL_H

#include "opticoll_core.h"
#include "opticoll_studies.h"

#endif /* OPTICOLL_H */
