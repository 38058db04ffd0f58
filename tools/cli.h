/*
 * cli.h — what the commands of the command-line tool share: the exit codes, the one-line error
 * message, the options every command parses (each command takes only its own, listed in cli.c;
 * read with getopt_long through args.h) and the request built from them. A command lives in
 * its own tools/cmd_NAME.c, and main() in opticoll.c dispatches to it
 * with the words from the command's name on: argv[0] is "run", as getopt expects.
 */
#ifndef OC_CLI_H
#define OC_CLI_H

#include "args.h" /* OC_Q: user text in a message */
#include "opticoll.h"

#include <stdint.h>
#include <stdio.h>

/* The exit codes (README, "Exit codes"): 1 a schedule failed a check, 2 bad usage or input (an
 * input over a limit included), 3 the environment failed (memory, a write, gnuplot). */
enum { EXIT_USAGE = 2, EXIT_VERIFY = 1, EXIT_OTHER = 3 };

/* Every option of the commands parse_options reads, by id (also its id for args.h), in the order a
 * refusal names them (the lowest id first). A set of them is an opt_set, of as many 64-bit words as
 * the list needs: a new option is one more name here, never a search for a free bit. The shared
 * ones (opt_shared: the ids below OPT_MODEL but OPT_FILE) are known to every command that
 * parse_options reads: given to one that does not take them, they are refused by name ("does not
 * apply"); the others exist only for the commands that take them, and are unknown options
 * elsewhere. OPT_FILE is the operand. -q, --quiet has no id here: every command reads it (cli.c's
 * QUIET_ID). */
typedef enum {
    OPT_COLL,
    OPT_ALGO,
    OPT_NET,
    OPT_NODES,
    OPT_SIZE,
    OPT_ROOT,
    OPT_W,
    OPT_F,
    OPT_PRESET,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_PARAM,
    OPT_NETPARAM,
    OPT_JSON,
    OPT_CSV,
    OPT_NODATA,
    OPT_FILE,
    OPT_LINKS,
    OPT_EXPLAIN,
    OPT_OBJECTIVE,
    OPT_MODEL,     /* train */
    OPT_MODELS,    /* train */
    OPT_JOBS,      /* sweep, tune */
    OPT_CSVFILE,   /* sweep --csv FILE (compare's --csv is OPT_CSV, a flag) */
    OPT_PLOT,      /* sweep */
    OPT_DECISIONS, /* run -a auto */
    OPT_HELP,      /* every command */
    OPT_RUNTIME,   /* export --format msccl / msccl-inplace */
    OPT_COUNT
} opt_id;

/* Groups of options, as lists (cli.c's command table writes OPT_LIST(OPT_PROBLEM, OPT_JSON)). */
#define OPT_NETWORK_FLAGS OPT_NET, OPT_W, OPT_F, OPT_PRESET, OPT_NETPARAM
#define OPT_PROBLEM OPT_COLL, OPT_NODES, OPT_SIZE, OPT_ROOT, OPT_NODATA

typedef struct opt_set {
    uint64_t w[(OPT_COUNT + 63) / 64];
} opt_set;

static inline int opt_has(const opt_set *s, int id) {
    return (int)(s->w[id / 64] >> (id % 64) & 1);
}
static inline void opt_add(opt_set *s, int id) {
    s->w[id / 64] |= UINT64_C(1) << (id % 64);
}
/* The shared options (see above). */
static inline int opt_shared(int id) {
    return id < OPT_MODEL && id != OPT_FILE;
}

