/*
 * executor.c — the MPI executor (libopticoll_mpi): runs the very schedule the verifier and the
 * network model see (ARCHITECTURE.md) on real MPI processes, one rank per node.
 *
 * Planning (once per collective, algorithm, communicator size, rank, root and size; cached):
 * the algorithm's generate() streams its rounds through the semantic verifier, the real-data
 * check and the resource check of a network model (`switch` when the algorithm runs there, else
 * the first network it names), and an oc__store keeps them. The rank then compiles its own part:
 * for every round, one message per (peer, direction, op) — a rank's transfers to one peer in one
 * round are concatenated, and adjacent byte ranges merge, so a contiguous range is one segment.
 * A chunk label becomes bytes of the user's buffers as the collective spec (core.h) defines:
 * block b of the block collectives is node block_node[b]'s block, all-to-all label
 * ((d*N + s)*q + p) is piece p of what s sends d, all-reduce and broadcast labels are pieces of
 * the one vector. Pieces split unevenly (opticoll_mpi.h). Every byte range lives in one of three
 * regions: R (the receive buffer, or the work vector of reduce-scatter), S (the rank's own send
 * data) and X (scratch for data a rank only relays).
 *
 * Execution follows the schedule's synchronous rounds: pack the sends that have several
 * segments, post every receive, post every send, MPI_Waitall, then unpack staged receives and
 * apply reductions (MPI_Reduce_local, MPI's own kernel for the op and type). A round reads the
 * state at its start: a reduction is received into a staging buffer, and a copy is received in
 * place only when it overlaps none of the rank's sends of that round (else it is staged too).
 * Messages travel on a duplicate of the user's communicator, tagged by round, so they can never
 * match the application's own messages.
 */
#include "core/quote.h"
#include "opticoll_mpi.h"
#include "opticoll_testing.h"

#include "run/pipeline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REG_R, REG_S, REG_X };
enum { TAG_ROUNDS = 8192 };

typedef struct seg {
    uint64_t off, len;
    uint8_t reg;
} seg;

typedef struct msg {
    uint32_t peer;
    uint8_t send, reduce, staged;
    uint64_t bytes, stage_off;
    size_t seg0, nseg;
} msg;

typedef struct entry {
    struct entry *next;
    /* the key */
    oc_collective coll;
    char *algorithm;
    uint32_t nodes, rank, root;
    uint64_t units, usize; /* units per block (or per vector) and bytes per unit */
    /* the compiled part of this rank */
    size_t *round_msg0; /* nrounds + 1 offsets into msgs */
    size_t nrounds;
    msg *msgs;
    size_t nmsgs, msgcap;
    seg *segs;
    size_t nsegs, segcap;
    uint64_t stage_bytes, x_bytes, s_bytes, work_bytes;
    size_t max_msgs;
    int writes_s;
    /* buffers reused by every call */
    char *stage, *x, *scopy, *work;
    MPI_Request *reqs;
} entry;

static entry *cache; /* most recently used first; at most OC_MPI_CACHE_MAX entries */
static size_t cache_len;
static long drop_round = -1, drop_index = -1;
/* what the schedules compiled since had of it: how many held the transfer, the most rounds, the
 * most transfers in one round (oc_mpi_inject_drop_stats) */
static size_t drop_hits, drop_max_rounds, drop_max_xfers;
static int comm_key = MPI_KEYVAL_INVALID, self_key = MPI_KEYVAL_INVALID;

static void entry_free(entry *e) {
    if (!e) return;
    free(e->algorithm);
    free(e->round_msg0);
    free(e->msgs);
    free(e->segs);
    free(e->stage);
    free(e->x);
    free(e->scopy);
    free(e->work);
    free(e->reqs);
    free(e);
}

static void cache_clear(void) {
    while (cache) {
        entry *n = cache->next;
        entry_free(cache);
        cache = n;
    }
    cache_len = 0;
}

size_t oc_mpi_cache_entries(void) {
    return cache_len;
}

/* The library settings of the schedules planned from now on (oc_mpi_settings); NULL: the
 * defaults. Held as the schedule cache is: this layer's calls are MPI's, with no room for them. */
static const oc_settings *mpi_settings;

void oc_mpi_settings(const oc_settings *settings) {
    mpi_settings = settings;
}

void oc_mpi_inject_drop_transfer(long round, long index) {
    drop_round = round < 0 ? -1 : round;
    drop_index = round < 0 ? -1 : index;
    drop_hits = drop_max_rounds = drop_max_xfers = 0;
    cache_clear();
}

void oc_mpi_inject_drop_stats(size_t *hits, size_t *max_rounds, size_t *max_transfers) {
    *hits = drop_hits;
    *max_rounds = drop_max_rounds;
    *max_transfers = drop_max_xfers;
}

