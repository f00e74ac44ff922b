//===- IndirectJumps.cpp - Where a function's indirect jumps may go -------===//
#include "IndirectJumps.h"

#include "RegisterDefs.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

/// How far back from a jump its target is looked for.
constexpr size_t MaxTraceInsns = 64;
/// How deep sums and table addresses are traced.
constexpr unsigned MaxTraceDepth = 4;

std::string hexAddr(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%" PRIx64, V);
  return Buf;
}

bool isIndirectJump(const X86Insn &I) {
  return I.Flow == X86Flow::Indirect && (I.modrmReg() == 4);
}

/// After I, execution does not fall through to the next instruction.
bool endsFlow(const X86Insn &I) {
  switch (I.Flow) {
  case X86Flow::JmpRel:
  case X86Flow::Ret:
  case X86Flow::Trap:
    return true;
  case X86Flow::Indirect:
    return I.modrmReg() >= 4; // jmp, far jmp
  default:
    return false;
  }
}

/// The value of a register at some point, as far as the trace saw.
struct Value {
  enum Kind : uint8_t { Pointer, Const, Indexed, Sum, Unknown } K = Unknown;
  uint64_t Addr = 0;       ///< Const: the constant; Indexed: the table
  bool TableKnown = false; ///< Indexed: Addr is the table's address
  unsigned Scale = 0;      ///< Indexed
  size_t At = 0;           ///< Sum: the add, to trace its operands from
  unsigned A = 0, B = 0;   ///< Sum: the two registers added
  std::string Why;         ///< Unknown
};

class Tracer {
public:
  Tracer(const std::vector<PlacedInsn> &Code,
         const std::vector<uint64_t> &Targets)
      : Code(Code), Targets(Targets) {}

  /// The value register R holds right before instruction Before.
  Value trace(unsigned R, size_t Before, unsigned Depth) const;
  /// The table an indexed load from M (instruction At) reads.
  Value indexed(const MemOperand &M, size_t At, unsigned Depth) const;
  IndirectJump classify(size_t J) const;

private:
  bool isTarget(uint64_t A) const {
    return std::binary_search(Targets.begin(), Targets.end(), A);
  }
  Value fromDef(const RegDef &D, size_t At, unsigned Depth) const;
  IndirectJump fromValue(IndirectJump J, const Value &V) const;

  const std::vector<PlacedInsn> &Code;
  const std::vector<uint64_t> &Targets;
};

Value unknown(std::string Why) {
  Value V;
  V.Why = std::move(Why);
  return V;
}

Value Tracer::trace(unsigned R, size_t Before, unsigned Depth) const {
  for (size_t K = Before, Steps = 0; K > 0; --K, ++Steps) {
    // Whatever reaches Code[K] other than from Code[K - 1] may bring
    // another value.
    const PlacedInsn &Prev = Code[K - 1];
    if (isTarget(Code[K].Addr) || endsFlow(Prev.I))
      return unknown("its target comes through a merge of control flow at " +
                     hexAddr(Code[K].Addr));
    if (Steps == MaxTraceInsns)
      return unknown("its target is computed too far before it");
    RegDef D = registerWrite(Prev, R);
    if (D.Kind == RegWrite::None || D.Kind == RegWrite::Same)
      continue;
    if (D.Kind == RegWrite::Copy) {
      R = D.Src;
      continue;
    }
    return fromDef(D, K - 1, Depth);
  }
  Value V; // an incoming value: an argument or a callee-saved register
  V.K = Value::Pointer;
  return V;
}

Value Tracer::fromDef(const RegDef &D, size_t At, unsigned Depth) const {
  Value V;
  switch (D.Kind) {
  case RegWrite::Load:
  case RegWrite::CallResult:
    V.K = Value::Pointer;
    return V;
  case RegWrite::Const:
    V.K = Value::Const;
    V.Addr = D.Value;
    return V;
  case RegWrite::IndexedLoad:
    return indexed(D.Mem, At, Depth);
  case RegWrite::Add:
    V.K = Value::Sum;
    V.At = At;
    V.A = D.Src;
    V.B = D.Src2;
    return V;
  default:
    return unknown("its target is computed by the instruction at " +
                   hexAddr(Code[At].Addr));
  }
}

Value Tracer::indexed(const MemOperand &M, size_t At, unsigned Depth) const {
  Value V;
  V.K = Value::Indexed;
  V.Scale = M.Scale;
  if (M.Rip || M.Base < 0) { // table(%rip,...) cannot index; disp(,%i,s)
    V.TableKnown = !M.Rip;
    V.Addr = static_cast<uint64_t>(M.Disp);
    return V;
  }
  if (Depth >= MaxTraceDepth)
    return V;
  // The table is the base register, or (gcc -O0) the index register with
  // the scaled index as base.
  Value Base = trace(static_cast<unsigned>(M.Base), At, Depth + 1);
  if (Base.K != Value::Const && M.Scale == 1 && M.Index >= 0)
    Base = trace(static_cast<unsigned>(M.Index), At, Depth + 1);
  if (Base.K == Value::Const) {
    V.TableKnown = true;
    V.Addr = Base.Addr + static_cast<uint64_t>(M.Disp);
  }
  return V;
}

