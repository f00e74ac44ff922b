// A parent that execs the same program twice, one child after the other,
// and, when asked, puts another build of it at the same path in between
// (test/Ptrace/exec-plan-cache.t). Built with -DK=3 or -DK=5 and -O2:
// work() is then one `lea` and a `ret`, both under a site's jump, so a
// plan made for one build and reused for the other would run the other's
// arithmetic and print a wrong sum.
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef K
#define K 3
#endif

__attribute__((noinline)) int work(int X) { return X * K + 7; }

static int runChild(const char *Path) {
  fflush(stdout);
  pid_t Pid = fork();
  if (Pid == 0) {
    execl(Path, Path, "child", (char *)NULL);
    _exit(127);
  }
  int Status = 0;
  return Pid > 0 && waitpid(Pid, &Status, 0) == Pid && WIFEXITED(Status) &&
         WEXITSTATUS(Status) == 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    int Sum = 0;
    for (int I = 0; I < 3; ++I)
      Sum += work(I);
    printf("child K=%d sum %d\n", K, Sum);
    return 0;
  }
  // PATH [REPLACEMENT]
  if (argc < 2)
    return 2;
  if (!runChild(argv[1]))
    return 1;
  if (argc > 2 && rename(argv[2], argv[1]) != 0) {
    perror("rename");
    return 1;
  }
  if (!runChild(argv[1]))
    return 1;
  printf("parent done\n");
  return 0;
}
