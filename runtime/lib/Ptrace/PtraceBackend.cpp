//===- PtraceBackend.cpp - Launch, attach, event loop, shutdown -----------===//
//
// Waking the event loop: interrupt() must be async-signal-safe and the loop
// sleeps in waitpid(), which no flag can interrupt without a race. So the
// loop forks a tiny "waker" child that only sleeps; interrupt() kills it,
// and its exit makes waitpid() return. Every wait uses __WNOTHREAD so the
// loop never reaps children of other tsrun threads.
//
//===----------------------------------------------------------------------===//
#include "AttachPermission.h"
#include "BackendImpl.h"
#include "ExecCost.h"
#include "Inject.h"
#include "Seccomp.h"

#include "tscc/Runtime/CallerSignals.h"
#include "tscc/Runtime/CommandPath.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr int WaitFlags = __WALL | __WNOTHREAD;

uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<uint64_t>(T.tv_sec) * 1000000000u +
         static_cast<uint64_t>(T.tv_nsec);
}

std::string joinArgv(const std::vector<std::string> &Argv) {
  std::string S;
  for (const std::string &A : Argv)
    S += (S.empty() ? "" : " ") + A;
  return S;
}

} // namespace

long tscc::rt::pt::seizeOptions(bool Launched, bool InProcess) {
  // VFORK_DONE: a vfork child no longer shares its parent's memory (and
  // agent). EXIT, where agents may be: a thread that ends gives its agent
  // entry up, before its stack can be another's (--ptrace pays no stop
  // per thread that ends).
  long O = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
           PTRACE_O_TRACEVFORKDONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD;
  if (InProcess)
    O |= PTRACE_O_TRACEEXIT;
  // Launched commands die with tsrun even if it is SIGKILLed. Attached
  // processes are not killed: see docs/runtime.md. Only launched ones get
  // our seccomp filter, so only they ask for seccomp stops: an attached
  // process's own filter that asks for a tracer (SECCOMP_RET_TRACE) must
  // keep failing that call with ENOSYS, as without tsrun.
  if (Launched)
    O |= PTRACE_O_EXITKILL | PTRACE_O_TRACESECCOMP;
  return O;
}

//===----------------------------------------------------------------------===//
// Public wrapper
//===----------------------------------------------------------------------===//

PtraceBackend::PtraceBackend(Session &S, PtraceOptions Opts)
    : P(std::make_unique<Impl>(S, std::move(Opts))) {}
PtraceBackend::~PtraceBackend() = default;
bool PtraceBackend::start(std::string &Error) { return P->start(Error); }
void PtraceBackend::run() { P->run(); }
void PtraceBackend::interrupt() { P->interrupt(); }
bool PtraceBackend::empty() const {
  return P->Opts.Commands.empty() && P->Opts.Pids.empty() &&
         P->Opts.Executables.empty();
}

//===----------------------------------------------------------------------===//
// Impl
//===----------------------------------------------------------------------===//

PtraceBackend::Impl::Impl(Session &S, PtraceOptions Opts)
    : S(S), Opts(std::move(Opts)), Matcher(S.program()),
      Spin(uint64_t{this->Opts.SpinMicros} * 1000) {
  for (const std::string &E : Matcher.errors())
    S.warn(E);
  if (this->Opts.InProcess)
    Agents = std::make_unique<AgentFactory>(S);
  for (uint32_t I = 0; I < S.program().withinTable().size(); ++I)
    WithinNames.emplace_back(S.program().withinName(I));
  for (DataModel DM : {DataModel::ILP32, DataModel::LP64}) {
    unsigned D = modelIndex(DM);
    for (const SyscallSite &Site :
         Matcher.matchSyscalls(DM, SyscallProblems[D])) {
      auto &Table = Site.Exit ? SysExit : SysEntry;
      Table[D][Site.Number].push_back(Site.Probe);
      AnySyscallProbe = true;
      SeccompNrs[D].push_back(Site.Number);
    }
    std::sort(SeccompNrs[D].begin(), SeccompNrs[D].end());
    SeccompNrs[D].erase(std::unique(SeccompNrs[D].begin(), SeccompNrs[D].end()),
                        SeccompNrs[D].end());
  }
  planInProcessSyscalls();
  // A name only the other data model has is no news until a process of
  // this one comes (warnSyscallProblems); without any target, LP64 is
  // what tsrun itself would have.
  if (Opts.Commands.empty() && Opts.Pids.empty())
    warnSyscallProblems(DataModel::LP64);
}

