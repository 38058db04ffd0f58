/*
 * plot.c — line plots through gnuplot (gnuplot draws, we do not).
 *
 * The tool writes a gnuplot script with the data inline (one data block per series), runs gnuplot
 * on it as a child process (posix_spawn, never a shell) with its messages captured, and checks
 * that the image came out. The terminal follows the file's extension (pngcairo, svg, pdfcairo,
 * jpeg, epscairo, gif: gnuplot-nox has them all), so out.jpg holds JPEG bytes; another extension
 * is refused before anything runs. Text is not "enhanced" so that names like all_gather print as
 * written, an axis of bytes gets tics labelled 1 KiB, 1 MiB, ... at powers of two, an axis of
 * seconds 10 us, 1 ms, ... (gnuplot's %c prefixes), and one axis never mixes 100000 with 1e+06.
 * Several panels share one page through gnuplot's multiplot (sweep over several N). reproduce --out keeps the script beside the PNG, so that a user can
 * restyle a figure and rerun `gnuplot FILE.gp` there.
 *
 * Gnuplot is a language, and a file name is data: gnuplot substitutes `command` inside
 * double-quoted strings and pipes its output into a command when `set output` starts with '|'.
 * So every string we write is single-quoted (no substitution of any kind happens there; a quote
 * is doubled), and gnuplot never sees the user's file name at all when it draws for us: the
 * script takes its output name from the variable opticoll_output (defaulting to the figure's own
 * name, for a rerun by hand), and we set it on the command line to a temporary that output.c
 * made in the target's directory, named .opticoll-XXXXXX, with gnuplot started in that
 * directory. The finished PNG is renamed over the target like every other output file, so a
 * failed plot leaves whatever was there untouched.
 *
 * Gnuplot's exit status is not enough: its cairo terminals (pngcairo, pdfcairo, epscairo) ignore
 * a failed write and exit 0, so a full disk left a truncated PNG that we called written. The
 * image is therefore checked to be whole for its format before it replaces anything
 * (image_whole): a PNG's chunks are walked from the signature to an IEND chunk that ends the
 * file exactly; an SVG ends with </svg>; a PDF or EPS has %%EOF in its last kilobyte; a JPEG
 * ends with the EOI marker FF D9; a GIF with its trailer 0x3B. A file cut short fails every one
 * of these.
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "plot.h"

#include "cli.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>



int plot_available(void) {
    const char *path = getenv("PATH");
    if (!path) return 0;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/gnuplot", (int)n, path);
        if (n && access(dir, X_OK) == 0) return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* A gnuplot single-quoted string: nothing is substituted there, a quote is doubled, and a line
 * break (which would end the command) becomes a space. */
static void quoted(FILE *f, const char *s) {
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'') fputc('\'', f);
        fputc((unsigned char)*s < ' ' || *s == 0x7f ? ' ' : *s, f);
    }
    fputc('\'', f);
}

/* The distinct x values of the series, ascending, if there are at most `cap` of them (else 0). */
static size_t distinct_x(const plot_series *s, size_t ns, double *out, size_t cap) {
    size_t n = 0;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double v = s[k].x[i];
            size_t at = 0;
            while (at < n && out[at] < v)
                at++;
            if (at < n && out[at] == v) continue;
            if (n == cap) return 0;
            memmove(out + at + 1, out + at, (n - at) * sizeof *out);
            out[at] = v;
            n++;
        }
    return n;
}

const char *plot_terminal(const char *path) {
    static const struct {
        const char *ext, *terminal;
    } known[] = {{".png", "pngcairo"}, {".svg", "svg"},      {".pdf", "pdfcairo"},
                 {".jpg", "jpeg"},     {".jpeg", "jpeg"},    {".eps", "epscairo"},
                 {".gif", "gif"}};
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash)) return NULL;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcasecmp(dot, known[i].ext)) return known[i].terminal;
    return NULL;
}

/* The terminal line: the size of the page (900x600 a panel; inches for the vector formats). */
static void terminal_line(FILE *f, const char *path, int rows, int cols) {
    const char *term = plot_terminal(path);
    if (!term) term = "pngcairo";
    int cairo = strstr(term, "cairo") != NULL, svg = !strcmp(term, "svg");
    if (!strcmp(term, "pdfcairo") || !strcmp(term, "epscairo"))
        fprintf(f, "set terminal %s size %.1fin,%.1fin noenhanced font \",9\"\n", term, 9.0 * cols,
                6.0 * rows);
    else
        fprintf(f, "set terminal %s size %d,%d noenhanced%s\n", term, 900 * cols, 600 * rows,
                cairo || svg ? " font \",11\"" : "");
}

