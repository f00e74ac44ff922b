//===- RemoteImpl.h - RemoteBackend internals (private) -------------------===//
//
// The implementation is split by concern:
//   RemoteBackend.cpp  lifecycle: connect, identify, the event loop, shutdown
//   RemoteTarget.cpp   the Target: registers, memory, unwinding, symbols
//   RemoteModules.cpp  executable, interpreter and libraries (auxv,
//                      libraries-svr4, r_debug/link_map), probe installation
//   RemoteEvents.cpp   stops: breakpoints, returns, syscalls, signals
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_REMOTE_REMOTEIMPL_H
#define TSCC_RUNTIME_REMOTE_REMOTEIMPL_H

#include "../Ptrace/PtraceProcess.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/ModuleImage.h"
#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/Runtime/RemoteBackend.h"
#include "tscc/Runtime/RspClient.h"
#include "tscc/Runtime/Target.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tscc::rt {

class Session;
struct RelocatedImage;
namespace pt {
class AgentFactory;
} // namespace pt
namespace ip {
struct PatchPlan;
} // namespace ip
namespace remote {
class RemoteAccess;
} // namespace remote

namespace remote {

/// One ELF module mapped in the remote process.
struct Module : ModuleImage {
  bool Live = true; ///< false once unloaded (kept for symbolize)
  /// The build-id in memory is the file's: probe sites need no check.
  bool Verified = false;
  /// Not the file the target maps: never probed, addresses not named.
  bool Mismatched = false;
};

/// What comparing a local file with the target's memory showed
/// (RemoteImage.cpp).
enum class ImageMatch : uint8_t { Same, Different, Unknown };
struct ImageCheck {
  ImageMatch Result = ImageMatch::Unknown;
  std::string Why;          ///< for Different: the evidence
  std::string TheirBuildId; ///< the target's, when it could be read
};

enum class HookKind : uint8_t { Entry, Exit, WithinEnter, LoaderBreak };

struct Hook {
  HookKind Kind = HookKind::Entry;
  uint32_t Index = 0; ///< probe index or within index
  std::string Function;
  std::string ModuleName;
  const Module *Owner = nullptr;
  const UsdtProbe *Usdt = nullptr; ///< USDT sites: the note (Owner's ElfFile)
};

struct Breakpoint {
  uint64_t Addr = 0;
  std::vector<Hook> Hooks;
  unsigned ReturnRefs = 0; ///< pending returns that land here
  bool Inserted = false;
  bool ByMemory = false; ///< int3 written by us (no Z0)
  uint8_t Orig = 0;      ///< the byte int3 replaced
};

/// A function activation whose return we are waiting for.
struct PendingReturn {
  uint64_t ReturnAddr = 0;
  uint64_t EntrySP = 0;
  std::vector<Hook> Hooks; ///< Exit and WithinEnter hooks to finish
};

/// Pending returns followed per thread (exit probes, within()).
constexpr size_t MaxPendingReturns = 4096;

struct ThreadState {
  std::vector<PendingReturn> Returns; ///< at most MaxPendingReturns
  bool InSyscall = false; ///< between a caught syscall entry and its return
  /// Collection was on when that call entered: only then does its exit
  /// probe fire (no half calls).
  bool SyscallCollected = true;
};

/// The process behind the stub, as the session sees it.
class RemoteTarget final : public Target {
public:
  RemoteTarget(RspClient &C, DataModel DM, std::string Name);

  int64_t pid() const override { return Pid; }
  int64_t ppid() const override { return PPid; }
  int64_t uid() const override { return Uid; }
  DataModel dataModel() const override { return DM; }
  const std::string &name() const override { return PName; }
  /// The stub's process may be an emulator (qemu-user's threads are named
  /// after qemu): the program's file name cut as exec cuts it.
  std::string threadComm(int64_t) const override { return PName.substr(0, 15); }
  std::string_view backendName() const override { return "gdb-remote"; }
  bool readMemory(uint64_t Addr, void *Dst, size_t Len) override;
  UnwoundStack unwindStack(int64_t Tid, const uint64_t *Regs,
                           unsigned MaxDepth) override;
  /// A stktrace() taken by the agent in a qemu-i386 guest, from the
  /// snapshot alone: the reader calls this while the target runs, when the
  /// stub (all-stop) answers nothing but an interrupt.
  UnwoundStack unwindSnapshot(const uint64_t *Regs,
                              std::span<const uint8_t> Stack,
                              std::span<const uint64_t> Shadow,
                              uint64_t ReturnTrampoline,
                              unsigned MaxDepth) override;
  std::string symbolize(uint64_t PC) override;

  unsigned pointerSize() const { return dataModelPointerSize(DM); }
  uint64_t readPointer(uint64_t Addr, bool &Ok);
  /// Drops cached memory: the target is about to run.
  void invalidateCache();

  /// Registers of the stopped thread in TSCC_REG_* order.
  bool readRegisters(const RspThreadId &T, uint64_t *Regs);
  bool writePC(uint64_t PC);
  /// Writes one TSCC_REG_* slot of the selected thread.
  bool writeRegister(unsigned Slot, uint64_t Value);

