/*
 * shard.c — chunk-sharded verification (docs/scale.md).
 *
 * A reduction's verifier keeps one cell per (node, chunk): ring all-reduce on 65536 nodes would
 * need 4.3e9 cells, 86 GB. But each chunk's history is independent of every other chunk's: a
 * transfer of chunks [a, b) reads and writes the cells of those chunks only, and the final check
 * looks at each chunk alone. So the chunks are cut into windows (shards) and each shard is
 * verified on its own: the schedule is generated again for it (rounds stream, nothing is
 * stored), the emitter keeps only the transfers touching the window (a generator that knows its
 * structure skips the rest without making them, oc__emit_skip), and the shard's verifier holds
 * N x width cells. One more pass, the cost pass, runs the schedule whole through the data check,
 * the network model and the exporters, and counts it. All passes are jobs of the library's one
 * thread pool; at most `threads` run at once, so memory is `threads` shares of the budget plus
 * the cost pass's round, not the whole schedule's state.
 *
 * Same verdict, same first error as one pass: every failure carries its key (verify.h: round,
 * phase, position in the round, chunk), the position being the transfer's place in the WHOLE
 * round (the windowed emitter keeps it), and the smallest key over the passes is the failure one
 * pass over all chunks meets first. A pass stops once it is past the round of the smallest
 * failure found so far (it cannot beat it), so a wrong schedule costs little more than one pass.
 * A shard whose state grows past its share (contribution sets that fragment) is split in two and
 * run again, down to one chunk. A reduction's verifier is kept from one shard to the next and
 * reset in place (oc__verifier_reuse): `threads` of them serve every shard, so the kernel faults
 * a shard's cells in once per thread, not once per shard.
 *
 * Across processes (opticoll-cluster's MPI ranks), the same argument splits one run: each
 * process is a part (oc_settings.part) that verifies a contiguous share of the shards on its own
 * pool, part 0 also runs the cost pass, and the tool's combine callback (the only place MPI is
 * called, on the thread that started the run) keeps the smallest key over the parts, so the key
 * travels with its reason. The library never learns how the parts talk.
 *
 * Refused in the plan, before anything is generated or allocated: a largest round (spec.max_round)
 * past the budget; a copy collective's state (it does not shrink with a window: an all-to-all's
 * nodes start with N ranges each) past the budget or a separate pass's share; and a reduction of
 * more node-chunk cells than OC_MAX_TRANSFERS, which no sharding makes quick (each cell is made
 * and checked once: an 81-byte file can name 1.7e13 of them).
 */
#include "run/shard.h"
#include "core/pool.h"
#include "core/progress.h"
#include "verify/verify.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sink's "stop, another pass already failed earlier": positive, so never an oc_errno. */
enum { STOPPED = 1 };

typedef struct slot {
    int rc; /* 0, or the pass's first failure */
    oc__verify_key key;
    char why[512];
    uint64_t redundant;
    oc__shard_out counts; /* the cost pass's */
} slot;

/* A verifier kept from one shard to the next (oc__verifier_reuse): a shard's cells were
 * allocated, faulted in by the kernel and given back each time, which was half of hring's CPU on
 * 65536 nodes (shards of 336 MB). At most `threads` jobs run at once, so `threads` of them serve
 * every shard; a job takes a free one and gives it back. */
typedef struct kept {
    _Atomic int busy;
    oc__verifier *v;
} kept;

typedef struct shard_run {
    const oc__spec *spec;
    oc__source source;
    void *arg;
    const oc__shard_plan *plan;
    oc__sink *cost;
    slot *slots;           /* [0] the cost pass, [1 + k] shard first + k */
    _Atomic uint64_t stop; /* the smallest round a pass failed in so far (UINT64_MAX: none) */
    uint32_t first;        /* the first shard this process verifies (a part's share) */
    int with_cost;         /* 1 when this process runs the cost pass (job 0) */
    kept *kept;            /* plan->threads of them (NULL: none, every shard allocates) */
    oc__progress progress; /* the chunks verified, for the run's progress callback */
    /* 1: the progress counts the shards' chunk-transfers round by round, against the plan's
     * count (oc__spec.units), not whole shards' chunks. A shard of SiPCO r=2 on 65536 nodes is
     * 1.3 GB and 20 s: counted in chunks, the first word of how long the run takes came after
     * the first shard ended; counted in its rounds' work, it comes within the CLI's first
     * second, and its pace is the work's, the rounds being of very unequal sizes. */
    int by_units;
} shard_run;

