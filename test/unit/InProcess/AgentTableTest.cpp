//===- AgentTableTest.cpp - The agent's thread table and shadow stacks ----===//
//
// runtime/lib/InProcess/Agent/table.c is pure (memory in, memory out,
// atomics only), so it is compiled into this test and run on memory of the
// test's own, with real threads and real signal handlers where it must
// hold up against them. tsrun's side of the table (AgentThreads.cpp) reads
// and writes the same memory through a plain-memory AgentMemory.
//
//===----------------------------------------------------------------------===//
#include "../../../runtime/lib/InProcess/Agent/table.h"
#include "../../../runtime/lib/InProcess/Installer/AgentThreads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <sys/time.h>
#include <thread>
#include <vector>

using namespace tscc::rt::pt;

namespace {

/// The agent's memory as tsrun sees it from outside, here plain memory.
class LocalMemory final : public AgentMemory {
public:
  bool read(uint64_t Addr, void *Dst, size_t Len) override {
    memcpy(Dst, reinterpret_cast<const void *>(Addr), Len);
    return true;
  }
  bool write(uint64_t Addr, const void *Src, size_t Len) override {
    memcpy(reinterpret_cast<void *>(Addr), Src, Len);
    return true;
  }
};

class AgentTableTest : public ::testing::Test {
protected:
  void make(uint32_t Capacity, uint32_t Chunks, int32_t Pid = 100) {
    Threads.assign(Capacity, tscc_agent_thread{});
    Pool.assign(Chunks, tscc_agent_chunk{});
    C = tscc_agent_config{};
    C.threads = reinterpret_cast<uint64_t>(Threads.data());
    C.thread_capacity = Capacity;
    C.pool = reinterpret_cast<uint64_t>(Pool.data());
    C.pool_chunks = Chunks;
    C.pid = Pid;
  }
  void SetUp() override { make(64, 256); }

  AgentTableLayout layout() const {
    return {C.threads, C.thread_capacity, C.pool, C.pool_chunks};
  }
  static uint64_t key(uint64_t Fs) { return tscc_agent_thread_key(Fs); }
  /// What tsrun does at the thread's PTRACE_EVENT_EXIT stop.
  bool ended(uint64_t Fs, int32_t Tid, int32_t Pid = 100) {
    return markAgentThreadGone(Mem, layout(), Fs, Tid, Pid);
  }
  /// Chunks in the free list.
  uint32_t freeChunks() const {
    uint32_t N = 0;
    for (uint32_t K = static_cast<uint32_t>(C.pool_free);
         K && N <= C.pool_chunks; K = Pool[K - 1].below)
      ++N;
    return N;
  }

  std::vector<tscc_agent_thread> Threads;
  std::vector<tscc_agent_chunk> Pool;
  tscc_agent_config C{};
  LocalMemory Mem;
};

TEST_F(AgentTableTest, FindsWhatItTook) {
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->tid, 10);
  EXPECT_EQ(T->pid, 100);
  EXPECT_EQ(T->epoch, 0u); // not resolved yet
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 0), T);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 10), T);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 11), nullptr);
  EXPECT_EQ(tscc_agent_find(&C, key(0x8000), 0), nullptr);
  // No fs base at all is a key too.
  tscc_agent_thread *Z = tscc_agent_take(&C, key(0), 12, 100);
  ASSERT_TRUE(Z);
  EXPECT_NE(Z, T);
  EXPECT_EQ(tscc_agent_find(&C, key(0), 0), Z);
}

TEST_F(AgentTableTest, AnEndedThreadsEntryIsTakenAgain) {
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  ASSERT_TRUE(T);
  for (int I = 0; I < 200; ++I) // three chunks
    ASSERT_EQ(tscc_agent_push(&C, T, 0x1000 - 8 * I, I, 0), 0);
  EXPECT_EQ(C.pool_used, 3u);
  EXPECT_TRUE(ended(0x7000, 10));
  EXPECT_FALSE(ended(0x7000, 10)); // once
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 0), nullptr);
  // A new thread on the same TCB: the same place, an empty stack, and the
  // old chunks back in the pool.
  tscc_agent_thread *U = tscc_agent_take(&C, key(0x7000), 11, 100);
  EXPECT_EQ(U, T);
  EXPECT_EQ(U->tid, 11);
  EXPECT_EQ(tscc_agent_depth(U), 0u);
  EXPECT_EQ(freeChunks(), 3u);
}

