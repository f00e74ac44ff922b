//===- RemoteImage.cpp - Is the local file what the stub's process runs? --===//
//
// `--remote HOST:PORT=EXE` names a local copy of the program the stub
// runs, and libraries are read from local paths the target names. Symbols
// of another build put breakpoints in the middle of instructions, which
// corrupts the target, and name every address wrongly. So before a module
// is probed, its local file is compared with the process's memory:
//
//  1. the build-id: the note is in a loaded segment, so the bytes of the
//     file's note must be in memory at its address plus the load bias;
//  2. without a build-id: the program headers (mapped with the first
//     segment), and for the executable the bytes at its entry point;
//  3. and then the bytes at every probe site before a breakpoint goes in.
//
// The program the stub runs is named, where it can be found, by the stub
// (qXfer:exec-file) or, for a stub on this machine, as the file mapped by
// the stub's process whose build-id is the one in the target's memory
// (found from the auxiliary vector's AT_PHDR, independently of EXE).
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"

#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <set>

using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {

constexpr size_t MaxNoteBytes = 4096;

std::string hex(std::string_view Bytes) {
  static const char Digits[] = "0123456789abcdef";
  std::string Out;
  for (unsigned char C : Bytes) {
    Out += Digits[C >> 4];
    Out += Digits[C & 15];
  }
  return Out;
}

/// The GNU build-id among the notes in Bytes, empty if none.
std::string buildIdIn(std::string_view Bytes) {
  size_t Pos = 0;
  while (Bytes.size() - Pos >= 12) {
    uint32_t H[3];
    std::memcpy(H, Bytes.data() + Pos, sizeof(H));
    size_t Name = Pos + 12, Desc = Name + ((H[0] + 3) & ~3u);
    size_t End = Desc + ((H[1] + 3) & ~3u);
    if (H[0] > MaxNoteBytes || H[1] > MaxNoteBytes || End > Bytes.size())
      return {};
    if (H[2] == NT_GNU_BUILD_ID && H[0] == 4 &&
        Bytes.substr(Name, 4) == std::string_view("GNU\0", 4))
      return std::string(Bytes.substr(Desc, H[1]));
    Pos = End;
  }
  return {};
}

std::string_view machineName(uint16_t M) {
  switch (M) {
  case EM_386:
    return "i386";
  case EM_X86_64:
    return "x86-64";
  case EM_ARM:
    return "arm";
  case EM_AARCH64:
    return "aarch64";
  default:
    return "another machine";
  }
}

/// e_machine of the ELF file at Path, 0 if it is not one (read cheaply:
/// only the header, before anything is parsed).
uint16_t elfMachine(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  unsigned char H[20] = {};
  if (!In.read(reinterpret_cast<char *>(H), sizeof(H)) ||
      std::memcmp(H, ELFMAG, SELFMAG) != 0)
    return 0;
  return static_cast<uint16_t>(H[18] | H[19] << 8);
}

} // namespace

std::string RemoteBackend::Impl::describeElf(const ElfFile &F) {
  return std::string(F.is64() ? "a 64-bit " : "a 32-bit ") +
         std::string(machineName(F.machine())) + " ELF file";
}

std::string RemoteBackend::Impl::targetBuildId() {
  if (!AuxvPhdr || !AuxvPhnum || AuxvPhnum > 256)
    return {};
  bool Is64 = Tgt->pointerSize() == 8;
  size_t Ent = Is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
  std::string Raw(Ent * AuxvPhnum, '\0');
  if (!Tgt->readMemory(AuxvPhdr, Raw.data(), Raw.size()))
    return {};
  auto Field = [&](size_t I, size_t Off64, size_t Off32, size_t W64) {
    uint64_t V = 0;
    std::memcpy(&V, Raw.data() + I * Ent + (Is64 ? Off64 : Off32),
                Is64 ? W64 : 4);
    return V;
  };
  // p_type, p_vaddr and p_filesz of both classes.
  auto Type = [&](size_t I) { return Field(I, 0, 0, 4); };
  auto VAddr = [&](size_t I) { return Field(I, 16, 8, 8); };
  auto Size = [&](size_t I) { return Field(I, 32, 16, 8); };
  uint64_t Bias = 0;
  for (size_t I = 0; I < AuxvPhnum; ++I)
    if (Type(I) == PT_PHDR)
      Bias = AuxvPhdr - VAddr(I);
  for (size_t I = 0; I < AuxvPhnum; ++I) {
    if (Type(I) != PT_NOTE)
      continue;
    std::string Notes(std::min<uint64_t>(Size(I), MaxNoteBytes), '\0');
    if (Tgt->readMemory(VAddr(I) + Bias, Notes.data(), Notes.size()))
      if (std::string Id = buildIdIn(Notes); !Id.empty())
        return Id;
  }
  return {};
}

std::string RemoteBackend::Impl::stubProgram(const std::string &BuildId) {
  if (!StubExe.empty())
    return StubExe;
  if (Client->features().XferExecFile)
    if (std::optional<std::string> P = Client->readXfer("exec-file", ""))
      if (!P->empty() && P->size() < 4096)
        return StubExe = *P;
  if (BuildId.empty() || !stubIsLocal() || Tgt->pid() <= 0)
    return {};
  // A stub on this machine: the file its process maps whose build-id is
  // the target's (qemu-user maps the guest's program; gdbserver's pid is
  // the program's own).
  std::ifstream Maps("/proc/" + std::to_string(Tgt->pid()) + "/maps");
  std::set<std::string> Tried;
  std::string Line;
  uint16_t Want = Tgt->pointerSize() == 8 ? EM_X86_64 : EM_386;
  while (std::getline(Maps, Line) && Tried.size() < 256) {
    size_t Slash = Line.find('/');
    if (Slash == std::string::npos)
      continue;
    std::string Path = Line.substr(Slash);
    if (!Tried.insert(Path).second || elfMachine(Path) != Want)
      continue;
    std::string Error;
    auto F = ElfFile::open(Path, Error, DebugSymbols::None);
    if (F && F->buildId() == BuildId)
      return StubExe = Path;
  }
  return {};
}

