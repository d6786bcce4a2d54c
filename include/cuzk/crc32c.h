/* Layer: util */
/* CRC-32C (Castagnoli, the iSCSI / ext4 checksum; RFC 3720 B.4): the
 * checksum of files cuzk writes for itself, such as recorded circuit
 * shapes. It detects every error burst up to 32 bits and misses a random
 * corruption with probability 2^-32; it is not a defence against anyone
 * who means to forge a file.
 *
 * Runs on the SSE 4.2 crc32 instruction where the CPU has it (about
 * 8 bytes a cycle for large buffers), else a portable table. */
#ifndef CUZK_CRC32C_H
#define CUZK_CRC32C_H
#include <stddef.h>
#include <stdint.h>

/* The CRC of data[0..len) continuing from crc (0 to start): so
 * cz_crc32c(cz_crc32c(0, a, n), b, m) is the CRC of a followed by b.
 * data may be NULL when len is 0. */
uint32_t cz_crc32c(uint32_t crc, const void *data, size_t len);
/* The same on the portable table whatever the CPU (for tests). */
uint32_t cz_crc32c_portable(uint32_t crc, const void *data, size_t len);

#endif
