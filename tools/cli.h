/*
 * cli.h — what the commands of the command-line tool share: the exit codes, the one-line error
 * message, the options every command parses (each command takes only its own, listed in cli.c)
 * and the request built from them. A command lives in tools/opticoll.c or in its own
 * tools/cmd_NAME.c, and main() in opticoll.c dispatches to it.
 */
#ifndef OC_CLI_H
#define OC_CLI_H

#include "core/quote.h" /* OC_Q: user text in a message */
#include "opticoll.h"

#include <stdio.h>

/* The exit codes (README, "Exit codes"): 1 a schedule failed a check, 2 bad usage or input (an
 * input over a limit included), 3 the environment failed (memory, a write, gnuplot). */
enum { EXIT_USAGE = 2, EXIT_VERIFY = 1, EXIT_OTHER = 3 };

/* Every option, as a bit, so that each command can say which ones it takes. */
enum {
    OPT_COLL = 1 << 0,
    OPT_ALGO = 1 << 1,
    OPT_NET = 1 << 2,
    OPT_NODES = 1 << 3,
    OPT_SIZE = 1 << 4,
    OPT_ROOT = 1 << 5,
    OPT_W = 1 << 6,
    OPT_F = 1 << 7,
    OPT_PRESET = 1 << 8,
    OPT_FORMAT = 1 << 9,
    OPT_OUTPUT = 1 << 10,
    OPT_PARAM = 1 << 11,
    OPT_NETPARAM = 1 << 12,
    OPT_JSON = 1 << 13,
    OPT_CSV = 1 << 14,
    OPT_NODATA = 1 << 15,
    OPT_FILE = 1 << 16,
    OPT_LINKS = 1 << 17,
    OPT_EXPLAIN = 1 << 18,
    OPT_OBJECTIVE = 1 << 19,
    OPT_NETWORK_FLAGS = OPT_NET | OPT_W | OPT_F | OPT_PRESET | OPT_NETPARAM,
    OPT_PROBLEM = OPT_COLL | OPT_NODES | OPT_SIZE | OPT_ROOT | OPT_NODATA,
};

typedef struct options {
    const char *coll, *algo, *net, *nodes, *size, *root, *format, *output, *file;
    const char *wavelengths, *fibres, *preset, *objective;
    int json, csv, no_data, help, links, explain;
    oc_kv *params, *net_params;
    unsigned given;           /* OPT_ bits seen */
    const char *spelling[20]; /* how each was written, for messages */
    const char *value[20];    /* and its value, if it takes one */
} options;

extern const char *const help_problem, *const help_algo, *const help_network, *const help_search;

/* Prints "opticoll: " and fmt (with up to two %s arguments) on stderr; returns code. a and b are
 * taken as user text: control characters escaped, cut after 80 bytes (core/quote.h). */
int die(int code, const char *fmt, const char *a, const char *b);
/* Prints "opticoll: " and a line composed by the caller (who quoted the user text in it with
 * OC_Q); control characters are escaped all the same. Returns code. */
int die_line(int code, const char *line);
/* The exit code for a library error. */
int exit_for(int err);
/* Prints the library's message (or the error's name) and returns exit_for(err). */
int lib_error(int err, const char *why);
/* Sets the library's memory budget from OPTICOLL_MEMORY_BUDGET_MIB (or its old name
 * OPTICOLL_VERIFY_BUDGET_MIB); 0, or one line on stderr and EXIT_USAGE for a bad value. */
int memory_budget_from_env(void);
/* Parses argv into o, accepting only the options command `cmd` takes (see cli.c). */
int parse_options(int argc, char **argv, options *o, const char *cmd);
/* Builds the request; `need_algo` is 0 for compare. */
int build_request(const options *o, oc_request *req, int need_algo);
/* -w, -f and --preset are shorthands for --net wavelengths=, fibres=, preset=; given both ways
 * with different values they are refused (0 or an exit code after one line). */
int fold_network_flags(options *o);
/* 0 when -r (root, or NULL) applies to collective c; otherwise an exit code after one line. */
int root_applies(oc_collective c, const char *root);

/* Commands in their own files (tools/cmd_NAME.c): int cmd_NAME(int argc, char **argv). */
int cmd_throughput(int argc, char **argv);
int cmd_rack(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* run -a auto (cmd_tune.c): when argv has "-a auto", picks the algorithm (from --decisions FILE or
 * by tuning the one point), rewrites *argv to name it and removes --decisions; the reason goes to
 * run_auto_note, which run prints with its result. 0 or an exit code. */
int run_auto_rewrite(int *argc, char ***argv);
extern char run_auto_note[1024];
/* reproduce all, --out DIR, -j N (cmd_reproduce_out.c). */
int cmd_reproduce_out(int argc, char **argv);

#endif