static int report(int err, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The last line reported (oc_mpi_last_error), and whether the refusal in it was printed. */
static char last_error[512];

static int report(int err, const char *fn, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    oc__quote_line(buf, sizeof buf);
    snprintf(last_error, sizeof last_error, "%s", buf);
    fprintf(stderr, "opticoll_mpi: %s: %s\n", fn, buf);
    return err;
}

/* A plan's refusal (MPI_ERR_UNSUPPORTED_OPERATION) is the same on every rank and, most often, at
 * every size: it is said by the communicator's rank 0 only, and once for as long as the same
 * refusal repeats, not once per rank and per call. */
static int refusal(const char *fn, int rank, const char *text) {
    static char said[512];
    if (rank == 0 && strcmp(said, text) != 0) {
        snprintf(said, sizeof said, "%s", text);
        return report(MPI_ERR_UNSUPPORTED_OPERATION, fn, "%s", text);
    }
    snprintf(last_error, sizeof last_error, "%s", text);
    oc__quote_line(last_error, sizeof last_error);
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

const char *oc_mpi_last_error(void) {
    return last_error;
}

/* ---- communicators and cleanup at MPI_Finalize ---- */

/* The user's communicator is being freed: so is our duplicate of it. */
static int free_dup(MPI_Comm comm, int key, void *val, void *extra) {
    (void)comm, (void)key, (void)extra;
    MPI_Comm *dup = val;
    int rc = MPI_Comm_free(dup);
    free(dup);
    return rc;
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: the cache goes with them. */
static int free_cache(MPI_Comm comm, int key, void *val, void *extra) {
    (void)comm, (void)key, (void)val, (void)extra;
    cache_clear();
    return MPI_SUCCESS;
}

/* The duplicate of comm the executor talks on, made at the first call and kept as an attribute. */
static int our_comm(MPI_Comm comm, MPI_Comm *out) {
    int rc, flag = 0;
    if (self_key == MPI_KEYVAL_INVALID) {
        if ((rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_cache, &self_key, NULL)))
            return rc;
        if ((rc = MPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL))) return rc;
    }
    if (comm_key == MPI_KEYVAL_INVALID &&
        (rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_dup, &comm_key, NULL)))
        return rc;
    MPI_Comm *have = NULL;
    if ((rc = MPI_Comm_get_attr(comm, comm_key, &have, &flag))) return rc;
    if (flag) {
        *out = *have;
        return MPI_SUCCESS;
    }
    have = malloc(sizeof *have);
    if (!have) return MPI_ERR_NO_MEM;
    if ((rc = MPI_Comm_dup(comm, have))) {
        free(have);
        return rc;
    }
    if ((rc = MPI_Comm_set_attr(comm, comm_key, have))) return rc;
    *out = *have;
    return MPI_SUCCESS;
}

/* ---- planning: labels to byte ranges ---- */

static uint64_t piece_start(uint64_t units, uint32_t q, uint64_t p) {
    uint64_t rem = units % q;
    return p * (units / q) + (p < rem ? p : rem);
}

typedef struct layout {
    const oc__spec *spec;
    uint32_t rank;
    uint64_t units, usize, blk; /* blk: bytes of one block */
} layout;

static int add_seg(entry *e, uint8_t reg, uint64_t off, uint64_t len, size_t seg0) {
    if (len == 0) return 0;
    if (e->nsegs > seg0) {
        seg *last = &e->segs[e->nsegs - 1];
        if (last->reg == reg && last->off + last->len == off) {
            last->len += len;
            return 0;
        }
    }
    if (oc__grow((void **)&e->segs, &e->segcap, e->nsegs + 1, sizeof(seg))) return OC_ENOMEM;
    e->segs[e->nsegs++] = (seg){.off = off, .len = len, .reg = reg};
    return 0;
}

/* Appends the byte ranges of labels [first, first + count) on this rank to the message whose
 * segments start at seg0: one range per block (or per all-to-all pair) spanned, merged when
 * they touch. */
static int add_labels(entry *e, const layout *L, uint32_t first, uint32_t count, size_t seg0) {
    const oc__spec *s = L->spec;
    const uint32_t q = s->q, N = s->nodes, r = L->rank;
    const uint64_t end = (uint64_t)first + count;
    if (s->coll == OC_ALLREDUCE || s->coll == OC_BROADCAST) {
        uint64_t a = piece_start(L->units, q, first), b = piece_start(L->units, q, end);
        return add_seg(e, REG_R, a * L->usize, (b - a) * L->usize, seg0);
    }
    for (uint64_t c = first; c < end;) {
        uint64_t blk_id = c / q, p0 = c % q;
        uint64_t p1 = end - blk_id * q < q ? end - blk_id * q : q;
        uint8_t reg;
        uint64_t base;
        if (s->coll == OC_ALLTOALL) {
            uint32_t d = (uint32_t)(blk_id / N), src = (uint32_t)(blk_id % N);
            if (d == r)
                reg = REG_R, base = (uint64_t)src * L->blk;
            else if (src == r)
                reg = REG_S, base = (uint64_t)d * L->blk;
            else
                reg = REG_X, base = blk_id * L->blk;
        } else {
            uint32_t v = oc__spec_block_node(s, (uint32_t)blk_id);
            reg = REG_R, base = (uint64_t)v * L->blk;
            if (s->coll == OC_GATHER && r != s->root)
                reg = v == r ? REG_S : REG_X, base = v == r ? 0 : base;
            else if (s->coll == OC_SCATTER && r != s->root)
                reg = v == r ? REG_R : REG_X, base = v == r ? 0 : base;
            else if (s->coll == OC_SCATTER)
                reg = REG_S;
        }
        uint64_t a = piece_start(L->units, q, p0), b = piece_start(L->units, q, p1);
        int rc = add_seg(e, reg, base + a * L->usize, (b - a) * L->usize, seg0);
        if (rc) return rc;
        c = blk_id * q + p1;
    }
    return 0;
}

/* One of this rank's transfers in a round, before grouping into messages. */
typedef struct part {
    uint32_t peer, first, count, index;
    uint8_t send, reduce;
} part;

