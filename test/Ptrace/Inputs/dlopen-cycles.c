// Loads a library, calls each of its functions once, and unloads it, N
// times (a plugin host that reloads its plugins). Prints the calls it
// made and its result, and whether its own mappings stayed as they were
// between the 10th cycle and the last: a tracer that maps memory for each
// load and never gives it back makes them grow.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static int mappings(void) {
  FILE *F = fopen("/proc/self/maps", "r");
  int N = 0, C;
  if (!F)
    return -1;
  while ((C = fgetc(F)) != EOF)
    N += C == '\n';
  fclose(F);
  return N;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s LIB CYCLES\n", argv[0]);
    return 2;
  }
  int Cycles = atoi(argv[2]), Early = 0;
  long Calls = 0, Sum = 0;
  for (int I = 0; I < Cycles; ++I) {
    void *H = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!H) {
      printf("dlopen: %s\n", dlerror());
      return 1;
    }
    int (**Table)(int) = (int (**)(int))dlsym(H, "lib_table");
    int *Count = (int *)dlsym(H, "lib_count");
    for (int K = 0; K < *Count; ++K, ++Calls)
      Sum += Table[K](I);
    dlclose(H);
    if (I == 9)
      Early = mappings();
  }
  int Late = mappings();
  printf("calls %ld sum %ld\n", Calls, Sum);
  if (Late - Early <= 2)
    printf("mappings stable\n");
  else
    printf("mappings grew by %d in %d cycles\n", Late - Early, Cycles - 10);
  return 0;
}
