/*
 * test_file_stop.c — a schedule file's reading and check hear the caller's stop
 * (oc_verify_file_progress, oc_draw_options.progress; src/formats/schedule_json.c and
 * msccl_import.c), and the JSON reader that parses a transfer at a time accepts and refuses
 * exactly what a parse of the whole text does.
 *
 *  - Progress: reading a file reports its rounds read ("rounds read", done growing to the file's
 *    rounds) or an MSCCL file's bytes ("bytes read", to its length), then the checked run's rounds
 *    ("rounds", to the report's count); every piece ends at done == total.
 *  - Stop: a callback that answers "stop" at its k-th report of a unit (every step reports here,
 *    oc__progress_every_step) ends the call with OC_ECANCELED, no report, a reason saying so, for
 *    k at the start, the middle and the end of the reading and of the check, on JSON and MSCCL
 *    XML; the sanitizer build holds every such exit to freeing what it took.
 *  - The reader: every file of a family of one-byte and one-token mutations of an exported file
 *    (commas dropped and doubled, brackets swapped, a literal cut, a string left open, a key
 *    spelled with an escape, white space added) is accepted by oc_verify_file exactly when cJSON
 *    accepts its whole text as JSON and the schedule is right, and a refusal of malformed JSON
 *    names the byte cJSON names for the whole text.
 *  - Before, the reader parsed the whole text with cJSON in one call no callback could stop (a
 *    second of CPU at the 64 MiB input cap), and oc_verify_file took no callback at all.
 * Node counts: 7 (odd), 12, 16; the test's own files are small (a few hundred kB).
 */
#include "check.h"
#include "opticoll.h"
#include "core/progress.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct seen {
    char what[4][16];
    uint64_t last_done[4], last_total[4], calls[4];
    int back;           /* done went back within a unit */
    const char *stop_at; /* the unit whose stop_k-th report answers "stop" (NULL: never) */
    uint64_t stop_k;
} seen;

static int unit_of(seen *s, const char *what) {
    for (int i = 0; i < 4; i++) {
        if (!s->what[i][0]) snprintf(s->what[i], sizeof s->what[i], "%s", what);
        if (!strcmp(s->what[i], what)) return i;
    }
    return 3;
}

static int on_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
    seen *s = ctx;
    const int u = unit_of(s, what);
    if (s->calls[u] && done < s->last_done[u]) s->back = 1;
    s->last_done[u] = done;
    s->last_total[u] = total;
    s->calls[u]++;
    return s->stop_at && !strcmp(s->stop_at, what) && s->calls[u] == s->stop_k;
}

static const seen *last_seen;
static uint64_t done_of(const char *what) {
    for (int i = 0; i < 4; i++)
        if (!strcmp(last_seen->what[i], what)) return last_seen->last_done[i];
    return UINT64_MAX;
}
static uint64_t calls_of(const char *what) {
    for (int i = 0; i < 4; i++)
        if (!strcmp(last_seen->what[i], what)) return last_seen->calls[i];
    return 0;
}

static int export_to(const char *path, const char *format, oc_collective c, const char *algo,
                     const char *net, uint32_t n) {
    oc_request req = {.collective = c, .algorithm = algo, .network = net, .nodes = n, .bytes = 4096};
    char why[512];
    FILE *f = fopen(path, "w");
    if (!f) return OC_EIO;
    int rc = !strcmp(format, "msccl") ? oc_export_msccl(&req, f, why, sizeof why)
                                      : oc_export_json(&req, f, why, sizeof why);
    if (fclose(f) && !rc) rc = OC_EIO;
    if (rc) printf("export %s %s N=%u: %s\n", algo, format, n, why);
    return rc;
}

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *t = malloc((size_t)len + 1);
    if (t && fread(t, 1, (size_t)len, f) != (size_t)len) {
        free(t);
        t = NULL;
    }
    if (t) t[len] = 0;
    fclose(f);
    *n = (size_t)len;
    return t;
}

static void spill(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, n, f);
        fclose(f);
    }
}

