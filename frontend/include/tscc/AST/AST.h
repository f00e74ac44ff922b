//===- tscc/AST/AST.h - The trace-script AST --------------------*- C++ -*-===//
//
// The AST records what the user wrote, independent of any data model: type
// names are TypeSpec nodes, names are unresolved identifiers, literals keep
// their spelling details. Sema annotates it in place: every Expr has one
// type slot and one set of implicit conversions per data model, compound
// assignments a computation type per model, and DeclRefExprs get bound to
// declarations.
//
// Nodes are allocated in the arena of an ASTContext and never destroyed
// individually, so every node is trivially destructible: strings are
// StringRefs and child lists are ArrayRefs into the arena (see
// ASTContext::copyString / copyArray). Every node has a kind, LLVM-style
// classof (use llvm::isa/cast/dyn_cast) and a SourceRange whose end is the
// first character of the last token, as in Clang.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_AST_H
#define TSCC_AST_AST_H

// The AST is split by node family, as in Clang; this header is all of it.
#include "tscc/AST/Decl.h"
#include "tscc/AST/Expr.h"
#include "tscc/AST/Node.h"
#include "tscc/AST/Script.h"
#include "tscc/AST/Stmt.h"
#include "tscc/AST/TypeSpec.h"

#endif // TSCC_AST_AST_H
