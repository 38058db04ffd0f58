/*
 * test_ring_notes.c — the notes that say why a closed form and the ring's mapped steps differ
 * (the WRHT seed's items): neighbour exchange at one channel, H-Ring's ceil(g/w), and the
 * round counts of rd and rhd below the ring's load bound. Each note's numbers are recomputed here
 * from N, g and the channels and looked for in the run's text, on odd, prime and non-power N.
 */
#include "opticoll.h"

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of one run on the ring ("" and a failed CHECK when it fails); free() it. */
static char *ring_text(oc_collective coll, const char *algo, uint32_t N, uint32_t w,
                       const char *pin, oc_report **keep) {
    oc_kv *net = oc_kv_new(), *params = oc_kv_new();
    char wl[16], why[256] = "", *text = NULL;
    size_t len = 0;
    snprintf(wl, sizeof wl, "%u", (unsigned)w);
    int rc = net && params ? oc_kv_set(net, "wavelengths", wl) : OC_ENOMEM;
    if (!rc && pin) {
        char k[32], *eq;
        snprintf(k, sizeof k, "%s", pin);
        eq = strchr(k, '=');
        *eq = 0;
        rc = oc_kv_set(params, k, eq + 1);
    }
    oc_request q = {.collective = coll,
                    .algorithm = algo,
                    .network = "ring",
                    .nodes = N,
                    .bytes = 4096,
                    .params = params,
                    .net_params = net,
                    .skip_data_check = 1};
    oc_report *rep = NULL;
    if (!rc) rc = oc_run(&q, &rep, why, sizeof why);
    CHECK(rc == 0, "%s N=%u w=%u: %s", algo, N, w, why);
    FILE *mem = open_memstream(&text, &len);
    if (mem && rep) oc_report_write_text(rep, mem);
    if (mem) fclose(mem);
    if (keep)
        *keep = rep;
    else
        oc_report_free(rep);
    oc_kv_free(net);
    oc_kv_free(params);
    return text;
}

static int contains(const char *text, const char *want) {
    return text && strstr(text, want);
}

static void test_ne(void) {
    static const uint32_t Ns[] = {4, 6, 12, 16, 100};
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++)
        for (uint32_t w = 1; w <= 2; w++) {
            oc_report *rep = NULL;
            char *t = ring_text(OC_ALLGATHER, "ne", Ns[i], w, NULL, &rep);
            const uint64_t pair = (2 + w - 1) / w, ours = 1 + (uint64_t)(Ns[i] / 2 - 1) * pair;
            char want[160];
            snprintf(want, sizeof want, "1 + (N/2 - 1) x %llu = %llu (mapped)",
                     (unsigned long long)pair, (unsigned long long)ours);
            if (rep && oc_report_steps(rep) != Ns[i] / 2)
                CHECK(contains(t, want), "ne N=%u w=%u: '%s' in %s", Ns[i], w, want, t ? t : "");
            else
                CHECK(!contains(t, "the seed counts N/2"), "ne N=%u w=%u: no note", Ns[i], w);
            CHECK(!rep || oc_report_steps(rep) == ours, "ne N=%u w=%u: %llu steps, ours %llu",
                  Ns[i], w, rep ? (unsigned long long)oc_report_steps(rep) : 0ULL,
                  (unsigned long long)ours);
            oc_report_free(rep);
            free(t);
        }
}

