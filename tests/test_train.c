/*
 * test_train.c — tests of `opticoll train`: the models-file parser, the per-epoch arithmetic, the
 * runs behind it and, when the tool's path is given as argv[1], the command line's bad-input
 * contract.
 *
 * Each check is one a plausible wrong implementation fails: a parser that converts "8.2M" through
 * floating point and truncates gets 8199999 (and "2.01M" 2009999); one that skips a bad line
 * instead of refusing the file, or reports the wrong line (counting only model lines, forgetting
 * comments or blank lines), fails the line-number checks; a global-batch reading of the seed gives
 * 1250 iterations for VGG16 where the per-node reading gives ceil(60000 / (48 x N)); an epoch time
 * not built from the verified run's own time, or runs not sorted, or an algorithm silently dropped,
 * is caught against oc_run itself. The harness prints one line per failure and ends with "N passed,
 * M failed".
 */
#include "opticoll.h"

#include <cJSON.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef OC_DATA_DIR
#define OC_DATA_DIR "data"
#endif

#include "check.h"

/* Parses a models text; returns the error code, leaves the models in *m (NULL on error). */
static int parse(const char *text, oc_model **m, size_t *n, char *why, size_t len) {
    why[0] = '\0';
    return oc_models_parse(text, strlen(text), "t.tsv", m, n, why, len);
}

/* ---- the parser ---- */

static void test_parser_accepts(void) {
    char why[512];
    oc_model *m = NULL;
    size_t n = 0;
    const char *text = "# comment\n"
                       "\n"
                       "   # indented comment\n"
                       "Alex\t62.3M\t512\t60000\tseed IV.A\n"
                       "Goog\t\t6.7977M\t\t64\t60000\r\n" /* runs of tabs, CRLF, no source */
                       "  Kilo  \t1.5K\t1\t1\t  spaced note  \n"
                       "Giga\t2G\t3\t4\tnote with # and spaces\n"
                       "Eight\t8.2M\t1\t1\n"
                       "TwoOne\t2.01M\t1\t1\n"
                       "Plain\t25000000\t1024\t60000"; /* no final newline */
    int rc = parse(text, &m, &n, why, sizeof why);
    CHECK(rc == 0 && n == 7, "rc %d n %zu: %s", rc, n, why);
    if (rc || n != 7) {
        oc_models_free(m);
        return;
    }
    CHECK(strcmp(m[0].name, "Alex") == 0 && m[0].parameters == 62300000 && m[0].batch == 512 &&
              m[0].samples == 60000 && m[0].line == 4 && strcmp(m[0].note, "seed IV.A") == 0,
          "Alex: %llu line %u note '%s'", (unsigned long long)m[0].parameters, m[0].line,
          m[0].note);
    CHECK(m[1].parameters == 6797700 && m[1].batch == 64 && m[1].line == 5 && m[1].note[0] == 0,
          "6.7977M must be exactly 6797700, got %llu (line %u)",
          (unsigned long long)m[1].parameters, m[1].line);
    CHECK(strcmp(m[2].name, "Kilo") == 0 && m[2].parameters == 1500 &&
              strcmp(m[2].note, "spaced note") == 0,
          "trimmed fields: '%s' %llu '%s'", m[2].name, (unsigned long long)m[2].parameters,
          m[2].note);
    CHECK(m[3].parameters == 2000000000ull && strcmp(m[3].note, "note with # and spaces") == 0,
          "2G: %llu, note '%s'", (unsigned long long)m[3].parameters, m[3].note);
    CHECK(m[4].parameters == 8200000 && m[5].parameters == 2010000,
          "exact decimals (double arithmetic gives 8199999.99..., 2009999.99...): %llu %llu",
          (unsigned long long)m[4].parameters, (unsigned long long)m[5].parameters);
    CHECK(m[6].parameters == 25000000 && m[6].line == 10,
          "plain integer, last line without newline: line %u", m[6].line);
    CHECK(oc_model_find(m, n, "GOOG") == &m[1], "names match without regard to case");
    CHECK(oc_model_find(m, n, "Goo") == NULL, "no prefix matching");
    oc_models_free(m);
}

typedef struct bad_case {
    const char *text;
    const char *expect; /* a piece of the reason, starting with the line */
} bad_case;

