//===- PtraceBackendTest.cpp - PtraceBackend against real programs --------===//
//
// Each test launches Inputs/target.c in one mode under a PtraceBackend with
// code-less probes (one clause per probe) and compares the session's
// per-probe hit counts with what the program printed about itself.
//
//===----------------------------------------------------------------------===//
#include "BackendHarness.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <future>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

constexpr uint32_t Entry = TSCC_PROBE_UFT_ENTRY;
constexpr uint32_t Exit = TSCC_PROBE_UFT_EXIT;

ProbeDesc uft(uint32_t Kind, std::string Func, std::string Module = "a.out") {
  ProbeDesc D{Kind};
  D.Function = std::move(Func);
  D.Module = std::move(Module);
  return D;
}

class PtraceBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    Out = ::testing::TempDir() + "/ptrace-target-" + std::to_string(getpid()) +
          "-" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          ".out";
    setenv("TARGET_OUT", Out.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("TARGET_OUT");
    unlink(Out.c_str());
  }
  RunResult launch(const std::vector<ProbeDesc> &Probes,
                   std::vector<std::string> Args) {
    PtraceOptions O;
    Args.insert(Args.begin(), TARGET_PATH);
    O.Commands.push_back(Args);
    RunResult R = runSession(Probes, O);
    EXPECT_TRUE(R.Started) << R.Error;
    for (const std::string &W : R.Rec.Warnings)
      ADD_FAILURE() << "warning: " << W;
    return R;
  }
  std::map<std::string, long> values() { return readValues(Out); }
  std::string Out;
};

TEST_F(PtraceBackendTest, EntryAndExitAcrossThreads) {
  RunResult R =
      launch({uft(Entry, "work"), uft(Exit, "work")}, {"threads", "8", "500"});
  auto V = values();
  ASSERT_EQ(V["work_calls"], 4000);
  EXPECT_EQ(R.Hits[0], 4000u);
  EXPECT_EQ(R.Hits[1], 4000u);
  ASSERT_EQ(R.Rec.Exits.size(), 1u);
  EXPECT_EQ(R.Rec.Exits[0].substr(R.Rec.Exits[0].find(' ')), " 0 0");
}

TEST_F(PtraceBackendTest, RecursionExitProbes) {
  RunResult R =
      launch({uft(Entry, "rec"), uft(Exit, "rec")}, {"recurse", "25"});
  auto V = values();
  EXPECT_EQ(V["rec_calls"], 26);
  EXPECT_EQ(static_cast<long>(R.Hits[0]), V["rec_calls"]);
  EXPECT_EQ(static_cast<long>(R.Hits[1]), V["rec_calls"]);
  // The program checks its own result: a wrong return path breaks it.
  EXPECT_EQ(R.Rec.Exits.back().substr(R.Rec.Exits.back().find(' ')), " 0 0");
}

// Every way of displacing an instruction: RIP-relative (out of line),
// call/jmp/jcc (emulated), sub $imm,%rsp (out of line), FUNC+OFFSET on a
// conditional branch and on an indirect call (rewritten out of line). The
// program verifies every result itself.
TEST_F(PtraceBackendTest, DisplacedInstructionsKeepSemantics) {
  ProbeDesc Off = uft(TSCC_PROBE_UFT_OFFSET, "jcc_func");
  Off.Offset = 2;
  ProbeDesc ICall = uft(TSCC_PROBE_UFT_OFFSET, "icall_func");
  ICall.Offset = 7; // call *%rax, run out of line
  RunResult R =
      launch({uft(Entry, "rip_func"), uft(Entry, "call_func"),
              uft(Entry, "jmp_func"), uft(Entry, "sub_func"),
              uft(Entry, "jcc_func"), Off, uft(Exit, "call_func"), ICall},
             {"variety", "50"});
  auto V = values();
  ASSERT_EQ(V["variety_calls"], 50);
  EXPECT_EQ(V["bad"], 0);
  // rip_func runs directly, from call_func, via jmp_func, from sub_func
  // and from icall_func.
  EXPECT_EQ(R.Hits[0], 250u);
  for (int I = 1; I <= 7; ++I)
    EXPECT_EQ(R.Hits[I], 50u) << "probe " << I;
}

