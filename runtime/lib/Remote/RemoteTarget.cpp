//===- RemoteTarget.cpp - The process behind a stub, as a Target ----------===//
#include "RemoteImpl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <elf.h>

using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {

/// Names of each TSCC_REG_* slot in GDB's x86 descriptions: 64-bit first,
/// then the i386 name whose value lands in the low half of the same slot.
struct RegNames {
  const char *N64, *N32;
};
constexpr RegNames SlotNames[TSCC_REG_COUNT] = {
    {"rax", "eax"},           {"rbx", "ebx"},   {"rcx", "ecx"},
    {"rdx", "edx"},           {"rsi", "esi"},   {"rdi", "edi"},
    {"rbp", "ebp"},           {"rsp", "esp"},   {"r8", nullptr},
    {"r9", nullptr},          {"r10", nullptr}, {"r11", nullptr},
    {"r12", nullptr},         {"r13", nullptr}, {"r14", nullptr},
    {"r15", nullptr},         {"rip", "eip"},   {"eflags", "eflags"},
    {"orig_rax", "orig_eax"},
};

/// GDB's fixed numbering of the 'g' block when a stub sends no target
/// description: i386 is eax ecx edx ebx esp ebp esi edi eip eflags (4 bytes
/// each); x86-64 is rax rbx rcx rdx rsi rdi rbp rsp r8..r15 (8 bytes) rip
/// (8) eflags (4).
constexpr int Fallback32[TSCC_REG_COUNT] = {
    0, 3, 1, 2, 6, 7, 5, 4, -1, -1, -1, -1, -1, -1, -1, -1, 8, 9, -1};

} // namespace

RemoteTarget::RemoteTarget(RspClient &C, DataModel DM, std::string Name)
    : Client(C), DM(DM), PName(std::move(Name)) {
  std::fill(std::begin(RegMap), std::end(RegMap), -1);
}

void RemoteTarget::buildRegMap() {
  RegMapBuilt = true;
  const auto &Regs = Client.registers();
  for (unsigned Slot = 0; Slot < TSCC_REG_COUNT; ++Slot) {
    for (size_t I = 0; I < Regs.size(); ++I) {
      const std::string &N = Regs[I].Name;
      if (N == SlotNames[Slot].N64 ||
          (SlotNames[Slot].N32 && N == SlotNames[Slot].N32)) {
        RegMap[Slot] = static_cast<int>(I);
        break;
      }
    }
  }
}

bool RemoteTarget::readRegisters(const RspThreadId &T, uint64_t *Out) {
  std::fill(Out, Out + TSCC_REG_COUNT, 0);
  if (Exited || !Client.selectThread(T))
    return false;
  std::string Raw;
  if (!Client.readRegisterBlock(Raw))
    return false;
  if (!RegMapBuilt)
    buildRegMap();
  const auto &Regs = Client.registers();
  if (Regs.empty()) {
    // No description: GDB's default layouts.
    for (unsigned Slot = 0; Slot < TSCC_REG_COUNT; ++Slot) {
      if (DM == DataModel::ILP32) {
        int I = Fallback32[Slot];
        if (I >= 0 && Raw.size() >= static_cast<size_t>(I) * 4 + 4)
          std::memcpy(&Out[Slot], Raw.data() + I * 4, 4);
      } else if (Slot <= TSCC_REG_RIP && Raw.size() >= Slot * 8 + 8) {
        std::memcpy(&Out[Slot], Raw.data() + Slot * 8, 8);
      } else if (Slot == TSCC_REG_EFLAGS && Raw.size() >= 17 * 8 + 4) {
        std::memcpy(&Out[Slot], Raw.data() + 17 * 8, 4);
      }
    }
    return true;
  }
  for (unsigned Slot = 0; Slot < TSCC_REG_COUNT; ++Slot) {
    int I = RegMap[Slot];
    if (I < 0)
      continue;
    const RspRegister &R = Regs[static_cast<size_t>(I)];
    size_t Bytes = std::min<size_t>((R.BitSize + 7) / 8, 8);
    if (R.Offset + Bytes <= Raw.size()) {
      std::memcpy(&Out[Slot], Raw.data() + R.Offset, Bytes);
      continue;
    }
    // Some stubs leave late registers (orig_rax) out of 'g'.
    std::string One;
    if (Client.readRegister(R.Number, One))
      std::memcpy(&Out[Slot], One.data(), std::min(Bytes, One.size()));
  }
  return true;
}

bool RemoteTarget::writePC(uint64_t PC) {
  return writeRegister(TSCC_REG_RIP, PC);
}

bool RemoteTarget::writeRegister(unsigned Slot, uint64_t Value) {
  if (!RegMapBuilt)
    buildRegMap();
  int I = RegMap[Slot];
  // GDB's default numbering when there is no description (pc / sp only).
  unsigned Number = Slot == TSCC_REG_RSP ? (DM == DataModel::ILP32 ? 4 : 7)
                                         : (DM == DataModel::ILP32 ? 8 : 16);
  size_t Bytes = pointerSize();
  if (I >= 0) {
    const RspRegister &R = Client.registers()[static_cast<size_t>(I)];
    Number = R.Number;
    Bytes = (R.BitSize + 7) / 8;
  }
  if (I < 0 && Slot != TSCC_REG_RIP && Slot != TSCC_REG_RSP)
    return false;
  std::string Raw(Bytes, '\0');
  std::memcpy(Raw.data(), &Value, std::min<size_t>(Bytes, 8));
  if (Client.writeRegister(Number, Raw))
    return true;
  if (!Client.pUnsupported() || I < 0)
    return false;
  // No 'P' (gdbserver on x86-64): read the block, patch, write it back.
  std::string Block;
  const RspRegister &R = Client.registers()[static_cast<size_t>(I)];
  if (!Client.readRegisterBlock(Block) || R.Offset + Bytes > Block.size())
    return false;
  std::memcpy(Block.data() + R.Offset, Raw.data(), Bytes);
  return Client.writeRegisterBlock(Block);
}

