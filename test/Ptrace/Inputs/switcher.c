// Calls work(i) and toggle(sig) in the order its arguments say, and makes
// tsrun switch collection: toggle(sig) sends sig to tsrun and waits until
// the driver, having read tsrun's announcement of the switch, writes a byte
// to FIFO. No sleeps: every call after toggle() returns sees the new state.
//   switcher FIFO TSRUN-PID|parent|fifo ACTION...
//   fifo: tsrun's pid is the first line the driver writes to FIFO (a
//   program behind a GDB stub is no child of tsrun).
//   ACTION: wA-B calls work(A) .. work(B); tSIG calls toggle(SIG);
//   b starts a thread that blocks in sigwaitinfo() (rt_sigtimedwait), and
//   returns once the thread is asleep inside that system call (its entry
//   was seen by then); u wakes that thread and waits for it to end.
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int Fifo = -1;
static pid_t Tsrun;

__attribute__((noinline)) long work(long I) {
  __asm__ volatile("" ::: "memory");
  return I * 2;
}

__attribute__((noinline)) long toggle(long Sig) {
  kill(Tsrun, (int)Sig);
  char C;
  if (read(Fifo, &C, 1) != 1) {
    perror("switcher: fifo");
    exit(2);
  }
  return Sig;
}

static pthread_t Blocked;
static volatile pid_t BlockedTid;

static void *blockInSigwait(void *Unused) {
  (void)Unused;
  BlockedTid = (pid_t)syscall(SYS_gettid);
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, SIGRTMIN);
  siginfo_t Info;
  sigwaitinfo(&Set, &Info);
  return 0;
}

/* Whether thread Tid sleeps inside system call Nr: tsrun let its entry go. */
static int sleepsIn(pid_t Tid, long Nr) {
  char Path[64], Buf[512];
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/stat", (int)Tid);
  FILE *F = fopen(Path, "r");
  if (!F)
    return 0;
  size_t N = fread(Buf, 1, sizeof(Buf) - 1, F);
  fclose(F);
  Buf[N] = 0;
  char *State = strrchr(Buf, ')');
  if (!State || State[1] != ' ' || State[2] != 'S')
    return 0;
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/syscall", (int)Tid);
  F = fopen(Path, "r");
  if (!F)
    return 0;
  long Cur = -1;
  int Ok = fscanf(F, "%ld", &Cur) == 1;
  fclose(F);
  return Ok && Cur == Nr;
}

static void startBlocked(void) {
  /* Blocked in every thread, so that only sigwaitinfo() takes it. */
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, SIGRTMIN);
  pthread_sigmask(SIG_BLOCK, &Set, 0);
  pthread_create(&Blocked, 0, blockInSigwait, 0);
  /* Polls a condition, not the clock. */
  while (!BlockedTid || !sleepsIn(BlockedTid, SYS_rt_sigtimedwait))
    sched_yield();
}

static void wakeBlocked(void) {
  pthread_kill(Blocked, SIGRTMIN);
  pthread_join(Blocked, 0);
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    fprintf(stderr, "usage: switcher FIFO TSRUN-PID|parent|fifo ACTION...\n");
    return 2;
  }
  // Read-write: opening never waits for the driver.
  Fifo = open(Argv[1], O_RDWR);
  if (Fifo < 0) {
    perror(Argv[1]);
    return 2;
  }
  if (strcmp(Argv[2], "fifo") == 0) {
    char Line[32] = {0};
    for (size_t N = 0; N + 1 < sizeof(Line); ++N)
      if (read(Fifo, &Line[N], 1) != 1 || Line[N] == '\n')
        break;
    Tsrun = (pid_t)atol(Line);
  } else {
    Tsrun = strcmp(Argv[2], "parent") == 0 ? getppid() : (pid_t)atol(Argv[2]);
  }
  for (int I = 3; I < Argc; ++I) {
    long A, B;
    if (sscanf(Argv[I], "w%ld-%ld", &A, &B) == 2) {
      for (long J = A; J <= B; ++J)
        work(J);
    } else if (sscanf(Argv[I], "t%ld", &A) == 1) {
      toggle(A);
    } else if (strcmp(Argv[I], "b") == 0) {
      startBlocked();
    } else if (strcmp(Argv[I], "u") == 0) {
      wakeBlocked();
    } else {
      fprintf(stderr, "switcher: bad action '%s'\n", Argv[I]);
      return 2;
    }
  }
  return 0;
}
