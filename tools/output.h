/*
 * output.h — every file the tool writes (`export -o`, `sweep --csv`, `tune -o`, the plots, every
 * file of `reproduce --out`), written whole or not at all, through a temporary of its own in the
 * target's directory that is renamed over the target (output.c); and the final check of standard
 * output at the end of main.
 */
#ifndef OC_OUTPUT_H
#define OC_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

/* One output file on its way: a temporary DIR/.opticoll-XXXXXX, renamed over `path` by
 * out_commit or removed by out_discard. */
typedef struct out_file {
    const char *path; /* the target, as given */
    char *dir;        /* its directory ("." for a bare name) */
    char *tmp;        /* the temporary (NULL once committed or discarded) */
    const char *base; /* the temporary's last component, inside tmp: only [.A-Za-z0-9-] */
    int fd;
    FILE *f; /* out_open: the stream to write; out_reserve: NULL */
    dev_t dev;
    ino_t ino; /* the temporary as mkstemp made it */
} out_file;

/* Creates the temporary and opens o->f on it. Refuses a target that exists and is not a regular
 * file (symlink, fifo, device, directory). 0, or an exit code after one line on stderr. */
int out_open(out_file *o, const char *path);
/* As out_open but without a stream: another process (gnuplot) writes o->base in o->dir. */
int out_reserve(out_file *o, const char *path);
/* Flushes, fsyncs and closes the temporary (every error checked), checks the target again and
 * renames the temporary over it. 0, or an exit code after one line; the temporary is gone
 * either way and the target is untouched on failure. */
int out_commit(out_file *o);
/* Closes and removes the temporary; the target is untouched. Safe after out_commit. */
void out_discard(out_file *o);

/* out_open, fn renders into the stream (0 or a library error), out_commit. 0 or an exit code
 * after one line. */
int write_whole(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx);
/* write_whole of `len` bytes. */
int write_bytes(const char *path, const void *data, size_t len);

/* The end of main: flushes and closes standard output and returns `rc`, or, when rc is 0 and
 * anything written there was lost (a full disk, /dev/full, a closed descriptor), exit code 3
 * after one line. */
int close_stdout(int rc);

#endif