void PtraceBackend::Impl::warnSyscallProblems(DataModel DM) {
  for (const std::string &Msg : SyscallProblems[modelIndex(DM)])
    warnOnce(Msg);
}

PtraceBackend::Impl::~Impl() {
  // run() normally leaves nothing behind; if it never ran, release what
  // start() took.
  if (!ByPid.empty())
    shutdown();
  if (pid_t W = WakerPid.exchange(0)) {
    kill(W, SIGKILL);
    waitpid(W, nullptr, WaitFlags);
  }
}

bool PtraceBackend::Impl::start(std::string &Error) {
  Started = true;
  // start() and run() are this backend's thread.
  LockWaitHook = [this] { unblockLockOwner(); };
  SharedStore::setLockWaitHook(&LockWaitHook);
  for (const auto &Argv : Opts.Commands)
    if (!launch(Argv, Error))
      return false;
  for (int64_t Pid : Opts.Pids)
    if (!attach(static_cast<pid_t>(Pid), Error))
      return false;
  return Opts.Executables.empty() || startWatching(Error);
}

bool PtraceBackend::Impl::launch(const std::vector<std::string> &Argv,
                                 std::string &Error) {
  if (Argv.empty()) {
    Error = "empty command";
    return false;
  }
  // Everything the child needs is prepared before fork: after fork it may
  // only call async-signal-safe functions.
  std::vector<char *> CArgv;
  for (const std::string &A : Argv)
    CArgv.push_back(const_cast<char *>(A.c_str()));
  CArgv.push_back(nullptr);
  std::vector<sock_filter> Filter;
  if (AnySyscallProbe && !dispatchReplacesFilter())
    Filter = buildSeccompFilter(
        SeccompNrs[TSCC_DM_LP64], SeccompNrs[TSCC_DM_ILP32],
        InProcessSyscalls[modelIndex(DataModel::LP64)].Nrs.empty()
            ? 0
            : SyscallGadgetReturn);
  const CallerSignals &Signals = callerSignals();
  std::vector<char *> ShArgv{const_cast<char *>("sh")};
  // Resolved here, as strace does, so that the command's own execve() is
  // the one and only exec the program makes (execvp would try every PATH
  // entry), and so a missing command is reported plainly.
  std::string Program;
  if (!resolveCommand(Argv[0], Program, Error))
    return false;
  ShArgv.push_back(Program.data());
  ShArgv.insert(ShArgv.end(), CArgv.begin() + 1, CArgv.end());

  int Go[2], Err[2];
  if (pipe2(Go, O_CLOEXEC) != 0 || pipe2(Err, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  pid_t Child = fork();
  if (Child < 0) {
    Error = std::string("fork: ") + std::strerror(errno);
    return false;
  }
  if (Child == 0) {
    close(Go[1]);
    close(Err[0]);
    char C;
    // Wait until the parent has seized us, so the filter's RET_TRACE never
    // meets an untraced process (that would fail the syscall with ENOSYS).
    // End of file instead of the byte: tsrun died first; don't run the
    // program untraced behind the user's back.
    ssize_t N;
    while ((N = read(Go[0], &C, 1)) < 0 && errno == EINTR)
      ;
    if (N != 1)
      _exit(127);
    restoreCallerSignals(Signals);
    int E = 0;
    if (!Filter.empty())
      E = installSeccompFilter(Filter);
    if (E == 0) {
      execv(Program.c_str(), CArgv.data());
      E = errno;
      // A script without "#!": a shell runs it, as with execvp().
      if (E == ENOEXEC) {
        execv("/bin/sh", ShArgv.data());
        E = errno;
      }
    }
    ssize_t Ignored = write(Err[1], &E, sizeof(E));
    (void)Ignored;
    _exit(127);
  }
  close(Go[0]);
  close(Err[1]);
  if (ptrace(PTRACE_SEIZE, Child, nullptr,
             seizeOptions(true, Agents != nullptr)) != 0) {
    Error = std::string("ptrace(SEIZE) of '") + joinArgv(Argv) +
            "': " + std::strerror(errno);
    kill(Child, SIGKILL);
    waitpid(Child, nullptr, 0);
    close(Go[1]);
    close(Err[0]);
    return false;
  }
  char C = 1;
  ssize_t Ignored = write(Go[1], &C, 1);
  (void)Ignored;
  close(Go[1]);
  // Drive the child to its exec stop. Until then it is a copy of tsrun
  // (x86-64), whose only traced system call is the execve() of the
  // command: probes on it fire there, as strace shows that call.
  auto Pre = std::make_unique<PtraceProcess>(Child, /*Launched=*/true);
  Pre->DM = DataModel::LP64;
  bool PreAttached = false;
  std::optional<uint64_t> ExecExit; // the execve whose exit probes to fire
  for (;;) {
    int St = 0;
    pid_t R = waitpid(Child, &St, WaitFlags);
    if (R < 0 && errno == EINTR)
      continue;
    if (R < 0 || WIFEXITED(St) || WIFSIGNALED(St)) {
      int E = 0;
      if (read(Err[0], &E, sizeof(E)) == sizeof(E) && E)
        Error = "cannot run '" + joinArgv(Argv) + "': " + std::strerror(E);
      else
        Error = std::string(1, '\'') + joinArgv(Argv) +
                "' exited before it started";
      close(Err[0]);
      return false;
    }
    unsigned Event = static_cast<unsigned>(St) >> 16;
    if (Event == PTRACE_EVENT_EXEC)
      break;
    user_regs_struct Regs;
    if (Event == PTRACE_EVENT_SECCOMP &&
        ptrace(PTRACE_GETREGS, Child, nullptr, &Regs) == 0) {
      uint64_t Nr = Regs.orig_rax;
      auto Entry = SysEntry[1].find(Nr);
      if (Entry != SysEntry[1].end() && !PreAttached) {
        std::string Ignored;
        Pre->refreshIdentity(Ignored);
        S.targetAttached(*Pre, HowLaunched);
        PreAttached = true;
      }
      if (Entry != SysEntry[1].end())
        for (uint32_t Probe : Entry->second)
          fireProbe(*Pre, Child, Probe, Regs, syscallName(DataModel::LP64, Nr),
                    "", Nr);
      if (SysExit[1].count(Nr))
        ExecExit = Nr;
    }
    int Sig = WSTOPSIG(St);
    bool Deliver = Event == 0 && Sig != SIGTRAP && Sig != (SIGTRAP | 0x80);
    ptrace(PTRACE_CONT, Child, nullptr, Deliver ? Sig : 0);
  }
  close(Err[0]);

  All.push_back(std::move(Pre));
  PtraceProcess &P = *All.back();
  P.SeccompFilter = !Filter.empty();
  // Without the filter its traced calls stop (PTRACE_SYSCALL) until
  // Syscall User Dispatch is on (startSyscallDispatch).
  P.UsesSyscallStops = AnySyscallProbe && Filter.empty();
  P.Seccomp.setOwnFilter(Filter);
  Thread &T = P.Threads[Child];
  T.Tid = Child;
  T.State = ThreadState::Stopped;
  ByPid[Child] = &P;
  ByTid[Child] = &P;
  if (!setupImage(P, Child, Error)) {
    Error = "'" + joinArgv(Argv) + "': " + Error;
    return false;
  }
  S.targetAttached(P, PreAttached ? std::string_view("exec") : HowLaunched);
  if (ExecExit)
    fireExecExit(P, syscallName(DataModel::LP64, *ExecExit));
  return true;
}

/// Tids of a process, from /proc/PID/task.
static std::vector<pid_t> listTasks(pid_t Pid) {
  std::vector<pid_t> Tids;
  std::string Dir = "/proc/" + std::to_string(Pid) + "/task";
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] >= '0' && E->d_name[0] <= '9')
        Tids.push_back(static_cast<pid_t>(std::atoi(E->d_name)));
    closedir(D);
  }
  return Tids;
}

