/*
 * chakra.c — `opticoll export --format chakra -o PREFIX`: the verified schedule
 * as MLCommons Chakra execution traces, the input of ASTRA-sim, one file per rank.
 *
 * The file format is the one Chakra's own tools write and its feeder reads (mlcommons/chakra:
 * src/third_party/utils/protolib.py encodeMessage, src/feeder/et_feeder.cpp): a sequence of
 * protobuf messages, each preceded by its length as a varint; the first is a GlobalMetadata, every
 * later one a Node (schema: chakra_et.proto beside this file, built with protobuf-c). A rank's
 * file holds what that rank does:
 *  - every transfer {src, dst, op, chunks} of round k is a COMM_SEND_NODE in src's file and a
 *    COMM_RECV_NODE in dst's, with the attributes the feeder reads (src/feeder/et_feeder_node.cpp,
 *    with its value types): comm_size (int64: the bytes, chunks x chunk size as in the JSON
 *    export), comm_src and comm_dst (int32: the two ranks), comm_tag (int32: the round k, so a
 *    send meets the receive of the same round; two transfers between one pair in one round meet
 *    in order), is_cpu_op (bool: false, the node runs on the network). A receive that reduces
 *    carries opticoll_reduce = true (ASTRA-sim ignores attributes it does not know).
 *  - node ids count from 0 in each file, in round order; every node of round k depends (data_deps)
 *    on every node of the rank's previous round that has any, which keeps the synchronous round
 *    order of the schedule (a round reads the state at its start) without ordering the
 *    transfers of one round among themselves. Dependencies only point back, so the graph is
 *    acyclic and every dependency is defined before it is used (the feeder resolves them in
 *    windows either way).
 * GlobalMetadata: version "0.0.4" (the Chakra schema version of ASTRA-sim 2.0's feeder) and
 * string attributes schema "opticoll", collective, algorithm, network, rank, ranks.
 *
 * The schedule is verified and mapped first (nothing is handed out unless it passes), kept as
 * rounds (oc__store), sorted into per-rank node lists, and each rank's file is built in memory and
 * handed to the caller's writer (the CLI writes PREFIX.RANK.et whole, through its temporary-and-
 * rename helper, tools/output.c). The traces together have the cap of every output (formats.h:
 * a quarter of the memory budget; 4096 ranks of ring all-gather were 3.6 GB): what they take at
 * least is counted as the rounds are verified (two nodes a transfer), again from the nodes with
 * their dependencies before any file is built, and a file that would pass the cap is refused
 * before it is handed over (one line, OC_ETOOBIG; the CLI then writes none of them).
 * Built only when protoc-c and libprotobuf-c were found; otherwise the export says so
 * (OC_ENOTSUP).
 */
#include "formats/formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef OC_HAVE_CHAKRA
#include "chakra_et.pb-c.h"

/* The fewest bytes a node takes in its file: its five attributes' names alone are 42 bytes, each
 * attribute has a tag, a length and a value besides (5 x 6), and the node's name is at least 12
 * ("send r0 0->1") — 84 and more; a file of ring all-gather has about 100 a node. The sum over
 * every rank (and a byte a dependency) is what the traces take at least: past the output cap,
 * they are refused before the first rank's file is built. */
enum { LEAST_NODE_BYTES = 64 };

/* One communication node of a rank. */
typedef struct cnode {
    uint64_t round, bytes;
    uint32_t peer;
    uint8_t recv, reduce;
} cnode;

typedef struct crank {
    cnode *nodes;
    size_t count, cap;
} crank;

/* A growing byte buffer: one rank's file. */
typedef struct cbuf {
    uint8_t *data;
    size_t len, cap;
} cbuf;

static int buf_reserve(cbuf *b, size_t more) {
    if (more > SIZE_MAX - b->len) return OC_ENOMEM;
    return oc__grow((void **)&b->data, &b->cap, b->len + more, 1);
}

/* A message with its varint length in front (protolib's encodeMessage). */
static int put_message(cbuf *b, const ProtobufCMessage *m) {
    size_t n = protobuf_c_message_get_packed_size(m);
    if (n > UINT32_MAX || buf_reserve(b, n + 5)) return OC_ENOMEM;
    uint64_t v = n;
    do {
        uint8_t byte = (uint8_t)(v & 0x7f);
        v >>= 7;
        b->data[b->len++] = (uint8_t)(byte | (v ? 0x80 : 0));
    } while (v);
    b->len += protobuf_c_message_pack(m, b->data + b->len);
    return 0;
}

static void attr_str(ChakraProtoMsg__AttributeProto *a, const char *name, const char *v) {
    chakra_proto_msg__attribute_proto__init(a);
    a->name = (char *)name;
    a->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
    a->string_val = (char *)v;
}

