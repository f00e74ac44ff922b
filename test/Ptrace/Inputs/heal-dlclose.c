/* A probed function of a library, then tsrun SIGKILLed, then the library
 * unloaded and another one loaded where it was: the agent heals on the
 * next hit and must not write the old site's bytes into the new library.
 *
 *   heal-dlclose LIBA LIBB READY GO   (READY, GO: FIFOs of the driver) */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int tick(int X) { return X + 1; }

static void say(const char *Path, const char *What) {
  FILE *F = fopen(Path, "w");
  fputs(What, F);
  fclose(F);
}

static void wait_go(const char *Path) {
  FILE *F = fopen(Path, "r");
  fgetc(F);
  fclose(F);
}

int main(int argc, char **argv) {
  if (argc < 5)
    return 2;
  void *A = dlopen(argv[1], RTLD_NOW);
  int (*Fa)(int) = A ? (int (*)(int))dlsym(A, "fa") : NULL;
  if (!Fa)
    return 3;
  say(argv[3], "started\n");
  wait_go(argv[4]); /* tsrun is attached, fa patched */
  printf("fa(5) = %d\n", Fa(5));
  fflush(stdout);
  say(argv[3], "called\n");
  wait_go(argv[4]); /* tsrun is dead */
  dlclose(A);
  void *B = dlopen(argv[2], RTLD_NOW);
  int (*Fb)(int) = B ? (int (*)(int))dlsym(B, "fb") : NULL;
  if (!Fb)
    return 4;
  printf("libB's fb where libA's fa was: %s\n",
         (void *)Fb == (void *)Fa ? "yes" : "no");
  tick(1); /* a hit: the agent sees tsrun gone and heals */
  printf("fb(5) = %d\n", Fb(5));
  printf("tick(1) = %d\n", tick(1));
  return 0;
}
