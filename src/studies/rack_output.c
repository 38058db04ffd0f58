/*
 * rack_output.c — a replay's result (rack_replay.c) written out: the plain-text tables (the slices
 * each architecture offers, placed, rejected and fragmented tenants, mean all-reduce time,
 * utilisation, rounding, idle and stranded GPUs) and one JSON object with every figure.
 */
#include "core/json.h"
#include "studies/rack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output -----------------------------------------------------------------------------------
 */

void oc__rack_arch_label(char *buf, size_t len, const oc__rack_shape *s, int a) {
    if (a == OC__RACK_SIPAC)
        snprintf(buf, len, "sipac(%u,%u)", s->sipac_r, s->sipac_l);
    else
        snprintf(buf, len, "%s", oc__rack_arch_name((oc__rack_arch)a));
}

static void slices_text(char *buf, size_t len, const oc__rack_shape *s, int a) {
    const uint32_t N = s->servers * s->tiles;
    if (a == OC__RACK_LUMORPH) {
        if (oc__rack_lumorph_cap(s) < N)
            snprintf(buf, len, "any g <= %u (no fibres: one server)", oc__rack_lumorph_cap(s));
        else
            snprintf(buf, len, "any g <= %u, fibres permitting", N);
    } else if (a == OC__RACK_TPU) {
        uint32_t m = 1;
        while (m * 2 <= N)
            m *= 2;
        if (N >= 2 * OC__RACK_CUBE)
            snprintf(buf, len, "2^k in a cube; any k cubes (OCS), <= %u",
                     N / OC__RACK_CUBE * OC__RACK_CUBE);
        else
            snprintf(buf, len, "aligned 2^k sub-cubes, <= %u", m);
    } else {
        uint64_t m = 1, cap = 1;
        for (uint32_t k = 0; k < s->sipac_l; k++)
            cap *= s->sipac_r;
        while (m * s->sipac_r <= N && m * s->sipac_r <= cap)
            m *= s->sipac_r;
        snprintf(buf, len, "aligned sub-BCubes %u^k, <= %llu", s->sipac_r, (unsigned long long)m);
    }
}

void oc__rack_ar_text(char *buf, size_t len, const oc__rack_ar *ar) {
    char t[32];
    oc_format_seconds(t, sizeof t, ar->time_s);
    if (ar->radix)
        snprintf(buf, len, "rhd radix %u, %s", ar->radix, t);
    else
        snprintf(buf, len, "%s, %s", ar->algo, t);
}

