/*
 * points.c — the options and the runs that `sweep`, `tune` and `run -a auto` share (points.h).
 *
 * A node or size list is comma-separated items, each a value or a range A..B: A, 2A, 4A, ... up to
 * B (B itself need not be reached); A..B:*F multiplies by F instead and A..B:+S adds S. Sizes take
 * the units of -s (4KiB..64MiB:*4). The union is sorted and repeats dropped, so that "along N" and
 * "along size" are in increasing order for the crossovers of `tune`.
 *
 * Every point runs through oc_run — generated, verified (semantic, real data unless
 * --no-data-check) and mapped with the network's resource check — and is rendered (CSV line, JSON
 * object) where it ran; only the rendering travels between ranks (scaleout.c). An algorithm whose
 * restrictions exclude a point (OC_ENOTSUP) or which the library refuses as too big (OC_ETOOBIG) is
 * "not run" there with the library's reason; any other failure fails the command, the first in
 * point order being the one reported, whatever the threads did first.
 */
#include "points.h"

#include "scaleout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void size_text(char *buf, size_t len, uint64_t b) {
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    size_t u = 0;
    while (u + 1 < sizeof unit / sizeof unit[0] && b >= 1024 && b % 1024 == 0) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, "%llu %s", (unsigned long long)b, unit[u]);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Parses one value of a list. */
static int list_value(const char *text, int sizes, uint64_t lo, uint64_t hi, uint64_t *v) {
    if (sizes) return oc_parse_size(text, v) || *v < lo || *v > hi;
    return oc_parse_u64(text, lo, hi, v) != 0;
}

/* Parses a node (sizes = 0) or size list into out[0 .. *n): 0 or an exit code after one line. */
static int parse_list(const char *flag, const char *text, int sizes, uint64_t *out, size_t *n) {
    uint64_t lo = sizes ? 0 : 1, hi = sizes ? OC_MAX_BYTES : OC_MAX_NODES;
    const char *what = sizes ? "sizes (e.g. 4KiB,1MiB or 1KiB..64MiB:*4)"
                             : "node counts (e.g. 3,5,12 or 2..64 or 4..100:+8)";
    char *copy = strdup(text), *save = NULL;
    int rc = 0;
    *n = 0;
    if (!copy) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    if (!*text) rc = die(EXIT_USAGE, "%s: empty list; expected %s", flag, what);
    /* strtok_r would skip an empty item ("4,,8", "4,"): refuse it, it is a typo */
    for (const char *c = text; *c && !rc; c++)
        if (*c == ',' && (c == text || c[1] == ',' || c[1] == 0))
            rc = die(EXIT_USAGE, "%s %s: an empty item in the list (e.g. 4,,8)", flag, text);
    for (char *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, ".."), *step = NULL;
        uint64_t a, b, s = 2;
        int mul = 1;
        if (!dots) {
            if (list_value(item, sizes, lo, hi, &a)) goto bad;
            if (*n >= MAX_LIST) goto toomany;
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
            if (*n >= MAX_LIST) goto toomany;
            out[(*n)++] = v;
            if (mul ? v > b / s : v > b - s) break;
            v = mul ? v * s : v + s;
        }
        continue;
    bad : {
        char msg[600];
        snprintf(msg, sizeof msg, "%s %s: expected %s", flag, OC_Q(text), what);
        rc = die_line(EXIT_USAGE, msg);
    } break;
    toomany:
        rc = die(EXIT_USAGE, "%s %s: more than 4096 values", flag, text);
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

static int network_known(const char *name) {
    for (size_t i = 0; i < oc_network_count(); i++)
        if (!strcmp(oc_network_at(i)->name, name)) return 1;
    return 0;
}

/* 1 when the comma-separated list `list` holds `name`. */
static int in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, name, n)) return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* The algorithms: -a's list (each checked against the registry), or every algorithm of the
 * collective that runs on the network, in registry order. */
