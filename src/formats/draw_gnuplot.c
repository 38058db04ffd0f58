/*
 * draw_gnuplot.c — the drawing of a checked run (draw.c) as a gnuplot script: the picture the
 * SVG shows, drawn by gnuplot's pngcairo terminal into a PNG. `opticoll draw -o X.png` runs
 * gnuplot on it through the tool's plotting path (tools/plot.c: no file name reaches gnuplot, the
 * image is checked whole before it replaces anything); `-o X.gp` keeps the script for a user to
 * restyle and rerun (`gnuplot X.gp`).
 *
 * One page, one coordinate system: the layout is draw.c's (oc__draw_layout), and the page's
 * coordinates are the SVG's, one unit a pixel: x to the right and y down (the y range reversed),
 * the plot area the whole canvas (margins at the screen's edges, no axes). So every mark sits
 * where the SVG puts it, and the geometry (the ring's tracks, the arcs' ends, the curves'
 * control points, the matrix's cells) comes from the same functions.
 *
 * What gnuplot draws, and how:
 *  - curves (a ring lightpath's arc, a star transmission, a fabric circuit, the ring itself, a
 *    server's arc) are polylines in data blocks, one block per line style (the ring's four fibre
 *    dashes, the star's width, the fabric's widths in steps of half a point, grey lines), each
 *    curve its points then a blank line, coloured per point (`lc rgb variable`). An arc is cut
 *    into pieces of 2 degrees of its circle (at least 8); a quadratic curve (the SVG's Q) into
 *    16. So an element is at most OC__DRAW_GP_ARC_POINTS points of about 24 bytes, and the
 *    script, held in memory whole, is counted against the memory budget with the marks
 *    (draw.c's check_options: OC__DRAW_GP_ELEMENT_BYTES an element);
 *  - cells (the matrix's transfers, the summary's blocks) are boxes (boxxyerror) filled with the
 *    SVG's colour already blended onto white by its opacity (gnuplot has no per-box alpha);
 *  - points: the lightpath's end, the star's filter rings, the nodes (a white disc and a ring);
 *  - text: node numbers, tick labels and the star's λ labels as `with labels` data; the title,
 *    the legend and the rounds' and steps' labels as `set label`, in single quotes (gnuplot
 *    substitutes nothing there; a quote is doubled; as in the SVG a byte outside printable
 *    ASCII becomes '?'), so that a name from a schedule file is text and nothing else;
 *  - frames and backgrounds (a panel's box, the matrix's ground, the star's coupler) as
 *    rectangles behind everything.
 * Every drawn element of a schedule (lightpath, transmission, circuit, transfer, block) is
 * preceded in its data block by one comment line with its facts, the same as the SVG's data-*
 * attributes ("# lightpath round=0 step=2 src=1 dst=4 op=copy chunks=1,1 dir=cw fibre=0
 * wavelength=2 links=3"), and a comment "# drawing ..." says what the SVG's summary group says:
 * a program reads the script back as it reads the SVG.
 *
 * What the PNG has not: links. The SVG's index of rounds and its per-round views are navigation
 * in a viewer; a PNG is one image, and `--round R` draws one round into it.
 */
#include "core/core.h"
#include "formats/draw.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The data blocks, back to front, and how each is plotted. */
enum {
    B_FRAME, /* two white dots at the page's corners: one clause that always has data */
    B_CELLS,
    B_GREY,   /* the ring's circle */
    B_SERVER, /* a fabric server's arc */
    B_FIBRE0, /* the ring's lightpaths, one block per fibre dash (fibre % 4) */
    B_FIBRE1,
    B_FIBRE2,
    B_FIBRE3,
    B_STAR,
    B_FAB0, /* the fabric's circuits: width 1, 1.5, ... 5 points */
    B_FAB8 = B_FAB0 + 8,
    B_ENDS,
    B_FILTERS,
    B_NODES,
    B_COLTICKS,
    B_ROWTICKS,
    B_LAMBDA,
    NBLOCKS
};

