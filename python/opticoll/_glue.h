/* _glue.h — what _glue.c gives the cffi module (declared again in _build.py's cdef). */
#ifndef OPY_GLUE_H
#define OPY_GLUE_H

#include "opticoll.h"

enum { OPY_EXPORT_JSON = 0, OPY_EXPORT_MSCCL = 1, OPY_EXPORT_CHROME = 2 };

/* oc_report_write_json's text. 0 or an OC_ error; *text malloc'ed on success. */
int opy_report_json(const oc_report *r, char **text);
/* oc_export_json / _msccl / _chrome's text. 0 or the library's error, with `why`. */
int opy_export(int format, const oc_request *req, char **text, char *why, size_t len);
/* oc_compare + oc_compare_write_json's text: `compare --json`. 0 or the library's error, with
 * `why`. */
int opy_compare_json(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
                     const oc_kv *pins, char **text, char *why, size_t len);

#endif