static void test_parser_refuses(void) {
    static const bad_case cases[] = {
        {"# c\n\nA\t1M\t1\t1\nB\t62,3M\t4\t10\n", "t.tsv:4: parameters '62,3M' is not a number"},
        {"A\t1M\t1\t1\n# c\nB\t1.5\t1\t1\n", "t.tsv:3: parameters '1.5' is not a whole number"},
        {"A\t0.0000001M\t1\t1\n", "t.tsv:1: parameters '0.0000001M' is not a whole number"},
        {"A\t1.0000000001G\t1\t1\n", "t.tsv:1: parameters '1.0000000001G' is not a number"},
        {"A\t0\t1\t1\n", "t.tsv:1: parameters '0' out of range"},
        {"A\t281474976710657\t1\t1\n", "t.tsv:1: parameters '281474976710657' out of range"},
        {"A\t99999999999999999999999\t1\t1\n", "t.tsv:1: parameters"},
        {"A\t1M\t0\t1\n", "t.tsv:1: batch '0' is not a whole number"},
        {"A\t1M\t1\t-5\n", "t.tsv:1: samples '-5' is not a whole number"},
        {"A\t1M\t1\t1e4\n", "t.tsv:1: samples '1e4'"},
        {"A\t1M\t1\n", "t.tsv:1: expected 4 or 5 tab-separated fields"},
        {"\n\nA 1M 1 1\n", "t.tsv:3: expected 4 or 5 tab-separated fields (name, parameters, "
                           "batch, samples[, source]), found 1"},
        {"A\t1M\t1\t1\tnote\textra\n", "t.tsv:1: expected 4 or 5 tab-separated fields"},
        {"Big Net\t1M\t1\t1\n", "t.tsv:1: name 'Big Net' is empty or has a space"},
        {"A\t1 M\t1\t1\n", "t.tsv:1: parameters '1 M' is empty or has a space"},
        {"VGG\t1M\t1\t1\n\n# x\nvgg\t2M\t1\t1\n",
         "t.tsv:4: model 'vgg' is already defined on line 1"},
        {"# only comments\n\n", "t.tsv: no models"},
        {"", "t.tsv: no models"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[512];
        oc_model *m = (oc_model *)1;
        size_t n = 99;
        int rc = parse(cases[i].text, &m, &n, why, sizeof why);
        CHECK(rc == OC_EPARSE && m == NULL && n == 0 && strstr(why, cases[i].expect),
              "case %zu: rc %d, why '%s', expected '%s'", i, rc, why, cases[i].expect);
    }
    /* A NUL byte inside the text (len counts past it). */
    char why[256];
    oc_model *m = NULL;
    size_t n = 0;
    static const char nul[] = "A\t1M\t1\t1\nB\t1M\0\t1\t1\n";
    int rc = oc_models_parse(nul, sizeof nul - 1, "t.tsv", &m, &n, why, sizeof why);
    CHECK(rc == OC_EPARSE && strstr(why, "t.tsv:2: NUL byte") && m == NULL, "NUL: %d %s", rc, why);
}

static void test_shipped_models(void) {
    char why[512] = "";
    oc_model *m = NULL;
    size_t n = 0;
    int rc = oc_models_read(NULL, OC_DATA_DIR "/models.tsv", &m, &n, why, sizeof why);
    CHECK(rc == 0 && n >= 6, "data/models.tsv: rc %d n %zu: %s", rc, n, why);
    if (rc) return;
    static const struct {
        const char *name;
        uint64_t params, batch, samples;
    } want[] = {
        {"AlexNet", 62300000, 512, 60000},   {"VGG16", 138000000, 48, 60000},
        {"ResNet50", 25000000, 1024, 60000}, {"GoogLeNet", 6797700, 64, 60000},
        {"BERT-base", 110000000, 32, 60000}, {"BERT-large", 340000000, 6, 60000},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const oc_model *x = oc_model_find(m, n, want[i].name);
        CHECK(x && x->parameters == want[i].params && x->batch == want[i].batch &&
                  x->samples == want[i].samples && x->note[0],
              "%s: %llu parameters, batch %llu, samples %llu", want[i].name,
              x ? (unsigned long long)x->parameters : 0, x ? (unsigned long long)x->batch : 0,
              x ? (unsigned long long)x->samples : 0);
    }
    const oc_model *b = oc_model_find(m, n, "bert-base");
    CHECK(b && strstr(b->note, "not the seed's"), "the BERT lines say they are ours");
    oc_models_free(m);

    rc = oc_models_read(NULL, "/nonexistent/models.tsv", &m, &n, why, sizeof why);
    CHECK(rc == OC_EIO && strstr(why, "cannot read /nonexistent/models.tsv") && m == NULL,
          "missing file: %d %s", rc, why);
}

/* ---- arithmetic ---- */

static void test_iterations(void) {
    /* The seed's cases: per-node batch, so the global batch grows with N. */
    CHECK(oc_train_iterations(60000, 48, 1024) == 2, "VGG16 at 1024 nodes: 49152 per iteration");
    CHECK(oc_train_iterations(60000, 48, 2048) == 1, "VGG16 at 2048 nodes: one partial batch");
    CHECK(oc_train_iterations(60000, 1024, 128) == 1, "ResNet50 at 128 nodes");
    CHECK(oc_train_iterations(60000, 64, 7) == 134, "ceil(60000 / 448) = 134");
    CHECK(oc_train_iterations(60000, 48, 1) == 1250, "one node: ceil(60000 / 48)");
    CHECK(oc_train_iterations(60000, 100, 600) == 1, "exact: 60000 / 60000");
    CHECK(oc_train_iterations(60000, 100, 599) == 2, "59900 < 60000");
    CHECK(oc_train_iterations(60001, 1, 1) == 60001, "batch 1, one node");
    CHECK(oc_train_iterations(0, 1, 1) == 0 && oc_train_iterations(1, 0, 1) == 0 &&
              oc_train_iterations(1, 1, 0) == 0,
          "zero arguments");
    CHECK(oc_train_iterations(UINT64_MAX, UINT64_MAX, OC_MAX_NODES) == 1, "no overflow");
    CHECK(oc_train_iterations(UINT64_MAX, 1, 1) == UINT64_MAX, "largest");
    CHECK(oc_train_iterations(UINT64_MAX, 3, 1) == UINT64_MAX / 3, "UINT64_MAX is divisible by 3");
}

/* ---- runs ---- */

static size_t allreduce_algorithms_on(const char *net) {
    size_t k = 0, len = strlen(net);
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        if (a->collective != OC_ALLREDUCE) continue;
        for (const char *p = a->networks; p && *p;) {
            const char *comma = strchr(p, ',');
            size_t l = comma ? (size_t)(comma - p) : strlen(p);
            if (l == len && strncmp(p, net, len) == 0) {
                k++;
                break;
            }
            p = comma ? comma + 1 : NULL;
        }
    }
    return k;
}

