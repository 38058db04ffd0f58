/*
 * cmd_reproduce_out.c — `opticoll reproduce all|NAME [--out DIR] [-j N]`: the papers on every core
 * and across MPI ranks, and with --out their tables (text and CSV) and figures (PNG, gnuplot)
 * with an index page, DIR/index.md, that puts each paper's figure caption beside ours.
 *
 * Each paper is one point of scaleout.c: it runs where it is scheduled (oc_reproduce_collect:
 * the text, every table kept as CSV, every figure's series) and comes back as a list of named
 * files — NAME.txt, NAME-table-K.csv, NAME-FIG.csv (the figure's points: series, x, y),
 * NAME-FIG.gp (the gnuplot script) — and its section of the index. Rank 0 checks that every paper
 * succeeded before it writes anything, writes the files, draws each script's PNG (plot_draw; the
 * script stays in DIR to be rerun there by hand) and DIR/index.md, and prints the text as
 * `reproduce` always has. The files are one group (output.h): each goes to a temporary in DIR,
 * and only when all of them are whole (every PNG checked) are they renamed, index.md last, so
 * that a failure, a full disk or SIGINT/SIGTERM/SIGHUP part-way leaves DIR as it was (and a DIR
 * this run made is removed again) — not some new files beside old ones and no index. A new DIR
 * is made only once the papers have run (tried and removed at the start, to refuse a DIR that
 * cannot be made before minutes of work), so SIGKILL during those minutes leaves nothing.
 */
#include "cli.h"
#include "output.h"
#include "plot.h"
#include "scaleout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct job {
    const char *names[16];
    size_t n;
    const char *out; /* NULL: text only */
    const oc_reproduce_settings *settings;
} job;

/* The blob of a paper: records (uint32 name length, name, uint64 length, bytes). The record
 * "@error" holds "code why"; "@text" the printed text; "@index" its section of index.md. */
typedef struct blob {
    char *buf;
    size_t len;
    FILE *m;
} blob;

static void put(blob *b, const char *name, const char *data, size_t len) {
    uint32_t nl = (uint32_t)strlen(name);
    uint64_t l = len;
    fwrite(&nl, sizeof nl, 1, b->m);
    fwrite(name, 1, nl, b->m);
    fwrite(&l, sizeof l, 1, b->m);
    fwrite(data, 1, len, b->m);
}

static void put_text(blob *b, const char *name, const char *text) {
    put(b, name, text, strlen(text));
}

static int paper_fn(size_t i, void *ctx, char **out, size_t *outlen) {
    const job *J = ctx;
    const char *name = J->names[i];
    blob b = {0};
    b.m = open_memstream(&b.buf, &b.len);
    if (!b.m) return OC_ENOMEM;
    char *text = NULL, why[512] = "";
    size_t tlen = 0;
    FILE *t = open_memstream(&text, &tlen);
    oc_figures *figs = NULL;
    int rc = t ? oc_reproduce_collect(name, J->settings, t, &figs, why, sizeof why) : OC_ENOMEM;
    if (t) fclose(t);
    if (rc) {
        char e[600];
        snprintf(e, sizeof e, "%d %s", rc, why);
        put_text(&b, "@error", e);
        goto done;
    }
    put(&b, "@text", text, tlen);
    if (!J->out) goto done;
    char *idx = NULL, *s = NULL, fname[256];
    size_t ilen = 0, slen = 0;
    FILE *ix = open_memstream(&idx, &ilen);
    if (!ix) goto oom;
    fprintf(ix, "\n## %s\n\nThe whole reproduction as printed: [%s.txt](%s.txt).\n", name, name,
            name);
    size_t nt = oc_figures_table_count(figs);
    if (nt) fputs("Its tables as CSV, in the order printed:", ix);
    for (size_t k = 0; k < nt; k++) {
        FILE *m = open_memstream(&s, &slen);
        if (!m) goto oom;
        oc_figures_write_table_csv(figs, k, m);
        fclose(m);
        snprintf(fname, sizeof fname, "%s-table-%zu.csv", name, k + 1);
        put(&b, fname, s, slen);
        free(s);
        s = NULL;
        fprintf(ix, "%s[%zu](%s)", k ? ", " : " ", k + 1, fname);
    }
    if (nt) fputs(".\n", ix);
    for (size_t k = 0; k < oc_figures_count(figs); k++) {
        oc_figure_info fi;
        oc_figure_get(figs, k, &fi);
        plot_series ser[32];
        size_t ns = fi.nseries < 32 ? fi.nseries : 32;
        FILE *m = open_memstream(&s, &slen);
        if (!m) goto oom;
        fputs("series,x,y\n", m);
        for (size_t q = 0; q < ns; q++) {
            oc_figure_series_get(figs, k, q, &ser[q].title, &ser[q].n, &ser[q].x, &ser[q].y);
            for (size_t p = 0; p < ser[q].n; p++)
                fprintf(m, "\"%s\",%.9g,%.9g\n", ser[q].title, ser[q].x[p], ser[q].y[p]);
        }
        fclose(m);
        snprintf(fname, sizeof fname, "%s-%s.csv", name, fi.id);
        put(&b, fname, s, slen);
        free(s);
        s = NULL;
        char png[256];
        snprintf(png, sizeof png, "%s-%s.png", name, fi.id);
        plot_spec spec = {fi.title, fi.xlabel, fi.ylabel, fi.logx, fi.logy, 0, 0};
        m = open_memstream(&s, &slen);
        if (!m) goto oom;
        plot_script(m, png, &spec, ser, ns);
        fclose(m);
        snprintf(fname, sizeof fname, "%s-%s.gp", name, fi.id);
        put(&b, fname, s, slen);
        free(s);
        s = NULL;
        fprintf(ix,
                "\n### %s: %s\n\n| the paper | ours |\n|---|---|\n| %s | %s: %s against %s, "
                "one line per series (%zu); data [%s-%s.csv](%s-%s.csv), gnuplot script "
                "[%s](%s) |\n\n![%s](%s)\n",
                name, fi.id, fi.caption, fi.title, fi.ylabel, fi.xlabel, ns, name, fi.id, name,
                fi.id, fname, fname, fi.title, png);
    }
    fclose(ix);
    ix = NULL;
    put(&b, "@index", idx, ilen);
    free(idx);
    goto done;
oom:
    free(s);
    if (ix) fclose(ix);
    free(idx);
    put_text(&b, "@error", "-2 out of memory");
done:
    oc_figures_free(figs);
    free(text);
    if (fclose(b.m)) {
        free(b.buf);
        return OC_ENOMEM;
    }
    *out = b.buf;
    *outlen = b.len;
    return 0;
}

