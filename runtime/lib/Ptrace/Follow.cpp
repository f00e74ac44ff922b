//===- Follow.cpp - Processes made by detached ones, followed without ptrace =//
//
// A fork() child of a detached process arms itself at its first hit and
// takes thread slots in its parent's shard (Agent/follow.c): its hits are
// counted whether or not tsrun knows of it. This is how tsrun comes to
// know of it, so that it is a process of the session like any other: the
// threads in a detached process's shard are looked at now and then (and
// always before that process is finished, and at the end of the session),
// and a thread of a process tsrun does not know, which maps that very
// shard, is a followed child. It shares the shard (the session hands the
// shard over to it if its parent ends first), is detached from the start,
// and its end comes through a pidfd, since it is not tsrun's child. At the
// end of the session it is attached again and cleaned up with the others
// (Detach.cpp).
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"
#include "ProcMaps.h"

#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <linux/kcmp.h>
#include <poll.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// How often the shards of detached processes are looked at for new
/// followed processes, at most.
constexpr uint64_t ScanEveryNs = 20'000'000;

uint64_t nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1'000'000'000 + uint64_t(T.tv_nsec);
}

/// The ids of the live threads in a shard.
std::vector<pid_t> threadsIn(Shard &Sh) {
  std::vector<pid_t> Out;
  tscc_store *V = Sh.view();
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(V)->threads_high, __ATOMIC_ACQUIRE),
      V->layout.thread_capacity);
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    const tscc_thread *T = tscc_thread_at(V, static_cast<int32_t>(Slot));
    if (T && __atomic_load_n(&T->state, __ATOMIC_ACQUIRE) == TSCC_THREAD_LIVE)
      Out.push_back(__atomic_load_n(&T->tid, __ATOMIC_RELAXED));
  }
  return Out;
}

/// What /proc/PID/stat says of a process: its state, its start time and,
/// once it has ended, its status in waitpid()'s form (fields 3, 22 and 52
/// of proc(5)).
struct ProcStat {
  char State = 0;
  uint64_t StartTicks = 0;
  int ExitCode = 0;
};

bool readProcStat(pid_t Pid, ProcStat &Out) {
  std::ifstream F("/proc/" + std::to_string(Pid) + "/stat");
  std::string Line;
  if (!std::getline(F, Line))
    return false;
  // The command name, field 2, may hold spaces and parentheses.
  size_t Close = Line.rfind(')');
  if (Close == std::string::npos)
    return false;
  std::istringstream Rest(Line.substr(Close + 1));
  std::vector<std::string> Fields; // from field 3 on
  for (std::string W; Rest >> W;)
    Fields.push_back(W);
  if (Fields.size() < 50)
    return false;
  Out.State = Fields[0][0];
  Out.StartTicks = std::strtoull(Fields[19].c_str(), nullptr, 10);
  Out.ExitCode = static_cast<int>(std::strtol(Fields[49].c_str(), nullptr, 10));
  return true;
}

uint64_t startTicksOf(pid_t Pid) {
  ProcStat St;
  return readProcStat(Pid, St) ? St.StartTicks : 0;
}

} // namespace

int PtraceBackend::Impl::openPidFd(PtraceProcess &P) {
  P.PidFd = static_cast<int>(syscall(SYS_pidfd_open, P.Pid, 0));
  P.PidFdStart = P.PidFd >= 0 ? startTicksOf(P.Pid) : 0;
  return P.PidFd;
}

std::vector<PtraceProcess *> PtraceBackend::Impl::detachedProcesses() const {
  std::vector<PtraceProcess *> Out;
  for (const auto &[Pid, P] : ByPid)
    if (P->Detached && !P->Exited)
      Out.push_back(P);
  return Out;
}