/* A free kept verifier slot, or NULL. */
static kept *take_kept(shard_run *run) {
    for (unsigned i = 0; run->kept && i < run->plan->threads; i++) {
        int idle = 0;
        if (atomic_compare_exchange_strong(&run->kept[i].busy, &idle, 1)) return &run->kept[i];
    }
    return NULL;
}

/* Gives the slot back holding v (NULL: none); without a slot, v is freed. */
static void give_kept(kept *k, oc__verifier *v) {
    if (!k) {
        oc__verifier_free(v);
        return;
    }
    k->v = v;
    atomic_store(&k->busy, 0);
}

/* The first sink of every pass: stops it once it is past the earliest failure found. */
typedef struct stop_sink {
    oc__sink sink;
    shard_run *run;
    uint64_t reached; /* 1 + the last round that got past this sink (the cost pass's marker) */
    int shard;        /* a verifier shard's pass of chunks [lo, hi), not the cost pass */
    uint32_t lo, hi;
} stop_sink;

/* The chunk-transfers of round r inside chunks [lo, hi): a shard's share of the round's work. The
 * shards' windows cut the chunks into pieces, so their shares add up to the plan's count. */
static uint64_t units_in(const oc__round *r, uint32_t lo, uint32_t hi) {
    if (r->is_family) {
        const oc__family *f = &r->family;
        const uint64_t a = f->first, b = a + (uint64_t)f->n * f->width;
        /* every block of the family lies in [a, b): a window over all of it (the only windows
         * that see a family whole) takes n x width */
        return lo <= a && b <= hi ? (uint64_t)f->n * f->width : 0;
    }
    uint64_t units = 0;
    for (size_t i = 0; i < r->count; i++) {
        const uint64_t a = r->xfers[i].first, b = a + r->xfers[i].count;
        const uint64_t from = a > lo ? a : lo, to = b < hi ? b : hi;
        if (to > from) units += to - from;
    }
    return units;
}

static int stop_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)why, (void)len;
    stop_sink *s = (stop_sink *)self;
    if (index > atomic_load(&s->run->stop)) return STOPPED;
    s->reached = index + 1;
    /* a stop asked here is heard by the loops' polls and at the window's end */
    if (s->shard && s->run->by_units)
        (void)oc__progress_add_n(&s->run->progress, units_in(r, s->lo, s->hi));
    return 0;
}

/* Keeps (rc, key, why) in the slot when it comes before what the slot holds, and lowers the
 * round the other passes may stop after. */
static void record(shard_run *run, slot *sl, int rc, oc__verify_key key, const char *why) {
    if (sl->rc && oc__verify_key_cmp(&key, &sl->key) >= 0) return;
    sl->rc = rc;
    sl->key = key;
    snprintf(sl->why, sizeof sl->why, "%s", why);
    uint64_t cur = atomic_load(&run->stop);
    while (key.round < cur && !atomic_compare_exchange_weak(&run->stop, &cur, key.round)) {
    }
}

static int cost_pass(shard_run *run, slot *sl) {
    /* reads no transfer: takes families */
    stop_sink stop = {{stop_round, run->cost, 1}, run, 0, 0, 0, 0};
    oc__emit e;
    oc__emit_init(&e, run->spec, &stop.sink, sl->why, sizeof sl->why);
    int rc = run->source(run->arg, &e);
    if (rc && rc != STOPPED) {
        /* Failed in round e.rounds: in the generator (before any sink saw the round) or in a
         * sink after the verifier's place (the data check, the model, an exporter). */
        const uint32_t phase = stop.reached == e.rounds + 1 ? OC__VK_LATER_SINK : OC__VK_SOURCE;
        char why[sizeof sl->why];
        memcpy(why, sl->why, sizeof why);
        sl->rc = 0;
        record(run, sl, rc, (oc__verify_key){e.rounds, phase, 0, 0}, why);
    }
    sl->counts = (oc__shard_out){e.rounds, e.transfers, e.units, 0};
    oc__emit_free(&e);
    return 0;
}