static void attr_i32(ChakraProtoMsg__AttributeProto *a, const char *name, int32_t v) {
    chakra_proto_msg__attribute_proto__init(a);
    a->name = (char *)name;
    a->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL;
    a->int32_val = v;
}

static void attr_i64(ChakraProtoMsg__AttributeProto *a, const char *name, int64_t v) {
    chakra_proto_msg__attribute_proto__init(a);
    a->name = (char *)name;
    a->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL;
    a->int64_val = v;
}

static void attr_bool(ChakraProtoMsg__AttributeProto *a, const char *name, int v) {
    chakra_proto_msg__attribute_proto__init(a);
    a->name = (char *)name;
    a->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_VAL;
    a->bool_val = v != 0;
}

static int put_metadata(cbuf *b, const char *coll, const char *algo, const char *net, uint32_t rank,
                        uint32_t ranks) {
    char r[16], n[16];
    snprintf(r, sizeof r, "%u", rank);
    snprintf(n, sizeof n, "%u", ranks);
    ChakraProtoMsg__AttributeProto a[6], *ap[6];
    attr_str(&a[0], "schema", "opticoll");
    attr_str(&a[1], "collective", coll);
    attr_str(&a[2], "algorithm", algo);
    attr_str(&a[3], "network", net);
    attr_str(&a[4], "rank", r);
    attr_str(&a[5], "ranks", n);
    for (size_t i = 0; i < 6; i++)
        ap[i] = &a[i];
    ChakraProtoMsg__GlobalMetadata g = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
    g.version = (char *)"0.0.4";
    g.n_attr = 6;
    g.attr = ap;
    return put_message(b, &g.base);
}

/* Rank v's file: the metadata, then its nodes in round order. deps has room for the largest
 * round of any rank. */
static int build_rank(cbuf *b, const crank *rk, uint32_t v, uint32_t ranks, const char *coll,
                      const char *algo, const char *net, uint64_t *deps) {
    b->len = 0;
    int rc = put_metadata(b, coll, algo, net, v, ranks);
    size_t prev_lo = 0, prev_hi = 0, lo = 0; /* the previous round's ids, this round's first */
    for (size_t j = 0; j < rk->count && !rc; j++) {
        const cnode *c = &rk->nodes[j];
        if (j > 0 && c->round != rk->nodes[j - 1].round) prev_lo = lo, prev_hi = j, lo = j;
        for (size_t k = prev_lo; k < prev_hi; k++)
            deps[k - prev_lo] = k;
        uint32_t src = c->recv ? c->peer : v, dst = c->recv ? v : c->peer;
        char name[96];
        snprintf(name, sizeof name, "%s r%llu %u->%u%s", c->recv ? "recv" : "send",
                 (unsigned long long)c->round, src, dst, c->reduce ? " reduce" : "");
        ChakraProtoMsg__AttributeProto a[6], *ap[6];
        attr_bool(&a[0], "is_cpu_op", 0);
        attr_i64(&a[1], "comm_size", (int64_t)c->bytes);
        attr_i32(&a[2], "comm_src", (int32_t)src);
        attr_i32(&a[3], "comm_dst", (int32_t)dst);
        attr_i32(&a[4], "comm_tag", (int32_t)c->round);
        attr_bool(&a[5], "opticoll_reduce", c->reduce);
        size_t na = c->reduce ? 6 : 5;
        for (size_t i = 0; i < na; i++)
            ap[i] = &a[i];
        ChakraProtoMsg__Node n = CHAKRA_PROTO_MSG__NODE__INIT;
        n.id = j;
        n.name = name;
        n.type = c->recv ? CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE
                         : CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE;
        n.n_data_deps = prev_hi - prev_lo;
        n.data_deps = n.n_data_deps ? deps : NULL;
        n.n_attr = na;
        n.attr = ap;
        rc = put_message(b, &n.base);
    }
    return rc;
}

static int push_node(crank *rk, cnode c) {
    if (oc__grow((void **)&rk->nodes, &rk->cap, rk->count + 1, sizeof(cnode))) return OC_ENOMEM;
    rk->nodes[rk->count++] = c;
    return 0;
}

