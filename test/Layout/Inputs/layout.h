/* Prints a type's layout in the format of `tscc --dump-layout` (without
 * the trailing ` type=...`), from the C compiler's own sizeof, offsetof
 * and _Alignof. The layout tests build a program with this header for
 * -m32 and -m64 and diff its output against tscc's. */
#ifndef TSCC_TEST_LAYOUT_H
#define TSCC_TEST_LAYOUT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define LAYOUT_MODEL (sizeof(void *) == 4 ? "ILP32" : "LP64")
#define MEMBER_SIZE(T, m) sizeof(((T *)0)->m)
#define ELEM_SIZE(T, m) sizeof(((T *)0)->m[0])

/* The header line: `<model> <type> size=N align=N`. */
#define TYPE(T)                                                                \
  printf("%s %s size=%zu align=%zu\n", LAYOUT_MODEL, #T, sizeof(T),            \
         _Alignof(T))

/* An ordinary member: `  path offset=N size=N`. */
#define FIELD(T, m)                                                            \
  printf("  %s offset=%zu size=%zu\n", #m, offsetof(T, m), MEMBER_SIZE(T, m))

/* An array member: also its element count and size. */
#define ARRAY(T, m)                                                            \
  printf("  %s offset=%zu size=%zu count=%zu elem_size=%zu\n", #m,             \
         offsetof(T, m), MEMBER_SIZE(T, m),                                    \
         MEMBER_SIZE(T, m) / ELEM_SIZE(T, m), ELEM_SIZE(T, m))

/* A flexible array member: no size of its own. */
#define FLEX(T, m)                                                             \
  printf("  %s offset=%zu size=0 elem_size=%zu\n", #m, offsetof(T, m),        \
         ELEM_SIZE(T, m))

/* A bit-field: C cannot take its offset, so set it to all ones in a zeroed
 * object and find the bits that changed (little-endian bit numbering). */
#define BITFIELD(T, m)                                                         \
  do {                                                                         \
    T obj_;                                                                    \
    memset(&obj_, 0, sizeof obj_);                                             \
    obj_.m = -1;                                                               \
    print_bits(#m, (const unsigned char *)&obj_, sizeof obj_);                 \
  } while (0)

static void print_bits(const char *name, const unsigned char *p, size_t n) {
  size_t first = 0, count = 0;
  for (size_t i = 0; i < n * 8; ++i) {
    if (!(p[i / 8] >> (i % 8) & 1))
      continue;
    if (!count)
      first = i;
    ++count;
  }
  printf("  %s bit_offset=%zu bit_width=%zu\n", name, first, count);
}

#endif
