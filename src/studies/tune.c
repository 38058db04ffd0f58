/*
 * tune.c — which algorithm wins where (opticoll.h, "tuning"), and the decision files that carry
 * the answer to `run -a auto --decisions FILE`.
 *
 * A tuning is a sweep (sweep.c: every candidate x N x size, each generated, verified and mapped)
 * whose points have all run. For each (N, size) the winner is the candidate with the least
 * simulated time, with the parameters its run used (the ones its optimiser searched); ties go to
 * the first candidate (registry order, or the caller's). The crossovers are where the winner
 * changes between neighbouring points: along size for each N, and along N for each size; a
 * crossover lies between two measured points.
 *
 * The decision file (JSON, "opticoll-decisions" version 1) holds the collective, the network and
 * its parameters as given, the candidates, every point's winner, parameters and time, every
 * candidate's time or why it did not run, and the crossovers. Reading one picks the winner of the
 * nearest point: the point with the least |log2(N / N')| + |log2(S / S')| (sizes and node counts
 * matter by ratio; S + 1 so that 0 bytes has a logarithm), ties to the smaller N, then to the
 * smaller size. The caller runs that algorithm with its own optimiser at the requested N and size
 * (the file's parameters belong to the file's N). The reader checks the whole file before it picks
 * and names the line of what it refuses: cJSON keeps no positions, so the line is found again in
 * the text (below).
 */
#include "studies/studies.h"
#include "core/json.h"
#include "core/json_read.h"
#include "core/quote.h"
#include "run/pipeline.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oc_tune_winner(const oc_sweep *s, size_t ni, size_t si, int *second) {
    int best = -1, next = -1;
    for (size_t k = 0; k < oc_sweep_algorithm_count(s); k++) {
        const oc_sweep_point *q = oc_sweep_point_of(s, ni, si, k);
        if (!q || q->status != OC_POINT_RAN) continue;
        if (best < 0 || q->time_s < oc_sweep_point_of(s, ni, si, (size_t)best)->time_s) {
            next = best;
            best = (int)k;
        } else if (next < 0 || q->time_s < oc_sweep_point_of(s, ni, si, (size_t)next)->time_s) {
            next = (int)k;
        }
    }
    if (second) *second = next;
    return best;
}

static const char *algo_or_none(const oc_sweep *s, int k) {
    return k < 0 ? "(none runs)" : oc_sweep_algorithm(s, (size_t)k);
}

/* "k=v k=v" as {"k": v, ...} (oc__json_value) added to `to` under "params"; 1, or 0 when
 * memory ran out. */
static int add_params(cJSON *to, const char *text) {
    cJSON *o = oc__json_obj(to, "params");
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    int ok = o != NULL;
    for (char *kv = strtok_r(buf, " ", &save); ok && kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) continue;
        *eq = 0;
        ok = oc__json_value(o, kv, eq + 1);
    }
    return ok;
}

/* One crossover: where the winner changes from w0 to w1 between two neighbouring points. */
static int add_crossover(cJSON *list, const oc_sweep *s, const char *fixed, uint64_t at,
                         const char *after, const char *before, uint64_t a, uint64_t b, int w0,
                         int w1) {
    cJSON *e = oc__json_obj(list, NULL);
    return e && oc__json_u64(e, fixed, at) && oc__json_u64(e, after, a) &&
           oc__json_u64(e, before, b) && oc__json_str(e, "from", algo_or_none(s, w0)) &&
           oc__json_str(e, "to", algo_or_none(s, w1));
}

/* One point of the decision file: its winner (with the parameters and time of its run) and every
 * candidate's time or why it did not run. 1, or 0 when memory ran out. */
static int add_point(cJSON *pts, const oc_sweep *s, size_t ni, size_t si) {
    int w = oc_tune_winner(s, ni, si, NULL);
    cJSON *o = oc__json_obj(pts, NULL);
    int ok = o && oc__json_u64(o, "nodes", oc_sweep_nodes(s, ni)) &&
             oc__json_u64(o, "bytes", oc_sweep_size(s, si));
    if (ok && w >= 0) {
        const oc_sweep_point *p = oc_sweep_point_of(s, ni, si, (size_t)w);
        ok = oc__json_str(o, "winner", oc_sweep_algorithm(s, (size_t)w)) &&
             add_params(o, p->params) && oc__json_num(o, "time_s", p->time_s);
    } else if (ok) {
        ok = oc__json_null(o, "winner");
    }
    cJSON *c = ok ? oc__json_arr(o, "candidates") : NULL;
    ok = c != NULL;
    for (size_t k = 0; ok && k < oc_sweep_algorithm_count(s); k++) {
        const oc_sweep_point *p = oc_sweep_point_of(s, ni, si, k);
        cJSON *e = oc__json_obj(c, NULL);
        ok = e && oc__json_str(e, "algorithm", oc_sweep_algorithm(s, k)) &&
             (p->status == OC_POINT_RAN ? oc__json_num(e, "time_s", p->time_s)
                                        : oc__json_str(e, "not_run", p->why));
    }
    return ok;
}

