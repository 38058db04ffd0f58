/*
 * report.c — the three renderings of a run's result (core/result.h): JSON (the contract of
 * the fields collective ... verified, then the breakdown and notes), readable text,
 * and CSV. The JSON is a cJSON tree (core/json.h: numbers that read back to the same double).
 */
#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

static const char *const cand_status[] = {"mapped", "pruned", "family pruned", "refused",
                                          "over budget"};

/* One candidate of the search log (an element appended to the array or member `key` of `to`). */
static int json_entry(cJSON *to, const char *key, const oc__search_entry *e) {
    cJSON *o = oc__json_obj(to, key);
    int ok = e->params ? oc__json_kv(o, "params", e->params)
                       : oc__json_str(o, "family", e->text) && oc__json_u64(o, "count", e->count);
    ok = ok && oc__json_str(o, "status", cand_status[e->status]);
    if (ok && e->status == OC__CAND_MAPPED)
        ok = oc__json_u64(o, "steps", e->steps) && oc__json_num(o, "time_s", e->time_s);
    if (ok && e->bound_name)
        ok = oc__json_str(o, "bound", e->bound_name) &&
             oc__json_num(o, "bound_time_s", e->bound_time_s) &&
             oc__json_u64(o, "bound_steps", e->bound_steps);
    if (ok && e->reason) ok = oc__json_str(o, "reason", e->reason);
    return ok;
}

/* The "search" field: what the parameter search saw (the whole list with `explain`). */
static int json_search(cJSON *to, const oc__search_log *log) {
    cJSON *o = oc__json_obj(to, "search");
    int ok = oc__json_str(o, "objective", log->objective) &&
             oc__json_u64(o, "mapped", log->mapped) && oc__json_u64(o, "pruned", log->pruned) &&
             oc__json_u64(o, "families_pruned", log->families) &&
             oc__json_u64(o, "refused", log->refused) &&
             oc__json_u64(o, "over_budget", log->over) &&
             json_entry(o, "winner", &log->entry[log->winner]) &&
             (log->runner_up < log->n ? json_entry(o, "runner_up", &log->entry[log->runner_up])
                                      : oc__json_null(o, "runner_up")) &&
             oc__json_str(o, "why", log->why_won ? log->why_won : "");
    if (ok && log->explain) {
        cJSON *all = oc__json_arr(o, "candidates");
        ok = all != NULL;
        for (size_t i = 0; ok && i < log->n; i++)
            ok = json_entry(all, NULL, &log->entry[i]);
    }
    return ok;
}

/* "physical_bound": {steps, time_s, argument, steps_argument, time_argument} or null, and
 * "to_physical_bound_ratio": this run's time over the bound's (null when there is no bound or it
 * is 0), then "likely_loose" ("schedule", "bound", "both": oc_physical_bound_loose) only where
 * that ratio is above OC_LOOSE_RATIO, the text's threshold. The bound holds for every schedule
 * of the network (src/bounds); steps_lower_bound is the model's bound on this one schedule. */
static int json_pbound(cJSON *o, const oc_report *r) {
    oc_physical_bound_info info;
    if (!oc_report_physical_bound(r, &info))
        return oc__json_null(o, "physical_bound") && oc__json_null(o, "to_physical_bound_ratio");
    char arg[320];
    snprintf(arg, sizeof arg, "steps: %s; time: %s", r->pbound_steps_arg, r->pbound_time_arg);
    cJSON *b = oc__json_obj(o, "physical_bound");
    const int has_ratio = r->pbound_time_s > 0;
    const double ratio = has_ratio ? r->time_s / r->pbound_time_s : 0;
    const oc_loose_side loose = has_ratio ? oc_physical_bound_loose(&info, ratio, NULL)
                                          : OC_LOOSE_NONE;
    return b && oc__json_u64(b, "steps", r->pbound_steps) &&
           oc__json_num(b, "time_s", r->pbound_time_s) && oc__json_str(b, "argument", arg) &&
           oc__json_str(b, "steps_argument", r->pbound_steps_arg) &&
           oc__json_str(b, "time_argument", r->pbound_time_arg) &&
           (has_ratio ? oc__json_num(o, "to_physical_bound_ratio", ratio)
                      : oc__json_null(o, "to_physical_bound_ratio")) &&
           (loose == OC_LOOSE_NONE || oc__json_str(o, "likely_loose", oc_loose_side_name(loose)));
}

/* A number the report may not have: the value, or null. */
static int json_maybe(cJSON *o, const char *key, int has, double v) {
    return has ? oc__json_num(o, key, v) : oc__json_null(o, key);
}

