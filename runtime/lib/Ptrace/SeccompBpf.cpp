//===- SeccompBpf.cpp - What a seccomp filter decides ---------------------===//
#include "SeccompBpf.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace tscc::rt::pt;

namespace {

/// ACTION_ONLY of kernel/seccomp.c: the action bits, compared as signed so
/// that KILL_PROCESS (0x80000000) is the least permissive of all.
int32_t actionOnly(uint32_t Ret) {
  return static_cast<int32_t>(Ret & SECCOMP_RET_ACTION_FULL);
}

std::string at(size_t Pc, const std::string &What) {
  return "instruction " + std::to_string(Pc) + ": " + What;
}

/// The 32-bit word at byte offset K of Data, as a seccomp load sees it.
bool loadWord(const seccomp_data &Data, uint32_t K, uint32_t &Out) {
  if (K >= sizeof(seccomp_data) || (K & 3))
    return false;
  uint8_t Bytes[sizeof(seccomp_data)];
  std::memcpy(Bytes, &Data, sizeof(Bytes));
  std::memcpy(&Out, Bytes + K, 4);
  return true;
}

/// A classic BPF machine for one run.
struct Machine {
  uint32_t A = 0, X = 0;
  uint32_t Mem[BPF_MEMWORDS] = {};
  uint32_t Stored = 0; ///< scratch slots written on this path
};

/// One ALU instruction on A. False: not an ALU operation seccomp takes.
/// A division by X == 0 ends the program with 0 (Stop).
bool alu(Machine &M, uint16_t Code, uint32_t K, bool &Stop) {
  uint32_t V = BPF_SRC(Code) == BPF_X ? M.X : K;
  switch (BPF_OP(Code)) {
  case BPF_ADD:
    M.A += V;
    return true;
  case BPF_SUB:
    M.A -= V;
    return true;
  case BPF_MUL:
    M.A *= V;
    return true;
  case BPF_DIV:
    if (V == 0) {
      Stop = true; // the kernel's classic BPF: "return 0"
      return true;
    }
    M.A /= V;
    return true;
  case BPF_AND:
    M.A &= V;
    return true;
  case BPF_OR:
    M.A |= V;
    return true;
  case BPF_XOR:
    M.A ^= V;
    return true;
  case BPF_LSH: // constant shifts are < 32 (checked); X is masked
    M.A <<= V & 31;
    return true;
  case BPF_RSH:
    M.A >>= V & 31;
    return true;
  case BPF_NEG:
    if (BPF_SRC(Code) != BPF_K)
      return false;
    M.A = 0u - M.A;
    return true;
  default:
    return false; // BPF_MOD and anything else: not for seccomp
  }
}

bool isConditionalJump(uint16_t Code) {
  if (BPF_CLASS(Code) != BPF_JMP)
    return false;
  unsigned Op = BPF_OP(Code);
  return Op == BPF_JEQ || Op == BPF_JGT || Op == BPF_JGE || Op == BPF_JSET;
}

bool jumpTaken(const Machine &M, uint16_t Code, uint32_t K) {
  uint32_t V = BPF_SRC(Code) == BPF_X ? M.X : K;
  switch (BPF_OP(Code)) {
  case BPF_JEQ:
    return M.A == V;
  case BPF_JGT:
    return M.A > V;
  case BPF_JGE:
    return M.A >= V;
  default:
    return (M.A & V) != 0; // BPF_JSET
  }
}

/// Whether Code is one of the opcodes seccomp_check_filter lets through.
bool seccompTakes(uint16_t Code) {
  switch (Code) {
  case BPF_LD | BPF_W | BPF_ABS:
  case BPF_LD | BPF_W | BPF_LEN:
  case BPF_LDX | BPF_W | BPF_LEN:
  case BPF_RET | BPF_K:
  case BPF_RET | BPF_A:
  case BPF_ALU | BPF_NEG:
  case BPF_LD | BPF_IMM:
  case BPF_LDX | BPF_IMM:
  case BPF_MISC | BPF_TAX:
  case BPF_MISC | BPF_TXA:
  case BPF_LD | BPF_MEM:
  case BPF_LDX | BPF_MEM:
  case BPF_ST:
  case BPF_STX:
  case BPF_JMP | BPF_JA:
    return true;
  default:
    break;
  }
  if (BPF_CLASS(Code) == BPF_ALU && (Code & ~0xf8u) == BPF_ALU) {
    switch (BPF_OP(Code)) {
    case BPF_ADD:
    case BPF_SUB:
    case BPF_MUL:
    case BPF_DIV:
    case BPF_AND:
    case BPF_OR:
    case BPF_XOR:
    case BPF_LSH:
    case BPF_RSH:
      return true;
    default:
      return false;
    }
  }
  return isConditionalJump(Code) && (Code & ~0xf8u) == BPF_JMP;
}

/// Loads and stores of one instruction. False with Error on a bad slot or
/// offset.
bool loadStore(Machine &M, const sock_filter &I, const seccomp_data &Data,
               uint16_t &Loaded, std::string &Error) {
  uint32_t K = I.k;
  switch (I.code) {
  case BPF_LD | BPF_W | BPF_ABS:
    if (!loadWord(Data, K, M.A)) {
      Error = "a load at offset " + std::to_string(K) +
              " outside seccomp_data or not 4-aligned";
      return false;
    }
    Loaded |= uint16_t(1u << (K / 4));
    return true;
  case BPF_LD | BPF_W | BPF_LEN:
    M.A = sizeof(seccomp_data);
    return true;
  case BPF_LDX | BPF_W | BPF_LEN:
    M.X = sizeof(seccomp_data);
    return true;
  case BPF_LD | BPF_IMM:
    M.A = K;
    return true;
  case BPF_LDX | BPF_IMM:
    M.X = K;
    return true;
  default:
    break;
  }
  if (K >= BPF_MEMWORDS) {
    Error = "scratch slot " + std::to_string(K) + " out of range";
    return false;
  }
  bool IsLoad = I.code == (BPF_LD | BPF_MEM) || I.code == (BPF_LDX | BPF_MEM);
  if (IsLoad && !(M.Stored & (1u << K))) {
    Error = "scratch slot " + std::to_string(K) + " read before it is stored";
    return false;
  }
  if (I.code == (BPF_LD | BPF_MEM))
    M.A = M.Mem[K];
  else if (I.code == (BPF_LDX | BPF_MEM))
    M.X = M.Mem[K];
  else
    M.Mem[K] = I.code == BPF_ST ? M.A : M.X;
  if (!IsLoad)
    M.Stored |= 1u << K;
  return true;
}

/// The instruction after Pc's jump, or Len + anything when out of range.
uint64_t jumpTarget(const Machine &M, const sock_filter &I, size_t Pc) {
  if (I.code == (BPF_JMP | BPF_JA))
    return Pc + 1 + uint64_t(I.k);
  return Pc + 1 + (jumpTaken(M, I.code, I.k) ? I.jt : I.jf);
}

} // namespace

