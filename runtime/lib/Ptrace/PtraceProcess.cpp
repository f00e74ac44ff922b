//===- PtraceProcess.cpp - Target side of a traced native process ---------===//
#include "PtraceProcess.h"
#include "ExecCost.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

PtraceProcess::PtraceProcess(pid_t Pid, bool Launched)
    : Pid(Pid), Launched(Launched), Seccomp(Pid) {}

PtraceProcess::~PtraceProcess() {
  if (MemFd >= 0)
    ::close(MemFd);
}

/// Whether the ELF file at Path is 64-bit (none: not an ELF file).
static std::optional<bool> elfClassIs64(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (Fd < 0)
    return std::nullopt;
  unsigned char Ident[EI_NIDENT] = {};
  ssize_t N = pread(Fd, Ident, sizeof(Ident), 0);
  ::close(Fd);
  if (N != static_cast<ssize_t>(sizeof(Ident)) ||
      std::memcmp(Ident, ELFMAG, SELFMAG) != 0)
    return std::nullopt;
  if (Ident[EI_CLASS] == ELFCLASS64)
    return true;
  if (Ident[EI_CLASS] == ELFCLASS32)
    return false;
  return std::nullopt;
}

static std::string readLink(const std::string &Path) {
  char Buf[PATH_MAX];
  ssize_t N = readlink(Path.c_str(), Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return {};
  return std::string(Buf, N);
}

bool PtraceProcess::refreshIdentity(std::string &Error) {
  std::string Proc = "/proc/" + std::to_string(Pid);
  ExePath = readLink(Proc + "/exe");
  // A deleted or replaced executable reads as "path (deleted)".
  static const std::string Deleted = " (deleted)";
  if (ExePath.size() > Deleted.size() &&
      ExePath.compare(ExePath.size() - Deleted.size(), Deleted.size(),
                      Deleted) == 0)
    ExePath.resize(ExePath.size() - Deleted.size());
  std::ifstream Status(Proc + "/status");
  std::string Line, Uids, Gids;
  while (std::getline(Status, Line)) {
    if (Line.rfind("PPid:", 0) == 0)
      PPid = std::strtoll(Line.c_str() + 5, nullptr, 10);
    else if (Line.rfind("Uid:", 0) == 0)
      Uid = std::strtoll(Line.c_str() + 4, nullptr, 10), Uids = Line;
    else if (Line.rfind("Gid:", 0) == 0)
      Gids = Line;
  }
  // Real, effective, saved (and fs) ids: those ptrace compares.
  TrustKey = Uids + " / " + Gids;
  // __pname: the executable's base name, like ps -o comm shows untruncated.
  size_t Slash = ExePath.rfind('/');
  PName = Slash == std::string::npos ? ExePath : ExePath.substr(Slash + 1);
  if (PName.empty()) {
    std::ifstream Comm(Proc + "/comm");
    std::getline(Comm, PName);
  }
  // The data model comes from the process's own executable, never assumed:
  // its ELF class, which is all of the file needed here (the whole file is
  // parsed, once per file, when its module is set up).
  if (std::optional<bool> Is64 = elfClassIs64(Proc + "/exe"))
    DM = *Is64 ? DataModel::LP64 : DataModel::ILP32;
  if (MemFd >= 0)
    ::close(MemFd);
  MemFd = ::open((Proc + "/mem").c_str(), O_RDWR | O_CLOEXEC);
  if (MemFd < 0) {
    Error = "cannot open " + Proc + "/mem: " + std::strerror(errno);
    return false;
  }
  return true;
}

bool PtraceProcess::readMemory(uint64_t Addr, void *Dst, size_t Len) {
  if (Len == 0)
    return true;
  if (Exited)
    return false;
  cost::countMemory(false, Len);
  iovec Local{Dst, Len};
  iovec Remote{reinterpret_cast<void *>(Addr), Len};
  ssize_t N = process_vm_readv(Pid, &Local, 1, &Remote, 1, 0);
  if (N == static_cast<ssize_t>(Len))
    return true;
  // process_vm_readv refuses pages the target cannot read itself (e.g.
  // PROT_NONE guard pages are a fault either way) and is unavailable under
  // some seccomp/LSM setups; /proc/PID/mem goes through ptrace access.
  if (MemFd < 0)
    return false;
  auto *Out = static_cast<uint8_t *>(Dst);
  size_t Done = 0;
  while (Done < Len) {
    ssize_t R = pread(MemFd, Out + Done, Len - Done, Addr + Done);
    if (R <= 0) {
      if (R < 0 && errno == EINTR)
        continue;
      return false;
    }
    Done += R;
  }
  return true;
}

bool PtraceProcess::writeMemory(uint64_t Addr, const void *Src, size_t Len) {
  if (Exited)
    return false;
  cost::countMemory(true, Len);
  // /proc/PID/mem writes the whole range in one call, but kernels built
  // without forced /proc/PID/mem access (proc_mem.force_override) refuse
  // read-only pages such as text. PTRACE_POKEDATA always may.
  if (MemFd >= 0 && pwrite(MemFd, Src, Len, Addr) == static_cast<ssize_t>(Len))
    return true;
  return pokeMemory(Addr, Src, Len);
}

bool PtraceProcess::pokeMemory(uint64_t Addr, const void *Src, size_t Len) {
  // Any stopped thread of the process will do for PEEK/POKE.
  pid_t Tid = 0;
  for (const auto &[T, Th] : Threads)
    if (Th.State == ThreadState::Stopped) {
      Tid = T;
      break;
    }
  if (!Tid)
    return false;
  auto *In = static_cast<const uint8_t *>(Src);
  constexpr uint64_t W = sizeof(long);
  uint64_t Start = Addr & ~(W - 1);
  for (uint64_t A = Start; A < Addr + Len; A += W) {
    long Word = 0;
    uint64_t Lo = A < Addr ? Addr - A : 0;
    uint64_t Hi = std::min<uint64_t>(W, Addr + Len - A);
    if (Lo != 0 || Hi != W) {
      errno = 0;
      Word = ptrace(PTRACE_PEEKDATA, Tid, reinterpret_cast<void *>(A), nullptr);
      if (errno)
        return false;
    }
    std::memcpy(reinterpret_cast<uint8_t *>(&Word) + Lo, In + (A + Lo - Addr),
                Hi - Lo);
    if (ptrace(PTRACE_POKEDATA, Tid, reinterpret_cast<void *>(A),
               reinterpret_cast<void *>(Word)) != 0)
      return false;
  }
  return true;
}

uint64_t PtraceProcess::readPointer(uint64_t Addr, bool &Ok) {
  if (pointerSize() == 8) {
    uint64_t V = 0;
    Ok = read(Addr, V);
    return V;
  }
  uint32_t V = 0;
  Ok = read(Addr, V);
  return V;
}

const Module *PtraceProcess::moduleFor(uint64_t Addr) const {
  for (const auto &M : Modules)
    if (Addr >= M->Start && Addr < M->End)
      return M.get();
  return nullptr;
}

std::string PtraceProcess::symbolize(uint64_t PC) {
  return symbolizeAddress(moduleFor(PC), PC);
}

UnwoundStack PtraceProcess::unwindStack(int64_t Tid, const uint64_t *Regs,
                                        unsigned MaxDepth) {
  auto It = Threads.find(static_cast<pid_t>(Tid));
  return unwindLive(Regs, MaxDepth,
                    It == Threads.end() ? nullptr : &It->second.Shadow);
}

UnwoundStack PtraceProcess::unwindLive(const uint64_t *Regs, unsigned MaxDepth,
                                       const std::vector<ShadowFrame> *Shadow) {
  size_t NextShadow = Shadow ? Shadow->size() : 0;
  UnwindSource Src;
  Src.Read = [this](uint64_t Addr, uint64_t &Word) {
    bool Ok = false;
    Word = readPointer(Addr, Ok);
    return Ok;
  };
  Src.ModuleAt = [this](uint64_t Addr) { return moduleFor(Addr); };
  // Breakpoint exit probes' trampoline (in the home page, or the
  // unmappable address of a process without one); the real addresses are
  // on the thread's shadow stack, innermost last.
  Src.RealReturn = [&](uint64_t PC) {
    if (PC == returnTrampoline() && NextShadow > 0)
      return (*Shadow)[--NextShadow].ReturnAddr;
    return PC;
  };
  return tscc::rt::unwindStack(Src, DM, Regs, MaxDepth);
}

UnwoundStack PtraceProcess::unwindSnapshot(const uint64_t *Regs,
                                           std::span<const uint8_t> Stack,
                                           std::span<const uint64_t> Shadow,
                                           uint64_t ReturnTrampoline,
                                           unsigned MaxDepth) {
  // Deeper than the snapshot, the stack as it is now (the frames that far
  // up are usually still the same).
  return tscc::rt::unwindSnapshot(
      {Regs, Stack, Shadow, ReturnTrampoline}, DM,
      [this](uint64_t Addr) { return moduleFor(Addr); },
      [this](uint64_t Addr, uint64_t &Word) {
        bool Ok = false;
        Word = readPointer(Addr, Ok);
        return Ok;
      },
      MaxDepth);
}

void tscc::rt::pt::regsToTscc(const user_regs_struct &R, uint64_t *Out,
                              DataModel DM) {
  Out[TSCC_REG_RAX] = R.rax;
  Out[TSCC_REG_RBX] = R.rbx;
  Out[TSCC_REG_RCX] = R.rcx;
  Out[TSCC_REG_RDX] = R.rdx;
  Out[TSCC_REG_RSI] = R.rsi;
  Out[TSCC_REG_RDI] = R.rdi;
  Out[TSCC_REG_RBP] = R.rbp;
  Out[TSCC_REG_RSP] = R.rsp;
  Out[TSCC_REG_R8] = R.r8;
  Out[TSCC_REG_R9] = R.r9;
  Out[TSCC_REG_R10] = R.r10;
  Out[TSCC_REG_R11] = R.r11;
  Out[TSCC_REG_R12] = R.r12;
  Out[TSCC_REG_R13] = R.r13;
  Out[TSCC_REG_R14] = R.r14;
  Out[TSCC_REG_R15] = R.r15;
  Out[TSCC_REG_RIP] = R.rip;
  Out[TSCC_REG_EFLAGS] = R.eflags;
  Out[TSCC_REG_ORIG_RAX] = R.orig_rax;
  if (DM == DataModel::ILP32)
    for (unsigned I = 0; I < TSCC_REG_COUNT; ++I)
      Out[I] &= 0xffffffffull;
}

void PtraceProcess::releaseExited() {
  // Assigning empty containers frees their storage (clear() keeps it).
  Breakpoints = {};
  Threads = {};
  Installed = {};
  Agent.Sites = {};
  Agent.Areas.clear();
  StubAreas.clear();
  Agent.FreeSiteSlots = {};
  Heal.ReturnEntry = {};
  Seccomp.forgetAll(); // its filters, copies of programs, can be large
  ExePath = {};
  if (MemFd >= 0) {
    ::close(MemFd);
    MemFd = -1;
  }
}