static int parse_algos(sweep_args *a) {
    size_t cap = oc_algorithm_count() + 1;
    a->algos = calloc(cap, sizeof *a->algos);
    if (!a->algos) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    const char *net = a->base.network;
    if (!a->o.algo) {
        for (size_t i = 0; i < oc_algorithm_count(); i++) {
            const oc_algorithm_info *x = oc_algorithm_at(i);
            if (x->collective == a->base.collective && in_list(x->networks, net))
                a->algos[a->nalgos++] = x->name;
        }
        if (!a->nalgos) return die(EXIT_USAGE, "no %s algorithm runs on %s", a->o.coll, net);
        return 0;
    }
    a->algo_text = strdup(a->o.algo);
    if (!a->algo_text) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    char *save = NULL;
    for (char *name = strtok_r(a->algo_text, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        const oc_algorithm_info *x = NULL;
        for (size_t i = 0; i < oc_algorithm_count() && !x; i++)
            if (oc_algorithm_at(i)->collective == a->base.collective &&
                !strcmp(oc_algorithm_at(i)->name, name))
                x = oc_algorithm_at(i);
        if (!x)
            return die(EXIT_USAGE, "-a %s: unknown %s algorithm (see opticoll list)", name,
                       a->o.coll);
        if (!in_list(x->networks, net))
            return die(EXIT_USAGE, "-a %s: does not run on %s (see opticoll list)", name, net);
        for (size_t k = 0; k < a->nalgos; k++)
            if (!strcmp(a->algos[k], name))
                return die(EXIT_USAGE, "-a: %s named twice", name, NULL);
        if (a->nalgos + 1 >= cap) return die(EXIT_USAGE, "-a: too many algorithms", NULL, NULL);
        a->algos[a->nalgos++] = x->name;
    }
    if (!a->nalgos) return die(EXIT_USAGE, "-a %s: no algorithm named", a->o.algo, NULL);
    return 0;
}

int sweep_parse(int argc, char **argv, const char *cmd, const char *help, sweep_args *a) {
    memset(a, 0, sizeof *a);
    a->o.params = oc_kv_new();
    a->o.net_params = oc_kv_new();
    a->jobs = oc_scale_default_threads();
    int rc = 0;
    if (!a->o.params || !a->o.net_params) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if ((rc = parse_options(argc, argv, &a->o, cmd))) goto out;
    /* -n and -s are lists here; --csv FILE and --plot are sweep's */
    const char *nodes = a->o.nodes, *sizes = a->o.size, *jobs = a->o.jobs;
    a->csv = a->o.csv_file;
    a->plot = a->o.plot;
    if (a->o.help) {
        fputs(help, stdout);
        rc = -1;
        goto out;
    }
    if ((rc = fold_network_flags(&a->o))) goto out;
    oc_request *q = &a->base;
    q->data_check = !a->o.no_data;
    q->params = a->o.params;
    q->net_params = a->o.net_params;
    if (!a->o.coll) {
        rc = die(EXIT_USAGE, "missing -c COLLECTIVE", NULL, NULL);
        goto out;
    }
    if (oc_collective_from_name(a->o.coll, &q->collective)) {
        rc = die(EXIT_USAGE, "unknown collective '%s' (see opticoll list)", a->o.coll, NULL);
        goto out;
    }
    q->network = a->o.net ? a->o.net : "ring";
    if (!network_known(q->network)) {
        rc = die(EXIT_USAGE, "unknown network '%s' (see opticoll list)", q->network, NULL);
        goto out;
    }
    if (!nodes || !sizes) {
        rc = die(EXIT_USAGE, "%s: missing %s", cmd, !nodes ? "--nodes LIST" : "--sizes LIST");
        goto out;
    }
    if ((rc = parse_list("--nodes", nodes, 0, a->nodes, &a->nnodes)) ||
        (rc = parse_list("--sizes", sizes, 1, a->sizes, &a->nsizes)))
        goto out;
    if ((rc = root_applies(q->collective, a->o.root))) goto out;
    if (a->o.root) {
        uint64_t r;
        if (oc_parse_u64(a->o.root, 0, a->nodes[0] - 1, &r)) {
            rc = die(EXIT_USAGE, "-r %s: not a node number below the smallest N", a->o.root, NULL);
            goto out;
        }
        q->root = (uint32_t)r;
    }
    if (jobs && oc_scale_parse_jobs(jobs, &a->jobs)) {
        rc = EXIT_USAGE;
        goto out;
    }
    if ((rc = parse_algos(a))) goto out;
    if (oc_kv_count(a->o.params) && a->nalgos != 1) {
        rc = die(EXIT_USAGE, "%s: -p needs exactly one -a (a parameter belongs to one algorithm)",
                 cmd, NULL);
        goto out;
    }
    if ((double)a->nalgos * (double)a->nnodes * (double)a->nsizes > MAX_POINTS) {
        rc = die(EXIT_USAGE, "%s: more than 100000 points (algorithms x nodes x sizes)", cmd, NULL);
        goto out;
    }
out:
    return rc;
}

void sweep_args_free(sweep_args *a) {
    oc_kv_free(a->o.params);
    oc_kv_free(a->o.net_params);
    free(a->algos);
    free(a->algo_text);
    memset(a, 0, sizeof *a);
}

size_t sweep_npoints(const sweep_args *a) {
    return a->nalgos * a->nnodes * a->nsizes;
}

/* ---- one point, and its blob (the fixed part, then the CSV line and the JSON text) ---- */

static int render(oc_report *rep, int json, char **text) {
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m) return OC_ENOMEM;
    int rc = json ? oc_report_write_json(rep, m) : oc_report_write_csv(rep, m, 0);
    if (fclose(m) && !rc) rc = OC_ENOMEM;
    return rc;
}

