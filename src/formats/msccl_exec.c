/*
 * msccl_exec.c — one mode of an MSCCL program (in place or out of place; msccl_import.c reads
 * the file and states the runtimes' rules): its chunks laid out as slots, the program executed
 * chunk by chunk in an order of its graph of steps, waits and messages, every read, reduction
 * and final chunk checked against the collective, every pair of threadblocks of a GPU that
 * touch one chunk, one writing, checked to be ordered by happens-before (vector clocks, below),
 * and the messages then handed to msccl_rounds.c for their rounds and put in the store as the
 * schedule IR's rounds.
 */
#include "formats/msccl_import.h"
#include "core/progress.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- one mode (in place or out of place): slots, execution, races, rounds ---- */

static void make_layout(const prog *p, int inplace, layout *L) {
    const uint32_t ni = p->nbuf[B_I], no = p->nbuf[B_O], ns = p->nbuf[B_S];
    memset(L, 0, sizeof *L);
    L->inplace = inplace;
    L->alias = -1;
    if (!inplace) {
        L->base[B_I] = 0;
        L->base[B_O] = ni;
        L->base[B_S] = ni + no;
        L->M = ni + no + ns;
        return;
    }
    if (ni <= no) { /* i lives inside o */
        L->base[B_O] = 0;
        L->base[B_I] = 0;
        L->alias = B_I;
        L->alias_step = ni == no ? 0 : ni;
        L->base[B_S] = no;
        L->M = no + ns;
    } else { /* o lives inside i */
        L->base[B_I] = 0;
        L->base[B_O] = 0;
        L->alias = B_O;
        L->alias_step = no;
        L->base[B_S] = ni;
        L->M = ni + ns;
    }
}

/* Which buffer and chunk slot s of GPU g is, for messages ("output chunk 5"); in place, the
 * chunk is named in the larger of the two aliased buffers. */
static void describe_slot(const prog *p, const layout *L, uint32_t s, char *buf, size_t n) {
    int b;
    if (s >= L->base[B_S])
        b = B_S;
    else if (L->inplace)
        b = p->nbuf[B_I] > p->nbuf[B_O] ? B_I : B_O;
    else
        b = s >= L->base[B_O] ? B_O : B_I;
    snprintf(buf, n, "%s chunk %u", oc__msccl_buf_name(b), s - L->base[b]);
}

/* The label input chunk j of GPU g starts with (NONE: nothing). */
static uint32_t initial_label(const prog *p, uint32_t g, uint32_t j) {
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_GATHER:
        return g * q + j;
    case OC_ALLTOALL: /* block d of rank g's input goes to rank d: label (d*N + g)*q + p */
        return ((j / q) * N + g) * q + j % q;
    case OC_BROADCAST:
    case OC_SCATTER:
        return g == p->root ? j : NONE;
    default: /* allreduce, reducescatter: every rank contributes to every chunk */
        return j;
    }
}

/* The label output chunk j of GPU g must end with (NONE: no requirement). */
static uint32_t final_label(const prog *p, uint32_t g, uint32_t j) {
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        return j;
    case OC_GATHER:
        return g == p->root ? j : NONE;
    case OC_REDUCESCATTER:
    case OC_SCATTER:
        return g * q + j;
    case OC_ALLTOALL: /* block s of rank g's output came from rank s: label (g*N + s)*q + p */
        return (g * N + j / q) * q + j % q;
    default:
        return NONE;
    }
}

static void label_text(const prog *p, uint32_t label, char *buf, size_t n) {
    if (label == NONE) {
        snprintf(buf, n, "nothing");
        return;
    }
    const uint32_t N = p->N, q = p->q;
    switch (p->coll) {
    case OC_ALLGATHER:
    case OC_GATHER:
    case OC_REDUCESCATTER:
    case OC_SCATTER:
        snprintf(buf, n, "chunk %u of rank %u's block", label % q, label / q);
        break;
    case OC_ALLTOALL:
        snprintf(buf, n, "chunk %u from rank %u to rank %u", label % q, (label / q) % N,
                 label / q / N);
        break;
    default:
        snprintf(buf, n, "chunk %u", label);
    }
}

static int rwait_cmp(const void *x, const void *y) {
    const rwait *p = x, *q = y;
    if (p->g != q->g) return p->g < q->g ? -1 : 1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return (p->k > q->k) - (p->k < q->k);
}

/* 1 if step k of threadblock a on GPU g waits for step j of threadblock b: through its own
 * waits or an earlier step's of its threadblock, on step j or a later one of b (b runs in
 * order). waits[] is sorted by (g, a, b, k) with j the running maximum within each (g, a, b). */
