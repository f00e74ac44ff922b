#define _GNU_SOURCE /* REG_RAX */
/* own-seccomp: a program with its own SIGSYS handler and seccomp filter:
 * getppid fails with EACCES (SECCOMP_RET_ERRNO; glibc's getppid, which
 * cannot fail, returns the kernel's -13 as it is), getpid traps
 * (SECCOMP_RET_TRAP) into the handler, which makes it return 4242. Prints,
 * as PROG lines, what a syscall exit probe should see of each, twice, and
 * how many SIGSYS the handler got. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int traps;

static void on_sigsys(int sig, siginfo_t *si, void *ctx) {
  ucontext_t *uc = ctx;
  ++traps;
  uc->uc_mcontext.gregs[REG_RAX] = 4242;
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSYS, &sa, NULL);
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpid, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
    perror("seccomp");
    return 1;
  }
  for (int i = 0; i < 2; ++i) {
    long r = getppid();
    printf("PROG getppid rv %ld errno %d\n", r,
           r < 0 && r >= -4095 ? (int)-r : 0);
    r = getpid();
    printf("PROG getpid rv %ld errno %d\n", r, 0);
  }
  printf("sigsys %d\n", traps);
  return 0;
}