static int part_cmp(const void *a, const void *b) {
    const part *x = a, *y = b;
    if (x->send != y->send) return x->send < y->send ? -1 : 1;
    if (x->peer != y->peer) return x->peer < y->peer ? -1 : 1;
    if (x->reduce != y->reduce) return x->reduce < y->reduce ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int seg_cmp(const void *a, const void *b) {
    const seg *x = a, *y = b;
    if (x->reg != y->reg) return x->reg < y->reg ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* 1 if [s->off, s->off + s->len) of region s->reg overlaps one of the sorted ranges sends[]
 * (ends[i] is the largest end of sends[0..i] in the same region). */
static int overlaps(const seg *sends, const uint64_t *ends, size_t n, const seg *s) {
    size_t lo = 0, hi = n; /* first send not before (reg, off + len) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sends[mid].reg < s->reg ||
            (sends[mid].reg == s->reg && sends[mid].off < s->off + s->len))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && sends[lo - 1].reg == s->reg && ends[lo - 1] > s->off;
}

/* Compiles this rank's part of the stored schedule into messages. */
static int compile(entry *e, const oc__store *st, const layout *L, char *why, size_t len) {
    part *parts = NULL;
    size_t pcap = 0;
    seg *sends = NULL;
    uint64_t *ends = NULL;
    size_t scap = 0, ecap = 0;
    int rc = 0;
    e->nrounds = st->count;
    e->round_msg0 = oc__calloc(st->count + 1, sizeof(size_t));
    if (!e->round_msg0) goto nomem;
    if (st->count > drop_max_rounds) drop_max_rounds = st->count;
    if (drop_round >= 0 && (size_t)drop_round < st->count &&
        (size_t)drop_index < st->rounds[drop_round].count)
        drop_hits++;
    for (size_t ri = 0; ri < st->count; ri++) {
        const oc__round *r = &st->rounds[ri];
        size_t np = 0;
        if (r->count > drop_max_xfers) drop_max_xfers = r->count;
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *t = &r->xfers[i];
            if ((long)ri == drop_round && (long)i == drop_index) continue;
            if (t->src != L->rank && t->dst != L->rank) continue;
            if (t->src == t->dst) continue; /* a node already holds what it sends itself */
            if (oc__grow((void **)&parts, &pcap, np + 1, sizeof(part))) goto nomem;
            parts[np++] = (part){.peer = t->src == L->rank ? t->dst : t->src,
                                 .first = t->first,
                                 .count = t->count,
                                 .index = (uint32_t)i,
                                 .send = t->src == L->rank,
                                 .reduce = t->op == OC_OP_REDUCE};
        }
        if (np) qsort(parts, np, sizeof(part), part_cmp);
        size_t msg0 = e->nmsgs;
        for (size_t i = 0; i < np;) {
            size_t j = i;
            if (oc__grow((void **)&e->msgs, &e->msgcap, e->nmsgs + 1, sizeof(msg))) goto nomem;
            msg *m = &e->msgs[e->nmsgs];
            *m = (msg){.peer = parts[i].peer,
                       .send = parts[i].send,
                       .reduce = parts[i].reduce,
                       .seg0 = e->nsegs};
            for (; j < np && parts[j].send == parts[i].send && parts[j].peer == parts[i].peer &&
                   parts[j].reduce == parts[i].reduce;
                 j++)
                if (add_labels(e, L, parts[j].first, parts[j].count, m->seg0)) goto nomem;
            m->nseg = e->nsegs - m->seg0;
            for (size_t k = m->seg0; k < e->nsegs; k++) {
                m->bytes += e->segs[k].len;
                if (!m->send && e->segs[k].reg == REG_S) e->writes_s = 1;
            }
            i = j;
            if (m->bytes > INT_MAX) {
                rc = oc__fail(why, len, OC_ETOOBIG,
                              "round %zu: a message of %llu bytes is above MPI's int count", ri,
                              (unsigned long long)m->bytes);
                goto out;
            }
            if (m->bytes == 0) { /* empty pieces: neither side sends anything */
                e->nsegs = m->seg0;
                continue;
            }
            e->nmsgs++;
        }
        /* Staging: packed sends, reductions, and copies that would overwrite a send. */
        size_t ns = 0;
        for (size_t k = msg0; k < e->nmsgs; k++) {
            const msg *m = &e->msgs[k];
            if (!m->send) continue;
            if (oc__grow((void **)&sends, &scap, ns + m->nseg, sizeof(seg)) ||
                oc__grow((void **)&ends, &ecap, ns + m->nseg, sizeof(uint64_t)))
                goto nomem;
            memcpy(sends + ns, e->segs + m->seg0, m->nseg * sizeof(seg));
            ns += m->nseg;
        }
        if (ns) qsort(sends, ns, sizeof(seg), seg_cmp);
        for (size_t k = 0; k < ns; k++) {
            uint64_t end = sends[k].off + sends[k].len;
            ends[k] =
                k && sends[k - 1].reg == sends[k].reg && ends[k - 1] > end ? ends[k - 1] : end;
        }
        uint64_t stage = 0;
        for (size_t k = msg0; k < e->nmsgs; k++) {
            msg *m = &e->msgs[k];
            m->staged = m->nseg > 1 || (m->reduce && !m->send) ||
                        (!m->send && overlaps(sends, ends, ns, &e->segs[m->seg0]));
            if (m->staged) {
                m->stage_off = stage;
                stage += (m->bytes + 63) & ~(uint64_t)63;
            }
        }
        if (stage > e->stage_bytes) e->stage_bytes = stage;
        if (e->nmsgs - msg0 > e->max_msgs) e->max_msgs = e->nmsgs - msg0;
        e->round_msg0[ri + 1] = e->nmsgs;
    }
    goto out;
nomem:
    rc = oc__fail(why, len, OC_ENOMEM, "out of memory compiling the schedule");
out:
    free(parts);
    free(sends);
    free(ends);
    return rc;
}

/* Splits "name:k=v,k=v" into the algorithm name and its parameters. */
static int parse_algorithm(const char *text, char *name, size_t namelen, oc_kv *params, char *why,
                           size_t len) {
    const char *colon = strchr(text, ':');
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n == 0 || n >= namelen)
        return oc__fail(why, len, OC_EINVAL, "bad algorithm name '%s'", OC_Q(text));
    memcpy(name, text, n);
    name[n] = 0;
    if (!colon) return 0;
    char *rest = strdup(colon + 1), *save = NULL;
    if (!rest) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    int rc = 0;
    for (char *tok = strtok_r(rest, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
        if (oc_kv_set_pair(params, tok))
            rc = oc__fail(why, len, OC_EINVAL, "bad algorithm parameter '%s' in '%s'", OC_Q(tok),
                          OC_Q(text));
    free(rest);
    return rc;
}

const char *oc_mpi_default_algorithm(const char *collective) {
    oc_collective c;
    if (!collective || oc_collective_from_name(collective, &c)) return NULL;
    if (oc__algo_find(c, "ring")) return "ring";
    for (size_t i = 0; i < oc__algo_count(); i++)
        if (oc__algo_at(i)->info.collective == c) return oc__algo_at(i)->info.name;
    return NULL;
}

/* Generates, verifies and compiles the schedule (or finds it in the cache). */
static int get_entry(oc_collective coll, const char *algorithm, uint32_t nodes, uint32_t rank,
                     uint32_t root, uint64_t units, uint64_t usize, entry **out, int *refused,
                     char *why, size_t len) {
    for (entry **pe = &cache; *pe; pe = &(*pe)->next) {
        entry *e = *pe;
        if (e->coll == coll && e->nodes == nodes && e->rank == rank && e->root == root &&
            e->units == units && e->usize == usize && strcmp(e->algorithm, algorithm) == 0) {
            *pe = e->next; /* to the front: the list is in order of last use */
            e->next = cache;
            cache = e;
            *out = e;
            return 0;
        }
    }
    char name[64];
    oc_kv *params = oc_kv_new(), *net_params = NULL;
    oc_report *rep = oc__report_new();
    entry *e = calloc(1, sizeof *e);
    oc__store store;
    oc__store_init(&store);
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    const oc__algo *algo = NULL;
    const oc__model *model = NULL;
    const oc_settings *prev = NULL;
    int rc = oc__settings_enter_checked(mpi_settings, &prev, why, len);
    if (rc) goto out;
    if (!params || !rep || !e) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = parse_algorithm(algorithm, name, sizeof name, params, why, len))) goto out;
    algo = oc__algo_find(coll, name);
    /* The network whose resource check the schedule passes: the switch, else the first one the
     * algorithm names (the star's algorithms for broadcast, scatter, gather, all-to-all). */
    char net[32] = "switch";
    if (algo && !oc__algo_supports(algo, "switch")) {
        size_t n = strcspn(algo->info.networks, ",");
        snprintf(net, sizeof net, "%.*s", (int)(n < sizeof net ? n : sizeof net - 1),
                 algo->info.networks);
    }
    /* On a direct network (hypercube, mesh, torus), store-and-forward switching would restrict
     * each message to neighbours; MPI's ranks reach any peer, so the check runs in wormhole mode
     * (what dex, dex-torus and cartesian need), on the algorithm's dims= if it names them. */
    if ((strcmp(net, "hypercube") == 0 || strcmp(net, "mesh") == 0 || strcmp(net, "torus") == 0) &&
        (!(net_params = oc_kv_new()) || oc_kv_set(net_params, "switching", "wh") ||
         (oc_kv_get(params, "dims") && oc_kv_set(net_params, "dims", oc_kv_get(params, "dims"))))) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    uint64_t blk = units * usize;
    oc_request req = {.collective = coll,
                      .algorithm = name,
                      .network = net,
                      .nodes = nodes,
                      .bytes = coll == OC_REDUCESCATTER ? blk * nodes : blk,
                      .root = root,
                      .params = params,
                      .net_params = net_params};
    if ((rc = oc__plan_request(&req, &algo, &model, &plan, rep, why, len))) {
        /* The algorithm's plan refused these nodes, root or size (unknown names and parameters,
         * and running out of memory, are errors of another kind). */
        *refused = rc != OC_ENOMEM && rc != OC_ENOENT && rc != OC_EPARSE;
        goto out;
    }
    oc__algo_source src = {algo, &plan};
    if ((rc = oc__run_schedule(&plan.spec, oc__source_algo, &src, model, net_params, 1, &store.sink,
                               rep, why, len)))
        goto out;
    e->coll = coll;
    e->nodes = nodes;
    e->rank = rank;
    e->root = root;
    e->units = units;
    e->usize = usize;
    if (!(e->algorithm = strdup(algorithm))) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    layout L = {.spec = &plan.spec, .rank = rank, .units = units, .usize = usize, .blk = blk};
    if ((rc = compile(e, &store, &L, why, len))) goto out;
    for (size_t i = 0; i < e->nsegs; i++)
        if (e->segs[i].reg == REG_X) {
            e->x_bytes = coll == OC_ALLTOALL ? blk * nodes * nodes : blk * nodes;
            break;
        }
    e->s_bytes = coll == OC_GATHER ? blk : blk * nodes;
    e->work_bytes = coll == OC_REDUCESCATTER ? blk * nodes : 0;
    /* The staging and relay buffers are counted against the memory budget before they are made
     * (a relay buffer of an all-to-all is N^2 blocks). */
    char what[160];
    snprintf(what, sizeof what, "%s %s on %u ranks, %llu-byte blocks: the executor's buffers",
             oc_collective_name(coll), algorithm, nodes, (unsigned long long)blk);
    if ((rc = oc__budget_check((uint64_t)e->max_msgs * sizeof(MPI_Request) + e->stage_bytes +
                                   e->x_bytes,
                               what, why, len)))
        goto out;
    if ((e->max_msgs && !(e->reqs = oc__calloc(e->max_msgs, sizeof(MPI_Request)))) ||
        (e->stage_bytes && !(e->stage = malloc(e->stage_bytes))) ||
        (e->x_bytes && !(e->x = malloc(e->x_bytes)))) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory for the executor's buffers");
        goto out;
    }
    if (cache_len == OC_MPI_CACHE_MAX) { /* evict the least recently used, with its buffers */
        entry **pe = &cache;
        while ((*pe)->next)
            pe = &(*pe)->next;
        entry_free(*pe);
        *pe = NULL;
        cache_len--;
    }
    e->next = cache;
    cache = e;
    cache_len++;
    *out = e;
    e = NULL;
out:
    oc__settings_leave(prev);
    if (algo) oc__plan_free(algo, &plan);
    oc__store_free(&store);
    entry_free(e);
    oc_report_free(rep);
    oc_kv_free(params);
    oc_kv_free(net_params);
    return rc;
}