/* The record `name` of a blob, or NULL; with `next` walks every record. */
typedef struct rec {
    const char *name, *data;
    uint32_t nlen;
    uint64_t len;
} rec;

static int rec_next(const char *data, size_t len, size_t *at, rec *r) {
    if (*at + sizeof(uint32_t) > len) return 0;
    memcpy(&r->nlen, data + *at, sizeof r->nlen);
    r->name = data + *at + sizeof r->nlen;
    memcpy(&r->len, r->name + r->nlen, sizeof r->len);
    r->data = r->name + r->nlen + sizeof r->len;
    *at += sizeof r->nlen + r->nlen + sizeof r->len + r->len;
    return 1;
}

static int rec_is(const rec *r, const char *name) {
    return r->nlen == strlen(name) && !memcmp(r->name, name, r->nlen);
}

/* DIR/NAME (NAME: nlen bytes), malloc'ed; NULL when out of memory. */
static char *in_dir(const char *dir, const char *name, size_t nlen) {
    size_t dl = strlen(dir);
    char *p = malloc(dl + nlen + 2);
    if (p) sprintf(p, "%s/%.*s", dir, (int)nlen, name);
    return p;
}

/* Writes record r as DIR/NAME into the group g (output.h: renamed with the others, or not at
 * all), and draws NAME.png when NAME is a gnuplot script. 0 or an exit code after one line. */
static int write_record(const char *dir, const char *name, size_t nlen, const rec *r,
                        out_group *g) {
    char *path = in_dir(dir, name, nlen), *png = NULL;
    if (!path) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    int rc = out_group_write_bytes(g, path, r->data, r->len);
    if (!rc && nlen > 3 && !memcmp(name + nlen - 3, ".gp", 3)) {
        png = malloc(strlen(path) + 2);
        if (!png) {
            rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        } else {
            sprintf(png, "%.*s.png", (int)(strlen(path) - 3), path);
            rc = plot_draw(png, r->data, r->len, g);
        }
    }
    free(png);
    free(path);
    return rc;
}

/* Writes every file of every paper into J->out, draws the figures, and DIR/index.md, as one
 * group: nothing appears until everything is whole, and the index appears last. 0 or an exit
 * code after one line. */
static int write_out(const job *J, char *const *blobs, const size_t *lens) {
    char *idx = NULL;
    size_t ilen = 0;
    FILE *ix = open_memstream(&idx, &ilen);
    if (!ix) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    fputs("# opticoll: the seed papers reproduced\n\n"
          "Written by `opticoll reproduce --out`. Every simulated value comes from a "
          "schedule that was generated, verified (semantic verifier and the network "
          "model's resource check) and mapped; every table shows the paper's printed "
          "value, the paper's formula evaluated by us and our simulated value, with a "
          "reason for each difference. For each figure, the paper's caption (quoted or "
          "paraphrased from the seed) stands beside what we plot. The .gp files redraw "
          "the PNGs: `gnuplot FILE.gp` in this directory.\n",
          ix);
    out_group g = {0};
    int rc = 0;
    for (size_t i = 0; i < J->n && !rc; i++) {
        size_t at = 0;
        rec r;
        while (!rc && rec_next(blobs[i], lens[i], &at, &r)) {
            if (rec_is(&r, "@index")) {
                fwrite(r.data, 1, r.len, ix);
            } else if (rec_is(&r, "@text")) {
                char n[256];
                int nl = snprintf(n, sizeof n, "%s.txt", J->names[i]);
                rc = write_record(J->out, n, (size_t)nl, &r, &g);
            } else if (r.name[0] != '@') {
                rc = write_record(J->out, r.name, r.nlen, &r, &g);
            }
        }
    }
    if (fclose(ix) && !rc) rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
    if (!rc) {
        char *path = in_dir(J->out, "index.md", 8);
        rc = path ? out_group_write_bytes(&g, path, idx, ilen)
                  : die(EXIT_OTHER, "out of memory", NULL, NULL);
        free(path);
    }
    if (!rc)
        rc = out_group_commit(&g);
    else
        out_group_discard(&g);
    free(idx);
    return rc;
}

