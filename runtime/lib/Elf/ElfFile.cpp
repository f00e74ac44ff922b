//===- ElfFile.cpp - Read-only view of an ELF executable ------------------===//
//
// Every offset, size and index read from the file is checked against the
// file size before use: a module may be truncated on disk, replaced while a
// process runs, or simply hostile.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/ElfFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

struct Elf32Traits {
  using Ehdr = Elf32_Ehdr;
  using Phdr = Elf32_Phdr;
  using Shdr = Elf32_Shdr;
  using Sym = Elf32_Sym;
  using Dyn = Elf32_Dyn;
  static unsigned char symType(unsigned char Info) {
    return ELF32_ST_TYPE(Info);
  }
  static unsigned char symBind(unsigned char Info) {
    return ELF32_ST_BIND(Info);
  }
};

struct Elf64Traits {
  using Ehdr = Elf64_Ehdr;
  using Phdr = Elf64_Phdr;
  using Shdr = Elf64_Shdr;
  using Sym = Elf64_Sym;
  using Dyn = Elf64_Dyn;
  static unsigned char symType(unsigned char Info) {
    return ELF64_ST_TYPE(Info);
  }
  static unsigned char symBind(unsigned char Info) {
    return ELF64_ST_BIND(Info);
  }
};

bool inBounds(uint64_t Off, uint64_t Len, uint64_t Size) {
  return Off <= Size && Len <= Size - Off;
}

/// Reads a T at Off; the file may not be aligned for T, so copy.
template <class T>
bool readStruct(const uint8_t *Data, size_t Size, uint64_t Off, T &Out) {
  if (!inBounds(Off, sizeof(T), Size))
    return false;
  std::memcpy(&Out, Data + Off, sizeof(T));
  return true;
}

/// A NUL-terminated string inside [Base, Base+Len) of the file at Index.
std::string readString(const uint8_t *Data, size_t Size, uint64_t Base,
                       uint64_t Len, uint64_t Index) {
  if (!inBounds(Base, Len, Size) || Index >= Len)
    return {};
  const char *S = reinterpret_cast<const char *>(Data + Base + Index);
  size_t Max = Len - Index;
  return std::string(S, strnlen(S, Max));
}

} // namespace

namespace {

FileIdentity identityOf(const struct stat &St) {
  FileIdentity I;
  I.Dev = St.st_dev;
  I.Ino = St.st_ino;
  I.Size = static_cast<uint64_t>(St.st_size);
  I.MTimeNs = int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
  I.CTimeNs = int64_t(St.st_ctim.tv_sec) * 1000000000 + St.st_ctim.tv_nsec;
  return I;
}

} // namespace

std::optional<FileIdentity> FileIdentity::of(const std::string &Path) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0)
    return std::nullopt;
  return identityOf(St);
}

bool ElfFile::isStillAt(const std::string &At) const {
  std::optional<FileIdentity> Now = FileIdentity::of(At);
  if (!Now || !(*Now == Identity))
    return false;
  if (BuildId.empty())
    return true;
  // Timestamps tick coarsely: a same-size rewrite within one tick keeps
  // them, but not the build-id of a different build.
  int Fd = ::open(At.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (Fd < 0)
    return false;
  std::string OnDisk(BuildId.size(), '\0');
  ssize_t N = pread(Fd, OnDisk.data(), OnDisk.size(),
                    static_cast<off_t>(BuildIdOffset));
  ::close(Fd);
  return N == static_cast<ssize_t>(OnDisk.size()) && OnDisk == BuildId;
}

ElfFile::~ElfFile() {
  if (Mapping)
    munmap(Mapping, MappingSize);
}

std::unique_ptr<ElfFile> ElfFile::open(const std::string &Path,
                                       std::string &Error, DebugSymbols Debug) {
  // Paths can come from a remote stub (library names): never open anything
  // but a regular file. stat() first keeps device files from being opened
  // at all (opening some has effects); O_NONBLOCK keeps a FIFO swapped in
  // after that check from blocking open(), and fstat() below rejects it.
  struct stat St;
  if (stat(Path.c_str(), &St) == 0 && !S_ISREG(St.st_mode)) {
    Error = Path + ": not a regular file";
    return nullptr;
  }
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (Fd < 0) {
    Error = Path + ": " + std::strerror(errno);
    return nullptr;
  }
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    Error = Path + ": not a regular file";
    ::close(Fd);
    return nullptr;
  }
  std::unique_ptr<ElfFile> F(new ElfFile());
  F->Path = Path;
  F->Identity = identityOf(St);
  if (St.st_size > 0) {
    void *M = mmap(nullptr, St.st_size, PROT_READ, MAP_PRIVATE, Fd, 0);
    if (M == MAP_FAILED) {
      Error = Path + ": mmap: " + std::strerror(errno);
      ::close(Fd);
      return nullptr;
    }
    F->Mapping = M;
    F->MappingSize = St.st_size;
    F->Data = static_cast<const uint8_t *>(M);
    F->Size = St.st_size;
  }
  ::close(Fd);
  if (F->Size < EI_NIDENT || std::memcmp(F->Data, ELFMAG, SELFMAG) != 0) {
    Error = Path + ": not an ELF file";
    return nullptr;
  }
  bool Ok = F->Data[EI_CLASS] == ELFCLASS64 ? F->parse<Elf64Traits>(Error)
            : F->Data[EI_CLASS] == ELFCLASS32
                ? F->parse<Elf32Traits>(Error)
                : (Error = Path + ": unknown ELF class", false);
  if (!Ok)
    return nullptr;
  if (Debug == DebugSymbols::Search)
    F->addSeparateDebugSymbols();
  return F;
}

