/*
 * test_aasalgo.c — tests of the all-port hypercube schedule table (src/aas/hypercube_table.c)
 * and the all-to-all algorithms hypercube-opt, bex and qex (all-to-all-scatter-notes).
 *
 *  - The n = 4 table built by code equals the notes' table, hard-coded here from the notes' text.
 *  - Constraints (a)-(c) hold for n = 0..16 and fail for every single-entry change of the n = 4
 *    table and every single-bit flip for n = 5..8, with messages naming round, column and rule.
 *  - hypercube-opt is verified for n = 0..8, has 2^(n-1) rounds, every transfer crosses one
 *    hypercube link, every directed link carries one packet per round, and the packet-hops total
 *    n N^2 / 2 (shortest paths).
 *  - bex and qex are verified on every mesh shape they allow up to 16 x 16; their rounds are
 *    X + Y - 2 and 3 (sqrt N - 1); each round is contention-free under XY routing (checked here by
 *    routing each message, independently of any model) and 1-port; their messages carry N/2 and
 *    N/4 packets. Refusals (6 nodes, 3x5, 12, non-square qex) exit with clear messages.
 */
#include "aas/hypercube_table.h"
#include "algo/algos.h"
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"
#include "reproduce/reproduce_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* The notes' table for n = 4 ("Optimal scheduling table for AAS in all-port full-duplex SF Q4"),
 * rows = rounds 1..8, columns j = 0..3. */
static const char *const notes_q4[8][4] = {
    {"0011", "0110", "1100", "1000"}, {"0001", "0111", "1110", "1010"},
    {"0111", "0010", "1101", "1100"}, {"0101", "0011", "1111", "1110"},
    {"1011", "1110", "0100", "1001"}, {"1001", "1111", "0110", "1011"},
    {"1111", "1010", "0101", "1101"}, {"1101", "1011", "0111", "1111"}};

static uint32_t *table(unsigned n) {
    uint32_t *r = calloc((size_t)(n ? n << (n - 1) : 0) + 1, sizeof *r);
    if (!r || oc__hcube_table_build(n, r)) abort();
    return r;
}

static void test_table_q4(void) {
    uint32_t *r = table(4);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) {
            uint32_t v = (uint32_t)strtoul(notes_q4[i][j], NULL, 2);
            CHECK(r[i * 4 + j] == v, "round %d, j=%d: built %#x, notes %s", i + 1, j, r[i * 4 + j],
                  notes_q4[i][j]);
        }
    char buf[1024] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    oc__hcube_table_print(f, 4, r);
    fclose(f);
    CHECK(strstr(buf, "Round j=0  j=1  j=2  j=3") == buf, "header: %s", buf);
    CHECK(strstr(buf, "\n1     0011 0110 1100 1000\n") != NULL, "first row: %s", buf);
    CHECK(strstr(buf, "\n8     1101 1011 0111 1111\n") != NULL, "last row: %s", buf);
    free(r);
}

static void test_table_check(void) {
    char why[256];
    for (unsigned n = 0; n <= 16; n++) {
        uint32_t *r = table(n);
        why[0] = '\0';
        CHECK(oc__hcube_table_check(n, r, why, sizeof why) == 0, "n=%u: %s", n, why);
        free(r);
    }
    uint32_t *n1 = table(1);
    CHECK(n1[0] == 1, "n=1: one round sending relative address 1, got %u", n1[0]);
    free(n1);
    /* Every other value in every entry of the n = 4 table breaks a constraint. */
    uint32_t *r = table(4);
    int caught = 0, tried = 0;
    for (int x = 0; x < 32; x++) {
        const uint32_t keep = r[x];
        for (uint32_t v = 0; v < 20; v++) {
            if (v == keep) continue;
            r[x] = v;
            tried++;
            caught += oc__hcube_table_check(4, r, why, sizeof why) == OC_EVERIFY;
        }
        r[x] = keep;
    }
    CHECK(caught == tried, "n=4: %d of %d single-entry changes caught", caught, tried);
    /* The messages name the round, the column and the constraint. */
    r[1] = 0x2; /* round 1, j=1: 0010 keeps bit 1 but 0010 is in round 3 already */
    CHECK(oc__hcube_table_check(4, r, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "round 3, column j=1") && strstr(why, "constraint (c)"),
          "(c) message: %s", why);
    r[1] = 0x5; /* 0101: bit 1 = 0 */
    CHECK(oc__hcube_table_check(4, r, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "round 1, column j=1") && strstr(why, "constraint (a)"),
          "(a) message: %s", why);
    r[1] = 0x6;
    r[2] = r[3] = 0x8 | 0x4; /* round 1: 1100 in columns 2 and 3 */
    CHECK(oc__hcube_table_check(4, r, why, sizeof why) == OC_EVERIFY &&
              strstr(why, "round 1, columns j=2 and j=3") && strstr(why, "constraint (b)"),
          "(b) message: %s", why);
    free(r);
    /* Every single-bit flip for n = 5..8 (beyond the n bits too) is caught. */
    for (unsigned n = 5; n <= 8; n++) {
        uint32_t *t = table(n);
        caught = tried = 0;
        for (size_t x = 0; x < ((size_t)n << (n - 1)); x++)
            for (unsigned b = 0; b <= n; b++) {
                t[x] ^= 1u << b;
                tried++;
                caught += oc__hcube_table_check(n, t, why, sizeof why) == OC_EVERIFY;
                t[x] ^= 1u << b;
            }
        CHECK(caught == tried, "n=%u: %d of %d single-bit flips caught", n, caught, tried);
        free(t);
    }
    CHECK(oc__hcube_table_build(OC__HCUBE_MAX_DIM + 1, NULL) == OC_ERANGE, "n too large");
}

