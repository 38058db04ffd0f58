/*
 * cmd_sweep.c — `opticoll sweep`: every point (algorithm x N x size) run, verified and mapped, as
 * a table, CSV or JSON, and optionally drawn with gnuplot.
 *
 * The points run on -j threads (default: every online CPU) and, in opticoll-cluster under mpirun,
 * across ranks (scaleout.c); the output is the same byte for byte either way. The plot puts time
 * against message size, one line per algorithm, on log-log axes (sizes and times span decades).
 * When both N and size vary, FILE holds one panel per N on one page. When only N varies (one
 * size), time is drawn against N. Points not run (restrictions) are gaps. FILE's extension picks
 * the format (plot.c). Every file written is named after the table (on stderr under --json).
 */
#include "output.h"
#include "plot.h"
#include "points.h"
#include "scaleout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const sweep_help =
    "usage: opticoll sweep -c COLL [-t NET] [-a A,B,...] --nodes LIST --sizes LIST [-j N]\n"
    "                      [--csv FILE] [--plot FILE.png] [--json] [network options]\n\n"
    "Runs every point (algorithm x N x size) through the whole pipeline (generated, verified,\n"
    "mapped, costed) and prints one line per point. Without -a: every algorithm of the\n"
    "collective that runs on the network. Restrictions that exclude a point make it \"not run\"\n"
    "with the reason; any other failure fails the command.\n\n"
    "  -c, --collective NAME   the collective, as for run\n"
    "  -n, --nodes LIST        node counts: 3,5,12 or a range A..B (A, 2A, 4A ... and B),\n"
    "                          A..B:*F (times F) or A..B:+S (plus S); items may be mixed\n"
    "  -s, --sizes LIST        sizes, same forms with units: 4KiB,1MiB or 1KiB..64MiB:*4\n"
    "                          (--size too)\n"
    "  -a, --algorithm A,B     the algorithms to run (default: all that apply)\n"
    "  -p, --param KEY=VALUE   with exactly one -a: a parameter of that algorithm\n"
    "  -j, --jobs N            threads (default: the online CPUs); the output does not depend\n"
    "                          on it, nor on the ranks of opticoll-cluster under mpirun\n"
    "      --csv FILE          also write every point as CSV (run's columns) to FILE (- :\n"
    "                          standard output, the table then on standard error)\n"
    "      --plot FILE.png     draw time against size, one line per algorithm (gnuplot):\n"
    "                          one panel per N in FILE when N varies too; against N when only\n"
    "                          N varies; .png, .svg, .pdf, .jpg, .eps or .gif\n"
    "      --json              a JSON array of run reports (not-run points: {algorithm, nodes,\n"
    "                          bytes, not_run}) instead of the table\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "  -r, --root R            root of broadcast, scatter, gather (0)\n"
    "%s\n"
    "examples:\n"
    "  opticoll sweep -c allgather -t ring --nodes 64 --sizes 4KiB..16MiB:*4 --plot t.png\n"
    "  opticoll sweep -c allreduce -t fattree --nodes 16,64,256 --sizes 1MiB --csv s.csv\n";

/* Point i of the sweep (every one has run when this file reads it). */
static const oc_sweep_point *point(const sweep_args *a, size_t i) {
    return oc_sweep_point_at(a->sweep, i);
}

static int write_csv(FILE *f, void *ctx) {
    const sweep_args *a = ctx;
    oc_report_write_csv(NULL, f, 1);
    for (size_t i = 0; i < oc_sweep_count(a->sweep); i++)
        fputs(point(a, i)->csv, f);
    return ferror(f) ? OC_EIO : 0;
}