std::unique_ptr<ElfFile> ElfFile::fromBuffer(std::vector<uint8_t> Data,
                                             std::string Name,
                                             std::string &Error) {
  std::unique_ptr<ElfFile> F(new ElfFile());
  F->Path = std::move(Name);
  F->Owned = std::move(Data);
  F->Data = F->Owned.data();
  F->Size = F->Owned.size();
  if (F->Size < EI_NIDENT || std::memcmp(F->Data, ELFMAG, SELFMAG) != 0) {
    Error = F->Path + ": not an ELF file";
    return nullptr;
  }
  bool Ok = F->Data[EI_CLASS] == ELFCLASS64 ? F->parse<Elf64Traits>(Error)
            : F->Data[EI_CLASS] == ELFCLASS32
                ? F->parse<Elf32Traits>(Error)
                : (Error = F->Path + ": unknown ELF class", false);
  if (!Ok)
    return nullptr;
  return F;
}

template <class Traits> bool ElfFile::parse(std::string &Error) {
  typename Traits::Ehdr Eh;
  if (!readStruct(Data, Size, 0, Eh)) {
    Error = Path + ": truncated ELF header";
    return false;
  }
  if (Eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    Error = Path + ": not a little-endian ELF file";
    return false;
  }
  Class = sizeof(typename Traits::Ehdr) == sizeof(Elf64_Ehdr) ? ElfClass::Elf64
                                                              : ElfClass::Elf32;
  Machine = Eh.e_machine;
  Type = Eh.e_type;
  Entry = Eh.e_entry;
  PhOff = Eh.e_phoff;
  PhSize = uint64_t(Eh.e_phnum) * Eh.e_phentsize;

  // Program headers.
  if (Eh.e_phnum && Eh.e_phentsize < sizeof(typename Traits::Phdr)) {
    Error = Path + ": bad program header size";
    return false;
  }
  for (unsigned I = 0; I < Eh.e_phnum; ++I) {
    typename Traits::Phdr Ph;
    if (!readStruct(Data, Size, Eh.e_phoff + uint64_t(I) * Eh.e_phentsize,
                    Ph)) {
      Error = Path + ": truncated program headers";
      return false;
    }
    ElfSegment S;
    S.Type = Ph.p_type;
    S.Flags = Ph.p_flags;
    S.Offset = Ph.p_offset;
    S.VAddr = Ph.p_vaddr;
    S.FileSize = Ph.p_filesz;
    S.MemSize = Ph.p_memsz;
    S.Align = Ph.p_align;
    if (S.Type == PT_INTERP && inBounds(S.Offset, S.FileSize, Size))
      Interp = readString(Data, Size, S.Offset, S.FileSize, 0);
    Segments.push_back(S);
  }

  // Section headers are optional (stripped or sstripped files): everything
  // below degrades to "nothing found".
  if (Eh.e_shnum && Eh.e_shentsize >= sizeof(typename Traits::Shdr)) {
    std::vector<typename Traits::Shdr> Raw;
    for (unsigned I = 0; I < Eh.e_shnum; ++I) {
      typename Traits::Shdr Sh;
      if (!readStruct(Data, Size, Eh.e_shoff + uint64_t(I) * Eh.e_shentsize,
                      Sh))
        break; // Truncated section table: keep what was read.
      Raw.push_back(Sh);
    }
    uint64_t StrOff = 0, StrSize = 0;
    if (Eh.e_shstrndx < Raw.size()) {
      StrOff = Raw[Eh.e_shstrndx].sh_offset;
      StrSize = Raw[Eh.e_shstrndx].sh_size;
    }
    for (const auto &Sh : Raw) {
      ElfSection S;
      S.Name = readString(Data, Size, StrOff, StrSize, Sh.sh_name);
      S.Type = Sh.sh_type;
      S.Flags = Sh.sh_flags;
      S.Addr = Sh.sh_addr;
      S.Offset = Sh.sh_offset;
      S.Size = Sh.sh_size;
      S.Link = Sh.sh_link;
      S.Info = Sh.sh_info;
      S.EntSize = Sh.sh_entsize;
      Sections.push_back(std::move(S));
    }
  }

  for (const ElfSection &S : Sections) {
    if (S.Type == SHT_SYMTAB)
      readSymbols<Traits>(S, /*Dyn=*/false);
    else if (S.Type == SHT_DYNSYM)
      readSymbols<Traits>(S, /*Dyn=*/true);
    else if (S.Name == ".eh_frame" && S.Type != SHT_NOBITS)
      EhFrame = ElfRange{S.Addr, S.Offset, S.Size};
    else if (S.Name == ".eh_frame_hdr" && S.Type != SHT_NOBITS)
      EhFrameHdr = ElfRange{S.Addr, S.Offset, S.Size};
  }
  // Without section headers the loader's view still finds .eh_frame_hdr.
  if (!EhFrameHdr)
    for (const ElfSegment &S : Segments)
      if (S.Type == PT_GNU_EH_FRAME)
        EhFrameHdr = ElfRange{S.VAddr, S.Offset, S.FileSize};
  readDynamic<Traits>();
  readNotes();
  readDebugLink();
  finishSymbols();
  Usdt = readUsdtProbes(*this, UsdtProblems);
  return true;
}

