/* A program that opens every kind of window a process tsrun has let go of
 * (--detach) asks for, while another thread hits a probe all along:
 *
 *   window-sigkill first LIB PROG READY GO
 *       calls work() 5 times, dlopen()s LIB, calls its lib_func() 10
 *       times and dlclose()s it, twice (4 library windows); tries a
 *       failing execvp() (3 exec windows), prints its counts and execs
 *       "PROG second LIB READY GO" (an exec window, then the new image's
 *       setup), which
 *   window-sigkill second LIB READY GO
 *       calls work() 5 times, dlopen()s LIB (a library window) and calls
 *       its lib_func() 10 times, prints its counts, creates the file READY
 *       and waits for the file GO; then calls work() and lib_func() once
 *       more (the hits that heal their sites if tsrun is gone), and prints
 *       the first bytes of work(), lib_func(), execve() and the loader's
 *       debugger hook (r_brk) as they are in memory.
 *
 * Its output does not depend on whether or how it is traced: a driver
 * compares it with the output of an untraced run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int Stop;

__attribute__((noinline)) int work(int I) {
  __asm__ volatile("" ::: "memory");
  return I + 1;
}

__attribute__((noinline)) long main_func(long X) {
  __asm__ volatile("" ::: "memory");
  return X + 1;
}

static void *spin(void *Arg) {
  long N = 0;
  (void)Arg;
  while (!Stop)
    N = main_func(N);
  return NULL;
}

static int calls(int Base, int N) {
  int Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += work(Base + I) > 0;
  return Sum;
}

typedef long (*LibFunc)(long);

static void *load(const char *Lib, LibFunc *F) {
  void *H = dlopen(Lib, RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    exit(1);
  }
  *F = (LibFunc)dlsym(H, "lib_func");
  return H;
}

static long lib_calls(LibFunc F, int N) {
  long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += F(I);
  return Sum;
}

static void print_bytes(const char *Name, const void *At) {
  printf(" %s ", Name);
  for (int I = 0; I < 8; ++I)
    printf("%02x", ((const unsigned char *)At)[I]);
}

static int first(char **argv) {
  pthread_t Th;
  pthread_create(&Th, NULL, spin, NULL);
  int Work = calls(0, 5);
  long Lib = 0;
  for (int Round = 0; Round < 2; ++Round) {
    LibFunc F;
    void *H = load(argv[2], &F);
    Lib += lib_calls(F, 10);
    dlclose(H);
  }
  char *Nowhere[] = {"no-such-program-tscc", NULL};
  setenv("PATH", "/nonexistent-a:/nonexistent-b:/nonexistent-c", 1);
  execvp(Nowhere[0], Nowhere);
  printf("first: work %d lib %ld, execvp failed\n", Work, Lib);
  fflush(stdout);
  Stop = 1;
  pthread_join(Th, NULL);
  char *Next[] = {argv[3], "second", argv[2], argv[4], argv[5], NULL};
  execv(argv[3], Next);
  printf("exec failed\n");
  return 5;
}

static int second(char **argv) {
  pthread_t Th;
  pthread_create(&Th, NULL, spin, NULL);
  int Work = calls(100, 5);
  LibFunc F;
  load(argv[2], &F);
  long Lib = lib_calls(F, 10);
  printf("second: work %d lib %ld\n", Work, Lib);
  fflush(stdout);
  FILE *Ready = fopen(argv[3], "w");
  if (!Ready)
    return 6;
  fclose(Ready);
  for (int Waited = 0; access(argv[4], F_OK) != 0; ++Waited) {
    if (Waited == 120000)
      return 7; /* 2 minutes */
    usleep(1000);
  }
  Work = work(7);
  Lib = F(7);
  Stop = 1;
  pthread_join(Th, NULL);
  printf("after: work %d lib %ld code", Work, Lib);
  print_bytes("work", (const void *)work);
  print_bytes("lib_func", (const void *)F);
  print_bytes("execve", (const void *)execve);
  print_bytes("r_brk", (const void *)_r_debug.r_brk);
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 6 && !strcmp(argv[1], "first"))
    return first(argv);
  if (argc == 5 && !strcmp(argv[1], "second"))
    return second(argv);
  return 2;
}
