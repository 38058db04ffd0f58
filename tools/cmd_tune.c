/*
 * cmd_tune.c — `opticoll tune` (which algorithm wins where) and `opticoll run -a auto`.
 *
 * tune runs every point of a sweep (points.c: every algorithm x N x size, each generated, verified
 * and mapped) and names, for each (N, size), the algorithm with the least simulated time, with the
 * parameters its run used (the ones its optimiser searched, as run reports them). Ties go to the
 * first algorithm in the list (registry order, or -a's order). The crossovers are where the winner
 * changes between neighbouring points: along size for each N, and along N for each size; a
 * crossover lies between two measured points, so it is printed as "between A and B".
 *
 * The decision file (-o FILE, JSON, "opticoll-decisions" version 1) holds the collective, the
 * network and its parameters as given, the algorithms, every point's winner, parameters and time,
 * every candidate's time or why it did not run, and the crossovers. `run -a auto --decisions FILE`
 * reads it and takes the winner of the nearest point: the point with the least
 * |log2(N / N')| + |log2(S / S')| (sizes and node counts matter by ratio), ties to the smaller N,
 * then to the smaller size. It runs that algorithm with its own optimiser at the requested N and
 * size (the file's parameters belong to the file's N). Without --decisions, `run -a auto` tunes the
 * one point it is asked for: every algorithm that runs on the network, the fastest verified wins.
 */
#include "output.h"
#include "core/core.h"
#include "points.h"
#include "scaleout.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

char run_auto_note[1024];

static const char *const tune_help =
    "usage: opticoll tune -c COLL [-t NET] --nodes LIST --sizes LIST [-a A,B,...] [-j N]\n"
    "                     [-o DECISIONS.json] [--json] [network options]\n\n"
    "For each (N, size), the algorithm with the least simulated time (every run generated,\n"
    "verified and mapped), with the parameters it used; then the crossovers: where the\n"
    "winner changes along size (for each N) and along N (for each size). Ties go to the\n"
    "first algorithm in the list (registry order, or -a's order).\n\n"
    "  -n, --nodes LIST        node counts: 3,5,12 or A..B (doubling), A..B:*F, A..B:+S\n"
    "  -s, --sizes LIST        sizes, same forms with units: 1KiB..64MiB:*4\n"
    "  -a, --algorithm A,B     the candidates (default: every algorithm that runs on NET)\n"
    "  -j, --jobs N            threads (default: the online CPUs); output does not depend on it\n"
    "  -o, --output FILE       write the decision file (JSON) that `run -a auto --decisions`\n"
    "                          reads\n"
    "      --json              print the decision file instead of the table\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "  -t, -w, -f, --preset, --net   the network, as for run\n\n"
    "run -a auto [--decisions FILE]: with FILE, the winner of the nearest tuned point (least\n"
    "|log2(N/N')| + |log2(S/S')|, ties to the smaller N, then the smaller size), run with its\n"
    "own optimiser at the requested N and size; without FILE, the fastest of every algorithm\n"
    "at the requested point itself.\n";

/* The winner of each (N, size): index into a->algos, or -1 when nothing ran there. */
static int winner_at(const sweep_args *a, const point_result *p, size_t ni, size_t si,
                     int *second) {
    int best = -1, next = -1;
    size_t base = (ni * a->nsizes + si) * a->nalgos;
    for (size_t k = 0; k < a->nalgos; k++) {
        const point_result *q = &p[base + k];
        if (q->status != POINT_RAN) continue;
        if (best < 0 || q->time_s < p[base + (size_t)best].time_s) {
            next = best;
            best = (int)k;
        } else if (next < 0 || q->time_s < p[base + (size_t)next].time_s) {
            next = (int)k;
        }
    }
    if (second) *second = next;
    return best;
}

static const char *algo_or_none(const sweep_args *a, int k) {
    return k < 0 ? "(none runs)" : a->algos[k];
}