template <class Traits>
void ElfFile::readSymbols(const ElfSection &Tab, bool Dyn) {
  if (Tab.Link >= Sections.size() || !inBounds(Tab.Offset, Tab.Size, Size))
    return;
  const ElfSection &Str = Sections[Tab.Link];
  size_t Count = Tab.Size / sizeof(typename Traits::Sym);
  for (size_t I = 1; I < Count; ++I) {
    typename Traits::Sym Sym;
    if (!readStruct(Data, Size, Tab.Offset + I * sizeof(Sym), Sym))
      break;
    unsigned char T = Traits::symType(Sym.st_info);
    if ((T != STT_FUNC && T != STT_GNU_IFUNC) || Sym.st_shndx == SHN_UNDEF ||
        Sym.st_value == 0)
      continue;
    ElfSymbol S;
    S.Name = readString(Data, Size, Str.Offset, Str.Size, Sym.st_name);
    if (S.Name.empty())
      continue;
    S.Value = Sym.st_value;
    S.Size = Sym.st_size;
    unsigned char B = Traits::symBind(Sym.st_info);
    S.Global = B == STB_GLOBAL || B == STB_WEAK || B == STB_GNU_UNIQUE;
    S.Dynamic = Dyn;
    S.IFunc = T == STT_GNU_IFUNC;
    Functions.push_back(std::move(S));
  }
}

