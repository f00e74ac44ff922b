//===- SyscallDispatch.cpp - The catch-all of Syscall User Dispatch -------===//
#include "SyscallDispatch.h"

#include "../../Ptrace/Inject.h"
#include "../Installer/AgentAbi.h"

#include "tscc/agent.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

static_assert(TSCC_SUD_PAGE == SyscallGadgetAddress);
static_assert(SudInjectGadgetAt == TSCC_SUD_PAGE + TSCC_SUD_INJECT);
constexpr uint64_t SudInjectGadget = TSCC_SUD_INJECT;

// Linux 6.11 (linux/ptrace.h), absent from older headers.
constexpr int PtraceSetSudConfig = 0x4210;
struct SudConfig {
  uint64_t Mode; ///< PR_SYS_DISPATCH_OFF 0, PR_SYS_DISPATCH_ON 1
  uint64_t Selector, Offset, Len;
};

static_assert(sudPageOf(DataModel::LP64) == TSCC_SUD_PAGE);
static_assert(sudPageOf(DataModel::ILP32) == TSCC_SUD_PAGE_I386);
/// Where P's SUD pages are: its code page, then tscc_sud_data.
uint64_t pageOf(const PtraceProcess &P) { return sudPageOf(P.dataModel()); }
uint64_t dataOf(const PtraceProcess &P) {
  return pageOf(P) + TSCC_SUD_CODE_BYTES;
}
constexpr int SudSiCode = 2; // SYS_USER_DISPATCH
constexpr uint64_t SaRestorer = 0x04000000, SaNodefer = 0x40000000;

bool setDispatch(const PtraceProcess &P, pid_t Tid, bool On,
                 std::string &Error) {
  SudConfig C{On ? 1u : 0u, On ? dataOf(P) : 0, On ? pageOf(P) : 0,
              On ? TSCC_SUD_CODE_BYTES : 0};
  if (ptrace(static_cast<__ptrace_request>(PtraceSetSudConfig), Tid,
             reinterpret_cast<void *>(sizeof(C)), &C) == 0)
    return true;
  Error = std::string("ptrace(SET_SYSCALL_USER_DISPATCH_CONFIG): ") +
          std::strerror(errno) +
          (errno == EIO ? " (the kernel has no Syscall User Dispatch "
                          "by ptrace: Linux 6.11 or later)"
                        : "");
  return false;
}

