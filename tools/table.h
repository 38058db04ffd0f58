/*
 * table.h — the one renderer of the tools' own text tables (table.c): compare's, sweep's, tune's
 * and opticoll-mpi's rows, which the goldens hold byte for byte.
 *
 * A table is its columns: each with a width (a cell is padded to it, as printf's %*s pads; a
 * longer cell pushes the rest of the row right), an alignment and the spaces written before it.
 * Rows are written as they come, so a table of a million points is never held. The library's
 * tables (the reproductions', rack's: report/table.c) are another kind: they are held whole, fit a
 * width, wrap their cells and number their notes; these are fixed columns for a terminal and grep.
 */
#ifndef OC_TOOLS_TABLE_H
#define OC_TOOLS_TABLE_H

#include <stddef.h>
#include <stdio.h>

typedef struct table_col {
    int width; /* at least this many characters (0: the cell as it is) */
    int left;  /* 1: aligned left (names), 0: right (numbers) */
    int gap;   /* spaces before the column */
} table_col;

typedef struct table {
    FILE *f;
    const char *indent; /* before every row ("  ") */
    const table_col *cols;
    size_t ncols;
} table;

/* One row of ncols cells. The last column is not padded; a NULL last cell writes nothing, not
 * even its gap (a row without parameters ends at the column before). */
void table_row(const table *t, const char *const *cells);
/* A row of the first n cells, then `tail` after one space in place of the others: the
 * "not run: reason" of a point that did not run. */
void table_row_tail(const table *t, const char *const *cells, size_t n, const char *tail);

#endif
