/* setjmp()s and longjmp()s a few times: glibc built with SystemTap probes
 * (Fedora, Ubuntu; not Debian) fires libc:setjmp, libc:longjmp and
 * libc:longjmp_target for each. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf Env;

int main(void) {
  volatile int Jumps = 0;
  if (setjmp(Env) < 5) {
    ++Jumps;
    longjmp(Env, Jumps);
  }
  printf("jumps %d\n", Jumps);
  return 0;
}