bool PtraceBackend::Impl::attach(pid_t Pid, std::string &Error, bool StartUp) {
  // A process found later (--exe) that cannot be had is given up alone.
  auto GiveUp = [&](PtraceProcess &P) {
    for (auto &[Tid, T] : P.Threads) {
      ptrace(PTRACE_DETACH, Tid, nullptr, nullptr);
      ByTid.erase(Tid);
    }
    P.Threads.clear();
    ByPid.erase(P.Pid);
  };
  if (Pid <= 0) {
    Error = "no process with pid " + std::to_string(Pid);
    return false;
  }
  if (kill(Pid, 0) != 0) {
    Error = describeAttachFailure(Pid, errno);
    return false;
  }
  if (ByPid.count(Pid) && AttachedAsSharers.count(Pid))
    return true; // with the process whose memory it uses
  if (ByPid.count(Pid)) {
    Error = "process " + std::to_string(Pid) + " is already traced";
    return false;
  }
  All.push_back(std::make_unique<PtraceProcess>(Pid, /*Launched=*/false));
  PtraceProcess &P = *All.back();
  ByPid[Pid] = &P;
  if (!seizeThreads(P, Error)) {
    StartUp ? shutdown() : GiveUp(P);
    return false;
  }
  if (P.Threads.empty()) {
    ByPid.erase(Pid);
    Error = "process " + std::to_string(Pid) + " exited while attaching";
    return false;
  }
  std::vector<PtraceProcess *> Sharers = seizeSharers(P);
  P.UsesSyscallStops = AnySyscallProbe;
  pid_t Tid = P.Threads.count(Pid) ? Pid : P.Threads.begin()->first;
  if (!setupImage(P, Tid, Error)) {
    Error = "pid " + std::to_string(Pid) + ": " + Error;
    releaseSharers(Sharers);
    StartUp ? shutdown() : GiveUp(P);
    return false;
  }
  keepAgentFromUntracedSharers(P);
  S.targetAttached(P, "attached");
  adoptSharers(P, Sharers, StartUp);
  if (!StartUp && !detachAttached(P))
    for (auto &[T, Th] : P.Threads)
      if (Th.State == ThreadState::Stopped)
        resume(P, Th, Th.PendingSignal);
  return true;
}