TEST_F(AgentTableTest, ThreadsOnStacksOfTheirOwnNeverFillIt) {
  // 64 places, 20000 threads one after another, each with a TCB of its
  // own (pthread_attr_setstack): what filled the table for good before.
  for (uint64_t I = 0; I < 20000; ++I) {
    uint64_t Fs = 0x10000000 + I * 0x10000;
    tscc_agent_thread *T =
        tscc_agent_take(&C, key(Fs), static_cast<int32_t>(1000 + I), 100);
    ASSERT_TRUE(T) << I;
    ASSERT_EQ(tscc_agent_push(&C, T, Fs - 64, I, 0), 0) << I;
    ASSERT_TRUE(ended(Fs, static_cast<int32_t>(1000 + I)));
  }
  // Each ended thread's chunk is reused by a later one, or kept by its
  // dead entry until one takes it: never more than one per place.
  EXPECT_LE(C.pool_used, 64u);
  EXPECT_EQ(tscc_agent_reclaim(&C), 64u);
  EXPECT_EQ(freeChunks(), C.pool_used);
}

TEST_F(AgentTableTest, AFullWindowRefusesUntilAThreadEnds) {
  make(16, 16); // the window is the whole table
  for (int32_t I = 0; I < 16; ++I)
    ASSERT_TRUE(tscc_agent_take(&C, key(0x1000 * (I + 1)), I + 1, 100));
  EXPECT_EQ(tscc_agent_take(&C, key(0x99000), 99, 100), nullptr);
  ASSERT_TRUE(ended(0x5000, 5));
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x99000), 99, 100);
  ASSERT_TRUE(T);
  EXPECT_EQ(tscc_agent_find(&C, key(0x99000), 0), T);
  for (int32_t I = 0; I < 16; ++I) {
    bool Found = tscc_agent_find(&C, key(0x1000 * (I + 1)), 0) != nullptr;
    EXPECT_EQ(Found, I != 4) << I;
  }
}

TEST_F(AgentTableTest, AForkChildKeepsOnlyTheForkingThread) {
  tscc_agent_thread *A = tscc_agent_take(&C, key(0xa000), 10, 100);
  tscc_agent_thread *B = tscc_agent_take(&C, key(0xb000), 11, 100);
  ASSERT_TRUE(A && B);
  for (int I = 0; I < 100; ++I) {
    ASSERT_EQ(tscc_agent_push(&C, A, 0x9000 - 8 * I, 0x400000 + I, 0), 0);
    ASSERT_EQ(tscc_agent_push(&C, B, 0x8000 - 8 * I, 0x500000 + I, 0), 0);
  }
  uint64_t FreeBefore = C.pool_free;
  // The child's copy of the memory (here: this memory): thread 11 forked.
  C.pid = 200;
  uint64_t Config = reinterpret_cast<uint64_t>(&C);
  ASSERT_TRUE(
      handAgentThreadToChild(Mem, layout(), Config, 0xb000, 11, 100, 200));
  EXPECT_EQ(C.pool_free, 0u);
  (void)FreeBefore;
  tscc_agent_thread *Kept = tscc_agent_find(&C, key(0xb000), 0);
  ASSERT_EQ(Kept, B);
  EXPECT_EQ(B->tid, 200);
  EXPECT_EQ(B->pid, 200);
  EXPECT_EQ(tscc_agent_depth(B), 100u);
  EXPECT_EQ(tscc_agent_top(&C, B)->ret, 0x500000u + 99);
  // The other thread does not exist in the child: its entry is stale, is
  // taken again, and its chunks (which the parent may have been changing)
  // are not put in the child's pool.
  EXPECT_EQ(tscc_agent_find(&C, key(0xa000), 0), nullptr);
  uint32_t Used = C.pool_used;
  EXPECT_EQ(tscc_agent_reclaim(&C), 1u);
  EXPECT_EQ(freeChunks(), 0u);
  EXPECT_EQ(C.pool_used, Used);
}

