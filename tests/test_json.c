/*
 * test_json.c — the JSON writer (src/core/json.c) and every document written through it: a number read back from the JSON is the very double that was written.
 *
 * The old writer printed %.9g, so 1/3 came back as 0.333333333 and a run's time_s differed from
 * oc_report_time in the tenth digit; cJSON's own printer (1.7.15) keeps %1.15g whenever it reads
 * back within DBL_EPSILON, so 0.30000000000000004 comes back as 0.3. Each check below fails on one
 * of them:
 *  - oc__json_number_text on chosen values (17-digit ones, subnormals, the largest double, whole
 *    numbers past 2^53) and on 200 000 random bit patterns: strtod returns the same double;
 *    decimals of k <= 15 digits print with at most k digits (the shortest form, so the values
 *    the old writer printed exactly keep their text); NaN and infinities print null;
 *  - the adders and the printer: the house spacing outside strings only, compact output,
 *    members without braces, raw text spaced once, uint64 exactly, a failed build or a failed
 *    stream as an error and not as a partial document;
 *  - a report whose time is 1/3 s and whose figures need 17 digits, through oc_report_write_json
 *    and cJSON_Parse: every number equal, bit for bit;
 *  - real runs (all-gather, all-reduce, scatter, all-to-all, at 1, 2, 3, 5, 7, 12 and 100 nodes,
 *    on ring, switch, fabric, star and torus): time_s, time_formula_s, steps_formula and every
 *    figure equal to the report's own; links' total_time_s equal to the run's time;
 *  - the Chrome trace's otherData.time_s, the throughput estimate, a training result and a rack
 *    replay: their JSON numbers equal the structs they were written from.
 */
#include "core/json.h"
#include "core/result.h"
#include "report/report.h"
#include "studies/rack.h"

#include "check.h"

#include <cJSON.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- numbers ---- */

/* Significant digits of a %g-style text (the mantissa's digits, leading zeros not counted). */
static int significant(const char *s) {
    int n = 0, started = 0;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s < '0' || *s > '9') continue;
        if (*s != '0') started = 1;
        if (started) n++;
    }
    /* trailing zeros of a whole number ("1200") are not significant */
    return n;
}

static void round_trip(double v) {
    char buf[OC__JSON_NUMBER_SIZE];
    oc__json_number_text(buf, v);
    char *end = NULL;
    double back = strtod(buf, &end);
    CHECK(*end == '\0' && memcmp(&back, &v, sizeof v) == 0, "%.17g printed %s reads back %.17g", v,
          buf, back);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void test_numbers(void) {
    const double chosen[] = {1.0 / 3,
                             2.0 / 3,
                             0.1,
                             0.1 + 0.2,
                             1234567.0000000002,
                             0.0007312080000000001,
                             3.892741333333331e-05,
                             1e-300,
                             4.9406564584124654e-324,
                             2.2250738585072009e-308,
                             DBL_MAX,
                             -DBL_MIN,
                             9007199254740994.0,
                             1e15,
                             1e16 + 2,
                             123456789012.5,
                             -0.0,
                             0,
                             -7};
    for (size_t i = 0; i < sizeof chosen / sizeof *chosen; i++)
        round_trip(chosen[i]);
    /* random bit patterns: every finite double there is, subnormals included */
    size_t finite = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t bits = next();
        double v;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v)) continue;
        finite++;
        round_trip(v);
    }
    CHECK(finite > 190000, "random doubles: %zu finite", finite);
    /* random values of a few digits: the shortest text, as many digits as they have or fewer */
    for (int i = 0; i < 100000; i++) {
        int k = 1 + (int)(next() % 15);
        uint64_t m = next() % 1000000000000000u;
        char dec[64];
        snprintf(dec, sizeof dec, "%.*e", k - 1, (double)m * pow(10, (int)(next() % 40) - 30));
        double v = strtod(dec, NULL);
        char buf[OC__JSON_NUMBER_SIZE];
        oc__json_number_text(buf, v);
        CHECK(significant(buf) <= k || (v == floor(v) && fabs(v) < 1e15),
              "%s (%d digits) printed %s", dec, k, buf);
    }
    /* texts the old writer printed exactly stay as they were */
    const struct {
        double v;
        const char *text;
    } same[] = {{0.1, "0.1"},
                {2.5e-05, "2.5e-05"},
                {0.000731208, "0.000731208"},
                {3, "3"},
                {-0.5, "-0.5"},
                {1e15, "1e+15"},
                {1e100, "1e+100"},
                {4194304, "4194304"},
                {0.0001462416, "0.0001462416"},
                {1.6384e-05, "1.6384e-05"}};
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        char buf[OC__JSON_NUMBER_SIZE];
        CHECK(strcmp(oc__json_number_text(buf, same[i].v), same[i].text) == 0,
              "%.17g printed %s, want %s", same[i].v, buf, same[i].text);
    }
    const double nonfinite[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        char buf[OC__JSON_NUMBER_SIZE];
        CHECK(strcmp(oc__json_number_text(buf, nonfinite[i]), "null") == 0, "%g printed %s",
              nonfinite[i], buf);
    }
}

