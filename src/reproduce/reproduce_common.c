/*
 * reproduce_common.c — the table, the runs and the read-back every reproduction shares.
 *
 * A reproduction (reproduce_optree.c, reproduce_wrht.c, ...) is a list of runs and a list of
 * tables. The runs go through the public pipeline only (oc_run: the schedule is generated, checked
 * by the semantic verifier, mapped onto the network model and checked for resource conflicts, then
 * costed); this file reduces a report to the few figures a table cell needs, and runs a batch of
 * independent runs on two threads. The library has no mutable global state, so two oc_run calls on
 * two threads share nothing; each job writes only its own slot, and the batch reports the error of
 * the first failing job in list order, so neither the output nor a failure depends on timing.
 * Two threads because the reproductions' large reductions are bound by the verifier's memory
 * traffic (an all-reduce on 4096 nodes holds ~3 GB of contribution sets), not by the cores; more
 * threads would multiply the memory and gain little.
 *
 * The tables print as plain text with aligned columns; the last column, the reason, is never
 * padded, so that one long reason does not widen the table.
 */
#include "reproduce/reproduce_common.h"
#include "core/quote.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCH_THREADS = 2 };

/* ---- text ------------------------------------------------------------------------------------ */

void oc__cellf(char *buf, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

void oc__reason_add(char *buf, size_t len, const char *fmt, ...) {
    size_t at = strlen(buf);
    if (at + 3 >= len) return;
    if (at) {
        memcpy(buf + at, "; ", 3);
        at += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

double oc__ceil_exact(double x) {
    return ceil(x - 1e-9 * fmax(1.0, fabs(x)));
}

/* Columns a UTF-8 string takes on a terminal (every non-continuation byte counts one). */
static size_t display_width(const char *s) {
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) n++;
    return n;
}

/* ---- tables ---------------------------------------------------------------------------------- */

void oc__table_init(oc__table *t, size_t ncols, const char *const *head) {
    memset(t, 0, sizeof *t);
    t->ncols = ncols < OC__MAX_COLS ? ncols : OC__MAX_COLS;
    for (size_t c = 0; c < t->ncols; c++)
        t->head[c] = head[c];
}

void oc__table_free(oc__table *t) {
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

int oc__table_row(oc__table *t, const char *const *cells) {
    size_t need = (t->nrows + 1) * t->ncols;
    if (oc__grow((void **)&t->cells, &t->cap, need, sizeof(char *))) return OC_ENOMEM;
    char **row = t->cells + t->nrows * t->ncols;
    for (size_t c = 0; c < t->ncols; c++) {
        row[c] = strdup(cells[c]);
        if (!row[c]) {
            for (size_t d = 0; d < c; d++)
                free(row[d]);
            return OC_ENOMEM;
        }
    }
    t->nrows++;
    return 0;
}

static void print_cell(FILE *f, const char *s, size_t width, int last) {
    fputs(s, f);
    if (last) return;
    for (size_t w = display_width(s); w < width; w++)
        fputc(' ', f);
    fputs(" | ", f);
}

void oc__table_print(const oc__table *t, FILE *f) {
    oc__figure_table(t); /* kept as CSV when reproduce --out collects figures */
    size_t width[OC__MAX_COLS];
    for (size_t c = 0; c < t->ncols; c++) {
        width[c] = display_width(t->head[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t w = display_width(t->cells[r * t->ncols + c]);
            if (w > width[c]) width[c] = w;
        }
    }
    fputs("  ", f);
    for (size_t c = 0; c < t->ncols; c++)
        print_cell(f, t->head[c], width[c], c + 1 == t->ncols);
    fputs("\n  ", f);
    for (size_t c = 0; c < t->ncols; c++) {
        size_t w = c + 1 == t->ncols ? display_width(t->head[c]) : width[c];
        for (size_t i = 0; i < w; i++)
            fputc('-', f);
        if (c + 1 < t->ncols) fputs("-+-", f);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs("  ", f);
        for (size_t c = 0; c < t->ncols; c++)
            print_cell(f, t->cells[r * t->ncols + c], width[c], c + 1 == t->ncols);
        fputc('\n', f);
    }
}

/* ---- runs ------------------------------------------------------------------------------------ */

/* Adds every "k=v" word of a space-separated list to kv. */
static int kv_add_words(oc_kv *kv, const char *text) {
    char word[128];
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n) break;
        if (n >= sizeof word) return OC_EINVAL;
        memcpy(word, p, n);
        word[n] = 0;
        int rc = oc_kv_set_pair(kv, word);
        if (rc) return rc;
        p += n;
    }
    return 0;
}

int oc__simulate(const oc__sim_req *q, oc__sim *s, oc_report **keep, char *why, size_t whylen) {
    memset(s, 0, sizeof *s);
    if (keep) *keep = NULL;
    oc_kv *params = oc_kv_new(), *net = oc_kv_new();
    oc_report *rep = NULL;
    int rc;
    if (!params || !net) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = kv_add_words(params, q->params)) || (rc = kv_add_words(net, q->net))) {
        rc = oc__fail(why, whylen, rc, "reproduce: bad parameter list '%s' / '%s'", OC_Q(q->params),
                      OC_Q(q->net));
        goto out;
    }
    oc_request req = {.collective = q->coll,
                      .algorithm = q->algo,
                      .network = q->network,
                      .nodes = q->nodes,
                      .bytes = q->bytes,
                      .params = params,
                      .net_params = net,
                      .data_check = q->data_check};
    char inner[384] = "";
    rc = oc_run(&req, &rep, inner, sizeof inner);
    if (rc == OC_ETOOBIG) {
        oc__cellf(s->note, sizeof s->note, "%s", inner[0] ? inner : oc_strerror(rc));
        rc = 0;
        goto out;
    }
    if (rc) {
        rc = oc__fail(why, whylen, rc, "reproduce: %s %s on %s, %" PRIu32 " nodes%s%s: %s",
                      oc_collective_name(q->coll), q->algo, q->network ? q->network : "no network",
                      q->nodes, q->params[0] ? ", " : "", q->params,
                      inner[0] ? inner : oc_strerror(rc));
        goto out;
    }
    s->ok = 1;
    s->steps = oc_report_steps(rep);
    s->rounds = oc_report_rounds(rep);
    s->has_lb = oc_report_steps_lower_bound(rep, &s->lb);
    s->has_lib_formula = oc_report_steps_formula(rep, &s->lib_formula);
    s->time_s = oc_report_time(rep);
    s->data_checked = oc_report_data_checked(rep);
    if (keep) {
        *keep = rep;
        rep = NULL;
    }
out:
    oc_report_free(rep);
    oc_kv_free(params);
    oc_kv_free(net);
    return rc;
}

