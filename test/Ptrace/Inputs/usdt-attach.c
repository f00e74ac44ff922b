// A USDT probe with a semaphore, in a process tsrun attaches to and detaches
// from while it runs: it prints its semaphore before, during and after.
// Driven by usdt-attach.py through three FIFOs: argv[1] releases the
// program once tsrun is attached, argv[2] the program and argv[3] its
// child once tsrun has detached. Each FIFO has exactly one reader: a FIFO
// shared by two readers loses its data when the writer and the first
// reader close before the second reader opens it, which then blocks
// forever. A child forked while tsrun is attached has a copy of the
// semaphore, which must be put back as well when tsrun detaches.
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__extension__ unsigned short app_step_semaphore __attribute__((unused))
__attribute__((section(".probes")));

static void wait_for(const char *Fifo) {
  char C;
  int Fd = open(Fifo, O_RDONLY);
  if (Fd < 0 || read(Fd, &C, 1) != 1)
    _exit(3);
  close(Fd);
}

static void step(int N) {
  if (app_step_semaphore)
    DTRACE_PROBE1(app, step, N);
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  printf("started sem=%d\n", app_step_semaphore);
  fflush(stdout);
  wait_for(argv[1]);
  printf("attached sem=%d\n", app_step_semaphore);
  fflush(stdout);
  step(1);
  pid_t Child = fork();
  if (Child == 0) {
    wait_for(argv[3]);
    printf("child detached sem=%d\n", app_step_semaphore);
    step(3);
    return 0;
  }
  // The probe has fired (a hit stops this thread until the clause ran) and
  // tsrun follows the child (fork stops both until tsrun saw it).
  printf("stepped\n");
  fflush(stdout);
  wait_for(argv[2]);
  int Status = 0;
  waitpid(Child, &Status, 0);
  printf("detached sem=%d\n", app_step_semaphore);
  step(2);
  return 0;
}
