//===- AgentBatch.cpp - The agent into a new image in two round trips -----===//
//
// installAgent (Agent.cpp) injects some twenty system calls one at a time,
// each a ptrace round trip. In an image exec has just made (one thread,
// its fresh stack), the same calls go in two batches (Ptrace/InjectBatch.h):
//
//  1. the anonymous mappings: the agent's image, the probe object's code,
//     the thread table, the ring table, the shadow-stack pool, the data
//     area. tsrun then relocates both images to where they landed, writes
//     them and the configuration (through /proc/PID/mem, as always);
//  2. everything else, in the order installAgent makes it: the images'
//     protections; a socket to tsrun with a receive timeout, connect and
//     recvmsg of the store's, the control page's and the shard's memfds
//     (tsrun accepts and sends them while the batch runs); their mmaps,
//     each result copied into the configuration by the stub; the shard's
//     descriptor moved out of the program's way; the fault handlers, whose
//     previous dispositions land in the configuration's chain as before;
//     MADV_WIPEONFORK on the agent's process page.
//
// The configuration is complete before the handlers go in, as on the slow
// path. Anything that makes a batch impossible or doubtful (a seccomp
// filter of the program's own, too few descriptors allowed to keep the
// shard's high, a 32-bit mapping too big) sends installAgent down the
// call-by-call path, and -v says why.
//
//===----------------------------------------------------------------------===//
#include "AgentSetup.h"

#include "../../Ptrace/Inject.h"
#include "../../Ptrace/InjectBatch.h"
#include "AgentAbi.h"

#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"
#include "tscc/SyscallTable.h"
#include "tscc/agent.h"

#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

