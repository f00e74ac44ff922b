//===- ModuleEntries.cpp - Where a module's code may be entered -----------===//
#include "ModuleEntries.h"

#include "InsnFacts.h"
#include "LandingPads.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/X86Insn.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <string_view>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

bool inRanges(const AddressRanges &R, uint64_t A) {
  for (const auto &[Lo, Hi] : R)
    if (A >= Lo && A < Hi)
      return true;
  return false;
}

uint64_t readLE(const uint8_t *B, unsigned N) {
  uint64_t V = 0;
  for (unsigned K = 0; K < N; ++K)
    V |= uint64_t(B[K]) << (8 * K);
  return V;
}

std::span<const uint8_t> asBytes(std::string_view S) {
  return {reinterpret_cast<const uint8_t *>(S.data()), S.size()};
}

/// The constants of I (at Addr, bytes B) that may be code addresses, and
/// (Tables, if set) those that may be a relative jump table's address.
void addressConstants(const X86Insn &I, const uint8_t *B, uint64_t Addr,
                      bool Absolute, const AddressRanges &Code,
                      std::vector<KnownEntry> &Out, uint64_t Got,
                      std::vector<TableCandidate> *Tables) {
  auto Add = [&](uint64_t A, EntryKind K) {
    if (inRanges(Code, A))
      Out.push_back({A, K});
  };
  auto AddTable = [&](uint64_t A, uint64_t Base) {
    if (Tables && !inRanges(Code, A))
      Tables->push_back({A, Base});
  };
  // i386 position-independent code: label@GOTOFF(%reg), the register
  // holding the GOT's address (or anything else: a spurious entry only
  // costs a site its jump). Its switch tables hold offsets from the GOT.
  if (Got && I.HasModRM && I.modrmMod() != 3 && I.DispSize == 4) {
    uint64_t At = (Got + static_cast<uint64_t>(
                             int64_t(int32_t(readLE(B + I.DispOffset, 4))))) &
                  0xffffffffu;
    Add(At, EntryKind::AddressTaken);
    // The table is indexed by 4-byte entries: t@GOTOFF(%ebx,%eax,4).
    uint8_t Sib = I.modrmRm() == 4 ? B[I.ModRMOffset + 1] : 0;
    if (I.modrmRm() == 4 && (Sib >> 6) == 2 && ((Sib >> 3) & 7) != 4)
      AddTable(At, Got);
  }
  if (hasRelTarget(I)) {
    Add(branchTarget(Addr, I), EntryKind::Branch);
    return;
  }
  if (I.RipRelative) {
    int32_t Disp = static_cast<int32_t>(readLE(B + I.DispOffset, 4));
    uint64_t At = Addr + I.Length + static_cast<uint64_t>(int64_t(Disp));
    Add(At, EntryKind::AddressTaken);
    // gcc's and clang's position-independent switch: offsets from the
    // table's own address, which a `lea table(%rip)` names.
    if (!I.Vex && I.Map == 0 && I.Opcode == 0x8d)
      AddTable(At, At);
    return;
  }
  if (!Absolute)
    return;
  if (I.ImmSize == 4 || I.ImmSize == 8)
    Add(readLE(B + I.ImmOffset, I.ImmSize), EntryKind::AddressTaken);
  if (I.DispSize == 4)
    Add(static_cast<uint64_t>(int64_t(int32_t(readLE(B + I.DispOffset, 4)))),
        EntryKind::AddressTaken);
}

} // namespace

void tscc::rt::ip::sweepCode(std::span<const uint8_t> Bytes, uint64_t Addr,
                             bool Absolute, const AddressRanges &Code,
                             std::vector<KnownEntry> &Out, X86Mode Mode,
                             uint64_t Got, std::vector<TableCandidate> *Tables,
                             std::vector<bool> *Starts) {
  if (Starts)
    Starts->assign(Bytes.size(), false);
  for (size_t Pos = 0; Pos < Bytes.size();) {
    X86Insn I;
    if (!decodeX86(Bytes.data() + Pos, Bytes.size() - Pos, Mode, I)) {
      ++Pos;
      continue;
    }
    if (Starts)
      (*Starts)[Pos] = true;
    addressConstants(I, Bytes.data() + Pos, Addr + Pos, Absolute, Code, Out,
                     Got, Tables);
    Pos += I.Length;
  }
}

