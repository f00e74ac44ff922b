//===- Agent.cpp - Putting the in-process agent into a target -------------===//
#include "Agent.h"
#include "AgentSetup.h"

#include "../../Ptrace/Inject.h"
#include "AgentAbi.h"
#include "Healer.h"

#include "../../Loader/LoadedImage.h"
#include "AgentObject.h"

#include "tscc/Runtime/Auxv.h"
#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"
#include "tscc/SyscallTable.h"
#include "tscc/agent.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <random>
#include <sstream>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18
#endif

namespace {

/// The agent's thread table holds four times the store's thread slots (a
/// thread without a slot needs no entry), so that an entry is always found
/// within TSCC_AGENT_THREAD_PROBES places of its home.
constexpr uint32_t MinAgentThreads = 4096;
/// Shadow stacks: address space for this many bytes of chunks (only those
/// used take memory), or less where the system will not give that much.
constexpr uint64_t PoolBytes[] = {TSCC_AGENT_POOL_BYTES, 4u << 20, 1u << 20};
/// How long an agent waits for the store lock before it drops a clause.
constexpr uint64_t AgentLockTimeoutNs = 250'000'000;

/// The system call numbers, structures and objects of P's data model.
const AgentAbi &abiOf(const PtraceProcess &P) {
  return agentAbi(P.dataModel());
}

/// Runs one system call in the target; false (with Why) on failure.
bool call(PtraceProcess &P, pid_t Tid, uint64_t Nr,
          std::initializer_list<uint64_t> Args, uint64_t &Result,
          std::string &Why, const char *What) {
  PtraceAccess Access(P, Tid);
  return ip::callChecked(Access, Nr, Args, Result, Why, What);
}

/// The size of the mapping that starts at Addr in /proc/PID/maps.
uint64_t mappingSize(pid_t Pid, uint64_t Addr) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long long S = 0, E = 0;
    if (sscanf(Line.c_str(), "%llx-%llx", &S, &E) == 2 && S == Addr)
      return E - S;
  }
  return 0;
}

/// The last vDSO of each data model read, and where its clock_gettime is
/// from its start: every process of a model has the same one, so after an
/// exec the new image's is compared with it, not looked up in
/// /proc/PID/maps and parsed again.
struct KnownVdso {
  std::vector<uint8_t> Image;
  uint64_t Offset = 0;
};

KnownVdso &knownVdso(DataModel DM) {
  static KnownVdso Known[2];
  return Known[DM == DataModel::LP64 ? 0 : 1];
}

uint64_t clockGettimeIn(PtraceProcess &P, const std::vector<uint8_t> &Image,
                        uint64_t Base);

/// The target's vDSO clock_gettime, or 0 (the agent then makes the call).
/// A 32-bit process's is clock_gettime64: the agent's struct timespec has
/// 64-bit fields in both models.
uint64_t vdsoClockGettime(PtraceProcess &P,
                          const std::map<uint64_t, uint64_t> &Aux) {
  auto It = Aux.find(AT_SYSINFO_EHDR);
  if (It == Aux.end() || !It->second)
    return 0;
  uint64_t Base = It->second;
  KnownVdso &Known = knownVdso(P.dataModel());
  if (!Known.Image.empty()) {
    std::vector<uint8_t> Same(Known.Image.size());
    if (P.readMemory(Base, Same.data(), Same.size()) && Same == Known.Image)
      return Base + Known.Offset;
  }
  uint64_t Size = mappingSize(P.Pid, Base);
  if (!Size || Size > (1u << 20))
    return 0;
  std::vector<uint8_t> Image(Size);
  if (!P.readMemory(Base, Image.data(), Size))
    return 0;
  uint64_t At = clockGettimeIn(P, Image, Base);
  if (At) {
    Known.Image = std::move(Image);
    Known.Offset = At - Base;
  }
  return At;
}

/// Where clock_gettime is in Image, the vDSO mapped at Base, or 0.
uint64_t clockGettimeIn(PtraceProcess &P, const std::vector<uint8_t> &Image,
                        uint64_t Base) {
  std::string Error;
  auto Elf = ElfFile::fromBuffer(Image, "[vdso]", Error);
  if (!Elf)
    return 0;
  bool Is64 = P.dataModel() == DataModel::LP64;
  const ElfSymbol *Sym = Elf->findFunction(Is64 ? "__vdso_clock_gettime"
                                                : "__vdso_clock_gettime64");
  if (!Sym && Is64)
    Sym = Elf->findFunction("clock_gettime");
  uint64_t Lowest = ~0ull;
  for (const ElfSegment &Seg : Elf->segments())
    if (Seg.Type == PT_LOAD)
      Lowest = std::min<uint64_t>(Lowest, Seg.VAddr & ~0xfffull);
  if (!Sym || Lowest == ~0ull)
    return 0;
  return Base + Sym->Value - Lowest;
}

/// Whether Pid lives in tsrun's own PID namespace: the store lock and the
/// agent name threads by the ids they see themselves.
bool samePidNamespace(pid_t Pid) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("NSpid:", 0) == 0) {
      std::istringstream F(Line.substr(6));
      std::string A, B;
      F >> A >> B;
      return B.empty();
    }
  return true; // kernels without NSpid have no nested namespaces to see
}

uint32_t agentThreadCapacity(const SharedStore &Store) {
  uint64_t Want = std::max<uint64_t>(
      MinAgentThreads, 4 * uint64_t(Store.layout().thread_capacity));
  uint32_t Cap = 1;
  while (Cap < Want)
    Cap <<= 1;
  return Cap;
}

/// Maps the table and the pool of the agent's threads (MAP_NORESERVE).
bool mapThreads(ip::ProcessAccess &Acc, AgentState &A, AgentFactory &F,
                std::string &Why) {
  A.ThreadCapacity = agentThreadCapacity(*F.session().store());
  A.ThreadsSize = uint64_t(A.ThreadCapacity) * sizeof(tscc_agent_thread);
  A.ThreadsBase = ip::mapAnonymous(Acc, A.ThreadsSize, PROT_READ | PROT_WRITE,
                                   Why, MAP_NORESERVE);
  if (!A.ThreadsBase)
    return false;
  // Where the agent maps each ring of the shard (tscc_host_ring).
  A.RingTableSize =
      uint64_t(tscc_ring_count(&F.session().store()->layout())) * 8;
  A.RingTable = ip::mapAnonymous(Acc, A.RingTableSize, PROT_READ | PROT_WRITE,
                                 Why, MAP_NORESERVE);
  if (!A.RingTable)
    return false;
  for (uint64_t Bytes : PoolBytes) {
    A.PoolBase = ip::mapAnonymous(Acc, Bytes, PROT_READ | PROT_WRITE, Why,
                                  MAP_NORESERVE);
    if (A.PoolBase) {
      A.PoolSize = Bytes;
      return true;
    }
  }
  return false;
}

