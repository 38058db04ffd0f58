/*
 * figures.c — the figures and tables of a reproduction, collected for `reproduce --out`.
 *
 * The reproductions print text; for `reproduce --out DIR` the tool also wants each figure as
 * series of points (to draw with gnuplot) and each table as CSV. Rather than give every
 * reproduction a second output argument, a reproduction calls oc__figure / oc__figure_series
 * beside its printing, and oc__table_print hands every table to the table sink set here. Those go
 * to the collector that oc__figures_collect installs for the calling thread (a thread-local
 * pointer, so two reproductions on two threads each collect their own); without one they do
 * nothing. An allocation failure while collecting is remembered and returned by
 * oc_reproduce_collect.
 */
#include "reproduce/reproduce_common.h"
#include "core/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fseries {
    char *name;
    size_t n;
    double *x, *y;
} fseries;

typedef struct figure {
    char *id, *title, *xlabel, *ylabel, *caption;
    int logx, logy;
    fseries *series;
    size_t nseries;
} figure;

typedef struct ftable {
    size_t ncols, nrows;
    char **cells; /* (nrows + 1) * ncols: the header row first */
} ftable;

struct oc_figures {
    figure *figs;
    size_t nfigs;
    ftable *tables;
    size_t ntables;
    oc__claim_list claims;
    int nomem;
};

static _Thread_local oc_figures *collector;

static char *figures_strdup(oc_figures *c, const char *s) {
    char *d = strdup(s ? s : "");
    if (!d) c->nomem = 1;
    return d;
}

/* One more zeroed element at the end of the array *items of *n elements of `size` bytes: the
 * new element, or NULL (the collector then remembers that it ran out of memory). */
static void *append(oc_figures *c, void **items, size_t *n, size_t size) {
    char *grown = *n + 1 <= SIZE_MAX / size ? realloc(*items, (*n + 1) * size) : NULL;
    if (!grown) {
        c->nomem = 1;
        return NULL;
    }
    *items = grown;
    memset(grown + *n * size, 0, size);
    return grown + (*n)++ * size;
}

void oc__figure(const char *id, const char *title, const char *xlabel, const char *ylabel, int logx,
                int logy, const char *paper_caption) {
    oc_figures *c = collector;
    if (!c) return;
    figure *f = append(c, (void **)&c->figs, &c->nfigs, sizeof *f);
    if (!f) return;
    f->id = figures_strdup(c, id);
    f->title = figures_strdup(c, title);
    f->xlabel = figures_strdup(c, xlabel);
    f->ylabel = figures_strdup(c, ylabel);
    f->caption = figures_strdup(c, paper_caption);
    f->logx = logx;
    f->logy = logy;
}

void oc__figure_series(const char *name, size_t n, const double *x, const double *y) {
    oc_figures *c = collector;
    if (!c || !c->nfigs) return;
    figure *f = &c->figs[c->nfigs - 1];
    fseries *s = append(c, (void **)&f->series, &f->nseries, sizeof *s);
    if (!s) return;
    s->name = figures_strdup(c, name);
    s->n = n;
    s->x = oc__malloc_array(n ? n : 1, sizeof *s->x);
    s->y = oc__malloc_array(n ? n : 1, sizeof *s->y);
    if (!s->x || !s->y) {
        c->nomem = 1;
        s->n = 0;
        return;
    }
    memcpy(s->x, x, n * sizeof *x);
    memcpy(s->y, y, n * sizeof *y);
}

static void keep_table(const oc__table *t) {
    oc_figures *c = collector;
    if (!c) return;
    ftable *tb = append(c, (void **)&c->tables, &c->ntables, sizeof *tb);
    if (!tb) return;
    tb->ncols = t->ncols;
    tb->nrows = t->nrows;
    tb->cells = oc__calloc((t->nrows + 1) * t->ncols, sizeof *tb->cells);
    if (!tb->cells) {
        c->nomem = 1;
        tb->nrows = tb->ncols = 0;
        return;
    }
    for (size_t k = 0; k < t->ncols; k++)
        tb->cells[k] = figures_strdup(c, t->head[k]);
    for (size_t k = 0; k < t->nrows * t->ncols; k++)
        tb->cells[t->ncols + k] = figures_strdup(c, t->cells[k]);
}

/* ---- claims tables ---- */

/* The verdicts (reproduce_common.h): here with the claims table that prints them, so that
 * reproduce_common.c calls this file and not the reverse. */
const char *oc__verdict_word(oc__verdict v) {
    if (v.of && v.bracketed) return "bracketed";
    return !v.of ? "not simulated" : v.hit >= v.of ? "holds" : v.hit ? "partly" : "does not hold";
}

