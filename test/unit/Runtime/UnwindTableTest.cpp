//===- UnwindTableTest.cpp - Compiled unwind tables and the agent's walker -===//
//
// The table tsrun compiles from a module's .eh_frame (CompactTable.h) must
// give, at every PC, the rule cfaRulesAt gives, for real modules of both
// data models (this test, the C library, Debian's stripped python3). And
// the agent's walker over those tables (InProcess/Agent/unwind.c) must
// return what tsrun's unwinder returns, on this very process's stack, at
// every depth and with a depth limit.
//
//===----------------------------------------------------------------------===//
#include "CompactTable.h"
#include "EhFrame.h"

#include "tscc/Runtime/ModuleImage.h"
#include "tscc/Runtime/Unwinder.h"
#include "tscc/unwind_table.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/uio.h>
#include <unistd.h>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::unwind;

namespace {

std::shared_ptr<const ElfFile> openModule(const std::string &Path) {
  std::string Error;
  return ElfFile::open(Path, Error, DebugSymbols::None);
}

/// The row of a compiled table for link-time PC, or null (no rules).
const tscc_unwind_row *rowAt(const std::vector<uint8_t> &Table, uint64_t PC) {
  tscc_unwind_table H;
  memcpy(&H, Table.data(), sizeof(H));
  auto *Rows =
      reinterpret_cast<const tscc_unwind_row *>(Table.data() + sizeof(H));
  if (PC < H.base || PC - H.base > UINT32_MAX)
    return nullptr;
  uint32_t Off = static_cast<uint32_t>(PC - H.base);
  auto It = std::upper_bound(
      Rows, Rows + H.count, Off,
      [](uint32_t V, const tscc_unwind_row &R) { return V < R.start; });
  return It == Rows ? nullptr : It - 1;
}

/// What the table must say where cfaRulesAt found Kind and R.
void expectSameRule(const tscc_unwind_row *Row, RulesLookup Kind,
                    const CfaRules &R, const DwarfRegs &Dw, uint64_t PC) {
  SCOPED_TRACE(::testing::Message() << "pc 0x" << std::hex << PC);
  uint8_t Got = Row ? Row->kind : uint8_t(TSCC_UNW_NONE);
  if (Kind == RulesLookup::Outermost) {
    EXPECT_EQ(Got, TSCC_UNW_OUTERMOST);
    return;
  }
  if (Kind != RulesLookup::Found) {
    // No rules here: none in the table either (or a function's entry).
    EXPECT_TRUE(Got == TSCC_UNW_NONE || Got == TSCC_UNW_ENTRY);
    return;
  }
  ASSERT_TRUE(Row);
  bool Fp = R.CfaReg == Dw.Fp;
  EXPECT_EQ(Got, R.CfaDeref
                     ? (Fp ? TSCC_UNW_CFA_FP_DEREF : TSCC_UNW_CFA_SP_DEREF)
                     : (Fp ? TSCC_UNW_CFA_FP : TSCC_UNW_CFA_SP));
  EXPECT_EQ(Row->cfa_off, R.CfaOff);
  EXPECT_EQ(Row->ra_off, R.Ra.Off);
  if (R.Fp.K == Rule::Offset) {
    EXPECT_EQ(Row->fp_rule, TSCC_UNW_FP_AT_CFA);
    EXPECT_EQ(Row->fp_off, R.Fp.Off);
  }
}

/// Every PC of Path's rule ranges (every Stride-th one of large ranges,
/// their first and last always), and every function's entry: the table
/// and cfaRulesAt agree.
void checkModule(const std::string &Path, uint64_t Stride) {
  std::shared_ptr<const ElfFile> Elf = openModule(Path);
  if (!Elf)
    GTEST_SKIP() << Path << " is not here";
  std::string Why;
  std::vector<uint8_t> Table = compileUnwindTable(Elf, Why);
  ASSERT_FALSE(Table.empty()) << Why;
  const DwarfRegs &Dw = dwarfRegs(*Elf);
  size_t Checked = 0;
  auto Check = [&](uint64_t PC) {
    CfaRules R;
    RulesLookup Kind = cfaRulesAt(Elf, PC, R);
    expectSameRule(rowAt(Table, PC), Kind, R, Dw, PC);
    ++Checked;
  };
  for (const RulesRow &Row : allRules(Elf)) {
    for (uint64_t PC = Row.Start; PC < Row.End; PC += Stride)
      Check(PC);
    Check(Row.End - 1);
    Check(Row.End); // where the next range, or none, starts
  }
  for (const ElfSymbol &S : Elf->functions())
    Check(S.Value);
  EXPECT_GT(Checked, 1000u) << Path;
}

TEST(UnwindTableTest, RulesMatchTheEhFrameOfThisTest) {
  checkModule("/proc/self/exe", 31);
}

TEST(UnwindTableTest, RulesMatchTheEhFrameOfLibc) {
  checkModule("/lib/x86_64-linux-gnu/libc.so.6", 23);
}

TEST(UnwindTableTest, RulesMatchTheEhFrameOfAStrippedPython) {
  checkModule("/usr/bin/python3.11", 29);
}

TEST(UnwindTableTest, RulesMatchTheEhFrameOfI386Libc) {
  // i386 numbers its registers differently, and main realigns its stack.
  checkModule("/usr/lib32/libc.so.6", 23);
}

/// This process's modules, from /proc/self/maps: their tables for the
/// walker, and their images for tsrun's unwinder.
struct LiveModules {
  std::vector<ModuleImage> Images;
  std::vector<std::vector<uint8_t>> Tables;
  std::vector<tscc_unwind_module> Walker;

