/*
 * msccl_export.c — a verified schedule written as an MSCCL program that the maintained MSCCL
 * runtimes load and run correctly: `opticoll export --format msccl
 * [--runtime msccl-nccl|rccl]`, `--format msccl-inplace` for in-place calls. The reader of such files is msccl_import.c; the
 * independent test of the rules below is tests/msccl/executor.py.
 *
 * THE RULES, read from the runtimes' sources (msccl-executor-nccl = Azure/msccl-executor-nccl,
 * RCCL = ROCm/rccl; ../shared/msccl-ref/README.md names c6f6b36d and 0cbce2a7; the versions read
 * were msccl-executor-nccl's msccl_parser.cc and msccl_kernel.cu @ 3b40a2a8, msccl_struct.h @
 * 206e0c49, msccl_setup.cc and msccl_lifecycle.cc @ 01ddfdb6, and RCCL's msccl_parser.cc @
 * 4bb0b4a3, msccl_parser.h @ afd26774, msccl_struct.h @ 0088a127 and b463f536,
 * msccl_kernel_impl.h @ 011110de, device.h @ 0123763f). Each rule names its file and function or
 * the runtime's own message, which grep finds in any version (line numbers move between them):
 *
 * Reader syntax (msccl_parser.cc, mscclXmlGetNode/GetToken/GetValue, the same in both):
 *  - a hand-written reader, not an XML parser. Between elements only ' ', '\n', '\r' may appear
 *    (a tab or text is "expecting '<'"); so no XML declaration (`<?xml ...?>` ends its attribute
 *    list on '?': "expected >"), no tabs in the indentation. Comments `<!-- -->` are skipped.
 *  - attributes are separated by exactly one space and end the element's line: a newline between
 *    attributes is "expected >"; a second space reads as an empty attribute. Values must be in
 *    double quotes, are not unescaped (&amp; stays literal), and are copied into a 256-byte
 *    buffer with no length check: a value over 255 characters overruns it (MAX_STR_LEN 255 in
 *    msccl_parser.h); a name over 254 characters is an error. At most 16 attributes of an
 *    element are kept (MAX_ATTR_COUNT 16; later ones are read and dropped), so the required ones
 *    come first. Numbers go through strtol(.., 0): a leading 0 would be octal; we write decimal.
 *  - an element keeps at most 1024 children (MAX_SUBS 1024, msccl_parser.h, not checked: more
 *    overruns `subs`): at most 1024 <gpu>s, 1024 <tb>s per GPU. A rank's reader keeps at most
 *    4096 elements (MAX_NODES 4096: the <algo>, every <gpu>, and its own <tb>s and <step>s;
 *    checked before each element, closing tags included), so 1 + ngpus + tbs + steps < 4096.
 * <algo> (mscclGetAlgoFromXmlFile): nchunksperloop, nchannels, ngpus, proto (Simple, LL128, LL),
 *    coll, minBytes, maxBytes, inplace, outofplace are required. coll is one of reduce,
 *    broadcast, allreduce, reducescatter, allgather, send, recv, gather, scatter, alltoall,
 *    alltoallv: "reduce_scatter" and "custom" are refused ("unsupported collective").
 *    sizeMultiplier is ngpus for allgather, reducescatter and alltoall, 1 otherwise.
 * Selection (msccl_lifecycle.cc, mscclInternalSchedulerSelectAlgo): a file runs a call of the same
 *    func on ngpus ranks, with count % nchunksperloop == 0, minBytes <= bytes <= maxBytes (0 = no
 *    limit) and inplace/outofplace matching the call. In-place is sendbuff == recvbuff (reduce,
 *    broadcast, allreduce, alltoall), sendbuff == recvbuff + rank*count (allgather, gather),
 *    recvbuff == sendbuff + rank*count (reducescatter, scatter). The root of broadcast, gather
 *    and scatter is not compared: it is baked into the file (we write it as oc_root).
 * Buffers (msccl_setup.cc mscclSetupKernel: work.count = count * sizeMultiplier; the kernels:
 *    sizePerMscclChunk = work.count / nchunksperloop): a chunk is work.count / nchunksperloop
 *    elements, and i = sendbuff, o = recvbuff, s = the scratch buffer of s_chunks chunks
 *    (mscclSetupScratch). So with C = nchunksperloop on N ranks: allgather i = C/N, o = C;
 *    reducescatter i = C, o = C/N; allreduce, broadcast, alltoall i = o = C; gather i = C, o = N*C
 *    at the root; scatter i = N*C at the root, o = C. Offsets are checked against the rank's own
 *    i_chunks/o_chunks/s_chunks (mscclCheckBufferBounds: -1 <= off < chunks); only s_chunks is
 *    used for allocation, so i_chunks/o_chunks must not exceed the real buffers (we write them
 *    exact). Offsets are int16 (mscclTransmission srcOffset/dstOffset, msccl_struct.h): <= 32767.
 *    RCCL and NCCL also take sendbuff as const: an out-of-place program never writes i.
 * Threadblocks (<tb id send recv chan>): ids 0..n-1 without gaps, each once; send/recv -1 or a
 *    peer other than the GPU; MSCCL_MAX_NUM_THREAD_BLOCKS per GPU: 32 * MAXCHANNELS = 1024 in
 *    msccl-executor-nccl (msccl_struct.h, MAXCHANNELS 32 in device.h), 64 in RCCL (msccl_struct.h
 *    @ b463f536; older RCCL: 32 * MAXCHANNELS). 0 <= chan <= MAXCHANNELS, but mscclChannels has
 *    MAXCHANNELS entries, so chan < MAXCHANNELS (32; RCCL's device.h: 128), and the call needs
 *    comm->nChannels >= nchannels (mscclSetupConnections). Per channel at most 32 threadblocks
 *    with a send peer and 32 with a receive peer (MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL 32,
 *    "too many sends per channel"), each peer once per direction: a connection is one per
 *    (channel, peer) (ncclTransportP2pConnect, mscclSetupProxy), and a threadblock owns it.
 * Steps (<step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep>): 0 <= s < 64
 *    (MSCCL_MAX_NUM_STEPS 64 in both maintained runtimes; 256 in older ones, hence the README's
 *    old claim), cnt < 72 (MSCCL_MAX_COUNT 72: count >= MSCCL_MAX_COUNT refused), hasdep 0 or 1;
 *    types s (send src), r (recv into dst), rcs (recv into dst and send it on), rrs (recv + src,
 *    sent on), rrc (dst = recv + src), rrcs (dst = recv + src, sent on), cpy (dst = src),
 *    re (dst += src; consecutive re steps on one dst with no wait are fused, at most 16), nop.
 *    Sends need the tb's send peer, receives its recv peer. The k-th send of a GPU to a peer on a
 *    channel meets the k-th receive of the peer from it on that channel (one FIFO per
 *    connection); a send is buffered (the connection holds NCCL_STEPS slots), so we never put
 *    two messages of one round on one connection.
 * Waits (the kernels' dependency loop): depid is an int8 (dependentBid, msccl_struct.h): <= 127;
 *    deps an int16. A step waits until threadblock depid has published a flag >= deps; a
 *    threadblock publishes its step counter only after steps with hasdep=1, so every step waited
 *    for has hasdep=1. A nop is no transmission: its wait is carried to the next real step, which
 *    must have a wait of its own ("chain of dependencies"), and the step counter skips it only
 *    through that carried wait, so every nop carries a wait and directly precedes a step that has
 *    one (the msccl-tools convention, kept here). Threadblocks of a GPU run concurrently: two of
 *    them touching one chunk, one writing, need a chain of waits between them.
 *
 * HOW A SCHEDULE BECOMES A PROGRAM. Our chunk labels are placed in the runtime's buffers: a label
 * a node holds at the start is read from its place in i (the runtime's layout above, with our
 * block_node order undone), a label a node must hold at the end is written at its place in o, and
 * a label that only passes through a node lives in a scratch chunk of its own. A transfer of a
 * label range becomes, for each run of labels contiguous at both ends (and at most 71 long), an
 * `s` step at the sender and an `r` or `rrc` step at the receiver (rrc: dst = received + the
 * receiver's current value). Labels relabelled by the algorithm (OpTree, rhd's extras, the star's
 * trees: spec.block_node) are kept in label order in the scratch buffer instead, copied there from
 * i first and to o in rank order last (cpy steps), so transfers stay whole. A label that ends where
 * it started (out-of-place: a node's own block) is copied i -> o at the end. In-place, i and o
 * alias as the runtime says (the rank's block of o is its i, or i is o): a copy onto itself is
 * left out, and an incoming label that would overwrite an input chunk still to be sent (in-place
 * all-to-all) goes to scratch and is copied last.
 * Threadblocks: the messages of a (sender, receiver) pair form streams — a round's second message
 * on the pair is a second stream ("lane") — and, when a threadblock would pass 64 steps, the rounds
 * are cut into segments, each a stream of its own. Every stream gets a channel (greedily the
 * lowest where both ends have fewer than 32 streams and neither has that peer yet), and at each GPU
 * the k-th sending and k-th receiving stream of a (segment, channel) share a threadblock. A
 * threadblock's steps follow the rounds, a round's sends before its receives, in transfer order;
 * local copies get threadblocks of their own (send = recv = -1). Threadblocks that some step waits
 * for take the lowest ids (depid is an int8), the rest follow.
 * Waits: per (GPU, memory cell) the last writer and the readers since; a read waits for the last
 * write, a write for the last write and every read since, across threadblocks (one per threadblock,
 * the latest step: its order covers the earlier ones); all but one wait go on nop steps before the
 * step. Why no deadlock: by induction on rounds — a round's sends wait only for earlier rounds and
 * each connection carries at most one message per round, so they never block; its receives wait
 * for those sends and for earlier receives of the round in transfer order, which every threadblock
 * follows. A schedule that cannot fit the chosen runtime is refused with one line naming the limit
 * and the value; nothing is written.
 */