/* The plot clause of block b after its name (the nodes' names their block again). */
static const char *block_style(int b, char *buf, size_t len) {
    static const char *const fixed[] = {
        [B_FRAME] = "using 1:2 with dots lc rgb '#ffffff'",
        [B_CELLS] = "using 1:2:3:4:5 with boxxyerror fs solid 1.0 noborder lc rgb variable",
        [B_GREY] = "using 1:2:3 with lines lw 1 lc rgb variable",
        [B_SERVER] = "using 1:2:3 with lines lw 5 lc rgb variable",
        [B_FIBRE0] = "using 1:2:3 with lines lw 2 dt 1 lc rgb variable",
        [B_FIBRE1] = "using 1:2:3 with lines lw 2 dt 2 lc rgb variable",
        [B_FIBRE2] = "using 1:2:3 with lines lw 2 dt 3 lc rgb variable",
        [B_FIBRE3] = "using 1:2:3 with lines lw 2 dt 4 lc rgb variable",
        [B_STAR] = "using 1:2:3 with lines lw 1.6 lc rgb variable",
        [B_ENDS] = "using 1:2:3 with points pt 7 ps 0.5 lc rgb variable",
        [B_FILTERS] = "using 1:2:3 with points pt 6 ps 0.8 lw 2 lc rgb variable",
        [B_NODES] = "using 1:2 with points pt 7 ps 2.2 lc rgb '#ffffff', $b%d using 1:2 with "
                    "points pt 6 ps 2.2 lc rgb '#333333', $b%d using 1:2:3 with labels font ',7'",
        [B_COLTICKS] = "using 1:2:3 with labels center font ',6'",
        [B_ROWTICKS] = "using 1:2:3 with labels right font ',6'",
        [B_LAMBDA] = "using 1:2:3:4 with labels font ',7' tc rgb variable"};
    if (b >= B_FAB0 && b <= B_FAB8) {
        snprintf(buf, len, "using 1:2:3 with lines lw %.1f lc rgb variable",
                 1 + 0.5 * (double)(b - B_FAB0));
        return buf;
    }
    if (b == B_NODES) {
        snprintf(buf, len, fixed[b], b, b);
        return buf;
    }
    return fixed[b];
}

typedef struct gp {
    const oc__drawer *d;
    FILE *block[NBLOCKS];
    char *text[NBLOCKS];
    size_t n[NBLOCKS];
    FILE *labels; /* the set label lines */
    char *labels_text;
    size_t labels_n;
} gp;

/* A single-quoted gnuplot string: a quote doubled, and (as the SVG's text) a byte outside
 * printable ASCII written as '?'. */
static void quoted(FILE *f, const char *s) {
    fputc('\'', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '\'') fputc('\'', f);
        fputc(c < 0x20 || c > 0x7e ? '?' : c, f);
    }
    fputc('\'', f);
}

/* A label at page position (x, y) (the SVG's baseline: gnuplot centres text on y, so the label
 * goes up by a third of its size). */
static void label(gp *g, double x, double y, int size, const char *how, const char *text) {
    fputs("set label ", g->labels);
    quoted(g->labels, text);
    fprintf(g->labels, " at %.1f,%.1f %s font ',%d' front\n", x, y - size / 3.0, how ? how : "left",
            size);
}

static void rect(gp *g, double x, double y, double w, double h, const char *fill,
                 const char *border) {
    fprintf(g->labels, "set object rect from %.1f,%.1f to %.1f,%.1f back ", x, y, x + w, y + h);
    if (fill)
        fprintf(g->labels, "fc rgb '%s' fs solid 1.0 border lc rgb '%s'\n", fill, border);
    else
        fprintf(g->labels, "fs empty border lc rgb '%s'\n", border);
}

/* An arc of radius r around (cx, cy) from position v0 to v1 (in nodes, draw.c's oc__draw_at),
 * into block b in colour rgb, then the blank line that ends it. */