/* 1 when series b is drawn exactly on series a (same x and y at every point). */
static int same_series(const plot_series *a, const plot_series *b) {
    if (a->n != b->n || !a->n) return 0;
    for (size_t i = 0; i < a->n; i++) {
        if (a->x[i] != b->x[i]) return 0;
        if (isnan(a->y[i]) != isnan(b->y[i])) return 0;
        if (!isnan(a->y[i]) && fabs(a->y[i] - b->y[i]) > 1e-9 * fmax(fabs(a->y[i]), 1e-300))
            return 0;
    }
    return 1;
}

/* One panel: its axes, tics, data blocks (named $d<panel>_<series>) and plot command. */
static void panel_script(FILE *f, size_t at, const plot_spec *p, const plot_series *s, size_t ns) {
    double lo = INFINITY, hi = -INFINITY, ylo = INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            if (s[k].x[i] < lo) lo = s[k].x[i];
            if (s[k].x[i] > hi) hi = s[k].x[i];
            if (!isnan(s[k].y[i]) && s[k].y[i] < ylo) ylo = s[k].y[i];
        }
    fputs("set title ", f);
    quoted(f, p->title);
    fputs("\nset xlabel ", f);
    quoted(f, p->xlabel);
    fputs("\nset ylabel ", f);
    quoted(f, p->ylabel);
    fputs("\nunset logscale\nset xtics autofreq\nset xrange [*:*]\nset format y\n", f);
    if (p->logx) fputs("set logscale x 2\n", f);
    if (p->logy) fputs("set logscale y 10\n", f);
    /* one style of tic label on an axis: seconds with SI prefixes (10 us, 1 ms), whole numbers
     * written out, or SI prefixes (10k, 1M) — never %g's mix of 100000 and 1e+06 */
    if (p->y_is_seconds)
        fputs("set format y \"%.0s %cs\"\n", f);
    else if (p->logy)
        fputs(ylo >= 1 ? "set format y \"%.0f\"\n" : "set format y \"%.0s%c\"\n", f);
    if (!p->logx && lo < hi && hi - lo <= 30 && lo == floor(lo) && hi == floor(hi))
        fputs("set xtics 1\n", f); /* small whole numbers (depths, steps): one tic each */
    if (lo < hi && p->logx) fprintf(f, "set xrange [%.17g:%.17g]\n", lo / 1.15, hi * 1.15);
    if (lo <= hi && isfinite(lo) && lo > 0 && p->logx) {
        /* a tic at every x of the data when there are at most 12 of them (N = 1024, 2048, 3072,
         * 4096 all labelled), else at powers of two, at most about ten; bytes with units */
        double tic[12];
        size_t nt = distinct_x(s, ns, tic, 12);
        int e0 = (int)floor(log2(lo) + 1e-9), e1 = (int)ceil(log2(hi) - 1e-9);
        int step = (e1 - e0) / 10 + 1;
        if (!nt)
            for (int e = e0; e <= e1 && nt < 12; e += step)
                tic[nt++] = ldexp(1.0, e);
        fputs("set xtics (", f);
        for (size_t i = 0; i < nt; i++) {
            char lab[32];
            if (p->x_is_bytes)
                oc_format_bytes(lab, sizeof lab, (uint64_t)tic[i]); /* the one byte formatter */
            else if (tic[i] == floor(tic[i]) && tic[i] < 1e15)
                snprintf(lab, sizeof lab, "%.0f", tic[i]);
            else
                snprintf(lab, sizeof lab, "%g", tic[i]);
            fprintf(f, "%s'%s' %.17g", i ? ", " : "", lab, tic[i]);
        }
        fputs(")\n", f);
    }
    for (size_t k = 0; k < ns; k++) {
        fprintf(f, "$d%zu_%zu << EOD\n", at, k);
        for (size_t i = 0; i < s[k].n; i++) {
            if (isnan(s[k].y[i]))
                fprintf(f, "%.17g NaN\n", s[k].x[i]);
            else
                fprintf(f, "%.17g %.17g\n", s[k].x[i], s[k].y[i]);
        }
        fputs("EOD\n", f);
    }
    fputs("plot ", f);
    for (size_t k = 0; k < ns; k++) {
        /* each series its own point type and dash pattern, so that lines drawn on top of each
         * other stay visible; a formula beside a simulation is dashed */
        int dashed = s[k].title && strstr(s[k].title, "formula");
        fprintf(f, "%s$d%zu_%zu using 1:2 with linespoints lw 2 pt %zu dt %zu title ",
                k ? ", \\\n     " : "", at, k, k % 12 + 1, dashed ? 2 : k % 5 + 1);
        size_t same = k;
        for (size_t j = 0; j < k && same == k; j++)
            if (same_series(&s[j], &s[k])) same = j;
        if (same == k) {
            quoted(f, s[k].title);
        } else { /* the legend says what the eye cannot see */
            char t[300];
            snprintf(t, sizeof t, "%s (= %s)", s[k].title ? s[k].title : "",
                     s[same].title ? s[same].title : "");
            quoted(f, t);
        }
    }
    fputs("\n", f);
}

