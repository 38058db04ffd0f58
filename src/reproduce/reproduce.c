/*
 * reproduce.c — `opticoll reproduce PAPER`: the table of reproducible seed papers.
 *
 * Every reproduction prints a seed paper's tables and figures three ways — the paper's printed
 * value, the paper's formula evaluated by us, our simulated value on a verified schedule — with a
 * one-line reason for every difference (DESIGN.md, "The papers are not always right"). Each paper
 * is one function in its own file (reproduce_optree.c, reproduce_wrht.c), built from the shared
 * tables and runs of reproduce_common.c; this file only lists them and dispatches by name, "all"
 * running every one in the order of the table. Adding "lumorph", "star" or "aas" is one file and
 * one line here.
 */
#include "core/quote.h"
#include "reproduce/reproduce_common.h"

#include <string.h>

typedef struct paper {
    const char *name;
    int (*reproduce)(FILE *f, char *why, size_t whylen);
} paper;

/* One line per reproducible seed. "lumorph", "star" and "aas" join here. */
int oc__reproduce_star(FILE *f, char *why, size_t whylen);
int oc__reproduce_lumorph(FILE *f, char *why, size_t whylen);
int oc__reproduce_aas(FILE *f, char *why, size_t whylen);

static const paper papers[] = {
    {"optree", oc__reproduce_optree},
    {"wrht", oc__reproduce_wrht},
    {"star", oc__reproduce_star},
    {"lumorph", oc__reproduce_lumorph},
    {"aas", oc__reproduce_aas},
};

enum { NPAPERS = sizeof papers / sizeof papers[0] };

int oc_reproduce(const char *name, FILE *f, char *why, size_t whylen) {
    if (why && whylen) why[0] = 0;
    if (!name || !f) return oc__fail(why, whylen, OC_EINVAL, "reproduce: no paper or no output");
    int all = strcmp(name, "all") == 0;
    for (size_t i = 0; i < NPAPERS; i++) {
        if (!all && strcmp(name, papers[i].name) != 0) continue;
        if (all && i) fputc('\n', f);
        int rc = papers[i].reproduce(f, why, whylen);
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

size_t oc_paper_count(void) {
    return NPAPERS;
}

const char *oc_paper_name(size_t i) {
    return i < NPAPERS ? papers[i].name : NULL;
}

typedef struct paper_call {
    const char *paper;
    FILE *f;
} paper_call;

static int run_paper(void *arg, char *why, size_t whylen) {
    const paper_call *p = arg;
    return oc_reproduce(p->paper, p->f, why, whylen);
}

int oc_reproduce_figures(const char *name, FILE *f, oc_figures **out, char *why, size_t whylen) {
    if (!out || !name || !strcmp(name, "all"))
        return oc__fail(why, whylen, OC_EINVAL, "reproduce: figures are collected per paper");
    paper_call p = {name, f};
    return oc__figures_collect(run_paper, &p, out, why, whylen);
}
