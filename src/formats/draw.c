/*
 * draw.c — `opticoll draw`: a verified, mapped schedule as one SVG picture, the drawings the
 * seeds explain their algorithms with (OpTree Fig. 3 and WRHT Fig. 2: lightpaths on the ring per
 * step; the passive optical star's tunings per step; Lumorph's circuits on the rack).
 *
 * What is drawn comes from the network model itself, never from a second guess: the drawing is a
 * watch on the checked run (run/watch.h), as the Chrome timeline is (chrome.c), and every mark is
 * one of the model's own placements (net.h, oc__use) after the round passed the model's resource
 * check. So the wavelength and fibre of a ring lightpath are the ones the ring model's colouring
 * gave it, the star's wavelength is the laser the star model tuned, the fabric's wavelengths the
 * ones the fabric model handed the circuit.
 *
 * Views, by the model's typed settings (core/netcfg.h; never by its name):
 *  - ring: one panel per physical step. Nodes on a circle (node 0 at the top, numbered
 *    clockwise); a lightpath is an arc from its sender along the links it holds, clockwise ones
 *    outside the circle, counter-clockwise ones inside, one concentric track per channel in use;
 *    its colour is its wavelength (hue around the colour wheel, wavelength 0 red), its dash its
 *    fibre (fibre 0 solid); a dot marks the receiving end. A transfer of c chunks holds c
 *    channels: c arcs, each a lightpath of its own.
 *  - star: one panel per physical step. Nodes around the coupler; each transfer a curve from its
 *    sender through the coupler to its receiver, coloured by the wavelength the sender's laser
 *    sends on, and the receiver's filter (a ring at the receiver) tuned to it.
 *  - fabric: one panel per round. Tiles on a circle, grouped by server; each circuit a chord from
 *    its tile to the other, coloured by its first wavelength, as thick as its share of the tile's
 *    wavelengths.
 *  - switch, fat-tree, hypercube, torus, mesh: one panel per round, a matrix of senders (rows) by
 *    receivers (columns), a cell per transfer, blue a copy and orange a reduction, its strength
 *    the chunks it carries against the round's largest.
 * Past OC_DRAW_DETAIL_NODES (64) nodes no one reads 64 arcs per node on a circle, so every
 * network is summarised the same way: its panels (per step or per round, as above) become a
 * sender x receiver matrix binned to 64 x 64 blocks of nodes, each cell the number of transfers
 * from one block to the other placed in that panel (the ring: placed in that step, a transfer
 * whose channels spread over several steps counted in each; its title also counts the
 * lightpaths, the ring's channels).
 *
 * The file: a header (collective, algorithm, network, N, size, rounds, steps, time, verified, and
 * the legend), an index with a link per round drawn, then a row of panels per round. Each round
 * has an SVG <view> of its own (id "round-R") that the index links to (href "#round-R"): a viewer
 * following the link shows that round alone, and `drawing.svg#round-3` opens on it. Every
 * drawn element carries its facts as attributes (data-round, data-step, data-src, data-dst,
 * data-fibre, data-wavelength ...) and a <title> (a tooltip), so a program reads the picture back.
 * Text from a file (an algorithm's name, a parameter) is escaped for XML.
 *
 * The same picture as a gnuplot script (oc_draw_options.format = OC_DRAW_GNUPLOT, for a PNG) is
 * draw_gnuplot.c's; the page's layout and the geometry both writers place things with (the
 * circle's positions, the ring's tracks, the colours, the legend) are draw_layout.c's (draw.h).
 * This file keeps the watch that collects the marks, the SVG writer and the entry points.
 *
 * Budgets: the panels and the elements are counted as the model reports them, and a drawing that
 * would pass either cap is refused (OC_ETOOBIG, one line suggesting --round) before anything is
 * written; with a round chosen only that round's marks are kept. The marks kept are at most the
 * element cap (40 bytes each); a summary keeps no marks but each panel's 64 x 64 block pairs
 * (two counters each: placements, lightpaths), and its elements are the block pairs in use. Both
 * are counted against the memory budget before the run.
 */
#include "formats/draw.h"
#include "core/json.h"
#include "formats/formats.h"
#include "net/model_common.h"
#include "run/watch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef oc__drawer drawer;
typedef oc__draw_mark mark;
typedef oc__draw_panel panel;

#define DRAWER(o) ((drawer *)((char *)(o)-offsetof(drawer, obs)))

static int keep_round(const drawer *d, uint64_t round) {
    return d->opt->round < 0 || (uint64_t)d->opt->round == round;
}

static int refuse(const drawer *d, const char *what, uint64_t cap, char *why, size_t len) {
    return oc__fail(why, len, OC_ETOOBIG,
                    "the drawing would have more than %llu %s; draw fewer %s (--round R draws one "
                    "round)",
                    (unsigned long long)cap, what,
                    d->view == OC__DRAW_RING || d->view == OC__DRAW_STAR ? "steps" : "rounds");
}

