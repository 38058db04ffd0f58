/*
 * train.c — `opticoll train`: what the gradient all-reduce costs a data-parallel DNN training run,
 * per iteration and per epoch, on a network model.
 *
 * The WRHT seed (wrht-allreduce-optical.txt, section IV) evaluates its all-reduce on the gradients
 * of real models: AlexNet 62.3M, VGG16 138M, ResNet50 25M and GoogLeNet 6.7977M parameters (IV.A),
 * trained on MNIST with batches 512, 48, 1024 and 64 (IV.B), and it reports communication time
 * "based on one epoch of training". This file turns that into arithmetic on verified runs:
 *
 *   bytes per all-reduce   = 4 x parameters (float32 gradients, the whole model every iteration)
 *   iterations per epoch   = ceil(samples / (batch x N))
 *   time per epoch         = iterations x time of one all-reduce (oc_run: generated, verified,
 *                            mapped onto the network and costed)
 *
 * The batch is per node. The seed picks each batch as the size "that ha[s] full usage in GPU
 * memory" on its one profiling GPU (IV.A, TITAN Xp), which only a per-GPU batch can do, and at the
 * seed's 1024..4096 nodes a global batch of 48 would leave most nodes without a single sample. So
 * an iteration consumes batch x N samples; when that reaches the epoch's size, the epoch is one
 * iteration on a partial global batch. The other reading (global batch) is printed beside ours as a
 * note, never used.
 *
 * Simplifications, stated in every output: only communication is counted (no forward or backward
 * pass, no overlap of the all-reduce with the backward pass, no gradient bucketing: one all-reduce
 * of the whole gradient per iteration).
 *
 * Models are data, not code: a models file (data/models.tsv, whose header is the format's
 * reference) is parsed here strictly — a malformed line refuses the whole file with its line
 * number — so that a typo never silently drops or changes a model. Parameter counts may be written
 * as the seed writes them (6.7977M) and are converted exactly, without floating point.
 */
#include "algo/algos.h"
#include "studies/studies.h"
#include "core/json.h"
#include "core/quote.h"
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The models file shipped with opticoll: data/models.tsv of the source tree (CMake passes its
 * absolute path) and, once installed, PREFIX/share/opticoll/models.tsv (OC_INSTALL_DATA_DIR). */
#ifndef OC_DATA_DIR
#define OC_DATA_DIR "data"
#endif

enum { MAX_FILE_BYTES = 16 << 20, MAX_FIELDS = 5 };

/* ---- the models file ------------------------------------------------------------------------- */

/* Parses "62300000", "62.3M", "6.7977M", "25M", "1.5K", "2G" exactly: the decimal times the unit
 * must be a whole number of parameters, from 1 to OC_MODEL_MAX_PARAMETERS. */
static int parse_parameters(const char *s, uint64_t *out) {
    uint64_t ip = 0, frac = 0, mult = 1, scale = 1;
    const char *p = s;
    if (*p < '0' || *p > '9') return OC_EPARSE;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (ip > (UINT64_MAX - 9) / 10) return OC_ERANGE;
        ip = ip * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return OC_EPARSE;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (scale == UINT64_C(1000000000)) return OC_EPARSE; /* more than 9 decimals */
            frac = frac * 10 + (uint64_t)(*p - '0');
            scale *= 10;
        }
    }
    if (*p == 'K' || *p == 'k')
        mult = UINT64_C(1000);
    else if (*p == 'M')
        mult = UINT64_C(1000000);
    else if (*p == 'G')
        mult = UINT64_C(1000000000);
    if (mult != 1) p++;
    if (*p) return OC_EPARSE;
    /* frac < scale <= 10^9 and mult <= 10^9, so frac * mult < 10^18 cannot overflow. */
    if ((frac * mult) % scale != 0) return OC_EINVAL; /* not a whole number of parameters */
    if (ip > OC_MODEL_MAX_PARAMETERS / mult) return OC_ERANGE;
    uint64_t v = ip * mult + frac * mult / scale;
    if (v > OC_MODEL_MAX_PARAMETERS) return OC_ERANGE;
    if (v == 0) return OC_ERANGE;
    *out = v;
    return 0;
}

/* Splits line[0..len) into fields separated by runs of tabs, each trimmed of spaces; the pieces
 * are NUL-terminated in place. Returns the number of fields (MAX_FIELDS + 1 means "too many"). */
