//===- PtraceProcess.h - One traced native process (private) --------------===//
//
// A PtraceProcess is the backend's view of one address space: its modules,
// its monitor table of breakpoints, the scratch pages it mapped into the
// target for out-of-line execution, and its threads. It is also the Target
// the session sees. Everything here runs on the backend thread except the
// Target read/symbolize methods, which the session calls from the thread
// that delivered the FireEvent (the same thread).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_PTRACEPROCESS_H
#define TSCC_RUNTIME_PTRACE_PTRACEPROCESS_H

#include "Sandbox.h"
#include "ScratchAreas.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/ModuleImage.h"
#include "tscc/Runtime/Target.h"
#include "tscc/Runtime/X86Insn.h"

#include <csignal>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <sys/types.h>
#include <sys/user.h>
#include <unordered_map>
#include <vector>

namespace tscc::rt {

class Session;
class ProbeMatcher;

namespace pt {

/// Syscall User Dispatch's `syscall; int3` for injected calls, in its code
/// page (tscc/agent.h: TSCC_SUD_PAGE + TSCC_SUD_INJECT).
constexpr uint64_t SudInjectGadgetAt = 0x2e7300000000ull + 32;

/// One mapped ELF module of a process.
struct Module : ModuleImage {
  uint64_t Scratch = 0; ///< near scratch area for its stubs, 0 if none
  uint64_t ScratchSize = 0;
  uint64_t ScratchUsed = 0;
};

/// What a breakpoint does when hit.
enum class HookKind : uint8_t {
  Entry,       ///< fire an entry / FUNC+OFFSET probe
  Exit,        ///< hijack the return address; fire at return
  WithinEnter, ///< within(): enter now, leave at return
  /// libc's sigaction(): when the program sets a SIGILL handler, put the
  /// healer back in front of it at return (Healer.h). Not a probe.
  HealerGuard,
  /// libc's exec functions in a process tsrun may let go of (--detach):
  /// the agent asks for a window there (TSCC_HOOK_EXEC_GATE). Not a
  /// probe; nothing happens at it while the process is attached.
  ExecGate,
  /// libc's sigaction() in a process with the agent and no healer: the
  /// agent keeps the program's dispositions of the signals it guards
  /// (TSCC_HOOK_SIGNAL_GATE). Where it cannot be a jump site it is a
  /// breakpoint, and works as HealerGuard does. Not a probe.
  SignalGate,
  /// libc's pthread_sigmask() in a process with the agent: the agent keeps
  /// SIGTRAP out of what threads block once trap sites need it
  /// (TSCC_HOOK_SIGMASK_GATE). Not a probe; nothing at all happens at it
  /// where it cannot be a jump site.
  SigmaskGate,
  /// The loader's debugger hook (r_brk) of a process tsrun has let go of:
  /// the agent asks for a window there at a consistent link map
  /// (TSCC_HOOK_LOADER_GATE), so that dlopen()ed libraries are probed. A
  /// trap site; while the process is attached tsrun takes its trap and
  /// reads the link map itself. Not a probe.
  LoaderGate,
};

struct Hook {
  HookKind Kind;
  uint32_t Index; ///< probe index, or within-table index
  std::string Function;
  std::string ModuleName;
  /// USDT sites: the note (owned by the module's ElfFile) and the module's
  /// bias, to evaluate the arguments at the hit.
  const UsdtProbe *Usdt = nullptr;
  uint64_t Bias = 0;
  /// Entry or Exit of a system-call site (JumpSites.h): the call's number.
  uint32_t SyscallNr = 0;

