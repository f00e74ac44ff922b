/* The program the ptrace unit tests trace. Each mode prints the values the
 * tests compare against ("key=value" lines), so nothing is hard-coded on the
 * tracer side. Functions are noinline so every call really happens. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, used))

volatile long Sink;
int counter;

NOINLINE long work(long i) {
  Sink += i;
  return i * 2 + 1;
}

NOINLINE long rec(long depth) {
  if (depth == 0)
    return 1;
  long R = rec(depth - 1);
  /* Keeps the compiler from turning the recursion into a loop. */
  __asm__ volatile("" : "+r"(R));
  return R * 3 + depth;
}

/* Prologues that exercise each way of displacing an instruction:
 * rip_func starts with a RIP-relative load (out of line, displacement
 * fixed up), call_func with a call (emulated), jmp_func with a jmp
 * (emulated), sub_func with sub $imm,%rsp (out of line, flags live),
 * jcc_func has a conditional branch at +2 for FUNC+OFFSET. */
__asm__(".text\n"
        ".globl rip_func\n.type rip_func,@function\n"
        "rip_func:\n"
        "  movl counter(%rip), %eax\n"
        "  addl %edi, %eax\n"
        "  movl %eax, counter(%rip)\n"
        "  ret\n"
        ".size rip_func, .-rip_func\n"
        ".globl call_func\n.type call_func,@function\n"
        "call_func:\n"
        "  call rip_func\n"
        "  addl $1, %eax\n"
        "  ret\n"
        ".size call_func, .-call_func\n"
        ".globl jmp_func\n.type jmp_func,@function\n"
        "jmp_func:\n"
        "  jmp rip_func\n"
        ".size jmp_func, .-jmp_func\n"
        ".globl sub_func\n.type sub_func,@function\n"
        "sub_func:\n"
        "  subq $8, %rsp\n"
        "  call rip_func\n"
        "  addq $8, %rsp\n"
        "  ret\n"
        ".size sub_func, .-sub_func\n"
        ".globl jcc_func\n.type jcc_func,@function\n"
        "jcc_func:\n"
        "  test %edi, %edi\n"
        "  jz 1f\n"
        "  movl $7, %eax\n"
        "  ret\n"
        "1:\n"
        "  movl $9, %eax\n"
        "  ret\n"
        ".size jcc_func, .-jcc_func\n"
        ".globl icall_func\n.type icall_func,@function\n"
        "icall_func:\n"
        "  leaq rip_func(%rip), %rax\n"
        "  call *%rax\n"
        "  addl $1, %eax\n"
        "  ret\n"
        ".size icall_func, .-icall_func\n");
int rip_func(int);
int call_func(int);
int jmp_func(int);
int sub_func(int);
int jcc_func(int);
int icall_func(int);

static int M;

static void *threadMain(void *Arg) {
  for (int I = 0; I < M; ++I)
    work(I);
  return Arg;
}