static int waits_for(const rwait *waits, size_t nw, uint32_t g, uint32_t a, uint32_t k, uint32_t b,
                     uint32_t j) {
    const rwait key = {g, a, b, k, 0};
    size_t lo = 0, hi = nw; /* the first entry after (g, a, b, k) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (rwait_cmp(&waits[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo) return 0;
    const rwait *w = &waits[lo - 1];
    return w->g == g && w->a == a && w->b == b && w->j >= j;
}

/* The execution's state of one mode. */
typedef struct exec {
    const prog *p;
    const layout *L;
    uint32_t words;  /* 64-bit words of a contribution set */
    uint32_t *label; /* N x M */
    uint64_t *bits;  /* N x M x words (reductions) */
    uint32_t *fresh; /* N x M: the message whose copy the slot holds unchanged (reductions) */
    uint64_t *lastw; /* N x M: (tb + 1) << 32 | step of the last write, 0: none */
    uint32_t *rhead; /* N x M: readers since the last write (list in rpool), NONE: none */
    struct rreader {
        uint32_t tb, k, next;
    } * rpool;
    size_t nr, capr;
    const rwait *waits; /* the direct waits (waits_for) */
    size_t nw;
    int full;       /* 1: the race check asks the clocks (hb_*), 0: the direct waits only */
    uint64_t *tmpb; /* one step's scratch of cnt sets */
    uint32_t *tmpl;
    /* happens-before (hb_*): vector clocks, one row per threadblock of the program, one column
     * per threadblock that some race check can ask about */
    uint32_t T, D;   /* rows, columns */
    uint32_t *base;  /* N + 1: GPU g's threadblocks are rows base[g] .. base[g + 1] - 1 */
    uint32_t *col;   /* T: a row's column, NONE: never asked about */
    uint32_t *now;   /* T x D: how many steps of each column's threadblock happened before */
    uint32_t *snaps; /* clocks kept for later, D each: a message's at its send, a waited step's */
    uint32_t *freed; /* snapshots free for reuse */
    size_t nsnaps, capsnaps, nfreed, capfreed;
    uint32_t *msnap; /* per message: its sender's snapshot, NONE: none (yet) */
} exec;

/* ---- happens-before: which steps of a GPU are ordered ----
 *
 * Step u happens before step v when a path of the graph of execution leads from u to v:
 * threadblock order, waits (a waited step has published its counter) and messages (a receive
 * completes after its send, per connection in order; buffers are unbounded, so a send learns
 * nothing of its receive). Order is transitive and may leave the GPU: tb C waits for tb B, which
 * waited for tb A; or tb X sends to another GPU, which forwards it back to tb Y. msccl-tools does
 * not write the waits that order implies (msccl/language/ir.py drops a threadblock's own waits and
 * those an earlier step of it made; the InstructionDAG of rank_dag.py makes a write depend on the
 * reads since the last write, not on that write; infer_dependencies keeps one per threadblock, the
 * latest), so a direct wait is not the test.
 *
 * Vector clocks give it exactly: now[t][c] is how many steps of column c's threadblock happened
 * before the point threadblock t has reached. A step takes the maximum with the clocks of what it
 * waits for and of the message it receives; at its end it counts itself, and its clock is kept
 * (a snapshot) for its message and for each step that waits for it, until they take it. The
 * execution runs in an order of the graph, so every snapshot exists when it is taken. Columns are
 * only the threadblocks that touch a chunk another threadblock of their GPU touches, one of the
 * two writing (all-to-all out of place: none), but the rows are every threadblock's, as order
 * crosses the other GPUs. Cost: (rows + snapshots alive) x columns x 4 bytes, counted against the
 * memory budget (one line past it), and a step's merges are columns each: with T threadblocks,
 * O(steps x T) at worst. So the clocks are built only when needed: the execution first asks the
 * direct waits (waits_for: the later step, or an earlier step of its threadblock, waits for the
 * other's step or a later one), which order every pair in most files (opticoll's exports, the
 * reference files), and starts again with the clocks at the first pair they do not order. */

/* The slot ranges step x of GPU g touches, as run_part does (an re's dst is read and written): n
 * of them, at[] their first slots, wr[] whether written. */
static int step_ranges(const layout *L, uint32_t g, const rstep *x, uint32_t at[2], int wr[2]) {
    const uint8_t f = oc__msccl_kind_flags(x->kind);
    int n = 0;
    if (f & F_RSRC) at[n] = oc__msccl_slot(L, g, x->sbuf, x->soff), wr[n++] = 0;
    if (f & F_WDST) at[n] = oc__msccl_slot(L, g, x->dbuf, x->doff), wr[n++] = 1;
    return n;
}

/* Picks the columns: the rows whose threadblock shares a chunk with another of its GPU, one of
 * them writing. lastw[] (zero, and zeroed again) notes per slot the first threadblock + 1, bit
 * 32 a second one, bit 33 a write. */
static void hb_columns(exec *e) {
    const prog *p = e->p;
    const uint64_t M = e->L->M, SHARED = UINT64_C(1) << 32, WRITTEN = UINT64_C(1) << 33;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t t = 0; t < p->gpus[g].n; t++) {
                const rtb *tb = &p->gpus[g].tbs[t];
                for (uint32_t k = 0; k < tb->n && e->col[e->base[g] + t] == NONE; k++) {
                    uint32_t at[2];
                    int wr[2];
                    const int n = step_ranges(e->L, g, &tb->steps[k], at, wr);
                    for (int r = 0; r < n; r++)
                        for (uint64_t c = g * M + at[r]; c < g * M + at[r] + tb->steps[k].cnt;
                             c++) {
                            uint64_t *w = &e->lastw[c];
                            if (pass == 1) {
                                if ((*w & SHARED) && (*w & WRITTEN)) e->col[e->base[g] + t] = 0;
                                continue;
                            }
                            if (!(uint32_t)*w)
                                *w |= t + 1;
                            else if ((uint32_t)*w != t + 1)
                                *w |= SHARED;
                            if (wr[r]) *w |= WRITTEN;
                        }
                }
            }
    memset(e->lastw, 0, (size_t)p->N * M * sizeof *e->lastw);
    for (uint32_t r = 0; r < e->T; r++)
        if (e->col[r] != NONE) e->col[r] = e->D++;
}

