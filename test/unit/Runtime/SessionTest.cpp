//===- SessionTest.cpp - Running fixture clauses through a Session --------===//

#include "TestSupport.h"

#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <gtest/gtest.h>

#include <future>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

constexpr uint32_t FooProbe = 1;

class SessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Err;
    P = ProbeProgram::load(fixture("basic.o"), Err);
    ASSERT_TRUE(P) << Err;
  }

  std::unique_ptr<Session> make(SessionOptions O = {}) {
    O.Diag = Diag.file();
    return std::make_unique<Session>(
        *P,
        createTextSink(*P, Out.file(), false, TextOptions{Diag.file(), false}),
        std::move(O));
  }

  FireEvent fooEvent(Target &T, uint64_t Arg) {
    FireEvent E;
    E.Tgt = &T;
    E.Tid = T.pid();
    E.Probe = FooProbe;
    E.Regs[TSCC_REG_RDI] = Arg;
    E.Regs[TSCC_REG_RIP] = 0x401000;
    E.Function = "foo";
    E.Module = "a.out";
    return E;
  }

  std::unique_ptr<ProbeProgram> P;
  MemFile Out, Diag;
};

TEST_F(SessionTest, BeginFireEndLP64) {
  auto S = make();
  S->begin();
  EXPECT_EQ(Out.str(), "hello 42 world\n");

  FakeTarget T(100, DataModel::LP64, "prog");
  FireEvent E = fooEvent(T, 7);
  S->fire(E);
  EXPECT_EQ(Out.str(), "hello 42 world\n"
                       "foo(7) from 64-bit\n"
                       "trace 0x1001: 7 \"prog\"\n"
                       "        fn_401000+0x4 (prog)\n"
                       "        fn_401100+0x4 (prog)\n"
                       "        fn_401200+0x4 (prog)\n"
                       "        fn_401300+0x4 (prog)\n");
  S->end();
  std::string All = Out.str();
  // END printf, then the aggregations in table order.
  EXPECT_NE(All.find("total 107\n"), std::string::npos) << All;
  EXPECT_NE(All.find("\n@calls[prog]: 1\n"), std::string::npos) << All;
  EXPECT_NE(All.find("@vals:\n[4, 8)"), std::string::npos) << All;
  EXPECT_NE(All.find("@lin:\n[0, 10)"), std::string::npos) << All;
  EXPECT_LT(All.find("total 107"), All.find("@calls"));
}

TEST_F(SessionTest, PredicateFiltersAndCountersCount) {
  auto S = make();
  S->begin();
  FakeTarget T(100, DataModel::LP64, "prog");
  FireEvent E = fooEvent(T, 0);
  S->fire(E);
  EXPECT_EQ(Out.str(), "hello 42 world\n");
  auto C = S->counters();
  EXPECT_EQ(C[1].Fired, 1u);
  EXPECT_EQ(C[1].Faults, 0u);
}

TEST_F(SessionTest, ILP32StreamReadsArgumentsFromTheStack) {
  auto S = make();
  S->begin();
  FakeTarget T(200, DataModel::ILP32, "prog32");
  T.poke<int32_t>(0xffffd004, -5);
  FireEvent E = fooEvent(T, 0);
  E.Regs[TSCC_REG_RSP] = 0xffffd000;
  S->fire(E);
  EXPECT_NE(Out.str().find("foo(-5) from 32-bit\n"), std::string::npos)
      << Out.str();
}

TEST_F(SessionTest, FaultsAreCountedPerClause) {
  auto S = make();
  S->begin();
  FakeTarget T(200, DataModel::ILP32, "prog32");
  FireEvent E = fooEvent(T, 0);
  E.Regs[TSCC_REG_RSP] = 0x1000; // unmapped
  S->fire(E);
  S->fire(E);
  EXPECT_EQ(Out.str(), "hello 42 world\n"); // arg reads as 0: predicate false
  auto C = S->counters();
  EXPECT_EQ(C[1].Fired, 2u);
  EXPECT_EQ(C[1].Faults, 2u);
  S->end();
  EXPECT_NE(Diag.str().find("tsrun: clause 1 (line 5): fired 2, 2 faults, 0 "
                            "drops"),
            std::string::npos)
      << Diag.str();
}

