/* sandboxed MODE N [GO]: a worker that sandboxes itself with seccomp, as
 * browsers' renderers and systemd's SystemCallFilter= do, then calls work()
 * N times and prints its own count. Every filter kills system calls made
 * through another architecture, as libseccomp's do.
 *
 *   mem   kills the process on mmap, mprotect and memfd_create; after
 *         its N calls it forks a child that makes N more (filters are
 *         inherited);
 *   threads  as mem, with 4 threads (started before the filter: their
 *         stacks need mmap) that each make the N calls at the same time;
 *   net   kills it on socket, connect and recvmsg, and asks for a tracer
 *         on getppid (SECCOMP_RET_TRACE: without one, ENOSYS);
 *   ownkill  lets kill() reach only the process itself (EPERM for any
 *         other pid: its first argument decides), as browsers' renderers;
 *   nounmap  kills it on munmap; after its N calls it says "worked",
 *         waits for a byte on the FIFO GO2 (GO's name and "2"), and makes
 *         N more (tsrun has left by then);
 *   late  run by tsrun: calls work() N times unsandboxed, then installs a
 *         "W^X, no network" filter (kills anonymous executable mmap,
 *         executable mprotect, memfd_create, socket, connect, recvmsg),
 *         calls work() N times, forks a child that calls it N times, and
 *         execs itself as "exec", which stacks a second filter (EPERM for
 *         memfd_create) and calls work() N times more.
 *
 *   under CMD ARG...  installs a filter that allows everything, then runs
 *         CMD: a tracer under seccomp, which the kernel does not show
 *         other processes' filters.
 *
 * With GO (attach tests), it prints "ready" once its filter is in and
 * waits for a byte on the FIFO GO before it works. Output goes through
 * write(): stdio may want memory in ways a filter forbids.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long I) { return 2 * I + 1; }

static void say(const char *Fmt, long A, long B) {
  char Buf[128];
  int N = snprintf(Buf, sizeof(Buf), Fmt, A, B);
  if (write(1, Buf, N) != N)
    _exit(3);
}

static long loop(long N) {
  long Sum = 0;
  for (long I = 0; I < N; ++I)
    Sum += work(I);
  return Sum;
}

#define STMT(C, K) ((struct sock_filter){(C), 0, 0, (K)})
#define JUMP(C, K, T, F) ((struct sock_filter){(C), (T), (F), (K)})
#define LOAD(Field) STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, Field))
#define RET(V) STMT(BPF_RET | BPF_K, (V))
#define IS(Nr, Skip) JUMP(BPF_JMP | BPF_JEQ | BPF_K, (Nr), 0, (Skip))
#define KILL SECCOMP_RET_KILL_PROCESS

static void install(struct sock_filter *F, int Len) {
  struct sock_fprog Prog = {(unsigned short)Len, F};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) != 0) {
    perror("seccomp");
    exit(2);
  }
}

/* The arch check every filter starts with: 3 instructions, then nr in A.
 * A 32-bit build checks for i386, and its libc's mmap() is mmap2. */
#ifdef __x86_64__
#define OWN_ARCH AUDIT_ARCH_X86_64
#define SYS_MMAP SYS_mmap
#else
#define OWN_ARCH AUDIT_ARCH_I386
#define SYS_MMAP SYS_mmap2
#endif
#define PROLOGUE                                                               \
  LOAD(arch), JUMP(BPF_JMP | BPF_JEQ | BPF_K, OWN_ARCH, 1, 0), RET(KILL),      \
      LOAD(nr)

static void sandboxMem(void) {
  struct sock_filter F[] = {PROLOGUE,
                            IS(SYS_MMAP, 1),         RET(KILL),
                            IS(SYS_mprotect, 1),     RET(KILL),
                            IS(SYS_memfd_create, 1), RET(KILL),
                            RET(SECCOMP_RET_ALLOW)};
  install(F, sizeof(F) / sizeof(F[0]));
}

static void sandboxNet(void) {
  struct sock_filter F[] = {PROLOGUE,
                            IS(SYS_socket, 1),  RET(KILL),
                            IS(SYS_connect, 1), RET(KILL),
                            IS(SYS_recvmsg, 1), RET(KILL),
                            IS(SYS_getppid, 1), RET(SECCOMP_RET_TRACE),
                            RET(SECCOMP_RET_ALLOW)};
  install(F, sizeof(F) / sizeof(F[0]));
}

/* Arguments decide: only executable memory that is not a file's. */
#define KILL_IF(Nr, ToKill) JUMP(BPF_JMP | BPF_JEQ | BPF_K, (Nr), (ToKill), 0)
#define TEST(Bits, T, F) JUMP(BPF_JMP | BPF_JSET | BPF_K, (Bits), (T), (F))
static void sandboxOwnKill(void) {
  struct sock_filter F[] = {PROLOGUE,
                            IS(SYS_kill, 4),
                            LOAD(args[0]),
                            JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)getpid(),
                                 0, 1),
                            RET(SECCOMP_RET_ALLOW),
                            RET(SECCOMP_RET_ERRNO | EPERM),
                            RET(SECCOMP_RET_ALLOW)};
  install(F, sizeof(F) / sizeof(F[0]));
}

static void sandboxNoUnmap(void) {
  struct sock_filter F[] = {PROLOGUE, IS(SYS_munmap, 1), RET(KILL),
                            RET(SECCOMP_RET_ALLOW)};
  install(F, sizeof(F) / sizeof(F[0]));
}

