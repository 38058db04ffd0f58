/*
 * cmd_draw.c — `opticoll draw`: a schedule as a picture (one SVG document), generated from -c -a
 * -t -n -s like `run`, or read from a schedule file like `verify`; verified and mapped first, and
 * drawn from the network model's own placements (src/formats/draw.c says what each view shows).
 *
 * The file is written whole or not at all (output.h: a temporary beside it, renamed over it);
 * without -o (or with -o -) the document goes to standard output, but only once it is whole.
 * --round R draws one round. The caps (DRAW_MAX_PANELS panels, DRAW_MAX_ELEMENTS elements) are
 * checked as the model reports its placements, before anything is written: past either, one line
 * and exit 2.
 *
 * A PNG goes through the tool's plotting path: the library writes the same picture as a gnuplot
 * script (src/formats/draw_gnuplot.c: the SVG's layout and geometry, one element per lightpath,
 * transmission, circuit or cell), and plot_draw (tools/plot.c) runs gnuplot on it into a
 * temporary beside the target, checks the PNG whole (its chunks up to IEND) and renames it over
 * the target; no file name reaches gnuplot. The format is --format svg|png|gnuplot, or else the
 * -o name's suffix (.png, .gp); `--format gnuplot` writes the script itself, for a user to
 * restyle and rerun. Without gnuplot a PNG is one line and exit 3, before any work.
 */
#include "cli.h"
#include "output.h"
#include "plot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { DRAW_MAX_PANELS = 256, DRAW_MAX_ELEMENTS = 20000 };

static const char *const draw_help =
    "usage: opticoll draw -c COLL -a ALGO [-t NET] -n N -s SIZE [options] [--round R] [-o FILE]\n"
    "       opticoll draw FILE [-t NET] [--net KEY=VALUE]... [--round R] [-o FILE.svg|.png]\n\n"
    "Draws the schedule as one SVG document (or PNG), after it passed every check (semantic\n"
    "verifier, real-data run, the network's resource check), from the network model's own\n"
    "placements:\n"
    "  ring     a panel per physical step: each lightpath an arc along the links it holds\n"
    "           (clockwise outside the circle, counter-clockwise inside), coloured by its\n"
    "           wavelength, dashed by its fibre, a dot at its receiver\n"
    "  star     a panel per physical step: each transmission from its sender through the\n"
    "           coupler, coloured by its wavelength, and the receiver's filter tuned to it\n"
    "  fabric   a panel per round: the circuits between tiles, grouped by server\n"
    "  switch, fattree, hypercube, torus, mesh\n"
    "           a panel per round: a sender x receiver matrix, a cell per transfer\n"
    "Past 64 nodes every panel is summarised as a sender x receiver matrix of 64 x 64 blocks of\n"
    "nodes. An index at the top links to each round's own view (FILE.svg#round-R).\n"
    "At most 256 panels and 20000 elements are drawn: past either, nothing is written (exit 2);\n"
    "--round R draws one round. A PNG (--format png, or -o FILE.png) is drawn by gnuplot\n"
    "from the same layout (the links of the index are the SVG's alone); --format gnuplot\n"
    "writes gnuplot's script (-o FILE.gp) to restyle and rerun.\n\n";

static const char *const draw_help_options =
    "      --round R           draw round R alone (from 0)\n"
    "      --format F          svg, png or gnuplot (default: by the -o suffix .png, .gp; else\n"
    "                          svg)\n"
    "  -o, --output FILE       write FILE (whole or not at all) instead of standard output\n\n"
    "examples:\n"
    "  opticoll draw -c allgather -a ring -t ring -n 8 -w 2 -s 1MiB -o ring8.svg\n"
    "  opticoll draw -c allreduce -a rhd -t fabric -n 16 -s 1MiB -o rhd16.png\n"
    "  opticoll draw ne16.json -t ring -w 2 --round 0 -o ne16-round0.svg\n";

