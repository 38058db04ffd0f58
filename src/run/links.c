/*
 * links.c — per-resource utilisation over a schedule (`opticoll run --links`).
 *
 * A network model that implements the observe hook (net.h) declares its resources as a grid,
 * classes x positions (the ring: fibre x wavelength channels by directed links; the switch: send
 * and receive sides by ports), and reports every use: a time span holding a range of classes on
 * a circular range of positions. The busy time of every resource is the sum of the spans of the
 * uses that hold it; the model's resource check has already proved that no two uses hold one
 * resource at once, so busy time / total time is in [0, 1].
 *
 * A lightpath over h links is one rectangle, not h updates: the busy times come from a 2-D
 * difference array over (class, position), four additions a use and one prefix-sum pass over the
 * grid at the end — O(uses + classes x positions), never a walk over the hops.
 *
 * The result: the total over every resource (mean and peak utilisation, how many resources were
 * ever busy), utilisation per position (per directed link / port: the mean over its classes),
 * per class (per wavelength: the mean over the positions) and the hottest single resources, as
 * the "links" JSON object of the result record; report.c writes it as text.
 */
#include "run/watch.h"
#include "core/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid is (classes + 1) x (positions + 1) doubles; larger grids are refused. */
#define LINKS_MAX_CELLS (UINT64_C(1) << 25)
enum { HOTTEST = 10 };

struct oc__links {
    oc__watch watch;
    oc__observer obs;
    const oc__model *model;
    oc__netrun *net;
    oc__grid grid;
    double *diff; /* (classes + 1) x (positions + 1), row-major by class */
    uint64_t uses;
};

int oc__observe_unsupported(const oc__model *model, const char *what, char *why, size_t len) {
    return oc__fail(why, len, OC_ENOTSUP,
                    "the %s model does not report its resource use yet, so %s is not available on "
                    "it (its observe hook, net.h, is missing)",
                    model->info.name, what);
}

static void add(oc__links *l, uint32_t c0, uint32_t c1, uint32_t p0, uint32_t p1, double v) {
    const size_t W = (size_t)l->grid.positions + 1;
    l->diff[c0 * W + p0] += v;
    l->diff[c0 * W + p1] -= v;
    l->diff[c1 * W + p0] -= v;
    l->diff[c1 * W + p1] += v;
}

static int links_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps, double start,
                      double dur, char *why, size_t len) {
    (void)o, (void)round, (void)step, (void)nsteps, (void)start, (void)dur, (void)why, (void)len;
    return 0;
}

static int links_use(oc__observer *o, const oc__use *u, char *why, size_t len) {
    oc__links *l = (oc__links *)((char *)o - offsetof(oc__links, obs));
    const oc__grid *g = &l->grid;
    if (u->show == OC_SHOW_TRACE) return 0;
    if (u->cls0 >= u->cls1 || u->cls1 > g->classes || u->seglen == 0 || u->npos > u->seglen ||
        u->pos0 >= u->seglen || (uint64_t)u->seg + u->seglen > g->positions || u->dur_s < 0)
        return oc__fail(why, len, OC_EINVAL,
                        "round %llu: the model reported a use outside its grid",
                        (unsigned long long)u->round);
    l->uses++;
    uint32_t a = u->seg + u->pos0;
    if (u->pos0 + u->npos <= u->seglen) {
        add(l, u->cls0, u->cls1, a, a + u->npos, u->dur_s);
    } else { /* wraps round the segment */
        add(l, u->cls0, u->cls1, a, u->seg + u->seglen, u->dur_s);
        add(l, u->cls0, u->cls1, u->seg, u->seg + u->pos0 + u->npos - u->seglen, u->dur_s);
    }
    return 0;
}

static int links_attach(oc__watch *w, const oc__model *model, oc__netrun *net, char *why,
                        size_t len) {
    oc__links *l = (oc__links *)w;
    if (!model->observe) return oc__observe_unsupported(model, "link utilisation", why, len);
    l->model = model;
    l->net = net;
    int rc = model->observe(net, &l->obs, &l->grid, why, len);
    if (rc) return rc;
    uint64_t cells = ((uint64_t)l->grid.classes + 1) * ((uint64_t)l->grid.positions + 1);
    if (cells > LINKS_MAX_CELLS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "link utilisation: %u x %u resources (%s) are more than this tool tracks "
                        "(2^25); use fewer nodes or wavelengths",
                        l->grid.classes, l->grid.positions, l->grid.what);
    l->diff = oc__calloc((size_t)cells, sizeof(double));
    if (!l->diff) return oc__fail(why, len, OC_ENOMEM, "out of memory for link utilisation");
    return 0;
}

/* Keeps the HOTTEST largest (value, index) pairs, largest first; n is how many are kept. */
static void hot_push(double *val, uint64_t *idx, size_t *n, double v, uint64_t i) {
    if (*n == HOTTEST && v <= val[HOTTEST - 1]) return;
    size_t k = *n < HOTTEST ? (*n)++ : HOTTEST - 1;
    while (k > 0 && val[k - 1] < v) {
        val[k] = val[k - 1];
        idx[k] = idx[k - 1];
        k--;
    }
    val[k] = v;
    idx[k] = i;
}