typedef struct batch {
    oc__sim_job *jobs;
    size_t n, next;
    pthread_mutex_t lock;
} batch;

static void *batch_worker(void *arg) {
    batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next < b->n ? b->next++ : b->n;
        pthread_mutex_unlock(&b->lock);
        if (i == b->n) return NULL;
        oc__sim_job *j = &b->jobs[i];
        j->why[0] = 0;
        j->rc = oc__simulate(&j->req, &j->sim, j->keep ? &j->report : NULL, j->why, sizeof j->why);
    }
}

int oc__sim_batch(oc__sim_job *jobs, size_t n, char *why, size_t whylen) {
    batch b = {.jobs = jobs, .n = n, .next = 0};
    for (size_t i = 0; i < n; i++) {
        jobs[i].report = NULL;
        jobs[i].rc = 0;
    }
    if (pthread_mutex_init(&b.lock, NULL))
        return oc__fail(why, whylen, OC_ENOMEM, "reproduce: cannot create a lock");
    pthread_t extra[BATCH_THREADS - 1];
    size_t started = 0;
    for (; started < BATCH_THREADS - 1 && started + 1 < n; started++)
        if (pthread_create(&extra[started], NULL, batch_worker, &b)) break; /* run with fewer */
    batch_worker(&b);
    for (size_t t = 0; t < started; t++)
        pthread_join(extra[t], NULL);
    pthread_mutex_destroy(&b.lock);
    for (size_t i = 0; i < n; i++) {
        if (!jobs[i].rc) continue;
        int rc = jobs[i].rc;
        oc__fail(why, whylen, rc, "%s", jobs[i].why[0] ? jobs[i].why : oc_strerror(rc));
        for (size_t k = 0; k < n; k++) {
            oc_report_free(jobs[k].report);
            jobs[k].report = NULL;
        }
        return rc;
    }
    return 0;
}

