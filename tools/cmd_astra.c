/*
 * cmd_astra.c — `opticoll export --format astra-sim -o DIR` (export's other formats are in
 * opticoll.c): the Chakra traces and ASTRA-sim's network, system and memory configuration of
 * the same switch (src/formats/astra.c says which numbers and why), all in DIR or none of them.
 *
 * DIR is made when it is not there (and removed again when nothing could be written into it);
 * the files are one output group (output.h): each written whole into a temporary of its own and
 * renamed over its target only when every one of them is whole, so a failure half-way leaves an
 * older export in DIR as it was, never a mix of two.
 */
#include "cli.h"
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct astra_out {
    const char *dir;
    out_group files;
    int rc; /* the group's exit code, its line already printed */
} astra_out;

static int astra_file(void *ctx, const char *name, const void *data, size_t len) {
    astra_out *a = ctx;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", a->dir, name) >= sizeof path) {
        a->rc = die(EXIT_USAGE, "-o %s: the path is too long", a->dir, NULL);
        return OC_EINVAL;
    }
    a->rc = out_group_write_bytes(&a->files, path, data, len);
    return a->rc ? OC_EIO : 0;
}

int export_astra(options *o) {
    if (!o->output || !strcmp(o->output, "-"))
        return die(EXIT_USAGE, "--format astra-sim writes a directory of files: give -o DIR", NULL,
                   NULL);
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 1))) return rc;
    int failed = mkdir(o->output, 0777), made = !failed;
    if (failed && errno != EEXIST) return die(EXIT_USAGE, "-o %s: %s", o->output, strerror(errno));
    struct stat st;
    if (!made && (stat(o->output, &st) || !S_ISDIR(st.st_mode)))
        return die(EXIT_USAGE, "-o %s: not a directory", o->output, NULL);
    if (made) out_guard_dir(o->output);
    char why[512] = "";
    astra_out a = {o->output, {0}, 0};
    int err = oc_export_astra(&req, astra_file, &a, why, sizeof why);
    if (a.rc || err) {
        out_group_discard(&a.files);
        rc = a.rc ? a.rc : lib_error(err, why);
    } else {
        rc = out_group_commit(&a.files);
    }
    out_guard_dir(NULL);
    if (rc && made) rmdir(o->output); /* this run's DIR, empty when nothing was written */
    return rc;
}
