/*
 * throughput.c — the lumorph seed's end-to-end estimate (section 4, Fig. 4(a)): how many training
 * samples per second a data-parallel model reaches when its gradient all-reduce runs on the
 * Lumorph photonic rack (rhd radix 2 or 4 on the `fabric` model) instead of Ring on an ideal
 * electrical switch (the `switch` model), the seed's "hardest baseline".
 *
 * The seed does not give its model: it runs FlexFlow's optimal strategy for BERT through the
 * FlexFlow simulator and reports "up to 1.7X". What it does say is why: "the parallelization
 * strategy has many AllReduce calls of small buffer sizes", which are alpha-dominated. So this is
 * the simplest model that keeps that mechanism and whose every input is visible:
 *
 *   compute per iteration   = 6 x parameters x tokens per sample x batch per GPU
 *                             / (peak FLOP/s x utilisation)
 *       (2 FLOPs per parameter and token forward, 4 backward: Kaplan et al. 2020, "Scaling laws
 *       for neural language models", C = 6 N per token; attention's extra 2 n_layer n_ctx d_model
 *       per token and pass are left out: 24 x 128 x 1024 / 340M = 0.9 % for BERT-large at
 *       sequence length 128)
 *   communication           = buckets x one all-reduce of ceil(4 x parameters / buckets) bytes
 *       (float32 gradients as `opticoll train`; per-layer buckets: BERT-large has 24 layers; the
 *       last bucket is costed at the full size, an upper bound of at most one bucket's rounding)
 *   iteration               = compute + communication (no overlap: the seed mentions none)
 *   throughput              = batch x nodes / iteration, samples per second
 *
 * Every all-reduce is one oc_run (generated, verified, mapped, resource-checked, costed); the
 * times are the models' own, not formulas. The compute time is a formula of documented inputs, so
 * the speedup depends on them (peak, utilisation, batch, buckets); the caller shows them. Each run
 * reports to the caller's progress callback (in.progress), so a stop asked there (the Python
 * package's Ctrl-C) ends a run of seconds on tens of thousands of GPUs within a report.
 */
#include "studies/studies.h"
#include "core/json.h"
#include "core/quote.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *label, *algorithm, *network, *params;
    uint32_t radix;
} sides[3] = {{"Lumorph-2", "rhd", "fabric", "radix=2", 2},
              {"Lumorph-4", "rhd", "fabric", "radix=4", 4},
              {"Ring", "ring", "switch", NULL, 0}};

static int run_side(const oc_throughput *t, int i, oc_throughput_side *s, char *why, size_t len) {
    oc_kv *kv = oc_kv_new();
    if (!kv || (sides[i].params && oc_kv_set_pair(kv, sides[i].params))) {
        oc_kv_free(kv);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = sides[i].algorithm,
                      .network = sides[i].network,
                      .nodes = t->in.nodes,
                      .bytes = t->bucket_bytes,
                      .params = kv,
                      .skip_data_check = t->in.skip_data_check,
                      .progress = t->in.progress,
                      .progress_ctx = t->in.progress_ctx};
    oc_report *rep = NULL;
    int rc = oc_run(&req, &rep, why, len);
    oc_kv_free(kv);
    if (rc) return rc;
    s->label = sides[i].label;
    s->algorithm = sides[i].algorithm;
    s->network = sides[i].network;
    s->radix = sides[i].radix;
    s->allreduce_s = oc_report_time(rep);
    s->formula_s = rep->has_time_formula ? rep->time_formula_s : NAN;
    s->verified = oc_report_verified(rep);
    oc_report_free(rep);
    if (!s->verified)
        return oc__fail(why, len, OC_EVERIFY, "%s all-reduce on %u nodes did not verify", s->label,
                        t->in.nodes);
    s->comm_s = (double)t->in.buckets * s->allreduce_s;
    s->iteration_s = t->compute_s + s->comm_s;
    s->samples_per_s = (double)t->in.batch * t->in.nodes / s->iteration_s;
    return 0;
}

