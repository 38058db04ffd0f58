/*
 * plot.c — line plots as PNG through gnuplot (DESIGN.md, Dependencies: gnuplot draws, we do not).
 *
 * The tool writes a gnuplot script with the data inline (one data block per series), runs gnuplot
 * on it as a child process (posix_spawn, never a shell) with its messages captured, and checks
 * that the PNG came out. The terminal is pngcairo (gnuplot-nox has it), text is not "enhanced" so
 * that names like all_gather print as written, and an axis of bytes gets tics labelled 1 KiB,
 * 1 MiB, ... at powers of two. reproduce --out keeps the script beside the PNG, so that a user can
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
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "plot.h"

#include "cli.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

static void byte_label(char *buf, size_t len, double v) {
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    size_t u = 0;
    while (u + 1 < sizeof unit / sizeof unit[0] && v >= 1024) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%g %s", v, unit[u]);
}

void plot_script(FILE *f, const char *png, const plot_spec *p, const plot_series *s, size_t ns) {
    const int cairo = 1; /* gnuplot-nox 5.4 has pngcairo */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            if (s[k].x[i] < lo) lo = s[k].x[i];
            if (s[k].x[i] > hi) hi = s[k].x[i];
        }
    fputs("# written by opticoll; run `gnuplot THIS_FILE` to redraw\n"
          "if (!exists(\"opticoll_output\")) opticoll_output = ",
          f);
    if (png[0] == '|') fputs("'./' . ", f); /* a file of that name, never a pipe */
    quoted(f, png);
    fprintf(f, "\nset terminal %s size 900,600 noenhanced%s\nset output opticoll_output\n",
            cairo ? "pngcairo" : "png", cairo ? " font \",11\"" : "");
    fputs("set title ", f);
    quoted(f, p->title);
    fputs("\nset xlabel ", f);
    quoted(f, p->xlabel);
    fputs("\nset ylabel ", f);
    quoted(f, p->ylabel);
    /* ten colours that stay readable on white (gnuplot's fifth, yellow, does not) */
    static const char *const colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    fputc('\n', f);
    for (int k = 0; k < 10; k++)
        fprintf(f, "set linetype %d lc rgb \"%s\"\n", k + 1, colour[k]);
    fputs("set linetype cycle 10\nset grid\nset key below reverse Left width 2\nset datafile "
          "missing \"NaN\"\n",
          f);
    if (p->logx) fputs("set logscale x 2\n", f);
    if (p->logy) fputs("set logscale y 10\nset format y \"%g\"\n", f);
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
                byte_label(lab, sizeof lab, tic[i]);
            else
                snprintf(lab, sizeof lab, "%g", tic[i]);
            fprintf(f, "%s'%s' %.17g", i ? ", " : "", lab, tic[i]);
        }
        fputs(")\n", f);
    }
    for (size_t k = 0; k < ns; k++) {
        fprintf(f, "$d%zu << EOD\n", k);
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
        /* a formula drawn beside a simulation is dashed, so that equal values stay visible */
        int dashed = s[k].title && strstr(s[k].title, "formula");
        fprintf(f, "%s$d%zu using 1:2 with linespoints lw 2 pt %zu%s title ",
                k ? ", \\\n     " : "", k, k % 12 + 1, dashed ? " dt 2" : "");
        quoted(f, s[k].title);
    }
    fputs("\n", f);
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
    pid_t pid;
    int rc = posix_spawn_file_actions_addchdir_np(&fa, dir);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, fileno(script), 0);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, fileno(err), 2);
    if (!rc) rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int plot_draw(const char *png, const char *script, size_t len) {
    if (!plot_available())
        return die(EXIT_OTHER,
                   "cannot draw %s: gnuplot is not installed (apt-get install gnuplot-nox)", png,
                   NULL);
    out_file o;
    int rc = out_reserve(&o, png);
    if (rc) return rc;
    /* the script and gnuplot's messages go through unnamed temporaries (tmpfile) */
    FILE *in = tmpfile(), *err = tmpfile();
    if (!in || !err || fwrite(script, 1, len, in) != len || fflush(in) || fseek(in, 0, SEEK_SET)) {
        rc = die(EXIT_OTHER, "cannot draw %s: cannot create a temporary file: %s", png,
                 strerror(errno));
        goto out;
    }
    int st = run_gnuplot(o.dir, o.base, in, err);
    struct stat sb;
    if (st != 0 || fstat(o.fd, &sb) || sb.st_size == 0) {
        char msg[200];
        last_line(err, msg, sizeof msg);
        if (st < 0 && !*msg) snprintf(msg, sizeof msg, "gnuplot could not be started");
        rc = *msg ? die(EXIT_OTHER, "gnuplot could not draw %s: %s", png, msg)
                  : die(EXIT_OTHER, "gnuplot could not draw %s", png, NULL);
        goto out;
    }
    rc = out_commit(&o);
out:
    out_discard(&o);
    if (in) fclose(in);
    if (err) fclose(err);
    return rc;
}

int plot_png(const char *png, const plot_spec *spec, const plot_series *s, size_t ns) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return die(EXIT_OTHER, "out of memory", NULL, NULL);
    plot_script(m, png, spec, s, ns);
    int rc = fclose(m) ? die(EXIT_OTHER, "out of memory", NULL, NULL) : plot_draw(png, buf, len);
    free(buf);
    return rc;
}
