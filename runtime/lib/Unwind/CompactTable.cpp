//===- CompactTable.cpp - .eh_frame compiled for a walker -----------------===//
#include "CompactTable.h"

#include "EhFrame.h"

#include <cstring>
#include <limits>
#include <map>

using namespace tscc::rt;
using namespace tscc::rt::unwind;

namespace {

bool fitsInt32(int64_t V) {
  return V >= std::numeric_limits<int32_t>::min() &&
         V <= std::numeric_limits<int32_t>::max();
}

tscc_unwind_row noRules() {
  tscc_unwind_row R{};
  R.kind = TSCC_UNW_NONE;
  return R;
}

/// Row's rule in the table's form; TSCC_UNW_NONE where it cannot say it
/// (the unwinders then agree on the frame-pointer chain).
tscc_unwind_row compactRow(const RulesRow &Row, const DwarfRegs &Dw) {
  tscc_unwind_row R = noRules();
  if (Row.Kind == RulesLookup::Outermost) {
    R.kind = TSCC_UNW_OUTERMOST;
    return R;
  }
  const CfaRules &C = Row.Rules;
  if (Row.Kind != RulesLookup::Found || !fitsInt32(C.CfaOff) ||
      !fitsInt32(C.Ra.Off) || !fitsInt32(C.Fp.Off))
    return R;
  bool Fp = C.CfaReg == Dw.Fp;
  R.kind = C.CfaDeref ? (Fp ? TSCC_UNW_CFA_FP_DEREF : TSCC_UNW_CFA_SP_DEREF)
                      : (Fp ? TSCC_UNW_CFA_FP : TSCC_UNW_CFA_SP);
  R.cfa_off = static_cast<int32_t>(C.CfaOff);
  R.ra_off = static_cast<int32_t>(C.Ra.Off);
  // What the unwinder does with the caller's fp (Unwinder.cpp, byRules).
  if (C.Fp.K == Rule::Offset)
    R.fp_rule = TSCC_UNW_FP_AT_CFA;
  else if (C.Fp.K == Rule::AtReg && C.Fp.Reg == Dw.Sp)
    R.fp_rule = TSCC_UNW_FP_AT_SP;
  else if (C.Fp.K == Rule::AtReg && C.Fp.Reg == Dw.Fp)
    R.fp_rule = TSCC_UNW_FP_AT_FP;
  if (R.fp_rule != TSCC_UNW_FP_SAME)
    R.fp_off = static_cast<int32_t>(C.Fp.Off);
  return R;
}

bool sameRule(const tscc_unwind_row &A, const tscc_unwind_row &B) {
  return A.kind == B.kind && A.cfa_off == B.cfa_off && A.ra_off == B.ra_off &&
         A.fp_off == B.fp_off && A.fp_rule == B.fp_rule;
}

/// Where a function symbol starts and no rule covers it: the unwinder
/// takes the return address from [sp] there, in the innermost frame.
void addEntries(const ElfFile &Elf, std::map<uint64_t, tscc_unwind_row> &By) {
  for (const ElfSymbol &S : Elf.functions()) {
    const ElfSymbol *At = Elf.functionContaining(S.Value);
    if (!At || At->Value != S.Value)
      continue;
    auto It = By.upper_bound(S.Value);
    if (It != By.begin() && std::prev(It)->second.kind != TSCC_UNW_NONE)
      continue;
    if (!By.count(S.Value + 1)) // the rest has no rules either
      By[S.Value + 1] = noRules();
    tscc_unwind_row E = noRules();
    E.kind = TSCC_UNW_ENTRY;
    By[S.Value] = E;
  }
}

} // namespace

std::vector<uint8_t>
tscc::rt::unwind::compileUnwindTable(const std::shared_ptr<const ElfFile> &Elf,
                                     std::string &Why) {
  const DwarfRegs &Dw = dwarfRegs(*Elf);
  // Each range's rule, and no rules from where it ends (unless the next
  // range starts there: its rule replaces that).
  std::map<uint64_t, tscc_unwind_row> By;
  for (const RulesRow &Row : allRules(Elf)) {
    By[Row.Start] = compactRow(Row, Dw);
    if (!By.count(Row.End))
      By[Row.End] = noRules();
  }
  addEntries(*Elf, By);
  std::vector<tscc_unwind_row> Rows;
  std::vector<uint64_t> Starts;
  for (const auto &[Start, Row] : By) {
    if (!Rows.empty() && sameRule(Rows.back(), Row))
      continue;
    if (Rows.empty() && Row.kind == TSCC_UNW_NONE)
      continue; // before the first rule: none anyway
    Rows.push_back(Row);
    Starts.push_back(Start);
  }
  if (Rows.empty()) {
    Why = "the module has no unwind rules";
    return {};
  }
  uint64_t Base = Starts.front();
  if (Starts.back() - Base > std::numeric_limits<uint32_t>::max()) {
    Why = "the module's code spans more than 4 GiB";
    return {};
  }
  for (size_t I = 0; I < Rows.size(); ++I)
    Rows[I].start = static_cast<uint32_t>(Starts[I] - Base);
  tscc_unwind_table Header{TSCC_UNWIND_TABLE_MAGIC,
                           static_cast<uint32_t>(Rows.size()), Base};
  std::vector<uint8_t> Out(sizeof(Header) + Rows.size() * sizeof(Rows[0]));
  memcpy(Out.data(), &Header, sizeof(Header));
  memcpy(Out.data() + sizeof(Header), Rows.data(),
         Rows.size() * sizeof(Rows[0]));
  return Out;
}
