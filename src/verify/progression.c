/*
 * progression.c — periodic sets of nodes (progression.h): the reduction verifier's contribution
 * sets written as a period and the pattern of one period, so that recursive halving's strided
 * sets (the nodes congruent to x mod w: ceil(N / w) intervals as a plain list) cost the verifier
 * a few intervals instead of N / w. Each function is exact: a shorter period is taken only when
 * the set is checked to repeat with it, and answers are computed on patterns written over one
 * common period, where they are the plain lists' answers (a value below the period is below N).
 */
#include "verify/progression.h"

static uint32_t gcd32(uint32_t a, uint32_t b) {
    while (b) {
        const uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

uint32_t oc__pset_common_period(uint32_t a, uint32_t b, uint32_t N) {
    if (a == b) return a;
    const uint64_t l = (uint64_t)(a / gcd32(a, b)) * b;
    return l < N ? (uint32_t)l : N;
}

/* Appends [lo, hi) to out[0..k), joining it to the last interval when they touch. */
static uint32_t append(oc__range *out, uint32_t k, uint32_t lo, uint32_t hi) {
    if (k && out[k - 1].hi >= lo) {
        if (hi > out[k - 1].hi) out[k - 1].hi = hi;
        return k;
    }
    out[k] = (oc__range){lo, hi};
    return k + 1;
}

uint32_t oc__pset_lift(const oc__pset *x, uint32_t L, oc__range *out) {
    uint32_t k = 0;
    for (uint64_t base = 0; base < L; base += x->S)
        for (uint32_t i = 0; i < x->n; i++) {
            const uint64_t lo = base + x->iv[i].lo, hi = base + x->iv[i].hi;
            if (lo >= L) return k;
            k = append(out, k, (uint32_t)lo, hi < L ? (uint32_t)hi : L);
        }
    return k;
}

uint32_t oc__pset_first_common(const oc__range *a, uint32_t an, const oc__range *b, uint32_t bn) {
    uint32_t i = 0, j = 0;
    while (i < an && j < bn) {
        const uint32_t lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo;
        const uint32_t hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
        if (lo < hi) return lo;
        if (a[i].hi < b[j].hi)
            i++;
        else
            j++;
    }
    return UINT32_MAX;
}

uint32_t oc__pset_union(const oc__range *a, uint32_t an, const oc__range *b, uint32_t bn,
                        oc__range *out) {
    uint32_t i = 0, j = 0, k = 0;
    while (i < an || j < bn) {
        const oc__range next = j >= bn || (i < an && a[i].lo <= b[j].lo) ? a[i++] : b[j++];
        k = append(out, k, next.lo, next.hi);
    }
    return k;
}

uint32_t oc__pset_first_missing(const oc__pset *x, uint32_t N) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < x->n && x->iv[i].lo <= m; i++)
        if (x->iv[i].hi > m) m = x->iv[i].hi;
    return m < x->S ? m : N;
}

/* Whether the pattern iv over [0, S) repeats with period T < S: its part below S - T, moved up
 * by T, is its part from T on. Early out at the first difference. */
static int repeats(const oc__range *iv, uint32_t n, uint32_t S, uint32_t T) {
    uint32_t ia = 0, ib = 0;
    while (ib < n && iv[ib].hi <= T)
        ib++;
    for (;;) {
        const int has_a = ia < n && iv[ia].lo < S - T, has_b = ib < n;
        if (!has_a || !has_b) return has_a == has_b;
        const uint32_t alo = iv[ia].lo + T, ahi = (iv[ia].hi < S - T ? iv[ia].hi : S - T) + T;
        const uint32_t blo = iv[ib].lo > T ? iv[ib].lo : T, bhi = iv[ib].hi;
        if (alo != blo || ahi != bhi) return 0;
        ia++, ib++;
    }
}

/* How many candidate periods oc__pset_reduce tries per pass: a pattern of r points (a radix-r
 * level's) repeats at the first distance; a few more catch patterns of a few intervals. */