static void print_table(FILE *f, const sweep_args *a) {
    size_t ran = 0, n = oc_sweep_count(a->sweep);
    for (size_t i = 0; i < n; i++)
        ran += point(a, i)->status == OC_POINT_RAN;
    fprintf(f,
            "sweep: %s on %s, %zu algorithm%s x %zu node count%s x %zu size%s = %zu points, "
            "%zu run and verified\n",
            a->o.coll, a->base.network, a->nalgos, a->nalgos == 1 ? "" : "s", a->nnodes,
            a->nnodes == 1 ? "" : "s", a->nsizes, a->nsizes == 1 ? "" : "s", n, ran);
    int w = 9;
    for (size_t k = 0; k < a->nalgos; k++)
        if ((int)strlen(a->algos[k]) > w) w = (int)strlen(a->algos[k]);
    /* "x phys": the time over the physical bound (every schedule on the network, src/bounds) */
    const oc_table_col cols[] = {{7, 0, 0}, {10, 0, 1}, {w, 1, 2}, {8, 0, 1},
                                 {8, 0, 1}, {12, 0, 1}, {8, 0, 1}, {0, 1, 2}};
    const oc_table_layout tab = {f, "  ", cols, sizeof cols / sizeof cols[0]};
    oc_table_write_row(&tab, (const char *const[]){"nodes", "size", "algorithm", "rounds", "steps",
                                                   "time", "x phys", "parameters"});
    for (size_t i = 0; i < n; i++) {
        const oc_sweep_point *p = point(a, i);
        char sz[32], nodes[16], rounds[32], steps[32];
        oc_format_size(sz, sizeof sz, p->bytes);
        snprintf(nodes, sizeof nodes, "%u", p->nodes);
        if (p->status != OC_POINT_RAN) {
            char line[400];
            snprintf(line, sizeof line, "not run: %s", p->why);
            oc_table_write_row_tail(&tab, (const char *const[]){nodes, sz, a->algos[p->algorithm]},
                                    3, line);
            continue;
        }
        char xb[32] = "-";
        if (p->has_physical_bound && p->physical_bound_time_s > 0)
            snprintf(xb, sizeof xb, "%.2f", p->time_s / p->physical_bound_time_s);
        snprintf(rounds, sizeof rounds, "%llu", (unsigned long long)p->rounds);
        snprintf(steps, sizeof steps, "%llu", (unsigned long long)p->steps);
        oc_table_write_row(&tab, (const char *const[]){nodes, sz, a->algos[p->algorithm], rounds,
                                                       steps, p->time, xb, p->params});
    }
}

/* The unit of the sweep's times when it is not seconds ("tau" on the star), from the text of
 * the first point that ran; NULL for seconds. */
static const char *time_unit(const sweep_args *a, char *buf, size_t len) {
    for (size_t i = 0; i < oc_sweep_count(a->sweep); i++) {
        const oc_sweep_point *p = point(a, i);
        if (p->status != OC_POINT_RAN) continue;
        const char *u = strrchr(p->time, ' ');
        if (!u || !strcmp(u, " s") || !strcmp(u, " ms") || !strcmp(u, " us") || !strcmp(u, " ns"))
            return NULL;
        snprintf(buf, len, "%s", u + 1);
        return buf;
    }
    return NULL;
}

/* Panel pi of the figure: the points with nodes index ni (or every N when by_n), one series per
 * algorithm, into x, y and ser (m * nalgos values, nalgos series). */
static void panel(const sweep_args *a, plot_panel *pn, char *title, size_t tlen, char *xl,
                  size_t xlen, size_t ni, int by_n, double *x, double *y, plot_series *ser,
                  const char *unit) {
    size_t m = by_n ? a->nnodes : a->nsizes;
    for (size_t k = 0; k < a->nalgos; k++) {
        ser[k] = (plot_series){a->algos[k], m, x + k * m, y + k * m};
        for (size_t j = 0; j < m; j++) {
            const oc_sweep_point *p = oc_sweep_point_of(a->sweep, by_n ? j : ni, by_n ? 0 : j, k);
            x[k * m + j] = by_n ? (double)p->nodes : (double)p->bytes;
            /* seconds as they are; a model's own unit as its text shows it (34 tau) */
            y[k * m + j] = p->status != OC_POINT_RAN ? NAN
                           : unit                    ? strtod(p->time, NULL)
                                                     : p->time_s;
        }
    }
    char sz[32], net[160] = "";
    const oc_kv *np = a->o.net_params;
    for (size_t k = 0, at = 0; k < oc_kv_count(np) && at < sizeof net; k++)
        at += (size_t)snprintf(net + at, sizeof net - at, " %s=%s", oc_kv_key(np, k),
                               oc_kv_value(np, k));
    const char *per =
        oc_collective_reduces(a->base.collective) || a->base.collective == OC_BROADCAST
            ? "vector"
            : "block per node";
    if (by_n) {
        oc_format_size(sz, sizeof sz, a->sizes[0]);
        snprintf(title, tlen, "%s on %s%s, %s %s: time against N", a->o.coll, a->base.network,
                 net, sz, per);
    } else {
        snprintf(title, tlen, "%s on %s%s, N = %u: time against size", a->o.coll,
                 a->base.network, net, (unsigned)a->nodes[ni]);
    }
    snprintf(xl, xlen, "message size (bytes, %s)", per);
    *pn = (plot_panel){{title, by_n ? "nodes N" : xl, unit ? "time (tau)" : "time", 1, 1, !by_n,
                        !unit},
                       ser,
                       a->nalgos};
}

/* The figure at a->plot, into the group g (renamed with the CSV, all or nothing): time against
 * size, one panel per N (a grid on one page), or time against N when only N varies; then one
 * line on `info` saying what will have been written. */