/* Verifies chunks [lo, hi) into the slot; halves the window and tries again when the state
 * grows past the share. */
static void verify_window(shard_run *run, slot *sl, uint32_t lo, uint32_t hi) {
    char why[sizeof sl->why] = "";
    kept *k = take_kept(run);
    oc__verifier *v = k ? k->v : NULL;
    oc__verify_key key = {0, OC__VK_SOURCE, 0, 0};
    int rc = 0;
    if (v && oc__verifier_reuse(v, lo, hi)) {
        oc__verifier_free(v); /* too narrow, or a copy collective's */
        v = NULL;
    }
    if (!v) rc = oc__verifier_new_window(run->spec, lo, hi, run->plan->share, &v, why, sizeof why);
    if (!rc) {
        stop_sink stop = {{stop_round, oc__verifier_sink(v), 1}, run, 0, 1, lo, hi};
        oc__emit e;
        oc__emit_init(&e, run->spec, &stop.sink, why, sizeof why);
        e.shard_pass = 1; /* the cost pass counts the rounds; this one is not counted */
        /* a window of every chunk keeps every transfer: the emitter is left whole, so that a
         * generator's whole-ring rounds stay families (core.h) the verifier takes in O(1) */
        if (lo > 0 || hi < run->spec->chunks) oc__emit_window(&e, lo, hi);
        rc = run->source(run->arg, &e);
        if (rc == STOPPED) {
            rc = 0;
        } else if (rc) {
            key = oc__verifier_key(v);
            /* a key left at phase 0 was not the verifier's: the generator failed */
            if (key.phase == OC__VK_SOURCE) key = (oc__verify_key){e.rounds, OC__VK_SOURCE, 0, 0};
        } else if ((rc = oc__verifier_finish(v, why, sizeof why))) {
            key = oc__verifier_key(v);
        }
        oc__emit_free(&e);
    } else if (rc == OC_ETOOBIG) {
        key.phase = OC__VK_BUDGET;
    }
    /* only a reduction's state shrinks with its window (a copy's range sets do not) */
    if (rc == OC_ETOOBIG && key.phase == OC__VK_BUDGET && hi - lo > 1 &&
        oc_collective_reduces(run->spec->coll)) {
        /* its cells are the whole window's: the halves start afresh within their share */
        oc__verifier_free(v);
        give_kept(k, NULL);
        const uint32_t mid = lo + (hi - lo) / 2;
        verify_window(run, sl, lo, mid);
        verify_window(run, sl, mid, hi);
        return;
    }
    if (rc)
        record(run, sl, rc, key, why);
    else
        sl->redundant += oc__verifier_redundant(v);
    give_kept(k, v);
    /* the window's chunks are verified (a window split in two counts its halves instead; counted
     * by units, its rounds were); a caller that asks to stop stops every pass */
    if (run->by_units ? oc__progress_poll(&run->progress)
                      : oc__progress_add_n(&run->progress, hi - lo))
        record(run, sl, OC_ECANCELED, (oc__verify_key){0, OC__VK_SOURCE, 0, 0},
               "cancelled during the verifier's shards");
}

static int job(size_t i, void *ctx) {
    shard_run *run = ctx;
    /* a pass's loops inside one round poll the shards' progress (the caller's callback): a stop
     * is heard inside a round of millions of transfers, in the cost pass as in a shard */
    oc__progress *const watched = oc__stop_watch(&run->progress);
    int rc = 0;
    if (run->with_cost && i == 0) {
        rc = cost_pass(run, &run->slots[0]);
    } else {
        const uint32_t k = run->first + (uint32_t)(i - (size_t)run->with_cost),
                       w = run->plan->width;
        const uint32_t lo = k * w, hi = lo + w < run->spec->chunks ? lo + w : run->spec->chunks;
        verify_window(run, &run->slots[i], lo, hi);
    }
    oc__stop_watch(watched);
    return rc;
}

/* The progress callback this thread's runs report their shards to (oc__set_shard_progress). */
static _Thread_local struct {
    oc_progress_fn fn;
    void *ctx;
} shard_progress_now;

