/* faulty MODE: a program that faults on purpose, to show that faults that
 * are not a clause's reach the program exactly as without a tracer.
 *   handled: sets its own SIGSEGV and SIGFPE handlers (after tsrun put its
 *            own in), then faults 3 times each and recovers with
 *            siglongjmp, and raises SIGSEGV once; reports what it saw.
 *   crash:   no handler: the NULL dereference kills it. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static sigjmp_buf Back;
static volatile int Segv, Fpe, Raised;
__attribute__((noinline)) long work(long i) { return i + 1; }

static void onFault(int Sig, siginfo_t *Info, void *Uc) {
  (void)Uc;
  if (Info->si_code <= 0) {
    Raised++;
    return;
  }
  if (Sig == SIGSEGV)
    Segv++;
  else
    Fpe++;
  siglongjmp(Back, 1);
}

int main(int argc, char **argv) {
  volatile int *Null = 0;
  volatile int Zero = 0;
  long S = 0;
  for (int I = 0; I < 10; ++I)
    S += work(I);
  if (!strcmp(argv[1], "crash")) {
    printf("about to crash\n");
    fflush(stdout);
    return *Null;
  }
  struct sigaction SA;
  memset(&SA, 0, sizeof(SA));
  SA.sa_sigaction = onFault;
  SA.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &SA, 0);
  sigaction(SIGFPE, &SA, 0);
  for (int I = 0; I < 3; ++I) {
    if (!sigsetjmp(Back, 1))
      S += *Null;
    if (!sigsetjmp(Back, 1))
      S += 10 / Zero;
    S += work(I);
  }
  raise(SIGSEGV);
  printf("segv %d fpe %d raised %d sum %ld\n", Segv, Fpe, Raised, S);
  return 0;
}
