/*
 * schedule_json.c — schedule files: `opticoll export --format json` writes them, `opticoll verify
 * FILE` reads them back (with cJSON) and checks them with the same verifier and network model as
 * every generated schedule.
 *
 * Format (version 1):
 *   {"format": "opticoll-schedule", "version": 1, "collective": "allgather", "algorithm": "optree",
 *    "network": "ring", "network_params": {"wavelengths": "64"}, "nodes": 16, "bytes": 4194304,
 *    "root": 0, "chunks_per_block": 1, "chunks": 16, "params": {"radices": "4x4"},
 *    "block_node": [0, 4, 8, ...],            (only when blocks are relabelled)
 *    "rounds": [[{"src": 0, "dst": 4, "op": "copy", "chunks": [0, 1], "bytes": 4194304}, ...],
 * ...]} "chunks" is [first label, number of labels]; "bytes" is informative. Only "collective",
 * "nodes" and "rounds" are required; every other field has the default shown by `opticoll verify
 * --help`.
 *
 * Export is written only after the schedule passed the verifier and the resource check, so a file
 * on disk is never a partial schedule. The header's fields and each round are cJSON trees
 * (core/json.h); the rounds are generated again and written one by one, so the frame around them
 * (a round a line) is laid by hand. The file has a cap (oc__output_cap, formats.h: a quarter of
 * the memory budget, which the Chrome trace shares): each round is printed to a string and
 * refused before a byte of it would pass the cap, since a file's size is known only as its rounds
 * are generated again.
 *
 * Import reads through oc__read_file (the input file cap, checked while reading), sniffs the
 * format after a UTF-8 byte order mark, counts cJSON's tree against the memory budget before it
 * is built, and refuses a key given twice in one object (cJSON would keep both and every lookup
 * would see the first), found by sorting the object's keys.
 */
#include "formats/formats.h"
#include "core/json.h"
#include "core/json_read.h"
#include "core/progress.h"
#include "core/quote.h"
#include "run/watch.h"
#include "verify/verify.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- export ---- */

uint64_t oc__output_cap(void) {
    return oc__memory_budget() / 4;
}

int oc__output_refuse(const char *what, uint64_t done, const char *unit, char *why, size_t len) {
    char cap[32];
    oc__format_bytes(cap, sizeof cap, oc__output_cap());
    return oc__fail(why, len, OC_ETOOBIG,
                    "%s would be larger than its cap of %s, reached after %llu %s (a quarter of "
                    "the memory budget; set OPTICOLL_MEMORY_BUDGET_MIB)",
                    what, cap, (unsigned long long)done, unit);
}

static int count_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)index;
    oc__size_counter *c = (oc__size_counter *)self;
    c->least += c->per_transfer * (uint64_t)r->count + c->per_round;
    if (c->least + c->tail > oc__output_cap())
        return oc__output_refuse(c->what, c->rounds, "rounds", why, len);
    c->rounds++;
    return 0;
}

oc__size_counter oc__size_counter_of(const char *what, uint64_t per_transfer, uint64_t per_round,
                                     uint64_t tail) {
    return (oc__size_counter){.sink = {.round = count_round, .takes_family = 1},
                              .what = what,
                              .per_transfer = per_transfer,
                              .per_round = per_round,
                              .tail = tail};
}

typedef struct json_writer {
    oc__sink sink;
    FILE *f;
    uint64_t chunk_bytes;
    uint64_t bytes, rounds; /* written so far (against oc__output_cap) */
    int first_round;
    char *text; /* the round being written, reused from round to round */
    size_t cap;
} json_writer;

/* The longest text of one transfer: its fixed characters and five numbers of at most 20 digits. */
enum { TRANSFER_TEXT_MAX = 64 + 5 * 20 };

static char *put_text(char *o, const char *s, size_t n) {
    memcpy(o, s, n);
    return o + n;
}

static char *put_u64(char *o, uint64_t v) {
    char buf[OC__JSON_NUMBER_SIZE];
    const char *p = oc__json_u64_text(buf, v);
    const size_t n = (size_t)(buf + OC__JSON_NUMBER_SIZE - 1 - p);
    return put_text(o, p, n);
}

#define PUT(o, lit) put_text((o), (lit), sizeof(lit) - 1)

/* One round, on a line of its own: [{"src": 0, "dst": 1, "op": "copy", "chunks": [0, 1],
 * "bytes": 4096}, ...]. The text is laid here, numbers by the JSON writer's own formatter
 * (oc__json_u64_text), exactly as the cJSON tree per round printed it (the house spacing: one
 * space after every ',' and ':'), without the tree: a tree of 7 items a transfer, printed and
 * re-spaced, was three quarters of an export's time (1 M transfers: 0.70 s, against 0.15 s before
 * the writer moved to trees). tests/test_export_json.c holds the two to the byte. */
