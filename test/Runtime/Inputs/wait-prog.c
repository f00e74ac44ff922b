/* wait-prog FIFO [GO]: optionally waits for a byte on GO, calls foo(5),
 * writes "ready\n" to FIFO, then waits for a signal. The test drivers use
 * the FIFOs as handshakes instead of sleeping. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int foo(long x) { return (int)x * 2; }

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  if (argc > 2) {
    char c;
    int go = open(argv[2], O_RDONLY);
    if (go < 0 || read(go, &c, 1) != 1)
      return 2;
    close(go);
  }
  int r = foo(5);
  int fd = open(argv[1], O_WRONLY);
  if (fd < 0)
    return 2;
  const char *msg = "ready\n";
  if (write(fd, msg, strlen(msg)) < 0)
    return 2;
  close(fd);
  if (argc > 2) {
    /* Attached case: tsrun detaches on SIGINT and we finish normally. */
    char c;
    int go = open(argv[2], O_RDONLY);
    if (go >= 0 && read(go, &c, 1) == 1)
      return r == 10 ? 0 : 1;
    return 2;
  }
  pause();
  return 0;
}
