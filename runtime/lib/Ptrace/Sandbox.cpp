//===- Sandbox.cpp - A process's seccomp filters, as tsrun sees them ------===//
#include "Sandbox.h"

#include "SeccompBpf.h"

#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/SyscallTable.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <linux/audit.h>
#include <sys/ptrace.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

#ifndef PTRACE_SECCOMP_GET_FILTER
#define PTRACE_SECCOMP_GET_FILTER 0x420c
#endif
#ifndef EMEDIUMTYPE
#define EMEDIUMTYPE 124
#endif

namespace {

/// The kernel keeps at most 32768 instructions per chain, each filter
/// counting 4 more: more filters than this cannot be.
constexpr unsigned MaxFilters = 32768 / 5;

/// What strict mode (SECCOMP_SET_MODE_STRICT) lets through.
bool strictAllows(DataModel DM, uint32_t Nr) {
  if (DM == DataModel::LP64)
    return Nr == syscallNumberOf(DataModel::LP64, "read") ||
           Nr == syscallNumberOf(DataModel::LP64, "write") ||
           Nr == syscallNumberOf(DataModel::LP64, "exit") ||
           Nr == syscallNumberOf(DataModel::LP64, "rt_sigreturn");
  return Nr == syscallNumberOf(DataModel::ILP32, "read") ||
         Nr == syscallNumberOf(DataModel::ILP32, "write") ||
         Nr == syscallNumberOf(DataModel::ILP32, "exit") ||
         Nr == syscallNumberOf(DataModel::ILP32, "sigreturn");
}

/// Why PTRACE_SECCOMP_GET_FILTER failed with E, for messages.
std::string whyUnreadable(int E) {
  switch (E) {
  case EACCES: {
    if (geteuid() != 0)
      return "reading them needs root (CAP_SYS_ADMIN)";
    int Mode = 0;
    unsigned Count = 0;
    if (readSeccompStatus(getpid(), getpid(), Mode, Count) && Mode != 0)
      return "tsrun runs under seccomp itself, and then the kernel does not "
             "show filters";
    return "reading them needs CAP_SYS_ADMIN";
  }
  case EIO:
  case EINVAL:
    return "this kernel does not show filters to a tracer "
           "(PTRACE_SECCOMP_GET_FILTER needs CONFIG_CHECKPOINT_RESTORE)";
  case EMEDIUMTYPE:
    return "a filter has no classic BPF form";
  default:
    return std::string("PTRACE_SECCOMP_GET_FILTER: ") + std::strerror(E);
  }
}

/// "the instruction pointer and argument 2" for the words in Mask.
std::string describeWords(uint16_t Mask) {
  std::vector<std::string> Parts;
  if (Mask & LoadedNr)
    Parts.push_back("the call's number");
  if (Mask & LoadedArch)
    Parts.push_back("the architecture");
  if (Mask & LoadedIP)
    Parts.push_back("the instruction pointer");
  for (unsigned N = 0; N < 6; ++N)
    if (Mask & loadedArg(N))
      Parts.push_back("argument " + std::to_string(N + 1));
  std::string Out;
  for (size_t I = 0; I < Parts.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
  return Out;
}

seccomp_data dataOf(const SyscallQuery &Q) {
  seccomp_data D{};
  bool Is64 = Q.DM == DataModel::LP64;
  uint64_t Mask = Is64 ? ~0ull : 0xffffffffull;
  D.nr = static_cast<int>(Q.Nr);
  D.arch = Is64 ? AUDIT_ARCH_X86_64 : AUDIT_ARCH_I386;
  D.instruction_pointer = Q.IP & Mask;
  for (unsigned I = 0; I < 6; ++I)
    D.args[I] = Q.Args[I] & Mask;
  return D;
}

} // namespace

std::string tscc::rt::pt::syscallLabel(DataModel DM, uint32_t Nr) {
  std::string_view Name = syscallName(DM, Nr);
  return Name.empty() ? "system call " + std::to_string(Nr) : std::string(Name);
}

bool tscc::rt::pt::readSeccompStatus(pid_t Pid, pid_t Tid, int &Mode,
                                     unsigned &Count) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/task/" +
                   std::to_string(Tid) + "/status");
  if (!In)
    return false;
  Mode = 0;
  Count = 0;
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("Seccomp:", 0) == 0)
      Mode = std::atoi(Line.c_str() + 8);
    else if (Line.rfind("Seccomp_filters:", 0) == 0)
      Count = static_cast<unsigned>(std::atoi(Line.c_str() + 16));
  }
  return true;
}

bool tscc::rt::pt::readSeccompFilters(
    pid_t Tid, unsigned Count, std::vector<std::vector<sock_filter>> &Out,
    std::string &Why) {
  Out.clear();
  // With a count from /proc exactly that many; without one (kernels
  // before 5.9), until the kernel says there are no more.
  for (unsigned I = 0; I < MaxFilters; ++I) {
    auto Index = reinterpret_cast<void *>(static_cast<uintptr_t>(I));
    long N = ptrace(PTRACE_SECCOMP_GET_FILTER, Tid, Index, nullptr);
    if (N < 0 && errno == ENOENT && I > 0 && (Count == 0 || I == Count))
      break;
    if (N < 0) {
      Why = whyUnreadable(errno);
      return false;
    }
    if (N == 0 || N > BPF_MAXINSNS) {
      Why = "the kernel reports a filter of " + std::to_string(N) +
            " instructions";
      return false;
    }
    std::vector<sock_filter> F(static_cast<size_t>(N));
    if (ptrace(PTRACE_SECCOMP_GET_FILTER, Tid, Index, F.data()) != N) {
      Why = whyUnreadable(errno);
      return false;
    }
    Out.push_back(std::move(F));
    if (Count && Out.size() == Count)
      break;
  }
  if (Count ? Out.size() != Count : Out.size() == MaxFilters) {
    Why = "more filters than the kernel allows";
    return false;
  }
  // The kernel numbers them oldest first (get_nth_filter); they run, and
  // the evaluator takes them, most recent first.
  std::reverse(Out.begin(), Out.end());
  return true;
}

