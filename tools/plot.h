/*
 * plot.h — drawing line plots (PNG, SVG, PDF, JPEG ...) with gnuplot (run as a separate process on a generated
 * script), for `sweep --plot` and `reproduce --out` (plot.c says why no file name reaches gnuplot).
 */
#ifndef OC_PLOT_H
#define OC_PLOT_H

#include "output.h"

#include <stddef.h>
#include <stdio.h>

typedef struct plot_series {
    const char *title; /* the legend entry (one line per algorithm) */
    size_t n;
    const double *x, *y; /* NAN y values are gaps (a point not run) */
} plot_series;

typedef struct plot_spec {
    const char *title, *xlabel, *ylabel;
    int logx, logy; /* logarithmic axes */
    int x_is_bytes; /* label the x tics 1KiB, 1MiB, ... */
    int y_is_seconds; /* y in seconds: tics labelled 10 us, 1 ms, ... (SI prefixes) */
} plot_spec;

/* One panel of a figure: its axes and series. */
typedef struct plot_panel {
    plot_spec spec;
    const plot_series *series;
    size_t ns;
} plot_panel;

/* The gnuplot terminal that writes the format `path`'s extension names (.png, .svg, .pdf, .jpg or
 * .jpeg, .eps, .gif; case-insensitive), or NULL for any other name. */
const char *plot_terminal(const char *path);

/* 1 when a gnuplot is on the PATH. */
int plot_available(void);

/* Writes the gnuplot script that draws the series into `png` (a path as gnuplot will see it,
 * when the script is run by hand; plot_draw redirects it), in the format its extension names
 * (plot_terminal; PNG for any other). Series drawn exactly on top of an earlier one say so in the
 * legend ("ne (= ring)"), and every series has its own point type and dash pattern. */
void plot_script(FILE *f, const char *png, const plot_spec *spec, const plot_series *s, size_t ns);
/* The same with several panels on one page (gnuplot's multiplot), in a grid. */
void plot_script_panels(FILE *f, const char *path, const plot_panel *p, size_t np);
/* Runs gnuplot on `script` (len bytes, from plot_script) and puts the image at `png`, through a
 * temporary that is renamed over it (output.h) once gnuplot has exited 0 and the file is a whole
 * image of its format (gnuplot's cairo terminals exit 0 when a write fails: a full disk left a
 * truncated PNG). With a group `g` (not NULL) the finished image waits in the group for
 * out_group_commit instead. 0, or an exit code after one line: 3 when gnuplot is missing or
 * fails or the image is cut short, 2 when `png` cannot be written there; on failure whatever was
 * at `png` is untouched. */
int plot_draw(const char *png, const char *script, size_t len, out_group *g);
/* plot_script_panels, then plot_draw: the figure (900x600 a panel) in the format `path` names;
 * 2 after one line when plot_terminal does not know it. */
int plot_figure(const char *path, const plot_panel *p, size_t np, out_group *g);

#endif
