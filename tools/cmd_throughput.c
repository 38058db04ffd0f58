/*
 * cmd_throughput.c — `opticoll throughput`: the lumorph seed's training-throughput estimate
 * (section 4, Fig. 4(a)) for any model of the models file and any number of GPUs: compute from
 * 6 x parameters x tokens x batch at a stated peak and utilisation, the gradient all-reduce in
 * per-layer buckets simulated on Lumorph (rhd radix 2 and 4 on `fabric`) and on Ring over the
 * ideal switch; samples per second of each and the speedup (src/studies/throughput.c has the model).
 * Parsing and printing only; every input has a default that the help states.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cmd_throughput(int argc, char **argv);

static const char *const help =
    "usage: opticoll throughput -m MODEL -n N [--buckets B] [--tokens T] [--peak-tflops F]\n"
    "                           [--utilisation U] [--models FILE] [--no-data-check] [--json]\n\n"
    "Training samples per second of data-parallel MODEL on N GPUs, Lumorph (rhd radix 2 and 4\n"
    "on the photonic fabric) against Ring on the ideal electrical switch (the lumorph seed's\n"
    "section 4). One iteration = compute, then the gradient all-reduce, no overlap:\n"
    "    compute = 6 x parameters x tokens x batch / (peak x utilisation)\n"
    "    comm    = B all-reduces of ceil(4 x parameters / B) bytes, each a verified schedule\n"
    "    samples/s = batch x N / (compute + comm)\n"
    "The network models keep their defaults (alpha 0.7 us, 300 GB/s, MZI reconfiguration\n"
    "3.7 us, 32 tiles of 16 wavelengths per server).\n\n"
    "  -m, --model NAME        a model of the models file (BERT-base, BERT-large, ...): its\n"
    "                          parameters and its batch per GPU\n"
    "      --models FILE       models file (default: the models.tsv shipped with opticoll)\n"
    "  -n, --nodes N           GPUs, at least 2\n"
    "      --buckets B         all-reduces per iteration (default 24: one per layer of\n"
    "                          BERT-large; set your model's layer or bucket count)\n"
    "      --tokens T          tokens per sample (default 128, the sequence length of the\n"
    "                          models file's BERT batches)\n"
    "      --peak-tflops F     peak FLOP/s of one GPU in 10^12 (default 312: A100 BF16 dense,\n"
    "                          the GPU of the seed's 300 GB/s NVLink)\n"
    "      --utilisation U     fraction of the peak reached, (0, 1] (default 0.5, an assumption)\n"
    "      --no-data-check     skip the real-data runs (the symbolic verifier always runs)\n"
    "      --json              one JSON object (inputs, compute_s, sides, speedup)\n\n"
    "examples:\n"
    "  opticoll throughput -m BERT-large -n 256\n"
    "  opticoll throughput -m BERT-base -n 1024 --buckets 24 --json\n";

typedef struct opt {
    const char *model, *models, *nodes, *buckets, *tokens, *peak, *util;
    int json, no_data, help;
} opt;

static int parse(int argc, char **argv, opt *o) {
    enum { MODEL, MODELS, NODES, BUCKETS, TOKENS, PEAK, UTIL, JSON, NODATA, HELP };
    static const arg_option opts[] = {
        {"-m", "--model", 1, MODEL},      {NULL, "--models", 1, MODELS},
        {"-n", "--nodes", 1, NODES},      {NULL, "--buckets", 1, BUCKETS},
        {NULL, "--tokens", 1, TOKENS},    {NULL, "--peak-tflops", 1, PEAK},
        {NULL, "--utilisation", 1, UTIL}, {NULL, "--utilization", 1, UTIL},
        {NULL, "--json", 0, JSON},        {NULL, "--no-data-check", 0, NODATA},
        {"-h", "--help", 0, HELP}};
    const char *v[HELP + 1] = {0};
    int rc = read_options("throughput", argc, argv, opts, sizeof opts / sizeof opts[0], v, NULL);
    *o = (opt){v[MODEL], v[MODELS], v[NODES],  v[BUCKETS],  v[TOKENS],
               v[PEAK],  v[UTIL],   !!v[JSON], !!v[NODATA], !!v[HELP]};
    return rc;
}

static int u64_arg(const char *text, const char *name, uint64_t min, uint64_t max, uint64_t dflt,
                   uint64_t *out) {
    if (!text) {
        *out = dflt;
        return 0;
    }
    if (oc_parse_u64(text, min, max, out)) {
        char line[600];
        snprintf(line, sizeof line, "throughput: %s %s: not a whole number in %llu .. %llu", name,
                 OC_Q(text), (unsigned long long)min, (unsigned long long)max);
        return die_line(EXIT_USAGE, line);
    }
    return 0;
}

static int double_arg(const char *text, const char *name, double min, double max, double dflt,
                      double *out) {
    if (!text) {
        *out = dflt;
        return 0;
    }
    if (oc_parse_double(text, min, max, out)) {
        char line[600];
        snprintf(line, sizeof line, "throughput: %s %s: not a number from %g to %g", name,
                 OC_Q(text), min, max);
        return die_line(EXIT_USAGE, line);
    }
    return 0;
}

int cmd_throughput(int argc, char **argv) {
    opt o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (o.help) {
        fputs(help, stdout);
        return 0;
    }
    if (!o.model) return die(EXIT_USAGE, "throughput: missing -m MODEL (see --help)", NULL, NULL);
    if (!o.nodes) return die(EXIT_USAGE, "throughput: missing -n NODES", NULL, NULL);
    uint64_t nodes, buckets, tokens;
    double peak, util;
    if ((rc = u64_arg(o.nodes, "-n", 2, OC_MAX_NODES, 0, &nodes)) ||
        (rc = u64_arg(o.buckets, "--buckets", 1, OC_THROUGHPUT_MAX_BUCKETS, 24, &buckets)) ||
        (rc = u64_arg(o.tokens, "--tokens", 1, OC_MODEL_MAX_COUNT, 128, &tokens)) ||
        (rc = double_arg(o.peak, "--peak-tflops", OC_THROUGHPUT_MIN_PEAK, OC_THROUGHPUT_MAX_PEAK,
                         312, &peak)) ||
        (rc = double_arg(o.util, "--utilisation", OC_THROUGHPUT_MIN_UTIL, 1, 0.5, &util)))
        return rc;
    oc_model *models = NULL;
    size_t count = 0;
    char why[512] = "";
    int err = oc_models_read(&cli_settings, o.models ? o.models : oc_models_default(), &models,
                             &count, why, sizeof why);
    if (err) return lib_error(err, why);
    const oc_model *m = oc_model_find(models, count, o.model);
    if (!m) {
        oc_models_free(models);
        return die(EXIT_USAGE, "throughput: unknown model '%s' (see the models file)", o.model,
                   NULL);
    }
    oc_throughput_in in = {.model = m->name,
                           .parameters = m->parameters,
                           .batch = m->batch,
                           .nodes = (uint32_t)nodes,
                           .buckets = (uint32_t)buckets,
                           .tokens = tokens,
                           .peak_tflops = peak,
                           .utilisation = util,
                           .skip_data_check = o.no_data,
                           /* each side's run says ahead when it will take long, and shows its
                            * progress on a terminal (131072 GPUs ran past 150 s without a word:
                            * the runs had no progress callback) */
                           .progress = cli_progress,
                           .settings = &cli_settings};
    oc_throughput t;
    err = oc_throughput_estimate(&in, &t, why, sizeof why);
    oc_models_free(models);
    if (err) return lib_error(err, why);
    /* Render into memory first so that a failure half-way prints nothing. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    err = o.json ? oc_throughput_write_json(&t, mem) : oc_throughput_write_text(&t, mem);
    oc_throughput_free(&t);
    if (fclose(mem) && !err) err = OC_ENOMEM;
    if (err) {
        free(buf);
        return lib_error(err, "cannot render the result");
    }
    fwrite(buf, 1, len, stdout);
    free(buf);
    return 0;
}
