/* Prints its kernel name (comm) before each call of work(), renaming its
 * thread in between, for __comm to be compared with. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

__attribute__((noinline)) int work(int x) { return x + 1; }

static void say(int x) {
  char Name[16] = {0};
  prctl(PR_GET_NAME, Name);
  printf("comm %d %s\n", x, Name);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  say(1);
  work(1);
  prctl(PR_SET_NAME, "renamed-thread");
  say(2);
  work(2);
  return 0;
}