void oc__set_shard_progress(oc_progress_fn fn, void *ctx) {
    shard_progress_now.fn = fn;
    shard_progress_now.ctx = ctx;
}

/* A run split across parts is verified in passes of its own, in at least as many shards as
 * there are parts (while there are chunks), so that every part has a share: smaller shards are
 * also less memory a process. */
static void plan_part(uint32_t chunks, oc__shard_plan *plan) {
    const oc__part *part_now = oc__settings_part();
    if (!part_now || part_now->count < 2) return;
    plan->separate = 1;
    const uint32_t want = part_now->count < chunks ? part_now->count : chunks;
    if (plan->shards >= want) return;
    plan->width = chunks / want; /* rounded down: at least `want` shards */
    plan->shards = (uint32_t)oc__ceil_div(chunks, plan->width);
}

int oc__shard_round_fits(const oc__spec *spec, char *why, size_t len) {
    const uint64_t budget = oc__memory_budget(), share = budget / (oc__verify_threads() + 1);
    const uint64_t target = share < OC_VERIFY_SHARD_BYTES ? share : OC_VERIFY_SHARD_BYTES;
    /* max_round * bytes, compared without overflow (an algorithm's bound may be huge) */
    if (!spec->max_round || spec->max_round <= (budget - target) / OC__ROUND_BYTES_PER_TRANSFER)
        return 0;
    char need[32], have[32];
    const double bytes = (double)spec->max_round * OC__ROUND_BYTES_PER_TRANSFER + (double)target;
    oc__format_bytes(need, sizeof need, bytes < 1.8e19 ? (uint64_t)bytes : UINT64_MAX);
    oc__format_bytes(have, sizeof have, budget);
    return oc__fail(why, len, OC_ETOOBIG,
                    "%s on %u nodes has a round of up to %llu transfers: needs %s (%u bytes a "
                    "transfer to generate, verify and map it), more than the memory budget of "
                    "%s (set OPTICOLL_MEMORY_BUDGET_MIB)",
                    oc_collective_name(spec->coll), spec->nodes,
                    (unsigned long long)spec->max_round, need,
                    (unsigned)OC__ROUND_BYTES_PER_TRANSFER, have);
}

/* Whether a reduction's verifier holds one cell per label offset (rounds that are families of
 * every node) or per orbit instead of N x C cells: one pass, no shards. */
static int cells_per_offset(const oc__spec *spec, uint64_t share) {
    return (spec->families && spec->nodes >= 2 && spec->chunks % spec->nodes == 0) ||
           oc__verifier_orbit_fits(spec, share);
}

/* Whether a reduction's verifier will merge a contribution set a chunk a transfer carries: not
 * in cells per label offset or orbit, which take a family round whole (forced shards, a test's
 * knob, verify cell by cell). */
static int verifies_per_chunk(const oc__spec *spec) {
    const uint64_t share = oc__memory_budget() / (oc__verify_threads() + 1);
    return oc__verify_shard() || !cells_per_offset(spec, share);
}

int oc__shard_work_fits(const oc__spec *spec, uint32_t shards, char *why, size_t len) {
    return oc__work_check(spec, verifies_per_chunk(spec), shards, why, len);
}

uint64_t oc__shard_work(const oc__spec *spec) {
    return oc__work_of(spec, verifies_per_chunk(spec));
}

/* The usual pace, for a word ahead of long work (not a bound: the fast paths differ by orders of
 * magnitude). Measured on the project's 2-core machine (CPU time at load 21): pairwise
 * all-to-all on the switch, N = 4096, 1.7e7 transfers in 5.7 s (3.4e-7 s each); the stride
 * all-gather on the ring, N = 8192, 1.6e6 in 0.14 s; dbtree on the switch, 1.0e6 in 0.11 s:
 * about 1e-7 s a transfer. A reduction verified a set a chunk adds its merges: 6e-8 s a
 * chunk-transfer (SiPCO at 4096 nodes, core/budget.c). */
