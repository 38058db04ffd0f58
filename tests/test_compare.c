/*
 * test_compare.c — tests of oc_compare (src/studies/compare.c), the loop behind `opticoll compare`
 * and the Python package's compare: which algorithms run, with which pins, and what is listed as
 * not run.
 *
 * Every compare is checked against oc_run called directly, algorithm by algorithm, with the pins
 * the test expects that algorithm to get (written out by hand, not derived the way compare.c
 * derives them): each report must be the direct run's report to the byte (its JSON), each not-run
 * reason the direct run's reason, the runs first and the not-run after, each in the list's order,
 * and oc_compare_write_json the array made of those very texts. So an implementation fails if it
 * drops or repeats an algorithm, keeps the list's order across runs and not-runs, filters out the
 * algorithms of other networks instead of listing them, lets a plain KEY win over ALGO.KEY (in
 * either order of the pins), pins an algorithm that does not take the key, runs anything before a
 * wrong -a name or -p pin is refused, turns a failed run into a not-run, or a too-big run into a
 * failure. N is 1, 2, 3, 5, 7, 12 and 100. The harness prints one line per failure and ends with
 * "N passed, M failed".
 */
#include "opticoll.h"

#include <cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const uint32_t SIZES_N[] = {1, 2, 3, 5, 7, 12, 100};
#define NN (sizeof SIZES_N / sizeof SIZES_N[0])

/* What a writer puts in an in-memory stream, as a malloc'ed string (NULL if it failed). */
typedef struct text {
    char *buf;
    size_t n;
    FILE *f;
} text;

static FILE *text_open(text *t) {
    t->buf = NULL;
    t->n = 0;
    return t->f = open_memstream(&t->buf, &t->n);
}

static char *text_close(text *t, int rc) {
    if (fclose(t->f) || rc) {
        free(t->buf);
        return NULL;
    }
    return t->buf;
}

static char *report_json(const oc_report *r) {
    text t;
    return text_open(&t) ? text_close(&t, oc_report_write_json(r, t.f)) : NULL;
}

static char *compare_json(const oc_compare_result *r) {
    text t;
    return text_open(&t) ? text_close(&t, oc_compare_write_json(r, t.f)) : NULL;
}

/* "k=v,k=v" as a kv list (NULL or "": an empty list). */
static oc_kv *kv_of(const char *pairs) {
    oc_kv *kv = oc_kv_new();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", pairs ? pairs : "");
    for (char *p = strtok(buf, ","); kv && p; p = strtok(NULL, ","))
        if (oc_kv_set_pair(kv, p)) {
            oc_kv_free(kv);
            return NULL;
        }
    return kv;
}

/* One algorithm run directly: its error, its report's JSON or its reason. */
typedef struct direct {
    const char *algo;
    int err;
    char *json;
    char reason[1024]; /* as oc_compare keeps oc_run's reason (OC__REASON_LEN) */
} direct;

/* Compares oc_compare(req, names, n, pins) with oc_run of each listed algorithm (every algorithm
 * of the collective when names is NULL) under want[i]'s pins ("k=v,k=v"; want NULL: none). */
