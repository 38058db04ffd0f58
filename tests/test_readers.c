/*
 * test_readers.c — the memory budget, the bounded file read, the
 * readers at the sizes where they were quadratic, MSCCL races and lax parsing.
 *
 * Every check here failed before the fix it guards: a 51-byte all-to-all file took 16 GB and 51 s,
 * 200 reduces of a million chunks in one round asked for 8 GB of staging, /dev/zero was read until
 * memory ran out, "0x10" was 16, duplicate keys kept the first, a BOM-prefixed XML file was read as
 * JSON, the racy MSCCL files in tests/msccl/ verified, and the scale inputs (bench/readers.c) took
 * 5 to 14 s each. Timing is not asserted (tests are not benchmarks); the sizes are those of the
 * issue, which the linear readers handle in well under a second each.
 *
 *   test_readers DIR    DIR: tests/msccl (the hand-written MSCCL files)
 */
#include "../bench/readers.h"
#include "check.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/oc_readers_XXXXXX";

static const char *tmp_path(const char *name) {
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

static int write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    return fclose(f) || bad ? -1 : 0;
}

/* The settings the readers below are given (the budget varies). */
static oc_settings settings;

/* oc_verify_file of `text` written to a file; the reason in why. */
static int verify_text(const char *text, char *why, size_t len) {
    const char *path = tmp_path("t.json");
    if (write_text(path, text)) return -100;
    oc_report *rep = NULL;
    why[0] = 0;
    int rc = oc_verify_file(&settings, path, NULL, NULL, &rep, why, len);
    oc_report_free(rep);
    return rc;
}

static void test_budget_api(void) {
    /* the settings' budget: 0 and NULL are the default; 1 MiB .. the max accepted */
    oc_settings set = {0};
    CHECK(oc_settings_memory_budget(NULL) == OC_DEFAULT_MEMORY_BUDGET &&
              oc_settings_memory_budget(&set) == OC_DEFAULT_MEMORY_BUDGET,
          "default %llu", (unsigned long long)oc_settings_memory_budget(&set));
    char why[256];
    CHECK(oc_settings_check(NULL, why, sizeof why) == 0 &&
              oc_settings_check(&set, why, sizeof why) == 0,
          "the defaults refused: %s", why);
    const uint64_t refused[] = {1, (UINT64_C(1) << 20) - 1, OC_MAX_MEMORY_BUDGET + 1};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        set.memory_budget = refused[i];
        CHECK(oc_settings_check(&set, why, sizeof why) == OC_EINVAL && strstr(why, "memory budget"),
              "%llu bytes accepted", (unsigned long long)refused[i]);
        /* and every call given them refuses them before any work */
        oc_report *rep = NULL;
        oc_request req = {.collective = OC_ALLGATHER,
                          .algorithm = "ring",
                          .nodes = 4,
                          .bytes = 4,
                          .settings = &set};
        CHECK(oc_run(&req, &rep, why, sizeof why) == OC_EINVAL && !rep && strstr(why, "budget"),
              "a run with %llu bytes of budget: %s", (unsigned long long)refused[i], why);
        CHECK(oc_budget_check(&set, 1, "x", why, sizeof why) == OC_EINVAL, "the check took it");
    }
    set.memory_budget = UINT64_C(3) << 20;
    CHECK(oc_settings_check(&set, why, sizeof why) == 0 &&
              oc_settings_memory_budget(&set) == UINT64_C(3) << 20,
          "3 MiB");
    int rc = oc_budget_check(&set, UINT64_C(5) << 20, "the thing", why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strcmp(why, "the thing needs 5 MiB, more than the memory budget of "
                                          "3 MiB (set OPTICOLL_MEMORY_BUDGET_MIB)") == 0,
          "%d %s", rc, why);
    CHECK(oc_budget_check(&set, UINT64_C(3) << 20, "x", why, sizeof why) == 0, "at the budget");
    CHECK(oc_budget_check(NULL, UINT64_C(3) << 30, "x", why, sizeof why) == 0, "the default's");
    /* the internals read the settings of the call they are in (here: made so by hand) */
    CHECK(oc__file_cap() == OC_DEFAULT_MEMORY_BUDGET / 64, "file cap outside a call");
    const oc_settings *prev = oc__settings_enter(&set);
    CHECK(oc__file_cap() == (UINT64_C(3) << 20) / 64, "file cap");
    CHECK(oc__budget_check(UINT64_C(5) << 20, "y", why, sizeof why) == OC_ETOOBIG, "inside");
    CHECK(oc__settings_enter(NULL) == &set && oc__memory_budget() == UINT64_C(3) << 20,
          "a call given none keeps the outer call's");
    oc__settings_leave(prev);
    CHECK(oc__memory_budget() == OC_DEFAULT_MEMORY_BUDGET, "left: the default again");
    /* the CLIs' variables, read into a value */
    uint64_t mib = 1;
    CHECK(oc_memory_budget_from_env("abc", NULL, &mib, why, sizeof why) == OC_EINVAL &&
              strstr(why, "OPTICOLL_MEMORY_BUDGET_MIB=abc: expected a whole number of MiB") &&
              mib == 1,
          "%s", why);
    CHECK(oc_memory_budget_from_env(NULL, "x", &mib, why, sizeof why) == OC_EINVAL &&
              strstr(why, "OPTICOLL_VERIFY_BUDGET_MIB=x"),
          "%s", why);
    CHECK(oc_memory_budget_from_env("0", NULL, &mib, why, sizeof why) == OC_EINVAL, "0 MiB");
    CHECK(oc_memory_budget_from_env("0x10", NULL, &mib, why, sizeof why) == OC_EINVAL, "hex MiB");
    CHECK(oc_memory_budget_from_env(NULL, NULL, &mib, why, sizeof why) == 0 && mib == 0,
          "unset: the default");
    CHECK(oc_memory_budget_from_env("", "", &mib, why, sizeof why) == 0 && mib == 0,
          "set to nothing: unset");
    CHECK(oc_memory_budget_from_env("7", "9", &mib, why, sizeof why) == 0 && mib == UINT64_C(7)
                                                                                        << 20,
          "7 MiB: the new name wins");
    CHECK(oc_memory_budget_from_env(NULL, "9", &mib, why, sizeof why) == 0 && mib == UINT64_C(9)
                                                                                         << 20,
          "the old name alone");
    char b[32];
    oc__format_bytes(b, sizeof b, (UINT64_C(21) << 30) / 10);
    CHECK(strcmp(b, "2.1 GiB") == 0, "%s", b);
    oc__format_bytes(b, sizeof b, 100);
    CHECK(strcmp(b, "100 B") == 0, "%s", b);
}

