//===- IndirectJumps.cpp - Where a function's indirect jumps may go -------===//
#include "IndirectJumps.h"

#include "InsnFacts.h"
#include "RegisterDefs.h"
#include "RegisterValues.h"

#include <algorithm>
#include <cstring>
#include <map>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

/// What a jump through a register or memory holding V goes to, in code
/// whose pointers are PointerSize bytes.
IndirectJump jumpThrough(const RegValue &V, unsigned PointerSize) {
  IndirectJump J;
  J.PointerSize = static_cast<uint8_t>(PointerSize);
  switch (V.K) {
  case RegValue::Nothing:
  case RegValue::Incoming:
  case RegValue::Pointer:
  case RegValue::Const:
    J.Kind = IndirectKind::Pointer;
    break;
  case RegValue::Indexed:
    if (V.Width == PointerSize && V.TableKnown && V.Scale == PointerSize) {
      J.Kind = IndirectKind::Table;
      J.Table = V.Addr;
    } else if (V.Width == PointerSize) {
      // A code pointer in memory (an array of them, a member at a variable
      // offset): an address constant of the module (ModuleEntries.h), as
      // any pointer in memory is.
      J.Kind = IndirectKind::Pointer;
    } else {
      J.Why = "it loads its target from a table of offsets whose address "
              "is not a constant";
    }
    break;
  case RegValue::Relative:
    J.Kind = IndirectKind::Table;
    J.Form = TableForm::Relative;
    J.Table = V.Addr;
    J.Base = V.Base;
    break;
  case RegValue::Unknown:
    J.Why = V.describe();
    break;
  }
  return J;
}

/// The jump Code[K], with the registers In before it.
unsigned pointerSize(const PlacedInsn &D) {
  return D.Mode == X86Mode::Bits32 ? 4 : 8;
}

IndirectJump classify(const RegisterValues &RV, const RegState &In,
                      const PlacedInsn &D, size_t K) {
  IndirectJump J;
  MemOperand M;
  if (D.I.modrmMod() == 3)
    J = jumpThrough(In[jumpRegister(D.I)], pointerSize(D));
  else if (!memOperandOf(D, M))
    J.Why = "its operand cannot be decoded";
  else if (M.Index < 0) // a pointer in memory: GOT, vtable, variable
    J.Kind = IndirectKind::Pointer;
  else
    J = jumpThrough(RV.indexedLoad(In, M, K), pointerSize(D));
  J.Addr = D.Addr;
  return J;
}

bool sameTable(const IndirectJump &A, const IndirectJump &B) {
  return A.Form == B.Form && A.Table == B.Table && A.Base == B.Base &&
         A.PointerSize == B.PointerSize;
}

void addTable(std::vector<IndirectJump> &Tables, const IndirectJump &J) {
  if (J.Kind != IndirectKind::Table)
    return;
  for (const IndirectJump &T : Tables)
    if (sameTable(T, J))
      return;
  Tables.push_back(J);
}

/// The tables Code[K] makes a code address from, whether or not the
/// address goes straight to a jump (it may be stored first).
void tablesRead(const RegisterValues &RV, const RegState &In,
                const PlacedInsn &D, size_t K,
                std::vector<IndirectJump> &Tables) {
  for (const RegisterValues::Write &W : RV.writes(K)) {
    RegValue V;
    if (W.D.Kind == RegWrite::IndexedLoad && W.D.Mem.Scale == pointerSize(D))
      V = RV.indexedLoad(In, W.D.Mem, K);
    else if (W.D.Kind == RegWrite::Add || W.D.Kind == RegWrite::AddEntry)
      V = RV.value(In, K, W);
    else
      continue;
    IndirectJump J = jumpThrough(V, pointerSize(D));
    J.Addr = D.Addr;
    addTable(Tables, J);
  }
}

bool decodeAll(std::span<const uint8_t> Func, uint64_t FuncStart, X86Mode Mode,
               std::vector<PlacedInsn> &Code, std::string &Why) {
  for (size_t Pos = 0; Pos < Func.size();) {
    PlacedInsn D;
    D.Mode = Mode;
    D.Addr = FuncStart + Pos;
    D.Bytes = Func.data() + Pos;
    if (!decodeX86(D.Bytes, Func.size() - Pos, Mode, D.I)) {
      Why = "cannot decode the function at " + hexAddr(D.Addr);
      return false;
    }
    Code.push_back(D);
    Pos += D.I.Length;
  }
  return true;
}

