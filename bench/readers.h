/*
 * readers.h — large inputs for the readers and checkers, written by one
 * generator that `make bench` times at 10^6 items and tests/test_readers.c checks at the sizes
 * where the quadratic readers took more than 10 s.
 *
 * Each kind is a file a user could hand to opticoll: a schedule whose `params` or
 * `network_params` hold n keys, a gather whose one round sends n single-chunk ranges to the root
 * in descending order, an MSCCL all-gather on 2 GPUs with n threadblocks on each, and a models
 * file of n models. Reading one back runs the whole reader: parse, checks, verifier.
 */
#ifndef OC_BENCH_READERS_H
#define OC_BENCH_READERS_H

#include "opticoll.h"

#include <stddef.h>

typedef enum {
    OC_RK_PARAMS,      /* schedule JSON, n keys in "params" */
    OC_RK_NET_PARAMS,  /* schedule JSON, n keys in "network_params" (network switch) */
    OC_RK_GATHER_DESC, /* schedule JSON, gather on 2 nodes: n ranges in descending order */
    OC_RK_MSCCL_TBS,   /* MSCCL XML, all-gather on 2 GPUs with n threadblocks each */
    OC_RK_MODELS,      /* models file, n models */
    OC_RK_COUNT
} oc_reader_kind;

/* A short name ("params", "gather-desc", ...) and what n counts ("keys", "ranges", ...). */
const char *oc_reader_kind_name(int kind);
const char *oc_reader_kind_unit(int kind);
/* Writes the input of `kind` with n items to path; 0, or -1 when it cannot be written. */
int oc_reader_write(int kind, size_t n, const char *path);
/* Reads it back through the library, with `settings` (NULL: the defaults), and checks what it read
 * (n keys, n models, a verified schedule): 0, or the library's error (or -1 for a wrong result)
 * with the reason in why. */
int oc_reader_read(const oc_settings *settings, int kind, size_t n, const char *path, char *why,
                   size_t len);

#endif