TEST_F(AgentTableTest, ProcessesSharingMemoryAreToldApartByThreadIds) {
  // A vfork child runs with its parent's fs base.
  tscc_agent_thread *P = tscc_agent_take(&C, key(0x7000), 100, 100);
  ASSERT_TRUE(P);
  C.sharers[0] = {100, 1, 1, 0};
  C.sharers[1] = {101, 2, 100, 0};
  C.shared_mm = 1;
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 100), P);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 101), nullptr);
  tscc_agent_thread *K = tscc_agent_take(&C, key(0x7000), 101, 101);
  ASSERT_TRUE(K);
  EXPECT_NE(K, P);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 101), K);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 100), P);
  ASSERT_EQ(tscc_agent_push(&C, K, 0x6000, 1, 0), 0);
  // The child execs: it is no sharer any more, its entry is stale.
  C.sharers[1] = {};
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 101), nullptr);
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 100), P);
  C.shared_mm = 0;
  EXPECT_EQ(tscc_agent_find(&C, key(0x7000), 0), P);
}

TEST_F(AgentTableTest, ShadowStacksGoAsDeepAsThePool) {
  make(64, 2048); // 2048 chunks of 85 frames
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  ASSERT_TRUE(T);
  const uint32_t Depth = 100000;
  for (uint32_t I = 0; I < Depth; ++I) {
    ASSERT_EQ(
        tscc_agent_push(&C, T, 0x7fff0000 - 16 * uint64_t(I), 0x400000 + I, I),
        0)
        << I;
    ASSERT_EQ(tscc_agent_top(&C, T)->ret, 0x400000u + I);
  }
  EXPECT_EQ(tscc_agent_depth(T), Depth);
  EXPECT_EQ(C.pool_used,
            (Depth + TSCC_AGENT_CHUNK_FRAMES - 1) / TSCC_AGENT_CHUNK_FRAMES);
  // The innermost returns, innermost last (stktrace()).
  uint64_t R[300];
  ASSERT_EQ(tscc_agent_returns(&C, T, R, 300), 300u);
  for (uint32_t I = 0; I < 300; ++I)
    EXPECT_EQ(R[I], 0x400000u + Depth - 300 + I);
  // tsrun reads every frame, innermost first.
  std::vector<tscc_agent_shadow> All = agentShadowFrames(Mem, layout(), *T);
  ASSERT_EQ(All.size(), Depth);
  for (uint32_t I = 0; I < Depth; ++I)
    ASSERT_EQ(All[I].ret, 0x400000u + Depth - 1 - I);
  for (uint32_t I = Depth; I-- > 0;) {
    ASSERT_EQ(tscc_agent_top(&C, T)->site, I);
    tscc_agent_pop(&C, T);
  }
  EXPECT_EQ(tscc_agent_top(&C, T), nullptr);
  // The first chunk stays with the thread, one spare too; the rest is free.
  EXPECT_EQ(freeChunks(), C.pool_used - 2);
}

TEST_F(AgentTableTest, RecursionAtAChunkEdgeDoesNotChurnThePool) {
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  for (uint32_t I = 0; I < TSCC_AGENT_CHUNK_FRAMES; ++I)
    ASSERT_EQ(tscc_agent_push(&C, T, 0x9000 - 8 * I, I, 0), 0);
  for (int Round = 0; Round < 1000; ++Round) {
    ASSERT_EQ(tscc_agent_push(&C, T, 0x100, 1, 0), 0);
    tscc_agent_pop(&C, T);
  }
  EXPECT_EQ(C.pool_used, 2u);
  EXPECT_EQ(freeChunks(), 0u);
}

