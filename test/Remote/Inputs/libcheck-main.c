#include <stdio.h>

int lib_func(int);

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int s = 0;
  for (int i = 0; i < 3; ++i)
    s += lib_func(i);
  printf("sum %d\n", s);
  return 0;
}
