/*
 * fuzz_rack_trace.c — `opticoll rack --trace FILE`: the trace reader oc__rack_trace_parse
 * (src/studies/rack.c) and, on a small trace it accepts, the replay on the three racks.
 *
 * The rack is small (4 servers x 8 tiles, 2 fibres, SiPAC(2, 5), 1 MiB all-reduces) so that a
 * replay, which runs every placed tenant's all-reduce through oc_run and checks the racks'
 * invariants after every event, takes milliseconds. Promises checked on a trace it accepts: the
 * events are in time order, refer to tenants that exist, and each tenant asks for 1 .. 32 GPUs
 * and arrives at a time that is not negative.
 */
#include "fuzz.h"

#include "studies/rack.h"

enum { RACK_GPUS = 32, REPLAY_MAX_TENANTS = 24 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const oc__rack_shape shape = {.servers = 4,
                                  .tiles = 8,
                                  .fibres = 2,
                                  .sipac_r = 2,
                                  .sipac_l = 5,
                                  .bytes = UINT64_C(1) << 20};
    char why[512];
    why[0] = 0;
    FUZZ_CHECK(oc__rack_shape_check(&shape, why, sizeof why) == 0);
    oc__rack_trace t;
    int rc = oc__rack_trace_parse((const char *)data, size, "fuzz.trace", RACK_GPUS, &t, why,
                                  sizeof why);
    FUZZ_CHECK(rc <= 0);
    if (rc) {
        FUZZ_CHECK(why[0] != 0);
        return 0;
    }
    for (size_t i = 0; i < t.ntenants; i++) {
        FUZZ_CHECK(t.tenants[i].gpus >= 1 && t.tenants[i].gpus <= RACK_GPUS);
        FUZZ_CHECK(t.tenants[i].arrive >= 0);
        FUZZ_CHECK(memchr(t.tenants[i].id, 0, sizeof t.tenants[i].id) != NULL);
    }
    for (size_t i = 0; i < t.nevents; i++) {
        FUZZ_CHECK(t.events[i].tenant < t.ntenants);
        FUZZ_CHECK(i == 0 || t.events[i].time >= t.events[i - 1].time);
    }
    if (t.ntenants <= REPLAY_MAX_TENANTS) {
        oc__rack_result res;
        rc = oc__rack_replay(&shape, &t, &res, why, sizeof why);
        FUZZ_CHECK(rc <= 0);
        if (!rc) oc__rack_result_free(&res);
    }
    oc__rack_trace_free(&t);
    return 0;
}