static int write_text(const oc_rack_result *r, int detail, FILE *f) {
    const oc__rack_shape *s = &r->shape;
    const oc__rack_trace *t = r->trace;
    char sz[32];
    oc_format_size(sz, sizeof sz, s->bytes);
    fprintf(f,
            "rack: %u servers x %u tiles = %u GPUs, %u fibres per ordered server pair; each "
            "tenant all-reduces %s\n",
            s->servers, s->tiles, s->servers * s->tiles, s->fibres, sz);
    fprintf(f, "trace: %s (%zu arrivals, %zu events, time %g to %g)\n\n", t->source, t->ntenants,
            t->nevents, t->events[0].time, t->events[t->nevents - 1].time);
    /* The slices each architecture gives, as a list: in a table their descriptions would be
     * wrapped into a column a few letters wide (tables fit the text width). Then two tables of
     * five columns each, which fit 80 columns: the tenants placed, and where the GPU time went. */
    fputs("slices:\n", f);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        char label[32], slices[OC__CELL_LEN];
        oc__rack_arch_label(label, sizeof label, s, a);
        slices_text(slices, sizeof slices, s, a);
        fprintf(f, "  %-12s %s\n", label, slices);
    }
    fputc('\n', f);
    static const char *const placed_head[] = {"architecture", "placed", "rejected", "(fragmented)",
                                              "mean all-reduce"};
    static const char *const time_head[] = {"architecture", "utilisation", "rounding", "idle",
                                            "stranded"};
    oc__table tab, fractions;
    oc__table_init(&tab, 5, placed_head);
    oc__table_init(&fractions, 5, time_head);
    tab.last_is_data = fractions.last_is_data = 1; /* values, not reasons */
    int rc = 0;
    uint64_t runs = 0;
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        const oc__rack_arch_result *x = &r->arch[a];
        char c[5][OC__CELL_LEN], d[5][OC__CELL_LEN];
        oc__rack_arch_label(c[0], sizeof c[0], s, a);
        oc__cellf(c[1], sizeof c[1], "%llu", (unsigned long long)x->placed);
        oc__cellf(c[2], sizeof c[2], "%llu", (unsigned long long)x->rejected);
        if (x->rejected_no_fibres)
            oc__cellf(c[3], sizeof c[3], "%llu + %llu no fibres",
                      (unsigned long long)x->rejected_fragmented,
                      (unsigned long long)x->rejected_no_fibres);
        else
            oc__cellf(c[3], sizeof c[3], "%llu", (unsigned long long)x->rejected_fragmented);
        oc_format_seconds(c[4], sizeof c[4], x->mean_allreduce_s);
        oc__cellf(d[0], sizeof d[0], "%s", c[0]);
        oc__cellf(d[1], sizeof d[1], "%.1f%%", 100 * x->utilisation);
        oc__cellf(d[2], sizeof d[2], "%.1f%%", 100 * x->rounding);
        oc__cellf(d[3], sizeof d[3], "%.1f%%", 100 * x->idle);
        oc__cellf(d[4], sizeof d[4], "%.1f%%", 100 * x->stranded);
        const char *row[5], *drow[5];
        for (int k = 0; k < 5; k++)
            row[k] = c[k], drow[k] = d[k];
        if (!(rc = oc__table_row(&tab, row))) rc = oc__table_row(&fractions, drow);
        runs += x->runs;
    }
    if (!rc) {
        oc__table_print(&tab, f);
        fputc('\n', f);
        oc__table_print(&fractions, f);
    }
    oc__table_free(&fractions);
    oc__table_free(&tab);
    if (rc) return rc;
    fprintf(f,
            "\nFractions are time averages of the rack's GPUs over the trace: utilisation (GPUs "
            "asked for by\nplaced tenants) + rounding (given beyond the request) + idle (free) = "
            "100%%. stranded: free\nGPUs (up to the architecture's largest slice: lumorph's is "
            "the rack) beyond the largest request\nthe rack could place at that moment: what "
            "fragmentation, or missing fibres, makes unusable.\n(fragmented): rejected although "
            "enough GPUs were free and the empty rack could place it;\n'no fibres': lumorph "
            "rejected although enough GPUs were free, on servers its fibres cannot join.\n"
            "All-reduce: "
            "ring for g not a power of two, else the faster of rhd radix\n2 and 4 (section 3); "
            "lumorph on the fabric model with the tenant's own servers and fibres,\ntpu and sipac "
            "on the ideal switch (no contention, no reconfiguration: flatters them). Every\ntime "
            "is a verified oc_run (%llu distinct runs).\n",
            (unsigned long long)runs);
    if (!detail) return ferror(f) ? OC_EIO : 0;
    fputs("\ntenants:\n", f);
    char sipac_label[32];
    oc__rack_arch_label(sipac_label, sizeof sipac_label, s, OC__RACK_SIPAC);
    const char *const dhead[] = {"tenant",  "gpus", "arrive",   "leave",
                                 "lumorph", "tpu",  sipac_label};
    oc__table_init(&tab, 7, dhead);
    tab.last_is_data = 1; /* the third architecture: a placement, not a reason */
    for (size_t i = 0; i < t->ntenants && !rc; i++) {
        const oc__rack_tenant *x = &t->tenants[i];
        char c[7][OC__CELL_LEN];
        oc__cellf(c[0], sizeof c[0], "%s", x->id);
        oc__cellf(c[1], sizeof c[1], "%u", x->gpus);
        oc__cellf(c[2], sizeof c[2], "%g", x->arrive);
        if (x->leave >= 0)
            oc__cellf(c[3], sizeof c[3], "%g", x->leave);
        else
            oc__cellf(c[3], sizeof c[3], "-");
        for (int a = 0; a < OC__RACK_ARCHS; a++) {
            const oc__rack_tenant_result *y = &r->tenant[a][i];
            char art[64];
            if (!y->placed) {
                oc__cellf(c[4 + a], sizeof c[4 + a], "rejected: %s", y->reason);
                continue;
            }
            oc__rack_ar_text(art, sizeof art, &y->ar);
            if (a == OC__RACK_LUMORPH)
                oc__cellf(c[4 + a], sizeof c[4 + a], "%u on %u server%s%s%s, %s",
                          y->where.allocated, y->where.servers, y->where.servers > 1 ? "s" : "",
                          y->where.fibres ? " +fibres" : "",
                          y->where.servers > 1 && !y->where.rhd_circuits &&
                                  oc__rack_is_pow(x->gpus, 2)
                              ? " (ring only)"
                              : "",
                          art);
            else
                oc__cellf(c[4 + a], sizeof c[4 + a], "%u at %u, %s", y->where.allocated,
                          y->where.first, art);
        }
        const char *row[7];
        for (int k = 0; k < 7; k++)
            row[k] = c[k];
        rc = oc__table_row(&tab, row);
    }
    if (!rc) oc__table_print(&tab, f);
    oc__table_free(&tab);
    if (rc) return rc;
    return ferror(f) ? OC_EIO : 0;
}

int oc_rack_write_text(const oc_rack_result *r, int detail, FILE *f) {
    /* the tables fit the width of the settings the replay was given */
    const oc_settings *prev = oc__settings_enter(r->shape.settings);
    int rc = write_text(r, detail, f);
    oc__settings_leave(prev);
    return rc;
}

