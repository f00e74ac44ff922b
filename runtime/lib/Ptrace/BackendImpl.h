//===- BackendImpl.h - PtraceBackend internals (private) ------------------===//
//
// The implementation is split by concern:
//   PtraceBackend.cpp  lifecycle: launch, attach, the event loop, shutdown
//   Events.cpp         ptrace stops: breakpoints, returns, syscalls,
//                      clone/fork/exec, signals
//   Install.cpp        modules (maps, link map), probe installation
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_BACKENDIMPL_H
#define TSCC_RUNTIME_PTRACE_BACKENDIMPL_H

#include "../InProcess/Installer/Agent.h"
#include "../InProcess/Patch/SyscallSites.h"
#include "../Unwind/ProcessImage.h"
#include "ExeWatch.h"
#include "PathPlan.h"
#include "PtraceProcess.h"
#include "SpinWait.h"

#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/Runtime/PtraceBackend.h"

#include <atomic>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

struct tscc_shard_header;

namespace tscc::rt {

class Shard;

namespace pt {
/// PTRACE_SEIZE options: every event we follow (and threads' ends where
/// agents may be, InProcess); launched commands also die with tsrun.
long seizeOptions(bool Launched, bool InProcess);
/// What a new process C that starts as a copy of P, or uses P's memory
/// (CopiesMemory false: vfork, clone(CLONE_VM)), takes over of P's tracing
/// state: modules, breakpoints, scratch pages, sandbox, agent.
void inheritTracing(PtraceProcess &C, const PtraceProcess &P,
                    bool CopiesMemory);
/// The thread group of a tid, from /proc (0 when it is gone).
pid_t tgidOf(pid_t Tid);
/// A window a detached process's thread asked for in its shard (Word: its
/// window_tid) is granted / refused, and the thread woken.
void grantWindow(tscc_shard_header &H, uint32_t Word);
void refuseWindow(tscc_shard_header &H, uint32_t Word);
} // namespace pt

class PtraceBackend::Impl {
public:
  Impl(Session &S, PtraceOptions Opts);
  ~Impl();

  bool start(std::string &Error);
  void run();
  void interrupt();

  // --- lifecycle (PtraceBackend.cpp)
  bool launch(const std::vector<std::string> &Argv, std::string &Error);
  /// StartUp: a failure ends the backend (the session cannot start);
  /// otherwise only this process is given up.
  bool attach(pid_t Pid, std::string &Error, bool StartUp = true);
  /// Seizes every thread of P's process, and waits until each is stopped
  /// (those that end meanwhile are left out: none may be left). False
  /// (Error set) when one cannot be seized. KillWithTsrun: a launched
  /// process dies with tsrun (PTRACE_O_EXITKILL); not in a window for an
  /// exec, where it was detached and goes on without tsrun.
  bool seizeThreads(pt::PtraceProcess &P, std::string &Error,
                    bool KillWithTsrun = true);
  /// Attaching to P: the processes that use its memory (made by
  /// clone(CLONE_VM) before tsrun came), seized and stopped before
  /// anything is put into that memory. Those that cannot be are left out.
  std::vector<pt::PtraceProcess *> seizeSharers(pt::PtraceProcess &P);
  /// After P is set up: each of them is traced as a process of its own
  /// that uses P's memory (its breakpoints, its agent).
  void adoptSharers(pt::PtraceProcess &P,
                    const std::vector<pt::PtraceProcess *> &Sharers,
                    bool StartUp);
  /// Lets go of processes seized by seizeSharers.
  void releaseSharers(const std::vector<pt::PtraceProcess *> &Sharers);
  /// Processes attached that way: naming one with -p too is no error.
  std::set<pid_t> AttachedAsSharers;
  /// The child that only sleeps, for interrupt() and the watcher to kill:
  /// that wakes waitpid() without a race.
  void spawnWaker();
  // --- --exe (Adopt.cpp)
  bool startWatching(std::string &Error);
  /// Takes the watcher's requests: seize an exec'ing thread, attach a
  /// process that maps the file.
  void adoptRequested();
  bool seizeAtExec(pid_t Pid, pid_t Tid, const std::string &Path,
                   std::string &Error);
  /// P, seized inside an execve() of an --exe file, stopped before any
  /// exec stop: the execve() failed. It is let go, with Sig (the signal of
  /// the stop, or 0) delivered.
  void execFailed(pt::PtraceProcess &P, int Sig);
  pid_t waitEvent(int &Status);
  void shutdown();
  bool willKill(const pt::PtraceProcess &P) const;
  bool sharedWithLater(const pt::PtraceProcess &P,
                       const std::vector<pt::PtraceProcess *> &Live) const;
  void finishReturn(pt::PtraceProcess &P, pt::Thread &T);
  void collectQueuedBreak(pid_t Pid, pid_t Tid);
  std::vector<pt::Thread *> threadsInMemoryOf(pt::PtraceProcess &P);
  void finishProcess(pt::PtraceProcess &P, int Code, int Sig);
  /// Destroys every exited process the session has released (all of its
  /// records are out), when the session released any since the last time.
  void freeReleased();
  /// A process that shared another's memory (vfork, clone(CLONE_VM)) and
  /// exec'ed or exited no longer uses it, nor its agent.
  void leaveSharedMemory(pt::PtraceProcess &Child);
  /// At a new thread's first stop: whether it has its creator's fs base.
  void checkNewThreadTls(pt::PtraceProcess &P, pt::Thread &T);
  /// Attached: processes that share P's memory (and agent) but could not
  /// be traced must not use P's threads' entries.
  void keepAgentFromUntracedSharers(pt::PtraceProcess &P);
  /// While this thread waits for the store lock: if its holder is a
  /// thread of ours in a ptrace stop (a signal on its way to it, a fault
  /// in a clause it runs), let it go on; other news of it is kept for the
  /// event loop (Deferred).
  void unblockLockOwner();
  void unblockOwnerOf(SharedStore &Store);
  void handleDeferred();
  size_t liveCount() const { return ByPid.size(); }

