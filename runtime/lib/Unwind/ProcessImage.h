//===- ProcessImage.h - What a process's agent walks stacks with (private) -===//
//
// A process whose clauses key aggregations by stack walks its threads'
// stacks itself (runtime/lib/InProcess/Agent/stackid.c) over the modules'
// compiled unwind tables (CompactTable.h). tsrun writes each module's
// table into the process once, then an image (tscc/unwind_table.h) that
// lists the modules with where their tables are, and points the agent at
// it; a new image when the modules change (dlopen, dlclose).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_UNWIND_PROCESSIMAGE_H
#define TSCC_RUNTIME_UNWIND_PROCESSIMAGE_H

#include "tscc/Runtime/ElfFile.h"
#include "tscc/abi.h"
#include "tscc/unwind_table.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt::unwind {

/// Compiled tables by file, for every process of the session: a module
/// loaded by many processes (libc) is compiled once.
class TableCache {
public:
  /// Elf's table (compileUnwindTable), or null with Why when it has none.
  std::shared_ptr<const std::vector<uint8_t>>
  get(const std::shared_ptr<const ElfFile> &Elf, std::string &Why);

private:
  struct Entry {
    std::shared_ptr<const ElfFile> Elf; ///< keeps the key alive
    std::shared_ptr<const std::vector<uint8_t>> Table;
    std::string Why;
  };
  std::mutex M;
  std::map<const ElfFile *, Entry> ByFile;
};

/// The most bytes of tables tsrun writes into one process; modules past
/// it get none (their frames are walked by the frame-pointer chain).
constexpr uint64_t MaxTableBytesPerProcess = 64ull << 20;

/// Where aggregation key fields that hold stack ids are: per aggregation,
/// up to four key offsets + 1 (tscc_unwind_image's words; 0: none).
uint64_t stackKeyOffsets(std::span<const tscc_field> KeyFields);

/// An image for Modules (run-time ranges, biases, the addresses of their
/// tables in the process, 0 for none), sorted here, with the aggregations'
/// stack key words.
std::vector<uint8_t> buildImage(std::vector<tscc_unwind_module> Modules,
                                uint32_t MaxDepth,
                                std::span<const uint64_t> AggStackKeys);

} // namespace tscc::rt::unwind

#endif // TSCC_RUNTIME_UNWIND_PROCESSIMAGE_H