/* ---- schedules ---- */

/* Runs algo on N nodes of `net` with the network parameters netkv ("k=v,k=v" or NULL); dims, when
 * given, goes to the algorithm and to a mesh. */
static oc_report *run_on(const char *algo, uint32_t N, const char *net, const char *dims,
                         const char *netkv, int *err, char *why, size_t len) {
    char par[64] = "", np[256] = "";
    if (dims) snprintf(par, sizeof par, "dims=%s", dims);
    /* the mesh's dims first, so that netkv's own dims= wins */
    snprintf(np, sizeof np, "%s %s", dims && net && !strcmp(net, "mesh") ? par : "",
             netkv ? netkv : "");
    for (char *c = strchr(np, ','); c; c = strchr(c, ','))
        *c = ' ';
    return run_words(net, OC_ALLTOALL, algo, N, 64, par, np, 1, err, why, len);
}

static oc_report *run(const char *algo, uint32_t N, const char *net, const char *dims, int *err,
                      char *why, size_t len) {
    return run_on(algo, N, net, dims, NULL, err, why, len);
}

static int rounds_of(const char *name, uint32_t N, const char *dims, oc__store *st, char *why,
                     size_t len) {
    const oc__algo *a = oc__algo_find(OC_ALLTOALL, name);
    oc_kv *par = oc_kv_new();
    if (dims) oc_kv_set(par, "dims", dims);
    oc__plan plan;
    oc__store_init(st);
    int rc = a ? a->plan(&plan, OC_ALLTOALL, N, 0, 64, par, why, len) : OC_ENOENT;
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &st->sink, why, len);
        rc = a->generate(&plan, &e);
        oc__emit_free(&e);
    }
    if (a) oc__plan_free(a, &plan);
    oc_kv_free(par);
    return rc;
}

