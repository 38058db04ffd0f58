/*
 * repro_out.h — what the reproduction tests (tests/test_repro_*.c) share: one `reproduce PAPER`
 * through the C API captured in memory (its text, figures, claims, return code and reason), and
 * has(), a printf-style "the text contains this" that prints what was missing.
 */
#ifndef OC_TESTS_REPRO_OUT_H
#define OC_TESTS_REPRO_OUT_H

#include <opticoll.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
    char *text;
    size_t len;
    oc_figures *figs;
    int rc;
    char why[512];
} out;

static inline void repro_run(out *o, const char *paper, const oc_reproduce_settings *set) {
    memset(o, 0, sizeof *o);
    FILE *f = open_memstream(&o->text, &o->len);
    o->rc = oc_reproduce_collect(paper, set, f, &o->figs, o->why, sizeof o->why);
    fclose(f);
}

static inline void out_free(out *o) {
    free(o->text);
    oc_figures_free(o->figs);
}

static int has(const char *text, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int has(const char *text, const char *fmt, ...) {
    char want[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    int ok = text && strstr(text, want) != NULL;
    if (!ok) printf("  missing: \"%s\"\n", want);
    return ok;
}

#endif
