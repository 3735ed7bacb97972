/* sha256.h: SHA-256 (FIPS 180-4) of a byte string, as lowercase hex. awesIO's structure
 * document names its connectivity by this digest (output/awesio_write.c). */
#ifndef AWE_SHA256_H
#define AWE_SHA256_H

#include <stddef.h>

/* hex receives 64 lowercase hex digits and a terminating NUL. */
void awe_sha256_hex(const unsigned char *data, size_t n, char hex[65]);

#endif
