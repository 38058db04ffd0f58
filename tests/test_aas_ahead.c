/*
 * test_aas_ahead.c — the direct networks' all-to-alls say what cannot run before the work
 * (issue 27 item 4, issue 31 item 3; src/aas):
 *  (a) cartesian's offers carry their exact transfers (oc__bound.transfers: a candidate over the
 *      search's mapping budget is skipped without being generated): on tori of 1 to 3 sides,
 *      N = 5, 7, 12, 31, 96, 97, 100, every candidate the search logs with a count has the count
 *      its schedule has when run pinned on a torus of its own dims (a count one transfer off
 *      fails), and at N = 1000 on the torus's own 1000 x 1 the refusal comes with no candidate
 *      generated (the search's log: the over-budget one never mapped, its reason the count);
 *  (b) dex-interleave and bex on a store-and-forward mesh are refused by their search hooks,
 *      before the plan packs its moves or a candidate maps a round, with the reason the model
 *      would give later (a move of more than one hop), and run where the mesh is 2 x 2 or
 *      wormhole;
 *  (c) the micro-permutation packer (micro_sched.c, which checks a route's links as it walks
 *      them) packs exactly the rounds of the plain list scheduling written out here, on random
 *      moves of meshes and tori of sides 1 to 9 with chains of moves that wait for another.
 */
#include "aas/micro_sched.h"
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* ---- (a) cartesian's counts ---- */

static uint64_t pinned_transfers(uint32_t N, const char *dims) {
    char pin[64], net[96], why[512] = "";
    snprintf(pin, sizeof pin, "dims=%s", dims);
    snprintf(net, sizeof net, "dims=%s switching=wh", dims);
    int err;
    oc_report *rep =
        run_words("torus", OC_ALLTOALL, "cartesian", N, 4096, pin, net, 0, &err, why, sizeof why);
    CHECK(!err && rep, "cartesian N=%u dims=%s pinned: %s", N, dims, why);
    const uint64_t t = !err && rep ? rep->transfers : 0;
    oc_report_free(rep);
    return t;
}

static void cartesian_counts(uint32_t N, const char *net) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words("torus", OC_ALLTOALL, "cartesian", N, 4096, NULL, net, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "cartesian N=%u %s: %s", N, net, why);
    for (size_t i = 0; !err && rep && rep->search && i < rep->search->n; i++) {
        const oc__search_entry *e = &rep->search->entry[i];
        const char *dims = e->params ? oc_kv_get(e->params, "dims") : NULL;
        if (!dims) continue;
        CHECK(e->transfers > 0, "cartesian N=%u %s: %s offered without its count", N, net, e->text);
        const uint64_t t = pinned_transfers(N, dims);
        CHECK(t == e->transfers, "cartesian N=%u %s: %s counted %llu transfers, has %llu", N, net,
              e->text, (unsigned long long)e->transfers, (unsigned long long)t);
    }
    oc_report_free(rep);
}

static void cartesian_refused_ahead(void) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words("torus", OC_ALLTOALL, "cartesian", 1000, 4096, NULL, NULL, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "499500000 transfers") != NULL,
          "cartesian N=1000 on T(1000): refused by its count, not after generating: %s", why);
    oc_report_free(rep);
}

/* ---- (b) dex-interleave and bex on store-and-forward ---- */

static void sf_refused(const char *algo, uint32_t N, const char *pin, const char *net, int runs) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words("mesh", OC_ALLTOALL, algo, N, 4096, pin, net, 0, &err, why, sizeof why);
    if (runs)
        CHECK(!err && rep, "%s N=%u %s: %s", algo, N, net ? net : "", why);
    else
        CHECK(err == OC_ENOTSUP && strstr(why, "store-and-forward") && !strstr(why, "round "),
              "%s N=%u %s: refused before any round? %d %s", algo, N, net ? net : "", err, why);
    oc_report_free(rep);
}

/* ---- (c) the packer against the plain list scheduling ---- */

static int64_t delta(const oc__micro_grid *g, uint32_t z, uint32_t a, uint32_t b) {
    if (!g->wrap || z < 3) return (int64_t)b - (int64_t)a;
    const uint32_t f = b >= a ? b - a : b + z - a;
    return f <= z - f ? (int64_t)f : -(int64_t)(z - f);
}

static size_t route(const oc__micro_grid *g, uint32_t a, uint32_t b, uint32_t *out) {
    size_t n = 0;
    uint32_t c[2] = {a % g->z[0], a / g->z[0]};
    const uint32_t t[2] = {b % g->z[0], b / g->z[0]};
    for (uint32_t i = 0; i < 2; i++) {
        const uint32_t z = g->z[i];
        const int64_t d = delta(g, z, c[i], t[i]);
        const int neg = d < 0;
        for (int64_t k = neg ? -d : d; k > 0; k--) {
            out[n++] = ((c[0] + g->z[0] * c[1]) * 2 + i) * 2 + (uint32_t)neg;
            c[i] = neg ? (c[i] == 0 ? z - 1 : c[i] - 1) : (c[i] + 1 == z ? 0 : c[i] + 1);
        }
    }
    return n;
}