  LiveModules() {
    std::ifstream Maps("/proc/self/maps");
    std::map<std::string, std::pair<uint64_t, uint64_t>> Extent;
    std::map<std::string, uint64_t> OffsetZero;
    std::string Line;
    while (std::getline(Maps, Line)) {
      std::istringstream In(Line);
      std::string Range, Perms, Off, Dev, Inode, Path;
      In >> Range >> Perms >> Off >> Dev >> Inode >> Path;
      if (Path.empty() || Path[0] != '/')
        continue;
      uint64_t Lo = std::stoull(Range.substr(0, Range.find('-')), nullptr, 16);
      uint64_t Hi = std::stoull(Range.substr(Range.find('-') + 1), nullptr, 16);
      auto [It, New] = Extent.emplace(Path, std::make_pair(Lo, Hi));
      It->second.first = std::min(It->second.first, Lo);
      It->second.second = std::max(It->second.second, Hi);
      if (std::stoull(Off, nullptr, 16) == 0 && !OffsetZero.count(Path))
        OffsetZero[Path] = Lo;
    }
    for (const auto &[Path, Range] : Extent) {
      std::shared_ptr<const ElfFile> Elf = openModule(Path);
      if (!Elf || !Elf->is64() || !OffsetZero.count(Path))
        continue;
      uint64_t FirstLoad = UINT64_MAX;
      for (const ElfSegment &S : Elf->segments())
        if (S.Type == PT_LOAD && S.Offset == 0)
          FirstLoad = std::min(FirstLoad, S.VAddr);
      if (FirstLoad == UINT64_MAX)
        continue;
      ModuleImage M;
      M.Path = Path;
      M.Elf = Elf;
      M.Bias = OffsetZero[Path] - (FirstLoad & ~uint64_t(0xfff));
      M.Start = Range.first;
      M.End = Range.second;
      std::string Why;
      std::vector<uint8_t> T = compileUnwindTable(Elf, Why);
      if (T.empty())
        continue;
      Images.push_back(M);
      Tables.push_back(std::move(T));
    }
    for (size_t I = 0; I < Images.size(); ++I)
      Walker.push_back({Images[I].Start, Images[I].End, Images[I].Bias,
                        reinterpret_cast<uintptr_t>(Tables[I].data())});
    std::sort(Walker.begin(), Walker.end(),
              [](const auto &A, const auto &B) { return A.lo < B.lo; });
  }