static int plot_all(const sweep_args *a, FILE *info, out_group *g) {
    int by_n = a->nsizes == 1 && a->nnodes > 1;
    size_t np = by_n ? 1 : a->nnodes, m = by_n ? a->nnodes : a->nsizes, per = m * a->nalgos;
    double *x = calloc(per * np, sizeof *x), *y = calloc(per * np, sizeof *y);
    plot_series *ser = calloc(a->nalgos * np, sizeof *ser);
    plot_panel *pn = calloc(np, sizeof *pn);
    char(*title)[256] = calloc(np, sizeof *title), (*xl)[64] = calloc(np, sizeof *xl);
    char ubuf[16];
    const char *unit = time_unit(a, ubuf, sizeof ubuf);
    int rc = 0;
    if (!x || !y || !ser || !pn || !title || !xl) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    for (size_t i = 0; i < np; i++)
        panel(a, &pn[i], title[i], sizeof title[i], xl[i], sizeof xl[i], i, by_n, x + i * per,
              y + i * per, ser + i * a->nalgos, unit);
    rc = plot_figure(a->plot, pn, np, g);
    if (!rc && np > 1)
        fprintf(info, "plot: wrote %s (%zu panels, one per N)\n", a->plot, np);
    else if (!rc)
        fprintf(info, "plot: wrote %s\n", a->plot);
out:
    free(x);
    free(y);
    free(ser);
    free(pn);
    free(title);
    free(xl);
    return rc;
}

int cmd_sweep(int argc, char **argv) {
    sweep_args a;
    int rc = sweep_parse(argc, argv, "sweep", sweep_help, &a);
    if (rc) {
        sweep_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    if (a.o.output || a.o.csv) {
        sweep_args_free(&a);
        return die(EXIT_USAGE, "sweep: use --csv FILE (and --plot FILE.png)", NULL, NULL);
    }
    /* `--csv -` puts the CSV on standard output, which it then owns: the table and what was
     * written go to standard error (as under --json) */
    const int csv_on_stdout = out_is_stdout(a.csv);
    /* refused before any point runs; the message is composed before a.plot is freed */
    if (csv_on_stdout && a.o.json)
        rc = die(EXIT_USAGE, "sweep: --csv - and --json both write standard output: give one", NULL,
                 NULL);
    else if (a.plot && out_is_stdout(a.plot))
        rc = die(EXIT_USAGE, "--plot %s: a plot is written to a file (name it FILE.png)", a.plot,
                 NULL);
    else if (a.plot && !plot_terminal(a.plot))
        rc = die(EXIT_USAGE,
                 "--plot %s: unknown image format (name it .png, .svg, .pdf, .jpg, .eps or .gif)",
                 a.plot, NULL);
    else if (a.plot && !plot_available())
        rc = die(EXIT_OTHER, "--plot %s: gnuplot is not installed (apt-get install gnuplot-nox)",
                 a.plot, NULL);
    if (rc) {
        sweep_args_free(&a);
        return rc;
    }
    if ((rc = points_run(a.sweep, a.jobs))) { /* ranks > 0 end here (-1) */
        rc = rc < 0 ? 0 : rc;
        goto out;
    }
    if ((rc = points_first_failure(a.sweep))) goto out;
    /* the plots first: gnuplot is what fails most, and then the CSV stays as it was too */
    /* what was written is said after the table (on stderr under --json, which owns stdout) */
    FILE *info = a.o.json || csv_on_stdout ? stderr : stdout;
    char *said = NULL;
    size_t saidlen = 0;
    FILE *m = open_memstream(&said, &saidlen);
    if (!m) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    /* the plot and the CSV appear together or not at all (output.h's group): a CSV that cannot
     * be written leaves no new plot beside an old CSV, and the other way round */
    out_group g = {0};
    if (a.plot) rc = plot_all(&a, m, &g);
    if (!rc && a.csv && !csv_on_stdout && !(rc = out_group_write(&g, a.csv, write_csv, &a)))
        fprintf(m, "csv: wrote %s\n", a.csv);
    if (!rc)
        rc = out_group_commit(&g);
    else
        out_group_discard(&g);
    /* standard output cannot be taken back: it is written once every file is in place */
    if (!rc && csv_on_stdout) rc = write_stdout(write_csv, &a);
    if (fclose(m) && !rc) rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
    if (rc) {
        free(said);
        goto out;
    }
    if (a.o.json) {
        fputs("[", stdout);
        for (size_t i = 0; i < oc_sweep_count(a.sweep); i++) {
            if (i) fputs(",", stdout);
            fputs(point(&a, i)->json, stdout);
        }
        fputs("]\n", stdout);
    } else {
        print_table(info, &a);
    }
    if (said) fputs(said, info);
    free(said);
out:
    sweep_args_free(&a);
    return rc;
}
