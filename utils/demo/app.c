/* The demo target: built twice, `gcc -m64` and `gcc -m32`, and traced in one
 * tsrun session by one probe object. It prints its own view of every value
 * the demo script prints, so the two can be compared line by line. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct req {
  int id;
  long len;
  char *name;
};

/* noipa: at -O1 gcc would otherwise drop calls whose result is unused. */
__attribute__((noinline, noipa)) int handle(struct req *r, int flags) {
  return r->id * 10 + flags;
}

static void on_signal(int sig) { (void)sig; }

int main(int argc, char **argv) {
  static char names[3][16] = {"alpha", "beta", "gamma"};
  int n = argc > 1 ? atoi(argv[1]) : 3;
  int bits = (int)(8 * sizeof(long));
  long checksum = 0;

  for (int i = 0; i < n; i++) {
    struct req r = {i + 1, 100L * (i + 1), names[i % 3]};
    printf("app %d-bit: req %d len %ld name %s (sizeof req %d)\n", bits, r.id,
           r.len, r.name, (int)sizeof(struct req));
    checksum += handle(&r, i);
  }
  printf("app %d-bit: checksum %ld\n", bits, checksum);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaddset(&sa.sa_mask, SIGUSR1);
  printf("app %d-bit: sigaction handler %p mask word 0x%lx\n", bits,
         (void *)on_signal, ((unsigned long *)&sa.sa_mask)[0]);
  sigaction(SIGINT, &sa, NULL);
  return 0;
}
