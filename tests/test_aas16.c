/*
 * test_aas16.c — the all-to-all notes' items (all-to-all-scatter-notes, CS838 section 14):
 *
 *  - pairwise on the fabric: the closed form is the fabric's (N-1 rounds of alpha, N-1
 *    reconfigurations, one packet per round on a tile's circuit), met exactly on one server, not
 *    the switch's (N-1) one-packet steps;
 *  - hypercube-opt: the notes give its rounds (2^(n-1)) and no time, so the seed's time formula is
 *    empty and our time is reported as ours (time_closed_form_s);
 *  - cartesian on the k-D torus: verified on torus shapes of odd, prime and non-power sides, its
 *    steps the sum of (z_i - 1) and its time the sum of the 1-D pipelines' times;
 *  - dex-micro and dex-interleave (the notes' micro-permutation algorithms): verified, every round
 *    one step, at least the bounds, the Lemma's reading as dex-micro's formula;
 *  - bex and cartesian searches offer the network's own dims first and bound a shape that is not
 *    the network's by its link congestion, so a torus of another shape is searched tightly.
 */
#include "search_cases.h"

#include <stdlib.h>

static oc_report *run_net(const char *algo, const char *network, uint32_t N, uint64_t bytes,
                          const char *params, const char *net, char *why, size_t len) {
    oc_kv *par = oc_kv_new(), *np = oc_kv_new();
    kv_words(np, net);
    kv_words(par, params);
    oc_request req = {.collective = OC_ALLTOALL,
                      .algorithm = algo,
                      .network = network,
                      .nodes = N,
                      .bytes = bytes,
                      .params = par,
                      .net_params = np,
                      .skip_data_check = !(N <= 64),
                      .explain = 1};
    oc_report *rep = NULL;
    if (oc_run(&req, &rep, why, len)) rep = NULL;
    oc_kv_free(par);
    oc_kv_free(np);
    return rep;
}

static int has_note(const oc_report *rep, const char *part) {
    for (size_t i = 0; i < rep->nnotes; i++)
        if (strstr(rep->notes[i], part)) return 1;
    return 0;
}

/* pairwise on the fabric: the fabric's form, exact on one server (32 tiles). */
static void pairwise_fabric(void) {
    static const uint32_t Ns[] = {2, 3, 5, 7, 12, 17, 32};
    char why[512];
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        oc_report *rep = run_net("pairwise", "fabric", Ns[i], 4096, "", "", why, sizeof why);
        CHECK(rep, "pairwise fabric N=%u: %s", Ns[i], why);
        if (!rep) continue;
        CHECK(rep->has_time_formula && same_time(rep->time_s, rep->time_formula_s),
              "pairwise fabric N=%u: mapped %.9g s, formula %.9g s", Ns[i], rep->time_s,
              rep->time_formula_s);
        CHECK(rep->steps_formula == Ns[i] - 1, "pairwise fabric N=%u: %g steps", Ns[i],
              rep->steps_formula);
        double recon = -1;
        CHECK(oc_report_number(rep, "formula_reconfig_s", &recon) == 1 && recon > 0,
              "pairwise fabric N=%u: the fabric's reconfiguration term, got %g", Ns[i], recon);
        oc_report_free(rep);
    }
}

/* hypercube-opt: the notes' rounds as the seed's formula, no seed time, our time labelled ours. */
static void hopt_labels(void) {
    char why[512];
    for (uint32_t n = 1; n <= 6; n++) {
        oc_report *rep = run_net("hypercube-opt", "hypercube", 1u << n, 512, "",
                                 "ports=all combining=no", why, sizeof why);
        CHECK(rep, "hypercube-opt Q_%u: %s", n, why);
        if (!rep) continue;
        double ours = -1;
        CHECK(rep->has_formula && rep->steps_formula == (double)(1u << (n - 1)) &&
                  !rep->has_time_formula,
              "hypercube-opt Q_%u: the notes' formula is 2^(n-1) rounds and no time: steps %g, "
              "time formula %d",
              n, rep->steps_formula, rep->has_time_formula);
        CHECK(oc_report_number(rep, "time_closed_form_s", &ours) == 1 &&
                  same_time(ours, rep->time_s),
              "hypercube-opt Q_%u: ours %.9g s, mapped %.9g s", n, ours, rep->time_s);
        CHECK(has_note(rep, "is ours"), "hypercube-opt Q_%u: the time labelled ours", n);
        oc_report_free(rep);
    }
}

/* The dims searches on a network of another shape: the network's own dims first, the other
 * shapes pruned by their congestion bound (before: the squarest and every shape whose
 * congestion-free bound was below the winner were mapped, 7 shapes on T(45,16)). */
