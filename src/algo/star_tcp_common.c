/*
 * star_tcp_common.c — what the tcp algorithms share (passive-optical-star sections 2 and 3): the
 * virtual machine of (k+1)^h processors, the parameters k and m, the parameter search, and the
 * report of section 3's closed forms next to section 4's lower bounds.
 *
 * Any P (section 4: "one can just assume that dummy nodes exist until the next power of (k+1)").
 * Trees (TCP1: scatter, gather, broadcast) drop every transfer to a dummy: a TCP1 child always has
 * a larger number than its parent, so a dummy's subtree holds dummies only, and every step costs at
 * most what it costs at (k+1)^h (the padding bound). Exchanges (TCP2: gossip, all-to-all) cannot
 * drop the dummies, whose cliques relay data; at P = (k+1)^h they run the seed's cliques, at any
 * other P shifts mod P in the same h steps (gossip_tcp2.c, alltoall_tcp2.c), at or below the
 * padding bound in steps and messages.
 *
 * The search (the contract of algos.h). The space a user can pin is k, the wavelengths a
 * processor uses, from the network's k down to 1 (k above the network's is refused with the valid
 * range: the star has no more lasers). m is not searched and not pinned: it is the problem's
 * size in the seed's unit, the atomic message, m = ceil(SIZE / L) with L the star's message length
 * in bytes (oc__tcp_messages; the model charges L tau per message, so another m is another
 * problem, and `-s` changes the time as it should). The network's k is offered first.
 * The bound of a candidate k: each of its rounds maps to one step (no processor has more than k
 * streams each way), there are h(k) = ceil(log_{k+1} P) of them (a message's holders grow at most
 * k+1-fold per step; the constructions use exactly that many), and every one retunes (each round
 * has a receiver hearing a sender it never heard before: a first TCP1 reception, a gather parent's
 * new child, a new clique digit or shift), so steps >= h(k) and time >= h(k) D plus the
 * communication bound: h(k) m L tau for the broadcast (every step carries all m), the exact
 * messages of the all-to-all's construction (a2a_messages below), and for the others m (P-1) / k
 * messages of L tau (a processor receives, or the root sends, m (P-1) messages on at most k
 * streams a step, and a step lasts its largest stream).
 */
#include "algo/star_tcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oc__tcp_init(oc__tcp *t, uint32_t P, uint32_t k, char *why, size_t len) {
    memset(t, 0, sizeof *t);
    t->P = P;
    t->k = k;
    uint64_t v = 1;
    while (v < P) {
        v *= (uint64_t)k + 1;
        t->h++;
    }
    t->Pv = v;
    t->pw = oc__calloc((size_t)t->h + 1, sizeof(uint64_t));
    if (!t->pw) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    t->pw[0] = 1;
    for (uint32_t i = 1; i <= t->h; i++)
        t->pw[i] = t->pw[i - 1] * ((uint64_t)k + 1);
    return 0;
}

void oc__tcp_free(oc__tcp *t) {
    free(t->pos);
    free(t->size);
    t->pos = t->size = NULL;
    free(t->pw);
    t->pw = NULL;
}

static const char *const tcp_params[] = {"k", "m", NULL};

