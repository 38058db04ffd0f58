/*
 * args.h — the command line as every Unix tool reads it, through glibc's getopt_long: the one
 * option reader of opticoll, opticoll-cluster and opticoll-mpi (args.c).
 *
 * A command lists its options (arg_option) and reads them one at a time with arg_next. What
 * getopt_long gives, they all take: `--nodes=16` and `--nodes 16`, `-n16` and `-n 16`, grouped
 * short flags (`-hn4` is `-h -n 4`), an unambiguous prefix of a long option (`--nod 16`), and
 * `--`, after which every word is an operand even if it starts with '-'. Operands come back in
 * the order they were written, between the options (getopt's "-" mode: argv is never permuted,
 * and POSIXLY_CORRECT changes nothing). A value is the next word whatever it looks like: in
 * `-n -5` the value of -n is "-5", which the command then refuses as a number of nodes.
 *
 * getopt's own messages are off (opterr = 0): arg_next says what went wrong (an unknown
 * option, an ambiguous prefix and what it could be, a missing value, a value given to a flag) and
 * the command prints its own one line. Every arg_init starts getopt afresh (optind = 0, glibc's
 * full reset), so a command may read its arguments more than once.
 */
#ifndef OC_ARGS_H
#define OC_ARGS_H

#include "opticoll.h"

/* The user's text in a message, quoted by the library (oc_quote) into a buffer that lives until
 * the end of the enclosing block, for an argument:
 *     die(EXIT_USAGE, "unknown collective '%s'", OC_Q(name), NULL); */
#define OC_Q(text) oc_quote((char[OC_QUOTE_SIZE]){0}, OC_QUOTE_SIZE, (text))

#include <getopt.h>
#include <stddef.h>

/* One option of a command. Two entries with the same id are one option spelled two ways
 * (--size and --sizes, --utilisation and --utilization): their prefixes are not ambiguous. */
typedef struct arg_option {
    const char *letter; /* "-n", or NULL: no short form */
    const char *name;   /* "--nodes", or NULL: no long form */
    int takes_value;    /* 1: the option has a value (-n 16); 0: a flag (--json) */
    int id;             /* the command's number for it, >= 0 */
} arg_option;

enum { ARG_MAX_OPTIONS = 48 };

typedef enum arg_kind {
    ARG_OPTION,    /* an option: id, spelling and value (NULL for a flag) */
    ARG_OPERAND,   /* a word that is not an option (or any word after "--"): value */
    ARG_END,       /* nothing left */
    ARG_UNKNOWN,   /* spelling: the unknown option as written ("--frob=3", "-x") */
    ARG_AMBIGUOUS, /* spelling: the prefix as written; value: what it could be ("--net, --nodes") */
    ARG_NEEDS_VALUE, /* id and spelling of an option that takes a value and got none */
    ARG_NO_VALUE,    /* id and spelling of a flag given a value (--json=1); value: that value */
} arg_kind;

/* What arg_next found. spelling is the option's own ("--nodes" for --nod=16 too; "-n" for
 * -n16) except for ARG_UNKNOWN and ARG_AMBIGUOUS, where it is the user's text. The strings live
 * in argv, in the option list or in the reader, until the next arg_next. */
typedef struct arg_word {
    arg_kind kind;
    int id;
    const char *spelling;
    const char *value;
} arg_word;

/* The reader: argv[0] is the command's name (getopt starts at argv[1]). */
typedef struct arg_reader {
    int argc;
    char **argv;
    const arg_option *opts;
    size_t n;
    char shorts[3 + 3 * ARG_MAX_OPTIONS];
    struct option longs[ARG_MAX_OPTIONS + 1];
    int rest;       /* after "--": the index of the next operand (0 before) */
    char text[512]; /* an unknown short option's spelling, or an ambiguous prefix's candidates */
} arg_reader;

/* Starts reading argv[1 .. argc) with the n options of opts (which must outlive the reader). */
void arg_init(arg_reader *p, int argc, char **argv, const arg_option *opts, size_t n);
/* The next option or operand into *a; returns a->kind (ARG_END at the end, and from then on). */
arg_kind arg_next(arg_reader *p, arg_word *a);

#endif