static int add_panel(drawer *d, uint64_t round, uint64_t step, uint64_t nsteps, double start,
                     double dur, char *why, size_t len) {
    if (d->npanels >= d->opt->max_panels) return refuse(d, "panels", d->opt->max_panels, why, len);
    if (oc__grow((void **)&d->panels, &d->cappanels, d->npanels + 1, sizeof *d->panels))
        return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    panel *p = &d->panels[d->npanels];
    *p = (panel){round, step, nsteps, start, dur, NULL};
    if (d->summary &&
        !(p->bins = oc__calloc((size_t)2 * OC__DRAW_BINS * OC__DRAW_BINS, sizeof *p->bins)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    d->npanels++;
    return 0;
}

static int draw_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps, double start,
                     double dur, char *why, size_t len) {
    drawer *d = DRAWER(o);
    if (!keep_round(d, round)) return 0;
    if (!d->any_round || round != d->cur_round) {
        d->any_round = 1;
        d->cur_round = round;
        d->round_first_panel = d->npanels;
    }
    if (d->view == OC__DRAW_RING || d->view == OC__DRAW_STAR) { /* a panel per physical step */
        for (uint64_t k = 0; k < nsteps; k++) {
            int rc = add_panel(d, round, step + k, 1, start, dur, why, len);
            if (rc) return rc;
        }
        return 0;
    }
    /* a panel per round: its steps are one span (the fat-tree and the direct networks report
     * the round's steps one by one, the switch and the fabric as one call) */
    if (d->npanels > d->round_first_panel) {
        panel *p = &d->panels[d->npanels - 1];
        p->nsteps = step + nsteps - p->step;
        p->dur_s = start + dur - p->start_s;
        return 0;
    }
    return add_panel(d, round, step, nsteps, start, dur, why, len);
}

static int add_mark(drawer *d, const mark *m, uint64_t elements, char *why, size_t len) {
    if (d->elements + elements > d->opt->max_elements)
        return refuse(d, "elements", d->opt->max_elements, why, len);
    if (oc__grow((void **)&d->marks, &d->capmarks, d->nmarks + 1, sizeof *d->marks))
        return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    d->marks[d->nmarks++] = *m;
    d->elements += elements;
    return 0;
}

static int draw_use(oc__observer *o, const oc__use *u, char *why, size_t len) {
    drawer *d = DRAWER(o);
    if (!keep_round(d, u->round) || u->show == OC_SHOW_LINKS) return 0;
    /* the switch reports a transfer twice (its send port and its receive port): once is enough */
    if (u->side == OC_USE_RECV) return 0;
    if (d->npanels == d->round_first_panel)
        return oc__fail(why, len, OC_ERESOURCE, "round %llu: a placement before its step",
                        (unsigned long long)u->round);
    const oc__transfer *t = u->t;
    mark m = {.panel = d->npanels - 1,
              .src = t->src,
              .dst = t->dst,
              .first = t->first,
              .count = t->count,
              .reduce = t->op == OC_OP_REDUCE};
    if (d->view == OC__DRAW_RING || d->view == OC__DRAW_STAR) {
        const uint64_t k = d->round_first_panel + (u->step - d->panels[d->round_first_panel].step);
        if (u->step < d->panels[d->round_first_panel].step || k >= d->npanels)
            return oc__fail(why, len, OC_ERESOURCE, "round %llu: a placement outside its steps",
                            (unsigned long long)u->round);
        m.panel = k;
    }
    if (d->summary) {
        /* a placement into its block pair: one transfer, and its channels on the ring */
        uint32_t *c = d->panels[m.panel].bins +
                      2 * ((size_t)((uint64_t)t->src * OC__DRAW_BINS / d->nodes) * OC__DRAW_BINS +
                           (size_t)((uint64_t)t->dst * OC__DRAW_BINS / d->nodes));
        if (!c[0] && d->elements + 1 > d->opt->max_elements)
            return refuse(d, "elements", d->opt->max_elements, why, len);
        d->elements += !c[0];
        const uint32_t lanes = d->view == OC__DRAW_RING ? u->cls1 - u->cls0 : 1;
        if (c[0] == UINT32_MAX || c[1] > UINT32_MAX - lanes)
            return oc__fail(why, len, OC_ETOOBIG, "too many placements in one block to draw");
        c[0]++;
        c[1] += lanes;
        return 0;
    }
    if (d->view == OC__DRAW_RING) {
        /* one lightpath per channel (net.h: classes [cls0, cls1) on one arc) */
        m.ccw = u->seg != 0;
        m.hops = u->npos;
        m.ncls = 1;
        for (uint32_t c = u->cls0; c < u->cls1; c++) {
            m.cls = c;
            int rc = add_mark(d, &m, 2, why, len); /* the arc and its end */
            if (rc) return rc;
        }
        return 0;
    }
    if (d->view == OC__DRAW_STAR) m.cls = u->pos0, m.ncls = 1; /* the laser's wavelength */
    if (d->view == OC__DRAW_FABRIC)
        m.cls = u->cls0, m.ncls = u->cls1 - u->cls0; /* its wavelengths */
    return add_mark(d, &m, d->view == OC__DRAW_STAR ? 2 : 1, why, len);
}

static int draw_attach(oc__watch *wt, const oc__model *model, oc__netrun *net, char *why,
                       size_t len) {
    drawer *d = (drawer *)wt;
    if (!model->observe) return oc__observe_unsupported(model, "a drawing", why, len);
    /* a second pass (a run that had to be sharded) starts the drawing again */
    for (size_t i = 0; i < d->npanels; i++)
        free(d->panels[i].bins);
    d->npanels = d->nmarks = 0;
    d->elements = 0;
    d->any_round = 0;
    d->round_first_panel = 0;
    memset(&d->cfg, 0, sizeof d->cfg);
    /* a model's run starts with its base (net/model_common.h): the collective it maps */
    d->nodes = ((const oc__netbase *)(const void *)net)->spec->nodes;
    d->summary = d->nodes > OC_DRAW_DETAIL_NODES;
    if (model->config) model->config(net, &d->cfg);
    switch (d->cfg.kind) {
    case OC_NETCFG_RING:
        d->view = OC__DRAW_RING;
        break;
    case OC_NETCFG_STAR:
        d->view = OC__DRAW_STAR;
        break;
    case OC_NETCFG_FABRIC:
        d->view = OC__DRAW_FABRIC;
        break;
    default:
        d->view = OC__DRAW_MATRIX;
    }
    oc__grid g;
    return model->observe(net, &d->obs, &g, why, len);
}

static int draw_finish(oc__watch *wt, oc_report *rep, char *why, size_t len) {
    (void)wt, (void)rep, (void)why, (void)len;
    return 0;
}

/* ---- writing ---- */

/* Text as XML character data or an attribute value: the five markup characters escaped, and
 * bytes XML 1.0 does not allow (control characters) or that may not be UTF-8 (above 0x7f)
 * written as '?': a name from a file cannot break the document. */
static void xml_put(FILE *f, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            fputc(c < 0x20 || c > 0x7e ? '?' : c, f);
        }
    }
}

