/*
 * table.c — every plain-text table the library and its tools print, of two kinds.
 *
 * The tables that reproductions and studies print are held whole: aligned columns whose last
 * column (the reason) is never padded, so that one long reason does not widen the table, fitted
 * to the text width, with the cell and reason formatting they share. A table printed is also
 * handed to the calling thread's table sink, if one is set: `reproduce --out`
 * (src/reproduce/figures.c) keeps every table as CSV that way, without this room knowing the room
 * above it.
 *
 * The tools' own tables (compare, sweep, tune, opticoll-mpi: oc_table_write_row, public in
 * opticoll_studies.h) are fixed columns written row by row as the points come, for a terminal and
 * grep: each cell padded to its column's width as printf's %*s and %-*s pad, after the column's
 * gap; the last column as it is. They are never held, so they are never fitted.
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

/* The columns of the first n bytes of s (UTF-8: one per character). */
static size_t display_width_n(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
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

/* ---- fitting a table to a width ----------------------------------------------------------------
 *
 * A table wider than the text width (the call's oc_settings.text_width) is fitted in two moves.
 * First the reason column: a reason longer than the column's short form (its header, at least
 * SHORT_REASON columns) becomes a note number "[k]", and the notes are printed under the table,
 * each wrapped to the width (a reason repeated on several rows is one note); a table whose last
 * column is data (last_is_data) keeps it as a column. Then, while the table is still too wide, the
 * widest other column gives up a column at a time (down to MIN_COL, its header's longest word or
 * its cells' longest word up to MAX_WORD) and its cells wrap at spaces onto more lines; only if
 * that is not enough are words cut, down to CUT_COL columns, but never a number (the table is then
 * wider than asked: "7197.0" and "2" on two lines would misread as 7197.0). The CSV and JSON (the
 * table sink) always see the whole cells: fitting changes only the text on the page. */

enum { SHORT_REASON = 12, MIN_COL = 8, MAX_WORD = 16, CUT_COL = 5, NOTE_INDENT = 6 };

/* Bytes of s that fill at most `width` columns, cut after the last space that fits (or, for a
 * word longer than the width, inside it at a character boundary); *skip: the spaces after the
 * cut, which the next line does not start with. */
static size_t piece(const char *s, size_t width, size_t *skip) {
    size_t cols = 0, at = 0, space = 0;
    *skip = 0;
    while (s[at]) {
        size_t ch = 1;
        while (((unsigned char)s[at + ch] & 0xC0) == 0x80)
            ch++;
        if (s[at] == ' ') space = at;
        if (cols + 1 > width) break;
        cols++;
        at += ch;
    }
    if (!s[at]) return at;
    if (s[at] == ' ') space = at;
    size_t cut = space ? space : at;
    if (!cut) cut = at ? at : 1;
    while (s[cut + *skip] == ' ')
        (*skip)++;
    return cut;
}

static void print_piece(FILE *f, const char **rest, size_t width, int last);

void oc__wrap_text(FILE *f, const char *text, size_t len) {
    const size_t W = oc__text_width();
    char *line = NULL;
    size_t cap = 0;
    for (size_t at = 0; at < len;) {
        const char *s = text + at, *nl = memchr(s, '\n', len - at);
        size_t n = nl ? (size_t)(nl - s) : len - at;
        at += n + (nl != NULL);
        int whole = !W || display_width_n(s, n) <= W;
        if (!whole && n + 1 > cap) {
            char *p = realloc(line, n + 1);
            if (p) line = p, cap = n + 1;
            else whole = 1; /* no memory to wrap it: as it is */
        }
        if (!whole) {
            memcpy(line, s, n);
            line[n] = 0;
            whole = strstr(line, " | ") || strstr(line, "-+-"); /* a table row: fitted already */
        }
        if (whole) {
            fwrite(s, 1, n, f);
        } else {
            size_t indent = strspn(line, " "), hang = indent + 2;
            if (hang + 20 > W) hang = indent = 0; /* a page too narrow to indent */
            const char *rest = line + indent;
            fprintf(f, "%*s", (int)indent, "");
            print_piece(f, &rest, W - indent, 1);
            while (*rest) {
                fprintf(f, "\n%*s", (int)hang, "");
                print_piece(f, &rest, W - hang, 1);
            }
        }
        if (nl) fputc('\n', f);
    }
    free(line);
}

/* Prints `s` padded to `width` columns, or only as much of it as fills them (*rest: what is left
 * for the next line); `last`: no padding and no separator. */
static void print_piece(FILE *f, const char **rest, size_t width, int last) {
    const char *s = *rest;
    size_t skip, n = piece(s, width, &skip), w = 0;
    fwrite(s, 1, n, f);
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    *rest = s + n + skip;
    if (last) return;
    for (; w < width; w++)
        fputc(' ', f);
    fputs(" | ", f);
}

/* The longest word of s, in columns. */
static size_t longest_word(const char *s) {
    size_t best = 0, cur = 0;
    for (; *s; s++) {
        if (*s == ' ') {
            cur = 0;
            continue;
        }
        if (((unsigned char)*s & 0xC0) != 0x80 && ++cur > best) best = cur;
    }
    return best;
}

/* The longest word of s that is a number ("7197.02", "+49.7%", "-3"), in columns: a number is
 * never cut, since its first part alone would read as another number. */
static size_t longest_number(const char *s) {
    size_t best = 0;
    while (*s) {
        size_t n = strcspn(s, " ");
        const char *d = s + (*s == '+' || *s == '-');
        if (n && *d >= '0' && *d <= '9' && n > best) best = n;
        s += n;
        s += strspn(s, " ");
    }
    return best;
}

/* Prints one row (cells[0 .. ncols)) on as many lines as its widest wrapped cell needs. */
static void print_row(FILE *f, const char *const *cells, size_t ncols, const size_t *width,
                      int fitted) {
    const char *rest[OC__MAX_COLS];
    for (size_t c = 0; c < ncols; c++)
        rest[c] = cells[c];
    for (int more = 1; more;) {
        fputs("  ", f);
        for (size_t c = 0; c < ncols; c++) {
            int last = c + 1 == ncols;
            if (!fitted && !last) { /* a table that fits prints every cell whole */
                size_t w = display_width(rest[c]);
                fputs(rest[c], f);
                rest[c] += strlen(rest[c]);
                for (; w < width[c]; w++)
                    fputc(' ', f);
                fputs(" | ", f);
            } else if (last && !fitted) {
                fputs(rest[c], f);
                rest[c] += strlen(rest[c]);
            } else {
                print_piece(f, &rest[c], width[c], last);
            }
        }
        more = 0;
        for (size_t c = 0; c < ncols; c++)
            more |= *rest[c] != 0;
        fputc('\n', f);
    }
}

/* Copies text to f without the spaces that end its lines (a wrapped row's empty last cell). */
static void put_trimmed(FILE *f, const char *text, size_t len) {
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '\n') continue;
        size_t end = i;
        while (end > start && text[end - 1] == ' ')
            end--;
        fwrite(text + start, 1, end - start, f);
        if (i < len) fputc('\n', f);
        start = i + 1;
    }
}