static int split_fields(char *line, char **field) {
    int n = 0;
    char *p = line;
    while (*p) {
        while (*p == '\t')
            p++;
        if (!*p) break;
        if (n == MAX_FIELDS) return MAX_FIELDS + 1;
        char *start = p;
        while (*p && *p != '\t')
            p++;
        char *end = p;
        if (*p) *p++ = '\0';
        while (*start == ' ')
            start++;
        while (end > start && end[-1] == ' ')
            *--end = '\0';
        field[n++] = start;
    }
    return n;
}

/* The texts of models[0..n) while they are parsed, each its own allocation (pack_models gathers
 * them into the list's); the pointers are cleared. */
static void free_texts(oc_model *models, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free((char *)models[i].name);
        free((char *)models[i].note);
        models[i].name = models[i].note = NULL;
    }
}

/* models[0..n) and every name and note in one allocation, the texts after the array, so that the
 * list is one block whatever its texts' lengths (oc_models_free is one free, as before texts were
 * whole). NULL when out of memory; the parsed texts are left to the caller. */
static oc_model *pack_models(const oc_model *models, size_t n) {
    size_t text = 0;
    for (size_t i = 0; i < n; i++)
        text += strlen(models[i].name) + 1 + strlen(models[i].note) + 1;
    if (n > SIZE_MAX / sizeof *models || text > SIZE_MAX - n * sizeof *models) return NULL;
    oc_model *out = malloc(n * sizeof *models + text);
    if (!out) return NULL;
    char *at = (char *)(out + n);
    for (size_t i = 0; i < n; i++) {
        out[i] = models[i];
        const char *src[2] = {models[i].name, models[i].note};
        const char **dst[2] = {&out[i].name, &out[i].note};
        for (int k = 0; k < 2; k++) {
            const size_t l = strlen(src[k]) + 1;
            memcpy(at, src[k], l);
            *dst[k] = at;
            at += l;
        }
    }
    return out;
}

