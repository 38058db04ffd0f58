/*
 * schedule.c — rounds, the streaming emitter and the in-memory store.
 *
 * An algorithm calls oc__emit_transfer() for each transfer of a round and oc__emit_round() at the
 * end of it; the round then flows through the sinks (semantic verifier, network model, exporter)
 * and its buffer is reused. So a schedule of 16.8 M chunk-transfers (ring all-gather on 4096 nodes)
 * never has to be held in memory at once. The emitter checks only what it must to keep the IR well
 * formed (a label range inside 0..C-1, a count above zero); everything semantic is the verifier's
 * job.
 *
 * A windowed emitter (one verifier shard's pass, run/shard.c) keeps only the transfers
 * touching its chunk window, each with its position in the whole round, and still counts rounds
 * that kept nothing, so a shard's rounds and positions are the whole schedule's. The round's
 * buffer is checked against the memory budget whenever it doubles past 4096 transfers. Each
 * transfer ticks the thread's stop watch (core/progress.h), so that a caller's request to stop is
 * heard inside a round of millions of transfers, not only once it is over.
 */
#include "core/core.h"
#include "core/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oc__round_push(oc__round *r, uint32_t src, uint32_t dst, oc__op op, uint32_t first,
                   uint32_t count) {
    if (r->count == r->cap &&
        oc__grow((void **)&r->xfers, &r->cap, r->count + 1, sizeof(oc__transfer)))
        return OC_ENOMEM;
    oc__transfer *t = &r->xfers[r->count++];
    t->src = src;
    t->dst = dst;
    t->first = first;
    t->count = count;
    t->op = (uint32_t)op;
    return 0;
}

int oc__family_expand(const oc__family *f, oc__round *out) {
    if (oc__grow((void **)&out->xfers, &out->cap, f->n ? f->n : 1, sizeof(oc__transfer)))
        return OC_ENOMEM;
    oc__transfer *x = out->xfers;
    /* the receiver and the block advance with k, wrapping at n: no division a transfer */
    uint32_t dst = f->hop, block = f->shift ? f->n - f->shift : 0;
    for (uint32_t k = 0; k < f->n; k++) {
        x[k] = (oc__transfer){k, dst, f->first + block * f->width, f->width, f->op};
        if (++dst == f->n) dst = 0;
        if (++block == f->n) block = 0;
    }
    out->count = f->n;
    out->is_family = 0;
    return 0;
}

const oc__round *oc__round_plain(const oc__round *r, oc__round *flat, int *rc) {
    *rc = 0;
    if (!r->is_family) return r;
    if ((*rc = oc__family_expand(&r->family, flat))) return NULL;
    return flat;
}

void oc__round_free(oc__round *r) {
    free(r->xfers);
    free(r->index);
    memset(r, 0, sizeof *r);
}

void oc__emit_init(oc__emit *e, const oc__spec *spec, oc__sink *sinks, char *why, size_t whylen) {
    memset(e, 0, sizeof *e);
    e->spec = spec;
    e->sinks = sinks;
    e->why = why;
    e->whylen = whylen;
}

void oc__emit_free(oc__emit *e) {
    oc__round_free(&e->cur);
    oc__round_free(&e->flat);
}

/* The round's buffer may grow to `need` transfers: checked against the memory budget first. */
static int round_room(oc__emit *e, const oc__round *r, size_t need) {
    if (need <= r->cap || need <= 4096) return 0;
    size_t grown = r->cap ? r->cap : 16; /* what oc__grow will make */
    while (grown < need && grown <= SIZE_MAX / 2)
        grown *= 2;
    char what[96];
    snprintf(what, sizeof what, "round %llu, of more than %zu transfers,",
             (unsigned long long)e->rounds, e->cur.count);
    return oc__budget_check((uint64_t)grown * sizeof(oc__transfer), what, e->why, e->whylen);
}

/* A family round becomes its transfers in cur, before anything is added to it. */
static int unfold(oc__emit *e) {
    if (!e->cur.is_family) return 0;
    int rc = round_room(e, &e->cur, e->cur.family.n);
    if (!rc && oc__family_expand(&e->cur.family, &e->cur)) rc = OC_ENOMEM;
    return rc;
}

int oc__emit_family(oc__emit *e, const oc__family *f) {
    if (f->n == 0) return 0;
    if (f->width == 0 || f->hop >= f->n || f->shift >= f->n ||
        (uint64_t)f->first + (uint64_t)f->n * f->width > e->spec->chunks)
        return oc__fail(e->why, e->whylen, OC_EINVAL,
                        "internal: round %llu emits a family of %u blocks of %u from %u outside "
                        "0..%u",
                        (unsigned long long)e->rounds, f->n, f->width, f->first, e->spec->chunks);
    if (e->windowed) { /* one by one: the window keeps its own */
        int rc = 0;
        for (uint32_t k = 0; !rc && k < f->n; k++) {
            const oc__transfer t = oc__family_at(f, k);
            rc = oc__emit_transfer(e, t.src, t.dst, (oc__op)t.op, t.first, t.count);
        }
        return rc;
    }
    if (e->cur.count || e->cur.is_family) { /* not the whole round: written out, in order */
        oc__transfer *x;
        int rc = oc__emit_many(e, f->n, &x);
        for (uint32_t k = 0; !rc && k < f->n; k++)
            x[k] = oc__family_at(f, k);
        return rc;
    }
    e->cur.is_family = 1;
    e->cur.family = *f;
    e->cur.count = f->n;
    e->raw += f->n;
    return 0;
}

void oc__emit_window(oc__emit *e, uint32_t lo, uint32_t hi) {
    e->windowed = 1;
    e->win_lo = lo;
    e->win_hi = hi;
}

