/* Starts N threads that each call hit() once, waits until all have, then
 * prints its own address space (VmSize, kB) while they are all still
 * alive: run traced and untraced, the difference is what tracing costs.
 * `vsz N LIMIT_KB` first sets RLIMIT_AS to LIMIT_KB and executes itself
 * again (`vsz N`): the traced process starts under the limit. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

__attribute__((noinline)) long hit(long I) {
  __asm__ volatile("" ::: "memory");
  return I;
}

static pthread_barrier_t Hit, Done;

static void *worker(void *Arg) {
  hit((long)(size_t)Arg);
  pthread_barrier_wait(&Hit);
  pthread_barrier_wait(&Done);
  return 0;
}

static long vm_size_kb(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  long Kb = -1;
  while (F && fgets(Line, sizeof(Line), F))
    if (!strncmp(Line, "VmSize:", 7))
      Kb = atol(Line + 7);
  if (F)
    fclose(F);
  return Kb;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 1;
  if (argc > 2) {
    struct rlimit L = {(rlim_t)atol(argv[2]) << 10, (rlim_t)atol(argv[2]) << 10};
    if (setrlimit(RLIMIT_AS, &L)) {
      perror("setrlimit");
      return 1;
    }
    char *Again[] = {argv[0], argv[1], 0};
    execv("/proc/self/exe", Again);
    perror("execv");
    return 1;
  }
  pthread_t *T = calloc((size_t)N, sizeof(*T));
  pthread_attr_t A;
  pthread_attr_init(&A);
  pthread_attr_setstacksize(&A, 64 << 10); /* 1000 threads fit i386 too */
  pthread_barrier_init(&Hit, 0, (unsigned)N + 1);
  pthread_barrier_init(&Done, 0, (unsigned)N + 1);
  for (int I = 0; I < N; ++I)
    if (pthread_create(&T[I], &A, worker, (void *)(size_t)I)) {
      printf("vsz: cannot start thread %d\n", I);
      return 1;
    }
  pthread_barrier_wait(&Hit);
  printf("vsz: %d threads VmSize %ld kB\n", N, vm_size_kb());
  fflush(stdout);
  pthread_barrier_wait(&Done);
  for (int I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  return 0;
}