bool PtraceBackend::Impl::seizeThreads(PtraceProcess &P, std::string &Error,
                                       bool KillWithTsrun) {
  // Threads can be created while we attach: repeat until a pass finds no
  // new ones. Each seized thread is interrupted and waited for, so every
  // thread is stopped before anything is patched.
  for (bool Found = true; Found;) {
    Found = false;
    for (pid_t Tid : listTasks(P.Pid)) {
      if (P.Threads.count(Tid))
        continue;
      if (ptrace(PTRACE_SEIZE, Tid, nullptr,
                 seizeOptions(P.Launched && KillWithTsrun,
                              Agents != nullptr)) != 0) {
        if (errno == ESRCH)
          continue; // exited meanwhile
        Error = describeAttachFailure(P.Pid, errno);
        return false;
      }
      Found = true;
      Thread &T = P.Threads[Tid];
      T.Tid = Tid;
      ByTid[Tid] = &P;
      ptrace(PTRACE_INTERRUPT, Tid, nullptr, nullptr);
      T.Interrupted = true;
    }
  }
  for (auto &[Tid, T] : P.Threads) {
    while (T.Interrupted) {
      int St = 0;
      pid_t R = waitpid(Tid, &St, WaitFlags);
      if (R < 0 && errno == EINTR)
        continue;
      if (R < 0 || WIFEXITED(St) || WIFSIGNALED(St)) {
        T.Interrupted = false;
        T.State = ThreadState::NewPending; // gone; cleaned up below
        break;
      }
      unsigned Event = static_cast<unsigned>(St) >> 16;
      if (Event == PTRACE_EVENT_STOP) {
        T.Interrupted = false;
        T.State = ThreadState::Stopped;
        break;
      }
      // A signal arrived first: keep it for later delivery.
      if (Event == 0 && WSTOPSIG(St) != SIGTRAP)
        T.PendingSignal = WSTOPSIG(St);
      ptrace(PTRACE_CONT, Tid, nullptr, nullptr);
    }
  }
  for (auto It = P.Threads.begin(); It != P.Threads.end();) {
    if (It->second.State == ThreadState::NewPending) {
      ByTid.erase(It->first);
      It = P.Threads.erase(It);
    } else {
      ++It;
    }
  }
  return true;
}

