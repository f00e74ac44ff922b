//===- RemoteAgent.cpp - Clauses inside a qemu-i386 guest -----------------===//
//
// A 32-bit program behind qemu-i386's stub on this machine gets the i386
// agent, the object's i386 code and the session's shared memory through
// the stub (RemoteInject.h), as a native 32-bit process does through
// ptrace (InProcess/Installer/Agent.h): qemu-user's guest memory is memory of
// the qemu process, so the guest maps the store's memfds (opened through
// /proc/TSRUN/fd) and the agent's records reach tsrun the way a native
// process's do. Entry and exit probes then jump to trampolines in the
// guest: a hit runs its clause as emulated guest code, with no round trip
// to tsrun (an exit probe's where the agent's return trampoline lands).
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"
#include "RemoteInject.h"

#include "../InProcess/Installer/Agent.h"
#include "../InProcess/Installer/AgentThreads.h"
#include "../InProcess/Patch/JumpSites.h"

#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"
#include "tscc/agent.h"
#include "tscc/agent_guest.h"

#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <sys/mman.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {

/// The agent's thread table and shadow stacks in the guest, read and
/// written through the stub.
class StubAgentMemory final : public pt::AgentMemory {
public:
  explicit StubAgentMemory(ip::ProcessAccess &Acc) : Acc(Acc) {}
  bool read(uint64_t Addr, void *Dst, size_t Len) override {
    return Acc.readMemory(Addr, Dst, Len);
  }
  bool write(uint64_t Addr, const void *Src, size_t Len) override {
    return Acc.writeMemory(Addr, Src, Len);
  }

private:
  ip::ProcessAccess &Acc;
};

/// Maps tsrun's memfd Fd into the guest (opened there through /proc).
bool mapTsrunFd(ip::ProcessAccess &Acc, uint64_t Scratch, int Fd, uint64_t Size,
                uint64_t Prot, uint64_t &Base, std::string &Why,
                const char *What) {
  int Got = -1;
  return ip::openTsrunFd(Acc, Scratch, Fd, Got, Why) &&
         ip::mapSharedFd(Acc, Got, Size, Prot, Base, Why, What);
}

/// Maps the head of the process's shard into the guest and keeps the
/// shard's descriptor there, so that the agent maps each ring when its
/// thread first writes a record and grows it by doubling
/// (tscc_host_ring), as in a native process: a guest has 4 GiB of address
/// space, and a shard of 1024 rings of 64 MiB is 64 GiB. Where the
/// descriptor cannot be kept (RLIMIT_NOFILE at or below KeptShardFdMin),
/// the whole shard is mapped, if it fits.
bool mapGuestShard(ip::ProcessAccess &Acc, pt::AgentState &A, Shard &Mine,
                   std::string &Why) {
  int Got = -1;
  if (!ip::openTsrunFd(Acc, A.DataBase, Mine.fd(), Got, Why))
    return false;
  A.ShardFd = A.RingTable ? ip::moveFdHigh(Acc, Got, pt::KeptShardFdMin) : -1;
  if (A.ShardFd < 0) {
    A.ShardSize = Mine.size();
    return ip::mapSharedFd(Acc, Got, A.ShardSize, PROT_READ | PROT_WRITE,
                           A.ShardBase, Why, "mapping the process's shard");
  }
  A.ShardSize = Mine.view()->layout.rings_off;
  A.RingStride = Mine.view()->layout.ring_stride;
  A.ExtentStride = Mine.view()->layout.extent_stride;
  A.ThreadRings = Mine.view()->layout.thread_capacity;
  return ip::mapSharedFdOpen(Acc, A.ShardFd, A.ShardSize,
                             PROT_READ | PROT_WRITE, A.ShardBase, Why,
                             "mapping the process's shard");
}

/// A site one of whose clauses tsrun runs (HostWhy) traps to tsrun for
/// all of them: its entry hooks become TSCC_HOOK_HOST too. One with exit
/// or within() hooks keeps its breakpoint, as before the gate.
void hostSitesWhole(std::map<uint64_t, pt::JumpRequest> &ByAddr,
                    const std::map<uint64_t, std::string> &HostWhy,
                    std::set<uint64_t> &NotJumps,
                    std::map<uint64_t, std::string> &Outcome) {
  for (const auto &[Addr, Why] : HostWhy) {
    pt::JumpRequest &R = ByAddr[Addr];
    bool Returns = false;
    for (const pt::JumpHook &H : R.Hooks)
      Returns |= H.Kind == TSCC_HOOK_EXIT || H.Kind == TSCC_HOOK_WITHIN;
    if (Returns) {
      NotJumps.insert(Addr);
      Outcome[Addr] = Why;
      continue;
    }
    for (pt::JumpHook &H : R.Hooks) {
      H.Kind = TSCC_HOOK_HOST;
      H.Usdt.clear();
    }
  }
}

} // namespace

