#include "layout.h"
#include "tricky.h"

static void bits(void) {
  TYPE(struct bits);
  BITFIELD(struct bits, a);
  BITFIELD(struct bits, b);
  FIELD(struct bits, c);
  BITFIELD(struct bits, d);
  BITFIELD(struct bits, e);
  BITFIELD(struct bits, f);
  BITFIELD(struct bits, g);
}

static void packed(void) {
  TYPE(struct packed);
  FIELD(struct packed, c);
  FIELD(struct packed, i);
  FIELD(struct packed, ll);
  FIELD(struct packed, s);
}

static void packed_bits(void) {
  TYPE(struct packed_bits);
  BITFIELD(struct packed_bits, a);
  BITFIELD(struct packed_bits, b);
  FIELD(struct packed_bits, c);
}

static void aligned(void) {
  TYPE(struct aligned);
  FIELD(struct aligned, c);
  FIELD(struct aligned, i);
  FIELD(struct aligned, d);
  FIELD(struct aligned, c2);
  FIELD(struct aligned, e);
}

static void aligned_typedef(void) { TYPE(int_a8); }

static void longs(void) {
  TYPE(struct longs);
  FIELD(struct longs, c);
  FIELD(struct longs, ll);
  FIELD(struct longs, c2);
  FIELD(struct longs, d);
  FIELD(struct longs, c3);
  FIELD(struct longs, ld);
  FIELD(struct longs, c4);
}

static void nested(void) {
  TYPE(struct nested);
  FIELD(struct nested, tag);
  ARRAY(struct nested, pts);
  FIELD(struct nested, pts[0][0].x);
  FIELD(struct nested, pts[0][0].y);
  ARRAY(struct nested, grid);
  FIELD(struct nested, u);
  FIELD(struct nested, u.i);
  ARRAY(struct nested, u.b);
  FIELD(struct nested, next);
}

static void anon(void) {
  TYPE(struct anon);
  FIELD(struct anon, kind);
  FIELD(struct anon, l);
  FIELD(struct anon, lo);
  FIELD(struct anon, hi);
  FIELD(struct anon, named);
  FIELD(struct anon, named.tag);
  FIELD(struct anon, named.when);
}

static void mixed(void) {
  TYPE(union mixed);
  FIELD(union mixed, c);
  FIELD(union mixed, ll);
  FIELD(union mixed, d);
  ARRAY(union mixed, buf);
}

static void flex(void) {
  TYPE(struct flex);
  FIELD(struct flex, n);
  FLEX(struct flex, data);
}

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    void (*print)(void);
  } all[] = {{"bits", bits},     {"packed", packed},
             {"packed_bits", packed_bits}, {"aligned", aligned},
             {"int_a8", aligned_typedef},
             {"longs", longs},   {"nested", nested}, {"anon", anon},
             {"mixed", mixed},   {"flex", flex}};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    if (argc > 1 && !strcmp(argv[1], all[i].name)) {
      all[i].print();
      return 0;
    }
  fprintf(stderr, "usage: %s TYPE\n", argv[0]);
  return 2;
}