/// The setup a thread made while tsrun has let go of the process runs to
/// switch SUD on in itself, prctl(PR_SET_SYSCALL_USER_DISPATCH,
/// PR_SYS_DISPATCH_ON, page, length, selector) with the registers the
/// program's clone() left kept (glibc's thread start reads them), and
/// returns 0, the child's result; then the spawn stubs that call it in the
/// child only (tscc/agent.h). A 64-bit stub steps over the red zone around
/// its call (a fork-like clone goes on on the caller's stack).
void spawnCode(DataModel DM, std::vector<uint8_t> &Code) {
  bool Lp64 = DM == DataModel::LP64;
  const uint64_t Page = sudPageOf(DM), Data = Page + TSCC_SUD_CODE_BYTES;
  const uint64_t Selector = Data + offsetof(tscc_sud_data, selector);
  std::vector<uint8_t> Setup;
  auto Bytes = [&](std::initializer_list<uint8_t> B) {
    Setup.insert(Setup.end(), B);
  };
  auto Imm = [&](uint64_t V, unsigned N) {
    for (unsigned I = 0; I < N; ++I)
      Setup.push_back(static_cast<uint8_t>(V >> (8 * I)));
  };
  if (Lp64) {
    // push rdi rsi rdx r10 r8 r9; mov $157,%eax; mov $59,%edi; mov $1,%esi
    Bytes({0x57, 0x56, 0x52, 0x41, 0x52, 0x41, 0x50, 0x41, 0x51,
           0xb8, 157,  0,    0,    0,    0xbf, 59,   0,    0,
           0,    0xbe, 1,    0,    0,    0,    0x48, 0xba});
    Imm(Page, 8); // movabs $page,%rdx
    Bytes({0x41, 0xba});
    Imm(TSCC_SUD_CODE_BYTES, 4); // mov $len,%r10d
    Bytes({0x49, 0xb8});
    Imm(Selector, 8); // movabs $selector,%r8
    // syscall; pop r9 r8 r10 rdx rsi rdi; xor %eax,%eax; ret
    Bytes({0x0f, 0x05, 0x41, 0x59, 0x41, 0x58, 0x41, 0x5a, 0x5a, 0x5e, 0x5f,
           0x31, 0xc0, 0xc3});
  } else {
    // push ebx ecx edx esi edi; mov $172,%eax; mov $59,%ebx; mov $1,%ecx
    Bytes({0x53, 0x51, 0x52, 0x56, 0x57, 0xb8, 172, 0, 0, 0,   0xbb,
           59,   0,    0,    0,    0xb9, 1,    0,   0, 0, 0xba});
    Imm(Page, 4); // mov $page,%edx
    Bytes({0xbe});
    Imm(TSCC_SUD_CODE_BYTES, 4); // mov $len,%esi
    Bytes({0xbf});
    Imm(Selector, 4); // mov $selector,%edi
    // int $0x80; pop edi esi edx ecx ebx; xor %eax,%eax; ret
    Bytes({0xcd, 0x80, 0x5f, 0x5e, 0x5a, 0x59, 0x5b, 0x31, 0xc0, 0xc3});
  }
  memcpy(Code.data() + TSCC_SUD_SPAWN_SETUP, Setup.data(), Setup.size());
  for (uint32_t J = 0; J < TSCC_SUD_SPAWN_STUB_COUNT; ++J) {
    uint64_t At = TSCC_SUD_SPAWN_STUBS + J * TSCC_SUD_SPAWN_STUB_BYTES;
    std::vector<uint8_t> S;
    auto Rel32 = [&](int64_t V) {
      for (unsigned I = 0; I < 4; ++I)
        S.push_back(static_cast<uint8_t>(V >> (8 * I)));
    };
    // syscall; test %eax,%eax; jnz over the child's part
    S = {uint8_t(Lp64 ? 0x0f : 0xcd),
         uint8_t(Lp64 ? 0x05 : 0x80),
         0x85,
         0xc0,
         0x75,
         uint8_t(Lp64 ? 18 : 5)};
    if (Lp64)
      S.insert(S.end(), {0x48, 0x8d, 0x64, 0x24, 0x80}); // lea -128(%rsp)
    S.push_back(0xe8);                                   // call setup
    Rel32(int64_t(TSCC_SUD_SPAWN_SETUP) - int64_t(At + S.size() + 4));
    if (Lp64) // lea 128(%rsp),%rsp
      S.insert(S.end(), {0x48, 0x8d, 0xa4, 0x24, 0x80, 0, 0, 0});
    uint64_t Slot = Data + offsetof(tscc_sud_data, stub_target) +
                    8 * uint64_t(TSCC_SUD_SPAWN_SLOT(J));
    S.insert(S.end(), {0xff, 0x25}); // jmp *target
    Rel32(Lp64 ? int64_t(Slot - (Page + At + S.size() + 4)) : int64_t(Slot));
    memcpy(Code.data() + At, S.data(), S.size());
  }
}

