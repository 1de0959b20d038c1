// An LD_PRELOAD shim that makes file system calls on one folder fail, for the fault harness
// (scripts/fault-sweep.sh). Only calls on paths under FAULT_DIR, or on descriptors opened there,
// are counted and may fail, so the program's own start-up (libraries, locale data, standard
// input) is never touched.
//
//   FAULT_DIR=/path      the folder whose files may fail (required; nothing is counted without it)
//   FAULT_AT=k           fail the k-th counted call (1-based); 0 or unset: none
//   FAULT_FROM=k         fail the k-th counted call and every one after it: the store's disk
//                        went away in the middle of the command (its recovery fails too)
//   FAULT_PROBABILITY=p  fail each counted call with probability p (with FAULT_SEED)
//   FAULT_LOG=/file      append "n call path" for every counted call (to size a sweep), with
//                        " (failed)" after each call made to fail
//   FAULT_KILL_AT=k      instead of failing it, kill the process with SIGKILL at the k-th counted
//                        call, before the call runs (a crash at a chosen point)
//   FAULT_BAD_FILE=/path and FAULT_BAD_OFFSET=n
//                        a bad sector: every read or pread of that file that covers byte n fails
//                        with EIO, on every try, as on a disk going bad (such reads are not
//                        counted)
//   FAULT_STDIN_AT=k     fail the k-th read of standard input with EIO (for the reader of
//                        --password-stdin; standard input is never faulted otherwise)
//   FAULT_RECORD=/file   append every change the program makes to files under FAULT_DIR (writes
//                        with their bytes and offsets, truncations, creations, renames, links,
//                        unlinks, folders) and every fsync, for scripts/faults/power_cut.py to
//                        rebuild what a power cut could leave
//
// A failing call returns -1 with ENOSPC for calls that write or sync and EIO otherwise; a
// failing read or write may instead come back short (half the bytes), as a real one can.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FDS 65536
static char tracked[MAX_FDS];
static char folder[PATH_MAX];
static size_t folder_length;
static long fail_at;
static long fail_from;
static long kill_at;
static long stdin_fail_at;
static long stdin_reads;
static double probability;
static unsigned long long rng_state;
static long counter;
static int log_fd = -1;
static int record_fd = -1;
static char *paths[MAX_FDS];
/// Descriptors opened with O_SYNC or O_DSYNC: each write is on the disk when it returns (LMDB
/// writes its meta page so).
static char synchronous[MAX_FDS];
static char bad_file[PATH_MAX];
static long long bad_offset = -1;
static int ready;

static void setup(void) {
    if (ready) return;
    ready = 1;
    const char *dir = getenv("FAULT_DIR");
    if (dir && *dir) {
        strncpy(folder, dir, sizeof folder - 1);
        folder_length = strlen(folder);
    }
    const char *at = getenv("FAULT_AT");
    fail_at = at ? atol(at) : 0;
    const char *from = getenv("FAULT_FROM");
    fail_from = from ? atol(from) : 0;
    const char *kill_point = getenv("FAULT_KILL_AT");
    kill_at = kill_point ? atol(kill_point) : 0;
    const char *stdin_point = getenv("FAULT_STDIN_AT");
    stdin_fail_at = stdin_point ? atol(stdin_point) : 0;
    const char *bad = getenv("FAULT_BAD_FILE");
    const char *bad_at = getenv("FAULT_BAD_OFFSET");
    if (bad && *bad && bad_at && *bad_at) {
        strncpy(bad_file, bad, sizeof bad_file - 1);
        bad_offset = atoll(bad_at);
    }
    const char *p = getenv("FAULT_PROBABILITY");
    probability = p ? atof(p) : 0;
    const char *seed = getenv("FAULT_SEED");
    rng_state = seed ? strtoull(seed, NULL, 10) : 1;
    const char *record = getenv("FAULT_RECORD");
    if (record && *record) {
        static int (*real_open_record)(const char *, int, ...);
        if (!real_open_record) real_open_record = dlsym(RTLD_NEXT, "open");
        record_fd = real_open_record(record, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    }
    const char *log = getenv("FAULT_LOG");
    if (log && *log) {
        static int (*real_open)(const char *, int, ...);
        if (!real_open) real_open = dlsym(RTLD_NEXT, "open");
        log_fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    }
}

static int under_folder(const char *path) {
    setup();
    if (!folder_length || !path) return 0;
    char resolved[PATH_MAX];
    const char *full = path;
    if (path[0] != '/') {
        if (!getcwd(resolved, sizeof resolved)) return 0;
        size_t used = strlen(resolved);
        snprintf(resolved + used, sizeof resolved - used, "/%s", path);
        full = resolved;
    }
    return strncmp(full, folder, folder_length) == 0 && (full[folder_length] == '/' || full[folder_length] == 0);
}

static int fd_tracked(int fd) {
    setup();
    return fd >= 0 && fd < MAX_FDS && tracked[fd];
}

static double next_random(void) {
    // splitmix64
    unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) / (double)(1ULL << 53);
}

