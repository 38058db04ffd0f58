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
    puts("networks:");
    for (size_t i = 0; i < oc_network_count(); i++) {
        const oc_network_info *n = oc_network_at(i);
        printf("  %-10s %s\n             parameters: %s\n", n->name, n->summary, n->params);
    }
    puts("collectives:");
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        printf("  %-14s %s\n", oc_collective_name((oc_collective)c),
               oc_collective_summary((oc_collective)c));
    puts("algorithms (collective / name  networks  summary):");
    int wname = 0, width = 0; /* the name and networks columns fit their longest entries */
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        int n = (int)strlen(oc_algorithm_at(i)->name),
            w = (int)strlen(oc_algorithm_at(i)->networks);
        if (n > wname) wname = n;
        if (w > width) width = w;
    }
    /* grouped by collective, in the registry's order within each */
    for (int c = 0; c < OC_COLLECTIVE_COUNT; c++)
        for (size_t i = 0; i < oc_algorithm_count(); i++) {
            const oc_algorithm_info *a = oc_algorithm_at(i);
            if ((int)a->collective != c) continue;
            printf("  %-13s %-*s %-*s %s", oc_collective_name(a->collective), wname, a->name, width,
                   a->networks, a->summary);
            if (*a->restriction) printf(" [needs %s]", a->restriction);
            putchar('\n');
        }
    return 0;
}