/* ---- execution ---- */

static int execute(entry *e, char *const base[3], MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    for (size_t ri = 0; ri < e->nrounds; ri++) {
        const size_t m0 = e->round_msg0[ri], m1 = e->round_msg0[ri + 1];
        if (m0 == m1) continue;
        const int tag = (int)(ri % TAG_ROUNDS) * 2;
        int nreq = 0, rc;
        for (size_t k = m0; k < m1; k++) { /* pack */
            const msg *m = &e->msgs[k];
            if (!m->send || !m->staged) continue;
            char *to = e->stage + m->stage_off;
            for (size_t i = m->seg0; i < m->seg0 + m->nseg; i++) {
                memcpy(to, base[e->segs[i].reg] + e->segs[i].off, e->segs[i].len);
                to += e->segs[i].len;
            }
        }
        for (int pass = 0; pass < 2; pass++) /* receives first, then sends */
            for (size_t k = m0; k < m1; k++) {
                const msg *m = &e->msgs[k];
                if (m->send != pass) continue;
                char *buf = m->staged ? e->stage + m->stage_off
                                      : base[e->segs[m->seg0].reg] + e->segs[m->seg0].off;
                rc = m->send ? MPI_Isend(buf, (int)m->bytes, MPI_BYTE, (int)m->peer,
                                         tag + m->reduce, comm, &e->reqs[nreq])
                             : MPI_Irecv(buf, (int)m->bytes, MPI_BYTE, (int)m->peer,
                                         tag + m->reduce, comm, &e->reqs[nreq]);
                if (rc) return rc;
                nreq++;
            }
        if ((rc = MPI_Waitall(nreq, e->reqs, MPI_STATUSES_IGNORE))) return rc;
        for (size_t k = m0; k < m1; k++) { /* unpack and reduce */
            const msg *m = &e->msgs[k];
            if (m->send || !m->staged) continue;
            const char *from = e->stage + m->stage_off;
            for (size_t i = m->seg0; i < m->seg0 + m->nseg; i++) {
                char *to = base[e->segs[i].reg] + e->segs[i].off;
                if (m->reduce) {
                    rc = MPI_Reduce_local(from, to, (int)(e->segs[i].len / e->usize), type, op);
                    if (rc) return rc;
                } else {
                    memcpy(to, from, e->segs[i].len);
                }
                from += e->segs[i].len;
            }
        }
    }
    return MPI_SUCCESS;
}

