//===- RemoteEvents.cpp - Stops of a gdb-remote target --------------------===//
//
// Each stop reply names the thread. A SIGTRAP at one of our breakpoints runs
// its hooks: entry and FUNC+OFFSET probes fire, exit probes and within()
// remember the activation (keyed by the stack pointer at entry, so recursion
// pairs up correctly) and plant a breakpoint on the return address. Then the
// thread is stepped over the breakpoint with only that thread running (the
// stub keeps the others stopped in all-stop mode), the breakpoint goes back,
// and everything resumes.
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"
#include "RemoteInject.h"

#include "tscc/Runtime/Session.h"

#include <csignal>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {
constexpr int GdbSigTrap = 5; // GDB signal numbers, not the host's
constexpr int GdbSigInt = 2;
} // namespace

void RemoteBackend::Impl::fire(const RspThreadId &T, uint32_t Probe,
                               const uint64_t *Regs, std::string_view Func,
                               std::string_view Module, uint64_t SyscallNr,
                               int32_t Err, const Hook *Usdt) {
  FireEvent E;
  E.Tgt = Tgt.get();
  E.Tid = T.Tid;
  E.Probe = Probe;
  std::copy(Regs, Regs + TSCC_REG_COUNT, E.Regs);
  E.Function = Func;
  E.Module = Module;
  E.SyscallNr = SyscallNr;
  E.Errno = Err;
  if (Usdt && Usdt->Usdt && Usdt->Owner &&
      !fillUsdtArgs(E, *Usdt->Usdt, Usdt->Owner->Bias))
    warnOnce(where() + ": cannot read an argument of USDT probe " +
             Usdt->Usdt->Provider + ":" + Usdt->Usdt->Name + " (" +
             Usdt->Usdt->ArgText + "); it reads as 0");
  S.fire(E);
}

bool RemoteBackend::Impl::handleStop(const RspStop &First) {
  // A stop can lead to another (a signal passed on, a step that lands on a
  // breakpoint): handled in turn here, not by recursion, since a target
  // that gets signals all the time (or a stub that says so) would
  // otherwise overflow the stack.
  RspStop Stop = First;
  for (;;) {
    Chained.reset();
    bool Alive = handleOneStop(Stop);
    if (!Alive || !Chained)
      return Alive;
    Stop = *Chained;
  }
}

bool RemoteBackend::Impl::chain(const RspStop &Next) {
  Chained = Next;
  return true;
}