std::vector<PtraceProcess *>
PtraceBackend::Impl::seizeSharers(PtraceProcess &P) {
  std::vector<PtraceProcess *> Out;
  for (pid_t Other : processesSharingMemory(P.Pid)) {
    if (ByPid.count(Other))
      continue;
    All.push_back(std::make_unique<PtraceProcess>(Other, /*Launched=*/false));
    PtraceProcess &C = *All.back();
    ByPid[Other] = &C;
    std::string Why;
    if (seizeThreads(C, Why) && !C.Threads.empty()) {
      Out.push_back(&C);
      continue;
    }
    // Left untraced (or gone): keepAgentFromUntracedSharers() keeps the
    // agent's threads apart from its.
    if (!Why.empty())
      warnOnce("pid " + std::to_string(Other) +
               ", which shares the memory of pid " + std::to_string(P.Pid) +
               ", cannot be traced: " + Why);
    releaseSharers({&C});
  }
  return Out;
}

void PtraceBackend::Impl::releaseSharers(
    const std::vector<PtraceProcess *> &Sharers) {
  for (PtraceProcess *C : Sharers) {
    for (auto &[Tid, T] : C->Threads) {
      ptrace(PTRACE_DETACH, Tid, nullptr, T.PendingSignal);
      ByTid.erase(Tid);
    }
    C->Threads.clear();
    ByPid.erase(C->Pid);
  }
}

void PtraceBackend::Impl::adoptSharers(
    PtraceProcess &P, const std::vector<PtraceProcess *> &Sharers,
    bool StartUp) {
  for (PtraceProcess *C : Sharers) {
    std::string Why;
    C->refreshIdentity(Why);
    inheritTracing(*C, P, /*CopiesMemory=*/false);
    AttachedAsSharers.insert(C->Pid);
    if (Agents && !shareAgent(P, *C, *Agents, Why))
      warnOnce("pid " + std::to_string(C->Pid) + ": " + Why);
    S.targetAttached(*C, "attached");
    if (!StartUp)
      for (auto &[T, Th] : C->Threads)
        if (Th.State == ThreadState::Stopped)
          resume(*C, Th, Th.PendingSignal);
  }
}

void PtraceBackend::Impl::keepAgentFromUntracedSharers(PtraceProcess &P) {
  if (!P.Agent.Installed)
    return;
  // A process made by clone(CLONE_VM) before we came uses this memory, and
  // the agent in it, untraced: its threads must not be taken for ours.
  std::vector<pid_t> Others = processesSharingMemory(P.Pid);
  std::erase_if(Others, [&](pid_t O) { return ByPid.count(O) != 0; });
  if (Others.empty())
    return;
  std::string Why;
  if (!agentTellsThreadsById(P, Why)) {
    warnOnce("pid " + std::to_string(P.Pid) + ": " + Why);
    return;
  }
  warnOnce("pid " + std::to_string(Others.front()) +
           " shares the memory of "
           "pid " +
           std::to_string(P.Pid) +
           " but could not be traced; its calls of probed functions are "
           "counted as drops");
}

