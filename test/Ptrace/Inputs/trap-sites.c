/* trap-sites N [own]: sites where no 5-byte jump can go, each called N
 * times, the sums printed for the test to compare with what the probes saw.
 *   tiny:  4 bytes, `lea (%rdi,%rdi),%eax; ret` (i386: `xor %eax,%eax;
 *          inc %eax; ret`), with the next function right behind it: no
 *          padding a jump could borrow.
 *   loop3: returns 3 * n by a loop whose head is 2 bytes after the probed
 *          `xor` at loop3+4: a jump there would cover the branch target.
 * With `own`, the program also has a SIGTRAP handler of its own, and
 * raises SIGTRAP and runs an int3 of its own once each: its handler must
 * see both, with the agent's handler in front of it.
 *
 * trap-sites single READY GO: kill-driver.py's protocol. Says "started",
 * waits for GO (tsrun attached), calls both N=100 times, says "inside"
 * and waits for GO (tsrun is SIGKILLed meanwhile, with both trap sites
 * armed), calls both 100 times more, says "finished", waits for GO, then
 * reports the sums, whether the sites' first bytes are the program's
 * again, and whether anyone still traces it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int tiny(int);
int after(int);
int loop3(int);
#ifdef __i386__
__asm__(".text\n.p2align 4\n.globl tiny\n.type tiny,@function\ntiny:\n"
        "\txor %eax,%eax\n\tinc %eax\n\tret\n.size tiny,.-tiny\n"
        ".globl after\n.type after,@function\nafter:\n"
        "\tmov 4(%esp),%eax\n\tret\n.size after,.-after\n"
        ".p2align 4\n.globl loop3\n.type loop3,@function\nloop3:\n"
        "\tmov 4(%esp),%ecx\n"
        "\txor %eax,%eax\n"
        "1:\tadd $3,%eax\n\tdec %ecx\n\tjnz 1b\n\tret\n"
        ".size loop3,.-loop3\n");
#else
__asm__(".text\n.p2align 4\n.globl tiny\n.type tiny,@function\ntiny:\n"
        "\tlea (%rdi,%rdi),%eax\n\tret\n.size tiny,.-tiny\n"
        ".globl after\n.type after,@function\nafter:\n"
        "\tmov %edi,%eax\n\tret\n.size after,.-after\n"
        ".p2align 4\n.globl loop3\n.type loop3,@function\nloop3:\n"
        "\tmov %edi,%ecx\n\tnop\n\tnop\n"
        "\txor %eax,%eax\n"
        "1:\tadd $3,%eax\n\tdec %ecx\n\tjnz 1b\n\tret\n"
        ".size loop3,.-loop3\n");
#endif

static volatile sig_atomic_t own_traps;

static void on_trap(int sig) {
  (void)sig;
  own_traps++;
}

static const char *ready_path, *go_path;

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

static int tracer(void) {
  char line[256];
  int pid = -1;
  FILE *f = fopen("/proc/self/status", "r");
  while (f && fgets(line, sizeof(line), f))
    if (sscanf(line, "TracerPid: %d", &pid) == 1)
      break;
  if (f)
    fclose(f);
  return pid;
}

static int single(void) {
  long Tiny = 0, Loop = 0;
  say("started\n");
  wait_go();
  for (int I = 1; I <= 100; ++I)
    Tiny += tiny(I), Loop += loop3(I);
  say("inside\n");
  wait_go();
  for (int I = 1; I <= 100; ++I)
    Tiny += tiny(I), Loop += loop3(I);
  say("finished\n");
  wait_go();
  const unsigned char *T = (const unsigned char *)tiny;
  const unsigned char *L = (const unsigned char *)loop3 + 4;
#ifdef __i386__
  int Intact = T[0] == 0x31 && L[0] == 0x31;
#else
  int Intact = T[0] == 0x8d && L[0] == 0x31;
#endif
  printf("tiny sum %ld loop3 sum %ld\n", Tiny, Loop);
  printf("code %s\n", Intact ? "intact" : "still patched");
  printf("tracer %d\n", tracer());
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "single") == 0) {
    ready_path = argv[2];
    go_path = argv[3];
    return single();
  }
  int N = argc > 1 ? atoi(argv[1]) : 10;
  int Own = argc > 2 && strcmp(argv[2], "own") == 0;
  if (Own) {
    struct sigaction Sa;
    memset(&Sa, 0, sizeof(Sa));
    Sa.sa_handler = on_trap;
    sigaction(SIGTRAP, &Sa, 0);
  }
  long Tiny = 0, Loop = 0, Args = 0;
  for (int I = 1; I <= N; ++I) {
    Tiny += tiny(I);
    Loop += loop3(I);
    Args += I;
    if (Own && I == N / 2) {
      raise(SIGTRAP);
      __asm__ volatile("int3");
    }
  }
  printf("tiny %d calls sum %ld, loop3 %d calls sum %ld, args %ld\n", N, Tiny,
         N, Loop, Args + after(0));
  if (Own)
    printf("own traps %d\n", (int)own_traps);
  return 0;
}
