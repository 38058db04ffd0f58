/*
 * settings.c — the settings a call was given (oc_settings, opticoll_core.h), where the library's
 * rooms read them.
 *
 * The public calls take their settings as a value the caller owns (in the request, or a first
 * argument), as libuv's calls take their loop. Handing that value down by hand through every
 * generator, reader, verifier and model that asks the memory budget (some fifty places, most of
 * them several calls below the entry point and shared by every entry point) would put a settings
 * argument on most internal functions for one number; instead the entry point makes the value
 * the calling thread's for the length of the call (oc__settings_enter / oc__settings_leave, which
 * nest), and the library's pool hands it to each worker it starts (core/pool.c), so that all the
 * work of one call, on every thread, reads the caller's value and nothing else. Nothing here is
 * the process's: two threads in two calls with two values each read their own, and outside any
 * call (a test calling an internal function directly) the defaults hold.
 *
 * A call given no settings (NULL) keeps those of the call it is inside: a study's runs, made from
 * requests the study built, take the study's settings without each request naming them.
 */
#include "core/core.h"

/* Every field zero: the defaults. */
static const oc_settings defaults;

/* The settings of the call this thread is in; NULL outside any call. */
static _Thread_local const oc_settings *settings_now;

const oc_settings *oc__settings(void) {
    return settings_now ? settings_now : &defaults;
}

const oc_settings *oc__settings_enter(const oc_settings *s) {
    const oc_settings *prev = settings_now;
    if (s) settings_now = s;
    return prev;
}

void oc__settings_leave(const oc_settings *prev) {
    settings_now = prev;
}

int oc_settings_check(const oc_settings *s, char *why, size_t whylen) {
    if (!s) return 0;
    if (s->work_budget &&
        (s->work_budget < OC_MIN_WORK_BUDGET || s->work_budget > OC_MAX_TRANSFERS))
        return oc__fail(why, whylen, OC_EINVAL,
                        "work budget of %llu: expected 0 (the default) or %llu to "
                        "%llu",
                        (unsigned long long)s->work_budget, (unsigned long long)OC_MIN_WORK_BUDGET,
                        (unsigned long long)OC_MAX_TRANSFERS);
    if (!s->memory_budget) return 0;
    if (s->memory_budget < (UINT64_C(1) << 20) || s->memory_budget > OC_MAX_MEMORY_BUDGET)
        return oc__fail(why, whylen, OC_EINVAL,
                        "memory budget of %llu bytes: expected 0 (the default) or 1 MiB to %llu "
                        "bytes",
                        (unsigned long long)s->memory_budget,
                        (unsigned long long)OC_MAX_MEMORY_BUDGET);
    return 0;
}

int oc__settings_enter_checked(const oc_settings *s, const oc_settings **prev, char *why,
                               size_t whylen) {
    *prev = settings_now;
    int rc = oc_settings_check(s, why, whylen);
    if (!rc) oc__settings_enter(s);
    return rc;
}

uint64_t oc_settings_memory_budget(const oc_settings *s) {
    return s && s->memory_budget ? s->memory_budget : OC_DEFAULT_MEMORY_BUDGET;
}

unsigned oc_settings_verify_threads(const oc_settings *s) {
    return s && s->verify_threads ? s->verify_threads : 2;
}

uint64_t oc_settings_work_budget(const oc_settings *s) {
    return s && s->work_budget ? s->work_budget : OC_DEFAULT_WORK_BUDGET;
}

uint64_t oc__memory_budget(void) {
    return oc_settings_memory_budget(oc__settings());
}

unsigned oc__text_width(void) {
    return oc__settings()->text_width;
}

uint32_t oc__verify_shard(void) {
    return oc__settings()->verify_shard;
}

unsigned oc__verify_threads(void) {
    return oc_settings_verify_threads(oc__settings());
}

oc_part *oc__settings_part(void) {
    return oc__settings()->part;
}
