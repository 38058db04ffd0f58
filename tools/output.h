/*
 * output.h — every file the tool writes (`export -o`, `sweep --csv`, `tune -o`, the plots, every
 * file of `reproduce --out`), written whole or not at all, through a temporary of its own in the
 * target's directory that is renamed over the target (output.c); several files that belong
 * together (a Chakra trace's rank files, a sweep's plot and CSV, a reproduction's directory) as a
 * group, all or nothing; the temporaries removed when SIGINT, SIGTERM or SIGHUP ends the tool; and
 * the final check of standard output at the end of main.
 */
#ifndef OC_OUTPUT_H
#define OC_OUTPUT_H

#include <signal.h>
#include <spawn.h>
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
    ino_t ino;    /* the temporary as mkstemp made it */
    int mode;     /* out_finish: the mode the target gets */
    int finished; /* out_finish succeeded: written whole, closed, waiting for its rename */
    char *owned;  /* out_group: the copy of the target's path that `path` points to */
    struct out_file *live_prev, *live_next; /* the temporaries a signal removes (output.c) */
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
/* The first half of out_commit: flushes, fsyncs and closes the temporary (every error checked)
 * and checks the target; the temporary stays, whole, for out_commit or out_group_commit to
 * rename. 0, or an exit code after one line (the temporary is then removed). */
int out_finish(out_file *o);

/* Files that appear together or not at all. Each is written to its own temporary; only when
 * every one is whole (out_finish) and every target is still writable are they renamed, in the
 * order they were added (so the last added, an index, appears last). A failure or a signal
 * before that leaves every target as it was. */
typedef struct out_group {
    out_file **files;
    size_t n, cap;
} out_group;

/* A file of the group: as out_open (o->f to write) or out_reserve (another process writes).
 * `path` is copied. *out is the group's. 0 or an exit code after one line. */
int out_group_open(out_group *g, const char *path, out_file **out);
int out_group_reserve(out_group *g, const char *path, out_file **out);
/* out_group_open, fn renders into the stream, out_finish: the file waits, whole and closed (one
 * descriptor at a time, however many files). 0 or an exit code after one line. */
int out_group_write(out_group *g, const char *path, int (*fn)(FILE *f, void *ctx), void *ctx);
int out_group_write_bytes(out_group *g, const char *path, const void *data, size_t len);
/* Finishes what is not yet finished, checks every target again, renames every temporary over
 * its target; frees the group. 0 or an exit code after one line; on failure before the first
 * rename nothing has changed. */
int out_group_commit(out_group *g);
/* Removes every temporary of the group (targets untouched) and frees it. */
void out_group_discard(out_group *g);

/* The cleanup signals blocked (the old mask in *old) and restored: posix_spawn and
 * out_guard_child between them leave no moment at which the child runs unguarded. */
void out_block_signals(sigset_t *old);
void out_restore_signals(const sigset_t *old);
/* A child writing one of the temporaries (gnuplot drawing a plot): a signal ends it and waits
 * for it before the temporaries go, or it would create its file again after their removal.
 * 0: none. */
void out_guard_child(pid_t pid);
/* Runs prog (searched on PATH) with argv and the caller's file actions (made and destroyed by
 * the caller), guarded as above from the spawn until it has ended; the signal mask it starts with
 * is ours. Its exit status, or -1 when it could not be run or was killed. One way to run a child
 * for gnuplot's plots and SimGrid's runs. */
int out_spawn_wait(const char *prog, char *const argv[], const posix_spawn_file_actions_t *fa);

/* A directory the tool made for its output (reproduce --out DIR when DIR was new): removed, if
 * empty once the temporaries are gone, when a signal ends the tool. NULL: none. The string must
 * live until it is unset. */
void out_guard_dir(const char *dir);

/* 1 when `path` names standard output: "-" (as for most tools; a file of that name is "./-")
 * or /dev/stdout, /dev/fd/1, /proc/self/fd/1 (a symbolic link out_open would refuse). */
int out_is_stdout(const char *path);
/* The one way a command writes one output whole or not at all: fn renders into the stream (0,
 * or an OC_ error with its reason in why); path NULL is standard output, through a temporary
 * copied out only once fn succeeded, else out_open ... out_commit. A failed write is the
 * environment's (exit 3), another failure the library's (lib_error). 0 or the exit code after
 * one line. */
int out_render(const char *path, int (*fn)(FILE *f, void *ctx, char *why, size_t len), void *ctx);
/* fn renders into an unnamed temporary, which is then copied to standard output: nothing is
 * printed when the render fails. 0 or an exit code after one line. */
int write_stdout(int (*fn)(FILE *f, void *ctx), void *ctx);
/* out_open, fn renders into the stream (0 or a library error), out_commit; for a path naming
 * standard output (out_is_stdout), write_stdout. 0 or an exit code after one line. */
int write_whole(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx);
/* write_whole of `len` bytes. */
int write_bytes(const char *path, const void *data, size_t len);

/* The end of main: flushes and closes standard output and returns `rc`, or, when rc is 0 and
 * anything written there was lost (a full disk, /dev/full, a closed descriptor), exit code 3
 * after one line. */
int close_stdout(int rc);

#endif