static void arc(gp *g, int b, double cx, double cy, double r, double v0, double v1, uint32_t n,
                uint32_t rgb) {
    /* a piece per 2 degrees of the circle (a chord of 6 pixels on the largest track), at least
     * 8: OC__DRAW_GP_ARC_POINTS points at most, whatever N */
    size_t pieces = (size_t)ceil(fabs(v1 - v0) / n * (OC__DRAW_GP_ARC_POINTS - 1));
    if (pieces < 8) pieces = 8;
    if (pieces > OC__DRAW_GP_ARC_POINTS - 1) pieces = OC__DRAW_GP_ARC_POINTS - 1;
    for (size_t i = 0; i <= pieces; i++) {
        double x, y;
        oc__draw_at(cx, cy, r, v0 + (v1 - v0) * (double)i / (double)pieces, n, &x, &y);
        fprintf(g->block[b], "%.2f %.2f %u\n", x, y, rgb);
    }
    fputc('\n', g->block[b]);
}

/* The quadratic curve from (x0, y0) through control (qx, qy) to (x1, y1) (the SVG's Q). */
static void curve(gp *g, int b, double x0, double y0, double qx, double qy, double x1, double y1,
                  uint32_t rgb) {
    for (int i = 0; i <= 16; i++) {
        const double t = i / 16.0, u = 1 - t;
        fprintf(g->block[b], "%.2f %.2f %u\n", u * u * x0 + 2 * u * t * qx + t * t * x1,
                u * u * y0 + 2 * u * t * qy + t * t * y1, rgb);
    }
    fputc('\n', g->block[b]);
}

/* The facts of a mark, the SVG's data-* attributes, as the comment that opens its element. */
static void facts(gp *g, int b, const char *cls, const oc__draw_mark *m) {
    const oc__draw_panel *p = &g->d->panels[m->panel];
    fprintf(g->block[b], "# %s round=%llu step=%llu src=%u dst=%u op=%s chunks=%u,%u", cls,
            (unsigned long long)p->round, (unsigned long long)p->step, m->src, m->dst,
            m->reduce ? "reduce" : "copy", m->first, m->count);
}

/* White blended with colour rgb at opacity a (the SVG's fill-opacity on a white page). */
static uint32_t on_white(uint32_t rgb, double a) {
    uint32_t out = 0;
    for (int s = 16; s >= 0; s -= 8) {
        const double c = (double)((rgb >> s) & 0xff);
        out |= (uint32_t)lround(255 - a * (255 - c)) << s;
    }
    return out;
}

static void nodes_on_circle(gp *g, double cx, double cy, double r, uint32_t n) {
    for (uint32_t v = 0; v < n; v++) {
        double x, y;
        oc__draw_at(cx, cy, r, v, n, &x, &y);
        fprintf(g->block[B_NODES], "%.1f %.1f %u\n", x, y, v);
    }
}

static void ring_panel(gp *g, size_t b, size_t e, double cx, double cy, double *radius) {
    const oc__drawer *d = g->d;
    const uint32_t N = d->nodes;
    const uint64_t w = d->cfg.ring.wavelengths ? d->cfg.ring.wavelengths : 1;
    const double R = 110;
    arc(g, B_GREY, cx, cy, R, 0, N, N, 0xbbbbbb);
    oc__draw_ring_radii(d, b, e, R, radius);
    for (size_t i = b; i < e; i++) {
        const oc__draw_mark *m = &d->marks[i];
        const double trim = 0.1, sign = m->ccw ? -1.0 : 1.0;
        const uint64_t fibre = m->cls / w, wl = m->cls % w;
        const uint32_t rgb = oc__draw_hue_rgb(wl, w);
        const int blk = B_FIBRE0 + (int)(fibre % 4);
        facts(g, blk, "lightpath", m);
        fprintf(g->block[blk], " dir=%s fibre=%llu wavelength=%llu links=%u\n",
                m->ccw ? "ccw" : "cw", (unsigned long long)fibre, (unsigned long long)wl, m->hops);
        const double v0 = (double)m->src + sign * trim,
                     v1 = (double)m->src + sign * ((double)m->hops - trim);
        arc(g, blk, cx, cy, radius[i - b], v0, v1, N, rgb);
        double x1, y1;
        oc__draw_at(cx, cy, radius[i - b], v1, N, &x1, &y1);
        fprintf(g->block[B_ENDS], "%.2f %.2f %u\n", x1, y1, rgb);
    }
    nodes_on_circle(g, cx, cy, R, N);
}