  // --- detached processes (Detach.cpp)
  /// Why P must stay attached now, or "" when it may be let go of.
  std::string attachmentNeeded(const pt::PtraceProcess &P) const;
  /// --detach: at a stop of T where P is set up (its startup libraries
  /// installed), lets go of P if nothing needs tsrun: its loader
  /// breakpoint and sigaction() watch are taken out, every thread is
  /// detached, T resumes at ResumeAt (0: where it is). True when P is
  /// detached (T must not be resumed), false when it stays attached (-v
  /// says why, once).
  bool detachIfSettled(pt::PtraceProcess &P, pt::Thread &T, uint64_t ResumeAt);
  /// --detach: P, which tsrun attached to (-p, --exe) and set up, all of
  /// its threads stopped, is let go of at once if nothing needs tsrun.
  bool detachAttached(pt::PtraceProcess &P);
  /// Puts an in-process trap site on the loader's debugger hook at Addr
  /// (its breakpoint taken out first), whose agent asks for a window at
  /// each consistent link map while P is detached (LinkMapWindow.cpp).
  bool placeLoaderGate(pt::PtraceProcess &P, pid_t Tid, uint64_t Addr,
                       std::string &Why);
  /// Attaches every detached process again (every thread stopped), for the
  /// end of the session; a process that execed while detached is
  /// forgotten as an image, one that cannot be attached is left to heal
  /// itself.
  void reattachDetached();
  bool reattach(pt::PtraceProcess &P);

  // --- processes detached ones made (Follow.cpp)
  /// The detached processes that have not ended: their shards are where
  /// the children they made and their requests for a window are found. A
  /// copy, as following or a window adds processes to ByPid.
  std::vector<pt::PtraceProcess *> detachedProcesses() const;
  /// Finds the processes that detached processes forked and that armed
  /// themselves in their shards, and follows them (without ptrace); at
  /// most every few milliseconds unless Now.
  void findFollowed(bool Now);
  /// Followed processes that have ended are finished.
  void reapFollowed();
  /// Whether every process left is followed (none is tsrun's child, so
  /// waitpid() would not hear of them).
  bool onlyFollowedLeft() const;
  /// Sleeps until a followed process ends, or for a few milliseconds.
  void waitFollowed();
  /// Whether the end of P, once let go of, can be learnt: it is tsrun's
  /// child (waitpid()), or it has a pidfd now (opened here).
  bool watchEndByPidFd(pt::PtraceProcess &P);
  /// Whether followed process P has ended (its pidfd says so).
  bool followedEnded(const pt::PtraceProcess &P) const;
  void finishFollowed(pt::PtraceProcess &P);
  uint64_t FollowScannedNs = 0;

