/* killme MODE READY GO: the target of the tests that SIGKILL tsrun.
 *
 * Every mode but late first installs a handler for OWN_SIG, the signal of
 * tsrun's breakpoints in an attached process, which tsrun's healer handles
 * in front of the program's: SIGILL in x86-64, SIGSEGV in i386 (where the
 * breakpoint is `hlt`). All modes say "started" on READY.
 * single:  waits for a byte on GO (tsrun has attached), calls work(1..3)
 *          and raises one OWN_SIG of its own (its handler must see it even
 *          though tsrun's healer handles OWN_SIG in front of it), then
 *          calls work(100), which
 *          says "inside" on READY and blocks until the next byte on GO
 *          (tsrun is killed meanwhile, with work()'s return hijacked).
 *          Then work(4..6), another OWN_SIG of its own, says "finished"
 *          on READY and waits for GO once more (a second tsrun may be
 *          attached meanwhile and must be gone), then the report.
 * late:    single, but the program sets its OWN_SIG handler only after
 *          tsrun has attached (while traced), a handler that just returns.
 * threads: waits for GO, starts two threads that call work() in a tight
 *          loop, says "running" once both are well under way (tsrun is
 *          killed at any point of a hit), and reports when they are done.
 *
 * The report says whether work()'s first bytes are what they were before
 * tsrun came, whether anyone still traces us, and what the calls returned;
 * the test compares it with what an untraced run computes. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __i386__
#define OWN_SIG SIGSEGV
#else
#define OWN_SIG SIGILL
#endif

static const char *ready_path, *go_path;
static volatile sig_atomic_t own_ills;

static void on_ill(int sig) {
  (void)sig;
  own_ills++;
}

static void say(const char *msg) {
  int fd = open(ready_path, O_WRONLY);
  if (fd < 0 || write(fd, msg, strlen(msg)) < 0)
    exit(2);
  close(fd);
}

static void wait_go(void) {
  char c;
  int fd = open(go_path, O_RDONLY);
  if (fd < 0 || read(fd, &c, 1) != 1)
    exit(2);
  close(fd);
}

__attribute__((noinline, noclone)) long work(long x) {
  __asm__ volatile("" ::: "memory");
  if (x == 100) {
    say("inside\n");
    wait_go();
  }
  return x * 3;
}

static int tracer_pid(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  int pid = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "TracerPid: %d", &pid) == 1)
      break;
  if (f)
    fclose(f);
  return pid;
}

enum { Iterations = 200000 };
static atomic_int warmed_up;

static void *hammer(void *arg) {
  long sum = 0, want = 0;
  for (long i = 0; i < Iterations; i++) {
    sum += work(i & 63);
    want += (i & 63) * 3;
    if (i == 300)
      atomic_fetch_add(&warmed_up, 1);
  }
  *(int *)arg = sum == want;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  ready_path = argv[2];
  go_path = argv[3];
  unsigned char before[16];
  memcpy(before, (const void *)work, sizeof before);
  int late = strcmp(argv[1], "late") == 0;
  if (!late)
    signal(OWN_SIG, on_ill);
  /* Handshake: tsrun attaches only after our handler is in place (one set
   * while traced is what MODE late tests). */
  say("started\n");
  wait_go();
  if (late)
    signal(OWN_SIG, on_ill);
  if (strcmp(argv[1], "threads") != 0) { /* single, reattach, late */
    long sum = work(1) + work(2) + work(3);
    raise(OWN_SIG);
    sum += work(100);
    sum += work(4) + work(5) + work(6);
    raise(OWN_SIG);
    say("finished\n");
    wait_go();
    printf("sum %ld own-ills %d\n", sum, (int)own_ills);
  } else {
    pthread_t t[2];
    int ok[2] = {0, 0};
    for (int i = 0; i < 2; i++)
      pthread_create(&t[i], NULL, hammer, &ok[i]);
    while (atomic_load(&warmed_up) < 2)
      sched_yield();
    say("running\n");
    for (int i = 0; i < 2; i++)
      pthread_join(t[i], NULL);
    printf("threads %s\n", ok[0] && ok[1] ? "ok" : "WRONG");
  }
  if (memcmp(before, (const void *)work, sizeof before) == 0) {
    printf("code intact\n");
  } else { /* what changed, for whoever reads a failing test */
    printf("code CHANGED:");
    for (unsigned i = 0; i < sizeof before; i++)
      printf(" %02x>%02x", before[i], ((const unsigned char *)work)[i]);
    printf("\n");
  }
  printf("tracer %d\n", tracer_pid());
  return 0;
}
