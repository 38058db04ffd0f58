/*
 * draw.h — what the two writers of a drawing share (src/formats/draw.c): the marks and panels
 * the watch collected from the network model's placements, the page's layout, and the geometry
 * both writers place things with. draw.c writes the SVG document; draw_gnuplot.c writes the same
 * picture as a gnuplot script (the CLI runs gnuplot on it for a PNG, through tools/plot.c). One
 * layout and one geometry for both, so that the PNG shows what the SVG shows, where it shows it.
 */
#ifndef OC_FORMATS_DRAW_H
#define OC_FORMATS_DRAW_H

#include "core/netcfg.h"
#include "opticoll.h"
#include "run/watch.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { OC__DRAW_BINS = OC_DRAW_DETAIL_NODES };

/* The page: panels of PANEL_W x PANEL_H under a label LABEL_H high, GAP apart, COLS to a line. */
enum {
    OC__DRAW_PANEL_W = 340,
    OC__DRAW_PANEL_H = 340,
    OC__DRAW_LABEL_H = 34,
    OC__DRAW_GAP = 16,
    OC__DRAW_MARGIN = 20,
    OC__DRAW_COLS = 4,
    OC__DRAW_PER_LINE = 20 /* the SVG's index: links to a line */
};

typedef enum { OC__DRAW_RING, OC__DRAW_STAR, OC__DRAW_FABRIC, OC__DRAW_MATRIX } oc__draw_view;

/* One drawn element's facts: a lightpath (ring: one channel of a transfer in one step), a star
 * transfer, a fabric circuit, a matrix cell. */
typedef struct oc__draw_mark {
    uint64_t panel;
    uint32_t src, dst, first, count;
    uint32_t cls, ncls; /* ring: channel (fibre x w + wavelength); star: wavelength; fabric:
                           first wavelength and how many */
    uint32_t hops;      /* ring: links held */
    uint8_t ccw, reduce;
} oc__draw_mark;

typedef struct oc__draw_panel {
    uint64_t round, step, nsteps;
    double start_s, dur_s;
    uint32_t *bins; /* a summary's: per block pair, placements then lightpaths (2 x BINS x BINS) */
} oc__draw_panel;

typedef struct oc__drawer {
    oc__watch watch;
    oc__observer obs;
    const oc_draw_options *opt;
    oc__draw_view view;
    oc__netcfg cfg;
    uint32_t nodes;
    int summary;
    oc__draw_panel *panels;
    size_t npanels, cappanels;
    oc__draw_mark *marks; /* sorted by panel once the run is over (oc__draw_layout) */
    size_t nmarks, capmarks;
    uint64_t elements; /* what the marks will draw (a summary: at most its bins) */
    uint64_t round_first_panel;
    uint64_t cur_round;
    int any_round;
} oc__drawer;

/* Where everything goes on the page (the same for both writers). */
typedef struct oc__draw_layout {
    size_t *line, *col;   /* per panel: its line of panels and its column there */
    size_t lines, rounds; /* lines of panels; rounds drawn */
    double width, height; /* the page */
    double index_y;       /* the index's first line (SVG only: links) */
    double head;          /* where the first line of panels starts */
    size_t legend_lines;  /* the legend's clauses, a line each */
} oc__draw_layout;

/* Sorts the marks by panel and places the panels; 0 or OC_ENOMEM (nothing to free then). */
int oc__draw_layout_make(oc__drawer *d, oc__draw_layout *l);
void oc__draw_layout_free(oc__draw_layout *l);
/* The top left corner of panel k's drawing area (under its label). */
void oc__draw_panel_origin(const oc__draw_layout *l, size_t k, double *x, double *y);

/* The marks of panel p: [*b, *e) of the marks sorted by panel. */
void oc__draw_panel_marks(const oc__drawer *d, uint64_t p, size_t *b, size_t *e);
/* Position v (a node, or a fraction between nodes) of n on a circle of radius r around
 * (cx, cy): node 0 at the top, clockwise (page coordinates, y down). */
void oc__draw_at(double cx, double cy, double r, double v, uint32_t n, double *x, double *y);
/* The radius of each ring lightpath of [b, e) (one track per channel in use, per direction),
 * into r[i - b], around a ring of radius R. */
void oc__draw_ring_radii(const oc__drawer *d, size_t b, size_t e, double R, double *r);
/* The colour of index i of n (a wavelength): a hue around the wheel, 0 red, at saturation 75%
 * and lightness 42%; as 0xRRGGBB. */
uint32_t oc__draw_hue_rgb(uint64_t i, uint64_t n);
/* Its hue in whole degrees (the SVG writes hsl(hue, 75%, 42%)). */
double oc__draw_hue_degrees(uint64_t i, uint64_t n);
/* The nodes of block b of a panel binned into OC__DRAW_BINS blocks (past OC_DRAW_DETAIL_NODES):
 * [*first, *last], the nodes v with floor(v OC__DRAW_BINS / N) = b. */
void oc__draw_bin_nodes(uint32_t N, uint32_t b, uint32_t *first, uint32_t *last);
/* The legend of the view: clauses separated by "; ". */
const char *oc__draw_legend(const oc__drawer *d);
/* The view's name: "ring", "star", "fabric", "matrix" or "summary". */
const char *oc__draw_view_name(const oc__drawer *d);

/* The drawing as a gnuplot script (draw_gnuplot.c): an arc is at most OC__DRAW_GP_ARC_POINTS
 * points, and an element at most OC__DRAW_GP_ELEMENT_BYTES bytes of script (its points of at
 * most 32 bytes, its facts' comment, an end or a label). */
enum { OC__DRAW_GP_ARC_POINTS = 181, OC__DRAW_GP_ELEMENT_BYTES = 181 * 32 + 256 };
int oc__draw_gnuplot(const oc__drawer *d, const oc__draw_layout *l, const oc_report *rep, FILE *f,
                     char *why, size_t len);

#endif
