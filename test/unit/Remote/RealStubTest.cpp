//===- RealStubTest.cpp - The client against qemu-i386 and gdbserver ------===//
//
// Starts the real stubs on a test program (Inputs/values.c, built -m32 and
// -m64) and checks what the backend relies on: the negotiated features, the
// architecture and registers, memory reads and faults, Z0 breakpoints and
// stepping, syscall catching where offered, and the process's exit.
//
//===----------------------------------------------------------------------===//
#include "StubProcess.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/RspClient.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

uint64_t readPC(RspClient &C, const RspThreadId &T) {
  const RspRegister *PC = C.findRegister("eip");
  if (!PC)
    PC = C.findRegister("rip");
  EXPECT_TRUE(PC);
  EXPECT_TRUE(C.selectThread(T));
  std::string Raw;
  EXPECT_TRUE(C.readRegisterBlock(Raw));
  uint64_t V = 0;
  if (PC && PC->Offset + PC->BitSize / 8 <= Raw.size())
    memcpy(&V, Raw.data() + PC->Offset, PC->BitSize / 8);
  return V;
}

TEST(RealStub, QemuI386) {
  if (!have("qemu-i386"))
    GTEST_SKIP() << "qemu-i386 not installed";
  std::string Exe = remoteInput("values32");
  std::string Err;
  auto Elf = ElfFile::open(Exe, Err);
  ASSERT_TRUE(Elf) << Err;
  StubProcess Stub;
  ASSERT_TRUE(Stub.start({"qemu-i386", "-g", "{port}", Exe}));
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 10000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  EXPECT_EQ(C->architecture(), "i386");
  EXPECT_TRUE(C->features().XferAuxv);
  EXPECT_FALSE(C->features().CatchSyscalls);
  ASSERT_TRUE(C->findRegister("eip"));
  EXPECT_EQ(C->findRegister("eip")->BitSize, 32u);

  // The load bias from the auxiliary vector: AT_ENTRY against e_entry.
  auto Auxv = C->readXfer("auxv", "");
  ASSERT_TRUE(Auxv);
  uint64_t Entry = 0;
  for (size_t I = 0; I + 8 <= Auxv->size(); I += 8) {
    uint32_t Type, Val;
    memcpy(&Type, Auxv->data() + I, 4);
    memcpy(&Val, Auxv->data() + I + 4, 4);
    if (Type == 9) // AT_ENTRY
      Entry = Val;
  }
  ASSERT_NE(Entry, 0u);
  uint64_t Bias = Entry - Elf->entry();
  char Magic[4];
  ASSERT_TRUE(C->readMemory(Bias + Elf->firstLoadAddress(), Magic, 4));
  EXPECT_EQ(memcmp(Magic,
                   "\x7f"
                   "ELF",
                   4),
            0);
  // Unmapped memory is a fault, reported as such.
  uint32_t Zero = 1;
  EXPECT_FALSE(C->readMemory(0, &Zero, 4));
  EXPECT_EQ(Zero, 0u);
  // More than one packet's worth comes back whole.
  std::vector<uint8_t> Big(10000);
  EXPECT_TRUE(
      C->readMemory(Bias + Elf->firstLoadAddress(), Big.data(), Big.size()));
  EXPECT_EQ(memcmp(Big.data(),
                   "\x7f"
                   "ELF",
                   4),
            0);

  const ElfSymbol *Foo = Elf->findFunction("foo");
  ASSERT_TRUE(Foo);
  RspStop Stop;
  runTo(*C, Foo->Value + Bias, Stop);
  EXPECT_EQ(readPC(*C, Stop.Thread), Foo->Value + Bias);
  // qemu does not step over its own breakpoints: remove, step, reinsert.
  ASSERT_TRUE(C->removeBreakpoint(Foo->Value + Bias, 1));
  RspStop Step;
  ASSERT_TRUE(C->stepThread(Stop.Thread, Step));
  EXPECT_NE(readPC(*C, Step.Thread), Foo->Value + Bias);
  ASSERT_TRUE(C->kill());
}

TEST(RealStub, Gdbserver64) {
  if (!have("gdbserver"))
    GTEST_SKIP() << "gdbserver not installed";
  std::string Exe = remoteInput("values64");
  StubProcess Stub;
  ASSERT_TRUE(Stub.start({"gdbserver", "127.0.0.1:{port}", Exe}));
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 10000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  EXPECT_EQ(C->architecture(), "i386:x86-64");
  EXPECT_TRUE(C->features().NoAckMode);
  EXPECT_TRUE(C->features().CatchSyscalls);
  EXPECT_TRUE(C->features().XferLibrariesSvr4);
  ASSERT_TRUE(C->findRegister("rip"));
  ASSERT_TRUE(C->findRegister("orig_rax"));
  EXPECT_GT(C->initialStop().Thread.Pid, 1);

  // getppid is 110 on x86-64: catch its entry and its return. gdbserver
  // 13 labels the first one after attaching "syscall_return" (its
  // entry/return toggle starts out of phase), so check the number and the
  // registers, which is what the backend relies on: rax is -ENOSYS at entry.
  ASSERT_TRUE(C->catchSyscalls(true, {110}));
  const RspRegister *Rax = C->findRegister("rax");
  ASSERT_TRUE(Rax);
  int64_t RaxValues[2] = {};
  for (int64_t &V : RaxValues) {
    ASSERT_TRUE(C->resumeAll());
    RspStop Stop;
    ASSERT_EQ(C->waitStop(Stop, -1), RspClient::WaitResult::Stopped);
    EXPECT_TRUE(Stop.K == RspStop::SyscallEntry ||
                Stop.K == RspStop::SyscallReturn);
    EXPECT_EQ(Stop.SyscallNr, 110u);
    ASSERT_TRUE(C->selectThread(Stop.Thread));
    std::string Raw;
    ASSERT_TRUE(C->readRegisterBlock(Raw));
    memcpy(&V, Raw.data() + Rax->Offset, 8);
  }
  EXPECT_EQ(RaxValues[0], -38);      // -ENOSYS: on the way in
  EXPECT_EQ(RaxValues[1], Stub.Pid); // the program's parent is gdbserver
  RspStop Stop;
  ASSERT_TRUE(C->catchSyscalls(false, {}));
  ASSERT_TRUE(C->resumeAll());
  ASSERT_EQ(C->waitStop(Stop, -1), RspClient::WaitResult::Stopped);
  EXPECT_EQ(Stop.K, RspStop::Exited);
  EXPECT_EQ(Stop.Code, 0);
}

} // namespace