static int hb_init(exec *e, char *why, size_t len) {
    const prog *p = e->p;
    e->base = oc__calloc((size_t)p->N + 1, sizeof *e->base);
    if (!e->base) return oc__msccl_nomem(why, len);
    for (uint32_t g = 0; g < p->N; g++)
        e->base[g + 1] = e->base[g] + (uint32_t)p->gpus[g].n;
    e->T = e->base[p->N];
    e->col = oc__malloc_array((size_t)e->T + 1, sizeof *e->col);
    e->msnap = oc__malloc_array(p->nmsgs + 1, sizeof *e->msnap);
    if (!e->col || !e->msnap) return oc__msccl_nomem(why, len);
    for (uint32_t r = 0; r < e->T; r++)
        e->col[r] = NONE;
    for (size_t m = 0; m < p->nmsgs; m++)
        e->msnap[m] = NONE;
    for (uint32_t g = 0; g < p->N; g++) /* a waited step's snapshot is taken by its waiters */
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                rstep *x = &p->gpus[g].tbs[t].steps[k];
                x->snap = NONE;
                x->takers = 0;
            }
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                const rstep *x = &p->gpus[g].tbs[t].steps[k];
                for (uint32_t w = x->w0; w < x->w0 + x->nw; w++)
                    if (p->waits[w].tb != t)
                        p->gpus[g].tbs[p->waits[w].tb].steps[p->waits[w].k].takers++;
            }
    hb_columns(e);
    if (!e->D) return 0; /* no chunk is shared: nothing to order */
    char what[300];
    snprintf(what, sizeof what, "ordering the steps of %.200s (%u threadblocks x %u)", p->path,
             e->T, e->D);
    int rc = oc__budget_check((uint64_t)e->T * e->D * sizeof *e->now, what, why, len);
    if (rc) return rc;
    e->now = oc__calloc((size_t)e->T * e->D, sizeof *e->now);
    return e->now ? 0 : oc__msccl_nomem(why, len);
}

/* Keeps threadblock row's clock as a snapshot: *out its index. */
static int hb_keep(exec *e, uint32_t row, uint32_t *out, char *why, size_t len) {
    const size_t D = e->D;
    if (!e->nfreed) {
        if (e->nsnaps == e->capsnaps) {
            const size_t next = e->capsnaps ? 2 * e->capsnaps : 16; /* as oc__grow grows */
            char what[300];
            snprintf(what, sizeof what,
                     "ordering the steps of %.200s (%u threadblocks x %u, %zu clocks kept)",
                     e->p->path, e->T, e->D, next);
            int rc = oc__budget_check(((uint64_t)e->T + next) * D * sizeof *e->now, what, why, len);
            if (rc) return rc;
        }
        if (oc__grow((void **)&e->snaps, &e->capsnaps, e->nsnaps + 1, D * sizeof *e->snaps) ||
            oc__grow((void **)&e->freed, &e->capfreed, e->nsnaps + 1, sizeof *e->freed))
            return oc__msccl_nomem(why, len);
        e->freed[e->nfreed++] = (uint32_t)e->nsnaps++;
    }
    *out = e->freed[--e->nfreed];
    memcpy(&e->snaps[*out * D], &e->now[row * D], D * sizeof *e->now);
    return 0;
}

/* Threadblock row takes snapshot *s into its clock; the snapshot is freed when `last`. */
static void hb_take(exec *e, uint32_t row, uint32_t *s, int last) {
    uint32_t *c = &e->now[(size_t)row * e->D];
    const uint32_t *x = &e->snaps[(size_t)*s * e->D];
    for (uint32_t i = 0; i < e->D; i++)
        if (x[i] > c[i]) c[i] = x[i];
    if (last) {
        e->freed[e->nfreed++] = *s;
        *s = NONE;
    }
}

/* Step k of threadblock t on GPU g starts: what it waits for and what it receives happened
 * before it. */
static void hb_enter(exec *e, uint32_t g, uint32_t t, uint32_t k) {
    const prog *p = e->p;
    if (!e->D) return; /* no clocks (yet) */
    const rstep *x = &p->gpus[g].tbs[t].steps[k];
    const uint32_t row = e->base[g] + t;
    for (uint32_t w = x->w0; w < x->w0 + x->nw; w++) {
        const rwaitf *wf = &p->waits[w];
        if (wf->tb == t) continue; /* its own earlier step: threadblock order */
        rstep *d = &p->gpus[g].tbs[wf->tb].steps[wf->k];
        hb_take(e, row, &d->snap, --d->takers == 0);
    }
    if (x->rx != NONE) hb_take(e, row, &e->msnap[x->rx], 1);
}