bool inCode(std::span<const std::pair<uint64_t, uint64_t>> Code, uint64_t A) {
  for (const auto &[Lo, Hi] : Code)
    if (A >= Lo && A < Hi)
      return true;
  return false;
}

/// The i386 calls of Code to a PC thunk, with the register each loads.
std::map<uint64_t, unsigned> pcThunkCalls(const std::vector<PlacedInsn> &Code,
                                          std::span<const uint8_t> Func,
                                          uint64_t FuncStart,
                                          const ReadMemory *Read) {
  std::map<uint64_t, unsigned> Out;
  for (const PlacedInsn &D : Code) {
    if (D.Mode != X86Mode::Bits32 || D.I.Map != 0 || D.I.Opcode != 0xe8)
      continue;
    uint64_t T = branchTarget(D.Addr, D.I) & 0xffffffffu;
    uint8_t Bytes[4];
    bool Got = false;
    if (T >= FuncStart && T - FuncStart + 4 <= Func.size()) {
      std::memcpy(Bytes, Func.data() + (T - FuncStart), 4);
      Got = true;
    } else if (Read) {
      Got = (*Read)(T, Bytes, 4);
    }
    unsigned R;
    if (Got && pcThunkRegister(Bytes, R))
      Out[D.Addr] = R;
  }
  return Out;
}

} // namespace

bool tscc::rt::ip::scanFunctionCode(std::span<const uint8_t> Func,
                                    uint64_t FuncStart, FunctionCode &Out,
                                    std::string &Why, X86Mode Mode,
                                    const ReadMemory *Read) {
  Out = FunctionCode();
  std::vector<PlacedInsn> Code;
  if (!decodeAll(Func, FuncStart, Mode, Code, Why))
    return false;
  for (const PlacedInsn &D : Code)
    if (hasRelTarget(D.I))
      Out.BranchTargets.push_back(branchTarget(D.Addr, D.I));
  std::sort(Out.BranchTargets.begin(), Out.BranchTargets.end());
  Out.BranchTargets.erase(
      std::unique(Out.BranchTargets.begin(), Out.BranchTargets.end()),
      Out.BranchTargets.end());
  RegisterValues RV(Code, Out.BranchTargets,
                    pcThunkCalls(Code, Func, FuncStart, Read));
  if (!RV.converged()) { // nothing can be said of its jumps
    IndirectJump J;
    J.Addr = FuncStart;
    J.Why = "the function is too large to follow its registers";
    Out.Jumps.push_back(J);
    return true;
  }
  RV.forEach([&](size_t K, const RegState &In) {
    const PlacedInsn &D = Code[K];
    if (isIndirectJump(D.I)) {
      Out.Jumps.push_back(classify(RV, In, D, K));
      addTable(Out.Tables, Out.Jumps.back());
    }
    tablesRead(RV, In, D, K, Out.Tables);
  });
  return true;
}

void tscc::rt::ip::readJumpTable(
    const IndirectJump &J, std::span<const std::pair<uint64_t, uint64_t>> Code,
    const ReadMemory &Read, std::vector<uint64_t> &Targets) {
  if (J.Kind != IndirectKind::Table)
    return;
  size_t Width = J.Form == TableForm::Absolute ? J.PointerSize : 4;
  uint64_t Mask = J.PointerSize == 4 ? 0xffffffffu : ~0ull;
  constexpr size_t Chunk = 64;
  uint8_t Buf[Chunk * 8];
  for (size_t N = 0; N < MaxTableEntries;) {
    uint64_t At = J.Table + N * Width;
    size_t Got = Chunk;
    // Near the end of a mapping, fewer entries may be readable.
    while (Got && !Read(At, Buf, Got * Width))
      Got = Got > 1 ? Got / 2 : 0;
    if (!Got)
      return;
    for (size_t K = 0; K < Got; ++K, ++N) {
      uint64_t Target = 0;
      if (J.Form == TableForm::Absolute) {
        std::memcpy(&Target, Buf + K * Width, Width);
      } else {
        int32_t Rel;
        std::memcpy(&Rel, Buf + K * 4, 4);
        Target = J.Base + static_cast<uint64_t>(static_cast<int64_t>(Rel));
      }
      Target &= Mask;
      if (!inCode(Code, Target))
        return;
      Targets.push_back(Target);
    }
  }
}
