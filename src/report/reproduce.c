#include "core/core.h"
int oc_reproduce(const char *paper, FILE *f, char *why, size_t len) {
    (void)f;
    return oc__fail(why, len, OC_ENOENT, "unknown paper '%s'", paper);
}