namespace {

constexpr uint64_t Page = 4096;
uint64_t pages(uint64_t Size) { return (Size + Page - 1) & ~(Page - 1); }

BatchCall callOf(uint64_t Nr, std::initializer_list<uint64_t> Args) {
  BatchCall C;
  C.Nr = Nr;
  unsigned I = 0;
  for (uint64_t A : Args)
    C.Args[I++] = A;
  return C;
}

/// Argument I of C is the 32-bit word at Addr.
BatchCall loads(BatchCall C, unsigned I, uint64_t Addr,
                BatchCall::Kind K = BatchCall::Load32) {
  C.Args[I] = Addr;
  C.Kinds[I] = K;
  return C;
}

BatchCall copies(BatchCall C, uint64_t To, bool Word32) {
  C.CopyTo = To;
  if (Word32)
    C.Flags |= BatchCall::Copy32;
  return C;
}

BatchCall goesOn(BatchCall C) {
  C.Flags |= BatchCall::GoOn;
  return C;
}

std::string failure(const SyscallBatch &B, size_t Done) {
  auto Err = static_cast<int>(-static_cast<int64_t>(B.call(Done).Result));
  return std::string(B.what(Done)) +
         " in the target failed: " + std::strerror(Err);
}

/// Where a field of the agent's configuration is in the target.
uint64_t configField(const AgentState &A, size_t Offset) {
  return A.Config + Offset;
}

/// What the batches need that installAgent's slow path finds as it goes.
struct Plan {
  std::span<const uint8_t> AgentObj, CodeObj;
  uint64_t AgentSize = 0, CodeSize = 0;
  SharedStore *Store = nullptr;
  Shard *Mine = nullptr;
};

/// Why P cannot take the batched path ("" if it can).
std::string planFor(PtraceProcess &P, AgentFactory &F, Plan &Pl) {
  std::string Why;
  if (!setup::objectsFor(P, F, Pl.AgentObj, Pl.CodeObj, Why) ||
      !relocatedImageSize(Pl.AgentObj, Pl.AgentSize, Why) ||
      !relocatedImageSize(Pl.CodeObj, Pl.CodeSize, Why))
    return Why;
  Pl.Store = F.session().storeFor(P);
  Pl.Mine = F.session().shard(P);
  if (!Pl.Store || !Pl.Mine)
    return "no shared memory for the process";
  // The shard's descriptor is kept at KeptShardFdMin or above.
  rlimit Files{};
  if (prlimit(P.Pid, RLIMIT_NOFILE, nullptr, &Files) != 0 ||
      Files.rlim_cur <= rlim_t(KeptShardFdMin) + 16)
    return "its descriptor limit leaves no room to keep the shard's";
  if (P.dataModel() == DataModel::ILP32 &&
      (Pl.Store->size() > UINT32_MAX || Pl.Mine->size() > UINT32_MAX))
    return "its store does not fit a 32-bit mapping";
  if (!F.listen(Why))
    return Why;
  return "";
}

/// Batch 1: every anonymous mapping, in one round trip.
bool mapAreas(PtraceProcess &P, pid_t Tid, AgentFactory &F, const Plan &Pl,
              bool &Tried, std::string &Why) {
  AgentState &A = P.Agent;
  const AgentAbi &Abi = agentAbi(P.dataModel());
  A.ThreadCapacity = setup::threadCapacity(F);
  A.ThreadsSize = uint64_t(A.ThreadCapacity) * sizeof(tscc_agent_thread);
  A.RingTableSize = uint64_t(Pl.Store->layout().thread_capacity) * 8;
  A.DataSize = setup::dataSize();
  uint64_t Pool = setup::poolSizes()[0];
  auto Anon = [&](uint64_t Size, int Prot, int Extra) {
    return callOf(Abi.NrMmap,
                  {0, pages(Size), uint64_t(Prot),
                   uint64_t(MAP_PRIVATE | MAP_ANONYMOUS | Extra), ~0ull, 0});
  };
  constexpr int RW = PROT_READ | PROT_WRITE;
  SyscallBatch B;
  if (!B.begin(P, Tid, Why))
    return false;
  B.add(Anon(Pl.AgentSize, RW, 0), "mmap (the agent)");
  B.add(Anon(Pl.CodeSize, RW, 0), "mmap (the probe code)");
  B.add(Anon(A.ThreadsSize, RW, MAP_NORESERVE), "mmap (the thread table)");
  B.add(Anon(A.RingTableSize, RW, MAP_NORESERVE), "mmap (the ring table)");
  B.add(Anon(A.DataSize, RW, 0), "mmap (the data area)");
  B.add(goesOn(Anon(Pool, RW, MAP_NORESERVE)), "mmap (the pool)");
  if (std::string Not = B.whyNot(P, Tid); !Not.empty()) {
    Why = Not;
    return false;
  }
  if (!B.stage(P, Why))
    return false;
  size_t Done = 0;
  std::vector<uint8_t> Data;
  Tried = true;
  if (!B.run(P, Tid, {}, Done, Data, Why))
    return false;
  if (Done < B.size()) {
    Why = failure(B, Done);
    return false;
  }
  A.AgentBase = B.call(0).Result;
  A.AgentSize = Pl.AgentSize;
  A.CodeBase = B.call(1).Result;
  A.CodeSize = Pl.CodeSize;
  A.ThreadsBase = B.call(2).Result;
  A.RingTable = B.call(3).Result;
  A.DataBase = B.call(4).Result;
  if (!ip::isSyscallError(B.call(5).Result)) {
    A.PoolBase = B.call(5).Result;
    A.PoolSize = Pool;
    return true;
  }
  // Less address space for the pool: the slow path's smaller sizes.
  PtraceAccess Acc(P, Tid);
  for (uint64_t Bytes : setup::poolSizes().subspan(1))
    if ((A.PoolBase = ip::mapAnonymous(Acc, Bytes, RW, Why, MAP_NORESERVE))) {
      A.PoolSize = Bytes;
      return true;
    }
  return false;
}

/// Relocates both images to where batch 1 put them and writes them.
bool writeImages(PtraceProcess &P, pid_t Tid, const Plan &Pl,
                 RelocatedImage &AgentImg, RelocatedImage &Code,
                 std::string &Why) {
  AgentState &A = P.Agent;
  PtraceAccess Acc(P, Tid);
  SymbolResolver None = [](std::string_view) { return std::nullopt; };
  if (!relocateImage(Pl.AgentObj, A.AgentBase, None, AgentImg, Why) ||
      !setup::takeAgentSymbols(A, AgentImg, Why) ||
      !relocateImage(Pl.CodeObj, A.CodeBase,
                     setup::codeResolver(P.dataModel(), AgentImg), Code, Why))
    return false;
  if (!ip::writeIntoFreshMemory(Acc, A.AgentBase,
                                {AgentImg.Bytes.data(), AgentImg.ContentEnd}) ||
      !ip::writeIntoFreshMemory(Acc, A.CodeBase,
                                {Code.Bytes.data(), Code.ContentEnd})) {
    Why = "cannot write the agent into the target";
    return false;
  }
  return true;
}

void addProtections(SyscallBatch &B, const AgentAbi &Abi, uint64_t Base,
                    const RelocatedImage &Img) {
  if (Img.ExecEnd)
    B.add(callOf(Abi.NrMprotect, {Base, Img.ExecEnd, PROT_READ | PROT_EXEC}),
          "mprotect");
  if (Img.RwStart > Img.ExecEnd)
    B.add(callOf(Abi.NrMprotect,
                 {Base + Img.ExecEnd, Img.RwStart - Img.ExecEnd, PROT_READ}),
          "mprotect");
}

/// The socket to tsrun, N memfds received on it: where the received
/// descriptors land (the control buffer's data, 4 bytes each).
uint64_t addReceive(SyscallBatch &B, const AgentAbi &Abi, AgentFactory &F,
                    bool Is64, unsigned N) {
  uint32_t Minus1 = ~0u;
  uint64_t Sock = B.addData(&Minus1, 4);
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  const std::string &Name = F.socketName();
  memcpy(Addr.sun_path, Name.data(), Name.size());
  socklen_t Len = offsetof(sockaddr_un, sun_path) + Name.size();
  uint64_t AddrAt = B.addData(&Addr, sizeof(Addr));
  // A receive timeout: the batch must end even if tsrun cannot send.
  int64_t Tv64[2] = {2, 0};
  int32_t Tv32[2] = {2, 0};
  uint64_t Tv = Is64 ? B.addData(Tv64, sizeof(Tv64)) : B.addData(Tv32, 8);
  char Byte = 0;
  uint64_t ByteAt = B.addData(&Byte, 1);
  // The descriptors' slots read -1 until the kernel fills them: a batch
  // that received nothing maps nothing and closes nothing of the program.
  std::vector<uint8_t> Control(Abi.controlSpaceForFds(N), 0xff);
  uint64_t Ctl = B.addData(Control.data(), Control.size());
  std::vector<uint8_t> Iov = Abi.iovec(ByteAt, 1);
  uint64_t IovAt = B.addData(Iov.data(), Iov.size());
  std::vector<uint8_t> Msg = Abi.msghdr(IovAt, Ctl, Control.size());
  uint64_t MsgAt = B.addData(Msg.data(), Msg.size());
  B.add(copies(callOf(Abi.NrSocket, {AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0}),
               Sock, true),
        "socket");
  uint64_t NrSetsockopt = Is64
                              ? syscallNumberOf(DataModel::LP64, "setsockopt")
                              : syscallNumberOf(DataModel::ILP32, "setsockopt");
  B.add(loads(callOf(NrSetsockopt, {0, SOL_SOCKET, 20 /*SO_RCVTIMEO_OLD*/, Tv,
                                    uint64_t(Is64 ? 16 : 8)}),
              0, Sock),
        "setsockopt(SO_RCVTIMEO)");
  B.add(loads(callOf(Abi.NrConnect, {0, AddrAt, Len}), 0, Sock), "connect");
  BatchCall Recv =
      loads(callOf(Abi.NrRecvmsg, {0, MsgAt, MSG_CMSG_CLOEXEC}), 0, Sock);
  Recv.Flags |= BatchCall::Restart;
  B.add(Recv, "recvmsg");
  B.add(goesOn(loads(callOf(Abi.NrClose, {0}), 0, Sock)), "close");
  return Ctl + (Is64 ? 16 : 12);
}

/// mmap(0, Size, Prot, MAP_SHARED | MAP_NORESERVE, *FdAt, 0), its address
/// copied to To.
size_t addSharedMap(SyscallBatch &B, const AgentAbi &Abi, uint64_t Size,
                    int Prot, uint64_t FdAt, uint64_t To, const char *What) {
  return B.add(
      copies(loads(callOf(Abi.NrMmap, {0, Size, uint64_t(Prot),
                                       MAP_SHARED | MAP_NORESERVE, 0, 0}),
                   4, FdAt),
             To, false),
      What);
}

} // namespace

