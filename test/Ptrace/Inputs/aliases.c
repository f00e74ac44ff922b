#include <stdio.h>
#include <stdlib.h>

int work(int);
int work_alias(int);

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5, sum = 0;
  for (int i = 0; i < n; i++)
    sum += (i & 1) ? work(i) : work_alias(i);
  printf("calls=%d sum=%d\n", n, sum);
  return 0;
}
