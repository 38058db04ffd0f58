/*
 * chrome.c — `opticoll export --format chrome`: the schedule as a timeline in the Chrome
 * trace-event format, which https://ui.perfetto.dev and chrome://tracing open.
 *
 * The file is {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}:
 *  - process 1 "nodes" has one track (thread) per node, named by "M" metadata events; every
 *    transfer's hold on a resource in a physical step is a complete ("X") slice on the sender's
 *    track ("send 3->4") and, for a path between both ends (a ring lightpath), on the
 *    receiver's ("recv 3->4"); a resource that belongs to one side (a switch port) is a slice on
 *    that side's track. Its args: round, step, op, peer, chunks [first, count], bytes and the
 *    resource the model gave it (ring: direction, fibre, wavelengths; switch: port; star:
 *    laser wavelength and filter; fat-tree: route and bottleneck; fabric: circuit wavelengths).
 *  - process 2 "network" has one track "steps": a slice per physical step (or per round when
 *    the model serialises a round's steps on ports), so the slices of that track tile
 *    [0, time_s] exactly.
 * Times are the model's own per-step costs (ts and dur in microseconds, as the format wants).
 *
 * The trace is streamed: each event is built with cJSON (its numbers through core/json.h, so a
 * time reads back to the very double the model computed), printed and freed, so a schedule of
 * millions of transfers never sits in memory. It is written while the schedule is verified and
 * mapped; the CLI keeps it in a temporary file and shows it only when everything passed.
 *
 * Its size has a cap, like every output: a quarter of the memory budget (1 GiB by default,
 * OPTICOLL_MEMORY_BUDGET_MIB moves it), because a viewer reads the whole JSON file into memory,
 * several times its size (ring all-gather on 4096 nodes at 1 byte was 7.7 GB). The trace's size
 * is not known before it is generated (two slices per transfer, whose count most plans do not
 * know ahead), so each event is printed to a string first and refused, with one line naming the
 * cap, before a byte of it passes the cap: the stream never holds more than the cap, and the CLI,
 * which writes into a temporary, leaves nothing behind.
 */
#include "run/watch.h"
#include "core/json.h"
#include "formats/formats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chrome_writer {
    oc__watch watch;
    oc__observer obs;
    FILE *f;
    uint64_t chunk_bytes;
    uint64_t events;
    uint64_t bytes, cap; /* written so far, and the most that may be */
    double end_s;        /* the end of the last step */
} chrome_writer;

/* The room the trace's frame takes besides its events (the head, the tail and "otherData"). */
enum { FRAME_BYTES = 1024 };


/* Prints one event (and frees it); the comma goes before every event but the first. */
static int put(chrome_writer *w, cJSON *ev, char *why, size_t len) {
    if (!ev) return oc__fail(why, len, OC_ENOMEM, "out of memory writing the trace");
    char *text = oc__json_text(ev, OC__JSON_COMPACT);
    cJSON_Delete(ev);
    if (!text) return oc__fail(why, len, OC_ENOMEM, "out of memory writing the trace");
    size_t n = strlen(text);
    if (w->bytes + 2 + n + FRAME_BYTES > w->cap) {
        free(text);
        return oc__output_refuse("the Chrome trace", w->events, "events", why, len);
    }
    w->bytes += 2 + n;
    int bad = fputs(w->events++ ? ",\n" : "\n", w->f) == EOF || fputs(text, w->f) == EOF;
    free(text);
    if (bad) return oc__fail(why, len, OC_EIO, "write error: %s", strerror(errno));
    return 0;
}

static cJSON *event(const char *name, const char *ph, int pid, uint32_t tid) {
    cJSON *ev = cJSON_CreateObject();
    if (!ev) return NULL;
    if (!oc__json_str(ev, "name", name) || !oc__json_str(ev, "ph", ph) ||
        !oc__json_u64(ev, "pid", (uint64_t)pid) || !oc__json_u64(ev, "tid", tid)) {
        cJSON_Delete(ev);
        return NULL;
    }
    return ev;
}

/* A metadata event naming a process (tid 0) or a thread. */
static int meta(chrome_writer *w, const char *what, int pid, uint32_t tid, const char *name,
                char *why, size_t len) {
    cJSON *ev = event(what, "M", pid, tid);
    cJSON *args = ev ? cJSON_AddObjectToObject(ev, "args") : NULL;
    if (!oc__json_str(args, "name", name)) {
        cJSON_Delete(ev);
        ev = NULL;
    }
    return put(w, ev, why, len);
}

static cJSON *slice(const char *name, int pid, uint32_t tid, double start_s, double dur_s) {
    cJSON *ev = event(name, "X", pid, tid);
    if (ev && (!oc__json_num(ev, "ts", start_s * 1e6) || !oc__json_num(ev, "dur", dur_s * 1e6))) {
        cJSON_Delete(ev);
        return NULL;
    }
    return ev;
}

static int chrome_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps,
                       double start, double dur, char *why, size_t len) {
    chrome_writer *w = (chrome_writer *)((char *)o - offsetof(chrome_writer, obs));
    char name[96];
    if (nsteps == 1)
        snprintf(name, sizeof name, "step %llu (round %llu)", (unsigned long long)step,
                 (unsigned long long)round);
    else
        snprintf(name, sizeof name, "steps %llu-%llu (round %llu)", (unsigned long long)step,
                 (unsigned long long)(step + nsteps - 1), (unsigned long long)round);
    cJSON *ev = slice(name, 2, 0, start, dur);
    cJSON *args = ev ? cJSON_AddObjectToObject(ev, "args") : NULL;
    if (!oc__json_u64(args, "round", round) || !oc__json_u64(args, "step", step) ||
        !oc__json_u64(args, "steps", nsteps)) {
        cJSON_Delete(ev);
        ev = NULL;
    }
    if (start + dur > w->end_s) w->end_s = start + dur;
    return put(w, ev, why, len);
}

