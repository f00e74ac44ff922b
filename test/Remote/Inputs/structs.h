/* Types shared by structs.c (the traced program) and structs.t (the script):
 * bit-fields, a packed struct, nested arrays, a union and long long members,
 * whose layouts differ between i386 and x86-64. */
struct bits {
  unsigned a : 3;
  unsigned b : 7;
  int c : 5;
  unsigned long d : 20;
};
struct __attribute__((packed)) packed {
  char tag;
  long long wide;
  short s;
  long l;
};
union u {
  long l;
  double d;
  unsigned char bytes[8];
};
struct nest {
  int grid[2][3];
  struct bits b[2];
  union u un;
  long long ll;
  char name[12];
  const char *str;
  struct nest *self;
};