  /// Whether it watches sigaction() rather than fires a probe.
  bool watchesSigaction() const {
    return Kind == HookKind::HealerGuard || Kind == HookKind::SignalGate;
  }
};

enum class BpRole : uint8_t { Probe, LoaderBreak };

/// How the displaced instruction is resumed.
enum class Resume : uint8_t {
  OutOfLine, ///< jump to the stub, which jumps back
  Emulate,   ///< the tracer performs it on the registers
  /// No scratch memory for a stub (the process's sandbox forbids mapping
  /// any): the tracer puts the original byte back and single-steps the
  /// instruction in place, with every other thread stopped (StepOver.cpp).
  StepOver,
};

struct Breakpoint {
  uint64_t Addr = 0;
  BpRole Role = BpRole::Probe;
  uint8_t Orig[16] = {}; ///< the displaced instruction's bytes
  X86Insn Insn;
  Resume How = Resume::OutOfLine;
  uint64_t Stub = 0;       ///< out-of-line copy, when How == OutOfLine
  uint64_t StubResume = 0; ///< address of the stub's jump back
  std::vector<Hook> Hooks;
};

/// A hijacked return address.
struct ShadowFrame {
  uint64_t SlotAddr = 0; ///< stack address that held the return address
  uint64_t ReturnAddr = 0;
  std::vector<Hook> Hooks; ///< Exit and WithinEnter hooks to finish
};

/// Tracer-side bookkeeping of the in-target healer (Healer.h).
struct HealState {
  uint64_t Header = 0; ///< header + return journal in the target; 0 = none
  uint64_t Breaks = 0; ///< breakpoint table mapping in the target
  uint64_t BreaksBytes = 0;
  /// Journal entry of each stack slot that was ever hijacked. An entry is
  /// only reused for the same slot or once no live shadow frame owns it.
  std::unordered_map<uint64_t, uint32_t> ReturnEntry;
  uint32_t ReturnUsed = 0; ///< entries handed out so far
};

/// A site patched with a 5-byte jump to its trampoline: its clauses run in
/// the target, in the agent (Agent.h).
struct JumpSite {
  uint64_t Addr = 0;
  /// A trap site: an int3 at Addr, not a jump (JumpSites.h).
  bool Trap = false;
  unsigned Length = 0; ///< bytes the jump displaced
  uint8_t Original[32] = {};
  uint64_t Trampoline = 0;
  uint64_t CopyAt = 0; ///< the relocated displaced instructions
  /// (offset in the original, offset in the copy) of each boundary.
  std::vector<std::pair<uint8_t, uint16_t>> Map;
  /// Where the jump goes: the trampoline's code, or a system-call site's
  /// landing (tscc/agent.h).
  uint64_t JumpTarget = 0;
  bool Syscall = false; ///< a system-call site
  uint32_t Slot = 0;    ///< its entry in the agent's table of sites
};

/// The processes that use one agent's memory: a process and its children
/// that share its memory without being its threads (vfork() children,
/// clone(CLONE_VM) without CLONE_THREAD). Every member's AgentState points
/// at the same group; the agent has the same list (its sharers).
struct AgentSharers {
  struct Member {
    pid_t Pid = 0;
    uint32_t TargetId = 0;
    int64_t PPid = 0, Uid = 0;
  };
  std::vector<Member> Members;
  /// Threads may share an fs base for another reason (clone(CLONE_THREAD)
  /// without CLONE_SETTLS, an untraced process in the memory): the agent
  /// tells threads apart by their ids for good, even once the process is
  /// alone in its memory again.
  bool ById = false;
};

/// The in-process agent of a process (Agent.h); all zero when the process
/// has none and every probe is a breakpoint.
struct AgentState {
  bool Installed = false;
  uint32_t TargetId = 0;
  uint64_t AgentBase = 0, AgentSize = 0; ///< the agent's image
  uint64_t CodeBase = 0, CodeSize = 0;   ///< the probe object's image
  uint64_t ThreadsBase = 0, ThreadsSize = 0;
  uint32_t ThreadCapacity = 0;
  uint64_t PoolBase = 0, PoolSize = 0; ///< the shadow stacks' chunks
  /// Other processes use this memory too (null when none does).
  std::shared_ptr<AgentSharers> Sharers;
  uint64_t DataBase = 0, DataSize = 0;
  uint64_t StoreBase = 0, StoreSize = 0;
  uint64_t ControlBase = 0, ControlSize = 0; ///< read-only
  uint64_t ShardBase = 0, ShardSize = 0;     ///< the process's own
  /// The shard's descriptor the agent keeps to map each ring when its
  /// thread first writes one (-1: the whole shard is mapped), and the
  /// agent's table of where each ring is mapped
  /// (tscc_agent_config.shard_fd, rings).
  int ShardFd = -1;
  uint64_t RingTable = 0, RingTableSize = 0, RingStride = 0;
  /// Rings from ThreadRings on are burst extents, of ExtentStride bytes.
  uint64_t ExtentStride = 0;
  uint32_t ThreadRings = 0;
  /// A fork child: its agent waits for a shard of its own (mapped at its
  /// first stop) before it is armed.
  bool ShardPending = false;
  uint64_t Config = 0; ///< tscc_agent_config in the target
  uint64_t Proc = 0;   ///< the MADV_WIPEONFORK page
  uint64_t Enter = 0, Return = 0, Signal = 0, Restorer = 0;
  /// tscc_agent_enter_syscall (0 in an agent without it: i386), and the
  /// `syscall; ret` gadget system-call sites make traced calls at (0
  /// until the first one is patched).
  uint64_t EnterSyscall = 0, SyscallGadget = 0;
  /// Syscall User Dispatch (InProcess/Patch/SyscallDispatch.h): the
  /// agent's SIGSYS handler; its pages are mapped (tsrun's injected calls
  /// are made from there, the one range SUD lets through); it is on in
  /// every thread.
  uint64_t Sigsys = 0;
  bool SudMapped = false, SudOn = false, SudTried = false;
  std::string SudWhy; ///< why an attached process keeps PTRACE_SYSCALL
  uint64_t Trap = 0;  ///< tscc_agent_trap, the SIGTRAP handler
  /// [SafeBegin, SafeEnd): the agent's safe copies; a fault there resumes
  /// at SafeFault (the copy returns -1).
  uint64_t SafeBegin = 0, SafeEnd = 0, SafeFault = 0;
  /// tsrun put Trap in front of the program's SIGTRAP disposition.
  bool TrapHandler = false;
  /// Trap sites written (tscc_agent_config.trap_sites).
  uint32_t TrapSites = 0;
  /// The agent's table of jump-patched sites (tscc_agent_config.sites).
  uint64_t SiteTable = 0;
  uint32_t SiteCount = 0, SiteCapacity = 0;
  /// Trampoline areas near modules.
  ScratchAreas Areas;
  /// Entries of the agent's table of sites that dlclose()d modules left
  /// (zeroed in the table), for new sites before the table grows.
  std::vector<uint32_t> FreeSiteSlots;
  std::map<uint64_t, JumpSite> Sites;
  /// Stack keys in the process (Ptrace/StackKeys.cpp): the agent's table
  /// of stack ids (tscc_agent_config.stack_ids; 0: none, StackIdsTried:
  /// none can be had), the unwind image it walks with, and where each
  /// module's unwind table was written, by (path, bias) (0: it has none).
  uint64_t StackIds = 0;
  bool StackIdsTried = false;
  uint64_t UnwindImage = 0;
  std::map<std::pair<std::string, uint64_t>, uint64_t> UnwindTables;
  uint64_t UnwindTableBytes = 0;
  /// The modules the last image listed.
  std::vector<std::pair<std::string, uint64_t>> UnwindModules;
};

enum class ThreadState : uint8_t {
  Running,
  Stopped,    ///< in a ptrace stop we have not resumed yet
  NewPending, ///< created, waiting for its first stop
};

struct Thread {
  pid_t Tid = 0;
  ThreadState State = ThreadState::Running;
  std::vector<ShadowFrame> Shadow;
  bool InSyscallExitWait = false; ///< resumed with PTRACE_SYSCALL for exit
  uint64_t SyscallNr = 0;
  /// Collection was on when the pending system call entered: only then
  /// does its exit probe fire (no half calls).
  bool SyscallCollected = true;
  int PendingSignal = 0;    ///< to deliver at the next resume / detach
  bool Interrupted = false; ///< PTRACE_INTERRUPT sent, stop not yet seen
  /// A new thread of a process with an agent: the fs base of the thread
  /// that made it, compared with its own at its first stop (a thread made
  /// without a TLS of its own has its creator's).
  bool CheckFs = false;
  /// New in a process with Syscall User Dispatch, which a thread does not
  /// inherit: switched on at its first stop.
  bool DispatchPending = false;
  uint64_t CreatorFs = 0;
  /// In a window for an exec (ExecWindow.cpp): the thread that asked runs
  /// with PTRACE_SYSCALL until its execve() succeeds (the exec stop) or
  /// fails (its exit stop); ExecEntered once that call has entered.
  bool ExecWindow = false;
  bool ExecEntered = false;
};

class PtraceProcess final : public Target {
public:
  PtraceProcess(pid_t Pid, bool Launched);
  ~PtraceProcess() override;