  // --- exec while detached (ExecWindow.cpp)
  /// --detach, a process whose agent runs its clauses: the entries of
  /// libc's exec functions in M get an ExecGate hook, first at its site.
  void addExecGates(pt::PtraceProcess &P, const pt::Module &M,
                    std::map<uint64_t, std::vector<pt::Hook>> &Want,
                    std::map<uint64_t, const ElfSymbol *> &Enclosing);
  /// Threads of detached processes that asked for a window before an exec
  /// are traced, and told so.
  void openWindows();
  /// The process of Tid, which asked in Owner's shard Sh: a known one, or
  /// one made for the window (a vfork() child); null (Why) when not ours.
  pt::PtraceProcess *windowProcess(pt::PtraceProcess &Owner, Shard &Sh,
                                   pid_t Tid, std::string &Why);
  /// Seizes every thread of P (stopped) and puts Tid in its window.
  bool openWindow(pt::PtraceProcess &P, pid_t Tid, std::string &Why);
  /// Thread TSCC_WINDOW_TID(Word) of a detached process is in the loader's
  /// hook at a consistent link map (LinkMapWindow.cpp): the process is
  /// attached, its new libraries' probes installed (its unloaded ones
  /// forgotten), and it is let go of again, before the window is granted.
  void linkMapWindow(tscc_shard_header &H, uint32_t Word);
  /// A process made for a window only leaves the backend.
  void forgetWindowOnly(pt::PtraceProcess &P);
  /// At the exec stop of a window (onExec): it is closed.
  void execSeenInWindow(pt::PtraceProcess &P, pt::Thread &Leader);
  /// A system-call stop of T in a window: false when it is not one.
  bool onWindowSyscall(pt::PtraceProcess &P, pt::Thread &T);
  /// The execve() of a window failed: P is let go of again.
  void closeWindow(pt::PtraceProcess &P, pt::Thread &T);

