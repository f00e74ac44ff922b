//===- SeccompBpfTest.cpp - The seccomp filter interpreter ----------------===//
//
// The interpreter must decide what the kernel decides, for every program
// the kernel accepts, and must survive every program it does not. The last
// tests check it against the kernel itself: random programs installed in
// forked children, whose fate is compared with the prediction.
//
//===----------------------------------------------------------------------===//
#include "SeccompBpf.h"
#include "Seccomp.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <linux/audit.h>
#include <random>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt::pt;

namespace {

sock_filter stmt(uint16_t Code, uint32_t K) { return {Code, 0, 0, K}; }
sock_filter jump(uint16_t Code, uint32_t K, uint8_t Jt, uint8_t Jf) {
  return {Code, Jt, Jf, K};
}
constexpr uint32_t Allow = SECCOMP_RET_ALLOW;
constexpr uint32_t KillProcess = SECCOMP_RET_KILL_PROCESS;
constexpr uint16_t LdAbs = BPF_LD | BPF_W | BPF_ABS;
constexpr uint16_t RetK = BPF_RET | BPF_K;

seccomp_data call(int Nr, std::initializer_list<uint64_t> Args = {},
                  uint32_t Arch = AUDIT_ARCH_X86_64, uint64_t IP = 0) {
  seccomp_data D{};
  D.nr = Nr;
  D.arch = Arch;
  D.instruction_pointer = IP;
  unsigned I = 0;
  for (uint64_t A : Args)
    D.args[I++] = A;
  return D;
}

/// The usual shape: kill other architectures, kill the listed calls,
/// allow the rest (what libseccomp and systemd generate).
std::vector<sock_filter> denyList(std::initializer_list<uint32_t> Nrs,
                                  uint32_t Action = KillProcess) {
  std::vector<sock_filter> F{
      stmt(LdAbs, offsetof(seccomp_data, arch)),
      jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      stmt(RetK, KillProcess), stmt(LdAbs, offsetof(seccomp_data, nr))};
  for (uint32_t Nr : Nrs) {
    F.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, Nr, 0, 1));
    F.push_back(stmt(RetK, Action));
  }
  F.push_back(stmt(RetK, Allow));
  return F;
}

uint32_t run(const std::vector<sock_filter> &F, const seccomp_data &D) {
  BpfOutcome O = runSeccompProgram(F, D);
  EXPECT_TRUE(O.Ok) << O.Error;
  return O.Ret;
}

/// A program that computes A from the given instructions, then returns A.
uint32_t compute(std::vector<sock_filter> Body, const seccomp_data &D = {}) {
  Body.push_back(stmt(BPF_RET | BPF_A, 0));
  return run(Body, D);
}

} // namespace

TEST(SeccompBpfTest, DenyListKillsListedCallsOnly) {
  auto F = denyList({SYS_mmap, SYS_mprotect, SYS_memfd_create});
  EXPECT_EQ(run(F, call(SYS_mmap)), KillProcess);
  EXPECT_EQ(run(F, call(SYS_memfd_create)), KillProcess);
  EXPECT_EQ(run(F, call(SYS_read)), Allow);
  // The same number from another architecture is killed by the arch test.
  EXPECT_EQ(run(F, call(SYS_read, {}, AUDIT_ARCH_I386)), KillProcess);
  EXPECT_EQ(checkSeccompProgram(F), "");
}

TEST(SeccompBpfTest, LoadedSaysWhichWordsTheVerdictRead) {
  auto F = denyList({SYS_mmap});
  BpfOutcome O = runSeccompProgram(F, call(SYS_read));
  EXPECT_EQ(O.Loaded, LoadedNr | LoadedArch);
  // Another architecture never gets to the number.
  O = runSeccompProgram(F, call(SYS_read, {}, AUDIT_ARCH_I386));
  EXPECT_EQ(O.Loaded, LoadedArch);
}

