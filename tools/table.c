/*
 * table.c — the tools' fixed-column rows (table.h): each cell padded to its column's width as
 * printf's %*s and %-*s pad, after the column's gap; the last column as it is.
 */
#include "table.h"

static void cell(const table *t, size_t i, const char *text, int last) {
    const table_col *c = &t->cols[i];
    fprintf(t->f, "%*s", c->gap, "");
    if (last)
        fputs(text, t->f);
    else
        fprintf(t->f, c->left ? "%-*s" : "%*s", c->width, text);
}

void table_row(const table *t, const char *const *cells) {
    fputs(t->indent, t->f);
    for (size_t i = 0; i < t->ncols; i++) {
        int last = i + 1 == t->ncols;
        if (last && !cells[i]) break;
        cell(t, i, cells[i] ? cells[i] : "", last);
    }
    fputc('\n', t->f);
}

void table_row_tail(const table *t, const char *const *cells, size_t n, const char *tail) {
    fputs(t->indent, t->f);
    for (size_t i = 0; i < n && i < t->ncols; i++)
        cell(t, i, cells[i] ? cells[i] : "", 0);
    fprintf(t->f, " %s\n", tail);
}
