/* What docs/runtime.md says of --syscall-dispatch and a SIGKILLed tsrun
 * rests on this kernel behaviour: a tracee stopped for a signal (here a
 * SIGSYS of Syscall User Dispatch) whose tracer dies goes on without the
 * signal. The child turns SUD on for itself and makes getppid(); a
 * second child attaches to it, waits for the SIGSYS stop and exits. The
 * child's handler would make the call return 4242; without the signal
 * the call returns its own number, 110, which the kernel put back in rax. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

enum { PR_SET_SUD = 59, SUD_ON = 1, SUD_ALLOW = 0, SUD_BLOCK = 1 };
static volatile int Ran;
static char Selector = SUD_ALLOW;

static void onSigsys(int Sig, siginfo_t *Info, void *Uc) {
  (void)Sig;
  Ran = Info->si_code;
  Selector = SUD_ALLOW;
  ((ucontext_t *)Uc)->uc_mcontext.gregs[REG_RAX] = 4242;
}

int main(void) {
  int Pipe[2];
  if (pipe(Pipe) != 0)
    return 1;
  setvbuf(stdout, NULL, _IONBF, 0);
  pid_t Child = fork();
  if (!Child) {
    struct sigaction A;
    memset(&A, 0, sizeof(A));
    A.sa_sigaction = onSigsys;
    A.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &A, 0);
    char B;
    if (read(Pipe[0], &B, 1) != 1) /* the tracer is attached */
      return 1;
    if (prctl(PR_SET_SUD, SUD_ON, 0, 0, &Selector) != 0)
      return 2;
    Selector = SUD_BLOCK;
    long R = syscall(SYS_getppid);
    Selector = SUD_ALLOW;
    printf("handler ran=%d result=%ld\n", Ran != 0, R);
    return 0;
  }
  pid_t Tracer = fork();
  if (!Tracer) {
    if (ptrace(PTRACE_SEIZE, Child, 0, 0) != 0 || write(Pipe[1], "x", 1) != 1)
      _exit(1);
    int St;
    waitpid(Child, &St, __WALL);
    printf("tracer: stop for signal %d\n", WSTOPSIG(St));
    _exit(0); /* with the child in its signal-delivery stop */
  }
  int St;
  waitpid(Tracer, &St, 0);
  waitpid(Child, &St, 0);
  printf("child status %d\n", WIFEXITED(St) ? WEXITSTATUS(St) : -1);
  return 0;
}