// tsrun's own filter for launched processes (Seccomp.h): traced numbers
// stop unless made from the gadget, the rest run free. An untraced call's
// verdict must depend on the arch and the number only: the kernel's
// seccomp action cache then lets it through without running the filter,
// which a filter that reads the instruction pointer first defeats for
// every call of the process.
TEST(SeccompBpfTest, TsrunFilterReadsTheIPOfTracedCallsOnly) {
  constexpr uint64_t Gadget = 0x2e7300000002ull;
  constexpr uint32_t Trace = SECCOMP_RET_TRACE | OurTraceData;
  auto F =
      buildSeccompFilter({SYS_getppid, SYS_read}, {20 /* getpid */}, Gadget);
  EXPECT_EQ(checkSeccompProgram(F), "");
  BpfOutcome O =
      runSeccompProgram(F, call(SYS_write, {}, AUDIT_ARCH_X86_64, 0x401000));
  EXPECT_EQ(O.Ret, Allow);
  EXPECT_EQ(O.Loaded, LoadedNr | LoadedArch);
  O = runSeccompProgram(F, call(SYS_getppid, {}, AUDIT_ARCH_X86_64, 0x401000));
  EXPECT_EQ(O.Ret, Trace);
  EXPECT_NE(O.Loaded & LoadedIP, 0);
  EXPECT_EQ(run(F, call(SYS_getppid, {}, AUDIT_ARCH_X86_64, Gadget)), Allow);
  EXPECT_EQ(run(F, call(SYS_read, {}, AUDIT_ARCH_X86_64, Gadget + 8)), Trace);
  // The same low word elsewhere is not the gadget.
  EXPECT_EQ(run(F, call(SYS_read, {}, AUDIT_ARCH_X86_64, Gadget & 0xffffffff)),
            Trace);
  // x32 calls and i386 calls by their own numbers; no gadget in i386.
  EXPECT_EQ(run(F, call(SYS_getppid | 0x40000000, {}, AUDIT_ARCH_X86_64)),
            Allow);
  EXPECT_EQ(run(F, call(20, {}, AUDIT_ARCH_I386, Gadget)), Trace);
  O = runSeccompProgram(F, call(64 /* i386 getppid */, {}, AUDIT_ARCH_I386));
  EXPECT_EQ(O.Ret, Allow);
  EXPECT_EQ(O.Loaded, LoadedNr | LoadedArch);
}

TEST(SeccompBpfTest, ArgumentChecks) {
  // W^X: mmap with PROT_EXEC of anonymous memory is refused with EPERM.
  std::vector<sock_filter> F{
      stmt(LdAbs, offsetof(seccomp_data, nr)),
      jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 5),
      stmt(LdAbs, offsetof(seccomp_data, args[2])),
      jump(BPF_JMP | BPF_JSET | BPF_K, 4 /*PROT_EXEC*/, 0, 3),
      stmt(LdAbs, offsetof(seccomp_data, args[3])),
      jump(BPF_JMP | BPF_JSET | BPF_K, 0x20 /*MAP_ANONYMOUS*/, 0, 1),
      stmt(RetK, SECCOMP_RET_ERRNO | EPERM),
      stmt(RetK, Allow)};
  EXPECT_EQ(run(F, call(SYS_mmap, {0, 4096, 5, 0x22})),
            SECCOMP_RET_ERRNO | EPERM);
  EXPECT_EQ(run(F, call(SYS_mmap, {0, 4096, 3, 0x22})), Allow);
  EXPECT_EQ(run(F, call(SYS_mmap, {0, 4096, 5, 0x02})), Allow);
  BpfOutcome O = runSeccompProgram(F, call(SYS_mmap, {0, 4096, 5, 0x22}));
  // Low words of arguments 3 and 4 (offsets 32 and 40).
  EXPECT_EQ(O.Loaded, LoadedNr | (1u << 8) | (1u << 10));
  EXPECT_TRUE(O.Loaded & loadedArg(2));
  EXPECT_FALSE(O.Loaded & loadedArg(0));
}

TEST(SeccompBpfTest, InstructionPointerAndHighWords) {
  // Allow only calls made from [0x1000, 0x2000) with a zero high half.
  std::vector<sock_filter> F{
      stmt(LdAbs, offsetof(seccomp_data, instruction_pointer) + 4),
      jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4),
      stmt(LdAbs, offsetof(seccomp_data, instruction_pointer)),
      jump(BPF_JMP | BPF_JGE | BPF_K, 0x1000, 0, 2),
      jump(BPF_JMP | BPF_JGE | BPF_K, 0x2000, 1, 0),
      stmt(RetK, Allow),
      stmt(RetK, SECCOMP_RET_TRAP)};
  EXPECT_EQ(run(F, call(1, {}, AUDIT_ARCH_X86_64, 0x1800)), Allow);
  EXPECT_EQ(run(F, call(1, {}, AUDIT_ARCH_X86_64, 0x2800)), SECCOMP_RET_TRAP);
  EXPECT_EQ(run(F, call(1, {}, AUDIT_ARCH_X86_64, 0x100001800)),
            SECCOMP_RET_TRAP);
  EXPECT_EQ(runSeccompProgram(F, call(1, {}, AUDIT_ARCH_X86_64, 0x1800)).Loaded,
            LoadedIP);
}