/* Every round, every pending move in order of index, taken when its sender, receiver and
 * route's links are free and the move it waits for went earlier. */
static uint32_t plain_pack(const oc__micro_grid *g, const oc__move *m, size_t n, uint32_t *ro) {
    const uint32_t N = g->z[0] * g->z[1];
    uint32_t *send = calloc(N, 4), *recv = calloc(N, 4), *link = calloc(4 * (size_t)N, 4);
    uint32_t path[64], r = 0;
    size_t left = n;
    for (size_t i = 0; i < n; i++)
        ro[i] = UINT32_MAX;
    while (left && send && recv && link) {
        const uint32_t stamp = r + 1;
        for (size_t i = 0; i < n; i++) {
            if (ro[i] != UINT32_MAX) continue;
            int fits = send[m[i].from] != stamp && recv[m[i].to] != stamp &&
                       (!m[i].after || ro[m[i].after - 1] < r);
            const size_t h = route(g, m[i].from, m[i].to, path);
            for (size_t j = 0; fits && j < h; j++)
                fits = link[path[j]] != stamp;
            if (!fits) continue;
            send[m[i].from] = recv[m[i].to] = stamp;
            for (size_t j = 0; j < h; j++)
                link[path[j]] = stamp;
            ro[i] = r;
            left--;
        }
        r++;
    }
    free(send), free(recv), free(link);
    return r;
}

static void packer(uint32_t X, uint32_t Y, int wrap, size_t n, unsigned seed) {
    const oc__micro_grid g = {{X, Y}, wrap};
    const uint32_t N = X * Y;
    oc__move *m = calloc(n, sizeof *m);
    uint32_t *ro = calloc(n, sizeof *ro), *got = NULL, rounds = 0;
    srand(seed);
    for (size_t i = 0; i < n && m; i++) {
        const uint32_t a = (uint32_t)rand() % N;
        uint32_t b = (uint32_t)rand() % N;
        if (b == a) b = (a + 1) % N;
        /* every fourth move waits for an earlier one */
        const uint32_t after = i && rand() % 4 == 0 ? 1 + (uint32_t)rand() % (uint32_t)i : 0;
        m[i] = (oc__move){a, b, b, a, after};
    }
    char why[256] = "";
    const int rc = m && ro ? oc__micro_pack(&g, m, n, &got, &rounds, why, sizeof why) : OC_ENOMEM;
    CHECK(rc == 0, "pack %ux%u wrap=%d: %s", X, Y, wrap, why);
    if (!rc) {
        const uint32_t want = plain_pack(&g, m, n, ro);
        size_t same = 0;
        for (size_t i = 0; i < n; i++)
            same += got[i] == ro[i];
        CHECK(rounds == want && same == n,
              "pack %ux%u wrap=%d seed %u: %u rounds, the plain packing %u; %zu of %zu moves in "
              "the same round",
              X, Y, wrap, seed, rounds, want, same, n);
    }
    free(m), free(ro), free(got);
}

int main(void) {
    static const uint32_t Ns[] = {5, 7, 12, 31, 96, 97, 100};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        cartesian_counts(Ns[i], NULL);
    cartesian_counts(12, "dims=4x3");
    cartesian_counts(96, "dims=8x4x3");
    cartesian_counts(100, "dims=10x10 switching=wh");
    cartesian_refused_ahead();

    sf_refused("dex-interleave", 12, NULL, NULL, 0);
    sf_refused("dex-interleave", 3, NULL, NULL, 0);
    sf_refused("dex-interleave", 1000, NULL, NULL, 0);
    sf_refused("dex-interleave", 4, NULL, NULL, 1); /* 2 x 2: every move one hop */
    sf_refused("dex-interleave", 12, NULL, "switching=wh", 1);
    sf_refused("dex-interleave", 97, NULL, "switching=wh", 1);
    sf_refused("bex", 8, NULL, NULL, 0);
    sf_refused("bex", 64, NULL, NULL, 0);
    sf_refused("bex", 64, "dims=64x1", NULL, 0); /* pinned to another shape: refused the same */
    sf_refused("bex", 4096, NULL, NULL, 0);
    sf_refused("bex", 4, NULL, NULL, 1); /* 2 x 2 */
    sf_refused("bex", 64, NULL, "switching=wh", 1);

    for (uint32_t X = 1; X <= 9; X += 2)
        for (uint32_t Y = 1; Y <= 9; Y += 4)
            for (int wrap = 0; wrap <= 1; wrap++)
                if (X * Y >= 2) packer(X, Y, wrap, 40 * X * Y, X * 100 + Y * 10 + (unsigned)wrap);
    return CHECK_SUMMARY();
}
