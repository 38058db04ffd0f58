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
 * Standard output gets the same care once, at the end of main (close_stdout, after coreutils'
 * close_stdout): printf and friends set the stream's error flag when a write fails, so checking
 * the flag and the final fclose catches every lost byte of every command in one place.
 */
#include "output.h"

#include "cli.h"

#include <errno.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char tmp_name[] = ".opticoll-XXXXXX";

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
    o->fd = mkstemp(o->tmp);
    struct stat st;
    if (o->fd < 0 || fstat(o->fd, &st)) {
        rc = die(EXIT_USAGE, "cannot write %s: %s", path, strerror(errno));
        if (o->fd < 0) { /* nothing was created, nothing to remove */
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
    free(o->tmp);
    free(o->dir);
    o->tmp = o->dir = NULL;
}

/* The mode the finished file gets: the replaced file's, or what the umask lets through. */
static mode_t final_mode(int old) {
    if (old >= 0) return (mode_t)old;
    mode_t mask = umask(022); /* reading the umask means setting it; put it back at once */
    umask(mask);
    return 0666 & ~mask;
}

int out_commit(out_file *o) {
    const char *why = NULL;
    int err = 0, mode = -1, rc = 0;
    struct stat st;
    if (o->f && (fflush(o->f) || ferror(o->f))) why = "write error", err = errno;
    if (!why && fsync(o->fd)) why = "fsync failed", err = errno;
    /* the target is checked again now, the last moment before the rename */
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
    if (rename(o->tmp, o->path)) {
        rc = die(EXIT_OTHER, "cannot write %s: %s", o->path, strerror(errno));
        goto fail;
    }
    free(o->tmp);
    o->tmp = NULL;
fail:
    out_discard(o);
    return rc;
}

int write_whole(const char *path, int (*fn)(FILE *f, void *ctx), void *ctx) {
    out_file o;
    int rc = out_open(&o, path);
    if (rc) return rc;
    int err = fn(o.f, ctx);
    if (err) {
        /* a render that failed on the stream is a write error, anything else the library's */
        rc = ferror(o.f) ? die(EXIT_OTHER, "cannot write %s: write error", path, NULL)
                         : lib_error(err, NULL);
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

int close_stdout(int rc) {
    /* A descriptor closed by the caller (>&-) is no error when nothing was written to it. */
    int pending = __fpending(stdout) != 0, failed = ferror(stdout), err = 0;
    if (fclose(stdout) && (failed || pending || errno != EBADF)) failed = 1, err = errno;
    if (!failed || rc) return rc;
    return die(EXIT_OTHER, "cannot write the output (standard output): %s",
               err ? strerror(err) : "write error", NULL);
}
