/* ChaCha20 (IETF) and keyed BLAKE2b against published vectors: RFC 8439
 * 2.3.2 (the block function's test vector, read at byte offset 64 = block
 * 1), RFC 7693 appendix A (BLAKE2b-512 of "abc") and the BLAKE2 reference
 * keyed KAT (key 00..3f, empty message). Then properties: any byte offset
 * reads the same bytes as one long read, the counter's end is refused, the
 * general BLAKE2b equals the one-block fast path, and the streaming form
 * gives Python's hashlib.blake2b digests (1000 bytes, the empty message, a
 * 32-byte digest) and the one-shot digest however a message is split.
 * Python's hashlib and
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

/* One message fed in pieces of the given sizes (cycled) to the end. */
static void stream(uint8_t *out, size_t out_len, const uint8_t *m, size_t len, const size_t *pieces,
                   size_t n_pieces) {
  cz_blake2b_state s;
  CHECK(cz_blake2b_init(&s, out_len));
  for (size_t off = 0, i = 0; off < len; i++) {
    size_t k = pieces[i % n_pieces];
    if (k > len - off) k = len - off;
    cz_blake2b_update(&s, m + off, k);
    off += k;
  }
  cz_blake2b_update(&s, NULL, 0);
  cz_blake2b_final(&s, out);
}

static void test_streaming(void) {
  uint8_t m[1000], d[64], w[64];
  for (int i = 0; i < 1000; i++) m[i] = (uint8_t)(i * 37 + 5);
  /* Python: hashlib.blake2b(bytes((i*37+5)&0xff for i in range(1000))) */
  unhex(w,
        "271204127f36c3c5831322f164c50a2e2efec44a624a87e42c68d9eda51a8866"
        "5e885ab7d53c9f60994c1a519b79710a4e6d0155c3e82641694d020544dd4f0c");
  const size_t whole[] = {1000}, odd[] = {1, 127, 128, 129, 7, 256, 3};
  stream(d, 64, m, 1000, whole, 1);
  CHECK_MEM(d, w, 64);
  stream(d, 64, m, 1000, odd, 7);
  CHECK_MEM(d, w, 64);
  unhex(w,
        "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
        "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
  stream(d, 64, m, 0, whole, 1);
  CHECK_MEM(d, w, 64);
  unhex(w, "5ebee5a5732ac27a00b652cb9e6c3f4e8a0ce06af4068a3a3a52a57413179dff");
  stream(d, 32, m, 1000, odd, 7);
  CHECK_MEM(d, w, 32);
  /* Every length to 300 split at every point equals the one-shot digest. */
  int bad = 0;
  for (size_t len = 0; len <= 300; len++) {
    CHECK(cz_blake2b(w, 64, NULL, 0, m, len));
    for (size_t cut = 0; cut <= len; cut += 1 + (len > 140) * 6) {
      const size_t two[] = {cut ? cut : len, len - cut};
      stream(d, 64, m, len, two, 2);
      bad += memcmp(d, w, 64) != 0;
    }
  }
  CHECK_EQ_INT(bad, 0);
  cz_blake2b_state s;
  CHECK(!cz_blake2b_init(&s, 0));
  CHECK(!cz_blake2b_init(&s, 65));
}

int main(void) {
  uint8_t key[32], nonce[12], ks[64], want[64];
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;
  unhex(nonce, "000000090000004a00000000");
  unhex(want,
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
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
  unhex(w,
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
        "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
  CHECK(cz_blake2b(d, 64, NULL, 0, (const uint8_t *)"abc", 3));
  CHECK_MEM(d, w, 64);
  cz_blake2b512_short(d, (const uint8_t *)"abc", 3);
  CHECK_MEM(d, w, 64);
  for (int i = 0; i < 64; i++) k64[i] = (uint8_t)i;
  unhex(w,
        "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
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
  test_streaming();
  return check_report("test_chacha_blake2b");
}
