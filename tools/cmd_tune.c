/*
 * cmd_tune.c — `opticoll tune` (which algorithm wins where) and `opticoll run -a auto`, on the
 * library's tuner (src/studies/tune.c, opticoll.h "tuning"): this file parses, runs the points
 * (points.h: on every core and across ranks) and prints.
 *
 * tune prints, for each (N, size), the winner and the runner-up with their times and the winner's
 * parameters, then the crossovers, "between A and B" since a crossover lies between two measured
 * points; -o writes the library's decision file and --json prints it. `run -a auto --decisions
 * FILE` runs the winner of the file's nearest point; without --decisions, `run -a auto` tunes the
 * one point it is asked for: every algorithm that runs on the network, the fastest verified wins
 * (both in the library: oc_tune_auto_*, opticoll_studies.h).
 */
#include "output.h"
#include "points.h"
#include "scaleout.h"

#include <stdlib.h>
#include <string.h>

static const char *const tune_help =
    "usage: opticoll tune -c COLL [-t NET] --nodes LIST --sizes LIST [-a A,B,...] [-j N]\n"
    "                     [-o DECISIONS.json] [--json] [network options]\n\n"
    "For each (N, size), the algorithm with the least simulated time (every run generated,\n"
    "verified and mapped), with the parameters it used; then the crossovers: where the\n"
    "winner changes along size (for each N) and along N (for each size). Ties go to the\n"
    "first algorithm in the list (registry order, or -a's order).\n\n"
    "  -c, --collective NAME   the collective, as for run\n"
    "  -n, --nodes LIST        node counts: 3,5,12 or A..B (doubling, and B), A..B:*F, A..B:+S\n"
    "  -s, --sizes LIST        sizes, same forms with units: 1KiB..64MiB:*4 (--size too)\n"
    "  -a, --algorithm A,B     the candidates (default: every algorithm that runs on NET)\n"
    "  -j, --jobs N            threads (default: the online CPUs); output does not depend on it\n"
    "  -o, --output FILE       write the decision file (JSON) that `run -a auto --decisions`\n"
    "                          reads (- : on standard output, the table on standard error)\n"
    "      --json              print the decision file instead of the table\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n"
    "  -r, --root R            root of broadcast, scatter, gather (0)\n"
    "%s\n"
    "run -a auto [--decisions FILE]: with FILE, the winner of the nearest tuned point (least\n"
    "|log2(N/N')| + |log2(S/S')|, ties to the smaller N, then the smaller size), run with its\n"
    "own optimiser at the requested N and size; without FILE, the fastest of every algorithm\n"
    "at the requested point itself.\n\n"
    "examples:\n"
    "  opticoll tune -c allgather -t ring --nodes 4..1024 --sizes 4KiB..64MiB:*16 -o d.json\n"
    "  opticoll run -c allgather -a auto --decisions d.json -n 300 -s 1MiB\n";

static const char *algo_or_none(const oc_sweep *s, int k) {
    return k < 0 ? "(none runs)" : oc_sweep_algorithm(s, (size_t)k);
}