/* The reports of a whole read and check of `path`, and stops at its units' reports. */
static void progress_and_stops(const char *path, const char *network, const char *read_unit,
                               uint64_t least_reads) {
    seen s;
    memset(&s, 0, sizeof s);
    last_seen = &s;
    oc_report *rep = NULL;
    char why[512] = "";
    oc__progress_every_step(1);
    int rc = oc_verify_file_progress(NULL, path, network, NULL, on_progress, &s, &rep, why,
                                     sizeof why);
    CHECK(rc == 0 && rep, "%s read whole: %s", path, why);
    const uint64_t rounds = rep ? oc_report_rounds(rep) : 0;
    oc_report_free(rep);
    CHECK(!s.back, "%s: done went back", path);
    CHECK(calls_of(read_unit) >= least_reads && done_of("rounds") == rounds && rounds > 2,
          "%s: %llu reports of %s, the run's rounds at %llu of %llu", path,
          (unsigned long long)calls_of(read_unit), read_unit,
          (unsigned long long)done_of("rounds"), (unsigned long long)rounds);
    for (int u = 0; u < 4; u++)
        CHECK(!s.what[u][0] || s.last_done[u] == s.last_total[u],
              "%s: %s ended at %llu of %llu", path, s.what[u],
              (unsigned long long)s.last_done[u], (unsigned long long)s.last_total[u]);
    /* stops at the first, a middle and the last report of each piece but its final one (whose
     * answer is not read: the piece is over) */
    const char *units[2] = {read_unit, "rounds"};
    for (int u = 0; u < 2; u++) {
        const uint64_t n = calls_of(units[u]);
        const uint64_t at[3] = {1, n / 2, n > 1 ? n - 1 : 1};
        for (int i = 0; i < 3; i++) {
            seen t;
            memset(&t, 0, sizeof t);
            t.stop_at = units[u];
            t.stop_k = at[i];
            rep = NULL;
            why[0] = 0;
            rc = oc_verify_file_progress(NULL, path, network, NULL, on_progress, &t, &rep, why,
                                         sizeof why);
            CHECK(rc == OC_ECANCELED && !rep && strstr(why, "cancel"),
                  "%s: stop at report %llu of %llu (%s): rc %d, %s", path,
                  (unsigned long long)at[i], (unsigned long long)n, units[u], rc, why);
            oc_report_free(rep);
        }
    }
    oc__progress_every_step(0);
}

/* oc_verify_file's verdict on `text` (written to `path`): 0, or its error with why. */
static int verify_text(const char *path, const char *text, size_t n, char *why, size_t len) {
    spill(path, text, n);
    oc_report *rep = NULL;
    why[0] = 0;
    int rc = oc_verify_file(NULL, path, NULL, NULL, &rep, why, len);
    oc_report_free(rep);
    return rc;
}

