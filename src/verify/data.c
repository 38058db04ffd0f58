/*
 * data.c — the real-data executor: runs a schedule on actual buffers and compares the result with
 * the collective computed directly. It shares no state with the symbolic verifier (verify.c), so a
 * bug in one is caught by the other.
 *
 * Copy collectives move 32-bit words: label c carries the word pattern(c) (never 0) and every slot
 * a node does not hold starts as 0, so a missing or misplaced chunk shows as a wrong word.
 * Reductions sum floats: node v's contribution to element e of chunk c is a small integer, so every
 * partial sum is exact in float32 and the result must equal the plain sum over all nodes exactly.
 * A chunk is one word (two floats for a reduction), whatever its size in bytes: a chunk is moved or
 * added whole or not at all, so one word a chunk shows every misplaced, lost, doubled or wrongly
 * summed chunk that a chunk's full bytes would. Sums of small integers are exact in any order, so
 * the order of a reduction is not something the check can (or needs to) see: float addition of
 * these values commutes and associates exactly.
 * Like the network rounds, a round reads every sender's buffer first (into a staging area) and
 * writes every receiver after. The state is skipped past its own threshold (or the memory budget,
 * if lower); a round's staging, whose size a small file can make huge (many transfers of every
 * chunk), is checked against the memory budget before it is made.
 *
 * Two states. The plain state is N x C slots, node n's slot of label c at n C + c: a transfer of a
 * label range is one contiguous copy (or a vectorised sum) there. The orbit state is node 0's C
 * slots alone, for schedules with the rotation symmetry of the ring (issue 31 item 1: the
 * real-data run within 1.3x of the run without it, for every collective).
 *
 * The orbit (rotation rounds). Let rho move a transfer by one node and one block of u = C / N
 * labels (N divides C): src + 1, dst + 1 (mod N), labels first + u (mod C), the same count and
 * op; on a state, rho moves node n's slot of label c to node n + 1's slot of label c + u. A round
 * is invariant when rho maps its transfers onto themselves (as a multiset): a ring family of
 * every node with blocks of u labels from label 0 (node k sends block k - shift to k + hop), or a
 * plain round of consecutive pieces, piece p being N k transfers of which the one k further on is
 * always this one moved by rho (the circulant all-gather's rounds, block by block; the test is the
 * verifier's "rotation rounds", written again here: the piece is then {rho^j(b) : b one of its
 * first k transfers, j < N}, rho^N being the identity), or in any order, the round being node 0's
 * transfers moved by every rho^n (group_invariant; SiPCO's rounds). The start is invariant too when
 *   - reductions: node n's contribution to element e of chunk c depends on n and c only through
 *     the relative label r = (c - n u) mod C (contribution_rel below), and
 *   - all-gather, gossip: block b + 1 starts at node block_node(b) + 1 (the identity does), so
 *     node n holds label c at the start iff node 0 holds label r;
 * and so is the required end (every label everywhere; the sums, which depend on c only through c
 * mod u; a reduce-scatter's node owns block b + 1 when its predecessor owns b). Executing an
 * invariant round on a state invariant under rho (copy words relabelled: node n's word at c is
 * node 0's at r with pattern(r) read as pattern(c), below) gives a state invariant under rho,
 * since each node n receives exactly the transfers into node 0 moved by n steps, reading senders
 * whose slots are node 0's moved. So the whole state is node 0's C slots, and a round is the
 * transfers into node 0 (one for a ring family, found by a scan of a plain round), each sender's
 * slot of label c read as node 0's slot of label (c - src u) mod C, staged before node 0 is
 * written. Nothing is trusted: each round is checked to be invariant (a family by its numbers, a
 * plain round transfer by transfer against its image), and the first round that is not makes the
 * orbit state be written out into the N x C plain state (node n's slot c from node 0's slot r),
 * where the run goes on as before; a transfer out of range is named as the plain path names it.
 * When the N x C state would pass the check's budget (a reduction at N = 4096: 128 MiB) and the
 * orbit state would not, the check runs in the orbit alone; at a round that is not invariant it
 * stops and says it was skipped (oc__datacheck_skipped), never half a verdict.
 *
 * The digit orbit. An all-reduce that states a mixed-radix symmetry (oc__spec.digit_*, rhd's with
 * P = N; C = N) is run the same way under the digit group instead of rho: tau_x adds x to every
 * node and label digit by digit without carries, a level of radix r_p exchanges aligned blocks
 * along digit p, and a round is invariant when it is node 0's transfers (distinct receivers,
 * aligned blocks: w_q labels at a multiple of w_q) moved by every tau_x (the verifier's "Digit
 * orbit reductions" test, written again here). Contributions then depend on c - n digit by digit,
 * the relative label; a sender's slot c is node 0's slot c - src. The expected sum of a chunk is
 * then the sum of every relative label's contribution, as under rho with u = 1.
 *
 * The final check reads node 0's slots (each node's are node 0's moved, so all are right iff node
 * 0's are); where one is wrong, it looks again in node order through the orbit, so that the
 * message names the same node and chunk as the plain state would (tests/test_data_layout.c and
 * tests/test_data_orbit.c hold the two states to the same verdicts and messages). A ring
 * all-gather or all-reduce at N = 4096 then costs C slots and O(u) a round instead of N x C slots;
 * the circulant all-gather, SiPCO and rhd one pass over each round's transfers (the test) and the
 * transfers into node 0, instead of a staged copy or sum of every transfer.
 */
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLOATS_PER_CHUNK = 2 };