/* The colour of index i of n as SVG writes it. */
static void hue(char *buf, size_t len, uint64_t i, uint64_t n) {
    snprintf(buf, len, "hsl(%.0f,75%%,42%%)", oc__draw_hue_degrees(i, n));
}

/* The dash of fibre f: solid, dashed, dotted, dash-dot, then again. */
static const char *dash(uint64_t f) {
    static const char *const d[] = {"none", "7 3", "2 2", "8 3 2 3"};
    return d[f % 4];
}

static void at(double cx, double cy, double r, uint32_t v, uint32_t n, double *x, double *y) {
    oc__draw_at(cx, cy, r, (double)v, n, x, y);
}

static void nodes_on_circle(FILE *f, double cx, double cy, double r, uint32_t n) {
    for (uint32_t v = 0; v < n; v++) {
        double x, y;
        at(cx, cy, r, v, n, &x, &y);
        fprintf(f,
                "<g class=\"node\" data-node=\"%u\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
                "fill=\"#fff\" stroke=\"#333\"/><text x=\"%.1f\" y=\"%.1f\" "
                "text-anchor=\"middle\" font-size=\"8\">%u</text></g>\n",
                v, x, y, x, y + 3, v);
    }
}

static void mark_title(FILE *f, const drawer *d, const mark *m, const char *extra) {
    fprintf(f, "<title>%u -&gt; %u, %s chunks [%u, +%u)%s</title>", m->src, m->dst,
            m->reduce ? "reduce" : "copy", m->first, m->count, extra);
    (void)d;
}

static void common_attrs(FILE *f, const drawer *d, const mark *m) {
    const panel *p = &d->panels[m->panel];
    fprintf(f,
            " data-round=\"%llu\" data-step=\"%llu\" data-src=\"%u\" data-dst=\"%u\" "
            "data-op=\"%s\" data-chunks=\"%u %u\"",
            (unsigned long long)p->round, (unsigned long long)p->step, m->src, m->dst,
            m->reduce ? "reduce" : "copy", m->first, m->count);
}

