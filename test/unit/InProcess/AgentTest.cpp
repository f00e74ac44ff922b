//===- AgentTest.cpp - The in-process agent, run in the test process ------===//
//
// The agent is relocated into this process exactly as tsrun relocates it
// into a target, with a hand-written probe object (the runtime fixtures),
// the session's shared store and a jump-patched function of our own: a
// call of that function runs the clause through the trampoline, the agent
// and the helpers, on this thread, with no ptrace anywhere.
//
//===----------------------------------------------------------------------===//
#include "AgentObject.h"
#include "Trampoline.h"

#include "../../../runtime/lib/Loader/LoadedImage.h"
#include "../../../runtime/lib/Store/RingReader.h"

#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/SharedStore.h"
#include "tscc/agent.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

constexpr uint32_t FooProbe = 1, FooClause = 1;

/// An image relocated for, and copied to, a fresh mapping of this process.
struct LocalImage {
  RelocatedImage Img;
  void *Base = nullptr;
  uint64_t Size = 0;

  bool load(std::span<const uint8_t> Object, const SymbolResolver &R) {
    std::string Error;
    EXPECT_TRUE(relocatedImageSize(Object, Size, Error)) << Error;
    Base = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(Base, MAP_FAILED);
    EXPECT_TRUE(
        relocateImage(Object, reinterpret_cast<uint64_t>(Base), R, Img, Error))
        << Error;
    memcpy(Base, Img.Bytes.data(), Img.Bytes.size());
    return mprotect(Base, Img.ExecEnd, PROT_READ | PROT_EXEC) == 0;
  }
  uint64_t symbol(const char *Name) const {
    auto It = Img.Symbols.find(Name);
    EXPECT_NE(It, Img.Symbols.end()) << Name;
    return It == Img.Symbols.end() ? 0 : It->second;
  }
  ~LocalImage() {
    if (Base && Base != MAP_FAILED)
      munmap(Base, Size);
  }
};

/// foo(x) = x + 1, written into its own page so that its first bytes can
/// be replaced by a jump: `endbr64; push %rbp; mov %rsp,%rbp; lea 1(%rdi),
/// %rax; pop %rbp; ret`.
const uint8_t FooCode[] = {0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89,
                           0xe5, 0x48, 0x8d, 0x47, 0x01, 0x5d, 0xc3};

class AgentTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Error;
    Program =
        ProbeProgram::load(std::string(TSCC_FIXTURE_DIR) + "/basic.o", Error);
    ASSERT_TRUE(Program) << Error;
    StoreShape Shape = StoreShape::of(*Program, 64);
    Shape.ThreadCapacity = 8;
    Shape.RingSize = 1 << 16;
    Control = ControlPage::create(Error);
    ASSERT_TRUE(Control) << Error;
    Store = SharedStore::create(Shape, Error, Control.get());
    ASSERT_TRUE(Store) << Error;
    SymbolResolver None = [](std::string_view) { return std::nullopt; };
    ASSERT_TRUE(Agent.load(ip::agentObject(), None));
    ASSERT_TRUE(
        Code.load(Program->objectBytes(),
                  [this](std::string_view N) -> std::optional<uint64_t> {
                    return Agent.symbol(std::string(N).c_str());
                  }));
    configure();
    patchFoo();
    // As in a target: faults of the agent's safe copies come back to it
    // (stktrace() copies the stack up to where it ends).
    struct sigaction SA{};
    SA.sa_sigaction = reinterpret_cast<void (*)(int, siginfo_t *, void *)>(
        Agent.symbol(TSCC_AGENT_SYM_SIGNAL));
    SA.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &SA, &OldSegv);
    sigaction(SIGBUS, &SA, &OldBus);
  }

  tscc_agent_config &config() {
    return *reinterpret_cast<tscc_agent_config *>(
        Agent.symbol(TSCC_AGENT_SYM_CONFIG));
  }
  tscc_agent_proc &proc() {
    return *reinterpret_cast<tscc_agent_proc *>(
        Agent.symbol(TSCC_AGENT_SYM_PROC));
  }

  void configure() {
    tscc_agent_config &C = config();
    C.magic = TSCC_AGENT_MAGIC;
    C.version = TSCC_AGENT_VERSION;
    C.size = sizeof(C);
    C.store = *Store->view();
    C.target_id = 1;
    C.has_fsgsbase = (getauxval(AT_HWCAP2) & 2) != 0;
    C.pid = getpid();
    C.pname = reinterpret_cast<uint64_t>("agenttest");
    uint64_t Text = Code.Img.Sections.at(TSCC_SEC_TEXT_LP64).first;
    uint64_t Strtab = Code.Img.Sections.at(TSCC_SEC_STRTAB).first;
    for (const tscc_clause &Cl : Program->clauses()) {
      const tscc_stream_entry &E = Cl.stream[TSCC_DM_LP64];
      Clauses.push_back(
          {E.pred_offset != TSCC_NO_CODE ? Text + E.pred_offset : 0,
           E.action_offset != TSCC_NO_CODE ? Text + E.action_offset : 0, 0, 0});
    }
    for (const tscc_probe &Pr : Program->probes()) {
      ProbeClause.push_back(Pr.clause);
      Specs.push_back(Strtab + Pr.spec);
    }
    C.clauses = reinterpret_cast<uint64_t>(Clauses.data());
    C.probe_clause = reinterpret_cast<uint64_t>(ProbeClause.data());
    C.probe_specs = reinterpret_cast<uint64_t>(Specs.data());
    C.clause_count = static_cast<uint32_t>(Clauses.size());
    C.probe_count = static_cast<uint32_t>(ProbeClause.size());
    C.format_count = static_cast<uint32_t>(Program->formats().size());
    C.code_lo = reinterpret_cast<uint64_t>(Code.Base);
    C.code_hi = C.code_lo + Code.Size;
    C.agent_lo = reinterpret_cast<uint64_t>(Agent.Base);
    C.agent_hi = C.agent_lo + Agent.Size;
    C.lock_timeout_ns = 1'000'000'000;
    C.reader_pid = getpid();
    Threads.resize(64);
    C.thread_capacity = 64;
    C.threads = reinterpret_cast<uint64_t>(Threads.data());
    Pool.resize(64);
    C.pool = reinterpret_cast<uint64_t>(Pool.data());
    C.pool_chunks = static_cast<uint32_t>(Pool.size());
    proc().armed = 1;
    proc().epoch = 1;
  }

  /// Code at At, its first bytes a jump to a trampoline at Tramp, which
  /// runs the hooks.
  void patch(std::span<const uint8_t> Code, uint8_t *At, uint8_t *TrampAt,
             const tscc_agent_hook *Hooks, uint32_t HookCount) {
    uint64_t Func = reinterpret_cast<uint64_t>(At);
    memcpy(At, Code.data(), Code.size());
    ip::PatchPlan Plan;
    std::string Why;
    ASSERT_TRUE(ip::planJumpPatch(Code, Func, Func, {}, Plan, Why)) << Why;
    uint64_t Tramp = reinterpret_cast<uint64_t>(TrampAt);
    std::vector<uint8_t> Bytes;
    ip::TrampolineInfo Info;
    ASSERT_TRUE(ip::buildTrampoline(
        Plan, Tramp, Agent.symbol(TSCC_AGENT_SYM_ENTER),
        reinterpret_cast<uint64_t>(Hooks), HookCount, Bytes, Info, Why))
        << Why;
    memcpy(TrampAt, Bytes.data(), Bytes.size());
    uint32_t &N = config().site_count;
    SiteTable[N] = Tramp;
    config().sites = reinterpret_cast<uint64_t>(SiteTable);
    config().site_capacity = 2;
    ++N;
    std::vector<uint8_t> Jump;
    ASSERT_TRUE(ip::jumpPatchBytes(Plan, Tramp + TSCC_TRAMPOLINE_CODE, Jump));
    memcpy(At, Jump.data(), Jump.size());
  }

  /// foo in a page of its own, its first 8 bytes a jump to a trampoline in
  /// the next page, which runs probe FooProbe's clause.
  void patchFoo() {
    Pages = static_cast<uint8_t *>(mmap(nullptr, 3 * 4096,
                                        PROT_READ | PROT_WRITE | PROT_EXEC,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(Pages, MAP_FAILED);
    Hook = {TSCC_HOOK_ENTRY,
            FooProbe,
            reinterpret_cast<uint64_t>("foo"),
            reinterpret_cast<uint64_t>("a.out"),
            0,
            0,
            0};
    patch(FooCode, Pages, Pages + 4096, &Hook, 1);
    FooFn = reinterpret_cast<long (*)(long)>(Pages);
  }

  void TearDown() override {
    sigaction(SIGSEGV, &OldSegv, nullptr);
    sigaction(SIGBUS, &OldBus, nullptr);
    if (Pages && Pages != MAP_FAILED)
      munmap(Pages, 3 * 4096);
  }

  uint64_t counter(uint32_t Clause, int Which) {
    tscc_clause_counters K{};
    tscc_store_sum_counters(Store->view(), Clause, &K);
    return Which == 0 ? K.fired : Which == 1 ? K.faults : K.drops;
  }

  /// The records drained (their payloads are in Drained, until the next
  /// call).
  std::vector<DrainedRecord> drain() {
    Drained.clear();
    drainRings(Store->view(), Reader, Drained);
    EXPECT_EQ(Reader.Stats.Corrupt, 0u);
    return Drained.Records;
  }
  RecordBatch Drained;

  std::unique_ptr<ProbeProgram> Program;
  std::unique_ptr<ControlPage> Control;
  std::unique_ptr<SharedStore> Store;
  RingReader Reader;
  LocalImage Agent, Code;
  std::vector<tscc_agent_clause> Clauses;
  std::vector<uint32_t> ProbeClause;
  std::vector<uint64_t> Specs;
  std::vector<tscc_agent_thread> Threads;
  std::vector<tscc_agent_chunk> Pool;
  uint64_t SiteTable[2] = {};
  tscc_agent_hook Hook{};
  uint8_t *Pages = nullptr;
  long (*FooFn)(long) = nullptr;
  struct sigaction OldSegv{}, OldBus{};
};

TEST_F(AgentTest, AgentObjectIsSelfContained) {
  // Everything resolved inside (a None resolver above), and the symbols
  // tsrun writes to or jumps to are there; the proc page has a page alone.
  for (const char *S :
       {TSCC_AGENT_SYM_CONFIG, TSCC_AGENT_SYM_PROC, TSCC_AGENT_SYM_ENTER,
        TSCC_AGENT_SYM_RETURN, TSCC_AGENT_SYM_SIGNAL, TSCC_AGENT_SYM_RESTORER,
        "memcpy", "memset", "memmove"})
    EXPECT_NE(Agent.symbol(S), 0u) << S;
  EXPECT_EQ(Agent.symbol(TSCC_AGENT_SYM_PROC) % 4096, 0u);
}

TEST_F(AgentTest, HitRunsTheClauseInThisThread) {
  EXPECT_EQ(FooFn(5), 6);
  EXPECT_EQ(FooFn(0), 1); // the predicate (arg1 != 0) fails: no action
  EXPECT_EQ(FooFn(7), 8);
  EXPECT_EQ(counter(FooClause, 0), 3u);
  EXPECT_EQ(counter(FooClause, 1), 0u);
  // g += arg1, in the store's global block.
  int64_t G;
  memcpy(&G, tscc_store_globals(Store->view()), 8);
  EXPECT_EQ(G, 12);
  // Records in this thread's ring: printf, trace and a stack snapshot, for
  // each firing.
  std::vector<DrainedRecord> R = drain();
  ASSERT_EQ(R.size(), 6u);
  EXPECT_EQ(R[2].Hdr.type, TSCC_RING_STACK_SNAPSHOT);
  tscc_stack_snapshot Snap;
  memcpy(&Snap, R[2].Payload.data(), sizeof(Snap));
  EXPECT_EQ(Snap.depth, 4u);
  EXPECT_EQ(Snap.regs[TSCC_REG_RIP], reinterpret_cast<uint64_t>(Pages));
  EXPECT_GT(Snap.stack_size, 0u);
  EXPECT_EQ(R[2].Payload.size(), sizeof(Snap) + Snap.stack_size);
  tscc_record First;
  memcpy(&First, R[0].Payload.data(), sizeof(First));
  EXPECT_EQ(First.kind, TSCC_REC_PRINTF);
  EXPECT_EQ(R[0].Hdr.clause, FooClause);
  EXPECT_EQ(R[0].Hdr.target, 1u);
  EXPECT_EQ(R[0].Hdr.tid, static_cast<int32_t>(syscall(SYS_gettid)));
  uint64_t Arg;
  memcpy(&Arg, R[0].Payload.data() + sizeof(tscc_record), 8);
  EXPECT_EQ(Arg, 5u);
  for (size_t I = 1; I < R.size(); ++I)
    EXPECT_GT(R[I].Hdr.seq, R[I - 1].Hdr.seq);
  // The map and the aggregations were updated in the store.
  uint64_t Key = 7;
  auto *Seen = static_cast<int64_t *>(
      tscc_map_lookup(Store->view(), 0, -1, &Key, 8, 0, nullptr));
  ASSERT_TRUE(Seen);
  EXPECT_EQ(*Seen, 1);
  EXPECT_EQ(Store->header().lock, 0u);
}

TEST_F(AgentTest, DisarmedSitesJustRunTheProgram) {
  proc().armed = 0;
  EXPECT_EQ(FooFn(5), 6);
  EXPECT_EQ(counter(FooClause, 0), 0u);
}

TEST_F(AgentTest, ReentryFromTheSameThreadIsDroppedNotDeadlocked) {
  // As if a signal handler interrupted one of this thread's clauses: the
  // store lock is held by this very thread.
  int32_t Me = static_cast<int32_t>(syscall(SYS_gettid));
  EXPECT_EQ(FooFn(3), 4); // resolves the thread first
  ASSERT_EQ(tscc_store_lock(Store->view(), Me, 1000), TSCC_LOCK_OK);
  EXPECT_EQ(FooFn(5), 6);
  tscc_store_unlock(Store->view(), Me);
  EXPECT_EQ(counter(FooClause, 0), 2u);
  EXPECT_EQ(counter(FooClause, 2), 1u);
  EXPECT_EQ(config().reentered, 1u);
}

TEST_F(AgentTest, BadPointersAreFaultsNotCrashes) {
  auto *H = reinterpret_cast<const tscc_helpers *>(
      Agent.symbol("tscc_agent_helpers"));
  tscc_ctx Ctx{};
  Ctx.clause = FooClause;
  // A context as run_clause makes it: the helpers check that its runtime
  // scope points back at it (struct agent_scope,
  // runtime/lib/InProcess/Agent/agent.h).
  struct {
    void *thread;
    uint64_t time_ns;
    tscc_ctx *ctx;
  } Scope{nullptr, 0, &Ctx};
  Ctx.runtime = &Scope;
  void *Gone =
      mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(Gone, 4096);
  uint64_t V = 0x1111;
  for (uint64_t Bad :
       {uint64_t(0), uint64_t(0x10), uint64_t(0xffffffff81000000ull),
        uint64_t(reinterpret_cast<uint64_t>(Gone) + 8)}) {
    V = 0x1111;
    EXPECT_EQ(H->read_mem(&Ctx, Bad, &V, 8), -1) << std::hex << Bad;
    EXPECT_EQ(V, 0u);
    char S[16] = "xxxxxxxxxxxxxxx";
    EXPECT_EQ(H->read_str(&Ctx, Bad, S, sizeof(S)), -1);
    EXPECT_EQ(S[0], 0);
  }
  uint64_t Good = 0x1234;
  EXPECT_EQ(H->read_mem(&Ctx, reinterpret_cast<uint64_t>(&Good), &V, 8), 0);
  EXPECT_EQ(V, 0x1234u);
  char S[8];
  EXPECT_EQ(H->read_str(&Ctx, reinterpret_cast<uint64_t>("hello world"), S,
                        sizeof(S)),
            7);
  EXPECT_STREQ(S, "hello w");
  EXPECT_EQ(counter(FooClause, 1), 8u);
  // Only the unmapped page needed the handler; the rest were refused up
  // front.
  EXPECT_EQ(config().recovered_faults, 2u);
  // A destination buffer that is not plausible memory, and an oversized
  // read, are faults too, refused before anything is touched.
  EXPECT_EQ(H->read_mem(&Ctx, reinterpret_cast<uint64_t>(&Good),
                        reinterpret_cast<void *>(0x10), 8),
            -1);
  EXPECT_EQ(H->read_mem(&Ctx, reinterpret_cast<uint64_t>(&Good), &V,
                        uint64_t(2) << 20),
            -1);
  EXPECT_EQ(counter(FooClause, 1), 10u);
  EXPECT_EQ(config().recovered_faults, 2u);
}

/// rec(n) = n, by recursion: `endbr64; push %rbp; mov %rsp,%rbp; test
/// %rdi,%rdi; je 1f; dec %rdi; call rec; inc %rax; pop %rbp; ret; 1: xor
/// %eax,%eax; pop %rbp; ret`.
const uint8_t RecCode[] = {0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5,
                           0x48, 0x85, 0xff, 0x74, 0x0d, 0x48, 0xff, 0xcf,
                           0xe8, 0xeb, 0xff, 0xff, 0xff, 0x48, 0xff, 0xc0,
                           0x5d, 0xc3, 0x31, 0xc0, 0x5d, 0xc3};
/// The interval probe's clause counts ticks (and asks for exit at $1 of
/// them): it writes no record, so nothing here is a drop but lost returns.
constexpr uint32_t TickProbe = 3, TickClause = 3;

TEST_F(AgentTest, ExitProbesAtAnyDepth) {
  // An exit and a within() hook on rec: every return is hijacked, however
  // deep (a shadow stack of 192 frames missed the rest, silently), and
  // every one comes back to its real caller.
  tscc_agent_hook Hooks[2] = {
      {TSCC_HOOK_EXIT, TickProbe, reinterpret_cast<uint64_t>("rec"),
       reinterpret_cast<uint64_t>("a.out"), 0, 0, 0},
      {TSCC_HOOK_WITHIN, 0, reinterpret_cast<uint64_t>("rec"),
       reinterpret_cast<uint64_t>("a.out"), 0, 0, 0}};
  int64_t NoExit = int64_t(1) << 40;
  config().params = reinterpret_cast<uint64_t>(&NoExit);
  config().param_count = 1;
  patch(RecCode, Pages + 2 * 4096, Pages + 2 * 4096 + 2048, Hooks, 2);
  auto Rec = reinterpret_cast<long (*)(long)>(Pages + 2 * 4096);
  EXPECT_EQ(Rec(1000), 1000);
  EXPECT_EQ(counter(TickClause, 0), 1001u);
  EXPECT_EQ(counter(TickClause, 2), 0u);
  EXPECT_EQ(Store->header().agent_notices, 0u);
  // within() was left as often as it was entered.
  int32_t Slot = tscc_thread_lookup(Store->view(), 1,
                                    static_cast<int32_t>(syscall(SYS_gettid)));
  ASSERT_GE(Slot, 0);
  EXPECT_EQ(tscc_thread_within(Store->view(), Slot)[0], 0u);
  // Deeper than the pool (64 chunks of 85 frames) holds: the returns that
  // could not be kept are drops, and tsrun is told; the program is not
  // changed.
  uint64_t Deep = 64 * TSCC_AGENT_CHUNK_FRAMES + 500;
  EXPECT_EQ(Rec(static_cast<long>(Deep)), static_cast<long>(Deep));
  EXPECT_EQ(counter(TickClause, 0), 1001u + Deep + 1);
  EXPECT_GT(counter(TickClause, 2), 0u);
  EXPECT_EQ(counter(TickClause, 0) - counter(TickClause, 2),
            1001u + 64 * TSCC_AGENT_CHUNK_FRAMES);
  EXPECT_TRUE(Store->header().agent_notices & TSCC_NOTICE_SHADOW_FULL);
  EXPECT_EQ(tscc_thread_within(Store->view(), Slot)[0], 0u);
}

TEST_F(AgentTest, ATsrunThatDiedHasItsSitesPutBack) {
  EXPECT_EQ(FooFn(1), 2);
  EXPECT_EQ(Pages[0], 0xe9);
  // What the kernel does to the lifeline when tsrun dies.
  Control->words().reader_alive |= TSCC_READER_GONE;
  EXPECT_EQ(FooFn(2), 3); // this hit puts the bytes back, runs no clause
  EXPECT_EQ(memcmp(Pages, FooCode, sizeof(FooCode)), 0);
  EXPECT_EQ(proc().armed, 0u);
  EXPECT_EQ(proc().healed, 1u);
  EXPECT_EQ(counter(FooClause, 0), 1u);
  EXPECT_EQ(FooFn(3), 4); // the original code, no trampoline
  EXPECT_EQ(counter(FooClause, 0), 1u);
  signal(SIGTRAP, SIG_DFL);
}

/// The program's own SIGTRAP handler, behind the agent's.
volatile int ProgramTraps = 0;
void programTrap(int, siginfo_t *, void *) { ProgramTraps = ProgramTraps + 1; }

// A trap site, with nobody attached: the int3 goes to the agent's SIGTRAP
// handler, which sends the thread to the trampoline; the clause runs and
// the copy runs the instruction. The program's own SIGTRAPs (raise(), an
// int3 of its own) go on to its handler.
TEST_F(AgentTest, TrapSiteRunsTheClauseFromTheSignalHandler) {
  // bar(x) = x + 1: `lea 1(%rdi),%rax; ret`, an int3 over the lea.
  static const uint8_t BarCode[] = {0x48, 0x8d, 0x47, 0x01, 0xc3};
  uint8_t *Bar = Pages + 2 * 4096;
  memcpy(Bar, BarCode, sizeof(BarCode));
  uint64_t BarAt = reinterpret_cast<uint64_t>(Bar);
  ip::PatchPlan Plan;
  std::string Why;
  ASSERT_TRUE(ip::planTrapPatch(BarCode, BarAt, BarAt, Plan, Why)) << Why;
  uint8_t *TrampAt = Pages + 4096 + 2 * ip::TrampolineSlot;
  uint64_t Tramp = reinterpret_cast<uint64_t>(TrampAt);
  std::vector<uint8_t> Bytes;
  ip::TrampolineInfo Info;
  ASSERT_TRUE(ip::buildTrampoline(
      Plan, Tramp, Agent.symbol(TSCC_AGENT_SYM_ENTER),
      reinterpret_cast<uint64_t>(&Hook), 1, Bytes, Info, Why))
      << Why;
  memcpy(TrampAt, Bytes.data(), Bytes.size());
  SiteTable[config().site_count++] = Tramp;
  // As tsrun installs it: the program's disposition kept for chaining.
  tscc_kernel_sigaction Chained{};
  Chained.handler = reinterpret_cast<uint64_t>(&programTrap);
  Chained.flags = SA_SIGINFO;
  config().chained_trap = Chained;
  config().trap_handler = 1;
  struct sigaction SA{}, Old{};
  SA.sa_sigaction = reinterpret_cast<void (*)(int, siginfo_t *, void *)>(
      Agent.symbol(TSCC_AGENT_SYM_TRAP));
  SA.sa_flags = SA_SIGINFO | SA_NODEFER;
  ASSERT_EQ(sigaction(SIGTRAP, &SA, &Old), 0);
  std::vector<uint8_t> Int3;
  ASSERT_TRUE(ip::jumpPatchBytes(Plan, Tramp + TSCC_TRAMPOLINE_CODE, Int3));
  ASSERT_EQ(Int3, std::vector<uint8_t>{0xcc});
  Bar[0] = 0xcc;
  auto BarFn = reinterpret_cast<long (*)(long)>(Bar);
  EXPECT_EQ(BarFn(5), 6);
  EXPECT_EQ(BarFn(0), 1); // the predicate (arg1 != 0) fails: no action
  EXPECT_EQ(BarFn(7), 8);
  EXPECT_EQ(counter(FooClause, 0), 3u);
  int64_t G;
  memcpy(&G, tscc_store_globals(Store->view()), 8);
  EXPECT_EQ(G, 12);
  EXPECT_EQ(ProgramTraps, 0);
  raise(SIGTRAP);
  __asm__ volatile("int3");
  EXPECT_EQ(ProgramTraps, 2);
  // tsrun dies: the next hit puts the byte back, with the handler in place.
  Control->words().reader_alive |= TSCC_READER_GONE;
  EXPECT_EQ(BarFn(2), 3);
  EXPECT_EQ(memcmp(Bar, BarCode, sizeof(BarCode)), 0);
  EXPECT_EQ(counter(FooClause, 0), 3u);
  sigaction(SIGTRAP, &Old, nullptr);
}

} // namespace