// Coroutines: a return that is not the innermost hijacked one takes its
// frame out from under the others, across chunk edges, keeping their order.
TEST_F(AgentTableTest, AFrameUnderOthersIsTakenOutInPlace) {
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  const uint32_t N = 2 * TSCC_AGENT_CHUNK_FRAMES + 7;
  for (uint32_t I = 0; I < N; ++I)
    ASSERT_EQ(tscc_agent_push(&C, T, 0x90000 - 8 * I, I, 0), 0);
  // Frame I is N - 1 - I under the top.
  for (uint32_t I : {N - 1, N - 2, 100u, 84u, 3u}) {
    ASSERT_NE(tscc_agent_below(&C, T, tscc_agent_depth(T) - 1 - I), nullptr);
  }
  EXPECT_EQ(tscc_agent_below(&C, T, N - 1 - 100)->ret, 100u);
  tscc_agent_remove(&C, T, N - 1 - 100); // frame 100
  tscc_agent_remove(&C, T, N - 2 - 84);  // frame 84 (one fewer over it now)
  tscc_agent_remove(&C, T, 0);           // the top
  ASSERT_EQ(tscc_agent_depth(T), N - 3);
  std::vector<uint64_t> Left;
  while (tscc_agent_depth(T)) {
    Left.push_back(tscc_agent_top(&C, T)->ret);
    tscc_agent_pop(&C, T);
  }
  std::vector<uint64_t> Want;
  for (uint32_t I = N - 1; I-- > 0;)
    if (I != 100 && I != 84)
      Want.push_back(I);
  EXPECT_EQ(Left, Want);
  EXPECT_EQ(tscc_agent_below(&C, T, 0), nullptr);
}

TEST_F(AgentTableTest, AnEmptyPoolRefusesAndAnEndedThreadRefillsIt) {
  make(64, 3);
  tscc_agent_thread *A = tscc_agent_take(&C, key(0xa000), 10, 100);
  tscc_agent_thread *B = tscc_agent_take(&C, key(0xb000), 11, 100);
  ASSERT_EQ(tscc_agent_push(&C, B, 0x8000, 1, 0), 0);
  uint32_t N = 0;
  while (tscc_agent_push(&C, A, 0x9000 - 8 * N, N, 0) == 0)
    ++N;
  EXPECT_EQ(N, 2 * TSCC_AGENT_CHUNK_FRAMES);
  EXPECT_EQ(tscc_agent_depth(A), N); // a refused push changes nothing
  ASSERT_TRUE(ended(0xb000, 11));
  EXPECT_EQ(tscc_agent_reclaim(&C), 1u);
  EXPECT_EQ(tscc_agent_push(&C, A, 0x100, 7, 0), 0);
  EXPECT_EQ(tscc_agent_top(&C, A)->ret, 7u);
}

TEST_F(AgentTableTest, AReturnFindsItsFrameAfterAChangeOfFsBase) {
  // A thread hijacked under one fs base returns under another (a runtime
  // that switches TLS): its frame is found by the stack slot.
  tscc_agent_thread *A = tscc_agent_take(&C, key(0xa000), 10, 100);
  tscc_agent_thread *B = tscc_agent_take(&C, key(0xb000), 11, 100);
  ASSERT_EQ(tscc_agent_push(&C, A, 0x7000, 1, 0), 0);
  ASSERT_EQ(tscc_agent_push(&C, B, 0x6000, 2, 0), 0);
  ASSERT_EQ(tscc_agent_push(&C, B, 0x5ff0, 3, 0), 0);
  EXPECT_EQ(tscc_agent_find_slot(&C, 0x7000), A);
  EXPECT_EQ(tscc_agent_find_slot(&C, 0x5ff0), B);
  EXPECT_EQ(tscc_agent_find_slot(&C, 0x6000), nullptr); // not innermost
  EXPECT_EQ(tscc_agent_find_slot(&C, 0x1234), nullptr);
  // An ended thread's frames are nobody's.
  ASSERT_TRUE(ended(0xa000, 10));
  EXPECT_EQ(tscc_agent_find_slot(&C, 0x7000), nullptr);
}

