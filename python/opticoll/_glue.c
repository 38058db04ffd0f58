/*
 * _glue.c — the C side of the Python package (python/opticoll): the library writes its results to
 * a FILE, and Python wants text. Each function here runs one library call into an in-memory
 * stream (open_memstream) and hands back the text, malloc'ed, for Python to decode and free. The
 * requests themselves are built in Python through cffi (the library's own oc_request and oc_kv),
 * so this file holds no logic of its own: what the CLI prints with --json, these return.
 */
#include "_glue.h"

#include <stdio.h>
#include <stdlib.h>

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

int opy_export(int format, const oc_request *req, char **text, char *why, size_t len) {
    text_out t;
    if (start(&t)) return OC_ENOMEM;
    int rc = format == OPY_EXPORT_MSCCL    ? oc_export_msccl(req, t.f, why, len)
             : format == OPY_EXPORT_CHROME ? oc_export_chrome(req, t.f, why, len)
                                           : oc_export_json(req, t.f, why, len);
    return finish(&t, rc, text);
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