/* Checks one model line (already split) and fills *m; returns 0 or OC_EPARSE with why set. */
static int parse_model(char **f, int nf, const char *source, unsigned line, oc_model *m, char *why,
                       size_t len) {
    static const char *const names[] = {"name", "parameters", "batch", "samples"};
    if (nf < 4 || nf > MAX_FIELDS)
        return oc__fail(why, len, OC_EPARSE,
                        "%s:%u: expected 4 or 5 tab-separated fields (name, parameters, batch, "
                        "samples[, source]), found %s%d",
                        source, line, nf > MAX_FIELDS ? "more than " : "",
                        nf > MAX_FIELDS ? MAX_FIELDS : nf);
    for (int i = 0; i < 4; i++)
        if (!*f[i] || strchr(f[i], ' '))
            return oc__fail(why, len, OC_EPARSE, "%s:%u: %s '%s' is empty or has a space", source,
                            line, names[i], OC_Q(f[i]));
    memset(m, 0, sizeof *m);
    m->line = line;
    int rc = parse_parameters(f[1], &m->parameters);
    if (rc == OC_EINVAL)
        return oc__fail(why, len, OC_EPARSE, "%s:%u: parameters '%s' is not a whole number", source,
                        line, OC_Q(f[1]));
    if (rc == OC_ERANGE)
        return oc__fail(why, len, OC_EPARSE,
                        "%s:%u: parameters '%s' out of range (1 to %llu: 4-byte gradients of at "
                        "most 1 PiB)",
                        source, line, OC_Q(f[1]), (unsigned long long)OC_MODEL_MAX_PARAMETERS);
    if (rc)
        return oc__fail(why, len, OC_EPARSE,
                        "%s:%u: parameters '%s' is not a number (write e.g. 62300000 or 62.3M)",
                        source, line, OC_Q(f[1]));
    uint64_t *counts[2] = {&m->batch, &m->samples};
    for (int i = 0; i < 2; i++) {
        rc = oc_parse_u64(f[2 + i], 1, OC_MODEL_MAX_COUNT, counts[i]);
        if (rc)
            return oc__fail(why, len, OC_EPARSE,
                            "%s:%u: %s '%s' is not a whole number from 1 to %llu", source, line,
                            names[2 + i], OC_Q(f[2 + i]), (unsigned long long)OC_MODEL_MAX_COUNT);
    }
    /* the texts last: a line refused above leaves nothing to free */
    m->name = strdup(f[0]);
    m->note = strdup(nf == MAX_FIELDS ? f[4] : "");
    if (!m->name || !m->note) {
        free_texts(m, 1);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

static int model_cmp(const void *a, const void *b) {
    const oc_model *x = *(const oc_model *const *)a, *y = *(const oc_model *const *)b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Refuses a name defined twice among models[0..n) (names ignore case), naming the first line that
 * repeats an earlier one, as a reader going line by line would: found by sorting, so a file of
 * 50k models is O(n log n), not a comparison of every pair. */
static int no_duplicate_models(const oc_model *models, size_t n, const char *source, char *why,
                               size_t whylen) {
    if (n < 2) return 0;
    const oc_model **by = oc__malloc_array(n, sizeof *by);
    if (!by) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        by[i] = &models[i];
    qsort(by, n, sizeof *by, model_cmp);
    const oc_model *again = NULL, *first = NULL;
    for (size_t i = 1, g = 0; i < n; i++) {
        if (strcasecmp(by[g]->name, by[i]->name) != 0) {
            g = i;
            continue;
        }
        if (i == g + 1 && (!again || by[i]->line < again->line)) {
            again = by[i];
            first = by[g];
        }
    }
    free(by);
    if (again)
        return oc__fail(why, whylen, OC_EPARSE,
                        "%s:%u: model '%s' is already defined on line %u (names ignore case)",
                        source, again->line, OC_Q(again->name), first->line);
    return 0;
}

int oc_models_parse(const char *text, size_t len, const char *source, oc_model **out, size_t *count,
                    char *why, size_t whylen) {
    *out = NULL;
    *count = 0;
    source = source ? OC_Q(source) : "models"; /* a file name, in messages only */
    if (!text && len) return oc__fail(why, whylen, OC_EINVAL, "no models text");
    oc_model *models = NULL;
    size_t n = 0, cap = 0;
    char *buf = NULL;
    size_t bufcap = 0;
    unsigned line = 0;
    int rc = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t llen = nl ? (size_t)(nl - (text + pos)) : len - pos;
        line++;
        if (memchr(text + pos, '\0', llen)) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: NUL byte (not a text file?)", source,
                          line);
            goto fail;
        }
        if ((rc = oc__grow((void **)&buf, &bufcap, llen + 1, 1))) goto nomem;
        memcpy(buf, text + pos, llen);
        buf[llen] = '\0';
        pos += llen + (nl ? 1 : 0);
        if (llen && buf[llen - 1] == '\r') buf[--llen] = '\0'; /* CRLF files */
        const char *first = buf + strspn(buf, " \t");
        if (!*first || *first == '#') continue;
        char *f[MAX_FIELDS];
        int nf = split_fields(buf, f);
        if (n + 1 > cap && (rc = oc__budget_check((uint64_t)(n + 1) * 2 * sizeof *models,
                                                  "the models list", why, whylen)))
            goto fail;
        if ((rc = oc__grow((void **)&models, &cap, n + 1, sizeof *models))) goto nomem;
        if ((rc = parse_model(f, nf, source, line, &models[n], why, whylen))) {
            /* a name repeated on an earlier line is the first error (why is kept when none is) */
            int drc = no_duplicate_models(models, n, source, why, whylen);
            if (drc) rc = drc;
            goto fail;
        }
        n++;
    }
    if ((rc = no_duplicate_models(models, n, source, why, whylen))) goto fail;
    if (n == 0) {
        rc = oc__fail(why, whylen, OC_EPARSE, "%s: no models (only comments or blank lines)",
                      source);
        goto fail;
    }
    if (!(*out = pack_models(models, n))) goto nomem;
    *count = n;
    free_texts(models, n);
    free(models);
    free(buf);
    return 0;
nomem:
    rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
fail:
    free_texts(models, n);
    free(buf);
    free(models);
    return rc;
}

/* The source tree's copy while it is there (a build run in place, its tests included, reads the
 * file it was built with), else the installed one: so an installed tool keeps working once the
 * source tree is gone, and a build tree never reads an older installed copy. */
const char *oc_models_default(void) {
#ifdef OC_INSTALL_DATA_DIR
    if (access(OC_DATA_DIR "/models.tsv", R_OK) != 0) return OC_INSTALL_DATA_DIR "/models.tsv";
#endif
    return OC_DATA_DIR "/models.tsv";
}