/* MODE_GAVE_UP: the orbit met a round that is not invariant and the N x C state does not fit. */
enum { MODE_UNSET, MODE_ORBIT, MODE_PLAIN, MODE_GAVE_UP };

struct oc__datacheck {
    oc__sink sink;
    const oc__spec *spec;
    int reduces;
    uint32_t F;      /* 32-bit elements a slot: 1 word, or FLOATS_PER_CHUNK floats */
    uint32_t u;      /* C / N when N divides C (the contributions are then rho's), else 0 */
    int orbit_start; /* the start and the required end are invariant under the group */
    /* The digit group instead of rho (an all-reduce stating oc__spec.digit_*, C = N): dk digits
     * of radices dr[], place values dw[] (the essay, "The digit orbit"). */
    uint32_t dk, dr[32], dw[33];
    uint32_t dmask[32]; /* every radix a power of two (dpow2): digit p's bits */
    int dpow2;
    uint32_t *dst_of0;   /* a round's node-0 transfers by receiver (their index + 1), N */
    oc__transfer *t0;    /* a round's node-0 transfers */
    unsigned char *seen; /* the (sender, node-0 transfer) pairs a round has */
    size_t t0_cap, seen_cap;
    int plain_fits;  /* the N x C state fits the check's budget */
    uint64_t budget; /* the check's budget, bytes (the lower of the caller's and the library's) */
    int orbit_off;   /* a test's: never the orbit state */
    int mode;        /* MODE_*: the state is made at the first round */
    uint32_t *words; /* copy collectives: node * C + label, or node 0's C (orbit) */
    float *vals;     /* reductions: (node * C + chunk) * F + e, or node 0's C * F (orbit) */
    float *stage;
    size_t stage_cap;
    oc__transfer *in; /* an invariant round's transfers into node 0 */
    size_t in_cap;
    oc__round flat; /* a family round written out, when it is not taken whole */
    uint64_t orbit_rounds;
    char skipped[160];
};

static uint32_t pattern(uint32_t label) {
    uint32_t x = label * 2654435761u + 0x9e3779b9u;
    x ^= x >> 15;
    return x | 1u;
}

/* Contributions: values 1 .. CONTRIBUTION_VALUES, so that a lost contribution always lowers a sum
 * and a doubled one always raises it, and N of them stay exact in float32 (N <= 2^20). */
enum { CONTRIBUTION_VALUES = 13 };

/* When N divides C: node n's contribution to element e of chunk c, through its relative label
 * r = (c - n u) mod C only (invariant under rho), mixed so that the nodes of one chunk (r = c,
 * c - u, ...) get unrelated values whatever u is. */
static float contribution_rel(uint32_t r, uint32_t e) {
    uint32_t x = (r * 2u + e) * 0x9e3779b1u;
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    return (float)(x % CONTRIBUTION_VALUES + 1u);
}

/* Otherwise: through the key (17 c + 7 e) mod 13, so that the sums are one per key. */
static uint32_t contribution_key(uint32_t chunk, uint32_t e) {
    return (uint32_t)(((uint64_t)chunk * 17u + e * 7u) % CONTRIBUTION_VALUES);
}

static float contribution_of(uint32_t node, uint32_t key) {
    return (float)(((uint64_t)node * 31u + key) % CONTRIBUTION_VALUES + 1u);
}

/* a - b digit by digit, without borrows (a, b < N). */
static uint32_t dsub(const oc__datacheck *d, uint32_t a, uint32_t b) {
    uint32_t out = 0;
    if (d->dpow2) { /* a digit's field subtracted alone: its borrow falls outside the mask */
        for (uint32_t p = 0; p < d->dk; p++)
            out |= ((a & d->dmask[p]) - (b & d->dmask[p])) & d->dmask[p];
        return out;
    }
    for (uint32_t p = 0; p < d->dk; p++) {
        const uint32_t x = a / d->dw[p] % d->dr[p], y = b / d->dw[p] % d->dr[p];
        out += (x >= y ? x - y : x + d->dr[p] - y) * d->dw[p];
    }
    return out;
}

