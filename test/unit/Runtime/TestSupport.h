//===- TestSupport.h - Shared helpers for the runtime unit tests ----------===//
#ifndef TSCC_TEST_UNIT_RUNTIME_TESTSUPPORT_H
#define TSCC_TEST_UNIT_RUNTIME_TESTSUPPORT_H

#include "tscc/Runtime/Target.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace tscc::rt::test {

inline std::string fixture(const char *Name) {
  return std::string(TSCC_FIXTURE_DIR) + "/" + Name;
}

inline std::vector<uint8_t> readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(In)),
                              std::istreambuf_iterator<char>());
}

/// A process made of a few memory regions, for firing clauses without a
/// real target.
class FakeTarget final : public Target {
public:
  FakeTarget(int64_t Pid, DataModel DM, std::string Name)
      : Pid(Pid), DM(DM), Name(std::move(Name)) {}

  void map(uint64_t Addr, std::vector<uint8_t> Bytes) {
    Regions[Addr] = std::move(Bytes);
  }
  template <typename T> void poke(uint64_t Addr, T V) {
    std::vector<uint8_t> B(sizeof(T));
    memcpy(B.data(), &V, sizeof(T));
    map(Addr, std::move(B));
  }

  int64_t pid() const override { return Pid; }
  int64_t ppid() const override { return 1; }
  int64_t uid() const override { return 0; }
  DataModel dataModel() const override { return DM; }
  const std::string &name() const override { return Name; }
  std::string_view backendName() const override { return "fake"; }
  bool readMemory(uint64_t Addr, void *Dst, size_t Len) override {
    for (auto &[Base, Bytes] : Regions)
      if (Addr >= Base && Addr - Base <= Bytes.size() &&
          Len <= Bytes.size() - (Addr - Base)) {
        memcpy(Dst, Bytes.data() + (Addr - Base), Len);
        return true;
      }
    return false;
  }
  /// A whole stack of six frames.
  UnwoundStack unwindStack(int64_t, const uint64_t *Regs,
                           unsigned MaxDepth) override {
    UnwoundStack S{
        {Regs[TSCC_REG_RIP], 0x401100, 0x401200, 0x401300, 0x401400, 0x401500},
        StackEnd::Complete};
    if (S.PCs.size() > MaxDepth) {
      S.PCs.resize(MaxDepth);
      S.End = StackEnd::DepthLimit;
    }
    return S;
  }
  std::string symbolize(uint64_t PC) override {
    char Buf[64];
    snprintf(Buf, sizeof(Buf), "fn_%llx+0x4 (%s)",
             static_cast<unsigned long long>(PC), Name.c_str());
    return Buf;
  }

private:
  int64_t Pid;
  DataModel DM;
  std::string Name;
  std::map<uint64_t, std::vector<uint8_t>> Regions;
};

/// A FILE* collecting everything written to it.
class MemFile {
public:
  MemFile() { F = open_memstream(&Buf, &Size); }
  ~MemFile() {
    if (F)
      fclose(F);
    free(Buf);
  }
  FILE *file() { return F; }
  std::string str() {
    fflush(F);
    return std::string(Buf, Size);
  }

private:
  FILE *F = nullptr;
  char *Buf = nullptr;
  size_t Size = 0;
};

} // namespace tscc::rt::test

#endif