/* The decision file as a cJSON tree (NULL: out of memory). Numbers go through core/json.h, so
 * every time reads back to the double the run computed. */
static cJSON *decisions(const oc_sweep *s) {
    const oc_request *base = oc_sweep_request(s);
    size_t nn = oc_sweep_node_count(s), ns = oc_sweep_size_count(s);
    cJSON *root = cJSON_CreateObject();
    int ok = root && oc__json_str(root, "format", "opticoll-decisions") &&
             oc__json_u64(root, "version", 1) &&
             oc__json_str(root, "collective", oc_collective_name(base->collective)) &&
             oc__json_str(root, "network", base->network) &&
             oc__json_kv(root, "network_params", base->net_params);
    cJSON *al = ok ? oc__json_arr(root, "algorithms") : NULL;
    ok = al != NULL;
    for (size_t k = 0; ok && k < oc_sweep_algorithm_count(s); k++)
        ok = oc__json_str(al, NULL, oc_sweep_algorithm(s, k));
    ok = ok && oc__json_str(root, "rule",
                            "winner = least simulated time (ties: first in algorithms); run -a "
                            "auto takes the point with the least |log2(N/N')| + |log2(S/S')| "
                            "(ties: smaller N, then smaller size)");
    cJSON *pts = ok ? oc__json_arr(root, "points") : NULL;
    ok = pts != NULL;
    for (size_t ni = 0; ok && ni < nn; ni++)
        for (size_t si = 0; ok && si < ns; si++)
            ok = add_point(pts, s, ni, si);
    cJSON *cx = ok ? oc__json_obj(root, "crossovers") : NULL;
    cJSON *as = cx ? oc__json_arr(cx, "along_size") : NULL;
    cJSON *an = as ? oc__json_arr(cx, "along_nodes") : NULL;
    ok = an != NULL;
    for (size_t ni = 0; ok && ni < nn; ni++)
        for (size_t si = 1; ok && si < ns; si++) {
            int w0 = oc_tune_winner(s, ni, si - 1, NULL), w1 = oc_tune_winner(s, ni, si, NULL);
            if (w0 != w1)
                ok = add_crossover(as, s, "nodes", oc_sweep_nodes(s, ni), "after_bytes",
                                   "before_bytes", oc_sweep_size(s, si - 1), oc_sweep_size(s, si),
                                   w0, w1);
        }
    for (size_t si = 0; ok && si < ns; si++)
        for (size_t ni = 1; ok && ni < nn; ni++) {
            int w0 = oc_tune_winner(s, ni - 1, si, NULL), w1 = oc_tune_winner(s, ni, si, NULL);
            if (w0 != w1)
                ok = add_crossover(an, s, "bytes", oc_sweep_size(s, si), "after_nodes",
                                   "before_nodes", oc_sweep_nodes(s, ni - 1),
                                   oc_sweep_nodes(s, ni), w0, w1);
        }
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int oc_tune_decisions(const oc_sweep *s, char **text) {
    *text = NULL;
    cJSON *d = decisions(s);
    char *t = d ? cJSON_Print(d) : NULL;
    cJSON_Delete(d);
    if (!t) return OC_ENOMEM;
    size_t len = strlen(t);
    char *t2 = realloc(t, len + 2);
    if (!t2) {
        free(t);
        return OC_ENOMEM;
    }
    memcpy(t2 + len, "\n", 2);
    *text = t2;
    return 0;
}

/* ---- where a value of a JSON file is (the decision file's messages name FILE:LINE) ----
 *
 * cJSON keeps no positions, so the line of an item is found again in the text: the item's index
 * in document order (pre-order, the order cJSON's tree lists values in) is counted in the tree,
 * then the text is scanned to the start of that value. The text is what cJSON parsed, so it is
 * well-formed and the scan only needs to tell keys from values. Both walks are linear. */

/* Adds to *i the values before `item` in document order, from node on; 1 when item was found. */
static int preorder_index(const cJSON *node, const cJSON *item, size_t *i) {
    for (; node; node = node->next) {
        if (node == item) return 1;
        ++*i;
        if (preorder_index(node->child, item, i)) return 1; /* depth: cJSON's nesting limit */
    }
    return 0;
}

/* The line where the index-th value of the well-formed JSON text starts. */
static unsigned value_line(const char *text, size_t index) {
    char ctx[CJSON_NESTING_LIMIT + 2]; /* '{' or '[' per open level */
    size_t depth = 0, seen = 0;
    unsigned line = 1;
    int key = 0; /* the next string is an object's key */
    const char *p = text;
    if (!strncmp(p, "\xef\xbb\xbf", 3)) p += 3; /* cJSON skips a byte order mark */
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') line++;
        if (c <= ' ' || c == ':') continue; /* cJSON's white space is every byte up to ' ' */
        if (c == ',') {
            key = depth && ctx[depth - 1] == '{';
            continue;
        }
        if (c == '}' || c == ']') {
            depth -= depth > 0;
            key = 0;
            continue;
        }
        int is_key = c == '"' && key;
        if (!is_key && seen++ == index) return line;
        if (c == '{' || c == '[') {
            if (depth < sizeof ctx) ctx[depth++] = (char)c;
            key = c == '{';
        } else if (c == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\n') line++;
                if (*p == '\\' && p[1]) p++;
            }
            if (!*p) break;
            key = 0;
        } else {
            while (p[1] && !strchr(",]}:", p[1]) && (unsigned char)p[1] > ' ')
                p++;
        }
    }
    return line;
}