/* CSV: quotes doubled inside a quoted field. */
static void csv_quoted(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int point_fn(size_t i, void *ctx, char **blob, size_t *len) {
    const sweep_args *a = ctx;
    point_result p;
    memset(&p, 0, sizeof p);
    p.algo = i % a->nalgos;
    p.nodes = (uint32_t)a->nodes[i / (a->nsizes * a->nalgos)];
    p.bytes = a->sizes[i / a->nalgos % a->nsizes];
    oc_request q = a->base;
    q.algorithm = a->algos[p.algo];
    q.nodes = p.nodes;
    q.bytes = p.bytes;
    oc_report *rep = NULL;
    char *csv = NULL, *json = NULL;
    size_t csvlen = 0, jsonlen = 0;
    int err = q.root < q.nodes ? oc_run(&q, &rep, p.why, sizeof p.why) : OC_ENOTSUP;
    if (q.root >= q.nodes) snprintf(p.why, sizeof p.why, "root %u is not below N", q.root);
    if (!err) {
        p.status = POINT_RAN;
        p.steps = oc_report_steps(rep);
        p.rounds = oc_report_rounds(rep);
        p.time_s = oc_report_time(rep);
        const oc_kv *used = oc_report_params(rep);
        for (size_t k = 0, at = 0; k < oc_kv_count(used) && at < sizeof p.params; k++)
            at += (size_t)snprintf(p.params + at, sizeof p.params - at, k ? " %s=%s" : "%s=%s",
                                   oc_kv_key(used, k), oc_kv_value(used, k));
        int rc = render(rep, 0, &csv);
        if (!rc) rc = render(rep, 1, &json);
        oc_report_free(rep);
        if (rc) goto oom;
    } else if (err == OC_ENOTSUP || err == OC_ETOOBIG) {
        p.status = POINT_NOT_RUN;
        FILE *m = open_memstream(&csv, &csvlen);
        if (!m) goto oom;
        fprintf(m, "%s,%s,%s,%u,%llu,,,,,,,,,", a->o.coll, q.algorithm, q.network, q.nodes,
                (unsigned long long)q.bytes);
        char note[420];
        snprintf(note, sizeof note, "not run: %s", p.why);
        csv_quoted(m, note);
        fputc('\n', m);
        if (fclose(m)) goto oom;
        m = open_memstream(&json, &jsonlen);
        if (!m) goto oom;
        fprintf(m, "{\"algorithm\": \"%s\", \"nodes\": %u, \"bytes\": %llu, \"not_run\": ",
                q.algorithm, q.nodes, (unsigned long long)q.bytes);
        oc_write_json_string(m, p.why);
        fputs("}\n", m);
        if (fclose(m)) goto oom;
    } else {
        p.status = POINT_FAILED;
        p.err = err;
    }
    csvlen = csv ? strlen(csv) : 0;
    jsonlen = json ? strlen(json) : 0;
    *len = sizeof p + csvlen + 1 + jsonlen + 1;
    *blob = malloc(*len);
    if (!*blob) goto oom;
    memcpy(*blob, &p, sizeof p);
    memcpy(*blob + sizeof p, csv ? csv : "", csvlen + 1);
    memcpy(*blob + sizeof p + csvlen + 1, json ? json : "", jsonlen + 1);
    free(csv);
    free(json);
    return 0;
oom:
    free(csv);
    free(json);
    return OC_ENOMEM;
}

int points_run(const sweep_args *a, point_result **out) {
    size_t n = sweep_npoints(a);
    *out = NULL;
    char **blobs = calloc(n, sizeof *blobs);
    size_t *lens = calloc(n, sizeof *lens);
    point_result *p = calloc(n, sizeof *p);
    int rc = 0;
    if (!blobs || !lens || !p) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if (oc_scale_run(n, a->jobs, point_fn, (void *)a, blobs, lens)) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if (oc_scale_rank() != 0) goto out;
    for (size_t i = 0; i < n; i++) {
        memcpy(&p[i], blobs[i], sizeof p[i]);
        const char *csv = blobs[i] + sizeof p[i];
        const char *json = csv + strlen(csv) + 1;
        p[i].csv = strdup(csv);
        p[i].json = strdup(json);
        if (!p[i].csv || !p[i].json) {
            points_free(p, n);
            p = NULL;
            rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
            goto out;
        }
    }
    *out = p;
    p = NULL;
out:
    if (blobs) oc_scale_free(blobs, n);
    free(blobs);
    free(lens);
    free(p);
    return rc;
}

void points_free(point_result *p, size_t n) {
    if (!p) return;
    for (size_t i = 0; i < n; i++) {
        free(p[i].csv);
        free(p[i].json);
    }
    free(p);
}

int points_first_failure(const sweep_args *a, const point_result *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i].status != POINT_FAILED) continue;
        char line[768], sz[32];
        size_text(sz, sizeof sz, p[i].bytes);
        snprintf(line, sizeof line, "%s, N = %u, %s: %s", a->algos[p[i].algo], p[i].nodes, sz,
                 *p[i].why ? p[i].why : oc_strerror(p[i].err));
        return die_line(exit_for(p[i].err), line);
    }
    return 0;
}