static int writer_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    json_writer *w = (json_writer *)self;
    if (r->count > (SIZE_MAX - 8) / TRANSFER_TEXT_MAX ||
        oc__grow((void **)&w->text, &w->cap, r->count * TRANSFER_TEXT_MAX + 8, 1))
        return oc__fail(why, len, OC_ENOMEM, "out of memory at round %llu",
                        (unsigned long long)index);
    char *o = w->text;
    *o++ = '[';
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (i) o = PUT(o, ", ");
        o = PUT(o, "{\"src\": ");
        o = put_u64(o, t->src);
        o = PUT(o, ", \"dst\": ");
        o = put_u64(o, t->dst);
        o = t->op == OC_OP_REDUCE ? PUT(o, ", \"op\": \"reduce\", \"chunks\": [")
                                  : PUT(o, ", \"op\": \"copy\", \"chunks\": [");
        o = put_u64(o, t->first);
        o = PUT(o, ", ");
        o = put_u64(o, t->count);
        o = PUT(o, "], \"bytes\": ");
        o = put_u64(o, w->chunk_bytes * t->count);
        *o++ = '}';
    }
    *o++ = ']';
    const size_t n = (size_t)(o - w->text);
    if (w->bytes + n + 8 > oc__output_cap()) /* 8: the separator and the closing "\n]}\n" */
        return oc__output_refuse("the schedule file", w->rounds, "rounds", why, len);
    w->bytes += n + 4;
    w->rounds++;
    int bad =
        fputs(w->first_round ? "\n  " : ",\n  ", w->f) == EOF || fwrite(w->text, 1, n, w->f) != n;
    w->first_round = 0;
    /* the system's reason with it (a full disk: "No space left on device"), read at once, before
     * another call can change errno */
    if (bad)
        return oc__fail(why, len, OC_EIO, "write error at round %llu: %s",
                        (unsigned long long)index, strerror(errno));
    return 0;
}

/* The fewest bytes a transfer's text takes: {"src": 0, "dst": 0, "op": "copy", "chunks": [0, 0],
 * "bytes": 0} with every number one digit. */
enum { TRANSFER_TEXT_MIN = 64 };

/* The file's fields before "rounds", in three parts: the file's layout breaks the line before
 * "nodes" and "block_node". */