  // --- stops (Events.cpp)
  void handleStatus(pid_t Tid, int Status);
  void handleStop(pt::PtraceProcess &P, pt::Thread &T, int Status);
  /// A stop by Sig (the break signal, or SIGSEGV without a home page):
  /// false when it is not tsrun's.
  bool onTrap(pt::PtraceProcess &P, pt::Thread &T, int Sig);
  void onReturn(pt::PtraceProcess &P, pt::Thread &T, user_regs_struct &R,
                bool Fire);
  /// Shadow frames (hijacked returns) that are gone: skipped by a longjmp
  /// or an exception, with their stack reused.
  void dropShadowFrame(pt::PtraceProcess &P, pt::Thread &T, size_t Index);
  void dropDeadShadowFrames(pt::PtraceProcess &P, pt::Thread &T, uint64_t Slot);
  void hijackReturn(pt::PtraceProcess &P, pt::Thread &T, user_regs_struct &R,
                    std::vector<pt::Hook> Hooks);
  void onSeccomp(pt::PtraceProcess &P, pt::Thread &T);
  /// Whether a system call stop is of P's own architecture (a 64-bit
  /// process can make i386 calls with int $0x80); warns once if not.
  bool ownArchSyscall(pt::PtraceProcess &P, uint32_t AuditArch);
  /// A hit of a StepOver breakpoint (StepOver.cpp): R are the thread's
  /// registers, and afterwards its registers after the instruction. False
  /// when the thread is gone (Error empty) or the step failed (Error).
  bool stepOver(pt::PtraceProcess &P, pt::Thread &T, const pt::Breakpoint &Bp,
                user_regs_struct &R, std::string &Error);
  /// Stops every running thread of P but Except; returns those it stopped
  /// (news of others that came first goes to Deferred).
  std::vector<pid_t> pauseOthers(pt::PtraceProcess &P, pid_t Except);
  enum class StepResult { Stepped, Gone, Failed };
  /// Single-steps T, which is at At, until the instruction there has run
  /// (or faulted); signals that come first are kept (PendingSignal, then
  /// Later).
  StepResult stepInPlace(pt::PtraceProcess &P, pt::Thread &T, uint64_t At,
                         std::vector<int> &Later);
  void onSyscallStop(pt::PtraceProcess &P, pt::Thread &T);
  void onNewChild(pt::PtraceProcess &P, pt::Thread &T, unsigned Event);
  void onExec(pt::PtraceProcess &P, pt::Thread &T);
  /// Exit probes of the execve (ExecName in the old image's table) that
  /// just succeeded: it returns 0, seen at the exec stop.
  void fireExecExit(pt::PtraceProcess &P, std::string_view ExecName);
  void resume(pt::PtraceProcess &P, pt::Thread &T, int Sig = 0);
  /// After tsrun completed one of the agent's own faults or traps at T's
  /// stop: puts back what the kernel undid if T blocked the signal
  /// (repairForcedSignal), or warns.
  void repairOwnSignal(pt::PtraceProcess &P, pt::Thread &T, int Sig);
  /// The same at a stop of one of tsrun's breakpoints (its int3, or the
  /// hlt of a 32-bit process), where the agent has a handler for Sig: a
  /// thread that blocks it (and calls sigaction(), which tsrun watches
  /// with a breakpoint, as glibc does in the first pthread_create())
  /// would otherwise leave the agent's trap or fault handler reset.
  void repairOwnBreakSignal(pt::PtraceProcess &P, pt::Thread &T, int Sig);
  void fireProbe(pt::PtraceProcess &P, pid_t Tid, uint32_t Probe,
                 const user_regs_struct &R, std::string_view Func,
                 std::string_view Module, uint64_t SyscallNr = 0,
                 int32_t Err = 0, const pt::Hook *Usdt = nullptr);
  bool probeApplies(const pt::PtraceProcess &P, uint32_t Probe) const;

  // --- modules and probes (Install.cpp)
  /// Increments U's semaphore once per process (P.Semaphores).
  void setSemaphore(pt::PtraceProcess &P, const UsdtProbe &U, uint64_t Bias);
  static UsdtMemoryReader semaphoreReader(pt::PtraceProcess &P);
  static UsdtMemoryWriter semaphoreWriter(pt::PtraceProcess &P);
  /// After exec/attach with every thread stopped: home page, modules,
  /// probes, loader breakpoint.
  bool setupImage(pt::PtraceProcess &P, pid_t Tid, std::string &Error);
  /// Within setupImage: what may be put into P given its sandbox (home
  /// page, healer, agent), put there, and said (-v). False only when P
  /// died meanwhile.
  bool choosePath(pt::PtraceProcess &P, pid_t Tid, std::string &Error);
  /// The healer of an attached process, unless Why (or P.NoInjection)
  /// says it cannot be had: then a warning. False when P died.
  bool placeHealer(pt::PtraceProcess &P, pid_t Tid, std::string Why);
  /// The in-process agent, where Plan allows it; says which path the
  /// clauses take. False when P died.
  bool placeAgent(pt::PtraceProcess &P, pid_t Tid, const pt::PathPlan &Plan);
  void scanMaps(pt::PtraceProcess &P, pid_t Tid);
  /// True when the link map was consistent and every library in it is
  /// installed.
  bool syncLinkMap(pt::PtraceProcess &P, pid_t Tid);
  pt::Module *addModule(pt::PtraceProcess &P, const std::string &Path,
                        uint64_t Bias, bool IsMain);
  void installModule(pt::PtraceProcess &P, pid_t Tid, pt::Module &M);
  /// Out-of-line stubs for New's breakpoints that need one, in one scratch
  /// area near M; without scratch memory they are stepped over instead
  /// (returned), and those that cannot be are dropped (Dropped, their
  /// Addr set to 0) with a warning.
  std::vector<uint64_t> placeStubs(pt::PtraceProcess &P, pid_t Tid,
                                   pt::Module &M,
                                   std::vector<pt::Breakpoint> &New,
                                   std::vector<uint64_t> &Dropped);
  bool installLoaderBreak(pt::PtraceProcess &P, pid_t Tid, uint64_t Addr);
  uint64_t findRDebug(pt::PtraceProcess &P);
  std::shared_ptr<const ElfFile> loadElf(const std::string &Path);
  void warnOnce(const std::string &Message);
  /// Why a site with these hooks cannot run its clauses in the process,
  /// or "" if it can.
  std::string inProcessObstacle(const std::vector<pt::Hook> &Hooks,
                                bool StackKeysIn) const;
  /// Whether clauses of P that key by a stack can run in the process: the
  /// agent's table of stack ids is (now) there (StackKeys.cpp).
  bool stackKeysInProcess(pt::PtraceProcess &P, pid_t Tid);
  /// Writes the tables of P's modules that are not in it yet and a new
  /// image listing them all, if its modules changed (StackKeys.cpp).
  void syncUnwindImage(pt::PtraceProcess &P, pid_t Tid);
  /// Compiled unwind tables, by file.
  unwind::TableCache UnwindTables;

