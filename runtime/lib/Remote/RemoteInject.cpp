//===- RemoteInject.cpp - System calls and code writes through a stub -----===//
#include "RemoteInject.h"

#include "tscc/SyscallTable.h"

#include <cstring>
#include <elf.h>
#include <sys/mman.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {

constexpr uint8_t Int80Ret[] = {0xcd, 0x80, 0xc3};
/// Our page: `int $0x80` and room for the instruction qemu runs after a
/// stepped system call; the rest traps.
constexpr uint8_t OwnGadgetCode[] = {0xcd, 0x80, 0x90, 0x90, 0x90, 0xcc};

constexpr uint64_t NrMmap2 = syscallNumberOf(DataModel::ILP32, "mmap2");
constexpr uint64_t NrMprotect = syscallNumberOf(DataModel::ILP32, "mprotect");

/// Byte offsets of the i386 registers in the 'g' block (gdb's i386
/// layout, which qemu-i386's and gdbserver's target descriptions follow):
/// eax ecx edx ebx esp ebp esi edi eip, 4 bytes each.
enum : size_t {
  Eax = 0,
  Ecx = 4,
  Edx = 8,
  Ebx = 12,
  Ebp = 20,
  Esi = 24,
  Edi = 28,
  Eip = 32,
  MinBlock = 40
};

void put32(std::string &Block, size_t At, uint64_t V) {
  uint32_t W = static_cast<uint32_t>(V);
  memcpy(Block.data() + At, &W, 4);
}

uint32_t get32(const std::string &Block, size_t At) {
  uint32_t W;
  memcpy(&W, Block.data() + At, 4);
  return W;
}

/// -errno sign-extended, any other value (an address above 2 GiB)
/// zero-extended: what ProcessAccess::syscall reports.
uint64_t widen(uint32_t Eax) {
  return Eax > 0xfffff000u ? static_cast<uint64_t>(static_cast<int32_t>(Eax))
                           : Eax;
}

} // namespace

std::optional<uint64_t> tscc::rt::remote::findSyscallGadget(const ElfFile &File,
                                                            uint64_t Bias) {
  for (const ElfSegment &Seg : File.segments()) {
    if (Seg.Type != PT_LOAD || !(Seg.Flags & PF_X))
      continue;
    std::string_view Code = File.bytes(Seg.Offset, Seg.FileSize);
    size_t At = Code.find(std::string_view(
        reinterpret_cast<const char *>(Int80Ret), sizeof(Int80Ret)));
    if (At != std::string_view::npos)
      return Bias + Seg.VAddr + At;
  }
  return std::nullopt;
}

bool RemoteAccess::stepSyscall(uint64_t At, uint64_t Nr,
                               std::initializer_list<uint64_t> Args,
                               uint64_t &Result, std::string &Why) {
  std::string Saved;
  if (!C.selectThread(T) || !C.readRegisterBlock(Saved) ||
      Saved.size() < MinBlock) {
    Why = "cannot read the thread's registers through the stub";
    return false;
  }
  std::string Call = Saved;
  put32(Call, Eax, Nr);
  const size_t ArgSlots[] = {Ebx, Ecx, Edx, Esi, Edi, Ebp};
  size_t I = 0;
  for (uint64_t A : Args)
    if (I < 6)
      put32(Call, ArgSlots[I++], A);
  put32(Call, Eip, At);
  RspStop Stop;
  bool Stepped = C.writeRegisterBlock(Call) && C.stepThread(T, Stop);
  std::string After;
  bool Read = Stepped && C.selectThread(T) && C.readRegisterBlock(After) &&
              After.size() >= MinBlock;
  // The registers go back whatever happened (the stub may have died).
  bool Restored = C.selectThread(T) && C.writeRegisterBlock(Saved);
  if (!Stepped || !Read || !Restored) {
    Why = "cannot make a system call through the stub";
    return false;
  }
  if (Stop.K != RspStop::Signal || Stop.Sig != 5) {
    Why = "the thread stopped for another reason than the step of its "
          "system call (signal " +
          std::to_string(Stop.Sig) + ")";
    return false;
  }
  Result = widen(get32(After, Eax));
  return true;
}

bool RemoteAccess::mapGadgetPage(std::string &Why) {
  if (!ProgramGadgetChecked) {
    uint8_t Now[sizeof(Int80Ret)];
    if (!C.readMemory(ProgramGadget, Now, sizeof(Now)) ||
        memcmp(Now, Int80Ret, sizeof(Now))) {
      Why = "the program's `int $0x80; ret` is not in its memory";
      return false;
    }
    ProgramGadgetChecked = true;
  }
  uint64_t Page = 0, R = 0;
  if (!stepSyscall(ProgramGadget, NrMmap2,
                   {0, GadgetPageSize, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, ~0ull, 0},
                   Page, Why))
    return false;
  if (ip::isSyscallError(Page)) {
    Why = "mmap2 in the target failed: " +
          std::string(strerror(static_cast<int>(-static_cast<int64_t>(Page))));
    return false;
  }
  std::vector<uint8_t> Bytes(GadgetPageSize, 0xcc);
  memcpy(Bytes.data(), OwnGadgetCode, sizeof(OwnGadgetCode));
  // Written before it is executable, and never written again: qemu never
  // has translated code of it to keep.
  if (!C.writeMemory(Page, Bytes.data(), Bytes.size()) ||
      !stepSyscall(ProgramGadget, NrMprotect,
                   {Page, GadgetPageSize, PROT_READ | PROT_EXEC}, R, Why) ||
      R != 0) {
    if (Why.empty())
      Why = "cannot make the system call page executable";
    return false;
  }
  OwnGadget = Page;
  return true;
}

bool RemoteAccess::syscall(uint64_t Nr, std::initializer_list<uint64_t> Args,
                           uint64_t &Result, std::string &Why) {
  if (!OwnGadget && !mapGadgetPage(Why))
    return false;
  return stepSyscall(OwnGadget, Nr, Args, Result, Why);
}

bool RemoteAccess::writeCode(uint64_t Addr, const void *Src, size_t Len) {
  if (!Len || C.writeMemory(Addr, Src, Len))
    return true;
  // Refused: qemu write-protects pages it has translated. Writable, they
  // lose their translations and take the write.
  uint64_t First = Addr & ~uint64_t(4095);
  uint64_t Size = ((Addr + Len + 4095) & ~uint64_t(4095)) - First;
  uint64_t R = 0;
  std::string Why;
  if (!syscall(NrMprotect, {First, Size, PROT_READ | PROT_WRITE | PROT_EXEC}, R,
               Why) ||
      R != 0)
    return false;
  bool Written = C.writeMemory(Addr, Src, Len);
  bool Back =
      syscall(NrMprotect, {First, Size, PROT_READ | PROT_EXEC}, R, Why) &&
      R == 0;
  return Written && Back;
}
