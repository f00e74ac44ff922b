// 300 small functions, lib_f100 to lib_f399, and a table of them, for
// dlopen-cycles.t.
#define F(n)                                                                   \
  int lib_f##n(int x) { return x * (n + 3) + 1; }
#define T(n)                                                                   \
  F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8)      \
      F(n##9)
#define H(n)                                                                   \
  T(n##0) T(n##1) T(n##2) T(n##3) T(n##4) T(n##5) T(n##6) T(n##7) T(n##8)      \
      T(n##9)
H(1) H(2) H(3)

#define P(n) lib_f##n,
#define PT(n)                                                                  \
  P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) P(n##7) P(n##8)      \
      P(n##9)
#define PH(n)                                                                  \
  PT(n##0) PT(n##1) PT(n##2) PT(n##3) PT(n##4) PT(n##5) PT(n##6) PT(n##7)      \
      PT(n##8) PT(n##9)
int (*lib_table[])(int) = {PH(1) PH(2) PH(3)};
int lib_count = sizeof(lib_table) / sizeof(lib_table[0]);
