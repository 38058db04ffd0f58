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

/* The stream's text in *text (NUL-terminated) when fn returned 0 and the stream closed cleanly;
 * otherwise *text is NULL and the error is returned (OC_ENOMEM when the stream itself failed). */
static int finish(FILE *f, char **buf, int rc, char **text) {
    if (fclose(f) != 0 && rc == 0) rc = OC_ENOMEM;
    if (rc) {
        free(*buf);
        *buf = NULL;
    }
    *text = *buf;
    return rc;
}

int opy_report_json(const oc_report *r, char **text) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return OC_ENOMEM;
    int rc = oc_report_write_json(r, f);
    if (!rc && ferror(f)) rc = OC_EIO;
    return finish(f, &buf, rc, text);
}

int opy_export(int format, const oc_request *req, char **text, char *why, size_t len) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return OC_ENOMEM;
    int rc = format == OPY_EXPORT_MSCCL    ? oc_export_msccl(req, f, why, len)
             : format == OPY_EXPORT_CHROME ? oc_export_chrome(req, f, why, len)
                                           : oc_export_json(req, f, why, len);
    if (!rc && ferror(f)) rc = OC_EIO;
    return finish(f, &buf, rc, text);
}
