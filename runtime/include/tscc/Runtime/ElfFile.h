//===- tscc/Runtime/ElfFile.h - Read-only view of an ELF executable -------===//
//
// Probe resolution and unwinding need a few facts about each module a traced
// process maps: its class (ELF32 or ELF64), load segments, interpreter,
// soname, function symbols and where the unwind tables are. ElfFile reads
// exactly those, for i386 and x86-64 executables and shared libraries, and
// treats every offset in the file as untrusted: a truncated or corrupt file
// yields an error message, never a crash.
//
// Shared by the ptrace backend and the gdb-remote backend.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_ELFFILE_H
#define TSCC_RUNTIME_ELFFILE_H

#include "tscc/Runtime/Usdt.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tscc::rt {

enum class ElfClass : uint8_t { Elf32, Elf64 };

/// A program header (PT_LOAD, PT_DYNAMIC, PT_INTERP, ...), widened to 64 bits.
struct ElfSegment {
  uint32_t Type = 0;   ///< PT_*
  uint32_t Flags = 0;  ///< PF_R | PF_W | PF_X
  uint64_t Offset = 0; ///< file offset
  uint64_t VAddr = 0;  ///< link-time virtual address
  uint64_t FileSize = 0;
  uint64_t MemSize = 0;
  uint64_t Align = 0;
};

/// A section header, widened to 64 bits, with its name resolved.
struct ElfSection {
  std::string Name;
  uint32_t Type = 0; ///< SHT_*
  uint64_t Flags = 0;
  uint64_t Addr = 0; ///< link-time virtual address (0 if not allocated)
  uint64_t Offset = 0;
  uint64_t Size = 0;
  uint32_t Link = 0;
  uint32_t Info = 0;
  uint64_t EntSize = 0;
};

/// A function symbol (STT_FUNC or STT_GNU_IFUNC, defined in this module).
struct ElfSymbol {
  std::string Name;
  uint64_t Value = 0; ///< link-time virtual address
  uint64_t Size = 0;  ///< 0 when the symbol table does not know
  bool Global = false;
  bool Dynamic = false; ///< seen in .dynsym (possibly also in .symtab)
  bool IFunc = false;   ///< an IFUNC resolver, not the implementation
};

/// A [VAddr, VAddr + Size) range of the file's address space.
struct ElfRange {
  uint64_t VAddr = 0;
  uint64_t Offset = 0; ///< file offset of VAddr
  uint64_t Size = 0;
};

/// What tells one version of a file from another: a file rewritten in
/// place, or a new file put at the same path, differs in at least one of
/// these (timestamps have the file system's granularity, which is why
/// ElfCache compares the build-id too).
struct FileIdentity {
  uint64_t Dev = 0, Ino = 0, Size = 0;
  int64_t MTimeNs = 0, CTimeNs = 0;
  bool operator==(const FileIdentity &) const = default;
  /// The identity of the file at Path now, or none if it cannot be stat'ed.
  static std::optional<FileIdentity> of(const std::string &Path);
};

/// Where tsrun looks for separate debug files (DebugSymbols.cpp).
enum class DebugSymbols : uint8_t {
  Search, ///< build-id and .gnu_debuglink, see docs/runtime.md
  None,   ///< this file's own symbol tables only
};

class ElfFile {
public:
  /// Reads Path. On failure returns null and sets Error ("<path>: why").
  /// With DebugSymbols::Search, the function symbols of a separate debug
  /// file (found by build-id or `.gnu_debuglink`, and checked to describe
  /// this very file) are added to functions().
  static std::unique_ptr<ElfFile>
  open(const std::string &Path, std::string &Error,
       DebugSymbols Debug = DebugSymbols::Search);
  /// Parses an in-memory image; Name is used in messages only.
  static std::unique_ptr<ElfFile>
  fromBuffer(std::vector<uint8_t> Data, std::string Name, std::string &Error);
  ~ElfFile();
  ElfFile(const ElfFile &) = delete;
  ElfFile &operator=(const ElfFile &) = delete;

  const std::string &path() const { return Path; }
  ElfClass elfClass() const { return Class; }
  bool is64() const { return Class == ElfClass::Elf64; }
  uint16_t machine() const { return Machine; } ///< EM_386, EM_X86_64, ...
  uint16_t type() const { return Type; }       ///< ET_EXEC, ET_DYN, ...
  /// ET_DYN: loaded at a bias chosen by the loader (PIE or library).
  bool isRelocatable() const;
  uint64_t entry() const { return Entry; }

  const std::vector<ElfSegment> &segments() const { return Segments; }
  const std::vector<ElfSection> &sections() const { return Sections; }
  const ElfSection *section(std::string_view Name) const;

  /// PT_INTERP contents ("/lib64/ld-linux-x86-64.so.2"), empty if none.
  const std::string &interpreter() const { return Interp; }
  /// DT_SONAME, empty if none.
  const std::string &soname() const { return Soname; }
  /// DT_NEEDED entries, in order.
  const std::vector<std::string> &needed() const { return Needed; }
  /// DT_RUNPATH, else DT_RPATH (unexpanded: may contain $ORIGIN).
  const std::string &runPath() const { return RunPath; }
  /// Lowest PT_LOAD virtual address rounded down to its alignment: the
  /// address that maps to the lowest mapping of the file. A module's load
  /// bias is (start of its lowest mapping) - firstLoadAddress() when the
  /// lowest mapping has file offset 0.
  uint64_t firstLoadAddress() const;
  /// The PT_LOAD segment containing link-time address VAddr, or null.
  const ElfSegment *loadSegmentFor(uint64_t VAddr) const;
  /// Link-time address of the file offset Off, if a PT_LOAD maps it.
  std::optional<uint64_t> offsetToVAddr(uint64_t Off) const;
  /// The link-time address range [page start of the lowest PT_LOAD, end of
  /// the highest) that the loader maps; none when there is no PT_LOAD.
  /// Both backends place a module in a process with it (plus the bias).
  std::optional<std::pair<uint64_t, uint64_t>> loadedRange() const;