namespace {

/// Batch 2: protections, the store, the shard, the handlers.
bool connectAndArm(PtraceProcess &P, pid_t Tid, AgentFactory &F, const Plan &Pl,
                   const RelocatedImage &AgentImg, const RelocatedImage &Code,
                   std::string &Why) {
  AgentState &A = P.Agent;
  bool Is64 = P.dataModel() == DataModel::LP64;
  DataModel DM = P.dataModel();
  const AgentAbi &Abi = agentAbi(DM);
  // In the data area's scratch page, which is tsrun's.
  SyscallBatch B;
  if (!B.beginAt(P, A.DataBase, Why))
    return false;
  std::array<uint8_t, 32> Act = setup::handlerAction(DM, A);
  uint64_t ActAt = B.addData(Act.data(), Act.size());
  addProtections(B, Abi, A.AgentBase, AgentImg);
  addProtections(B, Abi, A.CodeBase, Code);
  uint64_t Fds = addReceive(B, Abi, F, Is64, 3);
  constexpr size_t Store = offsetof(tscc_agent_config, store);
  uint64_t BaseAt = configField(A, Store + offsetof(tscc_store, base));
  uint64_t ControlAt = configField(A, Store + offsetof(tscc_store, control));
  uint64_t ShardAt = configField(A, Store + offsetof(tscc_store, shard));
  uint64_t ShardFdAt = configField(A, offsetof(tscc_agent_config, shard_fd));
  size_t StoreMap = addSharedMap(B, Abi, A.StoreSize, PROT_READ | PROT_WRITE,
                                 Fds, BaseAt, "mapping the store");
  B.add(goesOn(loads(callOf(Abi.NrClose, {0}), 0, Fds)), "close");
  size_t ControlMap = addSharedMap(B, Abi, A.ControlSize, PROT_READ, Fds + 4,
                                   ControlAt, "mapping the control page");
  B.add(goesOn(loads(callOf(Abi.NrClose, {0}), 0, Fds + 4)), "close");
  size_t Kept = B.add(
      copies(loads(callOf(Is64 ? syscallNumberOf(DataModel::LP64, "fcntl")
                               : syscallNumberOf(DataModel::ILP32, "fcntl64"),
                          {0, F_DUPFD_CLOEXEC, uint64_t(KeptShardFdMin)}),
                   0, Fds + 8),
             ShardFdAt, true),
      "fcntl(F_DUPFD_CLOEXEC)");
  B.add(goesOn(loads(callOf(Abi.NrClose, {0}), 0, Fds + 8)), "close");
  size_t ShardMap =
      addSharedMap(B, Abi, A.ShardSize, PROT_READ | PROT_WRITE, ShardFdAt,
                   ShardAt, "mapping the process's shard");
  B.add(loads(callOf(Abi.NrMadvise, {0, A.ShardSize, MADV_DONTFORK}), 0,
              ShardAt, BatchCall::Load64),
        "madvise(MADV_DONTFORK)");
  std::span<const int> Signals = setup::agentSignals();
  for (unsigned I = 0; I < Signals.size(); ++I)
    B.add(callOf(Abi.NrRtSigaction,
                 {uint64_t(Signals[I]), ActAt, setup::chainedSlot(A, I), 8}),
          "sigaction");
  B.add(callOf(Abi.NrMadvise, {A.Proc, 4096, MADV_WIPEONFORK}),
        "madvise(MADV_WIPEONFORK)");
  if (std::string Not = B.whyNot(P, Tid); !Not.empty()) {
    Why = Not;
    return false;
  }
  // tsrun answers the target's connect while the batch runs; if it cannot,
  // the target's recvmsg times out and the batch stops there.
  int Send[3] = {Pl.Store->fd(), F.control().fd(), Pl.Mine->fd()};
  std::string SendWhy;
  unsigned Waited = 0;
  auto Answer = [&] { return F.answerBatch(P.Pid, Send, Waited, SendWhy); };
  size_t Done = 0;
  std::vector<uint8_t> Data;
  if (!B.stage(P, Why) || !B.run(P, Tid, Answer, Done, Data, Why))
    return false;
  if (Done < B.size()) {
    Why = failure(B, Done) + (SendWhy.empty() ? "" : " (" + SendWhy + ")");
    return false;
  }
  A.StoreBase = B.call(StoreMap).Result;
  A.ControlBase = B.call(ControlMap).Result;
  A.ShardFd = static_cast<int>(B.call(Kept).Result);
  A.ShardBase = B.call(ShardMap).Result;
  return true;
}

} // namespace

