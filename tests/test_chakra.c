/*
 * test_chakra.c — the Chakra execution traces of `export --format chakra` (src/formats/chakra.c),
 * decoded with protobuf-c from the schema the library was built with, against the schedule as the
 * JSON export writes it (an independent path through the same verified pipeline). For every
 * registered algorithm on N in {2, 3, 5, 8, 12} (16 for one that takes none of them), on the first
 * of its networks that takes the case (direct networks in wormhole mode):
 *  - each rank's file is a length-prefixed GlobalMetadata (version 0.0.4) followed by
 *    length-prefixed Nodes to the last byte;
 *  - a rank has one COMM_SEND_NODE per transfer it sends and one COMM_RECV_NODE per transfer it
 *    receives, in round order, with the transfer's bytes (comm_size, int64), its ends (comm_src,
 *    comm_dst, int32), the round as comm_tag (int32) and is_cpu_op false;
 *  - the sends of all ranks and the receives of all ranks are the same multiset of (src, dst,
 *    tag, size): every send has its receive;
 *  - node ids are 0, 1, ... and every data dependency points to an earlier node of an earlier
 *    round (so the graph is acyclic), and a node depends on every node of the rank's previous
 *    round that has nodes (the round order is kept).
 */
#include "chakra_et.pb-c.h"
#include "check.h"
#include "core/core.h"
#include "opticoll.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct blob {
    uint8_t *data;
    size_t len;
} blob;

typedef struct files {
    blob *rank;
    uint32_t n, next;
} files;

static int keep(void *ctx, uint32_t rank, const void *data, size_t len) {
    files *f = ctx;
    if (rank != f->next++ || rank >= f->n) return OC_EINVAL; /* ranks in order, each once */
    f->rank[rank].data = malloc(len ? len : 1);
    if (!f->rank[rank].data) return OC_ENOMEM;
    memcpy(f->rank[rank].data, data, len);
    f->rank[rank].len = len;
    return 0;
}

/* One expected node: what the JSON export says the rank does. */
typedef struct want {
    uint64_t round, bytes;
    uint32_t src, dst;
    int recv;
} want;

/* A (src, dst, tag, size) of a send or a receive, for the matching. */
typedef struct edge {
    uint64_t tag, size;
    uint32_t src, dst;
} edge;

static int edge_cmp(const void *a, const void *b) {
    const edge *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag) return x->tag < y->tag ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return 0;
}

/* Reads a varint length at *at; 0 when the buffer ends inside it. */
static int read_len(const blob *b, size_t *at, size_t *len) {
    uint64_t v = 0;
    for (int shift = 0; *at < b->len && shift < 35; shift += 7) {
        uint8_t c = b->data[(*at)++];
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *len = (size_t)v;
            return *at + *len <= b->len;
        }
    }
    return 0;
}

static const ChakraProtoMsg__AttributeProto *attr(const ChakraProtoMsg__Node *n, const char *name) {
    for (size_t i = 0; i < n->n_attr; i++)
        if (!strcmp(n->attr[i]->name, name)) return n->attr[i];
    return NULL;
}

/* The JSON export's transfers, rank by rank. */
static int expected(const oc_request *req, want **per, size_t *count, edge *sends, size_t *ns) {
    FILE *f = tmpfile();
    char why[512] = "";
    if (!f || oc_export_json(req, f, why, sizeof why)) {
        if (f) fclose(f);
        return -1;
    }
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!text || got != (size_t)size) {
        free(text);
        return -1;
    }
    text[size] = 0;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(doc, "rounds");
    uint64_t k = 0;
    *ns = 0;
    for (const cJSON *r = rounds ? rounds->child : NULL; r; r = r->next, k++)
        for (const cJSON *t = r->child; t; t = t->next) {
            uint32_t s = (uint32_t)cJSON_GetObjectItemCaseSensitive(t, "src")->valuedouble,
                     d = (uint32_t)cJSON_GetObjectItemCaseSensitive(t, "dst")->valuedouble;
            uint64_t b = (uint64_t)cJSON_GetObjectItemCaseSensitive(t, "bytes")->valuedouble;
            per[s][count[s]++] = (want){k, b, s, d, 0};
            per[d][count[d]++] = (want){k, b, s, d, 1};
            sends[(*ns)++] = (edge){k, b, s, d};
        }
    cJSON_Delete(doc);
    return 0;
}