static void star_panel(gp *g, size_t b, size_t e, double cx, double cy) {
    const oc__drawer *d = g->d;
    const uint32_t N = d->nodes;
    const uint64_t colours = (uint64_t)N * (d->cfg.star.k ? d->cfg.star.k : 1);
    const double R = 125;
    rect(g, cx - 8, cy - 8, 16, 16, "#dddddd", "#333333");
    for (size_t i = b; i < e; i++) {
        const oc__draw_mark *m = &d->marks[i];
        double x0, y0, x1, y1, lx, ly;
        oc__draw_at(cx, cy, R - 10, m->src, N, &x0, &y0);
        oc__draw_at(cx, cy, R - 10, m->dst, N, &x1, &y1);
        oc__draw_at(cx, cy, R - 26, m->src, N, &lx, &ly);
        const uint32_t rgb = oc__draw_hue_rgb(m->cls, colours);
        facts(g, B_STAR, "transmission", m);
        fprintf(g->block[B_STAR], " wavelength=%u\n", m->cls);
        curve(g, B_STAR, x0, y0, cx, cy, x1, y1, rgb);
        fprintf(g->block[B_FILTERS], "# filter node=%u wavelength=%u\n%.2f %.2f %u\n", m->dst,
                m->cls, x1, y1, rgb);
        fprintf(g->block[B_LAMBDA], "%.1f %.1f \"\xce\xbb%u\" %u\n", lx, ly, m->cls, rgb);
    }
    nodes_on_circle(g, cx, cy, R, N);
}

static void fabric_panel(gp *g, size_t b, size_t e, double cx, double cy) {
    const oc__drawer *d = g->d;
    const uint32_t N = d->nodes;
    const uint64_t W = d->cfg.fabric.wavelengths ? d->cfg.fabric.wavelengths : 1;
    const uint64_t T = d->cfg.fabric.tiles_per_server ? d->cfg.fabric.tiles_per_server : N;
    const double R = 125;
    for (uint64_t s = 0; s * T < N; s++) {
        const uint32_t first = (uint32_t)(s * T),
                       last = (uint32_t)(s * T + T - 1 < N ? s * T + T - 1 : N - 1);
        arc(g, B_SERVER, cx, cy, R + 14, first, last, N, 0x999999);
        double lx, ly;
        oc__draw_at(cx, cy, R + 26, (first + last) / 2, N, &lx, &ly);
        char text[48];
        snprintf(text, sizeof text, "server %llu", (unsigned long long)s);
        label(g, lx, ly, 8, "center", text);
    }
    for (size_t i = b; i < e; i++) {
        const oc__draw_mark *m = &d->marks[i];
        double x0, y0, x1, y1;
        oc__draw_at(cx, cy, R - 10, m->src, N, &x0, &y0);
        oc__draw_at(cx, cy, R - 10, m->dst, N, &x1, &y1);
        /* the SVG's width 1 + 4 ncls / W, to the nearest half point */
        const double width = 1 + 4.0 * (double)m->ncls / (double)W;
        long step = lround((width - 1) * 2);
        const int blk = B_FAB0 + (int)(step < 0 ? 0 : step > 8 ? 8 : step);
        facts(g, blk, "circuit", m);
        fprintf(g->block[blk], " wavelength=%u wavelengths=%u\n", m->cls, m->ncls);
        curve(g, blk, x0, y0, cx + (x0 + x1 - 2 * cx) * 0.25, cy + (y0 + y1 - 2 * cy) * 0.25, x1,
              y1, oc__draw_hue_rgb(m->cls, W));
    }
    nodes_on_circle(g, cx, cy, R, N);
}