static void check_compare(const char *label, const oc_request *req, const char *const *names,
                          size_t n, const oc_kv *pins, const char *const *want) {
    direct d[64];
    size_t nd = 0;
    for (size_t i = 0; i < oc_algorithm_count() && !names; i++)
        if (oc_algorithm_at(i)->collective == req->collective && nd < 64)
            d[nd++].algo = oc_algorithm_at(i)->name;
    for (size_t i = 0; names && i < n && i < 64; i++)
        d[nd++].algo = names[i];
    int fatal = 0;
    size_t fatal_at = 0;
    for (size_t i = 0; i < nd; i++) {
        oc_request r = *req;
        oc_kv *kv = kv_of(want ? want[i] : NULL);
        oc_report *rep = NULL;
        r.algorithm = d[i].algo;
        r.params = kv;
        d[i].reason[0] = '\0';
        d[i].json = NULL;
        d[i].err = oc_run(&r, &rep, d[i].reason, sizeof d[i].reason);
        if (!d[i].err) d[i].json = report_json(rep);
        oc_report_free(rep);
        oc_kv_free(kv);
        if (!fatal && d[i].err && d[i].err != OC_ENOTSUP && d[i].err != OC_ETOOBIG) {
            fatal = d[i].err;
            fatal_at = i;
        }
    }
    oc_compare_result res;
    memset(&res, 0xA5, sizeof res); /* what a failure must clear */
    char why[1024] = "";
    int err = oc_compare(req, names, n, pins, &res, why, sizeof why);
    if (fatal) {
        CHECK(err == fatal && !strcmp(why, d[fatal_at].reason),
              "%s: the failure of %s (%d: %s) is the compare's, got %d: %s", label,
              d[fatal_at].algo, fatal, d[fatal_at].reason, err, why);
        CHECK(res.count == 0 && res.nrun == 0 && res.runs == NULL, "%s: nothing left on failure",
              label);
    } else if (err) {
        CHECK(0, "%s: compare failed (%d: %s)", label, err, why);
    } else {
        /* the expected order: the runs, then the others, each in the list's order */
        size_t order[64], k = 0, nrun = 0;
        for (size_t i = 0; i < nd; i++)
            if (!d[i].err) order[k++] = i;
        nrun = k;
        for (size_t i = 0; i < nd; i++)
            if (d[i].err) order[k++] = i;
        CHECK(res.count == nd && res.nrun == nrun, "%s: %zu algorithms, %zu ran; got %zu, %zu",
              label, nd, nrun, res.count, res.nrun);
        size_t len = 3;
        for (size_t j = 0; j < nd; j++)
            len += (d[j].json ? strlen(d[j].json) : strlen(d[j].reason) + 64) + 1;
        char *want_json = malloc(len);
        int exact = want_json != NULL;
        if (want_json) strcpy(want_json, "[");
        for (size_t j = 0; j < res.count && j < nd; j++) {
            const direct *x = &d[order[j]];
            const oc_compare_run *g = &res.runs[j];
            CHECK(!strcmp(g->algorithm->name, x->algo), "%s: place %zu is %s, got %s", label, j,
                  x->algo, g->algorithm->name);
            if (j < nrun) {
                char *got = g->report ? report_json(g->report) : NULL;
                CHECK(got && x->json && !strcmp(got, x->json) && !g->reason[0],
                      "%s: %s's report is oc_run's with pins %s", label, x->algo,
                      want ? want[order[j]] : "(none)");
                free(got);
            } else {
                CHECK(!g->report && !strcmp(g->reason, x->reason) && *x->reason,
                      "%s: %s not run because '%s', got '%s'", label, x->algo, x->reason,
                      g->reason);
            }
            if (!want_json) continue;
            if (j) strcat(want_json, ",");
            if (j < nrun) {
                strcat(want_json, x->json ? x->json : "");
            } else if (strpbrk(x->reason, "\"\\\n\t")) {
                exact = 0; /* a reason JSON escapes: the structure is checked below instead */
            } else {
                sprintf(want_json + strlen(want_json),
                        "{\"algorithm\": \"%s\", \"not_run\": \"%s\"}\n", x->algo, x->reason);
            }
        }
        if (want_json) strcat(want_json, "]\n");
        char *got = compare_json(&res);
        cJSON *doc = got ? cJSON_Parse(got) : NULL;
        CHECK(doc && cJSON_GetArraySize(doc) == (int)nd, "%s: the JSON is an array of %zu", label,
              nd);
        for (size_t j = nrun; doc && j < res.count && j < nd; j++) {
            const cJSON *e = cJSON_GetArrayItem(doc, (int)j);
            const cJSON *a = cJSON_GetObjectItem(e, "algorithm"),
                        *w = cJSON_GetObjectItem(e, "not_run");
            CHECK(cJSON_IsString(a) && cJSON_IsString(w) &&
                      !strcmp(a->valuestring, d[order[j]].algo) &&
                      !strcmp(w->valuestring, d[order[j]].reason),
                  "%s: JSON element %zu is {algorithm, not_run} of %s", label, j, d[order[j]].algo);
        }
        if (exact)
            CHECK(got && !strcmp(got, want_json),
                  "%s: the JSON is the reports and reasons as "
                  "they are:\n%s\nwanted\n%s",
                  label, got ? got : "(null)", want_json);
        cJSON_Delete(doc);
        free(got);
        free(want_json);
        oc_compare_result_free(&res);
        CHECK(res.runs == NULL && res.count == 0, "%s: freed and cleared", label);
        oc_compare_result_free(&res); /* twice: harmless */
    }
    for (size_t i = 0; i < nd; i++)
        free(d[i].json);
}

static oc_request request(oc_collective c, const char *net, uint32_t nodes, uint64_t bytes) {
    oc_request r;
    memset(&r, 0, sizeof r);
    r.collective = c;
    r.network = net;
    r.nodes = nodes;
    r.bytes = bytes;
    return r;
}

/* ---- every algorithm of the collective: registry order, other networks listed as not run ---- */

