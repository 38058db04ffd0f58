/*
 * list.h — node-count and size lists as `sweep --nodes/--sizes` and `reproduce --sizes` take them.
 *
 * A list is comma-separated items, each a value or a range A..B: A, 2A, 4A, ... up to B (B itself
 * need not be reached); A..B:*F multiplies by F instead and A..B:+S adds S. Sizes take the units of
 * -s (4KiB..64MiB:*4). The union is sorted and repeats dropped. The parser lives in the library so
 * that the CLI's lists and a reproduction's --sizes setting read the same text the same way.
 */
#ifndef OC_CORE_LIST_H
#define OC_CORE_LIST_H

#include <stddef.h>
#include <stdint.h>

/* Parses `text`, a node list (sizes = 0: 1 .. OC_MAX_NODES) or a size list (sizes = 1: 0 ..
 * OC_MAX_BYTES), into out[0 .. *n), at most `max` values. 0, or OC_EINVAL with one line in why
 * naming `flag` ("--sizes") and the text, or OC_ENOMEM. */
int oc__parse_list(const char *flag, const char *text, int sizes, uint64_t *out, size_t max,
                   size_t *n, char *why, size_t whylen);

#endif
