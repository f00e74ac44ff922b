/*===- host.c - What the store and the agent need from the system -----------===*/
#include "agent.h"

#define CLOCK_MONOTONIC 1
#define FUTEX_WAKE 1
#define ESRCH 3
#define SIGSTOP 19

uint64_t agent_now_ns(void) {
  struct {
    int64_t Sec, Nsec;
  } T = {0, 0};
  /* In a 32-bit process, the vDSO's clock_gettime64 (tsrun finds it). */
  int (*Vdso)(int, void *) =
      AGENT_PTR(int (*)(int, void *), tscc_agent_config.vdso_clock_gettime);
  if (LIKELY(Vdso != 0))
    Vdso(CLOCK_MONOTONIC, &T);
  else
    sys2(NR_clock_gettime, CLOCK_MONOTONIC, &T);
  return (uint64_t)T.Sec * 1000000000ull + (uint64_t)T.Nsec;
}

uint64_t tscc_host_now_ns(void) { return agent_now_ns(); }

void tscc_host_yield(void) { sys0(NR_sched_yield); }

int tscc_host_thread_alive(int32_t Tid) {
  /* kill() would take 0 and negative numbers for process groups. */
  return Tid > 0 && sys2(NR_kill, Tid, 0) != -ESRCH;
}

/* Reads the state letter of /proc/<Owner>/stat: the field after the
 * command name, which ends at the last ')'. */
int tscc_host_owner_running(int32_t Owner) {
  if (Owner <= 0)
    return 0;
  char Path[32] = "/proc/";
  char Digits[12];
  int N = 0;
  for (uint32_t V = (uint32_t)Owner; V; V /= 10)
    Digits[N++] = (char)('0' + V % 10);
  int P = 6;
  while (N)
    Path[P++] = Digits[--N];
  __builtin_memcpy(Path + P, "/stat", 6);
  long Fd = sys3(NR_open, Path, 0 /* O_RDONLY */, 0);
  if (Fd < 0)
    return 0;
  char Buf[512];
  long Got = sys3(NR_read, Fd, Buf, sizeof(Buf));
  sys1(NR_close, Fd);
  long Paren = -1;
  for (long I = 0; I < Got; ++I)
    if (Buf[I] == ')')
      Paren = I;
  if (Paren < 0 || Paren + 2 >= Got)
    return 0;
  char State = Buf[Paren + 2];
  return State == 'R' || State == 'S' || State == 'D';
}

/* tsrun found this thread stopped (SIGSTOP, SIGTSTP...) while it held the
 * lock, and let it run on to the end of its clause instead of leaving
 * every other thread waiting: now it stops, as it was asked to. */
void tscc_host_unlocked(int32_t Tid) {
  if (LIKELY(__atomic_load_n(&agent_proc.stop_after_unlock, __ATOMIC_ACQUIRE) !=
             (uint32_t)Tid))
    return;
  __atomic_store_n(&agent_proc.stop_after_unlock, 0, __ATOMIC_RELAXED);
  sys3(NR_tgkill, sys0(NR_getpid), Tid, SIGSTOP);
}

void tscc_host_wake(uint32_t *Futex) {
  sys3(NR_futex, Futex, FUTEX_WAKE, 0x7fffffff);
}