/* ---- the public calls ---- */

static int mpi_err(int oc_err) {
    switch (oc_err) {
    case OC_ENOMEM:
        return MPI_ERR_NO_MEM;
    case OC_EINVAL:
    case OC_ENOENT:
    case OC_ENOTSUP:
    case OC_ERANGE:
    case OC_ETOOBIG:
        return MPI_ERR_ARG;
    default:
        return MPI_ERR_OTHER;
    }
}

/* The size of a contiguous type (lower bound 0, extent = size); 0 and a message otherwise. */
static int type_size(const char *fn, MPI_Datatype t, uint64_t *out) {
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    if (t == MPI_DATATYPE_NULL || MPI_Type_size(t, &size) || MPI_Type_get_extent(t, &lb, &extent))
        return report(MPI_ERR_TYPE, fn, "invalid datatype");
    if (size <= 0 || lb != 0 || extent != size)
        return report(MPI_ERR_TYPE, fn,
                      "only contiguous datatypes are supported (size %d, lower bound %ld, extent "
                      "%ld)",
                      size, (long)lb, (long)extent);
    *out = (uint64_t)size;
    return MPI_SUCCESS;
}

static int check_count(const char *fn, int count, const char *what) {
    return count < 0 ? report(MPI_ERR_COUNT, fn, "%s %d is negative", what, count) : MPI_SUCCESS;
}

