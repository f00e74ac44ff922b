/* sud-stress THREADS: system calls as fast as THREADS threads can make
 * them, each result checked: getppid() and getpid() through glibc,
 * getppid from code written at run time (no site tsrun knows of), gettid
 * through syscall(), rt_sigprocmask() (a mask read back as set), and a
 * byte through a pipe (write, then a read that finds it there), and
 * raise(SIGUSR1) into a handler (glibc's raise() makes tgkill() with
 * nothing blocked: the handler's frame goes back to right after that
 * `syscall`, a site tsrun may patch meanwhile), when the argument after
 * THREADS is "raise" (or "call": the handler then makes a traced call,
 * getppid, too).
 * Says "ready PID" once every thread is hot, then waits for a line on
 * stdin (sent once tsrun is gone), goes on for ROUNDS_AFTER more rounds
 * per thread, and prints one line that an untraced run prints the same:
 * the number of wrong results, whether glibc's code is the bytes it was
 * at the start, and whether SIGSYS is still the program's (SIG_DFL). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { ROUNDS_AFTER = 20000, CODE_BYTES = 48 };
static const unsigned char RawCode[] = {0x48, 0x89, 0xf8, 0x0f, 0x05, 0xc3};
static long (*Raw)(long);
static pid_t Pid, Ppid;
static volatile int Go;
static long Bad, Hot;
static __thread volatile long Caught;

static int CallInHandler, Raise;

static void onUsr1(int Sig) {
  (void)Sig;
  Caught += CallInHandler ? getppid() == Ppid : 1;
}

static long Kinds[8];
#define CHECK(K, Wrong)                                                        \
  do {                                                                         \
    if (Wrong) {                                                               \
      ++B;                                                                     \
      __atomic_add_fetch(&Kinds[K], 1, __ATOMIC_RELAXED);                      \
    }                                                                          \
  } while (0)

static int one_round(int Fds[2]) {
  int B = 0;
  CHECK(0, getppid() != Ppid);
  CHECK(1, Raw(SYS_getppid) != Ppid);
  CHECK(2, getpid() != Pid);
  CHECK(3, syscall(SYS_gettid) != gettid());
  sigset_t Set, Old, Now;
  sigemptyset(&Set);
  sigaddset(&Set, SIGUSR1);
  CHECK(4, pthread_sigmask(SIG_BLOCK, &Set, &Old) != 0);
  CHECK(4, pthread_sigmask(SIG_SETMASK, &Old, &Now) != 0 ||
               !sigismember(&Now, SIGUSR1));
  char C = 'x', D = 0;
  CHECK(5, write(Fds[1], &C, 1) != 1 || read(Fds[0], &D, 1) != 1 || D != 'x');
  if (Raise) {
    long Before = Caught;
    CHECK(6, raise(SIGUSR1) != 0 || Caught != Before + 1);
  }
  return B;
}

static void *thread(void *Arg) {
  (void)Arg;
  int Fds[2];
  if (pipe(Fds) != 0)
    abort();
  long B = one_round(Fds);
  __atomic_add_fetch(&Hot, 1, __ATOMIC_RELEASE);
  while (!Go)
    B += one_round(Fds);
  for (int I = 0; I < ROUNDS_AFTER; ++I)
    B += one_round(Fds);
  __atomic_add_fetch(&Bad, B, __ATOMIC_RELAXED);
  close(Fds[0]);
  close(Fds[1]);
  return 0;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 4;
  CallInHandler = argc > 2 && !strcmp(argv[2], "call");
  Raise = CallInHandler || (argc > 2 && !strcmp(argv[2], "raise"));
  setvbuf(stdout, NULL, _IOLBF, 0);
  void *P = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memcpy(P, RawCode, sizeof RawCode);
  mprotect(P, 4096, PROT_READ | PROT_EXEC);
  Raw = (long (*)(long))P;
  Pid = getpid();
  Ppid = getppid();
  /* glibc's functions the threads call: their bytes now, before any
   * tracer, to compare at the end. */
  void *Fns[] = {(void *)getppid, (void *)getpid, (void *)syscall,
                 (void *)write, (void *)read, (void *)pthread_sigmask};
  enum { NFNS = sizeof(Fns) / sizeof(Fns[0]) };
  static unsigned char Before[NFNS][CODE_BYTES];
  for (int I = 0; I < NFNS; ++I)
    memcpy(Before[I], Fns[I], CODE_BYTES);
  struct sigaction Usr1;
  memset(&Usr1, 0, sizeof(Usr1));
  Usr1.sa_handler = onUsr1;
  Usr1.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &Usr1, 0);
  pthread_t T[64];
  if (N < 1 || N > 64)
    return 2;
  for (int I = 0; I < N; ++I)
    pthread_create(&T[I], 0, thread, 0);
  while (__atomic_load_n(&Hot, __ATOMIC_ACQUIRE) < N)
    sched_yield();
  printf("ready %d\n", Pid);
  char Line[16];
  if (!fgets(Line, sizeof Line, stdin))
    return 3;
  Go = 1;
  for (int I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  int Same = 1;
  for (int I = 0; I < NFNS; ++I)
    Same &= memcmp(Before[I], Fns[I], CODE_BYTES) == 0;
  struct sigaction Sys;
  sigaction(SIGSYS, 0, &Sys);
  if (Bad) /* which checks, for whoever looks into it */
    fprintf(stderr, "wrong: ppid %ld raw %ld pid %ld tid %ld mask %ld pipe %ld raise %ld\n",
            Kinds[0], Kinds[1], Kinds[2], Kinds[3], Kinds[4], Kinds[5], Kinds[6]);
  printf("done bad=%ld code=%s sigsys=%s\n", Bad, Same ? "same" : "changed",
         Sys.sa_handler == SIG_DFL ? "dfl" : "changed");
  return 0;
}
