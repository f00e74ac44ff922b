/* A thread blocked in a system call that ends the first 5 bytes of a probed
   function: read_at() is `xor %eax,%eax; nop; syscall; ret`, so a 5-byte
   jump at its entry would displace the syscall, and the thread's PC (right
   after the syscall) is the end of the patched bytes. When tsrun attaches,
   the blocked read is interrupted and restarts afterwards: the kernel moves
   the PC back over the syscall, into the patched bytes (issue 24).

   restart-in-site N FIFO: prints "started", blocks in read_at() on FIFO
   (opened read-write, so that the open does not block) until a byte comes,
   then calls read_at() N more times on /dev/zero and says how many. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef __x86_64__
long read_at(int fd, void *buf, long n);
__asm__(".text\n"
        ".globl read_at\n"
        ".type read_at, @function\n"
        "read_at:\n"
        "  xor %eax, %eax\n" /* SYS_read */
        "  nop\n"
        "  syscall\n"
        "  ret\n"
        ".size read_at, . - read_at\n");
#else
/* i386: `push $3; pop %eax; int $0x80; ret`, the same 5 bytes ending with
   the system call. The caller puts the arguments where i386's system call
   takes them (ebx, ecx, edx), as x86-64's calling convention does for
   the function above. */
__asm__(".text\n"
        ".globl read_at\n"
        ".type read_at, @function\n"
        "read_at:\n"
        "  push $3\n" /* SYS_read */
        "  pop %eax\n"
        "  int $0x80\n"
        "  ret\n"
        ".size read_at, . - read_at\n");
static long read_at_in_registers(int fd, void *buf, long n) {
  long r;
  __asm__ volatile("call read_at"
                   : "=a"(r)
                   : "b"(fd), "c"(buf), "d"(n)
                   : "memory");
  return r;
}
#define read_at read_at_in_registers
#endif

int main(int argc, char **argv) {
  long n = atol(argv[1]);
  int go = open(argv[2], O_RDWR);
  int zero = open("/dev/zero", O_RDONLY);
  if (go < 0 || zero < 0)
    return 2;
  printf("started\n");
  fflush(stdout);
  char c;
  if (read_at(go, &c, 1) != 1)
    return 3;
  long calls = 0, bytes = 0;
  for (long i = 0; i < n; i++, calls++)
    bytes += read_at(zero, &c, 1);
  printf("read_at after the wait: %ld calls, %ld bytes\n", calls, bytes);
  return 0;
}
