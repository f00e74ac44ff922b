/* sud-loop SECONDS: getppid() as fast as it can for SECONDS, half through
 * glibc's wrapper and half from code it writes at run time (no site tsrun
 * knows of), checking every result; says "ready PID" first and "done"
 * with the number of wrong results at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
static const unsigned char RawCode[] = {0x48,0x89,0xf8,0x0f,0x05,0xc3}; /* mov %rdi,%rax; syscall; ret */
int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  void *P = mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  memcpy(P, RawCode, sizeof RawCode); mprotect(P, 4096, PROT_READ|PROT_EXEC);
  long (*Raw)(long) = P;
  printf("ready %d\n", getpid());
  long n = 0, bad = 0; pid_t pp = getppid();
  time_t end = time(0) + (argc > 1 ? atoi(argv[1]) : 4);
  while (time(0) < end) { bad += Raw(SYS_getppid) != pp; bad += getppid() != pp; n += 2; }
  printf("done n>0=%d bad=%ld\n", n > 0, bad);
  return 0;
}