static cJSON *params_object(const char *text) {
    cJSON *o = cJSON_CreateObject();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *kv = strtok_r(buf, " ", &save); o && kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) continue;
        *eq = 0;
        cJSON_AddStringToObject(o, kv, eq + 1);
    }
    return o;
}

/* The decision file as a cJSON tree (NULL: out of memory). */
static cJSON *decisions(const sweep_args *a, const point_result *p) {
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    cJSON_AddStringToObject(root, "format", "opticoll-decisions");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "collective", a->o.coll);
    cJSON_AddStringToObject(root, "network", a->base.network);
    cJSON *np = cJSON_AddObjectToObject(root, "network_params");
    for (size_t k = 0; np && k < oc_kv_count(a->o.net_params); k++)
        cJSON_AddStringToObject(np, oc_kv_key(a->o.net_params, k), oc_kv_value(a->o.net_params, k));
    cJSON *al = cJSON_AddArrayToObject(root, "algorithms");
    for (size_t k = 0; al && k < a->nalgos; k++)
        cJSON_AddItemToArray(al, cJSON_CreateString(a->algos[k]));
    cJSON_AddStringToObject(root, "rule",
                            "winner = least simulated time (ties: first in algorithms); run -a "
                            "auto takes the point with the least |log2(N/N')| + |log2(S/S')| "
                            "(ties: smaller N, then smaller size)");
    cJSON *pts = cJSON_AddArrayToObject(root, "points");
    for (size_t ni = 0; pts && ni < a->nnodes; ni++)
        for (size_t si = 0; si < a->nsizes; si++) {
            int w = winner_at(a, p, ni, si, NULL);
            cJSON *o = cJSON_CreateObject();
            if (!o) break;
            cJSON_AddItemToArray(pts, o);
            cJSON_AddNumberToObject(o, "nodes", (double)a->nodes[ni]);
            cJSON_AddNumberToObject(o, "bytes", (double)a->sizes[si]);
            size_t base = (ni * a->nsizes + si) * a->nalgos;
            if (w >= 0) {
                cJSON_AddStringToObject(o, "winner", a->algos[w]);
                cJSON_AddItemToObject(o, "params", params_object(p[base + (size_t)w].params));
                cJSON_AddNumberToObject(o, "time_s", p[base + (size_t)w].time_s);
            } else {
                cJSON_AddNullToObject(o, "winner");
            }
            cJSON *c = cJSON_AddArrayToObject(o, "candidates");
            for (size_t k = 0; c && k < a->nalgos; k++) {
                cJSON *e = cJSON_CreateObject();
                if (!e) break;
                cJSON_AddItemToArray(c, e);
                cJSON_AddStringToObject(e, "algorithm", a->algos[k]);
                if (p[base + k].status == POINT_RAN)
                    cJSON_AddNumberToObject(e, "time_s", p[base + k].time_s);
                else
                    cJSON_AddStringToObject(e, "not_run", p[base + k].why);
            }
        }
    cJSON *cx = cJSON_AddObjectToObject(root, "crossovers");
    cJSON *as = cx ? cJSON_AddArrayToObject(cx, "along_size") : NULL;
    cJSON *an = cx ? cJSON_AddArrayToObject(cx, "along_nodes") : NULL;
    for (size_t ni = 0; as && ni < a->nnodes; ni++)
        for (size_t si = 1; si < a->nsizes; si++) {
            int w0 = winner_at(a, p, ni, si - 1, NULL), w1 = winner_at(a, p, ni, si, NULL);
            if (w0 == w1) continue;
            cJSON *e = cJSON_CreateObject();
            if (!e) break;
            cJSON_AddItemToArray(as, e);
            cJSON_AddNumberToObject(e, "nodes", (double)a->nodes[ni]);
            cJSON_AddNumberToObject(e, "after_bytes", (double)a->sizes[si - 1]);
            cJSON_AddNumberToObject(e, "before_bytes", (double)a->sizes[si]);
            cJSON_AddStringToObject(e, "from", algo_or_none(a, w0));
            cJSON_AddStringToObject(e, "to", algo_or_none(a, w1));
        }
    for (size_t si = 0; an && si < a->nsizes; si++)
        for (size_t ni = 1; ni < a->nnodes; ni++) {
            int w0 = winner_at(a, p, ni - 1, si, NULL), w1 = winner_at(a, p, ni, si, NULL);
            if (w0 == w1) continue;
            cJSON *e = cJSON_CreateObject();
            if (!e) break;
            cJSON_AddItemToArray(an, e);
            cJSON_AddNumberToObject(e, "bytes", (double)a->sizes[si]);
            cJSON_AddNumberToObject(e, "after_nodes", (double)a->nodes[ni - 1]);
            cJSON_AddNumberToObject(e, "before_nodes", (double)a->nodes[ni]);
            cJSON_AddStringToObject(e, "from", algo_or_none(a, w0));
            cJSON_AddStringToObject(e, "to", algo_or_none(a, w1));
        }
    return root;
}

