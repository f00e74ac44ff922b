//===- ScratchAreas.h - Code areas tsrun maps near modules -----*- C++ -*-===//
//
// tsrun maps executable scratch memory next to each module it patches:
// the jump sites' trampolines (InProcess/Patch/JumpSites) and the
// breakpoints' out-of-line stubs (Install.cpp). Each area serves the
// module it was mapped for. When dlclose() unmaps that module, the area
// is left to the next module within a rel32 jump's reach of it, rather
// than mapped again: a program that loads and unloads a library in a loop
// would otherwise gain a mapping per cycle, until it hits the kernel's
// limit on mappings. Areas stay mapped until the process ends or the agent
// is removed (a thread may still read a dlclose()d site's trampoline).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SCRATCHAREAS_H
#define TSCC_RUNTIME_PTRACE_SCRATCHAREAS_H

#include <cstdint>
#include <vector>

namespace tscc::rt::pt {

class ScratchAreas {
public:
  struct Area {
    uint64_t Addr = 0, Size = 0;
    uint64_t Module = 0; ///< the start of the module it serves
    bool Free = false;
  };

  /// A free area of at least Size bytes from which a rel32 displacement
  /// reaches all of [Lo, Hi) and back (any area when !Rel32, in a 32-bit
  /// process), now serving the module at Lo; or 0.
  uint64_t take(uint64_t Lo, uint64_t Hi, uint64_t Size, bool Rel32) {
    for (Area &A : List) {
      if (!A.Free || A.Size < Size || (Rel32 && !reaches(A, Lo, Hi)))
        continue;
      A.Free = false;
      A.Module = Lo;
      return A.Addr;
    }
    return 0;
  }
  /// A new area, mapped for the module at Module.
  void add(uint64_t Addr, uint64_t Size, uint64_t Module) {
    List.push_back({Addr, Size, Module, false});
  }
  /// The module at Module is gone: its areas are free.
  void release(uint64_t Module) {
    for (Area &A : List)
      if (A.Module == Module)
        A.Free = true;
  }
  const std::vector<Area> &all() const { return List; }
  void clear() { List = {}; }

private:
  static bool reaches(const Area &A, uint64_t Lo, uint64_t Hi) {
    // The farthest pairs of code and area bytes are the corners; a little
    // slack for the jump's own length.
    constexpr int64_t Slack = 64;
    for (uint64_t From : {Lo, Hi})
      for (uint64_t To : {A.Addr, A.Addr + A.Size}) {
        int64_t D = static_cast<int64_t>(To - From);
        if (D < INT32_MIN + Slack || D > INT32_MAX - Slack)
          return false;
      }
    return true;
  }

  std::vector<Area> List;
};

} // namespace tscc::rt::pt

#endif