static void test_every_algorithm(void) {
    static const struct {
        oc_collective c;
        const char *net;
        uint64_t bytes;
    } cases[] = {{OC_ALLREDUCE, "ring", 65536},       {OC_ALLGATHER, "ring", 4096},
                 {OC_ALLTOALL, "hypercube", 4096},    {OC_BROADCAST, "star", 4096},
                 {OC_REDUCESCATTER, "switch", 65536}, {OC_ALLREDUCE, "fabric", 1 << 20}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t i = 0; i < NN; i++) {
            oc_request r = request(cases[c].c, cases[c].net, SIZES_N[i], cases[c].bytes);
            char label[96];
            snprintf(label, sizeof label, "%s on %s, N=%u", oc_collective_name(cases[c].c),
                     cases[c].net, SIZES_N[i]);
            check_compare(label, &r, NULL, 0, NULL, NULL);
        }
    /* the algorithms of other networks are listed, not dropped: alltoall on the hypercube */
    oc_request r = request(OC_ALLTOALL, "hypercube", 8, 4096);
    oc_compare_result res;
    char why[512];
    size_t others = 0, all = 0;
    for (size_t i = 0; i < oc_algorithm_count(); i++)
        if (oc_algorithm_at(i)->collective == OC_ALLTOALL) {
            all++;
            others += !oc_algorithm_runs_on(oc_algorithm_at(i), "hypercube");
        }
    int err = oc_compare(&r, NULL, 0, NULL, &res, why, sizeof why);
    size_t listed = 0;
    for (size_t k = res.nrun; !err && k < res.count; k++)
        listed += !oc_algorithm_runs_on(res.runs[k].algorithm, "hypercube");
    CHECK(!err && res.count == all && listed == others && others > 0,
          "alltoall on hypercube: all %zu listed, the %zu of other networks as not run (%s)", all,
          others, why);
    oc_compare_result_free(&res);
}

/* ---- a list and pins ---- */

static void test_list_and_pins(void) {
    for (size_t i = 0; i < NN; i++) {
        uint32_t n = SIZES_N[i];
        char label[96];
        oc_request r = request(OC_ALLREDUCE, "ring", n, 65536);
        /* a plain KEY reaches every algorithm that takes it, and only those */
        static const char *const three[] = {"ring", "wrht", "hring"};
        static const char *const three_pins[] = {NULL, "m=5,pieces=1", NULL};
        oc_kv *pins = kv_of("m=5,pieces=1");
        snprintf(label, sizeof label, "-a ring,wrht,hring -p m=5 -p pieces=1, N=%u", n);
        /* N <= 3: m=5 is out of range: wrht's refusal is the compare's failure */
        check_compare(label, &r, three, 3, pins, three_pins);
        oc_kv_free(pins);

        /* ALGO.KEY wins over KEY, whatever their order; the list's order is kept */
        static const char *const two[] = {"wrht", "hring"};
        static const char *const two_pins[] = {"m=3", NULL};
        const char *orders[] = {"m=2,wrht.m=3", "wrht.m=3,m=2"};
        for (int o = 0; o < 2 && n >= 3; o++) {
            pins = kv_of(orders[o]);
            snprintf(label, sizeof label, "-a wrht,hring -p %s, N=%u", orders[o], n);
            check_compare(label, &r, two, 2, pins, two_pins);
            oc_kv_free(pins);
        }

        /* hring.g=4 pins hring alone; where 4 does not divide N hring is not run and comes after
         * wrht, though listed first */
        static const char *const hw[] = {"hring", "wrht"};
        static const char *const hw_pins[] = {"g=4", NULL};
        pins = kv_of("hring.g=4");
        snprintf(label, sizeof label, "-a hring,wrht -p hring.g=4, N=%u", n);
        check_compare(label, &r, hw, 2, pins, hw_pins);
        oc_kv_free(pins);

        /* rhd.radix=2 wins over radix=4 for rhd; rd and ring take no radix and get none */
        oc_request a = request(OC_ALLREDUCE, "switch", n, 1 << 20);
        static const char *const rr[] = {"rhd", "ring", "rd"};
        static const char *const rr_pins[] = {"radix=2", NULL, NULL};
        pins = kv_of("radix=4,rhd.radix=2");
        snprintf(label, sizeof label, "-a rhd,ring,rd -p radix=4 -p rhd.radix=2, N=%u", n);
        check_compare(label, &a, rr, 3, pins, rr_pins);
        oc_kv_free(pins);
    }
}

/* ---- too big: listed as not run, with the budget's reason ---- */

static void test_too_big(void) {
    const oc_settings small = {.memory_budget = UINT64_C(1) << 20};
    /* one-stage's one round of N(N-1) lightpaths at 60 bytes each passes 1 MiB from N = 133 */
    oc_request r = request(OC_ALLGATHER, "ring", 200, 1 << 20);
    r.settings = &small;
    check_compare("allgather N=200 1MiB under a 1 MiB budget", &r, NULL, 0, NULL, NULL);
    oc_compare_result res;
    char why[512];
    int err = oc_compare(&r, NULL, 0, NULL, &res, why, sizeof why);
    int budget = 0;
    for (size_t k = res.nrun; !err && k < res.count; k++)
        budget += strstr(res.runs[k].reason, "memory budget") != NULL;
    CHECK(!err && budget > 0 && res.nrun > 0, "some runs too big for the budget, others run (%s)",
          why);
    oc_compare_result_free(&res);
}

