/*
 * list.c — node-count and size lists (list.h): the text of `sweep --nodes/--sizes` and of
 * `reproduce --sizes`, parsed once for both.
 */
#include "core/list.h"
#include "core/core.h"
#include "core/quote.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Parses one value of a list: 0 when it parses and lies in lo..hi. */
static int list_value(const char *text, int sizes, uint64_t lo, uint64_t hi, uint64_t *v) {
    if (sizes) return oc_parse_size(text, v) || *v < lo || *v > hi;
    return oc_parse_u64(text, lo, hi, v) != 0;
}

int oc__parse_list(const char *flag, const char *text, int sizes, uint64_t *out, size_t max,
                   size_t *n, char *why, size_t whylen) {
    uint64_t lo = sizes ? 0 : 1, hi = sizes ? OC_MAX_BYTES : OC_MAX_NODES;
    const char *what = sizes ? "sizes (e.g. 4KiB,1MiB or 1KiB..64MiB:*4)"
                             : "node counts (e.g. 3,5,12 or 2..64 or 4..100:+8)";
    *n = 0;
    if (!*text) return oc__fail(why, whylen, OC_EINVAL, "%s: empty list; expected %s", flag, what);
    /* strtok_r would skip an empty item ("4,,8", "4,"): refuse it, it is a typo */
    for (const char *c = text; *c; c++)
        if (*c == ',' && (c == text || c[1] == ',' || c[1] == 0))
            return oc__fail(why, whylen, OC_EINVAL, "%s %s: an empty item in the list (e.g. 4,,8)",
                            flag, OC_Q(text));
    char *copy = strdup(text), *save = NULL;
    if (!copy) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, ".."), *step = NULL;
        uint64_t a, b, s = 2;
        int mul = 1;
        if (!dots) {
            if (list_value(item, sizes, lo, hi, &a)) goto bad;
            if (*n >= max) goto toomany;
            out[(*n)++] = a;
            continue;
        }
        *dots = 0;
        step = strchr(dots + 2, ':');
        if (step) {
            *step++ = 0;
            if (*step != '*' && *step != '+') goto bad;
            mul = *step == '*';
            if (oc_parse_u64(step + 1, mul ? 2 : 1, hi, &s)) goto bad;
        }
        if (list_value(item, sizes, lo, hi, &a) || list_value(dots + 2, sizes, lo, hi, &b))
            goto bad;
        if (a > b || (mul && a == 0)) goto bad;
        for (uint64_t v = a; v <= b;) {
            if (*n >= max) goto toomany;
            out[(*n)++] = v;
            if (mul ? v > b / s : v > b - s) break;
            v = mul ? v * s : v + s;
        }
        continue;
    bad:
        rc = oc__fail(why, whylen, OC_EINVAL, "%s %s: expected %s", flag, OC_Q(text), what);
        break;
    toomany:
        rc = oc__fail(why, whylen, OC_EINVAL, "%s %s: more than %zu values", flag, OC_Q(text), max);
        break;
    }
    free(copy);
    if (rc) return rc;
    qsort(out, *n, sizeof *out, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (!k || out[k - 1] != out[i]) out[k++] = out[i];
    *n = k;
    return 0;
}