static void test_hypercube_opt(void) {
    char why[256];
    int err;
    for (unsigned n = 0; n <= 8; n++) {
        const uint32_t N = 1u << n;
        const uint64_t R = n ? UINT64_C(1) << (n - 1) : 0;
        oc_report *rep = run("hypercube-opt", N, "switch", NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "hypercube-opt n=%u: %s", n, why);
        if (rep) {
            CHECK(oc_report_rounds(rep) == R, "n=%u: %llu rounds, want %llu", n,
                  (unsigned long long)oc_report_rounds(rep), (unsigned long long)R);
            CHECK(rep->units == (uint64_t)n * N * N / 2, "n=%u: %llu packet-hops, want n N^2/2", n,
                  (unsigned long long)rep->units);
            /* the switch's one port serialises the n sends of a round */
            CHECK(oc_report_steps(rep) == n * R, "n=%u: %llu steps on the switch, want n 2^(n-1)",
                  n, (unsigned long long)oc_report_steps(rep));
        }
        oc_report_free(rep);
        /* the notes' model: all-port, full-duplex, SF, non-combining: 2^(n-1) steps, the lower
         * bound, and 2^(n-1) (ts + mu tm) with mu = 64 bytes and the model's defaults */
        rep = run_on("hypercube-opt", N, "hypercube", NULL, "ports=all,combining=no", &err, why,
                     sizeof why);
        CHECK(rep && oc_report_verified(rep), "hypercube-opt n=%u on the hypercube: %s", n, why);
        if (rep) {
            uint64_t lb = 0;
            double f = NAN;
            CHECK(oc_report_steps(rep) == R, "n=%u: %llu steps on the hypercube, want 2^(n-1)", n,
                  (unsigned long long)oc_report_steps(rep));
            CHECK(n == 0 || (oc_report_steps_lower_bound(rep, &lb) && lb == R),
                  "n=%u: lower bound %llu, want 2^(n-1)", n, (unsigned long long)lb);
            CHECK(oc_report_steps_formula(rep, &f) && f == (double)R, "n=%u: formula %g", n, f);
            /* the time form is ours (the notes give rounds only): time_closed_form_s */
            const double t = (double)R * (1e-6 + 64 * 1e-9);
            double ours = NAN;
            CHECK(close_to(oc_report_time(rep), t) &&
                      (n == 0 || (oc_report_number(rep, "time_closed_form_s", &ours) &&
                                  close_to(ours, t))),
                  "n=%u: time %g, ours %g, want %g", n, oc_report_time(rep), ours, t);
        }
        oc_report_free(rep);
        /* every transfer crosses one link; every directed link carries one packet per round */
        oc__store st;
        int rc = rounds_of("hypercube-opt", N, NULL, &st, why, sizeof why);
        CHECK(rc == 0 && st.count == R, "n=%u: %s", n, why);
        unsigned char *used = calloc((size_t)N * (n + 1), 1);
        int ok = 1;
        for (size_t i = 0; i < st.count && ok; i++) {
            memset(used, 0, (size_t)N * (n + 1));
            const oc__round *r = &st.rounds[i];
            ok = r->count == (size_t)N * n;
            for (size_t t = 0; t < r->count && ok; t++) {
                uint32_t x = r->xfers[t].src ^ r->xfers[t].dst, j = 0;
                while ((1u << j) < x)
                    j++;
                ok = x == (1u << j) && r->xfers[t].count == 1 &&
                     !used[r->xfers[t].src * (n + 1) + j]++;
            }
        }
        CHECK(ok, "n=%u: a round is not one packet on every directed link", n);
        free(used);
        oc__store_free(&st);
    }
    CHECK(!run("hypercube-opt", 12, "switch", NULL, &err, why, sizeof why) && err == OC_ENOTSUP &&
              strstr(why, "12 is not a power of two"),
          "12 nodes: %s", why);
}

/* Checks that every round of a mesh schedule (X columns, node = x + X y) is 1-port, that the
 * transfers between one pair in one round carry `packets` chunks together, and that the XY routes
 * of the round's messages share no directed link. */
static int mesh_rounds_ok(const oc__store *st, uint32_t X, uint32_t Y, uint64_t packets, char *why,
                          size_t len) {
    const uint32_t N = X * Y;
    uint32_t *to = malloc(N * sizeof *to), *from = malloc(N * sizeof *from);
    uint64_t *load = malloc(N * sizeof *load);
    /* directed links: 4 per node (+x, -x, +y, -y) out of the node */
    unsigned char *link = malloc((size_t)N * 4);
    int ok = to && from && load && link;
    for (size_t i = 0; i < st->count && ok; i++) {
        const oc__round *r = &st->rounds[i];
        for (uint32_t v = 0; v < N; v++)
            to[v] = from[v] = UINT32_MAX, load[v] = 0;
        memset(link, 0, (size_t)N * 4);
        for (size_t t = 0; t < r->count && ok; t++) {
            const uint32_t s = r->xfers[t].src, d = r->xfers[t].dst;
            if ((to[s] != UINT32_MAX && to[s] != d) || (from[d] != UINT32_MAX && from[d] != s)) {
                snprintf(why, len, "round %zu: node %u sends to two or %u receives from two", i, s,
                         d);
                ok = 0;
            }
            if (to[s] == UINT32_MAX) { /* a new message: route it X then Y */
                uint32_t x = s % X, y = s / X;
                const uint32_t dx = d % X, dy = d / X;
                while (ok && (x != dx || y != dy)) {
                    int dir = x < dx ? 0 : x > dx ? 1 : y < dy ? 2 : 3;
                    if (link[(x + X * y) * 4 + (uint32_t)dir]++) {
                        snprintf(why, len, "round %zu: link (%u,%u) dir %d used twice", i, x, y,
                                 dir);
                        ok = 0;
                    }
                    x = dir == 0 ? x + 1 : dir == 1 ? x - 1 : x;
                    y = dir == 2 ? y + 1 : dir == 3 ? y - 1 : y;
                }
            }
            to[s] = d;
            from[d] = s;
            load[s] += r->xfers[t].count;
        }
        for (uint32_t v = 0; v < N && ok; v++)
            if (to[v] != UINT32_MAX && load[v] != packets) {
                snprintf(why, len, "round %zu: node %u sends %llu packets, want %llu", i, v,
                         (unsigned long long)load[v], (unsigned long long)packets);
                ok = 0;
            }
    }
    free(to);
    free(from);
    free(load);
    free(link);
    return ok;
}

