//===- RegisterValues.cpp - What a function's registers hold where --------===//
#include "RegisterValues.h"

#include "InsnFacts.h"

#include <algorithm>
#include <deque>
#include <map>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

constexpr unsigned Rax = 0, Rdx = 2;

/// After I, execution does not go on with the next instruction.
bool endsFlow(const X86Insn &I) {
  switch (I.Flow) {
  case X86Flow::JmpRel:
  case X86Flow::Ret:
    return true;
  case X86Flow::Indirect:
    return I.modrmReg() >= 4; // jmp, far jmp
  case X86Flow::Trap:         // ud2, ud1, ud0, hlt; not syscall or int3
    return (I.Map == 1 &&
            (I.Opcode == 0x0b || I.Opcode == 0xb9 || I.Opcode == 0xff)) ||
           (I.Map == 0 && I.Opcode == 0xf4);
  default:
    return false;
  }
}

bool branchesWithin(const X86Insn &I) {
  return I.Flow == X86Flow::JmpRel || I.Flow == X86Flow::JccRel ||
         I.Flow == X86Flow::LoopRel;
}

RegValue make(RegValue::Kind K, uint64_t From) {
  RegValue V;
  V.K = K;
  V.From = From;
  return V;
}

RegValue unknown(RegValue::Reason Why, uint64_t From, uint64_t From2 = 0) {
  RegValue V = make(RegValue::Unknown, From);
  V.Why = Why;
  V.From2 = From2;
  return V;
}

/// The same value, wherever it came from.
bool same(const RegValue &A, const RegValue &B) {
  if (A.K != B.K)
    return false;
  if (A.K == RegValue::Unknown)
    return true;
  return A.TableKnown == B.TableKnown && A.Scale == B.Scale &&
         A.Width == B.Width && A.Addr == B.Addr && A.Base == B.Base;
}

bool pointerLike(const RegValue &V) {
  return V.K == RegValue::Incoming || V.K == RegValue::Pointer ||
         V.K == RegValue::Const;
}

/// What a register holds when it may hold A or B.
RegValue join(const RegValue &A, const RegValue &B) {
  if (A.K == RegValue::Nothing)
    return B;
  if (B.K == RegValue::Nothing || same(A, B) || A.K == RegValue::Unknown)
    return A;
  if (B.K == RegValue::Unknown)
    return B;
  if (pointerLike(A) && pointerLike(B))
    return make(RegValue::Pointer, A.From);
  return unknown(RegValue::Reason::Differs, A.From, B.From);
}

/// How many bytes the load D (mov, movsxd, add, or a jmp through memory)
/// reads.
unsigned loadWidth(const PlacedInsn &D) {
  const X86Insn &I = D.I;
  if (I.Opcode == 0x63)
    return 4;
  if (I.Opcode == 0xff)
    return D.Mode == X86Mode::Bits32 ? 4 : 8;
  if (I.Rex & 8)
    return 8;
  return I.OpSize16 ? 2 : 4;
}

/// An address computed in D's code: i386 addresses wrap at 4 GiB.
uint64_t address(const PlacedInsn &D, uint64_t A) {
  return D.Mode == X86Mode::Bits32 ? A & 0xffffffffu : A;
}

/// A 4-byte entry plus a constant: a relative table's target.
RegValue relativeSum(const RegValue &A, const RegValue &B, uint64_t From) {
  if (A.K == RegValue::Nothing || B.K == RegValue::Nothing)
    return {};
  const RegValue *Entry = &A, *Base = &B;
  if (Entry->K == RegValue::Const)
    std::swap(Entry, Base);
  if (Base->K != RegValue::Const || Entry->K != RegValue::Indexed ||
      !Entry->TableKnown || Entry->Width != 4 ||
      (Entry->Scale != 4 && Entry->Scale != 1))
    return unknown(RegValue::Reason::AddsOffset, From);
  RegValue V = make(RegValue::Relative, From);
  V.Addr = Entry->Addr;
  V.Base = Base->Addr;
  return V;
}

} // namespace

std::string RegValue::describe() const {
  switch (Why) {
  case Reason::ComputedBy:
    return "its target is computed by the instruction at " + hexAddr(From);
  case Reason::AddsOffset:
    return "it adds an offset to its target that no table constant "
           "explains (at " +
           hexAddr(From) + ")";
  case Reason::Differs:
    return "its target is computed differently on different paths (at " +
           hexAddr(From) + " and " + hexAddr(From2) + ")";
  case Reason::Unreached:
    return "its target comes from code no branch enters (a landing pad?) "
           "at " +
           hexAddr(From);
  }
  return "its target is unknown";
}