/* The line where `item` starts in `text`, what cJSON parsed into `root` (0: not in the tree). */
static unsigned json_line(const char *text, const cJSON *root, const cJSON *item) {
    size_t index = 0;
    return preorder_index(root, item, &index) ? value_line(text, index) : 0;
}

/* The line of byte `offset` (e.g. where cJSON stopped on an error). */
static unsigned json_offset_line(const char *text, size_t offset) {
    unsigned line = 1;
    for (size_t i = 0; i < offset && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

typedef struct member {
    const char *key;
    size_t order;
    const cJSON *item;
} member;

static int cmp_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The first duplicate found under node (NULL: none, or *oom when memory ran out), using buf of cap
 * members. */
static const cJSON *duplicate_in(const cJSON *node, member **buf, size_t *cap, int *oom) {
    for (; node && !*oom; node = node->next) {
        if (cJSON_IsObject(node)) {
            size_t n = 0;
            for (const cJSON *c = node->child; c; c = c->next)
                n++;
            if (n > *cap) {
                member *b = realloc(*buf, n * sizeof *b);
                if (!b) {
                    *oom = 1;
                    return NULL;
                }
                *buf = b;
                *cap = n;
            }
            n = 0;
            for (const cJSON *c = node->child; c; c = c->next, n++)
                (*buf)[n] = (member){c->string ? c->string : "", n, c};
            /* an empty object has no buffer yet (qsort's base must not be NULL) */
            if (n > 1) qsort(*buf, n, sizeof **buf, cmp_member);
            const member *first = NULL; /* the repeat that comes first in the file */
            for (size_t i = 1; i < n; i++)
                if (!strcmp((*buf)[i - 1].key, (*buf)[i].key) &&
                    (!first || (*buf)[i].order < first->order))
                    first = &(*buf)[i];
            if (first) return first->item;
        }
        const cJSON *d = duplicate_in(node->child, buf, cap, oom);
        if (d) return d;
    }
    return NULL;
}

/* The first member of an object whose key an earlier member of the same object already has,
 * anywhere in the tree (NULL: none, or *oom when memory ran out). O(n log n). */
static const cJSON *json_duplicate(const cJSON *root, int *oom) {
    member *buf = NULL;
    size_t cap = 0;
    *oom = 0;
    const cJSON *d = duplicate_in(root, &buf, &cap, oom);
    free(buf);
    return d;
}

/* ---- reading a decision file ---- */

/* The refusal "NAME:LINE: what" (LINE of `item`, or of byte `offset` when item is NULL and offset
 * is not SIZE_MAX; no line at all otherwise); returns err. */
static int bad_decisions(char *why, size_t whylen, int err, const char *name, const char *text,
                         const cJSON *root, const cJSON *item, size_t offset, const char *what) {
    char at[24] = "";
    unsigned n = item                 ? json_line(text, root, item)
                 : offset != SIZE_MAX ? json_offset_line(text, offset)
                                      : 0;
    if (n) snprintf(at, sizeof at, ":%u", n);
    return oc__fail(why, whylen, err, "%s%s: %s", OC_Q(name), at, what);
}

/* A point's whole number in [lo, hi]: checked as a double before it is converted (1e300 or 1.5
 * must not reach the cast). */
static int whole_in(const cJSON *v, double lo, double hi) {
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
           v->valuedouble == floor(v->valuedouble);
}

/* The checks of the file's head: format, collective and network those of req, and the network
 * parameters the same as the run's (the winners hold for the network as it was tuned). */
static int check_head(const cJSON *root, const char *text, const char *name, const oc_request *req,
                      char *why, size_t whylen) {
    char msg[600];
    const char *coll = oc_collective_name(req->collective), *net_name = req->network;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "collective");
    const cJSON *net = cJSON_GetObjectItemCaseSensitive(root, "network");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "opticoll-decisions") ||
        !cJSON_IsString(c) || !cJSON_IsString(net) || !cJSON_IsArray(pts))
        return bad_decisions(why, whylen, OC_EPARSE, name, text, root, NULL, SIZE_MAX,
                             "not an opticoll decision file (write one with tune -o)");
    /* The one version this reader knows: a later layout may mean other things by the same keys
     * (a file without "version" is refused too: every writer wrote it). */
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsNumber(version) || version->valuedouble != 1)
        return bad_decisions(why, whylen, OC_EPARSE, name, text, root, version, SIZE_MAX,
                             "\"version\" must be 1, the decision-file version this opticoll "
                             "reads (write the file again with tune -o)");
    if (!net_name) net_name = "";
    if (strcmp(c->valuestring, coll) || strcmp(net->valuestring, net_name)) {
        snprintf(msg, sizeof msg, "was tuned for %s on %s, not %s on %s", OC_Q(c->valuestring),
                 OC_Q(net->valuestring), coll, OC_Q(net_name));
        return bad_decisions(why, whylen, OC_EPARSE, name, text, root,
                             strcmp(c->valuestring, coll) ? c : net, 0, msg);
    }
    const cJSON *np = cJSON_GetObjectItemCaseSensitive(root, "network_params"), *e;
    int same = cJSON_IsObject(np) && (size_t)cJSON_GetArraySize(np) == oc_kv_count(req->net_params);
    cJSON_ArrayForEach(e, np) {
        const char *v = oc_kv_get(req->net_params, e->string);
        char num[OC__JSON_NUMBER_SIZE]; /* a number is written as oc__json_value spells it */
        const char *was = cJSON_IsString(e)   ? e->valuestring
                          : cJSON_IsNumber(e) ? oc__json_number_text(num, e->valuedouble)
                                              : NULL;
        same &= was && v && !strcmp(v, was);
    }
    if (same) return 0;
    char *was = cJSON_PrintUnformatted(np);
    snprintf(msg, sizeof msg,
             "tuned with network parameters %s; give the run the same (-w, -f, --preset, --net)",
             was ? OC_Q(was) : "?");
    free(was);
    return bad_decisions(why, whylen, OC_EPARSE, name, text, root, np, SIZE_MAX, msg);
}