/* Step k of threadblock t on GPU g has ended: it counts itself, and its clock is kept for its
 * message and for the steps that wait for it. */
static int hb_leave(exec *e, uint32_t g, uint32_t t, uint32_t k, char *why, size_t len) {
    if (!e->D) return 0;
    rstep *x = &e->p->gpus[g].tbs[t].steps[k];
    const uint32_t row = e->base[g] + t;
    int rc = 0;
    if (e->col[row] != NONE) e->now[(size_t)row * e->D + e->col[row]] = k + 1;
    if (x->sx != NONE) rc = hb_keep(e, row, &e->msnap[x->sx], why, len);
    if (!rc && x->takers) rc = hb_keep(e, row, &x->snap, why, len);
    return rc;
}

/* 1 if step j of threadblock a on GPU g happened before step k of threadblock t, which runs
 * now; 0 if not; NEED_ORDER when no direct wait orders them and the clocks are not kept (yet). */
static int hb_before(const exec *e, uint32_t g, uint32_t a, uint32_t j, uint32_t t, uint32_t k) {
    if (waits_for(e->waits, e->nw, g, t, k, a, j)) return 1;
    if (!e->full) return NEED_ORDER;
    const uint32_t c = e->col[e->base[g] + a];
    assert(c != NONE); /* a shares the chunk asked about with t: a column */
    return e->now[(size_t)(e->base[g] + t) * e->D + c] > j;
}

static int race(const exec *e, uint32_t g, uint32_t tb1, uint32_t k1, uint32_t tb2, uint32_t k2,
                uint32_t s, int both_write, char *why, size_t len) {
    const rgpu *gp = &e->p->gpus[g];
    const rstep *x = &gp->tbs[tb1].steps[k1], *y = &gp->tbs[tb2].steps[k2];
    char d[64];
    describe_slot(e->p, e->L, s, d, sizeof d);
    return oc__fail(why, len, OC_EVERIFY,
                    "%s%s: gpu %u: step %d (%s) of threadblock %d and step %d (%s) of threadblock "
                    "%d %s %s with no wait (depid/deps) between them (a race)",
                    e->p->path, e->L->inplace ? " (in place)" : "", g, x->s,
                    oc__msccl_kind_name(x->kind), gp->tbs[tb1].id, y->s,
                    oc__msccl_kind_name(y->kind), gp->tbs[tb2].id,
                    both_write ? "both write" : "read and write", d);
}

/* Step k of threadblock t on GPU g reads (write = 0) or writes slots [s0, s0 + n): refuses an
 * access of another threadblock to them that did not happen before this one (hb_before). */
static int access_slots(exec *e, uint32_t g, uint32_t t, uint32_t k, uint32_t s0, uint32_t n,
                        int write, char *why, size_t len) {
    const uint64_t M = e->L->M;
    int ok;
    for (uint32_t s = s0; s < s0 + n; s++) {
        const uint64_t at = g * M + s;
        const uint64_t w = e->lastw[at];
        if (w && (uint32_t)(w >> 32) - 1 != t &&
            (ok = hb_before(e, g, (uint32_t)(w >> 32) - 1, (uint32_t)w, t, k)) != 1)
            return ok ? ok
                      : race(e, g, t, k, (uint32_t)(w >> 32) - 1, (uint32_t)w, s, write, why, len);
        if (!write) {
            if (oc__grow((void **)&e->rpool, &e->capr, e->nr + 1, sizeof *e->rpool))
                return oc__msccl_nomem(why, len);
            e->rpool[e->nr] = (struct rreader){t, k, e->rhead[at]};
            e->rhead[at] = (uint32_t)e->nr++;
            continue;
        }
        for (uint32_t r = e->rhead[at]; r != NONE; r = e->rpool[r].next)
            if (e->rpool[r].tb != t &&
                (ok = hb_before(e, g, e->rpool[r].tb, e->rpool[r].k, t, k)) != 1)
                return ok ? ok : race(e, g, t, k, e->rpool[r].tb, e->rpool[r].k, s, 0, why, len);
        e->rhead[at] = NONE;
        e->lastw[at] = (uint64_t)(t + 1) << 32 | k;
    }
    return 0;
}

/* x := x + y for one chunk: same label, disjoint contributions. */
static int add_into(exec *e, uint32_t g, const rstep *st, uint32_t *xl, uint64_t *xb, uint32_t yl,
                    const uint64_t *yb, const char *what, char *why, size_t len) {
    const prog *p = e->p;
    if (*xl != yl) {
        char a[80], b[80];
        label_text(p, yl, a, sizeof a);
        label_text(p, *xl, b, sizeof b);
        return oc__fail(why, len, OC_EVERIFY,
                        "%s: line %ld: gpu %u step %d (%s) adds %s to %s (%s)", p->path, st->line,
                        g, st->s, oc__msccl_kind_name(st->kind), a, b, what);
    }
    for (uint32_t w = 0; w < e->words; w++)
        if (xb[w] & yb[w]) {
            char a[80];
            label_text(p, yl, a, sizeof a);
            uint32_t r = w * 64 + (uint32_t)__builtin_ctzll(xb[w] & yb[w]);
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %u step %d (%s) counts the contribution of rank %u "
                            "twice in %s",
                            p->path, st->line, g, st->s, oc__msccl_kind_name(st->kind), r, a);
        }
    for (uint32_t w = 0; w < e->words; w++)
        xb[w] |= yb[w];
    return 0;
}