/* {"name": ..., "busy_s": ..., "utilisation": ...} appended to the array `to`. */
static int json_name_util(cJSON *to, const char *name, double busy, double total) {
    cJSON *o = oc__json_obj(to, NULL);
    return oc__json_str(o, "name", name) && oc__json_num(o, "busy_s", busy) &&
           oc__json_num(o, "utilisation", total > 0 ? busy / total : 0.0);
}

static int links_finish(oc__watch *w, oc_report *rep, char *why, size_t len) {
    oc__links *l = (oc__links *)w;
    const oc__grid *g = &l->grid;
    const uint32_t C = g->classes, P = g->positions;
    const size_t W = (size_t)P + 1;
    const double T = rep->time_s;
    double *per_pos = oc__calloc(P ? P : 1, sizeof(double));
    double *per_cls = oc__calloc(C ? C : 1, sizeof(double));
    char *jbuf = NULL;
    cJSON *js = NULL;
    int rc = 0;
    if (!per_pos || !per_cls) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* Prefix sums in place: first along positions, then along classes; cell (c, p) is then the
     * busy time of resource (c, p). */
    for (uint32_t c = 0; c <= C; c++)
        for (uint32_t p = 1; p <= P; p++)
            l->diff[c * W + p] += l->diff[c * W + p - 1];
    for (uint32_t c = 1; c <= C; c++)
        for (uint32_t p = 0; p <= P; p++)
            l->diff[c * W + p] += l->diff[(c - 1) * W + p];
    double hv[HOTTEST], sum = 0, peak = 0;
    uint64_t hi[HOTTEST], busy = 0;
    size_t nh = 0;
    for (uint32_t c = 0; c < C; c++)
        for (uint32_t p = 0; p < P; p++) {
            double b = l->diff[c * W + p];
            if (b < 1e-15 * (T > 0 ? T : 1)) b = 0; /* rounding of the difference array */
            l->diff[c * W + p] = b;
            per_pos[p] += b;
            per_cls[c] += b;
            sum += b;
            if (b > 0) busy++;
            if (b > peak) peak = b;
            if (b > 0) hot_push(hv, hi, &nh, b, (uint64_t)c * P + p);
        }
    const double cells = (double)C * (double)P;
    /* JSON: a cJSON tree, kept as compact text until the report nests it. */
    char name[200], cn[96], pn[96];
    js = cJSON_CreateObject();
    int ok = oc__json_str(js, "resources", g->what) && oc__json_str(js, "class", g->class_what) &&
             oc__json_str(js, "position", g->pos_what) && oc__json_u64(js, "classes", C) &&
             oc__json_u64(js, "positions", P) && oc__json_num(js, "count", cells) &&
             oc__json_u64(js, "uses", l->uses) && oc__json_num(js, "total_time_s", T) &&
             oc__json_u64(js, "busy_resources", busy) &&
             oc__json_num(js, "mean_utilisation", T > 0 && cells > 0 ? sum / (T * cells) : 0.0) &&
             oc__json_num(js, "max_utilisation", T > 0 ? peak / T : 0.0);
    cJSON *arr = ok ? oc__json_arr(js, "hottest") : NULL;
    ok = arr != NULL;
    for (size_t k = 0; ok && k < nh; k++) {
        g->class_name(l->net, (uint32_t)(hi[k] / P), cn, sizeof cn);
        g->pos_name(l->net, (uint32_t)(hi[k] % P), pn, sizeof pn);
        snprintf(name, sizeof name, "%s, %s", pn, cn);
        ok = json_name_util(arr, name, hv[k], T);
    }
    arr = ok ? oc__json_arr(js, "per_position") : NULL;
    ok = arr != NULL;
    for (uint32_t p = 0; ok && p < P; p++) {
        g->pos_name(l->net, p, pn, sizeof pn);
        ok = json_name_util(arr, pn, per_pos[p] / C, T);
    }
    arr = ok ? oc__json_arr(js, "per_class") : NULL;
    ok = arr != NULL;
    for (uint32_t c = 0; ok && c < C; c++) {
        g->class_name(l->net, c, cn, sizeof cn);
        ok = json_name_util(arr, cn, per_cls[c] / P, T);
    }
    jbuf = ok ? oc__json_text(js, OC__JSON_COMPACT) : NULL;
    if (!jbuf) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    free(rep->links_json);
    rep->links_json = jbuf;
    jbuf = NULL;
out:
    cJSON_Delete(js);
    free(jbuf);
    free(per_pos);
    free(per_cls);
    return rc;
}

oc__links *oc__links_new(void) {
    oc__links *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->watch.what = "link utilisation";
    l->watch.attach = links_attach;
    l->watch.finish = links_finish;
    l->obs.step = links_step;
    l->obs.use = links_use;
    return l;
}

oc__watch *oc__links_watch(oc__links *l) {
    return &l->watch;
}

void oc__links_free(oc__links *l) {
    if (!l) return;
    free(l->diff);
    free(l);
}