/// Builds a block of memory for the target, whose address is known in
/// advance, out of pieces that point at each other.
class Blob {
public:
  explicit Blob(uint64_t Base) : Base(Base) {}
  uint64_t add(const void *Data, size_t Size, size_t Align = 8) {
    Bytes.resize((Bytes.size() + Align - 1) & ~(Align - 1));
    uint64_t At = Base + Bytes.size();
    const auto *P = static_cast<const uint8_t *>(Data);
    Bytes.insert(Bytes.end(), P, P + Size);
    return At;
  }
  uint64_t addString(std::string_view S) {
    uint64_t At = add(S.data(), S.size(), 1);
    Bytes.push_back(0);
    return At;
  }
  uint64_t reserve(size_t Size, size_t Align = 16) {
    Bytes.resize((Bytes.size() + Align - 1) & ~(Align - 1));
    uint64_t At = Base + Bytes.size();
    Bytes.resize(Bytes.size() + Size);
    return At;
  }
  const std::vector<uint8_t> &bytes() const { return Bytes; }

private:
  uint64_t Base;
  std::vector<uint8_t> Bytes;
};

constexpr uint64_t DataScratch = 4096; ///< first page: syscall arguments
constexpr uint64_t DataSize = 1u << 20;
/// Jump-patched sites an agent can put back by itself if tsrun dies.
constexpr uint32_t SiteCapacity = 32768;

constexpr size_t MaxFds = 3;

/// Receives the N memfds tsrun sends over Sock (SCM_RIGHTS) in the target:
/// their numbers there.
bool receiveFds(PtraceProcess &P, pid_t Tid, uint64_t Sock, uint64_t Scratch,
                int *Fds, size_t N, std::string &Why) {
  // recvmsg(sock, {iov: 1 byte, control: the fds}, MSG_CMSG_CLOEXEC), with
  // the structures of the process's model.
  const AgentAbi &Abi = abiOf(P);
  uint64_t Iov = Scratch + 256, Byte = Scratch + 512, Ctl = Scratch + 768,
           Msg = Scratch + 1024;
  std::vector<uint8_t> Control(Abi.controlSpaceForFds(N), 0);
  std::vector<uint8_t> V = Abi.iovec(Byte, 1);
  std::vector<uint8_t> M = Abi.msghdr(Iov, Ctl, Control.size());
  uint64_t R = 0;
  if (!P.writeMemory(Iov, V.data(), V.size()) ||
      !P.writeMemory(Ctl, Control.data(), Control.size()) ||
      !P.writeMemory(Msg, M.data(), M.size()) ||
      !call(P, Tid, Abi.NrRecvmsg, {Sock, Msg, MSG_CMSG_CLOEXEC}, R, Why,
            "recvmsg") ||
      !P.readMemory(Ctl, Control.data(), Control.size()))
    return false;
  if (!Abi.receivedFds(Control, Fds, N)) {
    Why = "the target did not receive the store";
    return false;
  }
  return true;
}

/// The target connects to tsrun's socket and receives the N memfds Send
/// (SCM_RIGHTS); Got gets their numbers there.
bool passFds(PtraceProcess &P, pid_t Tid, AgentFactory &F, uint64_t Scratch,
             const int *Send, int *Got, size_t N, std::string &Why) {
  const AgentAbi &Abi = abiOf(P);
  if (!F.listen(Why))
    return false;
  uint64_t Sock = 0, R = 0;
  if (!call(P, Tid, Abi.NrSocket, {AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0},
            Sock, Why, "socket"))
    return false;
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  const std::string &Name = F.socketName();
  memcpy(Addr.sun_path, Name.data(), Name.size());
  socklen_t Len = offsetof(sockaddr_un, sun_path) + Name.size();
  bool Ok =
      P.writeMemory(Scratch, &Addr, sizeof(Addr)) &&
      call(P, Tid, Abi.NrConnect, {Sock, Scratch, Len}, R, Why, "connect") &&
      F.sendFds(P.Pid, {Send, N}, Why) &&
      receiveFds(P, Tid, Sock, Scratch, Got, N, Why);
  uint64_t Ignored = 0;
  std::string IgnoredWhy;
  injectSyscall(P, Tid, Abi.NrClose, {Sock}, Ignored, IgnoredWhy);
  return Ok;
}

/// The same for one descriptor, without a socket: for a process whose
/// seccomp filter forbids one (the fork child of a program that sandboxed
/// itself after it was set up). It opens tsrun's descriptor through /proc,
/// which the kernel lets it do only if it may look into tsrun (root, or
/// tsrun's own user): nobody else gets the memfd this way.
bool openTsrunFd(PtraceProcess &P, pid_t Tid, uint64_t Scratch, int Fd,
                 int &Got, std::string &Why) {
  PtraceAccess Access(P, Tid);
  return ip::openTsrunFd(Access, Scratch, Fd, Got, Why);
}

/// mmap(0, Size, Prot, MAP_SHARED, Fd, 0) in the target, then close(Fd).
bool mapFd(PtraceProcess &P, pid_t Tid, int Fd, uint64_t Size, uint64_t Prot,
           uint64_t &Base, std::string &Why, const char *What) {
  PtraceAccess Access(P, Tid);
  return ip::mapSharedFd(Access, Fd, Size, Prot, Base, Why, What);
}

/// Maps the process's own shard. A child it forks does not inherit it
/// (MADV_DONTFORK): the child gets a shard of its own. Only the shard's
/// head (everything but the rings) is mapped here; the agent maps each
/// ring from the descriptor it keeps when the ring's thread first writes a
/// record (tscc_host_ring). Where the descriptor cannot be kept
/// (RLIMIT_NOFILE at or below KeptShardFdMin), the whole shard is mapped.
bool mapShard(PtraceProcess &P, pid_t Tid, Shard &Mine, int Fd, bool FreshTable,
              std::string &Why) {
  AgentState &A = P.Agent;
  PtraceAccess Access(P, Tid);
  uint64_t R = 0;
  if (A.ShardFd >= 0) // a fork child's: its parent's shard
    ip::closeFd(Access, A.ShardFd);
  // A fork child's table holds its parent's rings, which it did not
  // inherit (MADV_DONTFORK): private anonymous memory reads as zero again.
  if (A.RingTable && !FreshTable &&
      !call(P, Tid, abiOf(P).NrMadvise,
            {A.RingTable, A.RingTableSize, MADV_DONTNEED}, R, Why,
            "madvise(MADV_DONTNEED)"))
    return false;
  A.ShardFd = A.RingTable ? ip::moveFdHigh(Access, Fd, KeptShardFdMin) : -1;
  bool Ok;
  if (A.ShardFd >= 0) {
    A.ShardSize = Mine.view()->layout.rings_off;
    A.RingStride = Mine.view()->layout.ring_stride;
    A.ExtentStride = Mine.view()->layout.extent_stride;
    A.ThreadRings = Mine.view()->layout.thread_capacity;
    Ok = ip::mapSharedFdOpen(Access, A.ShardFd, A.ShardSize,
                             PROT_READ | PROT_WRITE, A.ShardBase, Why,
                             "mapping the process's shard");
  } else {
    A.ShardSize = Mine.size();
    Ok = mapFd(P, Tid, Fd, A.ShardSize, PROT_READ | PROT_WRITE, A.ShardBase,
               Why, "mapping the process's shard");
  }
  return Ok && call(P, Tid, abiOf(P).NrMadvise,
                    {A.ShardBase, A.ShardSize, MADV_DONTFORK}, R, Why,
                    "madvise(MADV_DONTFORK)");
}