RegisterValues::RegisterValues(const std::vector<PlacedInsn> &Code,
                               const std::vector<uint64_t> &Targets,
                               const std::map<uint64_t, unsigned> &PcThunkCalls)
    : Code(Code) {
  if (Code.empty())
    return;
  Writes.resize(Code.size());
  for (size_t K = 0; K < Code.size(); ++K) {
    // A call to a PC thunk writes its register only: with the address
    // after the call.
    if (auto T = PcThunkCalls.find(Code[K].Addr); T != PcThunkCalls.end()) {
      RegDef D;
      D.Kind = RegWrite::Const;
      D.Value = Code[K].Addr + Code[K].I.Length;
      Writes[K].push_back({T->second, D});
      continue;
    }
    for (unsigned R = 0; R < 16; ++R)
      if (RegDef D = registerWrite(Code[K], R); D.Kind != RegWrite::None)
        Writes[K].push_back({R, D});
  }
  findBlocks(Targets);
  Converged = run();
}

void RegisterValues::findBlocks(const std::vector<uint64_t> &Targets) {
  size_t N = Code.size();
  std::vector<bool> IsStart(N, false);
  std::map<uint64_t, size_t> ByAddr;
  IsStart[0] = true;
  for (size_t K = 0; K < N; ++K) {
    ByAddr[Code[K].Addr] = K;
    if (std::binary_search(Targets.begin(), Targets.end(), Code[K].Addr))
      IsStart[K] = true;
    if (K + 1 < N && (endsFlow(Code[K].I) || branchesWithin(Code[K].I)))
      IsStart[K + 1] = true;
  }
  std::vector<size_t> BlockOf(N);
  for (size_t K = 0; K < N; ++K) {
    if (IsStart[K])
      Starts.push_back(K);
    BlockOf[K] = Starts.size() - 1;
  }
  size_t B = Starts.size(), Indirect = B;
  Preds.assign(B + 1, {});
  EnteredUnseen.assign(B + 1, false);
  for (size_t Bl = 0; Bl < B; ++Bl) {
    size_t Last = blockEnd(Bl) - 1;
    const X86Insn &I = Code[Last].I;
    if (isIndirectJump(I))
      Preds[Indirect].push_back(Bl);
    if (Bl + 1 < B && !endsFlow(I))
      Preds[Bl + 1].push_back(Bl);
    if (!branchesWithin(I))
      continue;
    auto It = ByAddr.find(branchTarget(Code[Last].Addr, I));
    if (It != ByAddr.end())
      Preds[BlockOf[It->second]].push_back(Bl);
  }
  // Code only an indirect jump enters may be entered from any of them; with
  // none, it is a landing pad or unreachable.
  for (size_t Bl = 1; Bl < B; ++Bl) {
    if (!Preds[Bl].empty())
      continue;
    if (Preds[Indirect].empty())
      EnteredUnseen[Bl] = true;
    else
      Preds[Bl].push_back(Indirect);
  }
}

size_t RegisterValues::blockEnd(size_t Bl) const {
  return Bl + 1 < Starts.size() ? Starts[Bl + 1] : Code.size();
}

bool RegisterValues::run() {
  size_t B = Preds.size(); // the blocks, and the indirect jumps' one
  std::vector<std::vector<size_t>> Succs(B);
  for (size_t Bl = 0; Bl < B; ++Bl)
    for (size_t P : Preds[Bl])
      Succs[P].push_back(Bl);
  In.assign(B, RegState{});
  Out.assign(B, RegState{});
  std::deque<size_t> Work;
  std::vector<bool> Queued(B, true);
  for (size_t Bl = 0; Bl < B; ++Bl)
    Work.push_back(Bl);
  // Each register's value rises a few times at most: allow that for every
  // block, and some more.
  for (size_t Steps = 0, Limit = 64 * B + 1024; !Work.empty(); ++Steps) {
    if (Steps == Limit)
      return false;
    size_t Bl = Work.front();
    Work.pop_front();
    Queued[Bl] = false;
    if (!update(Bl))
      continue;
    for (size_t Next : Succs[Bl])
      if (!Queued[Next]) {
        Queued[Next] = true;
        Work.push_back(Next);
      }
  }
  return true;
}

/// What the registers hold when block Bl starts, from what its
/// predecessors left.
RegState RegisterValues::entryState(size_t Bl) const {
  RegState S{};
  uint64_t At = Bl < Starts.size() ? Code[Starts[Bl]].Addr : 0;
  for (unsigned R = 0; R < 16; ++R) {
    if (Bl == 0)
      S[R] = make(RegValue::Incoming, At);
    if (EnteredUnseen[Bl])
      S[R] = unknown(RegValue::Reason::Unreached, At);
    for (size_t P : Preds[Bl])
      S[R] = join(S[R], Out[P][R]);
  }
  return S;
}

