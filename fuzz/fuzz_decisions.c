/*
 * fuzz_decisions.c — `opticoll run -a auto --decisions FILE`: the decision file reader of
 * tools/cmd_tune.c (from_decisions, reached through its entry point oc__decisions_pick).
 *
 * The input is the file (a memfd, see fuzz.h), read as run reads it for one fixed request:
 * allgather on the ring with its default parameters, N = 16, 4 KiB. The seeds are files `tune -o`
 * wrote for that collective and network, so mutations start past the format checks and reach the
 * points, the nearest-point rule and the winner's name. Promise checked: either an algorithm of
 * the registry for this collective is chosen and the exit code is 0, or nothing is chosen and the
 * exit code says why (the reason went to stderr).
 */
#include "fuzz.h"

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static oc_kv *none;
    if (!none && !(none = oc_kv_new())) abort();
    char path[64];
    fuzz_file(data, size, path, sizeof path);
    oc_request req;
    memset(&req, 0, sizeof req);
    req.collective = OC_ALLGATHER;
    req.network = "ring";
    req.nodes = 16;
    req.bytes = 4096;
    req.net_params = none;
    req.params = none;
    int code = -1;
    const char *chosen = oc__decisions_pick(path, &req, "allgather", &code);
    if (!chosen) {
        FUZZ_CHECK(code > 0);
        return 0;
    }
    FUZZ_CHECK(code == 0);
    int known = 0;
    for (size_t i = 0; i < oc_algorithm_count(); i++)
        known |=
            oc_algorithm_at(i)->collective == OC_ALLGATHER && oc_algorithm_at(i)->name == chosen;
    FUZZ_CHECK(known);
    return 0;
}