  // Target.
  int64_t pid() const override { return Pid; }
  int64_t ppid() const override { return PPid; }
  int64_t uid() const override { return Uid; }
  std::string trustKey() const override { return TrustKey; }
  DataModel dataModel() const override { return DM; }
  const std::string &name() const override { return PName; }
  std::string_view backendName() const override { return "ptrace"; }
  std::string pathName() const override { return PathName; }
  std::string sandbox() const override { return SandboxSummary; }
  bool readMemory(uint64_t Addr, void *Dst, size_t Len) override;
  UnwoundStack unwindStack(int64_t Tid, const uint64_t *Regs,
                           unsigned MaxDepth) override;
  UnwoundStack unwindSnapshot(const uint64_t *Regs,
                              std::span<const uint8_t> Stack,
                              std::span<const uint64_t> Shadow,
                              uint64_t ReturnTrampoline,
                              unsigned MaxDepth) override;
  /// The stack of a stopped thread from Regs, read from the live process.
  /// Shadow, if given, is the thread's stack of return addresses hijacked
  /// by breakpoint exit probes.
  UnwoundStack unwindLive(const uint64_t *Regs, unsigned MaxDepth,
                          const std::vector<ShadowFrame> *Shadow);
  std::string symbolize(uint64_t PC) override;

