/*
 * args.c — the option reader of the tools on glibc's getopt_long (args.h).
 *
 * getopt_long reports each option by a number: a short option by its letter, a long one by the
 * `val` of its struct option, here 256 + the option's id, so that the two never collide and the
 * spellings of one option (same id, same val) do not make a prefix ambiguous. The option string
 * starts with "-" (operands come back in order, as option 1, and argv is left as it is) and ":"
 * (a missing value is ':', not '?'). When getopt_long refuses a word it says little (optopt and
 * optind); the rest, which option it was and what an ambiguous prefix could be, is worked out
 * here from the word itself, so that the command can name it.
 */
#include "args.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

enum { LONG_VAL = 256 };

void arg_init(arg_reader *p, int argc, char **argv, const arg_option *opts, size_t n) {
    assert(n <= ARG_MAX_OPTIONS);
    memset(p, 0, sizeof *p);
    p->argc = argc;
    p->argv = argv;
    p->opts = opts;
    p->n = n;
    char *s = p->shorts;
    *s++ = '-'; /* operands in order, as option 1 */
    *s++ = ':'; /* a missing value is ':' */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        assert(opts[i].id >= 0 && (opts[i].letter || opts[i].name));
        if (opts[i].letter) {
            *s++ = opts[i].letter[1];
            if (opts[i].takes_value) *s++ = ':';
        }
        if (opts[i].name)
            p->longs[k++] = (struct option){opts[i].name + 2,
                                            opts[i].takes_value ? required_argument : no_argument,
                                            NULL, LONG_VAL + opts[i].id};
    }
    *s = 0;
    p->longs[k] = (struct option){0};
    opterr = 0; /* the command prints its own line */
    optind = 0; /* glibc: start afresh, whatever an earlier parse left behind */
}

/* The long options that `word` ("--nod", "--nodes=16") can name: with want >= 0, the one of
 * that id it names (the exact name first, then the first it begins); with want < 0, NULL, after
 * writing the candidates of distinct ids into p->text and their number into *count. */
static const arg_option *long_named(arg_reader *p, const char *word, int want, size_t *count) {
    const char *name = word + 2;
    size_t len = strcspn(name, "=");
    const arg_option *first = NULL;
    size_t at = 0, ids = 0;
    p->text[0] = 0;
    for (size_t i = 0; i < p->n && len; i++) { /* "--=x" names nothing */
        const arg_option *o = &p->opts[i];
        if (!o->name || strncmp(o->name + 2, name, len)) continue;
        if (want >= 0) {
            if (o->id != want) continue;
            if (o->name[2 + len] == 0) return o; /* exact */
            if (!first) first = o;
            continue;
        }
        int seen = 0; /* a second spelling of an option already listed */
        for (size_t j = 0; j < i; j++)
            seen |= p->opts[j].id == o->id && p->opts[j].name &&
                    !strncmp(p->opts[j].name + 2, name, len);
        if (seen) continue;
        ids++;
        if (at < sizeof p->text)
            at += (size_t)snprintf(p->text + at, sizeof p->text - at, "%s%s", ids > 1 ? ", " : "",
                                   o->name);
    }
    if (count) *count = ids;
    return first;
}

static const arg_option *with_letter(const arg_reader *p, int c) {
    for (size_t i = 0; i < p->n; i++)
        if (p->opts[i].letter && p->opts[i].letter[1] == c) return &p->opts[i];
    return NULL;
}

/* The option getopt_long reported as `code`: a letter, or LONG_VAL + id, named by longs[li] when
 * it was accepted and by the word argv[optind - 1] when it was refused (li < 0). */
static const arg_option *reported(arg_reader *p, int code, int li) {
    if (code < LONG_VAL) return with_letter(p, code);
    for (size_t i = 0; li >= 0 && i < p->n; i++)
        if (p->opts[i].name && p->opts[i].name + 2 == p->longs[li].name) return &p->opts[i];
    const arg_option *o = long_named(p, p->argv[optind - 1], code - LONG_VAL, NULL);
    for (size_t i = 0; !o && i < p->n; i++) /* not reached: the word named it */
        if (p->opts[i].id == code - LONG_VAL && p->opts[i].name) o = &p->opts[i];
    return o;
}

arg_kind arg_next(arg_reader *p, arg_word *a) {
    memset(a, 0, sizeof *a);
    a->id = -1;
    if (p->rest) { /* after "--" */
        if (p->rest >= p->argc) return a->kind = ARG_END;
        a->value = p->argv[p->rest++];
        return a->kind = ARG_OPERAND;
    }
    int li = -1;
    optopt = 0;
    int c = getopt_long(p->argc, p->argv, p->shorts, p->longs, &li);
    if (c == -1) {
        /* the end, or "--": then optind is the first word after it */
        p->rest = optind > 0 ? optind : p->argc;
        return arg_next(p, a);
    }
    if (c == 1) {
        a->value = optarg;
        return a->kind = ARG_OPERAND;
    }
    if (c == '?' && optopt != 0 && optopt < LONG_VAL) { /* an unknown letter, maybe in a group
                                                          (a byte over 127 is negative) */
        snprintf(p->text, sizeof p->text, "-%c", optopt);
        a->spelling = p->text;
        return a->kind = ARG_UNKNOWN;
    }
    if (c == '?' && optopt == 0) { /* an unknown or ambiguous long option */
        const char *word = p->argv[optind - 1];
        size_t count = 0;
        long_named(p, word, -1, &count);
        a->spelling = word;
        if (count < 2) return a->kind = ARG_UNKNOWN;
        a->value = p->text;
        return a->kind = ARG_AMBIGUOUS;
    }
    /* an option: accepted, or refused for its value (':' none given, '?' one given to a flag) */
    int code = c == ':' || c == '?' ? optopt : c;
    const arg_option *o = reported(p, code, li);
    assert(o);
    a->id = o->id;
    a->spelling = code >= LONG_VAL ? o->name : o->letter; /* the form used */
    if (c == ':') return a->kind = ARG_NEEDS_VALUE;
    if (c == '?') {
        const char *eq = strchr(p->argv[optind - 1], '=');
        a->value = eq ? eq + 1 : "";
        return a->kind = ARG_NO_VALUE;
    }
    a->value = optarg;
    return a->kind = ARG_OPTION;
}