/* Node n's label c relative to node n: (c - n u) mod C under rho (n u < C), c - n digit by
 * digit under the digit group. */
static uint32_t rel_of(const oc__datacheck *d, uint32_t n, uint32_t c) {
    if (d->dk) return dsub(d, c, n);
    const uint64_t back = (uint64_t)n * d->u;
    return (uint32_t)(c >= back ? c - back : c + d->spec->chunks - back);
}

static float contribution(const oc__datacheck *d, uint32_t node, uint32_t chunk, uint32_t e) {
    return d->u ? contribution_rel(rel_of(d, node, chunk), e)
                : contribution_of(node, contribution_key(chunk, e));
}

/* Node 0's word w of label `from` read as the word of label `to` at the node rho^n moves it to:
 * pattern(from) becomes pattern(to), 0 stays 0 (a copy keeps a word at its label, so no other
 * word is ever held; another would stay another). */
static uint32_t carried(uint32_t w, uint32_t from, uint32_t to) {
    return w ? w ^ pattern(from) ^ pattern(to) : 0;
}

/* Whether the collective's start and required end are invariant under rho (the essay). */
static int orbit_start(const oc__spec *s) {
    const uint32_t N = s->nodes;
    if (!N || s->chunks % N) return 0;
    switch (s->coll) {
    case OC_ALLREDUCE:
        return 1;
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_REDUCESCATTER:
        for (uint32_t b = 0; b < N; b++) {
            const uint32_t next = oc__spec_block_node(s, b) + 1;
            if (oc__spec_block_node(s, b + 1 == N ? 0 : b + 1) != (next == N ? 0 : next)) return 0;
        }
        return s->q == s->chunks / N;
    default:
        return 0;
    }
}

/* Node n's word of label c (copy collectives). */
static uint32_t word_at(const oc__datacheck *d, uint32_t n, uint32_t c) {
    if (d->mode != MODE_ORBIT) return d->words[(uint64_t)n * d->spec->chunks + c];
    const uint32_t r = rel_of(d, n, c);
    return carried(d->words[r], r, c);
}

/* Node n's element e of chunk c (reductions). */
static float val_at(const oc__datacheck *d, uint32_t n, uint32_t c, uint32_t e) {
    const uint64_t slot =
        d->mode == MODE_ORBIT ? rel_of(d, n, c) : (uint64_t)n * d->spec->chunks + c;
    return d->vals[slot * FLOATS_PER_CHUNK + e];
}

/* The starting state of the mode just chosen: every node's contributions (reductions), or each
 * label's word at the node that starts with it (every other slot 0); in the orbit, node 0's
 * slots alone. 0 or OC_ENOMEM. */
static int fill(oc__datacheck *d) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    const uint32_t holders = d->mode == MODE_ORBIT ? 1 : N;
    const size_t cells = (size_t)holders * C;
    if (d->reduces) {
        if (!(d->vals = oc__malloc_array(cells * FLOATS_PER_CHUNK, sizeof(float))))
            return OC_ENOMEM;
        float *v = d->vals;
        for (uint32_t n = 0; n < holders; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    *v++ = contribution(d, n, c, e);
        return 0;
    }
    if (!(d->words = oc__calloc(cells, sizeof(uint32_t)))) return OC_ENOMEM;
    for (uint32_t c = 0; c < C; c++) {
        uint32_t n;
        switch (s->coll) {
        case OC_BROADCAST:
        case OC_SCATTER:
            n = s->root;
            break;
        case OC_ALLTOALL:
            n = (c / q) % N;
            break;
        default:
            n = oc__spec_block_node(s, c / q);
            break;
        }
        if (n < holders) d->words[(uint64_t)n * C + c] = pattern(c);
    }
    return 0;
}

/* Writes the orbit state out into the N x C plain state: node n's slot of label c is node 0's
 * slot of label (c - n u) mod C (words relabelled). 0 or OC_ENOMEM. */
