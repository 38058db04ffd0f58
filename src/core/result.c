/*
 * result.c — the record one run returns (oc_report, core/result.h): created empty, filled by the
 * pipeline, the algorithm's closed forms and the network model's costing, read through the public
 * accessors. Writing it out (JSON, text, CSV) is the report room's job (src/report/report.c).
 */
#include "core/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

oc_report *oc__report_new(void) {
    oc_report *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->params = oc_kv_new();
    r->net_params = oc_kv_new();
    if (!r->params || !r->net_params) {
        oc_report_free(r);
        return NULL;
    }
    return r;
}

void oc_report_free(oc_report *r) {
    if (!r) return;
    oc_kv_free(r->params);
    oc_kv_free(r->net_params);
    free(r->nums);
    for (size_t i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    free(r->notes);
    free(r->links_json);
    oc__search_log_free(r->search);
    free(r);
}

int oc__report_num(oc_report *r, const char *key, double value) {
    for (size_t i = 0; i < r->nnums; i++)
        if (strcmp(r->nums[i].key, key) == 0) {
            r->nums[i].value = value;
            return 0;
        }
    if (oc__grow((void **)&r->nums, &r->capnums, r->nnums + 1, sizeof(oc__num))) return OC_ENOMEM;
    oc__num *n = &r->nums[r->nnums++];
    snprintf(n->key, sizeof n->key, "%s", key);
    n->value = value;
    return 0;
}

int oc__report_note(oc_report *r, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (oc__grow((void **)&r->notes, &r->capnotes, r->nnotes + 1, sizeof(char *))) return OC_ENOMEM;
    r->notes[r->nnotes] = strdup(buf);
    if (!r->notes[r->nnotes]) return OC_ENOMEM;
    r->nnotes++;
    return 0;
}

uint64_t oc_report_steps(const oc_report *r) {
    return r->steps;
}
uint64_t oc_report_rounds(const oc_report *r) {
    return r->rounds;
}
int oc_report_steps_formula(const oc_report *r, double *out) {
    if (r->has_formula) *out = r->steps_formula;
    return r->has_formula;
}
int oc_report_steps_lower_bound(const oc_report *r, uint64_t *out) {
    if (r->has_lb) *out = r->steps_lb;
    return r->has_lb;
}
int oc_report_physical_bound(const oc_report *r, oc_physical_bound_info *out) {
    if (r->has_pbound) {
        double unit_value;
        const char *unit = oc_report_time_unit(r, &unit_value);
        *out = (oc_physical_bound_info){r->pbound_steps,    r->pbound_time_s,   r->pbound_steps_arg,
                                        r->pbound_time_arg, r->pbound_gap_side, unit,
                                        unit_value};
    }
    return r->has_pbound;
}
double oc_report_time(const oc_report *r) {
    return r->time_s;
}
const char *oc_report_time_unit(const oc_report *r, double *value) {
    if (value) *value = r->time_unit[0] ? r->time_unit_value : 1;
    return r->time_unit[0] ? r->time_unit : NULL;
}
int oc_report_verified(const oc_report *r) {
    return r->verified;
}
int oc_report_data_checked(const oc_report *r) {
    return r->data_checked;
}
const oc_kv *oc_report_params(const oc_report *r) {
    return r->params;
}
const oc_kv *oc_report_network_params(const oc_report *r) {
    return r->net_params;
}
const char *oc_report_param(const oc_report *r, const char *key) {
    return oc_kv_get(r->params, key);
}
int oc_report_number(const oc_report *r, const char *key, double *out) {
    for (size_t i = 0; i < r->nnums; i++)
        if (strcmp(r->nums[i].key, key) == 0) {
            *out = r->nums[i].value;
            return 1;
        }
    return 0;
}


void oc__search_log_free(oc__search_log *log) {
    if (!log) return;
    for (size_t i = 0; i < log->n; i++) {
        oc_kv_free(log->entry[i].params);
        free(log->entry[i].text);
        free(log->entry[i].reason);
    }
    free(log->entry);
    free(log->why_won);
    free(log);
}