void RemoteTarget::invalidateCache() {
  for (CacheLine &L : Cache)
    L.Valid = false;
}

bool RemoteTarget::readMemory(uint64_t Addr, void *Dst, size_t Len) {
  if (Exited || !Client.connected()) {
    std::memset(Dst, 0, Len);
    return false;
  }
  // Clause code reads structs field by field. Each uncached read is a
  // network round trip, so small reads are served from 256-byte lines that
  // live until the target runs again.
  constexpr uint64_t LineSize = sizeof(CacheLine::Bytes);
  uint64_t Base = Addr & ~(LineSize - 1);
  if (Len == 0 || Len > LineSize || Addr + Len > Base + LineSize ||
      Addr + Len < Addr)
    return Client.readMemory(Addr, Dst, Len);
  for (CacheLine &L : Cache)
    if (L.Valid && L.Base == Base) {
      std::memcpy(Dst, L.Bytes + (Addr - Base), Len);
      return true;
    }
  CacheLine &L = Cache[NextLine++ % std::size(Cache)];
  if (!Client.readMemory(Base, L.Bytes, LineSize)) {
    // The line crosses into unmapped memory; the bytes asked for may not.
    L.Valid = false;
    return Client.readMemory(Addr, Dst, Len);
  }
  L.Base = Base;
  L.Valid = true;
  std::memcpy(Dst, L.Bytes + (Addr - Base), Len);
  return true;
}

uint64_t RemoteTarget::readPointer(uint64_t Addr, bool &Ok) {
  uint64_t V = 0;
  Ok = readMemory(Addr, &V, pointerSize());
  return V;
}

UnwoundStack RemoteTarget::unwindStack(int64_t Tid, const uint64_t *Regs,
                                       unsigned MaxDepth) {
  // Pending returns are breakpoints at the real return addresses, which
  // stay on the stack: nothing to translate. Returns the agent in the
  // guest hijacked (exit probes, within()) hold its trampoline: the real
  // ones are on the thread's shadow stack, innermost last.
  std::vector<uint64_t> Real;
  uint64_t Trampoline = AgentReturns ? AgentReturns(Tid, Real) : 0;
  UnwindSource Src;
  if (Trampoline)
    Src.RealReturn = [&](uint64_t PC) {
      if (PC != Trampoline || Real.empty())
        return PC;
      uint64_t R = Real.back();
      Real.pop_back();
      return R;
    };
  Src.Read = [this](uint64_t Addr, uint64_t &Word) {
    bool Ok = false;
    Word = readPointer(Addr, Ok);
    return Ok;
  };
  // Another build's .eh_frame would describe other code: such a module's
  // frames are unwound by frame pointers only.
  Src.ModuleAt = [this](uint64_t Addr) -> const ModuleImage * {
    const Module *M = moduleFor(Addr);
    return M && !M->Mismatched ? M : nullptr;
  };
  return tscc::rt::unwindStack(Src, DM, Regs, MaxDepth);
}

UnwoundStack RemoteTarget::unwindSnapshot(const uint64_t *Regs,
                                          std::span<const uint8_t> Stack,
                                          std::span<const uint64_t> Shadow,
                                          uint64_t ReturnTrampoline,
                                          unsigned MaxDepth) {
  // The stack as it was at the hit, and nothing deeper (the stub answers
  // nothing while the program runs): a stack that goes on past the
  // snapshot ends as cut short.
  return tscc::rt::unwindSnapshot(
      {Regs, Stack, Shadow, ReturnTrampoline}, DM,
      [this](uint64_t Addr) -> const ModuleImage * {
        const Module *M = moduleFor(Addr);
        return M && !M->Mismatched ? M : nullptr;
      },
      nullptr, MaxDepth);
}

Module *RemoteTarget::addModule(std::unique_ptr<Module> M) {
  std::lock_guard<std::mutex> L(ModulesLock);
  Modules.push_back(std::move(M));
  return Modules.back().get();
}

const Module *RemoteTarget::moduleFor(uint64_t Addr) const {
  std::lock_guard<std::mutex> L(ModulesLock);
  const Module *Best = nullptr;
  for (const auto &M : Modules)
    if (Addr >= M->Start && Addr < M->End && (!Best || M->Live))
      Best = M.get();
  return Best;
}

std::vector<Module *> RemoteTarget::liveModules() {
  std::lock_guard<std::mutex> L(ModulesLock);
  std::vector<Module *> Out;
  for (const auto &M : Modules)
    if (M->Live)
      Out.push_back(M.get());
  return Out;
}

std::string RemoteTarget::symbolize(uint64_t PC) {
  const Module *M = moduleFor(PC);
  // Another build's symbols would name the address wrongly.
  if (M && M->Mismatched)
    return M->Name + "+0x" + rsp::hexNumber(PC - M->Start);
  return symbolizeAddress(M, PC);
}