static void ring_panel(FILE *f, const drawer *d, size_t b, size_t e, double cx, double cy,
                       double *radius) {
    const uint32_t N = d->nodes;
    const uint64_t w = d->cfg.ring.wavelengths ? d->cfg.ring.wavelengths : 1;
    const double R = 110;
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\" stroke=\"#bbb\"/>\n", cx,
            cy, R);
    oc__draw_ring_radii(d, b, e, R, radius);
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        const double r = radius[i - b];
        /* the arc stops short of both nodes by a tenth of a link, so that two lightpaths that
         * meet at a node on one track stay two arcs */
        const double trim = 0.1, sign = m->ccw ? -1.0 : 1.0;
        double x0, y0, x1, y1;
        oc__draw_at(cx, cy, r, (double)m->src + sign * trim, N, &x0, &y0);
        oc__draw_at(cx, cy, r, (double)m->src + sign * ((double)m->hops - trim), N, &x1, &y1);
        const uint64_t fibre = m->cls / w, wl = m->cls % w;
        char colour[40];
        hue(colour, sizeof colour, wl, w);
        fprintf(f, "<path class=\"lightpath\"");
        common_attrs(f, d, m);
        fprintf(f,
                " data-dir=\"%s\" data-fibre=\"%llu\" data-wavelength=\"%llu\" data-links=\"%u\" "
                "d=\"M %.2f %.2f A %.2f %.2f 0 %d %d %.2f %.2f\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"2\" stroke-dasharray=\"%s\">",
                m->ccw ? "ccw" : "cw", (unsigned long long)fibre, (unsigned long long)wl, m->hops,
                x0, y0, r, r, 2 * (uint64_t)m->hops > N, m->ccw ? 0 : 1, x1, y1, colour,
                dash(fibre));
        char extra[96];
        snprintf(extra, sizeof extra, ", %s, fibre %llu, wavelength %llu, %u link%s",
                 m->ccw ? "counter-clockwise" : "clockwise", (unsigned long long)fibre,
                 (unsigned long long)wl, m->hops, m->hops == 1 ? "" : "s");
        mark_title(f, d, m, extra);
        fprintf(f, "</path><circle class=\"end\" cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"%s\"/>\n",
                x1, y1, colour);
    }
    nodes_on_circle(f, cx, cy, R, N);
}

static void star_panel(FILE *f, const drawer *d, size_t b, size_t e, double cx, double cy) {
    const uint32_t N = d->nodes;
    const uint64_t colours = (uint64_t)N * (d->cfg.star.k ? d->cfg.star.k : 1);
    const double R = 125;
    fprintf(f,
            "<rect class=\"coupler\" x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"16\" "
            "fill=\"#ddd\" stroke=\"#333\"><title>passive star coupler</title></rect>\n",
            cx - 8, cy - 8);
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        double x0, y0, x1, y1, lx, ly;
        at(cx, cy, R - 10, m->src, N, &x0, &y0);
        at(cx, cy, R - 10, m->dst, N, &x1, &y1);
        at(cx, cy, R - 26, m->src, N, &lx, &ly);
        char colour[40];
        hue(colour, sizeof colour, m->cls, colours);
        fprintf(f, "<path class=\"transmission\"");
        common_attrs(f, d, m);
        fprintf(f,
                " data-wavelength=\"%u\" d=\"M %.2f %.2f Q %.2f %.2f %.2f %.2f\" fill=\"none\" "
                "stroke=\"%s\" stroke-width=\"1.6\">",
                m->cls, x0, y0, cx, cy, x1, y1, colour);
        char extra[64];
        snprintf(extra, sizeof extra, ", wavelength %u", m->cls);
        mark_title(f, d, m, extra);
        fprintf(f,
                "</path><circle class=\"filter\" data-node=\"%u\" data-wavelength=\"%u\" "
                "cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"2\"><title>filter of %u tuned to wavelength %u</title></circle>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"7\" text-anchor=\"middle\" "
                "fill=\"%s\">&#955;%u</text>\n",
                m->dst, m->cls, x1, y1, colour, m->dst, m->cls, lx, ly + 2, colour, m->cls);
    }
    nodes_on_circle(f, cx, cy, R, N);
}