void tscc::rt::ip::relaCodePointers(std::span<const uint8_t> Bytes,
                                    const AddressRanges &Code,
                                    std::vector<KnownEntry> &Out) {
  constexpr size_t Entry = sizeof(Elf64_Rela);
  for (size_t Pos = 0; Pos + Entry <= Bytes.size(); Pos += Entry) {
    uint32_t Type = static_cast<uint32_t>(readLE(Bytes.data() + Pos + 8, 8));
    uint64_t Addend = readLE(Bytes.data() + Pos + 16, 8);
    if ((Type == R_X86_64_RELATIVE || Type == R_X86_64_IRELATIVE) &&
        inRanges(Code, Addend))
      Out.push_back({Addend, EntryKind::DataPointer});
  }
}

std::vector<uint64_t>
tscc::rt::ip::relRelativePlaces32(std::span<const uint8_t> Bytes) {
  std::vector<uint64_t> Places;
  constexpr size_t Entry = sizeof(Elf32_Rel);
  for (size_t Pos = 0; Pos + Entry <= Bytes.size(); Pos += Entry) {
    uint32_t Type = static_cast<uint32_t>(readLE(Bytes.data() + Pos + 4, 1));
    if (Type == R_386_RELATIVE || Type == R_386_IRELATIVE)
      Places.push_back(readLE(Bytes.data() + Pos, 4));
  }
  return Places;
}

std::vector<uint64_t> tscc::rt::ip::relrPlaces(std::span<const uint8_t> Bytes,
                                               unsigned WordSize) {
  std::vector<uint64_t> Places;
  uint64_t Where = 0;
  unsigned Bits = 8 * WordSize - 1; // words a bitmap entry covers
  for (size_t Pos = 0; Pos + WordSize <= Bytes.size(); Pos += WordSize) {
    uint64_t E = readLE(Bytes.data() + Pos, WordSize);
    if (!(E & 1)) { // an address, and the next word
      Places.push_back(E);
      Where = E + WordSize;
      continue;
    }
    for (unsigned Bit = 0; Bit < Bits; ++Bit)
      if ((E >> (Bit + 1)) & 1)
        Places.push_back(Where + Bit * WordSize);
    Where += uint64_t(Bits) * WordSize;
  }
  return Places;
}

void tscc::rt::ip::dataCodePointers(std::span<const uint8_t> Bytes,
                                    uint64_t Addr, const AddressRanges &Code,
                                    std::vector<KnownEntry> &Out,
                                    unsigned WordSize) {
  size_t Pos = (WordSize - Addr % WordSize) % WordSize;
  for (; Pos + WordSize <= Bytes.size(); Pos += WordSize) {
    uint64_t V = readLE(Bytes.data() + Pos, WordSize);
    if (inRanges(Code, V))
      Out.push_back({V, EntryKind::DataPointer});
  }
}

ModuleEntries::ModuleEntries(const ElfFile &Elf) {
  findCode(Elf);
  if (Elf.isRelocatable())
    findRelocations(Elf);
  else
    findDataPointers(Elf);
  for (uint64_t Pad : moduleLandingPads(Elf))
    Entries.push_back({Pad, EntryKind::LandingPad});
  // A symbol inside another one's range (an alternate entry point: hand
  // written code, Fortran's ENTRY) is called from anywhere, other modules
  // too, through no branch of this one.
  for (const ElfSymbol &S : Elf.functions())
    Entries.push_back({S.Value, EntryKind::FunctionEntry});
  // One entry per address is enough to refuse a site.
  std::sort(Entries.begin(), Entries.end(),
            [](const KnownEntry &A, const KnownEntry &B) {
              return A.Addr < B.Addr || (A.Addr == B.Addr && A.Kind < B.Kind);
            });
  Entries.erase(std::unique(Entries.begin(), Entries.end(),
                            [](const KnownEntry &A, const KnownEntry &B) {
                              return A.Addr == B.Addr;
                            }),
                Entries.end());
  Entries.shrink_to_fit();
}

