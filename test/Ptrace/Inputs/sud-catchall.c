/* sud-catchall N GO: system calls that no patched site catches, in a
 * process tsrun attaches to. Says "started", waits for a byte on the FIFO
 * GO, then makes getppid() N times in each of these ways, and prints what
 * it saw (PROG lines) and the total:
 *   libc     through glibc's wrapper (a patched site);
 *   jit      from code it writes into an executable mapping at run time
 *            (no site tsrun knows of: the catch-all's);
 *   thread   the same, from a thread made after the attach;
 *   blocked  the same, with every signal blocked (the blocked set, as
 *            sigprocmask() reports it, must be the program's own);
 *   child    the same, in a child made by fork() (not with SUD_NO_FORK
 *            in the environment);
 * and checks that its own SIGSYS handler, set with sigaction(), is the
 * one sigaction() reports and the one a kill(SIGSYS) reaches. A 32-bit
 * build's jit code is `int $0x80`, and its libc's calls go through the
 * vDSO's __kernel_vsyscall (sysenter). */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long (*Raw)(long Nr, long A, long B, long C, long D);
static int N;
static volatile int OwnSigsys;

static void onSigsys(int S) { ++OwnSigsys; }

#ifdef __i386__
/* push %ebx; mov 8(%esp),%eax; mov 12(%esp),%ebx; mov 16(%esp),%ecx;
 * mov 20(%esp),%edx; int $0x80; pop %ebx; ret */
static const unsigned char RawCode[] = {
    0x53, 0x8b, 0x44, 0x24, 0x08, 0x8b, 0x5c, 0x24, 0x0c, 0x8b, 0x4c,
    0x24, 0x10, 0x8b, 0x54, 0x24, 0x14, 0xcd, 0x80, 0x5b, 0xc3};
#else
/* mov %rdi,%rax; mov %rsi,%rdi; mov %rdx,%rsi; mov %rcx,%rdx;
 * mov %r8,%r10; syscall; ret */
static const unsigned char RawCode[] = {0x48, 0x89, 0xf8, 0x48, 0x89, 0xf7,
                                        0x48, 0x89, 0xd6, 0x48, 0x89, 0xca,
                                        0x4d, 0x89, 0xc2, 0x0f, 0x05, 0xc3};
#endif

static int rawGetppids(void) {
  long First = Raw(SYS_getppid, 0, 0, 0, 0);
  int Same = 1;
  for (int I = 1; I < N; ++I)
    Same &= Raw(SYS_getppid, 0, 0, 0, 0) == First;
  return Same;
}

static void *threadMain(void *Arg) {
  (void)Arg;
  return (void *)(long)rawGetppids();
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  N = atoi(argv[1]);
  void *Page =
      mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  memcpy(Page, RawCode, sizeof(RawCode));
  mprotect(Page, 4096, PROT_READ | PROT_EXEC);
  Raw = (long (*)(long, long, long, long, long))Page;
  printf("started\n");
  char C;
  int Go = open(argv[2], O_RDONLY);
  if (Go < 0 || read(Go, &C, 1) != 1)
    return 2;
  close(Go);
  pid_t Parent = getppid();
  int Calls = 1;
  int Same = 1;
  for (int I = 0; I < N; ++I)
    Same &= getppid() == Parent;
  Calls += 2 * N; /* and the jit ones */
  printf("PROG libc %d same=%d\n", N, Same);
  printf("PROG jit %d same=%d\n", N, rawGetppids());
  pthread_t T;
  void *Rv = 0;
  if (pthread_create(&T, 0, threadMain, 0) || pthread_join(T, &Rv))
    return 3;
  Calls += N;
  printf("PROG thread %d same=%ld\n", N, (long)Rv);
  sigset_t Usr1, All, Old, Now;
  sigemptyset(&Usr1);
  sigaddset(&Usr1, SIGUSR1);
  sigfillset(&All);
  sigprocmask(SIG_BLOCK, &Usr1, 0);
  sigprocmask(SIG_BLOCK, &All, &Old);
  Same = rawGetppids();
  Calls += N;
  sigprocmask(SIG_SETMASK, 0, &Now);
  sigprocmask(SIG_SETMASK, &Old, 0);
  printf("PROG blocked %d same=%d old-usr1=%d old-sys=%d now-usr2=%d\n", N,
         Same, sigismember(&Old, SIGUSR1), sigismember(&Old, SIGSYS),
         sigismember(&Now, SIGUSR2));
  struct sigaction Sa, Cur;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_handler = onSigsys;
  sigaction(SIGSYS, &Sa, 0);
  sigaction(SIGSYS, 0, &Cur);
  kill(getpid(), SIGSYS);
  printf("PROG own sigsys handler reported=%d ran=%d\n",
         Cur.sa_handler == onSigsys, OwnSigsys);
  if (!getenv("SUD_NO_FORK")) {
    pid_t Kid = fork();
    if (Kid == 0)
      _exit(rawGetppids() ? 0 : 1);
    int St = 0;
    waitpid(Kid, &St, 0);
    Calls += N; /* the child's */
    printf("PROG child %d status=%d\n", N, WEXITSTATUS(St));
  }
  printf("PROG getppid calls %d\n", Calls);
  return 0;
}
