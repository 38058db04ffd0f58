/*
 * cli.c — option parsing and error reporting shared by every command of the tool (see cli.h).
 *
 * The options of run, compare, export, verify, train, sweep and tune are one table (cli_options)
 * read with getopt_long (args.h); each command takes the rows its bits allow, and is shown the
 * shared rows too, so that an option of another command is refused by name rather than as
 * unknown. Abbreviations are getopt_long's: any unambiguous prefix of a long option of the
 * command (--nod for --nodes); an ambiguous one (--n: --network, --nodes, --net,
 * --no-data-check) is refused with its candidates, and an exact name always wins (--net).
 */
#include "cli.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* ---- progress, and a word ahead of long work ----
 *
 * The library reports how far each piece of work got (oc_progress_fn: rounds, candidates,
 * points, jobs; done of total). From the pace of the piece so far the time it still needs is
 * estimated: its elapsed time times (total - done) / done. The pace is the measured one, on this
 * machine under its present load, not a constant per transfer: the fast paths make a transfer's
 * cost differ by orders of magnitude between algorithms, and a count alone would say nothing
 * true about seconds. The estimate is first made after LONG_WORK_LOOK seconds of the piece (the
 * first rounds of a run include its set-up), and:
 *  - on a terminal, the progress line carries it ("about 42 s left");
 *  - anywhere else (a pipe, a file, a batch job), when the piece would end past LONG_WORK_SECONDS
 *    from the command's start, one line says so once, with what it was measured on; -q drops it.
 *    It says "over": the piece may be one pass of several (measured: N = 32768 ring all-gather
 *    was told "over 45 s" after 1.1 s, and took 87 s on a loaded machine).
 *    Only a unit whose steps cost about the same is extrapolated (even_steps: not a search's
 *    candidates); a sharded copy's verifier reports its chunks for that reason (run/shard.c).
 *    Work still going past LONG_WORK_SECONDS with nothing to estimate from (no total known, or
 *    nothing done since the piece began, or going on past what it called its total) says that
 *    once instead, with its count so far.
 * Work that ends within LONG_WORK_SECONDS says nothing, and stdout is never touched.
 *
 * Before a run (or a search candidate) starts, the library tells the seconds it should take at
 * the tool's usual pace per transfer (OC_PROGRESS_AHEAD: from the counts every plan states, a
 * pace measured once, not on this machine now). Past LONG_WORK_SECONDS that is the word ahead,
 * said at once rather than after a second of measuring (or, for a search's first candidate,
 * after its first 30 s: the fat-tree's rhd search at 131072 nodes said nothing for minutes), on
 * a terminal as elsewhere; the line names the estimate as such, and the progress line that
 * follows on a terminal carries the measured time left. One such line a command, whichever
 * comes first. */
enum { LONG_WORK_SECONDS = 30 };
static const double LONG_WORK_LOOK = 1.0;

static struct {
    pthread_mutex_t lock; /* reproduce -j reports from several threads */
    double start;         /* when the command started */
    int quiet;            /* -q, --quiet */
    int tty;              /* stderr is a terminal */
    int shown;            /* a progress line is on the screen */
    int warned;           /* the long-work line was given (once a command) */
    int still;            /* the line for long work that cannot be estimated yet was given */
} cli_prog = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* A piece of work being timed: its unit and total, where it was at the last call, and where it
 * was at its first call and when. Work nests (a sweep's points, each point's rounds, a run's
 * rounds and then its verifier's chunks), so a thread keeps a piece per unit; compare's runs go
 * side by side on threads of their own, each reporting its rounds, and one run's pace says
 * nothing of another's, so pieces are per thread. A piece reported from a pool's threads (a
 * sharded run's chunks, a sweep's points) reaches each thread first part-way: it is timed from
 * where it began on the first thread that met it (the same unit and total: the same piece). */
typedef struct piece {
    const char *what;
    uint64_t total, done, done0;
    double start;
} piece;
enum { PIECE_UNITS = 4 };
static _Thread_local piece thread_pieces[PIECE_UNITS];
static piece begun[PIECE_UNITS]; /* the last piece begun of each unit, on any thread (lock) */

static double mono_now(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t)) return 0; /* no clock: the line never shows */
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cli_progress_start(void) {
    cli_prog.start = mono_now();
    cli_prog.tty = isatty(STDERR_FILENO);
}

/* Erases the line; the caller holds the lock. */
static void progress_erase(void) {
    if (!cli_prog.shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    cli_prog.shown = 0;
}

void cli_progress_clear(void) {
    pthread_mutex_lock(&cli_prog.lock);
    progress_erase();
    pthread_mutex_unlock(&cli_prog.lock);
}

/* "1.5 min", "42 s", "3.1 h": a duration as a person reads an estimate. */
static void format_duration(char *buf, size_t len, double s) {
    if (s < 90)
        snprintf(buf, len, "%.0f s", s);
    else if (s < 5400)
        snprintf(buf, len, "%.0f min", s / 60);
    else
        snprintf(buf, len, "%.1f h", s / 3600);
}

/* The slot of unit `what` in a table of PIECE_UNITS (an empty one, else the first). */
static piece *piece_slot(piece *table, const char *what) {
    piece *empty = NULL;
    for (int i = 0; i < PIECE_UNITS; i++) {
        if (table[i].what && !strcmp(table[i].what, what)) return &table[i];
        if (!table[i].what && !empty) empty = &table[i];
    }
    return empty ? empty : &table[0];
}

/* Whether a unit's steps cost about the same, so that its pace so far says when the rest ends.
 * A search's candidates do not: most are decided by a proven bound in microseconds, a few are
 * mapped for seconds, in no order (tcp1-split's broadcast search on the star at 131072 nodes
 * decided 2 of 37 in its first 6.6 s and was told "over 4 min"; it ended at 15 s). Their long
 * ones get the word ahead of each candidate mapped, and a search past LONG_WORK_SECONDS the
 * line that it is not done. */
static int even_steps(const char *what) {
    return strcmp(what, "candidates") != 0;
}

/* The seconds piece p still needs at its pace so far; < 0 while it cannot be said (total
 * unknown, nothing done since it was first met, looked at too early, or steps of uneven cost). */
static double piece_left(const piece *p, double now, uint64_t done, uint64_t total) {
    const double ran = now - p->start;
    if (!total || done <= p->done0 || done >= total || ran < LONG_WORK_LOOK ||
        !even_steps(p->what))
        return -1;
    return ran * (double)(total - done) / (double)(done - p->done0);
}

int cli_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
    (void)ctx;
    if (cli_prog.quiet) return 0;
    pthread_mutex_lock(&cli_prog.lock);
    if (!strcmp(what, OC_PROGRESS_AHEAD)) {
        /* the library's estimate before the work starts: a line when it is long, else nothing
         * (not a piece to time) */
        if (!cli_prog.warned && total > LONG_WORK_SECONDS) {
            char d[24];
            format_duration(d, sizeof d, (double)total);
            progress_erase();
            fprintf(stderr,
                    "opticoll: this will take long: about %s at this tool's usual pace, from the "
                    "transfers its plan counts (-q: no such line)\n",
                    d);
            fflush(stderr);
            cli_prog.warned = 1;
        }
        pthread_mutex_unlock(&cli_prog.lock);
        return 0;
    }
    const double now = mono_now();
    piece *p = piece_slot(thread_pieces, what);
    /* a new piece on this thread: a unit not met here, another total, or done going back (the
     * next run's rounds) */
    piece *b = piece_slot(begun, what);
    /* The work went past what it called its total: the last call of this unit had done at its
     * total and this one goes on from there. A search's total is the candidates offered so far;
     * rhd's on the fat-tree at 131072 nodes decides each fold as it offers it, "24267 of
     * 24267" for minutes, and was never told "not done" (its total is not a total). */
    const int overran = p->what && !strcmp(what, p->what) && p->total && p->done >= p->total &&
                        done >= p->done;
    if (!p->what || strcmp(what, p->what) || total != p->total || done < p->done) {
        /* the same piece, met on another of its threads, carries on from where it got to */
        if (b->what && !strcmp(what, b->what) && total == b->total && done >= b->done)
            *p = *b;
        else
            *b = *p = (piece){what, total, done, done, now};
    }
    p->done = done;
    if (b->start == p->start && b->done < done) b->done = done;
    const double left = piece_left(p, now, done, total);
    char eta[48] = "";
    if (left >= 0) {
        char d[24];
        format_duration(d, sizeof d, left);
        snprintf(eta, sizeof eta, ", about %s left", d);
    }
    if (!cli_prog.tty) {
        if (!cli_prog.warned && left >= 0 && now - cli_prog.start + left > LONG_WORK_SECONDS) {
            char d[24];
            format_duration(d, sizeof d, now - cli_prog.start + left);
            /* "over": the piece timed may be one pass of several (a sharded verification's
             * windows, the real-data run come on top of the rounds counted) */
            fprintf(stderr,
                    "opticoll: this will take over %s (%s: %llu of %llu in %.1f s at this "
                    "machine's pace; -q: no such line)\n",
                    d, what, (unsigned long long)done, (unsigned long long)total, now - p->start);
            fflush(stderr);
            cli_prog.warned = 1;
        } else if (!cli_prog.warned && !cli_prog.still && left < 0 &&
                   (!total || done < total || overran) &&
                   now - cli_prog.start > LONG_WORK_SECONDS) {
            /* Past LONG_WORK_SECONDS with nothing to estimate from (a search whose candidates
             * are not all offered yet, no unit of the work done since it began: rhd's search on
             * the fat-tree at 131072 nodes maps its levels for many minutes before its first
             * candidate is decided): said once, so that a pipe or a log is not left silent. The
             * estimate's line still follows when there is one. */
            char d[24];
            format_duration(d, sizeof d, now - cli_prog.start);
            char count[64];
            if (total && done < total)
                snprintf(count, sizeof count, "%llu of %llu", (unsigned long long)done,
                         (unsigned long long)total);
            else if (total)
                snprintf(count, sizeof count, "%llu so far", (unsigned long long)done);
            else
                snprintf(count, sizeof count, "%llu so far, the total not known yet",
                         (unsigned long long)done);
            fprintf(stderr,
                    "opticoll: this has run %s and is not done; no estimate yet (%s: %s; -q: no "
                    "such line)\n",
                    d, what, count);
            fflush(stderr);
            cli_prog.still = 1;
        }
    } else if (total && done >= total) {
        progress_erase(); /* this piece of work is over */
    } else if (now - cli_prog.start >= 1.0) {
        if (total)
            fprintf(stderr, "\ropticoll: %s %llu / %llu (%.0f%%%s)\033[K", what,
                    (unsigned long long)done, (unsigned long long)total,
                    100.0 * (double)done / (double)total, eta);
        else
            fprintf(stderr, "\ropticoll: %s %llu\033[K", what, (unsigned long long)done);
        fflush(stderr);
        cli_prog.shown = 1;
    }
    pthread_mutex_unlock(&cli_prog.lock);
    return 0; /* the command never stops the work: Ctrl-C ends the process */
}

int die_line(int code, const char *line) {
    cli_progress_clear();
    /* the callers quoted the user text they composed in; this is the net for the rest */
    char safe[1024];
    snprintf(safe, sizeof safe, "%s", line);
    oc_quote_line(safe, sizeof safe);
    fprintf(stderr, "opticoll: %s\n", safe);
    return code;
}

int die(int code, const char *fmt, const char *a, const char *b) {
    char line[1024];
    snprintf(line, sizeof line, fmt, OC_Q(a ? a : ""), OC_Q(b ? b : ""));
    return die_line(code, line);
}

int exit_for(int err) {
    switch (err) {
    case OC_EVERIFY:
    case OC_ERESOURCE:
        return EXIT_VERIFY;
    case OC_EINVAL:
    case OC_ERANGE:
    case OC_ENOENT:
    case OC_ENOTSUP:
    case OC_EPARSE:
    case OC_ETOOBIG:
    case OC_EIO:
        return EXIT_USAGE;
    default:
        return EXIT_OTHER;
    }
}

int algo_list(const char *text, oc_collective coll, const char *net, int every_network,
              const oc_algorithm_info **out, size_t cap, size_t *n) {
    const char *cname = oc_collective_name(coll);
    *n = 0;
    if (!text) {
        for (size_t i = 0; i < oc_algorithm_count() && *n < cap; i++) {
            const oc_algorithm_info *x = oc_algorithm_at(i);
            if (x->collective == coll && (every_network || oc_algorithm_runs_on(x, net)))
                out[(*n)++] = x;
        }
        return *n ? 0 : die(EXIT_USAGE, "no %s algorithm runs on %s", cname, net);
    }
    for (const char *p = text;; p++) {
        size_t len = strcspn(p, ",");
        char name[64];
        if (!len || len >= sizeof name)
            return die(EXIT_USAGE, "-a %s: expected names separated by commas", text, NULL);
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        const oc_algorithm_info *x = NULL;
        for (size_t i = 0; i < oc_algorithm_count() && !x; i++)
            if (oc_algorithm_at(i)->collective == coll && !strcmp(oc_algorithm_at(i)->name, name))
                x = oc_algorithm_at(i);
        if (!x)
            return die(EXIT_USAGE, "-a: '%s' is not an algorithm of %s (see opticoll list)", name,
                       cname);
        if (!oc_algorithm_runs_on(x, net))
            return die(EXIT_USAGE, "-a: '%s' does not run on %s (see opticoll list)", name, net);
        for (size_t k = 0; k < *n; k++)
            if (out[k] == x) return die(EXIT_USAGE, "-a: '%s' is listed twice", name, NULL);
        if (*n == cap) return die(EXIT_USAGE, "-a: too many algorithms", NULL, NULL);
        out[(*n)++] = x;
        p += len;
        if (!*p) return 0;
    }
}

int algo_names(const char *text, const char ***names, char **copy, size_t *n) {
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == ',';
    *n = 0;
    *copy = strdup(text);
    *names = calloc(cap, sizeof **names);
    int rc = !*copy || !*names ? die(EXIT_OTHER, "out of memory", NULL, NULL) : 0;
    for (char *p = *copy; !rc; p++) {
        size_t len = strcspn(p, ",");
        if (!len || len >= 64) {
            rc = die(EXIT_USAGE, "-a %s: expected names separated by commas", text, NULL);
            break;
        }
        (*names)[(*n)++] = p;
        p += len;
        if (!*p) return 0;
        *p = '\0';
    }
    free(*names);
    free(*copy);
    *names = NULL;
    *copy = NULL;
    *n = 0;
    return rc;
}

oc_settings cli_settings;

void text_width_from_terminal(void) {
    unsigned cols = TEXT_WIDTH_PIPE;
    uint64_t env = 0;
    const char *c = getenv("COLUMNS");
    struct winsize ws;
    if (c && (!strcmp(c, "0") || oc_parse_u64(c, 20, 100000, &env) == 0))
        cols = (unsigned)env; /* the user's word, terminal or not; 0: no limit */
    else if (isatty(STDOUT_FILENO))
        cols = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
    cli_settings.text_width = cols;
}

int memory_budget_from_env(void) {
    char why[512];
    if (oc_memory_budget_from_env(getenv("OPTICOLL_MEMORY_BUDGET_MIB"),
                                  getenv("OPTICOLL_VERIFY_BUDGET_MIB"), &cli_settings.memory_budget,
                                  why, sizeof why))
        return die_line(EXIT_USAGE, why); /* the library's line, the value in it already cut */
    /* the work budget beside it (chunk-transfers a reduction's verifier may take) */
    if (oc_work_budget_from_env(getenv("OPTICOLL_WORK_BUDGET"), &cli_settings.work_budget, why,
                                sizeof why))
        return die_line(EXIT_USAGE, why);
    return 0;
}

int lib_error(int err, const char *why) {
    return die_line(exit_for(err), why && *why ? why : oc_strerror(err));
}

/* The one line for a word arg_next refused, or an operand the command does not take. */
static int arg_refused(const char *cmd, const arg_word *a) {
    char line[1024];
    switch (a->kind) {
    case ARG_AMBIGUOUS: /* the candidates are the command's own option names */
        snprintf(line, sizeof line, "%s: option '%s' is ambiguous: %s (see --help)", cmd,
                 OC_Q(a->spelling), a->value);
        return die_line(EXIT_USAGE, line);
    case ARG_NEEDS_VALUE:
        return die(EXIT_USAGE, "%s: %s needs a value", cmd, a->spelling);
    case ARG_NO_VALUE:
        snprintf(line, sizeof line, "%s: %s takes no value (got '%s')", cmd, a->spelling,
                 OC_Q(a->value));
        return die_line(EXIT_USAGE, line);
    case ARG_OPERAND:
        return die(EXIT_USAGE, "%s: unexpected argument '%s'", cmd, a->value);
    default:
        return die(EXIT_USAGE, "%s: unknown option '%s' (see --help)", cmd, a->spelling);
    }
}

/* *slot = a's value, unless the option was given before. */
static int arg_once(const char *cmd, const arg_word *a, const char **slot) {
    if (*slot) return die(EXIT_USAGE, "%s: %s given twice", cmd, a->spelling);
    *slot = a->value;
    return 0;
}

/* -q, --quiet: every command's, added once by each reader (read_options, command_table). Its id
 * is above every read_options list's indices and every opt_id, so the readers take it before they
 * look at ids. */
enum { QUIET_ID = 200 };
static const arg_option quiet_option = {"-q", "--quiet", 0, QUIET_ID};

int read_options(const char *cmd, int argc, char **argv, const arg_option *opts, size_t n,
                 const char **value, const char **operand) {
    arg_reader p;
    arg_word a;
    int rc = 0;
    arg_option all[ARG_MAX_OPTIONS];
    assert(n < ARG_MAX_OPTIONS);
    memcpy(all, opts, n * sizeof *opts);
    all[n] = quiet_option;
    arg_init(&p, argc, argv, all, n + 1);
    while (!rc && arg_next(&p, &a) != ARG_END) {
        if (a.kind == ARG_OPTION && a.id == QUIET_ID)
            cli_prog.quiet = 1;
        else if (a.kind == ARG_OPERAND && operand && !*operand)
            *operand = a.value;
        else if (a.kind != ARG_OPTION)
            rc = arg_refused(cmd, &a);
        else if (!a.value)
            value[a.id] = a.spelling; /* a flag, given */
        else
            rc = arg_once(cmd, &a, &value[a.id]);
    }
    return rc;
}

/* ---- the options of run, compare, export, verify, train, sweep and tune ---- */

/* A command's options: a list of opt_ids ended by OPT_END (groups as in cli.h). */
#define OPT_END (-1)
#define OPT_LIST(...) ((const int[]){__VA_ARGS__, OPT_END})

static const struct {
    const char *cmd;
    const int *allowed;
} command_options[] = {
    {"run", OPT_LIST(OPT_PROBLEM, OPT_ALGO, OPT_PARAM, OPT_NETWORK_FLAGS, OPT_JSON, OPT_LINKS,
                     OPT_EXPLAIN, OPT_OBJECTIVE, OPT_DECISIONS)},
    {"compare", OPT_LIST(OPT_PROBLEM, OPT_NETWORK_FLAGS, OPT_JSON, OPT_CSV, OPT_ALGO, OPT_PARAM)},
    {"export", OPT_LIST(OPT_PROBLEM, OPT_ALGO, OPT_PARAM, OPT_NETWORK_FLAGS, OPT_FORMAT,
                        OPT_OUTPUT, OPT_OBJECTIVE, OPT_RUNTIME)},
    {"verify", OPT_LIST(OPT_FILE, OPT_NETWORK_FLAGS, OPT_JSON)},
    /* draw (cmd_draw.c): like run, or a schedule file like verify; its --round is its own */
    {"draw", OPT_LIST(OPT_PROBLEM, OPT_ALGO, OPT_PARAM, OPT_NETWORK_FLAGS, OPT_OUTPUT,
                      OPT_OBJECTIVE, OPT_FILE)},
    /* simgrid (cmd_simgrid.c): the fat-tree only, so -t and --net but no -w, -f, --preset */
    {"simgrid", OPT_LIST(OPT_PROBLEM, OPT_ALGO, OPT_PARAM, OPT_NET, OPT_NETPARAM, OPT_JSON)},
    /* train: -c and -s are read to name why they do not apply (the model gives both); the
     * other shared options that train has no use for (-r, --format, -o, --csv, --links, --explain,
     * --objective) are refused by name, never ignored */
    {"train", OPT_LIST(OPT_COLL, OPT_SIZE, OPT_ALGO, OPT_PARAM, OPT_NETWORK_FLAGS, OPT_NODES,
                       OPT_JSON, OPT_NODATA, OPT_MODEL, OPT_MODELS)},
    /* sweep and tune read -n and -s as lists (tools/points.c) */
    {"sweep", OPT_LIST(OPT_COLL, OPT_ALGO, OPT_ROOT, OPT_NODATA, OPT_PARAM, OPT_NETWORK_FLAGS,
                       OPT_JSON, OPT_NODES, OPT_SIZE, OPT_JOBS, OPT_CSVFILE, OPT_PLOT)},
    {"tune", OPT_LIST(OPT_COLL, OPT_ALGO, OPT_ROOT, OPT_NODATA, OPT_NETWORK_FLAGS, OPT_JSON,
                      OPT_OUTPUT, OPT_NODES, OPT_SIZE, OPT_JOBS)},
    /* perf reads its own options (tools/cmd_perf.c): nccl-tests' letters, which are not these */
};

/* Every option of those commands: its spellings, and the field of struct options it sets (a
 * const char * for a value, an int for a flag; -p and --net fill a list instead). `only` names
 * the commands where a spelling exists when not every command taking the bit has it. */
#define FIELD(f) offsetof(options, f)
static const struct cli_option {
    arg_option a;
    size_t field;
    const char *only;
} cli_options[] = {
    {{"-c", "--collective", 1, OPT_COLL}, FIELD(coll), NULL},
    {{"-a", "--algorithm", 1, OPT_ALGO}, FIELD(algo), NULL},
    {{"-t", "--network", 1, OPT_NET}, FIELD(net), NULL},
    {{"-n", "--nodes", 1, OPT_NODES}, FIELD(nodes), NULL},
    {{"-s", "--size", 1, OPT_SIZE}, FIELD(size), NULL},
    {{NULL, "--sizes", 1, OPT_SIZE}, FIELD(size), "sweep tune"},
    {{"-r", "--root", 1, OPT_ROOT}, FIELD(root), NULL},
    {{"-w", "--wavelengths", 1, OPT_W}, FIELD(wavelengths), NULL},
    {{"-f", "--fibres", 1, OPT_F}, FIELD(fibres), NULL},
    {{NULL, "--preset", 1, OPT_PRESET}, FIELD(preset), NULL},
    {{NULL, "--format", 1, OPT_FORMAT}, FIELD(format), NULL},
    {{"-o", "--output", 1, OPT_OUTPUT}, FIELD(output), NULL},
    {{"-p", "--param", 1, OPT_PARAM}, 0, NULL},
    {{NULL, "--net", 1, OPT_NETPARAM}, 0, NULL},
    {{NULL, "--json", 0, OPT_JSON}, FIELD(json), NULL},
    {{NULL, "--csv", 0, OPT_CSV}, FIELD(csv), NULL},
    {{NULL, "--no-data-check", 0, OPT_NODATA}, FIELD(no_data), NULL},
    {{NULL, "--links", 0, OPT_LINKS}, FIELD(links), NULL},
    {{NULL, "--explain", 0, OPT_EXPLAIN}, FIELD(explain), NULL},
    {{NULL, "--objective", 1, OPT_OBJECTIVE}, FIELD(objective), NULL},
    {{"-h", "--help", 0, OPT_HELP}, FIELD(help), NULL},
    {{"-m", "--model", 1, OPT_MODEL}, FIELD(model), NULL},
    {{NULL, "--models", 1, OPT_MODELS}, FIELD(models), NULL},
    {{"-j", "--jobs", 1, OPT_JOBS}, FIELD(jobs), NULL},
    {{NULL, "--csv", 1, OPT_CSVFILE}, FIELD(csv_file), NULL},
    {{NULL, "--plot", 1, OPT_PLOT}, FIELD(plot), NULL},
    {{NULL, "--decisions", 1, OPT_DECISIONS}, FIELD(decisions), NULL},
    {{NULL, "--runtime", 1, OPT_RUNTIME}, FIELD(runtime), NULL},
};
enum { NCLI = sizeof cli_options / sizeof cli_options[0] };

/* 1 when the space-separated list `list` (NULL: every command) names cmd. */
static int for_command(const char *list, const char *cmd) {
    size_t n = strlen(cmd);
    for (const char *p = list; p && *p; p += strcspn(p, " "), p += *p == ' ')
        if (strcspn(p, " ") == n && !strncmp(p, cmd, n)) return 1;
    return !list;
}

/* 1 when two spellings collide (same long name or same letter). */
static int same_spelling(const arg_option *x, const arg_option *y) {
    return (x->name && y->name && !strcmp(x->name, y->name)) ||
           (x->letter && y->letter && !strcmp(x->letter, y->letter));
}

/* The rows of cli_options that command `cmd` (taking `allowed`) reads: its own, and the shared
 * ones whose spellings none of its own use (sweep's --csv FILE hides compare's --csv). */
static size_t command_table(const char *cmd, const opt_set *allowed, arg_option *out) {
    size_t n = 0;
    for (size_t i = 0; i < NCLI; i++) {
        const struct cli_option *e = &cli_options[i];
        int id = e->a.id;
        if (!(opt_has(allowed, id) || opt_shared(id) || id == OPT_HELP) ||
            !for_command(e->only, cmd))
            continue;
        int hidden = 0;
        for (size_t j = 0; j < NCLI && !opt_has(allowed, id); j++)
            hidden |= opt_has(allowed, cli_options[j].a.id) &&
                      for_command(cli_options[j].only, cmd) &&
                      same_spelling(&e->a, &cli_options[j].a);
        if (hidden) continue;
        assert(n < ARG_MAX_OPTIONS);
        out[n++] = e->a;
    }
    assert(n < ARG_MAX_OPTIONS);
    out[n++] = quiet_option;
    return n;
}

static const struct cli_option *option_of(int id) {
    for (size_t i = 0; i < NCLI; i++)
        if (cli_options[i].a.id == id) return &cli_options[i];
    return NULL;
}

const char *const help_problem =
    "  -c, --collective NAME   allgather, reducescatter, allreduce, broadcast, scatter, gather,\n"
    "                          alltoall, gossip\n"
    "  -n, --nodes N           number of nodes, 1 to 131072 (optree, wrht, rd and bruck\n"
    "                          all-gather: 1048576)\n"
    "  -s, --size SIZE         4096, 4KiB, 4MiB, 1GiB, 4MB (all-gather: one node's block;\n"
    "                          all-reduce: the whole vector; see `opticoll list`)\n"
    "  -r, --root R            root node of broadcast, scatter, gather (0)\n"
    "      --no-data-check     skip the real-data run (the symbolic verifier always runs)\n";

const char *const help_algo =
    "  -a, --algorithm NAME    see `opticoll list`\n"
    "  -p, --param KEY=VALUE   algorithm parameter (repeatable), e.g. radices=4x4x4, k=5\n";

const char *const help_search =
    "      --objective time|steps  what the parameter search minimises (time: the network\n"
    "                          model's time, ties to fewer steps; steps: the reverse)\n";

const char *const help_network =
    "  -t, --network NAME      ring (default); see `opticoll list`\n"
    "  -w, --wavelengths W     wavelengths per fibre (ring: 64)\n"
    "  -f, --fibres F          fibres per direction (ring: 1; --preset terarack: 2)\n"
    "      --preset NAME       network preset (ring: seed, terarack)\n"
    "      --net KEY=VALUE     network parameter (repeatable), e.g. reconfig_us=25\n";

/* ---- options that say the same thing twice ----
 *
 * -w, -f and --preset are shorthands for --net wavelengths=, fibres=, preset=: this table is the
 * one place that says so. Given both ways with different values (-w 4 --net wavelengths=8), they
 * are refused, naming both; the same value twice is accepted. Options that exclude each other
 * outright (two output formats of one command) are in the table after it. */

static const struct {
    const char *flag, *key;
    int id;       /* its opt_id, for how it was written (-w or --wavelengths) */
    size_t field; /* the option's value in struct options */
    int number;   /* a whole number of at least 1 (compared as numbers: -w 08 = wavelengths=8) */
} net_shorthands[] = {
    {"-w", "wavelengths", OPT_W, offsetof(options, wavelengths), 1},
    {"-f", "fibres", OPT_F, offsetof(options, fibres), 1},
    {"--preset", "preset", OPT_PRESET, offsetof(options, preset), 0},
};

static const struct {
    int a, b;
} exclusive[] = {
    {OPT_JSON, OPT_CSV}, /* compare: one output format */
};

/* Refuses two options of `exclusive` given together, naming both as written. */
static int check_exclusive(const options *o, const char *cmd) {
    for (size_t i = 0; i < sizeof exclusive / sizeof exclusive[0]; i++) {
        int a = exclusive[i].a, b = exclusive[i].b;
        if (opt_has(&o->given, a) && opt_has(&o->given, b)) {
            char line[200];
            snprintf(line, sizeof line, "%s: %s and %s exclude each other: give one", cmd,
                     o->spelling[a], o->spelling[b]);
            return die_line(EXIT_USAGE, line);
        }
    }
    return 0;
}

/* Records that option `id` was given as `as`. */
static void saw(options *o, int id, const char *as) {
    opt_add(&o->given, id);
    o->spelling[id] = as;
}

/* -p KEY=VALUE or --net KEY=VALUE: one pair more (a key given twice is refused). */
static int add_pair(options *o, const arg_word *a) {
    oc_kv *kv = a->id == OPT_NETPARAM ? o->net_params : o->params;
    const char *pair = a->value, *eq = strchr(pair, '=');
    if (eq && eq > pair) {
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - pair), pair);
        if (oc_kv_get(kv, key)) return die(EXIT_USAGE, "%s %s given twice", a->spelling, key);
    }
    if (oc_kv_set_pair(kv, pair))
        return die(EXIT_USAGE, "%s: expected KEY=VALUE, got '%s'", a->spelling, pair);
    return 0;
}