/// What the agent needs to know of its shard (tscc_agent_config).
struct ShardConfig {
  uint64_t Base;
  int32_t Fd;
  uint64_t Rings, Ino;
  uint32_t DevMajor, DevMinor;
};

ShardConfig shardConfig(const AgentState &A, const Shard &Mine) {
  ShardConfig C{A.ShardBase, A.ShardFd, 0, 0, 0, 0};
  struct stat St{};
  if (A.ShardFd >= 0 && fstat(Mine.fd(), &St) == 0) {
    C.Rings = A.RingTable;
    C.Ino = St.st_ino;
    C.DevMajor = major(St.st_dev);
    C.DevMinor = minor(St.st_dev);
  }
  return C;
}

void putShardConfig(tscc_agent_config &C, const ShardConfig &S) {
  C.store.shard = reinterpret_cast<uint8_t *>(S.Base);
  C.shard_fd = S.Rings ? S.Fd : -1;
  C.rings = S.Rings;
  C.shard_ino = S.Ino;
  C.shard_dev_major = S.DevMajor;
  C.shard_dev_minor = S.DevMinor;
}

/// Maps the session's store, its control page and the process's shard into
/// the target -- the control page read-only, which is all its seals allow.
bool mapStore(PtraceProcess &P, pid_t Tid, AgentFactory &F, uint64_t Scratch,
              AgentState &A, std::string &Why) {
  // The store of the process's trust domain: only processes with its
  // credentials map it.
  SharedStore *Ours = F.session().storeFor(P);
  Shard *Mine = F.session().shard(P);
  if (!Ours || !Mine) {
    Why = "no shared memory for the process";
    return false;
  }
  int Send[3] = {Ours->fd(), F.control().fd(), Mine->fd()};
  int Got[3] = {-1, -1, -1};
  if (!passFds(P, Tid, F, Scratch, Send, Got, 3, Why))
    return false;
  A.StoreSize = Ours->size();
  A.ControlSize = F.control().size();
  bool Ok = mapFd(P, Tid, Got[0], A.StoreSize, PROT_READ | PROT_WRITE,
                  A.StoreBase, Why, "mapping the store");
  Ok = mapFd(P, Tid, Got[1], A.ControlSize, PROT_READ, A.ControlBase, Why,
             "mapping the control page") &&
       Ok;
  // Its ring table was just mapped: nothing to clear in it.
  return mapShard(P, Tid, *Mine, Got[2], /*FreshTable=*/true, Why) && Ok;
}

const int AgentSignals[TSCC_AGENT_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE};

uint64_t chainedSlot(const AgentState &A, unsigned I) {
  return A.Config + offsetof(tscc_agent_config, chained) +
         I * sizeof(tscc_kernel_sigaction);
}

/// Runs Call, an injected rt_sigaction whose old action the kernel writes
/// into one of the agent's chained slots, with chained_seq odd meanwhile:
/// a fault in another thread then waits for the whole disposition instead
/// of reading half of it (Agent/signal.c). The agent's own writers hold
/// chained_writer; tsrun writes only where the agent has no sigaction
/// gate, so the two never write at once.
template <typename CallFn>
bool writingDisposition(PtraceProcess &Acc, const AgentState &A, CallFn Call) {
  const uint64_t SeqAt = A.Config + offsetof(tscc_agent_config, chained_seq);
  uint32_t Seq = 0;
  if (!Acc.readMemory(SeqAt, &Seq, sizeof(Seq)))
    return Call();
  uint32_t Odd = Seq | 1u, Even = Odd + 1u;
  bool Marked = Acc.writeMemory(SeqAt, &Odd, sizeof(Odd));
  bool Ok = Call();
  if (Marked)
    Acc.writeMemory(SeqAt, &Even, sizeof(Even));
  return Ok;
}

std::array<uint8_t, 32> agentAction(DataModel DM, const AgentState &A) {
  // SA_ONSTACK: a program that handles stack overflows on an alternate
  // stack keeps doing so through us. SA_NODEFER: a fault in a chained
  // handler is not a fault with the signal blocked (which kills).
  return agentAbi(DM).sigaction(A.Signal,
                                SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
                                    0x04000000 /*SA_RESTORER*/,
                                A.Restorer);
}

/// Installs the agent's handler for the signals it recovers faults of,
/// keeping what the program had in the config for chaining.
bool installHandlers(ip::ProcessAccess &Acc, const AgentState &A,
                     uint64_t Scratch, std::string &Why) {
  std::array<uint8_t, 32> Act = agentAction(Acc.dataModel(), A);
  if (!Acc.writeMemory(Scratch, Act.data(), Act.size())) {
    Why = "cannot write to the target";
    return false;
  }
  for (unsigned I = 0; I < TSCC_AGENT_SIGNALS; ++I) {
    uint64_t R = 0;
    if (!ip::callChecked(Acc, agentAbi(Acc.dataModel()).NrRtSigaction,
                         {static_cast<uint64_t>(AgentSignals[I]), Scratch,
                          chainedSlot(A, I), 8},
                         R, Why, "sigaction"))
      return false;
  }
  return true;
}

uint64_t symbol(const RelocatedImage &Img, const char *Name) {
  auto It = Img.Symbols.find(Name);
  return It == Img.Symbols.end() ? 0 : It->second;
}