/* ---- where a value of a JSON file is (the decision file's messages name FILE:LINE) ----
 *
 * cJSON keeps no positions, so the line of an item is found again in the text: the item's index
 * in document order (pre-order, the order cJSON's tree lists values in) is counted in the tree,
 * then the text is scanned to the start of that value. The text is what cJSON parsed, so it is
 * well-formed and the scan only needs to tell keys from values. Both walks are linear. */

/* Adds to *i the values before `item` in document order, from node on; 1 when item was found. */
static int preorder_index(const cJSON *node, const cJSON *item, size_t *i) {
    for (; node; node = node->next) {
        if (node == item) return 1;
        ++*i;
        if (preorder_index(node->child, item, i)) return 1; /* depth: cJSON's nesting limit */
    }
    return 0;
}

/* The line where the index-th value of the well-formed JSON text starts. */
static unsigned value_line(const char *text, size_t index) {
    char ctx[CJSON_NESTING_LIMIT + 2]; /* '{' or '[' per open level */
    size_t depth = 0, seen = 0;
    unsigned line = 1;
    int key = 0; /* the next string is an object's key */
    const char *p = text;
    if (!strncmp(p, "\xef\xbb\xbf", 3)) p += 3; /* cJSON skips a byte order mark */
    for (; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') line++;
        if (c <= ' ' || c == ':') continue; /* cJSON's white space is every byte up to ' ' */
        if (c == ',') {
            key = depth && ctx[depth - 1] == '{';
            continue;
        }
        if (c == '}' || c == ']') {
            depth -= depth > 0;
            key = 0;
            continue;
        }
        int is_key = c == '"' && key;
        if (!is_key && seen++ == index) return line;
        if (c == '{' || c == '[') {
            if (depth < sizeof ctx) ctx[depth++] = (char)c;
            key = c == '{';
        } else if (c == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\n') line++;
                if (*p == '\\' && p[1]) p++;
            }
            if (!*p) break;
            key = 0;
        } else {
            while (p[1] && !strchr(",]}:", p[1]) && (unsigned char)p[1] > ' ')
                p++;
        }
    }
    return line;
}

unsigned json_line(const char *text, const cJSON *root, const cJSON *item) {
    size_t index = 0;
    return preorder_index(root, item, &index) ? value_line(text, index) : 0;
}

unsigned json_offset_line(const char *text, size_t offset) {
    unsigned line = 1;
    for (size_t i = 0; i < offset && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

typedef struct member {
    const char *key;
    size_t order;
    const cJSON *item;
} member;

static int cmp_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The first duplicate found under node (see points.h), using buf of cap members. */
static const cJSON *duplicate_in(const cJSON *node, member **buf, size_t *cap, int *oom) {
    for (; node && !*oom; node = node->next) {
        if (cJSON_IsObject(node)) {
            size_t n = 0;
            for (const cJSON *c = node->child; c; c = c->next)
                n++;
            if (n > *cap) {
                member *b = realloc(*buf, n * sizeof *b);
                if (!b) {
                    *oom = 1;
                    return NULL;
                }
                *buf = b;
                *cap = n;
            }
            n = 0;
            for (const cJSON *c = node->child; c; c = c->next, n++)
                (*buf)[n] = (member){c->string ? c->string : "", n, c};
            qsort(*buf, n, sizeof **buf, cmp_member);
            const member *first = NULL; /* the repeat that comes first in the file */
            for (size_t i = 1; i < n; i++)
                if (!strcmp((*buf)[i - 1].key, (*buf)[i].key) &&
                    (!first || (*buf)[i].order < first->order))
                    first = &(*buf)[i];
            if (first) return first->item;
        }
        const cJSON *d = duplicate_in(node->child, buf, cap, oom);
        if (d) return d;
    }
    return NULL;
}

const cJSON *json_duplicate(const cJSON *root, int *oom) {
    member *buf = NULL;
    size_t cap = 0;
    *oom = 0;
    const cJSON *d = duplicate_in(root, &buf, &cap, oom);
    free(buf);
    return d;
}