TEST_F(AgentTableTest, TsrunListsAProcesssLiveThreads) {
  tscc_agent_thread *A = tscc_agent_take(&C, key(0xa000), 10, 100);
  tscc_agent_thread *B = tscc_agent_take(&C, key(0xb000), 11, 100);
  ASSERT_TRUE(tscc_agent_take(&C, key(0xc000), 12, 100));
  ASSERT_TRUE(A && B);
  ASSERT_TRUE(ended(0xc000, 12));
  std::vector<AgentThreadEntry> L = agentThreadsOf(Mem, layout(), 100);
  ASSERT_EQ(L.size(), 2u);
  EXPECT_TRUE(agentThreadsOf(Mem, layout(), 101).empty());
  std::optional<uint64_t> E = findAgentThread(Mem, layout(), 0xb000, 11, 100);
  ASSERT_TRUE(E);
  EXPECT_EQ(*E, reinterpret_cast<uint64_t>(B));
  EXPECT_FALSE(findAgentThread(Mem, layout(), 0xb000, 12, 100));
  EXPECT_FALSE(findAgentThread(Mem, layout(), 0xb000, 11, 101));
}

TEST_F(AgentTableTest, AScribbledOverStackEndsTheWalk) {
  tscc_agent_thread *T = tscc_agent_take(&C, key(0x7000), 10, 100);
  for (uint32_t I = 0; I < 3 * TSCC_AGENT_CHUNK_FRAMES; ++I)
    ASSERT_EQ(tscc_agent_push(&C, T, 0x9000 - 8 * I, I, 0), 0);
  uint32_t Top = static_cast<uint32_t>(T->stack >> 32);
  Pool[Top - 1].below = Top; // a loop
  EXPECT_LE(agentShadowFrames(Mem, layout(), *T).size(),
            2u * TSCC_AGENT_CHUNK_FRAMES);
  T->stack = (uint64_t(C.pool_chunks + 5) << 32) | 3; // off the pool
  EXPECT_EQ(tscc_agent_top(&C, T), nullptr);
  EXPECT_TRUE(agentShadowFrames(Mem, layout(), *T).empty());
  EXPECT_EQ(tscc_agent_push(&C, T, 0x10, 1, 0), -1);
}

// Threads taking entries, pushing across chunks and ending, all at once:
// nobody ever sees a frame that is not its own, and no chunk is lost.
TEST_F(AgentTableTest, ThreadsAtOnceShareNothing) {
  make(256, 512);
  constexpr int Workers = 8, Rounds = 300;
  std::atomic<int> Bad{0};
  std::vector<std::thread> Pool;
  for (int W = 0; W < Workers; ++W)
    Pool.emplace_back([&, W] {
      for (int R = 0; R < Rounds; ++R) {
        uint64_t Fs = (uint64_t(W + 1) << 32) + uint64_t(R) * 0x1000;
        int32_t Tid = W * 100000 + R + 1;
        tscc_agent_thread *T = tscc_agent_take(&C, key(Fs), Tid, 100);
        if (!T) {
          ++Bad;
          continue;
        }
        uint32_t Depth = 1 + (R * 37) % 200;
        for (uint32_t I = 0; I < Depth; ++I)
          if (tscc_agent_push(&C, T, Fs - 8 * I, uint64_t(Tid) << 16 | I, 0) !=
              0)
            ++Bad;
        for (uint32_t I = Depth; I-- > 0;) {
          const tscc_agent_shadow *F = tscc_agent_top(&C, T);
          if (!F || F->ret != (uint64_t(Tid) << 16 | I))
            ++Bad;
          tscc_agent_pop(&C, T);
        }
        if (!markAgentThreadGone(Mem, layout(), Fs, Tid, 100))
          ++Bad;
      }
    });
  for (std::thread &T : Pool)
    T.join();
  EXPECT_EQ(Bad.load(), 0);
  tscc_agent_reclaim(&C);
  EXPECT_EQ(freeChunks(), C.pool_used);
}

// A signal handler that probes, pushes and pops on the thread it
// interrupts, at any instruction of that thread's own pushes and pops.
tscc_agent_config *SigConfig;
tscc_agent_thread *SigThread;
std::atomic<int> SigBad{0};
std::atomic<int> SigRuns{0};

void probingHandler(int) {
  uint32_t Before = tscc_agent_depth(SigThread);
  for (uint64_t I = 0; I < 90; ++I)
    if (tscc_agent_push(SigConfig, SigThread, 0x100 - I, 0xdead0000 + I, 0))
      ++SigBad;
  for (uint64_t I = 90; I-- > 0;) {
    const tscc_agent_shadow *F = tscc_agent_top(SigConfig, SigThread);
    if (!F || F->ret != 0xdead0000 + I)
      ++SigBad;
    tscc_agent_pop(SigConfig, SigThread);
  }
  if (tscc_agent_depth(SigThread) != Before)
    ++SigBad;
  ++SigRuns;
}

