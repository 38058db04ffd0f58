/*
 * plot.h — drawing line plots as PNG with gnuplot (run as a separate process on a generated
 * script), for `sweep --plot` and `reproduce --out` (plot.c says why no file name reaches gnuplot).
 */
#ifndef OC_PLOT_H
#define OC_PLOT_H

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
} plot_spec;

/* 1 when a gnuplot is on the PATH. */
int plot_available(void);

/* Writes the gnuplot script that draws the series into `png` (a path as gnuplot will see it,
 * when the script is run by hand; plot_draw redirects it). */
void plot_script(FILE *f, const char *png, const plot_spec *spec, const plot_series *s, size_t ns);
/* Runs gnuplot on `script` (len bytes, from plot_script) and puts the PNG at `png`, through a
 * temporary that is renamed over it (output.h). 0, or an exit code after one line: 3 when
 * gnuplot is missing or fails, 2 when `png` cannot be written there; on failure whatever was at
 * `png` is untouched. */
int plot_draw(const char *png, const char *script, size_t len);
/* plot_script, then plot_draw: a PNG (pngcairo, 900x600) of the series. */
int plot_png(const char *png, const plot_spec *spec, const plot_series *s, size_t ns);

#endif
