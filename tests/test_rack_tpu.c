/*
 * test_rack_tpu.c — the rack's TPU baseline follows TPU-v4's optical circuit switches:
 * a request above a 4x4x4 cube takes ceil(g / 64) whole cubes, any free ones (the OCS join them),
 * so a 128-GPU tenant is placed on two free cubes that are not an aligned pair (it was rejected
 * before: "no free aligned slice of 128"), and 192 GPUs take three cubes (not a power of two; it
 * was rounded to 256 before). Requests within a cube keep the aligned power-of-two blocks. The
 * rack's own invariant check accepts whole cubes and the largest request follows the free cubes.
 */
#include "studies/rack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(void) {
    oc__rack_shape s = {8,    32,   8,   4, 4, UINT64_C(1) << 20,
                        NULL, NULL, NULL}; /* 256 chips: 4 cubes */
    oc__rack *r = NULL;
    char why[256] = "";
    CHECK(oc__rack_new(&s, OC__RACK_TPU, 16, &r, why, sizeof why) == 0, "%s", why);
    if (!r) return CHECK_SUMMARY();
    CHECK(oc__rack_largest(r) == 256, "empty rack: %u", oc__rack_largest(r));
    oc__rack_place p;
    for (uint32_t t = 0; t < 3; t++)
        CHECK(oc__rack_place_tenant(r, t, 64, &p, why, sizeof why) == 1 && p.allocated == 64,
              "cube %u: %s", t, why);
    CHECK(oc__rack_release(r, 1) == 0, "release cube 1");
    /* free: cubes 1 and 3, not an aligned pair of 128 */
    CHECK(oc__rack_largest(r) == 128, "two free cubes: %u", oc__rack_largest(r));
    CHECK(oc__rack_place_tenant(r, 3, 128, &p, why, sizeof why) == 1 && p.allocated == 128,
          "128 on cubes 1 and 3: %s", why);
    CHECK(oc__rack_owner(r, 64) == 3 && oc__rack_owner(r, 192) == 3 && oc__rack_owner(r, 128) == 2,
          "owners %ld %ld %ld", (long)oc__rack_owner(r, 64), (long)oc__rack_owner(r, 192),
          (long)oc__rack_owner(r, 128));
    CHECK(oc__rack_check(r, why, sizeof why) == 0, "check: %s", why);
    oc__rack_free(r);

    r = NULL;
    CHECK(oc__rack_new(&s, OC__RACK_TPU, 16, &r, why, sizeof why) == 0, "%s", why);
    if (!r) return CHECK_SUMMARY();
    CHECK(oc__rack_place_tenant(r, 0, 130, &p, why, sizeof why) == 1 && p.allocated == 192,
          "130 -> 3 cubes: %u %s", p.allocated, why);
    CHECK(oc__rack_place_tenant(r, 1, 5, &p, why, sizeof why) == 1 && p.allocated == 8 &&
              p.first % 8 == 0,
          "5 -> an aligned 8 in the last cube: %u at %u", p.allocated, p.first);
    CHECK(oc__rack_place_tenant(r, 2, 100, &p, why, sizeof why) == 0 && strstr(why, "56 GPUs free"),
          "100 with 56 free: %s", why);
    CHECK(oc__rack_check(r, why, sizeof why) == 0, "check: %s", why);
    oc__rack_free(r);
    return CHECK_SUMMARY();
}
