/*
 * json.c — the one JSON writer (json.h): numbers that read back exactly, the adders every writer
 * builds its cJSON tree with, and the printing of a tree in the house style.
 *
 * Why numbers are raw items: cJSON stores a number as a double and prints it with %1.15g unless
 * that reads back further than DBL_EPSILON times the value from it; so 1/3 survives (17 digits)
 * but 0.30000000000000004 becomes 0.3, a uint64 above 2^53 loses its last digits, and one double
 * in six in [1e-10, 1e10] comes back different (measured on Debian 12's libcjson 1.7.15). A raw
 * item prints the text we give it, so the text is ours: the shortest %.Ng (N = 15, 16, 17) that
 * strtod maps back to the same double. %.15g first, because every double whose shortest decimal
 * form has at most 15 digits prints as that form (DBL_DIG = 15): the values the old %.9g writer
 * printed exactly keep their text.
 */
#include "core/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

char *oc__json_number_text(char buf[OC__JSON_NUMBER_SIZE], double v) {
    if (!isfinite(v)) {
        memcpy(buf, "null", 5);
    } else if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, OC__JSON_NUMBER_SIZE, "%.0f", v);
    } else {
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buf, OC__JSON_NUMBER_SIZE, "%.*g", digits, v);
            if (strtod(buf, NULL) == v) break; /* %.17g always does */
        }
    }
    return buf;
}

int oc_json_add(cJSON *to, const char *key, cJSON *item) {
    int ok =
        to && item && (key ? cJSON_AddItemToObject(to, key, item) : cJSON_AddItemToArray(to, item));
    if (!ok) cJSON_Delete(item);
    return ok;
}

int oc__json_raw(cJSON *to, const char *key, const char *json) {
    return oc__json_add(to, key, to ? cJSON_CreateRaw(json) : NULL);
}

int oc_json_num(cJSON *to, const char *key, double v) {
    char buf[OC__JSON_NUMBER_SIZE];
    return oc__json_raw(to, key, oc__json_number_text(buf, v));
}

char *oc__json_u64_text(char buf[OC__JSON_NUMBER_SIZE], uint64_t v) {
    /* digits from the right; not snprintf, which is a tenth of a schedule export's time */
    char *p = buf + OC__JSON_NUMBER_SIZE;
    *--p = '\0';
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    return p;
}

int oc_json_u64(cJSON *to, const char *key, uint64_t v) {
    char buf[OC__JSON_NUMBER_SIZE];
    return oc__json_raw(to, key, oc__json_u64_text(buf, v));
}

int oc_json_str(cJSON *to, const char *key, const char *s) {
    if (!to) return 0;
    return oc__json_add(to, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

int oc_json_bool(cJSON *to, const char *key, int v) {
    return oc__json_add(to, key, to ? cJSON_CreateBool(v != 0) : NULL);
}

int oc_json_null(cJSON *to, const char *key) {
    return oc__json_add(to, key, to ? cJSON_CreateNull() : NULL);
}

cJSON *oc_json_obj(cJSON *to, const char *key) {
    cJSON *o = to ? cJSON_CreateObject() : NULL;
    return oc__json_add(to, key, o) ? o : NULL;
}

cJSON *oc_json_arr(cJSON *to, const char *key) {
    cJSON *a = to ? cJSON_CreateArray() : NULL;
    return oc__json_add(to, key, a) ? a : NULL;
}

int oc__json_value(cJSON *to, const char *key, const char *text) {
    char buf[OC__JSON_NUMBER_SIZE];
    double v;
    if (text && oc_parse_double(text, -HUGE_VAL, HUGE_VAL, &v) == 0 &&
        !strcmp(oc__json_number_text(buf, v), text))
        return oc__json_raw(to, key, buf);
    return oc__json_str(to, key, text);
}

int oc_json_kv(cJSON *to, const char *key, const oc_kv *kv) {
    cJSON *o = oc__json_obj(to, key);
    int ok = o != NULL;
    for (size_t i = 0; ok && i < oc_kv_count(kv); i++)
        ok = oc__json_value(o, oc_kv_key(kv, i), oc_kv_value(kv, i));
    return ok;
}

/* cJSON's compact text with one space after every ',' and ':' outside strings (any whitespace
 * there, as in raw text another writer spaced, is dropped first, so spacing twice is spacing
 * once). */
static char *spaced(const char *s) {
    size_t n = 0, seps = 0;
    int in_string = 0;
    for (; s[n]; n++) {
        if (in_string) {
            if (s[n] == '\\' && s[n + 1])
                n++;
            else if (s[n] == '"')
                in_string = 0;
        } else if (s[n] == '"') {
            in_string = 1;
        } else if (s[n] == ',' || s[n] == ':') {
            seps++;
        }
    }
    char *out = malloc(n + seps + 1), *o = out;
    if (!out) return NULL;
    in_string = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            *o++ = c;
            if (c == '\\' && s[i + 1])
                *o++ = s[++i];
            else if (c == '"')
                in_string = 0;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
        *o++ = c;
        if (c == '"') in_string = 1;
        if (c == ',' || c == ':') *o++ = ' ';
    }
    *o = '\0';
    return out;
}

char *oc__json_text(const cJSON *tree, int style) {
    char *compact = tree ? cJSON_PrintUnformatted(tree) : NULL;
    if (!compact) return NULL;
    /* cJSON allocates with its own hooks; the caller frees ours with free(). */
    char *out = style == OC__JSON_COMPACT ? strdup(compact) : spaced(compact);
    cJSON_free(compact);
    return out;
}

/* Writes text[from, to) and `end`; frees text. */
static int put(FILE *f, char *text, size_t from, size_t to, const char *end) {
    if (to > from && fwrite(text + from, 1, to - from, f) != to - from) {
        free(text);
        return OC_EIO;
    }
    free(text);
    if (end && *end && fputs(end, f) == EOF) return OC_EIO;
    return ferror(f) ? OC_EIO : 0;
}

int oc_json_write(FILE *f, cJSON *tree, int style, const char *end) {
    char *text = oc__json_text(tree, style);
    cJSON_Delete(tree);
    if (!text) return OC_ENOMEM;
    return put(f, text, 0, strlen(text), end);
}

int oc__json_write_members(FILE *f, cJSON *tree) {
    int object = cJSON_IsObject(tree);
    char *text = object ? oc__json_text(tree, OC__JSON_SPACED) : NULL;
    cJSON_Delete(tree);
    if (!text) return OC_ENOMEM;
    size_t n = strlen(text); /* "{...}": the members are what lies between the braces */
    return put(f, text, 1, n - 1, NULL);
}

int oc_write_json_string(FILE *f, const char *s) {
    return oc__json_write(f, cJSON_CreateString(s ? s : ""), OC__JSON_COMPACT, NULL);
}
