/*
 * reproduce_aas.c — `opticoll reproduce aas`: the closed forms of the all-to-all-scatter notes
 * (CS838 section 14) next to our simulated values on verified schedules, with the bisection lower
 * bound of the notes' Lemma, on the electrical direct networks (src/net/direct.c).
 *
 * The notes print formulas, not numbers, so every row evaluates its formula at one machine:
 * ts = 1 us, tm = 1 ns per byte (1 GB/s links), td = 0.05 us per hop, packets of mu = 1 KiB (our
 * choices; the notes give none). Columns: the notes' expression, that expression evaluated by us,
 * our simulated time (and steps) on the verified, resource-checked schedule, the lower bound
 * (max of the bisection bound x mu tm and the step bound x ts), and the reason for every
 * difference. Where the notes' text is garbled ("2n-1" for 2^n - 1 or 2^(n-1), the Lemma of the
 * cycle's direct exchange) the row says how we read it.
 */
#include "aas/hypercube_table.h"
#include "report/report.h"
#include "reproduce/reproduce_common.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>


static const double TS = 1e-6, TM = 1e-9, TD = 0.05e-6, MU = 1024;

typedef struct aas_row {
    const char *label; /* e.g. "SEX Q_3" */
    const char *algo, *network;
    uint32_t nodes;
    const char *params, *net;
    const char *expr; /* the notes' expression */
    double formula;   /* evaluated by us; NAN: the notes give none */
} aas_row;

/* The rows of the table, with room for the text some rows format (the rows point into it). */
enum { MAXR = 40 };
typedef struct aas_rows {
    aas_row r[MAXR];
    char labels[MAXR][48], params[MAXR][64], nets[MAXR][96];
    size_t n;
} aas_rows;

/* Appends a row labelled by label_fmt; params and net may point into t->params[t->n] and
 * t->nets[t->n], which the caller formats first. */
static void add_row(aas_rows *t, const char *algo, const char *network, uint32_t nodes,
                    const char *params, const char *net, const char *expr, double formula,
                    const char *label_fmt, ...) __attribute__((format(printf, 9, 10)));
static void add_row(aas_rows *t, const char *algo, const char *network, uint32_t nodes,
                    const char *params, const char *net, const char *expr, double formula,
                    const char *label_fmt, ...) {
    va_list ap;
    va_start(ap, label_fmt);
    vsnprintf(t->labels[t->n], sizeof t->labels[0], label_fmt, ap);
    va_end(ap);
    t->r[t->n] = (aas_row){t->labels[t->n], algo, network, nodes, params, net, expr, formula};
    t->n++;
}

/* Whether a simulated time equals a closed form (to rounding): a reason states an equality only
 * when this holds for the run it describes. */
static int same(double sim, double form) {
    return fabs(sim - form) <= 1e-9 * sim;
}

/* BEX on the square WH mesh M(z, z), N = z^2 (alltoall_bex.c): each halving at distance D is D
 * contention-free rounds of N/2 packets over D hops, in X and in Y. */
static double bex_time(uint32_t N) {
    const uint32_t z = (uint32_t)lround(sqrt((double)N));
    double rounds = 0, hops = 0;
    for (uint32_t D = z / 2; D >= 1; D /= 2) {
        rounds += 2.0 * D;
        hops += 2.0 * D * D;
    }
    return rounds * (TS + N / 2.0 * MU * TM) + hops * TD;
}

/* QEX on M(sqrt N, sqrt N) (alltoall_qex.c's closed form). */
static double qex_time(uint32_t N) {
    const double r = sqrt((double)N);
    return 3 * (r - 1) * TS + 4.0 * (N - 1) / 3 * TD + 0.75 * (r - 1) * N * MU * TM;
}

static void fmt_time(char *buf, size_t len, double t) {
    if (isnan(t))
        oc__cellf(buf, len, "-");
    else
        oc_format_seconds(buf, len, t);
}