static void test_read_file(void) {
    char why[256], *buf = NULL;
    size_t n = 0;
    int rc = oc__read_file("/dev/zero", UINT64_C(1) << 20, "zeros", &buf, &n, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && !buf && strstr(why, "zeros is larger than 1 MiB"), "%d %s", rc, why);
    rc = oc__read_file("/nonexistent/x", 0, NULL, &buf, &n, why, sizeof why);
    CHECK(rc == OC_EIO && strstr(why, "/nonexistent/x"), "%d %s", rc, why);
    const char *path = tmp_path("small");
    CHECK(write_text(path, "hello") == 0, "write");
    rc = oc__read_file(path, 5, NULL, &buf, &n, why, sizeof why);
    CHECK(rc == 0 && n == 5 && strcmp(buf, "hello") == 0, "%d", rc);
    free(buf);
    buf = NULL;
    rc = oc__read_file(path, 4, NULL, &buf, &n, why, sizeof why);
    CHECK(rc == OC_ETOOBIG, "one byte over the cap: %d", rc);
    CHECK(write_text(path, "") == 0, "write");
    rc = oc__read_file(path, 0, NULL, &buf, &n, why, sizeof why);
    CHECK(rc == 0 && n == 0 && buf && !*buf, "empty file %d", rc);
    free(buf);
    /* every reader goes through it: a schedule, a models file */
    oc_report *rep = NULL;
    const oc_settings small = {.memory_budget = UINT64_C(4) << 20};
    rc = oc_verify_file(&small, "/dev/zero", NULL, NULL, &rep, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "larger than 64 KiB, the input file cap"),
          "verify /dev/zero: %d %s", rc, why);
    oc_model *m = NULL;
    size_t count = 0;
    rc = oc_models_read(&small, "/dev/zero", &m, &count, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && !m && strstr(why, "64 KiB"), "models /dev/zero: %d %s", rc, why);
    rc = oc_models_read(NULL, "/dev/zero", &m, &count, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "larger than 16 MiB, the most this kind of file may be"),
          "models /dev/zero at the default budget: %d %s", rc, why);
}

