/*
 * cmd_rack.c — `opticoll rack`: replays tenants arriving and leaving on a Lumorph rack and on two
 * fixed-slice racks (TPU-v4-like tori, SiPAC) of the same size, and prints what each rejected,
 * wasted and stranded, and every placed tenant's verified all-reduce time (lumorph seed, section
 * 3; the library side is src/studies/rack.c, opticoll_studies.h). `--example fig2a` prints the
 * seed's Fig. 2a scenario.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char rack_help[] =
    "usage: opticoll rack [--seed S] [--tenants T] [--trace FILE] [rack options] [--size SIZE]\n"
    "                     [--tenants-detail] [--json]\n"
    "       opticoll rack --example fig2a\n\n"
    "Replays tenants that arrive asking for g GPUs and later leave, on three racks of the same\n"
    "servers x tiles GPUs: lumorph (any free tiles, joined by circuits over spare fibres between\n"
    "servers), tpu (TPU-v4-like aligned power-of-two 3D-torus slices) and sipac (SiPAC(r,l):\n"
    "aligned sub-BCubes of r^k GPUs). Prints placed and rejected requests, time-averaged\n"
    "utilisation, rounding waste, idle and stranded GPUs, and each placed tenant's all-reduce\n"
    "time with the best algorithm for its allocation (every run verified).\n\n"
    "  --seed S             seed of the random trace (1)\n"
    "  --tenants T          tenants in the random trace, 1 to 100000 (200); arrivals 1-19 time\n"
    "                       units apart, stays of 1-199 units, g a power of two up to 64 or\n"
    "                       uniform in 1..64, half each (see README)\n"
    "  --trace FILE         replay FILE instead: lines 'TIME arrive ID GPUS' and 'TIME leave ID'\n"
    "                       ('#' comments; TIME never decreasing)\n"
    "  --servers N          servers in the rack, 1 to 128 (8)\n"
    "  --tiles T            tiles (GPUs) per server, 1 to 32 (32)\n"
    "  --fibres F           fibres per ordered pair of servers, 0 to 1024 (8)\n"
    "  --sipac-r R          SiPAC radix r, 2 to 64 (4)\n"
    "  --sipac-l L          SiPAC levels l, r^l <= 2^31 (4)\n"
    "  -s, --size SIZE      each tenant's all-reduce vector (64MiB)\n"
    "  --tenants-detail     also one line per tenant\n"
    "  --json               one JSON object (every tenant included)\n"
    "  --example fig2a      the seed's Fig. 2a example: User 4's 4 chips on fragmented servers\n\n"
    "examples:\n"
    "  opticoll rack\n"
    "  opticoll rack --tenants 20000 --json\n"
    "  opticoll rack --example fig2a\n";

/* Parses the value of `flag` into *out in [min, max]. */
static int number(const char *flag, const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    int rc = oc_parse_u64(text, min, max, out);
    if (rc == OC_EPARSE) return die(EXIT_USAGE, "rack: %s '%s' is not a whole number", flag, text);
    if (rc) {
        char msg[600];
        snprintf(msg, sizeof msg, "rack: %s %s is out of range (%llu to %llu)", flag, OC_Q(text),
                 (unsigned long long)min, (unsigned long long)max);
        return die_line(EXIT_USAGE, msg);
    }
    return 0;
}