/// Runs block Bl from its predecessors; whether what it leaves rose.
bool RegisterValues::update(size_t Bl) {
  RegState S = entryState(Bl);
  In[Bl] = S;
  if (Bl < Starts.size())
    for (size_t K = Starts[Bl]; K < blockEnd(Bl); ++K)
      apply(S, K);
  bool Changed = false;
  for (unsigned R = 0; R < 16; ++R) {
    RegValue New = join(Out[Bl][R], S[R]);
    Changed |= !same(New, Out[Bl][R]);
    Out[Bl][R] = New;
  }
  return Changed;
}

void RegisterValues::apply(RegState &S, size_t At) const {
  if (Writes[At].empty())
    return;
  RegState Before = S;
  for (const Write &W : Writes[At])
    S[W.R] = value(Before, At, W);
}

RegValue RegisterValues::value(const RegState &In, size_t At,
                               const Write &W) const {
  const RegDef &D = W.D;
  uint64_t From = Code[At].Addr;
  switch (D.Kind) {
  case RegWrite::None:
  case RegWrite::Same:
    return In[W.R];
  case RegWrite::Copy:
    return In[D.Src];
  case RegWrite::Load:
    // A 4-byte load from a constant address is one entry of a table of
    // offsets, read with the index known (gcc does that).
    if (D.Mem.Rip && loadWidth(Code[At]) == 4) {
      RegValue V = make(RegValue::Indexed, From);
      V.TableKnown = true;
      V.Scale = 4;
      V.Width = 4;
      V.Addr = static_cast<uint64_t>(D.Mem.Disp);
      return V;
    }
    return make(RegValue::Pointer, From);
  case RegWrite::IndexedLoad:
    return indexedLoad(In, D.Mem, At);
  case RegWrite::Add:
    return relativeSum(In[D.Src], In[D.Src2], From);
  case RegWrite::AddEntry:
    return relativeSum(In[W.R], indexedLoad(In, D.Mem, At), From);
  case RegWrite::AddConst: {
    const RegValue &Old = In[W.R];
    if (Old.K == RegValue::Nothing)
      return {};
    if (Old.K != RegValue::Const)
      return unknown(RegValue::Reason::AddsOffset, From);
    RegValue V = make(RegValue::Const, From);
    V.Addr = address(Code[At], Old.Addr + D.Value);
    return V;
  }
  case RegWrite::Const: {
    RegValue V = make(RegValue::Const, From);
    V.Addr = D.Value;
    return V;
  }
  case RegWrite::CallResult: // what else a call leaves is never read
    return W.R == Rax || W.R == Rdx ? make(RegValue::Pointer, From)
                                    : RegValue();
  case RegWrite::Unknown:
    break;
  }
  return unknown(RegValue::Reason::ComputedBy, From);
}

RegValue RegisterValues::indexedLoad(const RegState &In, const MemOperand &M,
                                     size_t At) const {
  RegValue V = make(RegValue::Indexed, Code[At].Addr);
  V.Scale = static_cast<uint8_t>(M.Scale);
  V.Width = static_cast<uint8_t>(loadWidth(Code[At]));
  uint64_t Disp = static_cast<uint64_t>(M.Disp);
  if (M.Rip)
    return V;
  if (M.Base < 0) { // disp(,%idx,s)
    V.TableKnown = true;
    V.Addr = Disp;
    return V;
  }
  // The table is the base register, or (gcc -O0) the index register with
  // the scaled index as base.
  const RegValue &Base = In[M.Base];
  const RegValue *Index = M.Index >= 0 && M.Scale == 1 ? &In[M.Index] : nullptr;
  if (Base.K == RegValue::Const || (Index && Index->K == RegValue::Const)) {
    V.TableKnown = true;
    V.Addr = address(
        Code[At], (Base.K == RegValue::Const ? Base.Addr : Index->Addr) + Disp);
    return V;
  }
  if (Base.K == RegValue::Nothing || (Index && Index->K == RegValue::Nothing))
    return {}; // not known yet
  return V;
}

void RegisterValues::forEach(
    const std::function<void(size_t, const RegState &)> &Visit) const {
  for (size_t Bl = 0; Bl < Starts.size(); ++Bl) {
    RegState S = In[Bl];
    for (size_t K = Starts[Bl]; K < blockEnd(Bl); ++K) {
      Visit(K, S);
      apply(S, K);
    }
  }
}