static int write_out(oc__datacheck *d) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks, F = d->F;
    if (!d->reduces) {
        /* words: the slots node 0 holds (often few: a gossip's first round), each moved to every
         * node (copies are rho's alone: the digit group is an all-reduce's); the rest stay 0 */
        uint32_t *all = oc__calloc((size_t)N * C, sizeof(uint32_t));
        if (!all) return OC_ENOMEM;
        for (uint32_t r = 0; r < C; r++) {
            if (!d->words[r]) continue;
            uint64_t c = r;
            for (uint32_t n = 0; n < N; n++) {
                all[(size_t)n * C + c] = carried(d->words[r], r, (uint32_t)c);
                c += d->u;
                if (c >= C) c -= C;
            }
        }
        free(d->words);
        d->words = all;
        d->mode = MODE_PLAIN;
        return 0;
    }
    float *all = oc__malloc_array((size_t)N * C * F, sizeof(float));
    if (!all) return OC_ENOMEM;
    for (uint32_t n = 0; n < N; n++) {
        uint32_t r = rel_of(d, n, 0);
        for (uint32_t c = 0; c < C; c++) {
            if (d->dk) r = rel_of(d, n, c);
            memcpy(all + ((size_t)n * C + c) * F, d->vals + (size_t)r * F, F * sizeof(float));
            if (++r == C) r = 0; /* rho's relative labels run on with c */
        }
    }
    free(d->vals);
    d->vals = all;
    d->mode = MODE_PLAIN;
    return 0;
}

/* Whether b is rho(a). */
static int rho_next(const oc__datacheck *d, const oc__transfer *a, const oc__transfer *b) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks;
    const uint32_t src = a->src + 1 == N ? 0 : a->src + 1, dst = a->dst + 1 == N ? 0 : a->dst + 1;
    const uint64_t first = (uint64_t)a->first + d->u;
    return b->src == src && b->dst == dst && b->count == a->count && b->op == a->op &&
           b->first == (first >= C ? first - C : first);
}

/* The first transfer of r out of range, as the plain path names it; 0 if none. */
static int out_of_range(const oc__datacheck *d, uint64_t round, const oc__round *r, char *why,
                        size_t len) {
    const oc__spec *s = d->spec;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (t->src >= s->nodes || t->dst >= s->nodes || (uint64_t)t->first + t->count > s->chunks)
            return oc__fail(why, len, OC_EVERIFY, "round %llu: transfer %u -> %u is out of range",
                            (unsigned long long)round, t->src, t->dst);
    }
    return 0;
}

/* Whether the plain round r is invariant under rho: consecutive pieces of N k transfers, each
 * transfer but a piece's last k moved by rho into the one k further on (the essay). */
static int plain_invariant(const oc__datacheck *d, const oc__round *r) {
    const uint32_t N = d->spec->nodes;
    const size_t n = r->count;
    const oc__transfer *x = r->xfers;
    if (N == 1) return 1; /* rho is the identity */
    for (size_t pos = 0; pos < n;) {
        const size_t most = (n - pos) / N; /* the largest k a piece from pos can have */
        size_t k = 1;
        while (k <= most && !rho_next(d, &x[pos], &x[pos + k]))
            k++;
        if (k > most) return 0;
        const size_t end = pos + k * N;
        for (size_t i = pos; i + k < end; i++)
            if (!rho_next(d, &x[i], &x[i + k])) return 0;
        pos = end;
    }
    return 1;
}

/* Whether the plain round r is node 0's transfers moved by every element of the group (rho^n, or
 * the digit group's tau_x), in any order: node 0's transfers have distinct receivers (and, under
 * the digit group, carry aligned blocks: w_q labels at a multiple of w_q, which tau_x moves to
 * aligned blocks); every transfer moved back by its sender is one of them (same op, count and
 * labels: under tau_x the aligned block of its first label moved back); no (sender, one of them)
 * pair comes twice; and there are N times as many transfers as node 0 has. Then the round is
 * exactly the union of node 0's moved by the N elements, a multiset the group maps onto itself
 * (SiPCO's rounds, node by node in receiver order, which the pieces' test does not see). */
static int group_invariant(oc__datacheck *d, const oc__round *r) {
    const uint32_t N = d->spec->nodes;
    const size_t n = r->count;
    const oc__transfer *x = r->xfers;
    size_t n0 = 0;
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        const oc__transfer *t = &x[i];
        if (t->src) continue;
        uint32_t q = 0;
        while (q < d->dk && d->dw[q] < t->count)
            q++;
        ok = (!d->dk || (d->dw[q] == t->count && t->first % t->count == 0)) &&
             !d->dst_of0[t->dst] && !oc__grow((void **)&d->t0, &d->t0_cap, n0 + 1, sizeof *d->t0);
        if (!ok) break;
        d->t0[n0++] = *t;
        d->dst_of0[t->dst] = (uint32_t)n0;
    }
    ok = ok && n0 && n == (uint64_t)n0 * N &&
         !oc__grow((void **)&d->seen, &d->seen_cap, n, sizeof *d->seen);
    if (ok) memset(d->seen, 0, n);
    for (size_t i = 0; i < n && ok; i++) {
        const oc__transfer *t = &x[i];
        const uint32_t to = d->dk              ? dsub(d, t->dst, t->src)
                            : t->dst >= t->src ? t->dst - t->src
                                               : t->dst + (N - t->src);
        const uint32_t j = d->dst_of0[to];
        if (!j) {
            ok = 0;
            break;
        }
        const oc__transfer *b = &d->t0[j - 1];
        const uint32_t back = rel_of(d, t->src, t->first);
        unsigned char *mark = &d->seen[(size_t)t->src * n0 + (j - 1)];
        /* under the digit group b's count is a place value, never 0, so t's is not either */
        ok = t->count == b->count && t->op == b->op && !*mark &&
             (d->dk ? t->first % t->count == 0 && back - back % t->count == b->first
                    : back == b->first);
        *mark = 1;
    }
    for (size_t k = 0; k < n0; k++)
        d->dst_of0[d->t0[k].dst] = 0;
    return ok;
}

