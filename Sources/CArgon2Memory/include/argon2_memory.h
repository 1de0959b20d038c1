#ifndef ACCOUNTS_ARGON2_MEMORY_H
#define ACCOUNTS_ARGON2_MEMORY_H

/// Arms (nonzero) or disarms (0) the reuse of Argon2id's working memory on the calling thread.
/// Armed, the anonymous read-write mapping libsodium makes for one hash is kept mapped when it
/// is unmapped, and handed back to the next hash on this thread.
void accounts_argon2_memory_reuse(int armed);

#endif