/// The SUD code page after the gadget: the handler's restorer, the
/// injection gadget tsrun uses from now on, and the stubs, each
/// `syscall; jmp *target(%rip)` with its target in tscc_sud_data. In a
/// 32-bit process the same bytes with `int $0x80` for `syscall`: there
/// `lock decl` and `jmp *` of ModRM 0x0d/0x25 take an absolute address
/// where x86-64 takes a rip-relative one.
std::vector<uint8_t> codePage(DataModel DM) {
  bool Lp64 = DM == DataModel::LP64;
  const uint64_t Page = sudPageOf(DM), Data = Page + TSCC_SUD_CODE_BYTES;
  const uint8_t Sys[2] = {uint8_t(Lp64 ? 0x0f : 0xcd),
                          uint8_t(Lp64 ? 0x05 : 0x80)};
  // The displacement of a memory operand at Target, of an instruction
  // that ends at End.
  auto Disp = [&](uint64_t Target, uint64_t End) {
    return static_cast<int32_t>(Lp64 ? Target - End : Target);
  };
  std::vector<uint8_t> Code(TSCC_SUD_CODE_BYTES, 0xcc);
  const uint8_t Gadget[] = {Sys[0], Sys[1], 0xc3};
  memcpy(Code.data(), Gadget, sizeof(Gadget));
  // lock decl in_handler; mov $NR_rt_sigreturn,%eax; syscall
  uint8_t Restorer[] = {
      0xf0, 0xff, 0x0d, 0,      0,     0, 0, 0xb8, uint8_t(Lp64 ? 15 : 173),
      0,    0,    0,    Sys[0], Sys[1]};
  int32_t Count = Disp(Data + offsetof(tscc_sud_data, in_handler),
                       Page + TSCC_SUD_RESTORER + 7);
  memcpy(Restorer + 3, &Count, 4);
  static_assert(TSCC_SUD_RESTORER + sizeof(Restorer) <= TSCC_SUD_INJECT);
  memcpy(Code.data() + TSCC_SUD_RESTORER, Restorer, sizeof(Restorer));
  const uint8_t Inject[] = {Sys[0], Sys[1], 0xcc};
  memcpy(Code.data() + SudInjectGadget, Inject, sizeof(Inject));
  spawnCode(DM, Code);
  for (uint32_t I = 0; I < TSCC_SUD_REGULAR_STUBS; ++I) {
    uint64_t At = TSCC_SUD_STUBS + I * TSCC_SUD_STUB_BYTES;
    uint64_t Slot =
        Data + offsetof(tscc_sud_data, stub_target) + 8 * uint64_t(I);
    int32_t Rel = Disp(Slot, Page + At + 8);
    uint8_t Stub[8] = {Sys[0], Sys[1], 0xff, 0x25};
    memcpy(Stub + 4, &Rel, 4);
    memcpy(Code.data() + At, Stub, sizeof(Stub));
  }
  return Code;
}

/// tscc_sud_data with the hooks and their strings behind it. False when
/// they do not fit.
bool dataPages(const SyscallHooks &H, uint64_t DataAt,
               std::vector<uint8_t> &Out) {
  Out.assign(TSCC_SUD_DATA_BYTES, 0);
  tscc_sud_data D{};
  D.selector = TSCC_SUD_BLOCK;
  size_t HookAt = sizeof(D);
  size_t StrAt = HookAt + H.Hooks.size() * sizeof(tscc_agent_hook);
  D.hooks = DataAt + HookAt;
  // rt_sigreturn's stub: its jump is never taken, and no return address
  // is 1, so no other call claims it.
  D.stub_target[TSCC_SUD_SIGRETURN_STUB] = 1;
  D.hook_count = static_cast<uint32_t>(H.Hooks.size());
  for (const Hook &K : H.Hooks) {
    tscc_agent_hook AH{};
    AH.kind =
        TSCC_HOOK_SYSCALL(K.Kind == HookKind::Exit ? TSCC_HOOK_SYSCALL_EXIT
                                                   : TSCC_HOOK_SYSCALL_ENTRY,
                          K.SyscallNr);
    AH.index = K.Index;
    for (const std::string *S : {&K.Function, &K.ModuleName}) {
      if (StrAt + S->size() + 1 > Out.size())
        return false;
      (S == &K.Function ? AH.func : AH.module) = DataAt + StrAt;
      memcpy(Out.data() + StrAt, S->c_str(), S->size() + 1);
      StrAt += S->size() + 1;
    }
    if (HookAt + sizeof(AH) > Out.size())
      return false;
    memcpy(Out.data() + HookAt, &AH, sizeof(AH));
    HookAt += sizeof(AH);
  }
  memcpy(Out.data(), &D, sizeof(D));
  return true;
}