static void test_parse_decimal(void) {
    static const char *const bad[] = {"0x10",  "0x1p-1", "0x.8p0",   "0X10", "inf", "-inf",
                                      "nan",   "NAN",    "infinity", " 1",   "1 ",  "",
                                      "+",     ".",      "e5",       "1e",   "1e+", "--1",
                                      "1.2.3", "0x",     "1,5",      "1e5x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = -42;
        int rc = oc_parse_double(bad[i], -1e300, 1e300, &v);
        CHECK(rc == OC_EPARSE && v == -42, "'%s' accepted (%d, %g)", bad[i], rc, v);
    }
    static const struct {
        const char *text;
        double v;
    } good[] = {{"16", 16},     {"-2.5", -2.5}, {".5", 0.5}, {"5.", 5},
                {"1e-3", 1e-3}, {"1E+3", 1e3},  {"+7", 7},   {"0.000001", 1e-6}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -42;
        int rc = oc_parse_double(good[i].text, -1e300, 1e300, &v);
        CHECK(rc == 0 && v == good[i].v, "'%s': %d %g", good[i].text, rc, v);
    }
    double v;
    CHECK(oc_parse_double("1e999", -1e300, 1e300, &v) == OC_ERANGE, "overflow");
    uint64_t u;
    CHECK(oc_parse_u64("0x10", 0, 100, &u) == OC_EPARSE, "hex integer");
    CHECK(oc_parse_u64("16", 0, 100, &u) == 0 && u == 16, "16");
    /* through a network parameter, as `--net reconfig_us=0x10` gives it */
    oc_kv *kv = oc_kv_new();
    char why[256];
    CHECK(oc_kv_set(kv, "reconfig_us", "0x10") == 0, "set");
    CHECK(oc__kv_double(kv, "reconfig_us", 25, 0, 1e9, &v, why, sizeof why) == OC_EPARSE,
          "reconfig_us=0x10");
    oc_kv_free(kv);
}

static void test_kv(void) {
    oc_kv *kv = oc_kv_new();
    const size_t n = 200000;
    char k[32], val[32];
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        snprintf(k, sizeof k, "k%zu", i);
        snprintf(val, sizeof val, "%zu", i);
        ok = oc_kv_set(kv, k, val) == 0;
    }
    CHECK(ok && oc_kv_count(kv) == n, "200k keys set");
    for (size_t i = 0; i < n && ok; i += 997) {
        snprintf(k, sizeof k, "k%zu", i);
        const char *g = oc_kv_get(kv, k);
        ok = g && strtoull(g, NULL, 10) == i && strcmp(oc_kv_key(kv, i), k) == 0;
    }
    CHECK(ok, "lookups and insertion order");
    CHECK(oc_kv_set(kv, "k5", "new") == 0 && oc_kv_count(kv) == n &&
              strcmp(oc_kv_get(kv, "k5"), "new") == 0 && strcmp(oc_kv_value(kv, 5), "new") == 0,
          "replacing keeps the place");
    CHECK(!oc_kv_get(kv, "missing") && !oc_kv_get(kv, "k200000"), "absent keys");
    oc_kv_free(kv);
    oc_kv *e = oc_kv_new();
    CHECK(!oc_kv_get(e, "x") && oc_kv_count(e) == 0, "empty list");
    oc_kv_free(e);
}

