/*
 * report.c — the three renderings of a run's result (core/result.h): JSON (the contract of
 * DESIGN.md: the fields collective ... verified, then the breakdown and notes), readable text,
 * and CSV.
 */
#include "report/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

void oc_write_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Numbers: integers exactly, others with 9 significant digits; never NaN or Inf in JSON. */
static void json_number(FILE *f, double v) {
    if (!isfinite(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 1e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

void oc__json_kv(FILE *f, const oc_kv *kv) {
    fputc('{', f);
    for (size_t i = 0; i < oc_kv_count(kv); i++) {
        if (i) fputs(", ", f);
        oc_write_json_string(f, oc_kv_key(kv, i));
        fputs(": ", f);
        oc_write_json_string(f, oc_kv_value(kv, i));
    }
    fputc('}', f);
}

static const char *const cand_status[] = {"mapped", "pruned", "family pruned", "refused",
                                         "over budget"};

static void json_entry(FILE *f, const oc__search_entry *e) {
    if (e->params) {
        fputs("{\"params\": ", f);
        oc__json_kv(f, e->params);
    } else {
        fputs("{\"family\": ", f);
        oc_write_json_string(f, e->text);
        fprintf(f, ", \"count\": %llu", (unsigned long long)e->count);
    }
    fputs(", \"status\": ", f);
    oc_write_json_string(f, cand_status[e->status]);
    if (e->status == OC__CAND_MAPPED) {
        fprintf(f, ", \"steps\": %llu, \"time_s\": ", (unsigned long long)e->steps);
        json_number(f, e->time_s);
    }
    if (e->bound_name) {
        fputs(", \"bound\": ", f);
        oc_write_json_string(f, e->bound_name);
        fputs(", \"bound_time_s\": ", f);
        json_number(f, e->bound_time_s);
        fprintf(f, ", \"bound_steps\": %llu", (unsigned long long)e->bound_steps);
    }
    if (e->reason) {
        fputs(", \"reason\": ", f);
        oc_write_json_string(f, e->reason);
    }
    fputc('}', f);
}

/* The "search" field: what the parameter search saw (the whole list with `explain`). */
static void json_search(FILE *f, const oc__search_log *log) {
    fputs(", \"search\": {\"objective\": ", f);
    oc_write_json_string(f, log->objective);
    fprintf(f,
            ", \"mapped\": %llu, \"pruned\": %llu, \"families_pruned\": %llu, \"refused\": "
            "%llu, \"over_budget\": %llu, \"winner\": ",
            (unsigned long long)log->mapped, (unsigned long long)log->pruned,
            (unsigned long long)log->families, (unsigned long long)log->refused,
            (unsigned long long)log->over);
    json_entry(f, &log->entry[log->winner]);
    fputs(", \"runner_up\": ", f);
    if (log->runner_up < log->n)
        json_entry(f, &log->entry[log->runner_up]);
    else
        fputs("null", f);
    fputs(", \"why\": ", f);
    oc_write_json_string(f, log->why_won ? log->why_won : "");
    if (log->explain) {
        fputs(", \"candidates\": [", f);
        for (size_t i = 0; i < log->n; i++) {
            if (i) fputs(", ", f);
            json_entry(f, &log->entry[i]);
        }
        fputc(']', f);
    }
    fputc('}', f);
}

int oc_report_write_json(const oc_report *r, FILE *f) {
    fputs("{\"collective\": ", f);
    oc_write_json_string(f, r->collective);
    fputs(", \"algorithm\": ", f);
    oc_write_json_string(f, r->algorithm);
    fputs(", \"network\": ", f);
    if (r->network[0])
        oc_write_json_string(f, r->network);
    else
        fputs("null", f);
    fprintf(f, ", \"nodes\": %u, \"bytes\": %llu, \"params\": ", r->nodes,
            (unsigned long long)r->bytes);
    oc__json_kv(f, r->params);
    fputs(", \"network_params\": ", f);
    oc__json_kv(f, r->net_params);
    fprintf(f, ", \"chunks\": %u, \"chunk_bytes\": %llu", r->chunks,
            (unsigned long long)r->chunk_bytes);
    fprintf(f, ", \"rounds\": %llu, \"transfers\": %llu, \"chunk_transfers\": %llu",
            (unsigned long long)r->rounds, (unsigned long long)r->transfers,
            (unsigned long long)r->units);
    fprintf(f, ", \"steps\": %llu, \"steps_formula\": ", (unsigned long long)r->steps);
    if (r->has_formula)
        json_number(f, r->steps_formula);
    else
        fputs("null", f);
    fputs(", \"steps_lower_bound\": ", f);
    if (r->has_lb)
        fprintf(f, "%llu", (unsigned long long)r->steps_lb);
    else
        fputs("null", f);
    fputs(", \"time_s\": ", f);
    json_number(f, r->time_s);
    fputs(", \"time_formula_s\": ", f);
    if (r->has_time_formula)
        json_number(f, r->time_formula_s);
    else
        fputs("null", f);
    fprintf(f, ", \"verified\": %s, \"data_checked\": %s", r->verified ? "true" : "false",
            r->data_checked ? "true" : "false");
    if (r->data_note[0]) {
        fputs(", \"data_check_note\": ", f);
        oc_write_json_string(f, r->data_note);
    }
    fprintf(f, ", \"redundant_deliveries\": %llu", (unsigned long long)r->redundant);
    fputs(", \"figures\": {", f);
    for (size_t i = 0; i < r->nnums; i++) {
        if (i) fputs(", ", f);
        oc_write_json_string(f, r->nums[i].key);
        fputs(": ", f);
        json_number(f, r->nums[i].value);
    }
    fputs("}, \"notes\": [", f);
    for (size_t i = 0; i < r->nnotes; i++) {
        if (i) fputs(", ", f);
        oc_write_json_string(f, r->notes[i]);
    }
    fputs("]", f);
    if (r->links_json) fprintf(f, ", \"links\": %s", r->links_json);
    if (r->search) json_search(f, r->search);
    fputs("}\n", f);
    return ferror(f) ? OC_EIO : 0;
}

/* ---- text ---- */

void oc_format_seconds(char *buf, size_t len, double s) {
    if (s == 0)
        snprintf(buf, len, "0 s");
    else if (s < 1e-3)
        snprintf(buf, len, "%.3f us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f s", s);
}

void oc_format_time(char *buf, size_t len, double t, const char *unit, double unit_value) {
    if (!unit || !unit[0])
        oc_format_seconds(buf, len, t);
    else
        snprintf(buf, len, "%.6g %s", unit_value > 0 ? t / unit_value : t, unit);
}

void oc_report_format_time(const oc_report *r, char *buf, size_t len, double t) {
    double v;
    const char *unit = oc_report_time_unit(r, &v);
    oc_format_time(buf, len, t, unit, v);
}

int oc_report_write_text(const oc_report *r, FILE *f) {
    char t1[32], t2[32];
    fprintf(f, "%s / %s on %s, %u nodes, %llu bytes\n", r->collective, r->algorithm,
            r->network[0] ? r->network : "(no network)", r->nodes, (unsigned long long)r->bytes);
    if (oc_kv_count(r->params)) {
        fputs("  parameters:  ", f);
        for (size_t i = 0; i < oc_kv_count(r->params); i++)
            fprintf(f, "%s%s=%s", i ? " " : "", oc_kv_key(r->params, i), oc_kv_value(r->params, i));
        fputc('\n', f);
    }
    if (oc_kv_count(r->net_params)) {
        fputs("  network:     ", f);
        for (size_t i = 0; i < oc_kv_count(r->net_params); i++)
            fprintf(f, "%s%s=%s", i ? " " : "", oc_kv_key(r->net_params, i),
                    oc_kv_value(r->net_params, i));
        fputc('\n', f);
    }
    fprintf(f, "  schedule:    %llu rounds, %llu transfers, %llu chunk-transfers, %u chunks\n",
            (unsigned long long)r->rounds, (unsigned long long)r->transfers,
            (unsigned long long)r->units, r->chunks);
    if (r->network[0]) {
        fprintf(f, "  steps:       %llu mapped", (unsigned long long)r->steps);
        if (r->has_lb) fprintf(f, ", lower bound %llu", (unsigned long long)r->steps_lb);
        if (r->has_formula) fprintf(f, ", seed formula %.0f", r->steps_formula);
        fputc('\n', f);
        oc_report_format_time(r, t1, sizeof t1, r->time_s);
        fprintf(f, "  time:        %s", t1);
        if (r->has_time_formula) {
            oc_report_format_time(r, t2, sizeof t2, r->time_formula_s);
            fprintf(f, " (seed formula %s)", t2);
        }
        fputc('\n', f);
    }
    fprintf(f, "  verified:    %s (semantic verifier%s%s)\n", r->verified ? "yes" : "NO",
            r->network[0] ? " + resource check" : "", r->data_checked ? " + real-data run" : "");
    if (r->data_note[0]) fprintf(f, "  data check:  %s\n", r->data_note);
    for (size_t i = 0; i < r->nnums; i++) {
        const char *k = r->nums[i].key;
        size_t kl = strlen(k);
        if (kl > 2 && strcmp(k + kl - 2, "_s") == 0) {
            oc_report_format_time(r, t1, sizeof t1, r->nums[i].value);
            fprintf(f, "  %-28s %s\n", k, t1);
        } else {
            fprintf(f, "  %-28s %.6g\n", k, r->nums[i].value);
        }
    }
    for (size_t i = 0; i < r->nnotes; i++)
        fprintf(f, "  note: %s\n", r->notes[i]);
    if (r->links_text) fputs(r->links_text, f);
    return ferror(f) ? OC_EIO : 0;
}

int oc_report_write_search(const oc_report *r, FILE *f) {
    const oc__search_log *log = r->search;
    if (!log) return ferror(f) ? OC_EIO : 0;
    char t[32], b[32];
    fprintf(f, "search (objective: %s): %llu mapped, %llu pruned by a proven bound, %llu families "
               "pruned, %llu refused, %llu over the search budget\n",
            log->objective, (unsigned long long)log->mapped, (unsigned long long)log->pruned,
            (unsigned long long)log->families, (unsigned long long)log->refused,
            (unsigned long long)log->over);
    fprintf(f, "  winner: %s\n", log->why_won ? log->why_won : "");
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        fprintf(f, "  %-13s %s", i == log->winner ? "WINNER" : cand_status[e->status], e->text);
        if (e->status == OC__CAND_MAPPED) {
            oc_format_time(t, sizeof t, e->time_s, log->time_unit, log->time_unit_value);
            fprintf(f, " -> %llu steps, %s", (unsigned long long)e->steps, t);
        }
        if (e->bound_name) {
            oc_format_time(b, sizeof b, e->bound_time_s, log->time_unit, log->time_unit_value);
            fprintf(f, " [bound %s, %llu steps: %s]", b, (unsigned long long)e->bound_steps,
                    e->bound_name);
        }
        if (e->count) fprintf(f, " (%llu candidates)", (unsigned long long)e->count);
        if (e->reason) fprintf(f, " (%s)", e->reason);
        fputc('\n', f);
    }
    return ferror(f) ? OC_EIO : 0;
}

int oc_report_write_csv(const oc_report *r, FILE *f, int header) {
    if (header)
        fputs("collective,algorithm,network,nodes,bytes,params,rounds,steps,steps_formula,"
              "steps_lower_bound,time_s,time_formula_s,verified,note\n",
              f);
    if (!r) return ferror(f) ? OC_EIO : 0;
    fprintf(f, "%s,%s,%s,%u,%llu,\"", r->collective, r->algorithm, r->network, r->nodes,
            (unsigned long long)r->bytes);
    for (size_t i = 0; i < oc_kv_count(r->params); i++)
        fprintf(f, "%s%s=%s", i ? " " : "", oc_kv_key(r->params, i), oc_kv_value(r->params, i));
    fprintf(f, "\",%llu,%llu,", (unsigned long long)r->rounds, (unsigned long long)r->steps);
    if (r->has_formula) fprintf(f, "%.0f", r->steps_formula);
    fputc(',', f);
    if (r->has_lb) fprintf(f, "%llu", (unsigned long long)r->steps_lb);
    fprintf(f, ",%.9g,", r->time_s);
    if (r->has_time_formula) fprintf(f, "%.9g", r->time_formula_s);
    fprintf(f, ",%s,\n", r->verified ? "true" : "false");
    return ferror(f) ? OC_EIO : 0;
}