static void fabric_panel(FILE *f, const drawer *d, size_t b, size_t e, double cx, double cy) {
    const uint32_t N = d->nodes;
    const uint64_t W = d->cfg.fabric.wavelengths ? d->cfg.fabric.wavelengths : 1;
    const uint64_t T = d->cfg.fabric.tiles_per_server ? d->cfg.fabric.tiles_per_server : N;
    const double R = 125;
    /* the servers: a grey arc under each server's tiles */
    for (uint64_t s = 0; s * T < N; s++) {
        uint32_t first = (uint32_t)(s * T),
                 last = (uint32_t)(s * T + T - 1 < N ? s * T + T - 1 : N - 1);
        double x0, y0, x1, y1, lx, ly;
        at(cx, cy, R + 14, first, N, &x0, &y0);
        at(cx, cy, R + 14, last, N, &x1, &y1);
        at(cx, cy, R + 26, (first + last) / 2, N, &lx, &ly);
        fprintf(f,
                "<path class=\"server\" data-server=\"%llu\" d=\"M %.2f %.2f A %.1f %.1f 0 %d 1 "
                "%.2f %.2f\" fill=\"none\" stroke=\"#999\" stroke-width=\"5\"/><text x=\"%.1f\" "
                "y=\"%.1f\" font-size=\"8\" text-anchor=\"middle\">server %llu</text>\n",
                (unsigned long long)s, x0, y0, R + 14, R + 14, 2 * (last - first) > N, x1, y1, lx,
                ly, (unsigned long long)s);
    }
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        double x0, y0, x1, y1;
        at(cx, cy, R - 10, m->src, N, &x0, &y0);
        at(cx, cy, R - 10, m->dst, N, &x1, &y1);
        char colour[40];
        hue(colour, sizeof colour, m->cls, W);
        fprintf(f, "<path class=\"circuit\"");
        common_attrs(f, d, m);
        fprintf(f,
                " data-wavelength=\"%u\" data-wavelengths=\"%u\" d=\"M %.2f %.2f Q %.2f %.2f %.2f "
                "%.2f\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\">",
                m->cls, m->ncls, x0, y0, cx + (x0 + x1 - 2 * cx) * 0.25,
                cy + (y0 + y1 - 2 * cy) * 0.25, x1, y1, colour,
                1 + 4.0 * (double)m->ncls / (double)W);
        char extra[96];
        snprintf(extra, sizeof extra, ", wavelengths %u-%u of tile %u%s", m->cls,
                 m->cls + m->ncls - 1, m->src,
                 m->src / T == m->dst / T ? "" : ", over fibre between servers");
        mark_title(f, d, m, extra);
        fputs("</path>\n", f);
    }
    nodes_on_circle(f, cx, cy, R, N);
}

static void matrix_panel(FILE *f, const drawer *d, size_t b, size_t e, double x, double y) {
    const uint32_t N = d->nodes;
    const double side = OC__DRAW_PANEL_W - 40, cell = side / N;
    uint32_t most = 1;
    for (size_t i = b; i < e; i++)
        if (d->marks[i].count > most) most = d->marks[i].count;
    const double ox = x + 30, oy = y + 20;
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f7f7f7\" "
            "stroke=\"#bbb\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" "
            "text-anchor=\"middle\">receiver</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" "
            "text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">sender</text>\n",
            ox, oy, side, side, ox + side / 2, oy - 8, ox - 18, oy + side / 2, ox - 18,
            oy + side / 2);
    const uint32_t every = N <= 16 ? 1 : N <= 32 ? 4 : 8;
    for (uint32_t v = 0; v < N; v += every)
        fprintf(f,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"6\" text-anchor=\"middle\">%u</text>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"6\" text-anchor=\"end\">%u</text>\n",
                ox + (v + 0.5) * cell, oy - 1, v, ox - 2, oy + (v + 0.5) * cell + 2, v);
    for (size_t i = b; i < e; i++) {
        const mark *m = &d->marks[i];
        fprintf(f, "<rect class=\"transfer\"");
        common_attrs(f, d, m);
        fprintf(f,
                " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                "fill-opacity=\"%.2f\">",
                ox + m->dst * cell, oy + m->src * cell, cell, cell,
                m->reduce ? "#e07020" : "#2f6db5", 0.35 + 0.65 * (double)m->count / most);
        mark_title(f, d, m, "");
        fputs("</rect>\n", f);
    }
}

/* Past OC_DRAW_DETAIL_NODES: the panel's placements binned into OC__DRAW_BINS x OC__DRAW_BINS
 * blocks of nodes. */
static void summary_panel(FILE *f, const drawer *d, const panel *p, double x, double y) {
    const uint32_t N = d->nodes;
    uint64_t most = 1;
    for (size_t i = 0; i < (size_t)OC__DRAW_BINS * OC__DRAW_BINS; i++)
        if (p->bins[2 * i] > most) most = p->bins[2 * i];
    const double side = OC__DRAW_PANEL_W - 40, cell = side / OC__DRAW_BINS, ox = x + 30,
                 oy = y + 20;
    fprintf(f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f7f7f7\" "
            "stroke=\"#bbb\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"8\" "
            "text-anchor=\"middle\">receivers (%u blocks)</text><text x=\"%.1f\" y=\"%.1f\" "
            "font-size=\"8\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">senders "
            "(%u blocks)</text>\n",
            ox, oy, side, side, ox + side / 2, oy - 6, OC__DRAW_BINS, ox - 14, oy + side / 2,
            ox - 14, oy + side / 2, OC__DRAW_BINS);
    for (uint32_t r = 0; r < OC__DRAW_BINS; r++)
        for (uint32_t c = 0; c < OC__DRAW_BINS; c++) {
            const uint32_t *b = p->bins + 2 * ((size_t)r * OC__DRAW_BINS + c);
            if (!b[0]) continue;
            uint32_t s0, s1, d0, d1; /* the senders' and the receivers' nodes */
            oc__draw_bin_nodes(N, r, &s0, &s1);
            oc__draw_bin_nodes(N, c, &d0, &d1);
            fprintf(f,
                    "<rect class=\"block\" data-round=\"%llu\" data-step=\"%llu\" "
                    "data-senders=\"%u %u\" data-receivers=\"%u %u\" data-transfers=\"%u\" "
                    "data-lightpaths=\"%u\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                    "height=\"%.2f\" fill=\"#2f6db5\" fill-opacity=\"%.2f\"><title>senders "
                    "%u-%u to receivers %u-%u: %u transfer%s",
                    (unsigned long long)p->round, (unsigned long long)p->step, s0, s1, d0, d1, b[0],
                    b[1], ox + c * cell, oy + r * cell, cell, cell,
                    0.25 + 0.75 * (double)b[0] / (double)most, s0, s1, d0, d1, b[0],
                    b[0] == 1 ? "" : "s");
            if (d->view == OC__DRAW_RING) fprintf(f, " (%u lightpaths)", b[1]);
            fputs("</title></rect>\n", f);
        }
}

