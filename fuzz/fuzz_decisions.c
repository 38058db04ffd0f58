/*
 * fuzz_decisions.c — `opticoll run -a auto --decisions FILE`: the library's decision file reader
 * (src/studies/tune.c: oc_tune_pick reads the file and checks it with oc_tune_pick_text, which is
 * what run -a auto calls on the text it read).
 *
 * The input is the file (a memfd, see fuzz.h), read as run reads it for one fixed request:
 * allgather on the ring with its default parameters, N = 16, 4 KiB. The seeds are files `tune -o`
 * wrote for that collective and network, so mutations start past the format checks and reach the
 * points, the nearest-point rule and the winner's name. Promise checked: either an algorithm of
 * the registry for this collective is chosen and 0 returned, or nothing is chosen and the error
 * is one the reader documents, with a reason.
 */
#include "fuzz.h"

#include "opticoll.h"

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
    oc_tune_choice c;
    char why[1024] = "";
    int rc = oc_tune_pick(path, &req, &c, why, sizeof why);
    if (rc) {
        FUZZ_CHECK((rc == OC_EPARSE || rc == OC_EIO || rc == OC_ETOOBIG || rc == OC_ENOMEM) &&
                   why[0] && !c.algorithm);
        return 0;
    }
    int known = 0;
    for (size_t i = 0; i < oc_algorithm_count(); i++)
        known |= oc_algorithm_at(i)->collective == OC_ALLGATHER &&
                 oc_algorithm_at(i)->name == c.algorithm;
    FUZZ_CHECK(known);
    return 0;
}