TEST(SeccompBpfTest, AluWithConstants) {
  EXPECT_EQ(
      compute({stmt(BPF_LD | BPF_IMM, 7), stmt(BPF_ALU | BPF_ADD | BPF_K, 5)}),
      12u);
  EXPECT_EQ(
      compute({stmt(BPF_LD | BPF_IMM, 7), stmt(BPF_ALU | BPF_SUB | BPF_K, 9)}),
      0xfffffffeu); // 32-bit wrap-around
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 0x10000),
                     stmt(BPF_ALU | BPF_MUL | BPF_K, 0x10001)}),
            0x10000u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 100),
                     stmt(BPF_ALU | BPF_DIV | BPF_K, 7)}),
            14u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 0xf0f0),
                     stmt(BPF_ALU | BPF_AND | BPF_K, 0xff00)}),
            0xf000u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 0xf0f0),
                     stmt(BPF_ALU | BPF_OR | BPF_K, 0x0f00)}),
            0xfff0u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 0xf0f0),
                     stmt(BPF_ALU | BPF_XOR | BPF_K, 0xffff)}),
            0x0f0fu);
  EXPECT_EQ(
      compute({stmt(BPF_LD | BPF_IMM, 3), stmt(BPF_ALU | BPF_LSH | BPF_K, 31)}),
      0x80000000u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 0x80000000),
                     stmt(BPF_ALU | BPF_RSH | BPF_K, 31)}),
            1u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 5), stmt(BPF_ALU | BPF_NEG, 0)}),
            0xfffffffbu);
}

TEST(SeccompBpfTest, AluWithX) {
  auto WithX = [](uint32_t A, uint16_t Op, uint32_t X) {
    return compute({stmt(BPF_LDX | BPF_IMM, X), stmt(BPF_LD | BPF_IMM, A),
                    stmt(BPF_ALU | Op | BPF_X, 0)});
  };
  EXPECT_EQ(WithX(7, BPF_ADD, 5), 12u);
  EXPECT_EQ(WithX(7, BPF_SUB, 5), 2u);
  EXPECT_EQ(WithX(7, BPF_MUL, 5), 35u);
  EXPECT_EQ(WithX(35, BPF_DIV, 5), 7u);
  EXPECT_EQ(WithX(6, BPF_AND, 3), 2u);
  EXPECT_EQ(WithX(6, BPF_OR, 3), 7u);
  EXPECT_EQ(WithX(6, BPF_XOR, 3), 5u);
  // Shifts by X use its low five bits, as the kernel's interpreter and
  // JITs do.
  EXPECT_EQ(WithX(1, BPF_LSH, 33), 2u);
  EXPECT_EQ(WithX(0x80, BPF_RSH, 36), 8u);
}

TEST(SeccompBpfTest, DivisionByZeroInXReturnsZero) {
  // The kernel's classic BPF ends the program with 0: KILL_THREAD.
  std::vector<sock_filter> F{
      stmt(BPF_LDX | BPF_IMM, 0), stmt(BPF_LD | BPF_IMM, 10),
      stmt(BPF_ALU | BPF_DIV | BPF_X, 0), stmt(RetK, Allow)};
  EXPECT_EQ(checkSeccompProgram(F), "");
  EXPECT_EQ(run(F, {}), SECCOMP_RET_KILL_THREAD);
  EXPECT_EQ(seccompAction(run(F, {})), SeccompAction::KillThread);
}

TEST(SeccompBpfTest, RegistersScratchAndLength) {
  // TAX, TXA, ST, STX, LD MEM, LDX MEM, LD LEN, LDX LEN, RET A.
  EXPECT_EQ(
      compute({stmt(BPF_LD | BPF_W | BPF_LEN, 0), stmt(BPF_MISC | BPF_TAX, 0),
               stmt(BPF_LD | BPF_IMM, 1), stmt(BPF_ALU | BPF_ADD | BPF_X, 0)}),
      65u);
  EXPECT_EQ(compute({stmt(BPF_LDX | BPF_W | BPF_LEN, 0),
                     stmt(BPF_MISC | BPF_TXA, 0)}),
            64u);
  EXPECT_EQ(compute({stmt(BPF_LD | BPF_IMM, 11), stmt(BPF_ST, 15),
                     stmt(BPF_LDX | BPF_IMM, 22), stmt(BPF_STX, 0),
                     stmt(BPF_LD | BPF_MEM, 0), stmt(BPF_LDX | BPF_MEM, 15),
                     stmt(BPF_ALU | BPF_SUB | BPF_X, 0)}),
            11u);
}