/* oc_tune_pick_text skipping the points whose winner is one of `skip` (n names): the nearest point
 * whose winner is another. OC_ENOENT (no reason written) when every point with a winner has one
 * of them, n > 0. */
static int pick_nearest(const char *text, size_t len, const char *name, const oc_request *req,
                        const char *const *skip, size_t n, oc_tune_choice *out, char *why,
                        size_t whylen) {
    memset(out, 0, sizeof *out);
    if (!name) name = "decision file";
    if (!text || !len)
        return oc__fail(why, whylen, OC_EIO, "%s: cannot read it (or it is empty)", OC_Q(name));
    const char *end = NULL;
    char msg[600];
    int rc = OC_EPARSE;
    size_t nul_at; /* cJSON would cut a string at an escaped NUL: "ring\u0000evil" */
    if (oc__json_nul_escape(text, len, &nul_at))
        return bad_decisions(why, whylen, OC_EPARSE, name, text, NULL, NULL, nul_at,
                             "a string holds \\u0000 (a NUL)");
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1); /* 1: nothing but white space after it */
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        size_t off = at && at >= text ? (size_t)(at - text) : 0;
        rc =
            bad_decisions(why, whylen, OC_EPARSE, name, text, NULL, NULL, off,
                          "not valid JSON, or text after the JSON object (write one with tune -o)");
        goto out;
    }
    int oom;
    const cJSON *dup = json_duplicate(root, &oom);
    if (oom) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    if (dup) {
        snprintf(msg, sizeof msg, "\"%s\" given twice in one object", OC_Q(dup->string));
        rc = bad_decisions(why, whylen, OC_EPARSE, name, text, root, dup, 0, msg);
        goto out;
    }
    if ((rc = check_head(root, text, name, req, why, whylen))) goto out;
    rc = OC_EPARSE;
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    double best = INFINITY, bn = 0, bs = 0;
    const cJSON *pick = NULL, *pt;
    size_t k = 0;
    int any_skipped = 0;
    cJSON_ArrayForEach(pt, pts) {
        const cJSON *N = cJSON_GetObjectItemCaseSensitive(pt, "nodes");
        const cJSON *S = cJSON_GetObjectItemCaseSensitive(pt, "bytes");
        const cJSON *W = cJSON_GetObjectItemCaseSensitive(pt, "winner");
        const cJSON *bad = NULL;
        if (!cJSON_IsObject(pt)) {
            bad = pt;
            snprintf(msg, sizeof msg, "point %zu is not an object", k);
        } else if (!whole_in(N, 1, OC_MAX_NODES)) {
            bad = N ? N : pt;
            snprintf(msg, sizeof msg, "point %zu: \"nodes\" must be a whole number from 1 to %u", k,
                     (unsigned)OC_MAX_NODES);
        } else if (!whole_in(S, 0, (double)OC_MAX_BYTES)) {
            bad = S ? S : pt;
            snprintf(msg, sizeof msg, "point %zu: \"bytes\" must be a whole number from 0 to %llu",
                     k, (unsigned long long)OC_MAX_BYTES);
        } else if (W && !cJSON_IsString(W) && !cJSON_IsNull(W)) {
            bad = W;
            snprintf(msg, sizeof msg, "point %zu: \"winner\" must be an algorithm's name or null",
                     k);
        }
        if (bad) {
            rc = bad_decisions(why, whylen, OC_EPARSE, name, text, root, bad, 0, msg);
            goto out;
        }
        k++;
        if (!cJSON_IsString(W)) continue; /* nothing ran there */
        int skipped = 0;
        for (size_t i = 0; i < n && !skipped; i++)
            skipped = !strcmp(skip[i], W->valuestring);
        if (skipped) {
            any_skipped = 1;
            continue;
        }
        double d = fabs(log2((double)req->nodes / N->valuedouble)) +
                   fabs(log2(((double)req->bytes + 1) / (S->valuedouble + 1)));
        int better = d < best - 1e-12 ||
                     (fabs(d - best) <= 1e-12 &&
                      (N->valuedouble < bn || (N->valuedouble == bn && S->valuedouble < bs)));
        if (better) {
            best = d;
            bn = N->valuedouble;
            bs = S->valuedouble;
            pick = W;
        }
    }
    if (!pick && any_skipped) {
        rc = OC_ENOENT;
        goto out;
    }
    if (!pick) {
        rc = bad_decisions(why, whylen, OC_EPARSE, name, text, root, pts, 0,
                           "no point with a winner");
        goto out;
    }
    for (size_t i = 0; i < oc_algorithm_count() && !out->algorithm; i++)
        if (oc_algorithm_at(i)->collective == req->collective &&
            !strcmp(oc_algorithm_at(i)->name, pick->valuestring))
            out->algorithm = oc_algorithm_at(i)->name;
    if (!out->algorithm) {
        snprintf(msg, sizeof msg, "unknown %s algorithm '%s'", oc_collective_name(req->collective),
                 OC_Q(pick->valuestring));
        rc = bad_decisions(why, whylen, OC_EPARSE, name, text, root, pick, 0, msg);
        goto out;
    }
    out->nodes = (uint32_t)bn;
    out->bytes = (uint64_t)bs;
    out->distance = best;
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int oc_tune_pick_text(const char *text, size_t len, const char *name, const oc_request *req,
                      oc_tune_choice *out, char *why, size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, whylen);
    if (!rc) rc = pick_nearest(text, len, name, req, NULL, 0, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

static int tune_pick_in(const char *path, const oc_request *req, oc_tune_choice *out, char *why,
                        size_t whylen) {
    char *text = NULL;
    size_t len = 0;
    memset(out, 0, sizeof *out);
    int rc = oc__read_file(path, 0, NULL, &text, &len, why, whylen);
    if (!rc) rc = pick_nearest(text, len, path, req, NULL, 0, out, why, whylen);
    free(text);
    return rc;
}

int oc_tune_pick(const char *path, const oc_request *req, oc_tune_choice *out, char *why,
                 size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, whylen);
    if (!rc) rc = tune_pick_in(path, req, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

/* ---- run -a auto: one point's algorithm ---------------------------------------------------- */

/* A malloc'd printf: the note of a choice, whatever its length. NULL when memory ran out. */
static char *note_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *note_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!text) return NULL;
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return text;
}