static void searched_tightly(void) {
    static const struct {
        const char *algo, *network, *net, *own;
        uint32_t N;
        size_t most_mapped;
    } c[] = {{"cartesian", "torus", "dims=15x8 switching=wh", "15x8", 120, 1},
             {"cartesian", "torus", "dims=9x5 switching=wh", "9x5", 45, 1},
             {"cartesian", "torus", "dims=7x3 switching=wh duplex=half", "7x3", 21, 1},
             {"cartesian", "torus", "dims=12x10", "12x10", 120, 1},
             {"bex", "mesh", "dims=16x4 switching=wh", "16x4", 64, 7},
             {"bex", "mesh", "dims=2x32 switching=wh", "2x32", 64, 7}};
    char why[512], what[160];
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        oc_report *rep =
            run_net(c[i].algo, c[i].network, c[i].N, 256, "", c[i].net, why, sizeof why);
        snprintf(what, sizeof what, "%s N=%u %s", c[i].algo, c[i].N, c[i].net);
        CHECK(rep, "%s: %s", what, why);
        if (!rep) continue;
        check_bounds(rep, what);
        const char *got = oc_report_param(rep, "dims");
        CHECK(got && strcmp(got, c[i].own) == 0, "%s: default dims=%s, not the network's %s", what,
              got ? got : "?", c[i].own);
        size_t mapped = 0;
        for (size_t k = 0; rep->search && k < rep->search->n; k++)
            mapped += rep->search->entry[k].status == OC__CAND_MAPPED;
        CHECK(rep->search && rep->search->n && strstr(rep->search->entry[0].text, c[i].own),
              "%s: the network's dims=%s offered first, got %s", what, c[i].own,
              rep->search && rep->search->n ? rep->search->entry[0].text : "no search");
        CHECK(mapped >= 1 && mapped <= c[i].most_mapped, "%s: %zu shapes mapped, at most %zu", what,
              mapped, c[i].most_mapped);
        /* against a pinned run of the network's own dims: the same time */
        oc_kv *np = oc_kv_new(), *par = oc_kv_new();
        kv_words(np, c[i].net);
        oc_kv_set(par, "dims", c[i].own);
        oc_request req = {.collective = OC_ALLTOALL,
                          .algorithm = c[i].algo,
                          .network = c[i].network,
                          .nodes = c[i].N,
                          .bytes = 256,
                          .params = par,
                          .net_params = np,
                          .skip_data_check = 1};
        cost o = cost_of(&req, NULL, why, sizeof why);
        CHECK(o.ok && same_time(o.time, rep->time_s), "%s: pinned %.9g s, searched %.9g s", what,
              o.time, rep->time_s);
        oc_kv_free(np);
        oc_kv_free(par);
        oc_report_free(rep);
    }
}

/* cartesian on k-D tori of odd, prime and non-power sides: verified (with the real-data run up to
 * 64 nodes), the default is the network's shape, steps sum (z_i - 1), time equals the sums. */
static void cartesian_kd(void) {
    static const char *const shapes[] = {"3x4x5",     "5x3x2x2", "2x3",   "7",     "3x3x3",
                                         "2x2x2x2x2", "5x7x3",   "1x5x1", "13x2x2"};
    char why[512], net[96];
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        uint32_t z[8], nd = 0, N = 1;
        char copy[32];
        snprintf(copy, sizeof copy, "%s", shapes[i]);
        for (char *t = strtok(copy, "x"); t; t = strtok(NULL, "x"))
            N *= z[nd++] = (uint32_t)atoi(t);
        snprintf(net, sizeof net, "dims=%s", shapes[i]);
        oc_report *rep = run_net("cartesian", "torus", N, 64, "", net, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "cartesian on T(%s): %s", shapes[i], why);
        if (!rep) continue;
        double R = 0;
        for (uint32_t k = 0; k < nd; k++)
            R += z[k] - 1;
        const double t = R * 1e-6 + 64 * 1e-9 * N * R / 2;
        CHECK(rep->steps == (uint64_t)R && rep->has_formula && rep->steps_formula == R,
              "cartesian T(%s): %llu steps, formula %g, want %g", shapes[i],
              (unsigned long long)rep->steps, rep->steps_formula, R);
        CHECK(same_time(rep->time_s, t) && rep->has_time_formula &&
                  same_time(rep->time_formula_s, t),
              "cartesian T(%s): time %.9g, formula %.9g, want %.9g", shapes[i], rep->time_s,
              rep->time_formula_s, t);
        oc_report_free(rep);
    }
    /* a pinned k-D shape that is not the network's: no closed form, said so */
    oc_report *rep = run_net("cartesian", "torus", 60, 64, "dims=5x4x3", "dims=3x4x5 switching=wh",
                             why, sizeof why);
    CHECK(rep && !rep->has_formula && has_note(rep, "differs from the network's"),
          "cartesian 5x4x3 on T(3,4,5): %s", rep ? "a closed form" : why);
    oc_report_free(rep);
}