static void test_schedule_json(void) {
    char why[512];
    const char *rounds = "\"rounds\": [[{\"src\": 0, \"dst\": 1, \"chunks\": [0, 1]}, "
                         "{\"src\": 1, \"dst\": 0, \"chunks\": [1, 1]}]]";
    char text[1024];
    snprintf(text, sizeof text, "{\"collective\": \"allgather\", \"nodes\": 2, %s}", rounds);
    CHECK(verify_text(text, why, sizeof why) == 0, "plain file: %s", why);
    /* duplicate keys: refused, wherever they are */
    static const struct {
        const char *text, *expect;
    } dups[] = {
        {"{\"collective\": \"allgather\", \"nodes\": 2, \"nodes\": 3, %s}",
         "\"nodes\" appears twice in the top-level object"},
        {"{\"collective\": \"allgather\", \"collective\": \"gather\", \"nodes\": 2, %s}",
         "\"collective\" appears twice"},
        {"{\"collective\": \"allgather\", \"nodes\": 2, \"params\": {\"k\": 1, \"a\": 2, \"b\": 3, "
         "\"c\": 4, \"d\": 5, \"e\": 6, \"f\": 7, \"g\": 8, \"h\": 9, \"k\": 2}, %s}",
         "\"k\" appears twice in \"params\""},
        {"{\"collective\": \"allgather\", \"nodes\": 2, \"network\": \"switch\", "
         "\"network_params\": {\"alpha_us\": 1, \"alpha_us\": 2}, %s}",
         "\"alpha_us\" appears twice in \"network_params\""},
    };
    for (size_t i = 0; i < sizeof dups / sizeof dups[0]; i++) {
        snprintf(text, sizeof text, dups[i].text, rounds);
        int rc = verify_text(text, why, sizeof why);
        CHECK(rc == OC_EPARSE && strstr(why, dups[i].expect), "dup %zu: %d %s", i, rc, why);
    }
    int rc = verify_text("{\"collective\": \"allgather\", \"nodes\": 2, \"rounds\": [[{\"src\": "
                         "0, \"dst\": 1, \"op\": \"copy\", \"op\": \"reduce\", \"chunks\": [0, "
                         "1]}]]}",
                         why, sizeof why);
    CHECK(rc == OC_EPARSE && strstr(why, "\"op\" appears twice in round 0, transfer 0"), "%d %s",
          rc, why);
    /* a UTF-8 byte order mark before JSON */
    snprintf(text, sizeof text, "\xEF\xBB\xBF{\"collective\": \"allgather\", \"nodes\": 2, %s}",
             rounds);
    CHECK(verify_text(text, why, sizeof why) == 0, "BOM + JSON: %s", why);
    /* an all-to-all on 46341 nodes in 100 bytes (one transfer of every chunk: as many as a
     * complete schedule moves, so no count refuses it): refused at once, saying what it needs */
    rc = verify_text("{\"collective\":\"alltoall\",\"nodes\":46341,\"rounds\":[[{\"src\":0,"
                     "\"dst\":1,\"chunks\":[0,2147488281]}]]}",
                     why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "verifying alltoall on 46341 nodes") &&
              strstr(why, "needs 16.0 GiB, more than the memory budget of 4 GiB"),
          "%d %s", rc, why);
    /* 200 reduces of 2^20 chunks in one round: 8 GiB of staging in one pass; verified in chunk
     * shards, each staging only its window, it gets its verdict: the second reduce
     * counts node 0 twice */
    size_t cap = 200 * 64 + 256;
    char *big = malloc(cap);
    size_t at = (size_t)snprintf(big, cap,
                                 "{\"collective\": \"allreduce\", \"nodes\": 2, "
                                 "\"chunks_per_block\": 1048576, \"rounds\": [[");
    for (int i = 0; i < 200; i++)
        at += (size_t)snprintf(big + at, cap - at,
                               "%s{\"src\": 0, \"dst\": 1, \"op\": \"reduce\", \"chunks\": [0, "
                               "1048576]}",
                               i ? ", " : "");
    snprintf(big + at, cap - at, "]]}");
    rc = verify_text(big, why, sizeof why);
    free(big);
    CHECK(rc == OC_EVERIFY && !strcmp(why, "round 0: node 1 counts the contribution of node 0 "
                                           "twice in chunk 0 (piece 0 of 1048576) (reduce from "
                                           "node 0)"),
          "%d %s", rc, why);
    /* a lowered budget no longer refuses the verifier's cells: they are verified in shards that
     * fit it, and the empty schedule gets its verdict */
    settings.memory_budget = UINT64_C(16) << 20;
    rc = verify_text(
        "{\"collective\":\"allreduce\",\"nodes\":1024,\"chunks_per_block\":1024,\"rounds\":[]}",
        why, sizeof why);
    CHECK(rc == OC_EVERIFY && !strcmp(why, "at the end: node 0 is missing the contribution of "
                                           "node 1 in chunk 0 (piece 0 of 1024)"),
          "%d %s", rc, why);
    /* and the reader's tree: 400 kB of "[[[[..." is 400k cJSON items, more than 32 MiB */
    settings.memory_budget = UINT64_C(32) << 20;
    size_t blen = 400000;
    char *arr = malloc(blen + 64);
    at = (size_t)snprintf(arr, 64, "{\"collective\":\"allgather\",\"nodes\":2,\"x\":");
    while (at < blen)
        arr[at++] = '[';
    arr[at] = 0;
    rc = verify_text(arr, why, sizeof why);
    free(arr);
    CHECK(rc == OC_ETOOBIG && strstr(why, "reading ") && strstr(why, "needs"), "%d %s", rc, why);
    settings.memory_budget = 0;
}

