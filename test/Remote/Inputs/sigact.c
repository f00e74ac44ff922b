/* The patent's example target: installs a handler with sigaction() and
 * prints, as VAL lines, what a probe on sigaction should see through its
 * struct sigaction * argument. Built -m32 and -m64 from the same source. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void handler(int sig) { (void)sig; }

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGUSR2);
  sigaddset(&sa.sa_mask, SIGTERM);
  sa.sa_flags = SA_RESTART;
  printf("VAL %d-bit sig %d handler %lu flags %d mask %lu size %lu\n",
         (int)sizeof(long) * 8, SIGUSR1, (unsigned long)handler, sa.sa_flags,
         sa.sa_mask.__val[0], (unsigned long)sizeof(struct sigaction));
  sigaction(SIGUSR1, &sa, NULL);
  return 0;
}
