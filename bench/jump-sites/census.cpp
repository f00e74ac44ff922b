//===- census.cpp - How many sites of a module can take a jump ------------===//
//
// What the in-process planner's knowledge of the ways into a function
// (IndirectJumps, ModuleEntries: docs/runtime.md, "Where a jump can
// arrive") costs: for every function of an ELF module that has a size, at
// its entry (--entries) or at every instruction, plans a 5-byte jump
// knowing only the function's own direct branches (what tsrun did before
// issue 24) and knowing everything, and counts the sites that go from a
// jump to a breakpoint, by reason. Jump tables are read from the file, not
// a process: exact for position-independent offset tables and for
// fixed-address executables; a PIE's absolute tables read as their
// link-time contents.
//
//   ninja -C build jump-site-census
//   build/bin/jump-site-census [--entries] MODULE...
//
//===----------------------------------------------------------------------===//
#include "IndirectJumps.h"
#include "JumpPatch.h"
#include "ModuleEntries.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/X86Insn.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

using namespace tscc::rt;

namespace {

struct Tally {
  size_t Functions = 0, Unresolved = 0, Sites = 0, Before = 0, After = 0;
  std::map<std::string, size_t> Reasons;
  double FactsMs = 0;
};

double msSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T)
      .count();
}

/// What tsrun's JumpSites.cpp gathers for a function, from the file.
ip::EntryFacts factsOf(const ElfFile &Elf, const ip::ModuleEntries &ME,
                       const ElfSymbol &S, std::span<const uint8_t> Bytes) {
  ip::EntryFacts F;
  ME.within(S.Value, S.Value + S.Size, 0, F.Entries);
  ip::FunctionCode Code;
  std::string Why;
  if (!ip::scanFunctionCode(Bytes, S.Value, Code, Why))
    return F;
  for (const ip::IndirectJump &J : Code.Jumps)
    if (J.Kind == ip::IndirectKind::Unresolved && !F.Unresolved)
      F.Unresolved = J;
  auto Read = [&](uint64_t A, void *D, size_t L) {
    return Elf.readVAddr(A, D, L);
  };
  std::vector<uint64_t> Targets;
  for (const ip::IndirectJump &T : Code.Tables)
    ip::readJumpTable(T, ME.code(), Read, Targets);
  for (uint64_t T : Targets)
    F.Entries.push_back({T, ip::EntryKind::JumpTable});
  return F;
}

/// The reason without its addresses and counts, to tally.
std::string reasonKind(const std::string &Why) {
  std::string K = std::regex_replace(Why, std::regex("0x[0-9a-f]+"), "X");
  return std::regex_replace(K, std::regex("displace [0-9]+"), "displace N");
}

void countSites(const ElfSymbol &S, std::span<const uint8_t> Bytes,
                const ip::EntryFacts &F, bool EntriesOnly, Tally &T) {
  for (size_t Pos = 0; Pos < Bytes.size();) {
    X86Insn I;
    if (!decodeX86(Bytes.data() + Pos, Bytes.size() - Pos, X86Mode::Bits64, I))
      return;
    ip::PatchPlan Old, New;
    std::string OldWhy, NewWhy;
    bool Was =
        ip::planJumpPatch(Bytes, S.Value, S.Value + Pos, {}, Old, OldWhy);
    bool Is = ip::planJumpPatch(Bytes, S.Value, S.Value + Pos, F, New, NewWhy);
    ++T.Sites;
    T.Before += Was;
    T.After += Is;
    if (Was && !Is)
      ++T.Reasons[reasonKind(NewWhy)];
    if (EntriesOnly)
      return;
    Pos += I.Length;
  }
}

void census(const char *Path, bool EntriesOnly) {
  std::string Error;
  std::unique_ptr<ElfFile> Elf = ElfFile::open(Path, Error);
  if (!Elf) {
    std::fprintf(stderr, "jump-site-census: %s\n", Error.c_str());
    return;
  }
  auto Start = std::chrono::steady_clock::now();
  ip::ModuleEntries ME(*Elf);
  double ModuleMs = msSince(Start);
  Tally T;
  for (const ElfSymbol &S : Elf->functions()) {
    std::vector<uint8_t> Bytes(S.Size);
    if (!S.Size || S.Size > (1u << 20) || S.IFunc ||
        !Elf->readVAddr(S.Value, Bytes.data(), Bytes.size()))
      continue;
    ++T.Functions;
    auto FactsStart = std::chrono::steady_clock::now();
    ip::EntryFacts F = factsOf(*Elf, ME, S, Bytes);
    T.FactsMs += msSince(FactsStart);
    T.Unresolved += F.Unresolved.has_value();
    countSites(S, Bytes, F, EntriesOnly, T);
  }
  std::printf("%s (%s): %zu functions, %zu with an indirect jump of unknown "
              "targets; %zu sites, %zu could jump, %zu can now: %zu "
              "breakpoints more (%.2f%%)\n",
              Path, EntriesOnly ? "entries" : "every instruction", T.Functions,
              T.Unresolved, T.Sites, T.Before, T.After, T.Before - T.After,
              100.0 * double(T.Before - T.After) /
                  double(T.Before ? T.Before : 1));
  std::printf("  time: %.0f ms for the module, %.3f ms a function\n", ModuleMs,
              T.FactsMs / double(T.Functions ? T.Functions : 1));
  for (const auto &[Reason, N] : T.Reasons)
    std::printf("  %6zu  %s\n", N, Reason.c_str());
}

} // namespace

int main(int argc, char **argv) {
  bool EntriesOnly = false;
  int First = 1;
  if (argc > 1 && !std::strcmp(argv[1], "--entries")) {
    EntriesOnly = true;
    First = 2;
  }
  if (First >= argc) {
    std::fprintf(stderr, "usage: jump-site-census [--entries] MODULE...\n");
    return 2;
  }
  for (int A = First; A < argc; ++A)
    census(argv[A], EntriesOnly);
  return 0;
}