TEST_F(PtraceBackendTest, ForkedChildrenAreTraced) {
  RunResult R = launch({uft(Entry, "work")}, {"fork", "3"});
  auto V = values();
  ASSERT_EQ(V["work_calls"], 40);
  EXPECT_EQ(R.Hits[0], 40u);
  EXPECT_EQ(R.Rec.Exits.size(), 4u);
}

TEST_F(PtraceBackendTest, ExecIsReResolved) {
  RunResult R =
      launch({uft(Entry, "work")}, {"exec", TARGET_PATH, "threads", "2", "10"});
  auto V = values();
  ASSERT_EQ(V["work_calls"], 20);
  EXPECT_EQ(R.Hits[0], 23u); // 3 before exec, 20 after
}

TEST_F(PtraceBackendTest, DlopenedLibraryBeforeItsConstructor) {
  RunResult R = launch({uft(Entry, "lib_func", "libptrace-testlib.so")},
                       {"dlopen", TESTLIB_PATH, "5"});
  auto V = values();
  ASSERT_EQ(V["lib_func_calls"], 6);
  EXPECT_EQ(R.Hits[0], 6u); // includes the call from the constructor
}

TEST_F(PtraceBackendTest, SyscallEntryAndExit) {
  ProbeDesc In{TSCC_PROBE_SYSCALL_ENTRY};
  In.Function = "getppid";
  ProbeDesc Ret{TSCC_PROBE_SYSCALL_EXIT};
  Ret.Function = "getppid";
  RunResult R = launch({In, Ret}, {"syscalls", "300"});
  auto V = values();
  ASSERT_EQ(V["getppid_calls"], 300);
  EXPECT_EQ(R.Hits[0], 300u);
  EXPECT_EQ(R.Hits[1], 300u);
}

TEST_F(PtraceBackendTest, SignalsAreDelivered) {
  RunResult R = launch({uft(Entry, "work")}, {"signals", "20"});
  auto V = values();
  ASSERT_EQ(V["work_calls"], 20);
  EXPECT_EQ(R.Hits[0], 20u);
}

TEST_F(PtraceBackendTest, LongjmpUnwindsTheShadowStack) {
  RunResult R =
      launch({uft(Exit, "jumper"), uft(Exit, "work")}, {"longjmp", "6"});
  auto V = values();
  ASSERT_EQ(V["jumper_calls"], 6);
  EXPECT_EQ(static_cast<long>(R.Hits[0]), V["jumper_returns"]);
  EXPECT_EQ(static_cast<long>(R.Hits[1]), V["work_calls"]);
}

TEST_F(PtraceBackendTest, LibcFunctionsByGlob) {
  ProbeDesc D = uft(Entry, "getppid", "libc.so.6");
  RunResult R = launch({D}, {"syscalls", "10"});
  // syscall(SYS_getppid) does not go through getppid(): nothing fires,
  // but the probe is attached.
  EXPECT_EQ(R.Hits[0], 0u);
  bool Attached = false;
  for (const std::string &P : R.Rec.Probes)
    Attached |= P == "0 getppid libc.so.6";
  EXPECT_TRUE(Attached);
}

TEST_F(PtraceBackendTest, BadCommandFailsToStart) {
  PtraceOptions O;
  O.Commands.push_back({"/nonexistent/program"});
  RunResult R = runSession({uft(Entry, "work")}, O);
  EXPECT_FALSE(R.Started);
  EXPECT_NE(R.Error.find("/nonexistent/program"), std::string::npos);
}