static int throughput_estimate_in(const oc_throughput_in *in, oc_throughput *out, char *why,
                                  size_t whylen) {
    if (why && whylen) why[0] = 0;
    if (!in || !out) return oc__fail(why, whylen, OC_EINVAL, "throughput: no input or output");
    memset(out, 0, sizeof *out);
    if (in->parameters == 0 || in->parameters > OC_MODEL_MAX_PARAMETERS)
        return oc__fail(why, whylen, OC_EINVAL, "throughput: parameters must be 1 .. %llu",
                        (unsigned long long)OC_MODEL_MAX_PARAMETERS);
    if (in->batch == 0 || in->batch > OC_MODEL_MAX_COUNT)
        return oc__fail(why, whylen, OC_EINVAL, "throughput: batch must be 1 .. %llu",
                        (unsigned long long)OC_MODEL_MAX_COUNT);
    if (in->nodes < 2)
        return oc__fail(why, whylen, OC_EINVAL, "throughput: needs at least 2 nodes, not %u",
                        in->nodes);
    if (in->buckets == 0 || in->buckets > OC_THROUGHPUT_MAX_BUCKETS)
        return oc__fail(why, whylen, OC_EINVAL, "throughput: buckets must be 1 .. %u",
                        OC_THROUGHPUT_MAX_BUCKETS);
    if ((uint64_t)in->buckets > OC_GRADIENT_BYTES_PER_PARAMETER * in->parameters)
        return oc__fail(why, whylen, OC_EINVAL,
                        "throughput: %u buckets of a %llu-byte gradient leave empty buckets",
                        in->buckets,
                        (unsigned long long)(OC_GRADIENT_BYTES_PER_PARAMETER * in->parameters));
    if (in->tokens == 0 || in->tokens > OC_MODEL_MAX_COUNT)
        return oc__fail(why, whylen, OC_EINVAL, "throughput: tokens per sample must be 1 .. %llu",
                        (unsigned long long)OC_MODEL_MAX_COUNT);
    /* bounds that keep every printed time a number of sane width (1e-300 gave 300 digits) */
    if (!(in->peak_tflops >= OC_THROUGHPUT_MIN_PEAK && in->peak_tflops <= OC_THROUGHPUT_MAX_PEAK))
        return oc__fail(why, whylen, OC_EINVAL, "throughput: peak TFLOP/s must be in [%g, %g]",
                        OC_THROUGHPUT_MIN_PEAK, OC_THROUGHPUT_MAX_PEAK);
    if (!(in->utilisation >= OC_THROUGHPUT_MIN_UTIL && in->utilisation <= 1))
        return oc__fail(why, whylen, OC_EINVAL, "throughput: utilisation must be in [%g, 1]",
                        OC_THROUGHPUT_MIN_UTIL);
    out->in = *in;
    out->in.model = NULL; /* the caller's string may not outlive *out: copied, whole */
    if (!(out->model = strdup(in->model ? in->model : "")))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    out->bucket_bytes = oc__ceil_div(OC_GRADIENT_BYTES_PER_PARAMETER * in->parameters, in->buckets);
    out->flops = 6.0 * (double)in->parameters * (double)in->tokens * (double)in->batch;
    out->compute_s = out->flops / (in->peak_tflops * 1e12 * in->utilisation);
    for (int i = 0; i < 3; i++) {
        int rc = run_side(out, i, &out->side[i], why, whylen);
        if (rc) {
            oc_throughput_free(out);
            return rc;
        }
    }
    out->best = out->side[1].iteration_s < out->side[0].iteration_s ? 1 : 0;
    out->speedup = out->side[out->best].samples_per_s / out->side[2].samples_per_s;
    return 0;
}

