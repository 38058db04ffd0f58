/*
 * test_textout.c — what a person reads ("Options and output"): a size or node range
 * ends at the end point the user wrote (oc_parse_list), and a table wider than the text width
 * (oc_settings.text_width) fits it, its long reasons as numbered notes under it, with nothing lost.
 */
#include "opticoll.h"
#include "report/table.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* oc_parse_list of text gives exactly want[0 .. n). */
static void list_is(const char *text, int sizes, const uint64_t *want, size_t n) {
    uint64_t got[64];
    size_t k = 0;
    int rc = oc_parse_list(text, sizes, got, 64, &k);
    CHECK(rc == 0 && k == n, "%s: rc %d, %zu values, want %zu", text, rc, k, n);
    for (size_t i = 0; rc == 0 && i < n && i < k; i++)
        CHECK(got[i] == want[i], "%s: value %zu is %llu, want %llu", text, i,
              (unsigned long long)got[i], (unsigned long long)want[i]);
}

static void lists(void) {
    const uint64_t K = 1024, M = K * K;
    /* the case: 4 KiB times 16 never lands on 64 MiB; the end point is still run */
    list_is("4KiB..64MiB:*16", 1, (uint64_t[]){4 * K, 64 * K, M, 16 * M, 64 * M}, 5);
    list_is("4KiB..16MiB:*4", 1, (uint64_t[]){4 * K, 16 * K, 64 * K, 256 * K, M, 4 * M, 16 * M},
            7);
    list_is("1KiB..1MiB:*8", 1, (uint64_t[]){K, 8 * K, 64 * K, 512 * K, M}, 5);
    list_is("3..20", 0, (uint64_t[]){3, 6, 12, 20}, 4);
    list_is("2..64", 0, (uint64_t[]){2, 4, 8, 16, 32, 64}, 6);
    list_is("1..12:*3", 0, (uint64_t[]){1, 3, 9, 12}, 4);
    list_is("5..7:+5", 0, (uint64_t[]){5, 7}, 2);
    list_is("4..100:+8", 0,
            (uint64_t[]){4, 12, 20, 28, 36, 44, 52, 60, 68, 76, 84, 92, 100}, 13);
    list_is("7..7:*2", 0, (uint64_t[]){7}, 1);
    list_is("1..1", 0, (uint64_t[]){1}, 1);
    list_is("5,3..5", 0, (uint64_t[]){3, 5}, 2);
    /* a huge factor past the end: A, then B */
    list_is("3..100:*1000", 0, (uint64_t[]){3, 100}, 2);
}

/* The table printed at `width` into a string (caller frees). */
static char *printed(const oc__table *t, unsigned width) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    const oc_settings s = {.text_width = width};
    const oc_settings *prev = oc__settings_enter(&s); /* as a reproduction's call makes them */
    oc__table_print(t, m);
    oc__settings_leave(prev);
    fclose(m);
    return buf;
}

static size_t longest_line(const char *s, int *trailing) {
    size_t best = 0, cur = 0;
    *trailing = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '\n') {
            if (cur && p[-1] == ' ') *trailing = 1;
            cur = 0;
            continue;
        }
        if (((unsigned char)*p & 0xC0) != 0x80 && ++cur > best) best = cur;
    }
    return best;
}

/* The words of s with every run of white space made one space, into out. */
static void squeeze(const char *s, char *out, size_t len) {
    size_t k = 0;
    int space = 1;
    for (; *s && k + 1 < len; s++) {
        if (*s == ' ' || *s == '\n') {
            if (!space) out[k++] = ' ';
            space = 1;
        } else {
            out[k++] = *s;
            space = 0;
        }
    }
    while (k && out[k - 1] == ' ')
        k--;
    out[k] = 0;
}

static void tables(void) {
    static const char *const head[] = {"item", "paper", "simulated", "reason"};
    const char *longr = "the paper's number is the mean of two figures that disagree with each "
                        "other by several points, and ours follows our own schedules; see the "
                        "section on figures five and six for the per point values";
    oc__table t;
    oc__table_init(&t, 4, head);
    const char *rows[][4] = {
        {"Ring (N-1)", "1023", "1023", "agrees"},
        {"OpTree at k* with the paper's m-ary tree of near-equal radices", "75", "74", longr},
        {"NE (N/2)", "512", "512", ""},
        {"WRHT", "97", "101", longr}, /* the same reason twice: one note */
        {"Bruck", "10", "10", "short one"},
    };
    for (size_t r = 0; r < 5; r++)
        CHECK(oc__table_row(&t, rows[r]) == 0, "row %zu", r);

    /* no width: one line per row, the reason whole */
    char *wide = printed(&t, 0);
    CHECK(wide && strstr(wide, longr) && !strstr(wide, "[1]"), "unlimited: reason inline\n%s",
          wide ? wide : "");
    int trailing = 0;
    size_t nlines = 0;
    for (const char *p = wide; p && *p; p++)
        nlines += *p == '\n';
    CHECK(nlines == 7, "unlimited: header, rule and 5 rows, got %zu lines", nlines);
    free(wide);

    const unsigned widths[] = {40, 57, 60, 79, 100, 137};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        unsigned w = widths[i];
        char *s = printed(&t, w);
        CHECK(s != NULL, "width %u: printed", w);
        if (!s) continue;
        size_t lw = longest_line(s, &trailing);
        /* at 40 the words themselves are cut to fit (near-equ|al) */
        CHECK(lw <= w, "width %u: a line of %zu columns\n%s", w, lw, s);
        CHECK(!trailing, "width %u: a line ends in a space\n%s", w, s);
        /* the long reason is note [1], once, whole; the short ones stay in the table */
        CHECK(strstr(s, "[1]") && !strstr(s, "[2]"), "width %u: one note for the repeated "
              "reason\n%s", w, s);
        CHECK(strstr(s, "agrees") && strstr(s, "short one"), "width %u: short reasons inline\n%s",
              w, s);
        char flat[4096], want[1024];
        squeeze(s, flat, sizeof flat);
        squeeze(longr, want, sizeof want);
        const char *note = strstr(flat, "[1] the paper");
        CHECK(note && strstr(note, want), "width %u: the note holds the whole reason\n%s", w, s);
        /* every word of the first column is still there */
        CHECK(w < 57 || (strstr(flat, "near-equal") && strstr(flat, "radices")),
              "width %u: cell wrapped at spaces, not cut\n%s", w, s);
        free(s);
    }
    oc__table_free(&t);
}

int main(void) {
    lists();
    tables();
    return CHECK_SUMMARY();
}
