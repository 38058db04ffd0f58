/*
 * output.c — every file the tool writes, written whole or not at all (output.h).
 *
 * A result file must never be half there, and writing one must touch nothing but the name the
 * user gave. So the bytes go to a temporary that mkstemp creates in the target's own directory
 * (the final rename then stays on one file system and is atomic), always named
 * ".opticoll-XXXXXX" whatever the target is called: nothing is appended to the target's name, so
 * a name of 255 bytes still works, and the name handed to gnuplot is harmless. mkstemp opens with
 * O_CREAT | O_EXCL, which never follows a symlink planted at the name. The target is checked with
 * lstat before anything is written and again just before the rename: a target that exists and
 * is not a regular file (a symlink, a fifo, a device, a directory, a socket) is refused and left
 * as it was — a rename would replace the link or the fifo itself, which is not what the user
 * asked for either. The temporary is flushed, fsync'ed and closed with every error checked, and
 * removed on any failure, so that a failed write leaves what was there untouched.
 *
 * Permissions: mkstemp makes 0600; a new file gets what the umask gives (0644 usually), a
 * replaced file keeps its own mode, as if it had been written in place.
 *
 * Exit codes (README, "Exit codes"): a target that cannot be created where the user put it
 * (missing directory, no permission, not a regular file) is 2, like any bad argument; a write
 * that fails once the file is open (a full disk) is 3.
 *
 * Files that belong together (output.h's out_group: a Chakra trace's rank files, a sweep's plot
 * and CSV, a reproduction's directory) are each written whole into a temporary first; only when
 * all of them are whole are they renamed, one after the other, so that a full disk at rank 3 no
 * longer leaves ranks 0-2 new beside ranks 4-7 old — a mix a simulator would load. Each rename is
 * atomic; the group's renames are not one step, but nothing that can fail for lack of space or
 * for a bad target is left by then (targets are checked just before the first rename).
 *
 * Signals: SIGINT, SIGTERM and SIGHUP would end the tool with its temporaries left behind (a
 * 4096-node export left 384 MB of .opticoll-XXXXXX after 20 s). Every temporary is on a list
 * (live_head) from mkstemp to its rename or removal; the handler, installed with the first
 * temporary unless the signal is ignored (nohup), first ends a running gnuplot (SIGKILL and
 * waitpid: left running, it would create its output file again after the removal), unlinks each
 * temporary, removes the output directory the tool made if it is empty (kill, waitpid, unlink
 * and rmdir are all async-signal-safe), and re-raises the signal with its default action, so the
 * tool still dies of it (exit status 128 + signal in a shell). The list is changed with those signals blocked, so the handler never sees it half
 * linked; it is changed only by the main thread and never while the pool's workers run (the
 * outputs are opened before a long export and written after the points or papers are computed,
 * and no worker outlives its pool call, core/pool.c), so a signal delivered to a worker finds
 * it whole too. SIGKILL cannot be caught: after it, temporaries named .opticoll-XXXXXX may remain.
 *
 * Standard output gets the same care once, at the end of main (close_stdout, after coreutils'
 * close_stdout): printf and friends set the stream's error flag when a write fails, so checking
 * the flag and the final fclose catches every lost byte of every command in one place.
 */
#include "output.h"

#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ; /* the child runs in ours */

static const char tmp_name[] = ".opticoll-XXXXXX";

/* ---- the temporaries a signal removes ---- */

static out_file *volatile live_head;
static const char *volatile guard_dir;
static volatile pid_t guard_child;
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void on_signal(int sig) {
    if (guard_child > 0) { /* kill and waitpid are async-signal-safe too */
        kill(guard_child, SIGKILL);
        waitpid(guard_child, NULL, 0);
    }
    for (out_file *o = live_head; o; o = o->live_next)
        if (o->tmp) unlink(o->tmp);
    if (guard_dir) rmdir(guard_dir);
    raise(sig); /* SA_RESETHAND: the default action now, which ends the tool */
}