TEST(SeccompBpfTest, JumpsWithX) {
  auto Cmp = [](uint16_t Op, uint32_t A, uint32_t X) {
    return compute({stmt(BPF_LDX | BPF_IMM, X), stmt(BPF_LD | BPF_IMM, A),
                    jump(BPF_JMP | Op | BPF_X, 0, 2, 0),
                    stmt(BPF_LD | BPF_IMM, 0), stmt(BPF_JMP | BPF_JA, 1),
                    stmt(BPF_LD | BPF_IMM, 1)});
  };
  EXPECT_EQ(Cmp(BPF_JEQ, 3, 3), 1u);
  EXPECT_EQ(Cmp(BPF_JEQ, 3, 4), 0u);
  EXPECT_EQ(Cmp(BPF_JGT, 4, 3), 1u);
  EXPECT_EQ(Cmp(BPF_JGT, 3, 3), 0u);
  EXPECT_EQ(Cmp(BPF_JGE, 3, 3), 1u);
  EXPECT_EQ(Cmp(BPF_JGE, 2, 3), 0u);
  EXPECT_EQ(Cmp(BPF_JSET, 6, 2), 1u);
  EXPECT_EQ(Cmp(BPF_JSET, 6, 1), 0u);
  // Unsigned comparisons.
  EXPECT_EQ(Cmp(BPF_JGT, 0x80000000, 1), 1u);
}

TEST(SeccompBpfTest, MalformedProgramsAreErrorsNotCrashes) {
  struct Case {
    const char *What;
    std::vector<sock_filter> Prog;
  } Cases[] = {
      {"empty", {}},
      {"conditional jump past the end",
       {jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0), stmt(RetK, Allow)}},
      {"jump always past the end",
       {stmt(BPF_JMP | BPF_JA, 0xffffffff), stmt(RetK, Allow)}},
      {"jump always to the end", {stmt(BPF_JMP | BPF_JA, 1), stmt(RetK, 0)}},
      {"load past seccomp_data", {stmt(LdAbs, 64), stmt(RetK, Allow)}},
      {"unaligned load", {stmt(LdAbs, 2), stmt(RetK, Allow)}},
      {"byte load", {stmt(BPF_LD | BPF_B | BPF_ABS, 0), stmt(RetK, Allow)}},
      {"indirect load", {stmt(BPF_LD | BPF_W | BPF_IND, 0), stmt(RetK, 0)}},
      {"scratch slot out of range",
       {stmt(BPF_ST, 16), stmt(BPF_LD | BPF_MEM, 16), stmt(RetK, Allow)}},
      {"scratch read before store",
       {stmt(BPF_LD | BPF_MEM, 3), stmt(BPF_RET | BPF_A, 0)}},
      {"scratch stored on one path only",
       {jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1), stmt(BPF_ST, 1),
        stmt(BPF_LD | BPF_MEM, 1), stmt(BPF_RET | BPF_A, 0)}},
      {"division by a constant zero",
       {stmt(BPF_ALU | BPF_DIV | BPF_K, 0), stmt(RetK, Allow)}},
      {"shift by a constant 32",
       {stmt(BPF_ALU | BPF_LSH | BPF_K, 32), stmt(RetK, Allow)}},
      {"modulo (not for seccomp)",
       {stmt(BPF_ALU | BPF_MOD | BPF_K, 3), stmt(RetK, Allow)}},
      {"negation of X", {stmt(BPF_ALU | BPF_NEG | BPF_X, 0), stmt(RetK, 0)}},
      {"return X", {stmt(BPF_RET | BPF_X, 0)}},
      {"unknown opcode", {stmt(0xffff, 0), stmt(RetK, Allow)}},
      {"no return at the end", {stmt(BPF_LD | BPF_IMM, 1)}},
      {"return not last", {stmt(RetK, Allow), stmt(BPF_LD | BPF_IMM, 1)}},
      {"too long",
       std::vector<sock_filter>(BPF_MAXINSNS + 1, stmt(RetK, Allow))},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.What);
    EXPECT_NE(checkSeccompProgram(C.Prog), "");
    BpfOutcome O = runSeccompProgram(C.Prog, call(SYS_read));
    EXPECT_FALSE(O.Ok);
    EXPECT_FALSE(O.Error.empty());
  }
}