/* Where the panels go: OC__DRAW_COLS to a line, left to right; a round starts a new line unless it
 * fits whole on the current one, so that a round of several steps reads as one block. */

static int render(drawer *d, const oc__draw_layout *l, const oc_report *rep, FILE *f, char *why,
                  size_t len) {
    const size_t *line = l->line, *col = l->col, rows = l->rounds, per_line = OC__DRAW_PER_LINE;
    const double width = l->width, height = l->height, index_y = l->index_y, head = l->head;
    const char *legend = oc__draw_legend(d);
    const size_t legend_lines = l->legend_lines;
    double *radius = oc__calloc(d->nmarks + 1, sizeof *radius); /* the ring's tracks */
    if (!radius) return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    char tb[32];
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"sans-serif\">\n",
            width, height, width, height);
    fprintf(f, "<view id=\"all\" viewBox=\"0 0 %.0f %.0f\"/>\n", width, height);
    fputs("<title>", f);
    xml_put(f, rep->collective);
    fputs(" ", f);
    xml_put(f, rep->algorithm);
    fputs(" on ", f);
    xml_put(f, rep->network);
    fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
    oc_report_format_time(rep, tb, sizeof tb, rep->time_s);
    fprintf(f,
            "<g id=\"summary\" class=\"summary\" data-nodes=\"%u\" data-rounds=\"%llu\" "
            "data-steps=\"%llu\" data-drawn-rounds=\"%zu\" data-panels=\"%zu\" "
            "data-elements=\"%zu\" data-verified=\"%s\" data-view=\"%s\">\n",
            rep->nodes, (unsigned long long)rep->rounds, (unsigned long long)rep->steps, rows,
            d->npanels, (size_t)d->elements, rep->verified ? "true" : "false",
            oc__draw_view_name(d));
    fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">", OC__DRAW_MARGIN);
    xml_put(f, rep->collective);
    fputs(" / ", f);
    xml_put(f, rep->algorithm);
    fputs(" on ", f);
    xml_put(f, rep->network);
    fprintf(f, ", %u node%s, %llu bytes</text>\n", rep->nodes, rep->nodes == 1 ? "" : "s",
            (unsigned long long)rep->bytes);
    fprintf(f, "<text x=\"%d\" y=\"48\" font-size=\"11\">%llu rounds, %llu steps, time ",
            OC__DRAW_MARGIN, (unsigned long long)rep->rounds, (unsigned long long)rep->steps);
    xml_put(f, tb);
    fprintf(f, ", %s", rep->verified ? "verified" : "NOT verified");
    for (size_t i = 0; i < oc_kv_count(rep->params); i++) {
        fputs(i ? " " : "; parameters ", f);
        xml_put(f, oc_kv_key(rep->params, i));
        fputc('=', f);
        xml_put(f, oc_kv_value(rep->params, i));
    }
    fputs("</text>\n", f);
    for (size_t i = 0; i < legend_lines; i++) {
        size_t n = strcspn(legend, ";");
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part ? n : sizeof part - 1), legend);
        fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"10\">", OC__DRAW_MARGIN,
                66 + 13.0 * (double)i);
        xml_put(f, part);
        fputs("</text>\n", f);
        legend += n;
        if (*legend) legend += 2;
    }
    fputs("</g>\n", f);
    /* the index: a link per round to its view */
    fprintf(f,
            "<g id=\"index\"><text x=\"%d\" y=\"%.0f\" font-size=\"11\" "
            "font-weight=\"bold\">rounds:</text>\n",
            OC__DRAW_MARGIN, index_y);
    for (size_t p = 0, r = 0; p < d->npanels; p++) {
        if (p && d->panels[p].round == d->panels[p - 1].round) continue;
        fprintf(f,
                "<a href=\"#round-%llu\" xlink:href=\"#round-%llu\"><text x=\"%.0f\" y=\"%.0f\" "
                "font-size=\"11\" "
                "fill=\"#1a56a0\" text-decoration=\"underline\">round %llu</text></a>\n",
                (unsigned long long)d->panels[p].round, (unsigned long long)d->panels[p].round,
                OC__DRAW_MARGIN + 70 + 62.0 * (double)(r % per_line),
                index_y + 14.0 * (double)(r / per_line), (unsigned long long)d->panels[p].round);
        r++;
    }
    fputs("</g>\n", f);
    /* the rounds */
    const double block_h = OC__DRAW_PANEL_H + OC__DRAW_LABEL_H + OC__DRAW_GAP;
    int rc = 0;
    for (size_t p = 0; p < d->npanels && !rc;) {
        size_t q = p;
        while (q < d->npanels && d->panels[q].round == d->panels[p].round)
            q++;
        const double y = head + (double)line[p] * block_h;
        const double x0 = OC__DRAW_MARGIN + (double)col[p] * (OC__DRAW_PANEL_W + OC__DRAW_GAP);
        const size_t nlines = line[q - 1] - line[p] + 1;
        const double vw = nlines > 1 ? (double)OC__DRAW_COLS * (OC__DRAW_PANEL_W + OC__DRAW_GAP)
                                     : (double)(q - p) * (OC__DRAW_PANEL_W + OC__DRAW_GAP);
        const panel *first = &d->panels[p], *last = &d->panels[q - 1];
        fprintf(f, "<view id=\"round-%llu\" viewBox=\"%.0f %.0f %.0f %.0f\"/>\n",
                (unsigned long long)first->round, x0 - 8, y - 8, vw + 8,
                (double)nlines * block_h + 8);
        char t0[32], t1[32];
        oc_report_format_time(rep, t0, sizeof t0, first->start_s);
        oc_report_format_time(rep, t1, sizeof t1, last->start_s + last->dur_s - first->start_s);
        const uint64_t s0 = first->step, s1 = last->step + last->nsteps - 1;
        fprintf(f,
                "<g id=\"g-round-%llu\" class=\"round\" data-round=\"%llu\" data-panels=\"%zu\">"
                "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" font-weight=\"bold\">round %llu",
                (unsigned long long)first->round, (unsigned long long)first->round, q - p, x0,
                y + 14, (unsigned long long)first->round);
        if (s0 == s1)
            fprintf(f, "</text><text x=\"%.0f\" y=\"%.0f\" font-size=\"9\">step %llu", x0, y + 26,
                    (unsigned long long)s0);
        else
            fprintf(f, "</text><text x=\"%.0f\" y=\"%.0f\" font-size=\"9\">steps %llu-%llu", x0,
                    y + 26, (unsigned long long)s0, (unsigned long long)s1);
        fputs(", from ", f);
        xml_put(f, t0);
        fputs(", lasting ", f);
        xml_put(f, t1);
        fputs("</text>\n", f);
        for (size_t k = p; k < q && !rc; k++) {
            const double x = OC__DRAW_MARGIN + (double)col[k] * (OC__DRAW_PANEL_W + OC__DRAW_GAP),
                         py = head + (double)line[k] * block_h + OC__DRAW_LABEL_H;
            size_t b, e;
            oc__draw_panel_marks(d, k, &b, &e);
            fprintf(f,
                    "<g class=\"panel\" data-round=\"%llu\" data-step=\"%llu\" data-marks=\"%zu\">"
                    "<rect x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"none\" "
                    "stroke=\"#ddd\"/>",
                    (unsigned long long)d->panels[k].round, (unsigned long long)d->panels[k].step,
                    e - b, x, py - 4, OC__DRAW_PANEL_W, OC__DRAW_PANEL_H);
            if ((d->view == OC__DRAW_RING || d->view == OC__DRAW_STAR) && q - p > 1)
                fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">step %llu</text>\n", x + 4,
                        py + 8, (unsigned long long)d->panels[k].step);
            else
                fputc('\n', f);
            const double cx = x + OC__DRAW_PANEL_W / 2.0, cy = py + OC__DRAW_PANEL_H / 2.0;
            if (d->summary)
                summary_panel(f, d, &d->panels[k], x, py);
            else if (d->view == OC__DRAW_RING)
                ring_panel(f, d, b, e, cx, cy, radius);
            else if (d->view == OC__DRAW_STAR)
                star_panel(f, d, b, e, cx, cy);
            else if (d->view == OC__DRAW_FABRIC)
                fabric_panel(f, d, b, e, cx, cy);
            else
                matrix_panel(f, d, b, e, x, py);
            fputs("</g>\n", f);
        }
        fputs("</g>\n", f);
        p = q;
    }
    free(radius);
    if (rc) return oc__fail(why, len, rc, "out of memory drawing");
    fputs("</svg>\n", f);
    if (ferror(f)) return oc__fail(why, len, OC_EIO, "write error: %s", strerror(errno));
    return 0;
}