/// Counts one call and says whether it must fail.
static int should_fail(const char *call, const char *path, int fd) {
    long n = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
    int fail = (fail_at > 0 && n == fail_at) || (fail_from > 0 && n >= fail_from) ||
               (probability > 0 && next_random() < probability);
    if (log_fd >= 0) {
        // A failing call is marked, so a random run that went wrong shows which calls failed.
        char line[PATH_MAX + 64];
        const char *mark = fail ? " (failed)" : "";
        int length = path ? snprintf(line, sizeof line, "%ld %s %s%s\n", n, call, path, mark)
                          : snprintf(line, sizeof line, "%ld %s fd %d%s\n", n, call, fd, mark);
        if (length > 0) (void)!write(log_fd, line, (size_t)length);
    }
    if (kill_at > 0 && n == kill_at) raise(SIGKILL);
    return fail;
}

/// Whether a failing read or write may come back short instead: every other one, but never once
/// the disk has gone (FAULT_FROM), when nothing more reaches it.
static int may_come_back_short(void) {
    return counter % 2 == 0 && !(fail_from > 0 && counter > fail_from);
}

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

static void track(int fd, int on) {
    if (fd >= 0 && fd < MAX_FDS) tracked[fd] = (char)on;
}

static void remember_path(int fd, const char *path) {
    if (fd < 0 || fd >= MAX_FDS) return;
    free(paths[fd]);
    paths[fd] = NULL;
    if (!path) return;
    char resolved[PATH_MAX];
    if (path[0] != '/' && getcwd(resolved, sizeof resolved)) {
        size_t used = strlen(resolved);
        snprintf(resolved + used, sizeof resolved - used, "/%s", path);
        paths[fd] = strdup(resolved);
    } else {
        paths[fd] = strdup(path);
    }
}

/// One record: a line "op arg1 [arg2]" (paths hex-free: they hold no spaces here), then for
/// writes a line with the byte count and the bytes themselves.
static void record_line(const char *format, ...) {
    if (record_fd < 0) return;
    char line[3 * PATH_MAX];
    va_list ap;
    va_start(ap, format);
    int length = vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    if (length > 0) (void)!write(record_fd, line, (size_t)length);
}

static void record_write(int fd, const void *buffer, ssize_t written, off_t offset) {
    if (record_fd < 0 || written <= 0 || !fd_tracked(fd) || !paths[fd]) return;
    record_line("%s %s %lld %zd\n", synchronous[fd] ? "dwrite" : "write", paths[fd], (long long)offset, written);
    (void)!write(record_fd, buffer, (size_t)written);
    (void)!write(record_fd, "\n", 1);
}


int open(const char *path, int flags, ...) {
    REAL(open);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    int mine = under_folder(path);
    if (mine && should_fail("open", path, -1)) { errno = (flags & O_CREAT) ? ENOSPC : EIO; return -1; }
    int fd = real_open(path, flags, mode);
    if (mine && fd >= 0) {
        track(fd, 1);
        remember_path(fd, path);
        synchronous[fd] = (flags & (O_SYNC | O_DSYNC)) != 0;
        if (flags & O_CREAT) record_line("create %s\n", paths[fd]);
        if (flags & O_TRUNC) record_line("truncate %s 0\n", paths[fd]);
    }
    return fd;
}

