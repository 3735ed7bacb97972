/* test_sha256.c: SHA-256 against the FIPS 180-4 / NIST example vectors, the padding edges
 * (55, 56, 63, 64 bytes: one or two final blocks) against Python's hashlib, and the awesIO
 * schema's own connectivity example. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "util/sha256.h"

static void check(const char *msg, size_t n, const char *want) {
  char hex[65];
  awe_sha256_hex((const unsigned char *)msg, n, hex);
  if (strcmp(hex, want)) HARNESS_FAIL("sha256 of %zu bytes: %s, expected %s", n, hex, want);
}

static void test_nist(void) {
  check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* n bytes of 'a': 55 fits one final block with its length, 56 needs two */
static void test_padding(void) {
  static const struct { size_t n; const char *hex; } v[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"}};
  char *a = malloc(1000);
  ENSURE(a != NULL);
  if (!a) return;
  memset(a, 'a', 1000);
  for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) check(a, v[i].n, v[i].hex);
  free(a);
}

/* structure_schema.yml's example preimage: three points in a row on two bodies, one tube */
static void test_awesio_example(void) {
  check("3;1,2;2,3;2;1,2;", 16, "5fb3075d62151040ec7efa19e355fb81a7925cdd7609f5a4e59f4bf48984e8bd");
}

int main(void) {
  RUN(test_nist);
  RUN(test_padding);
  RUN(test_awesio_example);
  return harness_report();
}
