/* deepwait D READY GO: says "started" on READY, waits for a byte on GO
 * (tsrun has attached), then recurses D calls deep into rec(); the
 * innermost says "bottom" on READY and waits for GO again (tsrun detaches
 * meanwhile, every return address hijacked). Then every call returns and
 * the program says what rec() computed against what it should have, and
 * whether anyone still traces it. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ReadyPath, *GoPath;

static void say(const char *Msg) {
  int Fd = open(ReadyPath, O_WRONLY);
  if (Fd < 0 || write(Fd, Msg, strlen(Msg)) < 0)
    exit(2);
  close(Fd);
}

static void waitGo(void) {
  char C;
  int Fd = open(GoPath, O_RDONLY);
  if (Fd < 0 || read(Fd, &C, 1) != 1)
    exit(2);
  close(Fd);
}

__attribute__((noinline)) long rec(long D) {
  if (D == 0) {
    say("bottom\n");
    waitGo();
    return 1;
  }
  long R = rec(D - 1);
  __asm__ volatile("" : "+r"(R));
  return R * 3 % 1000003 + D;
}

static int tracerPid(void) {
  FILE *F = fopen("/proc/self/status", "r");
  char Line[256];
  int Pid = -1;
  while (F && fgets(Line, sizeof Line, F))
    if (sscanf(Line, "TracerPid: %d", &Pid) == 1)
      break;
  if (F)
    fclose(F);
  return Pid;
}

int main(int argc, char **argv) {
  long D = atol(argv[1]), Want = 1;
  ReadyPath = argv[2];
  GoPath = argv[3];
  for (long K = 1; K <= D; ++K)
    Want = Want * 3 % 1000003 + K;
  say("started\n");
  waitGo();
  long Got = rec(D);
  printf("rec %ld, expected %ld\ntracer %d\n", Got, Want, tracerPid());
  return Got != Want;
}