int oc__tcp_plan(oc__plan *plan, const char *algo, oc_collective coll, uint32_t nodes,
                 uint32_t root, uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    uint64_t k, m;
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    int rc = oc__kv_only(params, tcp_params, algo, why, len);
    if (rc || (rc = oc__kv_u64(params, "k", 3, 1, 64, &k, why, len))) return rc;
    /* A broadcast's m defaults to (k+1)^h, as tcp1-split's does, so the two compare. */
    uint64_t dm = coll == OC_BROADCAST ? oc__tcp_bcast_m(nodes, k) : 1;
    if ((rc = oc__kv_u64(params, "m", dm, 1, 1u << 22, &m, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)m, why, len))) return rc;
    oc__tcp *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = t;
    if ((rc = oc__tcp_init(t, nodes, (uint32_t)k, why, len))) return rc;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)k);
    rc |= oc_kv_set(plan->used, "k", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)m);
    rc |= oc_kv_set(plan->used, "m", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

void oc__tcp_release(oc__plan *plan) {
    oc__tcp *t = plan->state;
    if (t) oc__tcp_free(t);
    free(t);
    plan->state = NULL;
}

uint32_t oc__tcp_steps(uint32_t P, uint64_t k) {
    uint32_t h = 0;
    for (uint64_t v = 1; v < P; v *= k + 1)
        h++;
    return h;
}

uint64_t oc__tcp_bcast_m(uint32_t nodes, uint64_t k) {
    uint64_t m = 1;
    while (m < nodes && m <= (1u << 16) / (k + 1))
        m *= k + 1;
    return m;
}

int oc__tcp_pinned_k(const oc__search_in *in, const char *algo, uint64_t *k, uint64_t *knet,
                     char *why, size_t len) {
    *knet = in->net->channels ? in->net->channels : 1;
    *k = 0;
    const char *pk = oc_kv_get(in->params, "k");
    if (!pk) return 0;
    if (oc_parse_u64(pk, 1, *knet, k))
        return oc__fail(why, len, OC_EINVAL,
                        "%s: k=%s: expected a whole number from 1 to %llu (the network's k = "
                        "%llu wavelengths per processor; raise it with --net k=)",
                        algo, pk, (unsigned long long)*knet, (unsigned long long)*knet);
    return 0;
}

int oc__tcp_messages(const oc__search_in *in, const char *algo, uint64_t cap, uint64_t *m,
                     char *why, size_t len) {
    const oc__star_cfg *star = oc__netcfg_star(&in->net->cfg); /* the star's message length */
    const double L = star ? star->L : 1;
    if (oc_kv_get(in->params, "m"))
        return oc__fail(why, len, OC_EINVAL,
                        "%s: m is not a parameter: it is the workload, SIZE / L messages "
                        "(here %llu bytes / L = %g); change it with -s or --net L=",
                        algo, (unsigned long long)in->bytes, L);
    if (!(L >= 1))
        return oc__fail(why, len, OC_EINVAL,
                        "%s: L=%g: the star's message length must be at least 1 byte", algo, L);
    const double q = ceil((double)in->bytes / L);
    if (q > (double)cap)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: %llu bytes in messages of L = %g bytes are %.0f messages, more "
                        "than %llu: raise --net L= to at least %.0f",
                        algo, (unsigned long long)in->bytes, L, q, (unsigned long long)cap,
                        ceil((double)in->bytes / (double)cap));
    *m = q < 1 ? 1 : (uint64_t)q;
    return 0;
}

/* The all-to-all's messages per message of a block (alltoall_tcp2.c): the sum over its h steps
 * of the largest stream, exact for the cliques and the shifts. */
static uint64_t a2a_messages(uint32_t P, uint64_t k) {
    /* step s's largest stream is j = 1's: the offsets o < P whose digit s is 1 */
    uint64_t total = 0;
    for (uint64_t W = 1; W < P; W *= k + 1) {
        uint64_t cycle = W * (k + 1), r = P % cycle, tail = r > W ? r - W : 0;
        total += P / cycle * W + (tail < W ? tail : W);
    }
    return total;
}

int oc__tcp_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    uint64_t kpin, knet, m;
    const int tcp2 = in->coll == OC_GOSSIP || in->coll == OC_ALLTOALL;
    int rc = oc__tcp_pinned_k(in, tcp2 ? "tcp2" : "tcp1", &kpin, &knet, why, len);
    if (rc || (rc = oc__tcp_messages(in, tcp2 ? "tcp2" : "tcp1", 1u << 22, &m, why, len)))
        return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, in->coll, (uint32_t)m, &f, why, len))) return rc;
    const double D = f.step_fixed, unit = f.step_time - f.step_fixed;
    char kb[32], mb[32];
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)m);
    for (uint64_t k = kpin ? kpin : knet; k >= 1; k--) {
        const uint32_t h = oc__tcp_steps(in->nodes, k);
        double comm = (double)m * (in->nodes - 1.0) / (double)k;
        const char *name = "h(k) retuned steps + m (P-1) / k messages";
        if (in->coll == OC_BROADCAST) {
            comm = (double)h * (double)m;
            name = "h(k) retuned steps of m messages each";
        } else if (in->coll == OC_ALLTOALL) {
            comm = (double)m * (double)a2a_messages(in->nodes, k);
            name = "h(k) retuned steps + the construction's largest streams";
        }
        const oc__bound b = {.time_s = h * D + comm * unit, .steps = h, .name = name};
        snprintf(kb, sizeof kb, "%llu", (unsigned long long)k);
        const char *kv[] = {"k", kb, "m", mb};
        if ((rc = oc__search_offer(s, &b, 2, kv))) return rc;
        if (kpin) break;
    }
    return 0;
}

int oc__tcp_send_wrapped(oc__emit *e, uint32_t src, uint32_t dst, uint64_t base, uint64_t first,
                         uint64_t count, uint64_t P, uint64_t q) {
    first %= P;
    uint64_t head = count < P - first ? count : P - first;
    int rc = oc__emit_transfer(e, src, dst, OC_OP_COPY, (uint32_t)(base + first * q),
                               (uint32_t)(head * q));
    if (!rc && count > head)
        rc = oc__emit_transfer(e, src, dst, OC_OP_COPY, (uint32_t)base,
                               (uint32_t)((count - head) * q));
    return rc;
}