/* Whether `algorithm` runs at req's point, checked before it is chosen: a decision file's winner
 * was tuned at another N (and a hand-made file may name anything), and an algorithm may need N a
 * power of two, N even, a network it does not run on, or fewer transfers than N gives. The checks
 * are the run's own, without generating anything: the network, the node cap, and its plan with
 * its default parameters; where that plan refuses and the algorithm searches its parameters, the
 * search (oc__plan_request), which may find parameters that fit (hring's g dividing N). 0: it
 * runs; else the refusal (OC_ENOTSUP, OC_ETOOBIG as a sweep's "not run"; a plan's OC_EINVAL),
 * with the reason in `why`, but OC_ENOMEM and OC_ECANCELED, which are the caller's. */
static int runs_here(const oc_request *req, const char *algorithm, char *why, size_t len) {
    const oc__algo *algo = oc__algo_find(req->collective, algorithm);
    if (!algo) return oc__fail(why, len, OC_ENOTSUP, "not a %s algorithm",
                               oc_collective_name(req->collective));
    if (!req->network || !oc__algo_supports(algo, req->network))
        return oc__fail(why, len, OC_ENOTSUP, "does not run on %s (only %s)",
                        req->network ? OC_Q(req->network) : "no network", algo->info.networks);
    if (req->root >= req->nodes)
        return oc__fail(why, len, OC_ENOTSUP, "root %u is not below N", req->root);
    int rc = oc__algo_node_cap(algo, req->collective, req->nodes, req->root, req->bytes, NULL, why,
                               len);
    if (rc) return rc;
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    rc = algo->plan(&plan, req->collective, req->nodes, req->root, req->bytes, NULL, why, len);
    oc__plan_free(algo, &plan);
    if (!(rc == OC_ENOTSUP || rc == OC_ETOOBIG) || !algo->search) return rc;
    oc_request q = *req;
    q.algorithm = algo->info.name;
    q.params = NULL;
    const oc__model *model = NULL;
    oc_report *rep = oc__report_new();
    if (!rep) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    rc = oc__plan_request(&q, &algo, &model, &plan, rep, why, len);
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
    return rc;
}

