/*
 * broadcast_tcp1split.c — the three-phase multiple broadcast on the passive optical star
 * (passive-optical-star 3.2.2), parameter h' (0 <= h' <= h; parameter hp).
 *
 * The m messages are cut into (k+1)^h' pieces of w = m/(k+1)^h' messages; a piece's index has h'
 * base-(k+1) digits, digit 0 the most significant.
 *  1. Broadcast-split, TCP1 steps 1..h': the holder i sends its child c = (k+1)^(l-1) + i k + j
 *     the (k+1)^(h'-l) pieces whose digits 0..l-1 are c's pattern: i's pattern, zeros up to digit
 *     l-2, and j + 1 at digit l-1 (one label range, m/(k+1)^l messages). Padded with zeros, the
 *     patterns give every processor below (k+1)^h' a distinct piece pi(v).
 *  2. Broadcast, TCP1 steps h'+1..h: every reached processor sends its children its piece pi
 *     (w messages), which they take as theirs; a processor reached at relative step r with index j
 *     gets position pos(parent) + (j+1)(k+1)^(r-1) inside its phase-1 ancestor's subtree.
 *  3. Exchange, h' TCP2 steps: the cliques are the processors of one position whose pieces differ
 *     in one digit, digit h'-1 first; each processor sends the (k+1)^s pieces it holds at step s.
 *   T_com = (2/k ((k+1)^h' - 1) + h - h') m/(k+1)^h';  T_tune = ((P-1) + h' P k) D;  h + h' steps.
 * The seed's phase-3 cost is printed as a sum "from i = h' to 1"; we read it as the reverse of
 * phase 1. At h' = 0 there is no phase 3 and this is exactly tcp1 (the same transfers).
 *
 * P not a power of k + 1 (dummy nodes, all reached in TCP1 step h). At h' = 0 transfers to
 * dummies are dropped, as tcp1 does. At 0 < h' < h the dummies would hold pieces phase 3 needs;
 * two ways (parameter dummies), both offered to the search:
 *  - groups (ours): keep whole phase-3 groups. The Q = (k+1)^(h-1) processors reached before step
 *    h and the first floor((P - Q) / G) step-h positions (all G = (k+1)^h' members each) run the
 *    three phases without a dummy; the b = (P - Q) mod G late processors get the message in one
 *    more step, k streams of ceil(m/k) from distinct processors that hold it all (each sends at
 *    most ceil(b k / (P - b)) <= k). h + h' + 1 steps, T_com(Q) + ceil(m/k) messages.
 *  - fold: dummy x is played by processor x mod P, which then has up to twice the streams (the
 *    model splits the round); cheaper when few processors are left late.
 * Neither reaches the padding bound everywhere (k = 3, P = 200, m = 1024, D = 5, h' = 3: groups
 * 1070, fold 1463, padding's formula 723); the search weighs both against h' = 0 (tcp1). At h' = h
 * every processor is in group 0 with its own piece and only fold applies. Where the 1070 comes
 * from: padding's 688 messages, plus the late step's ceil(m/k) = 342 for the 8 processors left
 * over, plus one more D; TCP1 and phase 3 keep every laser busy, so only step h's free lasers
 * could serve them earlier, saving at most w = 16 (reproduce star prints this for every h').
 *
 * Which cost h' minimises. Section 1 prices a step: "a processor can send and receive k messages
 * ... for a cost D + L tau", the tunings of one step done together. Section 3's tuning totals,
 * (P-1) D and ((P-1) + h'Pk) D, count every modified wavelength ("the total number of modified
 * wavelengths is P-1", 2.1) as if each tuning waited for the others; added to the communication
 * they make the total whose minimum the seed's h'_opt (the Lambert-W expression) gives, at k = 2
 * only (for other k it misses the stationary point, see star_tcp.h). We follow
 * section 1, as the star model (net/star.c) does: its time charges D once per step that retunes
 * plus each step's largest stream, and that time is what the search minimises, so the default
 * never loses to a pinned h' by the model's own reported time. The seed's total and its h'_opt
 * (Lambert-W and the exhaustive argmin of the total) are reported beside it (seed_total_cost,
 * hp_opt_lambert_w, hp_opt_exhaustive, and hp_opt_stationary: the stationary point of the
 * seed's total, which its Lambert-W expression equals only at k = 2, star_tcp.h); with D per
 * tuning the seed's total grows by P k D per phase-3 step, so it favours small h' far more than
 * the step-priced time does.
 *
 * The search (the contract of algos.h): k from the network's down to 1 (above the network's k is
 * refused), and for each k every h' = 0..h(k) with (k+1)^h' dividing m, h' = 0 first; m is the
 * problem (pinned, else (k+1)^h for the network's k, the same for every candidate). The bound of
 * (k, h'), proven on the schedule above (either way): steps >= h + h' and time >= h D + the
 * messages of processor 0's streams, which are real whatever P: to (k+1)^(l-1) in step l (m/(k+1)^l
 * in phase 1, w in phase 2, and a first reception, so each of the h steps retunes; with groups, a
 * step h left empty is replaced by the late step, whose streams carry ceil(m/k) > w to processors
 * never reached before), and in phase 3 step s
 * its (k+1)^s w to a phase-1 processor, real when h' < h or P = (k+1)^h (else phase 3 is left
 * out of the bound). At P = (k+1)^h and h' < h the bound's messages are T_com exactly.
 */
