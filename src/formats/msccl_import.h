/*
 * msccl_import.h — what the three files of the MSCCL XML reader share: msccl_import.c reads the
 * file into a program (GPUs, threadblocks, steps, waits, messages) and is the entry
 * (oc__verify_msccl); msccl_exec.c executes one mode of it (in place or out of place) chunk by
 * chunk, checking races by happens-before, and turns its messages into rounds; msccl_rounds.c
 * finds each message's round (its depth in the graph of waits). msccl_import.c's essay states the
 * runtimes' rules all three follow.
 */
#ifndef OC_FORMATS_MSCCL_IMPORT_H
#define OC_FORMATS_MSCCL_IMPORT_H

#include "formats/formats.h"
#include "formats/msccl.h"

#include <stddef.h>
#include <stdint.h>

/* ---- what a step does ---- */

enum { K_S, K_R, K_RRC, K_NOP, K_RCS, K_RRS, K_RRCS, K_CPY, K_RE, K_COUNT };
static inline const char *oc__msccl_kind_name(unsigned k) {
    static const char *const name[K_COUNT] = {"s",   "r",    "rrc", "nop", "rcs",
                                              "rrs", "rrcs", "cpy", "re"};
    return name[k];
}
enum { F_RECV = 1, F_SEND = 2, F_RSRC = 4, F_WDST = 8, F_RED = 16, F_LOCAL = 32 };
static inline uint8_t oc__msccl_kind_flags(unsigned k) {
    static const uint8_t flags[K_COUNT] = {
        [K_S] = F_SEND | F_RSRC,
        [K_R] = F_RECV | F_WDST,
        [K_RRC] = F_RECV | F_RSRC | F_WDST | F_RED,
        [K_NOP] = 0,
        [K_RCS] = F_RECV | F_SEND | F_WDST,
        [K_RRS] = F_RECV | F_SEND | F_RSRC | F_RED,
        [K_RRCS] = F_RECV | F_SEND | F_RSRC | F_WDST | F_RED,
        [K_CPY] = F_LOCAL | F_RSRC | F_WDST,
        [K_RE] = F_LOCAL | F_RSRC | F_WDST | F_RED,
    };
    return flags[k];
}
enum { B_I, B_O, B_S };
static inline const char *oc__msccl_buf_name(unsigned b) {
    static const char *const name[3] = {"input", "output", "scratch"};
    return name[b];
}
#define MAX_FUSION 16 /* MSCCL_MAX_REDUCE_FUSION, msccl_struct.h */
#define MAX_PAIRS (UINT64_C(1) << 24)
#define NONE UINT32_MAX
#define NEED_ORDER 2 /* not an error: the race check needs the clocks of happens-before */

typedef struct rstep {
    uint8_t kind, sbuf, dbuf, hasdep;
    int32_t s;     /* the file's s */
    uint32_t ridx; /* the kernel's step number */
    uint32_t soff, doff, cnt;
    uint32_t w0, nw; /* its waits in prog.waits[] (the nops' before it included) */
    uint32_t rx, sx; /* the message it receives / sends (NONE: none) */
    uint32_t lnode;  /* a local step's node in the graph of rounds */
    uint32_t part;   /* its first part in the graph of execution */
    uint32_t snap;   /* its clock while steps that wait for it have not run (hb_leave) */
    uint32_t takers; /* those steps */
    long line;
} rstep;

typedef struct rtb {
    int32_t id, send, recv, chan;
    rstep *steps;
    size_t n, cap;
    long line;
} rtb;

typedef struct rgpu {
    rtb *tbs;
    size_t n, cap;
    int seen;
    uint32_t *by_id;   /* threadblock indices sorted by id */
    uint32_t *by_recv; /* receiving threadblocks sorted by (recv, chan) */
    size_t nrecv;
} rgpu;

/* A wait as the file says it, then resolved to the step that satisfies it. */
typedef struct rwaitf {
    int32_t depid, deps;
    uint32_t tb, k;
} rwaitf;

/* A message: step sk of threadblock stb on GPU src to step rk of rtb on dst. */
typedef struct rmsg {
    uint32_t src, dst, stb, sk, rtb, rk, cnt;
    uint8_t reduce;  /* the IR's op */
    uint32_t *label; /* the payload while in flight: cnt labels ... */
    uint64_t *bits;  /* ... and cnt contribution sets */
} rmsg;

typedef struct prog {
    const char *path;
    uint32_t N, C, q, nbuf[3]; /* nbuf: chunks of i, o, s as the collective sizes them */
    oc_collective coll;
    uint32_t root;
    int reduces, inplace, outofplace;
    rgpu *gpus;
    rwaitf *waits;
    size_t nwaits, capwaits;
    rmsg *msgs;
    size_t nmsgs, capmsgs;
    uint32_t nlocal; /* local steps (cpy, re): nodes nmsgs.. of the graph of rounds */
} prog;

/* A GPU's chunks in one mode, as slots: the buffers laid out one after the other, except that
 * in place the input and output alias as the runtime's callers lay them out. */
typedef struct layout {
    int inplace;
    uint32_t M;          /* slots per GPU */
    uint32_t base[3];    /* slot of chunk 0 of i, o, s (rank 0; see slot()) */
    int alias;           /* in place: -1 none, B_I: i sits in o at rank*q, B_O: o sits in i */
    uint32_t alias_step; /* q (allgather, reducescatter) or C (gather, scatter); 0: same base */
} layout;

/* The slot of chunk `off` of buffer b on GPU g. */
static inline uint32_t oc__msccl_slot(const layout *L, uint32_t g, int b, uint32_t off) {
    uint32_t s = L->base[b] + off;
    if (L->alias == b) s += g * L->alias_step;
    return s;
}

/* A cross-threadblock wait on GPU g: step k of threadblock a waits for step j of b. */
typedef struct rwait {
    uint32_t g, a, b, k, j;
} rwait;

/* An edge of the graph of rounds (msccl_rounds.c). */
typedef struct redge {
    uint32_t from, to;
    uint8_t w;
} redge;

static inline int oc__msccl_nomem(char *why, size_t len) {
    return oc__fail(why, len, OC_ENOMEM, "out of memory");
}
/* The program's reading or execution stopped at the caller's request (a poll of the reading's
 * progress, oc__stop_tick, answered OC_ECANCELED). */
static inline int oc__msccl_cancelled(const prog *p, char *why, size_t len) {
    return oc__fail(why, len, OC_ECANCELED, "%s: cancelled while reading the MSCCL program",
                    p->path);
}

/* msccl_exec.c: the cross-threadblock waits of every GPU, sorted (waits_for's table); and the
 * program checked in one mode, its messages as rounds in `store` when given. */
int oc__msccl_collect_waits(const prog *p, rwait **out, size_t *nout, char *why, size_t len);
int oc__msccl_check_mode(prog *p, int inplace, const rwait *waits, size_t nw, oc__store *store,
                         char *why, size_t len);

/* msccl_rounds.c: the edges of the graph of rounds of one mode, and each node's level. */
int oc__msccl_round_edges(const prog *p, const layout *L, redge **edges, size_t *ne, size_t *cap,
                          char *why, size_t len);
int oc__msccl_levels(const prog *p, const redge *edges, size_t ne, size_t G, uint32_t *level,
                     char *why, size_t len);

#endif
