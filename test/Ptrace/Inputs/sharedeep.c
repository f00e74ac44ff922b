/* sharedeep D READY GO: deepwait.c with two processes in one memory. A
 * child made by clone(CLONE_VM) (not a thread: a process of its own) and
 * this process both recurse D calls deep into rec(). Says "started" on
 * READY once the child exists, waits for a byte on GO (tsrun has attached
 * to this process), lets the child go, and both recurse; once both are at
 * the bottom, says "bottom" and waits for GO again (tsrun detaches
 * meanwhile, every return address of both hijacked). Then every call
 * returns in both, and the program says what each computed against what
 * it should have, and whether anyone still traces either. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *ReadyPath, *GoPath;
static long Depth, ChildGot;
static int AtBottom, Released, ChildGo, MainPid, ChildPid;

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

static void waitFlag(int *Flag) {
  while (!__atomic_load_n(Flag, __ATOMIC_ACQUIRE))
    ;
}

__attribute__((noinline)) long rec(long D) {
  if (D == 0) {
    __atomic_add_fetch(&AtBottom, 1, __ATOMIC_ACQ_REL);
    if (getpid() != MainPid) {
      waitFlag(&Released);
      return 1;
    }
    int St = 0;
    while (__atomic_load_n(&AtBottom, __ATOMIC_ACQUIRE) < 2)
      if (waitpid(ChildPid, &St, WNOHANG) == ChildPid) {
        /* Killed on its way down (by a breakpoint it could not handle). */
        say("child ended\n");
        waitGo();
        printf("child status %d\n", St);
        exit(3);
      }
    say("bottom\n");
    waitGo();
    __atomic_store_n(&Released, 1, __ATOMIC_RELEASE);
    return 1;
  }
  long R = rec(D - 1);
  __asm__ volatile("" : "+r"(R));
  return R * 3 % 1000003 + D;
}

static int tracerPid(int Pid) {
  char Path[64], Line[256];
  snprintf(Path, sizeof Path, "/proc/%d/status", Pid);
  FILE *F = fopen(Path, "r");
  int Tracer = -1;
  while (F && fgets(Line, sizeof Line, F))
    if (sscanf(Line, "TracerPid: %d", &Tracer) == 1)
      break;
  if (F)
    fclose(F);
  return Tracer;
}

static int child(void *A) {
  waitFlag(&ChildGo);
  ChildGot = rec(Depth);
  return 0;
}

int main(int argc, char **argv) {
  long Want = 1;
  Depth = atol(argv[1]);
  MainPid = getpid();
  ReadyPath = argv[2];
  GoPath = argv[3];
  for (long K = 1; K <= Depth; ++K)
    Want = Want * 3 % 1000003 + K;
  size_t Size = 8 << 20;
  char *Stack = mmap(0, Size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pid_t Pid = clone(child, Stack + Size, CLONE_VM | SIGCHLD, 0);
  if (Pid < 0)
    return 2;
  ChildPid = Pid;
  say("started\n");
  waitGo();
  __atomic_store_n(&ChildGo, 1, __ATOMIC_RELEASE);
  long Got = rec(Depth);
  int ChildTracer = tracerPid(Pid), St = 0;
  waitpid(Pid, &St, 0);
  printf("rec %ld %ld, expected %ld\ntracers %d %d\nchild status %d\n", Got,
         ChildGot, Want, tracerPid(getpid()), ChildTracer, St);
  return Got != Want || ChildGot != Want || St != 0;
}
