/*
 * kv.c — key=value lists: the algorithms' and the networks' parameters.
 *
 * A list keeps its insertion order (the reports print them in it) and a hash index over the keys
 * beside it, so a schedule with 200k parameters is read in linear time. The typed readers
 * (oc__kv_u64, oc__kv_double) refuse a bad value with the key, the value and the range.
 */
#include "core/core.h"
#include "core/quote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- key=value lists ---- */

oc_kv *oc_kv_new(void) {
    return calloc(1, sizeof(oc_kv));
}

void oc_kv_free(oc_kv *kv) {
    if (!kv) return;
    free(kv->slots);
    for (size_t i = 0; i < kv->count; i++) {
        free(kv->keys[i]);
        free(kv->values[i]);
    }
    free(kv->keys);
    free(kv->values);
    free(kv);
}

/* FNV-1a: short keys, no adversary worth a keyed hash (a file can only slow its own reading). */
static uint64_t key_hash(const char *key) {
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

/* The slot of `key` in the index: the one holding it, or the empty one where it would go. */
static size_t kv_slot(const oc_kv *kv, const char *key) {
    size_t mask = kv->nslots - 1, at = (size_t)key_hash(key) & mask;
    while (kv->slots[at] && strcmp(kv->keys[kv->slots[at] - 1], key) != 0)
        at = (at + 1) & mask;
    return at;
}

/* Makes room in the index for one more key (rebuilding it twice as large when half full). */
static int kv_reserve(oc_kv *kv) {
    if (kv->count >= UINT32_MAX - 1) return OC_ENOMEM;
    if (kv->nslots && (kv->count + 1) * 2 <= kv->nslots) return 0;
    size_t n = kv->nslots ? kv->nslots * 2 : 16;
    uint32_t *slots = oc__calloc(n, sizeof *slots);
    if (!slots) return OC_ENOMEM;
    free(kv->slots);
    kv->slots = slots;
    kv->nslots = n;
    for (size_t i = 0; i < kv->count; i++)
        kv->slots[kv_slot(kv, kv->keys[i])] = (uint32_t)(i + 1);
    return 0;
}

int oc_kv_set(oc_kv *kv, const char *key, const char *value) {
    if (!kv || !key || !*key || !value) return OC_EINVAL;
    char *v = strdup(value);
    if (!v) return OC_ENOMEM;
    if (kv_reserve(kv)) {
        free(v);
        return OC_ENOMEM;
    }
    size_t slot = kv_slot(kv, key);
    if (kv->slots[slot]) {
        size_t i = kv->slots[slot] - 1;
        free(kv->values[i]);
        kv->values[i] = v;
        return 0;
    }
    size_t kcap = kv->cap, vcap = kv->cap;
    if (oc__grow((void **)&kv->keys, &kcap, kv->count + 1, sizeof(char *)) ||
        oc__grow((void **)&kv->values, &vcap, kv->count + 1, sizeof(char *))) {
        free(v);
        return OC_ENOMEM;
    }
    kv->cap = kcap < vcap ? kcap : vcap;
    char *k = strdup(key);
    if (!k) {
        free(v);
        return OC_ENOMEM;
    }
    kv->keys[kv->count] = k;
    kv->values[kv->count] = v;
    kv->count++;
    kv->slots[slot] = (uint32_t)kv->count;
    return 0;
}

int oc_kv_set_pair(oc_kv *kv, const char *pair) {
    if (!pair) return OC_EPARSE;
    const char *eq = strchr(pair, '=');
    if (!eq || eq == pair) return OC_EPARSE;
    size_t klen = (size_t)(eq - pair);
    char *key = malloc(klen + 1);
    if (!key) return OC_ENOMEM;
    memcpy(key, pair, klen);
    key[klen] = 0;
    int rc = oc_kv_set(kv, key, eq + 1);
    free(key);
    return rc;
}

const char *oc_kv_get(const oc_kv *kv, const char *key) {
    if (!kv || !key || !kv->nslots) return NULL;
    uint32_t i = kv->slots[kv_slot(kv, key)];
    return i ? kv->values[i - 1] : NULL;
}

size_t oc_kv_count(const oc_kv *kv) {
    return kv ? kv->count : 0;
}
const char *oc_kv_key(const oc_kv *kv, size_t i) {
    return kv && i < kv->count ? kv->keys[i] : NULL;
}
const char *oc_kv_value(const oc_kv *kv, size_t i) {
    return kv && i < kv->count ? kv->values[i] : NULL;
}

int oc__kv_u64(const oc_kv *kv, const char *key, uint64_t dflt, uint64_t min, uint64_t max,
               uint64_t *out, char *why, size_t whylen) {
    const char *v = oc_kv_get(kv, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    int rc = oc_parse_u64(v, min, max, out);
    if (rc)
        return oc__fail(why, whylen, rc, "%s=%s: expected a whole number from %llu to %llu", key,
                        OC_Q(v), (unsigned long long)min, (unsigned long long)max);
    return 0;
}

int oc__kv_double(const oc_kv *kv, const char *key, double dflt, double min, double max,
                  double *out, char *why, size_t whylen) {
    const char *v = oc_kv_get(kv, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    int rc = oc_parse_double(v, min, max, out);
    if (rc)
        return oc__fail(why, whylen, rc, "%s=%s: expected a number from %g to %g", key, OC_Q(v),
                        min, max);
    return 0;
}

int oc__kv_copy(const oc_kv *src, oc_kv **out) {
    *out = oc_kv_new();
    for (size_t i = 0; *out && i < oc_kv_count(src); i++)
        if (oc_kv_set(*out, oc_kv_key(src, i), oc_kv_value(src, i))) {
            oc_kv_free(*out);
            *out = NULL;
        }
    return *out ? 0 : OC_ENOMEM;
}

int oc__kv_only(const oc_kv *kv, const char *const *known, const char *what, char *why,
                size_t whylen) {
    for (size_t i = 0; i < oc_kv_count(kv); i++) {
        int ok = 0;
        for (const char *const *k = known; *k; k++)
            if (strcmp(*k, kv->keys[i]) == 0) ok = 1;
        if (!ok) {
            char list[256] = "";
            for (const char *const *k = known; *k; k++) {
                if (*list) strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *k, sizeof list - strlen(list) - 1);
            }
            return oc__fail(why, whylen, OC_ENOENT, "unknown %s parameter '%s' (known: %s)", what,
                            OC_Q(kv->keys[i]), *list ? list : "none");
        }
    }
    return 0;
}
