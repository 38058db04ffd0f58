/*
 * fuzz_params.c — the `--net KEY=VALUE` and `-p KEY=VALUE` values: oc_kv_set_pair, and every
 * network model and algorithm parsing its parameters when a run creates it (the models' create(),
 * the algorithms' parameter parsers and searches, src/net/, src/algo/).
 *
 * The input is text: a first line "NETWORK COLLECTIVE ALGORITHM N SIZE" (e.g. "ring allgather
 * optree 16 4KiB"), then one pair a line, "KEY=VALUE" for the network and "p KEY=VALUE" for the
 * algorithm, added with oc_kv_set_pair as the CLI adds them. The problem is kept small (N <= 64,
 * SIZE <= 1 MiB, no real-data execution) so that a run takes milliseconds; what is fuzzed is the
 * parameters. The run goes through oc_run: the model is created with the pairs, the schedule is
 * generated, verified and mapped under them. Promise checked: a run either passes with a report or
 * fails with a reason.
 */
#include "fuzz.h"

#include "opticoll.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) abort();
    char *text = fuzz_cstr(data, size);
    char *rest = fuzz_split(text, '\n');
    char *save = NULL;
    const char *net = strtok_r(text, " ", &save);
    const char *coll = strtok_r(NULL, " ", &save);
    const char *algo = strtok_r(NULL, " ", &save);
    const char *nodes = strtok_r(NULL, " ", &save);
    const char *bytes = strtok_r(NULL, " ", &save);
    oc_kv *params = oc_kv_new(), *net_params = oc_kv_new();
    if (!params || !net_params) abort();
    oc_request req;
    memset(&req, 0, sizeof req);
    uint64_t n = 0, s = 0;
    if (!bytes || oc_collective_from_name(coll, &req.collective) ||
        oc_parse_u64(nodes, 1, 64, &n) || oc_parse_size(bytes, &s) || s > (UINT64_C(1) << 20))
        goto out;
    while (*rest) {
        char *line = rest;
        rest = fuzz_split(line, '\n');
        int rc = strncmp(line, "p ", 2) == 0 ? oc_kv_set_pair(params, line + 2)
                                             : oc_kv_set_pair(net_params, line);
        FUZZ_CHECK(rc == 0 || rc == OC_EPARSE || rc == OC_EINVAL);
    }
    req.network = net;
    req.algorithm = algo;
    req.nodes = (uint32_t)n;
    req.bytes = s;
    req.params = params;
    req.net_params = net_params;
    req.skip_data_check = 1;
    char why[512];
    why[0] = 0;
    oc_report *rep = NULL;
    int rc = oc_run(&req, &rep, why, sizeof why);
    FUZZ_CHECK(rc <= 0);
    FUZZ_CHECK(rc ? rep == NULL && why[0] : rep != NULL);
    if (rep) FUZZ_CHECK(oc_report_write_json(rep, sink) == 0);
    oc_report_free(rep);
out:
    oc_kv_free(params);
    oc_kv_free(net_params);
    free(text);
    return 0;
}