bool RemoteBackend::Impl::checkArchitecture(std::string &Error) {
  bool Want64 = Tgt->DM == DataModel::LP64;
  if (Want64 == ExeElf->is64() || Client->architecture().empty())
    return true;
  std::string Theirs = stubProgram(targetBuildId());
  Error = where() + ": the stub runs " +
          (Want64 ? "an x86-64 program" : "an i386 program") +
          (Theirs.empty() ? "" : " (" + Theirs + ")") + ", but " +
          Opts.Executable + " is " + describeElf(*ExeElf) +
          "; give the program the stub runs after '='";
  return false;
}

/// Whether the bytes at link-time address VAddr of M's file are in memory
/// (our own breakpoint bytes excepted). False only on a real difference.
bool RemoteBackend::Impl::sameBytes(const Module &M, uint64_t VAddr, size_t Len,
                                    bool &Read) {
  uint8_t File[32], Mem[32];
  Len = std::min(Len, sizeof(File));
  // Only file-backed bytes are compared; a site near a segment's end
  // compares fewer.
  while (Len && !M.Elf->readVAddr(VAddr, File, Len))
    --Len;
  Read = Len && Tgt->readMemory(VAddr + M.Bias, Mem, Len);
  if (!Read)
    return true;
  for (size_t I = 0; I < Len; ++I) {
    auto B = Breakpoints.find(VAddr + M.Bias + I);
    if (B != Breakpoints.end() && B->second.Inserted && B->second.ByMemory)
      continue;
    if (File[I] != Mem[I])
      return false;
  }
  return true;
}

ImageCheck RemoteBackend::Impl::checkImage(const Module &M) {
  ImageCheck C;
  const ElfFile &F = *M.Elf;
  if (std::optional<ElfRange> Note = F.buildIdNote()) {
    std::string Mem(std::min<uint64_t>(Note->Size, MaxNoteBytes), '\0');
    if (Tgt->readMemory(Note->VAddr + M.Bias, Mem.data(), Mem.size())) {
      if (Mem == F.bytes(Note->Offset, Mem.size())) {
        C.Result = ImageMatch::Same;
        return C;
      }
      std::string Theirs = M.IsMain ? targetBuildId() : buildIdIn(Mem);
      C.Result = ImageMatch::Different;
      C.Why = "build-id " + (Theirs.empty() ? "unknown" : hex(Theirs)) +
              " in the target, " + F.buildIdHex() + " in the file";
      C.TheirBuildId = Theirs;
      return C;
    }
  }
  // No build-id to go by: the program headers, which the first segment
  // maps, and the executable's first instructions.
  struct Probe {
    uint64_t VAddr;
    size_t Len;
    const char *What;
  };
  std::vector<Probe> Probes;
  if (std::optional<ElfRange> Ph = F.programHeaders())
    Probes.push_back(
        {Ph->VAddr, static_cast<size_t>(Ph->Size), "program headers"});
  if (M.IsMain && F.entry())
    Probes.push_back({F.entry(), 16, "entry point"});
  for (const Probe &P : Probes) {
    for (size_t Off = 0; Off < P.Len; Off += 32) {
      bool Read = false;
      if (!sameBytes(M, P.VAddr + Off, std::min<size_t>(32, P.Len - Off),
                     Read)) {
        C.Result = ImageMatch::Different;
        C.Why = std::string("its ") + P.What + " differ from the target's";
        if (M.IsMain)
          C.TheirBuildId = targetBuildId();
        return C;
      }
    }
  }
  return C; // Unknown: every probe site is compared before it is used
}

std::string RemoteBackend::Impl::mismatchMessage(const Module &M,
                                                 const ImageCheck &C) {
  if (!M.IsMain)
    return M.Path + " is not the library the target maps at 0x" +
           rsp::hexNumber(M.Start) + " (" + C.Why +
           "); its functions are not probed and its addresses not named";
  std::string Theirs = stubProgram(C.TheirBuildId);
  return Opts.Executable + " is not the program the stub runs" +
         (Theirs.empty() ? "" : " (" + Theirs + ")") + ": " + C.Why +
         "; give the program the stub runs after '='";
}

bool RemoteBackend::Impl::sitesMatch(
    Module &M, const std::vector<std::pair<uint64_t, std::string>> &Sites) {
  if (M.Verified)
    return true;
  for (const auto &[VAddr, Name] : Sites) {
    bool Read = false;
    if (sameBytes(M, VAddr, 8, Read))
      continue;
    M.Mismatched = true;
    S.moduleSkipped(M.Name, ModuleRef{M.Path, M.Elf->soname(), M.IsMain},
                    "the file tsrun read is not the one the target maps");
    ImageCheck C;
    C.Result = ImageMatch::Different;
    C.Why = "the code of " + Name + " differs from the target's";
    if (M.IsMain)
      C.TheirBuildId = targetBuildId();
    reportMismatch(mismatchMessage(M, C));
    return false;
  }
  return true;
}

void RemoteBackend::Impl::reportMismatch(const std::string &Message) {
  if (!Started) {
    if (StartError.empty())
      StartError = Message;
    return;
  }
  warnOnce(where() + ": " + Message);
}
