//===- tscc/Runtime/StackTable.h - Stacks used as aggregation keys -*- C++ -*-===//
//
// `@[stktrace()] = count();` keys an aggregation by the firing thread's call
// stack. Clause code cannot hold a stack in a fixed-size key, so it asks the
// runtime for an id (the stack_id helper) and the key holds that; the table
// maps ids back to frames when the aggregation is printed.
//
// Ids stand for *symbolised* stacks: the same call path in two processes of
// one program (different load addresses) or in a process and its fork gets
// one id, and the aggregation adds them up, as a user reading a profile
// expects. Symbolising costs microseconds, so each (process, PCs) pair is
// symbolised once and remembered.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_STACKTABLE_H
#define TSCC_RUNTIME_STACKTABLE_H

#include "tscc/Runtime/Unwinder.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace tscc::rt {

class StackTable {
public:
  /// Distinct symbolised stacks a session keeps; past it stack_id() gives
  /// 0 (the caller counts a drop) so that a runaway profile cannot grow
  /// tsrun without bound.
  static constexpr size_t DefaultMaxStacks = 65536;

  explicit StackTable(size_t MaxStacks = DefaultMaxStacks)
      : MaxStacks(MaxStacks) {}

  /// The id (nonzero) of the stack PCs (innermost first) seen in the
  /// process the session numbers Process; Symbolize turns one PC into its
  /// frame text and is called only for pairs not seen before. A stack
  /// that ended early (End) gets its marker as a last frame, so it is a
  /// key of its own. 0 when the table is full.
  uint64_t intern(uint32_t Process, std::span<const uint64_t> PCs,
                  const std::function<std::string(uint64_t)> &Symbolize,
                  StackEnd End = StackEnd::Complete);

  /// The frames of Id, innermost first; nullopt for 0 or an unknown id.
  /// An agent's id (TSCC_STACK_ID_AGENT, tscc/unwind_table.h) has the
  /// frames of the id it stands for.
  std::optional<std::vector<std::string>> frames(uint64_t Id) const;

  /// An agent in a process gave a stack AgentId, and this table Id (0: it
  /// had no room): keys holding AgentId stand for Id from now on.
  void alias(uint64_t AgentId, uint64_t Id);
  /// The id Id stands for: Id itself, or what an agent's id was aliased
  /// to (0: nothing, the update is as dropped); an agent's id not aliased
  /// yet stays as it is (printed as an unknown stack).
  uint64_t canonical(uint64_t Id) const;

  size_t size() const;

private:
  size_t MaxStacks;
  mutable std::mutex M;
  /// (process, PCs) as bytes -> id: the fast path, one hash per hit.
  std::unordered_map<std::string, uint64_t> ByPCs;
  std::map<std::vector<std::string>, uint64_t> ByFrames;
  /// Frames of id I + 1.
  std::vector<const std::vector<std::string> *> Frames;
  /// Agents' ids -> ids of this table (alias()).
  std::unordered_map<uint64_t, uint64_t> Aliases;
};

/// The text a stack key prints as, bpftrace's layout: a newline, then one
/// frame per line indented by eight spaces, so `@[<key>]: 3` reads
///   @[
///           f+0x12 (app)
///           main+0x30 (app)
///   ]: 3
std::string stackKeyText(const std::vector<std::string> &Frames);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_STACKTABLE_H
