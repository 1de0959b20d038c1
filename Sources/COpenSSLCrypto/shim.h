// libcrypto's digests and AES block cipher alone, not its EVP interface: EVP links OpenSSL's
// provider tables into the binary (~16,600 relocations and 0.5–1 ms of every start of `accounts`).
// OpenSSL 3 marks these functions deprecated in favour of EVP; they stay supported.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/aes.h>
#include <openssl/sha.h>
