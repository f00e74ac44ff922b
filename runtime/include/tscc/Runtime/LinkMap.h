//===- tscc/Runtime/LinkMap.h - The dynamic loader's module list ----------===//
//
// What both backends need to find a process's shared libraries in its own
// memory: glibc's struct r_debug / struct link_map layout for a pointer size,
// and how module paths are compared and named.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LINKMAP_H
#define TSCC_RUNTIME_LINKMAP_H

#include <cstdint>
#include <string>

namespace tscc::rt {

/// Field offsets of
///   struct r_debug { int r_version; link_map *r_map; Addr r_brk;
///                    enum r_state; Addr r_ldbase; };
///   struct link_map { Addr l_addr; char *l_name; Dyn *l_ld;
///                     link_map *l_next; };
/// in a process whose pointers are PointerSize bytes.
struct LinkMapLayout {
  uint64_t RMap, RBrk, RState;  ///< in r_debug
  uint64_t LAddr, LName, LNext; ///< in link_map
};

inline LinkMapLayout linkMapLayout(unsigned PointerSize) {
  if (PointerSize == 8)
    return {8, 16, 24, 0, 8, 24};
  return {4, 8, 12, 0, 4, 12};
}

/// Paths from the link map go through symlinks (/lib -> /usr/lib) while the
/// kernel's maps show resolved ones: compare resolved paths. Returns Path
/// itself when it cannot be resolved (e.g. it does not exist here).
std::string canonicalModulePath(const std::string &Path);

/// The file name of a module path: what __module and `MODULE` match.
std::string moduleBaseName(const std::string &Path);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_LINKMAP_H