void oc__sim_steps_cell(char *buf, size_t len, const oc__sim *s) {
    if (s->ok)
        oc__cellf(buf, len, "%" PRIu64, s->steps);
    else
        oc__cellf(buf, len, "not simulated: %s", s->note);
}

void oc__reason_mapping(char *buf, size_t len, const oc__sim *s) {
    if (!s->ok || !s->has_lb) return;
    if (s->steps > s->lb)
        oc__reason_add(buf, len,
                       "mapped %" PRIu64 " = %.3f x the heaviest-link load bound %" PRIu64
                       " (circular-arc colouring above the load)",
                       s->steps, (double)s->steps / (double)s->lb, s->lb);
}

void oc__reason_library(char *buf, size_t len, const oc__sim *s, double ours, double exact) {
    if (!s->ok || !s->has_lib_formula || fabs(s->lib_formula - ours) < 0.5) return;
    if (!isnan(exact) && fabs(exact - round(exact)) < 1e-9 && fabs(s->lib_formula - ours - 1) < 0.5)
        oc__reason_add(buf, len,
                       "the library's closed form says %.0f, not %.0f: the formula's value is "
                       "exactly %.0f and the library's ceil() of a pow() result rounds it up once "
                       "more",
                       s->lib_formula, ours, ours);
    else
        oc__reason_add(buf, len, "the library's closed form says %.0f, not %.0f", s->lib_formula,
                       ours);
}

void oc__kv_text(char *buf, size_t len, const oc_kv *kv) {
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; kv && i < oc_kv_count(kv) && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, i ? " %s=%s" : "%s=%s", oc_kv_key(kv, i),
                               oc_kv_value(kv, i));
}

double oc__report_figure(const oc_report *rep, const char *key) {
    double v;
    return rep && oc_report_number(rep, key, &v) ? v : NAN;
}

/* ---- the ring network, as the runs used it ----------------------------------------------------
 */

const char *oc__net_param(const oc_report *rep, const char *key) {
    const char *v = oc_kv_get(oc_report_network_params(rep), key);
    return v ? v : "?";
}

void oc__print_ring_network(FILE *f, const oc_report *rep, uint64_t block, const char *example) {
    double oeo_ns = strtod(oc__net_param(rep, "oeo_ns_per_flit"), NULL);
    fprintf(
        f,
        "\nNetwork: the ring model, preset %s: a bidirectional WDM ring with %s wavelengths per "
        "fibre\n"
        "  (%s uses the paper's 2) and %s fibre(s) per direction; %s Gb/s per wavelength;\n"
        "  %s us MRR reconfiguration per step; O/E/O %s ns per %s B flit (the paper's \"one "
        "cycle per\n"
        "  flit\" at an assumed %.3g GHz clock); %s B packets.\n",
        oc__net_param(rep, "preset"), oc__net_param(rep, "wavelengths"), example,
        oc__net_param(rep, "fibres"), oc__net_param(rep, "bandwidth_gbps"),
        oc__net_param(rep, "reconfig_us"), oc__net_param(rep, "oeo_ns_per_flit"),
        oc__net_param(rep, "flit_bytes"), oeo_ns > 0 ? 1 / oeo_ns : 0.0,
        oc__net_param(rep, "packet_bytes"));
    double step = 0, reconf = 0, oeo = 0, tx = 0;
    if (oc_report_number(rep, "step_time_s", &step) &&
        oc_report_number(rep, "step_reconfig_s", &reconf) &&
        oc_report_number(rep, "step_oeo_s", &oeo) &&
        oc_report_number(rep, "step_transmission_s", &tx))
        fprintf(f,
                "  One step moves one block of %" PRIu64
                " bytes on every lightpath: %.3f us reconfiguration\n"
                "  + %.3f us O/E/O + %.3f us transmission = %.3f us (the paper's d/B + a).\n",
                block, reconf * 1e6, oeo * 1e6, tx * 1e6, step * 1e6);
}