const SeccompState &SeccompView::state(pid_t Tid) {
  SeccompState &S = Threads[Tid];
  int Mode = 0;
  unsigned Count = 0;
  if (!readSeccompStatus(Pid, Tid, Mode, Count))
    return S; // gone: what we knew
  // Filters are only ever added, so an unchanged count is an unchanged
  // chain; a count of 0 with filters (an old kernel) proves nothing.
  bool Same = Mode == S.Mode && Count == S.Count && (Mode != 2 || Count != 0);
  if (Same && S.Unreadable.empty())
    return S;
  S = SeccompState{};
  S.Mode = Mode;
  S.Count = Count;
  if (Mode == 2 && !readSeccompFilters(Tid, Count, S.Filters, S.Unreadable))
    S.Filters.clear();
  // Unreadable, but the one filter there is the one tsrun installed (the
  // oldest, before the command ran): known all the same.
  if (!S.Unreadable.empty() && Count == 1 && !Own.empty()) {
    S.Filters = {Own};
    S.Unreadable.clear();
  }
  return S;
}

SyscallVerdict SeccompView::check(pid_t Tid, const SyscallQuery &Q,
                                  bool TraceStops) {
  return evaluateSyscall(state(Tid), Q, TraceStops);
}

SyscallVerdict tscc::rt::pt::evaluateSyscall(const SeccompState &S,
                                             const SyscallQuery &Q,
                                             bool TraceStops) {
  SyscallVerdict V;
  std::string Name = syscallLabel(Q.DM, Q.Nr);
  if (S.Mode == 0)
    return V;
  if (S.Mode == 1) {
    if (strictAllows(Q.DM, Q.Nr))
      return V;
    V.Kind = SyscallVerdict::Forbidden;
    V.Why = "it is in seccomp strict mode, which kills it on " + Name;
    return V;
  }
  V.Kind = SyscallVerdict::Unknown;
  if (S.Mode != 2) {
    V.Why = "its seccomp mode is " + std::to_string(S.Mode);
    return V;
  }
  if (!S.Unreadable.empty()) {
    V.Why = "it has " + std::to_string(S.Count) + " seccomp filter" +
            (S.Count == 1 ? "" : "s") + " that tsrun cannot read (" +
            S.Unreadable + ")";
    return V;
  }
  BpfOutcome O = runSeccompFilters(S.Filters, dataOf(Q));
  if (!O.Ok) {
    V.Why = "tsrun cannot evaluate its seccomp filters: " + O.Error;
    return V;
  }
  if (uint16_t Unknown = O.Loaded & Q.Unforeseen) {
    V.Why = "its seccomp filter looks at " + describeWords(Unknown) + " of " +
            Name + ", which tsrun cannot know in advance";
    return V;
  }
  switch (seccompAction(O.Ret)) {
  case SeccompAction::Allow:
  case SeccompAction::Log:
    V.Kind = SyscallVerdict::Runs;
    return V;
  case SeccompAction::Trace:
    V.Kind = TraceStops ? SyscallVerdict::Runs : SyscallVerdict::Fails;
    V.Stops = TraceStops;
    V.Errno = TraceStops ? 0 : ENOSYS;
    V.Why = "its seccomp filter asks for a tracer on " + Name +
            " (SECCOMP_RET_TRACE), which fails it with ENOSYS";
    return V;
  case SeccompAction::Errno:
    V.Kind = SyscallVerdict::Fails;
    V.Errno =
        static_cast<int>(std::min<uint32_t>(O.Ret & SECCOMP_RET_DATA, 4095));
    break;
  default:
    V.Kind = SyscallVerdict::Forbidden;
    break;
  }
  V.Why = "its seccomp filter " + describeSeccompReturn(O.Ret, Name);
  return V;
}

std::string SeccompView::describe(pid_t Tid) {
  const SeccompState &S = state(Tid);
  if (S.Mode == 0)
    return {};
  if (S.Mode == 1)
    return "seccomp strict mode";
  unsigned Theirs = S.Count;
  if (!Own.empty())
    for (const std::vector<sock_filter> &F : S.Filters)
      if (F.size() == Own.size() &&
          std::memcmp(F.data(), Own.data(), F.size() * sizeof(F[0])) == 0 &&
          Theirs > 0)
        --Theirs;
  if (Theirs == 0 && S.Unreadable.empty())
    return {};
  std::string Out = "seccomp: " + std::to_string(Theirs) + " filter" +
                    (Theirs == 1 ? "" : "s");
  if (!S.Unreadable.empty())
    return Out + ", unreadable: " + S.Unreadable;
  return Out + ", read";
}
