/*
 * msccl_export.c — the schedule in MSCCL's XML (issue 8 item 4): `opticoll export --format msccl` writes
 * it, `opticoll verify FILE.xml` reads it back into our schedule IR and verifies it. Both sides
 * use libxml2 (writer: xmlTextWriter; reader: the tree of xmlReadMemory).
 *
 * The format is the one msccl-tools writes and the MSCCL executor (msccl-executor-nccl, RCCL)
 * interprets:
 *   <algo name proto nchannels nchunksperloop ngpus coll inplace outofplace minBytes maxBytes>
 *     <gpu id i_chunks o_chunks s_chunks>
 *       <tb id send recv chan>
 *         <step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep/>
 * A threadblock (tb) runs its steps in order; it sends to at most one peer (`send`) and receives
 * from at most one (`recv`) on its channel, and no two threadblocks of a GPU send to (or receive
 * from) the same peer on one channel. A step waits for at most one step of another threadblock
 * of its GPU (depid = that threadblock, deps = its step); `hasdep` marks steps that others wait
 * for; a step that must wait for several is preceded by `nop` steps carrying the other waits (the
 * msccl-tools convention). The k-th send from GPU a to b on a channel meets the k-th receive of b
 * from a on that channel.
 *
 * Our mapping. Every chunk label is one MSCCL chunk at the same offset of the output buffer `o`
 * on every GPU (nchunksperloop = our chunk count, in place): a transfer {src, dst, op, [first,
 * count)} is an `s` step at src and an `r` (copy) or `rrc` (receive, reduce, copy: our reduce)
 * step at dst, srcoff = dstoff = first, cnt = count. Threadblocks: at each GPU all sends to one
 * peer go to one threadblock and all receives from one peer to one; the first round in which a
 * GPU sends to p and receives from q (both new) pairs them into one threadblock (send = p, recv =
 * q: the ring's tb sends to the next node and receives from the previous), one channel. Steps of
 * a round follow those of earlier rounds, a threadblock's sends of a round before its receives
 * (a round reads the state at its start). Dependencies across threadblocks: a send waits for the
 * last receive that wrote any of its chunks (data that arrived in an earlier round), a receive
 * for the last write and the last send of the chunks it overwrites (so it neither races an
 * earlier write nor clobbers what a send still reads), the same round's earlier write included:
 * two copies or two reduces of one chunk in one round are fine in the round model but race in
 * MSCCL, so the later waits for the earlier (issue 14 item 7).
 * MSCCL cannot name our collectives scatter, gather and gossip, nor our chunk labelling, so
 * <algo> also carries oc_collective, oc_root, oc_bytes, oc_chunks_per_block and oc_block_node
 * (the executor ignores attributes it does not know). MSCCL's own limits (e.g. 256 steps per
 * threadblock in msccl-executor) are not imposed: the file is the whole schedule.
 * The reader is msccl_import.c.
 */
#include "formats/formats.h"
#include "core/quote.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/msccl.h"

const char *const oc__msccl_type_name[4] = {"s", "r", "rrc", "nop"};



typedef struct mstep {
    uint8_t type, hasdep;
    uint32_t off, cnt;
    int32_t depid, deps;
} mstep;

typedef struct mtb {
    int32_t send, recv;
    int32_t next_open; /* the GPU's threadblocks opened this round with no receive peer yet */
    mstep *steps;
    size_t n, cap;
} mtb;

typedef struct mgpu {
    mtb *tbs;
    size_t n, cap;
    int32_t open_head;
    uint64_t open_stamp;
} mgpu;

typedef struct mbuild {
    uint32_t N, C;
    mgpu *gpus;
    int32_t *send_tb, *recv_tb; /* N x N: threadblock index + 1, 0 = none */
    uint64_t *writer, *reader;  /* N x C: ((tb + 1) << 32) | step, 0 = none */
    /* dependency scratch, per threadblock of the current GPU */
    uint64_t *bstamp, stamp;
    uint32_t *bstep, *touched;
    size_t scratch;
} mbuild;

static void mbuild_free(mbuild *b) {
    for (uint32_t v = 0; b->gpus && v < b->N; v++) {
        for (size_t t = 0; t < b->gpus[v].n; t++)
            free(b->gpus[v].tbs[t].steps);
        free(b->gpus[v].tbs);
    }
    free(b->gpus);
    free(b->send_tb);
    free(b->recv_tb);
    free(b->writer);
    free(b->reader);
    free(b->bstamp);
    free(b->bstep);
    free(b->touched);
}