/* One architecture's totals, appended to the array `to`. */
static int json_arch(cJSON *to, const oc__rack_shape *s, int a, const oc__rack_arch_result *x) {
    char label[32], sl[96];
    oc__rack_arch_label(label, sizeof label, s, a);
    slices_text(sl, sizeof sl, s, a);
    cJSON *o = oc__json_obj(to, NULL);
    return oc__json_str(o, "name", oc__rack_arch_name((oc__rack_arch)a)) &&
           oc__json_str(o, "label", label) && oc__json_str(o, "slices", sl) &&
           oc__json_str(o, "network", a == OC__RACK_LUMORPH ? "fabric" : "switch") &&
           oc__json_u64(o, "arrivals", x->arrivals) && oc__json_u64(o, "placed", x->placed) &&
           oc__json_u64(o, "rejected", x->rejected) &&
           oc__json_u64(o, "rejected_fragmented", x->rejected_fragmented) &&
           oc__json_u64(o, "rejected_too_large", x->rejected_too_large) &&
           oc__json_u64(o, "rejected_no_fibres", x->rejected_no_fibres) &&
           oc__json_num(o, "utilisation", x->utilisation) &&
           oc__json_num(o, "rounding_waste", x->rounding) && oc__json_num(o, "idle", x->idle) &&
           oc__json_num(o, "stranded", x->stranded) &&
           oc__json_num(o, "mean_allreduce_s", x->mean_allreduce_s) &&
           oc__json_u64(o, "runs", x->runs);
}

/* What became of one tenant on architecture a: the member of `to` named for a. */
static int json_tenant_fate(cJSON *to, int a, const oc__rack_tenant_result *y) {
    cJSON *o = oc__json_obj(to, oc__rack_arch_name((oc__rack_arch)a));
    if (!y->placed) return oc__json_bool(o, "placed", 0) && oc__json_str(o, "reason", y->reason);
    return oc__json_bool(o, "placed", 1) && oc__json_u64(o, "allocated", y->where.allocated) &&
           oc__json_u64(o, "first", y->where.first) &&
           oc__json_u64(o, "servers", y->where.servers) &&
           oc__json_u64(o, "fibres", y->where.fibres) && oc__json_str(o, "algorithm", y->ar.algo) &&
           oc__json_u64(o, "radix", y->ar.radix) && oc__json_num(o, "allreduce_s", y->ar.time_s) &&
           oc__json_bool(o, "verified", 1);
}

int oc_rack_write_json(const oc_rack_result *r, FILE *f) {
    const oc__rack_shape *s = &r->shape;
    const oc__rack_trace *t = r->trace;
    cJSON *root = cJSON_CreateObject(), *rack = oc__json_obj(root, "rack");
    int ok = oc__json_u64(rack, "servers", s->servers) &&
             oc__json_u64(rack, "tiles_per_server", s->tiles) &&
             oc__json_u64(rack, "gpus", (uint64_t)s->servers * s->tiles) &&
             oc__json_u64(rack, "fibres_between_servers", s->fibres) &&
             oc__json_u64(rack, "sipac_r", s->sipac_r) &&
             oc__json_u64(rack, "sipac_l", s->sipac_l) && oc__json_u64(root, "bytes", s->bytes);
    cJSON *trace = ok ? oc__json_obj(root, "trace") : NULL;
    ok = oc__json_str(trace, "source", t->source) && oc__json_u64(trace, "tenants", t->ntenants) &&
         oc__json_u64(trace, "events", t->nevents) && oc__json_num(trace, "span", r->span);
    cJSON *archs = ok ? oc__json_arr(root, "architectures") : NULL;
    ok = archs != NULL;
    for (int a = 0; ok && a < OC__RACK_ARCHS; a++)
        ok = json_arch(archs, s, a, &r->arch[a]);
    cJSON *tenants = ok ? oc__json_arr(root, "tenants") : NULL;
    ok = tenants != NULL;
    for (size_t i = 0; ok && i < t->ntenants; i++) {
        const oc__rack_tenant *x = &t->tenants[i];
        cJSON *o = oc__json_obj(tenants, NULL);
        ok = oc__json_str(o, "id", x->id) && oc__json_u64(o, "gpus", x->gpus) &&
             oc__json_num(o, "arrive", x->arrive) &&
             (x->leave >= 0 ? oc__json_num(o, "leave", x->leave) : oc__json_null(o, "leave"));
        for (int a = 0; ok && a < OC__RACK_ARCHS; a++)
            ok = json_tenant_fate(o, a, &r->tenant[a][i]);
    }
    if (!ok) {
        cJSON_Delete(root);
        root = NULL; /* oc__json_write: out of memory */
    }
    return oc__json_write(f, root, OC__JSON_SPACED, "\n");
}