int options_init(options *o) {
    memset(o, 0, sizeof *o);
    o->params = oc_kv_new();
    o->net_params = oc_kv_new();
    return o->params && o->net_params ? 0 : die(EXIT_OTHER, "out of memory", NULL, NULL);
}

int options_read(int argc, char **argv, const char *cmd, options *o) {
    int rc = options_init(o);
    return rc ? rc : parse_options(argc, argv, o, cmd);
}

void options_free(options *o) {
    oc_kv_free(o->params);
    oc_kv_free(o->net_params);
    o->params = o->net_params = NULL;
}

int parse_options(int argc, char **argv, options *o, const char *cmd) {
    opt_set allowed = {{0}};
    for (size_t k = 0; k < sizeof command_options / sizeof command_options[0]; k++)
        if (!strcmp(command_options[k].cmd, cmd))
            for (const int *id = command_options[k].allowed; *id != OPT_END; id++)
                opt_add(&allowed, *id);
    arg_option mine[ARG_MAX_OPTIONS];
    arg_reader p;
    arg_word a;
    arg_kind kind;
    arg_init(&p, argc, argv, mine, command_table(cmd, &allowed, mine));
    while ((kind = arg_next(&p, &a)) != ARG_END) {
        if (kind == ARG_OPTION && a.id == QUIET_ID) {
            cli_prog.quiet = 1;
            continue;
        }
        int id = a.id, pair = id == OPT_PARAM || id == OPT_NETPARAM;
        if (kind == ARG_OPERAND) {
            if (o->file) return arg_refused(cmd, &a);
            o->file = a.value;
            saw(o, OPT_FILE, a.value);
            continue;
        }
        if (kind == ARG_NEEDS_VALUE && pair)
            return die(EXIT_USAGE, "%s: %s needs KEY=VALUE", cmd, a.spelling);
        if (kind != ARG_OPTION) return arg_refused(cmd, &a);
        if (id == OPT_HELP) {
            o->help = 1;
            continue;
        }
        saw(o, id, a.spelling);
        int rc = 0;
        void *field = (char *)o + option_of(id)->field;
        if (pair)
            rc = add_pair(o, &a);
        else if (!a.value)
            *(int *)field = 1;
        else if (!(rc = arg_once(cmd, &a, (const char **)field)))
            o->value[id] = a.value;
        if (rc) return rc;
    }
    if (o->help) return 0;
    int rc = check_exclusive(o, cmd);
    if (rc) return rc;
    if (opt_has(&o->given, OPT_FILE) && !opt_has(&allowed, OPT_FILE))
        return die(EXIT_USAGE, "%s: unexpected argument '%s'", cmd, o->file);
    for (int b = 0; b < OPT_COUNT; b++) {
        if (!opt_has(&o->given, b) || opt_has(&allowed, b)) continue;
        char msg[600]; /* the first option given that the command does not take */
        snprintf(msg, sizeof msg, "%s: %s%s%s does not apply to %s (see %s --help)", cmd,
                 o->spelling[b], o->value[b] ? " " : "", o->value[b] ? OC_Q(o->value[b]) : "", cmd,
                 cmd);
        return die_line(EXIT_USAGE, msg);
    }
    return 0;
}

