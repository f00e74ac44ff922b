/* Prints what a clause at f() sees of its context, then calls f(). */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noinline)) long f(long a, long b) {
  __asm__ volatile("");
  return a + b;
}

int main(void) {
  printf("ids %d %d %u %ld\n", (int)getpid(), (int)getppid(),
         (unsigned)getuid(), (long)syscall(SYS_gettid));
  fflush(stdout);
  return f(3, 40) == 0;
}
