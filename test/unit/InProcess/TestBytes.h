//===- TestBytes.h - Bytes written out in tests ---------------------------===//
#ifndef TSCC_TEST_UNIT_INPROCESS_TESTBYTES_H
#define TSCC_TEST_UNIT_INPROCESS_TESTBYTES_H

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace tscc::test {

/// "48 8d 05 00 10 00 00" as bytes.
inline std::vector<uint8_t> hex(const std::string &S) {
  std::vector<uint8_t> Out;
  std::istringstream In(S);
  std::string B;
  while (In >> B)
    Out.push_back(static_cast<uint8_t>(std::stoul(B, nullptr, 16)));
  return Out;
}

/// Appends V to B as the target stores it (little-endian).
template <class T> void append(std::vector<uint8_t> &B, T V) {
  size_t At = B.size();
  B.resize(At + sizeof(T));
  std::memcpy(B.data() + At, &V, sizeof(T));
}

} // namespace tscc::test

#endif // TSCC_TEST_UNIT_INPROCESS_TESTBYTES_H
