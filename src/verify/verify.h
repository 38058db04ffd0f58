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

/* Where a verifier failed, in the order a single pass meets failures: by round (UINT64_MAX for
 * the final state), then phase within the round, then the transfer's position in its round (or,
 * at the end, the node or block loop's index), then the chunk. Chunk-sharded verification
 * (pipeline.c) keeps the smallest key over its shards, which is the failure one pass over every
 * chunk reports first: each chunk's history is independent of the others'. */
typedef struct oc__verify_key {
    uint64_t round;
    uint32_t phase;
    uint64_t pos;
    uint32_t chunk;
} oc__verify_key;

/* Phases within a round. A failure of the source itself (the generator or the emitter) comes
 * before any sink's; the sinks after the verifier (data check, network model, exporters) after. */
enum {
    OC__VK_SOURCE = 0,
    OC__VK_CHECK = 1, /* a transfer's fields; for copies also a sender missing what it sends */
    OC__VK_ROUNDS = 2,
    OC__VK_READ = 3,
    OC__VK_WRITE = 4,
    OC__VK_BUDGET = 5,
    OC__VK_LATER_SINK = 6
};
#define OC__VK_END UINT64_MAX

/* -1, 0, 1 as a is before, the same as, or after b. */
int oc__verify_key_cmp(const oc__verify_key *a, const oc__verify_key *b);

int oc__verifier_new(const oc__spec *spec, oc__verifier **out, char *why, size_t whylen);
/* A shard: the verifier of chunks [lo, hi) only (0 <= lo < hi <= C), its state (cells, range
 * sets, staging) held within `budget` bytes. Transfers outside the window are not looked at; a
 * round of transfers whose oc__round.index is set names them by their position in the whole round.
 */
int oc__verifier_new_window(const oc__spec *spec, uint32_t lo, uint32_t hi, uint64_t budget,
                            oc__verifier **out, char *why, size_t whylen);
/* Makes v, a reduction's verifier, what oc__verifier_new_window would make for chunks [lo, hi)
 * with its budget, in the cells it holds (hi - lo at most the width it was made for): a pool
 * thread's shards reuse one verifier's memory instead of faulting new cells in (run/shard.c).
 * OC_EINVAL, v unchanged, when it cannot (a copy collective's, or too narrow a verifier). */
int oc__verifier_reuse(oc__verifier *v, uint32_t lo, uint32_t hi);
/* The key of the verifier's failure (valid after a non-zero return from its sink or finish). */
oc__verify_key oc__verifier_key(const oc__verifier *v);
/* The bytes of state a shard of `chunks` chunks starts with (the cells of a reduction, the
 * nodes' range sets of a copy), for sizing shards. */
uint64_t oc__verifier_state_bytes(const oc__spec *spec, uint32_t chunks);
/* The bytes of a whole verifier in the orbit state (oc__spec.orbit_*: the cells of orbit_stride
 * nodes), and whether the spec states a usable orbit whose state fits `budget`: then a verifier
 * of every chunk starts in it, and the plan runs one pass (run/shard.c). */
uint64_t oc__verifier_orbit_bytes(const oc__spec *spec);
int oc__verifier_orbit_fits(const oc__spec *spec, uint64_t budget);
oc__sink *oc__verifier_sink(oc__verifier *v);
/* Checks the final state; OC_EVERIFY with the first missing chunk or contribution in `why`. */
int oc__verifier_finish(oc__verifier *v, char *why, size_t whylen);
/* Chunk deliveries to a node that already held the chunk (copy collectives): waste, not an error.
 */
uint64_t oc__verifier_redundant(const oc__verifier *v);
/* Tests: keep every reduction set as a plain interval list (no periods looked for), the
 * verifier as it was before periodic sets; verdicts and first failures must not change. */
void oc__verifier_plain_sets(oc__verifier *v);
/* Tests (tests/test_rotation.c): `off` non-zero turns the rotation rounds' path off (verify.c,
 * "rotation rounds"), so that every plain round goes the plain way; and the rounds that path took
 * whole so far. */
void oc__verifier_rotation_off(oc__verifier *v, int off);
uint64_t oc__verifier_rotation_rounds(const oc__verifier *v);
/* Tests (tests/test_orbit_pieces.c): `off` non-zero makes the orbit state decline rounds of
 * several transfers a node (verify.c, "rounds of several pieces"), which then go the plain way;
 * and the rounds the orbit state took whole so far (of one transfer a node or several). */
void oc__verifier_pieces_off(oc__verifier *v, int off);
uint64_t oc__verifier_orbit_rounds(const oc__verifier *v);
void oc__verifier_free(oc__verifier *v);

/* A schedule read from a file (every round stored), checked before any verifier state is made,
 * since a few bytes of file can name 131072 nodes and a reduction's N x C cells:
 *   - too few chunk-transfers to be complete (min_units in verify.c) is a certain failure,
 *     OC_EVERIFY with both counts, when the verifier's state would pass OC__VERIFY_QUICK_BYTES
 *     (below, the verifier runs and names the first failure exactly, as cheaply);
 *   - a reduction of more than OC__FILE_MAX_STATES node-chunk states is OC_ETOOBIG (every cell
 *     is made and checked once, whatever the file holds: 14 s in release at the cap). */
#define OC__VERIFY_QUICK_BYTES (UINT64_C(64) << 20)
#define OC__FILE_MAX_STATES (UINT64_C(1) << 34)
int oc__verify_file_counts(const oc__spec *spec, const oc__store *store, const char *path,
                           char *why, size_t whylen);

/* Real data: floats summed for reductions, bytes copied otherwise. */
typedef struct oc__datacheck oc__datacheck;

/* *out = NULL (and 0 returned) when the state would not fit in `budget_bytes` or the memory
 * budget; a round's staging past the memory budget is OC_ETOOBIG. */
int oc__datacheck_new(const oc__spec *spec, uint64_t budget_bytes, oc__datacheck **out, char *why,
                      size_t whylen);
oc__sink *oc__datacheck_sink(oc__datacheck *d);
int oc__datacheck_finish(oc__datacheck *d, char *why, size_t whylen);
/* NULL, or (after finish) why the check did not run to the end: a run whose N x C state is past
 * the budget runs in the orbit state alone (node 0's chunks, data.c) and stops at a round that is
 * not invariant under the ring's rotation; its verdict is then none, and this says so. */
const char *oc__datacheck_skipped(const oc__datacheck *d);
/* Tests (tests/test_data_orbit.c): `off` non-zero keeps the check out of the orbit state (made
 * before the first round); and the rounds it took in the orbit so far. */
void oc__datacheck_orbit_off(oc__datacheck *d, int off);
uint64_t oc__datacheck_orbit_rounds(const oc__datacheck *d);
void oc__datacheck_free(oc__datacheck *d);

#endif