  /// Re-reads identity after launch/attach/exec: name, ppid, uid, data model
  /// (ELF class of /proc/PID/exe), and reopens /proc/PID/mem.
  bool refreshIdentity(std::string &Error);
  /// Writes target memory, text included. Needs a stopped thread when
  /// /proc/PID/mem may not write read-only pages.
  bool writeMemory(uint64_t Addr, const void *Src, size_t Len);
  bool pokeMemory(uint64_t Addr, const void *Src, size_t Len);
  template <class T> bool read(uint64_t Addr, T &V) {
    return readMemory(Addr, &V, sizeof(T));
  }
  uint64_t readPointer(uint64_t Addr, bool &Ok);
  unsigned pointerSize() const { return dataModelPointerSize(DM); }
  X86Mode mode() const {
    return DM == DataModel::LP64 ? X86Mode::Bits64 : X86Mode::Bits32;
  }

  const Module *moduleFor(uint64_t Addr) const;
  /// After the process has exited: frees everything but what a Target is
  /// still asked for (identity, and the modules that symbolise the stacks
  /// of records delivered after the exit). The session keeps the Target
  /// itself; a long session forking short-lived children must not keep
  /// each one's breakpoints, sites and descriptors.
  void releaseExited();

  pid_t Pid;
  int64_t PPid = 0, Uid = 0;
  /// "uid r e s / gid r e s" from /proc/PID/status (trustKey()).
  std::string TrustKey;
  bool Launched;
  bool Exited = false;
  /// Seized inside an execve() of an --exe file (Adopt.cpp) whose outcome
  /// is not known yet: an exec stop means it succeeded, an interrupt stop
  /// before one means it failed and the process runs its old image.
  std::string AwaitingExecOf;
  DataModel DM = DataModel::LP64;
  std::string PName;
  std::string ExePath;
  int MemFd = -1;