oc__verdict oc__verdict_setups(double paper, double seed, double best, double tol) {
    oc__verdict v = {0, 0, 0, NAN, NAN};
    const double x[2] = {seed, best};
    for (int i = 0; i < 2; i++)
        if (!isnan(x[i])) {
            v.of++;
            v.hit += fabs(x[i] - paper) <= tol;
        }
    if (v.of == 2 && !v.hit && (paper - seed) * (paper - best) < 0) {
        v.bracketed = 1;
        v.lo = fmin(seed, best);
        v.hi = fmax(seed, best);
    }
    return v;
}

oc__verdict oc__verdict_one(double ours, int ok) {
    return isnan(ours) ? (oc__verdict){0, 0, 0, NAN, NAN}
                       : (oc__verdict){ok ? 1u : 0u, 1, 0, NAN, NAN};
}


int oc__claims_add(oc__claim_list *l, const oc__claim_in *c) {
    oc__claim_entry *v = realloc(l->v, (l->n + 1) * sizeof *v);
    if (!v) return OC_ENOMEM;
    l->v = v;
    oc__claim_entry *e = &v[l->n];
    e->claim = strdup(c->claim ? c->claim : "");
    e->source = strdup(c->source ? c->source : "");
    e->unit = strdup(c->unit ? c->unit : "");
    e->reason = strdup(c->reason ? c->reason : "");
    e->paper = c->paper;
    e->decimals = c->decimals;
    e->ours = c->ours;
    e->verdict = c->verdict;
    if (!e->claim || !e->source || !e->unit || !e->reason) {
        free(e->claim);
        free(e->source);
        free(e->unit);
        free(e->reason);
        return OC_ENOMEM;
    }
    l->n++;
    return 0;
}

void oc__claims_clear(oc__claim_list *l) {
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].claim);
        free(l->v[i].source);
        free(l->v[i].unit);
        free(l->v[i].reason);
    }
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* "72.21 %", "94.30 %" (decimals 2), "1.7x", "not simulated". */
static void claim_value(char *buf, size_t len, double v, const char *unit, int decimals) {
    char num[32];
    if (decimals > 0)
        snprintf(num, sizeof num, "%.*f", decimals, v);
    else
        snprintf(num, sizeof num, "%.4g", v);
    if (isnan(v))
        snprintf(buf, len, "not simulated");
    else if (!strcmp(unit, "x"))
        snprintf(buf, len, "%sx", num);
    else
        snprintf(buf, len, "%s%s%s", num, unit[0] ? " " : "", unit);
}

/* "holds (3 of 3)", "partly (4 of 16)", "does not hold (0 of 2)", "bracketed (27.79 .. 94.6)",
 * "not simulated". */
static void verdict_text(char *buf, size_t len, oc__verdict v) {
    if (v.of && v.bracketed)
        snprintf(buf, len, "bracketed (%.4g .. %.4g)", v.lo, v.hi);
    else if (!v.of)
        snprintf(buf, len, "%s", oc__verdict_word(v));
    else
        snprintf(buf, len, "%s (%zu of %zu)", oc__verdict_word(v), v.hit, v.of);
}

/* The claims as a table (claim, source, paper, opticoll, verdict, reason); 0 or OC_ENOMEM. */
static int claims_table(const oc__claim_list *l, oc__table *t) {
    static const char *const head[] = {"claim", "source", "paper", "opticoll", "verdict", "reason"};
    oc__table_init(t, 6, head);
    int rc = 0;
    for (size_t i = 0; i < l->n && !rc; i++) {
        const oc__claim_entry *e = &l->v[i];
        char paper[48], ours[48], verdict[48];
        claim_value(paper, sizeof paper, e->paper, e->unit, e->decimals);
        claim_value(ours, sizeof ours, e->ours, e->unit, 0);
        verdict_text(verdict, sizeof verdict, e->verdict);
        const char *row[] = {e->claim, e->source,  paper,
                             ours,     verdict,    e->reason[0] ? e->reason : "-"};
        rc = oc__table_row(t, row);
    }
    return rc;
}

void oc__claims_print(const oc__claim_list *l, FILE *f) {
    if (!l->n) return;
    oc__table t;
    int rc = claims_table(l, &t);
    fputs("Claims (the headline ones, then those of the body that the runs test) against "
          "opticoll's runs\n"
          "  verdict, computed from the runs: holds, partly or does not hold at the counted "
          "points (sizes,\n"
          "  GPU counts, models, cases), or bracketed (lo .. hi) when the paper's number lies "
          "between ours\n"
          "  at its own setup and ours at our search's best\n",
          f);
    if (rc) {
        fputs("  (out of memory while building the claims table)\n", f);
    } else {
        /* printed first but run last: the collector keeps it first (oc__figures_take_claims), so
         * the table sink must not append it after the paper's own tables */
        oc__table_sink sink = oc__table_sink_set(NULL);
        oc__table_print(&t, f);
        oc__table_sink_set(sink);
    }
    fputc('\n', f);
    oc__table_free(&t);
}