/* The matrix's ground and axis words (the matrix and the summary). */
static void matrix_ground(gp *g, double ox, double oy, double side, const char *rows,
                          const char *cols) {
    rect(g, ox, oy, side, side, "#f7f7f7", "#bbbbbb");
    label(g, ox + side / 2, oy - 12, 8, "center", cols); /* above the tick labels */
    fputs("set label ", g->labels);
    quoted(g->labels, rows);
    fprintf(g->labels, " at %.1f,%.1f center rotate by 90 font ',8' front\n", ox - 18,
            oy + side / 2);
}

static void matrix_panel(gp *g, size_t b, size_t e, double x, double y) {
    const oc__drawer *d = g->d;
    const uint32_t N = d->nodes;
    const double side = OC__DRAW_PANEL_W - 40, cell = side / N, ox = x + 30, oy = y + 20;
    uint32_t most = 1;
    for (size_t i = b; i < e; i++)
        if (d->marks[i].count > most) most = d->marks[i].count;
    matrix_ground(g, ox, oy, side, "sender", "receiver");
    const uint32_t every = N <= 16 ? 1 : N <= 32 ? 4 : 8;
    for (uint32_t v = 0; v < N; v += every) {
        fprintf(g->block[B_COLTICKS], "%.1f %.1f %u\n", ox + (v + 0.5) * cell, oy - 4, v);
        fprintf(g->block[B_ROWTICKS], "%.1f %.1f %u\n", ox - 2, oy + (v + 0.5) * cell, v);
    }
    for (size_t i = b; i < e; i++) {
        const oc__draw_mark *m = &d->marks[i];
        facts(g, B_CELLS, "transfer", m);
        fprintf(g->block[B_CELLS], "\n%.2f %.2f %.2f %.2f %u\n\n", ox + (m->dst + 0.5) * cell,
                oy + (m->src + 0.5) * cell, cell / 2, cell / 2,
                on_white(m->reduce ? 0xe07020 : 0x2f6db5, 0.35 + 0.65 * (double)m->count / most));
    }
}

static void summary_panel(gp *g, const oc__draw_panel *p, double x, double y) {
    const oc__drawer *d = g->d;
    const uint32_t N = d->nodes;
    uint64_t most = 1;
    for (size_t i = 0; i < (size_t)OC__DRAW_BINS * OC__DRAW_BINS; i++)
        if (p->bins[2 * i] > most) most = p->bins[2 * i];
    const double side = OC__DRAW_PANEL_W - 40, cell = side / OC__DRAW_BINS, ox = x + 30,
                 oy = y + 20;
    char rows[48], cols[48];
    snprintf(rows, sizeof rows, "senders (%d blocks)", OC__DRAW_BINS);
    snprintf(cols, sizeof cols, "receivers (%d blocks)", OC__DRAW_BINS);
    matrix_ground(g, ox, oy, side, rows, cols);
    for (uint32_t r = 0; r < OC__DRAW_BINS; r++)
        for (uint32_t c = 0; c < OC__DRAW_BINS; c++) {
            const uint32_t *bin = p->bins + 2 * ((size_t)r * OC__DRAW_BINS + c);
            if (!bin[0]) continue;
            uint32_t s0, s1, d0, d1; /* the senders' and the receivers' nodes */
            oc__draw_bin_nodes(N, r, &s0, &s1);
            oc__draw_bin_nodes(N, c, &d0, &d1);
            fprintf(g->block[B_CELLS],
                    "# block round=%llu step=%llu senders=%u,%u receivers=%u,%u transfers=%u "
                    "lightpaths=%u\n%.2f %.2f %.2f %.2f %u\n\n",
                    (unsigned long long)p->round, (unsigned long long)p->step, s0, s1, d0, d1,
                    bin[0], bin[1], ox + (c + 0.5) * cell, oy + (r + 0.5) * cell, cell / 2,
                    cell / 2, on_white(0x2f6db5, 0.25 + 0.75 * (double)bin[0] / (double)most));
        }
}

