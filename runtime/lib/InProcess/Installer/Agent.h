//===- Agent.h - Putting the in-process agent into a target (private) -----===//
//
// For a native 64-bit process the ptrace backend does not stop the target
// at every probe hit: it relocates the agent (runtime/lib/InProcess/Agent/) and
// the probe object's code into the process, maps the session's shared store
// there, and patches probe sites with jumps to trampolines (JumpSites.cpp), so
// clauses run in the target's own threads. ptrace stays attached for
// everything else: threads, forks and execs, signals, and the end.
//
// Everything here happens with the process's threads stopped, through
// system calls injected into one of them (Inject.h) and writes to
// /proc/PID/mem.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_AGENT_H
#define TSCC_RUNTIME_PTRACE_AGENT_H

#include "../../Ptrace/PtraceProcess.h"
#include "AgentThreads.h"

#include "../../Loader/LoadedImage.h"
#include "ProcessAccess.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tscc::rt {
class Session;
class SharedStore;
class ControlPage;
} // namespace tscc::rt

namespace tscc::rt::pt {

/// The lowest number the agent keeps its shard's descriptor at, out of the
/// way of the program's own descriptors (tscc_agent_config.shard_fd).
inline constexpr int KeptShardFdMin = 900;

/// What every target's agent shares: the objects to relocate, the control
/// page, and the socket through which a target receives its memfds (the
/// control page, its domain's store, its shard).
class AgentFactory {
public:
  explicit AgentFactory(Session &S);
  ~AgentFactory();
  AgentFactory(const AgentFactory &) = delete;
  AgentFactory &operator=(const AgentFactory &) = delete;

  /// Why no target of this session can run clauses itself ("" if they
  /// can): the object is linked into tsrun, or the store is missing.
  const std::string &unavailable() const { return Unavailable; }
  Session &session() { return S; }
  ControlPage &control();
  std::span<const uint8_t> programObject() const;
  /// A new epoch for a process being (re)armed: its threads resolve their
  /// slots in the store again.
  uint32_t nextEpoch() { return ++Epoch; }