/// The config and the blob of tables it points into.
bool writeConfig(ip::ProcessAccess &Acc, Target &P, AgentState &A,
                 AgentFactory &F, const RelocatedImage &Code,
                 const AgentTargetFacts &Facts, std::string &Why) {
  const ProbeProgram &Prog = F.session().program();
  SharedStore &Store = *F.session().storeFor(P);
  Blob B(A.DataBase + DataScratch);
  uint64_t Tables = B.add(Store.tables().data(),
                          Store.tables().size() * sizeof(tscc_table_layout));
  bool Is64 = P.dataModel() == DataModel::LP64;
  auto Text = Code.Sections.find(agentAbi(P.dataModel()).TextSection);
  if (Text == Code.Sections.end()) {
    Why = std::string("the probe object has no ") +
          (Is64 ? "LP64 code" : "i386 code");
    return false;
  }
  // A 32-bit process runs the i386 stream (abi.h, tscc_streams), whose
  // image has no tables: the probe specs are copied into the data area.
  const ProbeProgram::CodeStream *I386 =
      Is64 ? nullptr : Prog.codeStream(EM_386, DataModel::ILP32);
  auto Strtab = Code.Sections.find(TSCC_SEC_STRTAB);
  if ((Is64 && Strtab == Code.Sections.end()) || (!Is64 && !I386)) {
    Why = "the probe object's tables are incomplete";
    return false;
  }
  std::vector<tscc_agent_clause> Clauses;
  for (uint32_t I = 0; I < Prog.clauses().size(); ++I) {
    const tscc_stream_entry &E =
        I386 ? I386->Entries[I] : Prog.clauses()[I].stream[TSCC_DM_LP64];
    tscc_agent_clause K{};
    if (E.pred_offset != TSCC_NO_CODE && E.pred_size)
      K.pred = Text->second.first + E.pred_offset;
    if (E.action_offset != TSCC_NO_CODE && E.action_size)
      K.action = Text->second.first + E.action_offset;
    // Aggregation updates of the second kind go to the thread's own part
    // (tscc_agg_update_thread), which needs no lock either.
    if (Prog.clauses()[I].flags &
        (TSCC_CLAUSE_THREAD_OWN | TSCC_CLAUSE_THREAD_OWN_AGGS))
      K.flags |= TSCC_AGENT_CLAUSE_UNLOCKED;
    // The context a hit builds for it: what its code reads.
    uint32_t Ctx = Prog.clauses()[I].flags;
    if (Ctx & TSCC_CLAUSE_CTX_LISTED)
      K.ctx = Ctx & (TSCC_CLAUSE_CTX_LISTED | TSCC_CLAUSE_CTX_REGS |
                     TSCC_CLAUSE_CTX_IDS | TSCC_CLAUSE_CTX_NAMES |
                     TSCC_CLAUSE_CTX_PARAMS | TSCC_CLAUSE_CTX_SYSCALL |
                     TSCC_CLAUSE_CTX_USDT);
    // A stack key is walked from the registers (objects before this
    // runtime did not say so).
    if ((Ctx & TSCC_CLAUSE_CTX_LISTED) && (Ctx & TSCC_CLAUSE_CALLS_STACK_ID))
      K.ctx |= TSCC_CLAUSE_CTX_REGS;
    Clauses.push_back(K);
  }
  std::vector<uint32_t> ProbeClause;
  std::vector<uint64_t> Specs;
  for (const tscc_probe &Pr : Prog.probes()) {
    ProbeClause.push_back(Pr.clause);
    Specs.push_back(Is64 ? Strtab->second.first + Pr.spec
                         : B.addString(Prog.string(Pr.spec)));
  }
  std::vector<uint64_t> ParamStrings;
  for (const std::string &S : F.session().options().Params)
    ParamStrings.push_back(B.addString(S));
  A.SiteTable = B.reserve(uint64_t(SiteCapacity) * 8, 8);
  A.SiteCapacity = SiteCapacity;
  A.SiteCount = 0;
  const std::vector<int64_t> &Params = F.session().paramValues();

  tscc_agent_config C{};
  C.magic = TSCC_AGENT_MAGIC;
  C.version = TSCC_AGENT_VERSION;
  C.size = sizeof(C);
  C.store = *Store.view();
  C.store.base = reinterpret_cast<uint8_t *>(A.StoreBase);
  C.store.tables = reinterpret_cast<const tscc_table_layout *>(Tables);
  C.store.control = reinterpret_cast<const tscc_control *>(A.ControlBase);
  if (Shard *Mine = F.session().shard(P))
    putShardConfig(C, shardConfig(A, *Mine));
  else
    C.shard_fd = -1;
  C.target_id = A.TargetId;
  // rdfsbase is a 64-bit instruction; the i386 agent reads %gs:0.
  C.has_fsgsbase = Is64 && (Facts.HwCap2 & 2);
  C.pid = P.pid();
  C.ppid = P.ppid();
  C.uid = P.uid();
  C.pname = B.addString(P.name());
  C.clauses = B.add(Clauses.data(), Clauses.size() * sizeof(Clauses[0]));
  C.probe_clause = B.add(ProbeClause.data(), ProbeClause.size() * 4);
  C.probe_specs = B.add(Specs.data(), Specs.size() * 8);
  C.clause_count = static_cast<uint32_t>(Clauses.size());
  C.probe_count = static_cast<uint32_t>(ProbeClause.size());
  C.params = B.add(Params.data(), Params.size() * 8);
  C.param_strings = B.add(ParamStrings.data(), ParamStrings.size() * 8);
  C.param_count = static_cast<uint32_t>(Params.size());
  C.format_count = static_cast<uint32_t>(Prog.formats().size());
  C.vdso_clock_gettime = Facts.VdsoClockGettime;
  C.code_lo = A.CodeBase;
  C.code_hi = A.CodeBase + A.CodeSize;
  C.agent_lo = A.AgentBase;
  C.agent_hi = A.AgentBase + A.AgentSize;
  C.lock_timeout_ns = AgentLockTimeoutNs;
  C.reader_pid = getpid();
  C.thread_capacity = A.ThreadCapacity;
  C.threads = A.ThreadsBase;
  C.pool = A.PoolBase;
  C.pool_chunks = static_cast<uint32_t>(A.PoolSize / sizeof(tscc_agent_chunk));
  C.sites = A.SiteTable;
  C.site_capacity = A.SiteCapacity;
  if (B.bytes().size() > DataSize - DataScratch) {
    Why = "the script's tables do not fit the agent's data area";
    return false;
  }
  // The data area is fresh: the site table, reserved, stays unwritten.
  if (!ip::writeIntoFreshMemory(Acc, A.DataBase + DataScratch, B.bytes()) ||
      !Acc.writeMemory(A.Config, &C, sizeof(C))) {
    Why = "cannot write the agent's configuration";
    return false;
  }
  return true;
}

/// A tsrun that was killed may have left an agent behind that has not put
/// its sites back yet (no hit since). It is found through the SIGSEGV
/// handler it installed, recognised by its config's magic, and its sites
/// are put back now, before any new one is placed; it is marked healed, so
/// that it never rewrites code again. It stays chained behind the new agent
/// (returns through its trampoline still need it). Returns the sites put
/// back.
unsigned adoptOrphan(PtraceProcess &P, pid_t Tid, const RelocatedImage &Ours) {
  const AgentState &A = P.Agent;
  uint64_t R = 0;
  std::string Why;
  std::array<uint8_t, 32> Cur{};
  if (!injectSyscall(P, Tid, abiOf(P).NrRtSigaction,
                     {SIGSEGV, 0, A.DataBase, 8}, R, Why) ||
      R != 0 || !P.readMemory(A.DataBase, Cur.data(), Cur.size()))
    return 0;
  uint64_t Handler = abiOf(P).sigactionHandler(Cur);
  // In a 32-bit process our healer has just put itself in front of SIGSEGV
  // too: the old agent is behind it.
  if (std::optional<uint64_t> Behind = healerReplacedHandler(P, Handler))
    Handler = *Behind;
  if (Handler < A.Signal - A.AgentBase)
    return 0;
  // The same agent object, so the same layout relative to its handler.
  uint64_t OldBase = Handler - (A.Signal - A.AgentBase);
  uint64_t OldConfig = OldBase + (A.Config - A.AgentBase);
  uint64_t OldProc = OldBase + (A.Proc - A.AgentBase);
  tscc_agent_config C{};
  tscc_agent_proc Proc{};
  if (OldBase == A.AgentBase || !P.read(OldConfig, C) ||
      C.magic != TSCC_AGENT_MAGIC || C.version != TSCC_AGENT_VERSION ||
      C.size != sizeof(C) || !P.read(OldProc, Proc) || Proc.healed)
    return 0;
  (void)Ours;
  Proc.armed = 0;
  Proc.healing = Proc.healed = 1;
  P.writeMemory(OldProc, &Proc, sizeof(Proc));
  unsigned Restored = 0;
  uint32_t N = std::min(C.site_count, C.site_capacity);
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t Tramp = 0;
    tscc_agent_site Site{};
    uint8_t Now[5];
    if (!P.read(C.sites + uint64_t(I) * 8, Tramp) || !P.read(Tramp, Site) ||
        Site.length < 5 || Site.length > sizeof(Site.original) ||
        !P.readMemory(Site.address, Now, 5))
      continue;
    // Only where its jump is still there.
    int32_t Rel;
    memcpy(&Rel, Now + 1, 4);
    // (In a 32-bit process the jump wraps around at 4 GiB.)
    uint64_t Mask = P.dataModel() == DataModel::LP64 ? ~0ull : 0xffffffffull;
    if (Now[0] != 0xe9 || ((Site.address + 5 + static_cast<int64_t>(Rel)) &
                           Mask) != Tramp + TSCC_TRAMPOLINE_CODE)
      continue;
    if (P.writeMemory(Site.address, Site.original, Site.length))
      ++Restored;
  }
  return Restored;
}