/* Checks that op can reduce type here, before any message moves: a rank that failed in the
 * middle of a schedule would leave its peers waiting. */
static int check_op(const char *fn, MPI_Op op, MPI_Datatype type, uint64_t tsize) {
    int commute = 0;
    if (op == MPI_OP_NULL || MPI_Op_commutative(op, &commute))
        return report(MPI_ERR_OP, fn, "invalid reduction operation");
    if (!commute)
        return report(MPI_ERR_OP, fn,
                      "the operation is not commutative: a schedule combines contributions in its "
                      "own order");
    long double a[4] = {0}, b[4] = {0}; /* room for any predefined type, zeroed */
    if (tsize > sizeof a || MPI_Reduce_local(a, b, 1, type, op))
        return report(MPI_ERR_OP, fn, "the operation cannot reduce this datatype");
    return MPI_SUCCESS;
}

typedef struct call {
    const char *fn;
    entry *e;
    MPI_Comm comm;
    int rank, size;
} call;

/* Checks what does not depend on the size, before anything else (a call with count 0 moves
 * nothing but is still refused when one of these is wrong): the communicator, the root, and the
 * algorithm's name (NULL or "auto" resolved into *algorithm). Sets c->rank and c->size. */
static int validate(call *c, oc_collective coll, const char **algorithm, MPI_Comm comm, int root) {
    int rc, inter = 0;
    if (comm == MPI_COMM_NULL) return report(MPI_ERR_COMM, c->fn, "the communicator is null");
    if ((rc = MPI_Comm_test_inter(comm, &inter))) return rc;
    if (inter) return report(MPI_ERR_COMM, c->fn, "inter-communicators are not supported");
    if ((rc = MPI_Comm_rank(comm, &c->rank)) || (rc = MPI_Comm_size(comm, &c->size))) return rc;
    if (root < 0 || root >= c->size)
        return report(MPI_ERR_ROOT, c->fn, "root %d is not a rank of the communicator (0..%d)",
                      root, c->size - 1);
    if (!*algorithm || strcmp(*algorithm, "auto") == 0) {
        *algorithm = oc_mpi_default_algorithm(oc_collective_name(coll));
        if (!*algorithm)
            return report(MPI_ERR_ARG, c->fn, "opticoll has no %s algorithm",
                          oc_collective_name(coll));
    }
    char name[64], why[256] = "";
    oc_kv *params = oc_kv_new();
    if (!params) return report(MPI_ERR_NO_MEM, c->fn, "out of memory");
    int err = parse_algorithm(*algorithm, name, sizeof name, params, why, sizeof why);
    oc_kv_free(params);
    if (err) return report(mpi_err(err), c->fn, "%s", why);
    if (!oc__algo_find(coll, name))
        return report(MPI_ERR_ARG, c->fn, "unknown %s algorithm '%s'", oc_collective_name(coll),
                      OC_Q(name));
    return MPI_SUCCESS;
}

static int prepare(call *c, oc_collective coll, const char *algorithm, MPI_Comm comm, int root,
                   uint64_t units, uint64_t usize) {
    int rc;
    if ((rc = validate(c, coll, &algorithm, comm, root))) return rc;
    char why[256] = "";
    int refused = 0;
    int err = get_entry(coll, algorithm, (uint32_t)c->size, (uint32_t)c->rank, (uint32_t)root,
                        units, usize, &c->e, &refused, why, sizeof why);
    if (err && refused) {
        char text[512];
        snprintf(text, sizeof text, "%s %s on %d ranks: %s", oc_collective_name(coll), algorithm,
                 c->size, why);
        return refusal(c->fn, c->rank, text);
    }
    if (err)
        return report(mpi_err(err), c->fn, "%s %s: %s", oc_collective_name(coll), algorithm, why);
    if ((rc = our_comm(comm, &c->comm))) return rc;
    return MPI_SUCCESS;
}

/* Allocates a buffer kept in the entry for later calls. */
static int keep_buffer(call *c, char **buf, uint64_t bytes) {
    if (!*buf && bytes && !(*buf = malloc(bytes)))
        return report(MPI_ERR_NO_MEM, c->fn, "out of memory (%llu bytes)",
                      (unsigned long long)bytes);
    return MPI_SUCCESS;
}

static int need_buffer(call *c, const void *buf, const char *what) {
    return buf ? MPI_SUCCESS : report(MPI_ERR_BUFFER, c->fn, "%s is NULL", what);
}

/* One side of a collective: a buffer of `count` elements of `type`, with the names of
 * the arguments for messages. */
typedef struct side {
    const void *buf;
    int count;
    MPI_Datatype type;
    const char *buf_name, *count_name;
} side;

/* All-gather and all-to-all, up to the plan: every rank has both sides, the send side unused in
 * place. Checks the two sides' block sizes agree, and the buffers, and prepares the call;
 * *blk = 0 (and MPI_SUCCESS) when there is nothing to move. */
