/* signal-frame-site GO: attach-run.py's protocol. main calls probed(), whose
 * second instruction loads through a pointer to a page it cannot read. The
 * SIGSEGV handler says "started" and blocks reading a byte from GO; so
 * while tsrun attaches, the thread's signal frame holds probed+1, inside
 * the bytes a jump at probed would cover. Once the byte comes, the handler
 * makes the page readable and returns: the load runs again at probed+1,
 * from the frame. Then probed() is called 10 times more and "calls 10"
 * printed. A jump written at probed meanwhile would have sent the return
 * from the handler into the middle of the jump: a second fault there
 * prints "faulted again" and ends the program with status 3. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* nop; mov (%rdi|%ecx),%eax; nop; nop; ret: 5 relocatable bytes, a fault
 * at +1. */
int probed(void);
#ifdef __i386__
__asm__(".text\n.p2align 4\n.globl probed\n.type probed,@function\nprobed:\n"
        "\tnop\n\tmov (%ecx),%eax\n\tnop\n\tnop\n\tret\n"
        ".size probed,.-probed\n");
#define PTR_REG "c"
#define STACK_PAD ""
#define STACK_UNPAD ""
#else
__asm__(".text\n.p2align 4\n.globl probed\n.type probed,@function\nprobed:\n"
        "\tnop\n\tmov (%rdi),%eax\n\tnop\n\tnop\n\tret\n"
        ".size probed,.-probed\n");
#define PTR_REG "D"
/* The call must not overwrite the red zone of the function around it. */
#define STACK_PAD "lea -128(%%rsp),%%rsp\n\t"
#define STACK_UNPAD "\n\tlea 128(%%rsp),%%rsp"
#endif

static int call_probed(void *Ptr) {
  int R;
  void *P = Ptr;
  __asm__ volatile(STACK_PAD "call probed" STACK_UNPAD
                   : "=a"(R), "+" PTR_REG(P)
                   :
                   : "memory", "cc");
  return R;
}

static const char *GoPath;
static void *Page;
static volatile sig_atomic_t Faults;

static void on_segv(int Sig, siginfo_t *Info, void *Uc) {
  (void)Sig, (void)Info, (void)Uc;
  if (Faults++) {
    if (write(1, "faulted again\n", 14) != 14)
      _exit(2);
    _exit(3);
  }
  char C;
  if (write(1, "started\n", 8) != 8)
    _exit(2);
  /* tsrun's attach may interrupt the calls (EINTR): they are made again. */
  int Fd;
  while ((Fd = open(GoPath, O_RDONLY)) < 0)
    if (errno != EINTR)
      _exit(2);
  ssize_t Got;
  while ((Got = read(Fd, &C, 1)) < 0)
    if (errno != EINTR)
      _exit(2);
  if (Got != 1)
    _exit(2);
  close(Fd);
  mprotect(Page, 4096, PROT_READ);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  GoPath = argv[1];
  Page = mmap(0, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct sigaction Sa;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_sigaction = on_segv;
  Sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &Sa, 0);
  int Sum = call_probed(Page);
  for (int I = 0; I < 10; ++I)
    Sum += call_probed(Page);
  printf("calls 10 sum %d\n", Sum);
  return 0;
}