static int modeThreads(int N, int Each) {
  M = Each;
  pthread_t T[64];
  if (N > 64)
    N = 64;
  for (int I = 0; I < N; ++I)
    pthread_create(&T[I], 0, threadMain, 0);
  for (int I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  printf("work_calls=%d\n", N * Each);
  return 0;
}

static int modeRecurse(long D) {
  long Sum = 0;
  /* rec(k) returns r(k) for k = D..0; the exit probe sees every one. */
  long R = 1;
  Sum += R;
  for (long K = 1; K <= D; ++K) {
    R = R * 3 + K;
    Sum += R;
  }
  long Got = rec(D);
  printf("rec_calls=%ld rec_rv_sum=%ld rec_result=%ld\n", D + 1, Sum, Got);
  return Got == R ? 0 : 1;
}

static int modeFork(int K) {
  for (int I = 0; I < K; ++I) {
    pid_t P = fork();
    if (P == 0) {
      for (int J = 0; J < 10; ++J)
        work(J);
      _exit(0);
    }
    waitpid(P, 0, 0);
  }
  for (int J = 0; J < 10; ++J)
    work(J);
  printf("work_calls=%d\n", (K + 1) * 10);
  return 0;
}

static int modeVariety(int N) {
  int Bad = 0;
  for (int I = 0; I < N; ++I) {
    int Before = counter;
    if (rip_func(I) != Before + I)
      ++Bad;
    Before = counter;
    if (call_func(1) != Before + 2)
      ++Bad;
    Before = counter;
    if (jmp_func(2) != Before + 2)
      ++Bad;
    Before = counter;
    if (sub_func(3) != Before + 3)
      ++Bad;
    if (jcc_func(I & 1) != ((I & 1) ? 7 : 9))
      ++Bad;
    Before = counter;
    if (icall_func(4) != Before + 5)
      ++Bad;
  }
  printf("variety_calls=%d bad=%d\n", N, Bad);
  return Bad != 0;
}

static int modeSyscalls(int N) {
  for (int I = 0; I < N; ++I)
    syscall(SYS_getppid);
  printf("getppid_calls=%d\n", N);
  return 0;
}

static int modeDlopen(const char *Lib, int K) {
  void *H = dlopen(Lib, RTLD_NOW);
  if (!H) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  long (*F)(long) = (long (*)(long))dlsym(H, "lib_func");
  for (int I = 0; I < K; ++I)
    F(I);
  int *Ctor = (int *)dlsym(H, "lib_ctor_calls");
  printf("lib_func_calls=%d\n", K + *Ctor);
  dlclose(H);
  return 0;
}

static void onSignal(int Sig) { work(Sig); }

static int modeSignals(int N) {
  signal(SIGUSR1, onSignal);
  for (int I = 0; I < N; ++I)
    raise(SIGUSR1);
  printf("work_calls=%d\n", N);
  return 0;
}

static jmp_buf Jb;
NOINLINE long jumper(long i) {
  if (i & 1)
    longjmp(Jb, 1);
  return i;
}

static int modeLongjmp(int N) {
  int Returned = 0;
  for (int I = 0; I < N; ++I) {
    if (setjmp(Jb) == 0) {
      jumper(I);
      ++Returned;
    }
  }
  /* After the longjmps, ordinary returns must still be seen. */
  for (int I = 0; I < 5; ++I)
    work(I);
  printf("jumper_calls=%d jumper_returns=%d work_calls=5\n", N, Returned);
  return 0;
}

/* Tells the test it is inside, then blocks until it gets a byte. */
NOINLINE long blocker(long x) {
  char C;
  printf("in\n");
  if (read(0, &C, 1) != 1)
    return -1;
  return x + 6;
}

int main(int argc, char **argv) {
  const char *Out = getenv("TARGET_OUT");
  if (Out && !freopen(Out, "w", stdout))
    return 3;
  setvbuf(stdout, 0, _IONBF, 0);
  if (argc < 2)
    return 2;
  const char *Mode = argv[1];
  long A = argc > 2 ? atol(argv[2]) : 0;
  long B = argc > 3 ? atol(argv[3]) : 0;
  if (!strcmp(Mode, "threads"))
    return modeThreads((int)A, (int)B);
  if (!strcmp(Mode, "recurse"))
    return modeRecurse(A);
  if (!strcmp(Mode, "fork"))
    return modeFork((int)A);
  if (!strcmp(Mode, "variety"))
    return modeVariety((int)A);
  if (!strcmp(Mode, "syscalls"))
    return modeSyscalls((int)A);
  if (!strcmp(Mode, "dlopen"))
    return modeDlopen(argv[2], (int)B);
  if (!strcmp(Mode, "signals"))
    return modeSignals((int)A);
  if (!strcmp(Mode, "longjmp"))
    return modeLongjmp((int)A);
  if (!strcmp(Mode, "exec")) {
    for (int I = 0; I < 3; ++I)
      work(I);
    execv(argv[2], argv + 2);
    perror("execv");
    return 1;
  }
  if (!strcmp(Mode, "block")) {
    long R = blocker(1);
    printf("blocker=%ld\n", R);
    return R == 7 ? 0 : 1;
  }
  if (!strcmp(Mode, "wait")) {
    /* For attach: tell the test we are ready, then work when told. */
    char C;
    printf("ready\n");
    if (read(0, &C, 1) != 1)
      return 1;
    for (int I = 0; I < A; ++I)
      work(I);
    printf("work_calls=%ld\n", A);
    if (read(0, &C, 1) < 0)
      return 1;
    return 0;
  }
  return 2;
}
