/*
 * fuzz_size.c — SIZE as `-s`, `--size`, schedule files and the lists of sweep and tune give it:
 * oc_parse_size (src/core/util.c).
 *
 * Promises checked on a size it accepts: the text starts with a digit (no sign, no space), the
 * value is at most OC_MAX_BYTES, and the value written back in plain digits parses to itself; a
 * text of digits only is its decimal value.
 */
#include "fuzz.h"

#include "opticoll.h"

#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_cstr(data, size);
    uint64_t v = 0;
    int rc = oc_parse_size(text, &v);
    FUZZ_CHECK(rc == 0 || rc == OC_EPARSE || rc == OC_ERANGE);
    if (!rc) {
        FUZZ_CHECK(isdigit((unsigned char)text[0]));
        FUZZ_CHECK(v <= OC_MAX_BYTES);
        char back[32];
        uint64_t w = 0;
        snprintf(back, sizeof back, "%llu", (unsigned long long)v);
        FUZZ_CHECK(oc_parse_size(back, &w) == 0 && w == v);
        size_t digits = strspn(text, "0123456789");
        if (!text[digits]) FUZZ_CHECK(strtoull(text, NULL, 10) == v);
    }
    free(text);
    return 0;
}