  std::vector<std::unique_ptr<Module>> Modules;
  std::unordered_map<uint64_t, Breakpoint> Breakpoints;
  /// Where the breakpoints' out-of-line stubs are (Install.cpp).
  ScratchAreas StubAreas;
  std::map<pid_t, Thread> Threads;

  /// The home scratch pages: syscall gadget and return trampoline, far
  /// stubs up to FarStubLimit, then the healer's code (Healer.h).
  uint64_t Home = 0;
  static constexpr uint64_t HomeSize = 8192;
  static constexpr uint64_t FarStubLimit = 4096;
  static constexpr uint64_t HealerOffset = 4096;
  /// Where injected system calls are made: the home page's `syscall`
  /// followed by code that puts the thread's registers back if tsrun dies
  /// meanwhile (SelfRestore.h), or once Syscall User Dispatch's pages are
  /// in, their `syscall; int3` (the one range SUD lets calls through from).
  uint64_t syscallGadget() const {
    return Agent.SudMapped ? SudInjectGadgetAt : Home + HomeGadgetOffset;
  }
  bool restoringGadget() const { return Home && !Agent.SudMapped; }
  static constexpr uint64_t HomeGadgetOffset = 32;
  /// Where hijacked returns go: one breakOpcode() in the home page, or,
  /// in a process tsrun cannot map memory in, an address no process can
  /// map (above the user address space), where the return faults with
  /// SIGSEGV and rip on it.
  uint64_t returnTrampoline() const {
    return Home ? Home + 16 : unmappableReturn();
  }
  uint64_t unmappableReturn() const {
    return DM == DataModel::LP64 ? 0xffffffffffffe000ull : 0xffffe000ull;
  }
  /// Whether a stop by Sig at Rip is a return through returnTrampoline().
  bool isReturnStop(int Sig, uint64_t Rip) const {
    if (Home)
      return Sig == breakSignal() && breakAt(Rip) == Home + 16;
    return Sig == SIGSEGV && Rip == unmappableReturn();
  }
  /// Far scratch space in the home page for stubs that need no nearness,
  /// after the injection gadget and its journal (SelfRestore.h) and the
  /// batch stub (InjectBatch.h); createHomePage sets it.
  uint64_t HomeUsed = 512;

  /// r_debug address (0 until known) and the loader breakpoint address.
  uint64_t RDebug = 0;
  uint64_t LoaderBreak = 0;
  /// The loader's debugger hook as an in-process site (HookKind::LoaderGate)
  /// once the process has been let go of; 0 when none.
  uint64_t LoaderGate = 0;
  /// Modules whose probes are installed, by (bias, path).
  std::set<std::pair<uint64_t, std::string>> Installed;
  /// USDT semaphores we incremented (runtime addresses); decremented when
  /// tsrun detaches, forgotten when their module is unloaded.
  std::set<uint64_t> Semaphores;
  bool SeccompFilter = false;    ///< launched with our seccomp filter
  bool UsesSyscallStops = false; ///< resume with PTRACE_SYSCALL
  /// -v / JSON have said how this image's system-call probes fire.
  bool SyscallsReported = false;
  /// Launched processes (and their children) are traced with
  /// PTRACE_O_TRACESECCOMP, for our filter; attached ones are not, so that
  /// their own filters' SECCOMP_RET_TRACE fails with ENOSYS as it would
  /// without tsrun.
  bool tracesSeccompStops() const { return Launched; }