static int equal_prepare(call *c, oc_collective coll, const char *algorithm, MPI_Comm comm,
                         side send, side recv, int *inplace, uint64_t *blk) {
    uint64_t rsize = 0, ssize = 0;
    int rc;
    *inplace = send.buf == MPI_IN_PLACE;
    *blk = 0;
    if ((rc = check_count(c->fn, recv.count, recv.count_name)) ||
        (rc = type_size(c->fn, recv.type, &rsize)))
        return rc;
    *blk = (uint64_t)recv.count * rsize;
    if (!*inplace) {
        if ((rc = check_count(c->fn, send.count, send.count_name)) ||
            (rc = type_size(c->fn, send.type, &ssize)))
            return rc;
        if ((uint64_t)send.count * ssize != *blk)
            return report(MPI_ERR_COUNT, c->fn,
                          "the send block (%llu bytes) and the receive block "
                          "(%llu bytes) differ",
                          (unsigned long long)((uint64_t)send.count * ssize),
                          (unsigned long long)*blk);
    }
    if (*blk == 0) return validate(c, coll, &algorithm, comm, 0);
    if ((rc = need_buffer(c, recv.buf, recv.buf_name)) ||
        (!*inplace && (rc = need_buffer(c, send.buf, send.buf_name))))
        return rc;
    return prepare(c, coll, algorithm, comm, 0, *blk, 1);
}

/* Scatter and gather, up to the plan (they mirror each other): `whole` is the root's buffer of p
 * blocks (scatter: the send side; gather: the receive side), `own` each rank's block, which the
 * root does not use in place. Checks both sides' block sizes agree, and the buffers, and prepares
 * the call; *blk = 0 (and MPI_SUCCESS) when there is nothing to move. */
static int rooted_prepare(call *c, oc_collective coll, const char *algorithm, MPI_Comm comm,
                          int root, side whole, side own, int *at_root, int *inplace,
                          uint64_t *blk) {
    uint64_t wsize = 0, osize = 0;
    int rc;
    *blk = 0;
    if ((rc = validate(c, coll, &algorithm, comm, root))) return rc;
    *at_root = c->rank == root;
    *inplace = *at_root && own.buf == MPI_IN_PLACE;
    if (*at_root) {
        if ((rc = check_count(c->fn, whole.count, whole.count_name)) ||
            (rc = type_size(c->fn, whole.type, &wsize)))
            return rc;
        *blk = (uint64_t)whole.count * wsize;
    }
    if (!*inplace) {
        if ((rc = check_count(c->fn, own.count, own.count_name)) ||
            (rc = type_size(c->fn, own.type, &osize)))
            return rc;
        if (*at_root && (uint64_t)own.count * osize != *blk)
            return report(MPI_ERR_COUNT, c->fn, "the send block and the receive block differ");
        *blk = (uint64_t)own.count * osize;
    }
    if (*blk == 0) return MPI_SUCCESS;
    if ((*at_root && (rc = need_buffer(c, whole.buf, whole.buf_name))) ||
        (!*inplace && (rc = need_buffer(c, own.buf, own.buf_name))))
        return rc;
    return prepare(c, coll, algorithm, comm, root, *blk, 1);
}

/* A schedule that writes into its send side works on a copy kept in the entry, so the caller's
 * send buffer stays as given; *S then points at the copy. */
static int private_send(call *c, const char **S) {
    int rc;
    if ((rc = keep_buffer(c, &c->e->scopy, c->e->s_bytes))) return rc;
    memcpy(c->e->scopy, *S, c->e->s_bytes);
    *S = c->e->scopy;
    return MPI_SUCCESS;
}

int oc_mpi_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm) {
    call c = {.fn = "oc_mpi_allgather"};
    uint64_t blk = 0;
    int rc, inplace = 0;
    const side send = {sendbuf, sendcount, sendtype, "sendbuf", "sendcount"},
               recv = {recvbuf, recvcount, recvtype, "recvbuf", "recvcount"};
    if ((rc = equal_prepare(&c, OC_ALLGATHER, algorithm, comm, send, recv, &inplace, &blk)) ||
        blk == 0)
        return rc;
    char *R = recvbuf;
    if (!inplace) memcpy(R + (uint64_t)c.rank * blk, sendbuf, blk);
    char *const base[3] = {R, NULL, c.e->x};
    return execute(c.e, base, MPI_BYTE, MPI_OP_NULL, c.comm);
}

int oc_mpi_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, const char *algorithm) {
    call c = {.fn = "oc_mpi_allreduce"};
    uint64_t tsize = 0;
    int rc, inplace = sendbuf == MPI_IN_PLACE;
    if ((rc = check_count(c.fn, count, "count")) || (rc = type_size(c.fn, datatype, &tsize)) ||
        (rc = check_op(c.fn, op, datatype, tsize)))
        return rc;
    if (count == 0) return validate(&c, OC_ALLREDUCE, &algorithm, comm, 0);
    if ((rc = need_buffer(&c, recvbuf, "recvbuf")) ||
        (!inplace && (rc = need_buffer(&c, sendbuf, "sendbuf"))))
        return rc;
    if ((rc = prepare(&c, OC_ALLREDUCE, algorithm, comm, 0, (uint64_t)count, tsize))) return rc;
    if (!inplace) memcpy(recvbuf, sendbuf, (uint64_t)count * tsize);
    char *const base[3] = {recvbuf, NULL, c.e->x};
    return execute(c.e, base, datatype, op, c.comm);
}

