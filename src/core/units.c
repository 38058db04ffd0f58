/*
 * units.c — quantities written for people: a time in seconds or in its model's own unit, and a
 * byte count, exactly (oc_format_size: what SIZE reads back, for tables and reproductions) or
 * rounded (oc__format_bytes: a magnitude, for messages), both on one table of units. They sit in
 * core, below everything that writes a message or a table, so the pipeline's search log and the
 * verifier's refusals write "12.5 us" and "2.1 GiB" the way the reports do without reaching up
 * into report (ARCHITECTURE.md).
 */
#include "core/core.h"

#include <math.h>
#include <stdio.h>

/* snprintf's length as the formatters return it (a negative one, an encoding error that these
 * formats cannot make, as 0). */
static size_t written(int n) {
    return n > 0 ? (size_t)n : 0;
}

size_t oc_format_seconds(char *buf, size_t len, double s) {
    if (s == 0) return written(snprintf(buf, len, "0 s"));
    if (s < 1e-3) return written(snprintf(buf, len, "%.3f us", s * 1e6));
    if (s < 1) return written(snprintf(buf, len, "%.3f ms", s * 1e3));
    return written(snprintf(buf, len, "%.3f s", s));
}

size_t oc_format_time(char *buf, size_t len, double t, const char *unit, double unit_value) {
    if (!unit || !unit[0]) return oc_format_seconds(buf, len, t);
    return written(snprintf(buf, len, "%.6g %s", unit_value > 0 ? t / unit_value : t, unit));
}

/* The binary units of a byte count; 2^64 - 1 bytes is under 16 EiB. */
static const char *const byte_unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

size_t oc_format_size(char *buf, size_t len, uint64_t bytes) {
    size_t u = 0;
    while (u + 1 < sizeof byte_unit / sizeof byte_unit[0] && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    return written(snprintf(buf, len, "%llu %s", (unsigned long long)bytes, byte_unit[u]));
}

size_t oc_format_bytes(char *buf, size_t len, uint64_t bytes) {
    const char *const *unit = byte_unit;
    int u = 0;
    double v = (double)bytes;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v == floor(v)) return written(snprintf(buf, len, "%.0f %s", v, unit[u]));
    return written(snprintf(buf, len, "%.1f %s", v, unit[u]));
}