TEST(SeccompBpfTest, RandomProgramsNeverCrashOrLoop) {
  // Anything at all: the interpreter must end, every time, and say why
  // when it cannot decide. Programs the checker accepts always decide.
  std::mt19937 Rng(20240524);
  static const uint16_t Codes[] = {LdAbs,
                                   BPF_LD | BPF_W | BPF_LEN,
                                   BPF_LDX | BPF_W | BPF_LEN,
                                   RetK,
                                   BPF_RET | BPF_A,
                                   BPF_ALU | BPF_ADD | BPF_K,
                                   BPF_ALU | BPF_DIV | BPF_X,
                                   BPF_ALU | BPF_DIV | BPF_K,
                                   BPF_ALU | BPF_LSH | BPF_X,
                                   BPF_ALU | BPF_RSH | BPF_K,
                                   BPF_ALU | BPF_NEG,
                                   BPF_LD | BPF_IMM,
                                   BPF_LDX | BPF_IMM,
                                   BPF_MISC | BPF_TAX,
                                   BPF_MISC | BPF_TXA,
                                   BPF_LD | BPF_MEM,
                                   BPF_LDX | BPF_MEM,
                                   BPF_ST,
                                   BPF_STX,
                                   BPF_JMP | BPF_JA,
                                   BPF_JMP | BPF_JEQ | BPF_K,
                                   BPF_JMP | BPF_JGT | BPF_X,
                                   BPF_JMP | BPF_JSET | BPF_K,
                                   BPF_JMP | BPF_JGE | BPF_K};
  unsigned Accepted = 0;
  for (int N = 0; N < 20000; ++N) {
    std::vector<sock_filter> P(1 + Rng() % 24);
    for (sock_filter &I : P) {
      bool Wild = Rng() % 16 == 0;
      I.code =
          Wild ? static_cast<uint16_t>(Rng()) : Codes[Rng() % std::size(Codes)];
      I.jt = static_cast<uint8_t>(Wild ? Rng() : Rng() % 4);
      I.jf = static_cast<uint8_t>(Wild ? Rng() : Rng() % 4);
      uint32_t Small = Rng() % 20;
      I.k = Wild || Rng() % 8 == 0 ? static_cast<uint32_t>(Rng())
                                   : (I.code == LdAbs ? Small * 4 : Small);
    }
    if (Rng() % 2)
      P.back() = stmt(RetK, static_cast<uint32_t>(Rng()));
    seccomp_data D = call(static_cast<int>(Rng()), {Rng(), Rng(), Rng()});
    BpfOutcome O = runSeccompProgram(P, D);
    bool Valid = checkSeccompProgram(P).empty();
    EXPECT_EQ(O.Ok, Valid) << O.Error;
    EXPECT_EQ(O.Error.empty(), O.Ok);
    Accepted += Valid;
  }
  EXPECT_GT(Accepted, 500u); // the generator does reach valid programs
}

TEST(SeccompBpfTest, ActionsAndTheirOrder) {
  EXPECT_EQ(seccompAction(SECCOMP_RET_KILL_PROCESS),
            SeccompAction::KillProcess);
  EXPECT_EQ(seccompAction(SECCOMP_RET_KILL_THREAD), SeccompAction::KillThread);
  EXPECT_EQ(seccompAction(SECCOMP_RET_TRAP | 7), SeccompAction::Trap);
  EXPECT_EQ(seccompAction(SECCOMP_RET_ERRNO | 1), SeccompAction::Errno);
  EXPECT_EQ(seccompAction(SECCOMP_RET_USER_NOTIF), SeccompAction::UserNotif);
  EXPECT_EQ(seccompAction(SECCOMP_RET_TRACE | 9), SeccompAction::Trace);
  EXPECT_EQ(seccompAction(SECCOMP_RET_LOG), SeccompAction::Log);
  EXPECT_EQ(seccompAction(SECCOMP_RET_ALLOW), SeccompAction::Allow);
  // Actions the kernel does not know kill the process.
  EXPECT_EQ(seccompAction(0x00010000), SeccompAction::KillProcess);
  EXPECT_EQ(seccompAction(0x7ffe0000), SeccompAction::KillProcess);
  const uint32_t Order[] = {SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_KILL_THREAD,
                            SECCOMP_RET_TRAP,         SECCOMP_RET_ERRNO,
                            SECCOMP_RET_USER_NOTIF,   SECCOMP_RET_TRACE,
                            SECCOMP_RET_LOG,          SECCOMP_RET_ALLOW};
  for (size_t I = 0; I + 1 < std::size(Order); ++I) {
    EXPECT_TRUE(moreRestrictive(Order[I], Order[I + 1])) << I;
    EXPECT_FALSE(moreRestrictive(Order[I + 1], Order[I])) << I;
  }
  // Data does not count.
  EXPECT_FALSE(moreRestrictive(SECCOMP_RET_ERRNO | 1, SECCOMP_RET_ERRNO | 2));
  EXPECT_EQ(describeSeccompReturn(SECCOMP_RET_KILL_PROCESS, "mmap"),
            "kills the process on mmap (SECCOMP_RET_KILL_PROCESS)");
  EXPECT_EQ(describeSeccompReturn(SECCOMP_RET_ERRNO | EPERM, "socket"),
            "fails socket with EPERM (SECCOMP_RET_ERRNO)");
}

