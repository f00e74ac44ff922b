//===- ProcessImage.cpp - What a process's agent walks stacks with --------===//
#include "ProcessImage.h"

#include "CompactTable.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::unwind;

std::shared_ptr<const std::vector<uint8_t>>
TableCache::get(const std::shared_ptr<const ElfFile> &Elf, std::string &Why) {
  std::lock_guard<std::mutex> G(M);
  auto It = ByFile.find(Elf.get());
  if (It == ByFile.end()) {
    Entry E;
    E.Elf = Elf;
    std::vector<uint8_t> T = compileUnwindTable(Elf, E.Why);
    if (!T.empty())
      E.Table = std::make_shared<const std::vector<uint8_t>>(std::move(T));
    It = ByFile.emplace(Elf.get(), std::move(E)).first;
  }
  Why = It->second.Why;
  return It->second.Table;
}

uint64_t
tscc::rt::unwind::stackKeyOffsets(std::span<const tscc_field> KeyFields) {
  uint64_t Words = 0, Off = 0;
  unsigned N = 0;
  for (const tscc_field &F : KeyFields) {
    if (F.kind == TSCC_FIELD_STACK_ID && N < 4 && Off + 1 < 0xffff)
      Words |= (Off + 1) << (16 * N++);
    Off += F.size;
  }
  return Words;
}

std::vector<uint8_t>
tscc::rt::unwind::buildImage(std::vector<tscc_unwind_module> Modules,
                             uint32_t MaxDepth,
                             std::span<const uint64_t> AggStackKeys) {
  std::sort(Modules.begin(), Modules.end(),
            [](const auto &A, const auto &B) { return A.lo < B.lo; });
  tscc_unwind_image H{};
  H.magic = TSCC_UNWIND_IMAGE_MAGIC;
  H.module_count = static_cast<uint32_t>(Modules.size());
  H.max_depth = MaxDepth;
  H.agg_count = static_cast<uint32_t>(AggStackKeys.size());
  std::vector<uint8_t> Out(sizeof(H) + Modules.size() * sizeof(Modules[0]) +
                           AggStackKeys.size() * 8);
  uint8_t *At = Out.data();
  memcpy(At, &H, sizeof(H));
  At += sizeof(H);
  if (!Modules.empty())
    memcpy(At, Modules.data(), Modules.size() * sizeof(Modules[0]));
  At += Modules.size() * sizeof(Modules[0]);
  if (!AggStackKeys.empty())
    memcpy(At, AggStackKeys.data(), AggStackKeys.size() * 8);
  return Out;
}