IndirectJump Tracer::fromValue(IndirectJump J, const Value &V) const {
  switch (V.K) {
  case Value::Pointer:
  case Value::Const:
    J.Kind = IndirectKind::Pointer;
    return J;
  case Value::Indexed:
    if (V.TableKnown && V.Scale == 8) {
      J.Kind = IndirectKind::Table;
      J.Form = TableForm::Absolute;
      J.Table = V.Addr;
      return J;
    }
    J.Why = "it loads its target from a table whose address is not a "
            "constant";
    return J;
  case Value::Sum: {
    Value A = trace(V.A, V.At, 1), B = trace(V.B, V.At, 1);
    if (A.K == Value::Const)
      std::swap(A, B);
    if (B.K == Value::Const && A.K == Value::Indexed && A.TableKnown &&
        (A.Scale == 4 || A.Scale == 1)) {
      J.Kind = IndirectKind::Table;
      J.Form = TableForm::Relative;
      J.Table = A.Addr;
      J.Base = B.Addr;
      return J;
    }
    J.Why = "it adds an offset to its target that no table constant "
            "explains";
    return J;
  }
  case Value::Unknown:
    J.Why = V.Why;
    return J;
  }
  return J;
}

IndirectJump Tracer::classify(size_t Index) const {
  const PlacedInsn &D = Code[Index];
  IndirectJump J;
  J.Addr = D.Addr;
  if (D.I.modrmMod() == 3)
    return fromValue(J, trace(jumpRegister(D.I), Index, 0));
  MemOperand M;
  if (!memOperandOf(D, M)) {
    J.Why = "its operand cannot be decoded";
    return J;
  }
  if (M.Index < 0) { // through a pointer in memory: GOT, vtable, variable
    J.Kind = IndirectKind::Pointer;
    return J;
  }
  return fromValue(J, indexed(M, Index, 0));
}

bool decodeAll(std::span<const uint8_t> Func, uint64_t FuncStart,
               std::vector<PlacedInsn> &Code, std::string &Why) {
  for (size_t Pos = 0; Pos < Func.size();) {
    PlacedInsn D;
    D.Addr = FuncStart + Pos;
    D.Bytes = Func.data() + Pos;
    if (!decodeX86(D.Bytes, Func.size() - Pos, X86Mode::Bits64, D.I)) {
      Why = "cannot decode the function at " + hexAddr(D.Addr);
      return false;
    }
    Code.push_back(D);
    Pos += D.I.Length;
  }
  return true;
}

bool hasRelTarget(const X86Insn &I) {
  return I.Flow == X86Flow::JmpRel || I.Flow == X86Flow::JccRel ||
         I.Flow == X86Flow::CallRel || I.Flow == X86Flow::LoopRel;
}

bool inCode(std::span<const std::pair<uint64_t, uint64_t>> Code, uint64_t A) {
  for (const auto &[Lo, Hi] : Code)
    if (A >= Lo && A < Hi)
      return true;
  return false;
}

} // namespace

bool tscc::rt::ip::scanFunctionCode(std::span<const uint8_t> Func,
                                    uint64_t FuncStart, FunctionCode &Out,
                                    std::string &Why) {
  Out = FunctionCode();
  std::vector<PlacedInsn> Code;
  if (!decodeAll(Func, FuncStart, Code, Why))
    return false;
  for (const PlacedInsn &D : Code)
    if (hasRelTarget(D.I))
      Out.BranchTargets.push_back(D.Addr + D.I.Length +
                                  static_cast<uint64_t>(D.I.RelTarget));
  std::sort(Out.BranchTargets.begin(), Out.BranchTargets.end());
  Out.BranchTargets.erase(
      std::unique(Out.BranchTargets.begin(), Out.BranchTargets.end()),
      Out.BranchTargets.end());
  Tracer T(Code, Out.BranchTargets);
  for (size_t K = 0; K < Code.size(); ++K)
    if (isIndirectJump(Code[K].I))
      Out.Jumps.push_back(T.classify(K));
  return true;
}

void tscc::rt::ip::readJumpTable(
    const IndirectJump &J, std::span<const std::pair<uint64_t, uint64_t>> Code,
    const ReadMemory &Read, std::vector<uint64_t> &Targets) {
  if (J.Kind != IndirectKind::Table)
    return;
  size_t Width = J.Form == TableForm::Absolute ? 8 : 4;
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
      uint64_t Target;
      if (Width == 8) {
        std::memcpy(&Target, Buf + K * 8, 8);
      } else {
        int32_t Rel;
        std::memcpy(&Rel, Buf + K * 4, 4);
        Target = J.Base + static_cast<uint64_t>(static_cast<int64_t>(Rel));
      }
      if (!inCode(Code, Target))
        return;
      Targets.push_back(Target);
    }
  }
}
