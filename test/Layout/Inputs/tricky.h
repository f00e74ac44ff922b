/* Structs whose layout has rules to get right. Included by the layout
 * tests' scripts (so tscc lays them out through Clang) and by tricky.c (so
 * gcc does). */

struct bits {
  unsigned a : 3;
  unsigned : 2; /* padding, not a member */
  signed b : 7;
  unsigned char c;
  unsigned long long d : 40; /* crosses a 32-bit unit on i386 */
  unsigned e : 1;
  _Bool f : 1;
  int : 0; /* forces the next bit-field to a new unit */
  short g : 5;
};

struct __attribute__((packed)) packed {
  char c;
  int i;
  long long ll;
  short s;
};

struct packed_bits {
  unsigned char a : 4;
  unsigned short b : 12;
  char c;
} __attribute__((packed));

typedef int int_a8 __attribute__((aligned(8)));

struct aligned {
  char c;
  int i __attribute__((aligned(16)));
  double d;
  char c2;
  int_a8 e; /* the typedef's alignment, not int's */
} __attribute__((aligned(32)));

/* long long, double and long double members: 4-byte aligned on i386. */
struct longs {
  char c;
  long long ll;
  char c2;
  double d;
  char c3;
  long double ld;
  char c4;
};

struct pt {
  short x;
  short y;
};

struct nested {
  char tag;
  struct pt pts[3][2];
  long grid[2][3];
  union {
    int i;
    char b[5];
  } u;
  struct pt *next;
};

/* C11 anonymous members: their members belong to the enclosing struct. */
struct anon {
  int kind;
  union {
    long l;
    struct {
      short lo, hi;
    };
  };
  struct {
    char tag;
    long long when;
  } named;
};

union mixed {
  char c;
  long long ll;
  double d;
  char buf[13];
};

struct flex {
  short n;
  long data[];
};
