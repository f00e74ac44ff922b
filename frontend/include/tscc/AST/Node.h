//===- tscc/AST/Node.h - The base of every AST node -------------*- C++ -*-===//
//
// Node: a kind (NodeKind, from ASTNodes.def) and a SourceRange; the
// is<Range>Kind() tests behind every classof. See AST.h for the AST as a
// whole.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_NODE_H
#define TSCC_AST_NODE_H

#include "tscc/Basic/SourceLocation.h"
#include "tscc/DataModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>

namespace tscc {

class Type; // Defined by sema (tscc/Sema/Type.h).

enum class NodeKind : uint8_t {
#define NODE(CLASS, PARENT) CLASS,
#include "tscc/AST/ASTNodes.def"
};

/// "IntegerLiteral", "IfStmt", ...
llvm::StringRef getNodeKindName(NodeKind K);

class Node {
public:
  NodeKind getKind() const { return Kind; }
  llvm::StringRef getKindName() const { return getNodeKindName(Kind); }

  SourceRange getSourceRange() const { return Range; }
  SourceLocation getBeginLoc() const { return Range.getBegin(); }
  SourceLocation getEndLoc() const { return Range.getEnd(); }
  void setSourceRange(SourceRange R) { Range = R; }

protected:
  Node(NodeKind K, SourceRange R) : Kind(K), Range(R) {}

private:
  NodeKind Kind;
  SourceRange Range;
};

#define NODE_RANGE(CLASS, FIRST, LAST)                                         \
  inline bool is##CLASS##Kind(NodeKind K) {                                    \
    return K >= NodeKind::FIRST && K <= NodeKind::LAST;                        \
  }
#include "tscc/AST/ASTNodes.def"

class Expr;
class CompoundStmt;

} // namespace tscc

#endif // TSCC_AST_NODE_H