#include "algo/star_tcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct split {
    oc__tcp t;
    uint32_t hp;
    uint64_t w;     /* messages per piece */
    uint64_t *pi;   /* per virtual processor: its piece (after phase 2) */
    uint64_t *pos;  /* per virtual processor: its position in its ancestor's subtree */
    uint64_t *who;  /* (position, piece) -> the virtual processor */
    uint32_t *step; /* per virtual processor: the TCP1 step it is reached in (0 for 0) */
    /* P not a power of k + 1 and 0 < h' < h (see the essay): the real processor of each virtual
     * one (NONE: left out), and the `late` processors P - late .. P - 1 served in a last step */
    uint32_t *id;
    uint64_t late;
} split;

#define NONE UINT32_MAX

static void split_release(oc__plan *plan) {
    split *s = plan->state;
    if (!s) return;
    oc__tcp_free(&s->t);
    free(s->pi);
    free(s->pos);
    free(s->who);
    free(s->step);
    free(s->id);
    free(s);
    plan->state = NULL;
}

static const char *const names[] = {"k", "m", "hp", "dummies", NULL};

/* 1 when P is not a power of k + 1 and 0 < h' < h: the two ways with the dummy nodes apply. */
static int two_ways(uint32_t P, uint64_t Pv, uint32_t h, uint64_t hp) {
    return hp > 0 && hp < h && Pv != P;
}