/// Gives the process its own epoch and arms it.
bool arm(ip::ProcessAccess &Acc, const AgentState &A, AgentFactory &F,
         bool MayHeal) {
  uint32_t Epoch = F.nextEpoch();
  tscc_agent_proc Proc{};
  Proc.armed = 1;
  Proc.epoch = Epoch;
  // Healing taken already: a sandbox that forbids rewriting code leaves
  // the agent only disarming itself if tsrun dies (PathPlan.h).
  Proc.healing = MayHeal ? 0 : 1;
  return Acc.writeMemory(A.Proc, &Proc, sizeof(Proc));
}

bool arm(PtraceProcess &P, AgentFactory &F) {
  PtraceAccess Acc(P, P.Pid);
  return arm(Acc, P.Agent, F, P.AgentMayHeal);
}

} // namespace

//===----------------------------------------------------------------------===//
// The pieces AgentBatch.cpp puts together (AgentSetup.h)
//===----------------------------------------------------------------------===//

uint64_t setup::dataSize() { return DataSize; }
uint64_t setup::dataScratch() { return DataScratch; }
std::span<const uint64_t> setup::poolSizes() { return PoolBytes; }
uint32_t setup::threadCapacity(AgentFactory &F) {
  return agentThreadCapacity(*F.session().store());
}

AgentTargetFacts setup::targetFacts(PtraceProcess &P) {
  std::map<uint64_t, uint64_t> Aux =
      readProcessAuxv(P.Pid, P.dataModel() == DataModel::LP64 ? 8 : 4);
  AgentTargetFacts Facts;
  if (auto Cap2 = Aux.find(AT_HWCAP2); Cap2 != Aux.end())
    Facts.HwCap2 = Cap2->second;
  Facts.VdsoClockGettime = vdsoClockGettime(P, Aux);
  return Facts;
}

bool setup::writeConfig(ip::ProcessAccess &Acc, Target &T, AgentState &A,
                        AgentFactory &F, const RelocatedImage &Code,
                        const AgentTargetFacts &Facts, std::string &Why) {
  return ::writeConfig(Acc, T, A, F, Code, Facts, Why);
}

std::span<const int> setup::agentSignals() { return AgentSignals; }
std::array<uint8_t, 32> setup::handlerAction(DataModel DM,
                                             const AgentState &A) {
  return agentAction(DM, A);
}
uint64_t setup::chainedSlot(const AgentState &A, unsigned I) {
  return ::chainedSlot(A, I);
}
bool setup::arm(ip::ProcessAccess &Acc, const AgentState &A, AgentFactory &F,
                bool MayHeal) {
  return ::arm(Acc, A, F, MayHeal);
}

//===----------------------------------------------------------------------===//
// AgentFactory
//===----------------------------------------------------------------------===//

AgentFactory::AgentFactory(Session &S) : S(S) {
  if (!S.store() || !S.control())
    Unavailable = "the session has no shared store";
  else if (S.program().objectBytes().empty())
    Unavailable = "the probe object is linked into the tracer";
}

AgentFactory::~AgentFactory() {
  if (ListenFd >= 0)
    close(ListenFd);
}

ControlPage &AgentFactory::control() { return *S.control(); }

std::span<const uint8_t> AgentFactory::programObject() const {
  return S.program().objectBytes();
}

bool AgentFactory::listen(std::string &Error) {
  if (ListenFd >= 0)
    return true;
  int Fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (Fd < 0) {
    Error = std::string("socket: ") + strerror(errno);
    return false;
  }
  std::random_device Rd;
  char Name[64];
  int N = snprintf(Name, sizeof(Name), "tscc-store-%d-%08x%08x", getpid(), Rd(),
                   Rd());
  SocketName = std::string(1, '\0') + std::string(Name, N);
  sockaddr_un Addr{};
  Addr.sun_family = AF_UNIX;
  memcpy(Addr.sun_path, SocketName.data(), SocketName.size());
  socklen_t Len = offsetof(sockaddr_un, sun_path) + SocketName.size();
  if (bind(Fd, reinterpret_cast<sockaddr *>(&Addr), Len) != 0 ||
      ::listen(Fd, 16) != 0) {
    Error = std::string("cannot listen for targets: ") + strerror(errno);
    close(Fd);
    return false;
  }
  ListenFd = Fd;
  return true;
}

bool AgentFactory::answerBatch(pid_t Pid, std::span<const int> Fds,
                               unsigned &Waited, std::string &Error) {
  pollfd PF{ListenFd, POLLIN, 0};
  if (poll(&PF, 1, 10) == 1) {
    sendFds(Pid, Fds, Error);
    return true;
  }
  Waited += 10;
  if (Waited < 1000)
    return false;
  Error = "the target did not connect for the store";
  return true;
}