void oc__figures_take_claims(oc__claim_list *l) {
    oc_figures *c = collector;
    if (!c) return;
    if (l->n) {
        /* the claims table is the reproduction's first table, as it is printed first */
        oc__table t;
        if (claims_table(l, &t)) {
            c->nomem = 1;
        } else {
            keep_table(&t);
            if (c->ntables > 1 && !c->nomem) {
                ftable last = c->tables[c->ntables - 1];
                memmove(c->tables + 1, c->tables, (c->ntables - 1) * sizeof *c->tables);
                c->tables[0] = last;
            }
        }
        oc__table_free(&t);
    }
    oc__claims_clear(&c->claims);
    c->claims = *l;
    l->v = NULL;
    l->n = 0;
}

size_t oc_figures_claim_count(const oc_figures *c) {
    return c ? c->claims.n : 0;
}

int oc_figures_claim_get(const oc_figures *c, size_t i, oc_claim_info *out) {
    if (!c || i >= c->claims.n) return OC_ERANGE;
    const oc__claim_entry *e = &c->claims.v[i];
    *out = (oc_claim_info){e->claim,
                           e->source,
                           e->unit,
                           e->paper,
                           e->ours,
                           e->reason,
                           oc__verdict_word(e->verdict),
                           e->verdict.hit,
                           e->verdict.of,
                           e->verdict.bracketed ? e->verdict.lo : NAN,
                           e->verdict.bracketed ? e->verdict.hi : NAN};
    return 0;
}

void oc_figures_free(oc_figures *c) {
    if (!c) return;
    oc__claims_clear(&c->claims);
    for (size_t i = 0; i < c->nfigs; i++) {
        figure *f = &c->figs[i];
        free(f->id);
        free(f->title);
        free(f->xlabel);
        free(f->ylabel);
        free(f->caption);
        for (size_t s = 0; s < f->nseries; s++) {
            free(f->series[s].name);
            free(f->series[s].x);
            free(f->series[s].y);
        }
        free(f->series);
    }
    for (size_t i = 0; i < c->ntables; i++) {
        for (size_t k = 0; k < (c->tables[i].nrows + 1) * c->tables[i].ncols; k++)
            free(c->tables[i].cells[k]);
        free(c->tables[i].cells);
    }
    free(c->figs);
    free(c->tables);
    free(c);
}