  /// With the agent in the guest: for thread Tid, its return trampoline
  /// and the real addresses of the returns it hijacked there (innermost
  /// last), read through the stub while the target is stopped.
  std::function<uint64_t(int64_t Tid, std::vector<uint64_t> &Real)>
      AgentReturns;

  Module *addModule(std::unique_ptr<Module> M);
  const Module *moduleFor(uint64_t Addr) const;
  std::vector<Module *> liveModules();

  RspClient &Client;
  DataModel DM;
  std::string PName;
  int64_t Pid = 0, PPid = -1, Uid = -1;
  bool Exited = false;

private:
  struct CacheLine {
    uint64_t Base = 0;
    bool Valid = false;
    uint8_t Bytes[256];
  };
  CacheLine Cache[8];
  unsigned NextLine = 0;
  /// TSCC_REG_* -> target description register, -1 if absent.
  int RegMap[TSCC_REG_COUNT];
  bool RegMapBuilt = false;
  void buildRegMap();

  mutable std::mutex ModulesLock; ///< symbolize() runs on the output side
  std::vector<std::unique_ptr<Module>> Modules;
};

} // namespace remote

class RemoteBackend::Impl {
public:
  Impl(Session &S, RemoteOptions Opts);
  ~Impl();

  bool start(std::string &Error);
  void run();
  void interrupt();

  // --- lifecycle (RemoteBackend.cpp)
  std::string where() const; ///< "gdb-remote HOST:PORT"
  bool identify(std::string &Error);
  /// Connects, retrying while the stub starts; says what it waits for.
  bool connectToStub(std::string &Error);
  void shutdown(bool Kill);
  void finish(int Code, int Sig);
  /// The stub failed (no answer in time, too much data, connection lost):
  /// says so, naming the stub and what it failed at, and reports the
  /// target gone. The rest of the session goes on.
  void dropTarget();
  /// Interrupts the running target and collects its stop.
  bool stopTarget(RspStop &Stop);
  bool resume();

  // --- events (RemoteEvents.cpp)
  /// Handles one stop; false when the target is gone.
  bool handleStop(const RspStop &Stop);
  /// One stop; a stop that follows from it is left in Chained.
  bool handleOneStop(const RspStop &Stop);
  /// Leaves Next for handleStop() to handle next; true.
  bool chain(const RspStop &Next);
  void onBreakpoint(const RspThreadId &T, uint64_t *Regs);
  bool onReturns(const RspThreadId &T, uint64_t *Regs);
  void onSyscall(const RspStop &Stop);
  bool stepOver(const RspThreadId &T, uint64_t PC);
  /// Performs the instruction at a breakpoint on the registers instead of
  /// stepping (endbr, push %ebp/%rbp: what functions start with).
  bool emulate(const RspThreadId &T, const uint64_t *Regs);
  void fire(const RspThreadId &T, uint32_t Probe, const uint64_t *Regs,
            std::string_view Func, std::string_view Module,
            uint64_t SyscallNr = 0, int32_t Err = 0,
            const remote::Hook *Usdt = nullptr);
  bool probeApplies(uint32_t Probe) const;

  // --- is the local file the target's? (RemoteImage.cpp)
  /// Reads the auxiliary vector (AT_ENTRY, AT_BASE, AT_PHDR, AT_PHNUM).
  void readAuxv();
  /// An error when the stub's architecture is not EXE's.
  bool checkArchitecture(std::string &Error);
  remote::ImageCheck checkImage(const remote::Module &M);
  /// Whether the probe sites of M (link-time addresses) hold the file's
  /// bytes; a difference marks M mismatched and is reported.
  bool sitesMatch(remote::Module &M,
                  const std::vector<std::pair<uint64_t, std::string>> &Sites);
  bool sameBytes(const remote::Module &M, uint64_t VAddr, size_t Len,
                 bool &Read);
  /// The build-id of the program in memory, found through AT_PHDR.
  std::string targetBuildId();
  /// The path of the program the stub runs, or empty if unknown.
  std::string stubProgram(const std::string &BuildId);
  std::string mismatchMessage(const remote::Module &M,
                              const remote::ImageCheck &C);
  /// A mismatch while the session starts is an error, later a warning.
  void reportMismatch(const std::string &Message);
  static std::string describeElf(const ElfFile &F);
  /// Whether the stub's process is one tsrun can see (stubProcessVisible):
  /// only then are its /proc files, its memory maps and tsrun's memfds
  /// shared with it.
  bool stubIsLocal() const;
  bool stubProcessVisible(int64_t Pid) const;
  bool StubVisible = false;

  // --- modules and probes (RemoteModules.cpp)
  bool loadInitialModules(std::string &Error);
  void syncLibraries();
  bool syncFromSvr4();
  void syncFromLinkMap();
  uint64_t findRDebug();
  remote::Module *addModule(const std::string &Path, uint64_t Bias, bool IsMain,
                            bool FromLinkMap);
  void installModule(remote::Module &M);
  /// InGuest: installAgentSites()'s outcome for M.
  void addProbeHooks(remote::Module &M, const std::vector<ProbeSite> &Sites,
                     const std::map<uint64_t, std::string> &InGuest);
  void addHook(uint64_t Addr, remote::Hook H);
  bool insertBreakpoint(remote::Breakpoint &B);
  bool removeBreakpoint(remote::Breakpoint &B);
  void dropModule(remote::Module &M);
  void installSyscalls();
  std::shared_ptr<const ElfFile> loadElf(const std::string &Path);
  void warnOnce(const std::string &Message);

