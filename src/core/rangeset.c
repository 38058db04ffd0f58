/*
 * rangeset.c — sorted interval sets (see rangeset.h). A union of one range or of a sorted batch
 * is made in place: a binary search finds where each piece goes and only the intervals whose
 * index changes move (a batch merged with the whole set into a fresh array cost O(n) a batch,
 * quadratic over an all-to-all node's N-interval held set). Membership is a binary search.
 * Nothing here allocates per value.
 */
#include "core/rangeset.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

void oc__rangeset_free(oc__rangeset *s) {
    free(s->iv);
    memset(s, 0, sizeof *s);
}

static int reserve(oc__rangeset *s, size_t need) {
    if (need <= s->cap) return 0;
    size_t cap = s->cap;
    if (oc__grow((void **)&s->iv, &cap, need, sizeof(oc__range))) return OC_ENOMEM;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    s->cap = (uint32_t)cap;
    return 0;
}

int oc__rangeset_copy(oc__rangeset *dst, const oc__rangeset *src) {
    if (reserve(dst, src->n)) return OC_ENOMEM;
    if (src->n) memcpy(dst->iv, src->iv, src->n * sizeof(oc__range));
    dst->n = src->n;
    dst->size = src->size;
    return 0;
}

/* Index of the last interval with lo <= v, or -1. Sets mostly grow at their end (ranges arrive in
 * label order), so the last interval is tried before the binary search. */
static long find(const oc__rangeset *s, uint32_t v) {
    if (s->n && s->iv[s->n - 1].lo <= v) return (long)s->n - 1;
    long a = 0, b = (long)s->n - 2, r = -1;
    while (a <= b) {
        long m = a + (b - a) / 2;
        if (s->iv[m].lo <= v) {
            r = m;
            a = m + 1;
        } else {
            b = m - 1;
        }
    }
    return r;
}

/* Index of the first interval with hi >= v (the first one a range starting at v overlaps or
 * touches), or n. The last two intervals are tried before the binary search, as in find(). */