SeccompAction tscc::rt::pt::seccompAction(uint32_t Ret) {
  switch (Ret & SECCOMP_RET_ACTION_FULL) {
  case SECCOMP_RET_KILL_THREAD:
    return SeccompAction::KillThread;
  case SECCOMP_RET_TRAP:
    return SeccompAction::Trap;
  case SECCOMP_RET_ERRNO:
    return SeccompAction::Errno;
  case SECCOMP_RET_USER_NOTIF:
    return SeccompAction::UserNotif;
  case SECCOMP_RET_TRACE:
    return SeccompAction::Trace;
  case SECCOMP_RET_LOG:
    return SeccompAction::Log;
  case SECCOMP_RET_ALLOW:
    return SeccompAction::Allow;
  default:
    return SeccompAction::KillProcess; // KILL_PROCESS, and the unknown
  }
}

std::string tscc::rt::pt::describeSeccompReturn(uint32_t Ret,
                                                const std::string &Name) {
  switch (seccompAction(Ret)) {
  case SeccompAction::KillProcess: {
    if ((Ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_KILL_PROCESS)
      return "kills the process on " + Name + " (SECCOMP_RET_KILL_PROCESS)";
    char Hex[16];
    snprintf(Hex, sizeof(Hex), "0x%08x", Ret);
    return "kills the process on " + Name + " (the unknown action " + Hex + ")";
  }
  case SeccompAction::KillThread:
    return "kills the thread on " + Name + " (SECCOMP_RET_KILL_THREAD)";
  case SeccompAction::Trap:
    return "sends SIGSYS on " + Name + " (SECCOMP_RET_TRAP)";
  case SeccompAction::Errno: {
    int E = static_cast<int>(std::min<uint32_t>(Ret & SECCOMP_RET_DATA, 4095));
    const char *ErrName = strerrorname_np(E);
    return "fails " + Name + " with " +
           (ErrName ? std::string(ErrName) : "errno " + std::to_string(E)) +
           " (SECCOMP_RET_ERRNO)";
  }
  case SeccompAction::UserNotif:
    return "hands " + Name + " to a supervisor (SECCOMP_RET_USER_NOTIF)";
  case SeccompAction::Trace:
    return "stops " + Name + " for a tracer (SECCOMP_RET_TRACE)";
  case SeccompAction::Log:
    return "logs " + Name + " (SECCOMP_RET_LOG)";
  case SeccompAction::Allow:
    break;
  }
  return "allows " + Name;
}

bool tscc::rt::pt::moreRestrictive(uint32_t A, uint32_t B) {
  return actionOnly(A) < actionOnly(B);
}

BpfOutcome tscc::rt::pt::runSeccompProgram(std::span<const sock_filter> Prog,
                                           const seccomp_data &Data) {
  BpfOutcome Out;
  // What the kernel would not have installed is not run: such a program
  // cannot be a process's filter, so something is wrong with what we read.
  Out.Error = checkSeccompProgram(Prog);
  if (!Out.Error.empty())
    return Out;
  Machine M;
  // Checked or not, every run stays in bounds. Every step moves Pc forward, so
  // this ends after at most size() steps.
  for (size_t Pc = 0; Pc < Prog.size();) {
    const sock_filter &I = Prog[Pc];
    if (!seccompTakes(I.code)) {
      Out.Error = at(
          Pc, "an opcode seccomp does not take (0x" + [&] {
            char B[8];
            snprintf(B, sizeof(B), "%04x", I.code);
            return std::string(B);
          }() + ")");
      return Out;
    }
    switch (BPF_CLASS(I.code)) {
    case BPF_RET:
      Out.Ok = true;
      Out.Ret = BPF_RVAL(I.code) == BPF_A ? M.A : I.k;
      return Out;
    case BPF_ALU: {
      bool Stop = false;
      alu(M, I.code, I.k, Stop);
      if (Stop) {
        Out.Ok = true;
        Out.Ret = 0;
        return Out;
      }
      ++Pc;
      continue;
    }
    case BPF_MISC:
      if (BPF_MISCOP(I.code) == BPF_TAX)
        M.X = M.A;
      else
        M.A = M.X;
      ++Pc;
      continue;
    case BPF_JMP: {
      uint64_t To = jumpTarget(M, I, Pc);
      if (To >= Prog.size()) {
        Out.Error = at(Pc, "a jump past the end of the program");
        return Out;
      }
      Pc = static_cast<size_t>(To);
      continue;
    }
    default:
      if (!loadStore(M, I, Data, Out.Loaded, Out.Error)) {
        Out.Error = at(Pc, Out.Error);
        return Out;
      }
      ++Pc;
      continue;
    }
  }
  Out.Error = Prog.empty() ? std::string("an empty program")
                           : "the program runs off its end without a return";
  return Out;
}

BpfOutcome
tscc::rt::pt::runSeccompFilters(std::span<const std::vector<sock_filter>> Fs,
                                const seccomp_data &Data) {
  BpfOutcome Out;
  Out.Ok = true;
  Out.Ret = SECCOMP_RET_ALLOW;
  for (size_t N = 0; N < Fs.size(); ++N) {
    BpfOutcome One = runSeccompProgram(Fs[N], Data);
    Out.Loaded |= One.Loaded;
    if (!One.Ok) {
      Out.Ok = false;
      Out.Error = "filter " + std::to_string(N) + ", " + One.Error;
      return Out;
    }
    if (moreRestrictive(One.Ret, Out.Ret))
      Out.Ret = One.Ret;
  }
  return Out;
}

std::string tscc::rt::pt::checkSeccompProgram(std::span<const sock_filter> P) {
  size_t Len = P.size();
  if (Len == 0 || Len > BPF_MAXINSNS)
    return "a program of " + std::to_string(Len) + " instructions";
  // Scratch slots stored on every path to each instruction (the kernel's
  // check_load_and_stores).
  std::vector<uint32_t> Valid(Len, ~0u);
  uint32_t Stored = 0;
  for (size_t Pc = 0; Pc < Len; ++Pc) {
    const sock_filter &I = P[Pc];
    uint32_t K = I.k;
    Stored &= Valid[Pc];
    if (!seccompTakes(I.code))
      return at(Pc, "an opcode seccomp does not take");
    if (I.code == (BPF_LD | BPF_W | BPF_ABS) &&
        (K >= sizeof(seccomp_data) || (K & 3)))
      return at(Pc, "a load outside seccomp_data or not 4-aligned");
    if (BPF_CLASS(I.code) == BPF_ALU && BPF_SRC(I.code) == BPF_K) {
      if (BPF_OP(I.code) == BPF_DIV && K == 0)
        return at(Pc, "a division by zero");
      if ((BPF_OP(I.code) == BPF_LSH || BPF_OP(I.code) == BPF_RSH) && K >= 32)
        return at(Pc, "a shift by 32 or more");
    }
    bool Mem = I.code == (BPF_LD | BPF_MEM) || I.code == (BPF_LDX | BPF_MEM) ||
               I.code == BPF_ST || I.code == BPF_STX;
    if (Mem && K >= BPF_MEMWORDS)
      return at(Pc, "scratch slot " + std::to_string(K) + " out of range");
    if (I.code == BPF_ST || I.code == BPF_STX)
      Stored |= 1u << K;
    else if (Mem && !(Stored & (1u << K)))
      return at(Pc, "scratch slot " + std::to_string(K) +
                        " may be read before it is stored");
    if (I.code == (BPF_JMP | BPF_JA)) {
      if (uint64_t(K) >= Len - Pc - 1)
        return at(Pc, "a jump past the end of the program");
      Valid[Pc + 1 + K] &= Stored;
      Stored = ~0u;
    } else if (isConditionalJump(I.code)) {
      if (Pc + I.jt + 1 >= Len || Pc + I.jf + 1 >= Len)
        return at(Pc, "a jump past the end of the program");
      Valid[Pc + 1 + I.jt] &= Stored;
      Valid[Pc + 1 + I.jf] &= Stored;
      Stored = ~0u;
    }
  }
  if (BPF_CLASS(P[Len - 1].code) != BPF_RET)
    return "the last instruction is not a return";
  return {};
}