TEST(SeccompBpfTest, StackedFiltersMostRestrictiveWins) {
  std::vector<std::vector<sock_filter>> Chain{
      // Most recent first: a later filter that fails socket with EPERM...
      denyList({SYS_socket}, SECCOMP_RET_ERRNO | EPERM),
      // ... over an older one that kills socket and mmap.
      denyList({SYS_socket, SYS_mmap}),
  };
  EXPECT_EQ(runSeccompFilters(Chain, call(SYS_socket)).Ret, KillProcess);
  EXPECT_EQ(runSeccompFilters(Chain, call(SYS_mmap)).Ret, KillProcess);
  EXPECT_EQ(runSeccompFilters(Chain, call(SYS_read)).Ret, Allow);
  // On a tie the most recent filter's value counts, data included.
  std::vector<std::vector<sock_filter>> Tie{
      denyList({SYS_socket}, SECCOMP_RET_ERRNO | EACCES),
      denyList({SYS_socket}, SECCOMP_RET_ERRNO | EPERM)};
  EXPECT_EQ(runSeccompFilters(Tie, call(SYS_socket)).Ret,
            SECCOMP_RET_ERRNO | EACCES);
  // No filter allows; a malformed one is an error, not a verdict.
  EXPECT_EQ(runSeccompFilters({}, call(SYS_socket)).Ret, Allow);
  std::vector<std::vector<sock_filter>> Bad{denyList({}), {stmt(LdAbs, 66)}};
  BpfOutcome O = runSeccompFilters(Bad, call(SYS_read));
  EXPECT_FALSE(O.Ok);
  EXPECT_NE(O.Error.find("filter 1"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Against the kernel
//===----------------------------------------------------------------------===//

namespace {

/// What happened to a child that made one getppid call under a filter.
struct Fate {
  enum { Returned, Sigsys, Killed } Kind;
  long Rax = 0;
};

int FatePipe = -1;

void onSigsys(int) {
  char C = 'T';
  ssize_t W = write(FatePipe, &C, 1);
  (void)W;
  _exit(0);
}

/// A child killed by SIGSYS would dump core otherwise.
void noCoreDumps() {
  rlimit None{0, 0};
  setrlimit(RLIMIT_CORE, &None);
}

long rawGetppid(const uint64_t *A) {
  long R;
  register long R10 __asm__("r10") = static_cast<long>(A[3]);
  register long R8 __asm__("r8") = static_cast<long>(A[4]);
  register long R9 __asm__("r9") = static_cast<long>(A[5]);
  __asm__ volatile("syscall"
                   : "=a"(R)
                   : "a"(SYS_getppid), "D"(A[0]), "S"(A[1]), "d"(A[2]),
                     "r"(R10), "r"(R8), "r"(R9)
                   : "rcx", "r11", "memory");
  return R;
}

/// Runs getppid(Args) in a child under Filter: how it ended. Installed is
/// false when the kernel refused the filter.
Fate runInKernel(const std::vector<sock_filter> &Filter, const uint64_t *Args,
                 bool &Installed) {
  int P[2];
  EXPECT_EQ(pipe(P), 0);
  pid_t Child = fork();
  if (Child == 0) {
    close(P[0]);
    FatePipe = P[1];
    noCoreDumps();
    signal(SIGSYS, onSigsys);
    sock_fprog Prog{static_cast<unsigned short>(Filter.size()),
                    const_cast<sock_filter *>(Filter.data())};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) != 0) {
      char C = 'E';
      ssize_t W = write(P[1], &C, 1);
      (void)W;
      _exit(0);
    }
    long R = rawGetppid(Args);
    char Buf[1 + sizeof(R)] = {'R'};
    memcpy(Buf + 1, &R, sizeof(R));
    ssize_t W = write(P[1], Buf, sizeof(Buf));
    (void)W;
    _exit(0);
  }
  close(P[1]);
  char Buf[1 + sizeof(long)] = {};
  ssize_t N = read(P[0], Buf, sizeof(Buf));
  close(P[0]);
  int St = 0;
  waitpid(Child, &St, 0);
  Installed = !(N >= 1 && Buf[0] == 'E');
  if (N >= 1 && Buf[0] == 'T')
    return {Fate::Sigsys};
  if (N == static_cast<ssize_t>(sizeof(Buf)) && Buf[0] == 'R') {
    Fate F{Fate::Returned};
    memcpy(&F.Rax, Buf + 1, sizeof(long));
    return F;
  }
  EXPECT_TRUE(WIFSIGNALED(St) && WTERMSIG(St) == SIGSYS) << St;
  return {Fate::Killed};
}

/// What the interpreter predicts for the same call.
Fate predict(uint32_t Ret, long Ppid) {
  switch (seccompAction(Ret)) {
  case SeccompAction::Allow:
  case SeccompAction::Log:
    return {Fate::Returned, Ppid};
  case SeccompAction::Errno:
    return {Fate::Returned,
            -static_cast<long>(std::min<uint32_t>(Ret & 0xffff, 4095))};
  case SeccompAction::Trace:     // nobody traces the child
  case SeccompAction::UserNotif: // and it has no supervisor
    return {Fate::Returned, -ENOSYS};
  case SeccompAction::Trap:
    return {Fate::Sigsys};
  default:
    return {Fate::Killed};
  }
}

/// A random program over getppid's seccomp_data (no instruction pointer:
/// where libc's syscall instruction is does not matter here), wrapped so
/// that every other call is allowed (the child must still write and exit).
std::vector<sock_filter> randomFilter(std::mt19937 &Rng) {
  static const uint32_t Rets[] = {SECCOMP_RET_ALLOW,
                                  SECCOMP_RET_LOG,
                                  SECCOMP_RET_ERRNO | 1,
                                  SECCOMP_RET_ERRNO | 0,
                                  SECCOMP_RET_ERRNO | 5000,
                                  SECCOMP_RET_TRAP,
                                  SECCOMP_RET_TRACE,
                                  SECCOMP_RET_KILL_PROCESS,
                                  SECCOMP_RET_KILL_THREAD,
                                  SECCOMP_RET_USER_NOTIF,
                                  0x7ffe0000};
  static const uint16_t Ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_AND,
                                 BPF_OR,  BPF_XOR, BPF_LSH, BPF_RSH};
  static const uint16_t Jumps[] = {BPF_JEQ, BPF_JGT, BPF_JGE, BPF_JSET};
  static const uint32_t Words[] = {0, 4, 16, 20, 24, 28, 32, 36, 56, 60};
  std::vector<sock_filter> P;
  size_t Len = 2 + Rng() % 14;
  for (size_t I = 0; I + 1 < Len; ++I) {
    size_t Left = Len - I - 1; // instructions after this one
    switch (Rng() % 8) {
    case 0:
      P.push_back(stmt(LdAbs, Words[Rng() % std::size(Words)]));
      break;
    case 1:
      P.push_back(stmt(BPF_ALU | Ops[Rng() % std::size(Ops)] |
                           (Rng() % 2 ? BPF_X : BPF_K),
                       1 + Rng() % 31));
      break;
    case 2:
      P.push_back(stmt(Rng() % 2 ? BPF_LDX | BPF_IMM : BPF_LD | BPF_IMM,
                       Rng() % 3 ? Rng() % 8 : Rng()));
      break;
    case 3:
      P.push_back(stmt(Rng() % 2 ? BPF_MISC | BPF_TAX : BPF_MISC | BPF_TXA, 0));
      break;
    case 4:
      P.push_back(stmt(BPF_ALU | BPF_NEG, 0));
      break;
    case 5:
      P.push_back(stmt(RetK, Rets[Rng() % std::size(Rets)]));
      break;
    case 6:
      P.push_back(stmt(BPF_RET | BPF_A, 0));
      break;
    default:
      P.push_back(jump(BPF_JMP | Jumps[Rng() % std::size(Jumps)] |
                           (Rng() % 2 ? BPF_X : BPF_K),
                       Rng() % 3 ? Rng() % 8 : Rng(),
                       static_cast<uint8_t>(Rng() % Left),
                       static_cast<uint8_t>(Rng() % Left)));
      break;
    }
  }
  P.push_back(stmt(RetK, Rets[Rng() % std::size(Rets)]));
  std::vector<sock_filter> F{stmt(LdAbs, offsetof(seccomp_data, nr)),
                             jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 1, 0),
                             stmt(RetK, SECCOMP_RET_ALLOW)};
  F.insert(F.end(), P.begin(), P.end());
  return F;
}

} // namespace