TEST_F(SessionTest, BothModelsInOneSession) {
  auto S = make();
  S->begin();
  FakeTarget T64(100, DataModel::LP64, "p64");
  FakeTarget T32(200, DataModel::ILP32, "p32");
  T32.poke<int32_t>(0x8004, 3);
  FireEvent E64 = fooEvent(T64, 5);
  FireEvent E32 = fooEvent(T32, 0);
  E32.Regs[TSCC_REG_RSP] = 0x8000;
  S->fire(E64);
  S->fire(E32);
  S->fire(E64);
  S->end();
  std::string All = Out.str();
  EXPECT_NE(All.find("foo(5) from 64-bit"), std::string::npos);
  EXPECT_NE(All.find("foo(3) from 32-bit"), std::string::npos);
  EXPECT_NE(All.find("total 113\n"), std::string::npos) << All;
  // Sorted ascending by count.
  EXPECT_NE(All.find("@calls[p32]: 1\n@calls[p64]: 2\n"), std::string::npos)
      << All;
}

TEST_F(SessionTest, MapCapacityDropsAndWarnsOnce) {
  SessionOptions O;
  O.MapCapacity = 2;
  auto S = make(O);
  S->begin();
  FakeTarget T(100, DataModel::LP64, "prog");
  for (uint64_t V = 1; V <= 5; ++V) {
    FireEvent E = fooEvent(T, V);
    S->fire(E);
  }
  auto C = S->counters();
  // seen[] and @lin both fill up after two keys... @lin has no key; seen has
  // 3 dropped keys.
  EXPECT_EQ(C[1].Drops, 3u);
  std::string D = Diag.str();
  EXPECT_NE(D.find("tsrun: warning: associative array 'seen' is full (2 "
                   "entries); further new keys are dropped\n"),
            std::string::npos)
      << D;
  EXPECT_EQ(D.find("warning", D.find("warning") + 1), std::string::npos);
}

TEST_F(SessionTest, IntervalClausesRunAndExitStopsTheSession) {
  std::promise<void> Stopped;
  SessionOptions O;
  O.OnStop = [&] { Stopped.set_value(); };
  auto S = make(O);
  EXPECT_FALSE(S->stopRequested());
  S->begin();
  // The third tick calls exit(); OnStop is the handshake.
  Stopped.get_future().wait();
  EXPECT_TRUE(S->stopRequested());
  S->end();
  auto C = S->counters();
  EXPECT_EQ(C[3].Fired, 3u);
}

TEST_F(SessionTest, EndRunsOnceAndNothingFiresAfterIt) {
  auto S = make();
  S->begin();
  S->end();
  std::string After = Out.str();
  S->end();
  FakeTarget T(100, DataModel::LP64, "prog");
  FireEvent E = fooEvent(T, 9);
  S->fire(E);
  EXPECT_EQ(Out.str(), After);
}

TEST_F(SessionTest, ParamsAreChecked) {
  SessionOptions O;
  auto S = make(O);
  std::string Err;
  // The fixture uses $1 (its interval clause's tick limit).
  EXPECT_EQ(S->paramsUsed(), 1u);
  EXPECT_FALSE(S->checkParams(Err));
  EXPECT_EQ(Err, "the script uses $1 but no parameters were given");
  O.Params = {"3"};
  EXPECT_TRUE(make(O)->checkParams(Err)) << Err;
  EXPECT_EQ(S->probePid(0), -1);
}

TEST(SessionParamsTest, PidParamsMustBeProcessIds) {
  std::string Err;
  auto P = ProbeProgram::load(fixture("basic.o"), Err);
  ASSERT_TRUE(P) << Err;
  // The same tables with the uft probe's PID field turned into $2.
  ProgramTables T = P->tables();
  std::vector<uint8_t> Probes(T.Probes.begin(), T.Probes.end());
  auto *Pr = reinterpret_cast<tscc_probe *>(Probes.data()) + 1;
  Pr->pid_kind = TSCC_PID_PARAM;
  Pr->pid_value = 2;
  T.Probes = Probes;
  auto Q = ProbeProgram::fromTables(T, "q", Err);
  ASSERT_TRUE(Q) << Err;
  auto check = [&](std::vector<std::string> Params) {
    SessionOptions O;
    O.Params = std::move(Params);
    Session S(*Q, createTextSink(*Q, stdout, false), O);
    std::string E;
    return S.checkParams(E) ? std::to_string(S.probePid(1)) : E;
  };
  EXPECT_EQ(check({}), "the script uses $2 but no parameters were given");
  EXPECT_EQ(check({"x"}), "the script uses $2 but 1 parameter was given");
  EXPECT_EQ(check({"x", "abc"}),
            "$2 is the PID of probe '@@uft:*:a.out:foo:entry' but 'abc' is "
            "not a process id");
  EXPECT_EQ(check({"x", "-4"}),
            "$2 is the PID of probe '@@uft:*:a.out:foo:entry' but '-4' is "
            "not a process id");
  EXPECT_EQ(check({"x", "1234"}), "1234");
}

