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
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace tscc::rt {

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
  friend class ImageBuilder;
};

} // namespace tscc::rt

#endif