static void print_tune(FILE *f, const sweep_args *a) {
    const oc_sweep *s = a->sweep;
    fprintf(f, "tune: %s on %s, %zu node count%s x %zu size%s; candidates:", a->o.coll,
            a->base.network, a->nnodes, a->nnodes == 1 ? "" : "s", a->nsizes,
            a->nsizes == 1 ? "" : "s");
    for (size_t k = 0; k < a->nalgos; k++)
        fprintf(f, "%s%s", k ? ", " : " ", a->algos[k]);
    fputs("\nwinner = least simulated time of a verified run (ties: the first candidate)\n", f);
    int w = 9;
    for (size_t k = 0; k < a->nalgos; k++)
        if ((int)strlen(a->algos[k]) > w) w = (int)strlen(a->algos[k]);
    /* "x phys": the winner's time over the physical bound (every schedule, src/bounds) */
    const oc_table_col cols[] = {{7, 0, 0}, {10, 0, 1}, {w, 1, 2},  {12, 0, 1},
                                 {8, 0, 1}, {w, 1, 2},  {12, 0, 1}, {0, 1, 2}};
    const oc_table_layout tab = {f, "  ", cols, sizeof cols / sizeof cols[0]};
    oc_table_write_row(&tab, (const char *const[]){"nodes", "size", "winner", "time", "x phys",
                                                   "runner-up", "its time", "winner's parameters"});
    for (size_t ni = 0; ni < a->nnodes; ni++)
        for (size_t si = 0; si < a->nsizes; si++) {
            int second, best = oc_tune_winner(s, ni, si, &second);
            char sz[32], t1[32] = "-", t2[32] = "-", xb[32] = "-";
            oc_format_size(sz, sizeof sz, a->sizes[si]);
            if (best >= 0) {
                const oc_sweep_point *p = oc_sweep_point_of(s, ni, si, (size_t)best);
                snprintf(t1, sizeof t1, "%s", p->time);
                if (p->has_physical_bound && p->physical_bound_time_s > 0)
                    snprintf(xb, sizeof xb, "%.2f", p->time_s / p->physical_bound_time_s);
            }
            if (second >= 0)
                snprintf(t2, sizeof t2, "%s", oc_sweep_point_of(s, ni, si, (size_t)second)->time);
            char nodes[16];
            snprintf(nodes, sizeof nodes, "%u", (unsigned)a->nodes[ni]);
            oc_table_write_row(
                &tab,
                (const char *const[]){
                    nodes, sz, algo_or_none(s, best), t1, xb, second >= 0 ? a->algos[second] : "-",
                    t2, best >= 0 ? oc_sweep_point_of(s, ni, si, (size_t)best)->params : ""});
        }
    fputs("crossovers along size (for each N):\n", f);
    for (size_t ni = 0; ni < a->nnodes; ni++) {
        int any = 0;
        fprintf(f, "  N = %u:", (unsigned)a->nodes[ni]);
        for (size_t si = 1; si < a->nsizes; si++) {
            int w0 = oc_tune_winner(s, ni, si - 1, NULL), w1 = oc_tune_winner(s, ni, si, NULL);
            if (w0 == w1) continue;
            char s0[32], s1[32];
            oc_format_size(s0, sizeof s0, a->sizes[si - 1]);
            oc_format_size(s1, sizeof s1, a->sizes[si]);
            fprintf(f, "%s %s -> %s between %s and %s", any ? ";" : "", algo_or_none(s, w0),
                    algo_or_none(s, w1), s0, s1);
            any = 1;
        }
        if (!any)
            fprintf(f, " none (%s throughout)", algo_or_none(s, oc_tune_winner(s, ni, 0, NULL)));
        fputc('\n', f);
    }
    fputs("crossovers along N (for each size):\n", f);
    for (size_t si = 0; si < a->nsizes; si++) {
        int any = 0;
        char sz[32];
        oc_format_size(sz, sizeof sz, a->sizes[si]);
        fprintf(f, "  %s:", sz);
        for (size_t ni = 1; ni < a->nnodes; ni++) {
            int w0 = oc_tune_winner(s, ni - 1, si, NULL), w1 = oc_tune_winner(s, ni, si, NULL);
            if (w0 == w1) continue;
            fprintf(f, "%s %s -> %s between N = %u and %u", any ? ";" : "", algo_or_none(s, w0),
                    algo_or_none(s, w1), (unsigned)a->nodes[ni - 1], (unsigned)a->nodes[ni]);
            any = 1;
        }
        if (!any)
            fprintf(f, " none (%s throughout)", algo_or_none(s, oc_tune_winner(s, 0, si, NULL)));
        fputc('\n', f);
    }
}

static int write_text(FILE *f, void *ctx) {
    fputs(ctx, f);
    return ferror(f) ? OC_EIO : 0;
}

int cmd_tune(int argc, char **argv) {
    sweep_args a;
    char *text = NULL;
    int rc = sweep_parse(argc, argv, "tune", tune_help, &a);
    if (rc) {
        sweep_args_free(&a);
        return rc < 0 ? 0 : rc;
    }
    /* `-o -` puts the decision file on standard output, which it then owns: the table goes to
     * standard error (as sweep's lines do under --json) */
    const int file_on_stdout = out_is_stdout(a.o.output);
    if (file_on_stdout && a.o.json) {
        sweep_args_free(&a);
        return die(EXIT_USAGE,
                   "tune: -o - and --json both write the decision file to standard "
                   "output: give one",
                   NULL, NULL);
    }
    if ((rc = points_run(a.sweep, a.jobs))) { /* ranks > 0 end here (-1) */
        rc = rc < 0 ? 0 : rc;
        goto out;
    }
    if ((rc = points_first_failure(a.sweep))) goto out;
    if (oc_tune_decisions(a.sweep, &text)) {
        rc = die(EXIT_OTHER, "out of memory", NULL, NULL);
        goto out;
    }
    if (a.o.output && (rc = write_whole(a.o.output, write_text, text))) goto out;
    if (a.o.json)
        fputs(text, stdout);
    else
        print_tune(file_on_stdout ? stderr : stdout, &a);
out:
    free(text);
    sweep_args_free(&a);
    return rc;
}