std::string RemoteBackend::Impl::agentObstacle() {
  if (const char *Off = std::getenv("TSCC_REMOTE_AGENT");
      Off && !strcmp(Off, "0"))
    return "TSCC_REMOTE_AGENT=0";
  if (Tgt->dataModel() != DataModel::ILP32 ||
      Client->architecture().rfind("i386", 0) != 0 ||
      Client->architecture() == "i386:x86-64")
    return "only i386 targets get the agent through a stub";
  if (!stubIsLocal() || Tgt->Uid < 0)
    return "the stub's process is not one tsrun can see (another machine, "
           "a tunnel, or another PID namespace), so records could not come "
           "back through shared memory";
  return {};
}

std::optional<uint64_t> RemoteBackend::Impl::findGadget() {
  // The dynamic loader has `int $0x80; ret` (_dl_sysinfo_int80); a static
  // program has it in its libc.
  if (!ExeElf->interpreter().empty() && AuxvBase)
    if (auto LD = loadElf(ExeElf->interpreter()))
      if (auto G = findSyscallGadget(*LD, AuxvBase))
        return G;
  uint64_t Bias =
      ExeElf->isRelocatable() && HaveAuxv ? AuxvEntry - ExeElf->entry() : 0;
  return findSyscallGadget(*ExeElf, Bias);
}

void RemoteBackend::Impl::prepareAgent() {
  std::string Who = where() + ": " + Tgt->name() + " (pid " +
                    std::to_string(Tgt->pid()) + ")";
  std::string Why = agentObstacle();
  std::optional<uint64_t> Gadget;
  if (Why.empty() && !(Gadget = findGadget()))
    Why = "no `int $0x80; ret` in the program or its loader to make system "
          "calls with";
  if (Why.empty()) {
    Agents = std::make_unique<pt::AgentFactory>(S);
    Access = std::make_unique<RemoteAccess>(
        *Client, Client->initialStop().Thread, *Gadget);
    if (!installAgent(Why))
      Access.reset();
  }
  if (!Why.empty()) {
    NoAgentWhy = Why;
    S.note(Who + ": clauses run in tsrun at breakpoints: " + Why);
    return;
  }
  Tgt->AgentReturns = [this](int64_t Tid, std::vector<uint64_t> &Real) {
    return agentReturnsOf(Tid, Real);
  };
  S.note(Who + ": clauses run in the guest (in-process agent, put in "
               "through the stub); records come back through shared memory "
               "(the guest maps tsrun's memfds)");
}

bool RemoteBackend::Impl::installAgent(std::string &Why) {
  ip::ProcessAccess &Acc = *Access;
  RelocatedImage AgentImg, Code;
  if (!pt::placeAgentImages(Acc, *Tgt, Agent, *Agents, AgentImg, Code, Why))
    return false;
  SharedStore *Ours = S.storeFor(*Tgt);
  Shard *Mine = S.shard(*Tgt);
  if (!Ours || !Mine) {
    Why = "no shared memory for the process";
    return false;
  }
  Agent.StoreSize = Ours->size();
  Agent.ControlSize = Agents->control().size();
  if (!mapTsrunFd(Acc, Agent.DataBase, Ours->fd(), Agent.StoreSize,
                  PROT_READ | PROT_WRITE, Agent.StoreBase, Why,
                  "mapping the store") ||
      !mapTsrunFd(Acc, Agent.DataBase, Agents->control().fd(),
                  Agent.ControlSize, PROT_READ, Agent.ControlBase, Why,
                  "mapping the control page") ||
      !mapGuestShard(Acc, Agent, *Mine, Why))
    return false;
  // qemu-i386 7.2 has no vDSO for i386 guests: the agent makes the call.
  pt::AgentTargetFacts Facts;
  if (!pt::configureAgent(Acc, *Tgt, Agent, *Agents, Code, Facts,
                          /*MayHeal=*/true, Why))
    return false;
  // Without the gate, clauses that need tsrun keep their breakpoints.
  std::string NoGate;
  if (!setUpGuestTraps(AgentImg, NoGate))
    S.note(where() + ": " + NoGate +
           "; clauses that need tsrun keep their breakpoints");
  return true;
}