/// Maps the code pages (in a 64-bit process those after the gadget's,
/// which ensureSyscallGadget mapped; in a 32-bit one all of them) and the
/// data pages, at their fixed addresses.
bool mapPages(PtraceProcess &P, pid_t Tid, std::string &Error) {
  bool Lp64 = P.dataModel() == DataModel::LP64;
  const uint64_t NrMmap = agentAbi(P.dataModel()).NrMmap;
  const uint64_t Code = pageOf(P) + (Lp64 ? 4096 : 0);
  const uint64_t CodeBytes = TSCC_SUD_CODE_BYTES - (Lp64 ? 4096 : 0);
  const uint64_t NoFd = Lp64 ? ~0ull : 0xffffffffull;
  auto Map = [&](uint64_t At, uint64_t Len, int Prot, const char *What) {
    uint64_t R = 0;
    if (!injectSyscall(P, Tid, NrMmap,
                       {At, Len, uint64_t(Prot),
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, NoFd,
                        0},
                       R, Error))
      return false;
    if (R == At)
      return true;
    Error = std::string("the address of Syscall User Dispatch's ") + What +
            " is taken";
    if (Lp64 ? static_cast<int64_t>(R) >= 0 : R < 0xfffff000u)
      unmapInTarget(P, Tid, R, Len);
    return false;
  };
  return Map(Code, CodeBytes, PROT_READ | PROT_EXEC, "stubs") &&
         Map(dataOf(P), TSCC_SUD_DATA_BYTES, PROT_READ | PROT_WRITE, "data");
}

uint64_t configField(const PtraceProcess &P, size_t Offset) {
  return P.Agent.Config + Offset;
}

/// rt_sigaction(SIGSYS) in the target: the agent's handler in front, the
/// program's disposition kept in config.chained_sys.
bool installHandler(PtraceProcess &P, pid_t Tid, std::string &Error) {
  const AgentAbi &Abi = agentAbi(P.dataModel());
  // SA_NODEFER: the handler runs with the program's own signal mask, so a
  // call it makes for the program blocks exactly what the program blocks.
  std::array<uint8_t, 32> Act =
      Abi.sigaction(P.Agent.Sigsys, SA_SIGINFO | SaNodefer | SaRestorer,
                    pageOf(P) + TSCC_SUD_RESTORER);
  uint64_t Scratch = P.Agent.DataBase;
  uint64_t R = 0;
  if (!P.writeMemory(Scratch, Act.data(), Act.size())) {
    Error = "cannot write to the target";
    return false;
  }
  if (!injectSyscall(P, Tid, Abi.NrRtSigaction,
                     {SIGSYS, Scratch,
                      configField(P, offsetof(tscc_agent_config, chained_sys)),
                      8},
                     R, Error))
    return false;
  if (R != 0) {
    Error = "rt_sigaction(SIGSYS) failed";
    return false;
  }
  return true;
}

} // namespace

bool tscc::rt::pt::enableSyscallDispatch(PtraceProcess &P, pid_t Tid,
                                         const SyscallHooks &H,
                                         std::string &Error) {
  if (P.Agent.SudOn)
    return true;
  // A 64-bit process's code page starts with the gadget's page, mapped
  // already (ensureSyscallGadget); a 32-bit one's is mapped here whole.
  if (!P.Agent.Sigsys ||
      (P.dataModel() == DataModel::LP64 && !P.Agent.SyscallGadget)) {
    Error = "the agent has no SIGSYS handler";
    return false;
  }
  std::vector<uint8_t> Data;
  if (!dataPages(H, dataOf(P), Data)) {
    Error = "the traced system calls' hooks do not fit a page";
    return false;
  }
  // Probe the kernel on one thread before anything is put in.
  if (!setDispatch(P, Tid, false, Error))
    return false;
  std::vector<uint8_t> Code = codePage(P.dataModel());
  if (!mapPages(P, Tid, Error))
    return false;
  P.Agent.SudMapped = true;
  if (!P.writeMemory(dataOf(P), Data.data(), Data.size()) ||
      !P.writeMemory(pageOf(P), Code.data(), Code.size())) {
    Error = "cannot write Syscall User Dispatch's pages";
    return false;
  }
  // The agent makes its own calls through the gadget, the one address SUD
  // lets through, from now on (only here: a process without SUD keeps the
  // agent's own `syscall` instructions).
  uint64_t Page = pageOf(P);
  if (!P.writeMemory(configField(P, offsetof(tscc_agent_config, sud_page)),
                     &Page, sizeof(Page)) ||
      !P.writeMemory(
          configField(P, offsetof(tscc_agent_config, syscall_gadget)), &Page,
          sizeof(Page)) ||
      !installHandler(P, Tid, Error))
    return false;
  for (auto &[T, Th] : P.Threads)
    if (!setDispatch(P, T, true, Error)) {
      for (auto &[U, Uh] : P.Threads)
        setDispatch(P, U, false, Error);
      return false;
    }
  P.Agent.SudOn = true;
  return true;
}