/* Blocks (or restores) the cleanup signals around a change of the list. */
static void block_signals(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++)
        sigaddset(&set, cleanup_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void install_handlers(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    for (size_t i = 0; i < sizeof cleanup_signals / sizeof cleanup_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(cleanup_signals[i], NULL, &old) || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(cleanup_signals[i], &sa, NULL);
    }
}

static void live_add(out_file *o) {
    sigset_t old;
    install_handlers();
    block_signals(&old);
    o->live_prev = NULL;
    o->live_next = live_head;
    if (live_head) live_head->live_prev = o;
    live_head = o;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void live_remove(out_file *o) {
    sigset_t old;
    block_signals(&old);
    if (o->live_prev)
        o->live_prev->live_next = o->live_next;
    else if (live_head == o)
        live_head = o->live_next;
    if (o->live_next) o->live_next->live_prev = o->live_prev;
    o->live_prev = o->live_next = NULL;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void out_block_signals(sigset_t *old) {
    install_handlers();
    block_signals(old);
}

void out_restore_signals(const sigset_t *old) {
    sigprocmask(SIG_SETMASK, old, NULL);
}

void out_guard_child(pid_t pid) {
    sigset_t old;
    block_signals(&old);
    guard_child = pid;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int out_spawn_wait(const char *prog, char *const argv[], const posix_spawn_file_actions_t *fa) {
    posix_spawnattr_t at;
    if (posix_spawnattr_init(&at)) return -1;
    pid_t pid;
    /* SIGINT, SIGTERM and SIGHUP are blocked from before the spawn until the child is on record
     * for the handler; the child itself starts with the mask we had */
    sigset_t old;
    out_block_signals(&old);
    int rc = posix_spawnattr_setsigmask(&at, &old);
    if (!rc) rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    if (!rc) rc = posix_spawnp(&pid, prog, fa, &at, argv, environ);
    if (!rc) out_guard_child(pid);
    out_restore_signals(&old);
    posix_spawnattr_destroy(&at);
    if (rc) return -1;
    int st, waited;
    while ((waited = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        continue;
    out_guard_child(0);
    if (waited < 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void out_guard_dir(const char *dir) {
    sigset_t old;
    if (dir) install_handlers();
    block_signals(&old);
    guard_dir = dir;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* What is at `path` when it is not a regular file, or NULL. */
static const char *not_regular(const struct stat *st) {
    if (S_ISREG(st->st_mode)) return NULL;
    if (S_ISLNK(st->st_mode)) return "a symbolic link";
    if (S_ISDIR(st->st_mode)) return "a directory";
    if (S_ISFIFO(st->st_mode)) return "a fifo";
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) return "a device";
    if (S_ISSOCK(st->st_mode)) return "a socket";
    return "not a regular file";
}

/* 0 when `path` does not exist or is a regular file (its mode in *mode, else -1 there); an exit
 * code after one line otherwise. */
static int check_target(const char *path, int *mode) {
    struct stat st;
    *mode = -1;
    if (lstat(path, &st)) {
        if (errno == ENOENT) return 0;
        return die(EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
    }
    const char *what = not_regular(&st);
    if (what)
        return die(EXIT_USAGE, "cannot write %s: it is %s (only a regular file is replaced)", path,
                   what);
    *mode = (int)(st.st_mode & 0777); /* never a set-id bit onto new content */
    return 0;
}

int out_reserve(out_file *o, const char *path) {
    memset(o, 0, sizeof *o);
    o->path = path;
    o->fd = -1;
    int mode;
    if (!*path) return die(EXIT_USAGE, "an empty file name", NULL, NULL);
    const char *slash = strrchr(path, '/');
    if (slash && !slash[1])
        return die(EXIT_USAGE, "cannot write %s: it names a directory", path, NULL);
    int rc = check_target(path, &mode);
    if (rc) return rc;
    size_t dl = slash ? (size_t)(slash - path) : 0;
    o->dir = slash ? strndup(path, dl ? dl : 1) : strdup("."); /* "/x": the root */
    o->tmp = malloc(strlen(o->dir) + sizeof tmp_name + 1);
    if (!o->dir || !o->tmp) {
        out_discard(o);
        return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    sprintf(o->tmp, "%s/%s", o->dir, tmp_name);
    o->base = o->tmp + strlen(o->dir) + 1;
    /* on the list before it exists: a signal between mkstemp and live_add would leave it */
    live_add(o);
    o->fd = mkstemp(o->tmp);
    struct stat st;
    if (o->fd < 0 || fstat(o->fd, &st)) {
        rc = die(EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
        if (o->fd < 0) { /* nothing was created, nothing to remove */
            live_remove(o);
            free(o->tmp);
            o->tmp = NULL;
        }
        out_discard(o);
        return rc;
    }
    o->dev = st.st_dev;
    o->ino = st.st_ino;
    return 0;
}

int out_open(out_file *o, const char *path) {
    int rc = out_reserve(o, path);
    if (rc) return rc;
    o->f = fdopen(o->fd, "w");
    if (!o->f) {
        rc = die(EXIT_OTHER, "cannot write %s: %s", path, strerror(errno));
        out_discard(o);
    }
    return rc;
}

void out_discard(out_file *o) {
    if (o->f)
        fclose(o->f); /* its error does not matter: the file goes */
    else if (o->fd >= 0)
        close(o->fd);
    o->f = NULL;
    o->fd = -1;
    if (o->tmp) unlink(o->tmp);
    live_remove(o);
    free(o->tmp);
    free(o->dir);
    free(o->owned);
    o->tmp = o->dir = o->owned = NULL;
}

/* The mode the finished file gets: the replaced file's, or what the umask lets through. */
static mode_t final_mode(int old) {
    if (old >= 0) return (mode_t)old;
    mode_t mask = umask(022); /* reading the umask means setting it; put it back at once */
    umask(mask);
    return 0666 & ~mask;
}

int out_finish(out_file *o) {
    const char *why = NULL;
    int err = 0, mode = -1, rc = 0;
    struct stat st;
    if (o->finished) return 0;
    if (o->f && (fflush(o->f) || ferror(o->f))) why = "write error", err = errno;
    if (!why && fsync(o->fd)) why = "fsync failed", err = errno;
    /* the target is checked now, and again just before the rename */
    if (!why && (rc = check_target(o->path, &mode))) goto fail;
    if (!why && fchmod(o->fd, final_mode(mode))) why = "cannot set its mode", err = errno;
    if (o->f) {
        if (fclose(o->f) && !why) why = "write error", err = errno;
    } else if (close(o->fd) && !why) {
        why = "write error", err = errno;
    }
    o->f = NULL;
    o->fd = -1;
    if (why) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s%s%s", why, err ? ": " : "", err ? strerror(err) : "");
        rc = die(EXIT_OTHER, "cannot write %s: %s", o->path, msg);
        goto fail;
    }
    /* the temporary must still be the file mkstemp made (nobody swapped it for a link) */
    if (lstat(o->tmp, &st) || st.st_dev != o->dev || st.st_ino != o->ino || !S_ISREG(st.st_mode)) {
        rc = die(EXIT_OTHER, "cannot write %s: its temporary %s was replaced", o->path, o->tmp);
        goto fail;
    }
    o->mode = mode;
    o->finished = 1;
    return 0;
fail:
    out_discard(o);
    return rc;
}

/* The last step of a finished file: the target checked once more, the rename. */
static int out_rename(out_file *o) {
    int mode, rc = check_target(o->path, &mode);
    if (!rc && rename(o->tmp, o->path))
        rc = die(EXIT_OTHER, "cannot write %s: %s", o->path, strerror(errno));
    if (rc) return rc;
    live_remove(o); /* renamed: no longer a temporary to remove */
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

int out_commit(out_file *o) {
    int rc = out_finish(o);
    if (!rc) rc = out_rename(o);
    out_discard(o);
    return rc;
}

/* ---- groups ---- */

/* Room for one more file in the group (doubling); 0 or OC_ENOMEM. */
static int group_grow(out_group *g) {
    if (g->n < g->cap) return 0;
    size_t cap = g->cap ? 2 * g->cap : 8;
    out_file **files = realloc(g->files, cap * sizeof *files);
    if (!files) return OC_ENOMEM;
    g->files = files;
    g->cap = cap;
    return 0;
}

static int group_add(out_group *g, const char *path, int stream, out_file **out) {
    out_file *o = calloc(1, sizeof *o);
    char *copy = strdup(path);
    if (!o || !copy || group_grow(g)) {
        free(o);
        free(copy);
        return die(EXIT_OTHER, "out of memory", NULL, NULL);
    }
    int rc = stream ? out_open(o, copy) : out_reserve(o, copy);
    if (rc) {
        free(o);
        free(copy);
        return rc;
    }
    o->owned = copy;
    g->files[g->n++] = o;
    *out = o;
    return 0;
}

int out_group_open(out_group *g, const char *path, out_file **out) {
    return group_add(g, path, 1, out);
}

int out_group_reserve(out_group *g, const char *path, out_file **out) {
    return group_add(g, path, 0, out);
}

/* The line of a render that failed on its stream: the write error with the system's reason
 * (`sys`, errno read as the render returned: a full disk's "No space left on device"), exit 3. */
static int stream_failed(const char *path, int sys) {
    char msg[160];
    snprintf(msg, sizeof msg, "write error%s%s", sys ? ": " : "", sys ? strerror(sys) : "");
    return die(EXIT_OTHER, "cannot write %s: %s", path, msg);
}

int out_group_write(out_group *g, const char *path, int (*fn)(FILE *f, void *ctx), void *ctx) {
    out_file *o = NULL;
    int rc = out_group_open(g, path, &o);
    if (rc) return rc;
    errno = 0;
    int err = fn(o->f, ctx);
    const int sys = errno;
    if (err) /* as write_whole: a failed stream is a write error, else the library's */
        return ferror(o->f) ? stream_failed(path, sys) : lib_error(err, NULL);
    return out_finish(o);
}

void out_group_discard(out_group *g) {
    for (size_t i = 0; i < g->n; i++) {
        out_discard(g->files[i]);
        free(g->files[i]);
    }
    free(g->files);
    memset(g, 0, sizeof *g);
}

int out_group_commit(out_group *g) {
    int rc = 0, mode;
    for (size_t i = 0; i < g->n && !rc; i++)
        rc = out_finish(g->files[i]);
    for (size_t i = 0; i < g->n && !rc; i++)
        rc = check_target(g->files[i]->path, &mode);
    for (size_t i = 0; i < g->n && !rc; i++)
        rc = out_rename(g->files[i]);
    out_group_discard(g);
    return rc;
}

int out_is_stdout(const char *path) {
    return path && (!strcmp(path, "-") || !strcmp(path, "/dev/stdout") ||
                    !strcmp(path, "/dev/fd/1") || !strcmp(path, "/proc/self/fd/1"));
}

int write_stdout(int (*fn)(FILE *f, void *ctx), void *ctx) {
    /* rendered into an unnamed temporary first: a render that fails prints nothing, and a
     * pipe's reader never sees half a document */
    FILE *tmp = tmpfile();
    if (!tmp) return die(EXIT_OTHER, "cannot create a temporary file: %s", strerror(errno), NULL);
    int err = fn(tmp, ctx), rc = 0;
    if (err || fflush(tmp)) {
        rc = err && !ferror(tmp)
                 ? lib_error(err, NULL)
                 : die(EXIT_OTHER, "cannot write a temporary file: write error", NULL, NULL);
        fclose(tmp);
        return rc;
    }
    rewind(tmp);
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, tmp)) > 0)
        fwrite(buf, 1, got, stdout); /* a failed write is caught by close_stdout */
    if (ferror(tmp)) rc = die(EXIT_OTHER, "cannot read a temporary file back", NULL, NULL);
    fclose(tmp);
    return rc;
}

int write_whole(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx) {
    if (out_is_stdout(path)) return write_stdout(fn, ctx);
    out_file o;
    int rc = out_open(&o, path);
    if (rc) return rc;
    errno = 0;
    int err = fn(o.f, ctx);
    const int sys = errno;
    if (err) {
        /* a render that failed on the stream is a write error, anything else the library's */
        rc = ferror(o.f) ? stream_failed(path, sys) : lib_error(err, NULL);
        out_discard(&o);
        return rc;
    }
    return out_commit(&o);
}

typedef struct bytes {
    const void *data;
    size_t len;
} bytes;

static int put_bytes(FILE *f, void *ctx) {
    const bytes *b = ctx;
    return b->len && fwrite(b->data, 1, b->len, f) != b->len ? OC_EIO : 0;
}

int write_bytes(const char *path, const void *data, size_t len) {
    bytes b = {data, len};
    return write_whole(path, put_bytes, &b);
}

int out_group_write_bytes(out_group *g, const char *path, const void *data, size_t len) {
    bytes b = {data, len};
    return out_group_write(g, path, put_bytes, &b);
}

int close_stdout(int rc) {
    /* A descriptor closed by the caller (>&-) is no error when nothing was written to it. */
    int pending = __fpending(stdout) != 0, failed = ferror(stdout), err = 0;
    if (fclose(stdout) && (failed || pending || errno != EBADF)) failed = 1, err = errno;
    if (!failed || rc) return rc;
    return die(EXIT_OTHER, "cannot write the output (standard output): %s",
               err ? strerror(err) : "write error", NULL);
}

int out_render(const char *path, int (*fn)(FILE *f, void *ctx, char *why, size_t len), void *ctx) {
    char why[512] = "";
    int rc;
    if (!path) {
        FILE *tmp = tmpfile();
        if (!tmp)
            return die(EXIT_OTHER, "cannot create a temporary file: %s", strerror(errno), NULL);
        int err = fn(tmp, ctx, why, sizeof why);
        if (err) {
            rc = ferror(tmp) ? die(EXIT_OTHER, "cannot write a temporary file: %s", why, NULL)
                             : lib_error(err, why);
            fclose(tmp);
            return rc;
        }
        rewind(tmp);
        char buf[1 << 16];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, tmp)) > 0)
            fwrite(buf, 1, got, stdout); /* a failed write is close_stdout's (exit 3) */
        fclose(tmp);
        return 0;
    }
    out_file out;
    if ((rc = out_open(&out, path))) return rc;
    int err = fn(out.f, ctx, why, sizeof why);
    if (err) {
        /* a failed write (a full disk) is the environment's, exit 3, though the library's OC_EIO
         * is otherwise an unreadable input file, exit 2 */
        rc = ferror(out.f) ? die(EXIT_OTHER, "cannot write %s: %s", path, why) : lib_error(err, why);
        out_discard(&out);
        return rc;
    }
    return out_commit(&out);
}