/* Reads (into the staging) then writes node 0's slots by the transfers into it, each sender's
 * slot of label c being node 0's of label (c - src u) mod C. 0 or an error. */
static int orbit_apply(oc__datacheck *d, uint64_t round, const oc__transfer *in, size_t nin,
                       char *why, size_t len) {
    const uint32_t C = d->spec->chunks, F = d->F;
    size_t need = 0;
    for (size_t i = 0; i < nin; i++)
        need += (size_t)in[i].count * F;
    if (need > d->stage_cap) {
        char what[96];
        snprintf(what, sizeof what, "round %llu of the data check (staging)",
                 (unsigned long long)round);
        int rc = oc__budget_check((uint64_t)need * sizeof(float), what, why, len);
        if (rc) return rc;
    }
    if (oc__grow((void **)&d->stage, &d->stage_cap, need, sizeof(float)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    uint32_t *stage_words = (uint32_t *)(void *)d->stage;
    size_t at = 0;
    for (size_t i = 0; i < nin; i++) {
        const oc__transfer *t = &in[i];
        uint32_t r = rel_of(d, t->src, t->first);
        for (uint32_t c = t->first; c < t->first + t->count; c++) {
            if (d->dk) r = rel_of(d, t->src, c);
            if (d->reduces) {
                memcpy(d->stage + at, d->vals + (size_t)r * F, F * sizeof(float));
                at += F;
            } else {
                stage_words[at++] = carried(d->words[r], r, c);
            }
            if (++r == C) r = 0;
        }
    }
    at = 0;
    for (size_t i = 0; i < nin; i++) {
        const oc__transfer *t = &in[i];
        const size_t n = (size_t)t->count * F;
        if (!d->reduces) {
            memcpy(d->words + t->first, stage_words + at, n * sizeof(uint32_t));
        } else if (t->op == OC_OP_REDUCE) {
            float *to = d->vals + (size_t)t->first * F;
            for (size_t k = 0; k < n; k++)
                to[k] += d->stage[at + k];
        } else {
            memcpy(d->vals + (size_t)t->first * F, d->stage + at, n * sizeof(float));
        }
        at += n;
    }
    return 0;
}

/* A round in the orbit state: 1 when it was invariant and applied (*rc 0), or when it failed
 * (*rc the error: a transfer out of range, the staging's budget, memory); 0 when it is not
 * invariant (*rc 0): the caller leaves the orbit. */
static int orbit_round(oc__datacheck *d, uint64_t round, const oc__round *r, char *why, size_t len,
                       int *rc) {
    const uint32_t N = d->spec->nodes;
    *rc = 0;
    if (d->orbit_off) return 0;
    if (r->is_family) {
        const oc__family *f = &r->family;
        if (!d->dk && f->n == N && f->first == 0 && f->width == d->u && f->hop < N &&
            f->shift < N) {
            /* the one transfer into node 0: from node -hop */
            const oc__transfer t = oc__family_at(f, f->hop ? N - f->hop : 0);
            *rc = orbit_apply(d, round, &t, 1, why, len);
            d->orbit_rounds += !*rc;
            return 1;
        }
        if (!(r = oc__round_plain(r, &d->flat, rc))) {
            *rc = oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
            return 1;
        }
    }
    if ((*rc = out_of_range(d, round, r, why, len))) return 1;
    if (!(d->dk ? group_invariant(d, r) : plain_invariant(d, r) || group_invariant(d, r))) return 0;
    size_t nin = 0;
    for (size_t i = 0; i < r->count; i++)
        if (r->xfers[i].dst == 0) {
            if (oc__grow((void **)&d->in, &d->in_cap, nin + 1, sizeof *d->in)) {
                *rc = oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
                return 1;
            }
            d->in[nin++] = r->xfers[i];
        }
    *rc = orbit_apply(d, round, d->in, nin, why, len);
    d->orbit_rounds += !*rc;
    return 1;
}

/* A family round (core.h) of every node with a hop in 1..N-1, in the plain state, run on the
 * buffers without staging: its transfers read block (j - shift) mod N of each node j and write
 * block (j - hop - shift) mod N of each node j, never the same block of a node (hop is not 0 mod
 * N), so no write of the round lands where one of its reads looks, and each transfer can be done
 * as it comes: one pass, block by block, instead of a staged copy of every chunk. */
static void family_round(oc__datacheck *d, const oc__family *f) {
    const uint64_t C = d->spec->chunks, w = f->width;
    uint32_t dst = f->hop, block = f->shift ? f->n - f->shift : 0;
    for (uint32_t k = 0; k < f->n; k++) {
        const uint64_t lbl = f->first + (uint64_t)block * w;
        if (d->reduces) {
            const float *from = d->vals + ((uint64_t)k * C + lbl) * FLOATS_PER_CHUNK;
            float *to = d->vals + ((uint64_t)dst * C + lbl) * FLOATS_PER_CHUNK;
            if (f->op == OC_OP_REDUCE)
                for (uint64_t e = 0; e < w * FLOATS_PER_CHUNK; e++)
                    to[e] += from[e];
            else
                memcpy(to, from, (size_t)(w * FLOATS_PER_CHUNK) * sizeof(float));
        } else {
            memcpy(d->words + (uint64_t)dst * C + lbl, d->words + (uint64_t)k * C + lbl,
                   (size_t)w * sizeof(uint32_t));
        }
        if (++dst == f->n) dst = 0;
        if (++block == f->n) block = 0;
    }
}

/* Whether f is a family of every node the plain state runs whole. */
static int family_whole(const oc__datacheck *d, const oc__family *f) {
    const oc__spec *s = d->spec;
    return f->n == s->nodes && f->n >= 2 && f->hop >= 1 && f->hop < f->n && f->shift < f->n &&
           f->width >= 1 && (uint64_t)f->first + (uint64_t)f->n * f->width <= s->chunks &&
           (f->op == OC_OP_COPY || f->op == OC_OP_REDUCE);
}

/* The state's mode, chosen when it is first needed, and its start. 0 or OC_ENOMEM. */
static int start(oc__datacheck *d) {
    d->mode = d->orbit_start && !d->orbit_off ? MODE_ORBIT : MODE_PLAIN;
    return fill(d);
}

static int data_round(oc__sink *self, uint64_t round, const oc__round *r, char *why, size_t len) {
    oc__datacheck *d = (oc__datacheck *)self;
    const oc__spec *s = d->spec;
    const uint64_t C = s->chunks;
    const uint32_t F = d->F;
    if (d->mode == MODE_GAVE_UP) return 0;
    if (d->mode == MODE_UNSET && start(d))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    if (d->mode == MODE_ORBIT) {
        int rc;
        if (orbit_round(d, round, r, why, len, &rc)) return rc;
        if (!d->plain_fits) { /* the orbit alone could run it: say so, and stop */
            snprintf(d->skipped, sizeof d->skipped,
                     "skipped: the real-data state of %u nodes x %u chunks is above %llu MiB, and "
                     "round %llu breaks the symmetry that keeps node 0's alone",
                     s->nodes, s->chunks, (unsigned long long)(d->budget >> 20),
                     (unsigned long long)round);
            d->mode = MODE_GAVE_UP;
            return 0;
        }
        if (write_out(d)) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    }
    if (r->is_family) {
        const oc__family *f = &r->family;
        if (family_whole(d, f)) {
            family_round(d, f);
            return 0;
        }
        int rc;
        if (!(r = oc__round_plain(r, &d->flat, &rc)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    }
    int rc = out_of_range(d, round, r, why, len);
    if (rc) return rc;
    size_t need = 0;
    for (size_t i = 0; i < r->count; i++)
        need += (size_t)r->xfers[i].count * F;
    if (need > d->stage_cap) {
        char what[96];
        snprintf(what, sizeof what, "round %llu of the data check (staging)",
                 (unsigned long long)round);
        if ((rc = oc__budget_check((uint64_t)need * sizeof(float), what, why, len))) return rc;
    }
    if (oc__grow((void **)&d->stage, &d->stage_cap, need, sizeof(float)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    uint32_t *stage_words = (uint32_t *)(void *)d->stage;
    /* Read phase, then write phase. */
    size_t at = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (d->reduces) {
            size_t n = (size_t)t->count * FLOATS_PER_CHUNK;
            memcpy(d->stage + at, d->vals + ((uint64_t)t->src * C + t->first) * FLOATS_PER_CHUNK,
                   n * sizeof(float));
            at += n;
        } else if (t->count <= 2) { /* one or two labels: words, not a call */
            const uint32_t *from = d->words + (uint64_t)t->src * C + t->first;
            stage_words[at++] = from[0];
            if (t->count == 2) stage_words[at++] = from[1];
        } else {
            memcpy(stage_words + at, d->words + (uint64_t)t->src * C + t->first,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    at = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (d->reduces) {
            size_t n = (size_t)t->count * FLOATS_PER_CHUNK;
            float *dst = d->vals + ((uint64_t)t->dst * C + t->first) * FLOATS_PER_CHUNK;
            if (t->op == OC_OP_REDUCE)
                for (size_t k = 0; k < n; k++)
                    dst[k] += d->stage[at + k];
            else
                memcpy(dst, d->stage + at, n * sizeof(float));
            at += n;
        } else if (t->count <= 2) {
            uint32_t *to = d->words + (uint64_t)t->dst * C + t->first;
            to[0] = stage_words[at++];
            if (t->count == 2) to[1] = stage_words[at++];
        } else {
            memcpy(d->words + (uint64_t)t->dst * C + t->first, stage_words + at,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    return 0;
}

int oc__datacheck_new(const oc__spec *s, uint64_t budget, oc__datacheck **out, char *why,
                      size_t len) {
    *out = NULL;
    const int reduces = oc_collective_reduces(s->coll);
    const uint64_t slot = reduces ? FLOATS_PER_CHUNK * sizeof(float) : sizeof(uint32_t);
    const uint64_t plain = (uint64_t)s->nodes * s->chunks * slot, orbit = s->chunks * slot;
    const uint64_t cap = budget < oc__memory_budget() ? budget : oc__memory_budget();
    const int sym = orbit_start(s);
    if (plain > cap && !(sym && orbit <= cap)) return 0;
    oc__datacheck *d = calloc(1, sizeof *d);
    if (!d) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    /* the state is made at the first round (start) */
    d->sink.round = data_round;
    d->sink.takes_family = 1;
    d->spec = s;
    d->reduces = reduces;
    d->F = reduces ? FLOATS_PER_CHUNK : 1;
    d->u = s->nodes && s->chunks % s->nodes == 0 ? s->chunks / s->nodes : 0;
    d->orbit_start = sym;
    /* the digit group, when the spec states one the check can use (an all-reduce of C = N) */
    uint64_t prod = 1;
    for (uint32_t p = 0; p < s->digit_levels && p < 32; p++)
        prod = s->digit_radix[p] >= 2 && prod <= s->nodes ? prod * s->digit_radix[p] : 0;
    if (sym && !(d->dst_of0 = oc__calloc(s->nodes, sizeof *d->dst_of0))) {
        free(d);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    if (s->coll == OC_ALLREDUCE && s->digit_levels >= 1 && s->digit_levels <= 32 &&
        prod == s->nodes && s->chunks == s->nodes) {
        d->dk = s->digit_levels;
        d->dw[0] = 1;
        d->dpow2 = 1;
        for (uint32_t p = 0; p < d->dk; p++) {
            d->dr[p] = s->digit_radix[p];
            d->dw[p + 1] = d->dw[p] * d->dr[p];
            d->dmask[p] = d->dw[p + 1] - d->dw[p];
            d->dpow2 &= (d->dr[p] & (d->dr[p] - 1)) == 0;
        }
    }
    d->plain_fits = plain <= cap;
    d->budget = cap;
    *out = d;
    return 0;
}

oc__sink *oc__datacheck_sink(oc__datacheck *d) {
    return &d->sink;
}

void oc__datacheck_orbit_off(oc__datacheck *d, int off) {
    d->orbit_off = off;
}

uint64_t oc__datacheck_orbit_rounds(const oc__datacheck *d) {
    return d->orbit_rounds;
}

const char *oc__datacheck_skipped(const oc__datacheck *d) {
    return d->mode == MODE_GAVE_UP ? d->skipped : NULL;
}

/* The plain sums over all nodes, computed directly from the contributions: one per residue of c
 * mod u and element (u - 1 of every N labels apart: sums[(c mod u) F + e]), or one per key. */
static double *expected_sums(const oc__datacheck *d) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks, F = FLOATS_PER_CHUNK;
    const size_t n = d->u ? (size_t)d->u * F : CONTRIBUTION_VALUES;
    double *sums = oc__calloc(n, sizeof *sums);
    if (!sums) return NULL;
    if (d->u) {
        for (uint32_t r = 0; r < C; r++)
            for (uint32_t e = 0; e < F; e++)
                sums[(size_t)(r % d->u) * F + e] += contribution_rel(r, e);
    } else {
        for (uint32_t k = 0; k < CONTRIBUTION_VALUES; k++)
            for (uint32_t v = 0; v < N; v++)
                sums[k] += contribution_of(v, k);
    }
    return sums;
}

static double expected(const oc__datacheck *d, const double *sums, uint32_t c, uint32_t e) {
    return d->u ? sums[(size_t)(c % d->u) * FLOATS_PER_CHUNK + e] : sums[contribution_key(c, e)];
}

static int want_word(const oc__datacheck *d, uint32_t node, uint32_t c, char *why, size_t len) {
    const uint32_t got = word_at(d, node, c);
    if (got == pattern(c)) return 0;
    char desc[96];
    oc__spec_describe_chunk(d->spec, c, desc, sizeof desc);
    return oc__fail(why, len, OC_EVERIFY,
                    "data check: node %u holds 0x%08x instead of 0x%08x in %s", node, got,
                    pattern(c), desc);
}

static int want_sum(const oc__datacheck *d, const double *sums, uint32_t node, uint32_t c,
                    char *why, size_t len) {
    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++) {
        const double sum = expected(d, sums, c, e);
        const float got = val_at(d, node, c, e);
        if ((double)got != sum) {
            char desc[96];
            oc__spec_describe_chunk(d->spec, c, desc, sizeof desc);
            return oc__fail(why, len, OC_EVERIFY,
                            "data check: node %u has %.1f instead of the sum %.1f in %s", node,
                            (double)got, sum, desc);
        }
    }
    return 0;
}

/* Every node holds every label's word: in the plain state one memcmp a node against the labels'
 * words, and a node that differs read slot by slot for the first wrong one. */
static int every_word(const oc__datacheck *d, char *why, size_t len) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks;
    uint32_t *want = d->mode == MODE_PLAIN ? oc__malloc_array(C, sizeof *want) : NULL;
    if (want)
        for (uint32_t c = 0; c < C; c++)
            want[c] = pattern(c);
    int rc = 0;
    for (uint32_t n = 0; n < N && !rc; n++) {
        if (want && !memcmp(d->words + (uint64_t)n * C, want, (size_t)C * sizeof *want)) continue;
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, n, c, why, len);
    }
    free(want);
    return rc;
}

/* In the orbit: whether node 0's slots the collective requires are right (then every node's are:
 * the essay). */
static int orbit_right(const oc__datacheck *d, const double *sums) {
    const oc__spec *s = d->spec;
    const uint32_t C = s->chunks;
    for (uint32_t c = 0; c < C; c++) {
        if (s->coll == OC_REDUCESCATTER && oc__spec_block_node(s, c / s->q) != 0) continue;
        if (!d->reduces) {
            if (d->words[c] != pattern(c)) return 0;
            continue;
        }
        for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
            if ((double)d->vals[(size_t)c * FLOATS_PER_CHUNK + e] != expected(d, sums, c, e))
                return 0;
    }
    return 1;
}

int oc__datacheck_finish(oc__datacheck *d, char *why, size_t len) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    int rc = 0;
    double *sums = NULL;
    if (d->mode == MODE_GAVE_UP) return 0;
    if (d->mode == MODE_UNSET && start(d)) /* no round at all */
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    if (d->reduces && !(sums = expected_sums(d)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    if (d->mode == MODE_ORBIT && orbit_right(d, sums)) {
        free(sums);
        return 0;
    }
    /* node order: the first wrong slot, named as the plain state names it */
    switch (s->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_BROADCAST:
        rc = every_word(d, why, len);
        break;
    case OC_GATHER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, s->root, c, why, len);
        break;
    case OC_SCATTER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, oc__spec_block_node(s, c / q), c, why, len);
        break;
    case OC_ALLTOALL:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, (c / q) / N, c, why, len);
        break;
    case OC_ALLREDUCE:
        for (uint32_t n = 0; n < N && !rc; n++)
            for (uint32_t c = 0; c < C && !rc; c++)
                rc = want_sum(d, sums, n, c, why, len);
        break;
    case OC_REDUCESCATTER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_sum(d, sums, oc__spec_block_node(s, c / q), c, why, len);
        break;
    default:
        rc = oc__fail(why, len, OC_EINVAL, "unknown collective");
    }
    free(sums);
    return rc;
}

void oc__datacheck_free(oc__datacheck *d) {
    if (!d) return;
    free(d->words);
    free(d->vals);
    free(d->stage);
    free(d->in);
    free(d->dst_of0);
    free(d->t0);
    free(d->seen);
    oc__round_free(&d->flat);
    free(d);
}
