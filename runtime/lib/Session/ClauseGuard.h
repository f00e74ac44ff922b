//===- ClauseGuard.h - Survive a crash inside clause code -------*- C++ -*-===//
//
// Clause code is compiled from a user's script; a codegen bug or an
// unguarded division by zero must not kill tsrun, because tsrun still has
// breakpoints planted in live processes. While a clause runs, SIGSEGV,
// SIGBUS, SIGFPE and SIGILL raised *at a PC inside the program's code* jump
// back to the dispatcher, which abandons that firing and counts a fault.
// A signal anywhere else keeps its usual (fatal) meaning.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_SESSION_CLAUSEGUARD_H
#define TSCC_RUNTIME_LIB_SESSION_CLAUSEGUARD_H

#include "tscc/abi.h"

#include <cstdint>

namespace tscc::rt {

class ProbeProgram;

struct ClauseCrash {
  int Signal = 0;
  uint64_t PC = 0;
};

/// Installs the handlers (once per process) and registers P's code.
void guardProgram(const ProbeProgram &P);
void unguardProgram(const ProbeProgram &P);

/// Runs Pred (if any) then, if it passed, Action. Returns false and fills
/// Crash when either crashed.
bool runGuarded(tscc_predicate_fn Pred, tscc_action_fn Action, tscc_ctx *Ctx,
                ClauseCrash &Crash);

/// The context of the clause this thread is running (in runGuarded), or
/// null. Helpers compare the context clause code passes them with it.
const tscc_ctx *guardedContext();

/// While alive, this thread is in a runtime helper called by clause code:
/// a fault now is the runtime's, never recovered as the clause's. Outside
/// helpers, every fault while a clause runs is the clause's -- in its own
/// code, in the libc routines it calls directly, or wherever a wild jump
/// took it -- and abandons the firing.
class HelperScope {
public:
  HelperScope();
  ~HelperScope();
  HelperScope(const HelperScope &) = delete;
  HelperScope &operator=(const HelperScope &) = delete;
};

/// Abandons the running clause as if it had crashed with SIGSEGV at PC
/// (runGuarded returns false). Only from code that holds no lock and needs
/// no unwinding; does nothing outside a clause.
void abandonClause(uint64_t PC);

} // namespace tscc::rt

#endif
