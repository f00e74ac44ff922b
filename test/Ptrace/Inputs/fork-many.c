/* Forks 4N short-lived children one after the other, each calling work(),
 * and reports its tracer's open descriptors and VmRSS after N and after 4N
 * (the tracer is its parent: tsrun launched it). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int work(int id) { return id * 2; }
static void report(int n) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/fd", (int)getppid());
  int fds = 0;
  DIR *d = opendir(path);
  for (struct dirent *e; d && (e = readdir(d));) fds += e->d_name[0] != '.';
  if (d) closedir(d);
  snprintf(path, sizeof path, "/proc/%d/status", (int)getppid());
  FILE *f = fopen(path, "r");
  long rss = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) rss = atol(line + 6);
  if (f) fclose(f);
  printf("after %d forks: tracer fds %d rss %ld kB\n", n, fds, rss);
  fflush(stdout);
}
int main(int argc, char **argv) {
  int n = atoi(argv[1]);
  for (int i = 1; i <= 4 * n; ++i) {
    pid_t p = fork();
    if (p == 0) { work(i); _exit(0); }
    waitpid(p, 0, 0);
    if (i == n || i == 4 * n) report(i);
  }
  return 0;
}