int oc__tcp_report(const oc__plan *plan, const oc__formula_in *in, oc_report *rep, double comm,
                   double retunings, double lower_bound) {
    const oc__tcp *t = plan->state;
    return oc__tcp_report_steps(plan, in, rep, t->h, comm, retunings, lower_bound);
}

int oc__tcp_report_steps(const oc__plan *plan, const oc__formula_in *in, oc_report *rep,
                         uint32_t steps, double comm, double retunings, double lower_bound) {
    const oc__tcp *t = plan->state;
    rep->has_formula = 1;
    rep->steps_formula = steps;
    int rc = oc__report_num(rep, "h", t->h);
    rc |= oc__report_num(rep, "formula_communication_messages", comm);
    rc |= oc__report_num(rep, "formula_retunings", retunings);
    rc |= oc__report_num(rep, "lower_bound_communication_messages", lower_bound);
    const double D = in->step_fixed, Ltau = in->step_time - in->step_fixed;
    rep->has_time_formula = 1;
    rep->time_formula_s = comm * Ltau + rep->steps_formula * D;
    /* Not the seed's total: section 3 pays D for every tuning, this closed form D once a step
     * (section 1's step, what the model charges); the seed's total is a figure and a note. */
    rep->time_formula_label = "closed form, D once per step:";
    rc |= oc__report_num(rep, "formula_communication_cost", comm * Ltau);
    rc |= oc__report_num(rep, "formula_tuning_cost", retunings * D);
    rc |= oc__report_num(rep, "formula_seed_total_cost", comm * Ltau + retunings * D);
    /* the model's finish() has set the unit of the times (tau, or D when tau = 0) */
    const double unit_value = rep->time_unit_value > 0 ? rep->time_unit_value : 1;
    rc |= oc__report_note(rep,
                          "the seed's section 3 total, D for each of its %g tunings, is %.6g %s; "
                          "the time above pays D once per step (section 1)",
                          retunings, (comm * Ltau + retunings * D) / unit_value,
                          rep->time_unit[0] ? rep->time_unit : "s");
    if (t->Pv != t->P) {
        /* The model's figures are in the report already (finish() runs before formula()). */
        double sim = NAN;
        oc_report_number(rep, "communication_messages", &sim);
        rc |= oc__report_note(rep,
                              "P = %u is not a power of k + 1 = %u: the formulas are those of "
                              "padding to (k+1)^h = %llu (h = %u) with %llu dummy nodes (%g "
                              "messages in %u steps); simulated: %g messages in %llu steps, "
                              "against the section 4 lower bound of %g messages at P = %u",
                              t->P, t->k + 1, (unsigned long long)t->Pv, t->h,
                              (unsigned long long)(t->Pv - t->P), comm, steps, sim,
                              (unsigned long long)rep->steps, lower_bound, t->P);
        rc |= oc__report_num(rep, "dummy_nodes", (double)(t->Pv - t->P));
    }
    return rc;
}

/* Preorder from virtual v, reached at step lv; returns the real processors of its subtree. */
static uint32_t visit(oc__tcp *t, oc__spec *spec, uint64_t v, uint32_t lv, uint32_t *next) {
    if (v >= t->P) return 0;
    uint32_t here = (*next)++;
    t->pos[v] = here;
    spec->block_node[here] = (uint32_t)((v + spec->root) % t->P);
    uint32_t n = 1;
    for (uint32_t l = t->h; l > lv; l--)
        for (uint32_t j = 0; j < t->k; j++)
            n += visit(t, spec, oc__tcp1_child(t, l, v, j), l, next);
    t->size[v] = n;
    return n;
}

static int tcp1_label(oc__tcp *t, oc__spec *spec, char *why, size_t len) {
    t->pos = oc__calloc(t->P, sizeof(uint32_t));
    t->size = oc__calloc(t->P, sizeof(uint32_t));
    spec->block_node = oc__calloc(t->P, sizeof(uint32_t));
    if (!t->pos || !t->size || !spec->block_node)
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    uint32_t next = 0;
    visit(t, spec, 0, 0, &next);
    return 0;
}