int oc__reproduce_aas(oc__repro *ctx, FILE *f, char *why, size_t len) {
    (void)ctx; /* the paper takes no settings yet and makes no claims yet */
    aas_rows built = {.n = 0}, *T = &built;
    /* SEX: n (ts + mu tm 2^(n-1)) on the combining SF hypercube */
    for (uint32_t n = 3; n <= 7; n += 2) {
        const double N = (double)(1u << n);
        add_row(T, "sex", "hypercube", 1u << n, "", "", "n(ts + mu tm 2^(n-1))",
                n * (TS + MU * TM * N / 2), "SEX Q_%u", n);
    }
    /* pipeline, 1-port half duplex: (ts + mu tm z/2)(z-1) */
    static const uint32_t z1[] = {5, 8, 12};
    for (size_t i = 0; i < 3; i++) {
        const double z = z1[i];
        add_row(T, "pipeline", "torus", z1[i], "directions=1", "duplex=half",
                "(ts + mu tm z/2)(z-1)", (TS + MU * TM * z / 2) * (z - 1),
                "pipeline T(%u), 1-port half", z1[i]);
    }
    /* pipeline, all-port full duplex: z odd ts (z-1)/2 + mu tm z^2/8; z even: none */
    static const uint32_t z2[] = {5, 9, 8};
    for (size_t i = 0; i < 3; i++) {
        const double z = z2[i];
        add_row(T, "pipeline", "torus", z2[i], "directions=2", "ports=all",
                z2[i] % 2 ? "ts(z-1)/2 + mu tm z^2/8" : "(z odd only)",
                z2[i] % 2 ? TS * (z - 1) / 2 + MU * TM * z * z / 8 : NAN,
                "pipeline T(%u), all-port full", z2[i]);
    }
    /* cartesian T(z,z): (2 ts + mu tm z^2)(z-1) */
    static const uint32_t z3[] = {3, 4, 8};
    for (size_t i = 0; i < 3; i++) {
        const double z = z3[i];
        oc__cellf(T->params[T->n], sizeof T->params[0], "dims=%ux%u", z3[i], z3[i]);
        oc__cellf(T->nets[T->n], sizeof T->nets[0], "dims=%ux%u", z3[i], z3[i]);
        add_row(T, "cartesian", "torus", z3[i] * z3[i], T->params[T->n], T->nets[T->n],
                "(2 ts + mu tm z^2)(z-1)", (2 * TS + MU * TM * z * z) * (z - 1),
                "cartesian T(%u,%u)", z3[i], z3[i]);
    }
    /* DEX on the WH hypercube: (2^n - 1)(ts + n td/2 + mu tm) */
    for (uint32_t n = 3; n <= 7; n += 2) {
        const double N = (double)(1u << n);
        add_row(T, "dex", "hypercube", 1u << n, "", "switching=wh combining=no",
                "(2^n-1)(ts + n td/2 + mu tm)", (N - 1) * (TS + n * TD / 2 + MU * TM), "DEX Q_%u",
                n);
    }
    /* DEX on WH meshes: no formula (congestion) */
    static const uint32_t m4[][2] = {{2, 4}, {4, 4}, {8, 8}};
    for (size_t i = 0; i < 3; i++) {
        oc__cellf(T->nets[T->n], sizeof T->nets[0], "dims=%ux%u switching=wh combining=no",
                  m4[i][0], m4[i][1]);
        add_row(T, "dex", "mesh", m4[i][0] * m4[i][1], "", T->nets[T->n],
                "(none: congestion max(z1,z2)/2)", NAN, "DEX M(%u,%u)", m4[i][0], m4[i][1]);
    }
    /* the cycle's direct exchange: steps only */
    static const uint32_t z5[] = {8, 12, 16};
    for (size_t i = 0; i < 3; i++)
        add_row(T, "dex-torus", "torus", z5[i], "", "switching=wh combining=no",
                "Lemma: 2[z/2]2 rounds (garbled)", NAN, "dex-torus T(%u)", z5[i]);
    /* hypercube-opt: the notes give 2^(n-1) rounds and no time; the time 2^(n-1)(ts + mu tm)
     * on the all-port SF non-combining hypercube is ours, and labelled so */
    for (uint32_t n = 3; n <= 7; n += 2)
        add_row(T, "hypercube-opt", "hypercube", 1u << n, "", "ports=all combining=no",
                "2^(n-1) rounds (notes); time ours: 2^(n-1)(ts + mu tm)",
                (double)(1u << (n - 1)) * (TS + MU * TM),
                "hypercube-opt Q_%u", n);
    /* BEX on the WH mesh M(z,z): roughly sqrt(N) ts + 2N td/3 + N sqrt(N) mu tm; QEX: none */
    static const uint32_t z6[] = {4, 8, 16};
    for (size_t a = 0; a < 2; a++)
        for (size_t i = 0; i < 3; i++) {
            const double z = z6[i], N = z * z;
            oc__cellf(T->params[T->n], sizeof T->params[0], "dims=%ux%u", z6[i], z6[i]);
            oc__cellf(T->nets[T->n], sizeof T->nets[0], "dims=%ux%u switching=wh", z6[i], z6[i]);
            add_row(T, a ? "qex" : "bex", "mesh", z6[i] * z6[i], T->params[T->n], T->nets[T->n],
                    a ? "(none: captions only)" : "~ sqrt(N) ts + 2N td/3 + N sqrt(N) mu tm",
                    a ? NAN : z * TS + 2 * N * TD / 3 + N * z * MU * TM, "%s M(%u,%u)",
                    a ? "QEX" : "BEX", z6[i], z6[i]);
        }
    const aas_row *const rows = T->r;
    const size_t nr = T->n;
    fprintf(f, "All-to-all scatter on direct networks (all-to-all-scatter notes, CS838 section "
               "14)\n");
    fprintf(f, "machine (ours; the notes give no numbers): ts = 1 us, tm = 1 ns/byte (1 GB/s), "
               "td = 0.05 us/hop, mu = 1 KiB per packet\n");
    fprintf(f, "every simulated value is a verified schedule on the hypercube/torus/mesh model "
               "with its resource check; lower bound = max(bisection packets per channel x mu tm, "
               "step bound x ts)\n\n");
    static const char *const head[] = {"case",  "notes' formula", "evaluated", "simulated",
                                       "steps", "lower bound",    "reason"};
    oc__table t;
    oc__table_init(&t, 7, head);
    int rc = 0;
    for (size_t i = 0; i < nr && !rc; i++) {
        const aas_row *r = &rows[i];
        oc__sim_req q = {.coll = OC_ALLTOALL,
                         .algo = r->algo,
                         .network = r->network,
                         .nodes = r->nodes,
                         .bytes = (uint64_t)MU};
        oc__cellf(q.params, sizeof q.params, "%s", r->params);
        oc__cellf(q.net, sizeof q.net, "ts_us=1 tm_ns=1 td_us=0.05 %s", r->net);
        oc__sim s;
        oc_report *rep = NULL;
        if ((rc = oc__simulate(&q, &s, &rep, why, len))) break;
        char c[5][OC__CELL_LEN], reason[OC__REASON_LEN] = "";
        if (!rep) {
            oc__cellf(c[0], sizeof c[0], "-");
            fmt_time(c[1], sizeof c[1], r->formula);
            oc__cellf(c[2], sizeof c[2], "not simulated: %s", s.note);
            c[3][0] = c[4][0] = 0;
        } else {
            const double sim = s.time_s, lbt = oc__report_figure(rep, "time_lower_bound_s");
            fmt_time(c[0], sizeof c[0], r->formula);
            fmt_time(c[1], sizeof c[1], sim);
            oc__cellf(c[2], sizeof c[2], "%llu", (unsigned long long)s.steps);
            char lb[64];
            fmt_time(lb, sizeof lb, lbt);
            oc__cellf(c[3], sizeof c[3], "%s, %llu steps", lb, (unsigned long long)s.lb);
            if (!isnan(r->formula) && fabs(sim - r->formula) <= 1e-9 * sim)
                oc__reason_add(reason, sizeof reason, "equal");
            if (strcmp(r->algo, "pipeline") == 0 && r->nodes % 2 &&
                !strcmp(r->params, "directions=2"))
                oc__reason_add(reason, sizeof reason,
                               "simulated %s the notes' sum, ts(z-1)/2 + mu tm (z^2-1)/8; their "
                               "closed form's z^2/8 adds mu tm/8 = %.3g ns",
                               same(sim, TS * (r->nodes - 1) / 2.0 +
                                             MU * TM * ((double)r->nodes * r->nodes - 1) / 8)
                                   ? "="
                                   : "differs from",
                               MU * TM / 8 * 1e9);
            if (strcmp(r->algo, "pipeline") == 0 && r->nodes % 2 == 0 &&
                !strcmp(r->params, "directions=2"))
                oc__reason_add(reason, sizeof reason,
                               "z even: z/2 rounds, the right pipeline one packet longer (ours)");
            if (strcmp(r->algo, "dex") == 0 && strcmp(r->network, "hypercube") == 0)
                oc__reason_add(reason, sizeof reason,
                               "the notes take n/2 hops every round; the mates' hops sum to "
                               "n 2^(n-1): n td/2 = %.3g ns more",
                               log2(r->nodes) * TD / 2 * 1e9);
            if (strcmp(r->algo, "dex") == 0 && strcmp(r->network, "mesh") == 0)
                oc__reason_add(reason, sizeof reason,
                               "XY congestion %g (notes: max(z1,z2)/2): the model splits the "
                               "%u rounds into %llu steps (first fit)",
                               oc__report_figure(rep, "max_link_congestion"), r->nodes - 1,
                               (unsigned long long)s.steps);
            if (strcmp(r->algo, "dex-torus") == 0) {
                const double h = ceil(r->nodes / 2.0);
                oc__reason_add(reason, sizeof reason,
                               "Lemma '2[z/2]2' read as ceil(z/2)^2/2 = %g steps (as printed, "
                               "2 ceil(z/2)^2 = %g); first-fit split of %u rounds; max link "
                               "congestion %g",
                               h * h / 2, 2 * h * h, r->nodes / 2,
                               oc__report_figure(rep, "max_link_congestion"));
            }
            if (strcmp(r->algo, "hypercube-opt") == 0)
                oc__reason_add(reason, sizeof reason,
                               "the schedule table's 2^(n-1) rounds, every arc busy in each: "
                               "steps %s the step bound",
                               s.steps == s.lb ? "=" : "above");
            if (strcmp(r->algo, "bex") == 0)
                oc__reason_add(reason, sizeof reason,
                               "notes' form is rough: sqrt(N) start-ups, N sqrt(N) packets; the "
                               "halvings take X+Y-2 contention-free rounds of N/2 packets, "
                               "(X+Y-2)(ts + N/2 mu tm) + sum D^2 td = %.6g us (simulated %s)",
                               bex_time(r->nodes) * 1e6,
                               same(sim, bex_time(r->nodes)) ? "equal" : "differs");
            if (strcmp(r->algo, "qex") == 0)
                oc__reason_add(reason, sizeof reason,
                               "our design (qex.c): 3(sqrt N-1) ts + 4(N-1)/3 td + 3/4 "
                               "(sqrt N-1) N mu tm = %.6g us (simulated %s)",
                               qex_time(r->nodes) * 1e6,
                               same(sim, qex_time(r->nodes)) ? "equal" : "differs");
            if (strcmp(r->algo, "sex") == 0)
                oc__reason_add(reason, sizeof reason,
                               "every round moves N/2 packets over one link; bound: 2^(n-1) "
                               "packets per bisection channel");
            if (strcmp(r->algo, "cartesian") == 0 ||
                (strcmp(r->algo, "pipeline") == 0 && !strcmp(r->params, "directions=1")))
                oc__reason_add(reason, sizeof reason,
                               "above the bound: every packet goes one way round (z/2 hops on "
                               "average, the shortest route ~z/4)%s",
                               strstr(r->net, "half") ? "" : " and the other direction idles");
        }
        const char *cells[7] = {r->label, r->expr, c[0], c[1], c[2], c[3], reason};
        if (oc__table_row(&t, cells)) rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        oc_report_free(rep);
    }
    if (!rc) {
        oc__table_print(&t, f);
        fprintf(f, "\nReadings of the garbled text: in SEX \"2n-1 = N/2\" is 2^(n-1); in DEX "
                   "\"(2n-1)\" permutations is 2^n - 1; in the noncombining SF hypercube the "
                   "round bound \"2n-1\" is 2^(n-1) (its table has 8 rows for n = 4).\n");
        fprintf(f, "WH hypercube bound of the notes: mu tm (2^n-1)/2 (total work over n 2^n arcs), "
                   "n times below SEX's mu tm n 2^(n-1).\n");
        uint32_t tab[4 * 8];
        rc = oc__hcube_table_build(4, tab);
        if (!rc) rc = oc__hcube_table_check(4, tab, why, len);
        if (!rc) {
            fprintf(f, "\nSchedule table of the all-port full-duplex SF non-combining Q_4, built "
                       "by the notes' construction (constraints (a)-(c) checked by code):\n");
            oc__hcube_table_print(f, 4, tab);
        }
    }
    oc__table_free(&t);
    return rc;
}
