/*
 * table.c — the plain-text tables that reproductions and studies print: aligned columns whose
 * last column (the reason) is never padded, so that one long reason does not widen the table,
 * and the cell and reason formatting they share. A table printed is also handed to the calling
 * thread's table sink, if one is set: `reproduce --out` (src/reproduce/figures.c) keeps every
 * table as CSV that way, without this room knowing the room above it.
 */
#include "report/table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local oc__table_sink table_sink;

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

oc__table_sink oc__table_sink_set(oc__table_sink sink) {
    oc__table_sink old = table_sink;
    table_sink = sink;
    return old;
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
    if (table_sink) table_sink(t); /* reproduce --out keeps it as CSV (figures.c) */
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

