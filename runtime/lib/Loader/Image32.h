//===- Image32.h - i386 relocatable objects, for 32-bit targets -*- C++ -*-===//
//
// Internal to the loader. Code that runs inside 32-bit processes -- the
// i386 agent and a probe object's i386 stream (abi.h, tscc_streams) -- is
// an ELF32 i386 ET_REL built with the static relocation model, so it needs
// only absolute and PC-relative 32-bit relocations (R_386_32, R_386_PC32,
// R_386_PLT32), applied for the one address it gets in the target. Like
// the ELF64 loader, it checks every offset, size and index it reads: the
// object comes from a probe object, which is untrusted input.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_LOADER_IMAGE32_H
#define TSCC_RUNTIME_LIB_LOADER_IMAGE32_H

#include "LoadedImage.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>

namespace tscc::rt {

/// Whether Bytes start like an ELF32 object (then the functions below, not
/// the ELF64 loader's, apply).
bool isElf32(std::span<const uint8_t> Bytes);

/// The layout of an i386 object without relocating it: its allocated
/// sections (offset in the mapping, size) and the function symbols in them
/// (section name -> start offset -> size), for checking a clause table.
struct Image32Summary {
  uint64_t MappingSize = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>, std::less<>> Sections;
  std::map<std::string, std::map<uint64_t, uint64_t>, std::less<>> Functions;
};
bool summarizeImage32(std::span<const uint8_t> Bytes, Image32Summary &Out,
                      std::string &Error);

/// relocatedImageSize / relocateImage for an i386 object; Base + the
/// mapping must lie below 4 GiB.
bool relocatedImageSize32(std::span<const uint8_t> Bytes, uint64_t &Size,
                          std::string &Error);
bool relocateImage32(std::span<const uint8_t> Bytes, uint64_t Base,
                     const SymbolResolver &Resolve, RelocatedImage &Out,
                     std::string &Error);

} // namespace tscc::rt

#endif
