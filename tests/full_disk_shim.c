/*
 * full_disk_shim.c — a full disk for one directory, injected with LD_PRELOAD where no small
 * tmpfs can be mounted (issue 27, item 5: the fault suite's full disk is "a small tmpfs where
 * root, else an injected write error through an LD_PRELOAD shim"; tests/cli/full_disk.sh).
 *
 * Every file the program creates or opens for writing under OC_FULL_DISK_DIR (an absolute
 * directory) has /dev/full put under its descriptor with dup2 right after the real open, so that
 * every write to it fails with ENOSPC, as on a disk with no block left: the name exists (a full
 * disk still has inodes; mkstemp succeeds there too) and holds nothing. It must sit under the
 * descriptor, not under write(): stdio writes through glibc's internal write, which no preloaded
 * library can interpose, while the calls that make a descriptor (open, mkstemp, fopen, ...) are
 * the program's own and go through its PLT. The same library is preloaded into the children
 * (gnuplot opens its output with fopen, cairo and libgd through it), so a plot is hit as well.
 *
 * Simplifications: the disk is full from its first byte (a tmpfs fills part way); a descriptor's
 * fstat shows /dev/full, not the file (the tool's check that its temporary was not swapped comes
 * after the write error it is tested on, so it is not reached); paths are compared as strings
 * (made absolute with the working directory, not resolved through links). Only what the tool and
 * gnuplot call is covered: open/openat/creat (and their 64 names), mkstemp and its variants,
 * fopen/fopen64 and freopen. It is a test's tool, built without the sanitizers (it is preloaded
 * into gnuplot, which has none).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether `path` (relative to the working directory, or absolute) lies under OC_FULL_DISK_DIR. */
static int under_full_dir(const char *path) {
    const char *dir = getenv("OC_FULL_DISK_DIR");
    if (!path || !dir || dir[0] != '/') return 0;
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    char abs[4096];
    if (path[0] == '/') {
        if (strlen(path) >= sizeof abs) return 0;
        strcpy(abs, path);
    } else {
        if (!getcwd(abs, sizeof abs)) return 0;
        size_t al = strlen(abs);
        if (al + 1 + strlen(path) >= sizeof abs) return 0;
        abs[al] = '/';
        strcpy(abs + al + 1, path);
    }
    return strncmp(abs, dir, dl) == 0 && abs[dl] == '/';
}

/* Puts /dev/full under `fd` (keeping its close-on-exec flag); 0, or -1 with errno set. */
static int put_full_under(int fd) {
    int flags = fcntl(fd, F_GETFD);
    int (*real_open)(const char *, int, ...) =
        (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    int full = real_open ? real_open("/dev/full", O_WRONLY | O_CLOEXEC) : -1;
    int rc = flags < 0 || full < 0 || dup2(full, fd) < 0 || fcntl(fd, F_SETFD, flags) < 0 ? -1 : 0;
    int err = errno;
    if (full >= 0) close(full);
    errno = err;
    return rc;
}

/* `fd` with /dev/full under it, or -1 with errno set and fd closed: a write that cannot be made
 * to fail must not quietly succeed. */
static int fill(int fd) {
    if (fd < 0 || put_full_under(fd) == 0) return fd;
    int err = errno;
    close(fd);
    errno = err;
    return -1;
}

static int writes(int flags) {
    return (flags & O_ACCMODE) != O_RDONLY;
}

static int writes_mode(const char *mode) {
    return mode && strpbrk(mode, "wa+") != NULL;
}

static void *real(const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) abort(); /* a test's shim: a libc without the call is no place to run it */
    return f;
}

/* open's mode argument is there only with O_CREAT or O_TMPFILE. */
#define MODE_ARG(flags, mode)                                                                      \
    do {                                                                                           \
        if ((flags) & (O_CREAT | O_TMPFILE)) {                                                     \
            va_list ap;                                                                            \
            va_start(ap, flags);                                                                   \
            mode = (mode_t)va_arg(ap, int);                                                        \
            va_end(ap);                                                                            \
        }                                                                                          \
    } while (0)