static void drawer_init(drawer *d, const oc_draw_options *opt) {
    memset(d, 0, sizeof *d);
    d->watch = (oc__watch){.what = "a drawing", .attach = draw_attach, .finish = draw_finish};
    d->obs = (oc__observer){.step = draw_step, .use = draw_use};
    d->opt = opt;
}

static void drawer_free(drawer *d) {
    for (size_t i = 0; i < d->npanels; i++)
        free(d->panels[i].bins);
    free(d->marks);
    free(d->panels);
}

static int check_options(const oc_draw_options *opt, char *why, size_t len) {
    if (!opt || !opt->max_panels || !opt->max_elements)
        return oc__fail(why, len, OC_EINVAL,
                        "a drawing needs its caps (max_panels, "
                        "max_elements)");
    if (opt->format != OC_DRAW_SVG && opt->format != OC_DRAW_GNUPLOT)
        return oc__fail(why, len, OC_EINVAL, "a drawing's format is SVG or a gnuplot script");
    /* the marks kept are counted against the memory budget before the first is made */
    const uint64_t bins = (uint64_t)2 * OC__DRAW_BINS * OC__DRAW_BINS * sizeof(uint32_t);
    if (opt->max_elements > UINT64_MAX / 2 / sizeof(mark) ||
        opt->max_panels > UINT64_MAX / 2 / (sizeof(panel) + bins))
        return oc__fail(why, len, OC_ETOOBIG, "the drawing's caps are too large");
    /* a gnuplot script is held whole in memory (by the writer, and by the CLI that hands it to
     * gnuplot): its elements' bytes twice */
    const uint64_t script =
        opt->format == OC_DRAW_GNUPLOT ? 2 * (uint64_t)OC__DRAW_GP_ELEMENT_BYTES : 0;
    if (opt->max_elements > UINT64_MAX / 4 / (sizeof(mark) + script))
        return oc__fail(why, len, OC_ETOOBIG, "the drawing's caps are too large");
    return oc__budget_check(opt->max_elements * (sizeof(mark) + script) +
                                opt->max_panels * (sizeof(panel) + bins),
                            "the drawing's marks", why, len);
}