static int new_tb(mbuild *b, uint32_t v, int32_t send, int32_t recv, int32_t *out) {
    mgpu *g = &b->gpus[v];
    if (oc__grow((void **)&g->tbs, &g->cap, g->n + 1, sizeof(mtb))) return OC_ENOMEM;
    mtb *t = &g->tbs[g->n];
    memset(t, 0, sizeof *t);
    t->send = send;
    t->recv = recv;
    t->next_open = -1;
    *out = (int32_t)g->n++;
    return 0;
}

static int push_step(mtb *t, mstep s) {
    if (oc__grow((void **)&t->steps, &t->cap, t->n + 1, sizeof(mstep))) return OC_ENOMEM;
    t->steps[t->n++] = s;
    return 0;
}

/* Notes a wait of a step of threadblock `tb` for the step packed in `w` (0: none). */
static void note_dep(mbuild *b, int32_t tb, uint64_t w, size_t *nt) {
    if (!w) return;
    uint32_t dtb = (uint32_t)(w >> 32) - 1, ds = (uint32_t)w;
    if ((int32_t)dtb == tb) return; /* the threadblock's own order covers it */
    if (b->bstamp[dtb] != b->stamp) {
        b->bstamp[dtb] = b->stamp;
        b->bstep[dtb] = ds;
        b->touched[(*nt)++] = dtb;
    } else if (ds > b->bstep[dtb]) {
        b->bstep[dtb] = ds; /* a later step of that threadblock implies the earlier ones */
    }
}

/* Adds a step of `type` on chunks [off, off + cnt) to threadblock tb of GPU v, with its waits. */
static int add_step(mbuild *b, uint32_t v, int32_t tb, int type, uint32_t off, uint32_t cnt) {
    mgpu *g = &b->gpus[v];
    if (g->n > b->scratch) {
        size_t cap = g->n * 2;
        uint64_t *s1 = realloc(b->bstamp, cap * sizeof *s1);
        if (!s1) return OC_ENOMEM;
        b->bstamp = s1;
        memset(b->bstamp + b->scratch, 0, (cap - b->scratch) * sizeof *s1);
        uint32_t *s2 = realloc(b->bstep, cap * sizeof *s2);
        if (!s2) return OC_ENOMEM;
        b->bstep = s2;
        uint32_t *s3 = realloc(b->touched, cap * sizeof *s3);
        if (!s3) return OC_ENOMEM;
        b->touched = s3;
        b->scratch = cap;
    }
    b->stamp++;
    size_t nt = 0;
    uint64_t *wr = b->writer + (size_t)v * b->C, *rd = b->reader + (size_t)v * b->C;
    for (uint32_t c = off; c < off + cnt; c++) {
        /* Two writes of one chunk in one round (two copies of the same data: tcp2, tcp1-split;
         * two reduces, which commute: wrht, dbtree) are fine in the round model but race in
         * MSCCL: the later waits for the earlier, a wait the reader gives weight 0 (a write
         * that waits for a write of its own kind only follows it). */
        note_dep(b, tb, wr[c], &nt);
        if (type != T_S) note_dep(b, tb, rd[c], &nt);
    }
    mtb *t = &g->tbs[tb];
    for (size_t k = 0; k < nt; k++) {
        uint32_t dtb = b->touched[k];
        g->tbs[dtb].steps[b->bstep[dtb]].hasdep = 1;
        if (k + 1 < nt) { /* every wait but the last on a nop step before the real one */
            mstep nop = {T_NOP, 0, 0, 0, (int32_t)dtb, (int32_t)b->bstep[dtb]};
            if (push_step(t, nop)) return OC_ENOMEM;
        }
    }
    mstep s = {(uint8_t)type, 0, off, cnt, -1, -1};
    if (nt) {
        s.depid = (int32_t)b->touched[nt - 1];
        s.deps = (int32_t)b->bstep[b->touched[nt - 1]];
    }
    if (push_step(t, s)) return OC_ENOMEM;
    uint64_t me = ((uint64_t)(tb + 1) << 32) | (uint32_t)(t->n - 1);
    uint64_t *mark = type == T_S ? rd : wr;
    for (uint32_t c = off; c < off + cnt; c++)
        mark[c] = me;
    return 0;
}