#define OC__PACE_TRANSFER_S 1e-7
#define OC__PACE_MERGE_S 6e-8
/* A copy verified in a pass of its own adds a range a transfer to its receiver's range set,
 * whatever the chunks the range holds: its pass costs its transfers again (the schedule is
 * generated again for it), not its chunk-transfers. Costed a chunk-transfer (1e-9 s each),
 * tcp1-split's broadcast on 131072 nodes (2.7e11 chunk-transfers stated, 6.6e6 transfers) was
 * told "about 5 min" ahead of a run of 6.6 s of CPU; the stride all-gather on 65536 nodes (3.3e7
 * transfers, 4.3e9 chunk-transfers) takes 4.8-6.2 s and is told nothing (6.7 s), on 131072 nodes
 * 47 s of CPU and "about 55 s". */
static double work_seconds(const oc__spec *spec, uint32_t shards) {
    if (spec->families && spec->nodes >= 2 && spec->chunks % spec->nodes == 0) return 0;
    /* a reduction verified a set a chunk merges; a copy verified in passes of its own generates
     * its transfers once more */
    const int reduces = oc_collective_reduces(spec->coll);
    const int merges = (shards > 1 || (shards && verifies_per_chunk(spec))) && reduces;
    const int copies = shards > 1 && !reduces;
    return (double)spec->transfers * OC__PACE_TRANSFER_S * (copies ? 2 : 1) +
           (merges ? (double)spec->units * OC__PACE_MERGE_S : 0);
}

void oc__work_ahead(const oc__spec *spec, uint32_t shards, oc_progress_fn fn, void *ctx) {
    const double s = fn ? work_seconds(spec, shards) : 0;
    if (s < 1) return;
    const uint64_t secs = s < 1e15 ? (uint64_t)s : (uint64_t)1e15;
    (void)fn(ctx, OC_PROGRESS_AHEAD, secs, secs);
}