bool AgentFactory::sendFds(pid_t Pid, std::span<const int> Fds,
                           std::string &Error) {
  // The connection is queued already (the target's connect() returned), so
  // this does not wait; the poll only guards against a lost one.
  pollfd PF{ListenFd, POLLIN, 0};
  if (poll(&PF, 1, 1000) != 1) {
    Error = "the target did not connect for the store";
    return false;
  }
  int Conn = accept4(ListenFd, nullptr, nullptr, SOCK_CLOEXEC);
  if (Conn < 0) {
    Error = std::string("accept: ") + strerror(errno);
    return false;
  }
  ucred Cred{};
  socklen_t CredLen = sizeof(Cred);
  // Only the process being set up gets the store, not whoever guessed the
  // socket's name.
  if (getsockopt(Conn, SOL_SOCKET, SO_PEERCRED, &Cred, &CredLen) != 0 ||
      Cred.pid != Pid) {
    close(Conn);
    Error = "an unexpected process connected for the store";
    return false;
  }
  char Byte = 's';
  iovec V{&Byte, 1};
  alignas(cmsghdr) char Control[CMSG_SPACE(MaxFds * sizeof(int))] = {};
  if (Fds.size() > MaxFds) {
    close(Conn);
    Error = "too many descriptors for a target";
    return false;
  }
  msghdr M{};
  M.msg_iov = &V;
  M.msg_iovlen = 1;
  M.msg_control = Control;
  M.msg_controllen = CMSG_SPACE(Fds.size() * sizeof(int));
  cmsghdr *C = CMSG_FIRSTHDR(&M);
  C->cmsg_level = SOL_SOCKET;
  C->cmsg_type = SCM_RIGHTS;
  C->cmsg_len = CMSG_LEN(Fds.size() * sizeof(int));
  memcpy(CMSG_DATA(C), Fds.data(), Fds.size() * sizeof(int));
  bool Ok = sendmsg(Conn, &M, MSG_NOSIGNAL) == 1;
  if (!Ok)
    Error = std::string("sending the store: ") + strerror(errno);
  close(Conn);
  return Ok;
}

//===----------------------------------------------------------------------===//
// Installation
//===----------------------------------------------------------------------===//

bool setup::objectsFor(Target &T, AgentFactory &F,
                       std::span<const uint8_t> &Agent,
                       std::span<const uint8_t> &Code, std::string &Why) {
  if (!F.unavailable().empty()) {
    Why = F.unavailable();
    return false;
  }
  // A 32-bit process runs the object's i386 stream.
  const ProbeProgram &Prog = F.session().program();
  const ProbeProgram::CodeStream *I386 =
      Prog.codeStream(EM_386, DataModel::ILP32);
  if (T.dataModel() == DataModel::ILP32 && !I386) {
    Why = "a 32-bit process, and the probe object has no i386 code (it "
          "predates ABI 1.5 or was compiled with --no-i386-stream)";
    return false;
  }
  Agent = agentAbi(T.dataModel()).AgentObject;
  Code = T.dataModel() == DataModel::LP64
             ? F.programObject()
             : std::span<const uint8_t>(I386->Image);
  return true;
}

bool setup::takeAgentSymbols(AgentState &A, const RelocatedImage &AgentImg,
                             std::string &Why) {
  A.Config = symbol(AgentImg, TSCC_AGENT_SYM_CONFIG);
  A.Proc = symbol(AgentImg, TSCC_AGENT_SYM_PROC);
  A.Enter = symbol(AgentImg, TSCC_AGENT_SYM_ENTER);
  A.Return = symbol(AgentImg, TSCC_AGENT_SYM_RETURN);
  A.Signal = symbol(AgentImg, TSCC_AGENT_SYM_SIGNAL);
  A.Restorer = symbol(AgentImg, TSCC_AGENT_SYM_RESTORER);
  A.EnterSyscall = symbol(AgentImg, TSCC_AGENT_SYM_ENTER_SYSCALL);
  A.Trap = symbol(AgentImg, TSCC_AGENT_SYM_TRAP);
  A.Sigsys = symbol(AgentImg, TSCC_AGENT_SYM_SIGSYS); // x86-64 only
  A.SafeBegin = symbol(AgentImg, TSCC_AGENT_SYM_SAFE_BEGIN);
  A.SafeEnd = symbol(AgentImg, TSCC_AGENT_SYM_SAFE_END);
  A.SafeFault = symbol(AgentImg, TSCC_AGENT_SYM_SAFE_FAULT);
  A.TrapHandler = false;
  if (!A.Config || !A.Proc || !A.Enter || !A.Return || !A.Signal ||
      !A.Restorer || !A.Trap || (A.Proc & 4095)) {
    Why = "the agent object is incomplete";
    return false;
  }
  return true;
}

SymbolResolver setup::codeResolver(DataModel DM,
                                   const RelocatedImage &AgentImg) {
  // The probe object's memcpy & co. are the agent's: libc may not be
  // there yet, and may be what is being probed.
  const AgentAbi &Abi = agentAbi(DM);
  return [&AgentImg, &Abi](std::string_view Name) -> std::optional<uint64_t> {
    if (!Abi.providesForClauses(Name))
      return std::nullopt;
    uint64_t A = symbol(AgentImg, std::string(Name).c_str());
    return A ? std::optional<uint64_t>(A) : std::nullopt;
  };
}

bool tscc::rt::pt::placeAgentImages(ip::ProcessAccess &Acc, Target &T,
                                    AgentState &A, AgentFactory &F,
                                    RelocatedImage &AgentImg,
                                    RelocatedImage &Code, std::string &Why) {
  std::span<const uint8_t> AgentObj, CodeObj;
  if (!setup::objectsFor(T, F, AgentObj, CodeObj, Why))
    return false;
  A.TargetId = F.session().targetId(T);
  SymbolResolver None = [](std::string_view) { return std::nullopt; };
  if (!ip::placeImage(Acc, AgentObj, None, AgentImg, A.AgentBase, A.AgentSize,
                      Why) ||
      !setup::takeAgentSymbols(A, AgentImg, Why))
    return false;
  if (!ip::placeImage(Acc, CodeObj,
                      setup::codeResolver(T.dataModel(), AgentImg), Code,
                      A.CodeBase, A.CodeSize, Why))
    return false;
  if (!mapThreads(Acc, A, F, Why))
    return false;
  A.DataSize = DataSize;
  A.DataBase = ip::mapAnonymous(Acc, A.DataSize, PROT_READ | PROT_WRITE, Why);
  return A.DataBase != 0;
}

bool tscc::rt::pt::configureAgent(ip::ProcessAccess &Acc, Target &T,
                                  AgentState &A, AgentFactory &F,
                                  const RelocatedImage &Code,
                                  const AgentTargetFacts &Facts, bool MayHeal,
                                  std::string &Why) {
  if (!writeConfig(Acc, T, A, F, Code, Facts, Why) ||
      !installHandlers(Acc, A, A.DataBase, Why))
    return false;
  uint64_t R = 0;
  if (!ip::callChecked(Acc, agentAbi(T.dataModel()).NrMadvise,
                       {A.Proc, 4096, MADV_WIPEONFORK}, R, Why,
                       "madvise(MADV_WIPEONFORK)"))
    return false;
  if (!arm(Acc, A, F, MayHeal)) {
    Why = "cannot arm the agent";
    return false;
  }
  A.Installed = true;
  return true;
}