static void test_msccl_files(const char *dir) {
    static const struct {
        const char *file;
        int rc;
        const char *expect;
    } cases[] = {
        {"ring-split-ok.xml", 0, ""},
        {"direct-ok.xml", 0, ""},
        {"race-send.xml", OC_EVERIFY,
         "gpu 0: step 0 (rrc) of threadblock 1 and step 1 (s) of threadblock 0 read and write "
         "output chunk 1 with no wait (depid/deps) between them (a race)"},
        {"race-recv.xml", OC_EVERIFY,
         "gpu 0: step 2 (r) of threadblock 0 and step 1 (r) of threadblock 1 both write output "
         "chunk 2 with no wait (depid/deps) between them (a race)"},
        {"self-dep.xml", OC_EVERIFY,
         "gpu 2 threadblock 1 step 0 waits (depid/deps) for itself: it would never run"},
        {"self-later.xml", OC_EVERIFY,
         "gpu 0 threadblock 0 step 0 waits (depid/deps) for its own later step 1"},
        {"wait-cycle.xml", OC_EVERIFY,
         "gpu 0 threadblock 0 step 0 (s) never runs: the steps' order, messages and waits form "
         "a cycle (the MSCCL program would deadlock)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[512], why[512] = "";
        snprintf(path, sizeof path, "%s/%s", dir, cases[i].file);
        oc_report *rep = NULL;
        int rc = oc_verify_file(&settings, path, NULL, NULL, &rep, why, sizeof why);
        CHECK(rc == cases[i].rc && strstr(why, cases[i].expect) && (rc || oc_report_verified(rep)),
              "%s: %d %s", cases[i].file, rc, why);
        oc_report_free(rep);
    }
    /* 2 GPUs with nchunksperloop = 2^26: a 200-byte file refused at once (it took 2.1 GB) */
    char why[512];
    int rc = verify_text("<algo ngpus=\"2\" nchunksperloop=\"67108864\" coll=\"allreduce\">"
                         "<gpu id=\"0\"/><gpu id=\"1\"/></algo>",
                         why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "268435456 (GPU, chunk) pairs"), "%d %s", rc, why);
}

/* Export then import, MSCCL XML, every algorithm at N = 3, 5, 8 (and 16, the first square mesh
 * of powers of two, for qex) on its first network (wormhole on the direct networks, as on MPI);
 * and the same file behind a byte order mark. */