static int unwritten(const exec *e, uint32_t g, const rstep *st, uint32_t s, char *why,
                     size_t len) {
    char d[64];
    describe_slot(e->p, e->L, s, d, sizeof d);
    return oc__fail(why, len, OC_EVERIFY,
                    "%s%s: line %ld: gpu %u step %d (%s) reads %s before anything was written "
                    "there",
                    e->p->path, e->L->inplace ? " (in place)" : "", st->line, g, st->s,
                    oc__msccl_kind_name(st->kind), d);
}

/* Runs one part of step k of threadblock t on GPU g: its receive (part 0 of a receiving step),
 * its send, or the local step. */
static int run_part(exec *e, uint32_t g, uint32_t t, uint32_t k, int is_send, char *why,
                    size_t len) {
    const prog *p = e->p;
    rgpu *gp = &p->gpus[g];
    rstep *st = &gp->tbs[t].steps[k];
    const uint8_t f = oc__msccl_kind_flags(st->kind);
    const uint32_t W = e->words, M = e->L->M;
    const uint32_t ss = oc__msccl_slot(e->L, g, st->sbuf, st->soff),
                   ds = oc__msccl_slot(e->L, g, st->dbuf, st->doff);
    int rc;
    if (is_send) {
        rmsg *m = &p->msgs[st->sx];
        if (f & F_RECV) return 0; /* forwarded at the receive, below */
        if ((rc = access_slots(e, g, t, k, ss, st->cnt, 0, why, len))) return rc;
        free(m->label); /* an earlier mode's, or an execution started again */
        free(m->bits);
        m->label = oc__calloc(st->cnt, sizeof *m->label);
        m->bits = oc__calloc((size_t)st->cnt * W + 1, sizeof *m->bits);
        if (!m->label || !m->bits) return oc__msccl_nomem(why, len);
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ss + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ss + c, why, len);
            m->label[c] = e->label[at];
            if (W) memcpy(&m->bits[(size_t)c * W], &e->bits[at * W], W * sizeof(uint64_t));
        }
        return 0;
    }
    /* the incoming payload, or for a local step the source chunks */
    uint32_t *inl = e->tmpl;
    uint64_t *inb = e->tmpb;
    rmsg *in = (f & F_RECV) ? &p->msgs[st->rx] : NULL;
    if (in) {
        memcpy(inl, in->label, st->cnt * sizeof *inl);
        if (W) memcpy(inb, in->bits, (size_t)st->cnt * W * sizeof *inb);
        free(in->bits); /* the labels stay: they name the message in the IR */
        in->bits = NULL;
    }
    if (f & F_RSRC) {
        if ((rc = access_slots(e, g, t, k, ss, st->cnt, 0, why, len))) return rc;
        if (st->kind == K_RE && (rc = access_slots(e, g, t, k, ds, st->cnt, 0, why, len)))
            return rc;
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ss + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ss + c, why, len);
            /* a message copied into a chunk that is now an operand of a reduce is reduced */
            if (e->fresh && (f & F_RED) && e->fresh[at] != NONE) p->msgs[e->fresh[at]].reduce = 1;
            if (!in) {
                inl[c] = e->label[at];
                if (W) memcpy(&inb[(size_t)c * W], &e->bits[at * W], W * sizeof(uint64_t));
                continue;
            }
            /* rrc, rrs, rrcs: received + src */
            if ((rc = add_into(e, g, st, &inl[c], &inb[(size_t)c * W], e->label[at],
                               &e->bits[at * W], "received + source", why, len)))
                return rc;
        }
    }
    if (st->kind == K_RE)
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ds + c;
            if (e->label[at] == NONE) return unwritten(e, g, st, ds + c, why, len);
            if (e->fresh && e->fresh[at] != NONE) p->msgs[e->fresh[at]].reduce = 1;
            if ((rc = add_into(e, g, st, &inl[c], &inb[(size_t)c * W], e->label[at],
                               &e->bits[at * W], "source into destination", why, len)))
                return rc;
        }
    if (f & F_WDST) {
        if (!e->L->inplace && st->dbuf == B_I)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: line %ld: gpu %u step %d (%s) writes into the input buffer, "
                            "which out of place is the caller's send buffer",
                            p->path, st->line, g, st->s, oc__msccl_kind_name(st->kind));
        if ((rc = access_slots(e, g, t, k, ds, st->cnt, 1, why, len))) return rc;
        for (uint32_t c = 0; c < st->cnt; c++) {
            const uint64_t at = (uint64_t)g * M + ds + c;
            e->label[at] = inl[c];
            if (W) memcpy(&e->bits[at * W], &inb[(size_t)c * W], W * sizeof(uint64_t));
            if (e->fresh) e->fresh[at] = in && !(f & F_RED) ? st->rx : NONE;
        }
    }
    if (f & F_SEND) { /* rcs, rrs, rrcs forward what they received (and added) */
        rmsg *m = &p->msgs[st->sx];
        free(m->label); /* an earlier mode's, or an execution started again */
        free(m->bits);
        m->label = oc__calloc(st->cnt, sizeof *m->label);
        m->bits = oc__calloc((size_t)st->cnt * W + 1, sizeof *m->bits);
        if (!m->label || !m->bits) return oc__msccl_nomem(why, len);
        memcpy(m->label, inl, st->cnt * sizeof *inl);
        if (W) memcpy(m->bits, inb, (size_t)st->cnt * W * sizeof *inb);
    }
    return 0;
}