bool RemoteBackend::Impl::handleOneStop(const RspStop &Stop) {
  if (Stop.K == RspStop::Exited) {
    finish(Stop.Code, 0);
    return false;
  }
  if (Stop.K == RspStop::Terminated) {
    finish(0, Stop.Sig);
    return false;
  }
  RspThreadId T = Stop.Thread;
  if (T.Tid <= 0) // a stub without thread ids: its one thread
    T.Tid = Tgt->pid();
  Threads[T.Tid]; // first sighting of a thread
  if (Access)
    Access->useThread(T); // the one thread qemu-user keeps stopped
  if (Stop.K == RspStop::SyscallEntry || Stop.K == RspStop::SyscallReturn) {
    onSyscall(Stop);
    return true;
  }
  bool Ours = BreakSent && (Stop.Sig == GdbSigInt || Stop.Sig == GdbSigTrap ||
                            Stop.Sig == 0);
  BreakSent = false;
  if (Stop.Sig != GdbSigTrap) {
    if (Ours)
      return true;
    // The target's own signal: let it have it on the next resume.
    Tgt->invalidateCache();
    if (!Client->resumeAll(Stop.Sig, &T))
      return false;
    RspStop Next;
    RspClient::WaitResult W = Client->waitStop(Next, WakeRead);
    if (W == RspClient::WaitResult::Woken) {
      char Buf[64];
      while (read(WakeRead, Buf, sizeof(Buf)) > 0) {
      }
      W = stopTarget(Next) ? RspClient::WaitResult::Stopped
                           : RspClient::WaitResult::Closed;
    }
    if (W != RspClient::WaitResult::Stopped) {
      dropTarget();
      return false;
    }
    return chain(Next);
  }
  uint64_t Regs[TSCC_REG_COUNT];
  if (!Tgt->readRegisters(T, Regs)) {
    if (!Client->connected())
      return false; // run() says why
    warnOnce(where() + ": cannot read the registers of thread " +
             std::to_string(T.Tid));
    return Client->connected();
  }
  // int3 written by us traps after the instruction: back up one byte.
  if (Z0Unsupported) {
    auto It = Breakpoints.find(Regs[TSCC_REG_RIP] - 1);
    if (It != Breakpoints.end() && It->second.ByMemory) {
      Regs[TSCC_REG_RIP] -= 1;
      Tgt->writePC(Regs[TSCC_REG_RIP]);
    }
  }
  uint64_t PC = Regs[TSCC_REG_RIP];
  LastStopThread = T;
  LastStopPC = PC;
  if (GuestTrapEnd && PC == GuestTrapEnd) {
    onGuestTrap(T, Regs);
    return true; // resumed with no signal: the int3 is done with
  }
  if (!Breakpoints.count(PC))
    return true; // a trap that is not ours (our break, a step, the program)
  onReturns(T, Regs);
  onBreakpoint(T, Regs);
  if (Gone)
    return false;
  auto It = Breakpoints.find(PC);
  if (It != Breakpoints.end() &&
      (!It->second.Hooks.empty() || It->second.ReturnRefs) && emulate(T, Regs))
    return true;
  return stepOver(T, PC);
}

bool RemoteBackend::Impl::emulate(const RspThreadId &T, const uint64_t *Regs) {
  // Stepping over a breakpoint costs a removal, a step and a reinsertion;
  // in qemu each removal also throws away all translated code. Functions
  // start with one of two instructions that are easy to perform here: no
  // instruction of the target runs, and the breakpoint stays in place.
  if (NoEmulation)
    return false;
  uint64_t PC = Regs[TSCC_REG_RIP];
  const Module *M = Tgt->moduleFor(PC);
  uint8_t Code[4] = {};
  // The original bytes come from the file: stubs hide their breakpoints,
  // but the file never had them.
  if (!M || !M->Live || !M->Elf->readVAddr(PC - M->Bias, Code, sizeof(Code)))
    return false;
  unsigned Ptr = Tgt->pointerSize();
  uint64_t Mask = Ptr == 8 ? ~0ull : 0xffffffffull;
  bool EndBr = Code[0] == 0xf3 && Code[1] == 0x0f && Code[2] == 0x1e &&
               (Code[3] == 0xfa || Code[3] == 0xfb);
  if (EndBr)
    return Tgt->writePC((PC + 4) & Mask);
  if (Code[0] != 0x55) // push %ebp / push %rbp
    return false;
  uint64_t SP = (Regs[TSCC_REG_RSP] - Ptr) & Mask;
  uint64_t BP = Regs[TSCC_REG_RBP];
  if (!Client->writeMemory(SP, &BP, Ptr))
    return false;
  Tgt->invalidateCache();
  if (!Tgt->writeRegister(TSCC_REG_RSP, SP) || !Tgt->writePC((PC + 1) & Mask)) {
    warnOnce(where() + ": cannot update registers of thread " +
             std::to_string(T.Tid));
    return false;
  }
  return true;
}

