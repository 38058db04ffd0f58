/*
 * readers.c — the large reader inputs of readers.h: written with plain stdio, read back through
 * the public API (oc_verify_file, oc_models_read), so what is timed is what `opticoll verify`
 * and `opticoll train --models` do.
 */
#include "readers.h"

#include "opticoll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[] = {"params", "network-params", "gather-desc", "msccl-tbs",
                                        "models"};
static const char *const kind_unit[] = {"keys", "keys", "ranges", "threadblocks/GPU", "models"};

const char *oc_reader_kind_name(int kind) {
    return kind >= 0 && kind < OC_RK_COUNT ? kind_name[kind] : "?";
}

const char *oc_reader_kind_unit(int kind) {
    return kind >= 0 && kind < OC_RK_COUNT ? kind_unit[kind] : "?";
}

/* An all-gather on 2 nodes in one round, with n keys in the object named `obj`. */
static void write_keys(FILE *f, size_t n, const char *obj, const char *network) {
    fprintf(f, "{\"collective\": \"allgather\", \"nodes\": 2, \"network\": %s, \"%s\": {", network,
            obj);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"key%zu\": \"%zu\"", i ? ", " : "", i, i);
    fputs("},\n \"rounds\": [[{\"src\": 0, \"dst\": 1, \"chunks\": [0, 1]}, "
          "{\"src\": 1, \"dst\": 0, \"chunks\": [1, 1]}]]}\n",
          f);
}

/* A gather to node 0 on 2 nodes of n chunks per block: node 1 sends its n chunks one by one,
 * the last first, all in one round. */
static void write_gather(FILE *f, size_t n) {
    fprintf(f,
            "{\"collective\": \"gather\", \"nodes\": 2, \"root\": 0, \"chunks_per_block\": %zu,\n"
            " \"rounds\": [[",
            n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{\"src\": 1, \"dst\": 0, \"chunks\": [%zu, 1]}", i ? ",\n" : "",
                2 * n - 1 - i);
    fputs("]]}\n", f);
}

/* An MSCCL all-gather on 2 GPUs, n chunks per block: threadblock k of each GPU sends its chunk
 * k to the other GPU and receives the other's chunk k, on channel k. */
static void write_msccl(FILE *f, size_t n) {
    fprintf(f,
            "<algo name=\"bench\" proto=\"Simple\" nchannels=\"%zu\" nchunksperloop=\"%zu\" "
            "ngpus=\"2\" coll=\"allgather\" inplace=\"1\">\n",
            n, 2 * n);
    for (size_t g = 0; g < 2; g++) {
        fprintf(f, "<gpu id=\"%zu\" i_chunks=\"%zu\" o_chunks=\"%zu\" s_chunks=\"0\">\n", g, 2 * n,
                2 * n);
        for (size_t k = 0; k < n; k++) {
            size_t mine = g * n + k, theirs = (1 - g) * n + k;
            fprintf(f,
                    "<tb id=\"%zu\" send=\"%zu\" recv=\"%zu\" chan=\"%zu\">"
                    "<step s=\"0\" type=\"s\" srcbuf=\"o\" srcoff=\"%zu\" dstbuf=\"o\" "
                    "dstoff=\"%zu\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>"
                    "<step s=\"1\" type=\"r\" srcbuf=\"o\" srcoff=\"%zu\" dstbuf=\"o\" "
                    "dstoff=\"%zu\" cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/></tb>\n",
                    k, 1 - g, 1 - g, k, mine, mine, theirs, theirs);
        }
        fputs("</gpu>\n", f);
    }
    fputs("</algo>\n", f);
}

int oc_reader_write(int kind, size_t n, const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    switch (kind) {
    case OC_RK_PARAMS:
        write_keys(f, n, "params", "null");
        break;
    case OC_RK_NET_PARAMS:
        write_keys(f, n, "network_params", "\"switch\"");
        break;
    case OC_RK_GATHER_DESC:
        write_gather(f, n);
        break;
    case OC_RK_MSCCL_TBS:
        write_msccl(f, n);
        break;
    case OC_RK_MODELS:
        fputs("# name\tparameters\tbatch\tsamples\n", f);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "m%zu\t1\t1\t1\n", i);
        break;
    default:
        break;
    }
    int bad = ferror(f);
    return fclose(f) || bad ? -1 : 0;
}

int oc_reader_read(const oc_settings *settings, int kind, size_t n, const char *path, char *why,
                   size_t len) {
    if (kind == OC_RK_MODELS) {
        oc_model *m = NULL;
        size_t count = 0;
        int rc = oc_models_read(settings, path, &m, &count, why, len);
        char last[32];
        snprintf(last, sizeof last, "m%zu", n - 1);
        if (!rc && (count != n || strcmp(m[n - 1].name, last) != 0)) {
            snprintf(why, len, "read %zu models, not %zu", count, n);
            rc = -1;
        }
        oc_models_free(m);
        return rc;
    }
    oc_report *rep = NULL;
    int rc = oc_verify_file(settings, path, NULL, NULL, &rep, why, len);
    if (kind == OC_RK_NET_PARAMS) {
        /* 200k keys no network has: refused at once, naming the first */
        oc_report_free(rep);
        if (rc == OC_ENOENT && strstr(why, "'key0'")) return 0;
        if (!rc) snprintf(why, len, "unknown network parameters accepted");
        return rc ? rc : -1;
    }
    if (!rc && !oc_report_verified(rep)) {
        snprintf(why, len, "not verified");
        rc = -1;
    }
    if (!rc && kind == OC_RK_PARAMS) {
        const oc_kv *p = oc_report_params(rep);
        char last[32];
        snprintf(last, sizeof last, "key%zu", n - 1);
        const char *v = oc_kv_get(p, last);
        if (oc_kv_count(p) != n || !v || strtoull(v, NULL, 10) != n - 1) {
            snprintf(why, len, "read %zu params, not %zu", oc_kv_count(p), n);
            rc = -1;
        }
    }
    oc_report_free(rep);
    return rc;
}
