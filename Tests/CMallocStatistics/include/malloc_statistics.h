#ifndef MALLOC_STATISTICS_H
#define MALLOC_STATISTICS_H

#include <stddef.h>

/// The bytes glibc's malloc has handed out from its arenas and not yet taken back (`mallinfo2`'s
/// `uordblks`): small blocks such as Swift's tasks and closures. Large blocks that malloc maps
/// on their own, and memory mapped directly (Argon2id's), are not counted, so a test can watch
/// what a loop of small allocations leaves behind while other tests map and unmap.
size_t malloc_statistics_bytes_in_use(void);

#endif