int open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    return open(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    REAL(openat);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    int mine = path[0] == '/' ? under_folder(path) : fd_tracked(dirfd);
    if (mine && should_fail("openat", path, -1)) { errno = (flags & O_CREAT) ? ENOSPC : EIO; return -1; }
    int fd = real_openat(dirfd, path, flags, mode);
    if (mine && fd >= 0) {
        track(fd, 1);
        remember_path(fd, path[0] == '/' ? path : NULL);
        synchronous[fd] = (flags & (O_SYNC | O_DSYNC)) != 0;
        if (paths[fd] && (flags & O_CREAT)) record_line("create %s\n", paths[fd]);
        if (paths[fd] && (flags & O_TRUNC)) record_line("truncate %s 0\n", paths[fd]);
    }
    return fd;
}

int openat64(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); }
    return openat(dirfd, path, flags, mode);
}

int close(int fd) {
    REAL(close);
    track(fd, 0);
    remember_path(fd, NULL);
    return real_close(fd);
}


/// Whether a read of `count` bytes at `offset` of `fd` covers the bad sector.
static int on_bad_sector(int fd, size_t count, off_t offset) {
    return bad_offset >= 0 && fd >= 0 && fd < MAX_FDS && paths[fd] && strcmp(paths[fd], bad_file) == 0 &&
           offset <= bad_offset && bad_offset < offset + (off_t)count;
}

