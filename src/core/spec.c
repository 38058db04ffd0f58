/*
 * spec.c — the collectives: their names, what SIZE means for each, and how many chunk labels they
 * have. The initial and final states themselves are laid down in the verifier (verify.c), which is
 * the only code that decides whether a schedule is right.
 *
 * SIZE follows MPI's counts: all-gather, gather, scatter, gossip and all-to-all take
 * the size of one node's block (all-to-all: per destination); all-reduce, reduce-scatter and
 * broadcast the whole vector or message.
 */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *summary;
} collectives[OC_COLLECTIVE_COUNT] = {
    [OC_ALLGATHER] = {"allgather", "every node ends with every node's block (SIZE = one block)"},
    [OC_REDUCESCATTER] = {"reducescatter",
                          "node i ends with block i of the sum of all vectors (SIZE = vector)"},
    [OC_ALLREDUCE] = {"allreduce", "every node ends with the sum of all vectors (SIZE = vector)"},
    [OC_BROADCAST] = {"broadcast", "every node ends with the root's message (SIZE = message)"},
    [OC_SCATTER] = {"scatter", "node i ends with block i of the root's data (SIZE = one block)"},
    [OC_GATHER] = {"gather", "the root ends with every node's block (SIZE = one block)"},
    [OC_ALLTOALL] = {"alltoall",
                     "every node sends a distinct block to every node (SIZE = per destination)"},
    [OC_GOSSIP] = {"gossip", "all-to-all broadcast on the star seed's terms (SIZE = one block)"},
};

const char *oc_collective_name(oc_collective c) {
    return (unsigned)c < OC_COLLECTIVE_COUNT ? collectives[c].name : "?";
}

const char *oc_collective_summary(oc_collective c) {
    return (unsigned)c < OC_COLLECTIVE_COUNT ? collectives[c].summary : "?";
}

int oc_collective_from_name(const char *name, oc_collective *out) {
    for (int i = 0; name && i < OC_COLLECTIVE_COUNT; i++) {
        if (strcmp(name, collectives[i].name) == 0) {
            *out = (oc_collective)i;
            return 0;
        }
    }
    return OC_ENOENT;
}

int oc_collective_reduces(oc_collective c) {
    return c == OC_ALLREDUCE || c == OC_REDUCESCATTER;
}

int oc__spec_init(oc__spec *s, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  uint32_t q, char *why, size_t whylen) {
    memset(s, 0, sizeof *s);
    if ((unsigned)coll >= OC_COLLECTIVE_COUNT)
        return oc__fail(why, whylen, OC_EINVAL, "unknown collective");
    if (nodes < 1)
        return oc__fail(why, whylen, OC_EINVAL, "the number of nodes must be at least 1");
    if (nodes > OC_MAX_NODES)
        return oc__fail(why, whylen, OC_ETOOBIG, "%u nodes: at most %u are supported", nodes,
                        OC_MAX_NODES);
    if (root >= nodes)
        return oc__fail(why, whylen, OC_EINVAL, "root %u is not a node (0..%u)", root, nodes - 1);
    if (bytes > OC_MAX_BYTES)
        return oc__fail(why, whylen, OC_ETOOBIG, "size %llu bytes is above the limit of 1 PiB",
                        (unsigned long long)bytes);
    if (q < 1) return oc__fail(why, whylen, OC_EINVAL, "internal: zero chunks per block");
    uint64_t c;
    switch (coll) {
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        c = q;
        break;
    case OC_ALLTOALL:
        c = (uint64_t)nodes * nodes * q;
        break;
    default:
        c = (uint64_t)nodes * q;
        break;
    }
    if (c > UINT32_MAX)
        return oc__fail(why, whylen, OC_ETOOBIG,
                        "%s on %u nodes would need %llu chunk labels (at most %u)",
                        oc_collective_name(coll), nodes, (unsigned long long)c, UINT32_MAX);
    s->coll = coll;
    s->nodes = nodes;
    s->root = root;
    s->q = q;
    s->chunks = (uint32_t)c;
    s->bytes = bytes;
    /* Reduce-scatter's SIZE is the whole vector, cut into N blocks of q chunks; every other
     * collective's SIZE is one block or the whole message, cut into q chunks. */
    s->chunk_bytes = coll == OC_REDUCESCATTER ? oc__ceil_div(bytes, (uint64_t)nodes * q)
                                              : oc__ceil_div(bytes, q);
    return 0;
}

void oc__spec_free(oc__spec *s) {
    free(s->block_node);
    s->block_node = NULL;
}

int oc__spec_check_labels(const oc__spec *s, char *why, size_t whylen) {
    if (!s->block_node) return 0;
    uint8_t *seen = oc__calloc(s->nodes, 1);
    if (!seen) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = 0;
    for (uint32_t b = 0; b < s->nodes; b++) {
        uint32_t v = s->block_node[b];
        if (v >= s->nodes || seen[v]) {
            rc = oc__fail(why, whylen, OC_EVERIFY,
                          "block labelling is not a permutation: block %u names node %u", b, v);
            break;
        }
        seen[v] = 1;
    }
    free(seen);
    return rc;
}

void oc__spec_describe_chunk(const oc__spec *s, uint32_t c, char *buf, size_t len) {
    switch (s->coll) {
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        snprintf(buf, len, "chunk %u (piece %u of %u)", c, c, s->chunks);
        break;
    case OC_ALLTOALL: {
        uint64_t pair = c / s->q;
        snprintf(buf, len, "chunk %u (from node %llu to node %llu)", c,
                 (unsigned long long)(pair % s->nodes), (unsigned long long)(pair / s->nodes));
        break;
    }
    default:
        snprintf(buf, len, "chunk %u (block of node %u)", c, oc__spec_block_node(s, c / s->q));
        break;
    }
}