static void test_train_vgg16(void) {
    oc_request req;
    memset(&req, 0, sizeof req);
    req.network = "ring";
    req.nodes = 16;
    req.skip_data_check = 1;
    req.bytes = 7;              /* ignored: the model gives the bytes */
    req.collective = OC_GOSSIP; /* ignored: train is all-reduce */
    oc_train_result r;
    char why[512] = "";
    int rc = oc_train(OC_DATA_DIR "/models.tsv", "vgg16", &req, &r, why, sizeof why);
    CHECK(rc == 0, "VGG16 on 16 nodes: %s", why);
    if (rc) return;
    CHECK(strcmp(r.model.name, "VGG16") == 0 && r.bytes == 552000000ull,
          "VGG16 gradient bytes: %llu", (unsigned long long)r.bytes);
    CHECK(r.global_batch == 768 && r.iterations == 79 && r.nodes == 16,
          "ceil(60000 / (48 x 16)) = 79, got %llu (global batch %llu)",
          (unsigned long long)r.iterations, (unsigned long long)r.global_batch);
    CHECK(r.count == allreduce_algorithms_on("ring") && r.count >= 5,
          "every all-reduce on ring is tried: %zu", r.count);
    CHECK(r.nrun >= 1 && r.nrun <= r.count, "%zu of %zu ran", r.nrun, r.count);
    for (size_t i = r.nrun; i < r.count; i++)
        CHECK(r.runs[i].report == NULL && r.runs[i].reason[0], "%s not run needs a reason",
              r.runs[i].algorithm);
    for (size_t i = 0; i < r.nrun; i++) {
        const oc_train_run *x = &r.runs[i];
        CHECK(x->report && oc_report_verified(x->report) && x->reason[0] == 0, "%s verified",
              x->algorithm);
        CHECK(x->iteration_s > 0 && x->iteration_s == oc_report_time(x->report) &&
                  x->epoch_s == 79.0 * x->iteration_s,
              "%s: epoch %.9g = 79 x %.9g", x->algorithm, x->epoch_s, x->iteration_s);
        if (i) CHECK(r.runs[i - 1].iteration_s <= x->iteration_s, "sorted at %zu", i);
        /* The same all-reduce run directly gives the same time. */
        oc_request d = req;
        d.collective = OC_ALLREDUCE;
        d.bytes = 552000000ull;
        d.algorithm = x->algorithm;
        oc_report *rep = NULL;
        char w2[256] = "";
        int rc2 = oc_run(&d, &rep, w2, sizeof w2);
        CHECK(rc2 == 0 && oc_report_time(rep) == x->iteration_s, "%s direct: %s", x->algorithm, w2);
        oc_report_free(rep);
    }

    /* The JSON rendering parses and carries the figures. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    CHECK(mem && oc_train_write_json(&r, mem) == 0, "write json");
    if (mem) fclose(mem);
    cJSON *j = buf ? cJSON_Parse(buf) : NULL;
    CHECK(j != NULL, "train JSON parses");
    if (j) {
        cJSON *runs = cJSON_GetObjectItem(j, "runs");
        cJSON *first = cJSON_GetArrayItem(runs, 0);
        cJSON *rep = cJSON_GetObjectItem(first, "report");
        CHECK(cJSON_GetObjectItem(j, "bytes")->valuedouble == 552000000.0 &&
                  cJSON_GetObjectItem(j, "iterations_per_epoch")->valuedouble == 79 &&
                  cJSON_GetObjectItem(j, "batch_per_node")->valuedouble == 48 &&
                  cJSON_GetArraySize(runs) == (int)r.nrun,
              "json figures");
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(first, "verified")) &&
                  cJSON_IsTrue(cJSON_GetObjectItem(rep, "verified")) &&
                  cJSON_GetObjectItem(rep, "bytes")->valuedouble == 552000000.0,
              "json run report");
        CHECK(fabs(cJSON_GetObjectItem(first, "time_per_epoch_s")->valuedouble -
                   r.runs[0].epoch_s) <= 1e-8 * r.runs[0].epoch_s,
              "json epoch time");
        cJSON_Delete(j);
    }
    free(buf);
    buf = NULL;
    mem = open_memstream(&buf, &len);
    CHECK(mem && oc_train_write_text(&r, mem) == 0, "write text");
    if (mem) fclose(mem);
    CHECK(buf && strstr(buf, "552000000 bytes") && strstr(buf, "-> 79 iterations") &&
              strstr(buf, "ceil(60000 / 48) = 1250"),
          "text: %s", buf ? buf : "");
    free(buf);
    oc_train_result_free(&r);
}

static void test_train_one_and_errors(void) {
    char why[512] = "";
    oc_model *m = NULL;
    size_t n = 0;
    const char *text = "Tiny\t1000\t10\t1000\n";
    int rc = parse(text, &m, &n, why, sizeof why);
    CHECK(rc == 0 && n == 1, "tiny model: %s", why);
    if (rc) return;
    oc_request req;
    memset(&req, 0, sizeof req);
    req.network = "ring";
    req.nodes = 12;
    req.algorithm = "wrht";
    oc_train_result r;
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == 0 && r.nrun == 1 && r.count == 1 && strcmp(r.runs[0].algorithm, "wrht") == 0 &&
              r.bytes == 4000 && r.iterations == 9 && oc_report_data_checked(r.runs[0].report),
          "one algorithm: rc %d %s, iterations %llu", rc, why, (unsigned long long)r.iterations);
    if (!rc) oc_train_result_free(&r);
    CHECK(r.runs == NULL && r.count == 0, "free clears the result");

    req.algorithm = "nope";
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == OC_ENOENT && strstr(why, "nope") && r.runs == NULL, "unknown algorithm: %s", why);
    req.algorithm = NULL;
    req.network = "nonet";
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == OC_ENOENT && strstr(why, "nonet") && strstr(why, "ring"), "unknown network: %s",
          why);
    req.network = NULL;
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == OC_EINVAL, "no network");
    req.network = "ring";
    req.nodes = 0;
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == OC_EINVAL && strstr(why, "at least 1"), "N < 1: %s", why);
    req.nodes = 4;
    rc = oc_train(OC_DATA_DIR "/models.tsv", "NoSuchNet", &req, &r, why, sizeof why);
    CHECK(rc == OC_ENOENT && strstr(why, "unknown model 'NoSuchNet'") && strstr(why, "VGG16"),
          "unknown model: %s", why);
    rc = oc_train("/nonexistent/models.tsv", "VGG16", &req, &r, why, sizeof why);
    CHECK(rc == OC_EIO, "missing models file: %s", why);
    oc_models_free(m);
}

/* ---- the command line (only when the tool's path is given) ---- */

/* Runs `tool args` with stdout and stderr captured; returns the exit status. */
static int run_tool(const char *tool, const char *args, const char *dir, char *out, size_t outlen,
                    char *err, size_t errlen) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s/out' 2>'%s/err'", tool, args, dir, dir);
    int st = system(cmd);
    char path[512];
    char *bufs[2] = {out, err};
    size_t lens[2] = {outlen, errlen};
    const char *names[2] = {"out", "err"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "r");
        size_t got = f ? fread(bufs[i], 1, lens[i] - 1, f) : 0;
        bufs[i][got] = '\0';
        if (f) fclose(f);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_cli(const char *tool) {
    char dir[] = "/tmp/oc_train_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    char bad[600], args[1200];
    snprintf(bad, sizeof bad, "%s/bad.tsv", dir);
    FILE *f = fopen(bad, "w");
    if (f) {
        fputs("# a comment\nA\t1M\t1\t1\n\tB\t1M\tbig\t1\n", f);
        fclose(f);
    }
    static char out[1 << 16], err[4096];
    static const struct {
        const char *args, *expect;
    } refused[] = {
        {"train -m NoSuchNet -n 8", "unknown model 'NoSuchNet'"},
        {"train -m VGG16 -n 0", "-n 0: at least one node"},
        {"train -m VGG16", "missing -n"},
        {"train -n 8", "missing -m"},
        {"train -m VGG16 -n 8 -s 4MiB", "drop -s"},
        {"train -m VGG16 -n 8 --models /nonexistent/models.tsv", "cannot read"},
        {"train -m VGG16 -n 8 -a nope", "nope"},
        {"train -m VGG16 -n 8 -t nonet", "nonet"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int st = run_tool(tool, refused[i].args, dir, out, sizeof out, err, sizeof err);
        CHECK(st == 2 && out[0] == 0 && count_lines(err) == 1 &&
                  strncmp(err, "opticoll: ", 10) == 0 && strstr(err, refused[i].expect),
              "`%s`: exit %d, stdout %zu bytes, stderr '%s'", refused[i].args, st, strlen(out),
              err);
    }
    snprintf(args, sizeof args, "train -m A -n 4 --models '%s'", bad);
    int st = run_tool(tool, args, dir, out, sizeof out, err, sizeof err);
    CHECK(st == 2 && out[0] == 0 && count_lines(err) == 1 && strstr(err, "bad.tsv:3: batch 'big'"),
          "malformed line: exit %d, '%s'", st, err);

    st =
        run_tool(tool, "train -m VGG16 -t ring -n 64 -w 64", dir, out, sizeof out, err, sizeof err);
    CHECK(st == 0 && err[0] == 0 && strstr(out, "552000000 bytes") &&
              strstr(out, "-> 20 iterations") && !strstr(out, " NO "),
          "VGG16 text: exit %d, '%s' '%s'", st, out, err);
    st = run_tool(tool, "train -m ResNet50 -n 128 -a wrht --json", dir, out, sizeof out, err,
                  sizeof err);
    cJSON *j = st == 0 ? cJSON_Parse(out) : NULL;
    CHECK(j && cJSON_GetObjectItem(j, "iterations_per_epoch")->valuedouble == 1 &&
              cJSON_GetObjectItem(j, "bytes")->valuedouble == 100000000.0 &&
              cJSON_GetArraySize(cJSON_GetObjectItem(j, "runs")) == 1,
          "ResNet50 json: exit %d", st);
    cJSON_Delete(j);
    st = run_tool(tool, "train --help", dir, out, sizeof out, err, sizeof err);
    CHECK(st == 0 && strstr(out, "ceil(samples / (batch x N))"), "train --help");
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    if (system(args) != 0) printf("note: could not remove %s\n", dir);
}

/* ---- texts held whole ---- */

/* Writes r with fn into memory; the text (malloc'ed) or NULL. */
static char *rendered(int (*fn)(const oc_train_result *, FILE *), const oc_train_result *r) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    int rc = fn(r, f);
    if (fclose(f) || rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A model's name and source longer than the char[64] and char[256] the list once held them in
 * (where the name was refused past 63 bytes and the source cut at 255) come back whole from the
 * parser, live in the list's one allocation beside a second model's, are copied whole into the
 * train result (which outlives the list: the list's texts are overwritten before the result is
 * read), and are printed whole by both writers, the name's escape byte escaped on the terminal. */
static void test_long_texts(void) {
    enum { NAME = 300, NOTE = 1500 };
    char name[NAME + 1], note[NOTE + 1], *text = malloc(NAME + NOTE + 64);
    if (!text) return;
    for (int i = 0; i < NAME; i++)
        name[i] = (char)('a' + i % 26);
    name[NAME - 1] = 'Z';
    name[7] = '\x1b'; /* an ESC in a name: escaped by the text writer, kept by JSON */
    name[NAME] = '\0';
    for (int i = 0; i < NOTE; i++)
        note[i] = (char)('0' + i % 10);
    memcpy(note + NOTE - 3, "END", 4);
    snprintf(text, NAME + NOTE + 64, "%s\t1000\t10\t1000\t%s\nSmall\t2000\t3\t7\n", name, note);
    char why[512] = "";
    oc_model *m = NULL;
    size_t n = 0;
    int rc = parse(text, &m, &n, why, sizeof why);
    free(text);
    CHECK(rc == 0 && n == 2, "long texts parse: rc %d: %s", rc, why);
    if (rc || n != 2) return;
    CHECK(strcmp(m[0].name, name) == 0 && strlen(m[0].name) == NAME, "name %zu bytes of %d",
          strlen(m[0].name), NAME);
    CHECK(strcmp(m[0].note, note) == 0, "note %zu bytes of %d", strlen(m[0].note), NOTE);
    CHECK(strcmp(m[1].name, "Small") == 0 && m[1].note && m[1].note[0] == 0 &&
              m[1].parameters == 2000 && m[1].samples == 7,
          "the second model beside the long one: '%s'", m[1].name);
    CHECK(oc_model_find(m, n, name) == &m[0], "a long name is found whole");
    oc_request req;
    memset(&req, 0, sizeof req);
    req.network = "ring";
    req.nodes = 5;
    req.algorithm = "ring";
    req.skip_data_check = 1;
    oc_train_result r;
    rc = oc_train_model(&m[0], &req, &r, why, sizeof why);
    CHECK(rc == 0, "train the long-named model: %s", why);
    /* the result keeps its own copies: the list's texts are spoiled, then freed */
    memset((char *)m[0].name, 'X', NAME);
    memset((char *)m[0].note, 'Y', NOTE);
    oc_models_free(m);
    if (rc) return;
    CHECK(strcmp(r.model.name, name) == 0 && strcmp(r.model.note, note) == 0,
          "the result's model texts are its own and whole (%zu, %zu bytes)", strlen(r.model.name),
          strlen(r.model.note));
    CHECK(strcmp(r.network, "ring") == 0, "network '%s'", r.network);
    char *txt = rendered(oc_train_write_text, &r);
    char escaped[NAME + 8];
    snprintf(escaped, sizeof escaped, "%.7s\\x1b%s", name, name + 8);
    CHECK(txt && strstr(txt, escaped) && strstr(txt, note) && !strchr(txt, '\x1b'),
          "text: the whole name (ESC escaped) and the whole source");
    free(txt);
    char *js = rendered(oc_train_write_json, &r);
    cJSON *j = js ? cJSON_Parse(js) : NULL;
    const cJSON *jn = cJSON_GetObjectItemCaseSensitive(j, "model");
    const cJSON *jsrc = cJSON_GetObjectItemCaseSensitive(j, "model_source");
    CHECK(cJSON_IsString(jn) && strcmp(jn->valuestring, name) == 0 && cJSON_IsString(jsrc) &&
              strcmp(jsrc->valuestring, note) == 0,
          "JSON: model and model_source whole");
    cJSON_Delete(j);
    free(js);
    oc_train_result_free(&r);
}

int main(int argc, char **argv) {
    test_parser_accepts();
    test_parser_refuses();
    test_shipped_models();
    test_iterations();
    test_train_vgg16();
    test_train_one_and_errors();
    test_long_texts();
    if (argc > 1)
        test_cli(argv[1]);
    else
        printf("skip - command-line checks (no tool path given)\n");
    return CHECK_SUMMARY();
}