static size_t first_reaching(const oc__rangeset *s, uint32_t v) {
    size_t n = s->n;
    if (n == 0 || s->iv[n - 1].hi < v) return n;
    if (n == 1 || s->iv[n - 2].hi < v) return n - 1;
    size_t a = 0, b = n - 2; /* the answer is in [a, b] */
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (s->iv[m].hi < v)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

int oc__rangeset_contains(const oc__rangeset *s, uint32_t lo, uint32_t hi) {
    if (lo >= hi) return 1;
    long i = find(s, lo);
    return i >= 0 && s->iv[i].hi >= hi;
}

uint32_t oc__rangeset_first_missing(const oc__rangeset *s, uint32_t lo, uint32_t hi) {
    if (lo >= hi) return hi;
    long i = find(s, lo);
    if (i < 0 || s->iv[i].hi <= lo) return lo;
    return s->iv[i].hi < hi ? s->iv[i].hi : hi;
}

/* s := s ∪ [r.lo, r.hi), in place: the hot path of the verifier (one range per transfer).
 * Intervals a..b-1 are those r overlaps or touches: from the first that reaches r.lo up to the
 * last starting at or before r.hi; they and r become one interval. */
static int insert_one(oc__rangeset *s, oc__range r, uint64_t *overlap) {
    const uint64_t old = s->size;
    const size_t a = first_reaching(s, r.lo);
    size_t b = a;
    uint64_t removed = 0;
    while (b < s->n && s->iv[b].lo <= r.hi) {
        removed += s->iv[b].hi - s->iv[b].lo;
        b++;
    }
    if (b == a) {
        if (reserve(s, (size_t)s->n + 1)) return OC_ENOMEM;
        memmove(&s->iv[a + 1], &s->iv[a], (s->n - a) * sizeof(oc__range));
        s->iv[a] = r;
        s->n++;
        s->size += r.hi - r.lo;
    } else {
        oc__range m = r;
        if (s->iv[a].lo < m.lo) m.lo = s->iv[a].lo;
        if (s->iv[b - 1].hi > m.hi) m.hi = s->iv[b - 1].hi;
        s->iv[a] = m;
        size_t gone = b - a - 1;
        if (gone) memmove(&s->iv[a + 1], &s->iv[b], (s->n - b) * sizeof(oc__range));
        s->n -= (uint32_t)gone;
        s->size = s->size - removed + (m.hi - m.lo);
    }
    if (overlap) *overlap = old + (r.hi - r.lo) - s->size;
    return 0;
}

/* One stretch of the union: the ranges of add that touch each other, or touch through intervals
 * of s, become the interval [lo, hi), which replaces s's intervals a..b-1 (none when a == b). */
typedef struct stretch {
    oc__range merged;
    uint32_t a, b;
} stretch;

/* s := s ∪ add for a batch, in place, in O(m log n + what moves) for m ranges into n intervals.
 *
 * The verifier's held sets reach thousands of disjoint intervals (an all-to-all node holds one
 * block of every other node's row besides its own column, N intervals) and take a few ranges a
 * round (k-shift sends `shifts` blocks to each node per round). Merging the whole set with the
 * batch into a fresh array each time made every round O(n) per node: 50 s of CPU at N = 4096
 * (docs/search-speed.md, "The held sets' unions"). Here the first pass finds, by a binary search
 * per stretch, the intervals each stretch absorbs; the second moves only the untouched runs of
 * intervals whose index changes (none when every stretch absorbs exactly one interval, as a
 * block that extends a held run does), then writes the stretches into their slots.
 *
 * The moves are ordered so that no run overwrites one not yet moved: run r (the intervals between
 * stretch r-1 and stretch r) shifts by d_r = (stretches before it) - (intervals they absorbed).
 * Runs that shift left (d <= 0) are moved in index order; a maximal sequence of runs that shift
 * right is moved from its last run back. A right-shifting run's destination ends before the
 * source of the next run when that one shifts left or stays (the stretch between them absorbed at
 * least d + 1 intervals), so both orders only overwrite what was already moved or absorbed. The
 * stretches' own intervals were kept aside in the first pass and are written last. */
static int union_batch(oc__rangeset *s, const oc__range *add, size_t m, uint64_t *overlap,
                       stretch *st) {
    const uint32_t n = s->n;
    uint64_t added = 0, absorbed_size = 0, merged_size = 0;
    size_t g = 0, absorbed = 0;
    uint32_t from = 0; /* intervals before it were absorbed or lie before the last stretch */
    for (size_t j = 0; j < m;) {
        oc__range r = add[j];
        added += r.hi - r.lo;
        j++;
        /* The first interval that reaches r.lo: at or after `from`, since every interval before
         * it ends before the last stretch's hi, which is below r.lo. */
        uint32_t a = from;
        if (a < n && s->iv[a].hi < r.lo) {
            const oc__rangeset tail = {s->iv + a, n - a, n - a, 0};
            a += (uint32_t)first_reaching(&tail, r.lo);
        }
        uint32_t b = a;
        for (;;) {
            int grew = 0;
            while (j < m && add[j].lo <= r.hi) {
                added += add[j].hi - add[j].lo;
                if (add[j].hi > r.hi) r.hi = add[j].hi;
                j++;
                grew = 1;
            }
            while (b < n && s->iv[b].lo <= r.hi) {
                absorbed_size += s->iv[b].hi - s->iv[b].lo;
                if (s->iv[b].hi > r.hi) r.hi = s->iv[b].hi;
                b++;
                grew = 1;
            }
            if (!grew) break;
        }
        if (b > a && s->iv[a].lo < r.lo) r.lo = s->iv[a].lo;
        st[g++] = (stretch){r, a, b};
        absorbed += b - a;
        merged_size += r.hi - r.lo;
        from = b;
    }
    const size_t count = (size_t)n - absorbed + g;
    /* Sized n + m after every batch, as the old merge into a fresh array sized it: the verifier
     * counts a set's memory by its room (cap) against its budget, so its count and its budget
     * verdicts stay what they were. Shrinking is in place; growing is the allocator's (in place
     * when it can), and only when the set outgrows its last batch's room. */
    const size_t want = (size_t)n + m > UINT32_MAX ? UINT32_MAX : (size_t)n + m;
    if (count > want) return OC_ENOMEM;
    if (want != s->cap) {
        oc__range *iv = realloc(s->iv, want * sizeof(oc__range));
        if (!iv) return OC_ENOMEM;
        s->iv = iv;
        s->cap = (uint32_t)want;
    }
    /* Run r is [st[r-1].b, st[r].a) (r = 0: from 0, unmoved; r = g: up to n), shifting by
     * shift(r) = r - (intervals absorbed by stretches 0..r-1). */
    size_t r = 1;
    long shift = 1 - (long)(st[0].b - st[0].a);
    while (r <= g) {
        if (shift <= 0) {
            const size_t lo = st[r - 1].b, hi = r < g ? st[r].a : n;
            if (shift && hi > lo)
                memmove(&s->iv[(long)lo + shift], &s->iv[lo], (hi - lo) * sizeof(oc__range));
            if (r < g) shift += 1 - (long)(st[r].b - st[r].a);
            r++;
            continue;
        }
        /* Runs r..e-1 all shift right: move them from the last back. */
        size_t e = r;
        long last = shift;
        while (e + 1 <= g && last + 1 - (long)(st[e].b - st[e].a) > 0) {
            last += 1 - (long)(st[e].b - st[e].a);
            e++;
        }
        /* Now runs r..e shift right; last is run e's shift. */
        long sh = last;
        for (size_t k = e + 1; k-- > r;) {
            const size_t lo = st[k - 1].b, hi = k < g ? st[k].a : n;
            if (hi > lo) memmove(&s->iv[(long)lo + sh], &s->iv[lo], (hi - lo) * sizeof(oc__range));
            if (k > r) sh -= 1 - (long)(st[k - 1].b - st[k - 1].a);
        }
        shift = last;
        if (e < g) shift += 1 - (long)(st[e].b - st[e].a);
        r = e + 1;
    }
    /* Stretch k lands just before run k + 1's first interval: at st[k].a plus run k's shift. */
    long before = 0;
    for (size_t k = 0; k < g; k++) {
        s->iv[(long)st[k].a + before] = st[k].merged;
        before += 1 - (long)(st[k].b - st[k].a);
    }
    s->n = (uint32_t)count;
    const uint64_t size = s->size - absorbed_size + merged_size;
    if (overlap) *overlap = s->size + added - size;
    s->size = size;
    return 0;
}

int oc__rangeset_union(oc__rangeset *s, const oc__range *add, size_t n, uint64_t *overlap) {
    if (n == 1) return insert_one(s, add[0], overlap);
    if (n == 0) {
        if (overlap) *overlap = 0;
        return 0;
    }
    /* The stretches are at most one per range of add: on the stack for the verifier's usual
     * handful, else on the heap (sized by the caller's batch, which it already holds). */
    stretch local[64];
    stretch *st = n <= 64 ? local : oc__malloc_array(n, sizeof(stretch));
    if (!st) return OC_ENOMEM;
    const int rc = union_batch(s, add, n, overlap, st);
    if (st != local) free(st);
    return rc;
}
