/* A process that loads a library while tsrun has let go of it (--detach).
 *
 *   detached-dlopen count LIB K   prints whether it is traced (its
 *                                 TracerPid), then twice: dlopen()s LIB
 *                                 (whose constructor calls lib_func once),
 *                                 calls lib_func K times and dlclose()s
 *                                 it; then prints whether it is traced,
 *                                 and how many calls it made. A thread
 *                                 calls main_func meanwhile, all along.
 *   detached-dlopen count LIB K GO
 *                                 the same, once it has said "started" and
 *                                 read a byte from the FIFO GO (tsrun
 *                                 attaches to it meanwhile).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int Stop;
static volatile long MainCalls;

__attribute__((noinline)) long main_func(long X) {
  __asm__ volatile("" ::: "memory");
  return X + 1;
}

static void *spin(void *Arg) {
  (void)Arg;
  while (!Stop)
    MainCalls = MainCalls + (main_func(MainCalls) > 0);
  return NULL;
}

static long tracer(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  long Pid = -1;
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "TracerPid:", 10))
      Pid = atol(Line + 10);
  if (F)
    fclose(F);
  return Pid;
}

typedef long (*LibFunc)(long);

/* Loads Lib, calls its lib_func K times, and unloads it unless Keep. */
static LibFunc use_library(const char *Lib, int K, int Keep) {
  void *H = dlopen(Lib, RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    exit(1);
  }
  LibFunc F = (LibFunc)dlsym(H, "lib_func");
  for (int I = 0; I < K; ++I)
    F(I);
  if (!Keep)
    dlclose(H);
  return F;
}

int main(int argc, char **argv) {
  if ((argc != 4 && argc != 5) || strcmp(argv[1], "count"))
    return 2;
  if (argc == 5) {
    printf("started\n");
    fflush(stdout);
    FILE *Go = fopen(argv[4], "r");
    if (!Go || fgetc(Go) == EOF)
      return 3;
    fclose(Go);
  }
  int K = atoi(argv[3]);
  printf("before: %s\n", tracer() ? "traced" : "untraced");
  pthread_t Th;
  pthread_create(&Th, NULL, spin, NULL);
  while (MainCalls < 1000) /* hitting its probe before the first window */
    ;
  for (int Round = 0; Round < 2; ++Round)
    use_library(argv[2], K, 0);
  Stop = 1;
  pthread_join(Th, NULL);
  printf("after: %s\n", tracer() ? "traced" : "untraced");
  printf("lib_func calls %d main_func calls %ld\n", 2 * (K + 1), MainCalls);
  return 0;
}
