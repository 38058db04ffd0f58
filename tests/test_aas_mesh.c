/*
 * test_aas_mesh.c — cartesian on meshes: the all-to-all notes' cartesian-product AAS
 * ("Higher-dimensional mesh/torus") is given for tori only; on the mesh the notes say "Analogous
 * algorithm for 2-D mesh is similar" and no more. cartesian on a mesh is refused with that section
 * cited, pinned or not, at odd, prime and non-power N (before, the refusal was the generic "runs
 * on torus, not on mesh"); on the torus of the same shape it still runs, verified.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include "check.h"
#include "model_map.h"

int main(void) {
    static const struct {
        uint32_t N;
        const char *dims;
    } cases[] = {{16, "4x4"}, {12, "4x3"}, {7, "7"}, {100, "10x10"}, {27, "3x3x3"}, {2, "2"}};
    char why[512], net[64], pin[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint32_t N = cases[i].N;
        snprintf(net, sizeof net, "dims=%s", cases[i].dims);
        snprintf(pin, sizeof pin, "dims=%s", cases[i].dims);
        for (int pinned = 0; pinned < 2; pinned++) {
            int err;
            oc_report *rep = run_net("mesh", OC_ALLTOALL, "cartesian", N, 64, pinned ? pin : NULL,
                                     net, &err, why, sizeof why);
            CHECK(!rep && err == OC_ENOTSUP && strstr(why, "Higher-dimensional mesh/torus") &&
                      strstr(why, "Analogous algorithm for 2-D mesh is similar"),
                  "mesh N=%u %s: %s", N, pinned ? pin : "unpinned", why);
            oc_report_free(rep);
        }
        int err;
        oc_report *rep =
            run_net("torus", OC_ALLTOALL, "cartesian", N, 64, pin, net, &err, why, sizeof why);
        CHECK(!err && oc_report_verified(rep), "torus N=%u: %s", N, why);
        oc_report_free(rep);
    }
    return CHECK_SUMMARY();
}
