/*
 * shard.h — chunk-sharded verification (shard.c; docs/scale.md).
 */
#ifndef OC_SHARD_H
#define OC_SHARD_H

#include "run/pipeline.h"
#include "verify/verify.h"

/* The bytes a transfer of a round costs while it is held: in the cost pass the round's buffer
 * (20) and the network model's per-transfer state (the ring's direction bit, arc lists,
 * fragments and check, ~26: docs/scale.md), with the verifier's shards beside it: measured 49 in
 * all on one-stage all-gather at 8192 nodes, 57 at 4096; in a verifier its staging (scope,
 * sorted, merge: 32). Upper bounds used to size passes and to refuse before generating. */
#define OC__ROUND_BYTES_PER_TRANSFER 60u
#define OC__VERIFY_BYTES_PER_TRANSFER 32u
/* A reduction whose state passes OC_VERIFY_SHARD_BYTES is cut into shards of this much state
 * (a quarter of it: a shard's cells and stamps then stay in the caches and its pages in the TLB;
 * ring all-reduce on 16384 nodes took 12% less CPU in shards of 21 MiB than of 84 MiB), until
 * there would be more than OC__SHARDS_SOFT of them; then they grow, up to their part of the
 * budget. The cap is for generators that cannot skip outside a window (re-run whole per shard:
 * bt, dbtree, wrht, whose schedules are O(N log N) transfers at most). */
#define OC__SHARD_BYTES (UINT64_C(8) << 20)
#define OC__SHARDS_SOFT 256u
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

/* Chooses the plan for `spec` from the memory budget and the knobs (the call's settings:
 * verify_shard, verify_threads). Refuses with OC_ETOOBIG and one line, before anything is
 * generated, when not even a one-chunk shard fits its share of the budget. */
int oc__shard_plan_for(const oc__spec *spec, oc__shard_plan *plan, char *why, size_t len);
/* Whether the largest round said ahead (spec->max_round) fits the memory budget beside a shard's
 * share, as oc__shard_plan_for asks first: 0, or OC_ETOOBIG and one line. The search asks it of
 * each candidate before generating it. */
int oc__shard_round_fits(const oc__spec *spec, char *why, size_t len);

/* Whether the work the plan counted fits the work budget (oc__work_check): its chunk-transfers
 * (spec->units) where its verifier works a set a chunk (not one of cells per label offset or
 * orbit), else its transfers (spec->transfers): 0, or
 * OC_ETOOBIG and one line naming the count, the budget and OPTICOLL_WORK_BUDGET (`shards` > 1 is
 * said in it). oc__shard_plan_for asks it; the search asks it of each candidate before it
 * generates it. */
int oc__shard_work_fits(const oc__spec *spec, uint32_t shards, char *why, size_t len);
/* The work oc__shard_work_fits holds to the budget (oc__work_of): a per-chunk reduction's
 * chunk-transfers, else the transfers; 0 where the plan stated none. */
uint64_t oc__shard_work(const oc__spec *spec);
/* Tells fn (NULL: nothing) the seconds the work on `spec` should take at the usual pace, from
 * the counts its plan stated: OC__PACE_TRANSFER_S a transfer generated and mapped (and verified
 * a range at a time), and where a verifier runs (`shards`: 0 for a search candidate, mapped
 * only; 1 for a run verified in its one pass; 2 in passes of its own) OC__PACE_MERGE_S a
 * chunk-transfer when it merges a set a chunk (a reduction) or works in passes of its own
 * (chunk windows); nothing where the plan stated nothing or its rounds are checked whole
 * (families: ring all-gather on 131072 nodes is 1.7e10 transfers and about a second). Told as
 * the one call of an OC_PROGRESS_AHEAD piece when it is at least a second (its answer is not
 * read: a stop is heard at the work's first report, as the callers' tests expect). */
void oc__work_ahead(const oc__spec *spec, uint32_t shards, oc_progress_fn fn, void *ctx);

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

/* ---- one run's shards split across processes (opticoll-cluster: MPI ranks) ----
 *
 * The library never calls MPI: the tool hands down a part, and the library calls its combine
 * back once this process's passes are done. Part `index` of `count` verifies the contiguous
 * share [index S / count, (index + 1) S / count) of the plan's S shards on its own pool, and part
 * 0 also runs the cost pass (the data check, the network model, the exporters, the counts), so
 * only part 0 can make the report. The plan is the same on every part (the same spec, budget and
 * knobs): the shards are numbered alike everywhere. */

/* What a part found, or (after combine) what the whole run found: the first failure (rc 0: none)
 * with its key and reason, the shards' redundant deliveries; the plan's shards and width, how
 * many shards this part verified (`ran`; summed by combine) and whether it ran the cost pass.
 * Opaque to the tools (opticoll.h: oc_part_result, read with oc_part_result_get). */
struct oc_part_result {
    int rc;
    oc__verify_key key;
    char why[512];
    uint64_t redundant;
    uint32_t shards, width, ran;
    int cost;
};
typedef struct oc_part_result oc__part_result;

/* The part (oc_part) and oc_part_merge are public (opticoll.h, where their contract is written):
 * the tool that splits a run across processes hands the part down in the run's settings
 * (oc_settings.part). While a part is set, every oc__verify_sharded on this thread runs only its
 * part and calls part->combine, and oc__shard_plan_for makes every run a separate pass of at least
 * `count` shards. */
typedef oc_part oc__part;
#define oc__part_merge oc_part_merge

/* The progress callback of the run on this thread (NULL, the default: none). While it is set,
 * oc__verify_sharded reports its shards as they are done ("verifier chunks": the chunks of the
 * windows verified, of this process's share): a sharded run's time is in its shards once the cost
 * pass has counted its rounds (SiPCO on 65536 nodes: the rounds done in seconds, the shards
 * minutes), and without them the caller could neither show progress nor say ahead that the work
 * will be long. */
void oc__set_shard_progress(oc_progress_fn fn, void *ctx);

#endif
