/*
 * draw_layout.c — what both writers of a drawing place things with (draw.h): the page's layout
 * (panels OC__DRAW_COLS to a line, a round kept on one line when it fits; the header's height from
 * the legend and the index), the circle's positions, the ring's tracks, the wavelengths' colours,
 * the legend's words. draw.c's SVG and draw_gnuplot.c's script both take them from here, so a
 * PNG shows each mark where the SVG does; this file writes nothing.
 */
#include "core/core.h"
#include "formats/draw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef oc__drawer drawer;
typedef oc__draw_mark mark;

/* The hue of index i of n in degrees (0 red), for wavelengths: whole degrees, as the SVG says. */
double oc__draw_hue_degrees(uint64_t i, uint64_t n) {
    return n ? rint(360.0 * (double)(i % n) / (double)n) : 0.0;
}

void oc__draw_bin_nodes(uint32_t N, uint32_t b, uint32_t *first, uint32_t *last) {
    *first = (uint32_t)(((uint64_t)b * N + OC__DRAW_BINS - 1) / OC__DRAW_BINS);
    *last = (uint32_t)(((uint64_t)(b + 1) * N + OC__DRAW_BINS - 1) / OC__DRAW_BINS) - 1;
}

/* The same colour in RGB (CSS's HSL to RGB: the chroma C = (1 - |2L - 1|) S spread over the
 * three channels by the hue's sextant), for the gnuplot script, which takes no HSL. */
uint32_t oc__draw_hue_rgb(uint64_t i, uint64_t n) {
    const double h = oc__draw_hue_degrees(i, n) / 60.0, s = 0.75, l = 0.42;
    const double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(h, 2) - 1)), m = l - c / 2;
    double r = 0, g = 0, b = 0;
    if (h < 1)
        r = c, g = x;
    else if (h < 2)
        r = x, g = c;
    else if (h < 3)
        g = c, b = x;
    else if (h < 4)
        g = x, b = c;
    else if (h < 5)
        r = x, b = c;
    else
        r = c, b = x;
    return (uint32_t)lround((r + m) * 255) << 16 | (uint32_t)lround((g + m) * 255) << 8 |
           (uint32_t)lround((b + m) * 255);
}

/* Position v (a node, or a fraction between nodes) of n on a circle of radius r around (cx, cy):
 * node 0 at the top, clockwise. */
void oc__draw_at(double cx, double cy, double r, double v, uint32_t n, double *x, double *y) {
    const double a = 2 * 3.14159265358979323846 * v / (double)n;
    *x = cx + r * sin(a);
    *y = cy - r * cos(a);
}

void oc__draw_panel_marks(const drawer *d, uint64_t p, size_t *b, size_t *e) {
    size_t lo = 0, hi = d->nmarks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->marks[mid].panel < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    *b = lo;
    hi = d->nmarks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->marks[mid].panel <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    *e = lo;
}

void oc__draw_ring_radii(const drawer *d, size_t b, size_t e, double R, double *radius) {
    /* tracks: the channels in use in this step, per direction, in order */
    uint32_t track_of[2][64];
    size_t ntracks[2] = {0, 0};
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        size_t k = 0;
        while (k < ntracks[m->ccw] && track_of[m->ccw][k] != m->cls)
            k++;
        if (k == ntracks[m->ccw] && k < 64) track_of[m->ccw][ntracks[m->ccw]++] = m->cls;
    }
    for (int dir = 0; dir < 2; dir++) /* a short insertion sort: at most 64 */
        for (size_t i = 1; i < ntracks[dir]; i++)
            for (size_t k = i; k > 0 && track_of[dir][k - 1] > track_of[dir][k]; k--) {
                uint32_t t = track_of[dir][k];
                track_of[dir][k] = track_of[dir][k - 1];
                track_of[dir][k - 1] = t;
            }
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        size_t k = 0;
        while (k + 1 < ntracks[m->ccw] && track_of[m->ccw][k] != m->cls)
            k++;
        const double room = m->ccw ? 60.0 : 55.0;
        const double gap = ntracks[m->ccw] ? fmin(6.0, room / (double)ntracks[m->ccw]) : 6.0;
        radius[i - b] = m->ccw ? R - 12 - gap * (double)k : R + 12 + gap * (double)k;
    }
}

static int by_panel(const void *a, const void *b) {
    const mark *x = a, *y = b;
    if (x->panel != y->panel) return x->panel < y->panel ? -1 : 1;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return x->cls < y->cls ? -1 : x->cls > y->cls;
}

