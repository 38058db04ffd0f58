/*
 * quote.c — user text made safe for a one-line message.
 *
 * Every error is one line on stderr, and much of what it names came from the user: a file name,
 * an -a or -s value, a --net key, a line of a rack trace, an attribute of an MSCCL file. Printed
 * as it is, an ESC starts a terminal escape sequence, a CR or LF splits or overwrites the line,
 * and a megabyte-long value makes a megabyte-long line. So user text reaches a message only
 * through oc__quote_cut: what is printable passes unchanged (ASCII and well-formed UTF-8, so that
 * names in other scripts stay readable), everything else becomes an escape a person can read
 * (\n, \r, \t, \xHH per byte), and a long text is cut after a fixed number of its bytes, with the
 * full length said. The C1 controls (U+0080..U+009F: 8-bit CSI and friends) and the Unicode line
 * separators and bidirectional overrides, which reorder or break what a terminal shows, are
 * escaped byte by byte too.
 *
 * The backslash itself is not escaped: that makes quoting idempotent, so the library's
 * oc__fail and the CLI's die() can pass whole lines through it as a last net without mangling
 * the parts already quoted.
 */
#include "core/quote.h"
#include "opticoll.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed, printable UTF-8 sequence at s (2 to 4), or 0. */
static size_t utf8_printable(const unsigned char *s) {
    uint32_t cp;
    size_t n;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1fu;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0fu;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0; /* also stops at the terminating NUL */
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    if (cp <= 0x9f) return 0;                   /* C1 controls */
    if (cp == 0x2028 || cp == 0x2029) return 0; /* line, paragraph separator */
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 0; /* bidi */
    return n;
}

char *oc__quote_cut(char *buf, size_t len, const char *text, size_t shown) {
    if (!buf || !len) return buf;
    buf[0] = 0;
    if (!text) return buf;
    /* room kept for the tail "... (N bytes)" once the text does not fit */
    const size_t tail = sizeof "... (18446744073709551615 bytes)";
    const unsigned char *s = (const unsigned char *)text;
    size_t in = 0, out = 0;
    int cut = 0;
    while (s[in]) {
        char esc[8];
        size_t n = 1, w;
        const char *from = esc;
        size_t u = s[in] >= 0x80 ? utf8_printable(s + in) : 0;
        if (u) {
            n = w = u;
            from = (const char *)s + in;
        } else if (s[in] >= 0x20 && s[in] < 0x7f) {
            w = 1;
            from = (const char *)s + in;
        } else if (s[in] == '\n') {
            w = 2, memcpy(esc, "\\n", 3);
        } else if (s[in] == '\r') {
            w = 2, memcpy(esc, "\\r", 3);
        } else if (s[in] == '\t') {
            w = 2, memcpy(esc, "\\t", 3);
        } else {
            w = (size_t)snprintf(esc, sizeof esc, "\\x%02x", s[in]);
        }
        /* The piece goes in if it stays within the shown bytes and leaves room for the tail
         * (or, being the last piece, for the terminating NUL). */
        int last = s[in + n] == 0;
        if (in + n > shown || out + w + (last ? 1 : tail) > len) {
            cut = 1;
            break;
        }
        memcpy(buf + out, from, w);
        out += w;
        in += n;
    }
    buf[out] = 0;
    if (cut) {
        size_t total = in + strlen(text + in);
        if (out + tail <= len)
            snprintf(buf + out, len - out, "... (%zu bytes)", total);
        else if (len > 4) /* a buffer too small for the tail: at least show it was cut */
            memcpy(buf + (out + 4 <= len ? out : len - 4), "...", 4);
    }
    return buf;
}

void oc_quote_line(char *line, size_t len) {
    /* Call sites quote the user text they name (oc__quote); this is the net for the ones that
     * do not: no control byte leaves the library in a message. Quoting is idempotent. */
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) /* a line end is not part of it */
        line[--n] = 0;
    const unsigned char *c = (const unsigned char *)line;
    while (*c >= 0x20 && *c < 0x7f)
        c++;
    if (!*c) return;
    char *copy = strdup(line);
    if (copy) {
        oc__quote_cut(line, len, copy, SIZE_MAX);
        free(copy);
        return;
    }
    for (char *p = line; *p; p++) /* out of memory: blank the bytes rather than print them */
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f) *p = '?';
}

/* The public form of oc__quote (opticoll.h), for programs that echo their user's text. */
_Static_assert(OC_QUOTE_SIZE == OC__QUOTE_SIZE, "opticoll.h's OC_QUOTE_SIZE is quote.h's");
char *oc_quote(char *buf, size_t len, const char *text) { return oc__quote(buf, len, text); }

char *oc__quote_whole(const char *text) {
    const size_t n = text ? strlen(text) : 0;
    /* each byte is at most 4 escaped ("\xHH"); the tail's room is what oc__quote_cut keeps free
     * before the last piece, never used since nothing is cut */
    const size_t tail = sizeof "... (18446744073709551615 bytes)";
    if (n > (SIZE_MAX - tail) / 4) return NULL;
    char *buf = malloc(4 * n + tail);
    return buf ? oc__quote_cut(buf, 4 * n + tail, text, n) : NULL;
}