/* Checks one case; returns 1 when it ran (0: the algorithm refused it). */
static int one_case(const oc_algorithm_info *a, const char *net, uint32_t n) {
    /* the direct networks in wormhole mode, as the MPI executor plans them: some of their
     * algorithms send further than a neighbour */
    int direct = !strcmp(net, "hypercube") || !strcmp(net, "mesh") || !strcmp(net, "torus");
    oc_kv *np = oc_kv_new();
    if (!np || (direct && oc_kv_set(np, "switching", "wh"))) abort();
    oc_request req = {.collective = a->collective,
                      .algorithm = a->name,
                      .network = net,
                      .nodes = n,
                      .bytes = 1536,
                      .net_params = np,
                      .skip_data_check = 1};
    files fs = {calloc(n, sizeof(blob)), n, 0};
    char why[512] = "";
    int err = oc_export_chakra(&req, keep, &fs, why, sizeof why);
    if (err == OC_ENOTSUP || err == OC_ETOOBIG) {
        for (uint32_t v = 0; v < n; v++)
            free(fs.rank[v].data);
        free(fs.rank);
        oc_kv_free(np);
        return 0;
    }
    CHECK(!err, "%s/%s on %s N=%u: %s", oc_collective_name(a->collective), a->name, net, n, why);
    CHECK(err || fs.next == n, "%s N=%u: %u of %u ranks written", a->name, n, fs.next, n);
    enum { CAP = 1 << 16 };
    want **per = calloc(n, sizeof *per);
    size_t *count = calloc(n, sizeof *count);
    edge *sends = calloc(CAP, sizeof *sends), *recvs = calloc(CAP, sizeof *recvs);
    size_t ns = 0, nr = 0;
    for (uint32_t v = 0; v < n; v++)
        per[v] = calloc(CAP, sizeof(want));
    if (!err && expected(&req, per, count, sends, &ns) != 0)
        CHECK(0, "%s N=%u: the JSON export failed", a->name, n);
    for (uint32_t v = 0; v < n && !err; v++) {
        const blob *b = &fs.rank[v];
        size_t at = 0, len = 0, idx = 0;
        int ok = read_len(b, &at, &len);
        ChakraProtoMsg__GlobalMetadata *g =
            ok ? chakra_proto_msg__global_metadata__unpack(NULL, len, b->data + at) : NULL;
        CHECK(g && !strcmp(g->version, "0.0.4"), "%s N=%u rank %u: no GlobalMetadata", a->name, n,
              v);
        if (g) chakra_proto_msg__global_metadata__free_unpacked(g, NULL);
        at += len;
        uint64_t prev_round = UINT64_MAX, cur_round = UINT64_MAX;
        size_t prev_lo = 0, prev_n = 0, cur_lo = 0;
        int bad = 0;
        while (at < b->len && !bad) {
            ChakraProtoMsg__Node *x = NULL;
            if (!read_len(b, &at, &len) ||
                !(x = chakra_proto_msg__node__unpack(NULL, len, b->data + at))) {
                CHECK(0, "%s N=%u rank %u: node %zu does not decode", a->name, n, v, idx);
                bad = 1;
                break;
            }
            at += len;
            const ChakraProtoMsg__AttributeProto *size = attr(x, "comm_size"),
                                                 *src = attr(x, "comm_src"),
                                                 *dst = attr(x, "comm_dst"),
                                                 *tag = attr(x, "comm_tag"),
                                                 *cpu = attr(x, "is_cpu_op");
            int typed =
                size && size->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL &&
                src && src->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL &&
                dst && dst->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL &&
                tag && tag->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL &&
                cpu && cpu->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_VAL &&
                !cpu->bool_val;
            CHECK(typed, "%s N=%u rank %u node %zu: attributes missing or of the wrong type",
                  a->name, n, v, idx);
            CHECK(x->id == idx, "%s N=%u rank %u: node %zu has id %llu", a->name, n, v, idx,
                  (unsigned long long)x->id);
            if (typed && idx < count[v]) {
                const want *w = &per[v][idx];
                int recv = x->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE;
                int as_want = (recv || x->type == CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE) &&
                              recv == w->recv && (uint64_t)size->int64_val == w->bytes &&
                              (uint32_t)src->int32_val == w->src &&
                              (uint32_t)dst->int32_val == w->dst &&
                              (uint64_t)tag->int32_val == w->round;
                CHECK(as_want,
                      "%s N=%u rank %u node %zu: %s %d->%d tag %d %lld B, expected %s %u->%u "
                      "round %llu %llu B",
                      a->name, n, v, idx, recv ? "recv" : "send", src->int32_val, dst->int32_val,
                      tag->int32_val, (long long)size->int64_val, w->recv ? "recv" : "send", w->src,
                      w->dst, (unsigned long long)w->round, (unsigned long long)w->bytes);
                if (recv && nr < CAP)
                    recvs[nr++] = (edge){(uint64_t)tag->int32_val, (uint64_t)size->int64_val,
                                         (uint32_t)src->int32_val, (uint32_t)dst->int32_val};
                /* the round order: deps = every node of the previous round of this rank */
                uint64_t r = (uint64_t)tag->int32_val;
                if (r != cur_round) {
                    if (cur_round != UINT64_MAX)
                        prev_round = cur_round, prev_lo = cur_lo, prev_n = idx - cur_lo;
                    cur_round = r, cur_lo = idx;
                }
                int deps_ok = x->n_data_deps == (prev_round == UINT64_MAX ? 0 : prev_n);
                for (size_t d = 0; d < x->n_data_deps && deps_ok; d++)
                    deps_ok = x->data_deps[d] < x->id && x->data_deps[d] == prev_lo + d;
                CHECK(deps_ok,
                      "%s N=%u rank %u node %zu: %zu data deps, not the %zu nodes of "
                      "its previous round",
                      a->name, n, v, idx, x->n_data_deps, prev_n);
            }
            chakra_proto_msg__node__free_unpacked(x, NULL);
            idx++;
        }
        CHECK(!bad && at == b->len, "%s N=%u rank %u: bytes left after the last node", a->name, n,
              v);
        CHECK(idx == count[v], "%s N=%u rank %u: %zu nodes, %zu transfers", a->name, n, v, idx,
              count[v]);
    }
    if (!err) {
        qsort(sends, ns, sizeof *sends, edge_cmp);
        qsort(recvs, nr, sizeof *recvs, edge_cmp);
        CHECK(ns == nr && !memcmp(sends, recvs, ns * sizeof *sends),
              "%s N=%u: the sends (%zu) and receives (%zu) do not pair up", a->name, n, ns, nr);
    }
    for (uint32_t v = 0; v < n; v++) {
        free(fs.rank[v].data);
        free(per[v]);
    }
    free(fs.rank);
    free(per);
    free(count);
    free(sends);
    free(recvs);
    oc_kv_free(np);
    return 1;
}