// Attach to a running process, count, detach; the process then finishes
// normally: no breakpoint and no hijacked return address is left behind.
TEST_F(PtraceBackendTest, AttachCountDetach) {
  unsetenv("TARGET_OUT");
  int In[2], Ready[2];
  ASSERT_EQ(pipe(In), 0);
  ASSERT_EQ(pipe(Ready), 0);
  pid_t Child = fork();
  if (Child == 0) {
    dup2(In[0], 0);
    dup2(Ready[1], 1);
    close(In[1]);
    close(Ready[0]);
    execl(TARGET_PATH, TARGET_PATH, "wait", "300", (char *)nullptr);
    _exit(127);
  }
  close(In[0]);
  close(Ready[1]);
  // The program's lines, one at a time (a line may take several writes).
  auto ReadLine = [&] {
    std::string L;
    char C;
    while (read(Ready[0], &C, 1) == 1 && C != '\n')
      L += C;
    return L;
  };
  ASSERT_EQ(ReadLine(), "ready");

  TableBuilder TB({uft(Entry, "work"), uft(Exit, "work")});
  std::string Err;
  auto Prog = TB.program(Err);
  ASSERT_TRUE(Prog) << Err;
  Recorded Rec;
  {
    Session S(*Prog, std::make_unique<RecordingSink>(Rec));
    PtraceOptions O;
    O.Pids.push_back(Child);
    PtraceBackend B(S, O);
    std::promise<bool> Started;
    std::thread T([&] {
      std::string E;
      bool Ok = B.start(E);
      EXPECT_TRUE(Ok) << E;
      Started.set_value(Ok);
      B.run();
    });
    ASSERT_TRUE(Started.get_future().get());
    S.begin();
    ASSERT_EQ(write(In[1], "g", 1), 1);
    EXPECT_EQ(ReadLine(), "work_calls=300");
    B.interrupt();
    T.join();
    S.end();
  }
  ASSERT_GE(Rec.Counters.size(), 2u);
  EXPECT_EQ(Rec.Counters[0].Fired, 300u);
  EXPECT_EQ(Rec.Counters[1].Fired, 300u);
  // Detached: let it finish; it must exit normally.
  ASSERT_EQ(write(In[1], "x", 1), 1);
  int St = 0;
  ASSERT_EQ(waitpid(Child, &St, 0), Child);
  EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 0) << St;
}

// Interrupting a session kills launched commands (the default) and
// reports it.
TEST_F(PtraceBackendTest, InterruptKillsLaunchedCommand) {
  TableBuilder TB({uft(Entry, "work")});
  std::string Err;
  auto Prog = TB.program(Err);
  ASSERT_TRUE(Prog) << Err;
  Recorded Rec;
  int In[2];
  ASSERT_EQ(pipe(In), 0);
  // The command blocks reading a pipe nobody writes.
  int SavedStdin = dup(0);
  dup2(In[0], 0);
  {
    Session S(*Prog, std::make_unique<RecordingSink>(Rec));
    PtraceOptions O;
    O.Commands.push_back({TARGET_PATH, "wait", "1"});
    PtraceBackend B(S, O);
    std::promise<bool> Started;
    std::thread T([&] {
      std::string E;
      Started.set_value(B.start(E));
      B.run();
    });
    ASSERT_TRUE(Started.get_future().get());
    dup2(SavedStdin, 0);
    B.interrupt();
    T.join();
    S.end();
  }
  close(In[0]);
  close(In[1]);
  ASSERT_EQ(Rec.Exits.size(), 1u);
  EXPECT_EQ(Rec.Exits[0].substr(Rec.Exits[0].find(' ')),
            " 0 " + std::to_string(SIGKILL));
}

} // namespace