static void test_bex(void) {
    char why[256], dims[32];
    int err;
    /* the contention check itself: 0 -> 2 and 1 -> 3 on M(4,1) share the link 1 -> 2 */
    oc__store bad;
    oc__store_init(&bad);
    bad.rounds = calloc(1, sizeof *bad.rounds);
    bad.count = 1;
    if (!bad.rounds || oc__round_push(&bad.rounds[0], 0, 2, OC_OP_COPY, 0, 2) ||
        oc__round_push(&bad.rounds[0], 1, 3, OC_OP_COPY, 4, 2))
        abort();
    CHECK(!mesh_rounds_ok(&bad, 4, 1, 2, why, sizeof why) && strstr(why, "used twice"),
          "shared link not caught: %s", why);
    oc__store_free(&bad);
    for (uint32_t X = 1; X <= 16; X *= 2)
        for (uint32_t Y = 1; Y <= 16; Y *= 2) {
            const uint32_t N = X * Y;
            snprintf(dims, sizeof dims, "%ux%u", X, Y);
            oc_report *rep = run("bex", N, "switch", dims, &err, why, sizeof why);
            CHECK(rep && oc_report_verified(rep), "bex %s: %s", dims, why);
            if (rep)
                CHECK(oc_report_rounds(rep) == X + Y - 2, "bex %s: %llu rounds, want X+Y-2", dims,
                      (unsigned long long)oc_report_rounds(rep));
            oc_report_free(rep);
            /* on the WH combining 1-port mesh every round is one step and the time is our exact
             * form: R ts + sum D^2 td + R (N/2) mu tm (model defaults ts 1 us, td 0.05 us,
             * tm 1 ns/B; mu = 64 B), with R = X + Y - 2 and sum D^2 over both sides */
            rep = run_on("bex", N, "mesh", dims, "switching=wh", &err, why, sizeof why);
            CHECK(rep && oc_report_verified(rep), "bex %s on the mesh: %s", dims, why);
            if (rep) {
                const double R = X + Y - 2, d2 = (X * X - 1) / 3.0 + (Y * Y - 1) / 3.0;
                const double t = R * 1e-6 + d2 * 0.05e-6 + R * (N / 2.0) * 64 * 1e-9;
                CHECK(oc_report_steps(rep) == R, "bex %s: %llu steps on the mesh, want %g", dims,
                      (unsigned long long)oc_report_steps(rep), R);
                CHECK(close_to(oc_report_time(rep), t) &&
                          close_to(num(rep, "time_closed_form_s"), t),
                      "bex %s: time %g, closed form %g, want %g", dims, oc_report_time(rep),
                      num(rep, "time_closed_form_s"), t);
                if (X == Y && X > 1) /* the notes' rough form, reported, not asserted equal */
                    CHECK(close_to(rep->time_formula_s,
                                   X * 1e-6 + 2.0 * N * 0.05e-6 / 3 + N * (double)X * 64 * 1e-9),
                          "bex %s: notes' form %g", dims, rep->time_formula_s);
            }
            oc_report_free(rep);
            oc__store st;
            CHECK(rounds_of("bex", N, dims, &st, why, sizeof why) == 0, "bex %s: %s", dims, why);
            CHECK(mesh_rounds_ok(&st, X, Y, N / 2, why, sizeof why), "bex %s: %s", dims, why);
            oc__store_free(&st);
        }
    /* planned for 4x4 (pinned) but run on an 8x2 mesh: still verified, no closed form */
    oc_report *mis =
        run_on("bex", 16, "mesh", "4x4", "dims=8x2,switching=wh", &err, why, sizeof why);
    CHECK(mis && oc_report_verified(mis) && isnan(num(mis, "time_closed_form_s")),
          "bex 4x4 on an 8x2 mesh: %s", why);
    int noted = 0;
    for (size_t i = 0; mis && i < mis->nnotes; i++)
        noted |= strstr(mis->notes[i], "planned for a 4x4 mesh") != NULL;
    CHECK(noted, "bex 4x4 on an 8x2 mesh: no note says so");
    oc_report_free(mis);
    /* the default shape: the squarest, X >= Y */
    oc_report *rep = run("bex", 32, NULL, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_rounds(rep) == 8 + 4 - 2 && !strcmp(oc_report_param(rep, "dims"), "8x4"),
          "bex 32 default: %s", why);
    oc_report_free(rep);
    CHECK(!run("bex", 6, "switch", NULL, &err, why, sizeof why) && err == OC_ENOTSUP &&
              strstr(why, "bex needs a mesh with power-of-two sides") &&
              strstr(why, "6 nodes is not a power of two"),
          "6 nodes: %s", why);
    CHECK(!run("bex", 15, "switch", "3x5", &err, why, sizeof why) && err == OC_ENOTSUP &&
              strstr(why, "dims=3x5"),
          "3x5: %s", why);
    CHECK(!run("bex", 16, "switch", "2x4", &err, why, sizeof why) && err == OC_EINVAL &&
              strstr(why, "not N = 16"),
          "2x4 for 16: %s", why);
    CHECK(!run("bex", 16, "switch", "4by4", &err, why, sizeof why) && err == OC_EPARSE, "4by4: %s",
          why);
}