int main(void) {
    size_t cases = 0;
    /* 16 only for an algorithm that none of the others suits (qex: N = 4^k) */
    static const uint32_t sizes[] = {2, 3, 5, 8, 12, 16};
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        int ran = 0;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && !(k == 5 && ran); k++) {
            /* the first of the algorithm's networks that takes the case */
            char nets[256];
            snprintf(nets, sizeof nets, "%s", a->networks);
            char *save = NULL;
            for (char *net = strtok_r(nets, ",", &save); net; net = strtok_r(NULL, ",", &save))
                if (one_case(a, net, sizes[k])) {
                    ran++, cases++;
                    break;
                }
        }
        CHECK(ran > 0, "%s/%s: no N in {2,3,5,8,12} ran on any of %s",
              oc_collective_name(a->collective), a->name, a->networks);
    }
    /* a bad request is refused with the library's reason, and nothing is written */
    files none = {NULL, 0, 0};
    oc_request bad = {.collective = OC_ALLREDUCE,
                      .algorithm = "nosuch",
                      .network = "ring",
                      .nodes = 4,
                      .bytes = 64,
                      .skip_data_check = 1};
    char why[512] = "";
    CHECK(oc_export_chakra(&bad, keep, &none, why, sizeof why) != 0 && none.next == 0 && *why,
          "an unknown algorithm was exported (%s)", why);
    printf("%zu cases (algorithm x N) exported and decoded\n", cases);
    CHECK(cases >= 100, "only %zu cases ran", cases);
    return CHECK_SUMMARY();
}