ssize_t read(int fd, void *buffer, size_t count) {
    REAL(read);
    if (fd == 0) {
        setup();
        if (stdin_fail_at > 0 && __atomic_add_fetch(&stdin_reads, 1, __ATOMIC_SEQ_CST) == stdin_fail_at) {
            errno = EIO;
            return -1;
        }
    }
    // The position is asked for only when a bad sector is set: most runs have none.
    if (bad_offset >= 0 && fd_tracked(fd) && on_bad_sector(fd, count, lseek(fd, 0, SEEK_CUR))) {
        errno = EIO;
        return -1;
    }
    if (fd_tracked(fd) && should_fail("read", NULL, fd)) {
        if (count > 1 && may_come_back_short()) return real_read(fd, buffer, count / 2);
        errno = EIO;
        return -1;
    }
    return real_read(fd, buffer, count);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset) {
    REAL(pread);
    if (fd_tracked(fd) && on_bad_sector(fd, count, offset)) {
        errno = EIO;
        return -1;
    }
    if (fd_tracked(fd) && should_fail("pread", NULL, fd)) {
        if (count > 1 && may_come_back_short()) return real_pread(fd, buffer, count / 2, offset);
        errno = EIO;
        return -1;
    }
    return real_pread(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off_t offset) { return pread(fd, buffer, count, offset); }

static off_t current_offset(int fd) {
    if (fcntl(fd, F_GETFL) & O_APPEND) {
        struct stat info;
        return fstat(fd, &info) == 0 ? info.st_size : 0;
    }
    return lseek(fd, 0, SEEK_CUR);
}

ssize_t write(int fd, const void *buffer, size_t count) {
    REAL(write);
    if (fd_tracked(fd) && should_fail("write", NULL, fd)) {
        if (count > 1 && may_come_back_short()) count /= 2;
        else {
            errno = ENOSPC;
            return -1;
        }
    }
    off_t offset = record_fd >= 0 && fd_tracked(fd) ? current_offset(fd) : 0;
    ssize_t written = real_write(fd, buffer, count);
    record_write(fd, buffer, written, offset);
    return written;
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    REAL(pwrite);
    if (fd_tracked(fd) && should_fail("pwrite", NULL, fd)) {
        if (count > 1 && may_come_back_short()) count /= 2;
        else {
            errno = ENOSPC;
            return -1;
        }
    }
    ssize_t written = real_pwrite(fd, buffer, count, offset);
    record_write(fd, buffer, written, offset);
    return written;
}

/// writev and pwritev (LMDB flushes pages with them): one write per buffer, recorded alike.
static ssize_t vector_write(int fd, const struct iovec *vector, int count, off_t offset, int positioned) {
    REAL(pwrite);
    REAL(write);
    if (fd_tracked(fd) && should_fail("writev", NULL, fd)) {
        errno = ENOSPC;
        return -1;
    }
    off_t at = positioned ? offset : current_offset(fd);
    ssize_t total = 0;
    for (int i = 0; i < count; i++) {
        ssize_t written = positioned ? real_pwrite(fd, vector[i].iov_base, vector[i].iov_len, at)
                                     : real_write(fd, vector[i].iov_base, vector[i].iov_len);
        if (written < 0) return total > 0 ? total : -1;
        record_write(fd, vector[i].iov_base, written, at);
        total += written;
        at += written;
        if ((size_t)written < vector[i].iov_len) break;
    }
    return total;
}

ssize_t writev(int fd, const struct iovec *vector, int count) { return vector_write(fd, vector, count, 0, 0); }
ssize_t pwritev(int fd, const struct iovec *vector, int count, off_t offset) {
    return vector_write(fd, vector, count, offset, 1);
}
ssize_t pwritev64(int fd, const struct iovec *vector, int count, off_t offset) {
    return vector_write(fd, vector, count, offset, 1);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) { return pwrite(fd, buffer, count, offset); }

#define FD_CALL(name, error, signature, ...)                                   \
    int name signature {                                                       \
        REAL(name);                                                            \
        if (fd_tracked(fd) && should_fail(#name, NULL, fd)) {                  \
            errno = error;                                                     \
            return -1;                                                         \
        }                                                                      \
        return real_##name(__VA_ARGS__);                                       \
    }

static int sync_call(int fd, int (*real)(int), const char *name) {
    if (fd_tracked(fd) && should_fail(name, NULL, fd)) {
        errno = EIO;
        return -1;
    }
    int result = real(fd);
    if (result == 0 && fd_tracked(fd) && paths[fd]) record_line("sync %s\n", paths[fd]);
    return result;
}

int fsync(int fd) {
    REAL(fsync);
    return sync_call(fd, real_fsync, "fsync");
}

int fdatasync(int fd) {
    REAL(fdatasync);
    return sync_call(fd, real_fdatasync, "fdatasync");
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate);
    if (fd_tracked(fd) && should_fail("ftruncate", NULL, fd)) {
        errno = ENOSPC;
        return -1;
    }
    int result = real_ftruncate(fd, length);
    if (result == 0 && fd_tracked(fd) && paths[fd]) record_line("truncate %s %lld\n", paths[fd], (long long)length);
    return result;
}
FD_CALL(flock, ENOLCK, (int fd, int operation), fd, operation)

int rename(const char *from, const char *to) {
    REAL(rename);
    int mine = under_folder(from);
    if (mine && should_fail("rename", from, -1)) {
        errno = EIO;
        return -1;
    }
    int result = real_rename(from, to);
    if (result == 0 && mine) record_line("rename %s %s\n", from, to);
    return result;
}

int link(const char *from, const char *to) {
    REAL(link);
    int mine = under_folder(from);
    if (mine && should_fail("link", from, -1)) {
        errno = ENOSPC;
        return -1;
    }
    int result = real_link(from, to);
    if (result == 0 && mine) record_line("link %s %s\n", from, to);
    return result;
}

int unlink(const char *path) {
    REAL(unlink);
    int mine = under_folder(path);
    if (mine && should_fail("unlink", path, -1)) {
        errno = EIO;
        return -1;
    }
    int result = real_unlink(path);
    if (result == 0 && mine) record_line("unlink %s\n", path);
    return result;
}

int mkdir(const char *path, mode_t mode) {
    REAL(mkdir);
    int mine = under_folder(path);
    if (mine && should_fail("mkdir", path, -1)) {
        errno = ENOSPC;
        return -1;
    }
    int result = real_mkdir(path, mode);
    if (result == 0 && mine) record_line("mkdir %s\n", path);
    return result;
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    REAL(mmap);
    if (fd_tracked(fd) && should_fail("mmap", NULL, fd)) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    return real_mmap(address, length, protection, flags, fd, offset);
}

void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    return mmap(address, length, protection, flags, fd, offset);
}