bool RemoteBackend::Impl::onReturns(const RspThreadId &T, uint64_t *Regs) {
  auto BIt = Breakpoints.find(Regs[TSCC_REG_RIP]);
  if (BIt == Breakpoints.end() || !BIt->second.ReturnRefs)
    return false;
  auto TIt = Threads.find(T.Tid);
  if (TIt == Threads.end())
    return false;
  std::vector<PendingReturn> &Stack = TIt->second.Returns;
  uint64_t PC = Regs[TSCC_REG_RIP], SP = Regs[TSCC_REG_RSP];
  bool Any = false;
  // Activations whose entry sp is below the current sp are over: the one
  // returning here, and any that a longjmp() or exception skipped.
  while (!Stack.empty() && Stack.back().EntrySP < SP) {
    PendingReturn R = std::move(Stack.back());
    Stack.pop_back();
    bool Returned = R.ReturnAddr == PC;
    for (const Hook &H : R.Hooks) {
      if (H.Kind == HookKind::WithinEnter)
        S.withinExit(*Tgt, T.Tid, H.Index);
      else if (H.Kind == HookKind::Exit && Returned)
        fire(T, H.Index, Regs, H.Function, H.ModuleName);
    }
    auto RB = Breakpoints.find(R.ReturnAddr);
    if (RB != Breakpoints.end() && RB->second.ReturnRefs &&
        --RB->second.ReturnRefs == 0 && RB->second.Hooks.empty() &&
        R.ReturnAddr != PC) {
      removeBreakpoint(RB->second);
      Breakpoints.erase(RB);
    }
    Any = true;
  }
  return Any;
}

void RemoteBackend::Impl::onBreakpoint(const RspThreadId &T, uint64_t *Regs) {
  uint64_t PC = Regs[TSCC_REG_RIP];
  auto It = Breakpoints.find(PC);
  if (It == Breakpoints.end())
    return;
  // Copy: firing may not change the table, but planting a return
  // breakpoint below may rehash it.
  std::vector<Hook> Hooks = It->second.Hooks;
  PendingReturn Frame;
  bool Loader = false;
  for (const Hook &H : Hooks) {
    switch (H.Kind) {
    case HookKind::LoaderBreak:
      Loader = true;
      break;
    case HookKind::WithinEnter:
      S.withinEnter(*Tgt, T.Tid, H.Index);
      Frame.Hooks.push_back(H);
      break;
    case HookKind::Exit:
      // Collection off: the exit of this call is not collected either.
      if (S.collecting())
        Frame.Hooks.push_back(H);
      break;
    case HookKind::Entry:
      break;
    }
  }
  // Entry probes fire after within() state says "inside".
  for (const Hook &H : Hooks)
    if (H.Kind == HookKind::Entry)
      fire(T, H.Index, Regs, H.Function, H.ModuleName, 0, 0, &H);
  std::vector<PendingReturn> &Pending = Threads[T.Tid].Returns;
  if (!Frame.Hooks.empty() && Pending.size() >= MaxPendingReturns) {
    // Activations that never return (or a stub that says so) must not
    // grow this without bound: deeper ones are not followed, as the
    // agent's shadow stack does natively.
    for (const Hook &H : Frame.Hooks)
      if (H.Kind == HookKind::WithinEnter)
        S.withinExit(*Tgt, T.Tid, H.Index);
    Frame.Hooks.clear();
    warnOnce(where() + ": more than " + std::to_string(MaxPendingReturns) +
             " calls with exit probes pending in thread " +
             std::to_string(T.Tid) + "; deeper ones are not followed");
  }
  if (!Frame.Hooks.empty()) {
    bool Ok = false;
    Frame.EntrySP = Regs[TSCC_REG_RSP];
    Frame.ReturnAddr = Tgt->readPointer(Frame.EntrySP, Ok);
    if (Ok && Frame.ReturnAddr) {
      Breakpoint &RB = Breakpoints[Frame.ReturnAddr];
      RB.Addr = Frame.ReturnAddr;
      ++RB.ReturnRefs;
      if (insertBreakpoint(RB)) {
        Pending.push_back(std::move(Frame));
      } else {
        --RB.ReturnRefs;
        for (const Hook &H : Frame.Hooks)
          if (H.Kind == HookKind::WithinEnter)
            S.withinExit(*Tgt, T.Tid, H.Index);
        warnOnce(where() + ": cannot set a return breakpoint at 0x" +
                 rsp::hexNumber(Frame.ReturnAddr));
      }
    }
  }
  if (Loader)
    syncLibraries();
}