/* ---- the adders and the printer ---- */

/* What `write` puts on a memory stream (malloc'd; NULL if the stream failed), and its code. */
static char *written(cJSON *tree, int members, int style, int *rc) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    *rc = members ? oc__json_write_members(f, tree) : oc__json_write(f, tree, style, "\n");
    fclose(f);
    return buf;
}

static cJSON *sample(void) {
    oc_kv *kv = oc_kv_new();
    CHECK(kv && oc_kv_set(kv, "radices", "4x4") == 0 && oc_kv_set(kv, "k, v", "a: b") == 0, "kv");
    cJSON *o = cJSON_CreateObject();
    cJSON *arr = oc__json_arr(o, "list");
    int ok = oc__json_str(o, "name", "x, y: \"z\" \\ {[") && oc__json_u64(arr, NULL, 1) &&
             oc__json_num(arr, NULL, 2.5) && oc__json_null(arr, NULL) &&
             oc__json_bool(arr, NULL, 7) && oc__json_obj(o, "empty") &&
             oc__json_kv(o, "params", kv) && oc__json_kv(o, "none", NULL) &&
             oc__json_u64(o, "max", UINT64_MAX) && oc__json_num(o, "third", 1.0 / 3) &&
             oc__json_str(o, "ctl", "a\x01\n\tb") && oc__json_str(o, "nothing", NULL) &&
             oc__json_raw(o, "raw", "{\"p\":1,  \"q\" :\n[2,3]}");
    CHECK(ok, "building the sample");
    oc_kv_free(kv);
    return o;
}

