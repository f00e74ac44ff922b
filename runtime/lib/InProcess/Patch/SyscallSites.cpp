//===- SyscallSites.cpp - System calls traced inside the process ----------===//
#include "SyscallSites.h"

#include "../../Ptrace/Inject.h"

#include "SyscallTrampoline.h"

#include "tscc/agent.h"

#include <cstddef>
#include <cstring>
#include <sys/mman.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// Functions larger than this are not searched (as for jump sites).
constexpr uint64_t MaxFunctionBytes = 1u << 20;

/// The addresses of `0f 05` in the function's bytes (planSyscallPatch
/// checks that each is an instruction).
void findSyscalls(const std::vector<uint8_t> &Code, uint64_t Start,
                  std::vector<uint64_t> &Out) {
  for (size_t I = 0; I + 1 < Code.size(); ++I)
    if (Code[I] == 0x0f && Code[I + 1] == 0x05)
      Out.push_back(Start + I);
}

} // namespace

bool tscc::rt::pt::ensureSyscallGadget(PtraceProcess &P, pid_t Tid,
                                       std::string &Error) {
  if (P.Agent.SyscallGadget)
    return true;
  uint64_t R = 0;
  constexpr uint64_t NrMmap = 9;
  if (!injectSyscall(P, Tid, NrMmap,
                     {SyscallGadgetAddress, 4096, PROT_READ | PROT_EXEC,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, ~0ull,
                      0},
                     R, Error))
    return false;
  if (R != SyscallGadgetAddress) {
    Error = "the gadget's address is taken";
    if (static_cast<int64_t>(R) >= 0)
      unmapInTarget(P, Tid, R, 4096);
    return false;
  }
  if (!P.writeMemory(R, ip::SyscallGadgetCode, sizeof(ip::SyscallGadgetCode))) {
    Error = "cannot write the gadget";
    return false;
  }
  P.Agent.SyscallGadget = R;
  return true;
}

bool tscc::rt::pt::syscallStaysStopped(DataModel DM, uint32_t Nr) {
  if (DM != DataModel::LP64)
    switch (Nr) {
    case 2:   // fork
    case 11:  // execve
    case 119: // sigreturn
    case 120: // clone
    case 173: // rt_sigreturn
    case 190: // vfork
    case 358: // execveat
    case 435: // clone3
      return true;
    default:
      return false;
    }
  switch (Nr) {
  case 15:  // rt_sigreturn
  case 56:  // clone
  case 57:  // fork
  case 58:  // vfork
  case 59:  // execve
  case 322: // execveat
  case 435: // clone3
    return true;
  default:
    return false;
  }
}

SyscallSiteCount tscc::rt::pt::installSyscallSites(PtraceProcess &P, pid_t Tid,
                                                   const Module &M,
                                                   const SyscallHooks &H,
                                                   std::string &Error) {
  SyscallSiteCount N;
  std::vector<JumpCandidate> Candidates;
  for (const ElfSymbol &F : M.Elf->functions()) {
    if (!F.Size || F.Size > MaxFunctionBytes || F.IFunc)
      continue;
    uint64_t Start = F.Value + M.Bias;
    if (Start < M.Start || Start + F.Size > M.End)
      continue;
    std::vector<uint8_t> Code(F.Size);
    if (!P.readMemory(Start, Code.data(), Code.size()))
      continue;
    std::vector<uint64_t> At;
    findSyscalls(Code, Start, At);
    for (uint64_t A : At)
      Candidates.push_back({A, Start, F.Size, H.Hooks, H.Nrs});
  }
  if (Candidates.empty())
    return N;
  if (!ensureSyscallGadget(P, Tid, Error))
    return N;
  // Aliases (read, __read, __libc_read) name one function: one site each.
  std::sort(Candidates.begin(), Candidates.end(),
            [](const JumpCandidate &A, const JumpCandidate &B) {
              return A.Addr < B.Addr;
            });
  Candidates.erase(
      std::unique(Candidates.begin(), Candidates.end(),
                  [](const JumpCandidate &A, const JumpCandidate &B) {
                    return A.Addr == B.Addr;
                  }),
      Candidates.end());
  std::vector<uint64_t> Sites;
  for (const auto &[Addr, Bp] : P.Breakpoints)
    Sites.push_back(Addr);
  // A system-call site is a jump or nothing (JumpSites.cpp): no traps.
  std::map<uint64_t, std::string> NoTraps;
  std::map<uint64_t, std::string> Rejected =
      installJumpSites(P, Tid, M, Candidates, Sites, NoTraps);
  for (const JumpCandidate &C : Candidates) {
    auto R = Rejected.find(C.Addr);
    if (R == Rejected.end()) {
      if (!N.Patched++)
        N.First = C.Addr;
      continue;
    }
    // A `0f 05` inside another instruction is no system call.
    if (R->second == "the site is not an instruction boundary")
      continue;
    if (!N.Refused++)
      N.FirstWhy = R->second;
  }
  return N;
}