/* The page's header: the SVG's title, settings and legend lines. */
static void header(gp *g, const oc__draw_layout *l, const oc_report *rep) {
    char text[1024], tb[32];
    snprintf(text, sizeof text, "%s / %s on %s, %u node%s, %llu bytes", rep->collective,
             rep->algorithm, rep->network, rep->nodes, rep->nodes == 1 ? "" : "s",
             (unsigned long long)rep->bytes);
    label(g, OC__DRAW_MARGIN, 28, 16, "left", text);
    oc_report_format_time(rep, tb, sizeof tb, rep->time_s);
    int n = snprintf(text, sizeof text, "%llu rounds, %llu steps, time %s, %s",
                     (unsigned long long)rep->rounds, (unsigned long long)rep->steps, tb,
                     rep->verified ? "verified" : "NOT verified");
    for (size_t i = 0; i < oc_kv_count(rep->params) && n > 0 && (size_t)n < sizeof text; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "%s%s=%s", i ? " " : "; parameters ",
                      oc_kv_key(rep->params, i), oc_kv_value(rep->params, i));
    label(g, OC__DRAW_MARGIN, 48, 11, "left", text);
    const char *legend = oc__draw_legend(g->d);
    for (size_t i = 0; i < l->legend_lines; i++) {
        const size_t k = strcspn(legend, ";");
        snprintf(text, sizeof text, "%.*s", (int)(k < sizeof text ? k : sizeof text - 1), legend);
        label(g, OC__DRAW_MARGIN, 66 + 13.0 * (double)i, 10, "left", text);
        legend += k;
        if (*legend) legend += 2;
    }
}

/* The rounds: each round's label, its panels' frames and contents. */
static void rounds(gp *g, const oc__draw_layout *l, const oc_report *rep, double *radius) {
    const oc__drawer *d = g->d;
    const double block_h = OC__DRAW_PANEL_H + OC__DRAW_LABEL_H + OC__DRAW_GAP;
    for (size_t p = 0; p < d->npanels;) {
        size_t q = p;
        while (q < d->npanels && d->panels[q].round == d->panels[p].round)
            q++;
        const oc__draw_panel *first = &d->panels[p], *last = &d->panels[q - 1];
        const double y = l->head + (double)l->line[p] * block_h,
                     x0 = OC__DRAW_MARGIN + (double)l->col[p] * (OC__DRAW_PANEL_W + OC__DRAW_GAP);
        char text[160], t0[32], t1[32];
        snprintf(text, sizeof text, "round %llu", (unsigned long long)first->round);
        label(g, x0, y + 14, 12, "left", text);
        oc_report_format_time(rep, t0, sizeof t0, first->start_s);
        oc_report_format_time(rep, t1, sizeof t1, last->start_s + last->dur_s - first->start_s);
        const uint64_t s0 = first->step, s1 = last->step + last->nsteps - 1;
        if (s0 == s1)
            snprintf(text, sizeof text, "step %llu, from %s, lasting %s", (unsigned long long)s0,
                     t0, t1);
        else
            snprintf(text, sizeof text, "steps %llu-%llu, from %s, lasting %s",
                     (unsigned long long)s0, (unsigned long long)s1, t0, t1);
        label(g, x0, y + 26, 9, "left", text);
        for (size_t k = p; k < q; k++) {
            double x, py;
            oc__draw_panel_origin(l, k, &x, &py);
            size_t b, e;
            oc__draw_panel_marks(d, k, &b, &e);
            rect(g, x, py - 4, OC__DRAW_PANEL_W, OC__DRAW_PANEL_H, NULL, "#dddddd");
            if ((d->view == OC__DRAW_RING || d->view == OC__DRAW_STAR) && q - p > 1) {
                snprintf(text, sizeof text, "step %llu", (unsigned long long)d->panels[k].step);
                label(g, x + 4, py + 8, 10, "left", text);
            }
            const double cx = x + OC__DRAW_PANEL_W / 2.0, cy = py + OC__DRAW_PANEL_H / 2.0;
            if (d->summary)
                summary_panel(g, &d->panels[k], x, py);
            else if (d->view == OC__DRAW_RING)
                ring_panel(g, b, e, cx, cy, radius);
            else if (d->view == OC__DRAW_STAR)
                star_panel(g, b, e, cx, cy);
            else if (d->view == OC__DRAW_FABRIC)
                fabric_panel(g, b, e, cx, cy);
            else
                matrix_panel(g, b, e, x, py);
        }
        p = q;
    }
}

