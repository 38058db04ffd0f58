/*
 * settings_now.h — the settings of the tests that call the library's internals directly (the
 * verifier's windows, a stored schedule's shards) or that vary the verifier's knobs run by run.
 *
 * The library's internals read the settings of the public call they are in (core/settings.c);
 * outside a call, the calling thread's, which these tests make test_settings (test_settings_enter,
 * first thing in main): the public calls they make with requests that name no settings inherit
 * them too, and the library's pool hands them to its workers. A thread a test starts itself
 * enters its own (test_shard_part's parts).
 */
#ifndef OC_TEST_SETTINGS_NOW_H
#define OC_TEST_SETTINGS_NOW_H

#include "core/core.h"

static oc_settings test_settings;

static inline void test_settings_enter(void) {
    oc__settings_enter(&test_settings);
}

#endif