#include "formats/formats.h"
#include "core/quote.h"

#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/msccl.h"

/* A runtime's limits (the essay says where each comes from). */
typedef struct mrt {
    const char *name;
    uint32_t steps, tbs, channels, per_channel, count, depid, offsets, gpus, elements;
    int rooted; /* gather and scatter are collectives one can call */
} mrt;

static const mrt runtimes[] = {
    {"msccl-nccl", 64, 1024, 32, 32, 71, 127, 32768, 1024, 4096, 0},
    {"rccl", 64, 64, 128, 32, 71, 127, 32768, 1024, 4096, 1},
};

enum { X_S, X_R, X_RRC, X_CPY, X_NOP };
static const char *const xname[] = {"s", "r", "rrc", "cpy", "nop"};
enum { B_NONE = 0, B_I = 1, B_O = 2, B_S = 3 };
static const char bufname[] = "-ios";
#define LOC(b, o) (((uint32_t)(b) << 30) | (uint32_t)(o))
#define LBUF(l) ((l) >> 30)
#define LOFF(l) ((l) & 0x3fffffffu)

/* ---- where labels live ---- */

typedef struct layout {
    oc_collective coll;
    uint32_t N, q, C, root, ncpl;
    const uint32_t *bn; /* block_node or NULL */
    int inplace;
} layout;

static uint32_t bnode(const layout *L, uint32_t b) {
    return L->bn ? L->bn[b] : b;
}

/* The runtime's buffer sizes, in chunks, at rank v (the essay's table). */
static uint32_t in_size(const layout *L, uint32_t v) {
    switch (L->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_GATHER:
    case OC_ALLREDUCE:
        return L->q;
    case OC_BROADCAST:
        return v == L->root ? L->q : 0;
    case OC_SCATTER:
        return v == L->root ? L->N * L->q : 0;
    default: /* reducescatter, alltoall */
        return L->N * L->q;
    }
}

static uint32_t out_size(const layout *L, uint32_t v) {
    switch (L->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_ALLTOALL:
        return L->N * L->q;
    case OC_GATHER:
        return v == L->root ? L->N * L->q : 0;
    default: /* allreduce, broadcast, reducescatter, scatter */
        return L->q;
    }
}

/* 1 and *k = the place in i of label c at node v, if v holds it at the start. */
static int inpos(const layout *L, uint32_t v, uint32_t c, uint32_t *k) {
    const uint32_t q = L->q, b = c / q, p = c % q;
    switch (L->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_GATHER:
        *k = p;
        return bnode(L, b) == v;
    case OC_ALLREDUCE:
        *k = c;
        return 1;
    case OC_BROADCAST:
        *k = c;
        return v == L->root;
    case OC_REDUCESCATTER:
        *k = bnode(L, b) * q + p;
        return 1;
    case OC_SCATTER:
        *k = bnode(L, b) * q + p;
        return v == L->root;
    case OC_ALLTOALL: { /* label ((d*N + s)*q + p) */
        const uint32_t d = b / L->N, s = b % L->N;
        *k = d * q + p;
        return s == v;
    }
    default:
        return 0;
    }
}

/* 1 and *k = the place in o of label c at node v, if v must hold it at the end. */
static int outpos(const layout *L, uint32_t v, uint32_t c, uint32_t *k) {
    const uint32_t q = L->q, b = c / q, p = c % q;
    switch (L->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
        *k = bnode(L, b) * q + p;
        return 1;
    case OC_GATHER:
        *k = bnode(L, b) * q + p;
        return v == L->root;
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        *k = c;
        return 1;
    case OC_REDUCESCATTER:
    case OC_SCATTER:
        *k = p;
        return bnode(L, b) == v;
    case OC_ALLTOALL: {
        const uint32_t d = b / L->N, s = b % L->N;
        *k = s * q + p;
        return d == v;
    }
    default:
        return 0;
    }
}

/* A memory cell of rank v: i cells, then o cells, then scratch; in-place, an input cell that is
 * an output cell too is named by its output cell. */