static int finish_drawing(drawer *d, const oc_report *rep, FILE *f, char *why, size_t len) {
    if (d->opt->round >= 0 && (uint64_t)d->opt->round >= rep->rounds)
        return oc__fail(why, len, OC_ERANGE,
                        "--round %lld: the schedule has %llu round%s (0 to "
                        "%llu)",
                        (long long)d->opt->round, (unsigned long long)rep->rounds,
                        rep->rounds == 1 ? "" : "s",
                        (unsigned long long)(rep->rounds ? rep->rounds - 1 : 0));
    oc__draw_layout l;
    if (oc__draw_layout_make(d, &l)) return oc__fail(why, len, OC_ENOMEM, "out of memory drawing");
    int rc = d->opt->format == OC_DRAW_GNUPLOT ? oc__draw_gnuplot(d, &l, rep, f, why, len)
                                               : render(d, &l, rep, f, why, len);
    oc__draw_layout_free(&l);
    return rc;
}

static int draw_in(const oc_request *req, const oc_draw_options *opt, FILE *f, char *why,
                   size_t len) {
    int rc = check_options(opt, why, len);
    if (rc) return rc;
    drawer d;
    drawer_init(&d, opt);
    oc_report *rep = NULL;
    rc = oc__run_request(req, &d.watch, &rep, why, len);
    if (!rc) rc = finish_drawing(&d, rep, f, why, len);
    oc_report_free(rep);
    drawer_free(&d);
    return rc;
}

int oc_draw(const oc_request *req, const oc_draw_options *opt, FILE *f, char *why, size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = draw_in(req, opt, f, why, len);
    oc__settings_leave(prev);
    return rc;
}

static int draw_file(const char *path, const char *network, const oc_kv *net_params,
                     const oc_draw_options *opt, FILE *f, char *why, size_t len) {
    int rc = check_options(opt, why, len);
    if (rc) return rc;
    drawer d;
    drawer_init(&d, opt);
    oc_report *rep = NULL;
    rc = oc__verify_file_watched(path, network, net_params, &d.watch, opt->progress,
                                 opt->progress_ctx, &rep, why, len);
    if (!rc) rc = finish_drawing(&d, rep, f, why, len);
    oc_report_free(rep);
    drawer_free(&d);
    return rc;
}

int oc_draw_file(const oc_settings *settings, const char *path, const char *network,
                 const oc_kv *net_params, const oc_draw_options *opt, FILE *f, char *why,
                 size_t len) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(settings, &prev, why, len);
    if (!rc) rc = draw_file(path, network, net_params, opt, f, why, len);
    oc__settings_leave(prev);
    return rc;
}
