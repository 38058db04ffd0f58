/*
 * fuzz_number.c — the numbers of the CLI and of --net / -p values: oc_parse_u64 and
 * oc_parse_double (src/core/util.c).
 *
 * One text, parsed four ways: u64 over the whole range and over [3, 1000], double over
 * [-1e300, 1e300] and over [0, 1]. Promises checked: an accepted value lies in its range, the
 * narrow range accepts exactly the values of the wide one that fall inside it (and refuses the
 * others as out of range, not as malformed), and a double is finite.
 */
#include "fuzz.h"

#include "opticoll.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_cstr(data, size);
    uint64_t u = 0, un = 0;
    int ru = oc_parse_u64(text, 0, UINT64_MAX, &u);
    int run = oc_parse_u64(text, 3, 1000, &un);
    FUZZ_CHECK(ru == 0 || ru == OC_EPARSE || ru == OC_ERANGE);
    if (ru == 0) {
        int inside = u >= 3 && u <= 1000;
        FUZZ_CHECK(inside ? run == 0 && un == u : run == OC_ERANGE);
        char back[32];
        uint64_t w = 0;
        snprintf(back, sizeof back, "%llu", (unsigned long long)u);
        FUZZ_CHECK(oc_parse_u64(back, 0, UINT64_MAX, &w) == 0 && w == u);
    } else if (ru == OC_EPARSE) {
        FUZZ_CHECK(run == OC_EPARSE);
    }
    double d = 0, dn = 0;
    int rd = oc_parse_double(text, -1e300, 1e300, &d);
    int rdn = oc_parse_double(text, 0, 1, &dn);
    FUZZ_CHECK(rd == 0 || rd == OC_EPARSE || rd == OC_ERANGE);
    if (rd == 0) {
        FUZZ_CHECK(isfinite(d) && d >= -1e300 && d <= 1e300);
        int inside = d >= 0 && d <= 1;
        FUZZ_CHECK(inside ? rdn == 0 && dn == d : rdn == OC_ERANGE);
    } else if (rd == OC_EPARSE) {
        FUZZ_CHECK(rdn == OC_EPARSE);
    }
    free(text);
    return 0;
}