static uint64_t upow(uint64_t b, uint64_t e) {
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

/* h' (parameter hp) in 0..h, refused with the range. */
static int hp_read(const oc_kv *params, uint32_t h, uint32_t k, uint32_t P, uint64_t *hp,
                   char *why, size_t len) {
    const char *v = oc_kv_get(params, "hp");
    *hp = h;
    if (v && oc_parse_u64(v, 0, h, hp))
        return oc__fail(why, len, OC_EINVAL,
                        "tcp1-split: hp=%s: expected a whole number from 0 to %u (h' is at most "
                        "h = ceil(log_%u %u) = %u)",
                        v, h, k + 1, P, h);
    return 0;
}

/* m must cut into (k+1)^h' = parts equal pieces. */
static int pieces_check(uint64_t m, uint64_t parts, char *why, size_t len) {
    if (m % parts == 0) return 0;
    return oc__fail(why, len, OC_EINVAL,
                    "tcp1-split: m=%llu is not a multiple of (k+1)^h' = %llu: m must be a "
                    "multiple of %llu (or h' smaller)",
                    (unsigned long long)m, (unsigned long long)parts, (unsigned long long)parts);
}

/* Keeps whole phase-3 groups: the processors reached before step h, then the first step-h
 * positions (in increasing order) whose G members all fit; the rest are late. */
static int regroup(split *s, uint64_t G, char *why, size_t len) {
    const oc__tcp *t = &s->t;
    const uint64_t Q = t->pw[t->h - 1], npos = t->Pv / G, full = (t->P - Q) / G;
    uint8_t *keep = oc__calloc(npos, 1);
    s->id = oc__malloc_array(t->Pv, sizeof(uint32_t));
    if (!keep || !s->id) {
        free(keep);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    for (uint64_t v = Q; v < t->Pv; v++)
        keep[s->pos[v]] = 1; /* a step-h position */
    for (uint64_t p = 0, n = 0; p < npos; p++)
        if (keep[p]) keep[p] = n++ < full;
    uint32_t next = (uint32_t)Q;
    for (uint64_t v = 0; v < t->Pv; v++)
        s->id[v] = v < Q ? (uint32_t)v : keep[s->pos[v]] ? next++ : NONE;
    s->late = t->P - next;
    free(keep);
    return 0;
}

static int split_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    uint64_t k, m, hp;
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    int rc = oc__kv_only(params, names, "tcp1-split", why, len);
    if (rc || (rc = oc__kv_u64(params, "k", 3, 1, 64, &k, why, len))) return rc;
    oc__tcp probe;
    if ((rc = oc__tcp_init(&probe, nodes, (uint32_t)k, why, len))) return rc;
    const uint32_t h = probe.h;
    const uint64_t Pv = probe.Pv;
    oc__tcp_free(&probe);
    if (Pv > (UINT64_C(1) << 22))
        return oc__fail(why, len, OC_ETOOBIG, "tcp1-split: (k+1)^h = %llu is too large",
                        (unsigned long long)Pv);
    if ((rc = hp_read(params, h, (uint32_t)k, nodes, &hp, why, len))) return rc;
    const uint64_t parts = upow(k + 1, hp);
    if ((rc = oc__kv_u64(params, "m", oc__tcp_bcast_m(nodes, k), 1, 1u << 22, &m, why, len)))
        return rc;
    if ((rc = pieces_check(m, parts, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)m, why, len))) return rc;
    split *s = calloc(1, sizeof *s);
    if (!s) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = s;
    if ((rc = oc__tcp_init(&s->t, nodes, (uint32_t)k, why, len))) return rc;
    s->hp = (uint32_t)hp;
    s->w = m / parts;
    s->pi = oc__calloc(Pv, sizeof(uint64_t));
    s->pos = oc__calloc(Pv, sizeof(uint64_t));
    s->who = oc__calloc(Pv, sizeof(uint64_t));
    s->step = oc__calloc(Pv, sizeof(uint32_t));
    if (!s->pi || !s->pos || !s->who || !s->step)
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    const oc__tcp *t = &s->t;
    /* pieces: digit d of the piece index has weight K^(hp-1-d) */
    for (uint32_t l = 1; l <= t->h; l++)
        for (uint64_t i = 0; i < t->pw[l - 1]; i++)
            for (uint32_t j = 0; j < k; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                s->step[c] = l;
                if (l <= hp) {
                    s->pi[c] = s->pi[i] + (j + 1) * t->pw[hp - l];
                    s->pos[c] = 0;
                } else {
                    s->pi[c] = s->pi[i];
                    s->pos[c] = s->pos[i] + (j + 1) * t->pw[l - hp - 1];
                }
            }
    for (uint64_t v = 0; v < Pv; v++)
        s->who[s->pos[v] * parts + s->pi[v]] = v;
    const char *dm = oc_kv_get(params, "dummies");
    if (dm && strcmp(dm, "groups") && strcmp(dm, "fold"))
        return oc__fail(why, len, OC_EINVAL,
                        "tcp1-split: dummies=%s: expected groups or fold", dm);
    const int fold = dm && !strcmp(dm, "fold");
    if (two_ways(nodes, Pv, h, hp) && !fold && (rc = regroup(s, parts, why, len))) return rc;
    /* The work (core.h), an upper bound (dummies' and same-node sends are dropped): level l's
     * k pw[l-1] children get pw[hp-l] pieces (one past hp), phase 3's steps send k ranges of
     * wt pieces a virtual node, the late ones k streams of the whole message. */
    for (uint32_t l = 1; l <= t->h; l++) {
        plan->spec.transfers += t->pw[l - 1] * k;
        plan->spec.units += t->pw[l - 1] * k * s->w * (l <= hp ? t->pw[hp - l] : 1);
    }
    for (uint32_t st = 0; st < hp; st++) {
        plan->spec.transfers += t->Pv * k;
        plan->spec.units += t->Pv * k * t->pw[st] * s->w;
    }
    plan->spec.transfers += (uint64_t)s->late * k;
    plan->spec.units += (uint64_t)s->late * m;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)k);
    rc |= oc_kv_set(plan->used, "k", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)m);
    rc |= oc_kv_set(plan->used, "m", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)hp);
    rc |= oc_kv_set(plan->used, "hp", buf);
    if (two_ways(nodes, Pv, h, hp)) rc |= oc_kv_set(plan->used, "dummies", fold ? "fold" : "groups");
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