static int build_round(mbuild *b, uint64_t index, const oc__round *r) {
    const uint32_t N = b->N;
    /* sends first: a threadblock per peer, opened this round for a receive peer to join */
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        int32_t *slot = &b->send_tb[(size_t)x->src * N + x->dst];
        if (!*slot) {
            int32_t tb;
            if (new_tb(b, x->src, (int32_t)x->dst, -1, &tb)) return OC_ENOMEM;
            mgpu *g = &b->gpus[x->src];
            if (g->open_stamp != index + 1) {
                g->open_stamp = index + 1;
                g->open_head = -1;
            }
            g->tbs[tb].next_open = g->open_head;
            g->open_head = tb;
            *slot = tb + 1;
        }
        if (add_step(b, x->src, *slot - 1, T_S, x->first, x->count)) return OC_ENOMEM;
    }
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        int32_t *slot = &b->recv_tb[(size_t)x->dst * N + x->src];
        if (!*slot) {
            mgpu *g = &b->gpus[x->dst];
            int32_t tb = -1;
            if (g->open_stamp == index + 1 && g->open_head >= 0) {
                tb = g->open_head;
                g->open_head = g->tbs[tb].next_open;
                g->tbs[tb].recv = (int32_t)x->src;
            } else if (new_tb(b, x->dst, -1, (int32_t)x->src, &tb)) {
                return OC_ENOMEM;
            }
            *slot = tb + 1;
        }
        if (add_step(b, x->dst, *slot - 1, x->op == OC_OP_REDUCE ? T_RRC : T_R, x->first, x->count))
            return OC_ENOMEM;
    }
    return 0;
}

/* ---- writing ---- */

#define WATTR(name, fmt, ...)                                                                      \
    (xmlTextWriterWriteFormatAttribute(w, BAD_CAST(name), fmt, __VA_ARGS__) < 0)

static int write_xml(FILE *f, const mbuild *b, const oc__spec *s, const char *algo,
                     const char *net) {
    xmlOutputBufferPtr out = xmlOutputBufferCreateFile(f, NULL);
    if (!out) return OC_ENOMEM;
    xmlTextWriterPtr w = xmlNewTextWriter(out);
    if (!w) {
        xmlOutputBufferClose(out);
        return OC_ENOMEM;
    }
    int bad =
        xmlTextWriterSetIndent(w, 1) < 0 || xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0;
    bad = bad || xmlTextWriterStartElement(w, BAD_CAST "algo") < 0;
    bad = bad || WATTR("name", "opticoll %s %s n=%u%s%s", oc_collective_name(s->coll), algo,
                       s->nodes, net ? " " : "", net ? net : "");
    bad = bad || WATTR("proto", "%s", "Simple") || WATTR("nchannels", "%d", 1) ||
          WATTR("nchunksperloop", "%u", s->chunks) || WATTR("ngpus", "%u", s->nodes);
    const char *coll = "custom";
    switch (s->coll) {
    case OC_ALLGATHER:
        coll = "allgather";
        break;
    case OC_ALLREDUCE:
        coll = "allreduce";
        break;
    case OC_REDUCESCATTER:
        coll = "reduce_scatter";
        break;
    case OC_ALLTOALL:
        coll = "alltoall";
        break;
    case OC_BROADCAST:
        coll = "broadcast";
        break;
    default:
        break;
    }
    bad = bad || WATTR("coll", "%s", coll) || WATTR("inplace", "%d", 1) ||
          WATTR("outofplace", "%d", 0) || WATTR("minBytes", "%d", 0) ||
          WATTR("maxBytes", "%d", 0) || WATTR("oc_collective", "%s", oc_collective_name(s->coll)) ||
          WATTR("oc_algorithm", "%s", algo) || WATTR("oc_root", "%u", s->root) ||
          WATTR("oc_bytes", "%llu", (unsigned long long)s->bytes) ||
          WATTR("oc_chunks_per_block", "%u", s->q);
    if (!bad && s->block_node) {
        bad = xmlTextWriterStartAttribute(w, BAD_CAST "oc_block_node") < 0;
        for (uint32_t k = 0; !bad && k < s->nodes; k++)
            bad = xmlTextWriterWriteFormatString(w, k ? ",%u" : "%u", s->block_node[k]) < 0;
        bad = bad || xmlTextWriterEndAttribute(w) < 0;
    }
    for (uint32_t v = 0; !bad && v < b->N; v++) {
        const mgpu *g = &b->gpus[v];
        bad = xmlTextWriterStartElement(w, BAD_CAST "gpu") < 0 || WATTR("id", "%u", v) ||
              WATTR("i_chunks", "%u", s->chunks) || WATTR("o_chunks", "%u", s->chunks) ||
              WATTR("s_chunks", "%d", 0);
        for (size_t t = 0; !bad && t < g->n; t++) {
            const mtb *tb = &g->tbs[t];
            bad = xmlTextWriterStartElement(w, BAD_CAST "tb") < 0 || WATTR("id", "%zu", t) ||
                  WATTR("send", "%d", tb->send) || WATTR("recv", "%d", tb->recv) ||
                  WATTR("chan", "%d", 0);
            for (size_t k = 0; !bad && k < tb->n; k++) {
                const mstep *st = &tb->steps[k];
                int nop = st->type == T_NOP;
                bad = xmlTextWriterStartElement(w, BAD_CAST "step") < 0 || WATTR("s", "%zu", k) ||
                      WATTR("type", "%s", oc__msccl_type_name[st->type]) ||
                      WATTR("srcbuf", "%s", nop ? "i" : "o") ||
                      WATTR("srcoff", "%lld", nop ? -1LL : (long long)st->off) ||
                      WATTR("dstbuf", "%s", "o") ||
                      WATTR("dstoff", "%lld", nop ? -1LL : (long long)st->off) ||
                      WATTR("cnt", "%u", st->cnt) || WATTR("depid", "%d", st->depid) ||
                      WATTR("deps", "%d", st->deps) || WATTR("hasdep", "%d", st->hasdep) ||
                      xmlTextWriterEndElement(w) < 0;
            }
            bad = bad || xmlTextWriterEndElement(w) < 0;
        }
        bad = bad || xmlTextWriterEndElement(w) < 0;
    }
    bad = bad || xmlTextWriterEndDocument(w) < 0;
    xmlFreeTextWriter(w); /* flushes and closes the output buffer (not f) */
    return bad ? OC_EIO : 0;
}

