// Why: libsodium maps Argon2id's working memory (19 MiB at the recommended parameters) with a
// fresh mmap for every hash and unmaps it afterwards, so each login or sign-up pays ~4,900 page
// faults, the kernel zeroing 19 MiB, and an munmap whose TLB shootdown interrupts every core
// running one of the process's threads. Measured on the 2-core machine this is built on
// (a C loop over crypto_pwhash, two threads): 99 hashes/s with a fresh mapping each time, 188/s
// with the mapping kept. libsodium's API cannot be given memory, so this file defines `mmap`
// and `munmap` in the executable (libsodium is linked in from its static archive, so its calls
// bind to these at link time; a libsodium.so would find them first too, through the dynamic
// linker) and, only while the calling thread has armed it around one hash, keeps that
// one mapping per thread for the next hash. Everything else (and every call on a thread that
// has not armed it) goes straight on to the next definition (an LD_PRELOAD shim such as the
// fault sweep's, then libc), unchanged.
//
// What reuse gives up: the memory is no longer zero-filled when handed out again (Argon2id
// writes every block before reading it, so the hash is the same), and the last hash's blocks
// stay in this process's memory until the next hash overwrites them (as the password itself
// stays until its buffers are reused). Each thread that ever hashed keeps one region mapped:
// the server hashes on a fixed set of threads, so that is bounded by hashing_concurrency.
#define _GNU_SOURCE
#include "argon2_memory.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef void *(*mmap_function)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_function)(void *, size_t);

static _Atomic(mmap_function) next_mmap;
static _Atomic(munmap_function) next_munmap;

static __thread int armed;
static __thread void *kept;
static __thread size_t kept_length;
static __thread int kept_in_use;

void accounts_argon2_memory_reuse(int arm) { armed = arm != 0; }

static void *forward_mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    mmap_function function = atomic_load_explicit(&next_mmap, memory_order_acquire);
    if (function == NULL) {
        function = (mmap_function)dlsym(RTLD_NEXT, "mmap");
        if (function == NULL) {
            return (void *)syscall(SYS_mmap, address, length, protection, flags, fd, offset);
        }
        atomic_store_explicit(&next_mmap, function, memory_order_release);
    }
    return function(address, length, protection, flags, fd, offset);
}

static int forward_munmap(void *address, size_t length) {
    munmap_function function = atomic_load_explicit(&next_munmap, memory_order_acquire);
    if (function == NULL) {
        function = (munmap_function)dlsym(RTLD_NEXT, "munmap");
        if (function == NULL) {
            return (int)syscall(SYS_munmap, address, length);
        }
        atomic_store_explicit(&next_munmap, function, memory_order_release);
    }
    return function(address, length);
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    int anonymous = (flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE) && !(flags & MAP_FIXED) && fd == -1;
    if (!armed || !anonymous || address != NULL || protection != (PROT_READ | PROT_WRITE)) {
        return forward_mmap(address, length, protection, flags, fd, offset);
    }
    if (kept != NULL && !kept_in_use && kept_length == length) {
        kept_in_use = 1;
        return kept;
    }
    void *region = forward_mmap(address, length, protection, flags, fd, offset);
    if (region != MAP_FAILED && !kept_in_use) {
        // A new size (other parameters): the old region goes, the new one is kept.
        if (kept != NULL) {
            forward_munmap(kept, kept_length);
        }
        kept = region;
        kept_length = length;
        kept_in_use = 1;
    }
    return region;
}

int munmap(void *address, size_t length) {
    if (address != NULL && address == kept && kept_in_use && length == kept_length) {
        kept_in_use = 0;
        return 0;
    }
    return forward_munmap(address, length);
}