static cJSON *header_names(const oc__spec *s, const char *algorithm, const char *network,
                           const oc_report *rep) {
    cJSON *o = cJSON_CreateObject();
    if (!(oc__json_str(o, "format", "opticoll-schedule") && oc__json_u64(o, "version", 1) &&
          oc__json_str(o, "collective", oc_collective_name(s->coll)) &&
          oc__json_str(o, "algorithm", algorithm) && oc__json_str(o, "network", network) &&
          oc__json_kv(o, "network_params", rep->net_params))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *header_shape(const oc__spec *s, const oc_kv *params, const oc_report *rep) {
    cJSON *o = cJSON_CreateObject();
    if (!(oc__json_u64(o, "nodes", s->nodes) && oc__json_u64(o, "bytes", s->bytes) &&
          oc__json_u64(o, "root", s->root) && oc__json_u64(o, "chunks_per_block", s->q) &&
          oc__json_u64(o, "chunks", s->chunks) && oc__json_kv(o, "params", params) &&
          oc__json_u64(o, "steps", rep->steps) && oc__json_bool(o, "verified", 1))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *header_blocks(const oc__spec *s) {
    cJSON *o = cJSON_CreateObject();
    cJSON *a = oc__json_arr(o, "block_node");
    int ok = a != NULL;
    for (uint32_t b = 0; ok && b < s->nodes; b++)
        ok = oc__json_u64(a, NULL, s->block_node[b]);
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* The frame around the rounds: {HEADER,\n "rounds": [\n  ROUND,\n  ROUND\n]}. write_head writes
 * the header's members through cJSON and readies *w, the sink that writes the rounds. */
static int write_head(FILE *f, const oc__spec *s, const char *algorithm, const char *network,
                      const oc_kv *params, const oc_report *rep, json_writer *w, char *why,
                      size_t len) {
    fputc('{', f);
    int rc = oc__json_write_members(f, header_names(s, algorithm, network, rep));
    if (!rc && fputs(",\n ", f) == EOF) rc = OC_EIO;
    if (!rc) rc = oc__json_write_members(f, header_shape(s, params, rep));
    if (!rc && s->block_node) {
        if (fputs(",\n ", f) == EOF) rc = OC_EIO;
        if (!rc) rc = oc__json_write_members(f, header_blocks(s));
    }
    if (!rc && fputs(",\n \"rounds\": [", f) == EOF) rc = OC_EIO;
    if (rc == OC_ENOMEM) return oc__fail(why, len, rc, "out of memory");
    if (rc == OC_EIO) return oc__fail(why, len, rc, "write error: %s", strerror(errno));
    /* the header counts against the cap too: ftell where the stream has a position, else its
     * largest part, block_node (at most 11 bytes a node) */
    long at = ftell(f);
    *w = (json_writer){.sink = {.round = writer_round},
                       .f = f,
                       .chunk_bytes = s->chunk_bytes,
                       .bytes = at > 0 ? (uint64_t)at : 1024 + 11 * (uint64_t)s->nodes,
                       .first_round = 1};
    return 0;
}

static int write_tail(FILE *f, char *why, size_t len) {
    fputs("\n]}\n", f);
    if (ferror(f)) return oc__fail(why, len, OC_EIO, "write error: %s", strerror(errno));
    return 0;
}

static int export_json_in(const oc_request *req, FILE *f, char *why, size_t len) {
    oc__export x;
    /* 1. Verify and map, counting the file's least size. Nothing is written unless this
     * passes. */
    /* a transfer's text is TRANSFER_TEXT_MIN bytes at least, a round's frame 4, the tail 8 */
    oc__size_counter size = oc__size_counter_of("the schedule file", TRANSFER_TEXT_MIN, 4, 8);
    int rc = oc__export_begin(req, &x, why, len);
    if (!rc) rc = oc__export_check(req, &x, &size.sink, NULL, why, len);
    if (rc) goto out;
    /* 2. Write: the header's members through cJSON, then the rounds one by one as the algorithm
     * generates them again (a schedule is never held whole), inside the hand-laid frame
     * {HEADER,\n "rounds": [\n  ROUND,\n  ROUND\n]}. */
    json_writer w = {0};
    rc = write_head(f, &x.plan.spec, x.algo->info.name, x.model ? x.model->info.name : NULL,
                    x.plan.used, x.rep, &w, why, len);
    if (!rc) rc = oc__generate(x.algo, &x.plan, &w.sink, why, len);
    if (!rc) rc = write_tail(f, why, len);
    free(w.text);
out:
    oc__export_end(&x);
    return rc;
}

int oc_export_json(const oc_request *req, FILE *f, char *why, size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = export_json_in(req, f, why, len);
    oc__settings_leave(prev);
    return rc;
}

/* A stored schedule that passed the pipeline (rep is its report: the network parameters used and
 * the mapped steps) written in the same format (synth's schedules, src/synth). */
int oc__write_schedule_store(const oc__spec *s, const char *algorithm, const char *network,
                             const oc_kv *params, const oc__store *store, const oc_report *rep,
                             FILE *f, char *why, size_t len) {
    json_writer w = {0};
    int rc = write_head(f, s, algorithm, network, params, rep, &w, why, len);
    if (!rc) rc = oc__store_replay(store, &w.sink, why, len);
    if (!rc) rc = write_tail(f, why, len);
    free(w.text);
    return rc;
}

/* ---- import ---- */

/* An upper bound of the memory cJSON's tree of `text` takes, found in one pass before the tree
 * is built: every value is the first of its container or follows a comma, so there are at most
 * 1 + commas + brackets of them, each a cJSON item (and its malloc header); strings (keys and
 * values) are copied, at most the text's own bytes. The stored rounds take less than the items
 * they came from. */
static uint64_t tree_bytes(const char *text, size_t n) {
    uint64_t items = 1;
    int in_string = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == ',' || c == '[' || c == '{') {
            items++;
        }
    }
    return items * (sizeof(cJSON) + 32 + sizeof(oc__transfer)) + n;
}

/* Refuses an object with a key twice (cJSON would keep both and every lookup the first): by
 * sorting its keys, so an object of 200k keys is O(n log n). `where` names the object. */
static int key_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int unique_keys(const cJSON *obj, const char *path, const char *where, char *why,
                       size_t len) {
    if (!cJSON_IsObject(obj)) return 0;
    size_t n = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) n++;
    if (n < 2) return 0;
    const char *dup = NULL;
    if (n <= 8) { /* a transfer: pairwise is cheaper than sorting */
        for (const cJSON *a = obj->child; a && !dup; a = a->next)
            for (const cJSON *b = a->next; b && !dup; b = b->next)
                if (strcmp(a->string, b->string) == 0) dup = a->string;
    } else {
        const char **keys = oc__malloc_array(n, sizeof *keys);
        if (!keys) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        size_t k = 0;
        cJSON_ArrayForEach(it, obj) keys[k++] = it->string;
        qsort(keys, n, sizeof *keys, key_cmp);
        for (k = 1; k < n && !dup; k++)
            if (strcmp(keys[k - 1], keys[k]) == 0) dup = keys[k];
        free(keys);
    }
    if (dup)
        return oc__fail(why, len, OC_EPARSE, "%s: key \"%.64s\" appears twice in %s", path, dup,
                        where);
    return 0;
}

/* A non-negative integer that fits in `max`, or an error naming `what`. */
static int get_uint(const cJSON *item, uint64_t max, uint64_t *out) {
    if (!cJSON_IsNumber(item)) return OC_EPARSE;
    double v = item->valuedouble;
    if (!isfinite(v) || v < 0 || v != floor(v) || v > (double)max) return OC_ERANGE;
    *out = (uint64_t)v;
    return 0;
}

static int optional_uint(const cJSON *root, const char *key, uint64_t dflt, uint64_t min,
                         uint64_t max, uint64_t *out, const char *path, char *why, size_t len) {
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!it) {
        *out = dflt;
        return 0;
    }
    if (get_uint(it, max, out) || *out < min)
        return oc__fail(why, len, OC_EPARSE, "%s: \"%s\" must be a whole number from %llu to %llu",
                        path, key, (unsigned long long)min, (unsigned long long)max);
    return 0;
}

static int string_kv(const cJSON *obj, oc_kv *kv, const char *what, const char *path, char *why,
                     size_t len) {
    if (!obj) return 0;
    if (!cJSON_IsObject(obj))
        return oc__fail(why, len, OC_EPARSE, "%s: \"%s\" must be an object", path, what);
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        char num[OC__JSON_NUMBER_SIZE];
        const char *v;
        if (cJSON_IsString(it))
            v = it->valuestring;
        else if (cJSON_IsNumber(it)) /* as the writer spells it (oc__json_value): 0.7, not ...996 */
            v = oc__json_number_text(num, it->valuedouble);
        else
            return oc__fail(why, len, OC_EPARSE, "%s: %s.%s must be a string or a number", path,
                            what, it->string);
        if (oc_kv_set(kv, it->string, v)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

/* ---- the rounds, read one transfer at a time ----
 *
 * cJSON parses a text whole, in one call nothing can stop: the input cap's 64 MiB of schedule
 * take it a second of CPU (four at load 17 on two cores), and its tree is ten times the text.
 * So the rounds are found first by a scan that follows strings and brackets (find_rounds: the
 * top-level member "rounds", its array's elements), the rest of the file (the header) is parsed
 * without them, and then each transfer is parsed alone when its turn comes and freed after: a
 * stop is heard between any two transfers (oc__stop_tick) and the scan's objects, and the tree
 * alive is one transfer's. The pieces are JSON values on their own, and an array of valid values
 * separated by commas is valid, so the file is accepted exactly when cJSON would accept it
 * whole; a piece that is not valid is named by its byte in the file, as a whole parse names it.
 * Where the scan cannot tell (a key spelled with escapes, a structure it does not follow) the
 * file is parsed whole, as before. */

/* One past the string that opens at t[i] ('"'); n when the text ends first. */
static size_t string_end(const char *t, size_t n, size_t i) {
    for (i++; i < n; i++) {
        if (t[i] == '\\')
            i++;
        else if (t[i] == '"')
            return i + 1;
    }
    return n;
}

static size_t skip_space(const char *t, size_t n, size_t i) {
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i;
}

/* *end: one past the JSON value that starts at t[i], following strings and brackets (not
 * checking them: cJSON does); n when the text ends first. OC_ECANCELED when a stop was asked
 * (polled at each object: a transfer), else 0. */
static int value_end(const char *t, size_t n, size_t i, size_t *end) {
    *end = n;
    if (i >= n) return 0;
    if (t[i] == '"') {
        *end = string_end(t, n, i);
        return 0;
    }
    if (t[i] != '[' && t[i] != '{') { /* a scalar: up to what may follow a value */
        while (i < n && t[i] != ',' && t[i] != ']' && t[i] != '}' && t[i] != ' ' &&
               t[i] != '\t' && t[i] != '\n' && t[i] != '\r')
            i++;
        *end = i;
        return 0;
    }
    size_t depth = 0;
    while (i < n) {
        const char c = t[i];
        if (c == '"') {
            i = string_end(t, n, i);
            continue;
        }
        if (c == '{' && oc__stop_tick()) return OC_ECANCELED;
        if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            *end = i + 1;
            return 0;
        }
        i++;
    }
    return 0;
}

/* Where the rounds are: the '[' and ']' of the top-level member "rounds" (its key spelled
 * without escapes, the first such member), and each round's first byte and one past its last. */
typedef struct round_spans {
    size_t open, close;
    size_t *at; /* 2 per round */
    size_t n, cap;
} round_spans;

/* 1 when the rounds were found (r filled; the caller frees r->at), 0 when the scan cannot tell
 * and the file is to be parsed whole, OC_ECANCELED or OC_ENOMEM. */
static int find_rounds(const char *t, size_t n, round_spans *r) {
    memset(r, 0, sizeof *r);
    size_t i = skip_space(t, n, 0), end;
    if (i >= n || t[i] != '{') return 0;
    i = skip_space(t, n, i + 1);
    while (i < n && t[i] == '"') {
        const size_t key = i + 1, key_end = string_end(t, n, i);
        i = skip_space(t, n, key_end);
        if (i >= n || t[i] != ':') return 0;
        i = skip_space(t, n, i + 1);
        if (key_end - key == 7 && memcmp(t + key, "rounds\"", 7) == 0 && i < n && t[i] == '[') {
            r->open = i;
            i = skip_space(t, n, i + 1);
            while (i < n && t[i] != ']') {
                int rc = value_end(t, n, i, &end);
                if (rc) return rc;
                if (end >= n || end == i) return 0;
                if (oc__grow((void **)&r->at, &r->cap, 2 * r->n + 2, sizeof *r->at))
                    return OC_ENOMEM;
                r->at[2 * r->n] = i;
                r->at[2 * r->n + 1] = end;
                r->n++;
                i = skip_space(t, n, end);
                if (i < n && t[i] == ',') {
                    i = skip_space(t, n, i + 1);
                    if (i < n && t[i] == ']') return 0; /* a trailing comma: cJSON names it */
                } else if (i >= n || t[i] != ']') {
                    return 0;
                }
            }
            if (i >= n) return 0;
            r->close = i;
            return 1;
        }
        int rc = value_end(t, n, i, &end);
        if (rc) return rc;
        if (end >= n || end == i) return 0;
        i = skip_space(t, n, end);
        if (i >= n || t[i] != ',') return 0;
        i = skip_space(t, n, i + 1);
    }
    return 0;
}

/* The file without its rounds' elements ("rounds": []): the header cJSON parses, small. */
static char *header_text(const char *body, size_t n, const round_spans *r) {
    const size_t cut = r->close - r->open - 1;
    char *h = malloc(n - cut + 1);
    if (!h) return NULL;
    memcpy(h, body, r->open + 1);
    memcpy(h + r->open + 1, body + r->close, n - r->close);
    h[n - cut] = 0;
    return h;
}

/* One transfer's object into round r (its fields checked, as the verifier reads them). */
static int read_transfer(const cJSON *t, size_t ri, size_t ti, oc__round *r, const char *path,
                         char *why, size_t len) {
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(t, "src");
    const cJSON *dst = cJSON_GetObjectItemCaseSensitive(t, "dst");
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(t, "op");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(t, "chunks");
    uint64_t s, d, first, count;
    oc__op o = OC_OP_COPY;
    const char *bad = NULL;
    char where[64];
    snprintf(where, sizeof where, "round %zu, transfer %zu", ri, ti);
    int rc = unique_keys(t, path, where, why, len);
    if (rc) return rc;
    if (!cJSON_IsObject(t))
        bad = "is not an object";
    else if (get_uint(src, UINT32_MAX, &s))
        bad = "has no valid \"src\"";
    else if (get_uint(dst, UINT32_MAX, &d))
        bad = "has no valid \"dst\"";
    else if (op && !(cJSON_IsString(op) && (strcmp(op->valuestring, "copy") == 0 ||
                                            strcmp(op->valuestring, "reduce") == 0)))
        bad = "has an \"op\" that is neither \"copy\" nor \"reduce\"";
    else if (!cJSON_IsArray(ch) || cJSON_GetArraySize(ch) != 2 ||
             get_uint(cJSON_GetArrayItem(ch, 0), UINT32_MAX, &first) ||
             get_uint(cJSON_GetArrayItem(ch, 1), UINT32_MAX, &count))
        bad = "has no valid \"chunks\": [first, count]";
    if (bad)
        return oc__fail(why, len, OC_EPARSE, "%s: round %zu, transfer %zu %s", path, ri, ti, bad);
    if (op && strcmp(op->valuestring, "reduce") == 0) o = OC_OP_REDUCE;
    if (oc__round_push(r, (uint32_t)s, (uint32_t)d, o, (uint32_t)first, (uint32_t)count))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

/* A piece read alone was not valid JSON: then the whole text is not either, and the byte named
 * is the one cJSON names parsing it whole (a piece's own error can lie past it: a bracket
 * dropped earlier moves every piece's bounds). That parse is the refusal's cost only. */
enum { MALFORMED = 1 };

static int malformed(const char *path, const char *body, size_t n, size_t base, size_t at,
                     char *why, size_t len) {
    const char *end = NULL;
    cJSON *whole = cJSON_ParseWithLengthOpts(body, n + 1, &end, 1);
    if (!whole) {
        const char *e = end ? end : cJSON_GetErrorPtr();
        if (e && e >= body && e <= body + n) at = (size_t)(e - body);
    }
    cJSON_Delete(whole);
    return oc__fail(why, len, OC_EPARSE, "%s: malformed JSON near byte %zu", path, base + at);
}

static int cancelled(const char *path, size_t rounds, char *why, size_t len) {
    return oc__fail(why, len, OC_ECANCELED, "%s: cancelled after reading %zu rounds", path,
                    rounds);
}

/* Round ri, the text body[from, to) (its span), parsed a transfer at a time into r. MALFORMED
 * (*at: where this piece went wrong) when a piece is not valid JSON, else 0 or an error. */
static int read_round_text(const char *body, size_t from, size_t to, size_t ri, oc__round *r,
                           size_t *at, const char *path, char *why, size_t len) {
    const char *end = NULL;
    *at = from;
    if (body[from] != '[') { /* not an array: malformed, or a value of the wrong kind */
        cJSON *v = cJSON_ParseWithLengthOpts(body + from, to - from, &end, 0);
        const int whole = v && end == body + to;
        cJSON_Delete(v);
        if (!whole) return MALFORMED;
        return oc__fail(why, len, OC_EPARSE, "%s: round %zu is not an array of transfers", path,
                        ri);
    }
    size_t i = skip_space(body, to, from + 1), ti = 0;
    *at = i;
    if (body[i] == ']') return i + 1 == to ? 0 : MALFORMED;
    for (;;) {
        size_t te;
        if (oc__stop_tick()) return cancelled(path, ri, why, len);
        int rc = value_end(body, to, i, &te);
        if (rc) return cancelled(path, ri, why, len);
        *at = i;
        cJSON *t = te > i ? cJSON_ParseWithLengthOpts(body + i, te - i, &end, 0) : NULL;
        if (!t || end != body + te) {
            cJSON_Delete(t);
            return MALFORMED;
        }
        rc = read_transfer(t, ri, ti++, r, path, why, len);
        cJSON_Delete(t);
        if (rc) return rc;
        i = skip_space(body, to, te);
        *at = i;
        if (i < to && body[i] == ',') {
            i = skip_space(body, to, i + 1);
            continue;
        }
        if (i + 1 == to && body[i] == ']') return 0;
        return MALFORMED;
    }
}

int oc_verify_file(const oc_settings *settings, const char *path, const char *network,
                   const oc_kv *net_params, oc_report **out, char *why, size_t len) {
    return oc_verify_file_progress(settings, path, network, net_params, NULL, NULL, out, why, len);
}

int oc_verify_file_progress(const oc_settings *settings, const char *path, const char *network,
                            const oc_kv *net_params, oc_progress_fn progress, void *progress_ctx,
                            oc_report **out, char *why, size_t len) {
    *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(settings, &prev, why, len);
    if (!rc)
        rc = oc__verify_file_watched(path, network, net_params, NULL, progress, progress_ctx, out,
                                     why, len);
    oc__settings_leave(prev);
    return rc;
}

int oc__verify_file_watched(const char *path, const char *network, const oc_kv *net_params,
                            oc__watch *watch, oc_progress_fn progress, void *progress_ctx,
                            oc_report **out, char *why, size_t len) {
    *out = NULL;
    char *text = NULL, *header = NULL;
    cJSON *root = NULL;
    oc__spec spec;
    memset(&spec, 0, sizeof spec);
    oc__store store;
    oc__store_init(&store);
    round_spans spans = {0};
    oc_kv *np = oc_kv_new();
    oc_report *rep = oc__report_new();
    /* the reading's progress: the rounds read; the scans and the transfers poll it for a stop */
    oc__progress reading;
    oc__progress_begin(&reading, progress, progress_ctx, "rounds read", 0);
    oc__progress *watched = oc__stop_watch(&reading);
    int rc = 0, is_reading = 1;
    if (!np || !rep) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    size_t tlen = 0;
    if ((rc = oc__read_file(path, 0, NULL, &text, &tlen, why, len))) goto out;
    if (strlen(text) != tlen) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: contains a NUL byte, not a schedule file", path);
        goto out;
    }
    /* The format is sniffed after a UTF-8 byte order mark and white space: an XML file is
     * MSCCL's format (msccl_import.c; libxml2 reads the mark itself). */
    const char *body = text;
    if ((unsigned char)body[0] == 0xEF && (unsigned char)body[1] == 0xBB &&
        (unsigned char)body[2] == 0xBF)
        body += 3;
    const size_t base = (size_t)(body - text), blen = tlen - base;
    const char *lead = body;
    while (*lead == ' ' || *lead == '\t' || *lead == '\n' || *lead == '\r')
        lead++;
    if (!*lead) { /* "malformed JSON near byte 0" said nothing of why */
        rc = oc__fail(why, len, OC_EPARSE,
                      "%s: empty, no schedule (a FIFO whose writer never came reads as empty)",
                      path);
        goto out;
    }
    if (*lead == '<' && watch) {
        rc = oc__fail(why, len, OC_ENOTSUP, "%s: %s reads schedule JSON files, not MSCCL XML",
                      path, watch->what);
        goto out;
    }
    if (*lead == '<') {
        oc__stop_watch(watched); /* the MSCCL reader reports (and polls) its own */
        oc__progress_end(&reading);
        is_reading = 0;
        rc = oc__verify_msccl(path, text, network, net_params, progress, progress_ctx, out, why,
                              len);
        goto out;
    }
    /* The tree is counted against the memory budget before cJSON builds it. */
    char what[64 + 256];
    snprintf(what, sizeof what, "reading %.256s", path);
    if ((rc = oc__budget_check(tree_bytes(body, blen), what, why, len))) goto out;
    size_t nul_at; /* cJSON would cut a string at an escaped NUL: "allgather\u0000evil" */
    if (oc__json_nul_escape(body, blen, &nul_at)) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: a string holds \\u0000 (a NUL) near byte %zu", path,
                      base + nul_at);
        goto out;
    }
    const int found = find_rounds(body, blen, &spans);
    if (found < 0) {
        rc = found == OC_ECANCELED ? cancelled(path, 0, why, len)
                                   : oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    if (found && !(header = header_text(body, blen, &spans))) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* require_null_terminated: text after the top-level value (but white space) is an error */
    const char *parsed = found ? header : body, *end = NULL;
    root = cJSON_ParseWithLengthOpts(parsed, strlen(parsed) + 1, &end, 1);
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        size_t off = at && at >= parsed ? (size_t)(at - parsed) : 0;
        if (found && off > spans.open) off += spans.close - spans.open - 1; /* past the rounds */
        rc = found ? malformed(path, body, blen, base, off, why, len)
                   : oc__fail(why, len, OC_EPARSE, "%s: malformed JSON near byte %zu", path,
                              base + off);
        goto out;
    }
    if (!cJSON_IsObject(root)) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: the top level must be a JSON object", path);
        goto out;
    }
    if ((rc = unique_keys(root, path, "the top-level object", why, len)) ||
        (rc = unique_keys(cJSON_GetObjectItemCaseSensitive(root, "params"), path, "\"params\"", why,
                          len)) ||
        (rc = unique_keys(cJSON_GetObjectItemCaseSensitive(root, "network_params"), path,
                          "\"network_params\"", why, len)))
        goto out;
    const cJSON *coll = cJSON_GetObjectItemCaseSensitive(root, "collective");
    oc_collective c;
    if (!cJSON_IsString(coll) || oc_collective_from_name(coll->valuestring, &c)) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: \"collective\" is missing or not a collective name",
                      path);
        goto out;
    }
    const cJSON *nodes_it = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    uint64_t nodes = 0, bytes = 0, rootnode = 0, q = 1;
    if (!nodes_it || get_uint(nodes_it, OC_MAX_NODES, &nodes) || nodes < 1) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: \"nodes\" must be a whole number from 1 to %u",
                      path, OC_MAX_NODES);
        goto out;
    }
    if ((rc = optional_uint(root, "bytes", 0, 0, OC_MAX_BYTES, &bytes, path, why, len)) ||
        (rc = optional_uint(root, "root", 0, 0, nodes - 1, &rootnode, path, why, len)) ||
        (rc = optional_uint(root, "chunks_per_block", 1, 1, UINT32_MAX, &q, path, why, len)))
        goto out;
    if ((rc = oc__spec_init(&spec, c, (uint32_t)nodes, (uint32_t)rootnode, bytes, (uint32_t)q, why,
                            len)))
        goto out;
    const cJSON *labels = cJSON_GetObjectItemCaseSensitive(root, "block_node");
    if (labels) {
        if (!cJSON_IsArray(labels) || (uint64_t)cJSON_GetArraySize(labels) != nodes) {
            rc = oc__fail(why, len, OC_EPARSE, "%s: \"block_node\" must be an array of %llu nodes",
                          path, (unsigned long long)nodes);
            goto out;
        }
        spec.block_node = oc__malloc_array(nodes, sizeof(uint32_t));
        if (!spec.block_node) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
        uint32_t b = 0;
        const cJSON *it;
        cJSON_ArrayForEach(it, labels) {
            uint64_t v;
            if (get_uint(it, UINT32_MAX, &v)) {
                rc = oc__fail(why, len, OC_EPARSE, "%s: block_node[%u] is not a node number", path,
                              b);
                goto out;
            }
            spec.block_node[b++] = (uint32_t)v;
        }
    }
    const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(root, "rounds");
    if (!cJSON_IsArray(rounds)) {
        rc = oc__fail(why, len, OC_EPARSE, "%s: \"rounds\" is missing or not an array", path);
        goto out;
    }
    /* The rounds: from their text a transfer at a time where the scan found them, else from the
     * whole file's tree. */
    const size_t nrounds = found ? spans.n : (size_t)cJSON_GetArraySize(rounds);
    const cJSON *round = found ? NULL : rounds->child;
    for (size_t ri = 0; ri < nrounds; ri++) {
        oc__round r = {0};
        if (found) {
            size_t at;
            rc = read_round_text(body, spans.at[2 * ri], spans.at[2 * ri + 1], ri, &r, &at, path,
                                 why, len);
            if (rc == MALFORMED) rc = malformed(path, body, blen, base, at, why, len);
        } else if (!cJSON_IsArray(round)) {
            rc = oc__fail(why, len, OC_EPARSE, "%s: round %zu is not an array of transfers", path,
                          ri);
        } else {
            size_t ti = 0;
            for (const cJSON *t = round->child; t && !rc; t = t->next)
                rc = oc__stop_tick() ? cancelled(path, ri, why, len)
                                     : read_transfer(t, ri, ti++, &r, path, why, len);
        }
        if (!rc) rc = store.sink.round(&store.sink, ri, &r, why, len);
        oc__round_free(&r);
        if (!rc && oc__progress_at(&reading, ri + 1, nrounds)) rc = cancelled(path, ri + 1, why, len);
        if (rc) goto out;
        if (round) round = round->next;
    }
    oc__stop_watch(watched); /* the reading is over: the checked run reports its rounds */
    oc__progress_end(&reading);
    is_reading = 0;
    const cJSON *net_it = cJSON_GetObjectItemCaseSensitive(root, "network");
    const char *net = network;
    if (!net && cJSON_IsString(net_it)) net = net_it->valuestring;
    if (net && !network &&
        (rc = string_kv(cJSON_GetObjectItemCaseSensitive(root, "network_params"), np,
                        "network_params", path, why, len)))
        goto out;
    for (size_t i = 0; i < oc_kv_count(net_params); i++)
        if (oc_kv_set(np, oc_kv_key(net_params, i), oc_kv_value(net_params, i))) {
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
            goto out;
        }
    const oc__model *model = NULL;
    if (net && !(model = oc__model_find(net))) {
        rc = oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(net));
        goto out;
    }
    if (watch && !model) {
        rc = oc__fail(why, len, OC_EINVAL, "%s: %s needs a network (the file names none: -t)",
                      path, watch->what);
        goto out;
    }
    /* too few transfers, or too many node-chunk states, before the verifier makes its state */
    if ((rc = oc__verify_file_counts(&spec, &store, path, why, len))) goto out;
    oc__store_source src = {&store};
    rc = oc__run_schedule_reported(&spec, oc__source_store, &src, store.count, model, np, 1, NULL,
                                   watch, progress, progress_ctx, rep, why, len);
    if (rc) goto out;
    const cJSON *alg = cJSON_GetObjectItemCaseSensitive(root, "algorithm");
    snprintf(rep->algorithm, sizeof rep->algorithm, "%s",
             cJSON_IsString(alg) ? alg->valuestring : "(file)");
    if ((rc = string_kv(cJSON_GetObjectItemCaseSensitive(root, "params"), rep->params, "params",
                        path, why, len)))
        goto out;
    *out = rep;
    rep = NULL;
out:
    if (is_reading) {
        oc__stop_watch(watched);
        oc__progress_end(&reading);
    }
    oc_report_free(rep);
    oc_kv_free(np);
    oc__store_free(&store);
    oc__spec_free(&spec);
    cJSON_Delete(root);
    free(spans.at);
    free(header);
    free(text);
    return rc;
}