  const ModuleImage *at(uint64_t Addr) const {
    for (const ModuleImage &M : Images)
      if (Addr >= M.Start && Addr < M.End)
        return &M;
    return nullptr;
  }
};

/// Reads this process's memory, refusing what is not mapped readable.
bool readSelf(uint64_t Addr, uint64_t &Word) {
  struct iovec Local{&Word, 8}, Remote{reinterpret_cast<void *>(Addr), 8};
  return process_vm_readv(getpid(), &Local, 1, &Remote, 1, 0) == 8;
}

int walkerRead(void *, uint64_t Addr, uint64_t *Word) {
  return readSelf(Addr, *Word) ? 1 : 0;
}

struct Captured {
  uint64_t PC, SP, FP;
};

/// Depth frames of calls, then Check with the registers at the innermost
/// one, called from there: the frames it unwinds are live.
__attribute__((noinline)) void
captureAt(unsigned Depth, const std::function<void(const Captured &)> &Check);

__attribute__((noinline)) void
descend(unsigned Depth, const std::function<void(const Captured &)> &Check) {
  volatile char Pad[40];
  Pad[Depth % 40] = 0;
  captureAt(Depth - 1, Check);
  Pad[0] = Pad[Depth % 40];
}

__attribute__((noinline)) void
captureAt(unsigned Depth, const std::function<void(const Captured &)> &Check) {
  if (Depth) {
    descend(Depth, Check);
    return;
  }
  uint64_t PC, SP, FP;
  asm volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
               : "=r"(PC), "=r"(SP), "=r"(FP));
  Check({PC, SP, FP});
}

/// Both unwinders on the live stack at C, at most Max frames.
void compareWalks(const LiveModules &Live, const Captured &C, unsigned Depth,
                  unsigned Max) {
  SCOPED_TRACE(::testing::Message()
               << "depth " << Depth << ", at most " << Max << " frames");
  uint64_t Regs[TSCC_REG_COUNT] = {};
  Regs[TSCC_REG_RIP] = C.PC;
  Regs[TSCC_REG_RSP] = C.SP;
  Regs[TSCC_REG_RBP] = C.FP;
  UnwindSource Src;
  Src.Read = readSelf;
  Src.ModuleAt = [&Live](uint64_t A) { return Live.at(A); };
  UnwoundStack Want = unwindStack(Src, DataModel::LP64, Regs, Max);

  tscc_unwind_source W{};
  W.read = walkerRead;
  W.modules = Live.Walker.data();
  W.module_count = static_cast<uint32_t>(Live.Walker.size());
  W.ptr_size = 8;
  std::vector<uint64_t> PCs(Max);
  uint32_t End = 99;
  uint32_t N = tscc_unwind_walk(&W, C.PC, C.SP, C.FP, PCs.data(), Max, &End);
  PCs.resize(N);
  EXPECT_EQ(PCs, Want.PCs);
  EXPECT_EQ(End, static_cast<uint32_t>(Want.End));
  // The stack reaches main and beyond: more than the calls made here,
  // to the outermost frame.
  if (Max == 256u) {
    EXPECT_GT(N, Depth + 3);
    EXPECT_EQ(End, uint32_t(TSCC_STACK_END_COMPLETE));
  }
}

TEST(UnwindTableTest, TheWalkerUnwindsThisProcessAsTsrunDoes) {
  LiveModules Live;
  ASSERT_FALSE(Live.Walker.empty());
  for (unsigned Depth : {0u, 1u, 5u, 40u})
    captureAt(Depth, [&](const Captured &C) {
      for (unsigned Max : {1u, 3u, 64u, 256u})
        compareWalks(Live, C, Depth, Max);
    });
}

TEST(UnwindTableTest, ABadFrameEndsTheWalkUnreadable) {
  LiveModules Live;
  tscc_unwind_source W{};
  W.read = walkerRead;
  W.modules = Live.Walker.data();
  W.module_count = static_cast<uint32_t>(Live.Walker.size());
  W.ptr_size = 8;
  uint64_t PCs[8];
  uint32_t End = 99;
  // A pc in no module, and a frame pointer to unmapped memory.
  uint64_t Sp = 0x1000, Fp = 0x2000;
  EXPECT_EQ(tscc_unwind_walk(&W, 0x10, Sp, Fp, PCs, 8, &End), 1u);
  EXPECT_EQ(End, uint32_t(TSCC_STACK_END_UNREADABLE));
  // fp below sp: no rules, no frame.
  EXPECT_EQ(tscc_unwind_walk(&W, 0x10, 0x3000, 0x2000, PCs, 8, &End), 1u);
  EXPECT_EQ(End, uint32_t(TSCC_STACK_END_NO_UNWIND_INFO));
  EXPECT_EQ(tscc_unwind_walk(&W, 0x10, 0x3000, 0, PCs, 8, &End), 1u);
  EXPECT_EQ(End, uint32_t(TSCC_STACK_END_COMPLETE));
  EXPECT_EQ(tscc_unwind_walk(&W, 0x10, 0x3000, 0, PCs, 0, &End), 0u);
}

} // namespace