  Session &S;
  PtraceOptions Opts;
  ProbeMatcher Matcher;
  bool Started = false;

  /// Every process seen and not yet freed. An exited one stays until the
  /// session releases it (its last records are out, their stacks
  /// symbolised); freeReleased() then destroys it.
  std::vector<std::unique_ptr<pt::PtraceProcess>> All;
  uint64_t ReleasesSeen = 0; ///< Session::releaseCount() at the last sweep
  std::unordered_map<pid_t, pt::PtraceProcess *> ByPid; ///< live, by tgid
  std::unordered_map<pid_t, pt::PtraceProcess *> ByTid; ///< live threads
  /// Stops of tracees we have not been told about yet (a new thread or
  /// child can report before its parent's clone/fork event).
  std::map<pid_t, std::vector<int>> Orphans;
  /// Statuses reaped while waiting for the store lock, for the event loop.
  std::vector<std::pair<pid_t, int>> Deferred;
  std::function<void()> LockWaitHook;
  ElfCache Elves;
  std::set<std::string> Warned;

  /// Syscall probes by number, per data model.
  std::unordered_map<uint64_t, std::vector<uint32_t>> SysEntry[2], SysExit[2];
  bool AnySyscallProbe = false;
  /// The numbers to trace per data model: x86-64 and i386 ones.
  std::vector<uint32_t> SeccompNrs[2];
  /// Probes naming a system call that one data model does not have; said
  /// when the first process of that model is set up.
  std::vector<std::string> SyscallProblems[2];
  void warnSyscallProblems(DataModel DM);
  /// The system calls 64-bit processes trace in the process
  /// (SyscallSites.h), with their hooks; and, per traced number, why it
  /// stays at the seccomp stop (for -v).
  pt::SyscallHooks InProcessSyscalls;
  std::map<uint32_t, std::string> SyscallsStopped;
  void planInProcessSyscalls();
  /// Patches M's system-call sites when P traces calls in the process.
  void installSyscallSitesOf(pt::PtraceProcess &P, pid_t Tid, pt::Module &M);
  /// Says, once per process, how each system-call probe fires there.
  void reportSyscallMechanisms(pt::PtraceProcess &P);
  /// An attached 64-bit process: Syscall User Dispatch instead of
  /// PTRACE_SYSCALL where every traced number runs in the process (once
  /// per image; P.Agent.SudWhy says why not).
  void startSyscallDispatch(pt::PtraceProcess &P, pid_t Tid);
  /// A new thread (or forked child) of a process with SUD: on, or else
  /// PTRACE_SYSCALL for the process.
  void dispatchNewThread(pt::PtraceProcess &P, pt::Thread &T);
  std::vector<std::string> WithinNames;

  /// Puts agents into native 64-bit processes; null with --ptrace.
  std::unique_ptr<pt::AgentFactory> Agents;
  pt::SpinPolicy Spin;
  std::atomic<bool> Interrupted{false};
  std::atomic<pid_t> WakerPid{0};
  std::unique_ptr<pt::ExeWatch> Watch; ///< --exe
  bool ShuttingDown = false;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_PTRACE_BACKENDIMPL_H