cJSON *oc__report_json(const oc_report *r) {
    cJSON *o = cJSON_CreateObject();
    int ok =
        oc__json_str(o, "collective", r->collective) &&
        oc__json_str(o, "algorithm", r->algorithm) &&
        oc__json_str(o, "network", r->network[0] ? r->network : NULL) &&
        oc__json_u64(o, "nodes", r->nodes) && oc__json_u64(o, "bytes", r->bytes) &&
        oc__json_kv(o, "params", r->params) && oc__json_kv(o, "network_params", r->net_params) &&
        oc__json_u64(o, "chunks", r->chunks) && oc__json_u64(o, "chunk_bytes", r->chunk_bytes) &&
        oc__json_u64(o, "rounds", r->rounds) && oc__json_u64(o, "transfers", r->transfers) &&
        oc__json_u64(o, "chunk_transfers", r->units) && oc__json_u64(o, "steps", r->steps) &&
        json_maybe(o, "steps_formula", r->has_formula, r->steps_formula) &&
        (r->has_lb ? oc__json_u64(o, "steps_lower_bound", r->steps_lb)
                   : oc__json_null(o, "steps_lower_bound")) &&
        oc__json_num(o, "time_s", r->time_s) &&
        json_maybe(o, "time_formula_s", r->has_time_formula, r->time_formula_s) &&
        json_pbound(o, r) &&
        /* "s": the *_s fields hold seconds; "tau": the star's unitless times, in units of tau */
        oc__json_str(o, "time_unit", oc_report_time_unit(r, NULL) ? oc_report_time_unit(r, NULL)
                                                                  : "s") &&
        oc__json_bool(o, "verified", r->verified) &&
        oc__json_bool(o, "data_checked", r->data_checked) &&
        (!r->data_note[0] || oc__json_str(o, "data_check_note", r->data_note)) &&
        oc__json_u64(o, "redundant_deliveries", r->redundant);
    cJSON *figures = ok ? oc__json_obj(o, "figures") : NULL;
    ok = figures != NULL;
    for (size_t i = 0; ok && i < r->nnums; i++)
        ok = oc__json_num(figures, r->nums[i].key, r->nums[i].value);
    cJSON *notes = ok ? oc__json_arr(o, "notes") : NULL;
    ok = notes != NULL;
    for (size_t i = 0; ok && i < r->nnotes; i++)
        ok = oc__json_str(notes, NULL, r->notes[i]);
    if (ok && r->links_json) ok = oc__json_raw(o, "links", r->links_json);
    if (ok && r->search) ok = json_search(o, r->search);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

int oc_report_write_json(const oc_report *r, FILE *f) {
    return oc__json_write(f, oc__report_json(r), OC__JSON_SPACED, "\n");
}

/* ---- text ---- */

size_t oc_report_format_time(const oc_report *r, char *buf, size_t len, double t) {
    double v;
    const char *unit = oc_report_time_unit(r, &v);
    return oc_format_time(buf, len, t, unit, v);
}

/* The five largest entries of a links array by busy_s (ties: the earlier first), into top[]. */
static size_t links_top5(const cJSON *arr, const cJSON **top) {
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        double v = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "busy_s"));
        if (!(v > 0)) continue;
        if (n == 5 && v <= cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(top[4], "busy_s")))
            continue;
        size_t k = n < 5 ? n++ : 4;
        while (k > 0 &&
               cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(top[k - 1], "busy_s")) < v) {
            top[k] = top[k - 1];
            k--;
        }
        top[k] = e;
    }
    return n;
}

/* `run --links` as text, from the "links" object run/links.c put in the result: the totals, the
 * hottest positions (mean over their classes) and the hottest single resources, five each.
 * 0 or OC_ENOMEM. */
static int write_links_text(const char *links_json, FILE *f) {
    cJSON *js = cJSON_Parse(links_json); /* written by links.c: only memory can fail here */
    if (!js) return OC_ENOMEM;
#define NUM(key) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(js, key))
#define STR(o, key) cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key))
    const double T = NUM("total_time_s"), cells = NUM("count");
    const double C = NUM("classes");
    fprintf(f,
            "  links:       %.0f resources (%s): %llu busy at some time, mean utilisation "
            "%.2f %%, peak %.2f %%\n",
            cells, STR(js, "resources"), (unsigned long long)NUM("busy_resources"),
            100 * NUM("mean_utilisation"), 100 * NUM("max_utilisation"));
    fprintf(f, "  hottest %s (mean over its %.0f %s):\n", STR(js, "position"), C,
            STR(js, "class"));
    const cJSON *top[5];
#define BUSY(o) cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, "busy_s"))
    size_t n = links_top5(cJSON_GetObjectItemCaseSensitive(js, "per_position"), top);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "    %-36s %6.2f %%\n", STR(top[k], "name"),
                T > 0 ? 100 * BUSY(top[k]) / T : 0.0);
    const cJSON *hot = cJSON_GetObjectItemCaseSensitive(js, "hottest"), *e;
    if (C > 1) fputs("  hottest resources:\n", f);
    n = 0;
    cJSON_ArrayForEach(e, hot) {
        if (C <= 1 || n++ == 5) break;
        fprintf(f, "    %-52s %6.2f %%\n", STR(e, "name"), T > 0 ? 100 * BUSY(e) / T : 0.0);
    }