template <class Traits> void ElfFile::readDynamic() {
  const ElfSegment *DynSeg = nullptr;
  for (const ElfSegment &S : Segments)
    if (S.Type == PT_DYNAMIC)
      DynSeg = &S;
  if (!DynSeg || !inBounds(DynSeg->Offset, DynSeg->FileSize, Size))
    return;
  uint64_t StrTab = 0, StrSz = 0, SonameIdx = UINT64_MAX;
  uint64_t RunPathIdx = UINT64_MAX, RPathIdx = UINT64_MAX;
  std::vector<uint64_t> NeededIdx;
  size_t Count = DynSeg->FileSize / sizeof(typename Traits::Dyn);
  for (size_t I = 0; I < Count; ++I) {
    typename Traits::Dyn D;
    if (!readStruct(Data, Size, DynSeg->Offset + I * sizeof(D), D) ||
        D.d_tag == DT_NULL)
      break;
    if (D.d_tag == DT_STRTAB)
      StrTab = D.d_un.d_ptr;
    else if (D.d_tag == DT_STRSZ)
      StrSz = D.d_un.d_val;
    else if (D.d_tag == DT_SONAME)
      SonameIdx = D.d_un.d_val;
    else if (D.d_tag == DT_NEEDED && NeededIdx.size() < 4096)
      NeededIdx.push_back(D.d_un.d_val);
    else if (D.d_tag == DT_RUNPATH)
      RunPathIdx = D.d_un.d_val;
    else if (D.d_tag == DT_RPATH)
      RPathIdx = D.d_un.d_val;
  }
  // DT_STRTAB is an address; map it back to a file offset.
  for (const ElfSegment &S : Segments) {
    if (S.Type != PT_LOAD || StrTab < S.VAddr || StrTab - S.VAddr >= S.FileSize)
      continue;
    uint64_t Off = S.Offset + (StrTab - S.VAddr);
    uint64_t Avail = S.FileSize - (StrTab - S.VAddr);
    uint64_t Len = StrSz ? std::min(StrSz, Avail) : Avail;
    auto Str = [&](uint64_t Idx) {
      return Idx == UINT64_MAX ? std::string()
                               : readString(Data, Size, Off, Len, Idx);
    };
    Soname = Str(SonameIdx);
    for (uint64_t Idx : NeededIdx)
      Needed.push_back(Str(Idx));
    // The loader ignores DT_RPATH when DT_RUNPATH is present.
    RunPath = Str(RunPathIdx != UINT64_MAX ? RunPathIdx : RPathIdx);
    return;
  }
}

void ElfFile::finishSymbols() {
  std::sort(Functions.begin(), Functions.end(),
            [](const ElfSymbol &A, const ElfSymbol &B) {
              if (A.Value != B.Value)
                return A.Value < B.Value;
              return A.Name < B.Name;
            });
  // Merge the .symtab and .dynsym copies of one symbol, keeping the larger
  // size (some toolchains leave one of them 0).
  std::vector<ElfSymbol> Out;
  for (ElfSymbol &S : Functions) {
    if (!Out.empty() && Out.back().Value == S.Value &&
        Out.back().Name == S.Name) {
      Out.back().Size = std::max(Out.back().Size, S.Size);
      Out.back().Dynamic |= S.Dynamic;
      Out.back().Global |= S.Global;
      continue;
    }
    Out.push_back(std::move(S));
  }
  Functions = std::move(Out);
  ByName.resize(Functions.size());
  for (size_t I = 0; I < ByName.size(); ++I)
    ByName[I] = I;
  std::stable_sort(ByName.begin(), ByName.end(), [&](size_t A, size_t B) {
    return Functions[A].Name < Functions[B].Name;
  });
}

namespace {

/// Calls F(Type, Name, Desc, NoteOffset, NoteSize) for each note of the
/// bytes [Off, Off+Len) of the file, stopping when F returns true.
template <class Fn>
void forEachNote(const uint8_t *Data, size_t Size, uint64_t Off, uint64_t Len,
                 uint64_t Align, Fn F) {
  if (!inBounds(Off, Len, Size))
    return;
  uint64_t A = Align == 8 ? 8 : 4;
  auto Round = [A](uint64_t V) { return (V + A - 1) & ~(A - 1); };
  uint64_t Pos = 0;
  while (Len - Pos >= 12) {
    uint32_t Hdr[3];
    std::memcpy(Hdr, Data + Off + Pos, sizeof(Hdr));
    uint64_t NameAt = Pos + 12, DescAt = NameAt + Round(Hdr[0]);
    uint64_t End = DescAt + Round(Hdr[1]);
    if (DescAt > Len || End > Len || Hdr[1] > Len)
      return;
    std::string_view Name(reinterpret_cast<const char *>(Data + Off + NameAt),
                          Hdr[0]);
    std::string_view Desc(reinterpret_cast<const char *>(Data + Off + DescAt),
                          Hdr[1]);
    if (F(Hdr[2], Name, Desc, Pos, End - Pos))
      return;
    Pos = End;
  }
}

} // namespace