int oc_export_msccl(const oc_request *req, FILE *f, char *why, size_t len) {
    const oc__algo *algo;
    const oc__model *model;
    oc__plan plan;
    oc__store store;
    oc__store_init(&store);
    mbuild b;
    memset(&b, 0, sizeof b);
    oc_report *rep = NULL;
    int rc = oc__plan_export(req, &algo, &model, &plan, &rep, why, len);
    if (rc) goto out;
    const oc__spec *s = &plan.spec;
    if (s->nodes > MSCCL_MAX_GPUS || (uint64_t)s->nodes * s->chunks > MSCCL_MAX_CELLS) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "MSCCL export: %u nodes x %u chunks is more than this exporter handles "
                      "(%u GPUs, 2^22 GPU-chunk pairs)",
                      s->nodes, s->chunks, MSCCL_MAX_GPUS);
        goto out;
    }
    /* 1. Verify and map (nothing is written unless this passes), keeping the rounds. */
    oc__algo_source src = {algo, &plan};
    store.sink.next = NULL;
    rc = oc__run_schedule(s, oc__source_algo, &src, model, req->net_params, req->data_check,
                          &store.sink, rep, why, len);
    if (rc) goto out;
    /* 2. Threadblocks, steps and waits. */
    b.N = s->nodes;
    b.C = s->chunks;
    b.gpus = oc__calloc(b.N, sizeof(mgpu));
    b.send_tb = oc__calloc((size_t)b.N * b.N, sizeof(int32_t));
    b.recv_tb = oc__calloc((size_t)b.N * b.N, sizeof(int32_t));
    b.writer = oc__calloc((size_t)b.N * b.C, sizeof(uint64_t));
    b.reader = oc__calloc((size_t)b.N * b.C, sizeof(uint64_t));
    if (!b.gpus || !b.send_tb || !b.recv_tb || !b.writer || !b.reader) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t v = 0; v < b.N; v++)
        b.gpus[v].open_head = -1;
    for (size_t i = 0; i < store.count; i++)
        if (build_round(&b, i, &store.rounds[i])) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
    /* 3. Write. */
    if ((rc = write_xml(f, &b, s, algo->info.name, model ? model->info.name : NULL)) || ferror(f))
        rc = oc__fail(why, len, rc == OC_ENOMEM ? OC_ENOMEM : OC_EIO, "write error: %s",
                      strerror(errno));
out:
    mbuild_free(&b);
    oc__store_free(&store);
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
    return rc;
}