#define OPEN_LIKE(name)                                                                            \
    int name(const char *path, int flags, ...) {                                                   \
        mode_t mode = 0;                                                                           \
        MODE_ARG(flags, mode);                                                                     \
        int (*f)(const char *, int, ...) = (int (*)(const char *, int, ...))real(#name);           \
        int fd = f(path, flags, mode);                                                             \
        return writes(flags) && under_full_dir(path) ? fill(fd) : fd;                              \
    }
OPEN_LIKE(open)
OPEN_LIKE(open64)

/* openat with a directory descriptor other than AT_FDCWD and a relative path is not resolved
 * (neither the tool nor gnuplot makes one). */
#define OPENAT_LIKE(name)                                                                          \
    int name(int dirfd, const char *path, int flags, ...) {                                        \
        mode_t mode = 0;                                                                           \
        MODE_ARG(flags, mode);                                                                     \
        int (*f)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))real(#name); \
        int fd = f(dirfd, path, flags, mode);                                                      \
        int ours = (dirfd == AT_FDCWD || path[0] == '/') && under_full_dir(path);                  \
        return writes(flags) && ours ? fill(fd) : fd;                                              \
    }
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

#define CREAT_LIKE(name)                                                                           \
    int name(const char *path, mode_t mode) {                                                      \
        int (*f)(const char *, mode_t) = (int (*)(const char *, mode_t))real(#name);               \
        int fd = f(path, mode);                                                                    \
        return under_full_dir(path) ? fill(fd) : fd;                                               \
    }
CREAT_LIKE(creat)
CREAT_LIKE(creat64)

/* mkstemp and its variants fill in `tmpl`: it names the file once they return. */
int mkstemp(char *tmpl) {
    int (*f)(char *) = (int (*)(char *))real("mkstemp");
    int fd = f(tmpl);
    return fd >= 0 && under_full_dir(tmpl) ? fill(fd) : fd;
}

int mkstemp64(char *tmpl) {
    int (*f)(char *) = (int (*)(char *))real("mkstemp64");
    int fd = f(tmpl);
    return fd >= 0 && under_full_dir(tmpl) ? fill(fd) : fd;
}

int mkostemp(char *tmpl, int flags) {
    int (*f)(char *, int) = (int (*)(char *, int))real("mkostemp");
    int fd = f(tmpl, flags);
    return fd >= 0 && under_full_dir(tmpl) ? fill(fd) : fd;
}

int mkstemps(char *tmpl, int suffixlen) {
    int (*f)(char *, int) = (int (*)(char *, int))real("mkstemps");
    int fd = f(tmpl, suffixlen);
    return fd >= 0 && under_full_dir(tmpl) ? fill(fd) : fd;
}

int mkostemps(char *tmpl, int suffixlen, int flags) {
    int (*f)(char *, int, int) = (int (*)(char *, int, int))real("mkostemps");
    int fd = f(tmpl, suffixlen, flags);
    return fd >= 0 && under_full_dir(tmpl) ? fill(fd) : fd;
}

/* A stream's descriptor is filled under it: the FILE keeps its buffer and mode. */
static FILE *fill_stream(FILE *s) {
    if (s && put_full_under(fileno(s)) < 0) {
        int err = errno;
        fclose(s);
        errno = err;
        return NULL;
    }
    return s;
}

FILE *fopen(const char *path, const char *mode) {
    FILE *(*f)(const char *, const char *) = (FILE * (*)(const char *, const char *)) real("fopen");
    FILE *s = f(path, mode);
    return writes_mode(mode) && under_full_dir(path) ? fill_stream(s) : s;
}

FILE *fopen64(const char *path, const char *mode) {
    FILE *(*f)(const char *, const char *) =
        (FILE * (*)(const char *, const char *)) real("fopen64");
    FILE *s = f(path, mode);
    return writes_mode(mode) && under_full_dir(path) ? fill_stream(s) : s;
}

FILE *freopen(const char *path, const char *mode, FILE *stream) {
    FILE *(*f)(const char *, const char *, FILE *) =
        (FILE * (*)(const char *, const char *, FILE *)) real("freopen");
    FILE *s = f(path, mode, stream);
    return writes_mode(mode) && under_full_dir(path) ? fill_stream(s) : s;
}