static void test_msccl_roundtrip(void) {
    size_t exported = 0;
    oc_kv *wh = oc_kv_new();
    CHECK(wh && oc_kv_set(wh, "switching", "wh") == 0, "kv");
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        char net[32];
        snprintf(net, sizeof net, "%.*s", (int)strcspn(a->networks, ","), a->networks);
        const int direct =
            !strcmp(net, "hypercube") || !strcmp(net, "mesh") || !strcmp(net, "torus");
        static const uint32_t ns[] = {3, 5, 8, 16};
        for (size_t k = 0; k < 4; k++) {
            oc_request req = {.collective = a->collective,
                              .algorithm = a->name,
                              .network = net,
                              .net_params = direct ? wh : NULL,
                              .nodes = ns[k],
                              .bytes = 4096};
            const char *path = tmp_path("m.xml");
            FILE *f = fopen(path, "w");
            char why[512] = "";
            int rc = oc_export_msccl(&req, f, why, sizeof why);
            fclose(f);
            if (rc == OC_ENOTSUP || rc == OC_EINVAL || rc == OC_ETOOBIG || rc == OC_ERANGE)
                continue; /* a restriction of the algorithm at this N */
            CHECK(rc == 0, "export %s %s N=%u: %s", oc_collective_name(a->collective), a->name,
                  ns[k], why);
            if (rc) continue;
            exported++;
            oc_report *rep = NULL;
            rc = oc_verify_file(&settings, path, NULL, NULL, &rep, why, sizeof why);
            oc_report_free(rep);
            /* every export re-imports: the writer follows the runtimes' rules (the
             * writer before it made files that verify refuses, tests/msccl/old-export-*.xml) */
            CHECK(rc == 0, "import %s %s N=%u: %s", oc_collective_name(a->collective), a->name,
                  ns[k], why);
            if (rc || ns[k] != 5 || i % 4) continue;
            /* behind a BOM: still MSCCL's XML, not malformed JSON */
            char *xml = NULL;
            size_t n = 0;
            if (oc__read_file(path, 0, NULL, &xml, &n, why, sizeof why)) continue;
            const char *bpath = tmp_path("bom.xml");
            FILE *b = fopen(bpath, "wb");
            fputs("\xEF\xBB\xBF", b);
            fwrite(xml, 1, n, b);
            fclose(b);
            free(xml);
            rc = oc_verify_file(&settings, bpath, NULL, NULL, &rep, why, sizeof why);
            CHECK(rc == 0, "BOM + XML %s: %s", a->name, why);
            oc_report_free(rep);
        }
    }
    oc_kv_free(wh);
    printf("exported and re-imported %zu schedules\n", exported);
    CHECK(exported >= 110, "exported and re-imported %zu schedules", exported);
}

static void test_models(void) {
    oc_model *m = NULL;
    size_t count = 0;
    char why[256];
    const char *text = "a\t1\t1\t1\nb\t1\t1\t1\nc\t1\t1\t1\nB\t1\t1\t1\nA\t1\t1\t1\n";
    int rc = oc_models_parse(text, strlen(text), "f", &m, &count, why, sizeof why);
    CHECK(rc == OC_EPARSE && strcmp(why, "f:4: model 'B' is already defined on line 2 (names "
                                         "ignore case)") == 0,
          "%d %s", rc, why);
    text = "a\t1\t1\t1\nA\t1\t1\t1\nbad line\n";
    rc = oc_models_parse(text, strlen(text), "f", &m, &count, why, sizeof why);
    CHECK(rc == OC_EPARSE && strstr(why, "f:2: model 'A'"), "duplicate before a bad line: %s", why);
    text = "a\t1\t1\t1\nbad line\nA\t1\t1\t1\n";
    rc = oc_models_parse(text, strlen(text), "f", &m, &count, why, sizeof why);
    CHECK(rc == OC_EPARSE && strstr(why, "f:2:") && !strstr(why, "already"),
          "bad line before a duplicate: %s", why);
}

/* The readers' large inputs at the sizes that were (quadratic: 5.5 to more than 10 s each). */
static void test_scale(void) {
    static const size_t sizes[OC_RK_COUNT] = {200000, 200000, 262144, 131071, 50000};
    /* the MSCCL file is 74 MB: past the default file cap (64 MiB), under a budget of 8 GiB's */
    settings.memory_budget = UINT64_C(8) << 30;
    for (int k = 0; k < OC_RK_COUNT; k++) {
        const char *path = tmp_path(k == OC_RK_MSCCL_TBS ? "scale.xml" : "scale");
        char why[512] = "";
        CHECK(oc_reader_write(k, sizes[k], path) == 0, "write %s", oc_reader_kind_name(k));
        int rc = oc_reader_read(&settings, k, sizes[k], path, why, sizeof why);
        CHECK(rc == 0, "%s, %zu %s: %d %s", oc_reader_kind_name(k), sizes[k],
              oc_reader_kind_unit(k), rc, why);
        unlink(path);
    }
    settings.memory_budget = 0;
}

int main(int argc, char **argv) {
    if (!mkdtemp(tmpdir)) return 2;
    test_budget_api();
    test_read_file();
    test_parse_decimal();
    test_kv();
    test_schedule_json();
    if (argc > 1) test_msccl_files(argv[1]);
    test_msccl_roundtrip();
    test_models();
    test_scale();
    static const char *const names[] = {"t.json", "small", "m.xml", "bom.xml"};
    for (size_t i = 0; i < 4; i++)
        unlink(tmp_path(names[i]));
    rmdir(tmpdir);
    return CHECK_SUMMARY();
}
