// A hot multithreaded program that checks by itself that being traced and
// then detached from changed nothing it computes (detach-driver.py).
//
//   detach-target THREADS
//
// Every thread runs "epochs" of work through the probed functions (entry
// and exit probes, a FUNC+OFFSET site, within(), recursion, system calls,
// a signal handler that calls a probed function, a clause that reads
// unmapped memory, a rarely called function whose clause runs at a
// breakpoint) and compares each epoch's result with
// the one main computed before any tracer came. Once every thread is hot,
// main prints "ready PID" and waits for a line on stdin: the tracer is
// gone. Then every thread does a fixed amount of work more, and main
// prints that work's checksum, the number of epochs that came out wrong,
// and whether the code of the probed functions and the signal
// dispositions are what they were before the tracer came.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { MaxThreads = 16, EpochCalls = 200, FinalEpochs = 400 };

volatile long sink;

__attribute__((noinline)) long work(long x) {
  long s = 0;
  for (int i = 0; i < 10; i++)
    s += x * i;
  sink = s;
  return s;
}

// Probed at mix+3, the `add` (in the i386 build, the load of the
// argument): written in assembly so that the offset is an instruction
// boundary whatever the compiler does.
long mix(long x);
#ifdef __x86_64__
__asm__(".text\n"
        ".globl mix\n"
        ".type mix, @function\n"
        "mix:\n"
        "  mov %rdi, %rax\n"
        "  add $1, %rax\n"
        "  imul %rax, %rax\n"
        "  ret\n"
        ".size mix, .-mix\n");
#else
__asm__(".text\n"
        ".globl mix\n"
        ".type mix, @function\n"
        "mix:\n"
        "  push %ebp\n"          /* 1 byte */
        "  mov %esp, %ebp\n"     /* 2 bytes */
        "  mov 8(%ebp), %eax\n"  /* mix+3 */
        "  add $1, %eax\n"
        "  imul %eax, %eax\n"
        "  pop %ebp\n"
        "  ret\n"
        ".size mix, .-mix\n");
#endif

__attribute__((noinline)) long inner(long x) {
  sink = x;
  return x * 3 + 1;
}

__attribute__((noinline)) long middle(long x) { return inner(x) + inner(x + 1); }

__attribute__((noinline)) long outer(long x) { return middle(x) ^ 0x55; }

__attribute__((noinline)) long rec(int depth, long x) {
  if (depth == 0)
    return work(x);
  return rec(depth - 1, x + 1) + depth;
}

// Its clause keys by a stack: a breakpoint even in-process.
__attribute__((noinline)) long rare(long x) {
  sink = x;
  return x + 7;
}

// Its clause reads *p, and p is unmapped every other time: a fault in
// clause code, which the agent recovers from.
__attribute__((noinline)) long peek(long *p) {
  sink = (long)p;
  return 1;
}

static __thread long SignalWork;

static void onSignal(int Sig) {
  (void)Sig;
  SignalWork += work(7);
}

static long epoch(long seed) {
  long s = 0;
  for (int i = 0; i < EpochCalls; i++) {
    s += work(seed + i);
    s ^= mix(seed * i);
    s += outer(i) + inner(i);
    if (i % 10 == 0)
      s += peek(i % 20 ? (long *)&sink : (long *)0x100000000l);
    if (i % 50 == 0)
      s += rec(5, seed + i);
    if (i % 100 == 0) {
      long Before = SignalWork;
      s += syscall(SYS_getppid) > 0;
      raise(SIGUSR1);
      s += SignalWork - Before;
    }
    if (i % 200 == 0)
      s += rare(i);
  }
  return s;
}

static long Expected[MaxThreads];
static atomic_int Hot, Go;
static atomic_long Bad;
static long Sums[MaxThreads];

static void *thread(void *Arg) {
  long T = (long)Arg;
  int WasHot = 0;
  while (!atomic_load(&Go)) {
    if (epoch(T) != Expected[T])
      atomic_fetch_add(&Bad, 1);
    if (!WasHot++)
      atomic_fetch_add(&Hot, 1);
  }
  long Sum = 0;
  for (long K = 0; K < FinalEpochs; K++)
    Sum = Sum * 31 + epoch(T * 1000 + K);
  Sums[T] = Sum;
  return 0;
}

static int firstObject(struct dl_phdr_info *Info, size_t Size, void *Out) {
  (void)Size;
  *(struct dl_phdr_info *)Out = *Info;
  return 1; // the executable comes first
}

// Whether the first 32 bytes of each probed function are those of the
// executable file (a launched program is patched before main runs).
static int codeIntact(void) {
  const void *Fns[] = {(void *)work,  (void *)mix, (void *)inner,
                       (void *)middle, (void *)outer, (void *)rec,
                       (void *)rare};
  struct dl_phdr_info Main;
  memset(&Main, 0, sizeof(Main));
  dl_iterate_phdr(firstObject, &Main);
  int Fd = open("/proc/self/exe", O_RDONLY);
  int Ok = Fd >= 0;
  for (int I = 0; Ok && I < 7; I++) {
    unsigned long V = (unsigned long)Fns[I] - Main.dlpi_addr;
    long Off = -1;
    for (int H = 0; H < Main.dlpi_phnum; H++) {
      const ElfW(Phdr) *P = &Main.dlpi_phdr[H];
      if (P->p_type == PT_LOAD && V >= P->p_vaddr && V < P->p_vaddr + P->p_filesz)
        Off = (long)(P->p_offset + (V - P->p_vaddr));
    }
    unsigned char File[32];
    Ok = Off >= 0 && pread(Fd, File, 32, Off) == 32 && !memcmp(File, Fns[I], 32);
  }
  if (Fd >= 0)
    close(Fd);
  return Ok;
}

static int handlersOk(void) {
  struct sigaction A;
  sigaction(SIGUSR1, 0, &A);
  if (A.sa_handler != onSignal)
    return 0;
  int Defaults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGILL};
  for (int I = 0; I < 5; I++) {
    sigaction(Defaults[I], 0, &A);
    if (A.sa_handler != SIG_DFL)
      return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 4;
  if (N < 1 || N > MaxThreads)
    return 2;
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = onSignal;
  A.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &A, 0);
  for (long T = 0; T < N; T++)
    Expected[T] = epoch(T);
  pthread_t Threads[MaxThreads];
  for (long T = 0; T < N; T++)
    pthread_create(&Threads[T], 0, thread, (void *)T);
  while (atomic_load(&Hot) < N)
    usleep(1000);
  printf("ready %d\n", (int)getpid());
  fflush(stdout);
  char Line[64];
  if (!fgets(Line, sizeof(Line), stdin)) {
    printf("reading stdin failed: %s\n", ferror(stdin) ? strerror(errno) : "end of file");
    return 3;
  }
  atomic_store(&Go, 1);
  unsigned long Checksum = 0;
  for (long T = 0; T < N; T++) {
    pthread_join(Threads[T], 0);
    Checksum = Checksum * 1000003 + (unsigned long)Sums[T];
  }
  printf("checksum %lx bad %ld code %s handlers %s\n", Checksum,
         atomic_load(&Bad), codeIntact() ? "intact" : "changed",
         handlersOk() ? "ok" : "changed");
  return 0;
}