  // --- clauses inside a qemu-i386 guest (RemoteAgent.cpp)
  /// Why this target keeps clauses in tsrun, or "".
  std::string agentObstacle();
  /// An `int $0x80; ret` of the loader's or the program's code.
  std::optional<uint64_t> findGadget();
  /// Puts the agent into the guest if it can take it; -v says which path.
  void prepareAgent();
  bool installAgent(std::string &Why);
  std::string threadsInTheWay(const ip::PatchPlan &Plan);
  /// Patches the sites of M that can jump into the agent, and the entries
  /// of M's within() functions (Within[I] for within index I, or null):
  /// by address, "" for those that did, why not for the others.
  std::map<uint64_t, std::string>
  installAgentSites(remote::Module &M, const std::vector<ProbeSite> &Sites,
                    const std::vector<const ElfSymbol *> &Within);
  /// Disarms the agent and puts every patched site's bytes back.
  bool removeAgentSites();
  /// Puts back the return addresses the agent hijacked (exit probes) on
  /// the stopped threads' stacks.
  bool restoreAgentReturns();
  /// RemoteTarget::AgentReturns.
  uint64_t agentReturnsOf(int64_t Tid, std::vector<uint64_t> &Real);

  // --- guest traps, one thread at a time (RemoteGuestTraps.cpp)
  /// Finds the agent's gate and trap (AgentImg: the relocated agent) and
  /// tells the gate that tsrun serves traps.
  bool setUpGuestTraps(const RelocatedImage &AgentImg, std::string &Why);
  /// Whether the site at Addr, with a clause of Flags, traps to tsrun
  /// through the agent's gate; Why: the clause's reason to need tsrun.
  bool guestTrapFits(uint32_t Flags, uint32_t ProbeKind, std::string &Why);
  /// The thread stopped at the agent's trap: runs the site's clauses.
  void onGuestTrap(const RspThreadId &T, const uint64_t *Stopped);
  /// Before detaching: no thread traps any more, and none is on its way
  /// to the trap (the gate's holder is let through first). Stopped: the
  /// thread the stub stopped in, and its pc.
  bool closeGuestTraps(RspThreadId Stopped, uint64_t StoppedPC);
  uint64_t GuestGate = 0;    ///< struct tscc_guest_gate in the guest
  uint64_t GuestTrapEnd = 0; ///< the pc of a thread at the agent's trap
  /// Sites whose clauses tsrun runs at the agent's trap: their hooks, and
  /// why the clauses need tsrun.
  std::map<uint64_t, std::vector<remote::Hook>> GuestTraps;
  std::map<uint64_t, std::string> GuestTrapWhy;
  /// The last stop handled (closeGuestTraps).
  RspThreadId LastStopThread;
  uint64_t LastStopPC = 0;

  std::unique_ptr<pt::AgentFactory> Agents;
  std::unique_ptr<remote::RemoteAccess> Access;
  pt::AgentState Agent;
  /// Whether a site of the guest's hijacks returns (exit probes, within()).
  bool AgentHijacks = false;
  /// Why the target has no agent (every site is a breakpoint), for -v/JSON.
  std::string NoAgentWhy;

  Session &S;
  RemoteOptions Opts;
  ProbeMatcher Matcher;
  std::unique_ptr<RspClient> Client;
  std::unique_ptr<remote::RemoteTarget> Tgt;
  std::shared_ptr<const ElfFile> ExeElf;

  std::map<uint64_t, remote::Breakpoint> Breakpoints;
  /// USDT semaphores we incremented (runtime addresses), decremented again
  /// when the session detaches.
  std::set<uint64_t> Semaphores;
  bool adjustSemaphore(uint64_t Addr, int Delta);
  std::map<int64_t, remote::ThreadState> Threads;
  ElfCache Elves;
  std::set<std::string> Warned;
  std::vector<std::string> WithinNames;
  std::unordered_map<uint64_t, std::vector<uint32_t>> SysEntry, SysExit;

  uint64_t AuxvEntry = 0, AuxvBase = 0, AuxvPhdr = 0, AuxvPhnum = 0;
  std::string StubExe;    ///< stubProgram(), once known
  std::string StartError; ///< a module mismatch while starting
  bool HaveAuxv = false;
  uint64_t RDebug = 0;
  bool Z0Unsupported = false;
  bool NoEmulation = false; ///< TSCC_REMOTE_NO_EMULATION: always step

  /// Wakes run() out of its wait: written by interrupt().
  int WakeRead = -1, WakeWrite = -1;
  std::atomic<bool> Interrupted{false};
  bool Started = false;
  bool Gone = false;
  bool BreakSent = false;
  std::optional<RspStop> Chained; ///< see handleStop()
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_REMOTE_REMOTEIMPL_H