typedef struct options {
    const char *coll, *algo, *net, *nodes, *size, *root, *format, *output, *file;
    const char *wavelengths, *fibres, *preset, *objective;
    const char *model, *models, *jobs, *csv_file, *plot, *decisions;
    const char *runtime;                          /* export --format msccl */
    int json, csv, no_data, help, links, explain;
    oc_kv *params, *net_params;
    opt_set given;                   /* the options seen */
    const char *spelling[OPT_COUNT]; /* how each was written ("-n", "--nodes"), for messages */
    const char *value[OPT_COUNT];    /* and its value, if it takes one */
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
/* The library's settings every call of this process hands down (oc_settings: the memory budget,
 * the work budget, the tables' width, the verifier's shards, the part of a split run), filled from
 * the environment and the terminal before the command runs: the library reads neither. */
extern oc_settings cli_settings;
/* Sets cli_settings' memory budget from OPTICOLL_MEMORY_BUDGET_MIB (or its old name
 * OPTICOLL_VERIFY_BUDGET_MIB) and its work budget from OPTICOLL_WORK_BUDGET; 0, or one line on
 * stderr and EXIT_USAGE for a bad value. */
int memory_budget_from_env(void);
/* The algorithms of `-a A,B,...` for collective `coll` on network `net`, in the order given, into
 * out[0 .. *n) (at most cap): sweep and tune read -a alike (compare: algo_names and
 * oc_compare, in the same words). A name that is not an algorithm of the collective, one that
 * does not run on the network, a name given twice and an empty item are refused (2, after one
 * line). Without -a (text NULL): every algorithm of the collective in registry order, only
 * those that run on `net` unless `every_network`. */
int algo_list(const char *text, oc_collective coll, const char *net, int every_network,
              const oc_algorithm_info **out, size_t cap, size_t *n);
/* The names of `-a A,B,...` as they are, for the library to check (compare: oc_compare):
 * (*names)[0 .. *n) point into *copy; free both. An empty item (or one of 64 bytes or more) is
 * refused as algo_list refuses it (2, after one line), as is memory running out (3). */
int algo_names(const char *text, const char ***names, char **copy, size_t *n);
/* Sets cli_settings' text width (oc_settings.text_width) for the tables: $COLUMNS when it is set
 * (0: no limit), else the terminal's columns when stdout is a terminal (TIOCGWINSZ, else 80), else
 * TEXT_WIDTH_PIPE, so that a file or a pipe gets the same lines on every machine. */
enum { TEXT_WIDTH_PIPE = 100 };
void text_width_from_terminal(void);
/* The preamble of every command that takes the shared options: options_init zeroes o and makes
 * its two lists (-p, --net), options_read does that and then parse_options for command cmd; 0 or an
 * exit code after one line. options_free frees the lists, whatever the return was. */
int options_init(options *o);
int options_read(int argc, char **argv, const char *cmd, options *o);
void options_free(options *o);
/* Parses argv (argv[0]: the command's name) into o, accepting only the options command `cmd`
 * takes (see cli.c). 0, or an exit code after one line. */
int parse_options(int argc, char **argv, options *o, const char *cmd);
/* Reads the options of a command with a list of its own (not parse_options'): value[id] gets an
 * option's value, or its spelling for a flag (non-NULL: given); a value option given twice is
 * refused. The one operand goes to *operand (NULL: the command takes none). Every refusal is one
 * line, "CMD: ..." (an unknown or ambiguous option, a missing value, a value given to a flag, an
 * unexpected argument, an option given twice). 0 or an exit code. */
int read_options(const char *cmd, int argc, char **argv, const arg_option *opts, size_t n,
                 const char **value, const char **operand);
/* Builds the request; `need_algo` is 0 for compare. */
int build_request(const options *o, oc_request *req, int need_algo);
/* -w, -f and --preset are shorthands for --net wavelengths=, fibres=, preset=; given both ways
 * with different values they are refused (0 or an exit code after one line). */
int fold_network_flags(options *o);
/* 0 when -r (root, or NULL) applies to collective c; otherwise an exit code after one line. */
int root_applies(oc_collective c, const char *root);

/* Commands in their own files (tools/cmd_NAME.c): int cmd_NAME(int argc, char **argv), argv[0]
 * being the command's name. */
int cmd_throughput(int argc, char **argv);
int cmd_rack(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_perf(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_simgrid(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_train(int argc, char **argv);
/* The commands that take the shared options (parse_options, cli.c) with their own: main parses
 * and hands them the result (cmd_run.c, cmd_compare.c, cmd_export.c, cmd_verify.c). */
int cmd_run(options *o);
int cmd_compare(options *o);
int cmd_export(options *o);
int cmd_verify(options *o);
/* export --format astra-sim -o DIR (cmd_astra.c), after export read the options. */
int export_astra(options *o);
/* run -a auto (cmd_tune.c): when o says -a auto, picks the algorithm (from --decisions FILE or
 * by tuning the one point) and sets o->algo to it; the reason goes to run_auto_note, which run
 * prints with its result. --decisions without -a auto is refused. 0 or an exit code. */
int run_auto(options *o);
/* The line saying why -a auto chose its algorithm ("" when it did not run). */
const char *run_auto_note(void);
/* reproduce all, --out DIR, -j N (cmd_reproduce_out.c): `which` is a paper or all; out and jobs
 * the options' values or NULL (opticoll.c read them); settings the reader's (-w -n --sizes -t),
 * `given` their OC_SETTING_* bits (`all` runs the papers that take them all). */
int cmd_reproduce_out(const char *which, const char *out, const char *jobs,
                      const oc_reproduce_settings *settings, unsigned given);

/* Progress on stderr (the library's oc_progress_fn): shown only when stderr is a terminal, -q
 * was not given, and the command has run for a second; one line, rewritten with \r, erased when
 * a piece of work ends and before any error line. cli_progress_start() at the start of main. */
void cli_progress_start(void);
int cli_progress(void *ctx, const char *what, uint64_t done, uint64_t total);
void cli_progress_clear(void);

#endif
