/* Under `tsrun --exe WORKER`: execs WORKER with an argument too long for
 * the kernel (E2BIG, after WORKER was opened for exec: the watcher has
 * seen it), says so, then execs OTHER, a copy of WORKER at another path
 * that is not watched. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char Big[200 * 1024]; /* > MAX_ARG_STRLEN (128 KiB) */

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  memset(Big, 'x', sizeof(Big) - 1);
  char *Worker[] = {argv[1], "-", "5", "0", Big, NULL};
  execv(argv[1], Worker);
  printf("pid %d exec of worker failed: %s\n", getpid(),
         errno == E2BIG ? "E2BIG" : strerror(errno));
  fflush(stdout);
  char *Other[] = {argv[2], "-", "7", "0", NULL};
  execv(argv[2], Other);
  perror("execv");
  return 1;
}