/* The spellings of draw's options that take their value as the next word: that word is a value
 * whatever it looks like (`-o --round` writes a file named --round), never draw's --round. */
static int takes_value(const char *a) {
    static const char with_value[] = " -c -a -t -n -s -r -w -f -o -p --collective --algorithm "
                                     "--network --nodes --size --root --wavelengths --fibres "
                                     "--output --param --net --preset --objective ";
    const size_t n = strlen(a);
    if (n < 2 || a[0] != '-' || strchr(a, ' '))
        return 0; /* every match starts past the lead space */
    for (const char *p = strstr(with_value, a); p; p = strstr(p + 1, a))
        if (p[-1] == ' ' && p[n] == ' ') return 1;
    return 0;
}

/* --round R and --format F (or --round=R, --format=F), draw's own, taken out of argv; the rest
 * into rest[0 .. *n). */
static int take_own(int argc, char **argv, char **rest, int *n, const char **round,
                    const char **format) {
    *n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            while (i < argc)
                rest[(*n)++] = argv[i++];
            break;
        }
        if (i > 0 && takes_value(a) && i + 1 < argc) { /* an option and its value, as they are */
            rest[(*n)++] = argv[i++];
            rest[(*n)++] = argv[i];
            continue;
        }
        const char *v = NULL, *name = NULL, **into = NULL;
        if (!strcmp(a, "--round") || !strcmp(a, "--format")) {
            name = a;
            if (i + 1 >= argc) return die(EXIT_USAGE, "draw: %s needs a value", name, NULL);
            v = argv[++i];
        } else if (!strncmp(a, "--round=", 8) || !strncmp(a, "--format=", 9)) {
            name = a[2] == 'r' ? "--round" : "--format";
            v = strchr(a, '=') + 1;
        } else {
            rest[(*n)++] = argv[i];
            continue;
        }
        into = name[2] == 'r' ? round : format;
        if (*into) return die(EXIT_USAGE, "draw: %s given twice", name, NULL);
        *into = v;
    }
    rest[*n] = NULL;
    return 0;
}

/* The drawing into f: from the request or from the file. 0 or a library error. */
static int draw_into(const options *o, const oc_request *req, const oc_draw_options *opt, FILE *f,
                     char *why, size_t len) {
    if (o->file)
        return oc_draw_file(&cli_settings, o->file, o->net, o->net_params, opt, f, why, len);
    return oc_draw(req, opt, f, why, len);
}

/* draw_into for out_render */
typedef struct draw_job {
    const options *o;
    const oc_request *req;
    const oc_draw_options *opt;
} draw_job;

static int draw_render(FILE *f, void *ctx, char *why, size_t len) {
    const draw_job *j = ctx;
    return draw_into(j->o, j->req, j->opt, f, why, len);
}

/* The format: --format's word, or else the -o name's suffix. -1 after one line for a word that
 * is none of them. */
enum { AS_SVG, AS_PNG, AS_GNUPLOT };
static int format_of(const char *word, const char *output) {
    if (word) {
        if (!strcmp(word, "svg")) return AS_SVG;
        if (!strcmp(word, "png")) return AS_PNG;
        if (!strcmp(word, "gnuplot")) return AS_GNUPLOT;
        return -1;
    }
    const char *dot = output ? strrchr(output, '.') : NULL,
               *slash = output ? strrchr(output, '/') : NULL;
    if (!dot || (slash && dot < slash)) return AS_SVG;
    if (!strcasecmp(dot, ".png")) return AS_PNG;
    if (!strcasecmp(dot, ".gp") || !strcasecmp(dot, ".gnuplot")) return AS_GNUPLOT;
    return AS_SVG;
}

/* The PNG: the drawing's gnuplot script made in memory, then drawn by plot_draw (the plotting
 * path: gnuplot in a temporary beside the target, the image checked whole, renamed over it). */
