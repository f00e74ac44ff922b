// Coroutines on stacks of their own (swapcontext), each switching away
// from inside a chain of nested calls to probed functions, so that every
// coroutine has hijacked returns pending on its stack while the others
// run and return through theirs. One stack is static, the others come
// from malloc and mmap, so they lie above and below one another. Prints
// the calls and returns the program made and the sum of what returned.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

#define COROUTINES 3
#define STACK_BYTES (256 * 1024)

static ucontext_t Main, Co[COROUTINES];
static long Rounds, Depth, Calls, Returns, Sum;
static int Finished;

__attribute__((noinline)) long nest(int Self, long Level, long I) {
  ++Calls;
  long R;
  if (Level == 0) {
    swapcontext(&Co[Self], &Co[(Self + 1) % COROUTINES]);
    R = I;
  } else {
    R = nest(Self, Level - 1, I) + Level;
  }
  __asm__ volatile("" ::: "memory");
  ++Returns;
  Sum += R;
  return R;
}

static void run(int Self) {
  for (long I = 0; I < Rounds; ++I)
    nest(Self, Depth, I);
  // The others may still be inside nest(): let them finish first.
  ++Finished;
  while (Finished < COROUTINES)
    swapcontext(&Co[Self], &Co[(Self + 1) % COROUTINES]);
}

int main(int Argc, char **Argv) {
  Rounds = Argc > 1 ? atol(Argv[1]) : 1000;
  Depth = Argc > 2 ? atol(Argv[2]) : 4;
  static char Static[STACK_BYTES];
  void *Stacks[COROUTINES] = {
      Static, malloc(STACK_BYTES),
      mmap(0, STACK_BYTES, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0)};
  for (int I = 0; I < COROUTINES; ++I) {
    getcontext(&Co[I]);
    Co[I].uc_stack.ss_sp = Stacks[I];
    Co[I].uc_stack.ss_size = STACK_BYTES;
    Co[I].uc_link = &Main;
    makecontext(&Co[I], (void (*)(void))run, 1, I);
  }
  swapcontext(&Main, &Co[0]);
  printf("calls %ld returns %ld sum %ld\n", Calls, Returns, Sum);
  return 0;
}