std::string RemoteBackend::Impl::threadsInTheWay(const ip::PatchPlan &Plan) {
  for (const RspThreadId &T : Client->threads()) {
    uint64_t Regs[TSCC_REG_COUNT];
    if (!Tgt->readRegisters(T, Regs))
      return "a thread's registers cannot be read";
    uint64_t PC = Regs[TSCC_REG_RIP];
    if (PC > Plan.Site && PC < Plan.Site + Plan.Length)
      return "a thread is inside the bytes the jump would overwrite";
    // (One blocked in a displaced int $0x80 would restart inside them.)
    if (PC == Plan.Site + Plan.Length)
      return "a thread is right behind the bytes the jump would overwrite";
  }
  return {};
}

std::map<uint64_t, std::string> RemoteBackend::Impl::installAgentSites(
    Module &M, const std::vector<ProbeSite> &Sites,
    const std::vector<const ElfSymbol *> &Within) {
  std::map<uint64_t, std::string> Outcome;
  if (!Access)
    return Outcome;
  const ProbeProgram &Prog = S.program();
  std::map<uint64_t, pt::JumpRequest> ByAddr;
  std::map<uint64_t, std::string> HostWhy;
  std::set<uint64_t> NotJumps;
  std::vector<uint64_t> All;
  for (const auto &[Addr, B] : Breakpoints)
    All.push_back(Addr);
  // within("f"): the agent counts the thread's activations of f in its
  // shard, where tsrun's breakpoints count them too (Session::withinEnter),
  // so a site of either kind sees the same depth. First at its address, as
  // in a native process: f's own entry clause is within("f").
  for (uint32_t I = 0; I < Within.size(); ++I) {
    const ElfSymbol *Sym = Within[I];
    if (!Sym)
      continue;
    uint64_t Addr = Sym->Value + M.Bias;
    All.push_back(Addr);
    if (Breakpoints.count(Addr)) {
      NotJumps.insert(Addr);
      Outcome[Addr] = "a breakpoint is already there";
      continue;
    }
    pt::JumpRequest &R = ByAddr[Addr];
    R.Addr = Addr;
    R.FuncStart = Addr;
    R.FuncSize = Sym->Size;
    R.Hooks.push_back({TSCC_HOOK_WITHIN, I, Sym->Name, M.Name, {}});
  }
  for (const ProbeSite &Site : Sites) {
    if (!probeApplies(Site.Probe) || (!Site.Symbol && !Site.Usdt))
      continue;
    uint64_t Addr = Site.Address + M.Bias;
    All.push_back(Addr);
    uint32_t Flags = Prog.clauses()[Prog.probes()[Site.Probe].clause].flags;
    std::string Why;
    // A clause that needs tsrun at the hit traps to it from the agent,
    // through the gate (RemoteGuestTraps.cpp), where it can.
    bool Host = guestTrapFits(Flags, Site.Kind, Why);
    if (Breakpoints.count(Addr))
      Why = "a breakpoint is already there", Host = false;
    if (Host)
      HostWhy[Addr] = Why;
    else if (!Why.empty()) {
      NotJumps.insert(Addr);
      Outcome[Addr] = Why;
      continue;
    }
    pt::JumpRequest &R = ByAddr[Addr];
    R.Addr = Addr;
    // A USDT site without a function around it gets no jump (no trap
    // sites through a stub): installJumpSites says so.
    R.FuncStart = Site.Symbol ? Site.Symbol->Value + M.Bias : 0;
    R.FuncSize = Site.Symbol ? Site.Symbol->Size : 0;
    // An exit probe's clause runs where the agent's return trampoline
    // lands, on the return address it put in place of the caller's; a
    // USDT probe's arguments are evaluated by the agent from the note.
    uint32_t Kind =
        Site.Kind == TSCC_PROBE_UFT_EXIT ? TSCC_HOOK_EXIT : TSCC_HOOK_ENTRY;
    if (Host)
      Kind = TSCC_HOOK_HOST;
    R.Hooks.push_back({Kind, Site.Probe, std::string(Site.name()), M.Name,
                       Site.Usdt && !Host
                           ? pt::agentUsdtArgs(*Site.Usdt, M.Bias)
                           : std::vector<tscc_agent_usdt_arg>()});
  }
  hostSitesWhole(ByAddr, HostWhy, NotJumps, Outcome);
  std::vector<pt::JumpRequest> Requests;
  for (auto &[Addr, R] : ByAddr)
    if (!NotJumps.count(Addr))
      Requests.push_back(std::move(R));
  if (Requests.empty())
    return Outcome;
  pt::JumpSiteTarget T{
      *Access, Agent, X86Mode::Bits32,
      [this](const ip::PatchPlan &Plan) { return threadsInTheWay(Plan); },
      [this](uint64_t, uint64_t, uint64_t Size, std::string &Why) {
        // (In a 32-bit process every address is within reach.)
        return ip::mapAnonymous(*Access, Size, PROT_READ | PROT_EXEC, Why);
      },
      // No trap sites through a stub: a site no jump fits stays a
      // breakpoint (docs/runtime.md).
      /*InstallTrapHandler=*/{}, /*Traps=*/{}};
  std::map<uint64_t, std::string> Rejected =
      pt::installJumpSites(T, M, Requests, All);
  for (const pt::JumpRequest &R : Requests) {
    auto It = Rejected.find(R.Addr);
    Outcome[R.Addr] = It == Rejected.end() ? "" : It->second;
    for (const pt::JumpHook &H : R.Hooks)
      AgentHijacks |= It == Rejected.end() &&
                      (H.Kind == TSCC_HOOK_EXIT || H.Kind == TSCC_HOOK_WITHIN);
    if (It == Rejected.end() && HostWhy.count(R.Addr))
      GuestTrapWhy[R.Addr] = HostWhy[R.Addr];
  }
  return Outcome;
}