namespace {

/// Runs Cmd under bpftrace and returns @m and @f (malloc/free counts of
/// the command's own process), or -1 when bpftrace is unavailable.
std::pair<long, long> bpftraceCounts(const std::string &Cmd) {
  if (std::system("command -v bpftrace >/dev/null 2>&1") != 0 || geteuid())
    return {-1, -1};
  std::string Out =
      ::testing::TempDir() + "/bpftrace-" + std::to_string(getpid()) + ".txt";
  std::string Prog =
      "uprobe:/lib/x86_64-linux-gnu/libc.so.6:malloc /pid == cpid/ "
      "{ @m = count(); } "
      "uprobe:/lib/x86_64-linux-gnu/libc.so.6:free /pid == cpid/ "
      "{ @f = count(); }";
  std::string Full = "bpftrace -e '" + Prog + "' -o " + Out + " -c '" + Cmd +
                     "' > /dev/null 2>&1";
  if (std::system(Full.c_str()) != 0)
    return {-1, -1};
  std::ifstream In(Out);
  std::string Key;
  long M = 0, F = 0, V;
  while (In >> Key) {
    if (Key == "@m:" && In >> V)
      M = V;
    else if (Key == "@f:" && In >> V)
      F = V;
  }
  unlink(Out.c_str());
  return {M, F};
}

// Real programs: malloc/free counts in libc agree with bpftrace's uprobes.
// (gzip happens to call neither; both tools must agree on that too.)
TEST(PtraceRealBinaries, MallocFreeMatchBpftrace) {
  long Total = 0;
  for (std::vector<std::string> Argv :
       {std::vector<std::string>{"/usr/bin/ls", "-la", "/usr/lib"},
        std::vector<std::string>{"/usr/bin/sort", "/etc/services"},
        std::vector<std::string>{"/usr/bin/gzip", "-c", "/etc/services"}}) {
    std::string Cmd;
    for (const std::string &A : Argv)
      Cmd += (Cmd.empty() ? "" : " ") + A;
    auto [BM, BF] = bpftraceCounts(Cmd);
    if (BM < 0)
      GTEST_SKIP() << "bpftrace is not available (or not root)";
    PtraceOptions O;
    O.Commands.push_back(Argv);
    // The command's output is not ours to print.
    fflush(stdout);
    int Saved = dup(1);
    int Null = open("/dev/null", O_WRONLY);
    dup2(Null, 1);
    RunResult R = runSession(
        {uft(Entry, "malloc", "libc.so.6"), uft(Entry, "free", "libc.so.6")},
        O);
    dup2(Saved, 1);
    close(Saved);
    close(Null);
    ASSERT_TRUE(R.Started) << R.Error;
    Total += BM;
    EXPECT_EQ(static_cast<long>(R.Hits[0]), BM) << Cmd;
    EXPECT_EQ(static_cast<long>(R.Hits[1]), BF) << Cmd;
  }
  EXPECT_GT(Total, 100);
}

} // namespace

namespace {

// Ending the session while a thread is inside a function whose return
// address was hijacked by an exit probe: with --keep-launched the process
// is detached with its real return address back in place, returns
// normally and exits 0.
TEST(PtraceDetach, RestoresHijackedReturnAddresses) {
  TableBuilder TB({uft(Exit, "blocker"), uft(Entry, "blocker")});
  std::string Err;
  auto Prog = TB.program(Err);
  ASSERT_TRUE(Prog) << Err;
  Recorded Rec;
  int In[2], Out[2];
  ASSERT_EQ(pipe(In), 0);
  ASSERT_EQ(pipe(Out), 0);
  int Saved0 = dup(0), Saved1 = dup(1);
  dup2(In[0], 0);
  dup2(Out[1], 1);
  pid_t Pid = 0;
  {
    Session S(*Prog, std::make_unique<RecordingSink>(Rec));
    PtraceOptions O;
    O.Commands.push_back({TARGET_PATH, "block"});
    O.KillLaunchedOnStop = false;
    PtraceBackend B(S, O);
    std::promise<bool> Started;
    std::thread T([&] {
      std::string E;
      Started.set_value(B.start(E));
      B.run();
    });
    ASSERT_TRUE(Started.get_future().get());
    dup2(Saved0, 0);
    dup2(Saved1, 1);
    close(In[0]);
    close(Out[1]);
    S.begin();
    std::string Line;
    char C;
    while (read(Out[0], &C, 1) == 1 && C != '\n')
      Line += C;
    ASSERT_EQ(Line, "in"); // inside blocker(), return address hijacked
    B.interrupt();
    T.join();
    S.end();
  }
  ASSERT_FALSE(Rec.Attached.empty());
  Pid = std::atoi(Rec.Attached[0].c_str() + Rec.Attached[0].find(' ') + 1);
  ASSERT_GT(Pid, 0);
  ASSERT_GE(Rec.Counters.size(), 2u);
  EXPECT_EQ(Rec.Counters[0].Fired, 0u); // the exit never happened traced
  EXPECT_EQ(Rec.Counters[1].Fired, 1u);
  ASSERT_EQ(write(In[1], "x", 1), 1);
  std::string Rest;
  char C;
  while (read(Out[0], &C, 1) == 1)
    Rest += C;
  EXPECT_EQ(Rest, "blocker=7\n");
  int St = 0;
  ASSERT_EQ(waitpid(Pid, &St, 0), Pid);
  EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 0) << St;
  close(In[1]);
  close(Out[0]);
}

} // namespace
