/*
 * json.h — writing JSON (json.c): every document the library and its tools write is a cJSON tree,
 * built with the adders below and printed by oc__json_write.
 *
 * cJSON escapes the strings and lays out the brackets; two things it does not do well enough are
 * done here, once:
 *  - numbers. cJSON 1.7.15 (Debian 12) prints a double with %1.15g and keeps it when sscanf gives
 *    back a value within DBL_EPSILON of it, so about one double in six does not read back to
 *    itself (0.30000000000000004 is written 0.3), and whole numbers above 2^31 go through a double
 *    too. Numbers are therefore raw items whose text oc__json_number_text makes: the shortest of
 *    %.15g, %.16g and %.17g that strtod reads back to the very same double; whole counts (uint64)
 *    in plain digits; NaN and infinities as null.
 *  - the house style. The reports have always been written `{"key": value, "key": value}` (one
 *    space after every ',' and ':'); cJSON prints either no spaces or one member per line, so
 *    OC__JSON_SPACED re-spaces cJSON's compact text outside its strings. OC__JSON_COMPACT is
 *    cJSON's own compact text (the Chrome trace's events).
 * The core only builds and prints; reading JSON stays with the readers (src/formats, the tools).
 */
#ifndef OC_CORE_JSON_H
#define OC_CORE_JSON_H

#include "core/core.h"
#include "opticoll_json.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>

/* Room for any text of oc__json_number_text (17 digits, sign, point, exponent, NUL). */
enum { OC__JSON_NUMBER_SIZE = 32 };

/* The JSON text of v that reads back to exactly v: whole numbers below 10^15 in plain digits,
 * others in the fewest of 15, 16 or 17 significant digits that strtod returns to v; "null" for
 * NaN and infinities (JSON has neither). Returns buf. */
char *oc__json_number_text(char buf[OC__JSON_NUMBER_SIZE], double v);

/* The plain decimal digits of v, written at the end of buf: returns where they begin (the text
 * oc__json_u64 adds, for writers that stream numbers without a tree). */
char *oc__json_u64_text(char buf[OC__JSON_NUMBER_SIZE], uint64_t v);

/* The adders. With a key, each adds a member to the object `to`; with key NULL, it appends an
 * element to the array `to`. They return 1, or 0 when memory ran out or `to` is NULL (an earlier
 * adder failed), so a writer can chain a whole document with && and test once; nothing leaks. */
#define oc__json_num oc_json_num      /* oc__json_number_text */
#define oc__json_u64 oc_json_u64    /* plain digits, exact */
#define oc__json_str oc_json_str /* s NULL: null */
#define oc__json_bool oc_json_bool
#define oc__json_null oc_json_null
/* A value the user or a model gave as text: a number when the text is one exactly as
 * oc__json_number_text writes it ("64", "0.7", "-3"), so that it reads back to the same text;
 * a string otherwise ("4x4x4", "seed", "007", "1e3"). */
int oc__json_value(cJSON *to, const char *key, const char *text);
/* A key=value list as an object, in the list's order (kv NULL: {}), each value by
 * oc__json_value: {"k": 6, "wavelengths": 64, "preset": "seed"}. */
#define oc__json_kv oc_json_kv
/* JSON text made elsewhere (another writer's oc__json_text), inserted as it is. */
int oc__json_raw(cJSON *to, const char *key, const char *json);
/* Adds `item` and takes it: on failure it is deleted. */
#define oc__json_add oc_json_add
/* A new empty object or array added to `to`; NULL on failure. */
#define oc__json_obj oc_json_obj
#define oc__json_arr oc_json_arr

/* The adders above and oc__json_write are public (opticoll_json.h) under the names oc_json_*. */
enum { OC__JSON_SPACED = OC_JSON_SPACED, OC__JSON_COMPACT = OC_JSON_COMPACT };

/* The tree printed in `style`: a malloc'd string (free()), or NULL when memory ran out. */
char *oc__json_text(const cJSON *tree, int style);
/* Prints `tree` to f in `style`, then `end` ("\n", or "" inside a streamed document), and deletes
 * the tree. A NULL tree (a failed build) is OC_ENOMEM and writes nothing; a stream error is
 * OC_EIO. */
#define oc__json_write oc_json_write
/* The members of the object `tree`, spaced, without its braces (`"a": 1, "b": 2`), for a document
 * whose tail is streamed and so cannot be one tree; deletes the tree. Errors as oc__json_write. */
int oc__json_write_members(FILE *f, cJSON *tree);

#endif