/* The mutations of an exported file: each the text with one edit at byte `at`. */
static void mutations(const char *path, const char *dir) {
    size_t n = 0;
    char *orig = slurp(path, &n);
    CHECK(orig != NULL, "read %s", path);
    if (!orig) return;
    char file[512], why[512];
    snprintf(file, sizeof file, "%s/mutated.json", dir);
    /* the places: inside the header, at the rounds' brackets, inside transfers */
    const char *rounds = strstr(orig, "\"rounds\"");
    CHECK(rounds != NULL, "the export names its rounds");
    if (!rounds) {
        free(orig);
        return;
    }
    size_t tried = 0, malformed = 0;
    char *buf = malloc(n + 16);
    for (size_t at = 0; at < n; at++) {
        const char c = orig[at];
        /* the edits that matter are at the structure: brackets, commas, colons, quotes, letters
         * of a literal; the rest of the positions give nothing new */
        if (!strchr("[]{},:\"cnro0123456789 ", c)) continue;
        if (c == ' ' && at % 7) continue;
        if (c >= '0' && c <= '9' && at % 5) continue;
        for (int edit = 0; edit < 4; edit++) {
            size_t m = 0;
            memcpy(buf, orig, at);
            m = at;
            if (edit == 0) { /* drop the byte */
                memcpy(buf + m, orig + at + 1, n - at - 1);
                m += n - at - 1;
            } else if (edit == 1) { /* double it */
                buf[m++] = c;
                memcpy(buf + m, orig + at, n - at);
                m += n - at;
            } else if (edit == 2) { /* swap a bracket for the other kind, a comma for a colon */
                const char *from = "[]{},:", *to = "{}[]:,";
                const char *k = strchr(from, c);
                if (!k || !c) break;
                buf[m++] = to[k - from];
                memcpy(buf + m, orig + at + 1, n - at - 1);
                m += n - at - 1;
            } else { /* a stray letter: a literal or a key cut */
                buf[m++] = 'x';
                memcpy(buf + m, orig + at, n - at);
                m += n - at;
            }
            buf[m] = 0;
            const char *end = NULL;
            cJSON *whole = cJSON_ParseWithLengthOpts(buf, m + 1, &end, 1);
            const size_t whole_at = whole ? 0 : (size_t)((end ? end : cJSON_GetErrorPtr()) - buf);
            cJSON_Delete(whole);
            int rc = verify_text(file, buf, m, why, sizeof why);
            tried++;
            if (!whole) {
                malformed++;
                char expect[600];
                snprintf(expect, sizeof expect, "malformed JSON near byte %zu", whole_at);
                CHECK(rc == OC_EPARSE && strstr(why, expect),
                      "edit %d at byte %zu ('%c'): cJSON refuses the whole text at byte %zu, the "
                      "reader says: %d %s",
                      edit, at, c, whole_at, rc, why);
            } else {
                CHECK(!strstr(why, "malformed JSON"),
                      "edit %d at byte %zu ('%c'): valid JSON refused as malformed: %s", edit, at,
                      c, why);
            }
        }
        if (failed > 20) break; /* enough to see what is wrong */
    }
    CHECK(tried > 200 && malformed > 100, "%zu mutations, %zu of them malformed", tried, malformed);
    /* the rounds' key spelled with an escape: the reader parses the whole text, as before */
    char *esc = malloc(n + 16);
    const size_t key = (size_t)(rounds - orig);
    memcpy(esc, orig, key);
    memcpy(esc + key, "\"r\\u006funds\"", 13);
    memcpy(esc + key + 13, orig + key + 8, n - key - 8);
    const size_t en = n + 5;
    esc[en] = 0;
    oc_report *a = NULL, *b = NULL;
    spill(file, esc, en);
    int ra = oc_verify_file(NULL, file, NULL, NULL, &a, why, sizeof why);
    int rb = oc_verify_file(NULL, path, NULL, NULL, &b, why, sizeof why);
    CHECK(ra == 0 && rb == 0 && a && b && oc_report_rounds(a) == oc_report_rounds(b) &&
              oc_report_steps(a) == oc_report_steps(b) && oc_report_time(a) == oc_report_time(b),
          "the escaped key reads as the plain one: %d %d %s", ra, rb, why);
    oc_report_free(a);
    oc_report_free(b);
    free(esc);
    free(buf);
    free(orig);
    unlink(file);
}

int main(void) {
    char dir[] = "/tmp/oc-file-stop-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char json[600], xml[600], small[600];
    snprintf(json, sizeof json, "%s/ring16.json", dir);
    snprintf(xml, sizeof xml, "%s/ring12.xml", dir);
    snprintf(small, sizeof small, "%s/rhd7.json", dir);
    int rc = export_to(json, "json", OC_ALLGATHER, "ring", "ring", 16);
    if (!rc) rc = export_to(xml, "msccl", OC_ALLREDUCE, "ring", "switch", 12);
    if (!rc) rc = export_to(small, "json", OC_ALLREDUCE, "rhd", "switch", 7);
    CHECK(rc == 0, "exports");
    if (rc) return CHECK_SUMMARY();
    /* a report a round read (and the end's), a piece of 1 MiB parsed for the XML (and the end) */
    progress_and_stops(json, NULL, "rounds read", 15);
    progress_and_stops(small, NULL, "rounds read", 3);
    progress_and_stops(xml, "switch", "bytes read", 2);
    /* the drawing of a file stops the same way */
    seen s;
    memset(&s, 0, sizeof s);
    s.stop_at = "rounds read";
    s.stop_k = 2;
    oc__progress_every_step(1);
    oc_draw_options opt = {.round = -1,
                           .max_panels = 256,
                           .max_elements = 20000,
                           .progress = on_progress,
                           .progress_ctx = &s};
    char why[512] = "";
    FILE *devnull = fopen("/dev/null", "w");
    rc = devnull ? oc_draw_file(NULL, json, NULL, NULL, &opt, devnull, why, sizeof why) : OC_EIO;
    CHECK(rc == OC_ECANCELED && strstr(why, "cancel"), "draw of a file stopped: %d %s", rc, why);
    opt.progress = NULL;
    rc = devnull ? oc_draw_file(NULL, json, NULL, NULL, &opt, devnull, why, sizeof why) : OC_EIO;
    CHECK(rc == 0, "draw of a file without a callback: %s", why);
    if (devnull) fclose(devnull);
    oc__progress_every_step(0);
    mutations(small, dir);
    unlink(json);
    unlink(xml);
    unlink(small);
    rmdir(dir);
    return CHECK_SUMMARY();
}