bool tscc::rt::pt::installAgent(PtraceProcess &P, pid_t Tid, AgentFactory &F,
                                std::string &Why) {
  P.Agent = AgentState{};
  if (!samePidNamespace(P.Pid)) {
    Why = "the process is in another PID namespace";
    return false;
  }
  if (P.FreshImage) {
    bool Tried = false;
    std::string NotBatched;
    bool Ok = setup::installAgentBatched(P, Tid, F, Tried, NotBatched);
    if (Tried) {
      Why = NotBatched;
      return Ok;
    }
    F.session().note("pid " + std::to_string(P.Pid) +
                     ": the agent is set up call by call: " + NotBatched);
    P.Agent = AgentState{};
  }
  AgentState &A = P.Agent;
  PtraceAccess Acc(P, Tid);
  RelocatedImage AgentImg, Code;
  if (!placeAgentImages(Acc, P, A, F, AgentImg, Code, Why))
    return false;
  if (unsigned Old = P.FreshImage ? 0 : adoptOrphan(P, Tid, AgentImg))
    F.session().warn("pid " + std::to_string(P.Pid) + ": put back " +
                     std::to_string(Old) + " probe site" +
                     (Old == 1 ? "" : "s") +
                     " left behind by a tsrun that was killed");
  if (!mapStore(P, Tid, F, A.DataBase, A, Why))
    return false;
  AgentTargetFacts Facts = setup::targetFacts(P);
  if (!configureAgent(Acc, P, A, F, Code, Facts, P.AgentMayHeal, Why))
    return false;
  // Threads made before tsrun came without a TLS of their own share an fs
  // base with another: the agent tells them apart by their ids.
  if (!threadsHaveOwnFsBase(P) && !agentTellsThreadsById(P, Why))
    F.session().warn("pid " + std::to_string(P.Pid) + ": " + Why);
  return true;
}

bool tscc::rt::pt::rearmAgent(PtraceProcess &Child, const PtraceProcess &Parent,
                              pid_t ForkingTid, AgentFactory &F,
                              std::string &Why) {
  if (!Child.Agent.Installed)
    return true;
  // A new process for the store: its records and threads are its own. Its
  // memory is its own too, shared with nobody.
  Child.Agent.TargetId = F.session().targetId(Child);
  Child.Agent.Sharers.reset();
  uint64_t Config = Child.Agent.Config;
  uint32_t Id = Child.Agent.TargetId;
  int64_t Ids[3] = {Child.Pid, Child.PPid, Child.Uid};
  uint32_t NotShared = 0;
  if (!Child.writeMemory(Config + offsetof(tscc_agent_config, target_id), &Id,
                         sizeof(Id)) ||
      !Child.writeMemory(Config + offsetof(tscc_agent_config, pid), Ids,
                         sizeof(Ids)) ||
      !Child.writeMemory(Config + offsetof(tscc_agent_config, shared_mm),
                         &NotShared, sizeof(NotShared))) {
    Why = "cannot re-arm the agent in the child";
    return false;
  }
  // The forking thread goes on in the child: its hijacked returns are on
  // the child's stack too.
  handForkingThread(Child, Parent, ForkingTid);
  // It did not inherit its parent's shard (MADV_DONTFORK); it is armed
  // once it has one of its own (finishChildAgent, at its first stop).
  Child.Agent.ShardBase = Child.Agent.ShardSize = 0;
  Child.Agent.ShardPending = true;
  return true;
}

bool tscc::rt::pt::finishChildAgent(PtraceProcess &Child, pid_t Tid,
                                    AgentFactory &F, std::string &Why) {
  AgentState &A = Child.Agent;
  if (!A.ShardPending)
    return true;
  A.ShardPending = false;
  Shard *Mine = F.session().shard(Child);
  if (!Mine) {
    Why = "no shared memory for the process";
    return false;
  }
  bool Tried = false;
  std::string NotBatched;
  if (!setup::finishChildBatched(Child, Tid, F, *Mine, Tried, NotBatched)) {
    // A batch that failed (the socket, in a network namespace of the
    // child's own) has closed its parent's descriptor: the calls one by
    // one, with their fallback through /proc, do the rest.
    if (Tried)
      A.ShardFd = -1;
    F.session().note("pid " + std::to_string(Child.Pid) +
                     ": its shard is mapped call by call: " + NotBatched);
    int Send = Mine->fd(), Got = -1;
    std::string SocketWhy;
    if (!passFds(Child, Tid, F, A.DataBase, &Send, &Got, 1, SocketWhy) &&
        !openTsrunFd(Child, Tid, A.DataBase, Send, Got, Why)) {
      Why = SocketWhy + "; " + Why;
      return false;
    }
    if (!mapShard(Child, Tid, *Mine, Got, /*FreshTable=*/false, Why))
      return false;
  }
  // Its own shard, and its own descriptor of it, in its copy of the
  // parent's configuration.
  tscc_agent_config C{};
  if (!Child.readMemory(A.Config, &C, sizeof(C))) {
    Why = "cannot read the agent's configuration in the child";
    return false;
  }
  putShardConfig(C, shardConfig(A, *Mine));
  if (!Child.writeMemory(A.Config, &C, sizeof(C)) || !arm(Child, F)) {
    Why = "cannot arm the agent in the child";
    return false;
  }
  return true;
}

bool tscc::rt::pt::letForksFollow(PtraceProcess &P, pid_t Tid,
                                  std::string &Why) {
  AgentState &A = P.Agent;
  // A sandbox that forbids rewriting code lets the agent only disarm
  // itself should tsrun die: a child could not heal its sites either.
  if (!P.AgentMayHeal || !A.ShardBase) {
    Why = "its agent may not put sites back by itself";
    return false;
  }
  uint64_t R = 0;
  uint32_t One = 1;
  if (!call(P, Tid, abiOf(P).NrMadvise, {A.ShardBase, A.ShardSize, MADV_DOFORK},
            R, Why, "madvise(MADV_DOFORK)"))
    return false;
  if (P.writeMemory(A.Config + offsetof(tscc_agent_config, follow_forks), &One,
                    sizeof(One)))
    return true;
  Why = "cannot tell the agent to follow forks";
  return false;
}

namespace {

/// rt_sigaction(SIGTRAP) in the target: the agent's trap handler in front,
/// what was there kept in the config for chaining.
/// The agent's SIGTRAP handler, as rt_sigaction takes it.
std::array<uint8_t, 32> trapAction(const PtraceProcess &P) {
  return abiOf(P).sigaction(P.Agent.Trap,
                            SA_SIGINFO | SA_ONSTACK | SA_NODEFER |
                                0x04000000 /*SA_RESTORER*/,
                            P.Agent.Restorer);
}

bool putTrapHandlerInFront(PtraceProcess &P, pid_t Tid, std::string &Why) {
  const AgentState &A = P.Agent;
  std::array<uint8_t, 32> Act = trapAction(P);
  uint64_t R = 0;
  return P.writeMemory(A.DataBase, Act.data(), Act.size()) &&
         writingDisposition(P, A, [&] {
           return call(P, Tid, abiOf(P).NrRtSigaction,
                       {static_cast<uint64_t>(SIGTRAP), A.DataBase,
                        A.Config + offsetof(tscc_agent_config, chained_trap),
                        8},
                       R, Why, "sigaction(SIGTRAP)");
         });
}

} // namespace