TEST(SeccompBpfKernelTest, PredictsWhatTheKernelDoes) {
  std::mt19937 Rng(7);
  long Ppid = getpid(); // the children's parent
  unsigned Compared = 0;
  for (int N = 0; N < 300; ++N) {
    std::vector<sock_filter> F = randomFilter(Rng);
    uint64_t Args[6];
    for (uint64_t &A : Args)
      A = Rng() % 4 ? Rng() % 16 : (uint64_t(Rng()) << 32 | Rng());
    seccomp_data D = call(
        SYS_getppid, {Args[0], Args[1], Args[2], Args[3], Args[4], Args[5]});
    BpfOutcome O = runSeccompProgram(F, D);
    bool Installed = false;
    Fate K = runInKernel(F, Args, Installed);
    SCOPED_TRACE("program " + std::to_string(N));
    // The kernel takes exactly what the checker takes.
    ASSERT_EQ(Installed, O.Ok) << O.Error;
    if (!O.Ok)
      continue;
    Fate P = predict(O.Ret, Ppid);
    EXPECT_EQ(K.Kind, P.Kind) << std::hex << O.Ret;
    if (K.Kind == Fate::Returned && P.Kind == Fate::Returned) {
      EXPECT_EQ(K.Rax, P.Rax) << std::hex << O.Ret;
    }
    ++Compared;
  }
  EXPECT_GT(Compared, 200u);
}

