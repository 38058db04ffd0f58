/*
 * reproduce.c — `opticoll reproduce PAPER`: the table of reproducible seed papers.
 *
 * Every reproduction prints a seed paper's tables and figures three ways — the paper's printed
 * value, the paper's formula evaluated by us, our simulated value on a verified schedule — with a
 * one-line reason for every difference (the papers are not always right). Each paper
 * is one function in its own file (reproduce_optree.c, reproduce_wrht.c), built from the shared
 * tables and runs of reproduce_common.c; this file lists them, dispatches by name ("all" runs
 * every one in the order of the table), refuses the settings (-w, -n, --sizes, -t) a paper does
 * not take, and prints each paper's claims table (its headline numbers against ours) before the
 * paper's own tables. Adding a paper is one file and one line here.
 */
#include "core/quote.h"
#include "reproduce/reproduce_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct paper {
    const char *name;
    unsigned takes; /* the settings it honours (OC_SETTING_*) */
    int (*reproduce)(oc__repro *r, FILE *f, char *why, size_t whylen);
} paper;

static const paper papers[] = {
    {"optree", OC_SETTING_WAVELENGTHS | OC_SETTING_NODES | OC_SETTING_SIZES, oc__reproduce_optree},
    {"wrht", OC_SETTING_WAVELENGTHS | OC_SETTING_NODES | OC_SETTING_SIZES, oc__reproduce_wrht},
    {"star", OC_SETTING_NODES | OC_SETTING_WAVELENGTHS, oc__reproduce_star},
    {"lumorph", OC_SETTING_NODES | OC_SETTING_SIZES, oc__reproduce_lumorph},
    {"aas", OC_SETTING_NODES | OC_SETTING_NETWORK, oc__reproduce_aas},
    {"optima", 0, oc__reproduce_optima},
};

enum { NPAPERS = sizeof papers / sizeof papers[0] };

static const struct {
    unsigned bit;
    const char *flag;
} setting_flags[] = {{OC_SETTING_WAVELENGTHS, "-w"},
                     {OC_SETTING_NODES, "-n"},
                     {OC_SETTING_SIZES, "--sizes"},
                     {OC_SETTING_NETWORK, "-t"}};

static unsigned settings_given(const oc_reproduce_settings *s) {
    if (!s) return 0;
    return (s->wavelengths ? OC_SETTING_WAVELENGTHS : 0u) | (s->nodes ? OC_SETTING_NODES : 0u) |
           (s->sizes ? OC_SETTING_SIZES : 0u) | (s->network ? OC_SETTING_NETWORK : 0u);
}

/* Refuses the settings paper p does not take, naming those it does. */
static int check_settings(const paper *p, unsigned given, char *why, size_t whylen) {
    unsigned extra = given & ~p->takes;
    if (!extra) return 0;
    char takes[64] = "", bad[16] = "";
    for (size_t i = 0; i < sizeof setting_flags / sizeof setting_flags[0]; i++) {
        if (p->takes & setting_flags[i].bit)
            oc__reason_add(takes, sizeof takes, "%s", setting_flags[i].flag);
        if (!bad[0] && (extra & setting_flags[i].bit))
            snprintf(bad, sizeof bad, "%s", setting_flags[i].flag);
    }
    for (char *c = takes; (c = strstr(c, "; ")) != NULL; c++)
        *c = ',';
    return oc__fail(why, whylen, OC_EINVAL,
                    "reproduce %s: %s is not a setting of this paper (%s%s)", p->name, bad,
                    takes[0] ? "it takes " : "it takes none", takes);
}

/* One paper: its body is written to memory first, so that the claims table, whose values come
 * from the body's experiments, can be printed before it. */
static int run_one(const paper *p, const oc_reproduce_settings *set, FILE *f, char *why,
                   size_t whylen) {
    oc__repro r;
    memset(&r, 0, sizeof r);
    if (set) r.set = *set;
    char *body = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&body, &len);
    if (!mem) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    oc__batch_progress(r.set.progress, r.set.progress_ctx); /* this call's batches report */
    int rc = p->reproduce(&r, mem, why, whylen);
    oc__batch_progress(NULL, NULL);
    if (fclose(mem) && !rc) rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    if (!rc) {
        oc__claims_print(&r.claims, f);
        oc__wrap_text(f, body, len); /* the prose to the page's width, as the tables are */
    }
    free(body);
    oc__figures_take_claims(&r.claims);
    oc__claims_clear(&r.claims);
    return rc;
}

static int reproduce_with_in(const char *name, const oc_reproduce_settings *settings, FILE *f,
                             char *why, size_t whylen) {
    if (why && whylen) why[0] = 0;
    if (!name || !f) return oc__fail(why, whylen, OC_EINVAL, "reproduce: no paper or no output");
    int all = strcmp(name, "all") == 0;
    const unsigned given = settings_given(settings);
    for (size_t i = 0; i < NPAPERS; i++) {
        if (!all && strcmp(name, papers[i].name) != 0) continue;
        /* "all" with settings runs the papers that take them all */
        if (all && (given & ~papers[i].takes)) continue;
        int rc = check_settings(&papers[i], given, why, whylen);
        if (rc) return rc;
        if (all && i) fputc('\n', f);
        rc = run_one(&papers[i], settings, f, why, whylen);
        if (rc || !all) return rc;
    }
    if (all) return 0;
    char known[256] = "";
    for (size_t i = 0; i < NPAPERS; i++)
        oc__reason_add(known, sizeof known, "%s", papers[i].name);
    for (char *c = known; (c = strstr(c, "; ")) != NULL; c++)
        *c = ',';
    return oc__fail(why, whylen, OC_ENOENT, "unknown paper '%s' (known: %s, all)", OC_Q(name),
                    known);
}

int oc_reproduce_with(const char *name, const oc_reproduce_settings *settings, FILE *f, char *why,
                      size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(settings ? settings->library : NULL, &prev, why, whylen);
    if (!rc) rc = reproduce_with_in(name, settings, f, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

int oc_reproduce(const char *name, FILE *f, char *why, size_t whylen) {
    return oc_reproduce_with(name, NULL, f, why, whylen);
}

size_t oc_paper_count(void) {
    return NPAPERS;
}

const char *oc_paper_name(size_t i) {
    return i < NPAPERS ? papers[i].name : NULL;
}

unsigned oc_paper_settings(size_t i) {
    return i < NPAPERS ? papers[i].takes : 0;
}

typedef struct paper_call {
    const char *paper;
    const oc_reproduce_settings *settings;
    FILE *f;
} paper_call;

static int run_paper(void *arg, char *why, size_t whylen) {
    const paper_call *p = arg;
    return oc_reproduce_with(p->paper, p->settings, p->f, why, whylen);
}

int oc_reproduce_collect(const char *name, const oc_reproduce_settings *settings, FILE *f,
                         oc_figures **out, char *why, size_t whylen) {
    if (!out || !name || !strcmp(name, "all"))
        return oc__fail(why, whylen, OC_EINVAL, "reproduce: figures are collected per paper");
    paper_call p = {name, settings, f};
    return oc__figures_collect(run_paper, &p, out, why, whylen);
}