TEST_F(SessionTest, LaunchedExitStatus) {
  auto S = make();
  FakeTarget T(100, DataModel::LP64, "prog"), Other(101, DataModel::LP64, "x");
  S->targetAttached(Other, HowAttached);
  S->targetAttached(T, HowLaunched);
  EXPECT_EQ(S->launchedExitStatus(), -1);
  S->targetExited(Other, 3, 0);
  EXPECT_EQ(S->launchedExitStatus(), -1);
  S->targetExited(T, 0, 11);
  EXPECT_EQ(S->launchedExitStatus(), 139);
  EXPECT_NE(Diag.str().find("tsrun: pid 100 (prog, LP64, fake) killed by "
                            "SIGSEGV"),
            std::string::npos)
      << Diag.str();
}

TEST_F(SessionTest, ExitedTargetIsReleasedOnceItsRecordsAreOut) {
  // A record a target made just before it exited may still be in its ring
  // when the exit is reported: the session must keep the target (its pid,
  // its modules for symbolising) until that record is out, then let its
  // backend free it.
  SessionOptions O;
  O.Diag = Diag.file();
  auto S = std::make_unique<Session>( // -v: the statistics at the end
      *P, createTextSink(*P, Out.file(), false, TextOptions{Diag.file(), true}),
      O);
  S->begin();
  FakeTarget T(100, DataModel::LP64, "prog");
  S->targetAttached(T, HowForked);
  uint32_t Id = S->targetId(T);
  tscc_store *V = S->shard(T)->view(); // the store, and the target's shard
  // One of the target's threads holds the store lock, as a clause running
  // in its agent does, and writes a record ("total %lu\n", format 2) into
  // its ring.
  std::promise<void> Written, Release;
  std::thread Holder([&] {
    auto Tid = static_cast<int32_t>(syscall(SYS_gettid));
    ASSERT_EQ(tscc_store_lock(V, Tid, 1'000'000'000), TSCC_LOCK_OK);
    int32_t Slot = tscc_thread_add(V, Id, 100);
    struct {
      tscc_record R;
      uint64_t Value;
    } Rec{{TSCC_REC_PRINTF, 0, 24, 2, 2}, 5};
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    H.data_model = TSCC_DM_LP64;
    H.target = Id;
    H.tid = 100;
    H.clause = 2;
    H.probe = 2;
    H.time_ns = tscc_host_now_ns();
    EXPECT_EQ(
        tscc_ring_write(V, static_cast<uint32_t>(Slot), &H, &Rec, sizeof(Rec)),
        0);
    Written.set_value();
    Release.get_future().wait();
    tscc_store_unlock(V, Tid);
  });
  Written.get_future().wait();
  uint64_t Releases = S->releaseCount();
  // The exit cannot deliver the record while the lock is held: kept.
  S->threadExited(T, 100);
  S->targetExited(T, 0, 0);
  EXPECT_FALSE(T.releasedBySession());
  EXPECT_EQ(Out.str().find("total 5"), std::string::npos) << Out.str();
  Release.set_value();
  Holder.join();
  // Now it is delivered, under the target's pid, and the target released.
  S->deliverExited();
  EXPECT_NE(Out.str().find("total 5\n"), std::string::npos) << Out.str();
  EXPECT_TRUE(T.releasedBySession());
  EXPECT_GT(S->releaseCount(), Releases);
  S->targetFreed(); // as its backend does when it destroys it
  S->end();
  EXPECT_NE(Diag.str().find("1 traced process exited; bookkeeping still "
                            "held for 0 of them (at most 1 at once)"),
            std::string::npos)
      << Diag.str();
}

TEST_F(SessionTest, WithinTracksActivations) {
  auto S = make();
  FakeTarget T(100, DataModel::LP64, "prog");
  auto Fire = [&](int64_t Tid) {
    FireEvent E = fooEvent(T, 1);
    E.Tid = Tid;
    S->fire(E);
  };
  auto InFoo = [&] {
    std::string All = Out.str();
    size_t N = 0;
    for (size_t At = All.find("in foo"); At != std::string::npos;
         At = All.find("in foo", At + 1))
      ++N;
    return N;
  };
  S->withinExit(T, 100, 0); // an exit without an entry never underflows
  Fire(100);
  EXPECT_EQ(InFoo(), 0u);
  S->withinEnter(T, 100, 0);
  S->withinEnter(T, 100, 0); // recursion
  Fire(100);
  EXPECT_EQ(InFoo(), 1u);
  Fire(101); // another thread is not inside foo
  EXPECT_EQ(InFoo(), 1u);
  S->withinExit(T, 100, 0);
  Fire(100);
  EXPECT_EQ(InFoo(), 2u);
  S->withinExit(T, 100, 0);
  Fire(100);
  EXPECT_EQ(InFoo(), 2u);
  S->withinEnter(T, 100, 0);
  S->threadExited(T, 100); // forgets the thread's activations
  Fire(100);
  EXPECT_EQ(InFoo(), 2u);
  S->withinEnter(T, 100, 99); // out of range: ignored
}

TEST(SessionCrashTest, CrashingClausesAreAbandonedAndCounted) {
  std::string Err;
  auto P = ProbeProgram::load(fixture("crash.o"), Err);
  ASSERT_TRUE(P) << Err;
  MemFile Out, Diag;
  SessionOptions O;
  O.Diag = Diag.file();
  Session S(*P,
            createTextSink(*P, Out.file(), false, TextOptions{nullptr, false}),
            O);
  S.begin(); // SIGSEGV in BEGIN
  FakeTarget T(1, DataModel::LP64, "p");
  for (uint64_t D : {4, 0, 0, 5}) { // SIGFPE twice
    FireEvent E;
    E.Tgt = &T;
    E.Tid = 1;
    E.Probe = 1;
    E.Regs[TSCC_REG_RDI] = D;
    S.fire(E);
  }
  S.end();
  EXPECT_EQ(Out.str(), "100/4=25\n100/5=20\n");
  auto C = S.counters();
  EXPECT_EQ(C[0].Faults, 1u);
  EXPECT_EQ(C[1].Faults, 2u);
  EXPECT_EQ(C[1].Fired, 4u);
  std::string D = Diag.str();
  EXPECT_NE(D.find("tsrun: warning: clause 0 (line 1) crashed with SIGSEGV at "
                   "0x"),
            std::string::npos)
      << D;
  EXPECT_NE(D.find("clause 1 (line 2) crashed with SIGFPE"), std::string::npos)
      << D;
}

TEST(SessionHelpersTest, ReadStrStopsAtPagesAndZeroFills) {
  std::string Err;
  auto P = ProbeProgram::load(fixture("helpers.o"), Err);
  ASSERT_TRUE(P) << Err;
  MemFile Out;
  SessionOptions O;
  O.Diag = nullptr;
  Session S(*P,
            createTextSink(*P, Out.file(), false, TextOptions{nullptr, false}),
            O);
  FakeTarget T(1, DataModel::LP64, "p");
  auto bytes = [](const char *S, size_t N) {
    return std::vector<uint8_t>(S, S + N);
  };
  T.map(0x1000, bytes("hi\0XYZWVUTSRQPONMLK", 20)); // garbage after the NUL
  T.map(0x2000, bytes("0123456789abcdefghij", 20)); // longer than max - 1
  T.map(0x3ffd, bytes("ab", 3));                // NUL is the page's last byte
  T.map(0x4ff0, bytes("no terminator!!!", 16)); // runs into an unmapped page
  for (uint64_t Addr : {0x1000, 0x2000, 0x3ffd, 0x4ff8, 0x9000}) {
    FireEvent E;
    E.Tgt = &T;
    E.Tid = 1;
    E.Probe = 0;
    E.Regs[TSCC_REG_RDI] = Addr;
    S.fire(E);
  }
  EXPECT_EQ(Out.str(), "n=2 s=hi tail=0\n"
                       "n=15 s=0123456789abcde tail=65646362613938\n"
                       "n=2 s=ab tail=0\n"
                       "n=-1 s= tail=0\n"
                       "n=-1 s= tail=0\n");
  EXPECT_EQ(S.counters()[0].Faults, 2u);
}

} // namespace