int oc__shard_plan_for(const oc__spec *spec, oc__shard_plan *plan, char *why, size_t len) {
    const uint32_t C = spec->chunks, forced = oc__verify_shard();
    const uint64_t budget = oc__memory_budget();
    plan->threads = oc__verify_threads();
    /* Each of the threads' shards and the cost pass get an equal share of the budget, and a shard
     * is sized to at most OC_VERIFY_SHARD_BYTES (small shards stay in cache and keep the resident
     * size low; the generator's re-runs are the price, small for windowed generators). */
    plan->share = budget / (plan->threads + 1);
    plan->target = plan->share < OC_VERIFY_SHARD_BYTES ? plan->share : OC_VERIFY_SHARD_BYTES;
    plan->separate = 0;
    plan->shards = 1;
    plan->width = C;
    char need[32], have[32];
    oc__format_bytes(have, sizeof have, budget);
    /* The cost pass holds the largest round whole (the network model maps a round at once):
     * refused here, before anything is generated, when the algorithm's bound on it passes the
     * budget. */
    const uint64_t round_bytes = spec->max_round * OC__ROUND_BYTES_PER_TRANSFER;
    int rc = oc__shard_round_fits(spec, why, len);
    if (rc) return rc;
    /* A copy collective's verifier state does not shrink with its window (every node keeps its
     * range set; an all-to-all's starts with N ranges a node): it is checked whole, here,
     * before anything is generated or allocated, against the budget beside the round. */
    const uint64_t copy_state =
        oc_collective_reduces(spec->coll) ? 0 : oc__verifier_state_bytes(spec, C);
    if (copy_state && copy_state + (spec->max_round ? round_bytes : 0) > budget) {
        char round[64] = "";
        if (spec->max_round)
            snprintf(round, sizeof round, " and a round of up to %llu transfers",
                     (unsigned long long)spec->max_round);
        oc__format_bytes(need, sizeof need, copy_state + (spec->max_round ? round_bytes : 0));
        return oc__fail(why, len, OC_ETOOBIG,
                        "verifying %s on %u nodes with %u chunks%s needs %s, more than the "
                        "memory budget of %s (set OPTICOLL_MEMORY_BUDGET_MIB)",
                        oc_collective_name(spec->coll), spec->nodes, C, round, need, have);
    }
    if (forced) {
        plan->width = forced < C ? forced : C;
    } else if (oc_collective_reduces(spec->coll)) {
        /* Time as well as memory: every (node, chunk) cell is made, started and checked once
         * whatever the shards, so a reduction of more cells than OC_MAX_TRANSFERS (hours, as
         * for transfers) is refused before the first shard; a schedule file of a few bytes can
         * name 131072 nodes x 1.3e8 chunks. */
        const uint64_t cells = (uint64_t)spec->nodes * C;
        if (cells > OC_MAX_TRANSFERS)
            return oc__fail(why, len, OC_ETOOBIG,
                            "verifying %s on %u nodes with %u chunks is %llu node-chunk states, "
                            "more than the %llu this tool verifies",
                            oc_collective_name(spec->coll), spec->nodes, C,
                            (unsigned long long)cells, (unsigned long long)OC_MAX_TRANSFERS);
        /* Rounds that are families (oc__spec.families): the verifier holds one cell per label
         * offset (verify.c, "Uniform reductions"), not these cells: one pass, no shards. */
        const int families = cells_per_offset(spec, plan->share);
        /* one chunk's cells, and the heap its contribution sets fragment to (oc__spec) */
        const uint64_t per = oc__verifier_state_bytes(spec, 1) + spec->chunk_heap;
        /* a one-chunk shard: its cells, and as much again for a round's staging and growth */
        if (!families && 2 * per > plan->target && plan->target < plan->share) {
            /* The budget would hold it: what binds is the shard size (OC_VERIFY_SHARD_BYTES),
             * which a reduction's shards are held to, each generating the schedule again. */
            char cap[32];
            oc__format_bytes(need, sizeof need, 2 * per);
            oc__format_bytes(cap, sizeof cap, plan->target);
            return oc__fail(why, len, OC_ETOOBIG,
                            "verifying %s on %u nodes needs %s for one chunk (its %u node "
                            "states%s, twice for a round's staging), more than the verifier's "
                            "shard size of %s (not a memory budget: a larger budget does not "
                            "change it)",
                            oc_collective_name(spec->coll), spec->nodes, need, spec->nodes,
                            spec->chunk_heap ? " with their fragmented contributor sets" : "",
                            cap);
        }
        if (!families && 2 * per > plan->target) {
            oc__format_bytes(need, sizeof need, 2 * per * (plan->threads + 1));
            return oc__fail(why, len, OC_ETOOBIG,
                            "verifying %s on %u nodes needs %s (twice one chunk's %u node states%s, "
                            "on each of %u threads and the cost pass), more than the memory budget "
                            "of %s (set OPTICOLL_MEMORY_BUDGET_MIB)",
                            oc_collective_name(spec->coll), spec->nodes, need, spec->nodes,
                            spec->chunk_heap ? " with their fragmented contributor sets" : "",
                            plan->threads, have);
        }
        const uint64_t state = per * C;
        if (!families && state > plan->target) {
            /* Small shards (OC__SHARD_BYTES: cache-sized), but not more than OC__SHARDS_SOFT of
             * them while the budget allows bigger: a generator that cannot skip outside a window
             * is re-run whole per shard (one that can still visits the senders of its wide
             * transfers in every shard, so it may have OC__SHARDS_SOFT_SKIPPING). Many small
             * shards also even out the threads' ends: the cost pass is one job, the shards fill
             * the other thread and then both. */
            const uint64_t soft = spec->window_skips ? OC__SHARDS_SOFT_SKIPPING : OC__SHARDS_SOFT;
            uint64_t size = plan->target < OC__SHARD_BYTES ? plan->target : OC__SHARD_BYTES;
            if (state / soft > size) size = state / soft < plan->share ? state / soft : plan->share;
            const uint64_t w = size / per;
            plan->width = w < C ? (uint32_t)w : C;
        }
    } else if (spec->max_round * OC__VERIFY_BYTES_PER_TRANSFER > plan->target) {
        /* A copy collective's state is small, but a huge round's staging is not: shards see
         * only their window's part of it. */
        const uint64_t shards =
            oc__ceil_div(spec->max_round * OC__VERIFY_BYTES_PER_TRANSFER, plan->target);
        plan->width = (uint32_t)oc__ceil_div(C, shards < C ? shards : C);
    }
    plan->shards = (uint32_t)oc__ceil_div(C, plan->width);
    plan->width = (uint32_t)oc__ceil_div(C, plan->shards); /* even widths */
    /* Time as well as memory, in the work the plan counted: a reduction's verifier merges a
     * contribution set for every chunk a transfer carries, whatever the shards (SiPCO r=2 on
     * 65536 nodes: 1.4e11 of them in 1024 shards of 1.3 GB, within the memory budget and hours
     * long; it said so only after its first shard, 20 s and 2.2 GB in). */
    if ((rc = oc__shard_work_fits(spec, plan->shards, why, len))) return rc;
    /* With threads to spare, a large run verifies in a pass of its own beside the cost pass
     * (generation twice, in parallel: ring all-gather on 4096 nodes in about half the time). */
    plan->separate = plan->shards > 1 || forced ||
                     (plan->threads > 1 && (uint64_t)spec->nodes * C >= OC__SEPARATE_STATES);
    plan_part(C, plan);
    /* A separate pass holds a copy's whole state in its share: past it, refused now (the
     * verifier refused the same in round 0, after making it: 2 GiB for all-to-all on 16384). */
    if (copy_state > plan->share && plan->separate) {
        char share[32];
        oc__format_bytes(need, sizeof need, copy_state);
        oc__format_bytes(share, sizeof share, plan->share);
        return oc__fail(why, len, OC_ETOOBIG,
                        "verifying %s on %u nodes needs %s (every node's held chunk ranges), more "
                        "than its pass's share %s of the memory budget of %s (set "
                        "OPTICOLL_MEMORY_BUDGET_MIB)",
                        oc_collective_name(spec->coll), spec->nodes, need, share, have);
    }
    return 0;
}