void plot_script_panels(FILE *f, const char *path, const plot_panel *p, size_t np) {
    int cols = np <= 1 ? 1 : np <= 4 ? 2 : 3, rows = (int)((np + (size_t)cols - 1) / (size_t)cols);
    if (rows < 1) rows = 1;
    fputs("# written by opticoll; run `gnuplot THIS_FILE` to redraw\n"
          "if (!exists(\"opticoll_output\")) opticoll_output = ",
          f);
    if (path[0] == '|') fputs("'./' . ", f); /* a file of that name, never a pipe */
    quoted(f, path);
    fputc('\n', f);
    terminal_line(f, path, rows, cols);
    fputs("set output opticoll_output\n", f);
    /* ten colours that stay readable on white (gnuplot's fifth, yellow, does not) */
    static const char *const colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    for (int k = 0; k < 10; k++)
        fprintf(f, "set linetype %d lc rgb \"%s\"\n", k + 1, colour[k]);
    fputs("set linetype cycle 10\nset grid\nset key below reverse Left width 2\nset datafile "
          "missing \"NaN\"\n",
          f);
    if (np > 1) fprintf(f, "set multiplot layout %d,%d\n", rows, cols);
    for (size_t i = 0; i < np; i++)
        panel_script(f, i, &p[i].spec, p[i].series, p[i].ns);
    if (np > 1) fputs("unset multiplot\n", f);
}

void plot_script(FILE *f, const char *png, const plot_spec *spec, const plot_series *s, size_t ns) {
    plot_panel one = {*spec, s, ns};
    plot_script_panels(f, png, &one, 1);
}

/* The last line gnuplot printed that is not empty (it names the error), or "". */
static void last_line(FILE *e, char *msg, size_t len) {
    char line[200];
    *msg = 0;
    rewind(e);
    while (fgets(line, sizeof line, e))
        if (strlen(line) > 1) snprintf(msg, len, "%s", line);
    msg[strcspn(msg, "\n")] = 0;
}

/* Runs gnuplot in `dir` on the script read from `script`, drawing into `out` (a name without a
 * path), its messages into `err`; its exit status, or -1 when it could not be run. */
static int run_gnuplot(const char *dir, const char *out, FILE *script, FILE *err) {
    char var[64];
    snprintf(var, sizeof var, "opticoll_output='%s'", out); /* out: .opticoll-XXXXXX */
    char *argv[] = {"gnuplot", "-e", var, "-", NULL};
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) return -1;
    int rc = posix_spawn_file_actions_addchdir_np(&fa, dir);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, fileno(script), 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, fileno(err), 2);
    rc = rc ? -1 : out_spawn_wait("gnuplot", argv, &fa);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

/* Reads `len` bytes at `at` of fd; 1 when all were there. */
static int read_at(int fd, off_t at, void *buf, size_t len) {
    return at >= 0 && pread(fd, buf, len, at) == (ssize_t)len;
}

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* 1 when the file on fd (of `size` bytes) is a whole image in the format of terminal `term`
 * (plot.c's essay says what is checked). */
static int image_whole(int fd, off_t size, const char *term) {
    unsigned char b[1024];
    if (!strcmp(term, "pngcairo")) {
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        if (!read_at(fd, 0, b, 8) || memcmp(b, sig, 8)) return 0;
        /* length (4), type (4), data, CRC (4), chunk after chunk, up to IEND at the very end */
        for (off_t at = 8; read_at(fd, at, b, 8);) {
            off_t next = at + 12 + (off_t)be32(b);
            if (!memcmp(b + 4, "IEND", 4)) return next == size;
            if (next > size) return 0;
            at = next;
        }
        return 0;
    }
    size_t tail = size < (off_t)sizeof b ? (size_t)size : sizeof b;
    if (!tail || !read_at(fd, size - (off_t)tail, b, tail)) return 0;
    if (!strcmp(term, "jpeg")) return tail >= 2 && b[tail - 2] == 0xff && b[tail - 1] == 0xd9;
    if (!strcmp(term, "gif")) return b[tail - 1] == 0x3b;
    if (!strcmp(term, "svg")) {
        while (tail && strchr(" \t\r\n", b[tail - 1]))
            tail--;
        return tail >= 6 && !memcmp(b + tail - 6, "</svg>", 6);
    }
    /* pdfcairo, epscairo: the end-of-file comment near the end */
    for (size_t i = 0; i + 5 <= tail; i++)
        if (!memcmp(b + i, "%%EOF", 5)) return 1;
    return 0;
}

/* The system's reason a write to the temporary fd (of `size` bytes) fails now, or 0: asked when
 * gnuplot's image did not come out whole, because gnuplot's own word then is no help (its cairo
 * terminals exit 0 over a cut PNG; under a full disk it may report a data block it could not
 * read). PROBE_BYTES of zeros are appended past the image: a disk with no
 * block left refuses them (ENOSPC, EDQUOT), as does a file-size limit (EFBIG: SIGXFSZ, which
 * would end the tool, is ignored for the probe). The probe's bytes stay: the caller discards the
 * temporary whatever the answer. */
enum { PROBE_BYTES = 64 << 10 };
static int write_refusal(int fd, off_t size) {
    static const char zeros[4096];
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ignore.sa_mask);
    const int restore = sigaction(SIGXFSZ, &ignore, &old) == 0;
    int err = 0;
    for (off_t at = size; at < size + PROBE_BYTES && !err;) {
        ssize_t put = pwrite(fd, zeros, sizeof zeros, at);
        if (put < 0 && errno != EINTR) err = errno ? errno : EIO;
        if (put == 0) break; /* nothing taken and no error: no answer to give */
        if (put > 0) at += put;
    }
    if (restore) sigaction(SIGXFSZ, &old, NULL);
    return err == ENOSPC || err == EDQUOT || err == EFBIG || err == EIO ? err : 0;
}

