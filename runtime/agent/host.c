/*===- host.c - What the store and the agent need from the system -----------===*/
#include "agent.h"

#define CLOCK_MONOTONIC 1
#define FUTEX_WAKE 1
#define ESRCH 3
/* tsrun refreshes the store's heartbeat every 10 ms; one that is this old
 * means a stalled or dead reader, and only then is it asked for. */
#define READER_SILENT_NS 2000000000ull

uint64_t agent_now_ns(void) {
  struct {
    int64_t Sec, Nsec;
  } T = {0, 0};
  int (*Vdso)(int, void *) =
      (int (*)(int, void *))tscc_agent_config.vdso_clock_gettime;
  if (LIKELY(Vdso != 0))
    Vdso(CLOCK_MONOTONIC, &T);
  else
    sys2(NR_clock_gettime, CLOCK_MONOTONIC, &T);
  return (uint64_t)T.Sec * 1000000000ull + (uint64_t)T.Nsec;
}

uint64_t tscc_host_now_ns(void) { return agent_now_ns(); }

void tscc_host_yield(void) { sys0(NR_sched_yield); }

int tscc_host_thread_alive(int32_t Tid) {
  return sys2(NR_kill, Tid, 0) != -ESRCH;
}

void tscc_host_wake(uint32_t *Futex) {
  sys3(NR_futex, Futex, FUTEX_WAKE, 0x7fffffff);
}

/* A tsrun killed with SIGKILL cannot say goodbye: the agent notices that
 * the heartbeat stopped and the reader's process is gone, and disarms the
 * process for good. Sites keep their jumps (taking them back while other
 * threads run would be a race); a disarmed trampoline just runs the
 * displaced instructions. */
void agent_check_reader(void) {
  struct tscc_store_header *H = tscc_store_hdr(&tscc_agent_config.store);
  uint64_t Beat = __atomic_load_n(&H->heartbeat_ns, __ATOMIC_RELAXED);
  uint64_t Now = agent_now_ns();
  if (Now < Beat || Now - Beat < READER_SILENT_NS)
    return;
  if (sys2(NR_kill, tscc_agent_config.reader_pid, 0) != -ESRCH)
    return;
  tscc_agent_proc.disarmed_reader_gone = 1;
  __atomic_store_n(&tscc_agent_proc.armed, 0, __ATOMIC_RELEASE);
}