static void print_tune(FILE *f, const sweep_args *a, const point_result *p) {
    fprintf(f, "tune: %s on %s, %zu node count%s x %zu size%s; candidates:", a->o.coll,
            a->base.network, a->nnodes, a->nnodes == 1 ? "" : "s", a->nsizes,
            a->nsizes == 1 ? "" : "s");
    for (size_t k = 0; k < a->nalgos; k++)
        fprintf(f, "%s%s", k ? ", " : " ", a->algos[k]);
    fputs("\nwinner = least simulated time of a verified run (ties: the first candidate)\n", f);
    int w = 9;
    for (size_t k = 0; k < a->nalgos; k++)
        if ((int)strlen(a->algos[k]) > w) w = (int)strlen(a->algos[k]);
    fprintf(f, "  %7s %10s  %-*s %12s  %-*s %12s  %s\n", "nodes", "size", w, "winner", "time", w,
            "runner-up", "its time", "winner's parameters");
    for (size_t ni = 0; ni < a->nnodes; ni++)
        for (size_t si = 0; si < a->nsizes; si++) {
            int second, best = winner_at(a, p, ni, si, &second);
            size_t base = (ni * a->nsizes + si) * a->nalgos;
            char sz[32], t1[32] = "-", t2[32] = "-";
            size_text(sz, sizeof sz, a->sizes[si]);
            if (best >= 0) oc_format_seconds(t1, sizeof t1, p[base + (size_t)best].time_s);
            if (second >= 0) oc_format_seconds(t2, sizeof t2, p[base + (size_t)second].time_s);
            fprintf(f, "  %7u %10s  %-*s %12s  %-*s %12s  %s\n", (unsigned)a->nodes[ni], sz, w,
                    algo_or_none(a, best), t1, w, second >= 0 ? a->algos[second] : "-", t2,
                    best >= 0 ? p[base + (size_t)best].params : "");
        }
    fputs("crossovers along size (for each N):\n", f);
    for (size_t ni = 0; ni < a->nnodes; ni++) {
        int any = 0;
        fprintf(f, "  N = %u:", (unsigned)a->nodes[ni]);
        for (size_t si = 1; si < a->nsizes; si++) {
            int w0 = winner_at(a, p, ni, si - 1, NULL), w1 = winner_at(a, p, ni, si, NULL);
            if (w0 == w1) continue;
            char s0[32], s1[32];
            size_text(s0, sizeof s0, a->sizes[si - 1]);
            size_text(s1, sizeof s1, a->sizes[si]);
            fprintf(f, "%s %s -> %s between %s and %s", any ? ";" : "", algo_or_none(a, w0),
                    algo_or_none(a, w1), s0, s1);
            any = 1;
        }
        if (!any)
            fprintf(f, " none (%s throughout)", algo_or_none(a, winner_at(a, p, ni, 0, NULL)));
        fputc('\n', f);
    }
    fputs("crossovers along N (for each size):\n", f);
    for (size_t si = 0; si < a->nsizes; si++) {
        int any = 0;
        char sz[32];
        size_text(sz, sizeof sz, a->sizes[si]);
        fprintf(f, "  %s:", sz);
        for (size_t ni = 1; ni < a->nnodes; ni++) {
            int w0 = winner_at(a, p, ni - 1, si, NULL), w1 = winner_at(a, p, ni, si, NULL);
            if (w0 == w1) continue;
            fprintf(f, "%s %s -> %s between N = %u and %u", any ? ";" : "", algo_or_none(a, w0),
                    algo_or_none(a, w1), (unsigned)a->nodes[ni - 1], (unsigned)a->nodes[ni]);
            any = 1;
        }
        if (!any)
            fprintf(f, " none (%s throughout)", algo_or_none(a, winner_at(a, p, 0, si, NULL)));
        fputc('\n', f);
    }
}