int oc_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const char *algorithm) {
    call c = {.fn = "oc_mpi_reduce_scatter_block"};
    uint64_t tsize = 0;
    int rc, inplace = sendbuf == MPI_IN_PLACE;
    if ((rc = check_count(c.fn, recvcount, "recvcount")) ||
        (rc = type_size(c.fn, datatype, &tsize)) || (rc = check_op(c.fn, op, datatype, tsize)))
        return rc;
    if (recvcount == 0) return validate(&c, OC_REDUCESCATTER, &algorithm, comm, 0);
    if ((rc = need_buffer(&c, recvbuf, "recvbuf")) ||
        (!inplace && (rc = need_buffer(&c, sendbuf, "sendbuf"))))
        return rc;
    if ((rc = prepare(&c, OC_REDUCESCATTER, algorithm, comm, 0, (uint64_t)recvcount, tsize)))
        return rc;
    const uint64_t blk = (uint64_t)recvcount * tsize;
    char *work = recvbuf; /* in place: the whole vector is in recvbuf */
    if (!inplace) {
        if ((rc = keep_buffer(&c, &c.e->work, c.e->work_bytes))) return rc;
        work = c.e->work;
        memcpy(work, sendbuf, blk * (uint64_t)c.size);
    }
    char *const base[3] = {work, NULL, c.e->x};
    if ((rc = execute(c.e, base, datatype, op, c.comm))) return rc;
    memmove(recvbuf, work + (uint64_t)c.rank * blk, blk);
    return MPI_SUCCESS;
}

int oc_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm) {
    call c = {.fn = "oc_mpi_alltoall"};
    uint64_t blk = 0;
    int rc, inplace = 0;
    const side send = {sendbuf, sendcount, sendtype, "sendbuf", "sendcount"},
               recv = {recvbuf, recvcount, recvtype, "recvbuf", "recvcount"};
    if ((rc = equal_prepare(&c, OC_ALLTOALL, algorithm, comm, send, recv, &inplace, &blk)) ||
        blk == 0)
        return rc;
    const char *S = inplace ? recvbuf : sendbuf;
    /* the blocks to send must survive the receives */
    if ((inplace || c.e->writes_s) && (rc = private_send(&c, &S))) return rc;
    char *R = recvbuf;
    memcpy(R + (uint64_t)c.rank * blk, S + (uint64_t)c.rank * blk, blk);
    char *const base[3] = {R, (char *)(uintptr_t)S, c.e->x};
    return execute(c.e, base, MPI_BYTE, MPI_OP_NULL, c.comm);
}

int oc_mpi_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const char *algorithm) {
    call c = {.fn = "oc_mpi_bcast"};
    uint64_t tsize = 0;
    int rc;
    if ((rc = check_count(c.fn, count, "count")) || (rc = type_size(c.fn, datatype, &tsize)))
        return rc;
    const uint64_t bytes = (uint64_t)count * tsize;
    if (bytes == 0) return validate(&c, OC_BROADCAST, &algorithm, comm, root);
    if ((rc = need_buffer(&c, buffer, "buffer"))) return rc;
    if ((rc = prepare(&c, OC_BROADCAST, algorithm, comm, root, bytes, 1))) return rc;
    char *const base[3] = {buffer, NULL, c.e->x};
    return execute(c.e, base, MPI_BYTE, MPI_OP_NULL, c.comm);
}

int oc_mpi_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const char *algorithm) {
    call c = {.fn = "oc_mpi_scatter"};
    uint64_t blk = 0;
    int rc, at_root = 0, inplace = 0;
    const side whole = {sendbuf, sendcount, sendtype, "sendbuf", "sendcount"},
               own = {recvbuf, recvcount, recvtype, "recvbuf", "recvcount"};
    if ((rc = rooted_prepare(&c, OC_SCATTER, algorithm, comm, root, whole, own, &at_root, &inplace,
                             &blk)) ||
        blk == 0)
        return rc;
    const char *S = sendbuf;
    if (at_root && c.e->writes_s && (rc = private_send(&c, &S))) return rc;
    char *const base[3] = {inplace ? NULL : recvbuf, (char *)(uintptr_t)S, c.e->x};
    if ((rc = execute(c.e, base, MPI_BYTE, MPI_OP_NULL, c.comm))) return rc;
    if (at_root && !inplace) memcpy(recvbuf, S + (uint64_t)root * blk, blk);
    return MPI_SUCCESS;
}

int oc_mpi_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  const char *algorithm) {
    call c = {.fn = "oc_mpi_gather"};
    uint64_t blk = 0;
    int rc, at_root = 0, inplace = 0;
    const side whole = {recvbuf, recvcount, recvtype, "recvbuf", "recvcount"},
               own = {sendbuf, sendcount, sendtype, "sendbuf", "sendcount"};
    if ((rc = rooted_prepare(&c, OC_GATHER, algorithm, comm, root, whole, own, &at_root, &inplace,
                             &blk)) ||
        blk == 0)
        return rc;
    const char *S = sendbuf;
    if (!at_root && c.e->writes_s && (rc = private_send(&c, &S))) return rc;
    if (at_root && !inplace) memcpy((char *)recvbuf + (uint64_t)root * blk, sendbuf, blk);
    char *const base[3] = {at_root ? recvbuf : NULL, (char *)(uintptr_t)S, c.e->x};
    return execute(c.e, base, MPI_BYTE, MPI_OP_NULL, c.comm);
}