/* ---- run -a auto ---- */

/* The choice and its note, kept until the command ends (run prints the note after its run). */
static oc_tune_auto run_auto_choice;

const char *run_auto_note(void) {
    return run_auto_choice.note ? run_auto_choice.note : "";
}

/* The winner of the nearest point of the decision file at `path` whose winner runs here (the
 * library's oc_tune_auto_decided); its name, or NULL: with *code 0 when no winner of the file runs
 * here (the note says so; the caller tunes the point), else after one line on stderr naming
 * --decisions FILE (*code set). */
static const char *from_decisions(const char *path, const oc_request *req, int *code) {
    char why[1100];
    int rc = oc_tune_auto_decided(path, "--decisions ", req, &run_auto_choice, why, sizeof why);
    if (rc) {
        *code = lib_error(rc, why);
        return NULL;
    }
    *code = 0;
    return run_auto_choice.algorithm;
}

/* Tunes the one point (oc_tune_auto_sweep, its points run here on every core and rank, then
 * oc_tune_auto_chosen). NULL with *code 0 on ranks > 0 of opticoll-cluster (they helped and end
 * quietly), or after one line with *code an exit code. */
static const char *tune_point(const oc_request *req, const char *coll, int *code) {
    oc_sweep *s = NULL;
    const char *chosen = NULL;
    char why[512] = "";
    int err = oc_tune_auto_sweep(req, &s, why, sizeof why);
    if (err) {
        *code = lib_error(err, why);
        return NULL;
    }
    if ((*code = points_run(s, oc_scale_default_threads()))) {
        *code = *code < 0 ? 0 : *code;
        goto out;
    }
    if ((*code = points_first_failure(s))) goto out;
    if ((err = oc_tune_auto_chosen(s, &run_auto_choice, why, sizeof why))) {
        *code = lib_error(err, why);
        goto out;
    }
    chosen = run_auto_choice.algorithm;
    if (!chosen)
        *code = die(EXIT_USAGE, "auto: no %s algorithm runs at this N and size on %s", coll,
                    req->network);
out:
    oc_sweep_free(s);
    return chosen;
}

int run_auto(options *o) {
    oc_tune_auto_free(&run_auto_choice);
    if (!o->algo || strcmp(o->algo, "auto")) {
        if (o->decisions) return die(EXIT_USAGE, "run: --decisions goes with -a auto", NULL, NULL);
        return 0;
    }
    if (oc_kv_count(o->params))
        return die(EXIT_USAGE,
                   "run -a auto: -p does not apply (the chosen algorithm optimises its "
                   "own parameters)",
                   NULL, NULL);
    oc_request req;
    int rc;
    if ((rc = fold_network_flags(o)) || (rc = build_request(o, &req, 1))) return rc;
    const char *chosen = o->decisions ? from_decisions(o->decisions, &req, &rc) : NULL;
    if (!rc && !chosen) {
        /* no file, or no winner of the file runs here (its note says which were skipped): the
         * point is tuned, and the file's note goes before the tuning's */
        char *skipped = run_auto_choice.note;
        run_auto_choice.note = NULL;
        chosen = tune_point(&req, o->coll, &rc);
        if (skipped && run_auto_choice.note) {
            size_t n = strlen(skipped) + strlen(run_auto_choice.note) + 3;
            char *both = malloc(n);
            if (both) snprintf(both, n, "%s; %s", skipped, run_auto_choice.note);
            free(run_auto_choice.note);
            run_auto_choice.note = both;
        }
        free(skipped);
    }
    if (chosen) o->algo = chosen; /* NULL: ranks > 0 of opticoll-cluster helped tune */
    return rc;
}