static uint32_t cell(const layout *L, uint32_t v, uint32_t loc) {
    const uint32_t I = in_size(L, v), O = out_size(L, v), off = LOFF(loc);
    switch (LBUF(loc)) {
    case B_I:
        if (L->inplace && O) {
            if (L->coll == OC_ALLGATHER || L->coll == OC_GOSSIP || L->coll == OC_GATHER)
                return I + v * L->q + off;
            if (L->coll == OC_ALLREDUCE || L->coll == OC_ALLTOALL || L->coll == OC_BROADCAST)
                return I + off;
        }
        return off;
    case B_O:
        if (L->inplace && I && (L->coll == OC_REDUCESCATTER || L->coll == OC_SCATTER))
            return v * L->q + off;
        return I + off;
    default:
        return I + O + off;
    }
}

/* ---- messages and local copies, from the rounds ---- */

typedef struct msg {
    uint32_t round, src, dst, lane;
    uint32_t sloc, rloc, dloc; /* sender's read, receiver's reduce source (rrc), receiver's write */
    uint8_t type;              /* X_R or X_RRC */
    uint8_t cnt;
} msg;

typedef struct lcopy {
    uint32_t node, sloc, dloc, cnt;
} lcopy;

typedef struct mstep {
    uint8_t type, hasdep, cnt;
    uint32_t sloc, dloc;
    int32_t depid, deps;
} mstep;

typedef struct mtb {
    int32_t send, recv, chan;
    mstep *steps;
    size_t n, cap;
} mtb;

typedef struct mgpu {
    mtb *tbs;
    size_t n, cap;
} mgpu;

typedef struct mbuild {
    layout L;
    const mrt *rt;
    int relabel;
    uint32_t N, C, rounds;
    uint32_t *loc;    /* N x C: where label c is at node v (0: nowhere) */
    uint32_t *slot;   /* N x C: scratch chunk + 1 of a label passing through (identity layout) */
    uint32_t *nslots; /* N: scratch chunks used */
    uint32_t *fw, *lr;/* in-place: first write round, last read round while pristine, + 1 */
    uint32_t **ilabel;/* in-place: the label in i[k] at node v, + 1 */
    msg *msgs;
    size_t nmsg, msgcap;
    size_t *round_start; /* rounds + 1 indices into msgs */
    lcopy *pro, *epi;
    size_t npro, procap, nepi, epicap;
    mgpu *gpus;
} mbuild;

static void gpus_free(mbuild *b) {
    for (uint32_t v = 0; b->gpus && v < b->N; v++) {
        for (size_t t = 0; t < b->gpus[v].n; t++)
            free(b->gpus[v].tbs[t].steps);
        free(b->gpus[v].tbs);
    }
    free(b->gpus);
    b->gpus = NULL;
}

static void mbuild_free(mbuild *b) {
    gpus_free(b);
    free(b->loc);
    free(b->slot);
    free(b->nslots);
    free(b->fw);
    free(b->lr);
    for (uint32_t v = 0; b->ilabel && v < b->N; v++)
        free(b->ilabel[v]);
    free(b->ilabel);
    free(b->msgs);
    free(b->round_start);
    free(b->pro);
    free(b->epi);
}

static int push_copy(lcopy **a, size_t *n, size_t *cap, lcopy c) {
    if (oc__grow((void **)a, cap, *n + 1, sizeof(lcopy))) return OC_ENOMEM;
    (*a)[(*n)++] = c;
    return 0;
}

/* Copies node v's labels [lo, hi) from `from` to `to` (locations per label, in arrays), in runs
 * contiguous at both ends, skipping labels whose two places are one cell. */
static int add_copies(mbuild *b, lcopy **a, size_t *n, size_t *cap, uint32_t v,
                      const uint32_t *from, const uint32_t *to, uint32_t count) {
    uint32_t k = 0;
    while (k < count) {
        if (!from[k] || cell(&b->L, v, from[k]) == cell(&b->L, v, to[k])) {
            k++;
            continue;
        }
        uint32_t r = 1;
        while (k + r < count && r < b->rt->count && from[k + r] == from[k] + r &&
               to[k + r] == to[k] + r)
            r++;
        if (push_copy(a, n, cap, (lcopy){v, from[k], to[k], r})) return OC_ENOMEM;
        k += r;
    }
    return 0;
}

/* Where a label written at node v in round t goes. */
static uint32_t write_place(mbuild *b, uint32_t v, uint32_t c, uint32_t t) {
    const layout *L = &b->L;
    uint32_t k;
    if (b->relabel) return LOC(B_S, c);
    if (outpos(L, v, c, &k)) {
        uint32_t want = LOC(B_O, k);
        if (!L->inplace) return want;
        /* in-place: does the cell still hold an input label to be read after this round? */
        const uint32_t I = in_size(L, v), cl = cell(L, v, want);
        if (cl >= I + out_size(L, v) || !b->ilabel || !b->ilabel[v]) return want;
        /* in-place all-to-all: o[k] is i[k], which holds another label until it is sent */
        const uint32_t j = k;
        uint32_t c2 = j < I ? b->ilabel[v][j] : 0;
        if (c2 && c2 - 1 != c) {
            const size_t vc = (size_t)v * b->C + (c2 - 1);
            if (b->loc[vc] == LOC(B_I, j) && b->lr[vc] > t + 1) goto scratch;
        }
        return want;
    }
scratch:;
    uint32_t *s = &b->slot[(size_t)v * b->C + c];
    if (!*s) *s = ++b->nslots[v];
    return LOC(B_S, *s - 1);
}

