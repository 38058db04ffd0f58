/*
 * hypercube_table.c — the schedule table of the optimal all-to-all scatter on the all-port
 * full-duplex SF non-combining hypercube (all-to-all-scatter-notes, "Noncombining model with SF
 * switching", "All-port full-duplex hypercube").
 *
 * The notes reduce the optimal schedule to a table: in round i every node sends along dimension j
 * the packet whose relative address (source XOR destination, kept unchanged along the way) is
 * r_ij. The notes' text is garbled ("2n-1"): the table has 2^(n-1) rows (the n = 4 table has 8),
 * the relative addresses are the 2^n - 1 nonzero n-bit strings, and the lower bound is 2^(n-1)
 * rounds. Construction, rows i = 0 .. 2^(n-1)-1:
 *     m_i = 2i + 1 (an n-bit string, always odd);
 *     (i)  r_ij = m_i with bit j+1 inverted for j <= n-2, r_i,n-1 = m_i;
 *     (ii) swap bits 0 and j of r_ij.
 * For n = 4 this gives the notes' table row by row (first row 0011 0110 1100 1000; the test
 * compares all 32 entries). Constraints, checked here by code rather than by the notes' lemma:
 *     (a) bit j of every entry of column j is 1;
 *     (b) no relative address twice in one row;
 *     (c) every nonzero r appears exactly once in every column j with r[j] = 1.
 * Since column j has 2^(n-1) entries and exactly 2^(n-1) strings have bit j set, (c) holds iff
 * (a) holds and no column repeats an entry; that is what the check tests, in O(n 2^n) time with
 * one bitmap of 2^n bits per column, plus O(n^2) per row for (b).
 */
#include "aas/hypercube_table.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

static uint32_t swap_bits(uint32_t v, unsigned a, unsigned b) {
    uint32_t x = ((v >> a) ^ (v >> b)) & 1u;
    return v ^ (x << a) ^ (x << b);
}

int oc__hcube_table_build(unsigned n, uint32_t *r) {
    if (n > OC__HCUBE_MAX_DIM) return OC_ERANGE;
    const uint64_t rows = oc__hcube_rounds(n);
    for (uint64_t i = 0; i < rows; i++) {
        const uint32_t m = (uint32_t)(2 * i + 1);
        for (unsigned j = 0; j < n; j++) {
            uint32_t v = j + 1 < n ? m ^ (1u << (j + 1)) : m;
            r[i * n + j] = swap_bits(v, 0, j);
        }
    }
    return 0;
}

static void bits(char *buf, unsigned n, uint32_t v) {
    for (unsigned b = 0; b < n; b++)
        buf[b] = (char)('0' + ((v >> (n - 1 - b)) & 1u));
    buf[n] = '\0';
}

int oc__hcube_table_check(unsigned n, const uint32_t *r, char *why, size_t len) {
    if (n > OC__HCUBE_MAX_DIM)
        return oc__fail(why, len, OC_ERANGE, "hypercube dimension %u is above the %u supported", n,
                        OC__HCUBE_MAX_DIM);
    const uint64_t rows = oc__hcube_rounds(n);
    const uint32_t all = n ? (uint32_t)((UINT64_C(1) << n) - 1) : 0;
    const size_t words = n ? (size_t)((UINT64_C(1) << n) + 63) / 64 : 1;
    uint64_t *seen = oc__calloc(words, sizeof *seen);
    char a[40];
    int rc = 0;
    if (!seen) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < rows && !rc; i++)
        for (unsigned j = 0; j < n && !rc; j++) {
            const uint32_t v = r[i * n + j];
            const unsigned long long R = (unsigned long long)i + 1;
            if (v == 0 || (v & ~all)) {
                rc = oc__fail(why, len, OC_EVERIFY,
                              "round %llu, column j=%u: entry %#x is not a nonzero %u-bit string",
                              R, j, v, n);
            } else if (!((v >> j) & 1u)) {
                bits(a, n, v);
                rc = oc__fail(why, len, OC_EVERIFY,
                              "round %llu, column j=%u: %s has bit %u = 0 (constraint (a))", R, j,
                              a, j);
            } else {
                for (unsigned k = 0; k < j; k++)
                    if (r[i * n + k] == v) {
                        bits(a, n, v);
                        rc = oc__fail(why, len, OC_EVERIFY,
                                      "round %llu, columns j=%u and j=%u: both send %s "
                                      "(constraint (b))",
                                      R, k, j, a);
                        break;
                    }
            }
        }
    for (unsigned j = 0; j < n && !rc; j++) {
        memset(seen, 0, words * sizeof *seen);
        for (uint64_t i = 0; i < rows; i++) {
            const uint32_t v = r[i * n + j];
            if (seen[v / 64] >> (v % 64) & 1u) {
                uint64_t first = 0;
                while (r[first * n + j] != v)
                    first++;
                bits(a, n, v);
                rc = oc__fail(why, len, OC_EVERIFY,
                              "round %llu, column j=%u: %s crosses dimension %u again (first in "
                              "round %llu; constraint (c): exactly once)",
                              (unsigned long long)i + 1, j, a, j, (unsigned long long)first + 1);
                break;
            }
            seen[v / 64] |= UINT64_C(1) << (v % 64);
        }
    }
    free(seen);
    return rc;
}