int cmd_reproduce_out(const char *which, const char *out, const char *jobs,
                      const oc_reproduce_settings *settings, unsigned given) {
    job J = {.n = 0, .out = out, .settings = settings};
    unsigned threads = oc_scale_default_threads();
    if (jobs && oc_scale_parse_jobs(jobs, &threads)) return EXIT_USAGE;
    const int all = !strcmp(which, "all");
    for (size_t i = 0; i < oc_paper_count() && J.n < 16; i++) {
        if (!all && strcmp(which, oc_paper_name(i))) continue;
        /* `all` with settings: the papers that take them (the others would refuse) */
        if (all && (given & ~oc_paper_settings(i))) continue;
        J.names[J.n++] = oc_paper_name(i);
    }
    if (!J.n && all)
        return die(EXIT_USAGE, "reproduce all: no paper takes all of these settings (see --help)",
                   NULL, NULL);
    if (!J.n) {
        char why[256] = "";
        oc_reproduce(which, stdout, why, sizeof why); /* the library names the known papers */
        return die_line(EXIT_USAGE, why);
    }
    /* DIR is this run's when it made it: removed again when nothing is written into it. A new
     * DIR is made here only to find out that it can be (and take files), then removed again and
     * made for good once every paper has run: a run killed in between (SIGKILL, the OOM killer:
     * no handler runs) leaves no empty DIR behind. Across MPI ranks DIR stays made from the
     * start: another rank's probe must not find it gone. */
    int made = 0, make_late = 0;
    if (J.out) {
        int failed = mkdir(J.out, 0777);
        if (failed && errno != EEXIST)
            return die(EXIT_USAGE, "--out %s: %s", J.out, strerror(errno));
        made = !failed;
        if (made) out_guard_dir(J.out);
    }
    int rc = 0;
    char *blobs[16];
    size_t lens[16];
    if (J.out) {
        /* DIR must take files, and DIR/index.md must be a regular file if it is there */
        char *ix = in_dir(J.out, "index.md", 8);
        out_file probe;
        if (!ix) {
            rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
            goto out;
        }
        rc = out_reserve(&probe, ix);
        out_discard(&probe);
        free(ix);
        if (rc) goto out;
        if (!plot_available()) {
            rc = die(EXIT_OTHER,
                     "--out: gnuplot draws the figures and is not installed "
                     "(apt-get install gnuplot-nox)",
                     NULL, NULL);
            goto out;
        }
        if (made && oc_scale_size() == 1) {
            out_guard_dir(NULL);
            rmdir(J.out);
            made = 0;
            make_late = 1;
        }
    }
    if (oc_scale_run(J.n, threads, paper_fn, &J, blobs, lens)) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if (oc_scale_rank() != 0) {
        /* rank 0 writes DIR; another rank leaves it alone, even one that made it */
        made = 0;
        goto out;
    }
    /* every paper must have succeeded before anything is written or printed */
    for (size_t i = 0; i < J.n && !rc; i++) {
        size_t at = 0;
        rec r;
        while (rec_next(blobs[i], lens[i], &at, &r))
            if (rec_is(&r, "@error")) {
                int code = atoi(r.data);
                const char *why = strchr(r.data, ' ');
                fprintf(stderr, "opticoll: %.*s\n", (int)(r.len - (size_t)(why - r.data) - 1),
                        why + 1);
                rc = exit_for(code);
                break;
            }
    }
    if (!rc && make_late) {
        /* made again for good (EEXIST: someone else made it meanwhile; it is used as given) */
        int failed = mkdir(J.out, 0777);
        if (failed && errno != EEXIST) rc = die(EXIT_OTHER, "--out %s: %s", J.out, strerror(errno));
        made = !failed;
        if (made) out_guard_dir(J.out);
    }
    if (!rc && J.out) rc = write_out(&J, blobs, lens);
    for (size_t i = 0; i < J.n && !rc; i++) {
        size_t at = 0;
        rec r;
        if (i) putchar('\n');
        while (rec_next(blobs[i], lens[i], &at, &r))
            if (rec_is(&r, "@text")) fwrite(r.data, 1, r.len, stdout);
    }
    oc_scale_free(blobs, J.n);
out:
    if (made) {
        out_guard_dir(NULL);
        if (rc) rmdir(J.out); /* this run's DIR, empty when nothing was written */
    }
    return rc;
}
