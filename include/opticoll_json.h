/*
 * opticoll_json.h — the JSON writer every document of libopticoll is written with, for programs
 * that write documents of their own beside the library's (the CLIs' perf and MPI tables).
 *
 * A document is a cJSON tree (Debian's libcjson, which libopticoll links) built with the adders
 * below and printed by oc_json_write. Two things cJSON does not do well enough are done here:
 * numbers (every double is written in the fewest of 15, 16 or 17 digits that read back to the very
 * same double, whole counts in plain digits, NaN and infinities as null) and the house style
 * (`{"key": value, "key": value}`: one space after every ',' and ':', OC_JSON_SPACED).
 */
#ifndef OPTICOLL_JSON_H
#define OPTICOLL_JSON_H

#include "opticoll_studies.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The adders. With a key, each adds a member to the object `to`; with key NULL, it appends an
 * element to the array `to`. They return 1, or 0 when memory ran out or `to` is NULL (an earlier
 * adder failed), so a writer can chain a whole document with && and test once; nothing leaks. */
int oc_json_num(cJSON *to, const char *key, double v);      /* reads back to exactly v */
int oc_json_u64(cJSON *to, const char *key, uint64_t v);    /* plain digits, exact */
int oc_json_str(cJSON *to, const char *key, const char *s); /* s NULL: null */
int oc_json_bool(cJSON *to, const char *key, int v);
int oc_json_null(cJSON *to, const char *key);
/* A key=value list as an object, in the list's order (kv NULL: {}), each value a number when its
 * text is one exactly as the writer prints it ("64", "0.7"), a string otherwise. */
int oc_json_kv(cJSON *to, const char *key, const oc_kv *kv);
/* Adds `item` and takes it: on failure it is deleted. */
int oc_json_add(cJSON *to, const char *key, cJSON *item);
/* A new empty object or array added to `to`; NULL on failure. */
cJSON *oc_json_obj(cJSON *to, const char *key);
cJSON *oc_json_arr(cJSON *to, const char *key);

/* The styles: the house's spaced text, or cJSON's own compact text. */
#define OC_JSON_SPACED 0
#define OC_JSON_COMPACT 1
/* Prints `tree` to f in `style`, then `end` (NULL: nothing), and deletes the tree. A NULL tree (a
 * failed build) is OC_ENOMEM and writes nothing; a stream error is OC_EIO. */
int oc_json_write(FILE *f, cJSON *tree, int style, const char *end);

/* A perf row (opticoll_studies.h) as JSON: size, count, type, redop, root and, for each group, an
 * object named after it with time_us, algbw_GBps and busbw_GBps (numbers; null where not
 * measured); groups NULL: one group, its three members in the row itself. Also busbw_factor.
 * NULL: no memory. */
cJSON *oc_perf_row_json(const oc_perf_row *r, const char *const *groups, size_t ngroups,
                        double factor);


#ifdef __cplusplus
}
#endif
#endif /* OPTICOLL_JSON_H */
