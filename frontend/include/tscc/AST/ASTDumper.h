//===- tscc/AST/ASTDumper.h - Textual AST dumps -----------------*- C++ -*-===//
//
// A deterministic, clang -ast-dump-like tree with `<line:col, line:col>`
// ranges (the file name is omitted; columns are 1-based).
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_ASTDUMPER_H
#define TSCC_AST_ASTDUMPER_H

#include "llvm/Support/raw_ostream.h"

namespace tscc {

class Node;
class SourceManager;

/// Dumps \p N and everything below it to \p OS.
void dumpAST(const Node *N, const SourceManager &SM, llvm::raw_ostream &OS);

} // namespace tscc

#endif // TSCC_AST_ASTDUMPER_H