/* The end state against the collective's. */
static int check_final(const exec *e, char *why, size_t len) {
    const prog *p = e->p;
    const uint32_t M = e->L->M, W = e->words;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t j = 0; j < p->nbuf[B_O]; j++) {
            const uint32_t want = final_label(p, g, j);
            if (want == NONE) continue;
            const uint32_t s = oc__msccl_slot(e->L, g, B_O, j);
            const uint64_t at = (uint64_t)g * M + s;
            char d[64], a[80], b[80];
            snprintf(d, sizeof d, "output chunk %u", j);
            if (e->label[at] != want) {
                label_text(p, e->label[at], a, sizeof a);
                label_text(p, want, b, sizeof b);
                return oc__fail(why, len, OC_EVERIFY,
                                "%s%s: at the end gpu %u's %s holds %s, not %s", p->path,
                                e->L->inplace ? " (in place)" : "", g, d, a, b);
            }
            for (uint32_t r = 0; r < p->N; r++)
                if (W && !(e->bits[at * W + r / 64] >> (r % 64) & 1)) {
                    label_text(p, want, b, sizeof b);
                    return oc__fail(why, len, OC_EVERIFY,
                                    "%s%s: at the end gpu %u's %s (%s) lacks the contribution "
                                    "of rank %u",
                                    p->path, e->L->inplace ? " (in place)" : "", g, d, b, r);
                }
        }
    return 0;
}

/* The graph of execution: parts (a step's receive, its send, or the local step) in an order
 * that respects threadblock order, messages and waits (Kahn); the parts are run as they come
 * off the queue. A part left over is a deadlock. */
static int execute(exec *e, char *why, size_t len) {
    const prog *p = e->p;
    size_t P = 0;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                rstep *x = &p->gpus[g].tbs[t].steps[k];
                const uint8_t f = oc__msccl_kind_flags(x->kind);
                x->part = (uint32_t)P;
                P += (f & F_RECV && f & F_SEND) ? 2 : 1;
            }
    /* edges: at most one in-step, one threadblock, one message and the waits per part */
    uint32_t *indeg = oc__calloc(P + 1, sizeof *indeg), *first = oc__calloc(P + 2, sizeof *first);
    uint32_t *who = oc__calloc(3 * P + 3, sizeof *who); /* part -> (g, t, k) */
    uint32_t *queue = oc__calloc(P + 1, sizeof *queue);
    uint32_t *to = NULL;
    size_t ne = 0;
    int rc = 0;
    if (!indeg || !first || !who || !queue) {
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    for (int pass = 0; pass < 2 && !rc; pass++) {
        /* pass 0 counts each part's out-edges into first[], pass 1 fills to[] */
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t t = 0; t < p->gpus[g].n; t++) {
                const rtb *tb = &p->gpus[g].tbs[t];
                for (uint32_t k = 0; k < tb->n; k++) {
                    const rstep *x = &tb->steps[k];
                    const uint8_t f = oc__msccl_kind_flags(x->kind);
                    const uint32_t a = x->part, last = (f & F_RECV && f & F_SEND) ? a + 1 : a;
                    uint32_t n = 0;
                    if (pass == 0) {
                        who[3 * a] = g, who[3 * a + 1] = t, who[3 * a + 2] = k;
                        if (last != a)
                            who[3 * last] = g, who[3 * last + 1] = t, who[3 * last + 2] = k;
                    }
                    /* out-edges of this step's parts */
                    uint32_t src[3], dst[3];
                    n = 0;
                    if (last != a) src[n] = a, dst[n++] = last;
                    if (k + 1 < tb->n) src[n] = last, dst[n++] = tb->steps[k + 1].part;
                    if (x->sx != NONE) {
                        const rmsg *m = &p->msgs[x->sx];
                        src[n] = last, dst[n++] = p->gpus[m->dst].tbs[m->rtb].steps[m->rk].part;
                    }
                    for (uint32_t i = 0; i < n; i++) {
                        if (pass == 0) {
                            first[src[i] + 1]++;
                        } else {
                            to[first[src[i]] + indeg[src[i]]++] = dst[i];
                        }
                    }
                    /* waits: from the waited step's last part */
                    for (uint32_t w = x->w0; w < x->w0 + x->nw; w++) {
                        const rstep *d = &p->gpus[g].tbs[p->waits[w].tb].steps[p->waits[w].k];
                        const uint8_t df = oc__msccl_kind_flags(d->kind);
                        const uint32_t dl = (df & F_RECV && df & F_SEND) ? d->part + 1 : d->part;
                        if (pass == 0)
                            first[dl + 1]++;
                        else
                            to[first[dl] + indeg[dl]++] = a;
                    }
                }
            }
        if (pass == 0) {
            for (size_t v = 0; v < P; v++)
                first[v + 1] += first[v];
            ne = first[P];
            to = oc__calloc(ne + 1, sizeof *to);
            if (!to) rc = oc__msccl_nomem(why, len);
        }
    }
    if (rc) goto out;
    memset(indeg, 0, (P + 1) * sizeof *indeg);
    for (size_t i = 0; i < ne; i++)
        indeg[to[i]]++;
    size_t head = 0, tail = 0;
    for (uint32_t v = 0; v < P; v++)
        if (!indeg[v]) queue[tail++] = v;
    while (head < tail && !rc) {
        if (oc__stop_tick()) { /* a program of millions of steps runs for seconds */
            rc = oc__msccl_cancelled(p, why, len);
            break;
        }
        const uint32_t v = queue[head++];
        const uint32_t g = who[3 * v], t = who[3 * v + 1], k = who[3 * v + 2];
        const rstep *x = &p->gpus[g].tbs[t].steps[k];
        const uint8_t f = oc__msccl_kind_flags(x->kind);
        const int is_send = (f & F_SEND) && (!(f & F_RECV) || v == x->part + 1);
        if (v == x->part) hb_enter(e, g, t, k);
        rc = run_part(e, g, t, k, is_send, why, len);
        if (!rc && v == ((f & F_RECV && f & F_SEND) ? x->part + 1 : x->part))
            rc = hb_leave(e, g, t, k, why, len);
        for (uint32_t i = first[v]; i < first[v + 1] && !rc; i++)
            if (--indeg[to[i]] == 0) queue[tail++] = to[i];
    }
    if (!rc && tail < P) {
        /* name the first stuck step in file order */
        uint32_t v = 0;
        while (v < P && !indeg[v])
            v++;
        const uint32_t g = who[3 * v], t = who[3 * v + 1], k = who[3 * v + 2];
        const rstep *x = &p->gpus[g].tbs[t].steps[k];
        rc =
            oc__fail(why, len, OC_EVERIFY,
                     "%s: line %ld: gpu %u threadblock %d step %d (%s) never runs: the steps' "
                     "order, messages and waits form a cycle (the MSCCL program would "
                     "deadlock)",
                     p->path, x->line, g, p->gpus[g].tbs[t].id, x->s, oc__msccl_kind_name(x->kind));
    }
    if (!rc) rc = check_final(e, why, len);
