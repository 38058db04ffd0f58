/*
 * json_read.c — the escaped NUL in a JSON reader's text (json_read.h says why cJSON cannot be
 * asked). The scan is a two-state walk: outside a string only '"' matters; inside one a
 * backslash takes the next character with it, so `\\u0000` (an escaped backslash, then the
 * letters u0000) is text, not the escape, and `\"` does not end the string.
 */
#include "core/json_read.h"

int oc__json_nul_escape(const char *text, size_t len, size_t *at) {
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        const char c = text[i];
        if (!in_string) {
            in_string = c == '"';
            continue;
        }
        if (c == '"') {
            in_string = 0;
        } else if (c == '\\' && i + 1 < len) {
            if (text[i + 1] == 'u' && i + 5 < len && text[i + 2] == '0' && text[i + 3] == '0' &&
                text[i + 4] == '0' && text[i + 5] == '0') {
                *at = i;
                return 1;
            }
            i++; /* the escaped character: a quote or a backslash does not end or start anything */
        }
    }
    return 0;
}