bool tscc::rt::pt::dispatchThread(PtraceProcess &P, pid_t Tid,
                                  std::string &Error) {
  return P.Agent.SudOn && setDispatch(P, Tid, true, Error);
}

std::string tscc::rt::pt::dispatchInTheWay(PtraceProcess &P, uint64_t Site,
                                           uint64_t Length) {
  if (!P.Agent.SudMapped)
    return {};
  uint32_t InHandler = 0;
  if (!P.readMemory(dataOf(P) + offsetof(tscc_sud_data, in_handler), &InHandler,
                    sizeof(InHandler)) ||
      InHandler)
    return "a thread is in the agent's SIGSYS handler (Syscall User "
           "Dispatch), which may return into the bytes";
  const uint64_t Stubs = pageOf(P) + TSCC_SUD_STUBS;
  for (const auto &[Tid, T] : P.Threads) {
    user_regs_struct R{};
    if (T.State != ThreadState::Stopped ||
        ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0)
      continue;
    // Entering the handler (not counted in yet) or leaving it (counted
    // out, its signal frame not yet restored).
    if (R.rip == P.Agent.Sigsys || (R.rip >= pageOf(P) + TSCC_SUD_RESTORER &&
                                    R.rip < pageOf(P) + TSCC_SUD_INJECT))
      return "a thread is entering or leaving the agent's SIGSYS handler";
    if (R.rip < Stubs || R.rip >= pageOf(P) + TSCC_SUD_CODE_BYTES)
      continue;
    const uint64_t Spawn = pageOf(P) + TSCC_SUD_SPAWN_STUBS;
    if (R.rip >= pageOf(P) + TSCC_SUD_SPAWN_SETUP && R.rip < Spawn)
      return "a thread made while tsrun had let go of the process is "
             "switching Syscall User Dispatch on in itself";
    uint64_t Stub =
        R.rip >= Spawn
            ? TSCC_SUD_SPAWN_SLOT((R.rip - Spawn) / TSCC_SUD_SPAWN_STUB_BYTES)
            : (R.rip - Stubs) / TSCC_SUD_STUB_BYTES;
    uint64_t Target = 0;
    if (P.readMemory(dataOf(P) + offsetof(tscc_sud_data, stub_target) +
                         8 * Stub,
                     &Target, sizeof(Target)) &&
        Target > Site && Target < Site + Length)
      return "a thread in a system call made for Syscall User Dispatch "
             "returns into the bytes";
  }
  return {};
}

void tscc::rt::pt::rewindDispatchedCall(PtraceProcess &P, pid_t Tid) {
  siginfo_t Info{};
  user_regs_struct R{};
  if (!P.Agent.SudMapped ||
      ptrace(PTRACE_GETSIGINFO, Tid, nullptr, &Info) != 0 ||
      Info.si_signo != SIGSYS || Info.si_code != SudSiCode ||
      ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0 ||
      R.rip != reinterpret_cast<uint64_t>(Info.si_call_addr))
    return;
  R.rip -= 2; // rax is the number again (the kernel rolled the call back)
  ptrace(PTRACE_SETREGS, Tid, nullptr, &R);
}

