/*
 * quote.h — user text made safe for a one-line message (quote.c).
 */
#ifndef OC_QUOTE_H
#define OC_QUOTE_H

#include <stddef.h>

/* How much of a user's text a message shows (bytes of the text), and a buffer that always holds
 * that much escaped (4 bytes per byte at worst) with the "... (N bytes)" tail. */
enum { OC__QUOTE_SHOWN = 80, OC__QUOTE_SIZE = 4 * OC__QUOTE_SHOWN + 48 };

/* Writes `text` into buf[0..len) for a message: control characters and bytes that are not
 * printable UTF-8 escaped (\n, \r, \t, \xHH), at most `shown` bytes of the text, then
 * "... (N bytes)" when it was cut. The result is one line of printable characters; quoting it
 * again leaves it as it is. Returns buf ("" for NULL text). */
char *oc__quote_cut(char *buf, size_t len, const char *text, size_t shown);

/* The whole of `text` escaped as oc__quote_cut does, never cut, in a new allocation the caller
 * frees: for text a result prints in full (a model's name and source). NULL when out of memory;
 * "" for NULL text. */
char *oc__quote_whole(const char *text);

/* The usual form: at most OC__QUOTE_SHOWN bytes of the text. */
static inline char *oc__quote(char *buf, size_t len, const char *text) {
    return oc__quote_cut(buf, len, text, OC__QUOTE_SHOWN);
}

/* Quotes a whole message line in place (within line[0..len), cut only by len): the last net of
 * oc__fail and of the CLI's error lines. Public (opticoll.h), as is oc_quote. */
#define oc__quote_line oc_quote_line
void oc_quote_line(char *line, size_t len);

/* oc__quote into a buffer that lives until the end of the enclosing block, for an argument:
 *     die(EXIT_USAGE, "unknown collective '%s'", OC_Q(name), NULL); */
#define OC_Q(text) oc__quote((char[OC__QUOTE_SIZE]){0}, OC__QUOTE_SIZE, (text))

#endif
