/* ChaCha20 (IETF) and keyed BLAKE2b against published vectors: RFC 8439
 * 2.3.2 (the block function's test vector, read at byte offset 64 = block
 * 1), RFC 7693 appendix A (BLAKE2b-512 of "abc") and the BLAKE2 reference
 * keyed KAT (key 00..3f, empty message). Then properties: any byte offset
 * reads the same bytes as one long read, the counter's end is refused, the
 * general BLAKE2b equals the one-block fast path. Python's hashlib and
 * cryptography check the same code through the synthetic PoRep challenges
 * (tests/reference/test_porep_challenges.sh). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuzk/blake2b.h"
#include "cuzk/chacha20.h"

static void unhex(uint8_t *out, const char *hex) {
  for (size_t i = 0; hex[2 * i]; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
}

int main(void) {
  uint8_t key[32], nonce[12], ks[64], want[64];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
  unhex(nonce, "000000090000004a00000000");
  unhex(want, "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
              "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
  CHECK(cz_chacha20_keystream(ks, 64, key, nonce, 64));
  CHECK_MEM(ks, want, 64);

  /* Reads at every offset in the first three blocks, of lengths across
   * block edges, agree with one long read. */
  uint8_t all[300], part[200];
  CHECK(cz_chacha20_keystream(all, sizeof all, key, nonce, 0));
  CHECK_MEM(all + 64, want, 64);
  int bad = 0;
  for (size_t off = 0; off < 100; off++)
    for (size_t len = 0; len <= 200; len += 13) {
      CHECK(cz_chacha20_keystream(part, len, key, nonce, off));
      bad += memcmp(part, all + off, len) != 0;
    }
  CHECK_EQ_INT(bad, 0);
  /* The last block of the 32-bit counter is readable, the next is not. */
  uint64_t end = (uint64_t)1 << 38;
  CHECK(cz_chacha20_keystream(part, 64, key, nonce, end - 64));
  CHECK(!cz_chacha20_keystream(part, 1, key, nonce, end));
  CHECK(!cz_chacha20_keystream(part, 65, key, nonce, end - 64));

  uint8_t d[64], w[64], k64[64];
  unhex(w, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
           "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  CHECK(cz_blake2b(d, 64, NULL, 0, (const uint8_t *)"abc", 3));
  CHECK_MEM(d, w, 64);
  cz_blake2b512_short(d, (const uint8_t *)"abc", 3);
  CHECK_MEM(d, w, 64);
  for (int i = 0; i < 64; i++) k64[i] = (uint8_t)i;
  unhex(w, "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
           "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568");
  CHECK(cz_blake2b(d, 64, k64, 64, NULL, 0));
  CHECK_MEM(d, w, 64);
  /* The general form equals the fast path on every one-block length. */
  uint8_t msg[128];
  for (int i = 0; i < 128; i++) msg[i] = (uint8_t)(i * 37 + 5);
  bad = 0;
  for (size_t len = 0; len <= 128; len++) {
    cz_blake2b512_short(w, msg, len);
    CHECK(cz_blake2b(d, 64, NULL, 0, msg, len));
    bad += memcmp(d, w, 64) != 0;
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(!cz_blake2b(d, 0, NULL, 0, msg, 1));
  CHECK(!cz_blake2b(d, 65, NULL, 0, msg, 1));
  CHECK(!cz_blake2b(d, 32, k64, 65, msg, 1));
  CHECK(!cz_blake2b(d, 32, NULL, 0, NULL, 1));
  return check_report("test_chacha_blake2b");
}