  /// The abstract unix socket a target connects to for the store's fd.
  bool listen(std::string &Error);
  const std::string &socketName() const { return SocketName; }
  /// Accepts the connection of process Pid and sends it Fds (the store's,
  /// the control page's, its shard's).
  bool sendFds(pid_t Pid, std::span<const int> Fds, std::string &Error);
  /// One step of answering a batch that connects to the socket while it
  /// runs (InjectBatch.h): waits up to 10 ms for Pid's connection and
  /// sends it Fds. True once done: sent, failed (Error), or a second
  /// (counted in Waited) without a connection.
  bool answerBatch(pid_t Pid, std::span<const int> Fds, unsigned &Waited,
                   std::string &Error);

private:
  Session &S;
  std::string Unavailable;
  int ListenFd = -1;
  std::string SocketName;
  uint32_t Epoch = 0;
};

/// What the agent's configuration needs to know of a process besides what
/// its Target says.
struct AgentTargetFacts {
  uint64_t HwCap2 = 0; ///< AT_HWCAP2 (FSGSBASE: the x86-64 agent's rdfsbase)
  /// The vDSO's clock_gettime (clock_gettime64 in a 32-bit process), or 0:
  /// the agent then makes the system call.
  uint64_t VdsoClockGettime = 0;
};

/// Putting the agent into a process, whatever controls it (a ptrace'd
/// process, one behind a GDB stub): first its images (the agent, the
/// object's code for T's model), its threads' table and pool, and its data
/// area go in; the caller then maps the store, the control page and T's
/// shard into it (A.StoreBase, A.ControlBase, A.ShardBase and their
/// sizes); configureAgent writes its configuration, installs its signal
/// handler and arms it. False with Why on the first failure; what was
/// mapped stays (unarmed).
bool placeAgentImages(ip::ProcessAccess &Acc, Target &T, AgentState &A,
                      AgentFactory &F, RelocatedImage &AgentImg,
                      RelocatedImage &Code, std::string &Why);
bool configureAgent(ip::ProcessAccess &Acc, Target &T, AgentState &A,
                    AgentFactory &F, const RelocatedImage &Code,
                    const AgentTargetFacts &Facts, bool MayHeal,
                    std::string &Why);

/// Installs the agent into P and arms it. Every thread of P is stopped and
/// Tid is one of them. False with Why when P stays on the ptrace path (a
/// 32-bit process, another PID namespace, a failed injection...); nothing
/// of the agent is then left armed in P.
bool installAgent(PtraceProcess &P, pid_t Tid, AgentFactory &F,
                  std::string &Why);

/// A fork child starts disarmed (its agent page is wiped on fork) and
/// without its parent's shard (never inherited); this gives it its own
/// identity in the store and the forking thread's entry (of Parent's
/// thread ForkingTid, stopped at the fork event). It is armed by
/// finishChildAgent, at its first stop.
bool rearmAgent(PtraceProcess &Child, const PtraceProcess &Parent,
                pid_t ForkingTid, AgentFactory &F, std::string &Why);
/// At a fork child's first stop (thread Tid): maps a shard of its own
/// into it and arms its agent. Does nothing for a process that waits for
/// none.
bool finishChildAgent(PtraceProcess &Child, pid_t Tid, AgentFactory &F,
                      std::string &Why);

/// Before tsrun lets go of P (--detach; thread Tid stopped): its shard
/// becomes inheritable (MADV_DOFORK), so that a child it forks while
/// nobody watches arms itself and counts there (Agent/follow.c). False
/// with Why when that cannot be done; such a child then runs untraced and
/// says so.
bool letForksFollow(PtraceProcess &P, pid_t Tid, std::string &Why);

/// Processes that share memory without being threads (AgentLifecycle.cpp).
/// Child (a vfork() child, or made by clone(CLONE_VM) without
/// CLONE_THREAD), which has not run yet, uses Parent's agent: it becomes a
/// process of its own for the store, and the agent tells its threads from
/// Parent's by their ids until it leaves. False with Why when the agent
/// cannot tell them apart (too many processes share the memory); its hits
/// are then dropped, counted.
bool shareAgent(PtraceProcess &Parent, PtraceProcess &Child, AgentFactory &F,
                std::string &Why);
/// Threads that use P's memory may share an fs base (one was made without
/// a TLS of its own, or an untraced process shares the memory): the agent
/// tells them apart by their ids from now on.
bool agentTellsThreadsById(PtraceProcess &P, std::string &Why);
/// Whether every thread of P, all stopped, has an fs base of its own.
bool threadsHaveOwnFsBase(const PtraceProcess &P);
/// Other processes that use Pid's memory (kcmp): none, as a rule.
std::vector<pid_t> processesSharingMemory(pid_t Pid);
/// Leaving no longer uses the memory it shared (it exec'ed or exited);
/// Remaining is a process that still does, or null. Idempotent.
void unshareAgent(PtraceProcess &Leaving, PtraceProcess *Remaining);
/// Thread Tid of P, stopped at its PTRACE_EVENT_EXIT, is ending: its entry
/// in the agent's table is marked dead, before its stack and TCB can be
/// reused by a new thread.
void agentThreadEnding(PtraceProcess &P, pid_t Tid);
/// In a fork child before it runs (rearmAgent does it).
void handForkingThread(PtraceProcess &Child, const PtraceProcess &Parent,
                       pid_t ForkingTid);
/// Where P's agent keeps its threads, and P's memory to read them with.
AgentTableLayout agentTableOf(const AgentState &A);
class ProcessAgentMemory final : public AgentMemory {
public:
  explicit ProcessAgentMemory(PtraceProcess &P) : P(P) {}
  bool read(uint64_t Addr, void *Dst, size_t Len) override {
    return P.readMemory(Addr, Dst, Len);
  }
  bool write(uint64_t Addr, const void *Src, size_t Len) override {
    return P.writeMemory(Addr, Src, Len);
  }

private:
  PtraceProcess &P;
};

/// Puts the agent's SIGTRAP handler in front of the program's disposition,
/// which it chains to, before the first trap site is written (once per
/// image). Tid must be stopped.
bool installAgentTrapHandler(PtraceProcess &P, pid_t Tid, std::string &Why);

/// After the program set its own disposition for Sig (SIGSEGV, SIGBUS or
/// SIGFPE; SIGTRAP where trap sites have the agent's handler): keeps it for
/// chaining and puts the agent's handler back in front. Tid must be
/// stopped.
bool reinstallAgentHandler(PtraceProcess &P, pid_t Tid, int Sig,
                           std::string &Why);

/// The kernel forces a fault or a trap on a thread that blocks its signal:
/// it unblocks it in that thread and resets the whole process's
/// disposition to SIG_DFL, so the next one would kill the program. Where
/// that signal was one of the agent's own (a bad pointer in a clause, a
/// trap site), which tsrun completes itself at the stop (Tid stopped
/// there, the signal not delivered), this puts the agent's handler back in
/// front (what it chains to is unchanged) and, when Reblock, blocks the
/// signal in Tid again, as the program had it. Nothing is done when the
/// disposition was not reset (/proc/PID/status, SigCgt).
bool repairForcedSignal(PtraceProcess &P, pid_t Tid, int Sig, bool Reblock,
                        std::string &Why);

/// After a time nobody watched sigaction() (a detached process): every
/// disposition of the agent's signals that the program replaced meanwhile
/// is kept for chaining, and the agent's handler goes back in front of it.
/// Tid must be stopped.
bool reclaimAgentHandlers(PtraceProcess &P, pid_t Tid, std::string &Why);

/// Thread Tid of P was found group-stopped (SIGSTOP, SIGTSTP...) by job
/// control. If it holds the store lock -- stopped in the middle of a
/// clause -- every other traced thread would wait for it: its agent is
/// asked to stop it again as soon as it lets go, and true is returned:
/// the caller resumes the thread instead of leaving it stopped. A claim
/// to take the lock next that it held is given up either way.
bool finishClauseBeforeStop(PtraceProcess &P, pid_t Tid, AgentFactory &F);

/// Stops the agent from starting any new clause in P.
void disarmAgent(PtraceProcess &P);

/// How the end went for one process, for -v.
struct AgentRemoval {
  unsigned SitesRestored = 0;
  unsigned ReturnsRestored = 0;
  bool Unmapped = false;
  std::string KeptBecause; ///< why the agent's memory stays mapped
};

/// Taking the agent out of a process that lives on, at the end of the
/// session. Three steps, which Shutdown.cpp runs for every process at once
/// (a thread in one process's agent may wait for the session lock that a
/// thread of another holds). No thread is ever single-stepped through
/// agent code: see AgentRemoval.cpp.
struct AgentTakedown {
  PtraceProcess *P = nullptr;
  /// Every thread that runs in P's memory: P's, and a vfork child's.
  std::vector<Thread *> Threads;
  /// Threads inside the agent, which must run until they leave it.
  std::vector<Thread *> Inside;
  /// The int3s where a thread leaving the agent stops: address, and the
  /// byte it replaced.
  std::vector<std::pair<uint64_t, uint8_t>> Traps;
  /// Why the agent's memory must stay mapped whatever the last step finds.
  std::string Stuck;
  AgentRemoval Result;
};

/// If Handler is the SIGSEGV handler of an agent of P's model that a
/// killed tsrun left (its configuration says so), the SIGSEGV disposition
/// it chains to. For walking a chain of handlers (Healer.cpp).
std::optional<uint64_t> orphanAgentChainedSegv(PtraceProcess &P,
                                               uint64_t Handler);

/// The jump-patched site whose displaced bytes contain Addr (not its
/// first byte), or null.
const JumpSite *jumpSiteCovering(const PtraceProcess &P, uint64_t Addr);

/// Step 1, with every thread stopped: disarms the agent for good, puts
/// every site's original bytes and every hijacked return address back, and
/// lists the threads that are inside the agent (moving those that can be
/// moved without running agent code).
AgentTakedown beginAgentRemoval(PtraceProcess &P,
                                std::vector<Thread *> Threads);

/// Step 2: lets the threads inside the agents run, all together, until
/// each stops at an int3 on its way out (the start of a trampoline's copy
/// of displaced instructions, or the `ret` of the return trampoline),
/// where it is moved to the program's own code. Bounded in time: a thread
/// that does not come out keeps its agent mapped (AgentTakedown::Stuck).
void bringOutOfAgents(std::vector<AgentTakedown> &All);

/// Step 3: puts back the return addresses threads hijacked on their way
/// out, gives the program its signal dispositions back and unmaps the
/// agent's memory if no thread can come back into it.
AgentRemoval finishAgentRemoval(AgentTakedown &T);

/// After installAgent failed half way (a process near its RLIMIT_AS, say):
/// gives the program back its signal dispositions, where the agent's
/// handler went in, and the address space of whatever was mapped, so that
/// it runs on the ptrace path as it would have run alone.
void discardFailedAgent(PtraceProcess &P, pid_t Tid);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_AGENT_H
