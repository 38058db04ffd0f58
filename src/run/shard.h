/*
 * shard.h — chunk-sharded verification (shard.c; docs/scale.md).
 */
#ifndef OC_SHARD_H
#define OC_SHARD_H

#include "run/pipeline.h"

/* The bytes a transfer of a round costs while it is held: in the cost pass the round's buffer
 * (20) and the network model's per-transfer state (the ring's arcs, fragments and check, measured
 * ~45 on one-stage all-gather, 65 in all on 4096 nodes); in a verifier its staging (scope, sorted,
 * merge: 32). Upper bounds used to size passes and to refuse before generating. */
#define OC__ROUND_BYTES_PER_TRANSFER 72u
#define OC__VERIFY_BYTES_PER_TRANSFER 32u
/* Shards are sized to OC_VERIFY_SHARD_BYTES until there would be more than this many; then they
 * grow, up to their part of the budget. */
#define OC__SHARDS_SOFT 64u
/* The same for a generator that skips outside a window (oc__spec.window_skips): a shard then
 * costs the transfers touching it, so small shards cost little more in all (rhd on 16384 nodes:
 * 37 s CPU in 64 shards of 530 MB or in 1092 of 32 MiB, 1.4 GB resident against 98 MB). */
#define OC__SHARDS_SOFT_SKIPPING 1024u
/* From this many (node, chunk) states on, verification runs in passes of its own. */
#define OC__SEPARATE_STATES (UINT64_C(1) << 16)

/* How a schedule's verification is cut: `shards` chunk windows of `width` chunks (the last one
 * shorter), sized to `target` bytes of state each, every verifier held within `share` bytes (its
 * part of the budget), run on `threads` threads beside the cost pass. separate == 0: one pass,
 * the verifier in the chain before the network model (small runs, one thread). */
typedef struct oc__shard_plan {
    uint32_t shards, width;
    int separate;
    unsigned threads;
    uint64_t share, target;
} oc__shard_plan;

/* Chooses the plan for `spec` from the memory budget and the knobs (oc_set_verify_shard,
 * oc_set_verify_threads). Refuses with OC_ETOOBIG and one line, before anything is generated,
 * when not even a one-chunk shard fits its share of the budget. */
int oc__shard_plan_for(const oc__spec *spec, oc__shard_plan *plan, char *why, size_t len);

/* What a sharded run hands back: the counts of the cost pass and the shards' waste. */
typedef struct oc__shard_out {
    uint64_t rounds, transfers, units, redundant;
} oc__shard_out;

/* Runs `source` once whole into `cost` (the data check, network model and exporters; NULL: none)
 * and once per shard into a verifier of the shard's chunks (the emitter keeps only the transfers
 * touching them), on plan->threads threads, and checks each shard's final state. Returns the
 * failure one pass would meet first (oc__verify_key order), or 0 with *out filled. */
int oc__verify_sharded(const oc__spec *spec, oc__source source, void *source_arg,
                       const oc__shard_plan *plan, oc__sink *cost, oc__shard_out *out, char *why,
                       size_t len);

#endif