static void test_printer(void) {
    int rc = -1;
    char *s = written(sample(), 0, OC__JSON_SPACED, &rc);
    const char *want =
        "{\"list\": [1, 2.5, null, true], \"name\": \"x, y: \\\"z\\\" \\\\ {[\", \"empty\": {}, "
        "\"params\": {\"radices\": \"4x4\", \"k, v\": \"a: b\"}, \"none\": {}, "
        "\"max\": 18446744073709551615, \"third\": 0.3333333333333333, "
        "\"ctl\": \"a\\u0001\\n\\tb\", \"nothing\": null, \"raw\": {\"p\": 1, \"q\": [2, 3]}}\n";
    CHECK(rc == 0 && s && strcmp(s, want) == 0, "spaced:\n got %s\nwant %s", s ? s : "(null)",
          want);
    cJSON *back = s ? cJSON_Parse(s) : NULL;
    cJSON *third = cJSON_GetObjectItemCaseSensitive(back, "third");
    cJSON *ctl = cJSON_GetObjectItemCaseSensitive(back, "ctl");
    CHECK(cJSON_IsNumber(third) && third->valuedouble == 1.0 / 3, "1/3 reads back");
    CHECK(cJSON_IsString(ctl) && strcmp(ctl->valuestring, "a\x01\n\tb") == 0,
          "control characters read back");
    cJSON_Delete(back);
    free(s);
    s = written(sample(), 0, OC__JSON_COMPACT, &rc);
    CHECK(rc == 0 && s && strncmp(s, "{\"list\":[1,2.5,null,true],\"name\":\"x, y: ", 39) == 0,
          "compact: %s", s ? s : "(null)");
    free(s);
    cJSON *small = cJSON_CreateObject();
    CHECK(oc__json_u64(small, "a", 1) && oc__json_str(small, "b", "c, d"), "small");
    s = written(small, 1, 0, &rc);
    CHECK(rc == 0 && s && strcmp(s, "\"a\": 1, \"b\": \"c, d\"") == 0, "members: %s",
          s ? s : "(null)");
    free(s);
    /* a failed build: every adder on NULL says so, and nothing is written */
    CHECK(!oc__json_num(NULL, "k", 1) && !oc__json_u64(NULL, NULL, 1) &&
              !oc__json_str(NULL, "k", "v") && !oc__json_kv(NULL, "k", NULL) &&
              !oc__json_obj(NULL, "k") && !oc__json_arr(NULL, NULL) &&
              !oc__json_add(NULL, "k", cJSON_CreateNull()),
          "adders on NULL fail");
    s = written(NULL, 0, OC__JSON_SPACED, &rc);
    CHECK(rc == OC_ENOMEM && s && !*s, "a NULL tree: OC_ENOMEM, nothing written (%d)", rc);
    free(s);
    /* a stream that cannot be written */
    FILE *ro = fopen("/dev/null", "r");
    CHECK(ro != NULL, "open /dev/null");
    if (ro) {
        CHECK(oc__json_write(ro, sample(), OC__JSON_SPACED, "\n") == OC_EIO, "write error");
        fclose(ro);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && oc_write_json_string(f, "say \"hi\"\n") == 0, "oc_write_json_string");
    if (f) fclose(f);
    CHECK(buf && strcmp(buf, "\"say \\\"hi\\\"\\n\"") == 0, "string: %s", buf ? buf : "(null)");
    free(buf);
}

/* ---- reports ---- */

/* What a writer puts on a memory stream (malloc'd), checking that it succeeded. */
static char *captured(int (*fn)(const void *, FILE *), const void *x) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = fn(x, f);
    fclose(f);
    CHECK(rc == 0, "writer: %d", rc);
    return buf;
}

static int report_fn(const void *r, FILE *f) {
    return oc_report_write_json(r, f);
}

static char *report_text(const oc_report *r) {
    return captured(report_fn, r);
}

static int same_double(const cJSON *item, double v) {
    return cJSON_IsNumber(item) && memcmp(&item->valuedouble, &v, sizeof v) == 0;
}