static void sandboxWx(void) {
  struct sock_filter F[] = {
      PROLOGUE,                    /* 0-3 */
      IS(SYS_MMAP, 4),             /* 4: else 9 */
      LOAD(args[2]),               /* 5: prot */
      TEST(PROT_EXEC, 0, 9),       /* 6: else allow */
      LOAD(args[3]),               /* 7: flags */
      TEST(MAP_ANONYMOUS, 8, 7),   /* 8: kill, else allow */
      IS(SYS_mprotect, 2),         /* 9: else 12 */
      LOAD(args[2]),               /* 10 */
      TEST(PROT_EXEC, 5, 4),       /* 11: kill, else allow */
      KILL_IF(SYS_memfd_create, 4),/* 12 */
      KILL_IF(SYS_socket, 3),      /* 13 */
      KILL_IF(SYS_connect, 2),     /* 14 */
      KILL_IF(SYS_recvmsg, 1),     /* 15 */
      RET(SECCOMP_RET_ALLOW),      /* 16 */
      RET(KILL),                   /* 17 */
  };
  install(F, sizeof(F) / sizeof(F[0]));
}

static void sandboxNoMemfd(void) {
  struct sock_filter F[] = {PROLOGUE, IS(SYS_memfd_create, 1),
                            RET(SECCOMP_RET_ERRNO | EPERM),
                            RET(SECCOMP_RET_ALLOW)};
  install(F, sizeof(F) / sizeof(F[0]));
}

enum { Threads = 4 };
static pthread_barrier_t Start;
static long Calls;         /* per thread */
static long Sums[Threads]; /* each thread's own */

static void *worker(void *Index) {
  pthread_barrier_wait(&Start); /* the filter is in, tsrun attached */
  Sums[(long)Index] = loop(Calls);
  return 0;
}

static void waitFor(const char *Go) {
  char C;
  int Fd = open(Go, O_RDONLY);
  if (Fd < 0 || read(Fd, &C, 1) != 1) {
    say(Fd < 0 ? "cannot open GO: errno %ld\n" : "cannot read GO: errno %ld\n",
        errno, 0);
    _exit(2);
  }
  close(Fd);
}

static int late(const char *Self, long N) {
  say("unsandboxed: %ld calls, sum %ld\n", N, loop(N));
  sandboxWx();
  say("sandboxed: %ld calls, sum %ld\n", N, loop(N));
  pid_t Child = fork();
  if (Child == 0) {
    say("child: %ld calls, sum %ld\n", N, loop(N));
    _exit(0);
  }
  int St = 0;
  waitpid(Child, &St, 0);
  say("child status %ld\n", St, 0);
  char Count[32];
  snprintf(Count, sizeof(Count), "%ld", N);
  execl(Self, Self, "exec", Count, (char *)0);
  perror("exec");
  return 1;
}

static int under(char **Argv) {
  struct sock_filter F[] = {RET(SECCOMP_RET_ALLOW)};
  install(F, 1);
  execvp(Argv[0], Argv);
  perror("exec");
  return 127;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "under"))
    return under(argv + 2);
  if (argc < 3)
    return 2;
  const char *Mode = argv[1];
  long N = atol(argv[2]);
  if (!strcmp(Mode, "late"))
    return late(argv[0], N);
  if (!strcmp(Mode, "exec")) {
    sandboxNoMemfd();
    say("after exec: %ld calls, sum %ld\n", N, loop(N));
    /* Both filters are there: memfd_create is killed, not refused. */
    return 0;
  }
  pthread_t Workers[Threads];
  if (!strcmp(Mode, "threads")) {
    pthread_barrier_init(&Start, 0, Threads + 1);
    Calls = N;
    for (long I = 0; I < Threads; ++I)
      pthread_create(&Workers[I], 0, worker, (void *)I);
    sandboxMem();
  } else if (!strcmp(Mode, "mem"))
    sandboxMem();
  else if (!strcmp(Mode, "net"))
    sandboxNet();
  else if (!strcmp(Mode, "nounmap"))
    sandboxNoUnmap();
  else if (!strcmp(Mode, "ownkill"))
    sandboxOwnKill();
  else
    return 2;
  if (argc > 3) {
    say("ready\n", 0, 0);
    waitFor(argv[3]);
  }
  if (!strcmp(Mode, "threads")) {
    pthread_barrier_wait(&Start);
    long Total = 0;
    for (int I = 0; I < Threads; ++I) {
      pthread_join(Workers[I], 0);
      Total += Sums[I];
    }
    say("%ld threads, %ld calls each\n", Threads, N);
    say("total sum %ld\n", Total, 0);
    return 0;
  }
  say("%ld calls, sum %ld\n", N, loop(N));
  if (!strcmp(Mode, "mem")) {
    pid_t Child = fork();
    if (Child == 0) {
      say("child: %ld calls, sum %ld\n", N, loop(N));
      _exit(0);
    }
    int St = 0;
    waitpid(Child, &St, 0);
    say("child status %ld\n", St, 0);
  }
  if (!strcmp(Mode, "nounmap") && argc > 3) {
    /* A FIFO of its own: GO may still be open from the first release. */
    char Go2[4096];
    snprintf(Go2, sizeof(Go2), "%s2", argv[3]);
    say("worked\n", 0, 0);
    waitFor(Go2);
    say("after tsrun: %ld calls, sum %ld\n", N, loop(N));
  }
  if (!strcmp(Mode, "ownkill"))
    say("kill(1, 0): errno %ld\n", kill(1, 0) ? errno : 0, 0);
  if (!strcmp(Mode, "net")) {
    /* No tracer of its own: the filter's RET_TRACE fails the call. */
    long R = syscall(SYS_getppid);
    say("getppid: %ld errno %ld\n", R, R < 0 ? errno : 0);
  }
  return 0;
}
