/*
 * table.h — plain-text tables and their cells, as the reproductions and the studies print them
 * (table.c). A table's last column is a free-text reason; cells are formatted strings.
 */
#ifndef OC_TABLE_H
#define OC_TABLE_H

#include "core/core.h"

#include <stdio.h>

/* ---- text ------------------------------------------------------------------------------------ */

enum { OC__MAX_COLS = 12, OC__REASON_LEN = 1024, OC__CELL_LEN = 160 };

/* Formats into buf (always terminated). */
void oc__cellf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends one clause to a reason, separated from the previous one by "; ". */
void oc__reason_add(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ceil() that forgives the last bits of a pow() or a log(): a value a hair above a whole number
 * (1024^1.2 = 4096, log(1000) / log(10) = 3) is that whole number. */
double oc__ceil_exact(double x);

/* ---- tables ---------------------------------------------------------------------------------- */

/* A plain-text table: a header row and rows of strings, printed with aligned columns. The last
 * column is not padded, so a long reason does not widen the others. */
typedef struct oc__table {
    size_t ncols, nrows, cap;
    const char *head[OC__MAX_COLS];
    int last_is_data; /* the last column is data, not a reason: fitting wraps it, no notes */
    char **cells; /* nrows * ncols owned strings */
} oc__table;

void oc__table_init(oc__table *t, size_t ncols, const char *const *head);
void oc__table_free(oc__table *t);
/* Appends a row of t->ncols strings (copied); 0 or OC_ENOMEM. */
int oc__table_row(oc__table *t, const char *const *cells);
void oc__table_print(const oc__table *t, FILE *f);

/* Writes text (len bytes) to f, every line wider than the text width (oc__text_width(); 0: none)
 * wrapped at spaces, its continuation lines indented two columns more than its own indent; table
 * rows (" | ", "-+-") are left whole, since the table fitted them already. For the prose around
 * the tables (the reproductions' paragraphs), so that no line is wider than the page. */
void oc__wrap_text(FILE *f, const char *text, size_t len);

/* Every table printed on the calling thread is also handed to the sink (NULL: none); returns the
 * previous sink. */
typedef void (*oc__table_sink)(const oc__table *t);
oc__table_sink oc__table_sink_set(oc__table_sink sink);

#endif
