//===- ClauseGuard.cpp - Survive a crash inside clause code ---------------===//
//
// siglongjmp out of a signal handler is only sound when nothing between the
// setjmp and the fault needs unwinding. That holds when the faulting PC is in
// clause code (plain C-like code without destructors) -- which is exactly
// when we recover. Faults in the runtime itself (helpers, backends) re-raise
// with the previous disposition.
//
//===----------------------------------------------------------------------===//

#include "ClauseGuard.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <ctime>
#include <mutex>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

// SIGTRAP: damaged code may set the trap flag (popf) or run into int3.
constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
// Clause code has no loops (LANGUAGE.md): one that runs this long is
// damaged code spinning, which would hold the store lock and the session
// for good. The watchdog then fires every WatchdogRepeat until it finds the
// thread in clause code (not in a helper) and abandons the firing.
constexpr long WatchdogFirstNs = 1'000'000'000;
constexpr long WatchdogRepeatNs = 100'000'000;
constexpr int WatchdogSignal = SIGXCPU;
constexpr size_t MaxPrograms = 16;

std::atomic<const ProbeProgram *> Programs[MaxPrograms];
struct sigaction Previous[NSIG];
std::once_flag Installed;

thread_local sigjmp_buf *Active = nullptr;
thread_local ClauseCrash *ActiveCrash = nullptr;
thread_local const tscc_ctx *ActiveCtx = nullptr;
thread_local unsigned InHelper = 0;

bool inClauseCode(uintptr_t PC) {
  for (auto &P : Programs)
    if (const ProbeProgram *Prog = P.load(std::memory_order_acquire))
      if (Prog->containsCode(PC))
        return true;
  return false;
}

void onFault(int Sig, siginfo_t *Info, void *Uctx) {
  auto *U = static_cast<ucontext_t *>(Uctx);
  uintptr_t PC = static_cast<uintptr_t>(U->uc_mcontext.gregs[REG_RIP]);
  // A clause runs and no helper is on the stack: nothing of the runtime is
  // running, so the fault is the clause's wherever the PC is (libc's
  // memset with a bad length, a jump to 0 after a corrupted return).
  if (Active && (inClauseCode(PC) || !InHelper)) {
    ActiveCrash->Signal = Sig;
    ActiveCrash->PC = PC;
    siglongjmp(*Active, 1);
  }
  // Not ours: put the old disposition back; returning re-executes the
  // faulting instruction, which then gets the usual treatment. A trap has
  // already happened (the PC is past it): raise it again instead.
  sigaction(Sig, &Previous[Sig], nullptr);
  if (Sig == SIGTRAP)
    raise(SIGTRAP);
  (void)Info;
}

void onWatchdog(int Sig, siginfo_t *, void *Uctx) {
  auto *U = static_cast<ucontext_t *>(Uctx);
  uintptr_t PC = static_cast<uintptr_t>(U->uc_mcontext.gregs[REG_RIP]);
  if (Active && !InHelper && inClauseCode(PC)) {
    ActiveCrash->Signal = Sig;
    ActiveCrash->PC = PC;
    siglongjmp(*Active, 1);
  }
  // In a helper, or the clause just ended: the next tick looks again.
}

/// Clears the flags clause code may have left set with popf -- trap (TF),
/// alignment check (AC), direction (DF) -- which would make the runtime's
/// own code trap or fault after the clause.
inline void sanitizeFlags() {
  __asm__ volatile("pushfq\n\t"
                   "andq $~0x40500, (%%rsp)\n\t"
                   "popfq"
                   :
                   :
                   : "memory", "cc");
}

void install() {
  struct sigaction SA{};
  SA.sa_sigaction = onFault;
  SA.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&SA.sa_mask);
  for (int Sig : Signals)
    sigaction(Sig, &SA, &Previous[Sig]);
  struct sigaction W{};
  W.sa_sigaction = onWatchdog;
  W.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&W.sa_mask);
  sigaction(WatchdogSignal, &W, nullptr);
}

/// This thread's watchdog timer, created at its first clause, deleted when
/// the thread ends.
class Watchdog {
public:
  ~Watchdog() {
    if (Ready)
      timer_delete(Timer);
  }
  void arm(bool On) {
    if (!Ready && !create())
      return;
    itimerspec T{};
    if (On) {
      T.it_value.tv_sec = WatchdogFirstNs / 1'000'000'000;
      T.it_value.tv_nsec = WatchdogFirstNs % 1'000'000'000;
      T.it_interval.tv_nsec = WatchdogRepeatNs;
    }
    timer_settime(Timer, 0, &T, nullptr);
  }

private:
  bool create() {
    sigevent Ev{};
    Ev.sigev_notify = SIGEV_THREAD_ID;
    Ev.sigev_signo = WatchdogSignal;
    Ev._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
    Ready = timer_create(CLOCK_MONOTONIC, &Ev, &Timer) == 0;
    return Ready;
  }
  timer_t Timer{};
  bool Ready = false;
};

thread_local Watchdog ThreadWatchdog;

} // namespace

void tscc::rt::guardProgram(const ProbeProgram &P) {
  std::call_once(Installed, install);
  for (auto &Slot : Programs) {
    const ProbeProgram *Expected = nullptr;
    if (Slot.compare_exchange_strong(Expected, &P))
      return;
  }
}

void tscc::rt::unguardProgram(const ProbeProgram &P) {
  for (auto &Slot : Programs) {
    const ProbeProgram *Expected = &P;
    Slot.compare_exchange_strong(Expected, nullptr);
  }
}

bool tscc::rt::runGuarded(tscc_predicate_fn Pred, tscc_action_fn Action,
                          tscc_ctx *Ctx, ClauseCrash &Crash) {
  sigjmp_buf Jmp;
  sigjmp_buf *Outer = Active;
  ClauseCrash *OuterCrash = ActiveCrash;
  const tscc_ctx *OuterCtx = ActiveCtx;
  unsigned OuterInHelper = InHelper;
  if (sigsetjmp(Jmp, 1)) {
    sanitizeFlags();
    Active = Outer;
    ActiveCrash = OuterCrash;
    ActiveCtx = OuterCtx;
    InHelper = OuterInHelper;
    if (!Outer)
      ThreadWatchdog.arm(false);
    return false;
  }
  Active = &Jmp;
  ActiveCrash = &Crash;
  ActiveCtx = Ctx;
  InHelper = 0;
  bool Outermost = !Outer;
  if (Outermost)
    ThreadWatchdog.arm(true);
  if (!Pred || Pred(Ctx)) {
    if (Action)
      Action(Ctx);
  }
  sanitizeFlags();
  if (Outermost)
    ThreadWatchdog.arm(false);
  Active = Outer;
  ActiveCrash = OuterCrash;
  ActiveCtx = OuterCtx;
  InHelper = OuterInHelper;
  return true;
}

const tscc_ctx *tscc::rt::guardedContext() { return ActiveCtx; }

tscc::rt::HelperScope::HelperScope() { ++InHelper; }
tscc::rt::HelperScope::~HelperScope() { --InHelper; }

void tscc::rt::abandonClause(uint64_t PC) {
  if (!Active)
    return;
  ActiveCrash->Signal = SIGSEGV;
  ActiveCrash->PC = PC;
  siglongjmp(*Active, 1);
}
