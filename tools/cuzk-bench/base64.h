/* Standard base64 (RFC 4648 section 4, the alphabet with '+' and '/',
 * padded with '='), as Go's encoding/json writes and reads a []byte
 * (base64.StdEncoding). */
#ifndef CUZK_BENCH_BASE64_H
#define CUZK_BENCH_BASE64_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters of the encoding of n bytes: 4 * ceil(n / 3). */
size_t cz_bench_base64_len(size_t n);

/* Encode in[0..n) into out, which needs cz_bench_base64_len(n) + 1 bytes
 * (the text is NUL-terminated). Returns the character count. */
size_t cz_bench_base64_encode(char *out, const uint8_t *in, size_t n);

/* Decode text[0..len) into out (which needs 3 * (len / 4) bytes) as Go's
 * encoding/json decodes a []byte (cz_json_base64, util/json_scan.h): groups
 * of four alphabet characters, the last with one or two '=' as needed and
 * nothing after; unused low bits of the last group are ignored. Returns
 * true and *out_len, or false with why (one line: "bad base64: ..." with
 * the offending character's position). */
bool cz_bench_base64_decode(uint8_t *out, size_t *out_len, const char *text, size_t len, char *why,
                            size_t whylen);

/* Curio's wrapper around a C1 JSON text: {"SectorNum":sector,"Phase1Out":
 * "<base64 of json>","SectorSize":size}, NUL-terminated, from malloc, and
 * its length (before the NUL) in *out_len; NULL when out of memory. */
char *cz_bench_curio_wrap(const char *json, size_t len, uint64_t sector, uint64_t size,
                          size_t *out_len);

#endif