static void test_hring(void) {
    static const struct {
        uint32_t N, w, g;
    } cases[] = {{12, 64, 3}, {12, 2, 4}, {100, 4, 5}, {1000, 64, 5}, {7, 64, 7}, {16, 1, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const double N = cases[i].N, g = cases[i].g, C = cases[i].w;
        char pin[32], want[200];
        snprintf(pin, sizeof pin, "g=%u", cases[i].g);
        oc_report *rep = NULL;
        char *t = ring_text(OC_ALLREDUCE, "hring", cases[i].N, cases[i].w, pin, &rep);
        const double intra = ceil(N / g / C), inter = ceil(g / C),
                     ours = 2 * (g - 1) * intra + 2 * (N / g - 1) * inter;
        snprintf(want, sizeof want, "2(g-1) x %.0f + 2(N/g-1) x %.0f = %.0f (mapped)", intra,
                 inter, ours);
        double f = 0;
        if (rep && oc_report_steps_formula(rep, &f) && f != (double)oc_report_steps(rep))
            CHECK(contains(t, want), "hring N=%u g=%u w=%u: '%s' in %s", cases[i].N, cases[i].g,
                  cases[i].w, want, t ? t : "");
        CHECK(!rep || (double)oc_report_steps(rep) == ours, "hring N=%u g=%u: %llu, ours %.0f",
              cases[i].N, cases[i].g, rep ? (unsigned long long)oc_report_steps(rep) : 0ULL,
              ours);
        oc_report_free(rep);
        free(t);
    }
}

/* rd's MPICH layout: core rank x plays node 2x+1 below r = N - P, x + r above. */
static uint32_t core_node(uint32_t x, uint32_t r) {
    return x < r ? 2 * x + 1 : x + r;
}

static void test_rd(void) {
    static const uint32_t Ns[] = {7, 12, 100, 1000, 1024};
    static const uint32_t ws[] = {1, 64};
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++)
        for (size_t j = 0; j < 2; j++) {
            const uint32_t N = Ns[i], C = ws[j];
            oc_report *rep = NULL;
            char *t = ring_text(OC_ALLREDUCE, "rd", N, C, NULL, &rep);
            uint32_t P = 1;
            while (P * 2 <= N)
                P *= 2;
            const uint32_t r = N - P;
            uint64_t proven = r ? 2 : 0, lb = 0;
            size_t long_rounds = 0;
            for (uint32_t bit = 1; bit < P; bit *= 2) {
                uint64_t H = 0;
                for (uint32_t x = 0; x < P; x++) {
                    uint32_t a = core_node(x, r), b = core_node(x ^ bit, r),
                             d = a > b ? a - b : b - a;
                    H += d < N - d ? d : N - d;
                }
                const uint64_t avg = (H + 2 * N - 1) / (2 * N), s = (avg + C - 1) / C;
                proven += s ? s : 1;
                if (s > 1) {
                    char want[160];
                    snprintf(want, sizeof want, " %u: %llu/%llu/%llu", bit, (unsigned long long)H,
                             (unsigned long long)avg, (unsigned long long)s);
                    CHECK(contains(t, want), "rd N=%u w=%u: '%s' in %s", N, C, want, t ? t : "");
                    long_rounds++;
                }
            }
            double f = 0;
            if (rep && oc_report_steps_lower_bound(rep, &lb) && oc_report_steps_formula(rep, &f) &&
                (double)lb > f) {
                char want[160];
                snprintf(want, sizeof want, "so the load bound is %llu, %.0f above it",
                         (unsigned long long)lb, (double)lb - f);
                CHECK(contains(t, want), "rd N=%u w=%u: '%s' in %s", N, C, want, t ? t : "");
                if (long_rounds) {
                    snprintf(want, sizeof want, "so at least %llu steps in all",
                             (unsigned long long)proven);
                    CHECK(contains(t, want), "rd N=%u w=%u: '%s' in %s", N, C, want, t ? t : "");
                }
                CHECK(proven <= lb, "rd N=%u w=%u: the averages (%llu) prove no more than the "
                                    "bound (%llu)",
                      N, C, (unsigned long long)proven, (unsigned long long)lb);
            } else {
                CHECK(!contains(t, "one step each; on the ring"), "rd N=%u w=%u: no note", N, C);
            }
            oc_report_free(rep);
            free(t);
        }
}

/* rhd folding everything onto node 0 (radix above N): two fold rounds of N-1 transfers into node
 * 0's two links. */
static void test_rhd(void) {
    static const uint32_t Ns[] = {100, 257, 1000};
    for (size_t i = 0; i < sizeof Ns / sizeof Ns[0]; i++) {
        const uint32_t N = Ns[i], C = 64;
        char pin[32], want[200];
        snprintf(pin, sizeof pin, "radix=%u", N + 1);
        char *t = ring_text(OC_ALLREDUCE, "rhd", N, C, pin, NULL);
        uint64_t H = 0;
        for (uint32_t x = 1; x < N; x++)
            H += x < N - x ? x : N - x;
        const uint64_t s = (N - 1 + 2 * C - 1) / (2 * C);
        snprintf(want, sizeof want,
                 "each fold (%u extras x 1 chunks into a core node, %llu link-hops): %llu; at "
                 "least %llu in all",
                 N - 1, (unsigned long long)H, (unsigned long long)s, (unsigned long long)(2 * s));
        if (s > 1) CHECK(contains(t, want), "rhd N=%u: '%s' in %s", N, want, t ? t : "");
        free(t);
    }
}

int main(void) {
    test_ne();
    test_hring();
    test_rd();
    test_rhd();
    return CHECK_SUMMARY();
}
