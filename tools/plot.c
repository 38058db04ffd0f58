/*
 * plot.c — line plots as PNG through gnuplot (DESIGN.md, Dependencies: gnuplot draws, we do not).
 *
 * The tool writes a gnuplot script with the data inline (one data block per series), runs
 * `gnuplot SCRIPT` as a child process with its messages captured, and checks that the PNG came
 * out. The terminal is pngcairo (gnuplot-nox has it; plain png is the fallback when it does not),
 * text is not "enhanced" so that names like all_gather print as written, and an axis of bytes gets
 * tics labelled 1 KiB, 1 MiB, ... at powers of two. The script is kept where the caller asks
 * (reproduce --out keeps it beside the PNG, so a user can restyle a figure and rerun gnuplot).
 */
#include "plot.h"

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

/* A gnuplot double-quoted string. */
static void quoted(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
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
    fprintf(f, "# written by opticoll; run `gnuplot THIS_FILE` to redraw\n");
    fprintf(f, "set terminal %s size 900,600 noenhanced%s\nset output ", cairo ? "pngcairo" : "png",
            cairo ? " font \",11\"" : "");
    quoted(f, png);
    fputs("\nset title ", f);
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
            fprintf(f, "%s\"%s\" %.17g", i ? ", " : "", lab, tic[i]);
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

/* Runs gnuplot on `script` (in directory `cwd` when not NULL), its messages into `errpath`; the
 * exit status or -1. */
static int run_gnuplot(const char *script, const char *cwd, const char *errpath) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) return -1;
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char cd[4200];
    if (cwd) { /* cd "DIR", with gnuplot's double-quote escapes */
        size_t at = (size_t)snprintf(cd, sizeof cd, "cd \"");
        for (const char *c = cwd; *c && at + 3 < sizeof cd; c++) {
            if (*c == '"' || *c == '\\') cd[at++] = '\\';
            cd[at++] = *c;
        }
        snprintf(cd + at, sizeof cd - at, "\"");
    }
    char *argv[] = {"gnuplot", cwd ? "-e" : (char *)script, cwd ? cd : NULL, (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int plot_png(const char *png, const plot_spec *spec, const plot_series *s, size_t ns, char *why,
             size_t whylen) {
    if (!plot_available()) {
        snprintf(why, whylen,
                 "cannot draw %s: gnuplot is not installed (apt-get install gnuplot-nox)", png);
        return -1;
    }
    char tmp_script[] = "/tmp/opticoll-plot-XXXXXX", errpath[] = "/tmp/opticoll-gnuplot-XXXXXX";
    const char *script = spec->script;
    int fd = -1, efd = mkstemp(errpath), rc = -1;
    if (efd < 0) {
        snprintf(why, whylen, "cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    close(efd);
    FILE *f = NULL;
    if (!script) {
        fd = mkstemp(tmp_script);
        script = tmp_script;
        f = fd >= 0 ? fdopen(fd, "w") : NULL;
    } else {
        f = fopen(script, "w");
    }
    if (!f) {
        snprintf(why, whylen, "cannot write %s: %s", script, strerror(errno));
        if (fd >= 0) close(fd);
        goto out;
    }
    plot_script(f, png, spec, s, ns);
    if (fclose(f)) {
        snprintf(why, whylen, "cannot write %s", script);
        goto out;
    }
    int st = run_gnuplot(script, NULL, errpath);
    struct stat sb;
    if (st != 0 || stat(png, &sb) != 0 || sb.st_size == 0) {
        char msg[200] = "", line[200];
        FILE *e = fopen(errpath, "r");
        while (e && fgets(line, sizeof line, e)) /* the last line names the error */
            if (strlen(line) > 1) snprintf(msg, sizeof msg, "%s", line);
        if (e) fclose(e);
        msg[strcspn(msg, "\n")] = 0;
        snprintf(why, whylen, "gnuplot could not draw %s%s%s", png, *msg ? ": " : "", msg);
        remove(png);
        goto out;
    }
    rc = 0;
out:
    if (script == tmp_script) remove(tmp_script);
    remove(errpath);
    return rc;
}

int plot_run(const char *script, const char *cwd, const char *png, char *why, size_t whylen) {
    if (!plot_available()) {
        snprintf(why, whylen,
                 "cannot draw %s: gnuplot is not installed (apt-get install gnuplot-nox)", png);
        return -1;
    }
    char errpath[] = "/tmp/opticoll-gnuplot-XXXXXX";
    int efd = mkstemp(errpath);
    if (efd < 0) {
        snprintf(why, whylen, "cannot create a temporary file: %s", strerror(errno));
        return -1;
    }
    close(efd);
    int st = run_gnuplot(script, cwd, errpath), rc = 0;
    struct stat sb;
    if (st != 0 || stat(png, &sb) != 0 || sb.st_size == 0) {
        char msg[200] = "", line[200];
        FILE *e = fopen(errpath, "r");
        while (e && fgets(line, sizeof line, e))
            if (strlen(line) > 1) snprintf(msg, sizeof msg, "%s", line);
        if (e) fclose(e);
        msg[strcspn(msg, "\n")] = 0;
        snprintf(why, whylen, "gnuplot could not draw %s%s%s", png, *msg ? ": " : "", msg);
        remove(png);
        rc = -1;
    }
    remove(errpath);
    return rc;
}
