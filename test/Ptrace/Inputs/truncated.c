// Calls the probed function `target` through frames an unwinder cannot
// see past: assembly with no .eh_frame rules whose frame pointer is 1
// (below the stack: no frame pointer at all), or an address that cannot
// be read. Usage: truncated whole|noinfo|unreadable
#include <string.h>

__attribute__((noipa)) void target(int How) {
  __asm__ volatile("" ::"r"(How) : "memory");
}

void through_noinfo(int How);
void through_unreadable(int How);

#ifdef __x86_64__
#define THROUGH(NAME, FP)                                                      \
  __asm__(".text\n.globl " #NAME "\n.type " #NAME ",@function\n" #NAME ":\n"   \
          "  push %rbp\n  mov $" #FP ", %rbp\n  call target\n"                 \
          "  pop %rbp\n  ret\n.size " #NAME ", .-" #NAME "\n");
#else
#define THROUGH(NAME, FP)                                                      \
  __asm__(".text\n.globl " #NAME "\n.type " #NAME ",@function\n" #NAME ":\n"   \
          "  push %ebp\n  mov $" #FP ", %ebp\n  push 8(%esp)\n"                \
          "  call target\n  add $4, %esp\n  pop %ebp\n  ret\n"                 \
          ".size " #NAME ", .-" #NAME "\n");
#endif
THROUGH(through_noinfo, 1)
THROUGH(through_unreadable, -4096)

int main(int argc, char **argv) {
  const char *How = argc > 1 ? argv[1] : "whole";
  if (!strcmp(How, "noinfo"))
    through_noinfo(1);
  else if (!strcmp(How, "unreadable"))
    through_unreadable(2);
  else
    target(0);
  return 0;
}