/* The real processor playing virtual x: itself, its regrouped id, or (dummy nodes) x mod P. */
static uint32_t host(const split *s, uint64_t x) {
    return s->id ? s->id[x] : (uint32_t)(x % s->t.P);
}

static int send(const oc__plan *plan, oc__emit *e, uint64_t x, uint64_t y, uint64_t first,
                uint64_t count) {
    const split *s = plan->state;
    const uint32_t root = plan->spec.root, P = s->t.P;
    uint32_t a = (host(s, x) + root) % P, b = (host(s, y) + root) % P;
    if (a == b) return 0;
    return oc__emit_transfer(e, a, b, OC_OP_COPY, (uint32_t)first, (uint32_t)count);
}

static int split_generate(const oc__plan *plan, oc__emit *e) {
    const split *s = plan->state;
    const oc__tcp *t = &s->t;
    const uint64_t K = (uint64_t)t->k + 1, w = s->w;
    int rc = 0;
    /* phases 1 and 2 */
    for (uint32_t l = 1; l <= t->h && !rc; l++) {
        for (uint64_t i = 0; i < t->pw[l - 1] && !rc; i++)
            for (uint32_t j = 0; j < t->k && !rc; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                /* without phase 3 no dummy relays anything: drop them, as tcp1 does */
                if (c >= t->P && s->hp == 0) break;
                if (s->id && s->id[c] == NONE) continue;
                if (l <= s->hp) /* the pieces with c's first l digits */
                    rc = send(plan, e, i, c, s->pi[c] * w, t->pw[s->hp - l] * w);
                else
                    rc = send(plan, e, i, c, s->pi[c] * w, w);
            }
        if (!rc) rc = oc__emit_round(e);
    }
    /* phase 3: digit hp-1 (weight 1) first */
    for (uint32_t st = 0; st < s->hp && !rc; st++) {
        const uint64_t wt = t->pw[st];
        for (uint64_t x = 0; x < t->Pv && !rc; x++) {
            if (s->id && s->id[x] == NONE) continue; /* whole groups: its partners are out too */
            uint64_t lo = s->pi[x] - s->pi[x] % wt, d = s->pi[x] / wt % K;
            for (uint64_t v = 0; v < K && !rc; v++) {
                if (v == d) continue;
                /* the partner: same position, piece with digit v */
                uint64_t target = s->pi[x] - d * wt + v * wt;
                uint64_t y = s->who[s->pos[x] * t->pw[s->hp] + target];
                rc = send(plan, e, x, y, lo * w, wt * w);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    /* the late processors: k streams of m/k each from distinct processors that hold everything */
    const uint64_t P = t->P, m = plan->spec.q, c = oc__ceil_div(m, t->k), done = P - s->late;
    const uint32_t root = plan->spec.root;
    for (uint64_t r = 0; r < s->late && !rc; r++)
        for (uint64_t j = 0; j < t->k && j * c < m && !rc; j++)
            rc = oc__emit_transfer(e, (uint32_t)(((r * t->k + j) % done + root) % P),
                                   (uint32_t)((done + r + root) % P), OC_OP_COPY,
                                   (uint32_t)(j * c), (uint32_t)(m - j * c < c ? m - j * c : c));
    if (!rc && s->late) rc = oc__emit_round(e);
    return rc;
}

static int split_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const split *s = plan->state;
    const double Pv = (double)s->t.Pv, k = s->t.k, m = plan->spec.q, h = s->t.h, hp = s->hp;
    const double Khp = (double)s->t.pw[s->hp];
    double comm = (2 / k * (Khp - 1) + h - hp) * m / Khp;
    int rc =
        oc__tcp_report_steps(plan, in, rep, s->t.h + s->hp, comm, (Pv - 1) + hp * Pv * k, m / k);
    const double D = in->step_fixed, Ltau = in->step_time - in->step_fixed;
    /* h'_opt (star_tcp.h): the seed's Lambert-W expression, the stationary point of the seed's
     * total for this k, and the exhaustive search over h' = 0..h of that total (D in units of
     * L tau, the chunks as m). */
    const double ratio = Ltau > 0 ? D / Ltau : 0;
    const double lw = oc__tcp_hp_opt_seed(Pv, h, k, m, ratio);
    const double st = oc__tcp_hp_stationary(Pv, h, k, m, ratio);
    uint32_t best = 0;
    for (uint32_t i = 1; i <= s->t.h; i++) /* over the h' that cut m into equal pieces */
        if (plan->spec.q % s->t.pw[i] == 0 &&
            oc__tcp_split_seed_total(Pv, h, k, m, i, ratio) <
                oc__tcp_split_seed_total(Pv, h, k, m, best, ratio))
            best = i;
    rc |= oc__report_num(rep, "hp_opt_lambert_w", lw);
    rc |= oc__report_num(rep, "hp_opt_stationary", st);
    rc |= oc__report_num(rep, "hp_opt_exhaustive", best);
    const long lr = lround(lw < 0 ? 0 : (lw > h ? h : lw));
    char why[200];
    if (fabs(lw - st) > 1e-9)
        snprintf(why, sizeof why,
                 "the stationary point of the seed's total at k = %g is %.3f: the seed's "
                 "expression is it only at k = 2",
                 k, st);
    else
        snprintf(why, sizeof why,
                 "at k = 2 it is the stationary point of the seed's total; the total is convex "
                 "in h', so the best whole h' is the floor or ceil of %.3f that costs less",
                 st);
    rc |= oc__report_note(rep,
                          "h'_opt: the seed's Lambert-W expression gives %.3f (%ld in 0..h), the "
                          "exhaustive search over h' of the seed's total gives %u%s; %s",
                          lw, lr, best, lr != (long)best ? ": they disagree" : "", why);
    if (best != s->hp)
        rc |= oc__report_note(rep,
                              "this run uses h' = %u: the seed's total (D per tuning) would pick "
                              "%u, the model's time (D per step, section 1) is what the search "
                              "minimises",
                              s->hp, best);
    return rc;
}

/* The space: k from the network's down to 1, and for each h' = 0..h(k) that cuts m into equal
 * pieces (see the essay for the bound); m is the workload, SIZE / L (oc__tcp_messages). */
static int split_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t P = in->nodes;
    uint64_t kpin, knet, m, hpin = 0;
    int rc = oc__tcp_pinned_k(in, "tcp1-split", &kpin, &knet, why, len);
    if (rc) return rc;
    const uint64_t k0 = kpin ? kpin : knet;
    if ((rc = oc__tcp_messages(in, "tcp1-split", 1u << 22, &m, why, len))) return rc;
    const int has_hp = oc_kv_get(in->params, "hp") != NULL;
    /* a pinned h' is checked against h of the network's (or the pinned) k: every smaller k has a
     * larger h, so it allows that h' too */
    if (has_hp && (rc = hp_read(in->params, oc__tcp_steps(P, k0), (uint32_t)k0, P, &hpin, why, len)))
        return rc;
    if (has_hp && (rc = pieces_check(m, upow(k0 + 1, hpin), why, len))) return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, OC_BROADCAST, (uint32_t)m, &f, why, len))) return rc;
    const double D = f.step_fixed, unit = f.step_time - f.step_fixed;
    char kb[32], mb[32], hb[32];
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)m);
    for (uint64_t k = k0; k >= 1; k--) {
        const uint32_t h = oc__tcp_steps(P, k);
        const uint64_t Pv = upow(k + 1, h);
        for (uint32_t hp = has_hp ? (uint32_t)hpin : 0; hp <= h; hp++) {
            const uint64_t G = upow(k + 1, hp);
            if (m % G) break; /* and every larger h' */
            const double w = (double)(m / G);
            /* phases 1 and 2: the stream from processor 0 to (k+1)^(l-1) in step l; phase 3:
             * processor 0's stream, when its partners are real */
            double comm = (double)(h - hp) * w;
            for (uint32_t l = 1; l <= hp; l++)
                comm += (double)m / (double)upow(k + 1, l);
            const int third = hp < h || Pv == P;
            if (third) comm += w * (double)(G - 1) / (double)k;
            const oc__bound b = {.time_s = h * D + comm * unit,
                                 .steps = h + (third ? hp : 0),
                                 .name = "h retuned steps + processor 0's streams"};
            snprintf(kb, sizeof kb, "%llu", (unsigned long long)k);
            snprintf(hb, sizeof hb, "%u", hp);
            /* both ways with the dummy nodes where they differ, whole groups first */
            const char *pd = oc_kv_get(in->params, "dummies");
            const int two = two_ways(P, Pv, h, hp);
            for (int way = 0; way < (two && !pd ? 2 : 1) && !rc; way++) {
                const char *kv[] = {"k", kb, "m", mb, "hp", hb, "dummies",
                                    pd ? pd : way ? "fold" : "groups"};
                rc = oc__search_offer(s, &b, two || pd ? 4 : 3, kv);
            }
            if (rc) return rc;
            if (has_hp) break;
        }
        if (kpin) break;
    }
    return 0;
}

const oc__algo oc__algo_broadcast_tcp1split = {
    .info = {"tcp1-split", OC_BROADCAST, "star",
             "three-phase broadcast: h' TCP1 broadcast-split steps, TCP1 broadcast, h' TCP2 "
             "exchanges",
             "m a multiple of (k+1)^h'",
             "h + h' steps; (2/k((k+1)^h'-1) + h - h') m/(k+1)^h' messages; ((P-1) + h'Pk) D",
             "k=searched 1..network's k; m=SIZE/L: the workload in messages (not a parameter); hp=searched 0..h on the "
             "model's time: the split steps h'; dummies=searched groups|fold: P not a power of "
             "k+1"},
    .param_names = names,
    .plan = split_plan,
    .generate = split_generate,
    .release = split_release,
    .search = split_search,
    .formula = split_formula,
};
