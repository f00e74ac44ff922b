/* dlopen()s LIB, whose constructor calls lib_func once, then calls it K
 * times. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *H = dlopen(argv[1], RTLD_NOW);
  if (!H)
    return 1;
  int K = atoi(argv[2]);
  long (*F)(long) = (long (*)(long))dlsym(H, "lib_func");
  for (int I = 0; I < K; ++I)
    F(I);
  printf("expected=%d\n", K + 1);
  return 0;
}