void ElfFile::readNotes() {
  auto Take = [&](uint64_t Off, uint64_t Len, uint64_t Align,
                  std::optional<uint64_t> VAddr) {
    forEachNote(Data, Size, Off, Len, Align,
                [&](uint32_t T, std::string_view Name, std::string_view Desc,
                    uint64_t At, uint64_t NoteSize) {
                  if (T != NT_GNU_BUILD_ID ||
                      Name != std::string_view("GNU\0", 4) || Desc.empty())
                    return false;
                  BuildId = std::string(Desc);
                  BuildIdOffset = static_cast<uint64_t>(
                      reinterpret_cast<const uint8_t *>(Desc.data()) - Data);
                  if (VAddr && loadSegmentFor(*VAddr + At))
                    BuildIdNote = ElfRange{*VAddr + At, Off + At, NoteSize};
                  return true;
                });
  };
  // The loader's view first: it says where the note is in memory.
  for (const ElfSegment &S : Segments)
    if (S.Type == PT_NOTE && BuildId.empty())
      Take(S.Offset, S.FileSize, S.Align, S.VAddr);
  for (const ElfSection &S : Sections)
    if (S.Type == SHT_NOTE && BuildId.empty())
      Take(S.Offset, S.Size, 4,
           S.Flags & SHF_ALLOC ? std::optional<uint64_t>(S.Addr)
                               : std::nullopt);
}

void ElfFile::readDebugLink() {
  const ElfSection *S = section(".gnu_debuglink");
  if (!S || S->Type == SHT_NOBITS || !inBounds(S->Offset, S->Size, Size))
    return;
  std::string Name = readString(Data, Size, S->Offset, S->Size, 0);
  // The CRC follows the name's NUL, 4-byte aligned.
  uint64_t CrcAt = (Name.size() + 1 + 3) & ~uint64_t(3);
  if (Name.empty() || Name.find('/') != std::string::npos ||
      CrcAt + 4 > S->Size)
    return;
  DebugLinkName = std::move(Name);
  std::memcpy(&DebugLinkCrc, Data + S->Offset + CrcAt, 4);
}

std::optional<ElfRange> ElfFile::programHeaders() const {
  std::optional<uint64_t> VAddr = offsetToVAddr(PhOff);
  if (!PhSize || !VAddr || !inBounds(PhOff, PhSize, Size))
    return std::nullopt;
  return ElfRange{*VAddr, PhOff, PhSize};
}

std::string ElfFile::buildIdHex() const {
  static const char Digits[] = "0123456789abcdef";
  std::string Hex;
  for (unsigned char C : BuildId) {
    Hex += Digits[C >> 4];
    Hex += Digits[C & 15];
  }
  return Hex;
}

bool ElfFile::sameLoadLayout(const ElfFile &Other) const {
  for (const ElfSegment &S : Segments) {
    if (S.Type != PT_LOAD)
      continue;
    bool Found = false;
    for (const ElfSegment &O : Other.Segments)
      Found |=
          O.Type == PT_LOAD && O.VAddr == S.VAddr && O.MemSize == S.MemSize;
    if (!Found)
      return false;
  }
  return true;
}

bool ElfFile::isRelocatable() const { return Type == ET_DYN; }

