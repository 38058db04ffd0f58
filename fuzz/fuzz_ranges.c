/*
 * fuzz_ranges.c — the node and size lists of `sweep` and `tune` (`--nodes 3,5,12`, `2..64`,
 * `4..100:+8`, `--sizes 4KiB..64MiB:*16`), parsed by tools/points.c as the CLI parses them.
 *
 * The input is two lines: the --nodes list, then the --sizes list. They go through sweep_parse
 * with `-c allgather -t ring`, the whole option parser of the two commands (its failures print
 * one line on stderr and return an exit code). Promises checked on lists it accepts: both are
 * non-empty, strictly increasing (sorted, repeats dropped), at most MAX_LIST long, node counts in
 * 1 .. OC_MAX_NODES and sizes at most OC_MAX_BYTES.
 */
#include "fuzz.h"

#include "points.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *nodes = fuzz_cstr(data, size);
    char *sizes = fuzz_split(nodes, '\n');
    /* argv[0] is the command's name, as getopt_long expects (tools/cli.h) */
    char *argv[] = {"sweep",   "-c",  "allgather", "-t",  "ring",
                    "--nodes", nodes, "--sizes",   sizes, NULL};
    sweep_args a;
    int rc = sweep_parse(9, argv, "sweep", "", &a);
    FUZZ_CHECK(rc >= 0); /* -1 is --help, which is not among the arguments */
    if (!rc) {
        FUZZ_CHECK(a.nnodes >= 1 && a.nnodes <= MAX_LIST);
        FUZZ_CHECK(a.nsizes >= 1 && a.nsizes <= MAX_LIST);
        for (size_t i = 0; i < a.nnodes; i++) {
            FUZZ_CHECK(a.nodes[i] >= 1 && a.nodes[i] <= OC_MAX_NODES);
            FUZZ_CHECK(i == 0 || a.nodes[i] > a.nodes[i - 1]);
        }
        for (size_t i = 0; i < a.nsizes; i++) {
            FUZZ_CHECK(a.sizes[i] <= OC_MAX_BYTES);
            FUZZ_CHECK(i == 0 || a.sizes[i] > a.sizes[i - 1]);
        }
    }
    sweep_args_free(&a);
    free(nodes);
    return 0;
}
