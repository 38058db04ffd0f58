/*
 * _glue.c — the C side of the Python package (python/opticoll): the library writes its results to
 * a FILE, and Python wants text. Each function here runs one library call into an in-memory
 * stream (open_memstream) and hands back the text, malloc'ed, for Python to decode and free. The
 * requests themselves are built in Python through cffi (the library's own oc_request and oc_kv),
 * so this file holds no logic of its own: what the CLI prints with --json, these return.
 *
 * Two more things live here because Python cannot do them from its side of cffi: the progress
 * callback that stops a long call (opy_progress, reading a flag Python sets when Ctrl-C arrives;
 * a C function, so that the library's worker threads call it without Python's lock), and
 * nccl-tests' row of a perf point, from the same src/report/perf.c the command prints with.
 */
#include "_glue.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An in-memory stream and the text it collects. */
typedef struct text_out {
    char *buf;
    size_t n;
    FILE *f;
} text_out;

static int start(text_out *t) {
    t->buf = NULL;
    t->n = 0;
    t->f = open_memstream(&t->buf, &t->n);
    return t->f ? 0 : OC_ENOMEM;
}

/* The stream's text in *text (NUL-terminated) when the writer returned rc = 0 and the stream
 * closed cleanly; otherwise *text is NULL and the error is returned (OC_EIO when the stream
 * failed, OC_ENOMEM when closing it did). */
static int finish(text_out *t, int rc, char **text) {
    if (!rc && ferror(t->f)) rc = OC_EIO;
    if (fclose(t->f) != 0 && rc == 0) rc = OC_ENOMEM;
    if (rc) {
        free(t->buf);
        t->buf = NULL;
    }
    *text = t->buf;
    return rc;
}

int opy_report_json(const oc_report *r, char **text) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    return finish(&t, oc_report_write_json(r, t.f), text);
}

int opy_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
    (void)what, (void)done, (void)total;
    return atomic_load((_Atomic int *)ctx) ? OC_ECANCELED : 0;
}

/* 8 bytes of n, little-endian, then n bytes of data: the framing of the exports that give many
 * files at once, which Python cuts apart. */
static int put_blob(FILE *f, const void *data, size_t n) {
    unsigned char head[8];
    for (int i = 0; i < 8; i++)
        head[i] = (unsigned char)((uint64_t)n >> (8 * i));
    return fwrite(head, 1, 8, f) == 8 && fwrite(data, 1, n, f) == n ? 0 : OC_EIO;
}

/* Chakra's per-rank files, in rank order. */
static int chakra_rank(void *ctx, uint32_t rank, const void *data, size_t len) {
    (void)rank;
    return put_blob(ctx, data, len);
}

int opy_export(int format, const oc_request *req, char **text, char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    int rc = format == OPY_EXPORT_MSCCL    ? oc_export_msccl(req, t.f, why, len)
             : format == OPY_EXPORT_CHROME ? oc_export_chrome(req, t.f, why, len)
                                           : oc_export_json(req, t.f, why, len);
    return finish(&t, rc, text);
}

int opy_export_bytes(const oc_request *req, char **data, size_t *n, char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    int rc = finish(&t, oc_export_chakra(req, chakra_rank, t.f, why, len), data);
    *n = rc ? 0 : t.n;
    return rc;
}

/* ASTRA-sim's files, each as its name then its bytes (put_blob): Python cuts them apart. */
static int astra_file(void *ctx, const char *name, const void *data, size_t len) {
    FILE *f = ctx;
    int rc = put_blob(f, name, strlen(name));
    return rc ? rc : put_blob(f, data, len);
}

int opy_export_astra(const oc_request *req, char **data, size_t *n, char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    int rc = finish(&t, oc_export_astra(req, astra_file, t.f, why, len), data);
    *n = rc ? 0 : t.n;
    return rc;
}

int opy_draw(const oc_request *req, const char *file, const char *network, const oc_kv *net_params,
             const oc_draw_options *opt, char **text, size_t *n, char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    int rc = file ? oc_draw_file(NULL, file, network, net_params, opt, t.f, why, len)
                  : oc_draw(req, opt, t.f, why, len);
    rc = finish(&t, rc, text);
    *n = rc ? 0 : t.n;
    return rc;
}

int opy_export_msccl(const oc_request *req, const char *runtime, int inplace, char **text,
                     char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    return finish(&t, oc_export_msccl_for(req, runtime, inplace, t.f, why, len), text);
}

int opy_perf_row(oc_collective c, uint32_t n, uint64_t bytes, uint32_t root, uint64_t *size,
                 uint64_t *count, double *factor, const char **redop, int64_t *root_out) {
    oc_perf_row r = oc_perf_row_of(c, n, bytes, OPY_PERF_TYPE_SIZE, root);
    *size = r.size;
    *count = r.count;
    *redop = r.redop;
    *root_out = r.root;
    *factor = oc_perf_busbw_factor(c, n);
    return 0;
}

uint64_t opy_perf_bytes(oc_collective c, uint32_t n, uint64_t size) {
    return oc_perf_bytes(c, n, size, OPY_PERF_TYPE_SIZE);
}