static int models_read(const char *path, oc_model **out, size_t *count, char *why, size_t whylen) {
    if (!path) return oc__fail(why, whylen, OC_EINVAL, "no models file");
    /* the models file's own cap, or the input file cap if that is lower */
    const uint64_t cap = oc__file_cap() < MAX_FILE_BYTES ? oc__file_cap() : MAX_FILE_BYTES;
    char *text = NULL;
    size_t len = 0;
    int rc = oc__read_file(path, cap, NULL, &text, &len, why, whylen);
    if (!rc) rc = oc_models_parse(text, len, path, out, count, why, whylen);
    free(text);
    return rc;
}

int oc_models_read(const oc_settings *settings, const char *path, oc_model **out, size_t *count,
                   char *why, size_t whylen) {
    *out = NULL;
    *count = 0;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(settings, &prev, why, whylen); /* the file's cap */
    if (!rc) rc = models_read(path, out, count, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

void oc_models_free(oc_model *models) {
    free(models);
}

const oc_model *oc_model_find(const oc_model *models, size_t count, const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < count; i++)
        if (strcasecmp(models[i].name, name) == 0) return &models[i];
    return NULL;
}

uint64_t oc_train_iterations(uint64_t samples, uint64_t batch, uint32_t nodes) {
    if (!samples || !batch || !nodes) return 0;
    if (batch > samples / nodes) return 1; /* batch x nodes > samples: one partial batch */
    uint64_t global = batch * nodes;       /* <= samples: no overflow */
    return samples / global + (samples % global != 0); /* not (a + b - 1) / b: it can wrap */
}

/* ---- running ------------------------------------------------------------------------------- */

void oc_train_result_free(oc_train_result *r) {
    if (!r) return;
    for (size_t i = 0; i < r->count; i++) {
        oc_report_free(r->runs[i].report);
        free(r->runs[i].reason);
    }
    free(r->runs);
    free((char *)r->model.name);
    free((char *)r->model.note);
    memset(r, 0, sizeof *r);
}

/* Runs one algorithm into runs[*count]; a restriction (ENOTSUP, ETOOBIG) is recorded as a reason
 * when `tolerate` is set and is an error otherwise. */
static int run_one(const oc_train_result *res, const oc_request *req, oc_train_run *run,
                   int tolerate, char *why, size_t len) {
    char reason[OC__REASON_LEN] = "";
    oc_report *rep = NULL;
    memset(run, 0, sizeof *run);
    run->algorithm = req->algorithm;
    int rc = oc_run(req, &rep, reason, sizeof reason);
    if (rc == 0 && !(run->reason = strdup(""))) {
        oc_report_free(rep);
        rc = OC_ENOMEM;
        snprintf(reason, sizeof reason, "out of memory");
    }
    if (rc == 0) {
        run->report = rep;
        run->iteration_s = oc_report_time(rep);
        run->epoch_s = (double)res->iterations * run->iteration_s;
        return 0;
    }
    if (tolerate && (rc == OC_ENOTSUP || rc == OC_ETOOBIG)) {
        if (!(run->reason = strdup(*reason ? reason : oc_strerror(rc))))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
        return 0;
    }
    return oc__fail(why, len, rc, "%s", *reason ? reason : oc_strerror(rc));
}

/* Fastest first; insertion sort keeps registry order among equal times. */
static void sort_runs(oc_train_run *runs, size_t n) {
    for (size_t i = 1; i < n; i++) {
        oc_train_run t = runs[i];
        size_t j = i;
        while (j > 0 && runs[j - 1].iteration_s > t.iteration_s) {
            runs[j] = runs[j - 1];
            j--;
        }
        runs[j] = t;
    }
}

/* The registry's own spelling of network `name` (static, outlives every result), or NULL. */
static const char *network_named(const char *name) {
    for (size_t i = 0; i < oc_network_count(); i++)
        if (strcmp(oc_network_at(i)->name, name) == 0) return oc_network_at(i)->name;
    return NULL;
}

static int train_model_in(const oc_model *model, const oc_request *base, oc_train_result *out,
                          char *why, size_t len) {
    memset(out, 0, sizeof *out);
    if (!model || !base) return oc__fail(why, len, OC_EINVAL, "no model or no request");
    if (!base->network)
        return oc__fail(why, len, OC_EINVAL, "train needs a network to time the all-reduce on");
    if (base->nodes < 1)
        return oc__fail(why, len, OC_EINVAL, "the number of nodes must be at least 1");
    if (model->parameters < 1 || model->parameters > OC_MODEL_MAX_PARAMETERS || model->batch < 1 ||
        model->samples < 1)
        return oc__fail(why, len, OC_EINVAL,
                        "model '%s': parameters, batch and samples must be "
                        "positive (and the gradient at most 1 PiB)",
                        OC_Q(model->name));
    oc_train_result res;
    memset(&res, 0, sizeof res);
    res.model = *model;
    res.model.name = res.model.note = NULL; /* the caller's; copied below, whole */
    res.network = network_named(base->network);
    res.nodes = base->nodes;
    res.bytes = model->parameters * OC_GRADIENT_BYTES_PER_PARAMETER;
    res.global_batch =
        model->batch > UINT64_MAX / base->nodes ? UINT64_MAX : model->batch * base->nodes;
    res.iterations = oc_train_iterations(model->samples, model->batch, base->nodes);
    oc_request req = *base;
    req.collective = OC_ALLREDUCE;
    req.bytes = res.bytes;
    int rc = 0;
    size_t cap = base->algorithm ? 1 : oc__algo_count();
    res.runs = oc__calloc(cap, sizeof *res.runs);
    res.model.name = strdup(model->name ? model->name : "");
    res.model.note = strdup(model->note ? model->note : "");
    if (!res.runs || !res.model.name || !res.model.note) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto fail;
    }
    if (base->algorithm) {
        if ((rc = run_one(&res, &req, &res.runs[0], 0, why, len))) goto fail;
        res.count = res.nrun = 1;
        if (!res.network) { /* oc_run knew it: never reached */
            rc = oc__fail(why, len, OC_ENOENT, "unknown network '%s'", OC_Q(base->network));
            goto fail;
        }
    } else {
        if (!res.network) {
            char names[128] = "";
            for (size_t i = 0; i < oc_network_count(); i++) {
                if (*names) strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, oc_network_at(i)->name, sizeof names - strlen(names) - 1);
            }
            rc = oc__fail(why, len, OC_ENOENT, "unknown network '%s' (known: %s)",
                          OC_Q(base->network), names);
            goto fail;
        }
        for (size_t i = 0; i < oc__algo_count(); i++) {
            const oc__algo *a = oc__algo_at(i);
            if (a->info.collective != OC_ALLREDUCE || !oc__algo_supports(a, base->network))
                continue;
            req.algorithm = a->info.name;
            if ((rc = run_one(&res, &req, &res.runs[res.count], 1, why, len))) goto fail;
            res.count++;
        }
        if (res.count == 0) {
            rc = oc__fail(why, len, OC_ENOTSUP, "no all-reduce algorithm runs on network %s",
                          base->network);
            goto fail;
        }
        /* Ran ones first (fastest first), then the refused ones in registry order. */
        size_t k = 0;
        for (size_t i = 0; i < res.count; i++)
            if (res.runs[i].report) {
                oc_train_run t = res.runs[i];
                memmove(&res.runs[k + 1], &res.runs[k], (i - k) * sizeof *res.runs);
                res.runs[k++] = t;
            }
        res.nrun = k;
        if (res.nrun == 0) {
            rc = oc__fail(why, len, OC_ENOTSUP, "no all-reduce algorithm can run here; %s: %s",
                          res.runs[0].algorithm, res.runs[0].reason);
            goto fail;
        }
        sort_runs(res.runs, res.nrun);
    }
    *out = res;
    return 0;