TEST_F(AgentTableTest, SignalHandlersThatProbeSeeAWholeStack) {
  make(64, 64);
  SigConfig = &C;
  SigThread = tscc_agent_take(&C, key(0x7000), 10, 100);
  ASSERT_TRUE(SigThread);
  struct sigaction SA{}, Old{};
  SA.sa_handler = probingHandler;
  sigaction(SIGPROF, &SA, &Old);
  itimerval Every{{0, 50}, {0, 50}}, Off{};
  setitimer(ITIMER_PROF, &Every, nullptr);
  uint64_t Seen = 0;
  for (int Round = 0; SigRuns.load() < 200 && Round < 200000; ++Round) {
    uint32_t Depth = 80 + Round % 20; // across the first chunk's end
    for (uint32_t I = 0; I < Depth; ++I)
      ASSERT_EQ(tscc_agent_push(&C, SigThread, 0x9000 - 8 * I, I, 0), 0);
    for (uint32_t I = Depth; I-- > 0;) {
      const tscc_agent_shadow *F = tscc_agent_top(&C, SigThread);
      ASSERT_TRUE(F);
      ASSERT_EQ(F->ret, I);
      tscc_agent_pop(&C, SigThread);
      ++Seen;
    }
  }
  setitimer(ITIMER_PROF, &Off, nullptr);
  sigaction(SIGPROF, &Old, nullptr);
  EXPECT_EQ(SigBad.load(), 0);
  EXPECT_GT(SigRuns.load(), 0);
  EXPECT_GT(Seen, 0u);
}

// A signal handler whose probe hit is the interrupted thread's first: it
// takes an entry while the thread is taking one. One of the two goes.
std::atomic<uint64_t> NestedKey{0};
std::atomic<int> NestedRuns{0};

void nestedFirstHit(int) {
  uint64_t K = NestedKey.load();
  if (!K)
    return;
  if (!tscc_agent_find(SigConfig, K, 0))
    tscc_agent_take(SigConfig, K, 10, 100);
  ++NestedRuns;
}

TEST_F(AgentTableTest, AHandlerTakingAnEntryMeanwhileLeavesOne) {
  make(1024, 64);
  SigConfig = &C;
  struct sigaction SA{}, Old{};
  SA.sa_handler = nestedFirstHit;
  sigaction(SIGALRM, &SA, &Old);
  // A real-time timer: high resolution, many handlers per second.
  itimerval Every{{0, 20}, {0, 20}}, Off{};
  setitimer(ITIMER_REAL, &Every, nullptr);
  int Duplicates = 0;
  uint32_t Mask = C.thread_capacity - 1;
  for (uint64_t I = 0; (I < 20000 || NestedRuns.load() < 200) && I < 2'000'000;
       ++I) {
    uint64_t Fs = 0x10000 + I * 0x1000, K = key(Fs);
    NestedKey.store(K);
    tscc_agent_thread *T = tscc_agent_find(&C, K, 0);
    if (!T)
      T = tscc_agent_take(&C, K, 10, 100);
    NestedKey.store(0);
    ASSERT_TRUE(T);
    int Live = 0;
    for (uint32_t J = 0, Pos = tscc_agent_thread_home(K, C.thread_capacity);
         J < TSCC_AGENT_THREAD_PROBES; ++J, Pos = (Pos + 1) & Mask)
      Live += Threads[Pos].key == K;
    Duplicates += Live != 1;
    ASSERT_EQ(tscc_agent_find(&C, K, 0), T);
    ASSERT_TRUE(ended(Fs, 10));
  }
  setitimer(ITIMER_REAL, &Off, nullptr);
  sigaction(SIGALRM, &Old, nullptr);
  EXPECT_EQ(Duplicates, 0);
  EXPECT_GE(NestedRuns.load(), 200);
}

} // namespace