/* dex-micro and dex-interleave: verified on odd, prime and non-power sizes; every round a
 * micro-permutation (the model's steps equal the rounds: no round was split), at least the
 * notes' bandwidth bound (z^2/8 on the cycle, the Lemma read) and one port's N - 1; the seed's
 * formula of dex-micro is the Lemma read as (1/2) ceil(z/2)^2. */
static void micro(void) {
    static const uint32_t zs[] = {1, 2, 3, 5, 7, 8, 12, 13, 16, 33};
    char why[512];
    for (size_t i = 0; i < sizeof zs / sizeof *zs; i++) {
        const uint32_t z = zs[i];
        oc_report *rep =
            run_net("dex-micro", "torus", z, 64, "", "switching=wh combining=no", why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "dex-micro T(%u): %s", z, why);
        if (!rep) continue;
        double rounds = -1, h = ceil(z / 2.0);
        oc_report_number(rep, "micro_rounds", &rounds);
        CHECK((double)rep->steps == rounds, "dex-micro T(%u): %llu steps for %g rounds", z,
              (unsigned long long)rep->steps, rounds);
        CHECK(rounds >= ((double)z * z - 1) / 8 && rounds + 1 >= z,
              "dex-micro T(%u): %g rounds below "
              "the bounds",
              z, rounds);
        CHECK(rep->has_formula && rep->steps_formula == h * h / 2 && !rep->has_time_formula,
              "dex-micro T(%u): formula %g", z, rep->steps_formula);
        oc_report_free(rep);
    }
    static const struct {
        uint32_t N;
        const char *dims;
    } ms[] = {{2, NULL},  {3, NULL},  {5, NULL},   {6, NULL},   {7, NULL},   {12, NULL},
              {16, NULL}, {30, NULL}, {15, "5x3"}, {15, "3x5"}, {12, "2x6"}, {8, "8"}};
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
        char par[48] = "", net[96];
        if (ms[i].dims) snprintf(par, sizeof par, "dims=%s", ms[i].dims);
        snprintf(net, sizeof net, "switching=wh combining=no%s%s", ms[i].dims ? " dims=" : "",
                 ms[i].dims ? ms[i].dims : "");
        oc_report *rep = run_net("dex-interleave", "mesh", ms[i].N, 64, par, net, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "dex-interleave N=%u %s: %s", ms[i].N, net, why);
        if (!rep) continue;
        double rounds = -1;
        oc_report_number(rep, "micro_rounds", &rounds);
        uint64_t lb = 0;
        CHECK((double)rep->steps == rounds && rounds + 1 >= ms[i].N &&
                  (!oc_report_steps_lower_bound(rep, &lb) || rep->steps >= lb),
              "dex-interleave N=%u %s: %llu steps, %g rounds, bound %llu", ms[i].N, net,
              (unsigned long long)rep->steps, rounds, (unsigned long long)lb);
        CHECK(has_note(rep, "ours"), "dex-interleave N=%u: rounds labelled ours", ms[i].N);
        oc_report_free(rep);
    }
}

/* The list schedulers' moves are checked against the memory budget before they are allocated:
 * under a 1 MiB budget dex-micro on 512 nodes (262144 moves) and dex-interleave on 32x32 are
 * refused as too big, with the budget in the reason; at the default budget they run. */
static void micro_budget(void) {
    static const struct {
        const char *algo, *net, *dims;
        uint32_t N;
    } c[] = {{"dex-micro", "torus", "dims=512", 512},
             {"dex-interleave", "mesh", "dims=32x32", 1024}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const oc_settings small = {.memory_budget = UINT64_C(1) << 20};
        char why[512] = "";
        oc_kv *par = oc_kv_new(), *np = oc_kv_new();
        kv_words(np, c[i].dims);
        kv_words(np, "switching=wh");
        oc_request req = {.collective = OC_ALLTOALL,
                          .algorithm = c[i].algo,
                          .network = c[i].net,
                          .nodes = c[i].N,
                          .bytes = 64,
                          .params = par,
                          .net_params = np,
                          .skip_data_check = 1,
                          .settings = &small};
        oc_report *rep = NULL;
        int rc = oc_run(&req, &rep, why, sizeof why);
        CHECK(rc == OC_ETOOBIG && !rep && strstr(why, "moves") && strstr(why, "budget"),
              "%s N=%u under 1 MiB: rc %d, %s", c[i].algo, c[i].N, rc, why);
        oc_report_free(rep);
        oc_kv_free(par);
        oc_kv_free(np);
    }
}

int main(void) {
    micro_budget();
    pairwise_fabric();
    hopt_labels();
    searched_tightly();
    cartesian_kd();
    micro();
    return CHECK_SUMMARY();
}