/* ---- refusals: worded as `compare -a` / `-p` words them, before anything runs ---- */

static void refused(const char *label, const oc_request *req, const char *const *names, size_t n,
                    const char *pins, int want_err, const char *want_why) {
    oc_kv *kv = kv_of(pins);
    oc_compare_result res;
    memset(&res, 0x5A, sizeof res);
    char why[1024] = "";
    int err = oc_compare(req, names, n, kv, &res, why, sizeof why);
    CHECK(err == want_err && !strcmp(why, want_why), "%s: %d '%s', got %d '%s'", label, want_err,
          want_why, err, why);
    CHECK(res.count == 0 && res.nrun == 0 && res.runs == NULL, "%s: nothing left", label);
    oc_kv_free(kv);
}

static void test_refusals(void) {
    for (size_t i = 0; i < NN; i++) {
        oc_request r = request(OC_ALLREDUCE, "ring", SIZES_N[i], 1 << 20);
        /* a network setting every run would refuse: a refusal of the list or the pins must come
         * first, so nothing ran before it */
        oc_kv *bad_net = kv_of("wavelengths=0");
        r.net_params = bad_net;
        static const char *const bogus[] = {"ring", "bogus"}, *const optree[] = {"optree"},
                                 *const twice[] = {"ring", "ring"}, *const null[] = {NULL},
                                 *const ring_bt[] = {"ring", "bt"}, *const ring[] = {"ring"};
        refused("unknown name", &r, bogus, 2, NULL, OC_ENOENT,
                "-a: 'bogus' is not an algorithm of allreduce (see opticoll list)");
        refused("another collective's", &r, optree, 1, NULL, OC_ENOENT,
                "-a: 'optree' is not an algorithm of allreduce (see opticoll list)");
        refused("twice", &r, twice, 2, NULL, OC_EINVAL, "-a: 'ring' is listed twice");
        refused("a NULL name", &r, null, 1, NULL, OC_ENOENT,
                "-a: '(null)' is not an algorithm of allreduce (see opticoll list)");
        refused("an empty list", &r, ring, 0, NULL, OC_EINVAL, "compare: no algorithm listed");
        refused("a pin nobody takes", &r, ring_bt, 2, "m=5", OC_ENOENT,
                "compare -p m: no algorithm compared takes it (see opticoll list)");
        refused("a pin nobody takes, every algorithm", &r, NULL, 0, "nosuch=1", OC_ENOENT,
                "compare -p nosuch: no algorithm compared takes it (see opticoll list)");
        refused("ALGO.KEY ALGO does not take", &r, NULL, 0, "ring.m=5", OC_ENOENT,
                "compare -p ring.m: ring takes no such parameter (see opticoll list)");
        refused("a plain pin refused before an ALGO.KEY", &r, ring, 1, "m=2,wrht.m=5", OC_ENOENT,
                "compare -p m: no algorithm compared takes it (see opticoll list)");
        refused("ALGO.KEY of an algorithm not compared", &r, ring, 1, "wrht.m=5", OC_ENOENT,
                "compare -p wrht.m: 'wrht' is not among the algorithms compared");
        /* with good names and pins, the bad setting is oc_run's failure, passed on */
        check_compare("wavelengths=0: the first run's failure", &r, ring_bt, 2, NULL, NULL);
        oc_kv_free(bad_net);
        r.net_params = NULL;
        oc_request h = request(OC_ALLTOALL, "hypercube", SIZES_N[i], 4096);
        static const char *const other_net[] = {"sex", "tcp2"};
        refused("another network's", &h, other_net, 2, NULL, OC_EINVAL,
                "-a: 'tcp2' does not run on hypercube (see opticoll list)");
        oc_request none = request(OC_ALLREDUCE, NULL, SIZES_N[i], 1 << 20);
        refused("no network", &none, NULL, 0, NULL, OC_EINVAL,
                "compare needs a request with a network");
        oc_request bogus_net = request(OC_ALLREDUCE, "bogus", SIZES_N[i], 1 << 20);
        check_compare("an unknown network: oc_run's refusal", &bogus_net, NULL, 0, NULL, NULL);
    }
}

int main(void) {
    test_every_algorithm();
    test_list_and_pins();
    test_too_big();
    test_refusals();
    return CHECK_SUMMARY();
}
