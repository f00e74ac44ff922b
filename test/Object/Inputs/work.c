#include <stdio.h>
int work(int id) { return id * 2; }
int main(void) {
  long s = 0;
  for (int i = 0; i < 5; ++i)
    s += work(i);
  printf("sum %ld\n", s);
  return 0;
}
