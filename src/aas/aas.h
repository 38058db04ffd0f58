/*
 * aas.h — what the all-to-all algorithms of the all-to-all-scatter notes (CS838 section 14) share:
 * the packet labels, the plan, and the way their formula() prices the notes' closed forms with the
 * direct network's settings, typed as the model parsed them (core/netcfg.h, oc__formula_in.cfg).
 *
 * Packets. SIZE is one packet (the notes' mu bytes) per destination per node, so every algorithm
 * here plans q = 1 chunk per block: packet (d, s), what node s sends node d, is label d N + s, and
 * for one destination the packets of a contiguous range of sources are one label range.
 */
#ifndef OC_ALGO_AAS_H
#define OC_ALGO_AAS_H

#include "algo/algos.h"
#include "core/netcfg.h"

/* Emits the packets (d, s) for s in [s0, s0 + count) from node `from` to node `to`. */
int oc__aas_send(oc__emit *e, uint32_t from, uint32_t to, uint32_t d, uint32_t s0, uint32_t count);

/* plan() of these algorithms: parameters in `known` only, one chunk per block, at most
 * `transfers` transfers. */
int oc__aas_plan(oc__plan *p, const char *algo, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, const char *const *known, uint64_t transfers,
                 char *why, size_t len);

/* The direct network the run was mapped on, as its model parsed it (in->cfg); 0, or OC_EINVAL
 * when it was another network. */
int oc__aas_network(const oc__formula_in *in, oc__direct_cfg *cfg);

/* Sets the seed's closed forms: steps and time (time < 0: none). */
void oc__aas_formula(oc_report *rep, double steps, double time_s);

/* Notes the ways the network differs from the model the notes' formula assumes: switching
 * (want_wh), combining, ports (want_allport < 0: either), duplex (want_full < 0: either). */
int oc__aas_assumptions(oc_report *rep, const oc__direct_cfg *cfg, int want_wh, int want_combining,
                        int want_allport, int want_full);

/* 1 if n is a power of two (n >= 1); *log = log2 n. */
int oc__aas_pow2(uint32_t n, uint32_t *log);

#endif