bool setup::installAgentBatched(PtraceProcess &P, pid_t Tid, AgentFactory &F,
                                bool &Tried, std::string &Why) {
  Tried = false;
  Plan Pl;
  if (Why = planFor(P, F, Pl); !Why.empty())
    return false;
  AgentState &A = P.Agent;
  A.TargetId = F.session().targetId(P);
  if (!mapAreas(P, Tid, F, Pl, Tried, Why))
    return false;
  Tried = true;
  // Until batch 2 fills them in, the configuration has no store (its
  // addresses are copied in by the stub, before any handler goes in).
  A.StoreSize = Pl.Store->size();
  A.ControlSize = F.control().size();
  A.ShardSize = Pl.Mine->view()->layout.rings_off;
  A.RingStride = Pl.Mine->view()->layout.ring_stride;
  A.ShardFd = KeptShardFdMin;
  RelocatedImage AgentImg, Code;
  PtraceAccess Acc(P, Tid);
  if (!writeImages(P, Tid, Pl, AgentImg, Code, Why) ||
      !setup::writeConfig(Acc, P, A, F, Code, targetFacts(P), Why) ||
      !connectAndArm(P, Tid, F, Pl, AgentImg, Code, Why))
    return false;
  if (!setup::arm(Acc, A, F, P.AgentMayHeal)) {
    Why = "cannot arm the agent";
    return false;
  }
  A.Installed = true;
  return true;
}