bool RemoteBackend::Impl::stepOver(const RspThreadId &T, uint64_t PC) {
  auto It = Breakpoints.find(PC);
  if (It == Breakpoints.end())
    return true;
  Breakpoint &B = It->second;
  // A return breakpoint nobody waits for any more: just drop it.
  if (B.Hooks.empty() && !B.ReturnRefs) {
    removeBreakpoint(B);
    Breakpoints.erase(It);
    return true;
  }
  // Stubs differ in whether they step over their own Z0 breakpoints
  // (qemu does not). Removing, stepping one thread and reinserting works
  // with every stub, and only this thread runs while the original
  // instruction is back.
  if (!removeBreakpoint(B))
    return Client->connected();
  Tgt->invalidateCache();
  RspStop Step;
  if (!Client->stepThread(T, Step)) {
    dropTarget();
    return false;
  }
  if (Step.K == RspStop::Exited || Step.K == RspStop::Terminated)
    return chain(Step);
  if (!insertBreakpoint(B))
    warnOnce(where() + ": lost a breakpoint at 0x" + rsp::hexNumber(PC));
  // The step ended at another breakpoint (a one-instruction function, a
  // return landing on a probe): handle that stop too.
  if (Step.K == RspStop::Signal && Step.Sig == GdbSigTrap) {
    uint64_t Regs[TSCC_REG_COUNT];
    if (Tgt->readRegisters(T, Regs) && Regs[TSCC_REG_RIP] != PC &&
        Breakpoints.count(Regs[TSCC_REG_RIP]))
      return chain(Step);
  } else if (Step.K == RspStop::Signal && Step.Sig != 0) {
    return chain(Step);
  }
  return true;
}

void RemoteBackend::Impl::onSyscall(const RspStop &Stop) {
  RspThreadId T = Stop.Thread;
  if (T.Tid <= 0)
    T.Tid = Tgt->pid();
  uint64_t Regs[TSCC_REG_COUNT];
  if (!Tgt->readRegisters(T, Regs))
    return;
  // Which side of the call this is: the kernel sets the return register to
  // -ENOSYS before a traced call runs, as strace relies on. gdbserver's own
  // entry/return label can be out of phase (its first catch after attach is
  // called a return), so the registers decide; the label breaks ties when
  // a call really returned -ENOSYS right after an entry we saw.
  int64_t Rv = Tgt->DM == DataModel::ILP32
                   ? static_cast<int32_t>(Regs[TSCC_REG_RAX])
                   : static_cast<int64_t>(Regs[TSCC_REG_RAX]);
  ThreadState &TS = Threads[T.Tid];
  bool Exit = Rv != -38 || (TS.InSyscall && Stop.K == RspStop::SyscallReturn);
  if (!Exit) {
    TS.InSyscall = true;
    TS.SyscallCollected = S.collecting();
  } else {
    bool Matched = TS.InSyscall;
    TS.InSyscall = false;
    if (!Matched)
      return; // the return of a call we never saw enter
    if (!TS.SyscallCollected)
      return; // entered while collection was off
  }
  auto &Table = Exit ? SysExit : SysEntry;
  auto It = Table.find(Stop.SyscallNr);
  if (It == Table.end())
    return;
  int32_t Err = 0;
  if (Exit) {
    Regs[TSCC_REG_RAX] = static_cast<uint64_t>(Rv);
    if (Rv < 0 && Rv >= -4095)
      Err = static_cast<int32_t>(-Rv);
  }
  Regs[TSCC_REG_ORIG_RAX] = Stop.SyscallNr;
  std::string_view Name = syscallName(Tgt->DM, Stop.SyscallNr);
  for (uint32_t Probe : It->second)
    fire(T, Probe, Regs, Name, "syscall", Stop.SyscallNr, Err);
}