int oc__tcp1_rounds(const oc__plan *plan, oc__emit *e, int direction, int what) {
    const oc__tcp *t = plan->state;
    const uint32_t q = plan->spec.q, root = plan->spec.root;
    for (uint32_t s = 1; s <= t->h; s++) {
        const uint32_t l = direction == OC__TCP1_UP ? t->h + 1 - s : s;
        for (uint64_t i = 0; i < t->pw[l - 1] && i < t->P; i++)
            for (uint32_t j = 0; j < t->k; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                if (c >= t->P) continue;
                const uint32_t parent = (uint32_t)((i + root) % t->P),
                               child = (uint32_t)((c + root) % t->P);
                const uint32_t first = what == OC__TCP1_SUBTREE ? t->pos[c] * q : 0,
                               count = what == OC__TCP1_SUBTREE ? t->size[c] * q : q;
                int rc = direction == OC__TCP1_UP
                             ? oc__emit_transfer(e, child, parent, OC_OP_COPY, first, count)
                             : oc__emit_transfer(e, parent, child, OC_OP_COPY, first, count);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

int oc__tcp1_subtree_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__tcp_plan(plan, "tcp1", coll, nodes, root, bytes, params, why, len);
    if (!rc) rc = tcp1_label(plan->state, &plan->spec, why, len);
    /* the work (core.h): each processor but the root gets (or sends) its subtree's blocks once */
    const oc__tcp *t = plan->state;
    for (uint64_t v = 1; !rc && v < t->P; v++)
        plan->spec.units += (uint64_t)t->size[v] * plan->spec.q;
    if (!rc) plan->spec.transfers = nodes - 1;
    return rc;
}

int oc__tcp1_subtree_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double Pv = (double)t->Pv, k = t->k, q = plan->spec.q;
    return oc__tcp_report(plan, in, rep, q * (Pv - 1) / k, Pv - 1, q * ((double)t->P - 1) / k);
}

int oc__tcp2_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t len) {
    int rc = oc__tcp_plan(plan, "tcp2", coll, nodes, root, bytes, params, why, len);
    if (rc) return rc;
    /* at most two transfers per stream (a range that wraps); the all-to-all's streams carry a
     * range per destination */
    const oc__tcp *t = plan->state;
    uint64_t streams = (uint64_t)nodes * t->k * t->h;
    /* The largest round, known ahead so that it is budgeted before anything is generated (the
     * all-to-all's first round is 12.6 million transfers at P = 4096, k = 3). Gossip: k streams a
     * processor. All-to-all, step s (W = (k+1)^s): a processor sends to j = 1..k (jW < P) one
     * range per destination offset base = jW, jW + W(k+1), ... < P, and a range of sources
     * wraps past P only for the W - 1 senders x < W - 1 (alltoall_tcp2.c), so at most
     * (P + W - 1) k ceil(P / (W(k+1))) transfers; at P = (k+1)^h the cliques send P k P/(W(k+1)). */
    uint64_t most = 2 * (uint64_t)nodes * t->k;
    if (coll == OC_ALLTOALL) {
        most = 0;
        for (uint32_t i = 0; i < t->h; i++) {
            const uint64_t W = t->pw[i], W1 = t->pw[i + 1];
            const uint64_t partners = (nodes - 1) / W < t->k ? (nodes - 1) / W : t->k;
            const uint64_t r = (nodes + W - 1) * partners * oc__ceil_div(nodes, W1);
            if (r > most) most = r;
        }
    }
    plan->spec.max_round = most;
    /* The work (core.h). Gossip: every block to every other processor once, in at most two
     * transfers a stream. All-to-all, an upper bound: a packet moves at most once a step, and
     * a step's transfers are at most its bound above. */
    plan->spec.units = (uint64_t)nodes * (nodes - 1) * plan->spec.q;
    plan->spec.transfers = 2 * streams;
    if (coll == OC_ALLTOALL) {
        plan->spec.units *= t->h;
        plan->spec.transfers = 0;
        for (uint32_t i = 0; i < t->h; i++) {
            const uint64_t W = t->pw[i], W1 = t->pw[i + 1];
            const uint64_t partners = (nodes - 1) / W < t->k ? (nodes - 1) / W : t->k;
            plan->spec.transfers += (nodes + W - 1) * partners * oc__ceil_div(nodes, W1);
        }
    }
    return oc__plan_work("tcp2", nodes, coll == OC_GOSSIP ? 2 * streams : (uint64_t)nodes * nodes * 2,
                         why, len);
}

double oc__tcp_hp_opt_seed(double P, double h, double k, double m, double D) {
    const double K = k + 1;
    return h - 1 + 1 / log(K) - oc__lambert_w0(P * P * exp(1) * k * k * D / (2 * m * K)) / log(K);
}

double oc__tcp_hp_stationary(double P, double h, double k, double m, double D) {
    const double K = k + 1;
    return h - 2 / k + (1 - oc__lambert_w0(P * P * exp(1) * k * D / (m * pow(K, 2 / k)))) / log(K);
}

double oc__tcp_split_seed_total(double P, double h, double k, double m, double hp, double D) {
    const double K = k + 1, Khp = pow(K, hp);
    return (2 / k * (Khp - 1) + h - hp) * m / Khp + ((P - 1) + hp * P * k) * D;
}
