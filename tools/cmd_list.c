/*
 * cmd_list.c — `opticoll list`: the networks, collectives and algorithms the library registers,
 * one line each (oc_network_at, oc_algorithm_at).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_list(int argc, char **argv) {
    static const arg_option help[] = {{"-h", "--help", 0, 0}};
    const char *asked = NULL;
    int rc = read_options("list", argc, argv, help, 1, &asked, NULL);
    if (rc) return rc;
    if (asked) {
        puts("usage: opticoll list\n\nLists the networks, the collectives and the algorithms, one "
             "line each.\n\n"
             "examples:\n"
             "  opticoll list\n"
             "  opticoll list | grep optree");
        return 0;
    }
    /* the three lists as rows of the tools' one table writer (oc_table_write_row) */
    puts("networks:");
    const oc_table_col ncols[] = {{10, 1, 0}, {0, 1, 1}};
    const oc_table_layout nets = {stdout, "  ", ncols, 2};
    for (size_t i = 0; i < oc_network_count(); i++) {
        const oc_network_info *n = oc_network_at(i);
        oc_table_write_row(&nets, (const char *const[]){n->name, n->summary});
        printf("             parameters: %s\n", n->params);
    }
    puts("collectives:");
    const oc_table_col ccols[] = {{14, 1, 0}, {0, 1, 1}};
    const oc_table_layout colls = {stdout, "  ", ccols, 2};
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        oc_table_write_row(&colls, (const char *const[]){oc_collective_name((oc_collective)c),
                                                         oc_collective_summary((oc_collective)c)});
    puts("algorithms (collective / name  networks  summary):");
    int wname = 0, width = 0; /* the name and networks columns fit their longest entries */
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        int n = (int)strlen(oc_algorithm_at(i)->name),
            w = (int)strlen(oc_algorithm_at(i)->networks);
        if (n > wname) wname = n;
        if (w > width) width = w;
    }
    const oc_table_col acols[] = {{13, 1, 0}, {wname, 1, 1}, {width, 1, 1}, {0, 1, 1}};
    const oc_table_layout algos = {stdout, "  ", acols, 4};
    /* grouped by collective, in the registry's order within each */
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        for (size_t i = 0; i < oc_algorithm_count(); i++) {
            const oc_algorithm_info *a = oc_algorithm_at(i);
            if ((int)a->collective != c) continue;
            char summary[1024];
            snprintf(summary, sizeof summary, "%s%s%s%s", a->summary,
                     *a->restriction ? " [needs " : "", a->restriction, *a->restriction ? "]" : "");
            oc_table_write_row(&algos, (const char *const[]){oc_collective_name(a->collective),
                                                             a->name, a->networks, summary});
        }
    return 0;
}
