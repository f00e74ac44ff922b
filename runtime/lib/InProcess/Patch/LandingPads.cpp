//===- LandingPads.cpp - Where exceptions re-enter functions --------------===//
//
// The formats: the LSB's .eh_frame (CIE augmentation 'L' gives the LSDA
// pointer's encoding, the FDE's augmentation data holds the pointer) and
// the GCC LSDA header and call-site table, as libgcc's unwind-c.c and
// libstdc++'s eh_personality.cc read them.
//
//===----------------------------------------------------------------------===//
#include "LandingPads.h"

#include "../../Elf/EhReader.h"

#include "tscc/Runtime/ElfFile.h"

#include <map>
#include <string_view>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

constexpr uint8_t EncOmit = 0xff;

/// The file bytes from link-time address VAddr to the end of its
/// segment's file image; empty if VAddr is not file-backed.
std::span<const uint8_t> fileBytesFrom(const ElfFile &Elf, uint64_t VAddr) {
  const ElfSegment *S = Elf.loadSegmentFor(VAddr);
  if (!S || VAddr - S->VAddr >= S->FileSize)
    return {};
  uint64_t Skip = VAddr - S->VAddr;
  std::string_view B = Elf.bytes(S->Offset + Skip, S->FileSize - Skip);
  return {reinterpret_cast<const uint8_t *>(B.data()), B.size()};
}

/// What an FDE needs from its CIE to find its LSDA.
struct CieInfo {
  bool Ok = false;
  uint8_t FdeEnc = 0;
  uint8_t LsdaEnc = EncOmit;
  bool HasAugData = false;
};

CieInfo parseCie(std::span<const uint8_t> Frame, uint64_t FrameAddr, size_t Pos,
                 unsigned PtrSize) {
  CieInfo C;
  EhReader R{Frame.data(), Frame.size(), Pos, FrameAddr};
  uint64_t Len = R.fixed(4);
  if (!R.Ok || Len == 0xffffffff || R.fixed(4) != 0)
    return C; // 64-bit DWARF, or not a CIE
  uint8_t Version = R.fixed(1);
  std::string_view Aug;
  size_t AugStart = R.Pos;
  while (R.need(1) && R.Data[R.Pos])
    ++R.Pos;
  Aug =
      std::string_view(reinterpret_cast<const char *>(Frame.data()) + AugStart,
                       R.Pos - AugStart);
  R.fixed(1);
  R.uleb(); // code alignment
  R.sleb(); // data alignment
  if (Version == 1)
    R.fixed(1);
  else
    R.uleb();
  if (Aug.empty() || Aug[0] != 'z') {
    C.Ok = R.Ok;
    return C;
  }
  C.HasAugData = true;
  R.uleb();
  for (char Ch : Aug.substr(1)) {
    if (Ch == 'R')
      C.FdeEnc = R.fixed(1);
    else if (Ch == 'L')
      C.LsdaEnc = R.fixed(1);
    else if (Ch == 'P')
      R.encoded(R.fixed(1) & 0x7f, PtrSize);
    else if (Ch != 'S' && Ch != 'B' && Ch != 'G')
      return C; // unknown augmentation: the rest cannot be read
  }
  C.Ok = R.Ok;
  return C;
}

/// Reads the FDE whose body (after its length) starts at R.Pos: its
/// function's start and its LSDA pointer (0 if none).
bool parseFde(EhReader &R, const CieInfo &C, unsigned PtrSize,
              uint64_t &FuncStart, uint64_t &Lsda) {
  FuncStart = R.encoded(C.FdeEnc, PtrSize);
  R.encoded(C.FdeEnc & 0x0f, PtrSize); // range
  Lsda = 0;
  if (C.HasAugData) {
    uint64_t AugLen = R.uleb();
    size_t AugEnd = R.Pos + AugLen;
    if (C.LsdaEnc != EncOmit && AugLen)
      Lsda = R.encoded(C.LsdaEnc & 0x7f, PtrSize);
    R.Pos = AugEnd;
  }
  return R.Ok;
}

} // namespace

bool tscc::rt::ip::lsdaLandingPads(std::span<const uint8_t> Bytes,
                                   uint64_t Addr, uint64_t FuncStart,
                                   std::vector<uint64_t> &Out,
                                   unsigned PtrSize) {
  EhReader R{Bytes.data(), Bytes.size(), 0, Addr};
  uint8_t LpStartEnc = R.fixed(1);
  uint64_t LpStart = FuncStart;
  if (LpStartEnc != EncOmit)
    LpStart = R.encoded(LpStartEnc & 0x7f, PtrSize);
  if (R.fixed(1) != EncOmit) // type table encoding
    R.uleb();
  uint8_t CallSiteEnc = R.fixed(1);
  uint64_t TableLen = R.uleb();
  size_t End = R.Pos + TableLen;
  if (!R.Ok || End > Bytes.size() || CallSiteEnc == EncOmit)
    return false;
  while (R.Ok && R.Pos < End) {
    R.encoded(CallSiteEnc, PtrSize); // start
    R.encoded(CallSiteEnc, PtrSize); // length
    uint64_t Pad = R.encoded(CallSiteEnc, PtrSize);
    R.uleb(); // action
    // An i386 module's addresses wrap at 4 GiB.
    if (R.Ok && Pad)
      Out.push_back(PtrSize == 4 ? uint32_t(LpStart + Pad) : LpStart + Pad);
  }
  return R.Ok;
}

std::vector<uint64_t> tscc::rt::ip::moduleLandingPads(const ElfFile &Elf) {
  std::vector<uint64_t> Pads;
  std::optional<ElfRange> EF = Elf.ehFrame();
  if (!EF)
    return Pads;
  unsigned PtrSize = Elf.is64() ? 8 : 4;
  std::string_view B = Elf.bytes(EF->Offset, EF->Size);
  std::span<const uint8_t> Frame(reinterpret_cast<const uint8_t *>(B.data()),
                                 B.size());
  std::map<size_t, CieInfo> Cies;
  for (size_t Pos = 0; Pos + 8 <= Frame.size();) {
    EhReader R{Frame.data(), Frame.size(), Pos, EF->VAddr};
    uint64_t Len = R.fixed(4);
    if (Len == 0 || Len == 0xffffffff || R.Pos + Len > Frame.size())
      break;
    size_t End = R.Pos + Len, IdPos = R.Pos;
    uint32_t Id = static_cast<uint32_t>(R.fixed(4));
    Pos = End;
    if (Id == 0 || Id > IdPos)
      continue; // a CIE, or a bad pointer to one
    size_t CiePos = IdPos - Id;
    auto It = Cies.find(CiePos);
    if (It == Cies.end())
      It = Cies.emplace(CiePos, parseCie(Frame, EF->VAddr, CiePos, PtrSize))
               .first;
    uint64_t FuncStart, Lsda;
    if (!It->second.Ok || !parseFde(R, It->second, PtrSize, FuncStart, Lsda) ||
        !Lsda)
      continue;
    lsdaLandingPads(fileBytesFrom(Elf, Lsda), Lsda, FuncStart, Pads, PtrSize);
  }
  return Pads;
}