/* Draws into the reserved temporary o; 0 or an exit code after one line (o is left to the
 * caller). */
static int draw_into(out_file *o, const char *png, const char *script, size_t len) {
    int rc = 0;
    /* the script and gnuplot's messages go through unnamed temporaries (tmpfile) */
    FILE *in = tmpfile(), *err = tmpfile();
    if (!in || !err || fwrite(script, 1, len, in) != len || fflush(in) || fseek(in, 0, SEEK_SET)) {
        rc = die(EXIT_OTHER, "cannot draw %s: cannot create a temporary file: %s", png,
                 strerror(errno));
        goto out;
    }
    int st = run_gnuplot(o->dir, o->base, in, err);
    struct stat sb;
    const char *term = plot_terminal(png);
    const int got = !fstat(o->fd, &sb);
    const int whole = got && st == 0 && sb.st_size > 0 &&
                      image_whole(o->fd, sb.st_size, term ? term : "pngcairo");
    /* a disk that refuses a write is the cause, said as every other output says it (exit 3) */
    const int refused = whole ? 0 : write_refusal(o->fd, got ? sb.st_size : 0);
    if (refused) {
        rc = die(EXIT_OTHER, "cannot write %s: %s (gnuplot's image did not come out whole)", png,
                 strerror(refused));
        goto out;
    }
    if (st != 0 || !got || sb.st_size == 0) {
        char msg[200];
        last_line(err, msg, sizeof msg);
        if (st < 0 && !*msg) snprintf(msg, sizeof msg, "gnuplot could not be started");
        rc = *msg ? die(EXIT_OTHER, "gnuplot could not draw %s: %s", png, msg)
                  : die(EXIT_OTHER, "gnuplot could not draw %s", png, NULL);
        goto out;
    }
    if (!whole) {
        rc = die(EXIT_OTHER,
                 "gnuplot could not draw %s: the image it wrote is cut short (is the disk full?)",
                 png, NULL);
        goto out;
    }
out:
    if (in) fclose(in);
    if (err) fclose(err);
    return rc;
}

int plot_draw(const char *png, const char *script, size_t len, out_group *g) {
    if (!plot_available())
        return die(EXIT_OTHER,
                   "cannot draw %s: gnuplot is not installed (apt-get install gnuplot-nox)", png,
                   NULL);
    if (g) {
        out_file *o = NULL;
        int rc = out_group_reserve(g, png, &o);
        if (!rc) rc = draw_into(o, png, script, len);
        return rc ? rc : out_finish(o);
    }
    out_file o;
    int rc = out_reserve(&o, png);
    if (rc) return rc;
    rc = draw_into(&o, png, script, len);
    if (!rc) rc = out_commit(&o);
    out_discard(&o);
    return rc;
}

int plot_figure(const char *path, const plot_panel *p, size_t np, out_group *g) {
    if (!plot_terminal(path))
        return die(EXIT_USAGE,
                   "--plot %s: unknown image format (name it .png, .svg, .pdf, .jpg, .eps or .gif)",
                   path, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    plot_script_panels(m, path, p, np);
    int rc =
        fclose(m) ? die(EXIT_OTHER, "out of memory", NULL, NULL) : plot_draw(path, buf, len, g);
    free(buf);
    return rc;
}