void PtraceBackend::Impl::findFollowed(bool Now) {
  uint64_t T = nowNs();
  if (!Now && T - FollowScannedNs < ScanEveryNs)
    return;
  FollowScannedNs = T;
  for (PtraceProcess *Owner : detachedProcesses()) {
    Shard *Sh = S.shard(*Owner);
    if (!Sh)
      continue;
    for (pid_t Tid : threadsIn(*Sh)) {
      if (Tid <= 0 || ByTid.count(Tid))
        continue;
      pid_t Pid = tgidOf(Tid);
      // A vfork() child runs in its parent's memory and agent, for the
      // moment until it execs or exits: nothing of its own to follow.
      if (Pid <= 0 || ByPid.count(Pid) || !mapsFileOf(Pid, Sh->fd()) ||
          syscall(SYS_kcmp, Owner->Pid, Pid, KCMP_VM, 0, 0) == 0)
        continue;
      All.push_back(std::make_unique<PtraceProcess>(Pid, Owner->Launched));
      PtraceProcess &C = *All.back();
      std::string Ignored;
      C.refreshIdentity(Ignored);
      inheritTracing(C, *Owner, /*CopiesMemory=*/true);
      C.Agent.Sharers.reset(); // its memory is its own
      C.Detached = true;
      C.FollowedFrom = Owner->Pid;
      openPidFd(C);
      ByPid[Pid] = &C;
      ByTid[Pid] = &C;
      S.shareShard(*Owner, C);
      S.targetAttached(C, "fork");
      S.note("pid " + std::to_string(Pid) + ": forked by detached pid " +
             std::to_string(Owner->Pid) +
             ", armed itself: followed without ptrace");
    }
  }
}

bool PtraceBackend::Impl::watchEndByPidFd(PtraceProcess &P) {
  if (P.PidFd >= 0 || (P.PPid == getpid() && !P.FollowedFrom))
    return true;
  return openPidFd(P) >= 0;
}

bool PtraceBackend::Impl::followedEnded(const PtraceProcess &P) const {
  if (P.PidFd < 0)
    return kill(P.Pid, 0) != 0 && errno == ESRCH;
  pollfd Fd{P.PidFd, POLLIN, 0};
  return poll(&Fd, 1, 0) > 0;
}

void PtraceBackend::Impl::finishFollowed(PtraceProcess &P) {
  // Its status is its parent's to collect, not tsrun's: it is read from
  // the zombie while its parent has not collected it yet (the same process:
  // same start time), and is otherwise unknown (-1).
  int Code = -1, Sig = 0;
  ProcStat St;
  if (P.PidFdStart && readProcStat(P.Pid, St) && St.State == 'Z' &&
      St.StartTicks == P.PidFdStart) {
    Code = WIFEXITED(St.ExitCode) ? WEXITSTATUS(St.ExitCode) : 0;
    Sig = WIFSIGNALED(St.ExitCode) ? WTERMSIG(St.ExitCode) : 0;
  }
  if (P.PidFd >= 0)
    close(P.PidFd);
  P.PidFd = -1;
  if (P.FollowedFrom)
    S.leaveShard(P);
  finishProcess(P, Code, Sig);
}

void PtraceBackend::Impl::reapFollowed() {
  std::vector<PtraceProcess *> Ended;
  for (auto &[Pid, P] : ByPid)
    if (P->PidFd >= 0 && P->Detached && followedEnded(*P))
      Ended.push_back(P);
  for (PtraceProcess *P : Ended)
    finishFollowed(*P);
}

bool PtraceBackend::Impl::onlyFollowedLeft() const {
  return !ByPid.empty() &&
         std::all_of(ByPid.begin(), ByPid.end(), [](const auto &E) {
           return E.second->PidFd >= 0 && E.second->Detached;
         });
}

void PtraceBackend::Impl::waitFollowed() {
  std::vector<pollfd> Fds;
  for (auto &[Pid, P] : ByPid)
    if (P->PidFd >= 0)
      Fds.push_back({P->PidFd, POLLIN, 0});
  // A short timeout: Ctrl-C and exit() are seen through flags, and new
  // children through the shards.
  poll(Fds.data(), Fds.size(), 10);
  reapFollowed();
  findFollowed(false);
}