static int write_text(FILE *f, void *ctx) {
    fputs(ctx, f);
    return ferror(f) ? OC_EIO : 0;
}

int cmd_tune(int argc, char **argv) {
    sweep_args a;
    point_result *p = NULL;
    char *text = NULL;
    int rc = sweep_parse(argc, argv, "tune", tune_help, &a);
    if (rc) {
        sweep_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    size_t n = sweep_npoints(&a);
    if ((rc = points_run(&a, &p)) || !p) goto out; /* ranks > 0 end here */
    if ((rc = points_first_failure(&a, p, n))) goto out;
    cJSON *d = decisions(&a, p);
    text = d ? cJSON_Print(d) : NULL;
    cJSON_Delete(d);
    if (!text) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    size_t len = strlen(text);
    char *t2 = realloc(text, len + 2);
    if (!t2) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    text = t2;
    memcpy(text + len, "\n", 2);
    if (a.o.output && (rc = write_whole(a.o.output, write_text, text))) goto out;
    if (a.o.json)
        fputs(text, stdout);
    else
        print_tune(stdout, &a, p);
out:
    free(text);
    points_free(p, n);
    sweep_args_free(&a);
    return rc;
}

/* ---- run -a auto ---- */

/* Reads `path` whole (NULL and a message on failure), stopping at the input file cap. */
static char *slurp(const char *path) {
    char what[300], why[512];
    snprintf(what, sizeof what, "--decisions %.256s", path);
    char *buf = NULL;
    size_t len = 0;
    int rc = oc__read_file(path, 0, what, &buf, &len, why, sizeof why);
    if (rc) {
        lib_error(rc, why);
        return NULL;
    }
    if (!len) {
        free(buf);
        die(EXIT_USAGE, "--decisions %s: cannot read it (or it is empty)", path, NULL);
        return NULL;
    }
    return buf;
}

/* Prints "--decisions FILE:LINE: what" (LINE of `item`, or of byte `offset` when item is NULL and
 * offset is not SIZE_MAX; no line at all otherwise); returns EXIT_USAGE. */
static int bad_decisions(const char *path, const char *text, const cJSON *root, const cJSON *item,
                         size_t offset, const char *what) {
    char line[1024], at[24] = "";
    unsigned n = item                 ? json_line(text, root, item)
                 : offset != SIZE_MAX ? json_offset_line(text, offset)
                                      : 0;
    if (n) snprintf(at, sizeof at, ":%u", n);
    snprintf(line, sizeof line, "--decisions %s%s: %s", OC_Q(path), at, what);
    return die_line(EXIT_USAGE, line);
}

/* A point's whole number in [lo, hi]: checked as a double before it is converted (1e300 or 1.5
 * must not reach the cast). */
static int whole_in(const cJSON *v, double lo, double hi) {
    return cJSON_IsNumber(v) && v->valuedouble >= lo && v->valuedouble <= hi &&
           v->valuedouble == floor(v->valuedouble);
}

/* The winner of the nearest point of the decision file; its name (from the registry) or NULL
 * after one line on stderr (*code set). The file is checked whole first: valid JSON and nothing
 * after it, no key twice in an object, every point's nodes and bytes whole numbers in range and
 * its winner a name or null; each refusal names the line. */
static const char *from_decisions(const char *path, const oc_request *req, const char *coll,
                                  int *code) {
    *code = EXIT_USAGE;
    char *text = slurp(path);
    if (!text) return NULL;
    const char *chosen = NULL, *end = NULL;
    char msg[600];
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1); /* 1: nothing but white space after it */
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        size_t off = at && at >= text ? (size_t)(at - text) : 0;
        bad_decisions(path, text, NULL, NULL, off,
                      "not valid JSON, or text after the JSON object (write one with tune -o)");
        goto out;
    }
    int oom;
    const cJSON *dup = json_duplicate(root, &oom);
    if (oom) {
        *code = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if (dup) {
        snprintf(msg, sizeof msg, "\"%s\" given twice in one object", OC_Q(dup->string));
        bad_decisions(path, text, root, dup, 0, msg);
        goto out;
    }
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "collective");
    const cJSON *net = cJSON_GetObjectItemCaseSensitive(root, "network");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "opticoll-decisions") ||
        !cJSON_IsString(c) || !cJSON_IsString(net) || !cJSON_IsArray(pts)) {
        bad_decisions(path, text, root, NULL, SIZE_MAX,
                      "not an opticoll decision file (write one with tune -o)");
        goto out;
    }
    if (strcmp(c->valuestring, coll) || strcmp(net->valuestring, req->network)) {
        snprintf(msg, sizeof msg, "was tuned for %s on %s, not %s on %s", OC_Q(c->valuestring),
                 OC_Q(net->valuestring), coll, req->network);
        bad_decisions(path, text, root, strcmp(c->valuestring, coll) ? c : net, 0, msg);
        goto out;
    }
    /* The winners hold for the network as it was tuned: its parameters must match the run's. */
    const cJSON *np = cJSON_GetObjectItemCaseSensitive(root, "network_params"), *e;
    int same = cJSON_IsObject(np) && (size_t)cJSON_GetArraySize(np) == oc_kv_count(req->net_params);
    cJSON_ArrayForEach(e, np) {
        const char *v = oc_kv_get(req->net_params, e->string);
        same &= cJSON_IsString(e) && v && !strcmp(v, e->valuestring);
    }
    if (!same) {
        char *was = cJSON_PrintUnformatted(np);
        snprintf(msg, sizeof msg,
                 "tuned with network parameters %s; give the run the same (-w, -f, --preset, "
                 "--net)",
                 was ? OC_Q(was) : "?");
        free(was);
        bad_decisions(path, text, root, np, SIZE_MAX, msg);
        goto out;
    }
    double best = INFINITY, bn = 0, bs = 0;
    const cJSON *pick = NULL, *pt;
    size_t k = 0;
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
            bad_decisions(path, text, root, bad, 0, msg);
            goto out;
        }
        k++;
        if (!cJSON_IsString(W)) continue; /* nothing ran there */
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
    if (!pick) {
        bad_decisions(path, text, root, pts, 0, "no point with a winner");
        goto out;
    }
    for (size_t i = 0; i < oc_algorithm_count() && !chosen; i++)
        if (oc_algorithm_at(i)->collective == req->collective &&
            !strcmp(oc_algorithm_at(i)->name, pick->valuestring))
            chosen = oc_algorithm_at(i)->name;
    if (!chosen) {
        snprintf(msg, sizeof msg, "unknown %s algorithm '%s'", coll, OC_Q(pick->valuestring));
        bad_decisions(path, text, root, pick, 0, msg);
        goto out;
    }
    char sz[32];
    size_text(sz, sizeof sz, (uint64_t)bs);
    snprintf(run_auto_note, sizeof run_auto_note,
             "auto: chose %s, the winner of the nearest tuned point of %s (N = %.0f, %s; "
             "distance |log2 N ratio| + |log2 size ratio| = %.3g); its parameters are chosen "
             "for this N by its own optimiser",
             chosen, OC_Q(path), bn, sz, best);
    *code = 0;