void oc_part_merge(const oc_part_result *all, unsigned count, oc_part_result *out) {
    memset(out, 0, sizeof *out);
    const oc__part_result *plan = NULL, *first = NULL;
    unsigned reached = 0;
    for (unsigned i = 0; i < count; i++) {
        const oc__part_result *p = &all[i];
        out->redundant += p->redundant;
        out->ran += p->ran;
        out->cost += p->cost;
        if (p->rc && (!first || oc__verify_key_cmp(&p->key, &first->key) < 0)) first = p;
        if (!p->shards) continue; /* it failed before its passes */
        reached++;
        if (!plan) plan = p;
        if (p->shards != plan->shards || p->width != plan->width) {
            oc__fail(out->why, sizeof out->why, OC_EINVAL,
                     "the processes planned different shards (part %u: %u of %u chunks, part %u: "
                     "%u of %u chunks): give every process the same memory budget and settings",
                     (unsigned)(plan - all), plan->shards, plan->width, i, p->shards, p->width);
            out->rc = OC_EINVAL;
            return;
        }
    }
    if (plan) {
        out->shards = plan->shards;
        out->width = plan->width;
    }
    if (first) {
        out->rc = first->rc;
        out->key = first->key;
        snprintf(out->why, sizeof out->why, "%s", first->why);
    } else if (reached < count || out->ran != out->shards || out->cost != 1) {
        out->rc = oc__fail(out->why, sizeof out->why, OC_EINVAL,
                           "internal: %u of %u parts verified %u of %u shards, %d cost passes",
                           reached, count, out->ran, out->shards, out->cost);
    }
}

/* This process's part done: hands its result to part->combine and takes back the whole run's. */
static int combine_part(oc__part *part, const oc__shard_plan *plan, int with_cost, uint32_t ran,
                        oc__part_result *r) {
    r->shards = plan->shards;
    r->width = plan->width;
    r->ran = ran;
    r->cost = with_cost;
    part->combined++;
    int rc = part->combine(part, r);
    if (rc) {
        r->rc = rc;
        r->key = (oc__verify_key){0, OC__VK_SOURCE, 0, 0};
    }
    return rc;
}

