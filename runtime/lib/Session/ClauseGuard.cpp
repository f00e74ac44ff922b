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
#include <mutex>
#include <ucontext.h>

using namespace tscc::rt;

namespace {

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
constexpr size_t MaxPrograms = 16;

std::atomic<const ProbeProgram *> Programs[MaxPrograms];
struct sigaction Previous[NSIG];
std::once_flag Installed;

thread_local sigjmp_buf *Active = nullptr;
thread_local ClauseCrash *ActiveCrash = nullptr;
thread_local const tscc_ctx *ActiveCtx = nullptr;

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
  if (Active && inClauseCode(PC)) {
    ActiveCrash->Signal = Sig;
    ActiveCrash->PC = PC;
    siglongjmp(*Active, 1);
  }
  // Not ours: put the old disposition back; returning re-executes the
  // faulting instruction, which then gets the usual treatment.
  sigaction(Sig, &Previous[Sig], nullptr);
  (void)Info;
}

void install() {
  struct sigaction SA {};
  SA.sa_sigaction = onFault;
  SA.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&SA.sa_mask);
  for (int Sig : Signals)
    sigaction(Sig, &SA, &Previous[Sig]);
}

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
  if (sigsetjmp(Jmp, 1)) {
    Active = Outer;
    ActiveCrash = OuterCrash;
    ActiveCtx = OuterCtx;
    return false;
  }
  Active = &Jmp;
  ActiveCrash = &Crash;
  ActiveCtx = Ctx;
  if (!Pred || Pred(Ctx)) {
    if (Action)
      Action(Ctx);
  }
  Active = Outer;
  ActiveCrash = OuterCrash;
  ActiveCtx = OuterCtx;
  return true;
}

const tscc_ctx *tscc::rt::guardedContext() { return ActiveCtx; }