fail:
    oc_train_result_free(&res);
    return rc;
}

int oc_train_model(const oc_model *model, const oc_request *base, oc_train_result *out, char *why,
                   size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(base ? base->settings : NULL, &prev, why, len);
    if (!rc) rc = train_model_in(model, base, out, why, len);
    oc__settings_leave(prev);
    return rc;
}

static int train_in(const char *models_file, const char *model, const oc_request *base,
                    oc_train_result *out, char *why, size_t len) {
    memset(out, 0, sizeof *out);
    if (!model || !*model) return oc__fail(why, len, OC_EINVAL, "no model named");
    oc_model *models = NULL;
    size_t n = 0;
    int rc = oc_models_read(NULL, models_file, &models, &n, why, len); /* the call's settings */
    if (rc) return rc;
    const oc_model *m = oc_model_find(models, n, model);
    if (!m) {
        /* Whole names only, each escaped and cut as user text, as many as fit; the rest counted
         * ("and 47 more"), never a name cut in the middle or a dangling ", ". */
        char names[256] = "";
        size_t shown = 0;
        for (; shown < n; shown++) {
            const char *name = OC_Q(models[shown].name);
            const size_t used = strlen(names), add = strlen(name) + (shown ? 2 : 0);
            if (used + add + sizeof ", and 4294967295 more" > sizeof names) break;
            snprintf(names + used, sizeof names - used, "%s%s", shown ? ", " : "", name);
        }
        char rest[40] = "";
        if (shown < n) snprintf(rest, sizeof rest, "%sand %zu more", shown ? ", " : "", n - shown);
        rc = oc__fail(why, len, OC_ENOENT, "unknown model '%s' in %s (known: %s%s)", OC_Q(model),
                      OC_Q(models_file ? models_file : "the built-in models"), names, rest);
    } else {
        rc = oc_train_model(m, base, out, why, len);
    }
    oc_models_free(models);
    return rc;
}