static const cJSON *get(const cJSON *o, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static void test_report_third(void) {
    oc_report *r = oc__report_new();
    CHECK(r != NULL, "report");
    if (!r) return;
    snprintf(r->collective, sizeof r->collective, "allgather");
    snprintf(r->algorithm, sizeof r->algorithm, "ring");
    r->nodes = 3;
    r->bytes = (UINT64_C(1) << 53) + 1; /* not a double */
    r->time_s = 1.0 / 3;
    r->has_time_formula = 1;
    r->time_formula_s = 0.1 + 0.2;
    r->has_formula = 1;
    r->steps_formula = 2.0 / 3;
    r->verified = 1;
    CHECK(oc__report_num(r, "step_time_s", 1e-7 / 3) == 0 &&
              oc__report_num(r, "ratio", 1234567.0000000002) == 0 &&
              oc__report_num(r, "nan", NAN) == 0,
          "figures");
    char *s = report_text(r);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    CHECK(j != NULL, "the report parses: %s", s ? s : "(null)");
    const cJSON *fig = get(j, "figures");
    CHECK(same_double(get(j, "time_s"), 1.0 / 3), "time_s 1/3 reads back exactly (%.40s)",
          s && strstr(s, "\"time_s\"") ? strstr(s, "\"time_s\"") : "");
    CHECK(same_double(get(j, "time_formula_s"), 0.1 + 0.2), "time_formula_s 0.1 + 0.2");
    CHECK(same_double(get(j, "steps_formula"), 2.0 / 3), "steps_formula 2/3");
    CHECK(same_double(get(fig, "step_time_s"), 1e-7 / 3), "figure 1e-7/3");
    CHECK(same_double(get(fig, "ratio"), 1234567.0000000002), "figure 1234567.0000000002");
    CHECK(cJSON_IsNull(get(fig, "nan")), "NaN is null");
    CHECK(cJSON_IsNull(get(j, "network")) && cJSON_IsNull(get(j, "steps_lower_bound")),
          "absent network and lower bound are null");
    CHECK(s && strstr(s, "\"bytes\": 9007199254740993,") != NULL, "bytes 2^53 + 1 exactly");
    CHECK(s && strncmp(s, "{\"collective\": \"allgather\", \"algorithm\": \"ring\", ", 49) == 0,
          "field order and spacing: %.60s", s ? s : "");
    cJSON_Delete(j);
    free(s);
    oc_report_free(r);
}

typedef struct run_case {
    oc_collective coll;
    const char *algo, *net, *params;
    uint32_t nodes;
    uint64_t bytes;
} run_case;

static void test_report_runs(void) {
    const run_case cases[] = {
        {OC_ALLGATHER, "ring", "ring", NULL, 1, 4096},
        {OC_ALLGATHER, "ring", "ring", NULL, 2, 4096},
        {OC_ALLGATHER, "ring", "ring", NULL, 7, 3000},
        {OC_ALLGATHER, "optree", "ring", NULL, 12, 4194304},
        {OC_ALLGATHER, "optree", "ring", NULL, 100, 1000},
        {OC_ALLGATHER, "onestage", "ring", NULL, 5, 4097},
        {OC_ALLREDUCE, "wrht", "ring", NULL, 15, 1048576},
        {OC_ALLREDUCE, "rhd", "fabric", "radix=4", 256, 1048576},
        {OC_ALLREDUCE, "rhd", "switch", NULL, 12, 1000003},
        {OC_ALLREDUCE, "ring", "switch", NULL, 3, 1048576},
        {OC_ALLREDUCE, "hring", "ring", NULL, 100, 65536},
        {OC_SCATTER, "tcp1", "star", NULL, 7, 1024},
        {OC_ALLTOALL, "pipeline", "torus", NULL, 5, 1024},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const run_case *k = &cases[c];
        oc_kv *params = oc_kv_new();
        if (k->params) {
            CHECK(params && oc_kv_set_pair(params, k->params) == 0, "param %s", k->params);
        }
        oc_request req;
        memset(&req, 0, sizeof req);
        req.collective = k->coll;
        req.algorithm = k->algo;
        req.network = k->net;
        req.nodes = k->nodes;
        req.bytes = k->bytes;
        req.params = params;
        req.skip_data_check = 1;
        req.links = c % 2; /* half of them with the links report */
        oc_report *r = NULL;
        char why[512] = "";
        int rc = oc_run(&req, &r, why, sizeof why);
        CHECK(rc == 0, "%s/%s on %s N=%u: %s", oc_collective_name(k->coll), k->algo, k->net,
              k->nodes, why);
        oc_kv_free(params);
        if (rc) continue;
        char *s = report_text(r);
        cJSON *j = s ? cJSON_Parse(s) : NULL;
        CHECK(j != NULL, "%s N=%u: the report parses", k->algo, k->nodes);
        double v;
        uint64_t lb;
        CHECK(same_double(get(j, "time_s"), oc_report_time(r)), "%s N=%u: time_s %.17g, JSON %.40s",
              k->algo, k->nodes, oc_report_time(r),
              s && strstr(s, "\"time_s\"") ? strstr(s, "\"time_s\"") : "");
        CHECK(get(j, "steps") && (uint64_t)get(j, "steps")->valuedouble == oc_report_steps(r),
              "%s N=%u: steps", k->algo, k->nodes);
        CHECK(oc_report_steps_formula(r, &v) ? same_double(get(j, "steps_formula"), v)
                                             : cJSON_IsNull(get(j, "steps_formula")),
              "%s N=%u: steps_formula", k->algo, k->nodes);
        CHECK(oc_report_steps_lower_bound(r, &lb)
                  ? get(j, "steps_lower_bound")->valuedouble == (double)lb
                  : cJSON_IsNull(get(j, "steps_lower_bound")),
              "%s N=%u: steps_lower_bound", k->algo, k->nodes);
        CHECK(r->has_time_formula ? same_double(get(j, "time_formula_s"), r->time_formula_s)
                                  : cJSON_IsNull(get(j, "time_formula_s")),
              "%s N=%u: time_formula_s", k->algo, k->nodes);
        const cJSON *fig = get(j, "figures");
        CHECK(cJSON_GetArraySize(fig) == (int)r->nnums, "%s N=%u: %zu figures", k->algo, k->nodes,
              r->nnums);
        for (size_t i = 0; i < r->nnums; i++)
            CHECK(
                isfinite(r->nums[i].value) ? same_double(get(fig, r->nums[i].key), r->nums[i].value)
                                           : cJSON_IsNull(get(fig, r->nums[i].key)),
                "%s N=%u: figure %s = %.17g", k->algo, k->nodes, r->nums[i].key, r->nums[i].value);
        if (req.links) {
            const cJSON *links = get(j, "links");
            CHECK(same_double(get(links, "total_time_s"), oc_report_time(r)),
                  "%s N=%u: links total_time_s", k->algo, k->nodes);
        }
        cJSON_Delete(j);
        free(s);
        oc_report_free(r);
    }
}

/* ---- the other documents ---- */

static int chrome_fn(const void *req, FILE *f) {
    char why[256];
    return oc_export_chrome(req, f, why, sizeof why);
}

static void test_chrome(void) {
    oc_request req;
    memset(&req, 0, sizeof req);
    req.collective = OC_ALLGATHER;
    req.algorithm = "ring";
    req.network = "ring";
    req.nodes = 3;
    req.bytes = 4096;
    req.skip_data_check = 1;
    oc_report *r = NULL;
    char why[256] = "";
    CHECK(oc_run(&req, &r, why, sizeof why) == 0, "%s", why);
    char *s = captured(chrome_fn, &req);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    CHECK(j && r && same_double(get(get(j, "otherData"), "time_s"), oc_report_time(r)),
          "chrome otherData.time_s is the run's %.17g", r ? oc_report_time(r) : 0.0);
    cJSON_Delete(j);
    free(s);
    oc_report_free(r);
}

static int throughput_fn(const void *t, FILE *f) {
    return oc_throughput_write_json(t, f);
}

static void test_throughput(void) {
    oc_throughput_in in = {.model = "t",
                           .parameters = 110000000,
                           .batch = 7,
                           .nodes = 12,
                           .buckets = 5,
                           .tokens = 128,
                           .peak_tflops = 125,
                           .utilisation = 1.0 / 3,
                           .skip_data_check = 1};
    oc_throughput t;
    char why[256] = "";
    CHECK(oc_throughput_estimate(&in, &t, why, sizeof why) == 0, "throughput: %s", why);
    char *s = captured(throughput_fn, &t);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    CHECK(j != NULL, "throughput JSON parses");
    CHECK(same_double(get(j, "utilisation"), 1.0 / 3) &&
              same_double(get(j, "compute_s"), t.compute_s) &&
              same_double(get(j, "flops_per_gpu"), t.flops) &&
              same_double(get(j, "speedup"), t.speedup),
          "throughput numbers: %s", s ? s : "");
    const cJSON *sides = get(j, "sides");
    for (int i = 0; i < 3; i++) {
        const cJSON *x = cJSON_GetArrayItem(sides, i);
        CHECK(same_double(get(x, "allreduce_s"), t.side[i].allreduce_s) &&
                  same_double(get(x, "iteration_s"), t.side[i].iteration_s) &&
                  same_double(get(x, "samples_per_s"), t.side[i].samples_per_s) &&
                  (isnan(t.side[i].formula_s)
                       ? cJSON_IsNull(get(x, "allreduce_formula_s"))
                       : same_double(get(x, "allreduce_formula_s"), t.side[i].formula_s)),
              "throughput side %d", i);
    }
    cJSON_Delete(j);
    free(s);
    oc_throughput_free(&t);
}

static int train_fn(const void *t, FILE *f) {
    return oc_train_write_json(t, f);
}

static void test_train(void) {
    oc_model m = {.name = "tiny", .parameters = 333333, .batch = 3, .samples = 1000};
    oc_request req;
    memset(&req, 0, sizeof req);
    req.network = "ring";
    req.nodes = 5;
    req.skip_data_check = 1;
    oc_train_result t;
    char why[256] = "";
    int rc = oc_train_model(&m, &req, &t, why, sizeof why);
    CHECK(rc == 0 && t.nrun > 0, "train: %s", why);
    if (rc) return;
    char *s = captured(train_fn, &t);
    cJSON *j = s ? cJSON_Parse(s) : NULL;
    const cJSON *runs = get(j, "runs");
    CHECK(cJSON_GetArraySize(runs) == (int)t.nrun, "train runs");
    for (size_t i = 0; i < t.nrun; i++) {
        const cJSON *x = cJSON_GetArrayItem(runs, (int)i);
        CHECK(same_double(get(x, "time_per_iteration_s"), t.runs[i].iteration_s) &&
                  same_double(get(x, "time_per_epoch_s"), t.runs[i].epoch_s) &&
                  same_double(get(get(x, "report"), "time_s"), t.runs[i].iteration_s),
              "train run %s", t.runs[i].algorithm);
    }
    cJSON_Delete(j);
    free(s);
    oc_train_result_free(&t);
}

static int rack_fn(const void *r, FILE *f) {
    return oc__rack_write_json(r, f);
}

static void test_rack(void) {
    const oc__rack_shape shape = {3, 8, 2, 4, 4, UINT64_C(1) << 20, NULL, NULL, NULL};
    oc__rack_trace t;
    oc__rack_result r;
    char why[256] = "";
    int rc = oc__rack_trace_random(7, 10, shape.servers * shape.tiles, &t, why, sizeof why);
    CHECK(rc == 0, "rack trace: %s", why);
    if (rc) return;
    rc = oc__rack_replay(&shape, &t, &r, why, sizeof why);
    CHECK(rc == 0, "rack replay: %s", why);
    if (!rc) {
        char *s = captured(rack_fn, &r);
        cJSON *j = s ? cJSON_Parse(s) : NULL;
        const cJSON *archs = get(j, "architectures");
        CHECK(cJSON_GetArraySize(archs) == OC__RACK_ARCHS, "rack architectures");
        for (int a = 0; a < OC__RACK_ARCHS; a++) {
            const cJSON *x = cJSON_GetArrayItem(archs, a);
            CHECK(same_double(get(x, "utilisation"), r.arch[a].utilisation) &&
                      same_double(get(x, "idle"), r.arch[a].idle) &&
                      (isfinite(r.arch[a].mean_allreduce_s)
                           ? same_double(get(x, "mean_allreduce_s"), r.arch[a].mean_allreduce_s)
                           : cJSON_IsNull(get(x, "mean_allreduce_s"))),
                  "rack %d: utilisation %.17g", a, r.arch[a].utilisation);
        }
        CHECK(same_double(get(get(j, "trace"), "span"), r.span), "rack span");
        cJSON_Delete(j);
        free(s);
        oc__rack_result_free(&r);
    }
    oc__rack_trace_free(&t);
}

int main(void) {
    test_numbers();
    test_printer();
    test_report_third();
    test_report_runs();
    test_chrome();
    test_throughput();
    test_train();
    test_rack();
    return CHECK_SUMMARY();
}