/* The most winners skipped before the point is tuned instead (a file names few algorithms). */
enum { AUTO_MAX_SKIPPED = 64 };

static int tune_auto_decided_in(const char *path, const char *label, const oc_request *req,
                                oc_tune_auto *out, char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    if (!label) label = "";
    char what[300], inner[1024], reason[OC__REASON_LEN];
    snprintf(what, sizeof what, "%s%.256s", label, path);
    char *text = NULL, *skipped = NULL; /* "ne (N = 8, 1 MiB): needs N even; ..." */
    const char *skip[AUTO_MAX_SKIPPED];
    size_t nskip = 0;
    size_t len = 0;
    oc_tune_choice c;
    char sz[32];
    int rc = oc__read_file(path, 0, what, &text, &len, why, whylen);
    if (rc) return rc;
    /* The nearest point's winner; one that does not run here is skipped, said, and the nearest
     * point won by another algorithm is taken; when no winner of the file runs here, the choice is
     * left to the caller's tuning of this point (algorithm NULL, the note says why). */
    for (;;) {
        rc = nskip == AUTO_MAX_SKIPPED
                 ? OC_ENOENT
                 : pick_nearest(text, len, path, req, skip, nskip, &c, inner, sizeof inner);
        if (rc == OC_ENOENT) {
            rc = 0;
            break;
        }
        if (rc) {
            snprintf(why, whylen, "%s%s", label, inner);
            goto out;
        }
        reason[0] = 0;
        rc = runs_here(req, c.algorithm, reason, sizeof reason);
        if (!rc || rc == OC_ENOMEM || rc == OC_ECANCELED) break;
        oc_format_size(sz, sizeof sz, c.bytes);
        char *more = note_printf("%s%s%s (won N = %u, %s): %s", skipped ? skipped : "",
                                 skipped ? "; " : "", c.algorithm, (unsigned)c.nodes, sz, reason);
        free(skipped);
        if (!(skipped = more)) {
            rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
            goto out;
        }
        skip[nskip++] = c.algorithm;
    }
    if (rc) { /* the check itself failed (out of memory, or a stop asked in its search) */
        snprintf(why, whylen, "%s%s", label, reason);
        goto out;
    }
    if (nskip == AUTO_MAX_SKIPPED) c.algorithm = NULL;
    if (!c.algorithm) {
        out->note = note_printf("auto: no winner of %s runs at N = %u (skipped %s), so this point "
                                "is tuned",
                                OC_Q(path), (unsigned)req->nodes, skipped ? skipped : "none");
    } else {
        oc_format_size(sz, sizeof sz, c.bytes);
        out->note = note_printf(
            "auto: chose %s, the winner of the nearest tuned point of %s%s (N = %u, %s; distance "
            "|log2 N ratio| + |log2 size ratio| = %.3g); its parameters are chosen for this N by "
            "its own optimiser%s%s",
            c.algorithm, OC_Q(path), nskip ? " whose winner runs here" : "", (unsigned)c.nodes, sz,
            c.distance, nskip ? "; skipped, as they do not run here: " : "",
            skipped ? skipped : "");
        out->algorithm = c.algorithm;
    }
    if (!out->note) rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
out:
    if (rc) oc_tune_auto_free(out);
    free(skipped);
    free(text);
    return rc;
}