out:
    free(indeg);
    free(first);
    free(who);
    free(queue);
    free(to);
    return rc;
}

/* The cross-threadblock waits of every GPU, sorted, with j the running maximum (waits_for). */
int oc__msccl_collect_waits(const prog *p, rwait **out, size_t *nout, char *why, size_t len) {
    rwait *w = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++) {
                const rstep *x = &p->gpus[g].tbs[t].steps[k];
                for (uint32_t i = x->w0; i < x->w0 + x->nw; i++) {
                    if (p->waits[i].tb == t) continue;
                    if (oc__grow((void **)&w, &cap, n + 1, sizeof *w)) {
                        free(w);
                        return oc__msccl_nomem(why, len);
                    }
                    w[n++] = (rwait){g, t, p->waits[i].tb, k, p->waits[i].k};
                }
            }
    if (n) qsort(w, n, sizeof *w, rwait_cmp);
    for (size_t i = 1; i < n; i++)
        if (w[i].g == w[i - 1].g && w[i].a == w[i - 1].a && w[i].b == w[i - 1].b &&
            w[i - 1].j > w[i].j)
            w[i].j = w[i - 1].j;
    *out = w;
    *nout = n;
    return 0;
}

/* Checks the program in one mode; on success, when `store` is given, the messages as rounds. */
int oc__msccl_check_mode(prog *p, int inplace, const rwait *waits, size_t nw, oc__store *store,
                         char *why, size_t len) {
    layout L;
    make_layout(p, inplace, &L);
    exec e = {.p = p, .L = &L, .waits = waits, .nw = nw};
    e.words = p->reduces ? (p->N + 63) / 64 : 0;
    const uint64_t cells = (uint64_t)p->N * L.M;
    redge *edges = NULL;
    size_t ne = 0, cape = 0;
    uint32_t *level = NULL;
    int rc = 0;
    if (cells > MAX_PAIRS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: %u GPUs x %u chunks of buffers is %llu (GPU, chunk) pairs, more than "
                        "MSCCL files are read with (2^24)",
                        p->path, p->N, L.M, (unsigned long long)cells);
    char what[300];
    snprintf(what, sizeof what, "executing %.256s", p->path);
    uint32_t maxcnt = 1;
    for (uint32_t g = 0; g < p->N; g++)
        for (uint32_t t = 0; t < p->gpus[g].n; t++)
            for (uint32_t k = 0; k < p->gpus[g].tbs[t].n; k++)
                if (p->gpus[g].tbs[t].steps[k].cnt > maxcnt)
                    maxcnt = p->gpus[g].tbs[t].steps[k].cnt;
    if ((rc = oc__budget_check(cells * (4 + 8 + 4 + 4 + (p->reduces ? 4 : 0) + 8 * e.words), what,
                               why, len)))
        return rc;
    e.label = oc__malloc_array(cells, sizeof *e.label);
    e.bits = oc__calloc(cells * e.words + 1, sizeof *e.bits);
    e.lastw = oc__calloc(cells, sizeof *e.lastw);
    e.rhead = oc__malloc_array(cells, sizeof *e.rhead);
    e.fresh = p->reduces ? oc__malloc_array(cells, sizeof *e.fresh) : NULL;
    e.tmpl = oc__calloc(maxcnt, sizeof *e.tmpl);
    e.tmpb = oc__calloc((size_t)maxcnt * e.words + 1, sizeof *e.tmpb);
    if (!e.label || !e.bits || !e.lastw || !e.rhead || (p->reduces && !e.fresh) || !e.tmpl ||
        !e.tmpb) {
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    /* Races: a direct wait orders most pairs (waits_for, cheap); at the first pair it does not,
     * the execution starts again with the clocks of happens-before (hb_init), in the same order,
     * so that a file every pair of which a direct wait orders costs no clocks. */
    for (e.full = 0; e.full < 2; e.full++) {
        for (uint64_t at = 0; at < cells; at++) {
            e.label[at] = NONE;
            e.rhead[at] = NONE;
            e.lastw[at] = 0;
            if (e.fresh) e.fresh[at] = NONE;
        }
        memset(e.bits, 0, cells * e.words * sizeof *e.bits);
        e.nr = 0;
        for (uint32_t g = 0; g < p->N; g++)
            for (uint32_t j = 0; j < p->nbuf[B_I]; j++) {
                const uint64_t at = (uint64_t)g * L.M + oc__msccl_slot(&L, g, B_I, j);
                e.label[at] = initial_label(p, g, j);
                if (e.words && e.label[at] != NONE)
                    e.bits[at * e.words + g / 64] |= UINT64_C(1) << (g % 64);
            }
        for (size_t m = 0; m < p->nmsgs; m++) { /* as the receiving step says, until a reduce
                                                   uses it */
            const rmsg *x = &p->msgs[m];
            p->msgs[m].reduce =
                (oc__msccl_kind_flags(p->gpus[x->dst].tbs[x->rtb].steps[x->rk].kind) & F_RED) != 0;
        }
        if (e.full && (rc = hb_init(&e, why, len))) goto out;
        if ((rc = execute(&e, why, len)) != NEED_ORDER) break;
    }
    if (rc) goto out;
    if (!store) goto out;
    /* rounds */
    const size_t G = p->nmsgs + p->nlocal;
    if ((rc = oc__msccl_round_edges(p, &L, &edges, &ne, &cape, why, len))) goto out;
    level = oc__calloc(G + 1, sizeof *level);
    if (!level) {
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    if ((rc = oc__msccl_levels(p, edges, ne, G, level, why, len))) goto out;
    uint32_t rounds = 0;
    for (size_t i = 0; i < p->nmsgs; i++)
        if (level[i] + 1 > rounds) rounds = level[i] + 1;
    /* a counting sort of the messages by round; empty rounds dropped */
    uint32_t *at = oc__calloc((size_t)rounds + 2, sizeof *at);
    uint32_t *order = oc__calloc(p->nmsgs + 1, sizeof *order);
    if (!at || !order) {
        free(at);
        free(order);
        rc = oc__msccl_nomem(why, len);
        goto out;
    }
    for (size_t i = 0; i < p->nmsgs; i++)
        at[level[i] + 1]++;
    for (uint32_t l = 0; l < rounds; l++)
        at[l + 1] += at[l];
    for (size_t i = 0; i < p->nmsgs; i++)
        order[at[level[i]]++] = (uint32_t)i;
    uint32_t from = 0, out_round = 0;
    for (uint32_t l = 0; l < rounds && !rc; l++) {
        if (at[l] == from) continue;
        oc__round r = {0};
        for (uint32_t k = from; k < at[l] && !rc; k++) {
            const rmsg *m = &p->msgs[order[k]];
            /* the labels the message carried: runs of consecutive labels */
            const uint32_t *lab = m->label;
            for (uint32_t c = 0; c < m->cnt && !rc;) {
                uint32_t c2 = c + 1;
                while (c2 < m->cnt && lab[c2] == lab[c2 - 1] + 1)
                    c2++;
                if (oc__round_push(&r, m->src, m->dst, m->reduce ? OC_OP_REDUCE : OC_OP_COPY,
                                   lab[c], c2 - c))
                    rc = oc__msccl_nomem(why, len);
                c = c2;
            }
        }
        if (!rc) rc = store->sink.round(&store->sink, out_round++, &r, why, len);
        oc__round_free(&r);
        from = at[l];
    }
    free(at);
    free(order);
out:
    free(e.label);
    free(e.bits);
    free(e.lastw);
    free(e.rhead);
    free(e.fresh);
    free(e.rpool);
    free(e.tmpl);
    free(e.tmpb);
    free(e.base);
    free(e.col);
    free(e.now);
    free(e.snaps);
    free(e.freed);
    free(e.msnap);
    free(edges);
    free(level);
    return rc;
}