static int draw_png(const options *o, const oc_request *req, const oc_draw_options *opt) {
    char *script = NULL, why[512] = "";
    size_t len = 0;
    FILE *m = open_memstream(&script, &len);
    if (!m) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    int err = draw_into(o, req, opt, m, why, sizeof why), rc;
    if (fclose(m) && !err)
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
    else
        rc = err ? lib_error(err, why) : plot_draw(o->output, script, len, NULL);
    free(script);
    return rc;
}

static int draw(options *o, const char *round_text, const char *format_text) {
    oc_draw_options opt = {
        .round = -1,
        .max_panels = DRAW_MAX_PANELS,
        .max_elements = DRAW_MAX_ELEMENTS,
        .progress = cli_progress}; /* a file's reading and check (a request's run: req's) */
    if (round_text) {
        uint64_t r;
        if (oc_parse_u64(round_text, 0, INT64_MAX, &r))
            return die(EXIT_USAGE, "draw: --round %s: expected a round number (0, 1, ...)",
                       round_text, NULL);
        opt.round = (int64_t)r;
    }
    if (o->output && !strcmp(o->output, "-")) o->output = NULL;
    const int as = format_of(format_text, o->output);
    if (as < 0)
        return die(EXIT_USAGE, "draw: --format %s: expected svg, png or gnuplot", format_text,
                   NULL);
    if (as == AS_PNG && !o->output)
        return die(EXIT_USAGE, "draw: a PNG is written to a file: give -o FILE.png", NULL, NULL);
    if (as == AS_PNG && !plot_available()) /* said before the work, as plot_draw would after */
        return die(EXIT_OTHER,
                   "cannot draw %s: gnuplot is not installed (apt-get install "
                   "gnuplot-nox)",
                   o->output, NULL);
    opt.format = as == AS_SVG ? OC_DRAW_SVG : OC_DRAW_GNUPLOT;
    opt.image = as == AS_GNUPLOT && o->output ? o->output : NULL;
    char image[4096];
    if (opt.image) { /* the script's own PNG: its name with .png for .gp */
        const char *dot = strrchr(o->output, '.'), *slash = strrchr(o->output, '/');
        const size_t stem =
            dot && (!slash || dot > slash) ? (size_t)(dot - o->output) : strlen(o->output);
        snprintf(image, sizeof image, "%.*s.png", (int)(stem < 4000 ? stem : 4000), o->output);
        opt.image = image;
    }
    int rc = fold_network_flags(o);
    if (rc) return rc;
    oc_request req;
    memset(&req, 0, sizeof req);
    if (o->file) {
        if (o->coll || o->algo || o->nodes || o->size)
            return die(EXIT_USAGE, "draw: the file says what the schedule is; drop -c/-a/-n/-s",
                       NULL, NULL);
    } else if ((rc = build_request(o, &req, 1))) {
        return rc;
    }
    if (as == AS_PNG) return draw_png(o, &req, &opt);
    draw_job job = {o, &req, &opt};
    return out_render(o->output, draw_render, &job);
}

int cmd_draw(int argc, char **argv) {
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    options o;
    memset(&o, 0, sizeof o);
    o.params = oc_kv_new();
    o.net_params = oc_kv_new();
    const char *round_text = NULL, *format_text = NULL;
    int n = 0, rc;
    if (!rest || !o.params || !o.net_params)
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
    else if (!(rc = take_own(argc, argv, rest, &n, &round_text, &format_text)) &&
             !(rc = parse_options(n, rest, &o, "draw"))) {
        if (o.help)
            fputs(draw_help, stdout), fputs(help_problem, stdout), fputs(help_algo, stdout),
                fputs(help_search, stdout), fputs(help_network, stdout),
                fputs(draw_help_options, stdout);
        else
            rc = draw(&o, round_text, format_text);
    }
    free(rest);
    oc_kv_free(o.params);
    oc_kv_free(o.net_params);
    return rc;
}
