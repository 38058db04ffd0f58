/*
 * rack_fig2a.c — the Lumorph seed's Fig. 2a, replayed: two servers of eight tiles with three
 * users placed, and a fourth asking for four tiles that only Lumorph's any-tiles placement can give
 * (two on each server, over the fibres), while the TPU-like cubes and SiPAC's aligned blocks find
 * no block of four; each placed request's all-reduce run as the replay runs it (rack_replay.c),
 * and whether the outcome agrees with the figure.
 */
#include "studies/rack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Fig. 2a ----------------------------------------------------------------------------------
 */

/* The scenario: 2 servers x 8 tiles, 2 fibres per ordered pair; User 1 holds 6 tiles of server 0
 * (ring, Fig. 2b), Users 2 and 3 hold 4 and 2 tiles of server 1; the 4 free tiles are 2 + 2 on the
 * two servers, in two different aligned 4-blocks. The same 16 chips as a TPU-like torus and as
 * SiPAC(2,4) (16 GPUs: Fig. 3's SiPAC(2,3) one level up). */
int oc_rack_fig2a(FILE *out, int *agrees_out, char *why, size_t whylen) {
    if (agrees_out) *agrees_out = 0;
    const oc__rack_shape s = {.servers = 2,
                              .tiles = 8,
                              .fibres = 2,
                              .sipac_r = 2,
                              .sipac_l = 4,
                              .bytes = UINT64_C(64) << 20};
    static const struct {
        const char *name;
        uint32_t first, count;
    } users[3] = {{"User 1", 0, 6}, {"User 2", 8, 4}, {"User 3", 12, 2}};
    const uint32_t ask = 4;
    oc__rack_ar_cache cache = {NULL, 0, 0, s.bytes, NULL};
    uint64_t runs = 0;
    oc__rack *r[OC__RACK_ARCHS] = {NULL, NULL, NULL};
    int rc = 0, placed[OC__RACK_ARCHS] = {0, 0, 0};
    oc__rack_place p[OC__RACK_ARCHS];
    char reason[OC__RACK_ARCHS][128];
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        if ((rc = oc__rack_new(&s, (oc__rack_arch)a, 4, &r[a], why, whylen))) break;
        for (int u = 0; u < 3 && !rc; u++)
            rc = oc__rack_occupy(r[a], (uint32_t)u, users[u].first, users[u].count, why, whylen);
        if (rc) break;
        reason[a][0] = 0;
        int ok = oc__rack_place_tenant(r[a], 3, ask, &p[a], reason[a], sizeof reason[a]);
        if (ok < 0) {
            rc = oc__fail(why, whylen, ok, "%s", reason[a]);
            break;
        }
        placed[a] = ok;
        rc = oc__rack_check(r[a], why, whylen);
    }
    if (rc) goto out;
    fputs("Fig. 2a: multi-tenant allocation (section 3)\n"
          "  paper:   \"allocating the request of four chips for User 4 is feasible with Lumorph; "
          "in existing\n"
          "           architectures, this free compute could not be utilized\" (the figure gives "
          "no numbers)\n",
          out);
    fprintf(out,
            "  rack:    %u servers x %u tiles = %u GPUs, %u fibres per ordered server pair; the "
            "same %u chips\n           as a TPU-like torus (aligned 2^a x 2^b x 2^c slices) and as "
            "SiPAC(%u,%u) (sub-BCubes of %u^k)\n",
            s.servers, s.tiles, s.servers * s.tiles, s.fibres, s.servers * s.tiles, s.sipac_r,
            s.sipac_l, s.sipac_r);
    fputs("  placed:  ", out);
    for (int u = 0; u < 3; u++) {
        oc__rack_place up = {
            .servers = 1, .max_per_server = users[u].count, .min_per_server = users[u].count};
        up.rhd_circuits = oc__rack_is_pow(users[u].count, 2);
        oc__rack_ar ar;
        if ((rc = oc__rack_tenant_ar(&cache, OC__RACK_LUMORPH, users[u].count, &up, &ar, &runs, why,
                                     whylen)))
            goto out;
        char art[64];
        oc__rack_ar_text(art, sizeof art, &ar);
        fprintf(out, "%s%s: %u GPUs, server %u tiles %u-%u (%s)", u ? ";\n           " : "",
                users[u].name, users[u].count, users[u].first / s.tiles, users[u].first % s.tiles,
                (users[u].first + users[u].count - 1) % s.tiles, art);
    }
    fputs("\n  free:    ", out);
    uint32_t nfree = 0; /* before User 4: free now, or given to User 4 (tenant 3) */
    for (uint32_t sv = 0; sv < s.servers; sv++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t k = 0; k < s.tiles; k++) {
            const int64_t o = oc__rack_owner(r[OC__RACK_LUMORPH], sv * s.tiles + k);
            if (o >= 0 && o != 3) continue;
            if (lo == UINT32_MAX) lo = k;
            hi = k;
            nfree++;
        }
        /* the scenario's free tiles are one run per server */
        if (lo != UINT32_MAX) fprintf(out, "%sserver %u tiles %u-%u", sv ? ", " : "", sv, lo, hi);
    }
    fprintf(out, " (%u GPUs)\n  User 4 asks for %u chips:\n", nfree, ask);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        char label[32], line[256];
        oc__rack_arch_label(label, sizeof label, &s, a);
        if (!placed[a]) {
            const char *shape = a == OC__RACK_TPU ? " (2x2x1)" : "";
            snprintf(line, sizeof line, "rejected: %s%s: the free chips span two aligned 4-blocks",
                     reason[a], shape);
        } else {
            oc__rack_ar ar;
            if ((rc = oc__rack_tenant_ar(&cache, (oc__rack_arch)a, ask, &p[a], &ar, &runs, why,
                                         whylen)))
                goto out;
            char art[64];
            oc__rack_ar_text(art, sizeof art, &ar);
            snprintf(line, sizeof line,
                     "placed: tiles on %u servers, %u fibres reserved (%s circuits);\n"
                     "                 all-reduce of 64 MiB: %s, verified on %s",
                     p[a].servers, p[a].fibres, p[a].rhd_circuits ? "rhd" : "ring", art,
                     a == OC__RACK_LUMORPH ? "fabric" : "switch");
        }
        fprintf(out, "    %-12s %s\n", label, line);
    }
    /* The same arrivals under each rack's own rules: the fixed-slice racks round Users 1-3 up. */
    fputs("  own rules (Users 1-4 arrive in turn, each rack placing them itself):\n", out);
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        oc__rack *q;
        if ((rc = oc__rack_new(&s, (oc__rack_arch)a, 4, &q, why, whylen))) goto out;
        char label[32];
        oc__rack_arch_label(label, sizeof label, &s, a);
        fprintf(out, "    %-12s", label);
        for (uint32_t u = 0; u < 4; u++) {
            const uint32_t g = u < 3 ? users[u].count : ask;
            oc__rack_place pp;
            char rs[128] = "";
            int ok = oc__rack_place_tenant(q, u, g, &pp, rs, sizeof rs);
            if (ok < 0) {
                rc = oc__fail(why, whylen, ok, "%s", rs);
                oc__rack_free(q);
                goto out;
            }
            if (ok)
                fprintf(out, " User %u: %u of %u GPUs at %u;", u + 1, pp.allocated, g, pp.first);
            else
                fprintf(out, " User %u (%u): rejected, %s;", u + 1, g, rs);
        }
        fputc('\n', out);
        rc = oc__rack_check(q, why, whylen);
        oc__rack_free(q);
        if (rc) goto out;
    }
    const int agrees = placed[OC__RACK_LUMORPH] && !placed[OC__RACK_TPU] && !placed[OC__RACK_SIPAC];
    fprintf(out,
            "  outcome: %s: lumorph joins the free tiles of two servers with circuits over spare "
            "fibres;\n           fixed slices need an aligned free block, and none of 4 is free\n",
            agrees ? "agrees with the paper" : "DIFFERS from the paper");
    if (agrees_out) *agrees_out = agrees;
    rc = ferror(out) ? OC_EIO : 0;
out:
    for (int a = 0; a < OC__RACK_ARCHS; a++)
        oc__rack_free(r[a]);
    free(cache.e);
    return rc;
}