bool tscc::rt::pt::installAgentTrapHandler(PtraceProcess &P, pid_t Tid,
                                           std::string &Why) {
  AgentState &A = P.Agent;
  if (A.TrapHandler)
    return true;
  if (!A.Installed || !putTrapHandlerInFront(P, Tid, Why))
    return false;
  uint32_t One = 1;
  if (!P.writeMemory(A.Config + offsetof(tscc_agent_config, trap_handler), &One,
                     sizeof(One))) {
    Why = "cannot write to the target";
    return false;
  }
  A.TrapHandler = true;
  return true;
}

bool tscc::rt::pt::reinstallAgentHandler(PtraceProcess &P, pid_t Tid, int Sig,
                                         std::string &Why) {
  const AgentState &A = P.Agent;
  if (!A.Installed)
    return true;
  if (Sig == SIGTRAP)
    return !A.TrapHandler || putTrapHandlerInFront(P, Tid, Why);
  for (unsigned I = 0; I < TSCC_AGENT_SIGNALS; ++I) {
    if (AgentSignals[I] != Sig)
      continue;
    std::array<uint8_t, 32> Act = agentAction(P.dataModel(), A);
    uint64_t R = 0;
    // What the program has just set is what faults that are not ours go
    // to from now on; then the agent's handler goes back in front.
    return P.writeMemory(A.DataBase, Act.data(), Act.size()) &&
           writingDisposition(P, A, [&] {
             return call(
                 P, Tid, abiOf(P).NrRtSigaction,
                 {static_cast<uint64_t>(Sig), A.DataBase, chainedSlot(A, I), 8},
                 R, Why, "sigaction");
           });
  }
  return true;
}

namespace {

/// Whether P has a handler for Sig (SigCgt of /proc/PID/status).
bool catches(pid_t Pid, int Sig) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("SigCgt:", 0) == 0)
      return (strtoull(Line.c_str() + 7, nullptr, 16) >> (Sig - 1)) & 1;
  return true; // cannot tell: leave it
}

} // namespace

bool tscc::rt::pt::repairForcedSignal(PtraceProcess &P, pid_t Tid, int Sig,
                                      bool Reblock, std::string &Why) {
  const AgentState &A = P.Agent;
  if (!A.Installed || catches(P.Pid, Sig))
    return true;
  std::array<uint8_t, 32> Act =
      Sig == SIGTRAP ? trapAction(P) : agentAction(P.dataModel(), A);
  uint64_t R = 0;
  if (!P.writeMemory(A.DataBase, Act.data(), Act.size()) ||
      !call(P, Tid, abiOf(P).NrRtSigaction,
            {static_cast<uint64_t>(Sig), A.DataBase, 0, 8}, R, Why,
            "sigaction"))
    return false;
  uint64_t Mask = 0;
  if (Reblock && ptrace(PTRACE_GETSIGMASK, Tid, sizeof(Mask), &Mask) == 0) {
    Mask |= 1ull << (Sig - 1);
    ptrace(PTRACE_SETSIGMASK, Tid, sizeof(Mask), &Mask);
  }
  return true;
}

bool tscc::rt::pt::reclaimAgentHandlers(PtraceProcess &P, pid_t Tid,
                                        std::string &Why) {
  const AgentState &A = P.Agent;
  if (!A.Installed)
    return true;
  const AgentAbi &Abi = abiOf(P);
  uint64_t Ours = Abi.sigactionHandler(agentAction(P.dataModel(), A));
  for (int Sig : AgentSignals) {
    uint64_t R = 0;
    std::array<uint8_t, 32> Cur{};
    if (!call(P, Tid, Abi.NrRtSigaction,
              {static_cast<uint64_t>(Sig), 0, A.DataBase, 8}, R, Why,
              "sigaction") ||
        !P.readMemory(A.DataBase, Cur.data(), Cur.size()))
      return false;
    if (Abi.sigactionHandler(Cur) != Ours &&
        !reinstallAgentHandler(P, Tid, Sig, Why))
      return false;
  }
  return true;
}

bool tscc::rt::pt::finishClauseBeforeStop(PtraceProcess &P, pid_t Tid,
                                          AgentFactory &F) {
  if (!P.Agent.Installed || !F.unavailable().empty())
    return false;
  SharedStore *Ours = F.session().storeFor(P);
  if (!Ours)
    return false;
  tscc_store_header &H = Ours->header();
  // A claim to be next is given up: nobody waits for a stopped thread.
  uint32_t Claim = static_cast<uint32_t>(Tid);
  __atomic_compare_exchange_n(&H.starving, &Claim, 0, 0, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  // Stopped, it cannot let go of the lock until we look again.
  if (__atomic_load_n(&H.lock, __ATOMIC_ACQUIRE) != static_cast<uint32_t>(Tid))
    return false;
  uint32_t Who = static_cast<uint32_t>(Tid);
  if (!P.writeMemory(P.Agent.Proc +
                         offsetof(tscc_agent_proc, stop_after_unlock),
                     &Who, sizeof(Who)))
    return false;
  return true;
}

void tscc::rt::pt::disarmAgent(PtraceProcess &P) {
  if (!P.Agent.Installed)
    return;
  uint32_t Zero = 0;
  P.writeMemory(P.Agent.Proc + offsetof(tscc_agent_proc, armed), &Zero,
                sizeof(Zero));
}

std::optional<uint64_t> tscc::rt::pt::orphanAgentChainedSegv(PtraceProcess &P,
                                                             uint64_t Handler) {
  // Where the agent's symbols are relative to its start: relocated once at
  // an arbitrary address (the layout does not depend on it).
  const AgentAbi &Abi = abiOf(P);
  RelocatedImage Img;
  std::string Why;
  SymbolResolver None = [](std::string_view) { return std::nullopt; };
  constexpr uint64_t At = 0x10000000;
  if (!relocateImage(Abi.AgentObject, At, None, Img, Why))
    return std::nullopt;
  uint64_t SignalOff = symbol(Img, TSCC_AGENT_SYM_SIGNAL) - At;
  uint64_t ConfigOff = symbol(Img, TSCC_AGENT_SYM_CONFIG) - At;
  if (Handler < SignalOff)
    return std::nullopt;
  tscc_agent_config C{};
  if (!P.read(Handler - SignalOff + ConfigOff, C) ||
      C.magic != TSCC_AGENT_MAGIC || C.version != TSCC_AGENT_VERSION ||
      C.size != sizeof(C))
    return std::nullopt;
  std::array<uint8_t, 32> Chained;
  memcpy(Chained.data(), &C.chained[TSCC_AGENT_SIGSEGV], Chained.size());
  return Abi.sigactionHandler(Chained);
}

const JumpSite *tscc::rt::pt::jumpSiteCovering(const PtraceProcess &P,
                                               uint64_t Addr) {
  auto It = P.Agent.Sites.upper_bound(Addr);
  if (It == P.Agent.Sites.begin())
    return nullptr;
  --It;
  const JumpSite &J = It->second;
  return Addr > J.Addr && Addr < J.Addr + J.Length ? &J : nullptr;
}