out:
    cJSON_Delete(root);
    free(text);
    return chosen;
}

const char *oc__decisions_pick(const char *path, const oc_request *req, const char *coll,
                               int *code) {
    return from_decisions(path, req, coll, code);
}

/* Tunes the one point: every algorithm that runs on the network, fastest verified wins. */
static const char *tune_point(const oc_request *req, const char *coll, int *code) {
    sweep_args a;
    memset(&a, 0, sizeof a);
    a.base = *req;
    a.base.algorithm = NULL;
    a.o.coll = coll;
    a.o.net_params = (oc_kv *)req->net_params;
    a.nodes[0] = req->nodes;
    a.sizes[0] = req->bytes;
    a.nnodes = a.nsizes = 1;
    a.jobs = oc_scale_default_threads();
    a.algos = calloc(oc_algorithm_count() + 1, sizeof *a.algos);
    const char *chosen = NULL;
    point_result *p = NULL;
    *code = EXIT_OTHER;
    if (!a.algos) {
        die(EXIT_OTHER, "out of memory", NULL, NULL);
        return NULL;
    }
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *x = oc_algorithm_at(i);
        if (x->collective != req->collective) continue;
        size_t n = strlen(req->network);
        for (const char *s = x->networks; *s;) {
            size_t k = strcspn(s, ",");
            if (k == n && !strncmp(s, req->network, n)) a.algos[a.nalgos++] = x->name;
            s += k + (s[k] == ',');
        }
    }
    if (!a.nalgos) {
        *code = die(EXIT_USAGE, "no %s algorithm runs on %s", coll, req->network);
        goto out;
    }
    if ((*code = points_run(&a, &p)) || !p) goto out;
    if ((*code = points_first_failure(&a, p, a.nalgos))) goto out;
    int second, w = winner_at(&a, p, 0, 0, &second);
    if (w < 0) {
        *code = die(EXIT_USAGE, "auto: no %s algorithm runs at this N and size on %s", coll,
                    req->network);
        goto out;
    }
    chosen = a.algos[w];
    char t1[32], t2[32] = "";
    oc_format_seconds(t1, sizeof t1, p[w].time_s);
    if (second >= 0) oc_format_seconds(t2, sizeof t2, p[second].time_s);
    size_t ran = 0;
    for (size_t k = 0; k < a.nalgos; k++)
        ran += p[k].status == POINT_RAN;
    snprintf(
        run_auto_note, sizeof run_auto_note,
        "auto: chose %s, the fastest of the %zu algorithms that ran at this point (%s%s%s%s%s); "
        "no --decisions file, so this point was tuned",
        chosen, ran, t1, second >= 0 ? "; next: " : "", second >= 0 ? a.algos[second] : "",
        second >= 0 ? " " : "", t2);
out:
    points_free(p, a.nalgos);
    free(a.algos);
    return chosen;
}

int run_auto(options *o) {
    run_auto_note[0] = 0;
    if (!o->algo || strcmp(o->algo, "auto")) {
        if (o->decisions) return die(EXIT_USAGE, "run: --decisions goes with -a auto", NULL, NULL);
        return 0;
    }
    if (oc_kv_count(o->params))
        return die(EXIT_USAGE,
                   "run -a auto: -p does not apply (the chosen algorithm optimises its "
                   "own parameters)",
                   NULL, NULL);
    oc_request req;
    int rc;
    if ((rc = fold_network_flags(o)) || (rc = build_request(o, &req, 1))) return rc;
    const char *chosen = o->decisions ? from_decisions(o->decisions, &req, o->coll, &rc)
                                      : tune_point(&req, o->coll, &rc);
    if (chosen) o->algo = chosen; /* NULL: ranks > 0 of opticoll-cluster helped tune */
    return rc;
}