int opy_reproduce_json(const char *paper, const oc_reproduce_settings *settings, char **text,
                       char *why, size_t len) {
    text_out t;
    oc_figures *figs = NULL;
    *text = NULL;
    FILE *sink = fopen("/dev/null", "w"); /* the printed tables: the JSON holds them whole */
    if (!sink) return OC_EIO;
    int rc = oc_reproduce_collect(paper, settings, sink, &figs, why, len);
    fclose(sink);
    if (rc) return rc;
    if ((rc = start(&t))) {
        oc_figures_free(figs);
        return rc;
    }
    rc = oc_reproduce_write_json(paper, settings, figs, t.f);
    oc_figures_free(figs);
    return finish(&t, rc, text);
}

int opy_synth_json(const oc_synth_spec *spec, char **text, char **schedule, char *why,
                   size_t len) {
    oc_synth_result *r = NULL;
    text_out t, u;
    *text = *schedule = NULL;
    int rc = oc_synth(spec, &r, why, len);
    if (rc) return rc;
    if (!(rc = start(&t))) {
        rc = finish(&t, oc_synth_write_json(r, t.f), text);
        oc_synth_info info;
        oc_synth_get(r, &info);
        if (!rc && info.found && !(rc = start(&u)))
            rc = finish(&u, oc_synth_write_schedule(r, u.f, why, len), schedule);
    }
    oc_synth_free(r);
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int opy_train_json(const char *models_file, const char *model, const oc_request *base,
                   char **text, char *why, size_t len) {
    oc_train_result res;
    text_out t;
    *text = NULL;
    int rc = oc_train(models_file ? models_file : OPY_DATA_DIR "/models.tsv", model, base, &res,
                      why, len);
    if (rc) return rc;
    if (!(rc = start(&t))) rc = finish(&t, oc_train_write_json(&res, t.f), text);
    oc_train_result_free(&res);
    return rc;
}

int opy_throughput_json(const oc_throughput_in *in, char **text, char *why, size_t len) {
    oc_throughput out;
    text_out t;
    *text = NULL;
    int rc = oc_throughput_estimate(in, &out, why, len);
    if (rc) return rc;
    if (!(rc = start(&t))) rc = finish(&t, oc_throughput_write_json(&out, t.f), text);
    oc_throughput_free(&out);
    return rc;
}

int opy_rack_json(const oc_rack_shape *shape, const char *trace_path, uint64_t seed,
                  uint32_t tenants, char **text, char *why, size_t len) {
    oc_rack_trace *trace = NULL;
    oc_rack_result *res = NULL;
    text_out t;
    *text = NULL;
    int rc = oc_rack_shape_check(shape, why, len);
    if (!rc)
        rc = trace_path ? oc_rack_trace_read(NULL, trace_path, shape->servers * shape->tiles,
                                             &trace, why, len)
                        : oc_rack_trace_random(seed, tenants, shape->servers * shape->tiles, &trace,
                                               why, len);
    if (!rc) rc = oc_rack_replay(shape, trace, &res, why, len);
    if (!rc && !(rc = start(&t))) rc = finish(&t, oc_rack_write_json(res, t.f), text);
    oc_rack_result_free(res);
    oc_rack_trace_free(trace);
    return rc;
}

int opy_compare_json(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
                     const oc_kv *pins, char **text, char *why, size_t len) {
    oc_compare_result res;
    text_out t;
    *text = NULL;
    int rc = oc_compare(req, algorithms, nalgorithms, pins, &res, why, len);
    if (rc) return rc;
    if ((rc = start(&t))) {
        oc_compare_result_free(&res);
        return rc;
    }
    rc = oc_compare_write_json(&res, t.f);
    oc_compare_result_free(&res);
    return finish(&t, rc, text);
}

int opy_simgrid_platform(const oc_request *req, char **platform, char **report, char **params,
                         char *why, size_t len) {
    text_out t, r, k;
    oc_report *rep = NULL;
    *platform = *report = *params = NULL;
    if (start(&t)) return OC_ENOMEM;
    int rc = finish(&t, oc_simgrid_platform(req, t.f, &rep, why, len), platform);
    if (!rc && !(rc = start(&r))) rc = finish(&r, oc_report_write_json(rep, r.f), report);
    if (!rc && !(rc = start(&k))) {
        /* "k=v,k=v": what the executor's --algorithms takes after "ALGO:" (cmd_simgrid.c's) */
        const oc_kv *p = oc_report_params(rep);
        for (size_t i = 0; i < oc_kv_count(p); i++)
            fprintf(k.f, "%s%s=%s", i ? "," : "", oc_kv_key(p, i), oc_kv_value(p, i));
        rc = finish(&k, 0, params);
    }
    oc_report_free(rep);
    if (rc) {
        free(*platform);
        free(*report);
        *platform = *report = NULL;
    }
    return rc;
}

const char *opy_source_dir(void) {
    return OPY_SOURCE_DIR;
}

const char *opy_build_dir(void) {
    return OPY_BUILD_DIR;
}

int opy_rack_fig2a(char **text, int *agrees, char *why, size_t len) {
    text_out t;
    *text = NULL;
    *agrees = 0;
    if (start(&t)) return OC_ENOMEM;
    return finish(&t, oc_rack_fig2a(t.f, agrees, why, len), text);
}
