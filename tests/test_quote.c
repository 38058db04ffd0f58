/*
 * test_quote.c — oc__quote_cut and oc__quote_line (src/core/quote.c): user text in a message is
 * one line of printable characters, control bytes and malformed UTF-8 escaped, cut after a fixed
 * number of bytes with the full length said, and quoting twice changes nothing.
 */
#include "core/quote.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* oc__quote_cut into a roomy buffer, compared with want. */
static void same(const char *text, size_t shown, const char *want) {
    char buf[1024];
    oc__quote_cut(buf, sizeof buf, text, shown);
    CHECK(strcmp(buf, want) == 0, "quote of %s (shown %zu): got [%s], want [%s]",
          text ? text : "NULL", shown, buf, want);
}

/* 1 when s holds only printable ASCII or bytes >= 0x80 (kept UTF-8): no control byte. */
static int printable(const char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f) return 0;
    return 1;
}

int main(void) {
    same(NULL, 80, "");
    same("", 80, "");
    same("ring", 80, "ring");
    same("a\\b 'c' \"d\"", 80, "a\\b 'c' \"d\"");
    same("x\x1b[31mred\a\t\r\ny\x7f", 80, "x\\x1b[31mred\\x07\\t\\r\\ny\\x7f");
    same("\x01\x1f", 80, "\\x01\\x1f");
    /* UTF-8: printable code points of 2, 3 and 4 bytes pass; the rest is escaped byte by byte */
    same("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 80,
         "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    same("\xc2\x9b", 80, "\\xc2\\x9b");                       /* C1 CSI */
    same("\xc0\x80", 80, "\\xc0\\x80");                       /* overlong NUL */
    same("\xed\xa0\x80", 80, "\\xed\\xa0\\x80");              /* a surrogate */
    same("\xe2\x80\xae", 80, "\\xe2\\x80\\xae");              /* right-to-left override */
    same("\xe2\x80\xa8", 80, "\\xe2\\x80\\xa8");              /* line separator */
    same("\x80 \xff \xe2\x82", 80, "\\x80 \\xff \\xe2\\x82"); /* stray, invalid, cut short */
    same("\xf4\x90\x80\x80", 80, "\\xf4\\x90\\x80\\x80");     /* above U+10FFFF */
    /* cut after `shown` bytes of the text, at a character boundary, with the full length */
    same("abcdefghij", 10, "abcdefghij");
    same("abcdefghijk", 10, "abcdefghij... (11 bytes)");
    same("abc\xc3\xa9", 4, "abc... (5 bytes)");
    same("\x1b\x1b\x1b", 2, "\\x1b\\x1b... (3 bytes)");
    /* a huge text: a line of a few hundred bytes at most */
    size_t n = 3000000;
    char *big = malloc(n + 1);
    CHECK(big != NULL, "malloc");
    if (big) {
        for (size_t i = 0; i < n; i++)
            big[i] = i % 2 ? '\x1b' : '\x01';
        big[n] = 0;
        char buf[OC__QUOTE_SIZE];
        oc__quote(buf, sizeof buf, big);
        CHECK(strlen(buf) < 400 && printable(buf) && strstr(buf, "... (3000000 bytes)"),
              "huge: %zu bytes [%s]", strlen(buf), buf);
        /* OC__QUOTE_SIZE holds the worst case: every shown byte escaped to four */
        CHECK(strlen(buf) == 4 * OC__QUOTE_SHOWN + strlen("... (3000000 bytes)"), "worst case [%s]",
              buf);
        free(big);
    }
    /* a small buffer is never overrun and still says the text was cut */
    for (size_t len = 1; len < 48; len++) {
        char buf[64];
        memset(buf, '#', sizeof buf);
        oc__quote_cut(buf, len, "\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 80);
        CHECK(buf[len] == '#' && memchr(buf, 0, len) && printable(buf), "len %zu: [%.64s]", len,
              buf);
    }
    /* OC_Q, and quoting twice changes nothing */
    const char *q = OC_Q("a\x1b\n\xc3\xa9");
    CHECK(strcmp(q, "a\\x1b\\n\xc3\xa9") == 0, "OC_Q: [%s]", q);
    CHECK(strcmp(OC_Q(q), q) == 0, "twice: [%s]", OC_Q(q));
    /* a whole line: its line ends dropped, what is inside escaped, cut only by the buffer */
    char line[64] = "cannot open a\x1b[2Jb\r\n";
    oc__quote_line(line, sizeof line);
    CHECK(strcmp(line, "cannot open a\\x1b[2Jb") == 0, "line: [%s]", line);
    char clean[64] = "nothing to do: 'x'";
    oc__quote_line(clean, sizeof clean);
    CHECK(strcmp(clean, "nothing to do: 'x'") == 0, "clean line: [%s]", clean);
    char tight[24] = "\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c";
    oc__quote_line(tight, sizeof tight);
    CHECK(printable(tight) && strlen(tight) < sizeof tight, "tight line: [%s]", tight);
    return CHECK_SUMMARY();
}