const char *oc__draw_legend(const drawer *d) {
    if (d->summary)
        return "summary past 64 nodes: each panel a sender x receiver matrix in 64 x 64 blocks "
               "of nodes, a cell's strength its transfers";
    switch (d->view) {
    case OC__DRAW_RING:
        return "ring: a panel per physical step; a lightpath is an arc along the links it holds "
               "(clockwise outside the circle, counter-clockwise inside), its colour its "
               "wavelength (hue, wavelength 0 red), its dash its fibre (fibre 0 solid), a dot at "
               "its receiver";
    case OC__DRAW_STAR:
        return "star: a panel per physical step; a transmission runs from its sender through the "
               "coupler to its receiver, coloured by its wavelength; the ring at the receiver is "
               "its filter tuned to that wavelength";
    case OC__DRAW_FABRIC:
        return "fabric: a panel per round; tiles grouped by server (grey arcs), a circuit is a "
               "chord coloured by its first wavelength, as thick as its share of the tile's "
               "wavelengths";
    default:
        return "a panel per round: senders (rows) by receivers (columns), a cell per transfer, "
               "blue a copy, orange a reduction, stronger for more chunks";
    }
}

/* The line and column of every panel; the number of lines. */
static size_t place(const drawer *d, size_t *line, size_t *col, size_t *rounds) {
    size_t lines = 0, used = OC__DRAW_COLS;
    *rounds = 0;
    for (size_t p = 0; p < d->npanels;) {
        size_t q = p;
        while (q < d->npanels && d->panels[q].round == d->panels[p].round)
            q++;
        if (used > 0 && used + (q - p) > OC__DRAW_COLS) used = OC__DRAW_COLS;
        for (size_t k = p; k < q; k++) {
            if (used == OC__DRAW_COLS) lines++, used = 0;
            line[k] = lines - 1;
            col[k] = used++;
        }
        (*rounds)++;
        p = q;
    }
    return lines;
}

int oc__draw_layout_make(drawer *d, oc__draw_layout *l) {
    memset(l, 0, sizeof *l);
    if (d->nmarks > 1) qsort(d->marks, d->nmarks, sizeof *d->marks, by_panel);
    l->line = oc__calloc(d->npanels + 1, sizeof *l->line);
    l->col = oc__calloc(d->npanels + 1, sizeof *l->col);
    if (!l->line || !l->col) {
        oc__draw_layout_free(l);
        return OC_ENOMEM;
    }
    l->lines = place(d, l->line, l->col, &l->rounds);
    size_t most_cols = 1;
    for (size_t p = 0; p < d->npanels; p++)
        if (l->col[p] + 1 > most_cols) most_cols = l->col[p] + 1;
    l->width =
        fmax(900, OC__DRAW_MARGIN * 2 + (double)most_cols * (OC__DRAW_PANEL_W + OC__DRAW_GAP));
    const size_t index_lines = (l->rounds + OC__DRAW_PER_LINE - 1) / OC__DRAW_PER_LINE;
    /* the legend, a line per clause ("; " between them) */
    l->legend_lines = 1;
    for (const char *c = oc__draw_legend(d); *c; c++)
        l->legend_lines += c[0] == ';' && c[1] == ' ';
    l->index_y = 76 + 13.0 * (double)l->legend_lines;
    l->head = l->index_y + 22 + 14.0 * (double)index_lines;
    l->height = l->head + (double)l->lines * (OC__DRAW_PANEL_H + OC__DRAW_LABEL_H + OC__DRAW_GAP) +
                OC__DRAW_MARGIN;
    return 0;
}

void oc__draw_layout_free(oc__draw_layout *l) {
    free(l->line);
    free(l->col);
    l->line = l->col = NULL;
}

void oc__draw_panel_origin(const oc__draw_layout *l, size_t k, double *x, double *y) {
    *x = OC__DRAW_MARGIN + (double)l->col[k] * (OC__DRAW_PANEL_W + OC__DRAW_GAP);
    *y = l->head + (double)l->line[k] * (OC__DRAW_PANEL_H + OC__DRAW_LABEL_H + OC__DRAW_GAP) +
         OC__DRAW_LABEL_H;
}

const char *oc__draw_view_name(const drawer *d) {
    return d->summary                   ? "summary"
           : d->view == OC__DRAW_RING   ? "ring"
           : d->view == OC__DRAW_STAR   ? "star"
           : d->view == OC__DRAW_FABRIC ? "fabric"
                                        : "matrix";
}