const ElfSection *ElfFile::section(std::string_view Name) const {
  for (const ElfSection &S : Sections)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

uint64_t ElfFile::firstLoadAddress() const {
  uint64_t Min = UINT64_MAX;
  for (const ElfSegment &S : Segments) {
    if (S.Type != PT_LOAD)
      continue;
    uint64_t A = S.VAddr;
    // Mappings are page-aligned; p_align may be larger than a page, but the
    // kernel only rounds to the page size.
    A &= ~uint64_t(0xfff);
    Min = std::min(Min, A);
  }
  return Min == UINT64_MAX ? 0 : Min;
}

const ElfSegment *ElfFile::loadSegmentFor(uint64_t VAddr) const {
  for (const ElfSegment &S : Segments)
    if (S.Type == PT_LOAD && VAddr >= S.VAddr && VAddr - S.VAddr < S.MemSize)
      return &S;
  return nullptr;
}

std::optional<uint64_t> ElfFile::offsetToVAddr(uint64_t Off) const {
  for (const ElfSegment &S : Segments)
    if (S.Type == PT_LOAD && Off >= S.Offset && Off - S.Offset < S.FileSize)
      return S.VAddr + (Off - S.Offset);
  return std::nullopt;
}

std::optional<std::pair<uint64_t, uint64_t>> ElfFile::loadedRange() const {
  uint64_t Lo = UINT64_MAX, Hi = 0;
  for (const ElfSegment &S : Segments) {
    if (S.Type != PT_LOAD)
      continue;
    Lo = std::min(Lo, S.VAddr);
    Hi = std::max(Hi, S.VAddr + S.MemSize);
  }
  if (Lo == UINT64_MAX)
    return std::nullopt;
  return std::make_pair(Lo & ~0xfffull, Hi);
}

const ElfSymbol *ElfFile::findFunction(std::string_view Name) const {
  auto It = std::lower_bound(
      ByName.begin(), ByName.end(), Name,
      [&](size_t I, std::string_view N) { return Functions[I].Name < N; });
  if (It == ByName.end() || Functions[*It].Name != Name)
    return nullptr;
  return &Functions[*It];
}

const ElfSymbol *
ElfFile::preferredAlias(std::vector<ElfSymbol>::const_iterator It) const {
  // Aliases share an address (__libc_start_main and, from the debug file,
  // __libc_start_main_impl): name it by the exported one, as the
  // program's own symbol tables would without a debug file.
  auto Rank = [](const ElfSymbol &S) { return S.Dynamic * 2 + S.Global; };
  const ElfSymbol *Best = &*It;
  for (auto J = It; J != Functions.end() && J->Value == It->Value; ++J)
    if (J->Size == It->Size && Rank(*J) > Rank(*Best))
      Best = &*J;
  for (auto J = It; J != Functions.begin() && (J - 1)->Value == It->Value;) {
    --J;
    if (J->Size == It->Size && Rank(*J) > Rank(*Best))
      Best = &*J;
  }
  return Best;
}

const ElfSymbol *ElfFile::functionContaining(uint64_t VAddr) const {
  auto It = std::upper_bound(
      Functions.begin(), Functions.end(), VAddr,
      [](uint64_t A, const ElfSymbol &S) { return A < S.Value; });
  // Walk back over symbols at or below VAddr; prefer one whose size covers
  // it, since aliases and zero-sized labels share addresses.
  const ElfSymbol *Fallback = nullptr;
  while (It != Functions.begin()) {
    --It;
    if (It->Size && VAddr - It->Value < It->Size)
      return preferredAlias(It);
    if (!It->Size && !Fallback)
      Fallback = &*It;
    // Stop once symbols are clearly too far to matter.
    if (VAddr - It->Value > (1u << 20))
      break;
  }
  if (!Fallback)
    return nullptr;
  const ElfSegment *A = loadSegmentFor(Fallback->Value);
  if (!A || A != loadSegmentFor(VAddr))
    return nullptr;
  return Fallback;
}

bool ElfFile::readVAddr(uint64_t VAddr, void *Dst, size_t Len) const {
  auto *Out = static_cast<uint8_t *>(Dst);
  while (Len) {
    const ElfSegment *S = loadSegmentFor(VAddr);
    if (!S)
      return false;
    uint64_t In = VAddr - S->VAddr;
    if (In >= S->FileSize)
      return false;
    uint64_t N = std::min<uint64_t>(Len, S->FileSize - In);
    if (!inBounds(S->Offset + In, N, Size))
      return false;
    std::memcpy(Out, Data + S->Offset + In, N);
    Out += N;
    VAddr += N;
    Len -= N;
  }
  return true;
}

std::string_view ElfFile::bytes(uint64_t Offset, uint64_t Len) const {
  if (!inBounds(Offset, Len, Size))
    return {};
  return std::string_view(reinterpret_cast<const char *>(Data + Offset), Len);
}