bool RemoteBackend::Impl::restoreAgentReturns() {
  // Every thread is stopped (the stub is in all-stop mode). Outermost
  // frame first, as AgentRemoval.cpp does for a native process; the shadow
  // stacks stay as they are, for a thread already on the agent's return
  // path.
  StubAgentMemory M(*Access);
  pt::AgentTableLayout L = pt::agentTableOf(Agent);
  bool Clean = true;
  for (const pt::AgentThreadEntry &E :
       pt::agentThreadsOf(M, L, static_cast<int32_t>(Tgt->pid()))) {
    std::vector<tscc_agent_shadow> Frames =
        pt::agentShadowFrames(M, L, E.Entry);
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F) {
      uint32_t Cur = 0, Real = static_cast<uint32_t>(F->ret);
      if (F->ret == Agent.Return || !M.read(F->slot, &Cur, sizeof(Cur)) ||
          Cur != Agent.Return)
        continue;
      Clean &= M.write(F->slot, &Real, sizeof(Real));
    }
  }
  return Clean;
}

uint64_t RemoteBackend::Impl::agentReturnsOf(int64_t Tid,
                                             std::vector<uint64_t> &Real) {
  // (Reading the thread table through the stub costs a round trip per
  // 2 KiB: not done where no site hijacks returns.)
  if (!Access || !Agent.Installed || !Agent.Return || !AgentHijacks)
    return 0;
  StubAgentMemory M(*Access);
  pt::AgentTableLayout L = pt::agentTableOf(Agent);
  for (const pt::AgentThreadEntry &E :
       pt::agentThreadsOf(M, L, static_cast<int32_t>(Tgt->pid()))) {
    if (E.Entry.tid != Tid)
      continue;
    std::vector<tscc_agent_shadow> Frames =
        pt::agentShadowFrames(M, L, E.Entry);
    // Innermost first there; innermost last here.
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
      Real.push_back(F->ret);
    break;
  }
  return Agent.Return;
}

bool RemoteBackend::Impl::removeAgentSites() {
  if (!Access || !Agent.Installed)
    return true;
  // No new clause starts; then every site gets its bytes back and every
  // hijacked return address its real value. The agent's memory stays
  // mapped: a thread may still be inside a trampoline or on its way back
  // through the agent's return path.
  uint32_t Zero = 0;
  bool Clean = Access->writeMemory(
      Agent.Proc + offsetof(tscc_agent_proc, armed), &Zero, sizeof(Zero));
  for (const auto &[Addr, J] : Agent.Sites)
    Clean &= Access->writeCode(J.Addr, J.Original, J.Length);
  Agent.Sites.clear();
  return restoreAgentReturns() && Clean;
}