int oc_train(const char *models_file, const char *model, const oc_request *base,
             oc_train_result *out, char *why, size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(base ? base->settings : NULL, &prev, why, len);
    if (!rc) rc = train_in(models_file, model, base, out, why, len);
    oc__settings_leave(prev);
    return rc;
}

/* ---- output -------------------------------------------------------------------------------- */

static const char BATCH_RULE[] =
    "the batch is per node (per GPU): the seed (IV.B) sets each batch to the size that fills one "
    "GPU's memory, so each of the N nodes trains on its own batch and an iteration consumes batch "
    "x "
    "N samples; iterations per epoch = ceil(samples / (batch x N))";
static const char COMM_ONLY[] =
    "times are communication only: one all-reduce of the whole float32 gradient per iteration, no "
    "computation, no overlap with the backward pass, no gradient bucketing";

/* The notes every rendering carries, in order; returns how many were written into note[]. */
static size_t notes(const oc_train_result *r, char note[4][320]) {
    size_t n = 0;
    snprintf(note[n++], sizeof note[0], "%s", BATCH_RULE);
    if (r->global_batch >= r->model.samples)
        snprintf(note[n++], sizeof note[0],
                 "batch x N = %llu >= %llu samples: the epoch is a single iteration on a partial "
                 "global batch",
                 (unsigned long long)r->global_batch, (unsigned long long)r->model.samples);
    snprintf(note[n++], sizeof note[0],
             "read as a global batch instead (split over the nodes), an epoch would be "
             "ceil(%llu / %llu) = %llu iterations at every N",
             (unsigned long long)r->model.samples, (unsigned long long)r->model.batch,
             (unsigned long long)oc_train_iterations(r->model.samples, r->model.batch, 1));
    snprintf(note[n++], sizeof note[0], "%s", COMM_ONLY);
    return n;
}

static void params_text(const oc_kv *kv, FILE *f) {
    for (size_t i = 0; i < oc_kv_count(kv); i++)
        fprintf(f, "%s%s=%s", i ? " " : "", oc_kv_key(kv, i), oc_kv_value(kv, i));
}