int oc_throughput_estimate(const oc_throughput_in *in, oc_throughput *out, char *why,
                           size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(in ? in->settings : NULL, &prev, why, whylen);
    if (!rc) rc = throughput_estimate_in(in, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

void oc_throughput_free(oc_throughput *t) {
    if (!t) return;
    free(t->model);
    memset(t, 0, sizeof *t);
}

/* %.*f while that stays short, else %.4g: a huge or tiny value never prints hundreds of digits */
static void fixed_or_g(char *buf, size_t len, int width, int prec, double v) {
    if (fabs(v) < 1e9 && (v == 0 || fabs(v) >= 1e-3))
        snprintf(buf, len, "%*.*f", width, prec, v);
    else
        snprintf(buf, len, "%*.4g", width, v);
}

int oc_throughput_write_text(const oc_throughput *t, FILE *f) {
    const oc_throughput_in *in = &t->in;
    /* the name is the caller's text (a models file, Python): escaped for a terminal, whole */
    char *name = oc__quote_whole(t->model && *t->model ? t->model : "a model");
    if (!name) return OC_ENOMEM;
    fprintf(f,
            "training throughput of %s on %u GPUs: %llu parameters, batch %llu per GPU, %llu "
            "tokens per sample\n",
            name, in->nodes, (unsigned long long)in->parameters, (unsigned long long)in->batch,
            (unsigned long long)in->tokens);
    free(name);
    char ms[32];
    fixed_or_g(ms, sizeof ms, 0, 4, t->compute_s * 1e3);
    fprintf(f,
            "  compute:  6 x %llu x %llu x %llu = %.4g FLOP per GPU at %g TFLOP/s x %g = %s ms\n",
            (unsigned long long)in->parameters, (unsigned long long)in->tokens,
            (unsigned long long)in->batch, t->flops, in->peak_tflops, in->utilisation, ms);
    fprintf(f,
            "  gradient: %llu bytes (float32) in %u all-reduces of %llu bytes, after the "
            "compute (no overlap)\n",
            (unsigned long long)(OC_GRADIENT_BYTES_PER_PARAMETER * in->parameters), in->buckets,
            (unsigned long long)t->bucket_bytes);
    fprintf(f, "  %-10s %-7s %-7s %14s %14s %14s %14s\n", "", "algo", "network", "allreduce us",
            "comm ms", "iteration ms", "samples/s");
    for (int i = 0; i < 3; i++) {
        const oc_throughput_side *s = &t->side[i];
        char algo[16];
        snprintf(algo, sizeof algo, s->radix ? "%s r%u" : "%s", s->algorithm, s->radix);
        char v[4][32];
        fixed_or_g(v[0], sizeof v[0], 14, 3, s->allreduce_s * 1e6);
        fixed_or_g(v[1], sizeof v[1], 14, 4, s->comm_s * 1e3);
        fixed_or_g(v[2], sizeof v[2], 14, 4, s->iteration_s * 1e3);
        fixed_or_g(v[3], sizeof v[3], 14, 1, s->samples_per_s);
        fprintf(f, "  %-10s %-7s %-7s %s %s %s %s%s\n", s->label, algo, s->network, v[0], v[1],
                v[2], v[3], i == t->best ? "  (best Lumorph)" : "");
    }
    fprintf(f, "  speedup of %s over Ring: %.3fx (every all-reduce a verified schedule)\n",
            t->side[t->best].label, t->speedup);
    return ferror(f) ? OC_EIO : 0;
}

int oc_throughput_write_json(const oc_throughput *t, FILE *f) {
    const oc_throughput_in *in = &t->in;
    cJSON *o = cJSON_CreateObject();
    int ok = oc__json_str(o, "model", t->model && *t->model ? t->model : NULL) &&
             oc__json_u64(o, "nodes", in->nodes) && oc__json_u64(o, "parameters", in->parameters) &&
             oc__json_u64(o, "batch_per_gpu", in->batch) && oc__json_u64(o, "tokens", in->tokens) &&
             oc__json_num(o, "peak_tflops", in->peak_tflops) &&
             oc__json_num(o, "utilisation", in->utilisation) &&
             oc__json_u64(o, "buckets", in->buckets) &&
             oc__json_u64(o, "bucket_bytes", t->bucket_bytes) &&
             oc__json_num(o, "flops_per_gpu", t->flops) &&
             oc__json_num(o, "compute_s", t->compute_s);
    cJSON *arr = ok ? oc__json_arr(o, "sides") : NULL;
    ok = arr != NULL;
    for (int i = 0; ok && i < 3; i++) {
        const oc_throughput_side *s = &t->side[i];
        cJSON *x = oc__json_obj(arr, NULL);
        ok = oc__json_str(x, "label", s->label) && oc__json_str(x, "algorithm", s->algorithm) &&
             oc__json_str(x, "network", s->network) && oc__json_u64(x, "radix", s->radix) &&
             oc__json_num(x, "allreduce_s", s->allreduce_s) &&
             oc__json_num(x, "allreduce_formula_s", s->formula_s) && /* NAN: null */
             oc__json_bool(x, "verified", s->verified) && oc__json_num(x, "comm_s", s->comm_s) &&
             oc__json_num(x, "iteration_s", s->iteration_s) &&
             oc__json_num(x, "samples_per_s", s->samples_per_s);
    }
    ok = ok && oc__json_str(o, "best_lumorph", t->side[t->best].label) &&
         oc__json_num(o, "speedup", t->speedup);
    if (!ok) {
        cJSON_Delete(o);
        o = NULL; /* oc__json_write: out of memory */
    }
    return oc__json_write(f, o, OC__JSON_SPACED, "\n");
}