static uint32_t senders(const oc__round *r, uint32_t N) {
    unsigned char *seen = calloc(N, 1);
    uint32_t c = 0;
    for (size_t t = 0; seen && t < r->count; t++)
        c += !seen[r->xfers[t].src]++;
    free(seen);
    return c;
}

static void test_qex(void) {
    char why[256], dims[32];
    int err;
    for (uint32_t S = 1; S <= 16; S *= 2) {
        const uint32_t N = S * S;
        snprintf(dims, sizeof dims, "%ux%u", S, S);
        oc_report *rep = run("qex", N, "switch", NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "qex %s: %s", dims, why);
        if (rep)
            CHECK(oc_report_rounds(rep) == 3 * (S - 1), "qex %s: %llu rounds, want 3(S-1)", dims,
                  (unsigned long long)oc_report_rounds(rep));
        oc_report_free(rep);
        /* on the WH combining 1-port mesh: 3(S-1) steps and our form
         * 3(S-1) ts + 4(N-1)/3 td + 3/4 (S-1) N mu tm */
        rep = run_on("qex", N, "mesh", dims, "switching=wh", &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "qex %s on the mesh: %s", dims, why);
        if (rep) {
            const double t =
                3.0 * (S - 1) * 1e-6 + 4.0 * (N - 1) / 3 * 0.05e-6 + 0.75 * (S - 1) * N * 64 * 1e-9;
            CHECK(oc_report_steps(rep) == 3 * (S - 1), "qex %s: %llu steps on the mesh", dims,
                  (unsigned long long)oc_report_steps(rep));
            CHECK(close_to(oc_report_time(rep), t) && close_to(num(rep, "time_closed_form_s"), t),
                  "qex %s: time %g, closed form %g, want %g", dims, oc_report_time(rep),
                  num(rep, "time_closed_form_s"), t);
        }
        oc_report_free(rep);
        /* all-port and half duplex: still verified (half duplex splits the exchanges) */
        rep = run_on("qex", N, "mesh", dims, "switching=wh,ports=all,duplex=half", &err, why,
                     sizeof why);
        CHECK(rep && oc_report_verified(rep), "qex %s half duplex: %s", dims, why);
        oc_report_free(rep);
        oc__store st;
        CHECK(rounds_of("qex", N, dims, &st, why, sizeof why) == 0, "qex %s: %s", dims, why);
        CHECK(mesh_rounds_ok(&st, S, S, N / 4, why, sizeof why), "qex %s: %s", dims, why);
        /* caption (c): a micro-round of the h = 4 phase on M(8,8) is 4 micro-AASs (16 nodes
         * send in each of its rounds); the h = 1 phase is one micro-round of all 64 nodes */
        if (S == 8 && st.count == 21) {
            CHECK(senders(&st.rounds[20], N) == 16, "qex 8x8 last round: %u senders",
                  senders(&st.rounds[20], N));
            CHECK(senders(&st.rounds[0], N) == 64, "qex 8x8 first round: %u senders",
                  senders(&st.rounds[0], N));
        }
        oc__store_free(&st);
    }
    CHECK(!run("qex", 8, "switch", NULL, &err, why, sizeof why) && err == OC_ENOTSUP &&
              strstr(why, "qex needs a square mesh") && strstr(why, "4x2 is not square"),
          "8 nodes: %s", why);
    CHECK(!run("qex", 6, "switch", NULL, &err, why, sizeof why) && err == OC_ENOTSUP, "6: %s", why);
    CHECK(!run("qex", 16, "switch", "8x2", &err, why, sizeof why) && err == OC_ENOTSUP,
          "qex 8x2: %s", why);
}

int main(void) {
    test_table_q4();
    test_table_check();
    test_hypercube_opt();
    test_bex();
    test_qex();
    return CHECK_SUMMARY();
}