int oc__figures_collect(int (*fn)(void *arg, char *why, size_t whylen), void *arg, oc_figures **out,
                        char *why, size_t whylen) {
    *out = NULL;
    oc_figures *c = oc__calloc(1, sizeof *c);
    if (!c) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    oc_figures *outer = collector;
    collector = c;
    oc__table_sink outer_sink = oc__table_sink_set(keep_table);
    int rc = fn(arg, why, whylen);
    oc__table_sink_set(outer_sink);
    collector = outer;
    if (!rc && c->nomem) rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    if (rc) {
        oc_figures_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

size_t oc_figures_count(const oc_figures *c) {
    return c ? c->nfigs : 0;
}

int oc_figure_get(const oc_figures *c, size_t i, oc_figure_info *out) {
    if (!c || i >= c->nfigs) return OC_ERANGE;
    const figure *f = &c->figs[i];
    *out = (oc_figure_info){f->id,      f->title, f->xlabel, f->ylabel,
                            f->caption, f->logx,  f->logy,   f->nseries};
    return 0;
}

int oc_figure_series_get(const oc_figures *c, size_t i, size_t s, const char **name, size_t *n,
                         const double **x, const double **y) {
    if (!c || i >= c->nfigs || s >= c->figs[i].nseries) return OC_ERANGE;
    const fseries *q = &c->figs[i].series[s];
    *name = q->name;
    *n = q->n;
    *x = q->x;
    *y = q->y;
    return 0;
}

size_t oc_figures_table_count(const oc_figures *c) {
    return c ? c->ntables : 0;
}

/* A CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled). */
static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int oc_figures_write_table_csv(const oc_figures *c, size_t i, FILE *f) {
    if (!c || i >= c->ntables) return OC_ERANGE;
    const ftable *t = &c->tables[i];
    for (size_t r = 0; r <= t->nrows; r++)
        for (size_t k = 0; k < t->ncols; k++) {
            csv_field(f, t->cells[r * t->ncols + k]);
            fputc(k + 1 < t->ncols ? ',' : '\n', f);
        }
    return ferror(f) ? OC_EIO : 0;
}

/* ---- the whole reproduction as JSON ---- */

static int json_setting_u32(cJSON *to, const char *key, uint32_t v) {
    return v ? oc__json_u64(to, key, v) : oc__json_null(to, key);
}

static int json_claims(cJSON *root, const oc_figures *c) {
    cJSON *a = oc__json_arr(root, "claims");
    int ok = a != NULL;
    for (size_t i = 0; ok && i < c->claims.n; i++) {
        const oc__claim_entry *e = &c->claims.v[i];
        cJSON *o = oc__json_obj(a, NULL);
        ok = o && oc__json_str(o, "claim", e->claim) && oc__json_str(o, "source", e->source) &&
             oc__json_str(o, "unit", e->unit) && oc__json_num(o, "paper", e->paper) &&
             oc__json_num(o, "opticoll", e->ours) &&
             oc__json_str(o, "verdict", oc__verdict_word(e->verdict)) &&
             oc__json_u64(o, "verdict_hit", e->verdict.hit) &&
             oc__json_u64(o, "verdict_of", e->verdict.of) &&
             (!e->verdict.bracketed ||
              (oc__json_num(o, "bracket_lo", e->verdict.lo) &&
               oc__json_num(o, "bracket_hi", e->verdict.hi))) &&
             oc__json_str(o, "reason", e->reason);
    }
    return ok;
}

static int json_tables(cJSON *root, const oc_figures *c) {
    cJSON *a = oc__json_arr(root, "tables");
    int ok = a != NULL;
    for (size_t i = 0; ok && i < c->ntables; i++) {
        const ftable *t = &c->tables[i];
        cJSON *o = oc__json_obj(a, NULL);
        cJSON *cols = o ? oc__json_arr(o, "columns") : NULL;
        ok = cols != NULL;
        for (size_t k = 0; ok && k < t->ncols; k++)
            ok = oc__json_str(cols, NULL, t->cells[k]);
        cJSON *rows = ok ? oc__json_arr(o, "rows") : NULL;
        ok = rows != NULL;
        for (size_t r = 1; ok && r <= t->nrows; r++) {
            cJSON *row = oc__json_arr(rows, NULL);
            ok = row != NULL;
            for (size_t k = 0; ok && k < t->ncols; k++)
                ok = oc__json_str(row, NULL, t->cells[r * t->ncols + k]);
        }
    }
    return ok;
}

static int json_figures(cJSON *root, const oc_figures *c) {
    cJSON *a = oc__json_arr(root, "figures");
    int ok = a != NULL;
    for (size_t i = 0; ok && i < c->nfigs; i++) {
        const figure *g = &c->figs[i];
        cJSON *o = oc__json_obj(a, NULL);
        ok = o && oc__json_str(o, "id", g->id) && oc__json_str(o, "title", g->title) &&
             oc__json_str(o, "xlabel", g->xlabel) && oc__json_str(o, "ylabel", g->ylabel) &&
             oc__json_str(o, "paper_caption", g->caption) && oc__json_bool(o, "logx", g->logx) &&
             oc__json_bool(o, "logy", g->logy);
        cJSON *ss = ok ? oc__json_arr(o, "series") : NULL;
        ok = ss != NULL;
        for (size_t s = 0; ok && s < g->nseries; s++) {
            const fseries *q = &g->series[s];
            cJSON *so = oc__json_obj(ss, NULL);
            cJSON *x = so && oc__json_str(so, "name", q->name) ? oc__json_arr(so, "x") : NULL;
            cJSON *y = x ? oc__json_arr(so, "y") : NULL;
            ok = y != NULL;
            for (size_t k = 0; ok && k < q->n; k++)
                ok = oc__json_num(x, NULL, q->x[k]) && oc__json_num(y, NULL, q->y[k]);
        }
    }
    return ok;
}

int oc_reproduce_write_json(const char *paper, const oc_reproduce_settings *settings,
                            const oc_figures *figs, FILE *f) {
    static const oc_reproduce_settings none;
    const oc_reproduce_settings *s = settings ? settings : &none;
    cJSON *root = cJSON_CreateObject();
    cJSON *set = root && oc__json_str(root, "paper", paper) ? oc__json_obj(root, "settings") : NULL;
    int ok = set && json_setting_u32(set, "wavelengths", s->wavelengths) &&
             json_setting_u32(set, "nodes", s->nodes) && oc__json_str(set, "sizes", s->sizes) &&
             oc__json_str(set, "network", s->network) && json_claims(root, figs) &&
             json_tables(root, figs) && json_figures(root, figs);
    if (!ok) {
        cJSON_Delete(root);
        root = NULL; /* oc__json_write: out of memory */
    }
    return oc__json_write(f, root, OC__JSON_SPACED, "\n");
}