#undef BUSY
#undef NUM
#undef STR
    cJSON_Delete(js);
    return 0;
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
            fprintf(f, " (%s %s)", r->time_formula_label ? r->time_formula_label : "seed formula",
                    t2);
        }
        fputc('\n', f);
        if (r->has_pbound) {
            /* the network's bound for every schedule, beside this run */
            oc_report_format_time(r, t1, sizeof t1, r->pbound_time_s);
            fprintf(f, "  physical bound: %llu steps (%s), %s (%s)", (unsigned long long)r->pbound_steps,
                    r->pbound_steps_arg, t1, r->pbound_time_arg);
            if (r->pbound_time_s > 0) {
                const double ratio = r->time_s / r->pbound_time_s;
                oc_physical_bound_info info;
                const char *reason = "";
                fprintf(f, "; this run %.2f x the time bound", ratio);
                /* where the gap is above the threshold, which side is likely loose, as the JSON's
                 * "likely_loose" and compare's gap line say it */
                if (oc_report_physical_bound(r, &info) &&
                    oc_physical_bound_loose(&info, ratio, &reason) != OC_LOOSE_NONE)
                    fprintf(f, "; likely loose: %s", reason);
            }
            fputc('\n', f);
        }
    }
    fprintf(f, "  verified:    %s (semantic verifier%s%s)\n", r->verified ? "yes" : "NO",
            r->network[0] ? " + resource check" : "", r->data_checked ? " + real-data run" : "");
    if (r->data_note[0]) fprintf(f, "  data check:  %s\n", r->data_note);
    /* The figures for a person: a time (a key ending _s: seconds in the JSON) is printed in
     * its own unit (25.947 us; 34 tau on the star) under its name without the _s, which would
     * say seconds beside a number in microseconds; a ratio (key ending _ratio) as one, 1.000 x. */
    for (size_t i = 0; i < r->nnums; i++) {
        const char *k = r->nums[i].key;
        size_t kl = strlen(k);
        if (kl > 2 && strcmp(k + kl - 2, "_s") == 0) {
            oc_report_format_time(r, t1, sizeof t1, r->nums[i].value);
            fprintf(f, "  %-28.*s %s\n", (int)(kl - 2), k, t1);
        } else if (kl > 6 && strcmp(k + kl - 6, "_ratio") == 0) {
            fprintf(f, "  %-28s %.3f x\n", k, r->nums[i].value);
        } else {
            fprintf(f, "  %-28s %.6g\n", k, r->nums[i].value);
        }
    }
    for (size_t i = 0; i < r->nnotes; i++)
        fprintf(f, "  note: %s\n", r->notes[i]);
    if (r->links_json && write_links_text(r->links_json, f)) return OC_ENOMEM;
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
              "steps_lower_bound,time_s,time_formula_s,physical_bound_steps,physical_bound_time_s,"
              "to_physical_bound_ratio,likely_loose,verified,note\n",
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
    /* the network's bound for every schedule (src/bounds), and this run's time over it */
    /* then the side likely loose where the ratio is above OC_LOOSE_RATIO, as --json's
     * "likely_loose" (json_pbound), empty elsewhere */
    oc_physical_bound_info info;
    if (r->has_pbound && oc_report_physical_bound(r, &info)) {
        fprintf(f, ",%llu,%.9g,", (unsigned long long)r->pbound_steps, r->pbound_time_s);
        oc_loose_side loose = OC_LOOSE_NONE;
        if (r->pbound_time_s > 0) {
            const double ratio = r->time_s / r->pbound_time_s;
            fprintf(f, "%.6g", ratio);
            loose = oc_physical_bound_loose(&info, ratio, NULL);
        }
        fputc(',', f);
        if (loose != OC_LOOSE_NONE) fputs(oc_loose_side_name(loose), f);
    } else {
        fputs(",,,,", f);
    }
    fprintf(f, ",%s,\n", r->verified ? "true" : "false");
    return ferror(f) ? OC_EIO : 0;
}
