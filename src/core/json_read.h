/*
 * json_read.h — what the JSON readers (src/formats/schedule_json.c, src/studies/tune.c's decision
 * files) check in the text before trusting cJSON's tree with it (json_read.c).
 *
 * cJSON keeps every string NUL-terminated and has no length beside it, so the escape \u0000 cuts
 * a string where it stands: "allgather\u0000evil" is read as "allgather", and a key "k\u0000x"
 * as "k". A raw NUL byte is refused by the readers already (the file's length against strlen);
 * the escaped one can only be seen in the text, so it is looked for there, once, before parsing.
 */
#ifndef OC_CORE_JSON_READ_H
#define OC_CORE_JSON_READ_H

#include <stddef.h>

/* 1 when a string of the JSON text `text` (`len` bytes) holds the escape \u0000 (a NUL
 * character), with the byte offset of its backslash in *at; 0 otherwise. Only escapes inside
 * strings count: the scan follows the strings' quotes and backslashes as a JSON reader does.
 * Linear in len, no allocation. */
int oc__json_nul_escape(const char *text, size_t len, size_t *at);

#endif