#define REDUCE_TRIES 4

void oc__pset_reduce(uint32_t N, uint32_t *S, oc__range *iv, uint32_t *n) {
    for (;;) {
        /* An interval starting at 0 may be the tail of one cut off by 0: measure from the next. */
        const uint32_t i0 = *n && iv[0].lo == 0 ? 1 : 0;
        uint32_t T = 0;
        for (uint32_t j = i0 + 1; j < *n && j <= i0 + REDUCE_TRIES; j++) {
            const uint32_t t = iv[j].lo - iv[i0].lo;
            if (*S < N && *S % t) continue;
            /* A set that repeats with period t starts below t and has nothing past its last
             * interval + t (unless that interval runs to the end): O(1) tests that turn away
             * most candidates of a set that does not repeat (a radix-r level on its way). */
            if (iv[0].lo >= t || (iv[*n - 1].lo + (uint64_t)t < *S && iv[*n - 1].hi != *S))
                continue;
            if (repeats(iv, *n, *S, t)) {
                T = t;
                break;
            }
        }
        if (!T) return;
        uint32_t k = 0;
        while (k < *n && iv[k].lo < T) {
            if (iv[k].hi > T) iv[k].hi = T;
            k++;
        }
        *n = k;
        *S = T;
    }
}

int oc__prog_pack(uint32_t S, const oc__range *iv, uint32_t n, oc__prog *p) {
    if (n == 1) {
        if (iv[0].hi - iv[0].lo >= S) return 0;
        *p = (oc__prog){1, S, iv[0].lo, iv[0].hi - iv[0].lo};
        return 1;
    }
    if (n == 2 && iv[0].lo == 0 && iv[1].hi == S) { /* one interval around the end */
        *p = (oc__prog){1, S, iv[1].lo, iv[0].hi + (S - iv[1].lo)};
        return 1;
    }
    /* Points: n - 1 gaps between them and the one around the end; all but the largest equal
     * (d), the largest at least d. The progression starts after the largest. */
    uint32_t big = n - 1, gap_big = iv[0].lo + S - iv[n - 1].lo;
    for (uint32_t i = 0; i < n; i++)
        if (iv[i].hi - iv[i].lo != 1) return 0;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (iv[i + 1].lo - iv[i].lo > gap_big) {
            big = i;
            gap_big = iv[i + 1].lo - iv[i].lo;
        }
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == big) continue;
        const uint32_t g = i + 1 < n ? iv[i + 1].lo - iv[i].lo : iv[0].lo + S - iv[n - 1].lo;
        if (d && g != d) return 0;
        d = g;
    }
    if (d < 2) return 0;
    *p = (oc__prog){n, S, iv[(big + 1) % n].lo, d};
    return 1;
}

uint32_t oc__prog_unpack(const oc__prog *p, oc__range *out) {
    if (p->m == 1) {
        const uint64_t end = (uint64_t)p->a + p->x;
        if (end <= p->S) {
            out[0] = (oc__range){p->a, (uint32_t)end};
            return 1;
        }
        out[0] = (oc__range){0, (uint32_t)(end - p->S)};
        out[1] = (oc__range){p->a, p->S};
        return 2;
    }
    /* The points that pass S come around first (all below a: m d <= S), then the others. */
    uint32_t k = 0, first = 0; /* first: how many stay below S */
    while (first < p->m && (uint64_t)p->a + (uint64_t)first * p->x < p->S)
        first++;
    for (uint32_t i = first; i < p->m; i++) {
        const uint32_t z = (uint32_t)((uint64_t)p->a + (uint64_t)i * p->x - p->S);
        k = append(out, k, z, z + 1);
    }
    for (uint32_t i = 0; i < first; i++) {
        const uint32_t z = p->a + i * p->x;
        k = append(out, k, z, z + 1);
    }
    return k;
}
