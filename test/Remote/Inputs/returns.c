// depth(n) recurses n levels deep; then outer() waits until the tracer is
// gone (a byte on the FIFO argv[1]) and says where it will return to: into
// main, as the file has it, or elsewhere (a return address a tracer
// hijacked for an exit probe and left behind).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) long depth(long n) {
  return n ? depth(n - 1) + 1 : 0;
}

int main(int argc, char **argv);

__attribute__((noinline)) long outer(const char *go) {
  // Blocked here while the tracer stops the program at its end, the calls
  // may be interrupted (EINTR): they are made again.
  int Go;
  while ((Go = open(go, O_RDONLY)) < 0)
    if (errno != EINTR)
      return -1;
  char Byte;
  while (read(Go, &Byte, 1) < 0)
    if (errno != EINTR)
      return -1;
  const char *Ret = __builtin_return_address(0);
  const char *Main = (const char *)main;
  printf("return to %s\n", Ret > Main && Ret < Main + 4096 ? "main" : "elsewhere");
  return 7;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("depth %ld\n", depth(5));
  long R = outer(argv[1]);
  printf("outer %ld\n", R);
  return 0;
}