int oc__verify_sharded(const oc__spec *spec, oc__source source, void *source_arg,
                       const oc__shard_plan *plan, oc__sink *cost, oc__shard_out *out, char *why,
                       size_t len) {
    memset(out, 0, sizeof *out);
    /* A part of a split run verifies its share of the shards, and part 0 runs the cost pass. */
    oc__part *part_now = oc__settings_part();
    oc__part *part = part_now && part_now->count > 1 ? part_now : NULL;
    uint32_t lo = 0, hi = plan->shards;
    if (part) {
        lo = (uint32_t)((uint64_t)plan->shards * part->index / part->count);
        hi = (uint32_t)((uint64_t)plan->shards * (part->index + 1) / part->count);
    }
    const int with_cost = !part || part->index == 0;
    const size_t jobs = (size_t)(hi - lo) + (size_t)with_cost;
    shard_run run = {.spec = spec,
                     .source = source,
                     .arg = source_arg,
                     .plan = plan,
                     .cost = cost,
                     .stop = UINT64_MAX,
                     .first = lo,
                     .with_cost = with_cost};
    /* without room to keep verifiers each shard allocates its own, as it may */
    run.kept = oc__calloc(plan->threads ? plan->threads : 1, sizeof(kept));
    oc__part_result r;
    memset(&r, 0, sizeof r);
    int rc = 0;
    run.slots = oc__calloc(jobs ? jobs : 1, sizeof(slot));
    const uint64_t share_lo = (uint64_t)lo * plan->width, share_hi = (uint64_t)hi * plan->width;
    /* A part's share of the units is not known ahead: parts count their chunks. A copy counts
     * its chunks too: its verifier adds a range a transfer, so its time goes with the transfers
     * each shard generates (every shard's about the same), not with the chunks they carry. The
     * stride all-gather on 65536 nodes carries 0.4% of its chunk-transfers in its first 128 rounds
     * and the rest in the last 128, in rounds of equal transfers: counted in chunk-transfers, its
     * first second's pace told the CLI "over 29 min" of a run of 4.8 s. */
    run.by_units = spec->units && !part && oc_collective_reduces(spec->coll);
    if (run.by_units)
        oc__progress_begin(&run.progress, shard_progress_now.fn, shard_progress_now.ctx,
                           "verifier chunk-transfers", spec->units);
    else
        oc__progress_begin(&run.progress, shard_progress_now.fn, shard_progress_now.ctx,
                           "verifier chunks",
                           (share_hi < spec->chunks ? share_hi : spec->chunks) - share_lo);
    if (!run.slots)
        rc = oc__fail(r.why, sizeof r.why, OC_ENOMEM, "out of memory");
    else if ((rc = oc__pool_run(jobs, plan->threads, job, &run, NULL)))
        rc = oc__fail(r.why, sizeof r.why, rc, "could not run the verifier's shards");
    oc__progress_end(&run.progress);
    if (rc) {
        /* this process could not run its passes: a failure before any round */
        r.rc = rc;
    } else {
        const slot *first = NULL;
        for (size_t i = 0; i < jobs; i++) {
            const slot *sl = &run.slots[i];
            if (sl->rc && (!first || oc__verify_key_cmp(&sl->key, &first->key) < 0)) first = sl;
            r.redundant += sl->redundant;
        }
        if (first) {
            r.rc = first->rc;
            r.key = first->key;
            snprintf(r.why, sizeof r.why, "%s", first->why);
        }
    }
    if (part) combine_part(part, plan, with_cost, hi - lo, &r);
    if (with_cost && run.slots) {
        out->rounds = run.slots[0].counts.rounds;
        out->transfers = run.slots[0].counts.transfers;
        out->units = run.slots[0].counts.units;
    }
    out->redundant = r.redundant;
    free(run.slots);
    for (unsigned i = 0; run.kept && i < plan->threads; i++)
        oc__verifier_free(run.kept[i].v);
    free(run.kept);
    if (r.rc) return oc__fail(why, len, r.rc, "%s", r.why);
    if (!with_cost)
        return oc__fail(why, len, OC_ENOTSUP,
                        "part %u of %u verified its shards: the report is part 0's (it ran the "
                        "cost pass)",
                        part->index, part->count);
    return 0;
}

size_t oc_part_result_size(void) {
    return sizeof(oc_part_result);
}

void oc_part_result_get(const oc_part_result *r, oc_part_info *out) {
    *out = (oc_part_info){.rc = r->rc,
                          .why = r->why,
                          .shards = r->shards,
                          .width = r->width,
                          .ran = r->ran,
                          .cost = r->cost};
}

void oc_part_result_fail(oc_part_result *r, int rc, const char *why) {
    memset(r, 0, sizeof *r);
    r->rc = rc;
    snprintf(r->why, sizeof r->why, "%s", why ? why : "");
}