int root_applies(oc_collective c, const char *root) {
    /* the collectives whose spec has a root; the others would ignore -r silently */
    if (!root || c == OC_BROADCAST || c == OC_SCATTER || c == OC_GATHER) return 0;
    return die(EXIT_USAGE, "-r %s: %s has no root (-r applies to broadcast, scatter, gather)", root,
               oc_collective_name(c));
}

/* Builds the request; `need_algo` is 0 for compare. */
int build_request(const options *o, oc_request *req, int need_algo) {
    memset(req, 0, sizeof *req);
    req->skip_data_check = o->no_data;
    if (!o->coll) return die(EXIT_USAGE, "missing -c COLLECTIVE", NULL, NULL);
    if (oc_collective_from_name(o->coll, &req->collective))
        return die(EXIT_USAGE, "unknown collective '%s' (see opticoll list)", o->coll, NULL);
    if (need_algo && !o->algo) return die(EXIT_USAGE, "missing -a ALGORITHM", NULL, NULL);
    req->algorithm = o->algo;
    req->network = o->net ? o->net : "ring";
    if (!o->nodes) return die(EXIT_USAGE, "missing -n NODES", NULL, NULL);
    uint64_t v;
    int rc = oc_parse_u64(o->nodes, 0, UINT64_MAX, &v);
    if (rc == OC_EPARSE)
        return die(EXIT_USAGE, "-n %s: not a whole number of nodes", o->nodes, NULL);
    if (rc || v > OC_MAX_NODES)
        return die(EXIT_USAGE, "-n %s: at most 1048576 nodes are supported", o->nodes, NULL);
    if (v < 1) return die(EXIT_USAGE, "-n %s: at least one node is needed", o->nodes, NULL);
    req->nodes = (uint32_t)v;
    if (!o->size) return die(EXIT_USAGE, "missing -s SIZE (e.g. 4MiB)", NULL, NULL);
    rc = oc_parse_size(o->size, &req->bytes);
    if (rc == OC_ERANGE)
        return die(EXIT_USAGE, "-s %s: larger than the 1 PiB limit", o->size, NULL);
    if (rc)
        return die(EXIT_USAGE, "-s %s: not a size (use e.g. 4096, 4KiB, 4MiB, 1GiB, 4MB)", o->size,
                   NULL);
    if ((rc = root_applies(req->collective, o->root))) return rc;
    if (o->root) {
        rc = oc_parse_u64(o->root, 0, req->nodes - 1, &v);
        if (rc) return die(EXIT_USAGE, "-r %s: not a node number below -n", o->root, NULL);
        req->root = (uint32_t)v;
    }
    req->params = o->params;
    req->net_params = o->net_params;
    req->explain = o->explain;
    req->progress = cli_progress;
    req->settings = &cli_settings;
    if (o->objective) {
        if (!strcmp(o->objective, "time"))
            req->objective = OC_OBJECTIVE_TIME;
        else if (!strcmp(o->objective, "steps"))
            req->objective = OC_OBJECTIVE_STEPS;
        else
            return die(EXIT_USAGE, "--objective %s: expected time or steps", o->objective, NULL);
    }
    return 0;
}

