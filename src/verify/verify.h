/*
 * verify.h — the semantic verifier (symbolic) and the real-data executor.
 *
 * Both are sinks: they consume a schedule round by round and, at the end, compare the state with
 * the collective's required final state. Neither trusts the algorithm that made the schedule.
 */
#ifndef OC_VERIFY_H
#define OC_VERIFY_H

#include "core/core.h"

typedef struct oc__verifier oc__verifier;

int oc__verifier_new(const oc__spec *spec, oc__verifier **out, char *why, size_t whylen);
oc__sink *oc__verifier_sink(oc__verifier *v);
/* Checks the final state; OC_EVERIFY with the first missing chunk or contribution in `why`. */
int oc__verifier_finish(oc__verifier *v, char *why, size_t whylen);
/* Chunk deliveries to a node that already held the chunk (copy collectives): waste, not an error.
 */
uint64_t oc__verifier_redundant(const oc__verifier *v);
void oc__verifier_free(oc__verifier *v);

/* Real data: floats summed for reductions, bytes copied otherwise. */
typedef struct oc__datacheck oc__datacheck;

/* *out = NULL (and 0 returned) when the state would not fit in `budget_bytes` or the memory
 * budget; a round's staging past the memory budget is OC_ETOOBIG. */
int oc__datacheck_new(const oc__spec *spec, uint64_t budget_bytes, oc__datacheck **out, char *why,
                      size_t whylen);
oc__sink *oc__datacheck_sink(oc__datacheck *d);
int oc__datacheck_finish(oc__datacheck *d, char *why, size_t whylen);
void oc__datacheck_free(oc__datacheck *d);

#endif