bool setup::finishChildBatched(PtraceProcess &Child, pid_t Tid, AgentFactory &F,
                               Shard &Mine, bool &Tried, std::string &Why) {
  Tried = false;
  AgentState &A = Child.Agent;
  bool Is64 = Child.dataModel() == DataModel::LP64;
  const AgentAbi &Abi = agentAbi(Child.dataModel());
  rlimit Files{};
  if (!A.RingTable || !A.DataBase)
    Why = "its agent maps whole shards";
  else if (prlimit(Child.Pid, RLIMIT_NOFILE, nullptr, &Files) != 0 ||
           Files.rlim_cur <= rlim_t(KeptShardFdMin) + 16)
    Why = "its descriptor limit leaves no room to keep the shard's";
  if (!Why.empty() || !F.listen(Why))
    return false;
  SyscallBatch B;
  if (!B.beginAt(Child, A.DataBase, Why))
    return false;
  uint64_t Slots[2] = {0, 0};
  uint64_t KeptAt = B.addData(Slots, sizeof(Slots)), ShardAt = KeptAt + 8;
  A.ShardSize = Mine.view()->layout.rings_off;
  A.RingStride = Mine.view()->layout.ring_stride;
  // The parent's descriptor of its shard, and its rings in the table
  // (not inherited: MADV_DONTFORK), go first.
  if (A.ShardFd >= 0)
    B.add(goesOn(callOf(Abi.NrClose, {uint64_t(A.ShardFd)})), "close");
  B.add(callOf(Abi.NrMadvise, {A.RingTable, A.RingTableSize, MADV_DONTNEED}),
        "madvise(MADV_DONTNEED)");
  uint64_t Fd = addReceive(B, Abi, F, Is64, 1);
  size_t Kept = B.add(
      copies(loads(callOf(Is64 ? syscallNumberOf(DataModel::LP64, "fcntl")
                               : syscallNumberOf(DataModel::ILP32, "fcntl64"),
                          {0, F_DUPFD_CLOEXEC, uint64_t(KeptShardFdMin)}),
                   0, Fd),
             KeptAt, true),
      "fcntl(F_DUPFD_CLOEXEC)");
  B.add(goesOn(loads(callOf(Abi.NrClose, {0}), 0, Fd)), "close");
  size_t Map = addSharedMap(B, Abi, A.ShardSize, PROT_READ | PROT_WRITE, KeptAt,
                            ShardAt, "mapping the process's shard");
  B.add(loads(callOf(Abi.NrMadvise, {0, A.ShardSize, MADV_DONTFORK}), 0,
              ShardAt, BatchCall::Load64),
        "madvise(MADV_DONTFORK)");
  if (std::string Not = B.whyNot(Child, Tid); !Not.empty()) {
    Why = Not;
    return false;
  }
  int Send = Mine.fd();
  std::string SendWhy;
  unsigned Waited = 0;
  auto Answer = [&] {
    return F.answerBatch(Child.Pid, {&Send, 1}, Waited, SendWhy);
  };
  if (!B.stage(Child, Why))
    return false;
  size_t Done = 0;
  std::vector<uint8_t> Data;
  Tried = true;
  if (!B.run(Child, Tid, Answer, Done, Data, Why))
    return false;
  if (Done < B.size()) {
    Why = failure(B, Done) + (SendWhy.empty() ? "" : " (" + SendWhy + ")");
    return false;
  }
  A.ShardFd = static_cast<int>(B.call(Kept).Result);
  A.ShardBase = B.call(Map).Result;
  return true;
}