namespace {

/// A thread held in the signal-delivery stop of a SIGSYS of SUD's: it is
/// made to make the call again, at its own `syscall`, with SUD off.
void replayDispatchedCall(Thread &T) {
  siginfo_t Info{};
  user_regs_struct R{};
  if (T.PendingSignal != SIGSYS ||
      ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info) != 0 ||
      Info.si_code != SudSiCode ||
      ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return;
  // The kernel rolled the call back: rax is its number again (and the pc
  // may be on the `syscall` already, rewindDispatchedCall).
  if (R.rip == reinterpret_cast<uint64_t>(Info.si_call_addr))
    R.rip -= 2;
  if (ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R) == 0)
    T.PendingSignal = 0;
}

/// Whether SIGSYS is queued for Tid and not yet taken.
bool sigsysQueued(pid_t Pid, pid_t Tid) {
  std::ifstream F("/proc/" + std::to_string(Pid) + "/task/" +
                  std::to_string(Tid) + "/status");
  std::string Line;
  while (std::getline(F, Line))
    if (Line.rfind("SigPnd:", 0) == 0 || Line.rfind("ShdPnd:", 0) == 0) {
      uint64_t Mask = std::stoull(Line.substr(7), nullptr, 16);
      if (Mask & (1ull << (SIGSYS - 1)))
        return true;
    }
  return false;
}

/// A thread stopped with a SIGSYS of SUD's queued (raised just before it
/// stopped): it is let go on until the signal's delivery stop, and made to
/// make its call again there (SUD is off by now). False if it stopped for
/// anything else first (the signal stays queued), or its state is unknown.
bool takeQueuedSigsys(PtraceProcess &P, Thread &T) {
  if (!sigsysQueued(P.Pid, T.Tid))
    return true;
  if (T.PendingSignal) // held for later: continuing would lose it
    return false;
  int St = 0;
  if (ptrace(PTRACE_CONT, T.Tid, nullptr, nullptr) != 0)
    return false;
  pid_t W;
  do
    W = waitpid(T.Tid, &St, __WALL);
  while (W < 0 && errno == EINTR);
  if (W != T.Tid || !WIFSTOPPED(St))
    return W == T.Tid; // gone: nothing of it is left to deliver to
  if ((St >> 16) != 0 || WSTOPSIG(St) != SIGSYS) {
    if ((St >> 16) == 0 && WSTOPSIG(St) != (SIGTRAP | 0x80))
      T.PendingSignal = WSTOPSIG(St);
    return false;
  }
  T.PendingSignal = SIGSYS;
  replayDispatchedCall(T);
  return T.PendingSignal == 0;
}

} // namespace

std::string
tscc::rt::pt::disableSyscallDispatch(PtraceProcess &P,
                                     const std::vector<Thread *> &Threads) {
  if (!P.Agent.SudOn || Threads.empty())
    return {};
  // The selector first: a thread not stopped (none should be) makes its
  // calls where it makes them from now on.
  uint8_t Allow = TSCC_SUD_ALLOW;
  P.writeMemory(dataOf(P) + offsetof(tscc_sud_data, selector), &Allow, 1);
  std::string Error;
  bool Queued = false;
  for (Thread *T : Threads) {
    setDispatch(P, T->Tid, false, Error);
    replayDispatchedCall(*T);
    Queued = Queued || !takeQueuedSigsys(P, *T);
  }
  P.Agent.SudOn = false;
  if (!Error.empty())
    return "Syscall User Dispatch stays on: " + Error;
  // A SIGSYS of SUD's still queued would find the program's disposition
  // (the default kills): the agent's handler stays in front of it, and
  // makes that call where it was made.
  if (Queued)
    return "its SIGSYS handler stays (a SIGSYS is on its way)";
  const AgentAbi &Abi = agentAbi(P.dataModel());
  uint64_t R = 0;
  if (!injectSyscall(P, Threads.front()->Tid, Abi.NrRtSigaction,
                     {SIGSYS,
                      configField(P, offsetof(tscc_agent_config, chained_sys)),
                      0, 8},
                     R, Error) ||
      R != 0)
    return "its SIGSYS handler stays: " +
           (Error.empty() ? std::string("rt_sigaction failed") : Error);
  return {};
}