void ModuleEntries::findCode(const ElfFile &Elf) {
  std::vector<const ElfSection *> Exec;
  for (const ElfSection &S : Elf.sections())
    if ((S.Flags & SHF_EXECINSTR) && S.Type != SHT_NOBITS && S.Addr) {
      Exec.push_back(&S);
      Code.push_back({S.Addr, S.Addr + S.Size});
    }
  bool Absolute = !Elf.isRelocatable();
  X86Mode Mode = Elf.is64() ? X86Mode::Bits64 : X86Mode::Bits32;
  uint64_t Got = 0; // what i386 position-independent code counts from
  if (Mode == X86Mode::Bits32 && !Absolute) {
    const ElfSection *G = Elf.section(".got.plt");
    if (!G)
      G = Elf.section(".got");
    Got = G ? G->Addr : 0;
  }
  std::vector<TableCandidate> Tables;
  // Where the sweep found instructions, per section: a table's entries
  // are instruction boundaries.
  std::vector<std::vector<bool>> Starts(Exec.size());
  for (size_t I = 0; I < Exec.size(); ++I)
    sweepCode(asBytes(Elf.bytes(Exec[I]->Offset, Exec[I]->Size)), Exec[I]->Addr,
              Absolute, Code, Entries, Mode, Got, &Tables, &Starts[I]);
  auto IsStart = [&](uint64_t A) {
    for (size_t I = 0; I < Exec.size(); ++I)
      if (A >= Exec[I]->Addr && A - Exec[I]->Addr < Starts[I].size())
        return bool(Starts[I][A - Exec[I]->Addr]);
    return false;
  };
  relativeTableEntries(Elf, Tables, Code, IsStart, Entries);
  if (!Exec.empty())
    return;
  // No section headers: the executable segments, as the loader maps them
  // (an i386 module without them has no .got.plt to count from: its
  // GOT-relative constants are not seen).

  for (const ElfSegment &S : Elf.segments())
    if (S.Type == PT_LOAD && (S.Flags & PF_X))
      Code.push_back({S.VAddr, S.VAddr + S.FileSize});
  for (const ElfSegment &S : Elf.segments())
    if (S.Type == PT_LOAD && (S.Flags & PF_X))
      sweepCode(asBytes(Elf.bytes(S.Offset, S.FileSize)), S.VAddr, Absolute,
                Code, Entries, Mode);
}

void ModuleEntries::findRelocations(const ElfFile &Elf) {
  for (const ElfSection &S : Elf.sections()) {
    if (!(S.Flags & SHF_ALLOC))
      continue;
    std::span<const uint8_t> B = asBytes(Elf.bytes(S.Offset, S.Size));
    unsigned Word = Elf.is64() ? 8 : 4;
    if (S.Type == SHT_RELA && Elf.is64()) {
      relaCodePointers(B, Code, Entries);
      continue;
    }
    // A REL or RELR place holds its link-time value in the file.
    std::vector<uint64_t> Places;
    if (S.Type == SHT_REL && !Elf.is64())
      Places = relRelativePlaces32(B);
    else if (S.Type == SHT_RELR)
      Places = relrPlaces(B, Word);
    for (uint64_t Place : Places) {
      uint64_t V = 0;
      if (Elf.readVAddr(Place, &V, Word) && inRanges(Code, V))
        Entries.push_back({V, EntryKind::DataPointer});
    }
  }
}

void tscc::rt::ip::relativeTableEntries(const ElfFile &Elf,
                                        std::vector<TableCandidate> Tables,
                                        const AddressRanges &Code,
                                        const IsInsnStart &IsStart,
                                        std::vector<KnownEntry> &Out) {
  std::sort(Tables.begin(), Tables.end());
  Tables.erase(std::unique(Tables.begin(), Tables.end()), Tables.end());
  uint64_t Mask = Elf.is64() ? ~uint64_t(0) : 0xffffffffu;
  std::vector<uint64_t> Targets;
  for (const TableCandidate &T : Tables) {
    Targets.clear();
    for (size_t K = 0; K < MaxRelativeTableEntries; ++K) {
      int32_t Off = 0;
      if (!Elf.readVAddr(T.Addr + 4 * K, &Off, 4))
        break;
      uint64_t Target = (T.Base + static_cast<uint64_t>(int64_t(Off))) & Mask;
      // The table ends where its entries stop being instructions.
      if (!inRanges(Code, Target) || !IsStart(Target))
        break;
      Targets.push_back(Target);
    }
    // Compilers make tables for switches of four cases or more: a lone
    // code address is data that happens to look like an offset.
    if (Targets.size() < MinRelativeTableEntries)
      continue;
    for (uint64_t Target : Targets)
      Out.push_back({Target, EntryKind::JumpTable});
  }
}

void ModuleEntries::findDataPointers(const ElfFile &Elf) {
  for (const ElfSection &S : Elf.sections())
    if ((S.Flags & SHF_ALLOC) && !(S.Flags & SHF_EXECINSTR) &&
        S.Type == SHT_PROGBITS)
      dataCodePointers(asBytes(Elf.bytes(S.Offset, S.Size)), S.Addr, Code,
                       Entries, Elf.is64() ? 8 : 4);
}

void ModuleEntries::within(uint64_t Lo, uint64_t Hi, uint64_t Bias,
                           std::vector<KnownEntry> &Out) const {
  auto It = std::lower_bound(
      Entries.begin(), Entries.end(), Lo,
      [](const KnownEntry &E, uint64_t A) { return E.Addr < A; });
  for (; It != Entries.end() && It->Addr < Hi; ++It)
    Out.push_back({It->Addr + Bias, It->Kind});
}
