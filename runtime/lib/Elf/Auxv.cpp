//===- Auxv.cpp - A process's ELF auxiliary vector ------------------------===//
#include "tscc/Runtime/Auxv.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace tscc::rt;

std::map<uint64_t, uint64_t> tscc::rt::parseAuxv(std::span<const uint8_t> Bytes,
                                                 unsigned WordSize) {
  std::map<uint64_t, uint64_t> Out;
  if (WordSize != 4 && WordSize != 8)
    return Out;
  for (size_t I = 0; I + 2 * WordSize <= Bytes.size(); I += 2 * WordSize) {
    uint64_t Type = 0, Value = 0; // little-endian words, zero-extended
    std::memcpy(&Type, Bytes.data() + I, WordSize);
    std::memcpy(&Value, Bytes.data() + I + WordSize, WordSize);
    if (Type == AT_NULL)
      break;
    Out.emplace(Type, Value);
  }
  return Out;
}

std::map<uint64_t, uint64_t> tscc::rt::readProcessAuxv(pid_t Pid,
                                                       unsigned WordSize) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/auxv", std::ios::binary);
  std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                             std::istreambuf_iterator<char>());
  return parseAuxv(Bytes, WordSize);
}