  /// Function symbols of .symtab and .dynsym, deduplicated by (name,
  /// address), sorted by address then name.
  const std::vector<ElfSymbol> &functions() const { return Functions; }
  /// The first function named Name, or null.
  const ElfSymbol *findFunction(std::string_view Name) const;
  /// The function whose [Value, Value+Size) contains VAddr; when sizes are
  /// unknown, the closest preceding symbol inside the same executable
  /// segment. Null if none.
  const ElfSymbol *functionContaining(uint64_t VAddr) const;

  /// The SystemTap SDT probes of `.note.stapsdt`, addresses adjusted by
  /// `.stapsdt.base` (Usdt.h), and what could not be understood in them.
  /// `tsrun -l` lists a module's USDT probes from here.
  const std::vector<UsdtProbe> &usdtProbes() const { return Usdt; }
  const std::vector<std::string> &usdtProblems() const { return UsdtProblems; }

  /// The descriptor of the NT_GNU_BUILD_ID note (raw bytes), empty if the
  /// file has none; buildIdHex() is its usual spelling.
  const std::string &buildId() const { return BuildId; }
  std::string buildIdHex() const;
  /// The file open() read (zero for fromBuffer()).
  const FileIdentity &identity() const { return Identity; }
  /// Whether the file at Path is still the one this was read from: the
  /// same identity, and where this has a build-id, the same bytes at the
  /// build-id's place in the file now.
  bool isStillAt(const std::string &Path) const;
  /// Link-time address and size of that whole note (header, name and
  /// descriptor), when a PT_LOAD maps it: where a process has it in memory.
  std::optional<ElfRange> buildIdNote() const { return BuildIdNote; }
  /// The program headers as the file holds them, with their link-time
  /// address when a PT_LOAD maps them (as it does for the loader to read).
  std::optional<ElfRange> programHeaders() const;
  /// `.gnu_debuglink`: the debug file's name and the CRC-32 of its bytes.
  const std::string &debugLink() const { return DebugLinkName; }
  uint32_t debugLinkCrc() const { return DebugLinkCrc; }
  /// The separate debug file whose symbols functions() includes, or empty.
  const std::string &debugFile() const { return DebugFile; }
  /// Debug files that were found but not used, and why (one line each).
  const std::vector<std::string> &debugProblems() const {
    return DebugProblems;
  }
  /// Whether [VAddr, VAddr+Size) of every PT_LOAD of this file is a
  /// PT_LOAD of Other too: a debug file describes the same addresses.
  bool sameLoadLayout(const ElfFile &Other) const;

  std::optional<ElfRange> ehFrame() const { return EhFrame; }
  std::optional<ElfRange> ehFrameHdr() const { return EhFrameHdr; }

  /// Copies file bytes backing link-time addresses [VAddr, VAddr+Len).
  /// False if any byte is not file-backed (bss, outside every PT_LOAD).
  bool readVAddr(uint64_t VAddr, void *Dst, size_t Len) const;
  /// The raw file bytes, bounds-checked; empty view when out of range.
  std::string_view bytes(uint64_t Offset, uint64_t Len) const;

private:
  ElfFile() = default;
  template <class Traits> bool parse(std::string &Error);
  template <class Traits> void readSymbols(const ElfSection &Tab, bool Dyn);
  template <class Traits> void readDynamic();
  const ElfSymbol *
  preferredAlias(std::vector<ElfSymbol>::const_iterator It) const;
  void readNotes();
  void readDebugLink();
  /// Adds the function symbols of a separate debug file (DebugSymbols.cpp).
  void addSeparateDebugSymbols();
  void finishSymbols();

  std::string Path;
  const uint8_t *Data = nullptr;
  size_t Size = 0;
  std::vector<uint8_t> Owned; ///< fromBuffer()
  void *Mapping = nullptr;    ///< open(): mmap'ed file
  size_t MappingSize = 0;

  ElfClass Class = ElfClass::Elf64;
  uint16_t Machine = 0;
  uint16_t Type = 0;
  uint64_t Entry = 0;
  uint64_t PhOff = 0, PhSize = 0;
  std::vector<ElfSegment> Segments;
  std::vector<ElfSection> Sections;
  std::string Interp;
  std::string Soname;
  std::vector<std::string> Needed;
  std::string RunPath;
  std::vector<ElfSymbol> Functions;
  std::vector<size_t> ByName; ///< indices into Functions sorted by name
  std::optional<ElfRange> EhFrame, EhFrameHdr;
  std::vector<UsdtProbe> Usdt;
  std::vector<std::string> UsdtProblems;
  std::string BuildId;
  uint64_t BuildIdOffset = 0; ///< of its descriptor, in the file
  std::optional<ElfRange> BuildIdNote;
  FileIdentity Identity;
  std::string DebugLinkName;
  uint32_t DebugLinkCrc = 0;
  std::string DebugFile;
  std::vector<std::string> DebugProblems;
};

/// The CRC-32 that `.gnu_debuglink` records (zlib's, as gdb computes it).
uint32_t debugLinkCrc32(std::string_view Bytes, uint32_t Crc = 0);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_ELFFILE_H