static void close_all(gp *g) {
    for (int b = 0; b < NBLOCKS; b++) {
        if (g->block[b]) fclose(g->block[b]);
        free(g->text[b]);
    }
    if (g->labels) fclose(g->labels);
    free(g->labels_text);
}

int oc__draw_gnuplot(const oc__drawer *d, const oc__draw_layout *l, const oc_report *rep, FILE *f,
                     char *why, size_t len) {
    gp g;
    memset(&g, 0, sizeof g);
    g.d = d;
    double *radius = oc__calloc(d->nmarks + 1, sizeof *radius);
    int ok = radius != NULL;
    for (int b = 0; b < NBLOCKS && ok; b++)
        ok = (g.block[b] = open_memstream(&g.text[b], &g.n[b])) != NULL;
    if (ok) ok = (g.labels = open_memstream(&g.labels_text, &g.labels_n)) != NULL;
    if (!ok) {
        free(radius);
        close_all(&g);
        return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    }
    header(&g, l, rep);
    rounds(&g, l, rep, radius);
    free(radius);
    fprintf(g.block[B_FRAME], "0 0\n%.0f %.0f\n", l->width, l->height);
    /* the streams' text is complete once they are closed */
    for (int b = 0; b < NBLOCKS && ok; b++) {
        ok = !ferror(g.block[b]) && !fclose(g.block[b]);
        g.block[b] = NULL;
    }
    if (ok) ok = !ferror(g.labels) && !fclose(g.labels);
    g.labels = NULL;
    if (!ok) {
        close_all(&g);
        return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    }

    fputs("# written by opticoll draw; `gnuplot THIS_FILE` draws the PNG\n", f);
    fprintf(f,
            "# drawing view=%s nodes=%u rounds=%llu steps=%llu drawn-rounds=%zu panels=%zu "
            "elements=%llu verified=%s width=%.0f height=%.0f\n",
            oc__draw_view_name(d), rep->nodes, (unsigned long long)rep->rounds,
            (unsigned long long)rep->steps, l->rounds, d->npanels, (unsigned long long)d->elements,
            rep->verified ? "true" : "false", l->width, l->height);
    fputs("if (!exists(\"opticoll_output\")) opticoll_output = ", f);
    const char *image = d->opt->image ? d->opt->image : "drawing.png";
    if (image[0] == '|') fputs("'./' . ", f); /* a file of that name, never a pipe */
    quoted(f, image);
    fprintf(f,
            "\nset terminal pngcairo size %.0f,%.0f noenhanced font ',10' background "
            "rgb '#ffffff'\nset output opticoll_output\nset encoding utf8\n",
            l->width, l->height);
    fprintf(f,
            "unset border\nunset tics\nunset key\nset lmargin at screen 0\nset rmargin at "
            "screen 1\nset tmargin at screen 1\nset bmargin at screen 0\nset xrange [0:%.0f]\n"
            "set yrange [%.0f:0]\nset style fill solid 1.0 noborder\n",
            l->width, l->height);
    fwrite(g.labels_text, 1, g.labels_n, f);
    for (int b = 0; b < NBLOCKS; b++) {
        if (!g.n[b]) continue;
        fprintf(f, "$b%d << EOD\n", b);
        fwrite(g.text[b], 1, g.n[b], f);
        fputs("EOD\n", f);
    }
    fputs("plot ", f);
    for (int b = 0, first = 1; b < NBLOCKS; b++) {
        if (!g.n[b]) continue;
        char buf[200];
        fprintf(f, "%s$b%d %s", first ? "" : ", \\\n     ", b, block_style(b, buf, sizeof buf));
        first = 0;
    }
    fputs("\nunset output\n", f);
    close_all(&g);
    if (ferror(f)) return oc__fail(why, len, OC_EIO, "write error: %s", strerror(errno));
    return 0;
}