/* -w, -f and --preset are shorthands for --net (net_shorthands). */
int fold_network_flags(options *o) {
    for (size_t i = 0; i < sizeof net_shorthands / sizeof net_shorthands[0]; i++) {
        const char *value =
            *(const char *const *)(const void *)((const char *)o + net_shorthands[i].field);
        const char *flag = o->spelling[net_shorthands[i].id],
                   *key = net_shorthands[i].key;
        if (!flag) flag = net_shorthands[i].flag;
        if (!value) continue;
        uint64_t v = 0, w = 0;
        int rc = 0;
        if (net_shorthands[i].number) {
            rc = oc_parse_u64(value, 0, UINT64_MAX, &v);
            if (rc == OC_EPARSE) return die(EXIT_USAGE, "%s %s: not a whole number", flag, value);
            /* past 2^64 - 1 (OC_ERANGE) the model refuses it naming its own range, as it does
             * any value above that range */
            if (!rc && v < 1) return die(EXIT_USAGE, "%s %s: must be at least 1", flag, value);
        }
        const char *net = oc_kv_get(o->net_params, key);
        if (net) {
            int same = net_shorthands[i].number && !rc && !oc_parse_u64(net, 0, UINT64_MAX, &w)
                           ? v == w
                           : !strcmp(net, value);
            if (!same) {
                char line[600];
                snprintf(line, sizeof line, "%s %s and --net %s=%s disagree: give one", flag,
                         OC_Q(value), key, OC_Q(net));
                return die_line(EXIT_USAGE, line);
            }
            continue;
        }
        if (oc_kv_set(o->net_params, key, value))
            return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    return 0;
}
