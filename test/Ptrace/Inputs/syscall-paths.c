/* syscall-paths N [GO]: makes system calls by every way its architecture
 * has, and prints as PROG lines what a syscall probe should see of each:
 *   - getppid N times through libc's syscall() (i386: __kernel_vsyscall in
 *     the vDSO, sysenter; x86-64: the syscall instruction), then N times
 *     through the instruction itself (i386: int $0x80; x86-64: syscall);
 *   - a six-argument call that fails (mmap2 on i386, mmap on x86-64, of a
 *     descriptor that is not open), once through libc and once through the
 *     instruction, so that every argument register is seen (i386: ebx, ecx,
 *     edx, esi, edi, ebp; the sixth comes from the user stack on the
 *     sysenter path).
 * With GO, it first says "started" and waits for a byte on that FIFO
 * (attach tests). With INT80=1 in its environment, a 64-bit build also
 * makes an i386 getppid with int $0x80 (kernels that run i386 code only),
 * which is not a getppid of its own architecture: no probe sees it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __i386__
#define MAP_NR SYS_mmap2
static long raw6(long nr, long a, long b, long c, long d, long e, long f) {
  /* ebx and ebp may be the PIC and frame registers: load them, and ecx,
   * from memory addressed by ecx, and put them back afterwards. */
  long args[3] = {a, b, f}, *p = args;
  __asm__ volatile("push %%ebp\n\t"
                   "push %%ebx\n\t"
                   "mov 8(%%ecx), %%ebp\n\t"
                   "mov 0(%%ecx), %%ebx\n\t"
                   "mov 4(%%ecx), %%ecx\n\t"
                   "int $0x80\n\t"
                   "pop %%ebx\n\t"
                   "pop %%ebp"
                   : "+a"(nr), "+c"(p)
                   : "d"(c), "S"(d), "D"(e)
                   : "memory");
  return nr;
}
#else
#define MAP_NR SYS_mmap
static long raw6(long nr, long a, long b, long c, long d, long e, long f) {
  long r;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(r)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9)
                   : "rcx", "r11", "memory");
  return r;
}
#endif

static void map_call(int raw) {
  long a = 0x10000, b = 4096, c = 1 /*PROT_READ*/, d = 2 /*MAP_PRIVATE*/,
       e = 12345, f = 7;
#ifndef __i386__
  f *= 4096; /* mmap takes bytes, mmap2 pages */
#endif
  printf("PROG sys map %lx %ld %ld %ld %ld %ld\n", a, b, c, d, e, f);
  long r = raw ? raw6(MAP_NR, a, b, c, d, e, f)
               : (syscall(MAP_NR, a, b, c, d, e, f) == -1 ? -errno : 0);
  printf("PROG sys map rv %ld errno %d\n", r, (int)-r);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int n = atoi(argv[1]);
  if (argc > 2) {
    printf("started\n");
    char c;
    int go = open(argv[2], O_RDONLY);
    if (go < 0 || read(go, &c, 1) != 1)
      return 2;
    close(go);
  }
  for (int i = 0; i < n; ++i)
    printf("PROG getppid %ld\n", syscall(SYS_getppid));
  for (int i = 0; i < n; ++i)
    printf("PROG getppid %ld\n", raw6(SYS_getppid, 0, 0, 0, 0, 0, 0));
  map_call(0);
  map_call(1);
#ifdef __x86_64__
  if (getenv("INT80")) {
    long r = 64; /* getppid in i386 */
    __asm__ volatile("int $0x80" : "+a"(r) : : "memory");
    printf("int80 getppid %ld\n", r);
  }
#endif
  return 0;
}