int oc_tune_auto_decided(const char *path, const char *label, const oc_request *req,
                         oc_tune_auto *out, char *why, size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, whylen);
    if (!rc) rc = tune_auto_decided_in(path, label, req, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

static int tune_auto_sweep_in(const oc_request *req, oc_sweep **out, char *why, size_t whylen) {
    uint64_t nodes = req->nodes, bytes = req->bytes;
    oc_sweep_spec spec = {.base = *req, .nodes = &nodes, .nnodes = 1, .sizes = &bytes, .nsizes = 1};
    return oc_sweep_new(&spec, out, why, whylen);
}

int oc_tune_auto_sweep(const oc_request *req, oc_sweep **out, char *why, size_t whylen) {
    if (out) *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, whylen);
    if (!rc) rc = tune_auto_sweep_in(req, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

int oc_tune_auto_chosen(const oc_sweep *s, oc_tune_auto *out, char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    int second, w = oc_tune_winner(s, 0, 0, &second);
    if (w < 0) return 0; /* nothing ran: the caller says so in its own words */
    const char *chosen = oc_sweep_algorithm(s, (size_t)w);
    const char *t1 = oc_sweep_point_at(s, (size_t)w)->time;
    const char *t2 = second >= 0 ? oc_sweep_point_at(s, (size_t)second)->time : "";
    size_t ran = 0;
    for (size_t k = 0; k < oc_sweep_count(s); k++)
        ran += oc_sweep_point_at(s, k)->status == OC_POINT_RAN;
    out->note = note_printf(
        "auto: chose %s, the fastest of the %zu algorithms that ran at this point (%s%s%s%s%s); "
        "this point was tuned (no decision file, or none of its winners runs here)",
        chosen, ran, t1, second >= 0 ? "; next: " : "",
        second >= 0 ? oc_sweep_algorithm(s, (size_t)second) : "", second >= 0 ? " " : "", t2);
    if (!out->note) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    out->algorithm = chosen;
    return 0;
}

void oc_tune_auto_free(oc_tune_auto *a) {
    if (!a) return;
    free(a->note);
    memset(a, 0, sizeof *a);
}