pid_t PtraceBackend::Impl::waitEvent(int &Status) {
  // See SpinWait.h: poll first while events are arriving close together.
  uint64_t Start = monotonicNs();
  pid_t R = 0;
  if (uint64_t Budget = Spin.budgetNs()) {
    for (;;) {
      R = waitpid(-1, &Status, WaitFlags | WNOHANG);
      if (R != 0 && !(R < 0 && errno == EINTR))
        break;
      if (Interrupted.load())
        return 0;
      if (monotonicNs() - Start >= Budget) {
        R = 0; // nothing yet (an EINTR poll included): sleep on it
        break;
      }
      sched_yield(); // let a runnable target thread have this CPU
    }
  }
  for (;;) {
    if (R == 0)
      R = waitpid(-1, &Status, WaitFlags);
    if (R < 0 && errno == EINTR) {
      if (Interrupted.load())
        return 0;
      R = 0;
      continue;
    }
    Spin.observe(monotonicNs() - Start);
    if (R > 0 && R == WakerPid.load()) {
      WakerPid.store(0);
      return 0;
    }
    return R;
  }
}

void PtraceBackend::Impl::spawnWaker() {
  pid_t Self = getpid();
  pid_t W = fork();
  if (W == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != Self)
      _exit(0);
    close_range(0, ~0U, 0);
    for (;;)
      pause();
  }
  if (W > 0)
    WakerPid.store(W);
}

bool PtraceBackend::Impl::detachAttached(PtraceProcess &P) {
  if (!Opts.Detach || P.Launched || P.Threads.empty() || P.Detached)
    return false;
  auto It = P.Threads.find(P.Pid);
  return detachIfSettled(
      P, It != P.Threads.end() ? It->second : P.Threads.begin()->second, 0);
}

void PtraceBackend::Impl::run() {
  // The waker: a child of this thread that only sleeps. interrupt() kills
  // it, which wakes waitpid() without any race.
  // It must never outlive tsrun: a SIGKILL that lands before the child has
  // run its prctl() would otherwise leave it behind for good, holding
  // tsrun's stdout and stderr (whoever reads them never sees end of file)
  // and the shared store. Hence the parent check after the prctl(), and no
  // descriptors kept.
  spawnWaker();
  // --detach: a detached process about to exec asks for a window in its
  // shard; the reader sees it and wakes this loop (ExecWindow.cpp).
  if (Opts.Detach)
    S.setWindowWake([this] {
      if (pid_t W = WakerPid.load(); W > 0)
        kill(W, SIGKILL);
    });
  if (!Interrupted.load() && !S.stopRequested())
    for (auto &[Pid, P] : ByPid) {
      if (detachAttached(*P)) // --detach: nothing left to resume
        continue;
      for (auto &[Tid, T] : P->Threads)
        if (T.State == ThreadState::Stopped)
          resume(*P, T, T.PendingSignal);
    }

  // With --exe the session goes on while no process runs the file.
  while (!ByPid.empty() || Watch) {
    if (Interrupted.load() || S.stopRequested())
      break;
    // The watcher and the windows' wake use the waker up.
    if (!WakerPid.load() && (Watch || Opts.Detach))
      spawnWaker();
    if (Watch)
      adoptRequested();
    if (Opts.Detach)
      openWindows();
    if (!Deferred.empty()) {
      handleDeferred();
      continue;
    }
    findFollowed(false);
    reapFollowed();
    if (ByPid.empty() && !Watch)
      break; // the last ones were followed: no waitpid() would return
    if (onlyFollowedLeft()) {
      waitFollowed(); // none of them is a child waitpid() would hear of
      continue;
    }
    int St = 0;
    pid_t Tid = waitEvent(St);
    if (Tid == 0)
      continue; // woken: re-check the flags
    if (Tid < 0)
      break; // ECHILD: nothing left to wait for
    handleStatus(Tid, St);
    // Processes the reader released since (their records were late).
    freeReleased();
  }
  if (Watch)
    Watch->stop(); // adopts nothing more; pending opens go on
  shutdown();
  cost::report();
  if (Opts.Detach)
    S.setWindowWake({});
  // Nothing of an exited process outlives run(): what is left of their
  // records is delivered now, and they are freed.
  S.deliverExited();
  freeReleased();
  if (pid_t Waker = WakerPid.exchange(0)) {
    kill(Waker, SIGKILL);
    waitpid(Waker, nullptr, WaitFlags);
  }
  SharedStore::setLockWaitHook(nullptr);
}

