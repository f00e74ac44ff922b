//===- tscc/Runtime/ProbeProgram.h - A loaded, validated probe object -----===//
//
// A ProbeProgram is a compiled probe object made runnable: its tables have
// been validated against abi.h and its two code regions are mapped,
// relocated and executable. It comes either from a probe.o file (the loader
// maps it, see Loader.h) or from the running executable itself when the
// object was linked in by the system linker (fromLinkedImage()).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PROBEPROGRAM_H
#define TSCC_RUNTIME_PROBEPROGRAM_H

#include "tscc/Runtime/Target.h"
#include "tscc/abi.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace tscc::rt {

class LoadedImage;

/// The raw table sections of an object, wherever they live. Used by the
/// loader, by fromLinkedImage() and by tsreport (which reads them back from a
/// binary trace file and never runs code).
struct ProgramTables {
  std::span<const uint8_t> Header, Clauses, Probes, Formats, Fields, Maps, Aggs,
      Within, Strtab;
  /// Base addresses of the two code regions and their sizes; null when the
  /// tables are only to be read (tsreport).
  const uint8_t *Text[TSCC_DM_COUNT] = {nullptr, nullptr};
  uint64_t TextSize[TSCC_DM_COUNT] = {0, 0};
};

class ProbeProgram {
public:
  /// Loads, relocates and validates a probe object file. On failure returns
  /// null and sets Error to "FILE: problem".
  static std::unique_ptr<ProbeProgram> load(const std::string &Path,
                                            std::string &Error);
  /// Decides from the opened file's status whether it may be loaded (the
  /// descriptor's, so it cannot be swapped between check and read).
  using FileCheck = std::function<bool(const struct stat &, std::string &)>;
  static std::unique_ptr<ProbeProgram>
  load(const std::string &Path, std::string &Error, const FileCheck &Check);
  /// Same, from bytes already in memory; Name is used in messages.
  static std::unique_ptr<ProbeProgram>
  loadFromMemory(std::span<const uint8_t> Bytes, std::string_view Name,
                 std::string &Error);
  /// The object linked into this executable by the system linker, found
  /// through the weak __start_tscc_* / __stop_tscc_* symbols. Null with an
  /// error when the executable carries no probe object.
  static std::unique_ptr<ProbeProgram> fromLinkedImage(std::string &Error);
  /// Tables only (no code): validated copies, for tsreport.
  static std::unique_ptr<ProbeProgram>
  fromTables(const ProgramTables &T, std::string_view Name, std::string &Error);

  ~ProbeProgram();
  ProbeProgram(const ProbeProgram &) = delete;
  ProbeProgram &operator=(const ProbeProgram &) = delete;

  const std::string &name() const { return Name; }
  const tscc_header &header() const { return Header; }
  std::span<const tscc_clause> clauses() const { return Clauses; }
  std::span<const tscc_probe> probes() const { return Probes; }
  std::span<const tscc_format> formats() const { return Formats; }
  std::span<const tscc_field> fields() const { return Fields; }
  std::span<const tscc_map> maps() const { return Maps; }
  std::span<const tscc_agg> aggs() const { return Aggs; }
  std::span<const uint32_t> withinTable() const { return Within; }
  std::span<const char> strtab() const { return Strtab; }

  /// A strtab string; "" for an out-of-range offset (validated tables never
  /// have one, but callers need not care).
  std::string_view string(uint32_t Offset) const;
  std::string_view withinName(uint32_t Index) const;
  std::string_view sourceName() const { return string(Header.source_name); }
  std::string_view compilerVersion() const {
    return string(Header.compiler_version);
  }

  /// Whether code is mapped (false for fromTables()).
  bool hasCode() const { return Text[0] || Text[1]; }
  /// Whether PC lies in the program's code: the whole loaded image (clause
  /// code may call local helpers outside the two text sections) or, for a
  /// linked-in object, its two text sections.
  bool containsCode(uintptr_t PC) const;
  /// Whether [Addr, Addr + Len) lies in the loaded image (code, read-only
  /// data, writable data). nullopt when the program was not loaded from a
  /// file (linked in, or tables only) and its memory is not known.
  std::optional<bool> containsMemory(uintptr_t Addr, uint64_t Len) const;
  /// The clause's predicate for a data model, or null if it has none.
  tscc_predicate_fn predicate(uint32_t Clause, DataModel DM) const;
  /// The clause's action for a data model, or null when there is no code.
  tscc_action_fn action(uint32_t Clause, DataModel DM) const;

  /// The fields of a format / an aggregation's keys / a map's key.
  std::span<const tscc_field> formatFields(uint32_t Format) const;
  std::span<const tscc_field> aggKeyFields(uint32_t Agg) const;

  /// Re-serialisable copy of the tables, for the binary trace file.
  ProgramTables tables() const;

  /// The object file as loaded, for relocating its code into a target
  /// (in-process clauses); empty for linked-in and tables-only programs.
  std::span<const uint8_t> objectBytes() const { return ObjectBytes; }

  /// A further code stream of the object (abi.h, tscc_streams, ABI 1.5):
  /// one data model's clauses compiled for another instruction set, as an
  /// ELF relocatable to relocate into a target, validated like the object
  /// (every entry is a function of the image's text section).
  struct CodeStream {
    uint16_t Machine = 0; ///< ELF e_machine: EM_386
    DataModel DM = DataModel::ILP32;
    std::span<const uint8_t> Image;
    std::vector<tscc_stream_entry> Entries; ///< one per clause
  };
  /// The stream of that instruction set and data model, or null (objects
  /// before ABI 1.5, linked-in and tables-only programs, or compiled
  /// without it).
  const CodeStream *codeStream(uint16_t Machine, DataModel DM) const;
  std::span<const CodeStream> codeStreams() const { return Streams; }

private:
  ProbeProgram() = default;
  bool adopt(const ProgramTables &T, std::string &Error);

  std::string Name;
  tscc_header Header{};
  // Owned copies of the tables: naturally aligned whatever the source was.
  std::unique_ptr<uint8_t[]> Storage;
  std::span<const tscc_clause> Clauses;
  std::span<const tscc_probe> Probes;
  std::span<const tscc_format> Formats;
  std::span<const tscc_field> Fields;
  std::span<const tscc_map> Maps;
  std::span<const tscc_agg> Aggs;
  std::span<const uint32_t> Within;
  std::span<const char> Strtab;
  std::span<const uint8_t> RawHeader;
  const uint8_t *Text[TSCC_DM_COUNT] = {nullptr, nullptr};
  uint64_t TextSize[TSCC_DM_COUNT] = {0, 0};
  std::unique_ptr<LoadedImage> Image; ///< the mapping, for load()
  std::vector<uint8_t> ObjectBytes;
  std::vector<CodeStream> Streams;
  friend bool loadCodeStreams(ProbeProgram &P, const LoadedImage &Image,
                              std::string &Error);
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_PROBEPROGRAM_H
