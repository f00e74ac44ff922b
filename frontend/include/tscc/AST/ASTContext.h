//===- tscc/AST/ASTContext.h - Owns the AST arena ---------------*- C++ -*-===//
//
// Every AST node, string and child list of one compilation lives in the
// ASTContext's bump allocator and dies with it.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_ASTCONTEXT_H
#define TSCC_AST_ASTCONTEXT_H

#include "tscc/AST/AST.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"

#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace tscc {

class ASTContext {
public:
  ASTContext() = default;
  ASTContext(const ASTContext &) = delete;
  ASTContext &operator=(const ASTContext &) = delete;

  /// Allocates a node. Nodes are never destroyed, so they must not own
  /// anything.
  template <typename T, typename... Args> T *create(Args &&...A) {
    static_assert(std::is_trivially_destructible_v<T>,
                  "arena-allocated AST nodes must be trivially destructible");
    void *Mem = Alloc.Allocate(sizeof(T), alignof(T));
    return new (Mem) T(std::forward<Args>(A)...);
  }

  /// A copy of \p S that lives as long as the context.
  llvm::StringRef copyString(llvm::StringRef S) {
    if (S.empty())
      return {};
    char *Mem = Alloc.Allocate<char>(S.size());
    std::memcpy(Mem, S.data(), S.size());
    return {Mem, S.size()};
  }

  /// A copy of \p A that lives as long as the context.
  template <typename T> llvm::ArrayRef<T> copyArray(llvm::ArrayRef<T> A) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (A.empty())
      return {};
    T *Mem = Alloc.Allocate<T>(A.size());
    std::uninitialized_copy(A.begin(), A.end(), Mem);
    return {Mem, A.size()};
  }

  size_t getBytesAllocated() const { return Alloc.getBytesAllocated(); }

private:
  llvm::BumpPtrAllocator Alloc;
};

} // namespace tscc

#endif // TSCC_AST_ASTCONTEXT_H