void PtraceBackend::Impl::handleDeferred() {
  // One at a time, the others staying in Deferred meanwhile: handling one
  // may need to know whose news is still waiting there (a thread whose stop
  // was reaped is stopped, and no waitpid will see it again: pauseOthers).
  for (size_t N = Deferred.size(); N && !Deferred.empty(); --N) {
    auto [Tid, St] = Deferred.front();
    Deferred.erase(Deferred.begin());
    handleStatus(Tid, St);
  }
}

void PtraceBackend::Impl::unblockLockOwner() {
  // Whichever domain's lock is waited for: a holder of any of them that
  // waits for this thread is let go.
  for (SharedStore *Store : S.stores())
    unblockOwnerOf(*Store);
}

void PtraceBackend::Impl::unblockOwnerOf(SharedStore &Store) {
  auto Owner = static_cast<pid_t>(
      __atomic_load_n(&Store.header().lock, __ATOMIC_RELAXED));
  auto It = ByTid.find(Owner);
  if (Owner <= 0 || It == ByTid.end())
    return;
  PtraceProcess &P = *It->second;
  auto TIt = P.Threads.find(Owner);
  // A thread we stopped ourselves (shutdown, installing) is not ours to
  // resume here; one we do not know stopped may be waiting for us.
  if (TIt == P.Threads.end() || TIt->second.State != ThreadState::Running)
    return;
  int St = 0;
  if (waitpid(Owner, &St, __WALL | WNOHANG) != Owner)
    return;
  unsigned Event = static_cast<unsigned>(St) >> 16;
  int Sig = WIFSTOPPED(St) ? WSTOPSIG(St) : 0;
  if (WIFSTOPPED(St) && Event == 0 && Sig != SIGTRAP &&
      Sig != (SIGTRAP | 0x80) && Sig != P.breakSignal() && Sig != SIGSTOP &&
      Sig != SIGTSTP && Sig != SIGTTIN && Sig != SIGTTOU) {
    // A signal on its way to the thread, typically the fault of a bad
    // pointer a clause read in the agent: deliver it, as handleStop would.
    TIt->second.State = ThreadState::Stopped;
    resume(P, TIt->second, Sig);
    return;
  }
  Deferred.push_back({Owner, St});
}

void PtraceBackend::Impl::interrupt() {
  Interrupted.store(true);
  pid_t W = WakerPid.load();
  if (W > 0)
    kill(W, SIGKILL);
}

void PtraceBackend::Impl::leaveSharedMemory(PtraceProcess &Child) {
  Child.VforkParent = 0;
  if (!Child.Agent.Sharers)
    return;
  S.leaveShard(Child);
  PtraceProcess *Remaining = nullptr;
  for (const AgentSharers::Member &M : Child.Agent.Sharers->Members)
    if (auto It = ByPid.find(M.Pid);
        M.Pid != Child.Pid && It != ByPid.end() && !It->second->Exited) {
      Remaining = It->second;
      break;
    }
  unshareAgent(Child, Remaining);
}

void PtraceBackend::Impl::finishProcess(PtraceProcess &P, int Code, int Sig) {
  leaveSharedMemory(P);
  if (P.PidFd >= 0) // watched its end while it was let go of
    close(P.PidFd);
  P.PidFd = -1;
  for (auto &[Tid, T] : P.Threads) {
    ByTid.erase(Tid);
    S.threadExited(P, Tid);
  }
  P.Threads.clear();
  P.Exited = true;
  ByPid.erase(P.Pid);
  S.targetExited(P, Code, Sig);
  P.releaseExited();
  // Usually the session has delivered its last records by now, and those
  // of the processes before it.
  freeReleased();
}

void PtraceBackend::Impl::freeReleased() {
  uint64_t Releases = S.releaseCount();
  if (Releases == ReleasesSeen)
    return;
  ReleasesSeen = Releases;
  std::erase_if(All, [&](const std::unique_ptr<PtraceProcess> &P) {
    // Exited and released: no map of ours, and nothing in the session,
    // refers to it any more.
    if (!P->Exited || !P->releasedBySession())
      return false;
    S.targetFreed();
    return true;
  });
}