int oc_train_write_text(const oc_train_result *r, FILE *f) {
    char t1[32], t2[32], note[4][320];
    /* The model's name and note come from a models file: escaped as any user text reaching a
     * terminal (an escape sequence in a name must not act on it), and whole. */
    char *name = oc__quote_whole(r->model.name), *source = oc__quote_whole(r->model.note);
    if (!name || !source) {
        free(name);
        free(source);
        return OC_ENOMEM;
    }
    fprintf(f,
            "%s on %s, %u nodes: all-reduce of %llu bytes per iteration (%llu float32 gradients)\n",
            name, r->network, r->nodes, (unsigned long long)r->bytes,
            (unsigned long long)r->model.parameters);
    if (r->nrun && oc_kv_count(r->runs[0].report->net_params)) {
        fputs("  network:  ", f);
        params_text(r->runs[0].report->net_params, f);
        fputc('\n', f);
    }
    fprintf(
        f,
        "  epoch:    %llu samples / (batch %llu per node x %u nodes = %llu) -> %llu iteration%s\n",
        (unsigned long long)r->model.samples, (unsigned long long)r->model.batch, r->nodes,
        (unsigned long long)r->global_batch, (unsigned long long)r->iterations,
        r->iterations == 1 ? "" : "s");
    fprintf(f, "  %-10s %8s %12s %16s %16s %9s  %s\n", "algorithm", "steps", "lower bound",
            "time/iteration", "time/epoch", "verified", "parameters");
    for (size_t i = 0; i < r->nrun; i++) {
        const oc_train_run *run = &r->runs[i];
        uint64_t lb = 0;
        char lbb[24] = "-";
        if (oc_report_steps_lower_bound(run->report, &lb))
            snprintf(lbb, sizeof lbb, "%llu", (unsigned long long)lb);
        oc_format_seconds(t1, sizeof t1, run->iteration_s);
        oc_format_seconds(t2, sizeof t2, run->epoch_s);
        fprintf(f, "  %-10s %8llu %12s %16s %16s %9s", run->algorithm,
                (unsigned long long)oc_report_steps(run->report), lbb, t1, t2,
                oc_report_verified(run->report) ? "yes" : "NO");
        if (oc_kv_count(run->report->params)) fputs("  ", f);
        params_text(run->report->params, f);
        fputc('\n', f);
    }
    for (size_t i = r->nrun; i < r->count; i++)
        fprintf(f, "  %-10s not run: %s\n", r->runs[i].algorithm, r->runs[i].reason);
    if (*source) fprintf(f, "  model:    %s\n", source);
    free(name);
    free(source);
    size_t nn = notes(r, note);
    for (size_t i = 0; i < nn; i++)
        fprintf(f, "  note: %s\n", note[i]);
    return ferror(f) ? OC_EIO : 0;
}

int oc_train_write_json(const oc_train_result *r, FILE *f) {
    char note[4][320];
    cJSON *o = cJSON_CreateObject();
    int ok = oc__json_str(o, "model", r->model.name) &&
             oc__json_u64(o, "parameters", r->model.parameters) &&
             oc__json_u64(o, "bytes_per_parameter", OC_GRADIENT_BYTES_PER_PARAMETER) &&
             oc__json_u64(o, "bytes", r->bytes) && oc__json_str(o, "network", r->network) &&
             oc__json_u64(o, "nodes", r->nodes) &&
             oc__json_u64(o, "batch_per_node", r->model.batch) &&
             oc__json_u64(o, "global_batch", r->global_batch) &&
             oc__json_u64(o, "samples_per_epoch", r->model.samples) &&
             oc__json_u64(o, "iterations_per_epoch", r->iterations) &&
             oc__json_str(o, "model_source", r->model.note);
    cJSON *runs = ok ? oc__json_arr(o, "runs") : NULL;
    ok = runs != NULL;
    for (size_t i = 0; ok && i < r->nrun; i++) {
        const oc_train_run *run = &r->runs[i];
        cJSON *x = oc__json_obj(runs, NULL);
        ok = oc__json_str(x, "algorithm", run->algorithm) &&
             oc__json_u64(x, "steps", oc_report_steps(run->report)) &&
             oc__json_num(x, "time_per_iteration_s", run->iteration_s) &&
             oc__json_num(x, "time_per_epoch_s", run->epoch_s) &&
             oc__json_bool(x, "verified", oc_report_verified(run->report)) &&
             oc__json_add(x, "report", oc__report_json(run->report));
    }
    cJSON *not_run = ok ? oc__json_arr(o, "not_run") : NULL;
    ok = not_run != NULL;
    for (size_t i = r->nrun; ok && i < r->count; i++) {
        cJSON *x = oc__json_obj(not_run, NULL);
        ok = oc__json_str(x, "algorithm", r->runs[i].algorithm) &&
             oc__json_str(x, "reason", r->runs[i].reason);
    }
    cJSON *lines = ok ? oc__json_arr(o, "notes") : NULL;
    ok = lines != NULL;
    size_t nn = ok ? notes(r, note) : 0;
    for (size_t i = 0; ok && i < nn; i++)
        ok = oc__json_str(lines, NULL, note[i]);
    if (!ok) {
        cJSON_Delete(o);
        o = NULL; /* oc__json_write: out of memory */
    }
    return oc__json_write(f, o, OC__JSON_SPACED, "\n");
}