static int export_chakra_in(const oc_request *req, oc_chakra_writer write, void *ctx, char *why,
                            size_t len) {
    oc__export ex;
    oc__store store;
    oc__store_init(&store);
    crank *ranks = NULL;
    cbuf buf = {0};
    uint64_t *deps = NULL;
    uint32_t N = 0;
    int rc = oc__export_begin(req, &ex, why, len);
    if (rc) goto out;
    const oc__spec *s = &ex.plan.spec;
    N = s->nodes;
    /* 1. Verify and map (nothing is handed out unless this passes), keeping the rounds. */
    /* the traces' least size (LEAST_NODE_BYTES a node, two nodes a transfer) against the cap
     * while the rounds are verified and kept: refused then, not after every round was stored */
    oc__size_counter size = oc__size_counter_of("the Chakra export", 2 * LEAST_NODE_BYTES, 0, 0);
    store.sink.next = &size.sink;
    if ((rc = oc__export_check(req, &ex, &store.sink, NULL, why, len))) goto out;
    if (store.count > INT32_MAX) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "Chakra export: %zu rounds do not fit comm_tag (an int32)", store.count);
        goto out;
    }
    /* 2. Every transfer as a send at its source and a receive at its destination. */
    uint64_t transfers = 0;
    for (size_t i = 0; i < store.count; i++)
        transfers += store.rounds[i].count;
    if ((rc = oc__budget_check(transfers * 2 * sizeof(cnode), "the Chakra export's nodes", why,
                               len)))
        goto out;
    ranks = oc__calloc(N, sizeof *ranks);
    if (!ranks) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < store.count && !rc; i++)
        for (size_t t = 0; t < store.rounds[i].count && !rc; t++) {
            const oc__transfer *x = &store.rounds[i].xfers[t];
            uint64_t bytes = s->chunk_bytes * x->count;
            int red = x->op == OC_OP_REDUCE;
            rc = push_node(&ranks[x->src], (cnode){i, bytes, x->dst, 0, 0});
            if (!rc) rc = push_node(&ranks[x->dst], (cnode){i, bytes, x->src, 1, (uint8_t)red});
        }
    if (rc) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* 3. One file per rank, each handed to the writer as soon as it is built. */
    /* The widest round of any rank (the room for one node's dependencies), and the largest
     * file: a node takes at most ~128 bytes besides its dependencies, a dependency at most 10
     * (a varint), and node j of a round depends on all of the previous round. */
    size_t widest = 1;
    uint64_t largest = 0, least = 0;
    for (uint32_t v = 0; v < N; v++) {
        uint64_t deps_total = 0;
        for (size_t j = 0, lo = 0, prev = 0; j <= ranks[v].count; j++)
            if (j == ranks[v].count || ranks[v].nodes[j].round != ranks[v].nodes[lo].round) {
                if (j - lo > widest) widest = j - lo;
                deps_total += (uint64_t)(j - lo) * prev;
                prev = j - lo;
                lo = j;
            }
        uint64_t file = 128 * (uint64_t)ranks[v].count + 10 * deps_total;
        if (file > largest) largest = file;
        least += LEAST_NODE_BYTES * (uint64_t)ranks[v].count + deps_total;
    }
    if (least > oc__output_cap()) {
        char cap[32];
        oc__format_bytes(cap, sizeof cap, oc__output_cap());
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "the Chakra export of %u ranks would take at least %llu bytes, more than "
                      "its cap of %s (a quarter of the memory budget; set "
                      "OPTICOLL_MEMORY_BUDGET_MIB)",
                      N, (unsigned long long)least, cap);
        goto out;
    }
    if ((rc = oc__budget_check(largest, "the largest rank's Chakra trace", why, len))) goto out;
    deps = oc__calloc(widest, sizeof *deps);
    if (!deps) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    const char *coll = oc_collective_name(s->coll), *net = ex.model ? ex.model->info.name : "none";
    uint64_t written = 0; /* handed to the writer so far, against the cap */
    for (uint32_t v = 0; v < N; v++) {
        if (build_rank(&buf, &ranks[v], v, N, coll, ex.algo->info.name, net, deps)) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
        if (buf.len > oc__output_cap() - written) {
            rc = oc__output_refuse("the Chakra export", v, "ranks", why, len);
            goto out;
        }
        written += buf.len;
        if ((rc = write(ctx, v, buf.data, buf.len))) {
            oc__fail(why, len, rc, "Chakra export: the trace of rank %u could not be written", v);
            goto out;
        }
    }
out:
    for (uint32_t v = 0; ranks && v < N; v++)
        free(ranks[v].nodes);
    free(ranks);
    free(buf.data);
    free(deps);
    oc__store_free(&store);
    oc__export_end(&ex);
    return rc;
}

int oc_export_chakra(const oc_request *req, oc_chakra_writer write, void *ctx, char *why,
                     size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = export_chakra_in(req, write, ctx, why, len);
    oc__settings_leave(prev);
    return rc;
}

#else /* built without protobuf-c */

int oc_export_chakra(const oc_request *req, oc_chakra_writer write, void *ctx, char *why,
                     size_t len) {
    (void)req, (void)write, (void)ctx;
    return oc__fail(why, len, OC_ENOTSUP,
                    "Chakra export: this build has no protobuf-c (install protobuf-c-compiler and "
                    "libprotobuf-c-dev, then rebuild)");
}

#endif
