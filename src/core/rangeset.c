/*
 * rangeset.c — sorted interval sets (see rangeset.h). Union merges two sorted lists in one pass;
 * membership is a binary search. Nothing here allocates per value.
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

int oc__rangeset_union(oc__rangeset *s, const oc__range *add, size_t n, uint64_t *overlap) {
    if (n == 1) return insert_one(s, add[0], overlap);
    uint64_t added = 0;
    for (size_t i = 0; i < n; i++) added += add[i].hi - add[i].lo;
    if (n == 0) {
        if (overlap) *overlap = 0;
        return 0;
    }
    size_t total = (size_t)s->n + n;
    oc__range *out = oc__malloc_array(total, sizeof(oc__range));
    if (!out) return OC_ENOMEM;
    size_t i = 0, j = 0, k = 0;
    uint64_t size = 0;
    while (i < s->n || j < n) {
        oc__range next;
        if (j >= n || (i < s->n && s->iv[i].lo <= add[j].lo))
            next = s->iv[i++];
        else
            next = add[j++];
        if (k > 0 && next.lo <= out[k - 1].hi) {
            if (next.hi > out[k - 1].hi) {
                size += next.hi - out[k - 1].hi;
                out[k - 1].hi = next.hi;
            }
        } else {
            out[k++] = next;
            size += next.hi - next.lo;
        }
    }
    if (overlap) *overlap = s->size + added - size;
    free(s->iv);
    s->iv = out;
    s->n = (uint32_t)k;
    s->cap = (uint32_t)total;
    s->size = size;
    return 0;
}
