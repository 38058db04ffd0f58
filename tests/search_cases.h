/*
 * search_cases.h — what the search tests (test_search_wrht.c, test_search_aasdims.c) share: a run's
 * cost, pinned parameters written as words, the contract's equal times, and the check that every
 * bound the search used on a mapped candidate is below that candidate's mapped cost.
 */
#ifndef OC_TESTS_SEARCH_CASES_H
#define OC_TESTS_SEARCH_CASES_H

#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

typedef struct cost {
    double time;
    uint64_t steps;
    int ok;
} cost;

/* Sets the space-separated key=value words of `text` in kv. */
static void kv_words(oc_kv *kv, const char *text) {
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text ? text : "");
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        oc_kv_set_pair(kv, tok);
}

/* Runs req; its cost (ok = 0 and the reason in why when refused). With keep, a mapped run's
 * report is handed over; otherwise it is freed. */
static cost cost_of(const oc_request *req, oc_report **keep, char *why, size_t len) {
    oc_report *rep = NULL;
    cost c = {0, 0, 0};
    if (oc_run(req, &rep, why, len) == 0) {
        c.time = oc_report_time(rep);
        c.steps = oc_report_steps(rep);
        c.ok = 1;
    }
    if (keep && c.ok)
        *keep = rep;
    else
        oc_report_free(rep);
    return c;
}

/* The search contract's equal times: within 1e-9 relative. */
static int same_time(double a, double b) {
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* Every mapped candidate's bound must be at most its mapped cost (the bounds are proofs). */
static void check_bounds(const oc_report *rep, const char *what) {
    const oc__search_log *log = rep->search;
    for (size_t i = 0; log && i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status == OC__CAND_MAPPED)
            CHECK(e->bound_time_s <= e->time_s * (1 + 1e-12) && e->bound_steps <= e->steps,
                  "%s: candidate %s bound %.9g s %llu steps above its mapped %.9g s %llu steps",
                  what, e->text, e->bound_time_s, (unsigned long long)e->bound_steps, e->time_s,
                  (unsigned long long)e->steps);
    }
}

#endif
