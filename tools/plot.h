/*
 * plot.h — drawing line plots as PNG with gnuplot (run as a separate process on a generated
 * script), for `sweep --plot` and `reproduce --out`.
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
    int logx, logy;     /* logarithmic axes */
    int x_is_bytes;     /* label the x tics 1KiB, 1MiB, ... */
    const char *script; /* where to keep the gnuplot script; NULL: a temporary file */
} plot_spec;

/* 1 when a gnuplot is on the PATH. */
int plot_available(void);

/* Writes `png` (pngcairo, 900x600) from the series. 0, or -1 with a one-line reason in `why`;
 * on failure no PNG is left behind. */
int plot_png(const char *png, const plot_spec *spec, const plot_series *s, size_t ns, char *why,
             size_t whylen);

/* Writes the gnuplot script that draws `png` (a path as gnuplot will see it). */
void plot_script(FILE *f, const char *png, const plot_spec *spec, const plot_series *s, size_t ns);
/* Runs gnuplot on `script` in directory `cwd` (NULL: here) and checks that `png` (a path from
 * here) came out; 0, or -1 with a one-line reason. */
int plot_run(const char *script, const char *cwd, const char *png, char *why, size_t whylen);

#endif
