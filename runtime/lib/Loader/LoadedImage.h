//===- LoadedImage.h - An ET_REL object mapped and relocated ----*- C++ -*-===//
//
// Internal to the loader. The image is one anonymous mapping holding every
// SHF_ALLOC section, a small GOT and the call stubs for the few libc
// functions LLVM may call, so every PC-relative reference stays within the
// mapping and therefore within +-2 GB.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_LOADER_LOADEDIMAGE_H
#define TSCC_RUNTIME_LIB_LOADER_LOADEDIMAGE_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

/// Addresses of the undefined symbols of an image that runs in another
/// process (an agent's memcpy, say); nullopt leaves a symbol unresolved.
using SymbolResolver =
    std::function<std::optional<uint64_t>(std::string_view Name)>;

/// An object laid out and relocated to run at Base in another process: the
/// bytes to write there, and where things ended up.
struct RelocatedImage {
  uint64_t Base = 0;
  std::vector<uint8_t> Bytes; ///< the whole mapping, .bss included
  uint64_t ExecEnd = 0;       ///< [0, ExecEnd): read + execute
  uint64_t RwStart = 0;       ///< [ExecEnd, RwStart): read-only; then RW
  uint64_t ContentEnd = 0;    ///< everything from here on is zero
  /// Defined global symbols, and every allocated section (address, size).
  std::map<std::string, uint64_t, std::less<>> Symbols;
  std::map<std::string, std::pair<uint64_t, uint64_t>, std::less<>> Sections;
};

/// Bytes of the mapping an object needs (to reserve it before relocating).
bool relocatedImageSize(std::span<const uint8_t> Bytes, uint64_t &Size,
                        std::string &Error);
/// Lays out and relocates Bytes to run at Base; undefined symbols come
/// from Resolve. Same checks as for a local load.
bool relocateImage(std::span<const uint8_t> Bytes, uint64_t Base,
                   const SymbolResolver &Resolve, RelocatedImage &Out,
                   std::string &Error);

class LoadedImage {
public:
  struct Section {
    const uint8_t *Data = nullptr; ///< in the mapping (or the file bytes
                                   ///< for non-allocated sections)
    uint64_t Size = 0;
    bool Alloc = false;
  };

  /// Maps and relocates Bytes (an ELF64 x86-64 ET_REL). Name prefixes
  /// errors. Null on failure with Error set (without the name).
  static std::unique_ptr<LoadedImage> create(std::span<const uint8_t> Bytes,
                                             std::string &Error);
  ~LoadedImage();

  /// The named section, or null. Non-allocated sections are copied, so the
  /// image never refers to the caller's bytes after create() returns.
  const Section *section(std::string_view Name) const;
  /// The size of the function symbol (STT_FUNC) that starts at Offset in
  /// the named allocated section, or nullopt if no function starts there.
  std::optional<uint64_t> functionAt(std::string_view Section,
                                     uint64_t Offset) const;
  uint64_t mappingSize() const { return Size; }
  bool contains(uintptr_t P) const {
    return P >= reinterpret_cast<uintptr_t>(Base) &&
           P - reinterpret_cast<uintptr_t>(Base) < Size;
  }

private:
  LoadedImage() = default;
  uint8_t *Base = nullptr;
  uint64_t Size = 0;
  std::map<std::string, Section, std::less<>> Sections;
  std::map<std::string, std::unique_ptr<uint8_t[]>, std::less<>> Copies;
  /// Per allocated section: function start offset -> size.
  std::map<std::string, std::map<uint64_t, uint64_t>, std::less<>> Functions;
  friend class ImageBuilder;
};

} // namespace tscc::rt

#endif