/* The notes of a fitted table: the distinct long reasons, in order of first use. */
typedef struct notes {
    const char **text;
    size_t n;
} notes;

/* The note number of reason s (1-based), adding it when new; 0 when out of memory. */
static size_t note_of(notes *nt, const char *s) {
    for (size_t i = 0; i < nt->n; i++)
        if (!strcmp(nt->text[i], s)) return i + 1;
    const char **grown = realloc(nt->text, (nt->n + 1) * sizeof *grown);
    if (!grown) return 0;
    nt->text = grown;
    nt->text[nt->n++] = s;
    return nt->n;
}

static size_t table_width(const size_t *width, size_t ncols) {
    size_t total = 2;
    for (size_t c = 0; c < ncols; c++)
        total += width[c] + (c + 1 < ncols ? 3 : 0);
    return total;
}

void oc__table_print(const oc__table *t, FILE *f) {
    if (table_sink) table_sink(t); /* reproduce --out keeps it as CSV (figures.c) */
    const size_t nc = t->ncols, last = nc - 1, W = oc__text_width();
    size_t width[OC__MAX_COLS];
    for (size_t c = 0; c < nc; c++) {
        width[c] = display_width(t->head[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t w = display_width(t->cells[r * nc + c]);
            if (w > width[c]) width[c] = w;
        }
    }
    int fitted = W && table_width(width, nc) > W;
    notes nt = {NULL, 0};
    char (*ref)[24] = NULL; /* the reason column as printed: the reason or its note number */
    if (fitted && t->nrows && !(ref = calloc(t->nrows, sizeof *ref))) fitted = 0;
    if (fitted && t->last_is_data) {
        free(ref);
        ref = NULL;
    } else if (fitted) {
        size_t shortw = display_width(t->head[last]);
        if (shortw < SHORT_REASON) shortw = SHORT_REASON;
        width[last] = display_width(t->head[last]);
        for (size_t r = 0; r < t->nrows && fitted; r++) {
            const char *s = t->cells[r * nc + last];
            size_t w = display_width(s), k;
            if (w <= shortw) {
                snprintf(ref[r], sizeof ref[r], "%s", s);
            } else if ((k = note_of(&nt, s))) {
                snprintf(ref[r], sizeof ref[r], "[%zu]", k);
                w = strlen(ref[r]);
            } else {
                fitted = 0; /* out of memory: the table as it is */
            }
            if (w > width[last]) width[last] = w;
        }
    }
    if (fitted) {
        /* then the widest other column gives way, a column at a time: first down to its
         * words (pass 0), then, when that is not enough, cutting words down to CUT_COL */
        for (int pass = 0; pass < 2 && fitted && table_width(width, nc) > W;) {
            size_t wide = nc;
            for (size_t c = 0; c < (t->last_is_data ? nc : last); c++) {
                size_t floor = CUT_COL;
                for (size_t r = 0; r < t->nrows; r++) /* numbers are never cut */
                    if (longest_number(t->cells[r * nc + c]) > floor)
                        floor = longest_number(t->cells[r * nc + c]);
                if (pass == 0) {
                    size_t word = 0;
                    floor = longest_word(t->head[c]);
                    for (size_t r = 0; r < t->nrows; r++) /* words are not cut, up to MAX_WORD */
                        if (longest_word(t->cells[r * nc + c]) > word)
                            word = longest_word(t->cells[r * nc + c]);
                    if (word > MAX_WORD) word = MAX_WORD;
                    if (floor < word) floor = word;
                    if (floor < MIN_COL) floor = MIN_COL;
                }
                if (width[c] > floor && (wide == nc || width[c] > width[wide])) wide = c;
            }
            if (wide == nc)
                pass++; /* every column at this pass's narrowest; at the last, the page overflows */
            else
                width[wide]--;
        }
        if (!fitted) {
            for (size_t r = 0; r < t->nrows; r++) /* back to the natural widths */
                if (display_width(t->cells[r * nc + last]) > width[last])
                    width[last] = display_width(t->cells[r * nc + last]);
        }
    }
    /* a fitted table is composed in memory, to drop the spaces at the ends of its lines */
    FILE *out = f;
    char *buf = NULL;
    size_t len = 0;
    if (fitted && !(out = open_memstream(&buf, &len))) out = f;
    print_row(out, t->head, nc, width, fitted);
    fputs("  ", out);
    for (size_t c = 0; c < nc; c++) {
        size_t w = c == last && !fitted ? display_width(t->head[c]) : width[c];
        for (size_t i = 0; i < w; i++)
            fputc('-', out);
        if (c + 1 < nc) fputs("-+-", out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *row[OC__MAX_COLS];
        for (size_t c = 0; c < nc; c++)
            row[c] = c == last && ref ? ref[r] : t->cells[r * nc + c];
        print_row(out, row, nc, width, fitted);
    }
    /* the notes: "  [k] text", wrapped under its first word */
    for (size_t i = 0; fitted && i < nt.n; i++) {
        char tag[24];
        snprintf(tag, sizeof tag, "[%zu]", i + 1);
        /* "[10]" and above are a column wider than the indent's "[k]": the text is narrower */
        const int tagw = (int)strlen(tag) > NOTE_INDENT - 3 ? (int)strlen(tag) : NOTE_INDENT - 3;
        const size_t indent = (size_t)tagw + 3;
        size_t textw = W > indent + 20 ? W - indent : 20;
        const char *rest = nt.text[i];
        for (int first = 1; *rest; first = 0) {
            fprintf(out, "  %-*s ", tagw, first ? tag : "");
            print_piece(out, &rest, textw, 1);
            fputc('\n', out);
        }
    }
    if (out != f) {
        if (fclose(out) == 0) put_trimmed(f, buf, len);
        free(buf);
    }
    free(nt.text);
    free(ref);
}

/* ---- fixed-column rows (opticoll_studies.h) ------------------------------------------------- */

static void fixed_cell(const oc_table_layout *t, size_t i, const char *text, int last) {
    const oc_table_col *c = &t->cols[i];
    fprintf(t->f, "%*s", c->gap, "");
    if (last)
        fputs(text, t->f);
    else
        fprintf(t->f, c->left ? "%-*s" : "%*s", c->width, text);
}

int oc_table_write_row(const oc_table_layout *t, const char *const *cells) {
    fputs(t->indent, t->f);
    for (size_t i = 0; i < t->ncols; i++) {
        int last = i + 1 == t->ncols;
        if (last && !cells[i]) break;
        fixed_cell(t, i, cells[i] ? cells[i] : "", last);
    }
    fputc('\n', t->f);
    return ferror(t->f) ? OC_EIO : 0;
}

int oc_table_write_row_tail(const oc_table_layout *t, const char *const *cells, size_t n,
                            const char *tail) {
    fputs(t->indent, t->f);
    for (size_t i = 0; i < n && i < t->ncols; i++)
        fixed_cell(t, i, cells[i] ? cells[i] : "", 0);
    fprintf(t->f, " %s\n", tail);
    return ferror(t->f) ? OC_EIO : 0;
}