/* Reads the rounds into messages, prologue and epilogue copies. */
static int build_messages(mbuild *b, const oc__store *st) {
    const layout *L = &b->L;
    const uint32_t N = b->N, C = b->C;
    uint32_t *tmp = NULL, *tmp2 = NULL, *tmp3 = NULL, *lanes = NULL, *stamp = NULL;
    size_t tcap = 0;
    int rc = OC_ENOMEM;
    for (uint32_t v = 0; v < N; v++)
        for (uint32_t c = 0; c < C; c++) {
            uint32_t k;
            if (inpos(L, v, c, &k)) b->loc[(size_t)v * C + c] = LOC(B_I, k);
        }
    if (L->inplace && L->coll == OC_ALLTOALL) {
        /* which input label sits in which input chunk, and when each is last read */
        b->ilabel = oc__calloc(N, sizeof(uint32_t *));
        b->fw = oc__calloc((size_t)N * C, sizeof(uint32_t));
        b->lr = oc__calloc((size_t)N * C, sizeof(uint32_t));
        if (!b->ilabel || !b->fw || !b->lr) goto out;
        for (uint32_t v = 0; v < N; v++) {
            if (!(b->ilabel[v] = oc__calloc(in_size(L, v) + 1, sizeof(uint32_t)))) goto out;
            for (uint32_t c = 0; c < C; c++) {
                uint32_t k;
                if (inpos(L, v, c, &k)) b->ilabel[v][k] = c + 1;
            }
        }
        for (size_t t = 0; t < st->count; t++) {
            const oc__round *r = &st->rounds[t];
            for (size_t i = 0; i < r->count; i++)
                for (uint32_t c = r->xfers[i].first; c < r->xfers[i].first + r->xfers[i].count;
                     c++) {
                    size_t vc = (size_t)r->xfers[i].src * C + c;
                    if (!b->fw[vc] || b->fw[vc] == t + 1) b->lr[vc] = (uint32_t)t + 2;
                }
            for (size_t i = 0; i < r->count; i++)
                for (uint32_t c = r->xfers[i].first; c < r->xfers[i].first + r->xfers[i].count;
                     c++) {
                    size_t vc = (size_t)r->xfers[i].dst * C + c;
                    if (!b->fw[vc]) b->fw[vc] = (uint32_t)t + 1;
                }
        }
    }
    if (b->relabel) { /* prologue: the labels a node holds, from i into label order in s */
        if (oc__grow((void **)&tmp, &tcap, C, sizeof(uint32_t))) goto out;
        if (!(tmp2 = oc__calloc(C, sizeof(uint32_t)))) goto out;
        for (uint32_t v = 0; v < N; v++) {
            for (uint32_t c = 0; c < C; c++) {
                tmp2[c] = LOC(B_S, c);
                tmp[c] = b->loc[(size_t)v * C + c];
            }
            if (add_copies(b, &b->pro, &b->npro, &b->procap, v, tmp, tmp2, C)) goto out;
            for (uint32_t c = 0; c < C; c++)
                if (tmp[c]) b->loc[(size_t)v * C + c] = LOC(B_S, c);
        }
        free(tmp2);
        tmp2 = NULL;
        tcap = 0;
        free(tmp);
        tmp = NULL;
    }
    b->round_start = oc__calloc(st->count + 1, sizeof(size_t));
    lanes = oc__calloc((size_t)N * N, sizeof(uint32_t));
    stamp = oc__calloc((size_t)N * N, sizeof(uint32_t));
    if (!b->round_start || !lanes || !stamp) goto out;
    for (size_t t = 0; t < st->count; t++) {
        const oc__round *r = &st->rounds[t];
        b->round_start[t] = b->nmsg;
        size_t units = 0;
        for (size_t i = 0; i < r->count; i++)
            units += r->xfers[i].count;
        size_t need = units + 1;
        if (need > tcap) {
            free(tmp);
            free(tmp2);
            free(tmp3);
            tmp = oc__malloc_array(need, sizeof(uint32_t));
            tmp2 = oc__malloc_array(need, sizeof(uint32_t));
            tmp3 = oc__malloc_array(need, sizeof(uint32_t));
            if (!tmp || !tmp2 || !tmp3) goto out;
            tcap = need;
        }
        /* the senders read the state at the start of the round */
        size_t u = 0;
        for (size_t i = 0; i < r->count; i++)
            for (uint32_t c = r->xfers[i].first; c < r->xfers[i].first + r->xfers[i].count; c++)
                tmp[u++] = b->loc[(size_t)r->xfers[i].src * C + c];
        /* the receivers write in transfer order (a reduce adds to the latest value) */
        u = 0;
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *x = &r->xfers[i];
            const size_t u0 = u;
            for (uint32_t c = x->first; c < x->first + x->count; c++, u++) {
                const size_t vc = (size_t)x->dst * C + c;
                tmp3[u] = b->loc[vc];
                tmp2[u] = write_place(b, x->dst, c, (uint32_t)t);
                b->loc[vc] = tmp2[u];
            }
            /* runs contiguous at all ends, at most `count` long */
            size_t k = u0;
            while (k < u) {
                size_t e = k + 1;
                while (e < u && e - k < b->rt->count && tmp[e] == tmp[e - 1] + 1 &&
                       tmp2[e] == tmp2[e - 1] + 1 &&
                       (x->op != OC_OP_REDUCE || tmp3[e] == tmp3[e - 1] + 1))
                    e++;
                const size_t pair = (size_t)x->src * N + x->dst;
                if (stamp[pair] != t + 1) {
                    stamp[pair] = (uint32_t)t + 1;
                    lanes[pair] = 0;
                }
                msg m = {(uint32_t)t, x->src, x->dst, lanes[pair]++, tmp[k], tmp3[k], tmp2[k],
                         x->op == OC_OP_REDUCE ? X_RRC : X_R, (uint8_t)(e - k)};
                if (oc__grow((void **)&b->msgs, &b->msgcap, b->nmsg + 1, sizeof(msg))) goto out;
                b->msgs[b->nmsg++] = m;
                k = e;
            }
        }
    }
    b->round_start[st->count] = b->nmsg;
    /* epilogue: every label a node must hold, to its place in o */
    free(tmp);
    free(tmp2);
    tmp = oc__malloc_array(C + 1, sizeof(uint32_t));
    tmp2 = oc__malloc_array(C + 1, sizeof(uint32_t));
    if (!tmp || !tmp2) goto out;
    for (uint32_t v = 0; v < N; v++) {
        /* in the order of o, so that runs form */
        uint32_t n = 0, O = out_size(L, v);
        (void)O;
        for (uint32_t c = 0; c < C; c++) {
            uint32_t k;
            if (!outpos(L, v, c, &k)) continue;
            tmp[n] = b->loc[(size_t)v * C + c];
            tmp2[n++] = LOC(B_O, k);
        }
        /* sort the pairs by destination (insertion of runs: outpos is a permutation; a simple
         * counting placement by offset) */
        uint32_t *byo = oc__calloc((size_t)O + 1, sizeof(uint32_t) * 2);
        if (!byo) goto out;
        for (uint32_t j = 0; j < n; j++) {
            byo[2 * LOFF(tmp2[j])] = tmp[j];
            byo[2 * LOFF(tmp2[j]) + 1] = 1;
        }
        uint32_t m = 0;
        for (uint32_t k = 0; k < O; k++)
            if (byo[2 * k + 1]) {
                tmp[m] = byo[2 * k];
                tmp2[m++] = LOC(B_O, k);
            }
        free(byo);
        if (add_copies(b, &b->epi, &b->nepi, &b->epicap, v, tmp, tmp2, m)) goto out;
    }
    rc = 0;
out:
    free(tmp);
    free(tmp2);
    free(tmp3);
    free(lanes);
    free(stamp);
    return rc;
}

/* ---- threadblocks, steps and waits, for one cut of the rounds into segments ---- */

/* A small open-addressing map from 64-bit keys to indices. */
typedef struct kmap {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, n;
} kmap;