int cmd_rack(int argc, char **argv) {
    enum {
        SEED,
        TENANTS,
        TRACE,
        SERVERS,
        TILES,
        FIBRES,
        SR,
        SL,
        SIZE,
        EXAMPLE,
        NVAL,
        JSON,
        DETAIL,
        HELP
    };
    static const arg_option opts[] = {
        /* in id order */
        {NULL, "--seed", 1, SEED},   {NULL, "--tenants", 1, TENANTS},
        {NULL, "--trace", 1, TRACE}, {NULL, "--servers", 1, SERVERS},
        {NULL, "--tiles", 1, TILES}, {NULL, "--fibres", 1, FIBRES},
        {NULL, "--sipac-r", 1, SR},  {NULL, "--sipac-l", 1, SL},
        {"-s", "--size", 1, SIZE},   {NULL, "--example", 1, EXAMPLE},
        {NULL, "--json", 0, JSON},   {NULL, "--tenants-detail", 0, DETAIL},
        {"-h", "--help", 0, HELP}};
    const char *val[HELP + 1] = {0};
    int bad = read_options("rack", argc, argv, opts, sizeof opts / sizeof opts[0], val, NULL);
    if (bad) return bad;
    int json = !!val[JSON], detail = !!val[DETAIL];
    if (val[HELP]) {
        fputs(rack_help, stdout);
        return 0;
    }
    char why[512] = "";
    if (val[EXAMPLE]) {
        if (strcmp(val[EXAMPLE], "fig2a"))
            return die(EXIT_USAGE, "rack: unknown example '%s' (there is fig2a)", val[EXAMPLE],
                       NULL);
        for (int k = 0; k < NVAL; k++)
            if (k != EXAMPLE && val[k])
                return die(EXIT_USAGE, "rack: %s does not apply to --example", opts[k].name,
                           NULL); /* opts[k] is option k: the list is in id order */
        if (json || detail)
            return die(EXIT_USAGE, "rack: %s does not apply to --example",
                       json ? "--json" : "--tenants-detail", NULL);
        int rc = oc_rack_fig2a(stdout, NULL, why, sizeof why);
        return rc ? lib_error(rc, why) : 0;
    }
    if (val[TRACE] && (val[SEED] || val[TENANTS]))
        return die(EXIT_USAGE, "rack: %s does not apply to --trace (the file is the trace)",
                   val[SEED] ? "--seed" : "--tenants", NULL);
    oc_rack_shape s = {.servers = 8,
                       .tiles = 32,
                       .fibres = 8,
                       .sipac_r = 4,
                       .sipac_l = 4,
                       .bytes = UINT64_C(64) << 20,
                       .settings = &cli_settings};
    uint64_t v, seed = 1, tenants = 200;
    if (val[SERVERS]) {
        if (number("--servers", val[SERVERS], 1, OC_RACK_MAX_SERVERS, &v)) return EXIT_USAGE;
        s.servers = (uint32_t)v;
    }
    if (val[TILES]) {
        if (number("--tiles", val[TILES], 1, OC_RACK_MAX_TILES, &v)) return EXIT_USAGE;
        s.tiles = (uint32_t)v;
    }
    if (val[FIBRES]) {
        if (number("--fibres", val[FIBRES], 0, OC_RACK_MAX_FIBRES, &v)) return EXIT_USAGE;
        s.fibres = (uint32_t)v;
    }
    if (val[SR]) {
        if (number("--sipac-r", val[SR], 2, 64, &v)) return EXIT_USAGE;
        s.sipac_r = (uint32_t)v;
    }
    if (val[SL]) {
        if (number("--sipac-l", val[SL], 1, 31, &v)) return EXIT_USAGE;
        s.sipac_l = (uint32_t)v;
    }
    if (val[SEED] && number("--seed", val[SEED], 0, UINT64_MAX, &seed)) return EXIT_USAGE;
    if (val[TENANTS] && number("--tenants", val[TENANTS], 1, OC_RACK_MAX_TENANTS, &tenants))
        return EXIT_USAGE;
    if (val[SIZE]) {
        int rc = oc_parse_size(val[SIZE], &s.bytes);
        if (rc || s.bytes == 0)
            return die(EXIT_USAGE, "rack: --size %s: not a size of 1 byte to 1 PiB (e.g. 64MiB)",
                       val[SIZE], NULL);
    }
    int rc = oc_rack_shape_check(&s, why, sizeof why);
    if (rc) {
        char line[600];
        snprintf(line, sizeof line, "rack: %s", why);
        return die_line(EXIT_USAGE, line);
    }
    oc_rack_trace *t = NULL;
    if (val[TRACE])
        rc =
            oc_rack_trace_read(&cli_settings, val[TRACE], s.servers * s.tiles, &t, why, sizeof why);
    else
        rc = oc_rack_trace_random(seed, (uint32_t)tenants, s.servers * s.tiles, &t, why,
                                  sizeof why);
    if (rc) return lib_error(rc, why);
    oc_rack_result *res = NULL;
    rc = oc_rack_replay(&s, t, &res, why, sizeof why);
    if (!rc) {
        rc = json ? oc_rack_write_json(res, stdout) : oc_rack_write_text(res, detail, stdout);
        if (rc) snprintf(why, sizeof why, "rack: cannot write the output");
        oc_rack_result_free(res);
    }
    oc_rack_trace_free(t);
    return rc ? lib_error(rc, why) : 0;
}