int oc__emit_transfer(oc__emit *e, uint32_t src, uint32_t dst, oc__op op, uint32_t first,
                      uint32_t count) {
    if (count == 0 || (uint64_t)first + count > e->spec->chunks)
        return oc__fail(e->why, e->whylen, OC_EINVAL,
                        "internal: round %llu emits chunks [%u, %u+%u) outside 0..%u",
                        (unsigned long long)e->rounds, first, first, count, e->spec->chunks);
    /* a round of millions of transfers takes seconds: a stop is heard inside it */
    if (oc__stop_tick())
        return oc__fail(e->why, e->whylen, OC_ECANCELED, "cancelled inside round %llu",
                        (unsigned long long)e->rounds + 1);
    int urc = unfold(e);
    if (urc) return urc;
    const uint64_t at = e->raw++;
    if (e->cur.count == e->cur.cap && e->cur.cap >= 4096) {
        /* the round's buffer doubles: checked against the budget before it is made */
        char what[96];
        snprintf(what, sizeof what, "round %llu, of more than %zu transfers,",
                 (unsigned long long)e->rounds, e->cur.count);
        int rc = oc__budget_check(2 * (uint64_t)e->cur.cap * sizeof(oc__transfer), what, e->why,
                                  e->whylen);
        if (rc) return rc;
    }
    if (!e->windowed) return oc__round_push(&e->cur, src, dst, op, first, count);
    if (first >= e->win_hi || first + count <= e->win_lo) {
        e->dropped++;
        return 0;
    }
    oc__round *r = &e->cur;
    if (r->count == r->index_cap &&
        oc__grow((void **)&r->index, &r->index_cap, r->count + 1, sizeof(uint64_t)))
        return OC_ENOMEM;
    r->index[r->count] = at;
    return oc__round_push(r, src, dst, op, first, count);
}

int oc__emit_many(oc__emit *e, size_t n, oc__transfer **out) {
    oc__round *r = &e->cur;
    int rc = unfold(e);
    if (rc) return rc;
    const size_t need = r->count + n;
    /* as in oc__emit_transfer: the buffer's growth is checked against the budget first */
    if ((rc = round_room(e, r, need))) return rc;
    if (oc__grow((void **)&r->xfers, &r->cap, need, sizeof(oc__transfer))) return OC_ENOMEM;
    if (e->windowed) {
        if (oc__grow((void **)&r->index, &r->index_cap, need, sizeof(uint64_t))) return OC_ENOMEM;
        for (size_t i = 0; i < n; i++)
            r->index[r->count + i] = e->raw + i;
    }
    e->raw += n;
    *out = &r->xfers[r->count];
    r->count = need;
    return 0;
}

int oc__emit_round(oc__emit *e) {
    if (e->raw == 0 && e->cur.count == 0) return 0;
    e->raw = 0;
    /* A family goes whole to the sinks that take families; the others get it written out, once
     * (e->flat), when the first of them comes. */
    int flat = 0;
    for (oc__sink *s = e->sinks; s && e->cur.count; s = s->next) {
        const oc__round *r = &e->cur;
        if (r->is_family && !s->takes_family) {
            if (!flat) {
                int rc = round_room(e, &e->flat, r->family.n);
                if (rc) return rc;
                if (oc__family_expand(&r->family, &e->flat))
                    return oc__fail(e->why, e->whylen, OC_ENOMEM, "out of memory");
                flat = 1;
            }
            r = &e->flat;
        }
        int rc = s->round(s, e->rounds, r, e->why, e->whylen);
        if (rc) return rc;
    }
    e->rounds++;
    e->transfers += e->cur.count;
    if (e->cur.is_family) {
        e->units += (uint64_t)e->cur.family.n * e->cur.family.width;
    } else {
        for (size_t i = 0; i < e->cur.count; i++)
            e->units += e->cur.xfers[i].count;
    }
    e->cur.count = 0;
    e->cur.is_family = 0;
    return 0;
}

/* ---- store ---- */

static int store_round(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                       size_t whylen) {
    (void)index;
    oc__store *s = (oc__store *)self;
    const uint64_t bytes = s->bytes + sizeof(oc__round) + (uint64_t)r->count * sizeof(oc__transfer);
    int rc = oc__budget_check(bytes, "keeping the whole schedule", why, whylen);
    if (rc) return rc;
    s->bytes = bytes;
    if (oc__grow((void **)&s->rounds, &s->cap, s->count + 1, sizeof(oc__round)))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory storing round %zu", s->count);
    oc__round *copy = &s->rounds[s->count];
    memset(copy, 0, sizeof *copy);
    if (r->count) {
        copy->xfers = oc__malloc_array(r->count, sizeof(oc__transfer));
        if (!copy->xfers) return oc__fail(why, whylen, OC_ENOMEM, "out of memory storing a round");
        memcpy(copy->xfers, r->xfers, r->count * sizeof(oc__transfer));
        copy->count = copy->cap = r->count;
    }
    s->count++;
    return 0;
}

void oc__store_init(oc__store *s) {
    memset(s, 0, sizeof *s);
    s->sink.round = store_round;
}

void oc__store_free(oc__store *s) {
    for (size_t i = 0; i < s->count; i++)
        oc__round_free(&s->rounds[i]);
    free(s->rounds);
    memset(s, 0, sizeof *s);
}

int oc__store_replay(const oc__store *s, oc__sink *sinks, char *why, size_t whylen) {
    uint64_t index = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (s->rounds[i].count == 0) continue;
        for (oc__sink *k = sinks; k; k = k->next) {
            int rc = k->round(k, index, &s->rounds[i], why, whylen);
            if (rc) return rc;
        }
        index++;
    }
    return 0;
}