/* One slice for the use on the track of `node`, talking to `peer`. */
static int use_slice(chrome_writer *w, const oc__use *u, int recv, char *why, size_t len) {
    const oc__transfer *t = u->t;
    char name[64];
    snprintf(name, sizeof name, "%s %u->%u", recv ? "recv" : "send", t->src, t->dst);
    cJSON *ev = slice(name, 1, recv ? t->dst : t->src, u->start_s, u->dur_s);
    cJSON *args = ev ? cJSON_AddObjectToObject(ev, "args") : NULL;
    cJSON *chunks = oc__json_arr(args, "chunks");
    if (!oc__json_u64(chunks, NULL, t->first) || !oc__json_u64(chunks, NULL, t->count) ||
        !oc__json_u64(args, "round", u->round) || !oc__json_u64(args, "step", u->step) ||
        !oc__json_str(args, "op", t->op == OC_OP_REDUCE ? "reduce" : "copy") ||
        !oc__json_u64(args, "peer", recv ? t->src : t->dst) ||
        !oc__json_num(args, "bytes", (double)t->count * (double)w->chunk_bytes) ||
        !oc__json_str(args, "resource", u->resource ? u->resource : "")) {
        cJSON_Delete(ev);
        ev = NULL;
    }
    return put(w, ev, why, len);
}

static int chrome_use(oc__observer *o, const oc__use *u, char *why, size_t len) {
    chrome_writer *w = (chrome_writer *)((char *)o - offsetof(chrome_writer, obs));
    int rc = 0;
    if (u->show == OC_SHOW_LINKS) return 0;
    if (u->side != OC_USE_RECV) rc = use_slice(w, u, 0, why, len);
    if (!rc && u->side != OC_USE_SEND) rc = use_slice(w, u, 1, why, len);
    return rc;
}

static int chrome_attach(oc__watch *wt, const oc__model *model, oc__netrun *net, char *why,
                         size_t len) {
    chrome_writer *w = (chrome_writer *)wt;
    if (!model->observe) return oc__observe_unsupported(model, "a timeline", why, len);
    oc__grid g;
    return model->observe(net, &w->obs, &g, why, len);
}

static int chrome_finish(oc__watch *wt, oc_report *rep, char *why, size_t len) {
    (void)wt, (void)rep, (void)why, (void)len;
    return 0;
}

static int export_chrome_in(const oc_request *req, FILE *f, char *why, size_t len) {
    oc__export x;
    int rc = oc__export_begin(req, &x, why, len);
    if (rc) goto out;
    if (!x.model) {
        rc = oc__fail(why, len, OC_EINVAL, "a timeline needs a network (-t)");
        goto out;
    }
    chrome_writer w = {.watch = {.what = "the Chrome trace", .attach = chrome_attach, .finish = chrome_finish},
                       .obs = {.step = chrome_step, .use = chrome_use},
                       .f = f,
                       .cap = oc__output_cap(),
                       .chunk_bytes = x.plan.spec.chunk_bytes};
    fputs("{\"traceEvents\": [", f);
    char name[64];
    if ((rc = meta(&w, "process_name", 1, 0, "nodes", why, len))) goto out;
    snprintf(name, sizeof name, "network (%s)", x.model->info.name);
    if ((rc = meta(&w, "process_name", 2, 0, name, why, len)) ||
        (rc = meta(&w, "thread_name", 2, 0, "steps", why, len)))
        goto out;
    for (uint32_t v = 0; v < x.plan.spec.nodes; v++) {
        snprintf(name, sizeof name, "node %u", v);
        if ((rc = meta(&w, "thread_name", 1, v, name, why, len))) goto out;
    }
    if ((rc = oc__export_check(req, &x, NULL, &w.watch, why, len))) goto out;
    /* What the trace shows, for a reader of the file (and the test: span = time_s). */
    const oc_report *rep = x.rep;
    cJSON *other = cJSON_CreateObject();
    if (!oc__json_str(other, "collective", rep->collective) ||
        !oc__json_str(other, "algorithm", x.algo->info.name) ||
        !oc__json_str(other, "network", x.model->info.name) ||
        !oc__json_u64(other, "nodes", x.plan.spec.nodes) ||
        !oc__json_u64(other, "bytes", x.plan.spec.bytes) ||
        !oc__json_u64(other, "rounds", rep->rounds) || !oc__json_u64(other, "steps", rep->steps) ||
        !oc__json_num(other, "time_s", rep->time_s) ||
        !oc__json_bool(other, "verified", rep->verified)) {
        cJSON_Delete(other);
        other = NULL; /* oc__json_write: out of memory */
    }
    fputs("\n], \"displayTimeUnit\": \"ns\", \"otherData\": ", f);
    rc = oc__json_write(f, other, OC__JSON_COMPACT, "}\n");
    if (rc == OC_ENOMEM) rc = oc__fail(why, len, rc, "out of memory");
    if (rc == OC_EIO) rc = oc__fail(why, len, rc, "write error: %s", strerror(errno));
out:
    oc__export_end(&x);
    return rc;
}

int oc_export_chrome(const oc_request *req, FILE *f, char *why, size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = export_chrome_in(req, f, why, len);
    oc__settings_leave(prev);
    return rc;
}
