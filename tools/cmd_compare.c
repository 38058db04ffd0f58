/*
 * cmd_compare.c — `opticoll compare`: every algorithm of a collective at one point (oc_compare),
 * as a table, JSON or CSV, with the physical bound under the table.
 */
#include "cli.h"
#include "scaleout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The physical bound under compare's table: what every schedule on the network needs, the
 * arguments that gave it, in the model's time unit (the star's tau, also where nothing ran), and
 * where the best run is far from it, which side is likely loose: the library's answer
 * (oc_physical_bound_loose, the JSON's "likely_loose"), printed with its reason. */
static void print_physical_bound(const oc_request *req, const oc_report *any, double best_ratio) {
    oc_physical_bound_info b;
    char why[512] = "", tb[32];
    if (any ? !oc_report_physical_bound(any, &b) : oc_physical_bound(req, &b, why, sizeof why))
        return;
    oc_format_time(tb, sizeof tb, b.time_s, b.time_unit, b.time_unit_value);
    printf("  physical bound (every schedule on %s): %llu steps (%s); %s (%s)\n", req->network,
           (unsigned long long)b.steps, b.steps_argument, tb, b.time_argument);
    const char *reason;
    if (oc_physical_bound_loose(&b, best_ratio, &reason) != OC_LOOSE_NONE)
        printf("  gap: the best run is %.2f x the time bound; likely loose: %s\n", best_ratio,
               reason);
}

int cmd_compare(options *o) {
    if (o->help) {
        printf(
            "usage: opticoll compare -c COLL [-t NET] -n N -s SIZE [-a A,B,..] [-p KEY=VALUE]...\n"
            "                        [options] [--json|--csv]\n\n"
            "Runs every algorithm of the collective that supports the network (or those -a\n"
            "lists), each verified, and prints one line each (or a JSON array, or CSV).\n"
            "Algorithms whose restrictions exclude these parameters are listed with the reason.\n\n"
            "  -a, --algorithm A,B     only these algorithms, in this order\n"
            "  -p, --param KEY=VALUE   pins KEY for every listed algorithm that takes it\n"
            "                          (repeatable); -p ALGO.KEY=VALUE pins it for ALGO alone\n%s%s"
            "      --json              a JSON array: one run report per algorithm, then\n"
            "                          {\"algorithm\": NAME, \"not_run\": REASON} for the others\n"
            "      --csv               one CSV line per algorithm (header first); algorithms\n"
            "                          not run have empty figures and the reason in `note`\n\n"
            "examples:\n"
            "  opticoll compare -c allgather -t ring -n 1024 -w 64 -s 4MiB\n"
            "  opticoll compare -c allreduce -t fattree -n 128 -s 100MB --csv\n"
            "  opticoll compare -c allreduce -n 1000 -s 1MiB -a ring,wrht -p wrht.m=129\n",
            help_problem, help_network);
        return 0;
    }
    oc_request req;
    int rc = fold_network_flags(o);
    if (rc || (rc = build_request(o, &req, 0))) return rc;
    /* the library picks the algorithms, checks the -a names and the -p pins, runs each and
     * keeps the reasons of those not run; the command splits -a and prints */
    const char **names = NULL;
    char *copy = NULL;
    size_t nnames = 0;
    if (o->algo && (rc = algo_names(o->algo, &names, &copy, &nnames))) return rc;
    oc_compare_result res;
    char why[1024] = "";
    int err = oc_compare(&req, names, nnames, o->params, &res, why, sizeof why);
    free(names);
    free(copy);
    if (err) return lib_error(err, why);
    size_t n = res.nrun, ns = res.count - res.nrun;
    int status = 0;
    int wname = 10; /* the name column fits the longest name (hypercube-opt) */
    for (size_t i = 0; i < res.count; i++)
        if ((int)strlen(res.runs[i].algorithm->name) > wname)
            wname = (int)strlen(res.runs[i].algorithm->name);
    if (o->json) {
        /* A failed stdout is close_stdout's to report (exit 3). */
        if (oc_compare_write_json(&res, stdout) == OC_ENOMEM)
            status = lib_error(OC_ENOMEM, "out of memory writing the JSON");
    } else if (o->csv) {
        for (size_t k = 0; k < n; k++)
            oc_report_write_csv(res.runs[k].report, stdout, k == 0);
        if (n == 0) oc_report_write_csv(NULL, stdout, 1);
        for (size_t k = n; k < n + ns; k++) {
            printf("%s,%s,%s,%u,%llu,,,,,,,,,,,,,\"not run: ", o->coll, res.runs[k].algorithm->name,
                   req.network, req.nodes, (unsigned long long)req.bytes);
            for (const char *c = res.runs[k].reason; *c; c++) {
                if (*c == '"') putchar('"'); /* CSV doubles a quote inside quotes */
                putchar(*c);
            }
            puts("\"");
        }
    } else {
        printf("%s on %s, %u node%s, %s per %s\n", o->coll, req.network, req.nodes,
               req.nodes == 1 ? "" : "s", o->size,
               oc_collective_reduces(req.collective) || req.collective == OC_BROADCAST ? "vector"
                                                                                       : "block");
        /* "sched lb": the model's bound on that schedule; "x phys": the run's time over the
         * physical bound, which holds for every schedule on the network (printed below) */
        const oc_table_col cols[] = {{wname, 1, 0}, {10, 0, 1}, {9, 0, 1}, {12, 0, 1},
                                     {14, 0, 1},    {8, 0, 1},  {9, 0, 1}, {0, 1, 2}};
        const oc_table_layout tab = {stdout, "  ", cols, sizeof cols / sizeof cols[0]};
        oc_table_write_row(&tab,
                           (const char *const[]){"algorithm", "steps", "sched lb", "seed formula",
                                                 "time", "x phys", "verified", "parameters"});
        double best_ratio = 0;
        for (size_t k = 0; k < n; k++) {
            oc_report *r = res.runs[k].report;
            double f = 0, t = oc_report_time(r);
            uint64_t lb = 0;
            char fb[32] = "-", lbb[32] = "-", tb[32];
            if (oc_report_steps_formula(r, &f)) snprintf(fb, sizeof fb, "%.0f", f);
            if (oc_report_steps_lower_bound(r, &lb))
                snprintf(lbb, sizeof lbb, "%llu", (unsigned long long)lb);
            oc_report_format_time(r, tb, sizeof tb, t);
            char pb[256] = "";
            const oc_kv *used = oc_report_params(r);
            for (size_t i = 0, at = 0; i < oc_kv_count(used) && at < sizeof pb; i++)
                at += (size_t)snprintf(pb + at, sizeof pb - at, i ? " %s=%s" : "%s=%s",
                                       oc_kv_key(used, i), oc_kv_value(used, i));
            oc_physical_bound_info phys;
            char xb[32] = "-";
            if (oc_report_physical_bound(r, &phys) && phys.time_s > 0) {
                snprintf(xb, sizeof xb, "%.2f", t / phys.time_s);
                if (best_ratio == 0 || t / phys.time_s < best_ratio) best_ratio = t / phys.time_s;
            }
            char steps[32];
            snprintf(steps, sizeof steps, "%llu", (unsigned long long)oc_report_steps(r));
            oc_table_write_row(
                &tab, (const char *const[]){res.runs[k].algorithm->name, steps, lbb, fb, tb, xb,
                                            oc_report_verified(r) ? "yes" : "NO", *pb ? pb : NULL});
        }
        print_physical_bound(&req, n ? res.runs[0].report : NULL, best_ratio);
        /* restrictions at this point, one line each; then the algorithms made for other
         * networks, in one line: they do not apply here, whatever N and SIZE */
        char elsewhere[2048] = "";
        size_t nelse = 0, at = 0;
        for (size_t k = n; k < n + ns; k++) {
            const oc_algorithm_info *a = res.runs[k].algorithm;
            if (!oc_algorithm_runs_on(a, req.network)) {
                if (at < sizeof elsewhere)
                    at += (size_t)snprintf(elsewhere + at, sizeof elsewhere - at, "%s%s",
                                           nelse ? ", " : "", a->name);
                nelse++;
                continue;
            }
            char line[600];
            snprintf(line, sizeof line, "not run: %s", res.runs[k].reason);
            oc_table_write_row_tail(&tab, (const char *const[]){a->name}, 1, line);
        }
        if (nelse)
            printf("  for other networks (%zu; see opticoll list): %s\n", nelse, elsewhere);
    }
    oc_compare_result_free(&res);
    return status;
}
