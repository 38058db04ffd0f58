/*
 * hypercube_table.h — the schedule table of the time- and transmission-optimal all-to-all scatter
 * on the all-port full-duplex store-and-forward non-combining hypercube Q_n
 * (all-to-all-scatter-notes, "Noncombining model with SF switching").
 *
 * The table has 2^(n-1) rows (rounds) and n columns (dimensions): r[i*n + j] is the relative
 * address (source XOR destination) of the packets that cross dimension j in round i. Built by the
 * notes' construction and checked against the notes' constraints (a)-(c) by code.
 */
#ifndef OC_HYPERCUBE_TABLE_H
#define OC_HYPERCUBE_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* The largest dimension the table is built for: n 2^(n-1) entries (20: 40 MiB). */
#define OC__HCUBE_MAX_DIM 20u

/* Rows of the table of Q_n: 2^(n-1) for n >= 1, 0 for n = 0 (one node, nothing to send). */
static inline uint64_t oc__hcube_rounds(unsigned n) {
    return n ? UINT64_C(1) << (n - 1) : 0;
}

/* Fills r[0 .. n 2^(n-1)) by the notes' construction; OC_ERANGE for n > OC__HCUBE_MAX_DIM. */
int oc__hcube_table_build(unsigned n, uint32_t *r);

/* Checks constraints (a) r_ij[j] = 1, (b) no relative address twice in a row, (c) every nonzero
 * n-bit r appears exactly once in every column j with r[j] = 1 (and every entry is a nonzero
 * n-bit string). 0, or OC_EVERIFY with the round, the column and the constraint in why (rounds
 * counted from 1 as in the notes), or OC_ENOMEM / OC_ERANGE. */
int oc__hcube_table_check(unsigned n, const uint32_t *r, char *why, size_t whylen);

#endif