TEST(SeccompBpfKernelTest, StackedFiltersAsTheKernelCombinesThem) {
  std::mt19937 Rng(11);
  long Ppid = getpid();
  for (int N = 0; N < 60; ++N) {
    std::vector<std::vector<sock_filter>> Chain;
    while (Chain.size() < 3) {
      std::vector<sock_filter> F = randomFilter(Rng);
      if (checkSeccompProgram(F).empty())
        Chain.push_back(std::move(F));
    }
    uint64_t Args[6] = {Rng() % 8, Rng() % 8, Rng() % 8, 0, 0, 0};
    // Installed oldest first: the chain lists the most recent first.
    int P[2];
    ASSERT_EQ(pipe(P), 0);
    pid_t Child = fork();
    if (Child == 0) {
      close(P[0]);
      FatePipe = P[1];
      noCoreDumps();
      signal(SIGSYS, onSigsys);
      prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
      for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
        sock_fprog Prog{static_cast<unsigned short>(It->size()), It->data()};
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) != 0)
          _exit(3);
      }
      long R = rawGetppid(Args);
      char Buf[1 + sizeof(R)] = {'R'};
      memcpy(Buf + 1, &R, sizeof(R));
      ssize_t W = write(P[1], Buf, sizeof(Buf));
      (void)W;
      _exit(0);
    }
    close(P[1]);
    char Buf[1 + sizeof(long)] = {};
    ssize_t Got = read(P[0], Buf, sizeof(Buf));
    close(P[0]);
    int St = 0;
    waitpid(Child, &St, 0);
    BpfOutcome O = runSeccompFilters(
        Chain, call(SYS_getppid, {Args[0], Args[1], Args[2], 0, 0, 0}));
    ASSERT_TRUE(O.Ok) << O.Error;
    Fate Want = predict(O.Ret, Ppid);
    SCOPED_TRACE("chain " + std::to_string(N));
    if (Got >= 1 && Buf[0] == 'T') {
      EXPECT_EQ(Want.Kind, Fate::Sigsys);
    } else if (Got == static_cast<ssize_t>(sizeof(Buf))) {
      long Rax;
      memcpy(&Rax, Buf + 1, sizeof(Rax));
      ASSERT_EQ(Want.Kind, Fate::Returned) << std::hex << O.Ret;
      EXPECT_EQ(Rax, Want.Rax) << std::hex << O.Ret;
    } else {
      EXPECT_TRUE(WIFSIGNALED(St) && WTERMSIG(St) == SIGSYS) << St;
      EXPECT_EQ(Want.Kind, Fate::Killed) << std::hex << O.Ret;
    }
  }
}
