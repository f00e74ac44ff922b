// A recursion whose innermost function prints its own call stack, as
// glibc's backtrace() sees it (with .eh_frame), one "frame TEXT" line per
// caller in tsrun's format: "function+0xOFF (module)", or "module+0xOFF"
// where no exported symbol covers the address. Build it with -rdynamic so
// that dladdr() knows the program's functions. Usage: backtrace [depth]
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printFrame(void *PC) {
  Dl_info D;
  if (!dladdr(PC, &D) || !D.dli_fname) {
    printf("frame %p\n", PC);
    return;
  }
  const char *Base = strrchr(D.dli_fname, '/');
  Base = Base ? Base + 1 : D.dli_fname;
  if (D.dli_sname)
    printf("frame %s+0x%lx (%s)\n", D.dli_sname,
           (unsigned long)((char *)PC - (char *)D.dli_saddr), Base);
  else
    printf("frame %s+0x%lx\n", Base,
           (unsigned long)((char *)PC - (char *)D.dli_fbase));
}

// The probed function: tsrun's stack starts at its first instruction,
// backtrace()'s inside it, so the program prints its callers only.
__attribute__((noipa)) void leaf(int N) {
  void *PCs[64];
  int Count = backtrace(PCs, 64);
  for (int I = 1; I < Count; ++I)
    printFrame(PCs[I]);
  fflush(stdout);
  __asm__ volatile("" ::"r"(N) : "memory");
}

// Not a loop and not a tail call at -O2: the result is used after the
// call, and the frame has a stack array (a CFA offset of its own).
__attribute__((noipa)) int depth(int N) {
  if (N == 0) {
    leaf(N);
    return 1;
  }
  volatile char Pad[24];
  Pad[N % 24] = (char)N;
  int R = depth(N - 1);
  __asm__ volatile("" ::"r"(R) : "memory");
  return R + 1 + Pad[N % 24] - (char)N;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 5;
  return depth(N) == N + 1 ? 0 : 1;
}