  /// The process's own seccomp filters (Sandbox.h): every system call
  /// tsrun makes it run is checked against them first.
  SeccompView Seccomp;
  /// Why tsrun makes this process run no system call at all ("" if it
  /// may): then it has no home page, its breakpoints are stepped over and
  /// its exit probes return through unmappableReturn().
  std::string NoInjection;
  /// How its probes run, for reports: "agent", "breakpoints" or
  /// "breakpoints-no-inject"; and what sandboxes it ("" if nothing).
  std::string PathName;
  std::string SandboxSummary;
  /// Whether its agent may put its sites back by itself if tsrun dies: not
  /// when the calls that takes are not the sandbox's to allow. It then only
  /// disarms (tscc_agent_proc.healing set from the start).
  bool AgentMayHeal = true;
  /// Statuses that waitpid() gave tsrun somewhere the event loop does not
  /// look (a process that died while running an injected call): they go
  /// here, for the event loop.
  std::vector<std::pair<pid_t, int>> *Reaped = nullptr;

  /// How breakpoints trap. Launched commands use int3, the cheapest trap;
  /// they die with tsrun anyway (PTRACE_O_EXITKILL). Attached processes
  /// must outlive a killed tsrun, so they use a one-byte instruction that
  /// faults instead: a fault leaves rip on the breakpoint, so a thread that
  /// was stopped there when tsrun died simply executes it again (Healer.h).
  bool FaultBreaks = false;
  uint8_t breakOpcode() const { return FaultBreaks ? faultOpcode() : 0xcc; }
  AgentState Agent;
  /// For a vfork child: the parent it borrows its memory from until it
  /// execs or exits.
  pid_t VforkParent = 0;
  int breakSignal() const { return FaultBreaks ? faultSignal() : SIGTRAP; }
  /// The breakpoint a thread stopped by breakSignal() at rip hit.
  uint64_t breakAt(uint64_t Rip) const { return FaultBreaks ? Rip : Rip - 1; }
  /// 64-bit mode: `push %es`, one byte and #UD (SIGILL). It is a valid
  /// instruction in 32-bit mode, where no one-byte opcode is #UD; there
  /// `hlt` faults instead (#GP at user level: SIGSEGV, si_code SI_KERNEL).
  static constexpr uint8_t FaultOpcode = 0x06;
  static constexpr uint8_t FaultOpcode32 = 0xf4;
  uint8_t faultOpcode() const {
    return DM == DataModel::LP64 ? FaultOpcode : FaultOpcode32;
  }
  /// The signal of a faultOpcode(), which the healer handles.
  int faultSignal() const { return DM == DataModel::LP64 ? SIGILL : SIGSEGV; }
  HealState Heal;
  /// Let go of (--detach): no thread is ptrace-attached and Threads is
  /// empty; its clauses run in the process and the event loop learns of
  /// its end from waitpid() (it is tsrun's child). Attached again only to
  /// end the session (Detach.cpp).
  bool Detached = false;
  /// From an exec stop until the new image is set up: exec reset every
  /// signal handler, so no agent a killed tsrun left is in it to adopt.
  bool FreshImage = false;
  /// A process a detached process made with fork() while nobody watched,
  /// which armed itself (Agent/follow.c) and counts in the shard of
  /// FollowedFrom: found in that shard (Follow.cpp), detached from the
  /// start, its end seen through PidFd (it is not tsrun's child).
  pid_t FollowedFrom = 0;
  int PidFd = -1;
  /// A window for an exec is open (ExecWindow.cpp): the thread with this
  /// id asked for it, and the process is attached until the exec is seen.
  pid_t WindowTid = 0;
  /// The process tsrun did not know when it asked (a vfork() child of a
  /// detached process): if the exec fails, it is let go of altogether.
  bool WindowOnly = false;
  /// Why it stays attached, once said (-v); empty while not said.
  std::string AttachedBecause;
};

/// user_regs_struct <-> TSCC_REG_* order. A 32-bit process's registers
/// are 32 bits wide (what the upper halves of a compat task's registers
/// hold is not architecturally defined): DM ILP32 keeps only their low
/// halves, so that clause code and unwinders see the process's values.
void regsToTscc(const user_regs_struct &R, uint64_t *Out,
                DataModel DM = DataModel::LP64);

} // namespace pt
} // namespace tscc::rt

#endif // TSCC_RUNTIME_PTRACE_PTRACEPROCESS_H