static void kmap_free(kmap *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static uint64_t hash64(uint64_t x) {
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

/* *val of key, or inserts (key, fresh) and returns 1 in *added. */
static int kmap_get(kmap *m, uint64_t key, uint32_t fresh, uint32_t *val, int *added) {
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        uint64_t *k = oc__calloc(cap, sizeof(uint64_t));
        uint32_t *v = oc__calloc(cap, sizeof(uint32_t));
        if (!k || !v) {
            free(k);
            free(v);
            return OC_ENOMEM;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t h = hash64(m->keys[i]) & (cap - 1);
                while (k[h]) h = (h + 1) & (cap - 1);
                k[h] = m->keys[i];
                v[h] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    key++; /* 0 marks an empty slot */
    size_t h = hash64(key) & (m->cap - 1);
    while (m->keys[h] && m->keys[h] != key) h = (h + 1) & (m->cap - 1);
    *added = !m->keys[h];
    if (*added) {
        m->keys[h] = key;
        m->vals[h] = fresh;
        m->n++;
    }
    *val = m->vals[h];
    return 0;
}

typedef struct stream {
    uint32_t src, dst, seg, lane, chan, tb_src, tb_dst;
} stream;

typedef struct group { /* a GPU's threadblocks of one (segment, channel) */
    uint32_t *tbs;
    size_t n, cap, nsend, nrecv;
} group;

/* Per (node, cell): the last writer and the readers since, as ((tb + 1) << 32 | step). */
typedef struct reader {
    uint64_t who;
    uint32_t next; /* index + 1 of the next reader of the cell, 0: none */
} reader;

typedef struct tracker {
    uint64_t *writer;
    uint32_t *head; /* a cell's readers since its last write: index + 1 into pool */
    reader *pool;
    size_t npool, poolcap;
    size_t *base; /* first cell of node v */
} tracker;

typedef struct attempt {
    mbuild *b;
    uint32_t rps;
    stream *streams;
    size_t nstreams, scap;
    uint32_t *mstream; /* message -> stream */
    uint32_t maxchan, maxsteps;
    int32_t *wait_step; /* per tb of the current GPU: latest step waited for, -1 none */
    uint32_t *touched;
    size_t wcap;
    tracker tr;
} attempt;

static int new_tb(mgpu *g, int32_t send, int32_t recv, int32_t chan, uint32_t *id) {
    if (oc__grow((void **)&g->tbs, &g->cap, g->n + 1, sizeof(mtb))) return OC_ENOMEM;
    mtb *t = &g->tbs[g->n];
    memset(t, 0, sizeof *t);
    t->send = send;
    t->recv = recv;
    t->chan = chan;
    *id = (uint32_t)g->n++;
    return 0;
}

static int push_step(mtb *t, mstep s) {
    if (oc__grow((void **)&t->steps, &t->cap, t->n + 1, sizeof(mstep))) return OC_ENOMEM;
    t->steps[t->n++] = s;
    return 0;
}

static void note_wait(attempt *a, uint32_t tb, uint64_t w, size_t *nt) {
    if (!w) return;
    const uint32_t wt = (uint32_t)(w >> 32) - 1;
    const int32_t ws = (int32_t)(uint32_t)w;
    if (wt == tb) return; /* the threadblock's own order covers it */
    if (a->wait_step[wt] < 0) a->touched[(*nt)++] = wt;
    if (ws > a->wait_step[wt]) a->wait_step[wt] = ws;
}

/* Appends a step to threadblock tb of GPU v, with the waits its accesses need: it reads `rcnt`
 * cells from cell `rc0` (if rloc) and writes cnt from `wc0` (if wloc). */
static int add_step(attempt *a, uint32_t v, uint32_t tb, mstep s, uint32_t rloc, uint32_t rloc2,
                    uint32_t wloc) {
    mbuild *b = a->b;
    mgpu *g = &b->gpus[v];
    tracker *tr = &a->tr;
    if (g->n > a->wcap) {
        size_t cap = g->n * 2;
        int32_t *w = realloc(a->wait_step, cap * sizeof *w);
        if (!w) return OC_ENOMEM;
        a->wait_step = w;
        for (size_t i = a->wcap; i < cap; i++)
            a->wait_step[i] = -1;
        uint32_t *t = realloc(a->touched, cap * sizeof *t);
        if (!t) return OC_ENOMEM;
        a->touched = t;
        a->wcap = cap;
    }
    size_t nt = 0;
    const uint32_t locs[3] = {rloc, rloc2, wloc};
    for (int j = 0; j < 3; j++) {
        if (!locs[j]) continue;
        const size_t c0 = tr->base[v] + cell(&b->L, v, locs[j]);
        for (uint32_t k = 0; k < s.cnt; k++) {
            note_wait(a, tb, tr->writer[c0 + k], &nt);
            if (j < 2) continue;
            for (uint32_t e = tr->head[c0 + k]; e; e = tr->pool[e - 1].next)
                note_wait(a, tb, tr->pool[e - 1].who, &nt);
        }
    }
    mtb *t = &g->tbs[tb];
    for (size_t k = 0; k < nt; k++) {
        const uint32_t wt = a->touched[k];
        g->tbs[wt].steps[a->wait_step[wt]].hasdep = 1;
        if (k + 1 < nt) {
            mstep nop = {X_NOP, 0, 0, 0, 0, (int32_t)wt, a->wait_step[wt]};
            if (push_step(t, nop)) return OC_ENOMEM;
        } else {
            s.depid = (int32_t)wt;
            s.deps = a->wait_step[wt];
        }
    }
    for (size_t k = 0; k < nt; k++)
        a->wait_step[a->touched[k]] = -1;
    if (push_step(t, s)) return OC_ENOMEM;
    if (t->n > a->maxsteps) a->maxsteps = (uint32_t)t->n;
    const uint64_t me = ((uint64_t)(tb + 1) << 32) | (uint32_t)(t->n - 1);
    for (int j = 0; j < 2; j++) {
        if (!locs[j]) continue;
        const size_t c0 = tr->base[v] + cell(&b->L, v, locs[j]);
        for (uint32_t k = 0; k < s.cnt; k++) {
            if (oc__grow((void **)&tr->pool, &tr->poolcap, tr->npool + 1, sizeof(reader)))
                return OC_ENOMEM;
            tr->pool[tr->npool] = (reader){me, tr->head[c0 + k]};
            tr->head[c0 + k] = (uint32_t)++tr->npool;
        }
    }
    if (wloc) {
        const size_t c0 = tr->base[v] + cell(&b->L, v, wloc);
        for (uint32_t k = 0; k < s.cnt; k++) {
            tr->writer[c0 + k] = me;
            tr->head[c0 + k] = 0;
        }
    }
    return 0;
}

/* Local copies into threadblocks of their own (send = recv = -1, channel 0), `steps` each. */
static int add_copies_tbs(attempt *a, const lcopy *cp, size_t n) {
    mbuild *b = a->b;
    uint32_t *cur = oc__calloc(b->N, sizeof(uint32_t)); /* tb + 1 being filled */
    if (!cur) return OC_ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const lcopy *c = &cp[i];
        mgpu *g = &b->gpus[c->node];
        /* leave room for nops: a copy waits for at most 2 * cnt threadblocks */
        if (!cur[c->node] || g->tbs[cur[c->node] - 1].n + 2u * c->cnt + 1 > b->rt->steps) {
            uint32_t id;
            if ((rc = new_tb(g, -1, -1, 0, &id))) break;
            cur[c->node] = id + 1;
        }
        mstep s = {X_CPY, 0, (uint8_t)c->cnt, c->sloc, c->dloc, -1, -1};
        rc = add_step(a, c->node, cur[c->node] - 1, s, c->sloc, 0, c->dloc);
    }
    free(cur);
    return rc;
}

static void attempt_free(attempt *a) {
    free(a->streams);
    free(a->mstream);
    free(a->wait_step);
    free(a->touched);
    free(a->tr.writer);
    free(a->tr.head);
    free(a->tr.pool);
    free(a->tr.base);
}

static int run_attempt(attempt *a) {
    mbuild *b = a->b;
    const uint32_t N = b->N, rt_ch = b->rt->channels;
    kmap smap = {0}, cmap = {0}, gmap = {0};
    uint32_t *sendcnt = NULL, *recvcnt = NULL;
    group *groups = NULL;
    size_t ngroups = 0, gcap = 0;
    int rc = OC_ENOMEM;
    gpus_free(b);
    b->gpus = oc__calloc(N, sizeof(mgpu));
    if (!b->gpus) goto out;
    /* 1. streams: (src, dst, segment, lane) */
    a->mstream = oc__malloc_array(b->nmsg + 1, sizeof(uint32_t));
    if (!a->mstream) goto out;
    for (size_t i = 0; i < b->nmsg; i++) {
        const msg *m = &b->msgs[i];
        const uint64_t seg = m->round / a->rps;
        const uint64_t key = (((seg << 10 | m->lane) * N + m->src) * N) + m->dst;
        uint32_t id;
        int added;
        if (m->lane >= 1024 || kmap_get(&smap, key, (uint32_t)a->nstreams, &id, &added)) goto out;
        if (added) {
            if (oc__grow((void **)&a->streams, &a->scap, a->nstreams + 1, sizeof(stream)))
                goto out;
            a->streams[a->nstreams++] = (stream){m->src, m->dst, (uint32_t)seg, m->lane, 0, 0, 0};
        }
        a->mstream[i] = id;
    }
    /* 2. channels, greedily: both ends below 32 streams, the peer new on the channel */
    sendcnt = oc__calloc((size_t)N * rt_ch, sizeof(uint32_t));
    recvcnt = oc__calloc((size_t)N * rt_ch, sizeof(uint32_t));
    if (!sendcnt || !recvcnt) goto out;
    a->maxchan = 0;
    for (size_t i = 0; i < a->nstreams; i++) {
        stream *s = &a->streams[i];
        uint32_t c = 0;
        for (;; c++) {
            if (c >= rt_ch) {
                a->maxchan = rt_ch + 1; /* over the runtime's channels */
                rc = 0;
                goto out;
            }
            if (sendcnt[(size_t)s->src * rt_ch + c] >= b->rt->per_channel ||
                recvcnt[(size_t)s->dst * rt_ch + c] >= b->rt->per_channel)
                continue;
            uint32_t dummy;
            int added;
            const uint64_t ks = (((uint64_t)c * N + s->src) * N + s->dst) * 2;
            if (kmap_get(&cmap, ks, 0, &dummy, &added)) goto out;
            if (!added) continue;
            break;
        }
        s->chan = c;
        sendcnt[(size_t)s->src * rt_ch + c]++;
        recvcnt[(size_t)s->dst * rt_ch + c]++;
        if (c + 1 > a->maxchan) a->maxchan = c + 1;
    }
    /* 3. threadblocks: first the prologue's (their steps are waited for, and depid is small),
     * then the streams' (the k-th sending and the k-th receiving stream of a GPU's (segment,
     * channel) share one), then the epilogue's */
    a->tr.base = oc__malloc_array((size_t)N + 1, sizeof(size_t));
    if (!a->tr.base) goto out;
    size_t cells = 0;
    for (uint32_t v = 0; v < N; v++) {
        a->tr.base[v] = cells;
        cells += (size_t)in_size(&b->L, v) + out_size(&b->L, v) + b->C;
    }
    a->tr.writer = oc__calloc(cells + 1, sizeof(uint64_t));
    a->tr.head = oc__calloc(cells + 1, sizeof(uint32_t));
    if (!a->tr.writer || !a->tr.head) goto out;
    if ((rc = add_copies_tbs(a, b->pro, b->npro))) goto out;
    rc = OC_ENOMEM;
    for (size_t i = 0; i < a->nstreams; i++) {
        stream *s = &a->streams[i];
        for (int end = 0; end < 2; end++) {
            const uint32_t v = end ? s->dst : s->src;
            const uint64_t gk = ((uint64_t)s->seg * rt_ch + s->chan) * N + v;
            uint32_t gi;
            int added;
            if (kmap_get(&gmap, gk, (uint32_t)ngroups, &gi, &added)) goto out;
            if (added) {
                if (oc__grow((void **)&groups, &gcap, ngroups + 1, sizeof(group))) goto out;
                memset(&groups[ngroups++], 0, sizeof(group));
            }
            group *g = &groups[gi];
            size_t *k = end ? &g->nrecv : &g->nsend;
            if (*k == g->n) {
                uint32_t id;
                if (new_tb(&b->gpus[v], -1, -1, (int32_t)s->chan, &id) ||
                    oc__grow((void **)&g->tbs, &g->cap, g->n + 1, sizeof(uint32_t)))
                    goto out;
                g->tbs[g->n++] = id;
            }
            const uint32_t tb = g->tbs[(*k)++];
            if (end) {
                b->gpus[v].tbs[tb].recv = (int32_t)s->src;
                s->tb_dst = tb;
            } else {
                b->gpus[v].tbs[tb].send = (int32_t)s->dst;
                s->tb_src = tb;
            }
        }
    }
    /* 4. steps in the global order: round by round, sends then receives, in transfer order */
    for (uint32_t t = 0; t < b->rounds; t++) {
        const size_t lo = b->round_start[t], hi = b->round_start[t + 1];
        for (size_t i = lo; i < hi; i++) {
            const msg *m = &b->msgs[i];
            const stream *s = &a->streams[a->mstream[i]];
            mstep st = {X_S, 0, m->cnt, m->sloc, m->sloc, -1, -1};
            if ((rc = add_step(a, m->src, s->tb_src, st, m->sloc, 0, 0))) goto out;
        }
        for (size_t i = lo; i < hi; i++) {
            const msg *m = &b->msgs[i];
            const stream *s = &a->streams[a->mstream[i]];
            const int red = m->type == X_RRC;
            mstep st = {m->type, 0, m->cnt, red ? m->rloc : m->dloc, m->dloc, -1, -1};
            if ((rc = add_step(a, m->dst, s->tb_dst, st, red ? m->rloc : 0, 0, m->dloc)))
                goto out;
        }
    }
    rc = add_copies_tbs(a, b->epi, b->nepi);
out:
    for (size_t i = 0; i < ngroups; i++)
        free(groups[i].tbs);
    free(groups);
    kmap_free(&smap);
    kmap_free(&cmap);
    kmap_free(&gmap);
    free(sendcnt);
    free(recvcnt);
    return rc;
}

/* Renumbers a GPU's threadblocks so that those some step waits for come first (depid is an
 * int8: they need ids up to 127), each group in its old order; *waited is how many there are. */
static int waited_first(mgpu *g, uint32_t *waited) {
    uint32_t *map = oc__calloc(g->n + 1, sizeof(uint32_t));
    mtb *tbs = oc__malloc_array(g->n + 1, sizeof(mtb));
    if (!map || !tbs) {
        free(map);
        free(tbs);
        return OC_ENOMEM;
    }
    for (size_t t = 0; t < g->n; t++)
        for (size_t k = 0; k < g->tbs[t].n; k++)
            if (g->tbs[t].steps[k].depid >= 0) map[g->tbs[t].steps[k].depid] = 1;
    uint32_t next = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (size_t t = 0; t < g->n; t++)
            if ((map[t] & 1) == (uint32_t)pass) map[t] |= (next++) << 1;
    uint32_t count = 0;
    for (size_t t = 0; t < g->n; t++) {
        count += map[t] & 1;
        tbs[map[t] >> 1] = g->tbs[t];
    }
    *waited = count;
    for (size_t t = 0; t < g->n; t++)
        for (size_t k = 0; k < tbs[t].n; k++)
            if (tbs[t].steps[k].depid >= 0)
                tbs[t].steps[k].depid = (int32_t)(map[tbs[t].steps[k].depid] >> 1);
    memcpy(g->tbs, tbs, g->n * sizeof(mtb));
    free(tbs);
    free(map);
    return 0;
}

/* ---- writing ---- */

#define WATTR(name, fmt, ...)                                                                      \
    (xmlTextWriterWriteFormatAttribute(w, BAD_CAST(name), fmt, __VA_ARGS__) < 0)

static const char *msccl_coll(oc_collective c) {
    switch (c) {
    case OC_ALLGATHER:
    case OC_GOSSIP: /* every node ends with every block: an all-gather */
        return "allgather";
    case OC_ALLREDUCE:
        return "allreduce";
    case OC_REDUCESCATTER:
        return "reducescatter";
    case OC_ALLTOALL:
        return "alltoall";
    case OC_BROADCAST:
        return "broadcast";
    case OC_GATHER:
        return "gather";
    case OC_SCATTER:
        return "scatter";
    default:
        return NULL;
    }
}

static uint32_t scratch_size(const mbuild *b, uint32_t v) {
    return b->relabel ? b->C : b->nslots[v];
}

/* libxml2's output goes through these: a failed write is kept here and reported by write_xml,
 * and libxml2 is told the bytes went out, because on a failure it prints "I/O error : ..." on
 * stderr itself (a full disk added two such raw lines beside the tool's one), and the library
 * never prints. */
typedef struct xml_sink {
    FILE *f;
    int failed, err;
} xml_sink;

static int xml_sink_write(void *ctx, const char *buf, int n) {
    xml_sink *k = ctx;
    if (!k->failed && n > 0 && fwrite(buf, 1, (size_t)n, k->f) != (size_t)n)
        k->failed = 1, k->err = errno;
    return n;
}

static int xml_sink_close(void *ctx) {
    (void)ctx; /* f is the caller's */
    return 0;
}

/* 0, OC_EIO after a failed write (errno set to its cause) or OC_ENOMEM. */
static int write_xml(FILE *f, const mbuild *b, const oc__spec *s, const char *algo,
                     uint32_t nchannels) {
    xml_sink sink = {f, 0, 0};
    xmlOutputBufferPtr out = xmlOutputBufferCreateIO(xml_sink_write, xml_sink_close, &sink, NULL);
    if (!out) return OC_ENOMEM;
    xmlTextWriterPtr w = xmlNewTextWriter(out);
    if (!w) {
        xmlOutputBufferClose(out);
        return OC_ENOMEM;
    }
    /* no xmlTextWriterStartDocument: the runtimes' reader refuses an XML declaration */
    int bad =
        xmlTextWriterSetIndent(w, 1) < 0 || xmlTextWriterSetIndentString(w, BAD_CAST "  ") < 0;
    bad = bad || xmlTextWriterStartElement(w, BAD_CAST "algo") < 0;
    bad = bad || WATTR("name", "opticoll %s %s n=%u", oc_collective_name(s->coll), algo, s->nodes);
    bad = bad || WATTR("proto", "%s", "Simple") || WATTR("nchannels", "%u", nchannels) ||
          WATTR("nchunksperloop", "%u", b->L.ncpl) || WATTR("ngpus", "%u", s->nodes) ||
          WATTR("coll", "%s", msccl_coll(s->coll)) || WATTR("inplace", "%d", b->L.inplace) ||
          WATTR("outofplace", "%d", !b->L.inplace) || WATTR("minBytes", "%d", 0) ||
          WATTR("maxBytes", "%d", 0) || WATTR("oc_collective", "%s", oc_collective_name(s->coll)) ||
          WATTR("oc_algorithm", "%s", algo) || WATTR("oc_root", "%u", s->root) ||
          WATTR("oc_bytes", "%llu", (unsigned long long)s->bytes) ||
          WATTR("oc_runtime", "%s", b->rt->name);
    for (uint32_t v = 0; !bad && v < b->N; v++) {
        const mgpu *g = &b->gpus[v];
        bad = xmlTextWriterStartElement(w, BAD_CAST "gpu") < 0 || WATTR("id", "%u", v) ||
              WATTR("i_chunks", "%u", in_size(&b->L, v)) ||
              WATTR("o_chunks", "%u", out_size(&b->L, v)) ||
              WATTR("s_chunks", "%u", scratch_size(b, v));
        for (size_t t = 0; !bad && t < g->n; t++) {
            const mtb *tb = &g->tbs[t];
            bad = xmlTextWriterStartElement(w, BAD_CAST "tb") < 0 || WATTR("id", "%zu", t) ||
                  WATTR("send", "%d", tb->send) || WATTR("recv", "%d", tb->recv) ||
                  WATTR("chan", "%d", tb->chan);
            for (size_t k = 0; !bad && k < tb->n; k++) {
                const mstep *st = &tb->steps[k];
                const int nop = st->type == X_NOP;
                bad = xmlTextWriterStartElement(w, BAD_CAST "step") < 0 || WATTR("s", "%zu", k) ||
                      WATTR("type", "%s", xname[st->type]) ||
                      WATTR("srcbuf", "%c", nop ? 'i' : bufname[LBUF(st->sloc)]) ||
                      WATTR("srcoff", "%d", nop ? -1 : (int)LOFF(st->sloc)) ||
                      WATTR("dstbuf", "%c", nop ? 'o' : bufname[LBUF(st->dloc)]) ||
                      WATTR("dstoff", "%d", nop ? -1 : (int)LOFF(st->dloc)) ||
                      WATTR("cnt", "%u", st->cnt) || WATTR("depid", "%d", st->depid) ||
                      WATTR("deps", "%d", st->deps) || WATTR("hasdep", "%d", st->hasdep) ||
                      xmlTextWriterEndElement(w) < 0;
            }
            bad = bad || xmlTextWriterEndElement(w) < 0;
        }
        bad = bad || xmlTextWriterEndElement(w) < 0;
    }
    bad = bad || xmlTextWriterEndElement(w) < 0 || xmlTextWriterFlush(w) < 0;
    xmlFreeTextWriter(w); /* flushes and closes the output buffer (not f) */
    if (!sink.failed && fputc('\n', f) == EOF) sink.failed = 1, sink.err = errno;
    if (sink.failed) {
        errno = sink.err;
        return OC_EIO;
    }
    return bad ? OC_ENOMEM : 0; /* libxml2 fails on its own only when memory runs out */
}

/* ---- the export ---- */

static int refuse(char *why, size_t len, const mbuild *b, const char *algo, const char *fmt,
                  unsigned long long need, unsigned long long allow) {
    char what[160];
    snprintf(what, sizeof what, "%s %s on %u nodes", algo, oc_collective_name(b->L.coll), b->N);
    char line[400];
    snprintf(line, sizeof line, fmt, need);
    return oc__fail(why, len, OC_ENOTSUP, "MSCCL export: %s needs %s; %s allows %llu", what, line,
                    b->rt->name, allow);
}

static int export_msccl_for_in(const oc_request *req, const char *runtime, int inplace, FILE *f,
                               char *why, size_t len) {
    const mrt *rt = NULL;
    for (size_t i = 0; i < sizeof runtimes / sizeof runtimes[0]; i++)
        if (!runtime || !strcmp(runtime, runtimes[i].name)) {
            rt = &runtimes[i];
            break;
        }
    if (!rt)
        return oc__fail(why, len, OC_EINVAL, "unknown MSCCL runtime %s (msccl-nccl, rccl)",
                        OC_Q(runtime));
    oc__export x;
    oc__store store;
    oc__store_init(&store);
    mbuild b;
    memset(&b, 0, sizeof b);
    attempt a;
    memset(&a, 0, sizeof a);
    int rc = oc__export_begin(req, &x, why, len);
    if (rc) goto out;
    const oc__spec *s = &x.plan.spec;
    const char *aname = x.algo->info.name;
    b.rt = rt;
    b.N = s->nodes;
    b.C = s->chunks;
    b.L = (layout){s->coll, s->nodes, s->q, s->chunks, s->root, 0, s->block_node, inplace != 0};
    if (!msccl_coll(s->coll)) {
        rc = oc__fail(why, len, OC_ENOTSUP, "MSCCL export: %s has no MSCCL collective",
                      oc_collective_name(s->coll));
        goto out;
    }
    if ((s->coll == OC_GATHER || s->coll == OC_SCATTER) && !rt->rooted) {
        rc = oc__fail(why, len, OC_ENOTSUP,
                      "MSCCL export: %s reads coll=\"%s\" but NCCL has no %s call to run it "
                      "(RCCL has: --runtime rccl)",
                      rt->name, msccl_coll(s->coll), msccl_coll(s->coll));
        goto out;
    }
    if (s->nodes > rt->gpus) {
        rc = refuse(why, len, &b, aname, "%llu GPUs (<gpu> elements; MAX_SUBS)", s->nodes,
                    rt->gpus);
        goto out;
    }
    if ((uint64_t)s->nodes * s->chunks > MSCCL_MAX_CELLS) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "MSCCL export: %u nodes x %u chunks is more than this exporter handles "
                      "(2^22 GPU-chunk pairs)",
                      s->nodes, s->chunks);
        goto out;
    }
    switch (s->coll) {
    case OC_ALLREDUCE:
    case OC_BROADCAST:
    case OC_GATHER:
    case OC_SCATTER:
        b.L.ncpl = s->q;
        break;
    default:
        b.L.ncpl = s->nodes * s->q;
    }
    b.relabel = s->block_node != NULL;
    for (uint32_t v = 0; b.relabel && v < s->nodes; v++)
        if (s->block_node[v] != v) goto relabelled;
    b.relabel = 0;
    b.L.bn = NULL;
relabelled:; /* a label is followed by a statement in C11, not by a declaration */
    /* 1. Verify and map (nothing is written unless this passes), keeping the rounds. */
    if ((rc = oc__export_check(req, &x, &store.sink, NULL, why, len))) goto out;
    b.rounds = (uint32_t)store.count;
    b.loc = oc__calloc((size_t)b.N * b.C, sizeof(uint32_t));
    b.slot = oc__calloc((size_t)b.N * b.C, sizeof(uint32_t));
    b.nslots = oc__calloc(b.N, sizeof(uint32_t));
    if (!b.loc || !b.slot || !b.nslots || build_messages(&b, &store)) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* 2. Threadblocks: one segment, then shorter ones while a threadblock passes the steps. */
    uint32_t rps = b.rounds ? b.rounds : 1;
    for (;;) {
        attempt_free(&a);
        memset(&a, 0, sizeof a);
        a.b = &b;
        a.rps = rps;
        if (run_attempt(&a)) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
        if (a.maxchan > rt->channels) break;
        if (a.maxsteps <= rt->steps || rps == 1) break;
        uint32_t next = (uint32_t)((uint64_t)rps * rt->steps / a.maxsteps);
        rps = next < rps ? (next ? next : 1) : rps - 1;
    }
    /* 3. The runtime's limits. */
    if (a.maxchan > rt->channels) {
        rc = refuse(why, len, &b, aname, "more than %llu channels", rt->channels, rt->channels);
        goto out;
    }
    if (a.maxsteps > rt->steps) {
        rc = refuse(why, len, &b, aname, "%llu steps in one threadblock (one round of it)",
                    a.maxsteps, rt->steps);
        goto out;
    }
    for (uint32_t v = 0; v < b.N; v++) {
        uint32_t waited;
        if ((rc = waited_first(&b.gpus[v], &waited))) {
            rc = oc__fail(why, len, rc, "out of memory");
            goto out;
        }
        if (waited > rt->depid + 1) {
            rc = refuse(why, len, &b, aname, "waits for %llu threadblocks of one GPU (depid is an "
                        "int8: ids up to 127)", waited, rt->depid + 1);
            goto out;
        }
    }
    for (uint32_t v = 0; v < b.N; v++) {
        const mgpu *g = &b.gpus[v];
        uint64_t steps = 0;
        for (size_t t = 0; t < g->n; t++)
            steps += g->tbs[t].n;
        if (g->n > rt->tbs) {
            rc = refuse(why, len, &b, aname, "%llu threadblocks per GPU", g->n, rt->tbs);
            goto out;
        }
        if (1 + b.N + g->n + steps >= rt->elements) {
            rc = refuse(why, len, &b, aname, "%llu XML elements read for one GPU (MAX_NODES)",
                        1 + b.N + g->n + steps, rt->elements - 1);
            goto out;
        }
        const uint32_t sz[3] = {in_size(&b.L, v), out_size(&b.L, v), scratch_size(&b, v)};
        for (int k = 0; k < 3; k++)
            if (sz[k] > rt->offsets) {
                rc = refuse(why, len, &b, aname, "%llu chunks in one buffer (offsets are int16)",
                            sz[k], rt->offsets);
                goto out;
            }
    }
    /* 4. Write. */
    if ((rc = write_xml(f, &b, s, aname, a.maxchan ? a.maxchan : 1)) == OC_ENOMEM)
        rc = oc__fail(why, len, rc, "out of memory writing the MSCCL program");
    else if (rc || ferror(f))
        rc = oc__fail(why, len, OC_EIO, "write error: %s", strerror(errno));
out:
    attempt_free(&a);
    mbuild_free(&b);
    oc__store_free(&store);
    oc__export_end(&x);
    return rc;
}

int oc_export_msccl_for(const oc_request *req, const char *runtime, int inplace, FILE *f, char *why,
                        size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = export_msccl_for_in(req, runtime, inplace, f, why, len);
    oc__settings_leave(prev);
    return rc;
}

int oc_export_msccl(const oc_request *req, FILE *f, char *why, size_t len) {
    return oc_export_msccl_for(req, NULL, 0, f, why, len);
}
